"""Input checks shared by the model.

Every check raises a ``ValueError`` or ``TypeError`` whose message names the
offending argument, says what is wrong with it and, where it helps, how to fix
it. Checks run before any state is built, so a failed call leaves nothing
half-constructed.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "as_1d",
    "check_finite",
    "check_binary_labels",
    "check_sample_weight",
    "check_same_length",
    "length_of",
    "check_probability",
    "check_costs",
    "check_pcf",
    "check_level",
    "check_scalar",
    "check_scalar_or_1d",
    "check_number",
    "check_random_state",
    "missing_columns",
    "order_models",
]


def as_1d(values, name: str, *, dtype=None) -> np.ndarray:
    """Return ``values`` as a 1-D numpy array, refusing other shapes and empty input."""
    if values is None:
        raise TypeError(f"{name} is required, got None.")
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be array-like, got a string {values!r}.")
    try:
        arr = np.asarray(values) if dtype is None else np.asarray(values, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} could not be read as an array of numbers: {exc}") from None
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()  # a column vector, as sklearn's column_or_1d takes it
    if arr.ndim != 1:
        hint = (
            f" It looks like one row of {arr.shape[1]} samples: pass values[0] or values.ravel()."
            if arr.ndim == 2 and arr.shape[0] == 1
            else ""
        )
        raise ValueError(
            f"{name} must be 1-dimensional (one entry per sample), got an array "
            f"of shape {arr.shape}.{hint}"
        )
    if arr.size == 0:
        raise ValueError(f"{name} is empty: at least one sample of each class is needed.")
    return arr


def check_finite(arr: np.ndarray, name: str) -> np.ndarray:
    """Return ``arr`` as float64, refusing NaN and infinite entries (with count and first index)."""
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}.") from None
    arr = np.asarray(arr, dtype=np.float64)
    # A finite sum proves every entry finite (NaN and infinities carry into any sum) at a
    # fraction of the cost of a mask; a sum that overflows falls back to the mask.
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.add.reduce(arr)
    if np.isfinite(total):
        return arr
    bad = ~np.isfinite(arr)
    if bad.any():
        count = int(bad.sum())
        first = int(np.flatnonzero(bad)[0])
        kinds = []
        if np.isnan(arr).any():
            kinds.append("NaN")
        if np.isinf(arr).any():
            kinds.append("infinite")
        raise ValueError(
            f"{name} has {count} {' or '.join(kinds)} value{'s' if count > 1 else ''} "
            f"(first at index {first}: {float(arr[first])}). Remove those samples or "
            f"replace the values before evaluating."
        )
    return arr


def length_of(values) -> int:
    """The number of entries of a 1-d array-like (1 for a scalar), without copying a long one.

    Examples
    --------
    >>> from costwidget.model.kernels.validation import length_of
    >>> length_of([0.1, 0.2]), length_of(0.5)
    (2, 1)
    """
    try:
        return len(values)
    except TypeError:
        return int(np.asarray(values).size)


def check_same_length(**arrays) -> int:
    """Refuse arrays of different lengths, naming each length."""
    lengths = {name: len(a) for name, a in arrays.items() if a is not None}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"Inputs have different lengths: {desc} samples.")
    return next(iter(lengths.values()))


def _default_pos_label(classes: np.ndarray):
    """scikit-learn's rule: pos_label may be omitted only for {0,1}, {-1,1} or {False,True}."""
    as_list = classes.tolist()
    if classes.dtype.kind in "biuf":
        values = set(as_list)
        if values <= {0, 1} or values <= {-1, 1}:
            return True if classes.dtype.kind == "b" else 1
    raise ValueError(
        f"y_true has labels {as_list!r}; pos_label is ambiguous. Pass pos_label= one of "
        f"{as_list!r} to say which label is the positive class."
    )


