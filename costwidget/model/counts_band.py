"""Bands of a classifier built from counts: the stratified bootstrap resamples the counts.

Resampling the cases of one class (of one fold) with replacement is drawing a
multinomial count for each distinct score, with probabilities proportional to
the counts (Drummond & Holte (2004), sec. 8). A classifier from
:meth:`Classifier.from_counts` holds exactly those counts, so it needs no
per-case data. The draws are made in the order the per-case bootstrap of
:mod:`costwidget.model.bands` makes them (strata by fold, negatives first;
occupied bins from the highest score down), so that the same ``random_state``
gives the same band from the counts as from the cases they count.

A fixed threshold needs only the counts at or above it, read off the ROC points.
"""

from __future__ import annotations

import math

import numpy as np

from . import resample

__all__ = ["counts_confusion", "counts_envelope_replicates", "count_bins"]


def _in_units(counts, values):
    exponent = getattr(counts, "exponent", 0)
    return values if exponent == 0 else np.ldexp(values, exponent)


def counts_confusion(clf, threshold) -> tuple:
    """(tp, fp, n_pos, n_neg) of ``score >= threshold`` from the classifier's ROC points."""
    t = float(threshold)
    if math.isnan(t):
        raise ValueError("threshold must be a number, got NaN.")
    counts = clf._counts
    # Thresholds descend from +inf: the point of t is the last one with threshold >= t.
    k = int(np.searchsorted(-counts.thresholds, -t, side="right")) - 1
    high = clf._score_counts.group_high
    if high is not None and k + 1 < len(counts.thresholds) and t <= high[k]:
        raise ValueError(
            f"threshold={t!r} falls inside a group of rounded scores, from "
            f"{counts.thresholds[k + 1]!r} to {high[k]!r}: the counts cannot tell which of its "
            f"cases score >= {t!r}. Use one of the classifier's thresholds (clf.roc['threshold']) "
            f"or aggregate without decimals=.")
    tp, fp = _in_units(counts, counts.tp[k]), _in_units(counts, counts.fp[k])
    return tp, fp, _in_units(counts, counts.tp[-1]), _in_units(counts, counts.fp[-1])


def _per_score(counts, values, what: str) -> np.ndarray:
    per = np.diff(values)
    if per.dtype.kind != "i":
        raise ValueError(f"{what} needs whole-number counts: bootstrap resampling of weights is "
                         f"not supported. Build the classifier from counts of cases.")
    return per


def count_bins(desc_scores, pos_per, neg_per, *, keep_thresholds=(),
               max_exact: int = resample.MAX_EXACT_BINS, per_class: int = resample.BINS_PER_CLASS):
    """:func:`resample.score_bins` from the counts per distinct score (highest first).

    ``bin_of[d]`` is the bin of distinct score ``d``; the other fields are as in
    :class:`resample.ScoreBins`.
    """
    k_total = len(desc_scores)
    if k_total <= max_exact:
        return resample.ScoreBins(bin_of=np.arange(k_total), n_bins=k_total,
                                  thresholds=np.asarray(desc_scores, dtype=np.float64).copy(),
                                  multi=np.zeros(k_total, dtype=bool))
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
        d = (k_total - 1) - np.searchsorted(desc_scores[::-1], keep)
        d = d[(d >= 0) & (d < k_total)]
        ends[d] = True
    ends[-1] = True
    end_idx = np.flatnonzero(ends)
    starts = np.concatenate(([0], end_idx[:-1] + 1))
    return resample.ScoreBins(bin_of=np.searchsorted(end_idx, np.arange(k_total)),
                              n_bins=len(end_idx), thresholds=desc_scores[end_idx],
                              multi=(end_idx - starts) > 0)


def _strata(clf, pos_per, neg_per):
    """(distinct-score index, class counts) per stratum, in the per-case bootstrap's order."""
    folds = clf._score_counts.folds
    if not folds:
        index = np.arange(len(pos_per))
        return [(index, neg_per), (index, pos_per)]
    out = []
    for index, pos, neg in folds:
        out += [(index, neg), (index, pos)]
    return out


