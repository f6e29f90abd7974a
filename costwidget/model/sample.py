"""`ScoredSample`: the cases a classifier was evaluated on, shared by bands, folds and paired tests.

A :class:`~costwidget.model.Classifier` built from scores keeps them here, so
that resampling (bands, difference bands) and fold analyses read one named,
read-only object instead of the classifier's private attributes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ScoredSample"]


@dataclass(frozen=True, eq=False)
class ScoredSample:
    """The evaluation cases of a scored classifier.

    Parameters
    ----------
    is_pos : ndarray of bool, shape (n_samples,)
        True for a case of the positive class.
    scores : ndarray of float64, shape (n_samples,)
        The classifier's score of each case.
    weights : ndarray of float64, shape (n_samples,), or None
        ``sample_weight``, if one was given.
    fold_codes : ndarray of int64, shape (n_samples,), or None
        Index (into ``Classifier.folds``' order) of each case's fold, if folds were given.

    Examples
    --------
    >>> import costwidget as cw
    >>> s = cw.Classifier.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.4, 0.3],
    ...                               folds=["a", "a", "b", "b"]).sample
    >>> s.is_pos.tolist(), s.scores.tolist(), s.weights, s.fold_codes.tolist()
    ([False, True, True, False], [0.2, 0.9, 0.4, 0.3], None, [0, 0, 1, 1])
    >>> s.n_samples
    4
    """

    is_pos: np.ndarray
    scores: np.ndarray
    weights: np.ndarray | None = None
    fold_codes: np.ndarray | None = None

    def __post_init__(self):
        # Shared by every band and copy of the classifier, so held as read-only views
        # (views: the caller's own arrays stay writable and nothing is copied).
        for field in ("is_pos", "scores", "weights", "fold_codes"):
            arr = getattr(self, field)
            if arr is not None:
                view = arr.view()
                view.flags.writeable = False
                object.__setattr__(self, field, view)

    @property
    def n_samples(self) -> int:
        """Number of cases."""
        return len(self.scores)

    def subset(self, mask: np.ndarray) -> ScoredSample:
        """The cases where ``mask`` holds (without fold codes): one fold's sample."""
        return ScoredSample(self.is_pos[mask], self.scores[mask],
                            None if self.weights is None else self.weights[mask])
