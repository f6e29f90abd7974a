"""Decisions with costs that differ from case to case, on the per-class machinery, exactly.

A classifier built with per-case costs (``cost_fn=`` ... of ``Classifier.from_scores``) keeps
them in ``clf.case_costs``. At the multipliers ``m_fn``, ``m_fp`` of :func:`decide` (they
multiply each case's ``cost_fn`` and ``cost_fp``; 1 = as given) and a prevalence ``p_pos``, its
cases are weighted again (:meth:`CaseCosts.roc_weights`) into a cost-weighted classifier with
class totals ``P``, ``N`` over ``W`` cases and the floor cost ``F`` (see
:mod:`costwidget.model.base.case_costs` for the algebra, after Fawcett (2006), "ROC graphs with instance-varying costs"). That
classifier, at the per-class operating point

    p' = P / (P + N),  C(-|+) = C(+|-) = (P + N) / W,

has PCF(+) ``p'`` and turns NEC into ``NEC·(P + N) / W``: add ``F / W`` and it is the money
per case, all four outcomes counted. ``P``, ``N``, ``F`` and ``W`` depend on the labels and
costs only, not on the scores, so every classifier of the same cases and costs shares them and
the per-class rule picks the cheapest classifier and threshold, exactly; :func:`decide` asks
:func:`per_case_setting` for those arguments and :meth:`CostSetting.money` for the money. A
Neyman-Pearson or workforce limit counts the cases, not the cost-weighted ones: under one the
rule is found on the cases themselves (:mod:`.case_limits`).
"""

from __future__ import annotations

import math
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field, replace

import numpy as np

from ..kernels.costs import cost_scale
from ..kernels.validation import check_probability

__all__ = [
    "CostSetting",
    "per_case_setting",
    "per_case_operating_point",
    "counted_rates",
    "cost_weighted",
    "data_prior",
    "multiplier_units",
    "sides_are_classes",
    "p_pos_for_pcf",
    "Savings",
    "per_case_savings",
]


@dataclass(frozen=True)
class CostSetting:
    """What :func:`decide` runs the per-class rule with, and how its costs become money.

    Attributes
    ----------
    classifiers : list
        The classifiers to decide among: the shown ones, or their cost-weighted twins.
    p_pos, cost_fn, cost_fp : float
        The per-class operating point to decide at.
    given : tuple or None
        ``(p_pos, cost_fn, cost_fp)`` as the user gave them (``p_pos`` filled in), for per-case
        costs; None for per-class costs (nothing to translate).
    offset : float
        ``F / W``: what every rule costs per case beyond ``NEC·(P + N) / W``.
    originals : dict
        ``{name: classifier}``: the classifiers with per-case costs the twins are made of (a
        limit counts their cases, :mod:`.case_limits`); empty for per-class costs.
    twin_p_pos : float or None
        The ``p_pos`` the twins were weighted at (None: the data's).
    """

    classifiers: list
    p_pos: float
    cost_fn: float
    cost_fp: float
    given: tuple | None = None
    offset: float = 0.0
    originals: dict = field(default_factory=dict)
    twin_p_pos: float | None = None

    @property
    def arguments(self) -> tuple:
        return self.classifiers, self.p_pos, self.cost_fn, self.cost_fp

    def money(self, rule):
        """The rule with its money per case and the operating point as given."""
        if self.given is None:
            return rule
        p, fn, fp = self.given
        return replace(
            rule, expected_cost=rule.expected_cost + self.offset, p_pos=p, cost_fn=fn, cost_fp=fp
        )

    def money_row(self, row: dict) -> dict:
        """A readout row with its expected costs in money per case."""
        if self.given is None:
            return row
        out = dict(row)
        for key in ("expected_cost", "constrained_expected_cost", "expected_cost_honest"):
            if key in out:
                out[key] = out[key] + self.offset
        return out

    def counted_rates(self, name: str, threshold: float):
        """:func:`counted_rates` of the classifier ``name`` as given (None: per-class costs)."""
        if not self.originals:
            return None
        return counted_rates(self.originals[name], threshold)

    def decision(self, d):
        """The decision with the operating point as the user gave it."""
        if self.given is None:
            return d
        p, fn, fp = self.given
        # The decision curve's point was made on the twins, at their pt = 1/2: not the user's.
        return replace(d, p_pos=p, cost_fn=fn, cost_fp=fp, decision_curve=None)


