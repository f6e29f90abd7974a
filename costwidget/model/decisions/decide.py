"""One decision: which classifier to deploy, with which rule, at what cost.

:func:`decide` answers the question every view of the widget shows a part of (the headline,
the readout, ``w.decision_rule()``, the constraint's marks, the decision-curve pane), once, in
a frozen :class:`Decision`. Each shown classifier gets its optimal point (``clf.best``, the
lower envelope), the paper's constrained point (``clf.neyman_pearson``/``clf.workforce``,
Drummond & Holte (2000), sec. 2.2.2) and its rule: the cheapest rule the constraint allows
(:func:`costwidget.model.decisions.deploy.decision_rule`). The classifier to deploy is the one whose rule
costs least per case, by the readout's tie rule (:func:`lowest_names`); the headline, the
readout's rows and the decision-curve point are made from those rules, so they cannot disagree.

``js/src/operating_point.mjs`` ``decide`` computes the same record in the browser
(``Decision.to_dict()``, field for field; ``tests/test_frontend_parity.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields

import pandas as pd

from ..base.results import ConstrainedPoint, OperatingPoint
from ..kernels.costs import cost_scale, probability_cost
from ..kernels.json_values import jsonable
from ..kernels.readable import lowest_names, readable, threshold_text
from .case_limits import case_limited_part
from .decision_words import headline, honest_words
from .deploy import DecisionRule, rule_and_next_scores
from .operating import deployed_at, readout_row
from .per_case import per_case_setting
from .runner_up import RunnerUpBand, fitting_band

__all__ = ["Decision", "ClassifierDecision", "DecisionCurvePoint", "decide", "CONSTRAINTS"]

#: The constraints, as the widget state's ``constraint`` names them.
CONSTRAINTS = ("none", "neyman_pearson", "workforce")

_CP_FIELDS = (
    "kind",
    "fpr",
    "tpr",
    "binding",
    "randomized",
    "threshold_low",
    "threshold_high",
    "prob_low",
    "single_threshold",
    "single_fpr",
    "single_tpr",
    "message",
)


@dataclass(frozen=True)
class ClassifierDecision:
    """One shown classifier's part of a :class:`Decision`.

    Attributes
    ----------
    name : str
    best : OperatingPoint
        The optimal hull vertex at the decision's PCF(+) (``clf.best``), unconstrained, with
        its threshold as deployed (`deployed_threshold`: the readout's ``threshold``).
    constrained : ConstrainedPoint or None
        The paper's constrained point (the largest TPR the limit allows); None without a
        constraint.
    rule : DecisionRule
        The cheapest rule the constraint allows (``rule.binding``: whether the limit raises
        this classifier's cost), its thresholds as deployed.
    next_score_high, next_score_low : float
        The next lower distinct score of the classifier's data below the lowest score that
        ``rule.threshold_high`` and ``rule.threshold_low`` flag (``-inf`` below the lowest,
        NaN without scores): the deployed threshold lies above it.
    shown_high, shown_low : str
        Those thresholds as the headline and the readout show them: in full
        (`threshold_text`), so that the number shown is the number deployed.
    """

    name: str
    best: OperatingPoint
    constrained: ConstrainedPoint | None
    rule: DecisionRule
    next_score_high: float
    next_score_low: float
    shown_high: str
    shown_low: str

    def to_dict(self) -> dict:
        b = self.best
        cp = self.constrained
        return {
            "name": self.name,
            "best": jsonable(
                {"pcf": b.pcf, "threshold": b.threshold, "fpr": b.fpr, "tpr": b.tpr, "nec": b.nec}
            ),
            "constrained": None
            if cp is None
            else jsonable({f: getattr(cp, f) for f in _CP_FIELDS}),
            "rule": self.rule.to_dict(),
            "next_score_high": jsonable(self.next_score_high),
            "next_score_low": jsonable(self.next_score_low),
            "shown_high": self.shown_high,
            "shown_low": self.shown_low,
        }


@dataclass(frozen=True)
class DecisionCurvePoint:
    """Where the decision's rules sit in the decision-curve pane (Vickers & Elkin 2006).

    Attributes
    ----------
    threshold_probability : float
        ``pt = C(+|-) / (C(+|-) + C(-|+))``: treating pays iff the risk is at least pt.
    prevalence : float
        p(+), the population net benefit is reported for (the decision's own).
    net_benefit : tuple of (str, float)
        Each classifier's rule: ``NB = TPR·p - pt/(1-pt)·FPR·(1-p)``; NaN at pt = 1 (a false
        positive would cost infinitely much; ``decision_curve`` refuses pt = 1).
    chosen : float
        The chosen classifier's; NaN on a tie or with none shown.
    """

    threshold_probability: float
    prevalence: float
    net_benefit: tuple
    chosen: float

    def to_dict(self) -> dict:
        return {
            "threshold_probability": jsonable(self.threshold_probability),
            "prevalence": jsonable(self.prevalence),
            "net_benefit": [[n, jsonable(v)] for n, v in self.net_benefit],
            "chosen": jsonable(self.chosen),
        }


@dataclass(frozen=True)
class Decision:
    """What to deploy at one operating point, and what it costs: the widget's one answer.

    Made by :func:`decide`; see there for the rules.

    Attributes
    ----------
    p_pos, cost_fn, cost_fp, pcf : float
        The operating point: prevalence, C(-|+), C(+|-) and PCF(+).
    constraint : str
        ``"none"``, ``"neyman_pearson"`` or ``"workforce"``.
    max_fpr : float or None
        The Neyman-Pearson limit (None under another constraint).
    capacity, n_pos, n_neg : float or None
        The workforce capacity in cases and its population (None under another constraint;
        ``n_pos``/``n_neg`` None: each classifier's own class totals).
    classifiers : tuple of ClassifierDecision
        One per shown classifier, in the order given.
    rows : tuple of (str, dict)
        The readout's rows (the columns of ``w.readout``; see `operating.readout_row`).
    lowest : tuple of str
        The classifiers whose rule costs least per case (ties included, `lowest_names`), on
        new data when ``on_new_data``.
    chosen : str or None
        The one classifier to deploy; None on a tie or with none shown.
    tie : bool
        True when several classifiers share the lowest cost.
    rule : DecisionRule or None
        The chosen classifier's rule.
    binding : bool or None
        True exactly when the decision without the limit is not allowed by it: the cheapest
        allowed rule of any classifier costs more than the cheapest rule without the limit
        (beyond the tie rule of `lowest_names`). None without a constraint or with no cost to
        compare. Each classifier's own ``rule.binding`` says the same of its rule.
    headline : str
        The answer: the main sentence, then short qualifiers after the first "; ".
    decision_curve : DecisionCurvePoint or None
        The rules' net benefit at the current p(+) and pt; None with per-case costs (the
        decision curve prices each class, and per-case costs have no single pt).
    runner_up_band : RunnerUpBand or None
        The paired band of the runner-up's cost minus the chosen one's that the headline
        states (`runner_up_band`); None when none was given or it is of another state.
    runner_up : str or None
        The headline's "next best": the cheapest after ``chosen`` on the decision's scale.
    on_new_data : bool
        True when the choice is made on the cost on new data (`decide`'s ``honest=``).
    """

    p_pos: float
    cost_fn: float
    cost_fp: float
    pcf: float
    constraint: str
    max_fpr: float | None
    capacity: float | None
    n_pos: float | None
    n_neg: float | None
    classifiers: tuple
    rows: tuple
    lowest: tuple
    chosen: str | None
    tie: bool
    rule: DecisionRule | None
    binding: bool | None
    headline: str
    decision_curve: DecisionCurvePoint | None
    runner_up_band: RunnerUpBand | None = None
    runner_up: str | None = None
    on_new_data: bool = False

    @property
    def names(self) -> list:
        """The shown classifiers' names, in order."""
        return [c.name for c in self.classifiers]

    def of(self, name: str) -> ClassifierDecision:
        """The part of the decision of classifier ``name``."""
        for c in self.classifiers:
            if c.name == name:
                return c
        raise ValueError(
            f"No classifier named {name!r} is shown; the shown classifiers are {self.names}."
        )

    def rule_for(self, name: str | None = None) -> DecisionRule:
        """The rule of classifier ``name``; by default the chosen classifier's.

        Raises
        ------
        ValueError
            With no classifier shown; on a tie (naming the tied classifiers: pass ``name=``);
            for a name not shown (listing the shown ones).

        Examples
        --------
        >>> import costwidget as cw
        >>> a = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9], name="a")
        >>> d = cw.decide([a, a.renamed("b")], p_pos=0.5)
        >>> d.tie, d.lowest
        (True, ('a', 'b'))
        >>> d.rule_for()
        Traceback (most recent call last):
        ...
        ValueError: 'a' and 'b' tie at the lowest cost (0.25 per case): no one classifier is the best here. Pass name= to choose one of them, e.g. name='a'.
        >>> d.rule_for("b").threshold
        0.4
        """
        if name is not None:
            return self.of(name).rule
        if not self.classifiers:
            raise ValueError(
                "No classifier is shown, so there is no rule to deploy: show one, or pass name=."
            )
        if self.tie:
            tied = list(self.lowest)
            said = ", ".join(repr(n) for n in tied[:-1]) + f" and {tied[-1]!r}"
            cost = self.of(tied[0]).rule.expected_cost
            raise ValueError(
                f"{said} tie at the lowest cost ({readable(cost)} per case): no "
                f"one classifier is the best here. Pass name= to choose one of them, "
                f"e.g. name={tied[0]!r}."
            )
        if self.rule is None:
            raise ValueError("No classifier has a cost to compare here; pass name=.")
        return self.rule

    def table(self) -> pd.DataFrame:
        """The readout as a DataFrame indexed by ``classifier`` (what ``w.readout`` shows).

        Examples
        --------
        >>> import costwidget as cw
        >>> a = cw.Classifier.from_confusion(tp=8, fn=2, fp=1, tn=9, name="a")
        >>> cw.decide([a], p_pos=0.5).table()[["fpr", "tpr", "nec"]]
                    fpr  tpr   nec
        classifier
        a           0.1  0.8  0.15
        """
        return pd.DataFrame(
            [row for _, row in self.rows],
            index=pd.Index([name for name, _ in self.rows], name="classifier"),
        )

    def to_dict(self) -> dict:
        """The decision as JSON-ready plain values (``"inf"``/``"-inf"`` for infinities, None for
        NaN, as `DecisionRule.to_dict`); the browser's ``decide`` returns the same.

        Examples
        --------
        >>> import json
        >>> import costwidget as cw
        >>> a = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9], name="a")
        >>> d = json.loads(json.dumps(cw.decide([a], p_pos=0.5).to_dict()))
        >>> d["chosen"], d["rule"]["threshold"], d["classifiers"][0]["best"]["threshold"]
        ('a', 0.4, 0.4)
        """
        return {
            "p_pos": self.p_pos,
            "cost_fn": self.cost_fn,
            "cost_fp": self.cost_fp,
            "pcf": self.pcf,
            "constraint": self.constraint,
            "max_fpr": jsonable(self.max_fpr),
            "capacity": jsonable(self.capacity),
            "n_pos": jsonable(self.n_pos),
            "n_neg": jsonable(self.n_neg),
            "classifiers": [c.to_dict() for c in self.classifiers],
            "rows": [[name, jsonable(row)] for name, row in self.rows],
            "lowest": list(self.lowest),
            "chosen": self.chosen,
            "tie": self.tie,
            "rule": None if self.rule is None else self.rule.to_dict(),
            "binding": self.binding,
            "headline": self.headline,
            "decision_curve": (
                None if self.decision_curve is None else self.decision_curve.to_dict()
            ),
            "runner_up_band": (
                None if self.runner_up_band is None else self.runner_up_band.to_dict()
            ),
            "runner_up": self.runner_up,
            "on_new_data": self.on_new_data,
        }

    def __repr__(self) -> str:
        where = f"PCF(+) = {readable(self.pcf)}"
        if self.constraint != "none":
            where += f", {self.constraint}"
        return f"Decision({where}): {self.headline}"


# ------------------------------------------------------------------------------ checks
def _shown(classifiers) -> list:
    from ..base.fields import is_classifier

    if is_classifier(classifiers):
        classifiers = [classifiers]
    if isinstance(classifiers, dict):
        items = []
        for key, clf in classifiers.items():
            if not is_classifier(clf):
                raise TypeError(
                    f"{key!r} is a {type(clf).__name__}, not a costwidget "
                    "Classifier; build one with Classifier.from_scores(...)."
                )
            items.append(clf if clf.name == str(key) else clf.renamed(str(key)))
        return items
    items = list(classifiers)
    for i, clf in enumerate(items):
        if not is_classifier(clf):
            raise TypeError(
                f"classifier {i} is a {type(clf).__name__}, not a costwidget "
                "Classifier; build one with Classifier.from_scores(...)."
            )
        if clf.name is None:
            raise ValueError(
                f"classifier {i} has no name: decide names the classifier to deploy; "
                "give each a name= (or clf.renamed('...')), or pass a dict "
                "{name: classifier}."
            )
    names = [c.name for c in items]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(
            f"classifier names must be distinct, but {twice} appear more than once "
            f"in {names}; rename them (clf.renamed('...')) or pass a dict "
            "{name: classifier}."
        )
    return items


def _number(value, name, hint):
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}; {hint}") from None
    return x


def _check_constraint(constraint, max_fpr, capacity, n_pos, n_neg):
    if constraint not in CONSTRAINTS:
        raise ValueError(
            f"constraint must be one of {', '.join(map(repr, CONSTRAINTS))}, got "
            f"{constraint!r}: pass constraint='neyman_pearson' with max_fpr=, or "
            "constraint='workforce' with capacity=."
        )
    if constraint == "neyman_pearson":
        hint = "max_fpr is the largest false-positive rate allowed, e.g. max_fpr=0.1 for 10 %."
        if max_fpr is None:
            raise ValueError(f"constraint='neyman_pearson' needs max_fpr=: {hint}")
        x = _number(max_fpr, "max_fpr", hint)
        if not 0.0 <= x <= 1.0:
            raise ValueError(
                f"max_fpr must lie in [0, 1] (a rate, not a percentage), got {max_fpr!r}: {hint}"
            )
        return x, None, None, None
    if constraint == "workforce":
        hint = (
            "capacity is the most cases that can be flagged, e.g. capacity=100 "
            "(math.inf: no limit)."
        )
        if capacity is None:
            raise ValueError(f"constraint='workforce' needs capacity=: {hint}")
        c = _number(capacity, "capacity", hint)
        if math.isnan(c) or c < 0:
            raise ValueError(f"capacity must be a number of cases >= 0, got {capacity!r}: {hint}")
        pop = []
        for v, name in ((n_pos, "n_pos"), (n_neg, "n_neg")):
            pop.append(
                None
                if v is None
                else _number(
                    v,
                    name,
                    "n_pos and n_neg are the population's positives and negatives "
                    "(default: each classifier's own).",
                )
            )
        return None, c, pop[0], pop[1]
    return None, None, None, None


# ------------------------------------------------------------------------------ decide
def decide(
    classifiers,
    *,
    p_pos=None,
    cost_fn=1.0,
    cost_fp=1.0,
    constraint="none",
    max_fpr=None,
    capacity=None,
    n_pos=None,
    n_neg=None,
    runner_up_band=None,
    honest=None,
) -> Decision:
    """Which classifier to deploy, with which rule, at what cost: the one answer.

    Parameters
    ----------
    classifiers : sequence of Classifier, or dict {name: Classifier}
        The shown classifiers, named, with distinct names (may be empty: nothing is chosen).
    p_pos : float, optional
        Deployment prevalence p(+), in [0, 1]; default the data's (the classifiers' shared
        prevalence).
    cost_fn, cost_fp : float, default=1.0
        C(-|+) and C(+|-), >= 0, not both 0. For classifiers with per-case costs they multiply
        each case's ``cost_fn`` and ``cost_fp`` (1: as given), and costs are money per case,
        all four outcomes counted (:mod:`costwidget.model.decisions.per_case`).
    constraint : {"none", "neyman_pearson", "workforce"}
        With per-case costs the limit counts the cases and the rule is the cheapest single
        threshold it allows (:mod:`costwidget.model.decisions.case_limits`).
    max_fpr : float, optional
        Neyman-Pearson: the largest FPR allowed, in [0, 1] (required then).
    capacity : float, optional
        Workforce: the most cases flagged, ``TPR·n_pos + FPR·n_neg <= capacity`` (required).
    n_pos, n_neg : float, optional
        Workforce: the population; default each classifier's own class totals, as
        ``clf.workforce`` does.
    runner_up_band : RunnerUpBand, optional
        How sure the headline is: the paired band of the runner-up's NEC minus the chosen
        classifier's at this PCF(+), from :func:`runner_up_band` (the widget computes it in
        the background). When it is of this decision's pair, PCF(+) and rules, the headline's
        "next best" clause says whether the band includes 0, in cost per case: "…; next best
        b, +0.0012, which this data cannot tell apart from a (simultaneous paired 90 % band
        of the difference: −0.003 to +0.005)", or "…, significantly more than a (…)". A band
        of another pair, PCF(+) or rule (an older state) is not said (``Decision.
        runner_up_band`` is then None); without one the headline is as before.
    honest : dict {name: DataFrame}, optional
        Honest curves (:func:`costwidget.honest_cost`) of some shown classifiers. Each one's
        honest cost at the PCF(+) goes into its rule (``nec_honest``) and its readout row
        (``nec_honest``, ``expected_cost_honest``: per case on new data). With a curve for
        every shown classifier the choice is made on it (see Notes); with some only, the
        headline gives the chosen classifier's cost on new data (unless a constraint binds
        its rule: it is then not the tuned threshold).

    Returns
    -------
    Decision

    Notes
    -----
    Each classifier's rule is the cheapest the constraint allows (the lowest expected cost per
    case, ``NEC·(p·C(-|+) + (1-p)·C(+|-))``, over every threshold and every randomized mix of
    two hull vertices with ``FPR <= max_fpr``, or ``TPR·n_pos + FPR·n_neg <= capacity``). Along
    the ROC convex hull the load only grows and the cost is convex, so that rule is the
    unconstrained optimum (``clf.best``) where the limit allows it (the limit does not bind),
    and else the paper's point, where the limit meets the hull (Drummond & Holte (2000), sec.
    2.2.2; a mix of two vertices inside an edge). ``clf.neyman_pearson``/``clf.workforce``
    stay the paper's criterion (the largest TPR allowed), kept in each
    ``ClassifierDecision.constrained``. The classifier chosen is the one whose rule costs
    least; several within the tie rule of `lowest_names` are a tie, and none is chosen.
    ``binding`` is True when the limit changed the decision (no allowed rule costs what the
    cheapest rule without it costs); the headline then says what it changed: "the FPR limit
    20 % moves the choice from a to b: +0.0075 per case" (or "moves the rule of a from score
    ≥ 0.35"), else that it does not bind.

    With honest curves of every shown classifier, and no rule bound by a limit (the honest cost
    is that of the threshold tuned at the PCF(+)), the choice is made on the cost on new data:
    the chosen classifier, the runner-up and its gap are on that scale, and the headline says
    "per case on new data"; the in-sample costs stay in the readout (``rows``). Otherwise the
    choice is made on the data, as without honest curves.

    Each threshold is the one deployed (`deployed_threshold`, see `decision_rule`): the
    shortest decimal that selects the rule's cases on the classifier's own data, shown in full
    (`threshold_text`) in the headline and the readout; ``-inf`` for a rule that flags every
    case. The decision-curve point is each rule's net benefit at threshold probability
    ``pt = C(+|-)/(C(+|-) + C(-|+))`` and prevalence p(+): ``TPR·p - pt/(1-pt)·FPR·(1-p)``
    (Vickers & Elkin 2006).

    Examples
    --------
    >>> import costwidget as cw
    >>> y = [0, 0, 1, 1, 0, 1, 0, 0, 0, 1]
    >>> s = [.1, .4, .35, .8, .2, .7, .55, .3, .05, .6]
    >>> m = cw.Classifier.from_scores(y, s, name="m")
    >>> d = cw.decide([m], p_pos=0.4, cost_fn=1.0, cost_fp=4.0)
    >>> d.headline
    'Deploy m at score ≥ 0.59: 0.1 per case (FPR 0 %, TPR 75 %)'
    >>> d = cw.decide([m], p_pos=0.4, cost_fn=1.0, cost_fp=4.0, constraint="neyman_pearson",
    ...               max_fpr=1.0)
    >>> d.headline
    'Deploy m at score ≥ 0.59: 0.1 per case (FPR 0 %, TPR 75 %); the FPR limit 100 % does not bind'
    >>> d.rule.threshold, round(d.rule.expected_cost, 12), d.binding
    (0.6, 0.1, False)
    >>> d.of("m").constrained.tpr        # the paper's point: the largest TPR allowed
    1.0
    >>> d = cw.decide([m], p_pos=0.4, cost_fn=4.0, cost_fp=1.0, constraint="workforce",
    ...               capacity=3)
    >>> d.headline
    'Under the constraint, deploy m at score ≥ 0.59: 0.4 per case (FPR 0 %, TPR 75 %); the capacity of 3 cases moves the rule of m from score ≥ 0.34: +0.2 per case'
    """
    setting = per_case_setting(
        _shown(classifiers),
        p_pos=p_pos,
        cost_fn=cost_fn,
        cost_fp=cost_fp,
        constraint=constraint,
        honest=honest,
    )
    parts_in, p_pos, cost_fn, cost_fp = setting.arguments
    max_fpr, capacity, n_pos, n_neg = _check_constraint(constraint, max_fpr, capacity, n_pos, n_neg)
    pcf = float(probability_cost(p_pos, cost_fn, cost_fp))  # validates p(+) and the costs
    p_pos, cost_fn, cost_fp = float(p_pos), float(cost_fn), float(cost_fp)
    scale = float(cost_scale(p_pos, cost_fn, cost_fp))
    limits = {"max_fpr": max_fpr, "capacity": capacity, "n_pos": n_pos, "n_neg": n_neg}
    costs = (p_pos, cost_fn, cost_fp)
    parts, rows = [], []
    for clf in parts_in:
        part, row = _part(clf, pcf, costs, scale, constraint, limits, setting)
        parts.append(part)
        rows.append((clf.name, row))
    if honest:
        parts, rows = _with_honest(parts, rows, honest, pcf, scale, setting.offset)
    on_new_data = _on_new_data(parts, rows)
    column = (
        "expected_cost_honest"
        if on_new_data
        else ("expected_cost" if constraint == "none" else "constrained_expected_cost")
    )
    lowest = tuple(lowest_names(rows, column))
    chosen = lowest[0] if len(lowest) == 1 else None
    by_name = {c.name: c for c in parts}
    rule = by_name[chosen].rule if chosen is not None else None
    cost_of = {name: row[column] for name, row in rows}
    runner = _runner_up(cost_of, chosen)
    binding, free = _binding(rows, constraint, by_name)
    curve = _curve_point(parts, chosen, p_pos, cost_fn, cost_fp)
    # The paired interval is of in-sample costs: it says nothing of a choice made on new data.
    band = (
        None
        if on_new_data
        else fitting_band(runner_up_band, parts, chosen, runner, pcf, constraint)
    )
    fields = dict(
        p_pos=p_pos,
        cost_fn=cost_fn,
        cost_fp=cost_fp,
        pcf=pcf,
        constraint=constraint,
        **limits,
        classifiers=tuple(parts),
        rows=tuple(rows),
        lowest=lowest,
        chosen=chosen,
        tie=len(lowest) > 1,
        rule=rule,
        binding=binding,
        decision_curve=curve,
        runner_up_band=band,
        runner_up=runner,
        on_new_data=on_new_data,
    )
    counted = setting.counted_rates if setting.originals else None
    words = headline(fields, cost_of, band=band, scale=scale, free=free, counted=counted)
    if not on_new_data:
        words += honest_words(rule, scale, pcf, constraint, setting.offset)
    return setting.decision(Decision(headline=words, **fields))


def _curve_point(parts, chosen, p_pos, cost_fn, cost_fp) -> DecisionCurvePoint:
    """The decision's point on each classifier's decision curve: the threshold probability of
    these costs and each rule's net benefit there."""
    pt = cost_fp / (cost_fp + cost_fn)
    nbs = tuple((c.name, _net_benefit(c.rule, pt, p_pos)) for c in parts)
    return DecisionCurvePoint(
        threshold_probability=pt,
        prevalence=p_pos,
        net_benefit=nbs,
        chosen=dict(nbs)[chosen] if chosen is not None else math.nan,
    )


def _part(clf, pcf, costs, scale, constraint, limits, setting):
    """One classifier's `ClassifierDecision` and readout row: its optimum, the paper's
    constrained point, and its cheapest allowed rule, each threshold as deployed; costs in
    money per case where the cases carry their own costs (``setting``, `per_case_setting`)."""
    if setting.originals and constraint != "none":  # per-case costs: the limit counts cases
        part, row = case_limited_part(clf, pcf, costs, scale, constraint, limits, setting)
        return ClassifierDecision(**part), row
    op = clf.best(pcf)
    if constraint == "neyman_pearson":
        cp = clf.neyman_pearson(limits["max_fpr"])
    elif constraint == "workforce":
        cp = clf.workforce(limits["capacity"], n_pos=limits["n_pos"], n_neg=limits["n_neg"])
    else:
        cp = None
    rule, (hi_lo, lo_lo) = rule_and_next_scores(clf, *costs, cp, op=op, pcf=pcf, scale=scale)
    rule = setting.money(rule)
    # The optimum as deployed (the readout's threshold): the rule itself without a limit.
    best = replace(op, threshold=rule.threshold if cp is None else deployed_at(clf, op.threshold))
    part = ClassifierDecision(
        name=clf.name,
        best=best,
        constrained=cp,
        rule=rule,
        next_score_high=hi_lo,
        next_score_low=lo_lo,
        shown_high=threshold_text(rule.threshold_high),
        shown_low=threshold_text(rule.threshold_low),
    )
    # A shallow dict of the rule's fields (all numbers, words and flags): `asdict` deep-copies
    # each field, at every move of the operating point.
    shown = (
        {f.name: getattr(rule, f.name) for f in dataclass_fields(rule)} if cp is not None else None
    )
    row = readout_row(clf, best, shown, scale=scale)
    return part, setting.money_row(row)


def _runner_up(cost_of, chosen):
    """The cheapest after ``chosen`` on the decision's scale (the tie rule of `lowest_names`)."""
    if chosen is None:
        return None
    nxt = lowest_names([(n, {"c": c}) for n, c in cost_of.items() if n != chosen], "c")
    return nxt[0] if nxt else None


def _binding(rows, constraint, by_name):
    """Whether the decision without the limit is not allowed by it, and that decision: ``(part
    or None on a tie, its cost per case)``. (None, None) without a constraint or a cost."""
    if constraint == "none":
        return None, None
    free = lowest_names(rows, "expected_cost")
    held = lowest_names(rows, "constrained_expected_cost")
    if not free or not held:
        return None, None
    table = dict(rows)
    c_free = table[free[0]]["expected_cost"]
    c_held = table[held[0]]["constrained_expected_cost"]
    # Not allowed: every allowed rule costs more than the cheapest rule without the limit.
    same = lowest_names([("free", {"c": c_free}), ("held", {"c": c_held})], "c")
    binding = "held" not in same
    return binding, (by_name[free[0]] if len(free) == 1 else None, c_free)


def _on_new_data(parts, rows) -> bool:
    """Choose on the cost on new data: when every shown classifier's is known, and every rule is
    the threshold tuned at the PCF(+) (no limit binds one), which is what the honest cost is of."""
    if not parts or any(c.rule.binding for c in parts):
        return False
    return all(not math.isnan(row.get("nec_honest", math.nan)) for _, row in rows)


def _net_benefit(rule: DecisionRule, pt: float, p: float) -> float:
    """The rule's net benefit at pt and prevalence p (decision_curve's formula); NaN at pt = 1."""
    if not pt < 1.0:
        return math.nan
    from .decision_curve import net_benefit as nb

    return float(nb(rule.fpr, rule.tpr, pt, p))


# ------------------------------------------------------------------------------ cost on new data
def _with_honest(parts, rows, honest, pcf, scale, offset=0.0):
    """The rules and readout rows with each given honest curve's cost at ``pcf``; ``offset``
    makes per-case costs money (`CostSetting.offset`)."""
    from ..uncertainty.honest import honest_at

    shown = {c.name for c in parts}
    unknown = sorted(set(honest) - shown)
    if unknown:
        raise ValueError(
            f"honest= has curves of {unknown}, which are not among the shown "
            f"classifiers {sorted(shown)}."
        )
    nec = {name: honest_at(curve, pcf) for name, curve in honest.items()}
    parts = [
        replace(c, rule=replace(c.rule, nec_honest=nec[c.name])) if c.name in nec else c
        for c in parts
    ]
    rows = [
        (
            name,
            {
                **row,
                "nec_honest": nec.get(name, math.nan),
                "expected_cost_honest": nec.get(name, math.nan) * scale + offset,
            },
        )
        for name, row in rows
    ]
    return parts, rows
