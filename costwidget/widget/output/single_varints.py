"""The single candidates of a classifier as one buffer of varints (``frontend_payload``).

The first ROC point of each distinct TPR (one per positive on continuous scores) would cost
three float64 each; here it costs about 2 bytes: the changes in the counts of true and false
positives (exact FPR and TPR, divided by the class totals in the front end as in the model) and
the threshold to ``THRESHOLD_DIGITS`` significant digits with the side of the exact one
(see ``frontend_payload``'s docstring). ``js/src/operating_point.mjs`` (decodeSingle) decodes
it; :func:`decode_single` is the same decoder in Python, for tests and tools.
"""

from __future__ import annotations

import numpy as np

from ...frontend.contract import (
    SINGLE_ARRAYS,
    THRESHOLD_DIGITS,
    THRESHOLD_KEYS,
    THRESHOLD_RELATIVE_BOUND,
)

__all__ = [
    "SINGLE_ARRAYS",
    "THRESHOLD_DIGITS",
    "THRESHOLD_RELATIVE_BOUND",
    "encode_single",
    "decode_single",
]

# The facts the front end's decoder shares (costwidget.frontend.contract).
_KEY_INF = THRESHOLD_KEYS["inf"]  # keys of +-inf and NaN: beyond every finite threshold's key
_KEY_NAN = THRESHOLD_KEYS["nan"]
_KEY_EXPONENT_OFFSET = THRESHOLD_KEYS["exponent_offset"]  # decimal exponents lie in [-324, 308]


