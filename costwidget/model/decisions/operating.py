"""The operating point in the user's units: eq. 6 inverted, workforce units, and the readout table.

These are the small conversions an interactive front end needs when a user
moves one control and the others must follow: a PCF(+) picked on the cost
axis or a cost ratio becomes a pair of costs, a capacity in percent becomes a
number of cases. Each keeps the user's other inputs and handles a zero cost
(where a plain ``ratio * cost_fp`` would lose the ratio).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..kernels.costs import probability_cost
from ..kernels.readable import (
    deployed_threshold,
    next_lower_scores,
    readable,
    round_significant,
    threshold_text,
)
from ..kernels.validation import check_costs, check_probability
from .constraints import roc_rates

__all__ = [
    "move_to_pcf",
    "prevalence_for_pcf",
    "snap_pcf",
    "zero_cost_note",
    "population_for",
    "costs_for_pcf",
    "costs_for_ratio",
    "capacity_to_cases",
    "capacity_from_cases",
    "cheapest_allowed",
    "readout_row",
    "CAPACITY_UNITS",
]

#: Units of a workforce capacity: a number of cases, or a percentage of all cases flagged.
CAPACITY_UNITS = ("cases", "% flagged")


def costs_for_ratio(ratio, *, cost_fn: float, cost_fp: float) -> tuple[float, float]:
    """The costs ``(C(-|+), C(+|-))`` whose ratio ``C(-|+)/C(+|-)`` is ``ratio``, changing one cost.

    The false-positive cost is kept when it is positive (it is the usual unit),
    otherwise the false-negative cost is kept and ``C(+|-)`` becomes
    ``C(-|+)/ratio``. ``ratio = inf`` sets ``C(+|-) = 0``; ``ratio = 0`` sets
    ``C(-|+) = 0``.

    Parameters
    ----------
    ratio : float
        The wanted ``C(-|+)/C(+|-)``, in ``[0, inf]``.
    cost_fn, cost_fp : float
        The current costs (not both zero).

    Returns
    -------
    (cost_fn, cost_fp) : tuple of float

    Examples
    --------
    >>> from costwidget.model.decisions.operating import costs_for_ratio
    >>> costs_for_ratio(4.0, cost_fn=1.0, cost_fp=2.0)
    (8.0, 2.0)
    >>> costs_for_ratio(4.0, cost_fn=3.0, cost_fp=0.0)   # keeps the non-zero cost
    (3.0, 0.75)
    """
    check_costs(cost_fn, cost_fp)
    r = float(ratio)
    if math.isnan(r) or r < 0:
        raise ValueError(f"the cost ratio C(-|+)/C(+|-) must be a number >= 0, got {ratio!r}.")
    cost_fn, cost_fp = float(cost_fn), float(cost_fp)
    unit = cost_fp if cost_fp > 0 else cost_fn  # the cost that stays (not both are 0)
    if math.isinf(r):
        return (cost_fn if cost_fn > 0 else unit, 0.0)
    if r == 0.0:
        return (0.0, unit)
    # Keep the false-positive cost (else the false-negative one); when the other cost would
    # overflow, keep the same number on the other side instead (the ratio is what matters).
    if cost_fp > 0:
        fn = r * cost_fp
        return (fn, cost_fp) if math.isfinite(fn) else (cost_fp, cost_fp / r)
    fp = cost_fn / r
    return (cost_fn, fp) if math.isfinite(fp) else (r * cost_fn, cost_fn)


def costs_for_pcf(pcf, *, p_pos: float, cost_fn: float, cost_fp: float) -> tuple[float, float]:
    """Eq. 6 inverted: the costs that give ``PCF(+) = pcf`` at prevalence ``p_pos``.

    The prevalence stays; the cost ratio becomes ``pcf·(1-p) / ((1-pcf)·p)``
    and :func:`costs_for_ratio` turns it into costs, keeping one of the user's
    costs (so a click on the cost axis never rescales both).

    Parameters
    ----------
    pcf : float
        The wanted PCF(+), in ``[0, 1]``.
    p_pos : float
        The prevalence p(+), in ``(0, 1)``.
    cost_fn, cost_fp : float
        The current costs (not both zero).

    Returns
    -------
    (cost_fn, cost_fp) : tuple of float

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.operating import costs_for_pcf
    >>> fn, fp = costs_for_pcf(0.75, p_pos=0.5, cost_fn=1.0, cost_fp=0.0)
    >>> fn, fp
    (1.0, 0.3333333333333333)
    >>> round(cw.probability_cost(0.5, fn, fp), 12)
    0.75
    """
    x = float(check_probability(pcf, "pcf"))
    p = float(check_probability(p_pos, "p_pos"))
    if not 0.0 < p < 1.0:
        raise ValueError(
            f"p_pos must lie strictly between 0 and 1 to reach a given PCF(+), got {p!r}."
        )
    if x == 1.0:
        ratio = math.inf
    else:
        ratio = x * (1.0 - p) / ((1.0 - x) * p)
    fn, fp = costs_for_ratio(ratio, cost_fn=cost_fn, cost_fp=cost_fp)
    probability_cost(p, fn, fp)  # refuses an undefined PCF(+) (both costs zero)
    return fn, fp


def prevalence_for_pcf(pcf, *, cost_fn: float, cost_fp: float) -> float:
    """Eq. 6 solved for p(+): the prevalence at which the costs give ``PCF(+) = pcf``.

    ``p = x·C(+|−) / (x·C(+|−) + (1−x)·C(−|+))`` for two positive costs (for them every PCF(+)
    in [0, 1] is reached by exactly one p(+): PCF(+) rises with p). The closed form is then
    nudged by a few ulps so that :func:`probability_cost` of the answer gives ``pcf`` back, to
    the last bit where one exists, else as close as a double p(+) can.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.operating import prevalence_for_pcf
    >>> p = prevalence_for_pcf(0.7, cost_fn=5.0, cost_fp=1.0)
    >>> round(p, 6), cw.probability_cost(p, 5.0, 1.0)
    (0.318182, 0.7)
    """
    x = float(check_probability(pcf, "pcf"))
    fn, fp = (float(c) for c in check_costs(cost_fn, cost_fp))
    if not (fn > 0.0 and fp > 0.0):
        raise ValueError(
            "p(+) cannot move PCF(+) while a cost is 0 (PCF(+) is then 0 or 1 at "
            "every p(+)): change a cost instead."
        )
    if x in (0.0, 1.0):
        return x
    p = x * fp / (x * fp + (1.0 - x) * fn)
    best, err = p, abs(float(probability_cost(p, fn, fp)) - x)
    for _ in range(64):  # PCF(+) rises with p: step towards x while that does not get worse
        got = float(probability_cost(p, fn, fp))
        if got == x:
            return p
        step = math.nextafter(p, 1.0 if got < x else 0.0)
        e = abs(float(probability_cost(step, fn, fp)) - x)
        if e > abs(got - x):
            break
        p = step
        if e < err:
            best, err = p, e
    return best


def snap_pcf(x) -> float:
    """A PCF(+) from a gesture (click or drag) on the 0.001 grid, clipped to [0, 1].

    Rounds half up (``floor(1000·x + 1/2) / 1000``), as the page's ``Math.round`` does.

    Examples
    --------
    >>> from costwidget.model import snap_pcf
    >>> snap_pcf(0.70049), snap_pcf(-0.2), snap_pcf(0.0005)
    (0.7, 0.0, 0.001)
    """
    x = min(max(float(x), 0.0), 1.0)
    return math.floor(1000.0 * x + 0.5) / 1000.0


def move_to_pcf(
    pcf, *, p_pos: float, cost_fn: float, cost_fp: float, digits: int | None = None
) -> tuple[float, float, float]:
    """``(p_pos, cost_fn, cost_fp)`` giving ``PCF(+) = pcf``: p(+) moves, the costs stay as typed.

    With two positive costs p(+) moves alone (:func:`prevalence_for_pcf`), and with ``digits``
    it is rounded to that many significant digits (a gesture's round number; PCF(+) is then
    near, not exactly, ``pcf``), with more digits only where fewer would move PCF(+) by more
    than 0.0005 or reach 0 or 1. With a cost of 0 (PCF(+) is then 0 or 1 at every p(+)), or
    where no double p(+) lands within 1e-9 of ``pcf`` (an ulp of p(+) moves PCF(+) by about
    ratio·1e-16, so only at cost ratios beyond ~10^7), one cost changes instead
    (:func:`costs_for_pcf`) and p(+) stays (or goes to 0.5 from 0 or 1). `zero_cost_note`
    says so in words.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model import move_to_pcf
    >>> p, fn, fp = move_to_pcf(0.36, p_pos=0.2, cost_fn=5.0, cost_fp=1.0)
    >>> (fn, fp), round(cw.probability_cost(p, fn, fp), 12)
    ((5.0, 1.0), 0.36)
    >>> move_to_pcf(0.7, p_pos=0.2, cost_fn=5.0, cost_fp=1.0, digits=3)
    (0.318, 5.0, 1.0)
    >>> move_to_pcf(0.5, p_pos=0.0, cost_fn=0.0, cost_fp=1.0)
    (0.5, 1.0, 1.0)
    """
    x = float(check_probability(pcf, "pcf"))
    p = float(check_probability(p_pos, "p_pos"))
    fn, fp = (float(c) for c in check_costs(cost_fn, cost_fp))
    if fn > 0.0 and fp > 0.0:
        q = prevalence_for_pcf(x, cost_fn=fn, cost_fp=fp)
        # With a cost ratio beyond ~10^15 no double p(+) reaches some PCF(+) (next to 0 or 1 an
        # ulp of p(+) jumps past it): then a cost moves after all.
        if abs(float(probability_cost(q, fn, fp)) - x) <= _REACHED:
            return _round_prevalence(q, x, fn, fp, digits), fn, fp
    p = p if 0.0 < p < 1.0 else 0.5
    return (p, *costs_for_pcf(x, p_pos=p, cost_fn=fn, cost_fp=fp))


#: How close to the asked PCF(+) the solved p(+) must land for p(+) to be the thing that moves.
_REACHED = 1e-9
#: A gesture's p(+) is rounded to few digits only while that keeps PCF(+) within half a step of
#: the 0.001 grid it was snapped to.
_GESTURE_SLACK = 5e-4


def _round_prevalence(q, x, fn, fp, digits):
    """``q`` to ``digits`` significant digits, or more where fewer would move PCF(+) more than
    `_GESTURE_SLACK` from ``x`` (near p(+) = 1 the third digit is a coarse step) or reach 0 or 1."""
    if digits is None or q in (0.0, 1.0):
        return q
    for d in range(int(digits), 17):
        r = round_significant(q, d)
        if 0.0 < r < 1.0 and abs(float(probability_cost(r, fn, fp)) - x) <= _GESTURE_SLACK:
            return r
    return q


def zero_cost_note(cost_fn: float, cost_fp: float) -> str:
    """One line for the widget when a cost is 0: a click then changes a cost, not p(+).

    Examples
    --------
    >>> from costwidget.model import zero_cost_note
    >>> zero_cost_note(0.0, 1.0)
    'C(−|+) is 0, so p(+) cannot move PCF(+): a click or drag changes a cost instead'
    >>> zero_cost_note(5.0, 1.0)
    ''
    """
    zero = [name for name, c in (("C(−|+)", cost_fn), ("C(+|−)", cost_fp)) if c == 0]
    if not zero:
        return ""
    return f"{zero[0]} is 0, so p(+) cannot move PCF(+): a click or drag changes a cost instead"


def population_for(p_pos: float, total: float) -> tuple[float, float]:
    """``(n_pos, n_neg)``: a population of ``total`` cases at prevalence ``p_pos``.

    Examples
    --------
    >>> from costwidget.model import population_for
    >>> population_for(0.3, 1000.0)
    (300.0, 700.0)
    """
    n_pos = float(p_pos) * float(total)
    return n_pos, float(total) - n_pos


def _check_unit(unit):
    if unit not in CAPACITY_UNITS:
        raise ValueError(f"capacity unit must be one of {CAPACITY_UNITS}, got {unit!r}.")


def capacity_to_cases(value, unit: str, *, n_pos: float, n_neg: float) -> float:
    """A workforce capacity given in ``unit`` (``"cases"`` or ``"% flagged"``) as a number of cases.

    Examples
    --------
    >>> from costwidget.model.decisions.operating import capacity_to_cases
    >>> capacity_to_cases(30.0, "% flagged", n_pos=300, n_neg=700)
    300.0
    """
    _check_unit(unit)
    value = float(value)
    if math.isnan(value) or value < 0:
        raise ValueError(f"capacity must be a number >= 0, got {value!r}.")
    if unit == "cases":
        return value
    if value > 100.0:
        raise ValueError(f"a capacity in percent must lie in [0, 100], got {value!r}.")
    return value / 100.0 * (float(n_pos) + float(n_neg))


def capacity_from_cases(cases, unit: str, *, n_pos: float, n_neg: float) -> float:
    """A capacity in cases shown in ``unit``: the inverse of :func:`capacity_to_cases`.

    Examples
    --------
    >>> from costwidget.model.decisions.operating import capacity_from_cases
    >>> capacity_from_cases(300.0, "% flagged", n_pos=300, n_neg=700)
    30.0
    """
    _check_unit(unit)
    if unit == "cases":
        return float(cases)
    total = float(n_pos) + float(n_neg)
    return 100.0 * float(cases) / total if total > 0 else 0.0


#: `deployed_threshold` remembered for the last thresholds asked: a pure function of two numbers,
#: and a slider move asks again for the same few hull vertices' thresholds (its decimal search
#: costs more than the rest of a rule).
_deployed = functools.lru_cache(maxsize=4096)(deployed_threshold)


def deploy_thresholds(clf, fields: dict) -> tuple[dict, tuple[float, float]]:
    """`cheapest_allowed`'s rule with each threshold as deployed (`deployed_threshold`: the
    shortest decimal that flags exactly its cases, ``-inf`` when it flags every case), and the
    next lower distinct scores below ``threshold_high`` and ``threshold_low`` as found."""
    fields = dict(fields)
    # A randomized rule's ``threshold`` is its best single threshold, a suggestion the rule
    # does not deploy: it stays the score (the page knows it to 6 digits only).
    keys = ("threshold_high", "threshold_low") + (() if fields["randomized"] else ("threshold",))
    lower = next_lower_scores(clf.counts.thresholds, [fields[k] for k in keys])
    for key, below in zip(keys, lower):
        fields[key] = _deployed(float(fields[key]), float(below))
    return fields, (float(lower[0]), float(lower[1]))


def deployed_at(clf, threshold: float) -> float:
    """The threshold a rule deploys for one of ``clf``'s scores (a hull vertex's threshold):
    the deployed ``threshold`` of `deploy_thresholds` for a rule that is not randomized."""
    below = next_lower_scores(clf.counts.thresholds, [threshold])[0]
    return _deployed(float(threshold), float(below))


def _mix_rule(rule) -> str:
    """The rule as a user deploys it (randomized when needed), for the readout's column."""
    if rule["randomized"]:
        return (
            f"threshold {threshold_text(rule['threshold_low'])} with prob. "
            f"{readable(rule['prob_low'])}, else {threshold_text(rule['threshold_high'])}"
        )
    return f"threshold {threshold_text(rule['threshold'])}"


