"""`ScoredSample`: the cases a classifier was evaluated on, shared by bands, folds and paired tests.

A :class:`~costwidget.model.Classifier` built from scores keeps them here, so
that resampling (bands, difference bands) and fold analyses read one named,
read-only object instead of the classifier's private attributes.

It also says *which* cases they are, so that a paired comparison
(:func:`~costwidget.difference_band`) pairs only cases known to be the same,
never guessed from equal labels:

* ``instance``: the cases' ids (``instance=`` of :meth:`Classifier.from_frame`
  and :meth:`Classifier.from_scores`); two samples pair by id, in any order;
* ``case_token``: a string shared by the samples built over the same label
  array (the same memory: the same numpy array, or views of one, such as a
  DataFrame column read twice), e.g. ``from_scores(y, s1)`` and
  ``from_scores(y, s2)``. Case ``i`` of one is then case ``i`` of the other.
  Being a string it survives copies and pickling.
"""

from __future__ import annotations

import threading
import uuid
import weakref
from dataclasses import dataclass

import numpy as np

from .validation import as_1d, check_same_length

__all__ = ["ScoredSample", "case_token_of", "check_instance_ids", "align_instances", "split_folds"]


# id(base array) -> (weak reference to it, {(address, shape, strides, dtype): token}). The
# weak reference's callback drops the entry when the array dies, before its id can be reused.
_TOKENS: dict = {}
_TOKENS_LOCK = threading.RLock()  # re-entrant: a weakref callback may run inside


def _memory_base(arr: np.ndarray) -> np.ndarray:
    base = arr
    while isinstance(base.base, np.ndarray):
        base = base.base
    return base


def case_token_of(y: np.ndarray) -> str:
    """The case token of a label array: equal for arrays over the same memory, else new.

    Two classifiers built over the same label array (the same object, or
    views of the same memory with the same layout) score the same cases in
    the same order, so they may be compared paired. The token lives as long
    as the array's memory owner: after it is freed, an array at the same
    address gets a new token.

    Parameters
    ----------
    y : ndarray
        The label array as given (before any conversion that copies it).

    Returns
    -------
    str
        A random hex string, the same for every call on the same memory.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1, 1, 0])
    >>> case_token_of(y) == case_token_of(y[:]), case_token_of(y) == case_token_of(y.copy())
    (True, False)
    """
    base = _memory_base(y)
    layout = (y.__array_interface__["data"][0], y.shape, y.strides, y.dtype.str)
    key = id(base)
    with _TOKENS_LOCK:
        entry = _TOKENS.get(key)
        if entry is None or entry[0]() is not base:

            def forget(_ref, key=key):
                with _TOKENS_LOCK:
                    if _TOKENS.get(key, (None,))[0] is _ref:
                        del _TOKENS[key]

            try:
                ref = weakref.ref(base, forget)
            except TypeError:  # not weak-referenceable: no token can be shared
                return uuid.uuid4().hex
            entry = _TOKENS[key] = (ref, {})
        return entry[1].setdefault(layout, uuid.uuid4().hex)


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
    instance : ndarray, shape (n_samples,), or None
        The id of each case (distinct), if ``instance=`` was given.
    case_token : str or None
        Shared by the samples of the same cases in the same order (see the
        module docstring); None if that is not known.

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
    instance: np.ndarray | None = None
    case_token: str | None = None

    def __post_init__(self):
        # Shared by every band and copy of the classifier, so held as read-only views
        # (views: the caller's own arrays stay writable and nothing is copied).
        for field in ("is_pos", "scores", "weights", "fold_codes", "instance"):
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
        """The cases where the boolean ``mask`` holds (without fold codes): one fold's sample.

        Instance ids are kept; the case token becomes one of this token and
        the mask, so that subsets of the same cases by the same mask pair.
        """
        token = None
        if self.case_token is not None:
            import hashlib

            digest = hashlib.blake2b(
                np.packbits(np.asarray(mask, dtype=bool)).tobytes(), digest_size=12
            ).hexdigest()
            token = f"{self.case_token}/{digest}"
        return ScoredSample(
            self.is_pos[mask],
            self.scores[mask],
            None if self.weights is None else self.weights[mask],
            instance=None if self.instance is None else self.instance[mask],
            case_token=token,
        )


def _few(values, k: int = 5) -> str:
    """The first ``k`` of ``values`` as a readable list, with how many more there are."""
    values = list(values)
    shown = ", ".join(repr(v.item() if isinstance(v, np.generic) else v) for v in values[:k])
    more = f" and {len(values) - k} more" if len(values) > k else ""
    return f"[{shown}]{more}"


