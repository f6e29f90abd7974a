"""Ranges of interest on the thesis's cost axis: input checks, the grid, snapping (layer 0).

Al-Saffar (2018) evaluates classifiers over a range of FP costs on a grid of step 0.05; these
functions check and snap such a range (the widget's range tool uses them) and build the grid.
Nothing here knows ``Classifier``; the measures over a range are in :mod:`.ranges`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .validation import check_number

__all__ = ["check_range", "range_grid", "snap_range"]


# ---------------------------------------------------------------------------- inputs
def typed_decimal(value: float) -> Fraction:
    """The decimal a float was typed as: ``0.35`` -> 7/20 (its shortest repr, read exactly)."""
    return Fraction(repr(float(value)))


def check_unit(values, name: str) -> np.ndarray:
    """Float array of values in [0, 1], refusing NaN, other types and out-of-range values."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} must be a number or an array of numbers in [0, 1], got {values!r}."
        ) from None
    bad = ~((arr >= 0.0) & (arr <= 1.0))
    if bad.any():
        first = float(arr.ravel()[np.flatnonzero(bad.ravel())[0]])
        raise ValueError(
            f"{name} must lie in [0, 1] (the costs are normalized so that "
            f"FPcost + FNcost = 1), got {first}."
        )
    return arr


def plain_value(value):
    """A numpy scalar as the Python value it holds (for messages: 0.5, not np.float64(0.5))."""
    return value.item() if isinstance(value, np.generic) else value


def scalar_or_array(x, out):
    return float(out) if np.ndim(x) == 0 else out


def range_grid(lo, hi, step=0.05) -> np.ndarray:
    """The thesis's grid ``lo, lo + step, ..., hi`` (both ends included), as the decimals meant.

    ``hi - lo`` must be a whole number of steps. Points are the floats nearest
    to the decimals (``0.35``, not ``0.35000000000000003``).

    Examples
    --------
    >>> from costwidget.model.comparison.ranges import range_grid
    >>> range_grid(0.35, 0.55).tolist()
    [0.35, 0.4, 0.45, 0.5, 0.55]
    >>> range_grid(0.5, 0.5).tolist()
    [0.5]
    """
    lo, hi = check_number(lo, "lo"), check_number(hi, "hi")
    step = check_number(step, "step")
    if step <= 0:
        raise ValueError(f"step must be > 0, got {step!r}.")
    if hi < lo:
        raise ValueError(f"the range needs lo <= hi, got lo={lo!r}, hi={hi!r}.")
    steps = (hi - lo) / step
    n = round(steps)
    if abs(steps - n) > 1e-9 * max(1.0, steps):
        below, above = lo + math.floor(steps) * step, lo + math.ceil(steps) * step
        raise ValueError(
            f"hi - lo = {hi - lo:.6g} is not a whole number of steps of {step:g}: "
            f"the thesis's grid includes both ends. Use hi = {below:.6g} or "
            f"{above:.6g}, or a step that divides the range."
        )
    start, d = typed_decimal(lo), typed_decimal(step)
    return np.array([float(start + k * d) for k in range(n + 1)])


def _on_step(value: float, step: float) -> bool:
    k = value / step
    return abs(k - round(k)) <= 1e-9 * max(1.0, abs(k))


def check_range(value, *, step=0.05) -> list:
    """A range of interest ``[lo, hi]`` (or ``[]``/None for none), checked: 0 <= lo < hi <= 1, on the grid.

    Both ends must be multiples of ``step`` (the thesis's grid, so that
    MTMCR's grid includes them). Returns ``[lo, hi]`` as the decimals meant,
    or ``[]``.

    Examples
    --------
    >>> from costwidget.model.comparison.ranges import check_range
    >>> check_range([0.35, 0.1 + 0.2 + 0.25])
    [0.35, 0.55]
    >>> check_range(None)
    []
    >>> check_range([0.31, 0.4])
    Traceback (most recent call last):
    ...
    ValueError: range of interest: 0.31 is not a multiple of 0.05 (the thesis's grid step); use [0.3, 0.4] or [0.35, 0.4].
    """
    if value is None or (hasattr(value, "__len__") and len(value) == 0):
        return []
    try:
        pair = [float(v) for v in value]
    except (TypeError, ValueError):
        raise TypeError(
            f"range of interest must be [lo, hi] (two numbers) or [] for none, got {value!r}."
        ) from None
    if len(pair) != 2:
        raise ValueError(
            f"range of interest must be [lo, hi] (two numbers) or [] for none, "
            f"got {len(pair)} values."
        )
    lo, hi = pair
    if not (0.0 <= lo < hi <= 1.0):
        raise ValueError(f"range of interest must satisfy 0 <= lo < hi <= 1, got [{lo:g}, {hi:g}].")
    for end in (lo, hi):
        if not _on_step(end, step):
            below, above = math.floor(end / step) * step, math.ceil(end / step) * step
            fix = (
                ([_round_decimal(below, step), hi], [_round_decimal(above, step), hi])
                if end == lo
                else ([lo, _round_decimal(below, step)], [lo, _round_decimal(above, step)])
            )
            fix = [f for f in fix if f[0] < f[1]]
            hint = " or ".join(f"[{a:g}, {b:g}]" for a, b in fix)
            raise ValueError(
                f"range of interest: {end:g} is not a multiple of {step:g} (the "
                f"thesis's grid step); use {hint}."
            )
    return [_round_decimal(lo, step), _round_decimal(hi, step)]


def _round_decimal(value: float, step: float) -> float:
    """The multiple of ``step`` nearest to ``value``, as the decimal it stands for."""
    return float(round(value / step) * typed_decimal(step))


def snap_range(lo, hi, *, step=0.05) -> list:
    """A brushed interval snapped to the grid: ``[lo, hi]`` of multiples of ``step``, or ``[]``.

    Each end goes to the nearest multiple; a non-empty interval narrower than
    one step becomes the grid interval around its middle; an empty one
    (a click) gives ``[]``.

    Examples
    --------
    >>> from costwidget.model.comparison.ranges import snap_range
    >>> snap_range(0.312, 0.561)
    [0.3, 0.55]
    >>> snap_range(0.41, 0.43)
    [0.4, 0.45]
    >>> snap_range(0.4, 0.4)
    []
    """
    lo, hi = sorted((float(lo), float(hi)))
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return []
    lo, hi = max(lo, 0.0), min(hi, 1.0)
    a, b = _round_decimal(lo, step), _round_decimal(hi, step)
    if b <= a:
        k = math.floor((lo + hi) / 2 / step)
        a, b = _round_decimal(k * step, step), _round_decimal((k + 1) * step, step)
        if b > 1.0:
            a, b = _round_decimal(1.0 - step, step), 1.0
    return [max(a, 0.0), min(b, 1.0)]
