"""The cost of a tuned threshold on cases it was not tuned on: out-of-fold kernels.

The lower envelope scores each operating condition's best threshold on the same cases that
chose it, so it is optimistic. Here every case of fold k is judged by the threshold that is
best (``Classifier.best``: same hull, same crossings, same tie rule) on the *other* folds'
cases pooled, applied as deployed: positive where ``score >= threshold``. Pooling the judged
cases gives one confusion matrix per PCF(+), hence the honest NEC
``x (1 - TP/P) + (1 - x) FP/N``.

Each fold's threshold changes only where its training envelope changes vertex (its
crossings), so TP and FP are constant between the union of all folds' crossings and the
honest NEC is linear there. At a crossing it may jump: the kernels give the value there (the
vertex ``best`` picks: the one optimal just to the right, just to the left at pcf = 1) and the
limit from the left.

A fold is given as *rows*: scores with the positive and negative count (or weight) of each
row. Cases are rows with a count of 1 (or their weight) in one class; a table of counts per
score is rows as they are. Only sums of rows at or above a threshold are read, so both give
the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .envelope import Envelope, envelope_of_counts
from .roc import RocCounts

__all__ = [
    "FoldRows",
    "FoldRule",
    "PooledSteps",
    "case_rows",
    "sorted_case_rows",
    "fold_rule",
    "stratified_codes",
    "table_training",
    "split_table",
    "check_n_splits",
]


@dataclass(frozen=True)
class FoldRows:
    """One fold's rows, sorted by descending score, with running class totals.

    ``pos_upto[i]`` / ``neg_upto[i]`` are the totals of the first ``i`` rows (so index 0 is 0):
    the counts of ``score >= t`` are read at ``i = #rows with score >= t``.
    """

    scores: np.ndarray
    pos_upto: np.ndarray
    neg_upto: np.ndarray

    @classmethod
    def of(cls, scores, pos, neg) -> FoldRows:
        order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
        upto = [np.concatenate(([0], np.cumsum(np.asarray(v)[order]))) for v in (pos, neg)]
        return cls(np.asarray(scores, dtype=np.float64)[order], *upto)

    def counts_at(self, thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(positives, negatives) of ``score >= t`` for each threshold ``t``, as float64."""
        i = np.searchsorted(-self.scores, -np.asarray(thresholds, dtype=np.float64), side="right")
        return (self.pos_upto[i].astype(np.float64), self.neg_upto[i].astype(np.float64))

    @property
    def totals(self) -> tuple[float, float]:
        return float(self.pos_upto[-1]), float(self.neg_upto[-1])


@dataclass(frozen=True)
class FoldRule:
    """The rule refitted without one fold, and that fold's counts under each of its thresholds.

    ``envelope`` is the training envelope (its ``vertex_at`` is ``best``'s choice);
    ``thresholds[j]`` is hull vertex j's threshold; ``tp[j]``, ``fp[j]`` the held-out fold's
    positives and negatives at ``score >= thresholds[j]`` (in the data's units).
    """

    envelope: Envelope
    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray


def fold_rule(
    train: RocCounts, test: FoldRows | None, *, everyone: FoldRows | None = None
) -> FoldRule:
    """The held-out fold ``test`` judged by the thresholds that the training counts choose.

    ``test=None``: the held-out fold is every case (``everyone``) but the training ones, and
    its counts at a training threshold are the counts of all cases there less the training
    counts there (whole counts, so exact), read without building the fold's own rows.
    """
    hull, env = envelope_of_counts(train)
    thresholds = np.asarray(train.thresholds)[hull]
    if test is not None:
        tp, fp = test.counts_at(thresholds)
    else:
        tp, fp = everyone.counts_at(thresholds)
        tp -= train.tp[hull]
        fp -= train.fp[hull]
    return FoldRule(env, thresholds, tp, fp)


def case_rows(is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray | None) -> FoldRows:
    """Cases as rows: a count of 1 (or the case's weight) in its own class."""
    w = np.ones(len(scores), np.int64) if weights is None else weights
    zero = np.zeros((), dtype=w.dtype)
    return FoldRows.of(scores, np.where(is_pos, w, zero), np.where(is_pos, zero, w))


