"""Is classifier A's cost different from B's? A band on NEC_A − NEC_B (Drummond & Holte (2004), sec. 9).

Both classifiers scored the same instances. Resampling the *instances*
(stratified by class, and by fold when there are folds) redraws both
classifiers' confusion matrices together, so their correlation is kept: when
A and B err on the same cases the difference varies little and the band is
narrow. Resampling each classifier on its own (``paired=False``) ignores that
and gives the wider unpaired band.

Implementation: every instance falls in one unit (stratum, bin of A's score,
bin of B's score); :func:`costwidget.model.resampling.bootstrap_counts.unit_sums` draws
the units' counts and sums them into A's bins and into B's bins in one pass.
With more than 1024 distinct scores a classifier's scores are binned, merged
while a replicate's coarsening loss stays below 0.0018 NEC (the band's
``attrs["coarsening_bound"]`` reports the loss measured on the replicates).

Reading a pointwise band at every pcf claims differences that are not there
(with no true difference, some pcf is flagged in about half the samples), so
the default band is simultaneous: a bootstrap sup-t band (see
:func:`difference_band`).
"""

from __future__ import annotations

import hashlib
import threading
import weakref

import numpy as np
import pandas as pd

from ..base.fields import is_classifier
from ..kernels.sample import align_instances
from ..kernels.validation import check_level
from ..resampling import bootstrap_counts, resample
from .bands import (
    PRE_BINS_PER_CLASS,
    cache_of,
    check_n_boot,
    grid_key,
    make_rng,
    pcf_grid,
    percentile_rows,
    scored_arrays,
)
from .case_paired import case_difference_band, check_case_pair, per_case_pair
from .difference_limits import SD_FLOOR, band_frame, max_deviations, simultaneous_limits

__all__ = [
    "SD_FLOOR",
    "band_frame",
    "max_deviations",
    "simultaneous_limits",
    "check_interval_args",
    "difference_band",
    "paired_interval_at",
    "paired_replicates_at",
    "significant_intervals",
]

#: Up to this many distinct scores (per classifier) every score is its own bin.
PAIRED_MAX_EXACT = 1024
#: Otherwise bins are merged while a replicate's coarsening loss stays below this (NEC), so
#: that ``attrs["coarsening_bound"]`` stays below 0.002.
PAIRED_MAX_LOSS = 0.0018

#: How to make two classifiers pairable, for the refusals.
HOW_TO_PAIR = (
    "Pairing must be known, not guessed from equal labels: give each case an id, "
    "instance= (Classifier.from_frame(df, instance='id') or "
    "Classifier.from_scores(y, s, instance=ids)), or build both over the same y_true "
    "array (from_scores(y, s1) and from_scores(y, s2); "
    "costwidget.classifiers_from_predictions(y, {name: score})). Or pass paired=False "
    "for the unpaired band."
)


# sample a -> {sample b -> alignment}: a sample's ids are read-only, so an alignment holds for
# as long as both samples live (the widget re-checks its pair on every redraw; lining up 10^6
# shuffled string ids takes ~0.4 s). Weak keys: the cache keeps no sample alive.
_ALIGNMENTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_ALIGNMENTS_LOCK = threading.Lock()


def _aligned(sa, sb):
    with _ALIGNMENTS_LOCK:
        known = _ALIGNMENTS.get(sa)
        if known is not None and sb in known:
            return known[sb]
    perm = align_instances(sa.instance, sb.instance)  # raises for unmatched ids: not cached
    with _ALIGNMENTS_LOCK:
        _ALIGNMENTS.setdefault(sa, weakref.WeakKeyDictionary())[sb] = perm
    return perm