def data_prior(classifiers) -> float:
    """The shown classifiers' shared prevalence, for ``p_pos=None``; an error when they differ."""
    priors = []
    for clf in classifiers:
        cc = getattr(clf, "case_costs", None)
        prior = cc.prior if cc is not None else clf.prevalence
        if prior is None:
            raise ValueError(
                f"{clf.name!r} knows only its ROC points (from_roc), not its data's "
                "prevalence: pass p_pos=."
            )
        priors.append(prior)
    if not priors:
        return 0.5
    if max(priors) - min(priors) > 1e-12:
        raise ValueError(
            f"p_pos=None takes the data's prevalence, but the classifiers' data differ "
            f"({', '.join(f'{c.name}: {p:.6g}' for c, p in zip(classifiers, priors))}): "
            "pass p_pos=."
        )
    return float(priors[0])


#: Twins kept per classifier. A widget whose twins move with its sliders asks for the twins of
#: every classifier at one setting, then ``decide`` asks again: one shared LRU of a few entries
#: dropped the first classifiers' twins before the decision read them (with more classifiers
#: than entries, every twin was made twice per move). Per classifier the newest two are kept
#: (the setting shown and the one before, which a refused move goes back to); a twin of 10^6
#: cases holds tens of MB, so no more. The keys are weak: a classifier dropped drops its twins.
_TWINS_KEPT = 2
_TWINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_TWINS_LOCK = threading.Lock()  # the honest curves call this from worker threads


def _weighted(clf, m_fn: float, m_fp: float, p_pos):
    key = (m_fn, m_fp, p_pos)
    with _TWINS_LOCK:
        kept = _TWINS.get(clf)
        if kept is not None and key in kept:
            kept.move_to_end(key)
            return kept[key]
    out = clf.case_costs.twin(clf, m_fn, m_fp, p_pos)
    with _TWINS_LOCK:
        kept = _TWINS.setdefault(clf, OrderedDict())
        kept[key] = out
        while len(kept) > _TWINS_KEPT:
            kept.popitem(last=False)
    return out


def cost_weighted(clf, m_fn: float = 1.0, m_fp: float = 1.0, p_pos=None):
    """The cost-weighted twin of a classifier with per-case costs, at multipliers and p(+).

    Returns
    -------
    twin : Classifier
        Without ``case_costs``: its cases are the cost-weighted ones.
    totals : tuple of float
        ``(P, N, F, W)``: the cost-weighted class totals, the floor cost and the weight of the
        cases.
    """
    return _weighted(clf, float(m_fn), float(m_fp), None if p_pos is None else float(p_pos))


def per_case_setting(
    classifiers, *, p_pos=None, cost_fn=1.0, cost_fp=1.0, constraint="none", honest=None
) -> CostSetting:
    """The per-class arguments that decide among ``classifiers`` exactly (see the module).

    Per-class classifiers: the arguments as given, ``p_pos`` None filled with the data's
    prevalence. Per-case classifiers: their cost-weighted twins at the operating point of the
    module's formula, ``cost_fn``/``cost_fp`` multiplying each case's costs.

    Raises
    ------
    ValueError
        When per-case and per-class classifiers are mixed, when classifiers have different
        cases or costs, for a constraint on costs summed in a database (a limit counts the
        cases, :mod:`.case_limits`), and for honest curves of per-case classifiers not made
        by ``honest_cost(clf, cost_fn=, cost_fp=, p_pos=)`` at the same multipliers and p(+).
    """
    per_case = [c for c in classifiers if getattr(c, "case_costs", None) is not None]
    if not per_case:
        p = data_prior(classifiers) if p_pos is None else p_pos
        return CostSetting(list(classifiers), p, cost_fn, cost_fp)
    if len(per_case) != len(classifiers):
        raise ValueError(
            "Some classifiers have per-case costs and some do not: their costs are not in the "
            "same units. Build all of them with the same cost_fn=/cost_fp=/cost_tp=/cost_tn=."
        )
    if constraint != "none" and any(not hasattr(c.case_costs, "tp") for c in classifiers):
        raise ValueError(
            f"constraint={constraint!r} with per-case costs summed in the database is not "
            "supported: the limit counts cases at every threshold, and the sums are per score. "
            "Load the rows with Classifier.from_frame(..., cost_fn='col') to decide under it."
        )
    cost_scale(0.5, cost_fn, cost_fp)  # validates the multipliers: numbers >= 0, not both 0
    m_fn, m_fp = float(cost_fn), float(cost_fp)
    if p_pos is not None:
        check_probability(p_pos, "p_pos")
    twins, totals = zip(*(cost_weighted(c, m_fn, m_fp, p_pos) for c in classifiers))
    ref = np.array(totals[0])
    for clf, t in zip(classifiers, totals):
        if not np.allclose(t, ref, rtol=1e-12, atol=0.0):
            raise ValueError(
                f"{classifiers[0].name!r} and {clf.name!r} have different per-case costs or "
                "cases (their cost totals differ): a decision compares classifiers of the "
                "same cases with the same costs."
            )
    p, n, floor, total = (float(v) for v in ref)
    per_case_scale = (p + n) / total
    given = (data_prior(classifiers) if p_pos is None else float(p_pos), m_fn, m_fp)
    if not math.isfinite(per_case_scale):
        raise ValueError("The cases have no weight: give cases of positive sample_weight.")
    if honest:
        _check_honest(honest, classifiers, (m_fn, m_fp, None if p_pos is None else float(p_pos)))
    return CostSetting(
        list(twins),
        p / (p + n),
        per_case_scale,
        per_case_scale,
        given,
        floor / total,
        {c.name: c for c in classifiers},
        None if p_pos is None else float(p_pos),
    )