def readout_row(clf, op, rule=None, *, scale: float) -> dict:
    """One readout row: the classifier at its optimal point ``op`` and, with a constrained
    ``rule`` (a mapping with the fields of :func:`cheapest_allowed`, or None), that rule.

    Columns ``threshold, fpr, tpr, nec, expected_cost, range_lo, range_hi``; with a
    constrained rule also ``constrained_fpr, constrained_tpr, constrained_nec,
    constrained_expected_cost, constrained_rule, best_single_threshold`` (the rule's single
    threshold: itself when not randomized) and ``constrained_binding``. ``scale`` is
    ``p·C(-|+) + (1-p)·C(+|-)`` (NEC to cost per case).
    """
    lo, hi = clf.operating_range
    row = {
        "threshold": op.threshold,
        "fpr": op.fpr,
        "tpr": op.tpr,
        "nec": op.nec,
        "expected_cost": op.nec * scale,
        "range_lo": lo,
        "range_hi": hi,
    }
    if rule is not None and rule["constraint"] is not None:
        row.update(
            {
                "constrained_fpr": rule["fpr"],
                "constrained_tpr": rule["tpr"],
                "constrained_nec": rule["nec"],
                "constrained_expected_cost": rule["nec"] * scale,
                "constrained_rule": _mix_rule(rule),
                "best_single_threshold": rule["threshold"],
                "constrained_binding": rule["binding"],
            }
        )
    return row


