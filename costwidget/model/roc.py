"""ROC points from scores: one point per distinct threshold, ties as scikit-learn makes them.

Predicted positive means ``score >= threshold``. Tied scores form a single ROC
point whatever their input order. The first point is (0, 0) at threshold
``+inf`` (nothing predicted positive), as in ``sklearn.metrics.roc_curve``.

Speed: the unweighted path never sorts indices of all scores. Each class's
scores are sorted on their own (a plain value sort, cheaper than ``argsort``)
and the two sorted classes are merged by a stable ``argsort`` of their
concatenation, which timsort does in linear time. Scores are negated first so
that all work runs in ascending order on contiguous arrays. Large inputs use
two threads (numpy releases the GIL in these loops): each sorts half of the
cases, and after the halves are merged, each counts the ROC points of one
score range; a tie never straddles the cut between the ranges, so the low
range's counts only need the high range's totals added. Counts stay integers
so that the convex hull can be exact.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

__all__ = ["RocCounts", "roc_counts"]

# Below this size threads cost more than they save.
_PARALLEL_MIN = 1 << 16
_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="costwidget-sort")
    return _pool


def _forget_pool() -> None:
    # A forked child has none of the parent's threads: a pool inherited from the
    # parent would never run the work given to it, so the child makes its own.
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


@dataclass(frozen=True)
class RocCounts:
    """ROC points as (weighted) counts, sorted by FP then TP (descending threshold).

    ``tp``/``fp`` are int64 when there are no sample weights, float64 otherwise.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: float
    n_neg: float


def _sorted_classes(is_pos: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``-scores`` of the positives and of the negatives, each sorted ascending."""
    parts = []
    for mask in (is_pos, ~is_pos):
        part = scores[mask]
        np.negative(part, out=part)
        part.sort()
        parts.append(part)
    return parts[0], parts[1]


def _merge_sorted(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """One sorted array from two sorted ones (timsort merges two runs in linear time)."""
    merged = np.concatenate((a, b))
    merged.sort(kind="stable")
    return merged


def _count_sorted(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(negated threshold, tp, fp) at each distinct value of sorted ``pos`` and ``neg``, lowest first."""
    negated = np.concatenate((pos, neg))
    # Positives come first in `negated`, so a source index < len(pos) marks a positive.
    order = np.argsort(negated, kind="stable")
    negated = negated[order]
    tp = np.cumsum(order < len(pos), out=order)  # reuses `order`'s buffer: fewer fresh pages
    ends = _run_ends(negated)
    if len(ends) < len(negated):  # ties: a run of equal scores is one point, at its last case
        negated, tp = negated[ends], tp[ends]
    fp = np.subtract(ends, tp, out=ends)
    fp += 1
    return negated, tp, fp


def _count_in_parts(is_pos: np.ndarray, scores: np.ndarray) -> list[tuple[np.ndarray, ...]]:
    """:func:`_count_sorted` of all scores as consecutive parts, highest scores first."""
    n = len(scores)
    if n < _PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        return [_count_sorted(*_sorted_classes(is_pos, scores))]
    pool = _executor()
    half = n // 2
    (pos_a, neg_a), (pos_b, neg_b) = pool.map(
        _sorted_classes, (is_pos[:half], is_pos[half:]), (scores[:half], scores[half:]))
    pos, neg = pool.map(_merge_sorted, (pos_a, neg_a), (pos_b, neg_b))
    del pos_a, neg_a, pos_b, neg_b
    # Cut near the overall median (a sample taken at the same stride from both classes);
    # side="left" in both puts every tie on the same side of the cut.
    stride = max(1, n // 4096)
    cut = np.median(np.concatenate((pos[::stride], neg[::stride])))
    i, j = np.searchsorted(pos, cut), np.searchsorted(neg, cut)
    ranges = [(pos[:i], neg[:j]), (pos[i:], neg[j:])]
    ranges = [r for r in ranges if len(r[0]) + len(r[1])]
    counted = list(pool.map(lambda r: _count_sorted(*r), ranges))
    if len(counted) == 2:
        (_, tp_high, fp_high), (_, tp_low, fp_low) = counted
        tp_low += tp_high[-1]
        fp_low += fp_high[-1]
    return counted


def roc_counts(is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray | None = None) -> RocCounts:
    """Cumulative TP/FP counts at every distinct threshold, from highest to lowest.

    Parameters
    ----------
    is_pos : bool ndarray
        True for positive samples.
    scores : float64 ndarray
        Finite scores; higher means more positive.
    weights : float64 ndarray or None
        Non-negative sample weights; samples of weight 0 are dropped first (as
        scikit-learn does), so they create no threshold.
    """
    if weights is not None:
        return _weighted_counts(is_pos, scores, weights)
    parts = _count_in_parts(is_pos, scores)
    tp = np.concatenate([[0]] + [p[1] for p in parts])
    fp = np.concatenate([[0]] + [p[2] for p in parts])
    thresholds = np.concatenate([[-np.inf]] + [p[0] for p in parts])
    np.negative(thresholds, out=thresholds)
    n_pos = int(tp[-1])
    return RocCounts(thresholds=thresholds, tp=tp, fp=fp, n_pos=n_pos, n_neg=len(scores) - n_pos)


def _weighted_counts(is_pos, scores, weights) -> RocCounts:
    keep = weights > 0
    if not keep.all():
        is_pos, scores, weights = is_pos[keep], scores[keep], weights[keep]
    if is_pos.all() or not is_pos.any():
        missing = "positive" if not is_pos.any() else "negative"
        raise ValueError(f"sample_weight gives the {missing} class a total weight of 0.")
    # Descending order; the order within ties does not matter (a tie is one point).
    order = np.argsort(-scores, kind="stable")
    sorted_scores = scores[order]
    ends = _run_ends(sorted_scores)
    sorted_pos, sorted_weights = is_pos[order], weights[order]
    tp = np.cumsum(np.where(sorted_pos, sorted_weights, 0.0))[ends]
    fp = np.cumsum(np.where(sorted_pos, 0.0, sorted_weights))[ends]
    # Totals from the same cumulative sums (not np.sum, which rounds differently), as
    # scikit-learn does, so that the last point is exactly (1, 1).
    n_pos, n_neg = float(tp[-1]), float(fp[-1])
    return RocCounts(thresholds=np.concatenate(([np.inf], sorted_scores[ends])),
                     tp=np.concatenate(([0.0], tp)), fp=np.concatenate(([0.0], fp)),
                     n_pos=n_pos, n_neg=n_neg)


def _run_ends(sorted_values: np.ndarray) -> np.ndarray:
    """Index of the last element of each run of equal values in a sorted array."""
    is_end = np.empty(len(sorted_values), dtype=bool)
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=is_end[:-1])
    is_end[-1:] = True
    return np.flatnonzero(is_end)
