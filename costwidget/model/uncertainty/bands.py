"""Confidence bands on cost curves (Drummond & Holte (2004), sec. 8), with cached replicates.

Three bands, all over a pcf grid and all from stratified resampling (class
totals fixed, and fold totals too when the classifier carries folds):

* fixed classifier (one confusion matrix): a score interval (MOVER with Wilson limits,
  :mod:`costwidget.model.uncertainty.score_band`), or the paper's percentile band, exact or
  Monte Carlo;
* envelope: the lower envelope re-optimized in every replicate;
* optimal threshold held fixed: at each pcf the threshold that is optimal on
  the original data, evaluated on every replicate without re-choosing it.

A band is pointwise: at each pcf the ``k``-th lowest and ``k``-th highest of
B replicate values, ``k = ceil(B·(1-level)/2)`` (the paper's "fifth lowest
and fifth highest" of 100 at 90 %: ``interval="percentile"``), or those
limits reflected about the original curve (``interval="basic"``, the
default for the envelope and the held optimal thresholds: the one that covers the envelope;
see :meth:`Classifier.band`). A fixed rule's band is the score interval by default, or the
percentile one (``method="exact"`` or ``"bootstrap"``). The replicates come from
:mod:`costwidget.model.resampling.bootstrap_counts` (exact stratified draws per score
bin) and :mod:`costwidget.model.resampling.resample` (bins and envelopes).

Replicates drawn with an int ``random_state`` are kept sorted per pcf in a
small cache on the classifier, keyed by everything except the level, so a
new level is two row look-ups. ``random_state=None`` draws afresh every
time (nothing is cached). The cache
is locked, and a band being computed by one thread is waited for by another
(the widget computes bands in a worker thread).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from ..kernels.validation import check_level, check_pcf
from ..kernels.validation import check_random_state as make_rng
from ..resampling import resample
from ..resampling.exact_band import exact_fixed_band

# Re-exported under their old home (bands.ENVELOPE_MAX_LOSS, bands.envelope_bins, ...).
from ..resampling.replicates import (  # noqa: F401
    ENVELOPE_MAX_LOSS,
    PRE_BINS_PER_CLASS,
    ReplicateCache,
    envelope_bins,
    replicates_from_units,
)
from .coverage import coverage_words
from .score_band import mover_wilson_band

__all__ = [
    "classifier_band",
    "percentile_rows",
    "check_n_boot",
    "pcf_grid",
    "make_rng",
    "ReplicateCache",
    "cache_of",
    "envelope_bins",
    "replicates_from_units",
]


def check_n_boot(n_boot) -> int:
    if isinstance(n_boot, bool) or not isinstance(n_boot, numbers.Integral) or n_boot < 1:
        raise ValueError(
            f"n_boot (B, the number of bootstrap replicates) must be an integer >= 1, "
            f"got {n_boot!r}. Use at least 500-1000 for a 90 % band."
        )
    return int(n_boot)


def pcf_grid(grid) -> np.ndarray:
    """``grid`` points evenly over [0, 1], or the user's own pcf values."""
    if isinstance(grid, numbers.Integral) and not isinstance(grid, bool):
        if grid < 2:
            raise ValueError(f"grid must be >= 2 points (or an array of pcf values), got {grid!r}.")
        return np.linspace(0.0, 1.0, int(grid))
    x = np.asarray(check_pcf(grid, "grid"), dtype=np.float64)
    if x.ndim != 1 or x.size == 0:
        raise ValueError("grid must be an int or a non-empty 1-D array of pcf values in [0, 1].")
    return x


def grid_key(grid):
    return int(grid) if isinstance(grid, numbers.Integral) else tuple(pcf_grid(grid).tolist())