def sorted_case_rows(is_pos: np.ndarray, sorted_scores: np.ndarray, weights) -> FoldRows:
    """:func:`case_rows` of cases already in descending score order (stable within ties)."""
    w = np.ones(len(sorted_scores), np.int64) if weights is None else weights
    zero = np.zeros((), dtype=w.dtype)
    upto = []
    for part in (np.where(is_pos, w, zero), np.where(is_pos, zero, w)):
        out = np.empty(len(part) + 1, dtype=part.dtype)
        out[0] = 0
        np.cumsum(part, out=out[1:])
        upto.append(out)
    return FoldRows(np.asarray(sorted_scores, dtype=np.float64), *upto)


@dataclass(frozen=True)
class PooledSteps:
    """The pooled out-of-fold rates, averaged over repeats, as exact step functions of pcf.

    Each fold's rule holds a held-out count per training hull vertex, and the vertex changes
    only at the rule's crossings, so the sum over folds and repeats is a start value plus one
    jump per crossing: the crossings of all rules are merged once and the jumps summed in
    that order. Nothing is evaluated at another rule's crossings. ``at`` are the merged
    crossings; ``tpr[i]``/``fpr[i]`` the mean rates after the first ``i`` of them.

    Examples
    --------
    >>> import numpy as np
    >>> from costwidget.model.kernels.roc import roc_counts
    >>> a = roc_counts(np.array([True, False]), np.array([0.9, 0.2]))    # fold 0's cases
    >>> b = roc_counts(np.array([True, False]), np.array([0.3, 0.6]))    # fold 1's cases
    >>> rows = lambda pos, s: case_rows(np.array(pos), np.array(s), None)
    >>> rules = [fold_rule(b, rows([True, False], [0.9, 0.2])),
    ...          fold_rule(a, rows([True, False], [0.3, 0.6]))]
    >>> PooledSteps.of([(rules, 2.0, 2.0)]).nec(np.array([0.5])).tolist()  # 0.3 < 0.9 missed
    [0.25]
    """

    at: np.ndarray
    tpr: np.ndarray
    fpr: np.ndarray

    @classmethod
    def of(cls, repeats) -> PooledSteps:
        """From ``(rules, P, N)`` per repeat (P, N: the pooled held-out class totals)."""
        at, jumps, start = [], [[], []], np.zeros(2)
        # Whole counts stay whole until the one division, when every repeat has the
        # same totals (always so for cases without weights): the sums are then exact.
        same = len({(float(p), float(n)) for _, p, n in repeats}) == 1
        for rules, n_pos, n_neg in repeats:
            scale = (1.0, 1.0) if same else (1.0 / n_pos, 1.0 / n_neg)
            for rule in rules:
                at.append(rule.envelope.crossings)
                for c, counts in enumerate((rule.tp, rule.fp)):
                    start[c] += counts[0] * scale[c]
                    jumps[c].append(np.diff(counts) * scale[c])
        at = np.concatenate(at)
        order = np.argsort(at, kind="stable")
        _, n_pos, n_neg = repeats[0]
        totals = (len(repeats) * n_pos, len(repeats) * n_neg) if same else (len(repeats),) * 2
        rates = []
        for c in range(2):
            steps = np.empty(len(at) + 1)
            steps[0] = start[c]
            np.cumsum(np.concatenate(jumps[c])[order], out=steps[1:])
            steps[1:] += start[c]
            rates.append(steps / totals[c])
        return cls(at[order], *rates)

    def _index(self, x: np.ndarray, left: bool) -> np.ndarray:
        # As Envelope.vertex_at: the crossings at or below x, those below 1 at pcf = 1; the
        # limit from the left counts those below x (at x = 0, the value there).
        k = np.searchsorted(self.at, x, side="right")
        below = np.searchsorted(self.at, x, side="left")
        k = np.where(x >= 1.0, below, k)
        return np.where(left & (x > 0), below, k)

    def nec(self, x: np.ndarray, *, left=False, judged_at=None) -> np.ndarray:
        """The mean honest NEC at each pcf ``x`` (``left=True``: the limit from the left; an
        array says it per ``x``). ``judged_at``: the NEC at that PCF(+) instead of the
        thresholds tuned at ``x`` (default ``x`` itself)."""
        x = np.asarray(x, dtype=np.float64)
        k = self._index(x, left)
        q = x if judged_at is None else np.asarray(judged_at, dtype=np.float64)
        return q * (1.0 - self.tpr[k]) + (1.0 - q) * self.fpr[k]

    def knots(self) -> np.ndarray:
        """0, 1 and every crossing inside them, sorted, once each."""
        x = np.unique(np.concatenate(([0.0, 1.0], self.at)))
        return x[(x >= 0.0) & (x <= 1.0)]


