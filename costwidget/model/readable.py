"""Numbers a person can read: one rounding rule for every number the widget shows.

The rule: at most 4 significant digits (trailing zeros dropped), except whole numbers below
100,000, which are shown in full (a count of 29,926 cases stays 29,926); whole numbers from
1,000 up are grouped with commas. So no number shown has more than 5 significant digits. The
state keeps full precision: only what is *shown* is rounded.

``js/src/operating_point.mjs`` (``readable``, ``readableValue``, ``roundSignificant``) does
the same, operation for operation; ``tests/test_frontend_parity.py`` checks it.
"""

from __future__ import annotations

import math

__all__ = ["readable", "readable_value", "round_significant", "lowest_names"]

#: Whole numbers below this are shown in full (at most 5 digits).
_WHOLE_IN_FULL = 1e5


def round_significant(x: float, digits: int) -> float:
    """``x`` rounded to ``digits`` significant digits (exact decimal rounding, half to even).

    Examples
    --------
    >>> from costwidget.model import round_significant
    >>> round_significant(0.29995937, 3), round_significant(57.543993733715666, 3)
    (0.3, 57.5)
    """
    x = float(x)
    if not math.isfinite(x) or x == 0.0:
        return x
    return float(f"{x:.{int(digits)}g}")


def readable_value(x: float) -> float:
    """The number a field shows for ``x``: 4 significant digits, whole numbers below 10^5 kept.

    Examples
    --------
    >>> from costwidget.model import readable_value
    >>> readable_value(3.1879154963398624), readable_value(29926.0)
    (3.188, 29926.0)
    >>> readable_value(0.8250000000000001)
    0.825
    """
    x = float(x)
    if math.isfinite(x) and x.is_integer() and abs(x) < _WHOLE_IN_FULL:
        return x
    return round_significant(x, 4)


def readable(x) -> str:
    """``x`` as text by the one rule (`readable_value`): "" for NaN or None, "∞" for infinity.

    Examples
    --------
    >>> from costwidget.model import readable
    >>> [readable(v) for v in (0.29995937, 57.543993733715666, 29926.0, 123456.0, 1e-7, -1.5)]
    ['0.3', '57.54', '29,926', '123,500', '1e-07', '-1.5']
    """
    if x is None:
        return ""
    x = float(x)
    if math.isnan(x):
        return ""
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    v = readable_value(x)
    if v.is_integer() and 1e3 <= abs(v) < 1e15:
        return f"{v:,.0f}"
    return f"{v:.4g}"


def lowest_names(rows, column: str) -> list:
    """Names of the rows whose ``column`` is the lowest, ties included (NaN never lowest).

    Two values tie when they agree to 12 significant digits of the lowest (the same cost
    computed two ways may differ in its last bits); at a lowest of 0 only zeros tie. A readout
    highlights, and a headline names, a row only when it is the one lowest.

    Examples
    --------
    >>> from costwidget.model import lowest_names
    >>> lowest_names([("a", {"c": 0.0}), ("b", {"c": 0.0}), ("d", {"c": 1.0})], "c")
    ['a', 'b']
    """
    values = [(name, float(row[column])) for name, row in rows
              if row.get(column) is not None and not math.isnan(float(row[column]))]
    if not values:
        return []
    low = min(v for _, v in values)
    tol = 1e-12 * abs(low)
    return [name for name, v in values if v - low <= tol]
