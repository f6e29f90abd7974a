"""Classifiers from class counts per score: the small table a ``GROUP BY score`` returns.

An ROC curve, its convex hull and the lower envelope depend on the data only
through the number of positives and negatives at each distinct score: the
point of threshold ``t`` is the sum of the counts of the scores ``>= t``. So
a table ``(score, n_pos, n_neg)`` of any length, in any order, with repeated
scores summed, gives exactly the classifier that
:meth:`Classifier.from_scores` gives on the cases it counts.

Counts that are all whole numbers are summed in int64, as ``from_scores``
counts cases without weights, so that the hull is exact. Other non-negative
weights are summed in float64 in the order of a stable descending sort of the
rows, the order in which ``from_scores`` sums ``sample_weight``: one row per
case then gives the same floats bit for bit.

The aggregation layer (:mod:`costwidget.sources`) also passes *groups* of
scores, e.g. scores rounded to a few decimals. A group is one ROC point whose
threshold is the lowest raw score in it: because rounding is monotone, "raw
score >= that lowest score" selects exactly the groups at or above it. Each
such classifier carries :attr:`envelope_error_bound`, see
:func:`costwidget.model.kernels.rounding.merge_bound`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .roc import RocCounts
from .rounding import merge_bound
from .validation import as_1d, check_finite, check_same_length

__all__ = ["FoldCounts", "counts_classifier", "check_counts"]

# Whole-number counts above this are summed in float64 (int64 could overflow).
_INT_MAX = 2.0**62


@dataclass(frozen=True)
class FoldCounts:
    """What the stratified bootstrap needs of a classifier built from counts.

    ``folds`` is empty without folds (the whole table is one stratum per
    class). With folds it holds, per fold in the order of ``clf.folds``,
    ``(index, pos, neg)``: increasing indices into the classifier's distinct
    scores (0 = the highest, i.e. ROC point ``index + 1``) and that fold's
    class counts there. ``group_high``, for merged (rounded) scores, is the
    highest raw score of each distinct score's group: a threshold between a
    group's lowest and highest raw score cannot be evaluated from counts.
    """

    folds: tuple = ()
    group_high: np.ndarray | None = None


def check_counts(values, name: str, n: int, *, weights: bool = False) -> np.ndarray:
    """Non-negative finite counts: integers (bool and unsigned kept as they are, to be summed
    in int64 later) when all are whole numbers, else float64. ``weights=True`` keeps them
    float64 even when whole, as ``from_scores`` treats ``sample_weight``."""
    arr = as_1d(values, name)
    if len(arr) != n:
        raise ValueError(
            f"{name} has {len(arr)} entries but score has {n}; give one count per row."
        )
    if weights:
        arr = check_finite(arr.astype(np.float64, copy=False), name)
    elif arr.dtype.kind == "b":  # cannot be negative, nor sum beyond n: no check, no copy
        return arr
    if arr.dtype.kind == "u":
        bad = np.zeros(0, dtype=bool)
    elif arr.dtype.kind == "i":
        bad = arr < 0
    else:
        arr = check_finite(arr, name)
        bad = arr < 0
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{name} has {int(bad.sum())} negative count(s) (first at row {first}: "
            f"{arr[first].item()!r}); counts and weights must be >= 0."
        )
    if not weights and arr.dtype.kind == "f" and np.all(arr == np.floor(arr)):
        arr = arr.astype(np.int64) if arr.sum() < _INT_MAX else arr
    return arr


def _common_dtype(pos: np.ndarray, neg: np.ndarray):
    """Both int (summed in int64) or both float64. Whole-number counts whose total could
    overflow int64 are summed in float64 (bool counts total at most their length)."""
    if pos.dtype.kind in "biu" and neg.dtype.kind in "biu":
        total = sum(float(a.sum(dtype=np.float64)) for a in (pos, neg) if a.dtype.kind != "b")
        if total < _INT_MAX:
            return pos, neg
    return pos.astype(np.float64), neg.astype(np.float64)


def _sum_kind(counts: np.ndarray):
    """The dtype counts are summed in: int64 for integer counts of any width, else float64."""
    return np.int64 if counts.dtype.kind in "biu" else np.float64


def _group(key, pos, neg, low, high):
    """Rows summed per distinct key, highest key first.

    Returns (thresholds, tp, fp, merged, high): the ROC points from
    (+inf, 0, 0) on, one per group: its threshold (the lowest ``low`` of the
    group) and the cumulative counts down to it; and per group whether it
    holds more than one distinct raw score and its highest raw score (both
    None without ``low``/``high``). Rows whose counts are both zero are
    dropped first, as ``from_scores`` drops cases of weight 0, so they make no
    threshold.
    """
    keep = (pos > 0) | (neg > 0)
    if not keep.all():
        key, pos, neg = key[keep], pos[keep], neg[keep]
        low = None if low is None else low[keep]
        high = None if high is None else high[keep]
    # Engines often return the rows sorted already; a check is far cheaper than a sort.
    if len(key) > 1 and not np.all(key[1:] <= key[:-1]):
        order = np.argsort(-key, kind="stable")
        key, pos, neg = key[order], pos[order], neg[order]
        low = None if low is None else low[order]
        high = None if high is None else high[order]
    n = len(key)
    ends = np.ones(n, dtype=bool)
    np.not_equal(key[1:], key[:-1], out=ends[:-1])
    every_row = bool(ends.all())  # e.g. continuous scores: no gather needed
    end_idx = None if every_row else np.flatnonzero(ends)

    def with_origin(values, origin):
        """``origin`` then the values at each group's last row, written in one buffer."""
        size = n if every_row else len(end_idx)
        out = np.empty(size + 1, dtype=values.dtype)
        out[0] = origin
        if every_row:
            out[1:] = values
        else:
            np.take(values, end_idx, out=out[1:])
        return out

    def running(counts):
        """(0, then the cumulative counts at each group's last row): the summation order of
        from_scores, so one row per case matches it exactly."""
        kind = _sum_kind(counts)
        if every_row:  # summed straight into the result: no temporary of n rows
            out = np.empty(n + 1, dtype=kind)
            out[0] = 0
            np.cumsum(counts, dtype=kind, out=out[1:])
            return out
        return with_origin(np.cumsum(counts, dtype=kind), 0)

    tp, fp = running(pos), running(neg)
    if low is None:
        return with_origin(key, np.inf), tp, fp, None, None
    if every_row:
        lo, hi = low, high
    else:
        starts = np.concatenate(([0], end_idx[:-1] + 1))
        lo, hi = np.minimum.reduceat(low, starts), np.maximum.reduceat(high, starts)
    thresholds = np.concatenate(([np.inf], lo))
    return thresholds, tp, fp, hi > lo, hi