def _before(op, cp) -> bool:
    """True when hull point ``op`` comes strictly before ``cp`` along the hull from (0, 0): a
    lower load, so ``op`` is allowed whenever ``cp`` is (the load grows along the hull)."""
    return op.fpr < cp.fpr or (op.fpr == cp.fpr and op.tpr < cp.tpr)


def _same_point(op, cp) -> bool:
    return op.fpr == cp.fpr and op.tpr == cp.tpr


#: NEC lies in [0, 1]: a constrained rule within this of the unconstrained optimum costs the
#: same (a mix's rates are rounded), and the limit is then said not to bind.
_NEC_SLACK = 1e-12


def _optimum(clf, pcf, op) -> dict:
    # Arrays, not `clf.segments`: this runs at every move of the operating point.
    pcf_lo, pcf_hi, fpr, tpr = clf.segment_rates()
    # The vertex's own piece of the envelope: the segment with its rates containing pcf.
    same = (fpr == op.fpr) & (tpr == op.tpr)
    # A vertex optimal at one PCF(+) only (a tie) has no piece: its interval is that point.
    lo, hi = (
        (pcf, pcf) if not same.any() else (float(pcf_lo[same].min()), float(pcf_hi[same].max()))
    )
    t = float(op.threshold)
    return {
        "threshold": t,
        "randomized": False,
        "threshold_low": t,
        "threshold_high": t,
        "prob_low": 0.0,
        "constraint": None,
        "fpr": float(op.fpr),
        "tpr": float(op.tpr),
        "nec": float(op.nec),
        "pcf_lo": lo,
        "pcf_hi": hi,
        "binding": False,
    }