def _check_honest(honest, classifiers, given) -> None:
    """Refuse honest curves not of the twins at these multipliers and p(+): their NEC would be
    of other cost-weighted cases (``honest_cost(clf, cost_fn=, cost_fp=, p_pos=)`` makes them).

    Where no case changes side (`multiplier_units`), a twin at other multipliers and p(+) only
    scales each side's weights: its rates, the thresholds tuned at each PCF(+) on every fold and
    so its honest NEC curve are the same, and any multipliers do."""
    m_fn, m_fp, p_pos = given
    asked = f"cw.honest_cost(clf, cost_fn={m_fn!r}, cost_fp={m_fp!r}, p_pos={p_pos!r})"
    by_name = {c.name: c for c in classifiers}
    for name, curve in honest.items():
        info = getattr(curve, "attrs", {}).get("per_case")
        if info is None:
            raise ValueError(
                f"The honest curve of {name!r} is not of per-case costs: compute it with "
                f"{asked}, at the multipliers and p(+) of this decision."
            )
        made = (info["cost_fn"], info["cost_fp"], info["p_pos"])
        if made != given and not _same_curve(by_name.get(name), made, given):
            raise ValueError(
                f"The honest curve of {name!r} was computed at cost_fn={made[0]!r}, "
                f"cost_fp={made[1]!r}, p_pos={made[2]!r}, not at this decision's: compute it "
                f"with {asked}."
            )


def _same_curve(clf, made, given) -> bool:
    """Whether the honest curve made at ``made`` is the one at ``given`` (multipliers, p(+)):
    where no case changes side at any multipliers, or where only p(+) differs and every case
    counts on its own class's side at these multipliers (a p(+) move rescales each side)."""
    if clf is None:
        return False
    if multiplier_units(clf) is not None:
        return True
    return made[:2] == given[:2] and sides_are_classes(clf, *given[:2])


def sides_are_classes(clf, m_fn: float = 1.0, m_fp: float = 1.0) -> bool:
    """True when, at these multipliers, every case of weight > 0 counts on its own class's side
    of the cost-weighted ROC (no positive whose miss costs less than its catch, no negative
    whose false alarm costs less than its pass). Then a p(+) move rescales each side as one:
    the twin's ROC, its rates and its honest curve stay as they are."""
    cc = clf.case_costs
    if not hasattr(cc, "tp"):  # summed by an engine: no single cases to place
        return False
    side, weight, _floor = cc.roc_weights(m_fn, m_fp)
    return bool(np.all((side == cc.is_pos) | (weight == 0)))