def counts_envelope_replicates(clf, x, n_boot, rng):
    """As ``bands.envelope_replicates``: (envelope NEC, NEC at the original optimal thresholds,
    coarsening bound), each (B, len(x)), from resampled counts."""
    from . import bands

    if not hasattr(bands, "replicates_from_units"):
        return _multinomial_replicates(clf, x, n_boot, rng)
    counts = clf._counts
    pos_per = _per_score(counts, counts.tp, "A bootstrap band")
    neg_per = _per_score(counts, counts.fp, "A bootstrap band")
    best = clf.best(x)
    bins = bands.envelope_bins(counts.thresholds[1:], pos_per, neg_per,
                               np.unique(best["threshold"]))
    # Units: (stratum, bin) pairs with their counts, stratum by stratum and bin by bin: the
    # order of np.unique over the per-case (stratum, bin) codes in bands.envelope_replicates.
    unit_stratum, unit_bin, unit_count = [], [], []
    for s, (index, per) in enumerate(_strata(clf, pos_per, neg_per)):
        in_bins = np.zeros(bins.n_bins, dtype=np.int64)
        np.add.at(in_bins, bins.bin_of[index], per)
        occupied = np.flatnonzero(in_bins)
        unit_stratum.append(np.full(len(occupied), s, dtype=np.int64))
        unit_bin.append(occupied)
        unit_count.append(in_bins[occupied])
    unit_stratum = np.concatenate(unit_stratum)
    return bands.replicates_from_units(bins, unit_stratum, np.concatenate(unit_bin),
                                       unit_stratum % 2 == 1, np.concatenate(unit_count), best, x,
                                       int(counts.tp[-1]), int(counts.fp[-1]), n_boot, rng)


def _multinomial_replicates(clf, x, n_boot, rng):
    """The same for a bands.py that draws one multinomial per stratum (before bootstrap_counts)."""
    counts = clf._counts
    pos_per = _per_score(counts, counts.tp, "A bootstrap band")
    neg_per = _per_score(counts, counts.fp, "A bootstrap band")
    n_pos, n_neg = int(counts.tp[-1]), int(counts.fp[-1])
    best = clf.best(x)
    bins = count_bins(counts.thresholds[1:], pos_per, neg_per,
                      keep_thresholds=np.unique(best["threshold"]))
    tp_bins = np.zeros((n_boot, bins.n_bins), dtype=np.int64)
    fp_bins = np.zeros((n_boot, bins.n_bins), dtype=np.int64)
    for k, (index, per) in enumerate(_strata(clf, pos_per, neg_per)):
        in_bins = np.zeros(bins.n_bins, dtype=np.int64)
        np.add.at(in_bins, bins.bin_of[index], per)
        cells = np.flatnonzero(in_bins)
        size = int(in_bins.sum())
        if size == 0:
            continue
        draws = rng.multinomial(size, in_bins[cells] / size, size=n_boot)
        (tp_bins if k % 2 else fp_bins)[:, cells] += draws
    env = resample.envelope_values(tp_bins, fp_bins, n_pos, n_neg, x)
    # ROC point "score >= t" of each original optimal threshold, among the bin edges.
    th = best["threshold"].to_numpy()
    point = np.where(np.isposinf(th), 0, np.searchsorted(-bins.thresholds, -th, side="left") + 1)
    point = np.where(np.isneginf(th), bins.n_bins, point)
    zeros = np.zeros((n_boot, 1), np.int64)
    tp_cum = np.concatenate((zeros, np.cumsum(tp_bins, axis=1)), axis=1)
    fp_cum = np.concatenate((zeros, np.cumsum(fp_bins, axis=1)), axis=1)
    fixed = resample.line_values(tp_cum[:, point], fp_cum[:, point], n_pos, n_neg, x)
    bound = resample.coarsening_bound(tp_bins, fp_bins, bins.multi, n_pos, n_neg)
    return env, fixed, bound
