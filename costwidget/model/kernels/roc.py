"""ROC points from scores: one point per distinct threshold, ties as scikit-learn makes them.

Predicted positive means ``score >= threshold``. Tied scores form a single ROC
point whatever their input order. The first point is (0, 0) at threshold
``+inf`` (nothing predicted positive), as in ``sklearn.metrics.roc_curve``.

Speed: the unweighted path never sorts indices of all scores. Each class's
scores are sorted on their own (a plain value sort, cheaper than ``argsort``)
and the two sorted classes are merged by a stable ``argsort`` of their
concatenation, which timsort does in linear time; with many ties only the
distinct values are merged. Scores are negated first so that all work runs in
ascending order. Large inputs are cut at a score near the median into two
ranges, one per thread (numpy releases the GIL in these loops); a tie never
straddles the cut, so the low range's points are exact once the high range's
totals are added. Each range also finds its own hull vertices, which together
hold every vertex of the whole hull. Work happens in the output buffers,
because on first touch fresh pages cost about as much as the merge. Counts
stay integers so that the convex hull can be exact.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .hull import upper_hull

__all__ = [
    "RocCounts",
    "PARALLEL_MIN",
    "corner_counts",
    "descending_order",
    "roc_counts",
    "sort_pool",
    "sorted_roc_counts",
]

#: Below this many cases threads cost more than they save.
PARALLEL_MIN = 1 << 16
_pool: ThreadPoolExecutor | None = None


def sort_pool() -> ThreadPoolExecutor:
    """The two threads that sort and count score ranges side by side (this module and the
    cost-weighted counts of `costwidget.model.base.case_weighted_roc`)."""
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
    ``hull_candidates``, when known, are increasing indices of points that
    include every vertex of the ROC convex hull (the first and last points too).
    ``exponent``: the counts in the data's own units are
    ``np.ldexp(tp, exponent)`` and so on. Weighted counts are summed from
    weights scaled by ``2**-exponent`` so that the largest is in [0.5, 1),
    which is exact and keeps the sums far from overflow and underflow whatever
    the scale of the weights.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: float
    n_neg: float
    hull_candidates: np.ndarray | None = None
    exponent: int = 0


def _count_range(
    is_pos: np.ndarray,
    is_neg: np.ndarray,
    scores: np.ndarray,
    out: RocCounts,
    high_cut: float | None = None,
    low_cut: float | None = None,
):
    """Write the ROC points of the scores in [high_cut, inf) or (-inf, low_cut) into ``out``.

    With neither cut, all scores. The high range (or all scores) goes from
    index 1. The low range goes after room for every case above it, with the
    totals above it added, so that its points are exact ROC points. Returns the
    first index, the number of points and the range's own hull vertices
    (relative to the first index).

    Work is done in the output buffers, because fresh pages are a large part of
    the cost: the scores are gathered, sorted and merged in the ``fp`` slots,
    which are free until the last step.
    """
    in_range = (
        None
        if high_cut is None and low_cut is None
        else (scores >= high_cut if low_cut is None else scores < low_cut)
    )
    pos_mask, neg_mask = (
        (is_pos, is_neg) if in_range is None else (is_pos & in_range, is_neg & in_range)
    )
    n_p, n_n = int(np.count_nonzero(pos_mask)), int(np.count_nonzero(neg_mask))
    m = n_p + n_n
    start, pos_above, neg_above = 1, 0, 0
    if low_cut is not None:
        pos_above, neg_above = out.n_pos - n_p, out.n_neg - n_n
        start += pos_above + neg_above
    thresholds, tp, fp = (a[start : start + m] for a in (out.thresholds, out.tp, out.fp))
    negated = fp.view(np.float64)
    # Each class sorted on its own is a plain value sort, cheaper than argsort;
    # scores are negated so that all work runs in ascending order.
    for mask, part in ((pos_mask, negated[:n_p]), (neg_mask, negated[n_p:])):
        np.compress(mask, scores, out=part)
        np.negative(part, out=part)
        part.sort()
    if _heavily_tied(negated[:n_p], negated[n_p:]):
        k = _merge_distinct(negated[:n_p], negated[n_p:], thresholds, tp, fp)
    else:
        k = _merge_cases(negated, n_p, thresholds, tp, fp)
    np.negative(thresholds[:k], out=thresholds[:k])
    if pos_above + neg_above:
        tp[:k] += pos_above
        fp[:k] += neg_above
    # A vertex of the hull of all points is a vertex of the hull of any subset
    # that holds it, so the ranges' own hulls hold every vertex.
    return start, k, upper_hull(fp[:k], tp[:k])


def _heavily_tied(*sorted_parts: np.ndarray) -> bool:
    """True if the sorted parts have fewer than a quarter as many distinct values as cases."""
    cases = sum(len(p) for p in sorted_parts)
    distinct = sum(int(np.count_nonzero(p[1:] != p[:-1])) + 1 for p in sorted_parts if len(p))
    return distinct < cases // 4


def _merge_distinct(pos: np.ndarray, neg: np.ndarray, thresholds, tp, fp) -> int:
    """Points of the sorted classes from their distinct values only (cheaper with many ties).

    ``pos``/``neg`` may share memory with ``fp``: everything is read before ``fp`` is written.
    """
    counted = []
    for part in (pos, neg):
        ends = _run_ends(part)
        counted.append((part[ends], np.concatenate(([0], ends + 1))))  # value, cases up to it
    (pos_values, pos_upto), (neg_values, neg_upto) = counted
    values = np.union1d(pos_values, neg_values)
    k = len(values)
    thresholds[:k] = values
    tp[:k] = pos_upto[np.searchsorted(pos_values, values, side="right")]
    fp[:k] = neg_upto[np.searchsorted(neg_values, values, side="right")]
    return k


def _merge_cases(negated: np.ndarray, n_p: int, thresholds, tp, fp) -> int:
    """Points of the two sorted runs ``negated[:n_p]`` (positives) and ``negated[n_p:]``.

    ``negated`` may be ``fp``'s memory: it is read before ``fp`` is written.
    """
    m = len(negated)
    # A stable argsort of two sorted runs is a linear timsort merge. Positives come
    # first, so a source index < n_p marks a positive.
    order = np.argsort(negated, kind="stable")
    np.take(negated, order, out=thresholds)
    is_pos_sorted = order < n_p
    del order, negated
    np.cumsum(is_pos_sorted, out=tp)
    is_end = _run_end_mask(thresholds)
    if is_end.all():  # no ties: every case is a point
        np.logical_not(is_pos_sorted, out=is_pos_sorted)
        np.cumsum(is_pos_sorted, out=fp)
        return m
    # Ties: a run of equal scores is one point, at its last case.
    ends = np.flatnonzero(is_end)
    k = len(ends)
    thresholds[:k], tp[:k] = thresholds[ends], tp[ends]
    np.subtract(ends, tp[:k], out=fp[:k])
    fp[:k] += 1
    return k


def roc_counts(
    is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray | None = None
) -> RocCounts:
    """Cumulative TP/FP counts at every distinct threshold, from highest to lowest.

    Parameters
    ----------
    is_pos : bool ndarray
        True for positive samples.
    scores : float64 ndarray
        Finite scores; higher means more positive.
    weights : float64 ndarray or None
        Non-negative sample weights; samples of weight 0 are dropped first (as
        scikit-learn does), so they create no threshold. Only their ratios
        matter: the counts are summed from the weights scaled exactly by a
        power of two (see :class:`RocCounts` ``exponent``).

    Returns
    -------
    RocCounts
        One point per distinct score (plus (0, 0) at threshold +inf), sorted
        by descending threshold.

    Examples
    --------
    >>> import numpy as np
    >>> from costwidget.model.kernels.roc import roc_counts
    >>> c = roc_counts(np.array([True, False, True]), np.array([0.9, 0.5, 0.5]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
    ([inf, 0.9, 0.5], [0, 1, 2], [0, 0, 1])
    >>> w = roc_counts(np.array([True, False, True]), np.array([0.9, 0.5, 0.5]),
    ...                np.array([3e307, 1e308, 1e308]))
    >>> np.ldexp(w.tp, w.exponent).tolist(), float(w.tp[-1] / w.n_pos)   # in the weights' units; a rate
    ([0.0, 3e+307, 1.3e+308], 1.0)
    """
    if weights is not None:
        return _weighted_counts(is_pos, scores, weights)
    n = len(scores)
    n_pos = int(np.count_nonzero(is_pos))
    # Room for every case plus (0, 0); pages never written cost no memory.
    out = RocCounts(
        thresholds=np.empty(n + 1),
        tp=np.empty(n + 1, np.int64),
        fp=np.empty(n + 1, np.int64),
        n_pos=n_pos,
        n_neg=n - n_pos,
    )
    out.thresholds[0], out.tp[0], out.fp[0] = np.inf, 0, 0
    is_neg = ~is_pos
    if n < PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        ranges = [_count_range(is_pos, is_neg, scores, out)]
    else:
        # Two score ranges, one per thread, cut near the median of an evenly spaced
        # sample; every tie falls in one range.
        cut = float(np.median(scores[:: max(1, n // 4096)]))
        ranges = list(
            sort_pool().map(
                lambda cuts: _count_range(is_pos, is_neg, scores, out, *cuts),
                ((cut, None), (None, cut)),
            )
        )
    size, candidates = 1, [np.zeros(1, np.intp)]
    for start, k, hull in ranges:
        if k and start != size:  # the ranges above had ties: close the gap
            for a in (out.thresholds, out.tp, out.fp):
                a[size : size + k] = a[start : start + k]
        candidates.append(hull + size)
        size += k
    arrays = [a[:size] for a in (out.thresholds, out.tp, out.fp)]
    if size < n // 2:  # heavy ties: give back the unused room
        arrays = [a.copy() for a in arrays]
    thresholds, tp, fp = arrays
    return RocCounts(
        thresholds=thresholds,
        tp=tp,
        fp=fp,
        n_pos=n_pos,
        n_neg=n - n_pos,
        hull_candidates=np.concatenate(candidates),
    )


#: Keeps the magnitude bits of a double's pattern: flipping them for negative doubles makes the
#: patterns, read as int64, sort as the doubles do.
_MAGNITUDE = np.int64(0x7FFF_FFFF_FFFF_FFFF)


def descending_order(scores: np.ndarray, key: np.ndarray | None = None, out=None):
    """``(order, scores[order])`` with ``order = np.argsort(-scores, kind="stable")`` (ties by
    index), found by a value sort of int64 keys.

    Each key is the negated score's bit pattern made sortable as an int64, its last
    ``b = bit_length(n - 1)`` bits replaced by the case's index; a value sort of the keys (as
    fast as ``np.sort`` of the scores, where ``argsort`` moves indices too and costs about
    1.5x) leaves the indices in descending score order. Scores that differ only in their last
    ``b`` bits are then in index order: a stable sort of the gathered scores, nearly sorted
    already, puts them right, so the order is always exact (and slower only for scores
    packed that close). Zeros of either sign are one key, as they are one value.

    ``key`` and ``out``, if given, are buffers of ``len(scores)`` (int64 and float64) that the
    order and the ordered scores are written into.

    Examples
    --------
    >>> import numpy as np
    >>> order, ordered = descending_order(np.array([0.5, 0.9, 0.5, -0.0, 0.0, -2.0]))
    >>> order.tolist(), ordered.tolist()
    ([1, 0, 2, 3, 4, 5], [0.9, 0.5, 0.5, -0.0, 0.0, -2.0])
    """
    n = len(scores)
    key = np.empty(n, np.int64) if key is None else key
    if n == 0:
        return key, (np.empty(0) if out is None else out)
    np.subtract(0.0, scores, out=key.view(np.float64))  # negated; -0.0 becomes +0.0
    # All ones for a negative double, else 0 (in ``out``'s memory, free until the end).
    flip = np.right_shift(key, 63, out=None if out is None else out.view(np.int64))
    flip &= _MAGNITUDE
    key ^= flip
    del flip
    low = (1 << max(1, (n - 1).bit_length())) - 1
    key &= ~low
    key |= np.arange(n)
    key.sort()
    key &= low
    seen = np.take(scores, key, out=out)
    if np.any(seen[1:] > seen[:-1]):  # scores equal in all but their last bits
        fix = np.argsort(np.subtract(0.0, seen), kind="stable")
        key[:], seen[:] = key[fix], seen[fix]
    return key, seen


def _weighted_counts(is_pos, scores, weights) -> RocCounts:
    # Descending order, ties by index: weights add in the order of a stable sort.
    order, ordered = descending_order(scores)
    return _weighted_sorted(is_pos[order], ordered, weights[order])


def _weighted_sorted(is_pos, sorted_scores, weights) -> RocCounts:
    """Weighted counts of cases in descending score order (stable within ties)."""
    keep = weights > 0
    if not keep.all():
        is_pos, sorted_scores, weights = is_pos[keep], sorted_scores[keep], weights[keep]
    if is_pos.all() or not is_pos.any():
        missing = "positive" if not is_pos.any() else "negative"
        raise ValueError(f"sample_weight gives the {missing} class a total weight of 0.")
    # Only ratios of weights matter. Scaling by a power of two is exact, so summing
    # weights whose largest is in [0.5, 1) gives the same counts (times 2**exponent) as
    # the raw weights would, without overflow at 1e306 or subnormal sums at 1e-310.
    _, exponent = np.frexp(weights.max())
    weights = np.ldexp(weights, -exponent)
    ends = _run_ends(sorted_scores)
    tp = np.cumsum(np.where(is_pos, weights, 0.0))[ends]
    fp = np.cumsum(np.where(is_pos, 0.0, weights))[ends]
    # Totals from the same cumulative sums (not np.sum, which rounds differently), as
    # scikit-learn does, so that the last point is exactly (1, 1).
    n_pos, n_neg = float(tp[-1]), float(fp[-1])
    return RocCounts(
        thresholds=np.concatenate(([np.inf], sorted_scores[ends])),
        tp=np.concatenate(([0.0], tp)),
        fp=np.concatenate(([0.0], fp)),
        n_pos=n_pos,
        n_neg=n_neg,
        exponent=int(exponent),
    )


def sorted_roc_counts(
    is_pos: np.ndarray, sorted_scores: np.ndarray, weights: np.ndarray | None = None
) -> RocCounts:
    """:func:`roc_counts` of cases already in descending score order, without sorting again.

    With weights the order within ties must be the cases' own (a stable sort of ``-scores``,
    which a subset of a stably sorted array keeps): the sums then add in the order
    :func:`roc_counts` adds them, so the counts are the same to the last bit. Whole counts do
    not depend on the order within ties.

    Examples
    --------
    >>> import numpy as np
    >>> from costwidget.model.kernels.roc import sorted_roc_counts
    >>> c = sorted_roc_counts(np.array([True, True, False]), np.array([0.9, 0.5, 0.5]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
    ([inf, 0.9, 0.5], [0, 1, 2], [0, 0, 1])
    """
    if weights is not None:
        return _weighted_sorted(is_pos, sorted_scores, weights)
    n = len(sorted_scores)
    is_end = _run_end_mask(sorted_scores)
    distinct = n if is_end.all() else None  # no ties: every case is a point, nothing to gather
    ends = None if distinct else np.flatnonzero(is_end)
    k = distinct or len(ends)
    thresholds, tp, fp = np.empty(k + 1), np.empty(k + 1, np.int64), np.empty(k + 1, np.int64)
    thresholds[0], tp[0], fp[0] = np.inf, 0, 0
    candidates = None
    if distinct:
        thresholds[1:] = sorted_scores
        np.cumsum(is_pos, out=tp[1:])
        np.subtract(np.arange(1, n + 1), tp[1:], out=fp[1:])
        # A hull vertex between the ends is a positive case followed by a negative one (a
        # step up, then a step right): found on the one-byte labels, not the counts.
        corner = np.empty(n + 1, dtype=bool)
        corner[0] = corner[n] = True
        np.greater(is_pos[:-1], is_pos[1:], out=corner[1:n])
        candidates = np.flatnonzero(corner)
    else:
        np.take(np.cumsum(is_pos, dtype=np.int64), ends, out=tp[1:])
        np.subtract(ends + 1, tp[1:], out=fp[1:])
        np.take(sorted_scores, ends, out=thresholds[1:])
    n_pos = int(tp[-1])
    return RocCounts(
        thresholds=thresholds,
        tp=tp,
        fp=fp,
        n_pos=n_pos,
        n_neg=n - n_pos,
        hull_candidates=candidates,
    )


def corner_counts(is_pos: np.ndarray, sorted_scores: np.ndarray) -> RocCounts:
    """The ROC points that may be hull vertices, of distinct scores in descending order.

    Without ties every case is a point, and a hull vertex between the ends is a positive case
    followed by a negative one (a step up, then a step right). Those points with the first and
    the last have the hull, the envelope and the thresholds at its vertices of all the points,
    for a fraction of the work: what a refit that only chooses thresholds needs (the honest
    cost's splits). The scores must be distinct; this is not the whole ROC curve.

    Examples
    --------
    >>> import numpy as np
    >>> from costwidget.model.kernels.roc import corner_counts
    >>> c = corner_counts(np.array([True, False, True, False]), np.array([0.9, 0.7, 0.5, 0.2]))
    >>> c.thresholds.tolist(), c.tp.tolist(), c.fp.tolist()
    ([inf, 0.9, 0.5, 0.2], [0, 1, 2, 2], [0, 0, 1, 2])
    """
    n = len(is_pos)
    corner = np.empty(n + 1, dtype=bool)
    corner[0] = corner[n] = True
    np.greater(is_pos[:-1], is_pos[1:], out=corner[1:n])
    at = np.flatnonzero(corner)  # a point's index: the number of cases above its threshold
    upto = np.cumsum(is_pos, dtype=np.int64)
    tp = np.empty(len(at), np.int64)
    tp[0] = 0
    np.take(upto, at[1:] - 1, out=tp[1:])
    thresholds = np.empty(len(at))
    thresholds[0] = np.inf
    np.take(sorted_scores, at[1:] - 1, out=thresholds[1:])
    n_pos = int(upto[-1]) if n else 0
    return RocCounts(thresholds=thresholds, tp=tp, fp=at - tp, n_pos=n_pos, n_neg=n - n_pos)


def _run_end_mask(sorted_values: np.ndarray) -> np.ndarray:
    """True at the last element of each run of equal values in a sorted array."""
    is_end = np.empty(len(sorted_values), dtype=bool)
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=is_end[:-1])
    is_end[-1:] = True
    return is_end


def _run_ends(sorted_values: np.ndarray) -> np.ndarray:
    """Index of the last element of each run of equal values in a sorted array."""
    return np.flatnonzero(_run_end_mask(sorted_values))


def in_units(counts, exponent: int):
    """Counts scaled by ``2**exponent`` (exact; inf if the true value overflows a float)."""
    if exponent == 0:
        return counts
    with np.errstate(over="ignore"):
        out = np.ldexp(counts, exponent)
    return float(out) if np.ndim(out) == 0 else out