def p_pos_for_pcf(clf, pcf: float, m_fn: float = 1.0, m_fp: float = 1.0) -> float:
    """The p(+) at which the cost-weighted twin at multipliers ``m_fn``, ``m_fp`` has PCF(+)
    ``pcf`` (where p(+) and the multipliers move the twins, a click in the cost pane at
    ``pcf`` keeps the multipliers and moves p(+) to this).

    p(+) changes no case's side, only the weights: a positive's by ``p / prior``, a
    negative's by ``(1 − p) / (1 − prior)``. With ``a``, ``b`` the cost weights of the true
    positives and negatives on the flagging side and ``c``, ``d`` on the other, ``P`` is
    ``a·p/prior + b·(1 − p)/(1 − prior)`` and ``N`` the same of ``c``, ``d``; ``P / (P + N) = x``
    is linear in ``p``, solved here exactly.

    Raises
    ------
    ValueError
        When no p(+) in (0, 1) gives ``pcf`` at these multipliers, naming the PCF(+) that can
        be reached.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 1, 0, 0], [.9, .3, .6, .1], cost_fn=[20.0, 2.0, 0, 0],
    ...                                 cost_fp=4.0, cost_tp=4.0)
    >>> p = p_pos_for_pcf(clf, 0.5)
    >>> twin, (big_p, big_n, _, _) = cost_weighted(clf, 1.0, 1.0, p)
    >>> round(p, 6), round(big_p / (big_p + big_n), 12)
    (0.363636, 0.5)
    """
    cc = clf.case_costs
    side, weight, _floor = cc.roc_weights(m_fn, m_fp)
    pos = cc.is_pos
    a, b = float(weight[side & pos].sum()), float(weight[side & ~pos].sum())
    c, d = float(weight[~side & pos].sum()), float(weight[~side & ~pos].sum())
    prior, x = cc.prior, float(pcf)
    slope_pos = (a * (1.0 - x) - c * x) / prior
    slope_neg = (b * (1.0 - x) - d * x) / (1.0 - prior)
    p = slope_neg / (slope_neg - slope_pos) if slope_neg != slope_pos else math.nan
    if not 0.0 < p < 1.0:
        lo, hi = sorted((b / (b + d), a / (a + c)))
        raise ValueError(
            f"No p(+) gives PCF(+) = {x:.6g} at these multipliers: p(+) moves it between "
            f"{lo:.6g} and {hi:.6g}. Choose a PCF(+) inside, or move a multiplier."
        )
    return float(p)


def counted_rates(clf, threshold: float):
    """The FPR and TPR of "flag when score >= threshold" counted on the cases of ``clf`` (with
    per-case costs), with ``sample_weight``: the rates a Neyman-Pearson limit counts, not the
    cost-weighted ones of its twin. None when a database summed the costs (no single cases).

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1],
    ...                                 cost_fn=[10.0, 0, 4.0, 0], cost_fp=1.0,
    ...                                 sample_weight=[1.0, 3.0, 1.0, 1.0])
    >>> counted_rates(clf, 0.5)    # 3 of the 4 negatives' weight, both positives
    (0.75, 1.0)
    """
    cc = clf.case_costs
    if not hasattr(cc, "tp"):  # summed by an engine: per (score, label) row, not per case
        return None
    scores = np.asarray(clf.sample.scores, dtype=np.float64)
    w = np.ones(cc.n_samples) if cc.weights is None else np.asarray(cc.weights, float)
    flagged = w * (scores >= threshold)
    pos, neg = float(w[cc.is_pos].sum()), float(w[~cc.is_pos].sum())
    tpr = float(flagged[cc.is_pos].sum()) / pos if pos > 0 else 0.0
    fpr = float(flagged[~cc.is_pos].sum()) / neg if neg > 0 else 0.0
    return fpr, tpr


def per_case_operating_point(clf, *, p_pos=None, cost_fn=1.0, cost_fp=1.0):
    """``clf.operating_point`` of a classifier with per-case costs: the optimal vertex of its
    cost-weighted twin at the multipliers, with the money per case (see the module)."""
    from ..base.results import OperatingPoint

    setting = per_case_setting([clf], p_pos=p_pos, cost_fn=cost_fn, cost_fp=cost_fp)
    twin = setting.classifiers[0]
    op = twin.best(setting.p_pos)  # the twin's PCF(+) is P / (P + N)
    money = setting.offset + op.nec * setting.cost_fn
    return OperatingPoint(op.pcf, op.threshold, op.fpr, op.tpr, op.nec, float(money))