def _threshold_keys(x: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Order-preserving keys of ``x`` to 6 significant digits, and the side of each ``x`` from
    that decimal's nearest double (0 on it, 1 below, 2 above); None when ``x`` holds -0.0,
    which the key cannot tell from 0.

    Vectorized: one C-level ``%`` formats every number (correctly rounded, half to even, as
    ``format()``), and the digits are read from the text's code points.
    """
    x = np.asarray(x, dtype=np.float64)
    if np.any((x == 0) & np.signbit(x)):
        return None
    key = np.zeros(x.size, dtype=np.int64)
    side = np.zeros(x.size, dtype=np.int64)
    key[np.isnan(x)] = _KEY_NAN
    key[x == np.inf] = _KEY_INF
    key[x == -np.inf] = -_KEY_INF
    finite = np.flatnonzero(np.isfinite(x) & (x != 0))
    if finite.size:
        a = np.abs(x[finite])
        text = (f"%.{THRESHOLD_DIGITS - 1}e," * a.size) % tuple(a.tolist())
        width = THRESHOLD_DIGITS + 5  # "d.ddddde±XX": exponents below 100 in magnitude
        if len(text) == (width + 1) * a.size:  # every one that short: read the bytes as they are
            code = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(a.size, -1)
            code = np.column_stack([code[:, :width], np.zeros(a.size, np.uint8)])
        else:
            parts = np.array(text[:-1].split(","), dtype=f"U{width + 1}")
            code = parts.view(np.uint32).reshape(a.size, -1)
        code = code.astype(np.int64) - ord("0")
        mantissa = code[:, [0] + list(range(2, THRESHOLD_DIGITS + 1))]  # "d.ddddd"
        digits = mantissa @ (10 ** np.arange(THRESHOLD_DIGITS - 1, -1, -1))
        exp = code[
            :, THRESHOLD_DIGITS + 3 :
        ]  # after "e±": 2 or 3 digits (unused code points are 0)
        three = exp[:, -1] != -ord("0")
        magnitude = np.where(three, exp @ [100, 10, 1], exp[:, :2] @ [10, 1])
        exponent = np.where(
            code[:, THRESHOLD_DIGITS + 2] == ord("-") - ord("0"), -magnitude, magnitude
        )
        k = (
            (exponent + _KEY_EXPONENT_OFFSET) * 9 * 10 ** (THRESHOLD_DIGITS - 1)
            + digits
            - 10 ** (THRESHOLD_DIGITS - 1)
            + 1
        )
        nearest = np.fromstring(text[:-1], sep=",")  # correctly rounded, as float() and JS
        key[finite] = np.where(x[finite] > 0, k, -k)
        side[finite] = np.where(a == nearest, 0, np.where(a < nearest, 1, 2))
        side[finite] = np.where(
            (x[finite] < 0) & (side[finite] > 0), 3 - side[finite], side[finite]
        )  # -a below -nearest is a above nearest
    return key, side


def _zigzag(d: np.ndarray) -> np.ndarray:
    return np.where(d >= 0, 2 * d, -2 * d - 1).astype(np.uint64)


def _leb128(values: np.ndarray) -> bytes:
    """Unsigned LEB128 varints of non-negative integers (< 2^53), vectorized."""
    v = np.asarray(values, dtype=np.uint64)
    size = np.ones(v.size, dtype=np.int64)
    rest = v >> np.uint64(7)
    while rest.any():
        size += rest > 0
        rest >>= np.uint64(7)
    start = np.cumsum(size) - size
    out = np.zeros(int(size.sum()), dtype=np.uint8)
    for k in range(int(size.max(initial=0))):
        sel = size > k
        byte = (v[sel] >> np.uint64(7 * k)) & np.uint64(0x7F)
        more = (size[sel] > k + 1).astype(np.uint64) << np.uint64(7)
        out[start[sel] + k] = (byte | more).astype(np.uint8)
    return out.tobytes()


def encode_single(arrays: dict, tp, fp) -> bytes | None:
    """The single candidates as one byte buffer (module docstring), or None when it would not
    decode bit for bit to ``arrays``' FPRs and TPRs (unknown or zero class totals, counts that
    are not integers) or its thresholds hold -0.0.

    Parameters
    ----------
    arrays : dict
        :func:`classifier_arrays`' output (``single_*`` and ``scalars``).
    tp, fp : array_like
        The counts of true and false positives at each single candidate.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.widget.output.frontend_payload import classifier_arrays
    >>> clf = cw.Classifier.from_scores([0, 1, 1, 0], [0.1, 0.9, 0.35, 0.35])
    >>> data = encode_single(classifier_arrays(clf), [0, 1, 2], [0, 0, 1])
    >>> decode_single(data, 3, n_pos=2, n_neg=2)["single_threshold"].tolist()
    [inf, 0.9, 0.35]
    """
    n_pos, n_neg = arrays["scalars"][:2]
    tp = np.asarray(tp, dtype=np.float64)
    fp = np.asarray(fp, dtype=np.float64)
    if not (n_pos > 0 and n_neg > 0) or not (
        np.all(tp == np.rint(tp)) and np.all(fp == np.rint(fp))
    ):
        return None
    if not (
        np.array_equal(tp / n_pos, arrays["single_tpr"])
        and np.array_equal(fp / n_neg, arrays["single_fpr"])
    ):
        return None
    keyed = _threshold_keys(arrays["single_threshold"])
    if keyed is None:
        return None
    key, side = keyed
    delta = lambda a: np.diff(np.asarray(a, dtype=np.int64), prepend=0)  # noqa: E731
    step = delta(tp)
    other = step != 1  # the TPR usually rises by one positive: then no varint of its own
    fields = np.column_stack(
        [
            _zigzag(delta(fp)) * np.uint64(2) + other.astype(np.uint64),
            _zigzag(step),
            _zigzag(delta(key)) * np.uint64(3) + side.astype(np.uint64),
        ]
    )
    present = np.column_stack([np.ones_like(other), other, np.ones_like(other)])
    return _leb128(fields.ravel()[present.ravel()])


def _threshold_of_key(key: int, side: int) -> float:
    if key == _KEY_NAN:
        return float("nan")
    if abs(key) == _KEY_INF:
        return float("inf") if key > 0 else float("-inf")
    if key == 0:
        return 0.0
    k = abs(key) - 1
    unit = 9 * 10 ** (THRESHOLD_DIGITS - 1)
    exponent, digits = k // unit - _KEY_EXPONENT_OFFSET, k % unit + 10 ** (THRESHOLD_DIGITS - 1)
    nearest = float(f"{'-' if key < 0 else ''}{digits}e{exponent - THRESHOLD_DIGITS + 1}")
    if side == 0:
        return nearest
    return float(np.nextafter(nearest, -np.inf if side == 1 else np.inf))


def decode_single(data: bytes, count: int, *, n_pos: float, n_neg: float) -> dict[str, np.ndarray]:
    """The inverse of :func:`encode_single`, as the front end decodes it (for tests and tools):
    ``{"single_threshold", "single_fpr", "single_tpr"}``, the thresholds within
    ``THRESHOLD_RELATIVE_BOUND``."""
    values, value, shift = [], 0, 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            values.append(value)
            value, shift = 0, 0
    if value or shift:
        raise ValueError("single candidates: the last varint is cut short")
    unzig = lambda z: (z >> 1) if not z & 1 else -((z + 1) >> 1)  # noqa: E731
    tp = fp = key = 0
    out = {name: np.empty(count) for name in SINGLE_ARRAYS}
    it = iter(values)
    try:
        for i in range(count):
            first = next(it)
            fp += unzig(first >> 1)
            tp += unzig(next(it)) if first & 1 else 1
            third = next(it)
            key += unzig(third // 3)
            out["single_threshold"][i] = _threshold_of_key(key, third % 3)
            out["single_tpr"][i] = tp / n_pos
            out["single_fpr"][i] = fp / n_neg
    except StopIteration:
        raise ValueError(f"single candidates: too few varints for {count} candidates") from None
    if next(it, None) is not None:
        raise ValueError(f"single candidates: more varints than {count} candidates")
    return out
