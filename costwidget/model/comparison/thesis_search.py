"""The thesis's "optimized search" for a threshold (Al-Saffar 2018, secs. 4.3.2 and 4.5), kept as a
reference to compare the exact optimal thresholds of :mod:`.ranges` with (layer 4, on arrays).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
import pandas as pd

from ..kernels.range_checks import check_unit
from ..kernels.validation import (
    as_1d,
    check_binary_labels,
    check_finite,
    check_number,
    check_same_length,
)

__all__ = ["ThesisSearch", "thesis_optimized_search"]


ThesisSearch = namedtuple("ThesisSearch", ["fp_cost", "threshold", "tmc"])
ThesisSearch.__doc__ = """Result of :func:`thesis_optimized_search` at one FP cost.

``threshold`` is on P(negative | x), with the thesis's rules; ``tmc`` is in percent."""

# Scores and thresholds are compared after rounding to this many decimals, so that a
# decimal tie on paper (P(negative) 0.7 against threshold 0.7) is a tie here too.
_SEARCH_DECIMALS = 12


def thesis_optimized_search(y_true, y_score, fp_cost, *, step=1e-5, pos_label=None):
    """The thesis's "optimized search" for the optimal threshold (a heuristic), as a reference.

    Faithful to Al-Saffar (2018), secs. 4.3.2 and 4.5. With FNcost = 1 - x and
    FPcost = x, the search starts at the cutoff ``FNcost / (FNcost + FPcost)``
    on the posterior of the *negative* class, P(negative | x) = 1 - y_score,
    and scans **one side only**, in steps of ``step``:

    * FNcost >= 0.5: thresholds t = cutoff, cutoff + step, ..., 1; an instance
      is negative iff P(negative | x) >= t, else positive;
    * FNcost < 0.5: thresholds t = cutoff, cutoff - step, ..., 0; an instance
      is positive iff P(negative | x) <= t, else negative.

    At each t it computes ``TMC = FNrate·FNcost + FPrate·FPcost`` and keeps
    the smallest (the first one met on a tie). Every classification it tries
    is an ROC point, so its TMC is never below the exact MTMCS
    (:func:`mtmcs`); it is above it when the optimal threshold lies on the
    side it does not search, or between two of its steps.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
        Probability of the positive class, in [0, 1].
    fp_cost : float or array-like
        Normalized FP cost(s) x in [0, 1].
    step : float, default 1e-5
        The thesis's step (sec. 4.3.2).
    pos_label : label, optional
        As in scikit-learn.

    Returns
    -------
    ThesisSearch or DataFrame
        For a scalar ``fp_cost`` a ``ThesisSearch(fp_cost, threshold, tmc)``
        (``threshold`` on P(negative | x), ``tmc`` in percent); for an array a
        DataFrame with those columns.

    Examples
    --------
    These scores separate the classes perfectly (MTMCS is 0 everywhere), but
    every one is below 0.5. At x = 0.4 the search goes up from the cutoff
    0.6 on P(negative) and finds the separating rule; at x = 0.6 it goes down
    from 0.4, only ever flags scores >= 0.6, and misses it:

    >>> import costwidget as cw
    >>> y, s = [0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4]
    >>> cw.thesis_optimized_search(y, s, 0.4, step=0.01)
    ThesisSearch(fp_cost=0.4, threshold=0.71, tmc=0.0)
    >>> cw.thesis_optimized_search(y, s, 0.6, step=0.01)
    ThesisSearch(fp_cost=0.6, threshold=0.4, tmc=40.0)
    >>> cw.Classifier.from_scores(y, s).mtmcs(0.6)
    0.0
    """
    scores = check_finite(as_1d(y_score, "y_score"), "y_score")
    y_arr = as_1d(y_true, "y_true")
    check_same_length(y_true=y_arr, y_score=scores)
    if np.any((scores < 0) | (scores > 1)):
        bad = float(scores[np.flatnonzero((scores < 0) | (scores > 1))[0]])
        raise ValueError(
            f"y_score must be probabilities of the positive class in [0, 1] (the "
            f"thesis's search scans thresholds on P(negative) = 1 - y_score), "
            f"got {bad}."
        )
    step = check_number(step, "step")
    if not 0 < step <= 1:
        raise ValueError(f"step must lie in (0, 1], got {step!r}.")
    x = check_unit(fp_cost, "fp_cost")
    is_pos, _, _ = check_binary_labels(y_arr, pos_label)
    p_neg = np.round(1.0 - scores, _SEARCH_DECIMALS)
    pos_sorted, neg_sorted = np.sort(p_neg[is_pos]), np.sort(p_neg[~is_pos])
    results = [search_one(float(v), step, pos_sorted, neg_sorted) for v in np.atleast_1d(x).ravel()]
    if np.ndim(x) == 0:
        return results[0]
    return pd.DataFrame(results, columns=list(ThesisSearch._fields))


def search_one(fp_cost: float, step: float, pos_sorted, neg_sorted) -> ThesisSearch:
    t, tmc = search_curve(fp_cost, step, pos_sorted, neg_sorted)
    i = int(np.argmin(tmc))  # the first minimum met, as a scan keeping the smallest would
    return ThesisSearch(fp_cost=fp_cost, threshold=float(t[i]), tmc=float(tmc[i]))


def search_curve(fp_cost: float, step: float, pos_sorted, neg_sorted):
    """(thresholds on P(negative), TMC in percent) in the order the thesis's search visits them.

    ``pos_sorted``/``neg_sorted``: sorted P(negative | x) of the positives and negatives.
    """
    fn_cost = 1.0 - fp_cost
    cutoff = fn_cost / (fn_cost + fp_cost)
    n_pos, n_neg = len(pos_sorted), len(neg_sorted)
    upward = fn_cost >= 0.5
    room = (1.0 - cutoff) if upward else cutoff
    n_steps = max(0, math.ceil(room / step - 1e-9))
    k = np.arange(n_steps + 1)
    t = cutoff + k * step if upward else cutoff - k * step
    # The last threshold is the end of the range itself ("repeat until threshold = 1" / "= 0").
    t = np.round(np.clip(t, 0.0, 1.0), _SEARCH_DECIMALS)
    if upward:
        # Negative iff P(neg) >= t: FN are positives with P(neg) >= t, FP negatives below t.
        fn = n_pos - np.searchsorted(pos_sorted, t, side="left")
        fp = np.searchsorted(neg_sorted, t, side="left")
    else:
        # Positive iff P(neg) <= t: FN are positives above t, FP negatives at or below t.
        fn = n_pos - np.searchsorted(pos_sorted, t, side="right")
        fp = np.searchsorted(neg_sorted, t, side="right")
    return t, 100.0 * (fn / n_pos * fn_cost + fp / n_neg * fp_cost)