# RocCounts may carry a power-of-two scale of weighted counts (roc.py).
_SCALED = "exponent" in getattr(RocCounts, "__dataclass_fields__", {})


def _scale(pos, neg):
    """Weights scaled exactly by a power of two so that the largest is in [0.5, 1), as
    ``from_scores`` scales ``sample_weight``: sums then neither overflow nor go subnormal."""
    if pos.dtype.kind in "biu" or not _SCALED:
        return pos, neg, 0
    top = max(pos.max(initial=0.0), neg.max(initial=0.0))
    if top == 0:
        return pos, neg, 0
    exponent = int(np.frexp(top)[1])
    return np.ldexp(pos, -exponent), np.ldexp(neg, -exponent), exponent


def _roc(thresholds, tp, fp, exponent) -> RocCounts:
    extra = {"exponent": exponent} if _SCALED else {}
    return RocCounts(
        thresholds=thresholds, tp=tp, fp=fp, n_pos=tp[-1].item(), n_neg=fp[-1].item(), **extra
    )


def _check_both_classes(tp, fp, where: str) -> None:
    for total, cls, col in ((tp, "positive", "n_pos"), (fp, "negative", "n_neg")):
        if total[-1] == 0:
            raise ValueError(
                f"{where} has no {cls} cases ({col} sums to 0); both classes are "
                f"needed to estimate TPR and FPR."
            )