def percentile_rows(sorted_reps: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """k-th lowest and k-th highest of sorted replicates, ``k = ceil(B·(1-level)/2)``."""
    b = sorted_reps.shape[0]
    k = max(int(math.ceil(b * (1.0 - level) / 2.0 - 1e-9)), 1)
    return sorted_reps[k - 1], sorted_reps[b - k]


def cache_of(clf) -> ReplicateCache:
    """The classifier's replicate cache (:attr:`Classifier.band_cache`), made on first use.

    Parameters
    ----------
    clf : Classifier

    Returns
    -------
    ReplicateCache

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_confusion(tp=3, fn=1, fp=1, tn=3)
    >>> cache_of(clf) is cache_of(clf)
    True
    """
    return clf.band_cache


# ---------------------------------------------------------------------- data access
def scored_arrays(clf, what: str = "a band"):
    """(is_pos, scores, strata) of a from_scores classifier, refusing what cannot be resampled."""
    data = clf.sample
    if data is None:
        raise ValueError(
            f"{what} needs the scores: build the classifier with Classifier.from_scores "
            f"(or give a fixed confusion matrix with from_confusion)."
        )
    is_pos, scores, weights, folds = data.is_pos, data.scores, data.weights, data.fold_codes
    if weights is not None:
        raise ValueError(
            f"{what} needs unweighted data: bootstrap resampling of sample_weight is "
            f"not supported. Build the classifier without sample_weight."
        )
    strata = is_pos.astype(np.int64) if folds is None else folds * 2 + is_pos
    return is_pos, scores, strata


def is_one_matrix(clf) -> bool:
    """True for a classifier known by one confusion matrix (:meth:`Classifier.from_confusion`)."""
    return clf.sample is None and clf.score_counts is None and clf.n_pos is not None


def _matrix_point(counts) -> int:
    """The ROC point of a one-matrix classifier: the one with an unknown (NaN) threshold.

    ``from_confusion`` gives the points (0, 0), the matrix (threshold NaN) and
    (P, N), and keeps the first of repeated points: a matrix equal to (P, N)
    keeps its NaN, one equal to (0, 0) is that first point.
    """
    nan = np.flatnonzero(np.isnan(counts.thresholds))
    return int(nan[0]) if nan.size else 0


def confusion_at(clf, threshold) -> tuple[int, int, int, int]:
    """(n_pos, n_neg, tp, fp) of the classifier 'score >= threshold', or of a one-matrix classifier."""
    if clf.n_pos is None:
        raise ValueError(
            "A band needs class totals: this classifier was built from rates only "
            "(from_roc). Use from_scores or from_confusion."
        )
    if threshold is None:
        if not is_one_matrix(clf):
            raise ValueError("A fixed-classifier band needs threshold=... for a scored classifier.")
        counts = clf.counts
        k = _matrix_point(counts)
        tp, fp, n_pos, n_neg = counts.tp[k], counts.fp[k], counts.n_pos, counts.n_neg
        if counts.exponent:
            raise ValueError(
                "A fixed-classifier band needs integer counts below 2**53 (a "
                "confusion matrix of cases); this one was given as weighted counts."
            )
    elif clf.score_counts is not None:  # from_counts: read off the counts
        from .counts_band import counts_confusion

        tp, fp, n_pos, n_neg = counts_confusion(clf, threshold)
    elif is_one_matrix(clf):
        raise ValueError(
            f"threshold={threshold!r} cannot apply: this classifier is one confusion "
            f"matrix (from_confusion), with no score thresholds. Call band() without "
            f"threshold= for its exact band (Drummond & Holte (2004), sec. 8)."
        )
    else:
        is_pos, scores, _ = scored_arrays(clf, "A band at a threshold")
        t = float(threshold)
        if math.isnan(t):
            raise ValueError("threshold must be a number, got NaN.")
        above = scores >= t
        tp, fp = int(np.sum(above & is_pos)), int(np.sum(above & ~is_pos))
        n_pos, n_neg = int(is_pos.sum()), int((~is_pos).sum())
    vals = (n_pos, n_neg, tp, fp)
    if any(float(v) != int(v) for v in vals):
        raise ValueError(
            "A fixed-classifier band needs integer counts (a confusion matrix of cases)."
        )
    return tuple(int(v) for v in vals)


# ---------------------------------------------------------------------- replicates
def fixed_replicates(n_pos, n_neg, tp, fp, x, n_boot, rng) -> np.ndarray:
    """Monte Carlo NEC of the fixed classifier: (B, len(x)), rows = binomial redraws."""
    tp_b = rng.binomial(n_pos, tp / n_pos, size=n_boot)[:, None]
    fp_b = rng.binomial(n_neg, fp / n_neg, size=n_boot)[:, None]
    return resample.line_values(tp_b, fp_b, n_pos, n_neg, x)


def envelope_replicates(clf, x, n_boot, rng):
    """Bootstrap replicates of a scored classifier's lower envelope and held-threshold costs.

    Parameters
    ----------
    clf : Classifier
        From :meth:`Classifier.from_scores` (unweighted) or ``from_counts``.
    x : ndarray
        The pcf grid.
    n_boot : int
    rng : numpy.random.Generator

    Returns
    -------
    env, fixed : ndarray, (n_boot, len(x))
        Each replicate's lower envelope, and its NEC at the thresholds optimal
        on the original data.
    bound : float
        The largest NEC any replicate's envelope can lose to score binning.

    Examples
    --------
    >>> import numpy as np, costwidget as cw
    >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9])
    >>> env, fixed, bound = envelope_replicates(clf, np.array([0.0, 0.5, 1.0]), 4,
    ...                                         np.random.default_rng(0))
    >>> env.shape, bool((env <= fixed + 1e-12).all()), bound
    ((4, 3), True, 0.0)
    """
    if clf.score_counts is not None:  # from_counts: resample the counts
        from .counts_band import counts_envelope_replicates

        return counts_envelope_replicates(clf, x, n_boot, rng)
    is_pos, scores, strata = scored_arrays(clf)
    best = clf.best(x)
    # The ROC points are the distinct scores, highest first, with their class counts.
    counts = clf.counts
    desc_scores, pos_per, neg_per = counts.thresholds[1:], np.diff(counts.tp), np.diff(counts.fp)
    bins = envelope_bins(desc_scores, pos_per, neg_per, np.unique(best["threshold"]))
    # Units: (stratum, bin) pairs in that order; a stratum is one class (of one fold).
    if clf.sample.fold_codes is None:
        per_bin = [
            np.bincount(bins.bin_of, weights=per, minlength=bins.n_bins).astype(np.int64)
            for per in (neg_per, pos_per)
        ]  # strata 0 (negatives) and 1 (positives)
        per_unit = np.concatenate(per_bin)
    else:
        desc = np.searchsorted(-desc_scores, -scores, side="left")  # each case's distinct score
        n_strata = int(strata.max()) + 1
        per_unit = np.bincount(
            strata * bins.n_bins + bins.bin_of[desc], minlength=n_strata * bins.n_bins
        )
    unit = np.flatnonzero(per_unit)
    unit_stratum = unit // bins.n_bins
    return replicates_from_units(
        bins,
        unit_stratum,
        unit % bins.n_bins,
        unit_stratum % 2 == 1,
        per_unit[unit],
        best,
        x,
        int(is_pos.sum()),
        int((~is_pos).sum()),
        n_boot,
        rng,
    )


# ---------------------------------------------------------------------- public entry
def classifier_band(
    clf,
    level=0.90,
    *,
    threshold=None,
    method="auto",
    n_boot=1000,
    grid=512,
    random_state=None,
    interval="basic",
) -> pd.DataFrame:
    """Implementation of :meth:`Classifier.band`; the parameters and the result are as there.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_confusion(tp=16, fn=4, fp=4, tn=6)
    >>> classifier_band(clf, 0.9, grid=3, interval="basic").attrs["interval"]  # a fixed rule
    'score'
    """
    level = check_level(level)
    n_boot = check_n_boot(n_boot)
    x = pcf_grid(grid)
    if method not in METHODS:
        raise ValueError(f"method must be 'auto', 'score', 'exact' or 'bootstrap', got {method!r}.")
    if interval not in INTERVALS:
        raise ValueError(f"interval must be 'basic' or 'percentile', got {interval!r}.")
    if clf.n_pos is None:
        raise ValueError(
            "A band needs class totals: this classifier was built from rates only "
            "(from_roc). Use from_scores or from_confusion."
        )
    fixed_matrix = is_one_matrix(clf)
    if isinstance(threshold, str):
        if threshold != "optimal":
            raise ValueError(f"threshold must be a number, None or 'optimal', got {threshold!r}.")
        if fixed_matrix:
            raise ValueError(
                "threshold='optimal' cannot apply: this classifier is one confusion "
                "matrix (from_confusion), with no thresholds to choose between. Call "
                "band() without threshold= for its exact band."
            )
        if method in ("exact", "score"):
            raise ValueError(
                f"method={method!r} is for one fixed threshold; threshold='optimal' uses a "
                f"different threshold at each pcf: use method='bootstrap'."
            )
        out = _envelope_band(clf, level, x, n_boot, grid, random_state, which="optimal")
        return _said(_finish(out, level, interval, "optimal", n_boot, envelope=False), clf)
    if threshold is None and not fixed_matrix:
        if method in ("exact", "score"):
            raise ValueError(
                f"method={method!r} needs a fixed classifier: give threshold=... The envelope "
                f"band re-optimizes the threshold in every replicate and is bootstrap only."
            )
        out = _envelope_band(clf, level, x, n_boot, grid, random_state, which="envelope")
        return _said(_finish(out, level, interval, "envelope", n_boot, envelope=True), clf)
    n_pos, n_neg, tp, fp = confusion_at(clf, threshold)
    nec = resample.line_values(tp, fp, n_pos, n_neg, x)
    method = "score" if method == "auto" else method
    if method == "bootstrap":
        rng, seed = make_rng(random_state)
        key = None if seed is False else ("fixed", threshold, n_boot, grid_key(grid), seed)
        reps = cache_of(clf).get(
            key,
            lambda: resample.sorted_columns(fixed_replicates(n_pos, n_neg, tp, fp, x, n_boot, rng)),
        )
        lower, upper = percentile_rows(reps, level)
    else:
        lower, upper = FIXED_BANDS[method](n_pos, n_neg, tp, fp, x, level)
    if threshold is None:  # one matrix (from_confusion): the band of its envelope
        nec, lower, upper = trivial_capped(x, nec, lower, upper)
    out = pd.DataFrame({"pcf": x, "nec": nec, "lower": lower, "upper": upper})
    # A fixed rule's band is a score interval (MOVER–Wilson; the default) or the paper's
    # percentile band (Drummond & Holte (2004), sec. 8), never the basic one: reflected about
    # the observed cost it covers a binomial rate too rarely (n = 20, FNR 0.12, PCF(+) = 1:
    # 0.685 at level 0.9). The percentile band has no spread at a rate of 0 or 1, and its
    # exact coverage falls to 0.64 at small n (benchmarks/coverage_fixed_band.py).
    out = _finish(
        out,
        level,
        "score" if method == "score" else "percentile",
        "fixed" if threshold is None else float(threshold),
        n_boot if method == "bootstrap" else None,
        envelope=False,
    )
    out.attrs["method"] = method
    if threshold is None and method != "bootstrap":  # band_limits_at computes it at any pcf
        out.attrs["exact_matrix"] = (int(n_pos), int(n_neg), int(tp), int(fp))
    return _said(out, clf)


def _said(out: pd.DataFrame, clf) -> pd.DataFrame:
    """``attrs["coverage"]``: the level in words with what the band covers where measured
    (:mod:`.coverage`); the label of a band short of its level says so, not a bare level."""
    words = coverage_words(out.attrs, int(round(float(clf.n_pos + clf.n_neg))))
    out.attrs["coverage"] = words
    if words.startswith("nominal"):
        out.attrs["label"] = f"pointwise band, {words}"
    return out


#: How a fixed rule's band is computed from its confusion matrix, by ``method``.
FIXED_BANDS = {"score": mover_wilson_band, "exact": exact_fixed_band}
METHODS = ("auto", "score", "exact", "bootstrap")


def trivial_capped(x, nec, lower, upper):
    """A fixed matrix's band made the band of its lower envelope ``min(line, x, 1 - x)``.

    A classifier known by one confusion matrix (:meth:`Classifier.from_confusion`) has for its
    cost curve the envelope of its line and the two trivial classifiers (flag no case, cost
    ``x``; flag every case, cost ``1 - x``), and that is what the readout's NEC reads. The
    trivial lines have no sampling error, and ``min(·, c)`` keeps the order of values, so each
    quantile of ``min(L, c)`` is ``min(quantile of L, c)``: with ``c = min(x, 1 - x)`` the band
    of the envelope is ``(min(lower, c), min(upper, c))`` exactly, around ``min(nec, c)``.

    Examples
    --------
    >>> import numpy as np
    >>> from costwidget.model.uncertainty.bands import trivial_capped
    >>> x = np.array([0.1, 0.5])
    >>> [v.round(3).tolist() for v in trivial_capped(x, np.array([0.3, 0.3]),
    ...                                              np.array([0.231, 0.15]),
    ...                                              np.array([0.367, 0.45]))]
    [[0.1, 0.3], [0.1, 0.15], [0.1, 0.45]]
    """
    x = np.asarray(x, dtype=np.float64)
    c = np.minimum(x, 1.0 - x)
    return (
        np.minimum(np.asarray(nec, dtype=np.float64), c),
        np.minimum(np.asarray(lower, dtype=np.float64), c),
        np.minimum(np.asarray(upper, dtype=np.float64), c),
    )


#: Ways to turn the replicates at a pcf into an interval (see :meth:`Classifier.band`).
INTERVALS = ("basic", "percentile")


def _finish(out: pd.DataFrame, level, interval, threshold, n_boot, *, envelope):
    """Apply the interval kind to a percentile band and label it in ``attrs``."""
    if interval == "basic":
        # Reflect the percentile limits about the original curve (Davison & Hinkley's basic
        # bootstrap interval): a replicate envelope sits below the original one by about as
        # much as the original sits below the true envelope, and reflecting cancels that.
        nec = out["nec"].to_numpy()
        lower = 2.0 * nec - out["upper"].to_numpy()
        upper = 2.0 * nec - out["lower"].to_numpy()
        # A cost is in [0, 1]; a best achievable cost is at most a trivial classifier's.
        cap = np.minimum(out["pcf"].to_numpy(), 1.0 - out["pcf"].to_numpy()) if envelope else 1.0
        out["lower"] = np.clip(lower, 0.0, cap)
        out["upper"] = np.clip(upper, 0.0, cap)
    out.attrs.update(
        {
            "kind": "pointwise",
            "simultaneous": False,
            "interval": interval,
            "label": f"pointwise {level:.0%} band".replace("%", " %"),
            "level": level,
            "n_boot": n_boot,
            "threshold": threshold,
        }
    )
    return out


def _envelope_band(clf, level, x, n_boot, grid, random_state, *, which):
    rng, seed = make_rng(random_state)
    key = None if seed is False else ("envelope", n_boot, grid_key(grid), seed)

    def make():
        env, fixed, bound = envelope_replicates(clf, x, n_boot, rng)
        # The held-threshold replicates are sorted only when first asked for.
        return {
            "envelope": resample.sorted_columns(env),
            "optimal": None,
            "fixed": fixed,
            "bound": bound,
        }

    reps = cache_of(clf).get(key, make)
    if reps[which] is None:  # two threads may both sort: the same result either way
        reps[which] = resample.sorted_columns(reps["fixed"])
    lower, upper = percentile_rows(reps[which], level)
    out = pd.DataFrame({"pcf": x, "nec": clf.nec(x), "lower": lower, "upper": upper})
    out.attrs["coarsening_bound"] = reps["bound"]
    return out
