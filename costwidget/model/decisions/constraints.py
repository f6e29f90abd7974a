"""Neyman-Pearson and workforce constraints on the ROC convex hull (Drummond & Holte (2000), sec. 2.2.2).

Both maximize TPR subject to a linear constraint ``a·TPR + b·FPR <= c`` with
``a, b >= 0``. Along the hull from (0, 0) to (1, 1) the left-hand side only
grows, and the hull is concave, so the optimum is where the constraint line
meets the hull: a vertex, or a randomized mix of the two vertices of the edge
it crosses (Drummond & Holte (2000), fig. 10). The best *deterministic* choice is the ROC point
(any threshold, not only hull vertices) with the largest TPR that still
satisfies the constraint.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..base.results import ConstrainedPoint
from ..kernels.validation import check_number

__all__ = ["ConstrainedPoint", "neyman_pearson", "solve_linear_constraint", "workforce"]


class _Curve(NamedTuple):
    """What a constraint reads of one classifier: its ROC points' rates and thresholds, its
    hull's vertices, and the constraint's load (the left-hand side) at those vertices.

    ``load_at(i)`` is the load at ROC point ``i``, ``load_roc()`` at every point (built only
    where the ROC points do not both grow: see `_best_single`)."""

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    hull: np.ndarray
    load_hull: np.ndarray
    load_at: Callable[[int], float]
    load_roc: Callable[[], np.ndarray]
    monotone: bool


def solve_linear_constraint(curve: _Curve, *, kind: str, limit: float, describe: str):
    """Maximize TPR subject to ``load <= limit``, where load is non-decreasing along the hull.

    ``curve`` holds the ROC points, the hull's indices into them and the constraint's load
    (`_Curve`, e.g. FPR for Neyman-Pearson).
    """
    h, load_hull = curve.hull, curve.load_hull
    hull_fpr, hull_tpr, hull_th = curve.fpr[h], curve.tpr[h], curve.thresholds[h]
    # The first vertex reaching the top TPR (1, up to rounding of weighted totals) is the
    # unconstrained best; beyond it TPR cannot grow. argmax returns the first maximum.
    top = int(np.argmax(hull_tpr))
    if load_hull[top] <= limit:
        k, binding = top, False
        how = "does not bind: the classifier at {} already reaches TPR = 1 within it"
    else:
        # Last vertex within the limit; the next one exceeds it (k < top here).
        k, binding = int(np.searchsorted(load_hull, limit, side="right")) - 1, True
        how = "is met exactly by the hull vertex at {}"
        if load_hull[k] != limit:
            q = (limit - load_hull[k]) / (load_hull[k + 1] - load_hull[k])  # weight on k + 1
            if 0.0 < q < 1.0:
                return _mixed(curve, kind, k, q, limit, describe)
            # The mix rounds to a vertex (e.g. a denormal limit): no coin to toss.
            k = k if q <= 0.0 else k + 1
            how = "is met by the hull vertex at {}"
    where = _where(hull_th[k], hull_fpr[k], hull_tpr[k])
    single = _best_single(curve, limit)
    return ConstrainedPoint(
        kind=kind,
        fpr=float(hull_fpr[k]),
        tpr=float(hull_tpr[k]),
        binding=binding,
        randomized=False,
        threshold_low=float(hull_th[k]),
        threshold_high=float(hull_th[k]),
        prob_low=0.0,
        single_threshold=single[0],
        single_fpr=single[1],
        single_tpr=single[2],
        message=f"The {describe} {how.format(where)}.",
    )


def _mixed(curve, kind, k, q, limit, describe) -> ConstrainedPoint:
    """The randomized mix of hull vertices k and k + 1 (weight ``q`` on k + 1) that meets the
    limit inside their edge (Drummond & Holte (2000), fig. 10)."""
    h = curve.hull
    hull_fpr, hull_tpr, hull_th = curve.fpr[h], curve.tpr[h], curve.thresholds[h]
    fpr = (1 - q) * hull_fpr[k] + q * hull_fpr[k + 1]
    tpr = (1 - q) * hull_tpr[k] + q * hull_tpr[k + 1]
    if kind == "neyman_pearson":
        fpr = limit  # exact: the mix meets FPR = max_fpr; the formula above may round 1 ulp over it
    single = _best_single(curve, limit)
    return ConstrainedPoint(
        kind=kind,
        fpr=float(fpr),
        tpr=float(tpr),
        binding=True,
        randomized=True,
        threshold_low=float(hull_th[k + 1]),
        threshold_high=float(hull_th[k]),
        prob_low=float(q),
        single_threshold=single[0],
        single_fpr=single[1],
        single_tpr=single[2],
        message=(
            f"The {describe} falls between two hull vertices: use "
            f"{_where(hull_th[k + 1], hull_fpr[k + 1], hull_tpr[k + 1])} with "
            f"probability {q:.4g} and {_where(hull_th[k], hull_fpr[k], hull_tpr[k])} "
            f"otherwise (TPR {tpr:.4g}). The best single choice is "
            f"{_where(*single)} (TPR {single[2]:.4g})."
        ),
    )


def _where(threshold, fpr, tpr) -> str:
    """Name an ROC point by its threshold, or by its rates when it has none (from_roc/from_confusion)."""
    if np.isnan(threshold):
        return f"the ROC point (FPR {fpr:.4g}, TPR {tpr:.4g})"
    return f"threshold {threshold:.6g}"


def _best_single(curve: _Curve, limit: float):
    """(threshold, fpr, tpr) of the ROC point used alone with the largest TPR within the limit,
    and among equal TPRs the lowest load. (0, 0) always qualifies (limit >= 0)."""
    fpr, tpr, th = curve.fpr, curve.tpr, curve.thresholds
    if curve.monotone:
        # FPR and TPR never fall along the points, so neither does the load: the points within
        # the limit are a prefix (found by bisection, not a pass over 10^5 points at every
        # move of a slider), its largest TPR is its last, and the first point with that TPR
        # has the lowest load among them.
        m = _prefix_within(curve.load_at, len(tpr), limit)
        if m > 0:
            j = int(np.searchsorted(tpr[:m], tpr[m - 1], side="left"))
            return float(th[j]), float(fpr[j]), float(tpr[j])
    load = curve.load_roc()
    within = np.flatnonzero(load <= limit)
    best_tpr = tpr[within].max()
    ties = within[tpr[within] == best_tpr]
    j = int(ties[np.argmin(load[ties])])
    return float(th[j]), float(fpr[j]), float(tpr[j])


def _prefix_within(load_at, n: int, limit: float) -> int:
    """How many of the first points have ``load_at(i) <= limit``, for a load that never falls."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        if load_at(mid) <= limit:
            lo = mid + 1
        else:
            hi = mid
    return lo


