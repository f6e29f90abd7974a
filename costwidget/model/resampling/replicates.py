"""Bootstrap replicates of an envelope, and the cache that keeps them (layer 1).

Replicates are built from resampling units (a stratum, a score bin, a count): the bootstrap
of scored cases (:mod:`.bands`) and of counts per score (:mod:`.counts_band`) both end here,
so neither imports the other. Nothing here knows ``Classifier``.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict

import numpy as np

from . import bootstrap_counts, resample

__all__ = [
    "ReplicateCache",
    "envelope_bins",
    "replicates_from_units",
    "PRE_BINS_PER_CLASS",
    "ENVELOPE_MAX_LOSS",
]

_CACHE_SIZE = 8


class ReplicateCache:
    """A few sorted replicate matrices, most recently used last; safe to share between threads.

    A band may be computed in a worker thread while another thread asks for
    it: the lock guards the store, and a key being computed is computed once
    (later callers wait for it). Keys may hold ``weakref.ref`` objects (the
    paired band keys on its second classifier that way): entries whose
    referent has died are dropped.
    """

    def __init__(self):
        self._store: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._pending: dict = {}

    # A cache pickles (and deep-copies) as an empty one: locks and weak references cannot
    # be pickled, and replicates are cheap to make again.
    def __getstate__(self):
        return {}

    def __setstate__(self, state):
        self.__init__()

    def _drop_dead(self):
        dead = [
            k
            for k in self._store
            if isinstance(k, tuple)
            and any(isinstance(part, weakref.ref) and part() is None for part in k)
        ]
        for k in dead:
            del self._store[k]

    def get(self, key, make):
        """The value cached under ``key``, made by ``make()`` when missing.

        Parameters
        ----------
        key : hashable or None
            None: make the value and keep nothing.
        make : callable
            Called with no arguments, once per key even when several threads
            ask at the same time (the others wait for it).

        Returns
        -------
        object
            The cached or new value.

        Examples
        --------
        >>> cache = ReplicateCache()
        >>> cache.get(("k", 1), lambda: [1, 2]), cache.get(("k", 1), lambda: "not called")
        ([1, 2], [1, 2])
        """
        if key is None:
            return make()
        while True:
            with self._lock:
                self._drop_dead()
                if key in self._store:
                    self._store.move_to_end(key)
                    return self._store[key]
                pending = self._pending.get(key)
                if pending is None:
                    pending = self._pending[key] = threading.Event()
                    break
            pending.wait()  # another thread is making it; then look again
        try:
            value = make()
            with self._lock:
                self._store[key] = value
                while len(self._store) > _CACHE_SIZE:
                    self._store.popitem(last=False)
            return value
        finally:
            with self._lock:
                del self._pending[key]
            pending.set()


#: Envelope bands merge score bins while a replicate's coarsening loss stays below this
#: (NEC); the loss actually measured is ``band.attrs["coarsening_bound"]``.
ENVELOPE_MAX_LOSS = 0.001
#: Quantile bins per class before that merge.
PRE_BINS_PER_CLASS = 4096


def envelope_bins(desc_scores, pos_per, neg_per, keep_thresholds) -> resample.ScoreBins:
    """The score bins of an envelope band, from counts per distinct score (highest first).

    Parameters
    ----------
    desc_scores : ndarray
        The distinct scores, highest first.
    pos_per, neg_per : ndarray of int
        Positives and negatives at each distinct score.
    keep_thresholds : array-like
        Scores that must stay bin edges (the original optimal thresholds).

    Returns
    -------
    ScoreBins
        See :func:`costwidget.model.resampling.resample.bins_from_counts`; at most 4096
        distinct scores are kept exactly, more are merged while a replicate's
        coarsening loss stays below :data:`ENVELOPE_MAX_LOSS`.

    Examples
    --------
    >>> import numpy as np
    >>> b = envelope_bins(np.array([.9, .5, .1]), np.array([1, 1, 0]), np.array([0, 1, 1]), [])
    >>> b.n_bins, b.bin_of.tolist()
    (3, [0, 1, 2])
    """
    return resample.bins_from_counts(
        desc_scores,
        pos_per,
        neg_per,
        keep_thresholds=keep_thresholds,
        per_class=PRE_BINS_PER_CLASS,
        max_loss=ENVELOPE_MAX_LOSS,
    )


def replicates_from_units(
    bins, unit_stratum, unit_bin, unit_is_pos, unit_count, best, x, n_pos, n_neg, n_boot, rng
):
    """(envelope NEC, NEC at the original optimal thresholds, coarsening bound) from units.

    A unit is the instances of one stratum in one bin (``unit_count`` of them,
    all positive or all negative). Shared by the per-case band and the band
    from counts, so that both make the same draws.

    Parameters
    ----------
    bins : ScoreBins
        From :func:`envelope_bins`.
    unit_stratum, unit_bin, unit_is_pos, unit_count : array-like, one per unit
        The units, ordered by stratum then bin (the order decides the draws).
    best : DataFrame
        ``Classifier.best(x)`` of the original data (its ``threshold`` column).
    x : ndarray
        The pcf grid.
    n_pos, n_neg : int
        The class totals.
    n_boot : int
    rng : numpy.random.Generator

    Returns
    -------
    env, fixed : ndarray, (n_boot, len(x))
        Each replicate's lower envelope, and its NEC at the original optimal
        thresholds.
    bound : float
        :func:`costwidget.model.resampling.resample.coarsening_bound` of the replicates.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> bins = envelope_bins(np.array([.9, .1]), np.array([2, 0]), np.array([0, 2]), [])
    >>> env, fixed, bound = replicates_from_units(
    ...     bins, [0, 1], [1, 0], [False, True], [2, 2], pd.DataFrame({"threshold": [0.9]}),
    ...     np.array([0.5]), 2, 2, 3, np.random.default_rng(0))
    >>> env.tolist(), fixed.tolist(), bound
    ([[0.0], [0.0], [0.0]], [[0.0], [0.0], [0.0]], 0.0)
    """
    unit_is_pos = np.asarray(unit_is_pos, dtype=bool)
    key = np.asarray(unit_bin, dtype=np.int64) * 2 + unit_is_pos
    (counts,) = bootstrap_counts.unit_sums(
        unit_stratum, unit_count, [key], [2 * bins.n_bins], n_boot, rng
    )
    tp_bins, fp_bins = counts[:, 1::2], counts[:, 0::2]
    env = resample.envelope_values(tp_bins, fp_bins, n_pos, n_neg, x)
    # ROC point "score >= t" of each original optimal threshold, among the bin edges.
    th = best["threshold"].to_numpy()
    point = np.where(np.isposinf(th), 0, np.searchsorted(-bins.thresholds, -th, side="left") + 1)
    point = np.where(np.isneginf(th), bins.n_bins, point)
    cols = np.unique(point)
    tp_at = _cumulative_at(tp_bins, cols)
    fp_at = _cumulative_at(fp_bins, cols)
    where = np.searchsorted(cols, point)
    fixed = resample.line_values(tp_at[:, where], fp_at[:, where], n_pos, n_neg, x)
    bound = resample.coarsening_bound(tp_bins, fp_bins, bins.multi, n_pos, n_neg)
    return env, fixed, bound


def _cumulative_at(per_bin, points):
    """ROC counts of every replicate at the given points: sums of the bins before each."""
    cum = np.zeros((per_bin.shape[0], per_bin.shape[1] + 1), dtype=np.int64)
    np.cumsum(per_bin, axis=1, out=cum[:, 1:])
    return cum[:, points]