def _check_pair(a, b, paired: bool):
    """Refuse a pair that cannot be compared; for a paired one, how b's cases line up with a's.

    Returns None (paired in order, or unpaired) or ``perm``: b's case ``perm[i]`` is a's
    case ``i`` (matched by instance id).
    """
    for clf, label in ((a, "a"), (b, "b")):
        if not is_classifier(clf):
            raise TypeError(f"{label} must be a Classifier, got {type(clf).__name__}.")
        if clf.sample is None and clf.score_counts is not None:
            raise ValueError(
                f"{label} was built from counts per score (from_counts, from_duckdb "
                f"or from_spark): a difference band resamples the cases, and counts "
                f"do not say which case is which, so they cannot be paired. Build "
                f"both classifiers from the scores with an instance id "
                f"(Classifier.from_frame(df, instance=...))."
            )
    scored_arrays(a, "difference_band")
    scored_arrays(b, "difference_band")
    if not paired:
        return None
    sa, sb = a.sample, b.sample
    if sa.instance is not None and sb.instance is not None:
        perm = _aligned(sa, sb)
    elif sa.case_token is not None and sa.case_token == sb.case_token:
        perm = None
    else:
        which = (
            "b has instance ids but a has none"
            if sa.instance is None and sb.instance is not None
            else "a has instance ids but b has none"
            if sa.instance is not None
            else "they were built from different label arrays, without instance ids"
        )
        raise ValueError(
            f"a and b are not known to score the same instances in the same order "
            f"({which}). {HOW_TO_PAIR}"
        )
    is_pos_b = sb.is_pos if perm is None else sb.is_pos[perm]
    if len(sa.is_pos) != len(is_pos_b) or not np.array_equal(sa.is_pos, is_pos_b):
        bad = np.flatnonzero(sa.is_pos != is_pos_b)
        where = (
            f" (instance ids {sa.instance[bad[:5]].tolist()!r})"
            if sa.instance is not None
            else f" (cases {bad[:5].tolist()!r})"
        )
        raise ValueError(
            f"a and b label {len(bad)} case(s) differently{where}: the same case "
            f"must have the same true label in both. Check the label column and the "
            f"instance ids."
        )
    fa = sa.fold_codes
    fb = sb.fold_codes if perm is None or sb.fold_codes is None else sb.fold_codes[perm]
    if (fa is None) != (fb is None):
        which = "a" if fa is not None else "b"
        raise ValueError(
            f"Folds were given for {which} but not for the other classifier; a paired "
            f"analysis resamples the same instances, so give both the same folds= "
            f"(or neither)."
        )
    if fa is not None and not (list(a.folds) == list(b.folds) and np.array_equal(fa, fb)):
        raise ValueError(
            "a and b have different folds; a paired analysis needs the same folds= "
            "for both classifiers."
        )
    return perm


def _bins(clf, threshold, perm=None):
    """Score bins of ``clf``; with a threshold, two bins: predicted positive (0) and negative (1).

    With ``perm``, the cases are taken in that order (``bin_of[i]`` is case ``perm[i]``'s).
    """
    is_pos, scores, _ = scored_arrays(clf)
    if perm is not None:
        scores = scores[perm]
    if threshold is not None:
        above = scores >= float(threshold)
        return resample.ScoreBins(
            bin_of=np.where(above, 0, 1),
            n_bins=2,
            thresholds=np.array([float(threshold), -np.inf]),
            multi=np.zeros(2, dtype=bool),
        )
    # Bins from the ROC points (the distinct scores, highest first, with their class counts),
    # then each case's bin: the number of bins whose lowest score is above its score.
    counts = clf.counts
    bins = resample.bins_from_counts(
        counts.thresholds[1:],
        np.diff(counts.tp),
        np.diff(counts.fp),
        max_exact=PAIRED_MAX_EXACT,
        per_class=PRE_BINS_PER_CLASS,
        max_loss=PAIRED_MAX_LOSS,
    )
    bin_of = np.searchsorted(-bins.thresholds, -scores, side="left")
    return resample.ScoreBins(
        bin_of=bin_of, n_bins=bins.n_bins, thresholds=bins.thresholds, multi=bins.multi
    )


def _nec_from_bins(tp_bins, fp_bins, n_pos, n_neg, x, fixed: bool):
    if fixed:  # point 1: the instances in bin 0 are predicted positive
        return resample.line_values(tp_bins[:, :1], fp_bins[:, :1], n_pos, n_neg, x)
    return resample.envelope_values(tp_bins, fp_bins, n_pos, n_neg, x)