def _two_or_more_classes(y: np.ndarray, name: str) -> np.ndarray:
    """The sorted distinct labels, found in O(n) when there are at most two (the usual case)."""
    first = y[0]
    other = y != first
    if not other.any():
        return np.asarray([first])
    second = y[np.argmax(other)]
    if (other & (y != second)).any():
        try:
            return np.unique(y)
        except TypeError:
            raise TypeError(
                f"{name} mixes label types that cannot be compared: "
                f"{sorted({type(v).__name__ for v in y})}."
            ) from None
    try:
        return np.sort(np.asarray([first, second], dtype=y.dtype))
    except TypeError:
        raise TypeError(
            f"{name} mixes label types that cannot be compared: "
            f"{type(first).__name__} and {type(second).__name__}."
        ) from None


def check_binary_labels(y_true, pos_label=None, *, name: str = "y_true"):
    """Return ``(is_positive, pos_label, neg_label)`` for a binary label vector.

    Labels may be ints, strings or bools. ``pos_label`` follows scikit-learn:
    it may be omitted only when the labels are {0, 1}, {-1, 1} or {False, True}.
    """
    y = as_1d(y_true, name)
    if y.dtype.kind == "f" and np.isnan(y).any():
        first = int(np.flatnonzero(np.isnan(y))[0])
        raise ValueError(f"{name} has missing labels (NaN), first at index {first}.")
    if y.dtype.kind == "O":
        # None, NaN, pd.NA and pd.NaT; pd.NA would otherwise fail later as
        # "boolean value of NA is ambiguous" (nullable boolean/string columns).
        import pandas as pd

        missing = np.flatnonzero(pd.isna(y))
        if missing.size:
            raise ValueError(
                f"{name} has {missing.size} missing label{'s' if missing.size > 1 else ''} "
                f"(None, NaN or pd.NA), first at index {int(missing[0])}: "
                f"{y[missing[0]]!r}. Drop those samples (e.g. frame.dropna(subset=[...])) "
                f"or fill them in before evaluating."
            )
    classes = _two_or_more_classes(y, name)
    if len(classes) > 2:
        shown = classes[:10].tolist()
        more = f" (and {len(classes) - 10} more)" if len(classes) > 10 else ""
        raise ValueError(
            f"{name} has {len(classes)} distinct labels {shown!r}{more}; a binary classifier "
            f"needs exactly two. Map the labels to two classes first (e.g. y_true == positive_class)."
        )
    if (
        pos_label is None
        and len(classes) == 1
        and not (classes.dtype.kind in "biuf" and classes[0] in (-1, 0, 1))
    ):
        # Default labels ({0, 1}, {-1, 1}, bools) get the messages below, which name
        # the missing class; any other single label cannot say which class is missing.
        raise ValueError(
            f"{name} has only one class {classes[0].item()!r}; the other class is missing. "
            f"Both classes are needed to estimate TPR and FPR."
        )
    if pos_label is None:
        pos_label = _default_pos_label(classes)
    is_pos = y == pos_label
    if not isinstance(is_pos, np.ndarray) or is_pos.shape != y.shape:
        raise TypeError(f"pos_label={pos_label!r} cannot be compared with the labels of {name}.")
    n_pos = int(is_pos.sum())
    if n_pos == 0:
        raise ValueError(
            f"{name} has no samples of the positive class (pos_label={pos_label!r}); it only "
            f"holds {classes.tolist()!r}. Both classes are needed to estimate TPR and FPR."
        )
    if n_pos == len(y):
        raise ValueError(
            f"{name} has only the positive class {pos_label!r}: the negative class is missing. "
            f"Both classes are needed to estimate TPR and FPR."
        )
    others = [c for c in classes.tolist() if c != pos_label]
    return is_pos, pos_label, others[0]


def check_sample_weight(sample_weight, n: int) -> np.ndarray | None:
    """Return float64 weights of length ``n`` (or None), refusing negative or non-finite ones."""
    if sample_weight is None:
        return None
    w = check_finite(as_1d(sample_weight, "sample_weight"), "sample_weight")
    if len(w) != n:
        raise ValueError(f"sample_weight has {len(w)} entries but there are {n} samples.")
    if (w < 0).any():
        first = int(np.flatnonzero(w < 0)[0])
        raise ValueError(
            f"sample_weight has {int((w < 0).sum())} negative weight(s) (first at index {first}: "
            f"{float(w[first])}); weights must be >= 0."
        )
    return w


