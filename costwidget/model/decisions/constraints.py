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

import numpy as np

from ..base.results import ConstrainedPoint
from ..kernels.validation import check_number

__all__ = ["ConstrainedPoint", "neyman_pearson", "solve_linear_constraint", "workforce"]


def solve_linear_constraint(
    *,
    kind: str,
    load_hull: np.ndarray,
    hull_fpr: np.ndarray,
    hull_tpr: np.ndarray,
    hull_thresholds: np.ndarray,
    load_roc: np.ndarray,
    roc_fpr: np.ndarray,
    roc_tpr: np.ndarray,
    roc_thresholds: np.ndarray,
    limit: float,
    describe: str,
) -> ConstrainedPoint:
    """Maximize TPR subject to ``load <= limit``, where load is non-decreasing along hull and ROC.

    ``load_hull``/``load_roc`` are the constraint's left-hand side at every
    hull vertex / ROC point (e.g. FPR for Neyman-Pearson).
    """
    # The first vertex reaching the top TPR (1, up to rounding of weighted totals) is the
    # unconstrained best; beyond it TPR cannot grow. argmax returns the first maximum.
    top = int(np.argmax(hull_tpr))
    if load_hull[top] <= limit:
        k = top
        return _at_vertex(
            kind,
            k,
            hull_fpr,
            hull_tpr,
            hull_thresholds,
            load_roc,
            roc_fpr,
            roc_tpr,
            roc_thresholds,
            limit,
            binding=False,
            message=f"The {describe} does not bind: the classifier at "
            f"{_where(hull_thresholds[k], hull_fpr[k], hull_tpr[k])} already "
            f"reaches TPR = 1 within it.",
        )
    # Last vertex within the limit; the next one exceeds it (k < top here).
    k = int(np.searchsorted(load_hull, limit, side="right")) - 1
    if load_hull[k] == limit:
        return _at_vertex(
            kind,
            k,
            hull_fpr,
            hull_tpr,
            hull_thresholds,
            load_roc,
            roc_fpr,
            roc_tpr,
            roc_thresholds,
            limit,
            binding=True,
            message=f"The {describe} is met exactly by the hull vertex at "
            f"{_where(hull_thresholds[k], hull_fpr[k], hull_tpr[k])}.",
        )
    q = (limit - load_hull[k]) / (load_hull[k + 1] - load_hull[k])  # weight on vertex k + 1
    if not 0.0 < q < 1.0:  # the mix rounds to a vertex (e.g. a denormal limit): no coin to toss
        k = k if q <= 0.0 else k + 1
        return _at_vertex(
            kind,
            k,
            hull_fpr,
            hull_tpr,
            hull_thresholds,
            load_roc,
            roc_fpr,
            roc_tpr,
            roc_thresholds,
            limit,
            binding=True,
            message=f"The {describe} is met by the hull vertex at "
            f"{_where(hull_thresholds[k], hull_fpr[k], hull_tpr[k])}.",
        )
    fpr = (1 - q) * hull_fpr[k] + q * hull_fpr[k + 1]
    tpr = (1 - q) * hull_tpr[k] + q * hull_tpr[k + 1]
    if kind == "neyman_pearson":
        fpr = limit  # exact: the mix meets FPR = max_fpr; the formula above may round 1 ulp over it
    single = _best_single(load_roc, roc_fpr, roc_tpr, roc_thresholds, limit)
    return ConstrainedPoint(
        kind=kind,
        fpr=float(fpr),
        tpr=float(tpr),
        binding=True,
        randomized=True,
        threshold_low=float(hull_thresholds[k + 1]),
        threshold_high=float(hull_thresholds[k]),
        prob_low=float(q),
        single_threshold=single[0],
        single_fpr=single[1],
        single_tpr=single[2],
        message=(
            f"The {describe} falls between two hull vertices: use "
            f"{_where(hull_thresholds[k + 1], hull_fpr[k + 1], hull_tpr[k + 1])} with "
            f"probability {q:.4g} and {_where(hull_thresholds[k], hull_fpr[k], hull_tpr[k])} "
            f"otherwise (TPR {tpr:.4g}). The best single choice is "
            f"{_where(*single)} (TPR {single[2]:.4g})."
        ),
    )


def _where(threshold, fpr, tpr) -> str:
    """Name an ROC point by its threshold, or by its rates when it has none (from_roc/from_confusion)."""
    if np.isnan(threshold):
        return f"the ROC point (FPR {fpr:.4g}, TPR {tpr:.4g})"
    return f"threshold {threshold:.6g}"


def _best_single(load_roc, roc_fpr, roc_tpr, roc_thresholds, limit):
    # Any ROC point may be used alone; among those within the limit take the largest
    # TPR, and among equal TPRs the lowest load. (0, 0) always qualifies (limit >= 0).
    within = np.flatnonzero(load_roc <= limit)
    best_tpr = roc_tpr[within].max()
    ties = within[roc_tpr[within] == best_tpr]
    j = int(ties[np.argmin(load_roc[ties])])
    return float(roc_thresholds[j]), float(roc_fpr[j]), float(roc_tpr[j])


def _at_vertex(
    kind,
    k,
    hull_fpr,
    hull_tpr,
    hull_thresholds,
    load_roc,
    roc_fpr,
    roc_tpr,
    roc_thresholds,
    limit,
    *,
    binding,
    message,
):
    single = _best_single(load_roc, roc_fpr, roc_tpr, roc_thresholds, limit)
    return ConstrainedPoint(
        kind=kind,
        fpr=float(hull_fpr[k]),
        tpr=float(hull_tpr[k]),
        binding=binding,
        randomized=False,
        threshold_low=float(hull_thresholds[k]),
        threshold_high=float(hull_thresholds[k]),
        prob_low=0.0,
        single_threshold=single[0],
        single_fpr=single[1],
        single_tpr=single[2],
        message=message,
    )


def _rates(clf):
    """(fpr, tpr, thresholds) of every ROC point of ``clf``, and its hull's indices."""
    counts = clf.counts
    return counts.fp / counts.n_neg, counts.tp / counts.n_pos, counts.thresholds, clf.hull_index


def neyman_pearson(clf, max_fpr: float) -> ConstrainedPoint:
    """Implementation of :meth:`Classifier.neyman_pearson` (see there)."""
    max_fpr = check_number(max_fpr, "max_fpr")
    if not 0.0 <= max_fpr <= 1.0:
        raise ValueError(f"max_fpr must lie in [0, 1], got {max_fpr!r}.")
    fpr, tpr, th, h = _rates(clf)
    return solve_linear_constraint(
        kind="neyman_pearson",
        load_hull=fpr[h],
        hull_fpr=fpr[h],
        hull_tpr=tpr[h],
        hull_thresholds=th[h],
        load_roc=fpr,
        roc_fpr=fpr,
        roc_tpr=tpr,
        roc_thresholds=th,
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
    fpr, tpr, th, h = _rates(clf)
    load = tpr * n_pos + fpr * n_neg
    return solve_linear_constraint(
        kind="workforce",
        load_hull=load[h],
        hull_fpr=fpr[h],
        hull_tpr=tpr[h],
        hull_thresholds=th[h],
        load_roc=load,
        roc_fpr=fpr,
        roc_tpr=tpr,
        roc_thresholds=th,
        limit=capacity,
        describe=f"capacity of {capacity:.6g} cases",
    )
