"""Score bins and lower envelopes of bootstrap replicates, vectorized over replicates.

Resampling the instances of one stratum (a class, or a class within a fold)
with replacement is the same as drawing a multinomial count for every distinct
score of that stratum, with probabilities proportional to how many instances
hold it. So a replicate is a vector of counts per score *bin* (drawn by
:mod:`costwidget.model.resampling.bootstrap_counts`); its ROC points are cumulative sums
of those counts, and the scores are sorted once for all replicates.

Bins (:func:`bins_from_counts`). A run of consecutive scores holding one
class only is one bin at no cost: a threshold inside it is beaten by one of
its ends. With more than ``max_exact`` distinct scores the bins are
coarsened: quantile bins of each class, then merged greedily. A bin then
holds several distinct scores and the thresholds inside it are not
evaluated. A threshold inside a bin is never better than both of the bin's
edges by more than ``min(x·u, (1-x)·v)``, where ``u`` and ``v`` are the
bin's share of the positives and of the negatives (moving the threshold to
the upper edge loses at most the bin's positives, to the lower edge adds at
most its negatives); the worst case over pcf is ``h(u, v) = u·v/(u+v)``.
:func:`coarsening_bound` computes ``max h`` over the coarse bins of every
replicate, and the band is off by at most that (order statistics move by at
most the largest shift of the values). The greedy merge keeps ``h`` of each
bin below a target with the bin's counts raised by 5 Poisson SDs, so that the
bound measured on the replicates stays below the target.

The lower envelope of each replicate is found by pruning all replicates'
ROC points to their convex hulls at once (one flat array, replicates kept
apart because their end points are never pruned) and reading the optimal
vertex at each pcf with one ``searchsorted`` over per-replicate crossings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .bootstrap_counts import stratified_counts

__all__ = [
    "ScoreBins",
    "score_bins",
    "bins_from_counts",
    "stratified_counts",
    "envelope_values",
    "line_values",
    "coarsening_bound",
    "sorted_columns",
]

#: Up to this many distinct scores every score is its own bin (no coarsening).
MAX_EXACT_BINS = 4096
#: Quantile bins per class when coarsening: each bin holds <= 1/this of a class.
BINS_PER_CLASS = 1024


@dataclass(frozen=True)
class ScoreBins:
    """Instances grouped into bins of consecutive scores, bin 0 holding the highest.

    ``bin_of[i]`` is instance i's bin. ROC point ``k`` (k = 0 .. n_bins) is
    "predict positive when the score is in bins < k". ``thresholds[k - 1]`` is
    the lowest score of bin k - 1, so point k is ``score >= thresholds[k-1]``.
    ``multi[b]`` is True when bin b holds more than one distinct score with instances.
    """

    bin_of: np.ndarray
    n_bins: int
    thresholds: np.ndarray
    multi: np.ndarray


def _merge_ends(ends, forced, pos_per, neg_per, n_pos, n_neg, max_loss, z):
    """Greedy merge of consecutive pre-bins while a bin's worst replicate loss stays <= max_loss.

    ``ends`` are the last distinct-score indices of the pre-bins, ``forced``
    those that must stay ends. A bin with a positives and b negatives can
    lose ``h(u, v) = u·v/(u+v)`` (u = a/P, v = b/N) of NEC in a replicate
    where it drew u, v; the merge is judged on counts raised by ``z`` Poisson
    standard deviations, ``a + z·sqrt(a) + z²/2``, so that the bound measured on
    the replicates (:func:`coarsening_bound`) stays below ``max_loss``.

    Greedy from the top: a bin grows pre-bin by pre-bin while that holds. As
    ``h`` only grows with the bin, the end of the bin starting at each pre-bin
    is found for all starts at once by bisection; the bins are then the chain
    of those ends from the first pre-bin.
    """
    k = len(ends)
    cum_p = np.concatenate(([0], np.cumsum(pos_per)[ends])).astype(np.float64)
    cum_n = np.concatenate(([0], np.cumsum(neg_per)[ends])).astype(np.float64)
    # The last pre-bin a bin starting at s may reach: the next forced end at or after s.
    is_forced = np.zeros(k, dtype=bool)
    is_forced[np.searchsorted(ends, forced)] = np.isin(forced, ends)
    is_forced[-1] = True
    forced_pos = np.flatnonzero(is_forced)
    start = np.arange(k)
    lo, hi = start.copy(), forced_pos[np.searchsorted(forced_pos, start)]

    def fits(s, e):
        a, b = cum_p[e + 1] - cum_p[s], cum_n[e + 1] - cum_n[s]
        u = np.where(a > 0, (a + z * np.sqrt(a) + 0.5 * z * z) / n_pos, 0.0)
        v = np.where(b > 0, (b + z * np.sqrt(b) + 0.5 * z * z) / n_neg, 0.0)
        # A bin that is still empty takes the next pre-bin whatever it holds.
        empty = (cum_p[e] == cum_p[s]) & (cum_n[e] == cum_n[s])
        return (u * v <= max_loss * (u + v)) | empty

    while True:  # bisection: lo always fits (a bin holds at least its first pre-bin)
        open_ = np.flatnonzero(lo < hi)
        if not open_.size:
            break
        mid = (lo[open_] + hi[open_] + 1) // 2
        ok = fits(open_, mid)
        lo[open_[ok]] = mid[ok]
        hi[open_[~ok]] = mid[~ok] - 1
    last, out, s_ = lo.tolist(), [], 0
    while s_ < k:
        out.append(last[s_])
        s_ = last[s_] + 1
    return ends[np.asarray(out, dtype=np.int64)]


def bins_from_counts(
    desc_scores: np.ndarray,
    pos_per: np.ndarray,
    neg_per: np.ndarray,
    *,
    keep_thresholds=(),
    max_exact: int = MAX_EXACT_BINS,
    per_class: int = BINS_PER_CLASS,
    max_loss: float | None = None,
) -> ScoreBins:
    """Bins of distinct scores given as counts per distinct score, highest score first.

    Parameters
    ----------
    desc_scores : ndarray
        The distinct scores, highest first.
    pos_per, neg_per : ndarray of int
        Positives and negatives holding each distinct score.
    keep_thresholds : array-like
        Scores that must stay bin edges (e.g. the original optimal thresholds,
        so that they can be held fixed).
    max_exact : int
        Up to this many distinct scores every score is its own bin, except that
        runs of scores holding one class only are merged (that loses nothing:
        a threshold inside such a run is beaten by one of its ends).
    per_class : int
        With more distinct scores: quantile bins, each holding at most
        ``1/per_class`` of each class ...
    max_loss : float, optional
        ... then merged greedily while a bin's coarsening loss, with its
        counts raised by 5 Poisson SDs for the replicates' spread, stays below
        ``max_loss`` (see :func:`coarsening_bound`).

    Returns
    -------
    ScoreBins
        ``bin_of`` maps each distinct score (in ``desc_scores`` order) to its bin.

    Examples
    --------
    >>> import numpy as np
    >>> b = bins_from_counts(np.array([.9, .8, .7, .6, .5]), np.array([2, 1, 0, 0, 1]),
    ...                      np.array([0, 0, 1, 3, 0]))
    >>> b.n_bins, b.bin_of.tolist(), b.thresholds.tolist(), b.multi.tolist()
    (3, [0, 0, 1, 1, 2], [0.8, 0.6, 0.5], [True, True, False])
    """
    k_total = len(desc_scores)
    keep = np.asarray(keep_thresholds, dtype=np.float64)
    keep = keep[np.isfinite(keep)]
    forced = np.zeros(0, dtype=np.int64)
    if keep.size:
        # The point "score >= t" ends after the distinct score t itself.
        asc = desc_scores[::-1]
        d = (k_total - 1) - np.searchsorted(asc, keep)
        forced = np.unique(d[(d >= 0) & (d < k_total)])
    n_pos, n_neg = int(pos_per.sum()), int(neg_per.sum())
    if k_total <= max_exact:
        ends, max_loss, z = np.arange(k_total), 0.0, 0.0
    else:
        # A bin ends after distinct score d when a class's cumulative count crosses a multiple
        # of (class size / per_class) there, so that no bin holds more than that share.
        is_end = np.zeros(k_total, dtype=bool)
        for per in (pos_per, neg_per):
            total = per.sum()
            if total == 0:
                continue
            step = np.floor(np.cumsum(per) * per_class / total)
            is_end[np.flatnonzero(np.diff(np.concatenate(([0.0], step))) > 0)] = True
            is_end[np.flatnonzero(np.diff(np.concatenate((step, [step[-1]]))) > 0)] = True
        is_end[forced] = True
        is_end[-1] = True
        ends, z = np.flatnonzero(is_end), 5.0
    if max_loss is not None and n_pos and n_neg and k_total:
        ends = _merge_ends(ends, forced, pos_per, neg_per, n_pos, n_neg, max_loss, z)
    bin_of = np.searchsorted(ends, np.arange(k_total))
    # A bin hides thresholds only if it holds more than one score that has instances.
    occupied = np.bincount(bin_of[(pos_per + neg_per) > 0], minlength=len(ends))
    return ScoreBins(
        bin_of=bin_of, n_bins=len(ends), thresholds=desc_scores[ends], multi=occupied > 1
    )


def score_bins(
    scores: np.ndarray,
    is_pos: np.ndarray,
    *,
    keep_thresholds=(),
    max_exact: int = MAX_EXACT_BINS,
    per_class: int = BINS_PER_CLASS,
    max_loss: float | None = None,
) -> ScoreBins:
    """Bin the instances' scores (see :func:`bins_from_counts`); ``bin_of`` is per instance.

    Parameters
    ----------
    scores : ndarray
        One score per instance.
    is_pos : ndarray of bool
        The class of each instance.
    keep_thresholds, max_exact, per_class, max_loss
        As in :func:`bins_from_counts`.

    Returns
    -------
    ScoreBins
        ``bin_of[i]`` is instance i's bin, bin 0 holding the highest scores.

    Examples
    --------
    >>> import numpy as np
    >>> b = score_bins(np.array([.5, .9, .7, .9]), np.array([False, True, False, True]))
    >>> b.bin_of.tolist(), b.thresholds.tolist()
    ([1, 0, 1, 0], [0.9, 0.5])
    """
    distinct, inverse = np.unique(scores, return_inverse=True)
    desc = (len(distinct) - 1) - inverse  # 0 = highest distinct score
    pos_per = np.bincount(desc[is_pos], minlength=len(distinct))
    neg_per = np.bincount(desc[~is_pos], minlength=len(distinct))
    bins = bins_from_counts(
        distinct[::-1],
        pos_per,
        neg_per,
        keep_thresholds=keep_thresholds,
        max_exact=max_exact,
        per_class=per_class,
        max_loss=max_loss,
    )
    return ScoreBins(
        bin_of=bins.bin_of[desc], n_bins=bins.n_bins, thresholds=bins.thresholds, multi=bins.multi
    )


def _cumulative(per_bin: np.ndarray) -> np.ndarray:
    """ROC counts at points 0..n_bins: a leading zero, then cumulative sums."""
    out = np.zeros((per_bin.shape[0], per_bin.shape[1] + 1), dtype=np.int64)
    np.cumsum(per_bin, axis=1, out=out[:, 1:])
    return out


def _prune_to_hulls(fp: np.ndarray, tp: np.ndarray) -> np.ndarray:
    """Flat indices of every replicate's upper-hull vertices, replicate by replicate.

    ``fp``/``tp`` are (n_boot, m) integer arrays, each row sorted by fp then
    tp. Rows' first and last points are never dropped, so an interior point's
    neighbours always belong to its own row. A point is dropped when it is
    not a strict right turn from its neighbours (it lies on or below the chord
    of two points of the set, so it is no vertex); this repeats until no point
    goes.
    """
    n_boot, m = fp.shape
    keep = np.ones((n_boot, m), dtype=bool)
    if m > 2:
        # First pass on the rows as they are (no gathers). Empty bins repeat a point: of a
        # run of equal points the first is kept (the turn test needs distinct points), and
        # none that equals the row's last point, which is always kept.
        x0, x1, x2 = fp[:, :-2], fp[:, 1:-1], fp[:, 2:]
        y0, y1, y2 = tp[:, :-2], tp[:, 1:-1], tp[:, 2:]
        turn = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0) < 0
        same_next = (x1 == x2) & (y1 == y2)
        same_prev = (x1 == x0) & (y1 == y0)
        same_last = (x1 == fp[:, -1:]) & (y1 == tp[:, -1:])
        keep[:, 1:-1] = turn | (same_next & ~same_prev & ~same_last)
    idx = np.flatnonzero(keep)
    x, y = fp.ravel(), tp.ravel()
    fixed = np.zeros(x.size, dtype=bool)
    fixed[::m] = True
    fixed[m - 1 :: m] = True
    while True:
        px, py = x[idx], y[idx]
        keep = fixed[idx].copy()
        keep[1:-1] |= (
            (px[1:-1] - px[:-2]) * (py[2:] - py[:-2]) - (py[1:-1] - py[:-2]) * (px[2:] - px[:-2])
        ) < 0
        if keep.all():
            return idx
        idx = idx[keep]


def envelope_values(
    tp_bins: np.ndarray, fp_bins: np.ndarray, n_pos, n_neg, pcf: np.ndarray
) -> np.ndarray:
    """Lower-envelope NEC of every replicate at every pcf: (n_boot, len(pcf)).

    Replicates are taken a block at a time, so that the work arrays stay small.

    Parameters
    ----------
    tp_bins, fp_bins : ndarray of int, (n_boot, n_bins)
        Positives and negatives per score bin, bin 0 holding the highest scores.
    n_pos, n_neg : int or ndarray, (n_boot,)
        The class totals.
    pcf : ndarray
        Where to evaluate.

    Returns
    -------
    ndarray, (n_boot, len(pcf))
        ``min_k x·(P − TP_k)/P + (1 − x)·FP_k/N`` over the replicate's ROC points.

    Examples
    --------
    >>> import numpy as np
    >>> tp, fp = np.array([[2, 1, 0]]), np.array([[0, 1, 2]])   # one replicate, 3 bins
    >>> envelope_values(tp, fp, 3, 3, np.array([0.0, 0.5, 1.0])).round(4).tolist()
    [[0.0, 0.1667, 0.0]]
    """
    n_boot = tp_bins.shape[0]
    if n_boot > _ENVELOPE_BLOCK:
        p_all = np.broadcast_to(np.asarray(n_pos, dtype=np.float64), (n_boot,))
        n_all = np.broadcast_to(np.asarray(n_neg, dtype=np.float64), (n_boot,))
        out = np.empty((n_boot, len(np.atleast_1d(pcf))))
        for lo in range(0, n_boot, _ENVELOPE_BLOCK):
            sl = slice(lo, lo + _ENVELOPE_BLOCK)
            out[sl] = _envelope_block(tp_bins[sl], fp_bins[sl], p_all[sl], n_all[sl], pcf)
        return out
    return _envelope_block(tp_bins, fp_bins, n_pos, n_neg, pcf)


#: Replicates per block of :func:`envelope_values`.
_ENVELOPE_BLOCK = 128


def _envelope_block(tp_bins, fp_bins, n_pos, n_neg, pcf):
    n_boot, m = tp_bins.shape
    tp, fp = _cumulative(tp_bins), _cumulative(fp_bins)
    width = m + 1
    hull = _prune_to_hulls(fp, tp)
    row = hull // width
    p = np.broadcast_to(np.asarray(n_pos, dtype=np.float64), (n_boot,))[row]
    n = np.broadcast_to(np.asarray(n_neg, dtype=np.float64), (n_boot,))[row]
    hx, hy = fp.ravel()[hull], tp.ravel()[hull]
    same_row = row[1:] == row[:-1]
    # Crossing of consecutive vertices' cost lines: Δf / (Δf + Δt) in rates.
    dfp = np.diff(hx) * p[1:]
    dtp = np.diff(hy) * n[1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        cross = dfp / (dfp + dtp)
    pair_rows = row[1:][same_row]
    keys = 2.0 * pair_rows + cross[same_row]  # rows apart by 2, crossings in [0, 1]
    vertex_start = np.flatnonzero(np.concatenate(([True], ~same_row)))
    pair_start = np.concatenate(([0], np.cumsum(np.bincount(pair_rows, minlength=n_boot))))
    x = np.asarray(pcf, dtype=np.float64)
    query = 2.0 * np.arange(n_boot)[:, None] + x[None, :]
    pos = np.searchsorted(keys, query.ravel(), side="right").reshape(n_boot, len(x))
    local = pos - pair_start[:-1, None]
    v = vertex_start[:, None] + local
    fn_rate = ((p - hy) / p)[v]
    fp_rate = (hx / n)[v]
    return x * fn_rate + (1.0 - x) * fp_rate


def line_values(tp: np.ndarray, fp: np.ndarray, n_pos, n_neg, pcf: np.ndarray) -> np.ndarray:
    """NEC of fixed confusion matrices: ``x·FN/P + (1-x)·FP/N``; tp, fp broadcast against pcf."""
    x = np.asarray(pcf, dtype=np.float64)
    return x * ((n_pos - tp) / n_pos) + (1.0 - x) * (fp / n_neg)


def coarsening_bound(
    tp_bins: np.ndarray, fp_bins: np.ndarray, multi: np.ndarray, n_pos, n_neg
) -> float:
    """Largest NEC a replicate's envelope can lose to binning: ``max u·v/(u+v)`` over coarse bins."""
    if not multi.any():
        return 0.0
    u = tp_bins[:, multi] / np.reshape(n_pos, (-1, 1))
    v = fp_bins[:, multi] / np.reshape(n_neg, (-1, 1))
    with np.errstate(invalid="ignore"):
        w = np.where(u + v > 0, u * v / (u + v), 0.0)
    return float(w.max())


def sorted_columns(values: np.ndarray) -> np.ndarray:
    """Each column sorted, so that any percentile band is two row look-ups."""
    return np.sort(values, axis=0)