def _is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _as_float_array(p, name: str) -> np.ndarray:
    """``p`` as float64, refusing None, strings and other non-numbers by name."""
    if p is None:
        raise TypeError(f"{name} is required: give a number in [0, 1], got None.")
    arr = np.asarray(p)
    if arr.dtype.kind not in "biuf":
        if isinstance(p, (str, bytes)) or arr.dtype.kind in "USO":
            shown = repr(p) if arr.ndim == 0 else f"an array of dtype {arr.dtype}"
            raise TypeError(
                f"{name} must be a number or an array of numbers in [0, 1], got "
                f"{shown}. Convert it first (e.g. float(...))."
            )
        raise TypeError(f"{name} must be a number in [0, 1], got dtype {arr.dtype}.")
    return arr.astype(np.float64, copy=False)


def check_scalar_or_1d(arr: np.ndarray, name: str) -> np.ndarray:
    """Refuse arrays of more than one dimension (a scalar or a 1-D array of values is needed)."""
    if arr.ndim > 1:
        raise ValueError(
            f"{name} must be a number or a 1-D array of numbers, got an array of "
            f"shape {arr.shape}. Pass np.ravel(...) of it."
        )
    return arr


def check_scalar(value, name: str) -> float:
    """Return ``value`` as a float, refusing arrays (with their shape)."""
    arr = _as_float_array(value, name)
    if arr.ndim != 0:
        raise TypeError(f"{name} must be a single number, got an array of shape {arr.shape}.")
    return float(arr)


def check_probability(p, name: str = "p_pos") -> np.ndarray:
    """Refuse probabilities outside [0, 1] (or NaN), None and non-numbers."""
    arr = _as_float_array(p, name)
    bad = ~((arr >= 0) & (arr <= 1))
    if bad.any():
        first = arr.ravel()[np.flatnonzero(bad.ravel())[0]]
        raise ValueError(f"{name} must lie in [0, 1], got {float(first)}.")
    return arr


def _as_cost_array(value, name: str) -> np.ndarray:
    """A cost as float64, refusing None, strings, bools and other non-numbers by name."""
    if value is None:
        raise TypeError(f"{name} is required: give a number >= 0, got None.")
    arr = np.asarray(value)
    if arr.dtype.kind not in "iuf":
        shown = repr(value) if arr.ndim == 0 else f"an array of dtype {arr.dtype}"
        raise TypeError(
            f"{name} must be a number >= 0 or an array of them, got {shown}. "
            f"Convert it first (e.g. float(...))."
        )
    return arr.astype(np.float64, copy=False)


def check_costs(cost_fn, cost_fp) -> tuple[np.ndarray, np.ndarray]:
    """Refuse non-numbers (None, strings, bools), negative or NaN costs, and both costs zero.

    Examples
    --------
    >>> check_costs(1, "2")
    Traceback (most recent call last):
    ...
    TypeError: cost_fp (the cost C(+|-) of a false positive) must be a number >= 0 or an array of them, got '2'. Convert it first (e.g. float(...)).
    """
    fn = _as_cost_array(cost_fn, "cost_fn (the cost C(-|+) of a false negative)")
    fp = _as_cost_array(cost_fp, "cost_fp (the cost C(+|-) of a false positive)")
    for arr, name in (
        (fn, "cost_fn (the cost C(-|+) of a false negative)"),
        (fp, "cost_fp (the cost C(+|-) of a false positive)"),
    ):
        bad = ~(np.isfinite(arr) & (arr >= 0))
        if bad.any():
            first = arr.ravel()[np.flatnonzero(bad.ravel())[0]]
            raise ValueError(f"{name} must be a finite number >= 0, got {float(first)}.")
    both_zero = (fn == 0) & (fp == 0)
    if np.any(both_zero):
        raise ValueError(
            "cost_fn and cost_fp are both 0: with no cost for either error every classifier is "
            "equally good and PCF(+) is undefined. Give at least one cost > 0."
        )
    return fn, fp


def check_pcf(pcf, name: str = "pcf") -> np.ndarray:
    """Refuse probability-cost values outside [0, 1]."""
    return check_probability(pcf, name)