def check_n_splits(n_splits) -> int:
    """An int >= 2 (a threshold is chosen on some folds and judged on another)."""
    if isinstance(n_splits, bool) or not isinstance(n_splits, (int, np.integer)) or n_splits < 2:
        raise ValueError(
            f"n_splits must be an int >= 2 (the threshold is chosen on the other "
            f"splits and judged on the one held out), got {n_splits!r}."
        )
    return int(n_splits)


def _fold_sizes(total: int, n_splits: int) -> np.ndarray:
    return total // n_splits + (np.arange(n_splits) < total % n_splits)


def stratified_codes(is_pos: np.ndarray, n_splits: int, rng, *, order=None) -> np.ndarray:
    """A split code per case: each class's cases shuffled and dealt round-robin (as
    ``StratifiedKFold(shuffle=True)``), so that every split holds ``n // n_splits`` or one more
    of each class.

    ``order``: the codes of the cases taken in this order (``codes[order]``), dealt straight
    to their places there. A shuffle's swaps depend only on the length and the random
    stream, so the splits are the same as without it.
    """
    codes = np.empty(len(is_pos), np.int8 if n_splits <= 127 else np.int64)  # 1 byte to compare
    where = None if order is None else np.empty(len(order), np.intp)
    if where is not None:
        where[order] = np.arange(len(order))  # where[i]: case i's place in the order
    for members in (np.flatnonzero(is_pos), np.flatnonzero(~is_pos)):
        places = members if where is None else where[members]
        codes[rng.permutation(places)] = np.arange(len(members)) % n_splits
    return codes


def split_table(pos: np.ndarray, neg: np.ndarray, n_splits: int, rng) -> list:
    """Per split, (pos, neg) counts per row of a table of whole-number counts per score.

    The counts of a stratified split of the cases themselves: each class's cases, dealt into
    splits of sizes ``n // n_splits`` or one more, are a uniformly random partition, so split
    1's counts per score are multivariate hypergeometric, and each next split's, given the
    ones before, the same on what remains. This is the distribution of the counts that
    :func:`stratified_codes` gives on one row per case.
    """
    remaining = [np.asarray(pos, np.int64).copy(), np.asarray(neg, np.int64).copy()]
    sizes = [_fold_sizes(int(r.sum()), n_splits) for r in remaining]
    out = []
    for s in range(n_splits):
        parts = []
        for c in range(2):
            if s == n_splits - 1:
                draw = remaining[c].copy()
            else:
                draw = rng.multivariate_hypergeometric(
                    remaining[c], int(sizes[c][s]), method="marginals"
                )
            remaining[c] -= draw
            parts.append(draw)
        out.append(tuple(parts))
    return out


def table_training(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> RocCounts:
    """The ROC counts of rows (score, pos, neg), as ``Classifier.from_counts`` makes them.

    Rows of the same score are summed; rows with no count make no threshold.
    """
    keep = (pos > 0) | (neg > 0)
    values, inverse = np.unique(scores[keep], return_inverse=True)
    kind = np.int64 if pos.dtype.kind in "biu" and neg.dtype.kind in "biu" else np.float64
    per = [np.bincount(inverse, weights=v[keep], minlength=len(values)) for v in (pos, neg)]
    per = [p.astype(kind) if kind is np.int64 else p for p in per]
    tp, fp = (np.concatenate(([0], np.cumsum(p[::-1]))).astype(kind) for p in per)
    return RocCounts(
        thresholds=np.concatenate(([np.inf], values[::-1])),
        tp=tp,
        fp=fp,
        n_pos=tp[-1].item(),
        n_neg=fp[-1].item(),
    )
