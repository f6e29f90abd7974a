"""Stratified bootstrap engine: resampled ROC counts and lower envelopes, vectorized over replicates.

Resampling the instances of one stratum (a class, or a class within a fold)
with replacement is the same as drawing a multinomial count for every distinct
score of that stratum, with probabilities proportional to how many instances
hold it. So a replicate is a vector of counts per score *bin*; its ROC points
are cumulative sums of those counts, and the scores are sorted once for all
replicates.

With many distinct scores the bins are coarsened (:func:`score_bins`): a bin
then holds several distinct scores and the thresholds inside it are not
evaluated. A threshold inside a bin is never better than both of the bin's
edges by more than ``min(x·u, (1-x)·v)``, where ``u`` and ``v`` are the
bin's share of the positives and of the negatives (moving the threshold to
the upper edge loses at most the bin's positives, to the lower edge adds at
most its negatives). :func:`coarsening_bound` computes the worst case of that,
``max u·v/(u+v)``, for every replicate, and the band is off by at most that
(order statistics move by at most the largest shift of the values).

The lower envelope of each replicate is found by pruning all replicates'
ROC points to their convex hulls at once (one flat array, replicates kept
apart because their end points are never pruned) and reading the optimal
vertex at each pcf with one ``searchsorted`` over per-replicate crossings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ScoreBins", "score_bins", "stratified_counts", "aggregate_columns",
           "envelope_values", "line_values", "coarsening_bound", "sorted_columns"]

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
    ``multi[b]`` is True when bin b holds more than one distinct score.
    """

    bin_of: np.ndarray
    n_bins: int
    thresholds: np.ndarray
    multi: np.ndarray


def score_bins(scores: np.ndarray, is_pos: np.ndarray, *, keep_thresholds=(),
               max_exact: int = MAX_EXACT_BINS, per_class: int = BINS_PER_CLASS) -> ScoreBins:
    """Bin scores: every distinct score if few, else per-class quantile bins.

    ``keep_thresholds`` are scores that must stay bin edges (e.g. the
    thresholds of the original hull vertices, so that they can be held fixed).
    """
    distinct, inverse = np.unique(scores, return_inverse=True)
    k_total = len(distinct)
    desc = (k_total - 1) - inverse  # 0 = highest distinct score
    if k_total <= max_exact:
        return ScoreBins(bin_of=desc, n_bins=k_total, thresholds=distinct[::-1].copy(),
                         multi=np.zeros(k_total, dtype=bool))
    pos_per = np.bincount(desc[is_pos], minlength=k_total)
    neg_per = np.bincount(desc[~is_pos], minlength=k_total)
    # A bin ends after distinct score d when a class's cumulative count crosses a multiple
    # of (class size / per_class) there, so that no bin holds more than that share.
    ends = np.zeros(k_total, dtype=bool)
    for per in (pos_per, neg_per):
        total = per.sum()
        step = np.floor(np.cumsum(per) * per_class / total)
        ends[np.flatnonzero(np.diff(np.concatenate(([0.0], step))) > 0)] = True
        ends[np.flatnonzero(np.diff(np.concatenate((step, [step[-1]]))) > 0)] = True
    keep = np.asarray(keep_thresholds, dtype=np.float64)
    keep = keep[np.isfinite(keep)]
    if keep.size:
        # The point "score >= t" ends after the distinct score t itself.
        d = (k_total - 1) - np.searchsorted(distinct, keep)
        d = d[(d >= 0) & (d < k_total)]
        ends[d] = True
    ends[-1] = True
    end_idx = np.flatnonzero(ends)
    bin_of_distinct = np.searchsorted(end_idx, np.arange(k_total))
    starts = np.concatenate(([0], end_idx[:-1] + 1))
    return ScoreBins(bin_of=bin_of_distinct[desc], n_bins=len(end_idx),
                     thresholds=distinct[::-1][end_idx], multi=(end_idx - starts) > 0)


