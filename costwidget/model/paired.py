"""Is classifier A's cost different from B's? A band on NEC_A − NEC_B (``004_…`` section 9).

Both classifiers scored the same instances. Resampling the *instances*
(stratified by class, and by fold when there are folds) redraws both
classifiers' confusion matrices together, so their correlation is kept: when
A and B err on the same cases the difference varies little and the band is
narrow. Resampling each classifier on its own (``paired=False``) ignores that
and gives the wider unpaired band.

Implementation: every instance falls in one cell (bin of A's score, bin of
B's score, class); a replicate is a multinomial count per occupied cell, and
summing those counts over B's bins gives A's per-bin counts and vice versa.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import resample
from .bands import (ReplicateCache, check_n_boot, grid_key, make_rng, pcf_grid, percentile_rows,
                    scored_arrays)
from .validation import check_level

__all__ = ["difference_band", "significant_intervals"]

#: Bins per classifier and class for the joint (paired) resampling.
PAIRED_BINS_PER_CLASS = 256
PAIRED_MAX_EXACT = 1024


def _check_pair(a, b, paired: bool):
    from .classifier import Classifier

    for clf, label in ((a, "a"), (b, "b")):
        if not isinstance(clf, Classifier):
            raise TypeError(f"{label} must be a Classifier, got {type(clf).__name__}.")
    pos_a, _, _ = scored_arrays(a, "difference_band")
    pos_b, _, _ = scored_arrays(b, "difference_band")
    if not paired:
        return
    if len(pos_a) != len(pos_b) or not np.array_equal(pos_a, pos_b):
        raise ValueError("a and b must be scored on the same instances in the same order (their "
                         "labels differ). Sort both by instance id, or pass paired=False for the "
                         "unpaired band.")
    fa, fb = a._fold_codes, b._fold_codes
    if (fa is None) != (fb is None):
        which = "a" if fa is not None else "b"
        raise ValueError(f"Folds were given for {which} but not for the other classifier; a paired "
                         f"analysis resamples the same instances, so give both the same folds= "
                         f"(or neither).")
    if fa is not None and not (np.array_equal(fa, fb) and list(a._folds) == list(b._folds)):
        raise ValueError("a and b have different folds; a paired analysis needs the same folds= "
                         "for both classifiers.")


def _bins_and_points(clf, x, threshold):
    """Score bins of ``clf`` and, with a threshold, the bin index of "score >= threshold"."""
    is_pos, scores, _ = scored_arrays(clf)
    if threshold is not None:
        above = scores >= float(threshold)
        # Two bins: predicted positive (0) and negative (1); the fixed point is point 1.
        return resample.ScoreBins(bin_of=np.where(above, 0, 1), n_bins=2,
                                  thresholds=np.array([float(threshold), -np.inf]),
                                  multi=np.zeros(2, dtype=bool))
    return resample.score_bins(scores, is_pos, max_exact=PAIRED_MAX_EXACT,
                               per_class=PAIRED_BINS_PER_CLASS)


def _nec_from_bins(tp_bins, fp_bins, n_pos, n_neg, x, fixed: bool):
    if fixed:  # point 1: the instances in bin 0 are predicted positive
        return resample.line_values(tp_bins[:, :1], fp_bins[:, :1], n_pos, n_neg, x)
    return resample.envelope_values(tp_bins, fp_bins, n_pos, n_neg, x)


def _replicates(a, b, x, th_a, th_b, n_boot, rng, paired):
    is_pos, _, strata = scored_arrays(a)
    bins_a, bins_b = _bins_and_points(a, x, th_a), _bins_and_points(b, x, th_b)
    n_pos, n_neg = int(is_pos.sum()), int((~is_pos).sum())
    bound = 0.0
    if paired:
        joint = (bins_a.bin_of.astype(np.int64) * bins_b.n_bins + bins_b.bin_of) * 2 + is_pos
        cells, cell_of = np.unique(joint, return_inverse=True)
        counts = resample.stratified_counts(cell_of, strata, len(cells), n_boot, rng)
        pos_cell = (cells % 2).astype(bool)
        out = []
        for bins, key in ((bins_a, cells // 2 // bins_b.n_bins), (bins_b, cells // 2 % bins_b.n_bins)):
            tp = resample.aggregate_columns(counts[:, pos_cell], key[pos_cell], bins.n_bins)
            fp = resample.aggregate_columns(counts[:, ~pos_cell], key[~pos_cell], bins.n_bins)
            out.append((tp, fp, bins, n_pos, n_neg))
    else:
        out = []
        for clf, bins in ((a, bins_a), (b, bins_b)):
            pos_c, _, strata_c = scored_arrays(clf)
            counts = resample.stratified_counts(bins.bin_of * 2 + pos_c, strata_c,
                                                2 * bins.n_bins, n_boot, rng)
            out.append((counts[:, 1::2], counts[:, 0::2], bins, int(pos_c.sum()),
                        int((~pos_c).sum())))
    necs = []
    for (tp, fp, bins, p, n), th in zip(out, (th_a, th_b)):
        necs.append(_nec_from_bins(tp, fp, p, n, x, th is not None))
        bound = max(bound, resample.coarsening_bound(tp, fp, bins.multi, p, n))
    return necs[0] - necs[1], bound


def _original_nec(clf, x, threshold):
    if threshold is None:
        return clf.nec(x)
    is_pos, scores, _ = scored_arrays(clf)
    above = scores >= float(threshold)
    n_pos, n_neg = int(is_pos.sum()), int((~is_pos).sum())
    return resample.line_values(int(np.sum(above & is_pos)), int(np.sum(above & ~is_pos)),
                                n_pos, n_neg, x)


_CACHE = ReplicateCache()


def difference_band(a, b, level=0.90, *, threshold_a=None, threshold_b=None, n_boot=1000,
                    grid=512, random_state=None, paired=True) -> pd.DataFrame:
    """Pointwise band on ``NEC_a − NEC_b`` and where it excludes 0 (``004_…`` section 9).

    Parameters
    ----------
    a, b : Classifier
        Built with :meth:`Classifier.from_scores` on the same instances in the
        same order (same labels; same folds, or none, for both).
    level : float in (0, 1)
        Confidence level of the pointwise band.
    threshold_a, threshold_b : float, optional
        Hold that classifier at one threshold (its confusion matrix): with
        both given this is the fixed-threshold test on the joint 2×2×2 table.
        Without, each classifier's lower envelope is re-optimized in every
        replicate.
    n_boot : int
        B, the number of bootstrap replicates (>= 1).
    grid : int or array-like
        Number of pcf values evenly over [0, 1], or the pcf values.
    random_state : None, int or numpy Generator
        The same int gives the same band bit for bit; replicates are cached
        so that another level only re-reads them.
    paired : bool
        True (default) resamples instances jointly, keeping the correlation.
        False resamples each classifier on its own: the unpaired band, for
        comparison (wider when the two classifiers are correlated).

    Returns
    -------
    DataFrame
        ``pcf``, ``diff`` (on the original data), ``lower``, ``upper`` and
        ``significant`` (the band excludes 0). :func:`significant_intervals`
        turns ``significant`` into pcf intervals; ``attrs["coarsening_bound"]``
        bounds the error of score binning.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.datasets import load_demo_scores
    >>> m = cw.Classifier.from_frame(load_demo_scores("german_credit"), instance="row",
    ...                              pos_label="Bad")
    >>> d = cw.difference_band(m["naive Bayes"], m["logistic regression"], n_boot=200,
    ...                        grid=11, random_state=0)
    >>> list(d.columns)
    ['pcf', 'diff', 'lower', 'upper', 'significant']
    """
    level = check_level(level)
    n_boot = check_n_boot(n_boot)
    x = pcf_grid(grid)
    if not isinstance(paired, bool):
        raise TypeError(f"paired must be True or False, got {paired!r}.")
    _check_pair(a, b, paired)
    for th, label in ((threshold_a, "threshold_a"), (threshold_b, "threshold_b")):
        if th is not None and (isinstance(th, (str, bool)) or not np.isfinite(np.float64(th))):
            raise ValueError(f"{label} must be a finite number or None, got {th!r}.")
    rng, seed = make_rng(random_state)
    key = None if seed is False else (id(a), id(b), threshold_a, threshold_b, n_boot,
                                      grid_key(grid), seed, paired)

    def make():
        diff, bound = _replicates(a, b, x, threshold_a, threshold_b, n_boot, rng, paired)
        # The classifiers are kept in the entry so that their ids stay theirs while cached.
        return {"sorted": resample.sorted_columns(diff), "bound": bound, "keep": (a, b)}

    reps = _CACHE.get(key, make)
    lower, upper = percentile_rows(reps["sorted"], level)
    diff = _original_nec(a, x, threshold_a) - _original_nec(b, x, threshold_b)
    out = pd.DataFrame({"pcf": x, "diff": diff, "lower": lower, "upper": upper,
                        "significant": (lower > 0) | (upper < 0)})
    out.attrs["coarsening_bound"] = reps["bound"]
    return out


def significant_intervals(band: pd.DataFrame) -> pd.DataFrame:
    """Runs of grid points where ``band.significant`` holds: ``pcf_lo``, ``pcf_hi``, ``sign``.

    ``sign`` is +1 where a costs more than b (the band is above 0), -1 below.

    Examples
    --------
    >>> import pandas as pd
    >>> from costwidget.model.paired import significant_intervals
    >>> band = pd.DataFrame({"pcf": [0, .25, .5, .75, 1], "lower": [-1, -1, .1, .2, -1],
    ...                      "upper": [1, 1, .3, .4, 1]})
    >>> band["significant"] = (band.lower > 0) | (band.upper < 0)
    >>> significant_intervals(band).to_numpy().tolist()
    [[0.5, 0.75, 1.0]]
    """
    sig = band["significant"].to_numpy()
    sign = np.where(band["lower"].to_numpy() > 0, 1, np.where(band["upper"].to_numpy() < 0, -1, 0))
    x = band["pcf"].to_numpy()
    rows = []
    start = None
    for i in range(len(x) + 1):
        s = sign[i] if i < len(x) and sig[i] else 0
        if start is not None and (s != sign[start]):
            rows.append((x[start], x[i - 1], sign[start]))
            start = None
        if start is None and s != 0:
            start = i
    return pd.DataFrame(rows, columns=["pcf_lo", "pcf_hi", "sign"]).astype(float)