def check_level(level, name: str = "level") -> float:
    """Refuse confidence levels outside the open interval (0, 1)."""
    if not _is_number(level) or not (0 < float(level) < 1):
        raise ValueError(f"{name} must be a number strictly between 0 and 1, got {level!r}.")
    return float(level)


def check_number(value, name: str, *, finite: bool = True) -> float:
    """``value`` as a float; refuses bools, strings, None, arrays and NaN (and ±inf if ``finite``).

    The one number check of the model: every scalar argument (a capacity, an
    FPR limit, a step, class totals) goes through it, so that all of them
    refuse the same things with the same words.

    Parameters
    ----------
    value : object
        Should be a real number (int, float or a numpy scalar).
    name : str
        The argument's name, for the message.
    finite : bool, default=True
        Also refuse ``inf`` and ``-inf``.

    Returns
    -------
    float

    Examples
    --------
    >>> check_number(3, "capacity"), check_number(float("inf"), "capacity", finite=False)
    (3.0, inf)
    >>> check_number(float("inf"), "n_pos")
    Traceback (most recent call last):
    ...
    ValueError: n_pos must be a finite number, got inf.
    >>> check_number("2", "step")
    Traceback (most recent call last):
    ...
    TypeError: step must be a number, got '2' (a str).
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (numbers.Real, np.integer, np.floating)
    ):
        raise TypeError(f"{name} must be a number, got {value!r} (a {type(value).__name__}).")
    value = float(value)
    if value != value:
        raise ValueError(f"{name} must be a number, got NaN.")
    if finite and not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}.")
    return value


def check_random_state(random_state):
    """(generator, cache seed) of a ``random_state``: only an int seed may be cached.

    The one ``random_state`` check of the model (bands, paired bands).

    ``None`` means fresh randomness on every call, as in numpy and
    scikit-learn: a new generator from OS entropy, and a seed of ``False``
    (never cached), so that a Monte Carlo loop over bands sees independent
    draws. An int is its own cache seed (the same int gives the same
    replicates, read from the cache). A Generator or RandomState is used as
    given and not cached.

    Parameters
    ----------
    random_state : None, int, numpy Generator or RandomState

    Returns
    -------
    rng : numpy.random.Generator
    seed : int or False
        The cache key part; False means do not cache.

    Examples
    --------
    >>> check_random_state(7)[1], check_random_state(None)[1]
    (7, False)
    """
    if random_state is None:
        return np.random.default_rng(), False
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return np.random.default_rng(int(random_state)), int(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state, False
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(2**31)), False
    raise TypeError(
        f"random_state must be None, an int or a numpy Generator, got {random_state!r}."
    )


def missing_columns(source: str, roles, available) -> None:
    """Refuse column names that ``available`` lacks, the same way for a DataFrame, DuckDB and Spark.

    Parameters
    ----------
    source : str
        How to name the data (``"frame"``, ``"The file 'x.parquet'"``).
    roles : list of (keyword, column name)
        The named columns, each with the keyword that named it.
    available : list
        The data's columns.

    Examples
    --------
    >>> missing_columns("frame", [("y_score", "score"), ("model", "model")], ["score", "label"])
    Traceback (most recent call last):
    ...
    ValueError: frame has no column model='model'; its columns are ['score', 'label']. Name the columns with y_true=, y_score=, model=, fold=, ... (model= is the column of model names: one classifier per model; pass model=None if every row is one model's score).
    """
    available = list(available)
    missing = [(role, name) for role, name in roles if name not in available]
    if not missing:
        return
    what = ", ".join(f"{role}={name!r}" for role, name in missing)
    hint = ""
    if any(role == "model" for role, _ in missing):
        hint = (
            " (model= is the column of model names: one classifier per model; pass "
            "model=None if every row is one model's score)"
        )
    raise ValueError(
        f"{source} has no column {what}; its columns are {available!r}. Name the "
        f"columns with y_true=, y_score=, model=, fold=, ...{hint}."
    )


def order_models(values) -> list:
    """Model names in the order every source returns them: sorted, or as given if unsortable.

    Examples
    --------
    >>> order_models(["b", "a"]), order_models([2, "a"])
    (['a', 'b'], [2, 'a'])
    """
    values = list(values)
    try:
        return sorted(values)
    except TypeError:
        return values
