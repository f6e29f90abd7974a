"""The paired interval of two rules' money per case, for classifiers with per-case costs.

As :func:`~costwidget.model.uncertainty.paired.paired_interval_at` (Drummond & Holte (2004),
sec. 9), the cases are resampled and both classifiers are redrawn together; here each case
keeps its own costs and ``sample_weight``, and each replicate's cost is money per case, all
four outcomes counted (:mod:`costwidget.model.base.case_costs`). The bootstrap is stratified by
the true class: in every replicate the negatives are drawn with replacement from the negatives
(``rng.integers(0, n_neg, n_neg)`` into them, in data order), then the positives likewise, with
``rng = np.random.default_rng(random_state)``. A rule held at a threshold flags the same scores
in every replicate; a classifier not held is re-optimized in each (the cheapest threshold on the
replicate's cases). The interval is the percentile one of the replicates' differences.

:func:`case_difference_band` is the difference view's band (Drummond & Holte (2004), sec. 9)
for such classifiers: ``NEC_a − NEC_b`` over PCF(+) on the cost pane of the twins, each
replicate's cases put on the pane by the whole data's affine map
(:mod:`~costwidget.model.uncertainty.case_folds`), so that at the twins' PCF(+) the difference
is ``(money_a − money_b)·W / (P + N)``: money per case, scaled as the cost pane. Its draws are
this module's, stratified by fold too when the classifiers have folds (strata
``2·fold + class`` in increasing order, as :func:`~costwidget.difference_band` resamples).
"""

from __future__ import annotations

import numpy as np

from ..resampling import resample
from .bands import check_n_boot, make_rng, percentile_rows
from .case_folds import PaneMoney, lines_envelope
from .difference_limits import band_frame, max_deviations

__all__ = [
    "case_paired_interval",
    "case_difference_band",
    "check_case_pair",
    "draw_counts",
    "per_case_pair",
]


def draw_counts(strata, rng):
    """One replicate's draws: how many times each case is drawn, ``(n,)`` float.

    Each stratum (in increasing order of its code) draws ``rng.integers(0, n_s, n_s)`` into its
    cases, in data order: the negatives and then the positives for ``strata = is_pos``.

    Examples
    --------
    >>> import numpy as np
    >>> k = draw_counts(np.array([0, 1, 0, 1]), np.random.default_rng(0))
    >>> int(k[[0, 2]].sum()), int(k[[1, 3]].sum())   # each stratum keeps its size
    (2, 2)
    """
    groups = [np.flatnonzero(strata == code) for code in np.unique(strata)]
    drawn = [idx[rng.integers(0, len(idx), len(idx))] for idx in groups]
    return np.bincount(np.concatenate(drawn), minlength=len(strata)).astype(np.float64)


def _money_of(clf, m_fn, m_fp, p_pos, threshold):
    """A function of the replicate's case counts ``k``: the classifier's money per case, at
    ``threshold`` or (None) at the cheapest threshold of the replicate."""
    cc = clf.case_costs
    flag, keep = cc.flag_and_pass(m_fn, m_fp)
    w = cc.case_weights(p_pos)
    scores = np.asarray(clf.sample.scores, dtype=np.float64)
    if threshold is not None:
        per_case = np.where(scores >= threshold, flag, keep)
        return lambda k: float(np.sum(k * w * per_case) / np.sum(k * w))
    order = np.argsort(-scores, kind="stable")
    desc = scores[order]
    ends = np.flatnonzero(np.append(desc[1:] != desc[:-1], True))
    gain, keep_w, w_sorted = (flag - keep)[order], w * keep, w[order]

    def cheapest(k):
        v = k[order] * w_sorted
        flagged = np.cumsum(v * gain)[ends]  # what flagging down to each distinct score adds
        return float((np.sum(k * keep_w) + min(0.0, flagged.min())) / np.sum(k * w))

    return cheapest


def case_paired_interval(
    a, b, *, m_fn, m_fp, p_pos, threshold_a=None, threshold_b=None, level, n_boot, random_state
):
    """``(diff, lower, upper)`` of money per case ``a − b``: on the data, and the percentile
    interval of the stratified case bootstrap (see the module). ``threshold_a``/``_b`` hold
    that classifier at one threshold; None re-optimizes it in each replicate.

    Examples
    --------
    >>> import costwidget as cw
    >>> y, amount = [1, 0, 1, 0, 1, 0], [50.0, 0, 20.0, 0, 5.0, 0]
    >>> a = cw.Classifier.from_scores(y, [.9, .1, .8, .4, .3, .2], name="a", cost_fn=amount,
    ...                               cost_fp=2.0)
    >>> b = cw.Classifier.from_scores(y, [.5, .6, .8, .4, .3, .9], name="b", cost_fn=amount,
    ...                               cost_fp=2.0)
    >>> diff, lo, hi = case_paired_interval(a, b, m_fn=1.0, m_fp=1.0, p_pos=None, level=0.9,
    ...                                     n_boot=200, random_state=0)
    >>> round(diff, 6), bool(lo <= diff <= hi)   # a: one fee (2 / 6); b: three fees (6 / 6)
    (-0.666667, True)
    """
    money_a = _money_of(a, m_fn, m_fp, p_pos, threshold_a)
    money_b = _money_of(b, m_fn, m_fp, p_pos, threshold_b)
    is_pos = a.case_costs.is_pos
    if len(b.case_costs.is_pos) != len(is_pos) or np.any(b.case_costs.is_pos != is_pos):
        raise ValueError(
            f"{a.name!r} and {b.name!r} are not scored on the same cases (their labels "
            "differ): the paired interval resamples the cases both classifiers scored."
        )
    ones = np.ones(len(is_pos))
    diff = money_a(ones) - money_b(ones)
    rng = np.random.default_rng(random_state)
    strata = is_pos.astype(np.int64)
    reps = np.empty(n_boot)
    for r in range(n_boot):
        k = draw_counts(strata, rng)
        reps[r] = money_a(k) - money_b(k)
    lower, upper = percentile_rows(np.sort(reps)[:, None], level)
    return float(diff), float(lower[0]), float(upper[0])