def check_instance_ids(instance, n: int, what: str = "instance") -> np.ndarray:
    """The instance ids as a 1-D array of ``n`` distinct, non-missing values.

    Parameters
    ----------
    instance : array-like of shape (n,)
    n : int
        The number of cases.
    what : str
        How messages name the ids (e.g. ``"column 'row' (instance=) of model 'a'"``).

    Returns
    -------
    ndarray

    Examples
    --------
    >>> check_instance_ids(["x", "y", "x", "z", "y"], 5)
    Traceback (most recent call last):
    ...
    ValueError: instance has 2 id(s) that occur more than once: ['x', 'y']. Each case needs its own id (one row per model and case); drop the duplicated rows or fix the ids.
    """
    import pandas as pd

    ids = as_1d(instance, what)
    if len(ids) != n:
        raise ValueError(f"{what} has {len(ids)} entries but there are {n} samples.")
    missing = np.flatnonzero(pd.isna(ids)) if ids.dtype.kind in "fOmM" else np.array([], int)
    if missing.size:
        raise ValueError(
            f"{what} has {missing.size} missing id(s) (first at index "
            f"{int(missing[0])}); every case needs an id."
        )
    index = pd.Index(ids)
    if not index.is_unique:
        dup = index[index.duplicated()].unique()
        raise ValueError(
            f"{what} has {len(dup)} id(s) that occur more than once: "
            f"{_few(dup)}. Each case needs its own id (one row per model and case); "
            f"drop the duplicated rows or fix the ids."
        )
    return ids


def align_instances(
    ids_a: np.ndarray, ids_b: np.ndarray, name_a: str = "a", name_b: str = "b"
) -> np.ndarray | None:
    """Where each of ``a``'s cases is among ``b``'s, by id; None if in the same order already.

    Parameters
    ----------
    ids_a, ids_b : ndarray
        Distinct ids (:func:`check_instance_ids`).
    name_a, name_b : str
        How messages name the two sides.

    Returns
    -------
    ndarray of int64 or None
        ``perm`` with ``ids_b[perm] == ids_a``; None when ``ids_b`` equals ``ids_a``.

    Raises
    ------
    ValueError
        When an id is in one side only, naming a few of them.

    Examples
    --------
    >>> import numpy as np
    >>> align_instances(np.array([3, 1, 2]), np.array([1, 2, 3])).tolist()
    [2, 0, 1]
    >>> align_instances(np.array([1, 2]), np.array([1, 2])) is None
    True
    >>> align_instances(np.array([1, 2, 4]), np.array([1, 2, 3]))
    Traceback (most recent call last):
    ...
    ValueError: a and b do not score the same instances: 1 id(s) only in a: [4]; 1 id(s) only in b: [3]. A paired comparison needs every case scored by both; keep the rows of the instances both scored.
    """
    import pandas as pd

    if len(ids_a) == len(ids_b) and ids_a.dtype == ids_b.dtype and np.array_equal(ids_a, ids_b):
        return None
    perm = pd.Index(ids_b).get_indexer(ids_a)
    only_a = ids_a[perm < 0]
    if only_a.size or len(ids_a) != len(ids_b):
        only_b = pd.Index(ids_b).difference(pd.Index(ids_a), sort=False)
        parts = [
            f"{len(v)} id(s) only in {side}: {_few(v)}"
            for v, side in ((only_a, name_a), (only_b, name_b))
            if len(v)
        ]
        raise ValueError(
            f"{name_a} and {name_b} do not score the same instances: "
            f"{'; '.join(parts)}. A paired comparison needs every case scored by "
            f"both; keep the rows of the instances both scored."
        )
    return perm.astype(np.int64)


def split_folds(folds, n: int, is_pos: np.ndarray, weights: np.ndarray | None = None):
    """(fold labels in order, integer code per sample); every fold must hold both classes.

    With ``weights``, a class counts as present in a fold only if its total
    weight there is > 0.
    """
    f = as_1d(folds, "folds")
    check_same_length(folds=f, y_true=np.empty(n))
    if f.dtype.kind == "f" and np.isnan(f).any():
        first = int(np.flatnonzero(np.isnan(f))[0])
        raise ValueError(f"folds has missing values (NaN), first at index {first}.")
    labels, codes = np.unique(f, return_inverse=True)
    n_pos = np.bincount(codes, weights=is_pos, minlength=len(labels))
    size = np.bincount(codes, minlength=len(labels))
    for k, lab in enumerate(labels.tolist()):
        if weights is not None:
            m = codes == k
            w_pos, w_neg = weights[m & is_pos].sum(), weights[m & ~is_pos].sum()
            if w_pos == 0 or w_neg == 0:
                missing = "positive" if w_pos == 0 else "negative"
                raise ValueError(
                    f"Fold {lab!r}: sample_weight gives its {missing} class a total "
                    f"weight of 0, so it has no ROC curve. Give that class weight "
                    f"in every fold or merge fold {lab!r} with another."
                )
        if n_pos[k] == 0 or n_pos[k] == size[k]:
            has = "positive" if n_pos[k] == size[k] else "negative"
            raise ValueError(
                f"Fold {lab!r} has only {has} samples ({size[k]} of them): every fold "
                f"needs both classes to have an ROC curve. Use stratified folds "
                f"(e.g. sklearn's StratifiedKFold) or merge that fold."
            )
    return labels.tolist(), codes.astype(np.int64)