def stratified_counts(cell: np.ndarray, stratum: np.ndarray, n_cells: int, n_boot: int,
                      rng: np.random.Generator) -> np.ndarray:
    """Bootstrap counts per cell, (n_boot, n_cells): each stratum resampled to its own size.

    Strata are visited in sorted order and only occupied cells are drawn, so
    the same generator state always gives the same counts.
    """
    out = np.zeros((n_boot, n_cells), dtype=np.int64)
    order = np.lexsort((cell, stratum))
    s_sorted, c_sorted = stratum[order], cell[order]
    bounds = np.flatnonzero(np.diff(s_sorted)) + 1
    for chunk in np.split(c_sorted, bounds):
        cells, counts = np.unique(chunk, return_counts=True)
        size = int(counts.sum())
        draws = rng.multinomial(size, counts / size, size=n_boot)
        out[:, cells] += draws
    return out


def aggregate_columns(counts: np.ndarray, keys: np.ndarray, n_keys: int) -> np.ndarray:
    """Sum the columns of ``counts`` that share a key: (n_boot, n_keys)."""
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.concatenate(([0], np.flatnonzero(np.diff(sorted_keys)) + 1))
    out = np.zeros((counts.shape[0], n_keys), dtype=counts.dtype)
    out[:, sorted_keys[starts]] = np.add.reduceat(counts[:, order], starts, axis=1)
    return out


def _cumulative(per_bin: np.ndarray) -> np.ndarray:
    """ROC counts at points 0..n_bins: a leading zero, then cumulative sums."""
    out = np.zeros((per_bin.shape[0], per_bin.shape[1] + 1), dtype=np.int64)
    np.cumsum(per_bin, axis=1, out=out[:, 1:])
    return out


def _prune_to_hulls(fp: np.ndarray, tp: np.ndarray) -> np.ndarray:
    """Flat indices of every replicate's upper-hull vertices, replicate by replicate.

    ``fp``/``tp`` are (n_boot, m) integer arrays, each row sorted by fp then
    tp. Rows' first and last points are never dropped, so an interior point's
    neighbours always belong to its own row.
    """
    n_boot, m = fp.shape
    x, y = fp.ravel(), tp.ravel()
    fixed = np.zeros(x.size, dtype=bool)
    fixed[::m] = True
    fixed[m - 1::m] = True
    # Empty bins repeat the previous point; keep one copy (the turn test needs distinct points).
    repeat = np.zeros(x.size, dtype=bool)
    repeat[1:] = (x[1:] == x[:-1]) & (y[1:] == y[:-1])
    idx = np.flatnonzero(~repeat | fixed)
    # A row's last point may now repeat its predecessor: drop the predecessor instead.
    last_dup = fixed[idx][1:] & ~fixed[idx][:-1] & (x[idx][1:] == x[idx][:-1]) & (y[idx][1:] == y[idx][:-1])
    idx = idx[np.concatenate((~last_dup, [True]))]
    while True:
        px, py = x[idx], y[idx]
        keep = fixed[idx].copy()
        keep[1:-1] |= ((px[1:-1] - px[:-2]) * (py[2:] - py[:-2])
                       - (py[1:-1] - py[:-2]) * (px[2:] - px[:-2])) < 0
        if keep.all():
            return idx
        idx = idx[keep]


def envelope_values(tp_bins: np.ndarray, fp_bins: np.ndarray, n_pos, n_neg,
                    pcf: np.ndarray) -> np.ndarray:
    """Lower-envelope NEC of every replicate at every pcf: (n_boot, len(pcf)).

    ``tp_bins``/``fp_bins`` are per-bin counts (n_boot, n_bins); ``n_pos`` and
    ``n_neg`` are scalars or per-replicate arrays (the class totals).
    """
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


def coarsening_bound(tp_bins: np.ndarray, fp_bins: np.ndarray, multi: np.ndarray,
                     n_pos, n_neg) -> float:
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
