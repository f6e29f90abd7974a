"""Bands of a classifier built from counts: the stratified bootstrap resamples the counts.

Resampling the cases of one class (of one fold) with replacement is drawing a
multinomial count for each distinct score, with probabilities proportional to
the counts (Drummond & Holte (2004), sec. 8). A classifier from
:meth:`Classifier.from_counts` holds exactly those counts, so it needs no
per-case data. The counts go through the same bins and draws as the per-case bootstrap
(``envelope_bins``, ``replicates_from_units``: strata by fold,
negatives first; occupied bins from the highest score down), so the same
``random_state`` gives the same band from the counts as from the cases.

A fixed threshold needs only the counts at or above it, read off the ROC points.
"""

from __future__ import annotations

import math

import numpy as np

from ..resampling.replicates import envelope_bins, replicates_from_units

__all__ = ["counts_confusion", "counts_envelope_replicates"]


def _in_units(counts, values):
    exponent = getattr(counts, "exponent", 0)
    return values if exponent == 0 else np.ldexp(values, exponent)


def counts_confusion(clf, threshold) -> tuple:
    """(tp, fp, n_pos, n_neg) of ``score >= threshold`` from the classifier's ROC points."""
    t = float(threshold)
    if math.isnan(t):
        raise ValueError("threshold must be a number, got NaN.")
    counts = clf.counts
    # Thresholds descend from +inf: the point of t is the last one with threshold >= t.
    k = int(np.searchsorted(-counts.thresholds, -t, side="right")) - 1
    high = clf.score_counts.group_high
    if high is not None and k + 1 < len(counts.thresholds) and t <= high[k]:
        raise ValueError(
            f"threshold={t!r} falls inside a group of rounded scores, from "
            f"{counts.thresholds[k + 1]!r} to {high[k]!r}: the counts cannot tell which of its "
            f"cases score >= {t!r}. Use one of the classifier's thresholds (clf.roc['threshold']) "
            f"or aggregate without decimals=."
        )
    tp, fp = _in_units(counts, counts.tp[k]), _in_units(counts, counts.fp[k])
    return tp, fp, _in_units(counts, counts.tp[-1]), _in_units(counts, counts.fp[-1])


def _per_score(counts, values, what: str) -> np.ndarray:
    per = np.diff(values)
    if per.dtype.kind != "i":
        raise ValueError(
            f"{what} needs whole-number counts: bootstrap resampling of weights is "
            f"not supported. Build the classifier from counts of cases."
        )
    return per


def _strata(clf, pos_per, neg_per):
    """(distinct-score index, class counts) per stratum, in the per-case bootstrap's order."""
    folds = clf.score_counts.folds
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
    counts = clf.counts
    pos_per = _per_score(counts, counts.tp, "A bootstrap band")
    neg_per = _per_score(counts, counts.fp, "A bootstrap band")
    best = clf.best(x)
    bins = envelope_bins(counts.thresholds[1:], pos_per, neg_per, np.unique(best["threshold"]))
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
    return replicates_from_units(
        bins,
        unit_stratum,
        np.concatenate(unit_bin),
        unit_stratum % 2 == 1,
        np.concatenate(unit_count),
        best,
        x,
        int(counts.tp[-1]),
        int(counts.fp[-1]),
        n_boot,
        rng,
    )