#: Whether each classifier's ROC points never fall (FPR and TPR both), found once per classifier:
#: points from scores always hold it; points given to ``from_roc`` need not.
_MONOTONE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def roc_rates(clf):
    """(fpr, tpr, thresholds) of every ROC point of ``clf``, its hull's indices, and whether the
    rates never fall along the points. The classifier's own cached rates where it has them:
    they are the same divisions, made once."""
    counts = clf.counts
    fpr = getattr(clf, "_fpr", None)
    tpr = getattr(clf, "_tpr", None)
    if fpr is None or tpr is None:
        fpr, tpr = counts.fp / counts.n_neg, counts.tp / counts.n_pos
    try:
        monotone = _MONOTONE.get(clf)
    except TypeError:  # not weakly referable: found again each time
        monotone = None
    if monotone is None:
        monotone = bool(np.all(np.diff(fpr) >= 0) and np.all(np.diff(tpr) >= 0))
        with contextlib.suppress(TypeError):
            _MONOTONE[clf] = monotone
    return fpr, tpr, counts.thresholds, clf.hull_index, monotone


def neyman_pearson(clf, max_fpr: float) -> ConstrainedPoint:
    """Implementation of :meth:`Classifier.neyman_pearson` (see there)."""
    max_fpr = check_number(max_fpr, "max_fpr")
    if not 0.0 <= max_fpr <= 1.0:
        raise ValueError(f"max_fpr must lie in [0, 1], got {max_fpr!r}.")
    fpr, tpr, th, h, monotone = roc_rates(clf)
    curve = _Curve(
        fpr=fpr,
        tpr=tpr,
        thresholds=th,
        hull=h,
        load_hull=fpr[h],
        load_at=fpr.item,
        load_roc=lambda: fpr,
        monotone=monotone,
    )
    return solve_linear_constraint(
        curve,
        kind="neyman_pearson",
        limit=max_fpr,
        describe=f"limit FPR <= {max_fpr:.4g}",
    )


def workforce(clf, capacity: float, *, n_pos=None, n_neg=None) -> ConstrainedPoint:
    """Implementation of :meth:`Classifier.workforce` (see there)."""
    capacity = check_number(capacity, "capacity", finite=False)
    if capacity < 0:
        raise ValueError(f"capacity must be >= 0 (a number of cases), got {capacity!r}.")
    n_pos = clf.n_pos if n_pos is None else check_number(n_pos, "n_pos")
    n_neg = clf.n_neg if n_neg is None else check_number(n_neg, "n_neg")
    if n_pos is None or n_neg is None:
        raise ValueError("n_pos and n_neg are required: this classifier was built from rates only.")
    if n_pos <= 0 or n_neg < 0:
        raise ValueError(f"n_pos must be > 0 and n_neg >= 0, got n_pos={n_pos!r}, n_neg={n_neg!r}.")
    fpr, tpr, th, h, monotone = roc_rates(clf)
    n_pos, n_neg = float(n_pos), float(n_neg)
    curve = _Curve(
        fpr=fpr,
        tpr=tpr,
        thresholds=th,
        hull=h,
        # The same two products and sum as over every point, so the loads compare alike.
        load_hull=tpr[h] * n_pos + fpr[h] * n_neg,
        load_at=lambda i: tpr.item(i) * n_pos + fpr.item(i) * n_neg,
        load_roc=lambda: tpr * n_pos + fpr * n_neg,
        monotone=monotone,
    )
    return solve_linear_constraint(
        curve,
        kind="workforce",
        limit=capacity,
        describe=f"capacity of {capacity:.6g} cases",
    )
