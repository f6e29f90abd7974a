"""One decision: which classifier to deploy, with which rule, at what cost (issue 31).

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
from dataclasses import asdict, dataclass

import pandas as pd

from ..base.results import ConstrainedPoint, OperatingPoint
from ..kernels.costs import cost_scale, probability_cost
from ..kernels.json_values import jsonable
from ..kernels.readable import (
    lowest_names,
    next_lower_scores,
    readable,
    round_significant,
    selecting_threshold,
)
from .deploy import DecisionRule, decision_rule
from .operating import readout_row
from .per_case import per_case_setting
from .runner_up import RunnerUpBand, band_words, fitting_band

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
        The optimal hull vertex at the decision's PCF(+) (``clf.best``), unconstrained.
    constrained : ConstrainedPoint or None
        The paper's constrained point (the largest TPR the limit allows); None without a
        constraint.
    rule : DecisionRule
        The cheapest rule the constraint allows (``rule.binding``: whether the limit raises
        its cost).
    next_score_high, next_score_low : float
        The next lower distinct score of the classifier's data below ``rule.threshold_high``
        and ``rule.threshold_low`` (``-inf`` below the lowest, NaN without scores): a shown
        threshold between it and the threshold selects the same cases.
    shown_high, shown_low : str
        Those thresholds as the headline shows them (`selecting_threshold`).
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
        The classifiers whose rule costs least per case (ties included, `lowest_names`).
    chosen : str or None
        The one classifier to deploy; None on a tie or with none shown.
    tie : bool
        True when several classifiers share the lowest cost.
    rule : DecisionRule or None
        The chosen classifier's rule.
    binding : bool or None
        Whether the limit raises the chosen rule's cost; None without a constraint or without
        a chosen classifier.
    headline : str
        The answer in one line.
    decision_curve : DecisionCurvePoint
        The rules' net benefit at the current p(+) and pt.
    runner_up_band : RunnerUpBand or None
        The paired band of the runner-up's cost minus the chosen one's that the headline
        states (`runner_up_band`); None when none was given or it is of another state.
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
    decision_curve: DecisionCurvePoint
    runner_up_band: RunnerUpBand | None = None

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
            "decision_curve": self.decision_curve.to_dict(),
            "runner_up_band": (
                None if self.runner_up_band is None else self.runner_up_band.to_dict()
            ),
        }

    def __repr__(self) -> str:
        where = f"PCF(+) = {readable(self.pcf)}"
        if self.constraint != "none":
            where += f", {self.constraint}"
        return f"Decision({where}): {self.headline}"


# ------------------------------------------------------------------------------ the headline
def _percent(rate) -> str:
    return readable(round_significant(100.0 * float(rate), 3))


def _at(threshold: float, shown: str) -> str | None:
    """One threshold of a rule in words: "at score ≥ …", or flagging no / every case."""
    if threshold == math.inf:
        return "flagging no case"
    if threshold == -math.inf:
        return "flagging every case"
    if math.isnan(threshold):
        return None  # a classifier known only by its ROC points has no threshold
    return f"at score ≥ {shown}"


def _rule_words(c: ClassifierDecision) -> str:
    rule = c.rule
    if not rule.randomized:
        if rule.threshold == math.inf or (rule.fpr == 0.0 and rule.tpr == 0.0):
            return " flagging no case"
        if rule.threshold == -math.inf or (rule.fpr == 1.0 and rule.tpr == 1.0):
            return " flagging every case"
        words = _at(rule.threshold, c.shown_high)
        return "" if words is None else f" {words}"
    low = _at(rule.threshold_low, c.shown_low) or "at one ROC point"
    high = _at(rule.threshold_high, c.shown_high) or "at the other"
    return f" {low} with probability {readable(rule.prob_low)}, else {high}"


def _limit_words(constraint, max_fpr, capacity) -> str:
    if constraint == "neyman_pearson":
        return f"the FPR limit {_percent(max_fpr)} %"
    return f"the capacity of {readable(capacity)} cases"


def _headline(pcf, constraint, max_fpr, capacity, parts, lowest, band=None, scale=1.0) -> str:
    if not parts:
        return "No classifier shown."
    # At PCF(+) = 0 flagging no case costs nothing, at 1 flagging every case (Drummond & Holte
    # 2006, sec. 2: the trivial classifiers' lines meet the axis there): said in words. Flagging
    # no case is always allowed; flagging every case not under a constraint.
    if pcf == 0.0:
        return "Flag no case: 0 per case (at PCF(+) = 0 only false positives cost)"
    if pcf == 1.0 and constraint == "none":
        return "Flag every case: 0 per case (at PCF(+) = 1 only missed positives cost)"
    if not lowest:
        return "No cost to compare."
    by_name = {c.name: c for c in parts}
    cost = by_name[lowest[0]].rule.expected_cost
    if len(lowest) > 1:
        return (
            f"Tie: {len(lowest)} classifiers share the lowest cost, {readable(cost)} per "
            f"case; none is the best here"
        )
    c = by_name[lowest[0]]
    rule = c.rule
    lead = "Under the constraint, deploy" if rule.binding else "Deploy"
    text = (
        f"{lead} {c.name}{_rule_words(c)}: {readable(cost)} per case "
        f"(FPR {_percent(rule.fpr)} %, TPR {_percent(rule.tpr)} %)"
    )
    others = [(o.name, {"cost": o.rule.expected_cost}) for o in parts if o.name != c.name]
    nxt = lowest_names(others, "cost")
    if nxt:
        text += f"; next best {nxt[0]}, +{readable(by_name[nxt[0]].rule.expected_cost - cost)}"
        if band is not None:  # how sure: the paired band of the difference (runner_up.py)
            text += band_words(band, c.name, scale)
    if constraint != "none" and not rule.binding:
        text += f"; {_limit_words(constraint, max_fpr, capacity)} does not bind"
    return text


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
        (``nec_honest``, ``expected_cost_honest``: per case on new data), and the headline
        gives the chosen classifier's cost on new data (unless a constraint binds: its rule is
        then not the tuned threshold).

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

    The headline shows each threshold with the digits that select the same cases on the
    classifier's own data (`selecting_threshold` with the next lower distinct score). The
    decision-curve point is each rule's net benefit at threshold probability
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
    'Under the constraint, deploy m at score ≥ 0.59: 0.4 per case (FPR 0 %, TPR 75 %)'
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
    parts, rows = [], []
    for clf in parts_in:
        op = clf.best(pcf)
        if constraint == "neyman_pearson":
            cp = clf.neyman_pearson(max_fpr)
        elif constraint == "workforce":
            cp = clf.workforce(capacity, n_pos=n_pos, n_neg=n_neg)
        else:
            cp = None
        rule = setting.money(
            decision_rule(clf, p_pos=p_pos, cost_fn=cost_fn, cost_fp=cost_fp, constrained=cp)
        )
        # From the classifier's own scores (its ROC thresholds, as the page's hull.nextScore).
        lower = next_lower_scores(clf.counts.thresholds, [rule.threshold_high, rule.threshold_low])
        hi_lo, lo_lo = float(lower[0]), float(lower[1])
        parts.append(
            ClassifierDecision(
                name=clf.name,
                best=op,
                constrained=cp,
                rule=rule,
                next_score_high=hi_lo,
                next_score_low=lo_lo,
                shown_high=selecting_threshold(rule.threshold_high, hi_lo),
                shown_low=selecting_threshold(rule.threshold_low, lo_lo),
            )
        )
        row = readout_row(clf, op, asdict(rule) if cp is not None else None, scale=scale)
        rows.append((clf.name, setting.money_row(row)))
    if honest:
        parts, rows = _with_honest(parts, rows, honest, pcf, scale)
    column = "expected_cost" if constraint == "none" else "constrained_expected_cost"
    lowest = tuple(lowest_names(rows, column))
    chosen = lowest[0] if len(lowest) == 1 else None
    by_name = {c.name: c for c in parts}
    rule = by_name[chosen].rule if chosen is not None else None
    binding = None if rule is None or constraint == "none" else rule.binding
    pt = cost_fp / (cost_fp + cost_fn)
    nbs = tuple((c.name, _net_benefit(c.rule, pt, p_pos)) for c in parts)
    curve = DecisionCurvePoint(
        threshold_probability=pt,
        prevalence=p_pos,
        net_benefit=nbs,
        chosen=dict(nbs)[chosen] if chosen is not None else math.nan,
    )
    band = fitting_band(runner_up_band, parts, chosen, pcf, constraint)
    decision = Decision(
        p_pos=p_pos,
        cost_fn=cost_fn,
        cost_fp=cost_fp,
        pcf=pcf,
        constraint=constraint,
        max_fpr=max_fpr,
        capacity=capacity,
        n_pos=n_pos,
        n_neg=n_neg,
        classifiers=tuple(parts),
        rows=tuple(rows),
        lowest=lowest,
        chosen=chosen,
        tie=len(lowest) > 1,
        rule=rule,
        binding=binding,
        headline=_headline(pcf, constraint, max_fpr, capacity, parts, lowest, band, scale)
        + _honest_words(rule, scale, pcf, constraint),
        decision_curve=curve,
        runner_up_band=band,
    )
    return setting.decision(decision)


def _net_benefit(rule: DecisionRule, pt: float, p: float) -> float:
    """The rule's net benefit at pt and prevalence p (decision_curve's formula); NaN at pt = 1."""
    if not pt < 1.0:
        return math.nan
    from .decision_curve import net_benefit as nb

    return float(nb(rule.fpr, rule.tpr, pt, p))


# ------------------------------------------------------------------------------ cost on new data
def _with_honest(parts, rows, honest, pcf, scale):
    """The rules and readout rows with each given honest curve's cost at ``pcf``."""
    from dataclasses import replace

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
                "expected_cost_honest": nec.get(name, math.nan) * scale,
            },
        )
        for name, row in rows
    ]
    return parts, rows


def _honest_words(rule, scale, pcf, constraint) -> str:
    """The chosen rule's cost on new data, for the headline: when known, when the rule is the
    threshold tuned at the PCF(+) (no constraint binds), and when the headline names it (not
    at PCF(+) 0, nor at 1 without a constraint, where it says to flag no or every case)."""
    if rule is None or math.isnan(rule.nec_honest) or rule.binding:
        return ""
    if pcf == 0.0 or (pcf == 1.0 and constraint == "none"):
        return ""
    return f"; on new data {readable(rule.nec_honest * scale)} per case"
