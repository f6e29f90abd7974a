"""The cost-weighted ROC counts of cases with per-case costs, in two threads.

Every case carries a weight (what deciding it wrongly costs), so the counts need the weights in
score order, where per-class counts need only value sorts (:mod:`costwidget.model.kernels.roc`).
The order comes from :func:`~costwidget.model.kernels.roc.descending_order` (a value sort of
keys that carry each case's index, cheaper than ``argsort``), ties by index as a stable sort
leaves them. To keep per-case costs near the per-class speed, the scores are cut at their
median into a high and a low range, each sorted in its own thread (numpy releases the GIL while
sorting); a tie never straddles the cut (``>=`` and ``<`` of the same value). The low range's
sums start from the high range's totals, so every sum adds the same weights in the same order
as ``roc_counts(positive, scores, weights)``: the counts are that function's, to the last bit.

Each range works in its part of the output arrays (room for every case, as the per-class kernel
does): the order is sorted in the ``tp`` slots and the weights gathered into the ``fp`` slots,
because fresh pages cost about as much as a pass over them.
"""

from __future__ import annotations

from concurrent.futures import Future

import numpy as np

from ..kernels.hull import upper_hull
from ..kernels.roc import PARALLEL_MIN, RocCounts, descending_order, sort_pool

__all__ = ["cost_weighted_counts"]


def _sort_range(scores, signed, thresholds, tp, fp) -> None:
    """Leave the range's scores in descending order (ties by index) in ``thresholds``, and in
    that order the positives' weights (0 for a negative) in ``tp``, the negatives' in ``fp``."""
    order, _ = descending_order(scores, key=tp.view(np.int64), out=thresholds)
    np.take(signed, order, out=fp)
    del order
    np.maximum(fp, 0.0, out=tp)
    np.negative(fp, out=fp)
    np.maximum(fp, 0.0, out=fp)


def _accumulate(thresholds, tp, fp, tp0=0.0, fp0=0.0) -> int:
    """Cumulative sums in place (from ``tp0``, ``fp0``: the totals above the range), then one
    point per run of equal scores, at its last case, moved to the front; returns how many.

    Adding the total above to the first weight and summing on is what one running sum over
    both ranges does, operation for operation.
    """
    if not len(tp):  # every score at or above the cut
        return 0
    tp[0] += tp0
    fp[0] += fp0
    np.cumsum(tp, out=tp)
    np.cumsum(fp, out=fp)
    m = len(thresholds)
    is_end = np.empty(m, dtype=bool)
    np.not_equal(thresholds[1:], thresholds[:-1], out=is_end[:-1])
    is_end[-1:] = True
    if is_end.all():
        return m
    ends = np.flatnonzero(is_end)
    k = len(ends)
    for a in (thresholds, tp, fp):
        a[:k] = a[ends]
    return k


def _low_range(low, scores, signed, seed: Future, thresholds, tp, fp):
    _sort_range(np.compress(low, scores), np.compress(low, signed), thresholds, tp, fp)
    k = _accumulate(thresholds, tp, fp, *seed.result())
    return k, upper_hull(fp[:k], tp[:k])


def _scaled(weights, power: int):
    """``np.ldexp(weights, power)``, as a product when ``2**power`` is a normal double: both
    round the exact product once (only a result below the normal range rounds at all), and the
    product takes a fifth of the time."""
    if -1022 <= power <= 1023:
        return weights * float(2.0**power)
    return np.ldexp(weights, power)


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
    # Scaled first, then the negatives' signs flipped in place: one new array, not three.
    _, exponent = np.frexp(weights.max())
    signed = _scaled(weights, -int(exponent))
    np.negative(signed, out=signed, where=~positive)
    n = len(scores)
    # Room for every case plus (0, 0); pages never written cost no memory.
    thresholds, tp, fp = np.empty(n + 1), np.empty(n + 1), np.empty(n + 1)
    thresholds[0], tp[0], fp[0] = np.inf, 0.0, 0.0
    candidates = None
    if n < PARALLEL_MIN:
        rest = (thresholds[1:], tp[1:], fp[1:])
        _sort_range(scores, signed, *rest)
        size = 1 + _accumulate(*rest)
    else:
        size, candidates = _two_ranges(scores, signed, thresholds, tp, fp)
    arrays = [a[:size] for a in (thresholds, tp, fp)]
    if size < n // 2:  # heavy ties: give back the unused room
        arrays = [a.copy() for a in arrays]
    thresholds, tp, fp = arrays
    return RocCounts(
        thresholds=thresholds,
        tp=tp,
        fp=fp,
        n_pos=float(tp[-1]),
        n_neg=float(fp[-1]),
        hull_candidates=candidates,
        exponent=int(exponent),
    )


def _two_ranges(scores, signed, thresholds, tp, fp):
    """The points of both ranges written from index 1 (the low range after the high one's);
    the low range's thread sorts while the high range is done, then sums from its totals.

    Returns the number of points (with (0, 0)) and the hull candidates: each range's own hull
    vertices, found in its thread on its final sums. A vertex of the hull of all points is a
    vertex of the hull of any subset that holds it, so together they hold every vertex, and
    the hull of all points runs on a few dozen (as in the per-class kernel)."""
    # The median of every 64th score: a cut near the middle is enough (any cut is exact).
    every = scores[::64]
    cut = np.partition(every, len(every) // 2)[len(every) // 2]
    high = scores >= cut
    n_high = int(np.count_nonzero(high))
    part, rest = slice(1, 1 + n_high), slice(1 + n_high, None)
    seed = Future()
    low_job = sort_pool().submit(
        _low_range, ~high, scores, signed, seed, thresholds[rest], tp[rest], fp[rest]
    )
    try:
        mine = (np.compress(high, scores), np.compress(high, signed))  # not a[mask]: 10x faster
        _sort_range(*mine, thresholds[part], tp[part], fp[part])
        k_high = _accumulate(thresholds[part], tp[part], fp[part])
    except BaseException as exc:
        seed.set_exception(exc)
        raise
    seed.set_result((tp[k_high], fp[k_high]))
    hull_high = upper_hull(fp[part][:k_high], tp[part][:k_high])
    k_low, hull_low = low_job.result()
    if k_low and k_high != n_high:  # the high range had ties: close the gap
        for a in (thresholds, tp, fp):
            a[1 + k_high : 1 + k_high + k_low] = a[1 + n_high : 1 + n_high + k_low]
    candidates = np.concatenate(([0], hull_high + 1, hull_low + 1 + k_high))
    return 1 + k_high + k_low, candidates