def per_case_pair(a, b, setting) -> bool:
    """Whether the pair has per-case costs (then both must: :func:`check_case_pair`); refuses
    a setting (``(cost_fn, cost_fp, p_pos)``) of per-class costs.

    Examples
    --------
    >>> import costwidget as cw
    >>> plain = cw.Classifier.from_scores([1, 0], [.8, .3])
    >>> per_case_pair(plain, plain, (1.0, 1.0, None))
    False
    >>> per_case_pair(plain, plain, (2.0, 1.0, None))
    Traceback (most recent call last):
    ...
    ValueError: cost_fn=, cost_fp= and p_pos= of difference_band are for classifiers with per-case costs; the difference of per-class costs covers every PCF(+).
    """
    costs = [getattr(c, "case_costs", None) is not None for c in (a, b)]
    if any(costs):
        return True
    if setting != (1.0, 1.0, None):
        raise ValueError(
            "cost_fn=, cost_fp= and p_pos= of difference_band are for classifiers with "
            "per-case costs; the difference of per-class costs covers every PCF(+)."
        )
    return False


def check_case_pair(a, b, perm_of):
    """Refuse a pair with per-case costs that is not the same cases with the same costs;
    ``perm`` lines b's cases up with a's (None: the same order).

    ``perm_of(a, b)`` says how the cases pair (instance ids, or the same ``y_true`` array, as
    :func:`~costwidget.model.uncertainty.paired.check_pair` knows it, refusing a pair not
    known); then each case must have the same class, ``sample_weight`` and four costs in
    both, and both the same folds.

    Examples
    --------
    >>> import numpy as np
    >>> import costwidget as cw
    >>> y = np.array([1, 0, 1, 0])
    >>> a = cw.Classifier.from_scores(y, [.9, .2, .6, .4], name="a", cost_fn=5.0, cost_fp=1.0)
    >>> b = cw.Classifier.from_scores(y, [.8, .3, .5, .1], name="b", cost_fn=5.0, cost_fp=2.0)
    >>> check_case_pair(a, b, lambda a, b: None)
    Traceback (most recent call last):
    ...
    ValueError: 'a' and 'b' differ in the cost_tp (positives) or cost_fp (negatives) of their cases (first at case 1): a difference in money per case compares classifiers of the same cases with the same costs. Build both from the same rows and cost columns.
    """
    for clf, label in ((a, "a"), (b, "b")):
        cc = getattr(clf, "case_costs", None)
        if cc is None:
            raise ValueError(
                f"{label} ({clf.name!r}) has no per-case costs but the other has: their "
                "costs are not in the same units. Build both with the same cost_fn=/cost_fp=/"
                "cost_tp=/cost_tn=."
            )
        if not hasattr(cc, "tp"):
            raise ValueError(
                f"{label} ({clf.name!r}) has per-case costs summed in a database (per score, "
                "not per case): the difference band resamples each case with its costs. Load "
                "the rows with Classifier.from_frame(..., cost_fn='col')."
            )
    perm = perm_of(a, b)
    sa, sb = a.sample, b.sample
    _check_same_costs(a, b, perm)
    fa, fb = sa.fold_codes, sb.fold_codes
    fb = fb if perm is None or fb is None else fb[perm]
    if (fa is None) != (fb is None) or (
        fa is not None and not (list(a.folds) == list(b.folds) and np.array_equal(fa, fb))
    ):
        raise ValueError(
            f"{a.name!r} and {b.name!r} have different folds: the paired bootstrap draws "
            "within each fold; give both the same folds= (or neither)."
        )
    return perm


