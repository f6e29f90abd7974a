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
from decimal import ROUND_FLOOR, Decimal

import numpy as np

__all__ = [
    "readable",
    "readable_value",
    "round_significant",
    "lowest_names",
    "selecting_threshold",
    "threshold_text",
    "deployed_threshold",
    "next_lower_scores",
    "axis_ticks",
]

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
    >>> readable(-0.0)   # no "-0": a zero has no sign a reader needs
    '0'
    """
    if x is None:
        return ""
    x = float(x)
    if math.isnan(x):
        return ""
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    v = readable_value(x) + 0.0  # -0.0 + 0.0 is 0.0: never "-0"
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
    values = [
        (name, float(row[column]))
        for name, row in rows
        if row.get(column) is not None and not math.isnan(float(row[column]))
    ]
    if not values:
        return []
    low = min(v for _, v in values)
    tol = 1e-12 * abs(low)
    return [name for name, v in values if v - low <= tol]


def selecting_threshold(threshold: float, next_lower: float | None = None) -> str:
    """The shortest decimal text ``d`` with ``next_lower < float(d) <= threshold``.

    A rule ``score >= float(d)`` then flags exactly the cases ``score >= threshold`` flags,
    when ``next_lower`` is the next lower distinct score (a rounded threshold such as 0.3003
    for 0.30027084 would name another rule when a score lies between them). For each number
    of significant digits from 1 up, the threshold rounded down to that many digits is tried;
    the first that still lies above ``next_lower`` is shown, written as `threshold_text` writes
    it. Without ``next_lower`` (None or NaN) the text is the shortest that reads back as
    ``threshold`` itself. Never "-0".

    ``js/src/operating_point.mjs`` ``selectingThreshold`` does the same.

    Examples
    --------
    >>> from costwidget.model.kernels.readable import selecting_threshold
    >>> selecting_threshold(0.30027084, 0.3001), selecting_threshold(0.30027084, 0.1)
    ('0.3002', '0.3')
    >>> selecting_threshold(2.5, -1.0), selecting_threshold(-0.0, -1.0), selecting_threshold(150, 50)
    ('0', '0', '100')
    >>> selecting_threshold(0.1 + 0.2)   # no lower score known: the threshold itself
    '0.30000000000000004'
    """
    t = float(threshold)
    if not math.isfinite(t):
        return readable(t)
    lo = math.nan if next_lower is None else float(next_lower)
    if math.isnan(lo):
        lo = math.nextafter(t, -math.inf)
    if lo < 0.0 <= t:
        return "0"
    exact = Decimal(t)
    for digits in range(1, 18):
        quantum = Decimal(1).scaleb(exact.adjusted() - digits + 1)
        text = format(float(exact.quantize(quantum, rounding=ROUND_FLOOR)), f".{digits}g")
        if lo < float(text) <= t:
            return threshold_text(float(text))
    return threshold_text(t)


def threshold_text(x: float) -> str:
    """``x`` in full: the shortest decimal that reads back as ``x`` exactly (a threshold shown is
    the one deployed, so it is never rounded); whole numbers without an exponent, never "-0";
    "∞"/"−∞" for infinities, "" for NaN.

    ``js/src/operating_point.mjs`` ``thresholdText`` does the same.

    Examples
    --------
    >>> from costwidget.model.kernels.readable import threshold_text
    >>> [threshold_text(v) for v in (0.387, 0.38708929607674936, 100.0, 1e-7, -0.0)]
    ['0.387', '0.38708929607674936', '100', '1e-07', '0']
    """
    x = float(x)
    if not math.isfinite(x):
        return readable(x)
    if x.is_integer() and abs(x) < 1e16:
        return f"{x + 0.0:.0f}"  # + 0.0: no "-0"
    for digits in range(1, 18):
        text = format(x, f".{digits}g")
        if float(text) == x:
            return text
    return format(x, ".17g")


def deployed_threshold(threshold: float, next_lower: float | None = None) -> float:
    """The threshold a rule deploys for the lowest flagged score ``threshold``: the one number the
    headline, the readout, `DecisionRule` and ``to_estimator`` share.

    ``next_lower`` is the next lower distinct score (``-inf`` below the lowest; None or NaN when
    unknown). The answer is the shortest decimal in ``(next_lower, threshold]``
    (`selecting_threshold`): ``score >= answer`` flags exactly the cases ``score >= threshold``
    flags on the data, and it is the number a reader can type. A rule that flags every case
    (``threshold`` the lowest score) deploys ``-inf``, so that it flags every new case too,
    whatever its score; ``+inf`` (flag no case) and NaN (no threshold known) stay; a threshold
    whose next lower score is unknown is deployed as it is.

    Examples
    --------
    >>> from costwidget.model.kernels.readable import deployed_threshold
    >>> deployed_threshold(0.38708929607674936, 0.3012), deployed_threshold(0.05, -math.inf)
    (0.38, -inf)
    >>> deployed_threshold(math.inf, 0.9), deployed_threshold(0.3871, None)
    (inf, 0.3871)
    """
    t = float(threshold)
    lo = math.nan if next_lower is None else float(next_lower)
    if math.isnan(t) or t == math.inf or t == -math.inf:
        return t
    if lo == -math.inf:
        return -math.inf
    if math.isnan(lo):
        return t
    return float(selecting_threshold(t, lo))


def next_lower_scores(scores_descending, thresholds) -> np.ndarray:
    """For each of ``thresholds`` (each one of the scores), the next lower distinct score.

    ``scores_descending`` are a classifier's distinct scores from highest to lowest (its ROC
    thresholds, ``+inf`` first); the answer is ``-inf`` below the lowest and NaN for a threshold
    that is not a score (NaN: a classifier known by its ROC points only).

    Examples
    --------
    >>> from costwidget.model.kernels.readable import next_lower_scores
    >>> next_lower_scores([np.inf, 0.9, 0.5, 0.2], [np.inf, 0.5, 0.2, np.nan]).tolist()
    [0.9, 0.2, -inf, nan]
    """
    desc = np.asarray(scores_descending, dtype=float)
    want = np.asarray(thresholds, dtype=float)
    ascending = desc[::-1]
    at = np.searchsorted(ascending, want, side="left")  # ascending[at] == want when present
    found = (at < ascending.size) & (ascending[np.minimum(at, ascending.size - 1)] == want)
    below = np.where(at > 0, ascending[np.maximum(at - 1, 0)], -np.inf)
    return np.where(found, below, np.nan)


def axis_ticks(lo: float, hi: float, count: int = 5) -> tuple[np.ndarray, str]:
    """Round tick values over ``[lo, hi]`` and a format that tells every one apart.

    The step is 1, 2 or 5 times a power of ten, the smallest not under 3/4 of ``(hi - lo) /
    count`` (so about ``count`` ticks, at most 4/3 as many); the format has as many decimals as
    the step needs (a fixed ``.2f`` read 0.01, 0.01, 0.00 for ticks 0.005 apart). Zero is
    written "0.00", never "-0.00".

    Examples
    --------
    >>> from costwidget.model.kernels.readable import axis_ticks
    >>> ticks, fmt = axis_ticks(-0.0137, 0.012)
    >>> [format(t, fmt) for t in ticks]
    ['-0.010', '-0.005', '0.000', '0.005', '0.010']
    >>> ticks, fmt = axis_ticks(0.0, 0.5)
    >>> fmt, ticks.tolist()
    ('.1f', [0.0, 0.1, 0.2, 0.3, 0.4, 0.5])
    """
    lo, hi = float(lo), float(hi)
    if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
        raise ValueError(f"an axis needs finite lo < hi, got [{lo!r}, {hi!r}].")
    raw = 0.75 * (hi - lo) / max(int(count), 1)  # a step a little under span/count is fine
    power = math.floor(math.log10(raw))
    step, decimals = None, 0
    for k in (power, power + 1):
        for m in (1, 2, 5):
            s = m * 10.0**k
            if s >= raw * (1 - 1e-9):
                step, decimals = s, max(0, -k)
                break
        if step is not None:
            break
    first, last = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
    ticks = np.round(np.arange(first, last + 1) * step, decimals + 1) + 0.0  # + 0.0: no -0
    return ticks, f".{decimals}f"