def _joint_counts(bins_a, bins_b, is_pos, strata, n_boot, rng):
    """Per-bin counts of both classifiers from one resampling of the instances.

    A unit is the instances sharing (stratum, bin of a, bin of b); its draws
    count in a's bin and in b's bin, so the two classifiers' counts come from
    the same resampled instances.
    """
    nb = bins_b.n_bins
    joint = (strata * bins_a.n_bins + bins_a.bin_of) * nb + bins_b.bin_of
    unit, count = np.unique(joint, return_counts=True)
    u_stratum = unit // nb // bins_a.n_bins
    u_pos = u_stratum % 2  # strata are class, or fold·2 + class
    keys = [(unit // nb % bins_a.n_bins) * 2 + u_pos, (unit % nb) * 2 + u_pos]
    ca, cb = bootstrap_counts.unit_sums(
        u_stratum, count, keys, [2 * bins_a.n_bins, 2 * nb], n_boot, rng
    )
    return (ca[:, 1::2], ca[:, 0::2]), (cb[:, 1::2], cb[:, 0::2])


def _own_counts(clf, bins, n_boot, rng):
    is_pos, _, strata = scored_arrays(clf)
    unit, count = np.unique(strata * bins.n_bins + bins.bin_of, return_counts=True)
    u_stratum = unit // bins.n_bins
    (c,) = bootstrap_counts.unit_sums(
        u_stratum, count, [(unit % bins.n_bins) * 2 + u_stratum % 2], [2 * bins.n_bins], n_boot, rng
    )
    return c[:, 1::2], c[:, 0::2]


def _replicates(a, b, x, th_a, th_b, n_boot, rng, paired, perm=None):
    """Replicates of NEC_a − NEC_b (n_boot, len(x)), the same difference on the original
    data computed from the same bins (the replicates' own centre), and the coarsening bound.

    ``perm`` lines b's cases up with a's (paired by instance id)."""
    bins_a, bins_b = _bins(a, th_a), _bins(b, th_b, perm if paired else None)
    if paired:
        is_pos, _, strata = scored_arrays(a)
        counts = _joint_counts(bins_a, bins_b, is_pos, strata, n_boot, rng)
    else:
        counts = (_own_counts(a, bins_a, n_boot, rng), _own_counts(b, bins_b, n_boot, rng))
    necs, centre, bound = [], [], 0.0
    for clf, (tp, fp), bins, th in zip((a, b), counts, (bins_a, bins_b), (th_a, th_b)):
        p, n = int(clf.n_pos), int(clf.n_neg)
        necs.append(_nec_from_bins(tp, fp, p, n, x, th is not None))
        is_pos = scored_arrays(clf)[0]
        if clf is b and paired and perm is not None:
            is_pos = is_pos[perm]
        tp0 = np.bincount(bins.bin_of[is_pos], minlength=bins.n_bins)[None, :]
        fp0 = np.bincount(bins.bin_of[~is_pos], minlength=bins.n_bins)[None, :]
        centre.append(_nec_from_bins(tp0, fp0, p, n, x, th is not None)[0])
        # Both envelopes err upwards only, so their difference errs by at most the larger bound.
        bound = max(bound, resample.coarsening_bound(tp, fp, bins.multi, p, n))
    return necs[0] - necs[1], centre[0] - centre[1], bound


def _drawn_swapped(a, b, th_a, th_b) -> bool:
    """Whether the pair's replicates are drawn as (b, a): a fixed order of the two by content
    (their ROC counts and thresholds), the same whichever is passed first."""

    def key(clf, th):
        c = clf.counts
        digest = hashlib.blake2b(digest_size=16)
        for part in (c.thresholds, c.tp, c.fp, np.array([np.nan if th is None else float(th)])):
            digest.update(np.ascontiguousarray(part, dtype=np.float64).tobytes())
        return digest.digest()

    return key(b, th_b) < key(a, th_a)


def _pair_replicates(a, b, x, th_a, th_b, n_boot, rng, paired, perm):
    """`_replicates` of a − b, drawn for the pair in a canonical order, so that swapping a and b
    negates the band exactly (with one seed, (a, b) and (b, a) drew different resamples, and
    significance could depend on which model was called "a"). The draws do not depend on ``x``:
    one seed gives the same resamples at any pcf values."""
    if _drawn_swapped(a, b, th_a, th_b):
        inverse = None if perm is None else np.argsort(perm)
        reps, centre, bound = _replicates(b, a, x, th_b, th_a, n_boot, rng, paired, inverse)
        return -reps, -centre, bound
    return _replicates(a, b, x, th_a, th_b, n_boot, rng, paired, perm)


def _original_nec(clf, x, threshold):
    if threshold is None:
        return clf.nec(x)
    is_pos, scores, _ = scored_arrays(clf)
    above = scores >= float(threshold)
    n_pos, n_neg = int(is_pos.sum()), int((~is_pos).sum())
    return resample.line_values(
        int(np.sum(above & is_pos)), int(np.sum(above & ~is_pos)), n_pos, n_neg, x
    )


def difference_band(
    a,
    b,
    level=0.90,
    *,
    threshold_a=None,
    threshold_b=None,
    n_boot=1000,
    grid=512,
    random_state=None,
    paired=True,
    simultaneous=True,
    cost_fn=1.0,
    cost_fp=1.0,
    p_pos=None,
) -> pd.DataFrame:
    """Band on ``NEC_a − NEC_b`` over the pcf grid, and where it excludes 0.

    Drummond & Holte (2004), sec. 9: resample the instances, so that both
    classifiers' confusion matrices are redrawn together, and read a 90 %
    interval of the difference off the replicates. Read at many pcf values at
    once, a *pointwise* interval excludes 0 somewhere far more often than
    ``1 - level`` when there is no difference at all; the default band is
    therefore *simultaneous*: it holds at every grid point at once with
    probability ``level`` (bootstrap sup-t band, see Notes).

    Parameters
    ----------
    a, b : Classifier
        Scored on the same cases, and known to be: both with instance ids
        (``instance=`` of :meth:`Classifier.from_frame` or
        :meth:`Classifier.from_scores`; cases are matched by id, in any
        order), or both built over the same ``y_true`` array (the same case
        ``i`` in both). Anything else is refused (with ``paired=True``):
        equal label vectors do not show that the rows are the same cases. The
        same folds, or none, for both.
    level : float in (0, 1)
        Confidence level of the band.
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
        None (the default) draws fresh replicates on every call. The same int
        gives the same band bit for bit; its replicates are cached (on ``a``,
        without keeping ``b`` alive) so that another level or the other kind
        of band only re-reads them.
    paired : bool
        True (default) resamples instances jointly, keeping the correlation.
        False resamples each classifier on its own: the unpaired band, for
        comparison (wider when the two classifiers are correlated).
    simultaneous : bool
        True (default): the band covers the whole difference curve at once
        with probability ``level``. False: the pointwise percentile band of
        the paper (the ``k``-th lowest and highest replicate at each pcf,
        ``k = ceil(B·(1-level)/2)``), valid for one pcf chosen in advance.
    cost_fn, cost_fp, p_pos : float, optional
        Per-case costs only (both classifiers with the same cases and per-case costs): the
        multipliers of each case's ``cost_fn``, ``cost_fp`` and the deployment prevalence of
        :func:`~costwidget.decide`. The difference is then in money per case, scaled as the
        cost pane of the twins: ``(money_a − money_b)·W / (P + N)`` at the twins' PCF(+), the
        cases resampled with their costs and each side re-optimized exactly in every
        replicate (:func:`~costwidget.model.uncertainty.case_paired.case_difference_band`).

    Returns
    -------
    DataFrame
        ``pcf``, ``diff`` (on the original data), ``lower``, ``upper`` and
        ``significant`` (the band excludes 0); :func:`significant_intervals`
        turns ``significant`` into pcf intervals. ``attrs``:

        * ``"kind"``: ``"simultaneous"`` or ``"pointwise"``, and
          ``"simultaneous"``: the same as a bool;
        * ``"label"``: e.g. ``"simultaneous 90 % band"``, for a caption;
        * ``"level"``, ``"n_boot"``, ``"paired"``;
        * ``"critical_value"``: c of the simultaneous band (None if pointwise);
        * ``"coarsening_bound"``: the largest NEC error score binning can add
          to any replicate (0 with at most 1024 distinct scores per
          classifier; below 0.002 otherwise).

    Notes
    -----
    Sup-t band: with ``d`` the original difference, ``s_j`` the bootstrap SD
    at grid point ``j`` and ``M_r = max_j |d*_rj − d_j| / s_j`` for each
    replicate ``r``, the band is ``d_j ± c·s_j`` with ``c`` the ``level``
    quantile of the ``M_r``. Grid points where ``s_j <= 1e-12`` (for
    envelopes: pcf 0 and 1, where both costs are 0 in every replicate) are
    left out of the maximum; the band there is the range of ``d_j`` and the
    replicates, so it is significant only if the difference is the same
    non-zero value in every replicate.

    In simulations of two classifiers with the same true costs (160 + 240
    cases, scores' noise correlated 0.6, B = 500, 101 grid points, 1000
    pairs) the 90 % pointwise band flagged some pcf in 49 % of pairs, the
    simultaneous band in 8.8 % (tests/test_bands_simultaneous.py checks
    <= 10 %). The price is power: with a true difference (d' 1.0 vs 1.3)
    the simultaneous band found one in 68 % of pairs and at pcf 0.5 in 30 %
    (pointwise: 97 % and 72 %); at d' 1.0 vs 1.5, 98 % and 79 % (100 %,
    98 %). See benchmarks/README.md.

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
    >>> d.attrs["label"], d.attrs["simultaneous"]
    ('simultaneous 90 % band', True)
    >>> p = cw.difference_band(m["naive Bayes"], m["logistic regression"], n_boot=200,
    ...                        grid=11, random_state=0, simultaneous=False)
    >>> p.attrs["kind"], bool((p.upper - p.lower <= d.upper - d.lower + 1e-12).all())
    ('pointwise', True)
    """
    level = check_level(level)
    n_boot = check_n_boot(n_boot)
    x = pcf_grid(grid)
    for flag, label in ((paired, "paired"), (simultaneous, "simultaneous")):
        if not isinstance(flag, bool):
            raise TypeError(f"{label} must be True or False, got {flag!r}.")
    for th, label in ((threshold_a, "threshold_a"), (threshold_b, "threshold_b")):
        if th is not None and (isinstance(th, (str, bool)) or not np.isfinite(np.float64(th))):
            raise ValueError(f"{label} must be a finite number or None, got {th!r}.")
    setting = (cost_fn, cost_fp, p_pos)
    if per_case_pair(a, b, setting):
        return case_difference_band(
            _case_perm,
            a,
            b,
            x,
            level,
            (threshold_a, threshold_b),
            n_boot,
            random_state,
            paired,
            simultaneous,
            setting,
        )
    perm = _check_pair(a, b, paired)
    rng, seed = make_rng(random_state)
    # Cached on a, keyed by a weak reference to b: the entry neither keeps b alive nor
    # answers for another object that later gets b's id (a dead reference equals no other).
    key = (
        None
        if seed is False
        else (
            "difference",
            weakref.ref(b),
            threshold_a,
            threshold_b,
            n_boot,
            grid_key(grid),
            seed,
            paired,
        )
    )

    def make():
        reps, centre, bound = _pair_replicates(
            a, b, x, threshold_a, threshold_b, n_boot, rng, paired, perm
        )
        sd, max_dev = max_deviations(reps, centre)
        return {
            "sorted": resample.sorted_columns(reps),
            "sd": sd,
            "max_dev": max_dev,
            "centre": centre,
            "bound": bound,
        }

    reps = cache_of(a).get(key, make)
    diff = _original_nec(a, x, threshold_a) - _original_nec(b, x, threshold_b)
    return band_frame(x, diff, reps, level, simultaneous=simultaneous, paired=paired)


def _case_perm(a, b):
    """How b's cases line up with a's (None: the same order), for classifiers with per-case
    costs: known by instance ids or the same ``y_true`` array, as :func:`_check_pair` knows it
    (their samples' weights are the cost weights, not a ``sample_weight`` to refuse)."""
    sa, sb = a.sample, b.sample
    if sa.instance is not None and sb.instance is not None:
        return _aligned(sa, sb)
    if sa.case_token is not None and sa.case_token == sb.case_token:
        return None
    raise ValueError(
        f"{a.name!r} and {b.name!r} are not known to score the same cases in the same "
        f"order. {HOW_TO_PAIR.split(' Or pass')[0]}"
    )


def check_interval_args(level, n_boot, random_state) -> tuple[float, int]:
    """``(level, n_boot)`` checked for an interval from replicates, and ``random_state``'s type:
    a level in (0, 1), at least 2 replicates (one has no spread), None, an int or a Generator.
    """
    level = check_level(level)
    n_boot = check_n_boot(n_boot)
    if n_boot < 2:
        raise ValueError(
            f"n_boot must be at least 2 for an interval (one replicate has no spread), got "
            f"{n_boot!r}. Use at least 500-1000 for a 90 % interval."
        )
    make_rng(random_state)  # refuses a random_state of the wrong type
    return level, n_boot


def paired_replicates_at(
    a, b, pcf, *, threshold_a=None, threshold_b=None, n_boot=1000, random_state=None
):
    """Paired bootstrap replicates of ``NEC_a − NEC_b`` at one pcf.

    The instances are resampled as :func:`difference_band` resamples them (stratified, both
    classifiers' matrices redrawn together, each envelope re-optimized in every replicate
    unless its threshold is given); the same int seed draws the same resamples.

    Returns
    -------
    diff : float
        The difference on the data.
    centre : float
        The same difference computed from the replicates' score bins (equal to ``diff`` up to
        score binning, which only coarsens above 1024 distinct scores).
    reps : ndarray, (n_boot,)
        The replicates of the difference.
    """
    n_boot = check_n_boot(n_boot)
    x = pcf_grid([pcf])
    perm = _check_pair(a, b, True)
    for th, label in ((threshold_a, "threshold_a"), (threshold_b, "threshold_b")):
        if th is not None and (isinstance(th, (str, bool)) or not np.isfinite(np.float64(th))):
            raise ValueError(f"{label} must be a finite number or None, got {th!r}.")
    rng, _ = make_rng(random_state)
    reps, centre, _ = _pair_replicates(a, b, x, threshold_a, threshold_b, n_boot, rng, True, perm)
    diff = _original_nec(a, x, threshold_a) - _original_nec(b, x, threshold_b)
    return float(diff[0]), float(centre[0]), reps[:, 0]


def paired_interval_at(
    a, b, pcf, level=0.90, *, threshold_a=None, threshold_b=None, n_boot=1000, random_state=None
):
    """Pointwise paired percentile interval of ``NEC_a − NEC_b`` at one pcf chosen beforehand.

    Drummond & Holte (2004), sec. 9: resample the instances, so that both classifiers'
    confusion matrices are redrawn together, and take the ``k``-th lowest and highest of the
    B replicate differences, ``k = ceil(B·(1 − level)/2)``. It is the interval for one pcf
    (the decision's); :func:`difference_band` gives the simultaneous band over the whole
    axis, wider by its critical value, which is the right one only where every pcf is read.
    Its coverage, measured, is in ``benchmarks/bench_runner_up_rates.py``.

    Parameters
    ----------
    a, b : Classifier
        As :func:`difference_band` takes them (paired).
    pcf : float in [0, 1]
    level : float in (0, 1), default=0.90
    threshold_a, threshold_b : float, optional
        Hold that classifier at one threshold; without, its envelope is re-optimized.
    n_boot : int >= 2, default=1000
    random_state : None, int or numpy Generator, default=None
        None draws afresh; an int repeats the draws.

    Returns
    -------
    diff, lower, upper : float

    Examples
    --------
    >>> import numpy as np
    >>> import costwidget as cw
    >>> from costwidget.model.uncertainty.paired import paired_interval_at
    >>> y = np.array([0, 1, 1, 0, 1, 0, 0, 1, 0, 1])  # one array: a and b are paired
    >>> a = cw.Classifier.from_scores(y, [.1, .8, .6, .3, .7, .2, .4, .9, .5, .35])
    >>> b = cw.Classifier.from_scores(y, [.2, .9, .4, .1, .8, .3, .6, .7, .5, .45])
    >>> diff, lo, hi = paired_interval_at(a, b, 0.5, n_boot=200, random_state=0)
    >>> bool(lo <= diff <= hi)
    True
    """
    level, n_boot = check_interval_args(level, n_boot, random_state)
    diff, _, reps = paired_replicates_at(
        a,
        b,
        pcf,
        threshold_a=threshold_a,
        threshold_b=threshold_b,
        n_boot=n_boot,
        random_state=random_state,
    )
    lower, upper = percentile_rows(np.sort(reps)[:, None], level)
    return diff, float(lower[0]), float(upper[0])


def significant_intervals(band: pd.DataFrame) -> pd.DataFrame:
    """Runs of grid points where ``band.significant`` holds: ``pcf_lo``, ``pcf_hi``, ``sign``.

    The intervals are those of the band given: a simultaneous band (the
    default of :func:`difference_band`) flags a pcf interval where none is
    with probability at most ``1 - level`` over the whole axis; a pointwise
    band (``simultaneous=False``) only at one pcf chosen beforehand.

    Parameters
    ----------
    band : DataFrame
        With columns ``pcf``, ``lower``, ``upper`` and ``significant``, as
        :func:`difference_band` returns.

    Returns
    -------
    DataFrame
        One row per run of significant grid points: ``pcf_lo``, ``pcf_hi``
        (the first and last such grid point) and ``sign``: +1 where a costs
        more than b (the band is above 0), -1 below. ``attrs`` are the band's
        (``"kind"``, ``"label"``, ...), so a caption can say which band it is.

    Examples
    --------
    >>> import pandas as pd
    >>> from costwidget.model.uncertainty.paired import significant_intervals
    >>> band = pd.DataFrame({"pcf": [0, .25, .5, .75, 1], "lower": [-1, -1, .1, .2, -1],
    ...                      "upper": [1, 1, .3, .4, 1]})
    >>> band["significant"] = (band.lower > 0) | (band.upper < 0)
    >>> significant_intervals(band).values.tolist()
    [[0.5, 0.75, 1.0]]
    >>> significant_intervals(band).sign.tolist()
    [1]
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
    out = pd.DataFrame(rows, columns=["pcf_lo", "pcf_hi", "sign"]).astype(
        {"pcf_lo": float, "pcf_hi": float, "sign": np.int64}
    )
    out.attrs.update(band.attrs)
    return out


def check_pair(a, b, *, paired: bool = True) -> None:
    """Refuse at once a pair that :func:`difference_band` cannot compare (no resampling done).

    Raises ``TypeError``/``ValueError`` with the reason: not classifiers, no
    scores (rates, counts, one confusion matrix), weighted data, or (paired)
    not *known* to score the same cases: neither instance ids on both nor
    the same ``y_true`` array, ids in one classifier only, different labels
    for the same case, or different folds. The widget's difference view runs
    this check before computing.

    Parameters
    ----------
    a, b : Classifier
    paired : bool, default=True

    Examples
    --------
    >>> import numpy as np
    >>> import costwidget as cw
    >>> from costwidget.model.uncertainty.paired import check_pair
    >>> y = np.array([0, 1, 1, 0])
    >>> check_pair(cw.Classifier.from_scores(y, [.1, .8, .6, .3]),
    ...            cw.Classifier.from_scores(y, [.2, .9, .4, .1]))   # the same y: paired
    >>> a = cw.Classifier.from_scores([0, 1, 1, 0], [.1, .8, .6, .3])
    >>> b = cw.Classifier.from_scores([0, 1, 1, 0], [.2, .9, .4, .1])
    >>> check_pair(a, b)
    Traceback (most recent call last):
    ...
    ValueError: a and b are not known to score the same instances in the same order (they were built from different label arrays, without instance ids). Pairing must be known, not guessed from equal labels: give each case an id, instance= (Classifier.from_frame(df, instance='id') or Classifier.from_scores(y, s, instance=ids)), or build both over the same y_true array (from_scores(y, s1) and from_scores(y, s2); costwidget.classifiers_from_predictions(y, {name: score})). Or pass paired=False for the unpaired band.
    """
    if per_case_pair(a, b, (1.0, 1.0, None)):
        check_case_pair(a, b, _case_perm)
        return
    _check_pair(a, b, paired)