def _check_same_costs(a, b, perm):
    """Refuse unless every case has the same class, weight and the costs that can count: a
    positive's ``cost_fn``/``cost_tp``, a negative's ``cost_fp``/``cost_tn``."""
    ca, cb = a.case_costs, b.case_costs
    if ca.n_samples != cb.n_samples:
        raise ValueError(
            f"{a.name!r} has {ca.n_samples} cases and {b.name!r} {cb.n_samples}: the "
            "difference band compares classifiers of the same cases."
        )

    def take(arr):
        return np.asarray(arr) if perm is None else np.asarray(arr)[perm]

    pos = ca.is_pos
    pairs = [
        ("class", pos, take(cb.is_pos)),
        ("sample_weight", ca.case_weights(), take(cb.case_weights())),
    ]
    if np.array_equal(pos, pairs[0][2]):  # else the class is the difference to name
        (flag_a, keep_a), (flag_b, keep_b) = ca.flag_and_pass(), cb.flag_and_pass()
        pairs.append(("cost_tp (positives) or cost_fp (negatives)", flag_a, take(flag_b)))
        pairs.append(("cost_fn (positives) or cost_tn (negatives)", keep_a, take(keep_b)))
    for what, va, vb in pairs:
        if not np.array_equal(va, vb):
            i = int(np.flatnonzero(np.asarray(va) != np.asarray(vb))[0])
            raise ValueError(
                f"{a.name!r} and {b.name!r} differ in the {what} of their cases (first at "
                f"case {i}): a difference in money per case compares classifiers of the same "
                "cases with the same costs. Build both from the same rows and cost columns."
            )


def _pane_values(money, k, x, threshold):
    """NEC on the pane at ``x`` of the cases counted ``k``: the lower envelope of their lines
    (each side re-optimized exactly), or the line at ``threshold``."""
    th, u, v, off = money.lines(count=k)
    if threshold is None:
        return lines_envelope(u, v).nec(x) + off
    j = np.searchsorted(-th, -float(threshold), side="right") - 1  # last threshold >= it
    return off + (1.0 - x) * u[j] + x * v[j]


def _case_strata(clf):
    is_pos = clf.case_costs.is_pos.astype(np.int64)
    folds = clf.sample.fold_codes
    return is_pos if folds is None else 2 * folds + is_pos


def case_difference_band(
    perm_of, a, b, x, level, thresholds, n_boot, random_state, paired, simultaneous, setting
):
    """:func:`~costwidget.difference_band` of two classifiers with per-case costs (see the
    module): ``diff`` on the data, the band from ``n_boot`` replicates drawn by
    :func:`draw_counts` (with ``paired=False`` a's and b's draws in turn, each its own);
    ``perm_of`` pairs the cases (:func:`check_case_pair`).

    Examples
    --------
    >>> import numpy as np
    >>> import costwidget as cw
    >>> y = np.array([1, 0, 1, 0, 1, 0, 1, 0])   # one array: the same cases in both
    >>> amount = [50.0, 0, 20.0, 0, 5.0, 0, 8.0, 0]
    >>> s_a, s_b = [.9, .1, .8, .4, .3, .2, .7, .6], [.5, .6, .8, .4, .3, .9, .2, .1]
    >>> a = cw.Classifier.from_scores(y, s_a, name="a", cost_fn=amount, cost_fp=2.0)
    >>> b = cw.Classifier.from_scores(y, s_b, name="b", cost_fn=amount, cost_fp=2.0)
    >>> band = cw.difference_band(a, b, grid=[0.5, 83 / 91], n_boot=200, random_state=0)
    >>> m = band.attrs["per_case"]   # P = 83, N = 8, W = 8: PCF(+) 83 / 91
    >>> round(float(band["diff"].iloc[1] * m["scale"]), 6)   # a: 4 / 8 per case, b: 6 / 8
    -0.25
    """
    n_boot = check_n_boot(n_boot)
    perm = check_case_pair(a, b, perm_of)
    money_a = PaneMoney.of(a, *setting)
    money_b = PaneMoney.of(b, *setting).taken(perm, money_a.totals)
    th_a, th_b = thresholds
    ones = np.ones(len(money_a.scores))
    centre = _pane_values(money_a, ones, x, th_a) - _pane_values(money_b, ones, x, th_b)
    rng, _ = make_rng(random_state)
    strata = _case_strata(a)
    reps = np.empty((n_boot, len(x)))
    for r in range(n_boot):
        k_a = draw_counts(strata, rng)
        k_b = k_a if paired else draw_counts(strata, rng)
        reps[r] = _pane_values(money_a, k_a, x, th_a) - _pane_values(money_b, k_b, x, th_b)
    sd, max_dev = max_deviations(reps, centre)
    drawn = {
        "sorted": resample.sorted_columns(reps),
        "sd": sd,
        "max_dev": max_dev,
        "centre": centre,
        "bound": 0.0,
    }
    out = band_frame(x, centre, drawn, level, simultaneous=simultaneous, paired=paired)
    big_p, big_n, floor, total = money_a.totals
    out.attrs["per_case"] = {
        "cost_fn": float(setting[0]),
        "cost_fp": float(setting[1]),
        "p_pos": None if setting[2] is None else float(setting[2]),
        "pcf": big_p / (big_p + big_n),
        "scale": (big_p + big_n) / total,
        "units": "money per case, scaled as the cost pane",
    }
    return out
