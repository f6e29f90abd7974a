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
"""

from __future__ import annotations

import numpy as np

from .bands import percentile_rows

__all__ = ["case_paired_interval"]


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
    n = len(is_pos)
    ones = np.ones(n)
    diff = money_a(ones) - money_b(ones)
    rng = np.random.default_rng(random_state)
    classes = [np.flatnonzero(~is_pos), np.flatnonzero(is_pos)]
    reps = np.empty(n_boot)
    for r in range(n_boot):
        drawn = [idx[rng.integers(0, len(idx), len(idx))] for idx in classes if len(idx)]
        k = np.bincount(np.concatenate(drawn), minlength=n).astype(np.float64)
        reps[r] = money_a(k) - money_b(k)
    lower, upper = percentile_rows(np.sort(reps)[:, None], level)
    return float(diff), float(lower[0]), float(upper[0])