def cheapest_allowed(clf, pcf: float, cp=None, *, op=None) -> dict:
    """The cheapest rule at PCF(+) ``pcf`` that the constraint ``cp`` allows, with the PCF(+)
    interval where it stays so; ``cp`` None: the unconstrained optimum (``clf.best``).

    ``cp`` is the answer of ``clf.neyman_pearson(...)`` or ``clf.workforce(...)`` (the paper's
    point, the largest TPR allowed). The allowed rules on the hull run from (0, 0) up to it,
    and cost along the hull is convex: where the unconstrained optimum lies at or before the
    paper's point the limit does not bind and the rule is that optimum; past it, the rule is
    the paper's point (Drummond & Holte (2000), sec. 2.2.2), the cheapest allowed from the
    crossing where the hull vertex just before it hands over, up to PCF(+) = 1.

    Returns
    -------
    dict
        ``threshold`` (a randomized rule's best single threshold), ``randomized``,
        ``threshold_low``, ``threshold_high``, ``prob_low``, ``constraint`` (the kind or None),
        ``fpr``, ``tpr``, ``nec``, ``pcf_lo``, ``pcf_hi`` (holding ``pcf``) and ``binding``
        (the limit raises the cost). `decision_rule` makes its `DecisionRule` from it.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.operating import cheapest_allowed
    >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    >>> r = cheapest_allowed(clf, 0.5, clf.neyman_pearson(0.15))
    >>> r["randomized"], round(r["fpr"], 6), round(r["tpr"], 6), r["binding"]
    (True, 0.15, 0.35, True)
    >>> cheapest_allowed(clf, 0.2, clf.neyman_pearson(0.15))["binding"]  # optimum: flag none
    False
    """
    op = clf.best(pcf) if op is None else op
    if cp is None:
        return _optimum(clf, pcf, op)
    if _before(op, cp) or _same_point(op, cp):
        # The cheapest rule is allowed: the limit does not bind at this PCF(+), and the paper's
        # point (the largest TPR allowed) would cost more. Where the optimum is the
        # paper's point itself, it stays the cheapest allowed up to PCF(+) = 1.
        rule = _optimum(clf, pcf, op)
        rule.update(constraint=cp.kind)
        if _same_point(op, cp):
            rule["pcf_hi"] = 1.0
        return rule
    # The cheapest rule is past the limit: along the hull the cost falls up to it, so the
    # cheapest allowed rule is where the limit meets the hull; it stays so on [hand-over into
    # its edge, 1].
    fpr, tpr, _, h, _ = roc_rates(clf)  # arrays, not `clf.hull`'s DataFrame: every move asks
    f, t = fpr[h], tpr[h]
    # Hull vertices strictly before the constrained point (lower FPR, or equal FPR and lower TPR).
    before = np.flatnonzero((f < cp.fpr) | ((f == cp.fpr) & (t < cp.tpr)))
    if not len(before):
        lo = 0.0
    else:
        j = before[-1]
        # Where vertex j hands over to the next one along the hull (the constrained point's edge).
        df, dt = f[j + 1] - f[j], t[j + 1] - t[j]
        lo = float(df / (df + dt)) if df + dt > 0 else 0.0
    nec = float(cp.nec(pcf))
    return {
        "threshold": float(cp.single_threshold if cp.randomized else cp.threshold_high),
        "randomized": bool(cp.randomized),
        "threshold_low": float(cp.threshold_low),
        "threshold_high": float(cp.threshold_high),
        "prob_low": float(cp.prob_low) if cp.randomized else 0.0,
        "constraint": cp.kind,
        "fpr": float(cp.fpr),
        "tpr": float(cp.tpr),
        "nec": nec,
        "pcf_lo": min(lo, pcf),
        "pcf_hi": 1.0,
        "binding": bool(nec - float(op.nec) > _NEC_SLACK),
    }
