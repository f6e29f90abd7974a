"""ROC points from scores: one point per distinct threshold, ties as scikit-learn makes them.

Predicted positive means ``score >= threshold``. Tied scores form a single ROC
point whatever their input order. The first point is (0, 0) at threshold
``+inf`` (nothing predicted positive), as in ``sklearn.metrics.roc_curve``.

Speed: the unweighted path sorts the positive and the negative scores
separately (in two threads, numpy releases the GIL while sorting) and merges
the sorted runs in linear time, which is cheaper than one ``argsort`` of all
scores. Counts stay integers so that the convex hull can be exact.
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
        _pool = ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 1)),
                                   thread_name_prefix="costwidget-sort")
    return _pool


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


def _sorted_runs(scores_pos: np.ndarray, scores_neg: np.ndarray) -> list[np.ndarray]:
    """Sort each class's scores, in parallel when large; big runs are split in two for balance."""
    n = len(scores_pos) + len(scores_neg)
    if n < _PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        return [np.sort(scores_pos), np.sort(scores_neg)]
    chunks = []
    for part in (scores_pos, scores_neg):
        half = len(part) // 2
        if len(part) > n // 4:
            chunks += [part[:half], part[half:]]
        else:
            chunks.append(part)
    return list(_executor().map(np.sort, chunks))


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
        keep = weights > 0
        if not keep.all():
            is_pos, scores, weights = is_pos[keep], scores[keep], weights[keep]
        n_pos = float(weights[is_pos].sum())
        n_neg = float(weights[~is_pos].sum())
        if n_pos == 0 or n_neg == 0:
            missing = "positive" if n_pos == 0 else "negative"
            raise ValueError(f"sample_weight gives the {missing} class a total weight of 0.")
        order = np.argsort(scores, kind="stable")[::-1]
        sorted_scores = scores[order]
        tp_cum = np.cumsum(np.where(is_pos[order], weights[order], 0.0))
        fp_cum = np.cumsum(np.where(is_pos[order], 0.0, weights[order]))
        ends = _run_ends(sorted_scores)
        tp, fp = tp_cum[ends], fp_cum[ends]
    else:
        pos_scores = scores[is_pos]
        n_pos = len(pos_scores)
        runs = _sorted_runs(pos_scores, scores[~is_pos])
        n_neg = len(scores) - n_pos
        merged_from = np.concatenate(runs)
        # Timsort finds the sorted runs and merges them in linear time.
        perm = np.argsort(merged_from, kind="stable")
        sorted_scores = merged_from[perm][::-1]
        label_desc = (perm < n_pos)[::-1]
        ends = _run_ends(sorted_scores)
        tp = np.cumsum(label_desc, dtype=np.int64)[ends]
        fp = (ends + 1) - tp
    thresholds = np.concatenate(([np.inf], sorted_scores[ends]))
    zero = np.zeros(1, dtype=tp.dtype)
    return RocCounts(
        thresholds=thresholds,
        tp=np.concatenate((zero, tp)),
        fp=np.concatenate((zero, fp)),
        n_pos=n_pos,
        n_neg=n_neg,
    )


def _run_ends(sorted_desc: np.ndarray) -> np.ndarray:
    """Index of the last element of each run of equal values in a sorted array."""
    change = np.flatnonzero(sorted_desc[1:] != sorted_desc[:-1])
    return np.append(change, len(sorted_desc) - 1)