def multiplier_units(clf):
    """``(u_fn, u_fp)`` when the multipliers and p(+) only rescale the classes of the
    cost-weighted ROC, else None.

    When every positive's ``cost_tp`` and every negative's ``cost_tn`` is 0 and the costs of
    the errors are >= 0, no case changes side and each class's weights scale as one: the twin's
    ROC is the same at every ``m_fn``, ``m_fp`` and ``p_pos``, the floor ``F`` is 0, and with
    ``u_fn`` the positives' mean ``cost_fn`` and ``u_fp`` the negatives' mean ``cost_fp``
    (weighted by ``sample_weight``) the module's operating point is the per-class one at
    ``C(-|+) = m_fn·u_fn`` and ``C(+|-) = m_fp·u_fp``: ``p' = p·C(-|+) / (p·C(-|+) +
    (1 − p)·C(+|-))`` and money per case ``NEC·(p·C(-|+) + (1 − p)·C(+|-))``.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [.9, .2, .6, .4], cost_fn=[10.0, 0, 30.0, 0],
    ...                                 cost_fp=[0, 2.0, 0, 4.0])
    >>> multiplier_units(clf)
    (20.0, 3.0)
    >>> fee = cw.Classifier.from_scores([1, 0], [.9, .2], cost_fn=5.0, cost_fp=1.0, cost_tp=1.0)
    >>> multiplier_units(fee) is None   # a fee on caught positives: the ROC moves with m_fn
    True
    """
    cc = clf.case_costs
    pos = cc.is_pos
    if not hasattr(cc, "tp"):  # summed by an engine: per (score, label) row
        return _summed_units(cc)
    if np.any(cc.tp[pos] != 0) or np.any(cc.tn[~pos] != 0):
        return None
    if np.any(cc.fn[pos] < 0) or np.any(cc.fp[~pos] < 0):
        return None
    w = np.ones(cc.n_samples) if cc.weights is None else cc.weights
    w_pos, w_neg = float(w[pos].sum()), float(w[~pos].sum())
    if w_pos <= 0 or w_neg <= 0:
        return None
    return float(np.sum(w[pos] * cc.fn[pos]) / w_pos), float(np.sum(w[~pos] * cc.fp[~pos]) / w_neg)


def _summed_units(cc):
    """`multiplier_units` of costs summed by an engine: rows of one label, none of whose cases
    counts on the other side or costs anything when decided rightly."""
    pos = cc.is_pos
    if np.any(cc.floor != 0) or np.any(cc.loss[pos] != 0) or np.any(cc.gain[~pos] != 0):
        return None
    w_pos, w_neg = float(cc.weight[pos].sum()), float(cc.weight[~pos].sum())
    if w_pos <= 0 or w_neg <= 0:
        return None
    return float(cc.gain[pos].sum() / w_pos), float(cc.loss[~pos].sum() / w_neg)


@dataclass(frozen=True)
class Savings:
    """A rule's money per case against the best trivial rule, as empulse's ``savings_score``.

    Attributes
    ----------
    cost : float
        The rule's money per case.
    trivial : str
        The cheaper trivial rule: ``"flagging every case"`` or ``"flagging no case"`` (every case when
        they cost the same).
    trivial_cost : float
        Its money per case.
    savings : float
        ``1 − cost / trivial_cost`` (NaN when the trivial rule costs nothing).
    """

    cost: float
    trivial: str
    trivial_cost: float
    savings: float


def per_case_savings(clf, cost: float, *, p_pos=None, cost_fn=1.0, cost_fp=1.0) -> Savings:
    """The savings of a rule costing ``cost`` per case on ``clf``'s cases and per-case costs,
    against the cheaper of flagging every case and none (empulse's ``savings_score`` with its
    default ``baseline="zero_one"``), at the multipliers and p(+) of :func:`decide`.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [0.2, 0.3, 0.6, 0.1],
    ...                                 cost_fn=[50.0, 0, 3.0, 0], cost_fp=5.0)
    >>> per_case_savings(clf, 1.25)    # flagging every case costs (5 + 5) / 4
    Savings(cost=1.25, trivial='flagging every case', trivial_cost=2.5, savings=0.5)
    """
    cc = clf.case_costs
    if hasattr(cc, "cost_per_case"):
        every = cc.cost_per_case(True, cost_fn, cost_fp, p_pos)
        none = cc.cost_per_case(False, cost_fn, cost_fp, p_pos)
    else:  # summed by an engine (multipliers 1): flagging costs floor + loss, passing + gain
        cost_weighted(clf, cost_fn, cost_fp, p_pos)  # the model's check of the multipliers
        r = cc._factors(p_pos)
        total = float(np.sum(cc.weight * r))
        every = float(np.sum((cc.floor + cc.loss) * r)) / total
        none = float(np.sum((cc.floor + cc.gain) * r)) / total
    name, trivial = ("flagging every case", every) if every <= none else ("flagging no case", none)
    saved = 1.0 - cost / trivial if trivial != 0 else math.nan
    if math.isclose(cost, trivial, rel_tol=1e-12):
        saved = 0.0  # the rule is the trivial one, summed in another order
    return Savings(float(cost), name, float(trivial), float(saved))