def _build(cls, key, pos, neg, low, high, *, name, pos_label, where, folds=None, strata=()):
    """The classifier of these rows; ``folds``/``strata``: its fold classifiers and counts."""
    pos, neg, exponent = _scale(pos, neg)
    th, tp, fp, merged, group_high = _group(key, pos, neg, low, high)
    _check_both_classes(tp, fp, where)
    bound = 0.0
    if merged is not None and merged.any():
        per_pos, per_neg = np.diff(tp), np.diff(fp)
        bound = merge_bound(per_pos[merged], per_neg[merged], tp[-1], fp[-1])
    return cls(
        counts=_roc(th, tp, fp, exponent),
        name=name,
        pos_label=pos_label,
        folds=folds,
        score_counts=FoldCounts(folds=tuple(strata), group_high=group_high),
        envelope_error_bound=bound,
    )


def counts_classifier(
    cls,
    score,
    n_pos,
    n_neg,
    *,
    name=None,
    pos_label=None,
    folds=None,
    low=None,
    high=None,
    score_name="score",
    weights=False,
    fold_labels=None,
):
    """Implementation of :meth:`Classifier.from_counts`, and of the aggregation layer.

    ``score`` is the sort key of each row. The aggregation layer passes the
    rounded score there, with ``low``/``high`` the lowest and highest raw
    score of each row: a group's threshold is then its lowest raw score, and
    groups holding several raw scores count towards the error bound.
    ``weights=True`` (sums of ``sample_weight``) keeps the counts float64
    even where they are whole, so that the classifier is the one
    ``from_scores(..., sample_weight=)`` gives, and bands are refused as there.
    ``fold_labels`` (a sequence indexed by fold value) names the folds in
    :attr:`Classifier.folds` when ``folds`` holds codes.
    """
    key = check_finite(as_1d(score, score_name), score_name)
    n = len(key)
    pos, neg = _common_dtype(
        check_counts(n_pos, "n_pos", n, weights=weights),
        check_counts(n_neg, "n_neg", n, weights=weights),
    )
    if (low is None) != (high is None):
        raise ValueError("low and high go together.")
    if low is not None:
        low = check_finite(as_1d(low, "low"), "low")
        high = check_finite(as_1d(high, "high"), "high")
        check_same_length(**{score_name: key, "low": low, "high": high})
    if folds is None:
        return _build(
            cls, key, pos, neg, low, high, name=name, pos_label=pos_label, where="The table"
        )
    fold_arr = as_1d(folds, "folds")
    check_same_length(**{score_name: key, "folds": fold_arr})
    if fold_arr.dtype.kind == "f" and np.isnan(fold_arr).any():
        raise ValueError(
            f"folds has missing values (NaN), first at row "
            f"{int(np.flatnonzero(np.isnan(fold_arr))[0])}."
        )
    if fold_arr.dtype.kind == "O" and any(v is None for v in fold_arr):
        raise ValueError("folds has missing values (None).")
    labels, codes = np.unique(fold_arr, return_inverse=True)
    # Every fold is checked before anything is built, so an error leaves nothing behind.
    parts = []
    for k, label in enumerate(labels.tolist()):
        m = codes == k
        part = (
            key[m],
            pos[m],
            neg[m],
            None if low is None else low[m],
            None if high is None else high[m],
        )
        _, tp, fp, _, _ = _group(*part)
        _check_both_classes(tp, fp, f"Fold {label!r}")
        parts.append((label, part))
    pooled_keys = _distinct_keys_desc(key, pos, neg)
    fold_clfs, strata = {}, []
    for label, part in parts:
        fold_clf = _build(cls, *part, name=name, pos_label=pos_label, where=f"Fold {label!r}")
        fold_clfs[label if fold_labels is None else fold_labels[label]] = fold_clf
        fold_keys = _distinct_keys_desc(part[0], part[1], part[2])
        index = np.searchsorted(-pooled_keys, -fold_keys)
        fold_roc = fold_clf.counts
        strata.append((index, np.diff(fold_roc.tp), np.diff(fold_roc.fp)))
    return _build(
        cls,
        key,
        pos,
        neg,
        low,
        high,
        name=name,
        pos_label=pos_label,
        where="The table",
        folds=fold_clfs,
        strata=strata,
    )


def _distinct_keys_desc(key, pos, neg) -> np.ndarray:
    """Distinct keys of the rows with a non-zero count, highest first (one per ROC point)."""
    k = np.unique(key[(pos > 0) | (neg > 0)])
    return k[::-1]
