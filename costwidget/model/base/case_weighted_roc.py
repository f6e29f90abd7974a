"""The cost-weighted ROC counts of cases with per-case costs, in two threads.

Every case carries a weight (what deciding it wrongly costs), so the counts need the weights in
score order: an ``argsort`` and a gather, where per-class counts need only value sorts
(:mod:`costwidget.model.kernels.roc`). To keep per-case costs near the per-class speed, the
scores are cut at their median into a high and a low range, each sorted in its own thread
(numpy releases the GIL while sorting); a tie never straddles the cut (``>=`` and ``<`` of the
same value), so the low range's points are exact once the high range's totals are added. The
result is the :class:`~costwidget.model.kernels.roc.RocCounts` that
``roc_counts(positive, scores, weights)`` gives, up to the order in which tied weights are
added (the same sums, rounded in another order).
"""

from __future__ import annotations

import numpy as np

from ..kernels.roc import PARALLEL_MIN, RocCounts, sort_pool

__all__ = ["cost_weighted_counts"]


def _sorted_range(scores, signed):
    """Negated scores in ascending order (descending scores) and their signed weights."""
    order = np.argsort(-scores)  # ties in any order: a tie is one point
    return -scores[order], signed[order]


def _points(neg_sorted, signed_sorted, tp0=0.0, fp0=0.0):
    """Thresholds, cumulative TP and FP at the end of each run of equal scores."""
    is_end = np.empty(len(neg_sorted), dtype=bool)
    np.not_equal(neg_sorted[1:], neg_sorted[:-1], out=is_end[:-1])
    is_end[-1:] = True
    ends = np.flatnonzero(is_end)
    tp = np.cumsum(np.maximum(signed_sorted, 0.0))[ends] + tp0
    fp = np.cumsum(np.maximum(-signed_sorted, 0.0))[ends] + fp0
    return -neg_sorted[ends], tp, fp


def cost_weighted_counts(positive, scores, weights) -> RocCounts:
    """ROC counts of cases weighted by ``weights`` (>= 0), ``positive`` saying their side.

    Cases of weight 0 are dropped first (they make no threshold), as ``roc_counts`` does.

    Examples
    --------
    >>> import numpy as np
    >>> c = cost_weighted_counts(np.array([True, False, True]), np.array([0.9, 0.5, 0.5]),
    ...                          np.array([3.0, 1.0, 0.5]))
    >>> c.thresholds.tolist(), (c.tp * 2.0**c.exponent).tolist(), (c.fp * 2.0**c.exponent).tolist()
    ([inf, 0.9, 0.5], [0.0, 3.0, 3.5], [0.0, 0.0, 1.0])
    """
    keep = weights > 0
    if not keep.all():
        positive, scores, weights = positive[keep], scores[keep], weights[keep]
    if positive.all() or not positive.any():
        missing = "positive" if not positive.any() else "negative"
        raise ValueError(f"the costs give the {missing} side a total weight of 0.")
    # Only ratios matter; a power-of-two scale is exact and keeps sums from overflowing.
    _, exponent = np.frexp(weights.max())
    signed = np.ldexp(np.where(positive, weights, -weights), -exponent)
    if len(scores) < PARALLEL_MIN:
        th, tp, fp = _points(*_sorted_range(scores, signed))
    else:
        # The median of every 64th score: a cut near the middle is enough (any cut is exact).
        every = scores[::64]
        cut = np.partition(every, len(every) // 2)[len(every) // 2]
        high = scores >= cut
        low_job = sort_pool().submit(_sorted_range, scores[~high], signed[~high])
        th_h, tp_h, fp_h = _points(*_sorted_range(scores[high], signed[high]))
        low = low_job.result()
        if len(low[0]):
            th_l, tp_l, fp_l = _points(*low, tp_h[-1], fp_h[-1])
            th, tp, fp = (np.concatenate(p) for p in ((th_h, th_l), (tp_h, tp_l), (fp_h, fp_l)))
        else:
            th, tp, fp = th_h, tp_h, fp_h
    return RocCounts(
        thresholds=np.concatenate(([np.inf], th)),
        tp=np.concatenate(([0.0], tp)),
        fp=np.concatenate(([0.0], fp)),
        n_pos=float(tp[-1]),
        n_neg=float(fp[-1]),
        exponent=int(exponent),
    )
