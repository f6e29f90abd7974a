"""Drawing geometry for the widget: line segments clipped to ROC space, and curve thinning.

Plain numpy; the widget only maps these numbers to plot marks. Equation
numbers are those of Drummond & Holte (2000).
"""

from __future__ import annotations

import numpy as np

from .validation import check_pcf, check_probability

__all__ = [
    "clip_line_to_unit_square",
    "iso_performance_segment",
    "workforce_segment",
    "cost_ratio_for_pcf",
    "thin_indices",
]


def clip_line_to_unit_square(x0, y0, dx, dy):
    """Clip the lines ``(x0 + u·dx, y0 + u·dy)`` to the square [0, 1]².

    Vectorized over the inputs. Returns ``(xa, ya, xb, yb)``, the two ends
    (``xa <= xb`` when dx > 0); NaN where a line misses the square.
    """
    x0, y0, dx, dy = np.broadcast_arrays(
        *(np.asarray(a, dtype=np.float64) for a in (x0, y0, dx, dy))
    )
    lo = np.full(x0.shape, -np.inf)
    hi = np.full(x0.shape, np.inf)
    for p, d in ((x0, dx), (y0, dy)):
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.where(d != 0, (0.0 - p) / d, -np.inf)
            b = np.where(d != 0, (1.0 - p) / d, np.inf)
        # A direction with no component along this axis: the line is inside iff p is.
        outside = (d == 0) & ((p < 0) | (p > 1))
        lo = np.maximum(lo, np.minimum(a, b))
        hi = np.minimum(hi, np.maximum(a, b))
        hi = np.where(outside, -np.inf, hi)
    miss = hi < lo
    lo = np.where(miss, np.nan, lo)
    hi = np.where(miss, np.nan, hi)
    return x0 + lo * dx, y0 + lo * dy, x0 + hi * dx, y0 + hi * dy


def iso_performance_segment(fpr, tpr, pcf):
    """The ROC iso-performance line through ``(fpr, tpr)`` at ``pcf``, clipped to ROC space.

    Its slope is ``p(-)C(+|-) / (p(+)C(-|+)) = (1 - pcf) / pcf`` (eq. 1); at
    pcf = 0 it is vertical, at pcf = 1 horizontal. Returns ``(xa, ya, xb, yb)``.

    Examples
    --------
    >>> from costwidget.model.kernels.geometry import iso_performance_segment
    >>> [round(float(v), 6) for v in iso_performance_segment(0.2, 0.6, 0.5)]
    [0.0, 0.4, 0.6, 1.0]
    """
    x = check_pcf(pcf)
    # Direction (pcf, 1 - pcf) has slope (1 - pcf)/pcf without dividing by zero.
    return clip_line_to_unit_square(fpr, tpr, x, 1.0 - x)


def workforce_segment(capacity, n_pos, n_neg):
    """The ROC line ``TPR·n_pos + FPR·n_neg = capacity`` (eq. 12-13), clipped to ROC space.

    Examples
    --------
    >>> from costwidget.model.kernels.geometry import workforce_segment
    >>> [round(float(v), 6) for v in workforce_segment(50, 100, 100)]
    [0.0, 0.5, 0.5, 0.0]
    """
    if n_pos <= 0:
        raise ValueError(f"n_pos must be > 0, got {n_pos!r}.")
    return clip_line_to_unit_square(0.0, capacity / n_pos, n_pos, -float(n_neg))


def cost_ratio_for_pcf(pcf, p_pos):
    """The cost ratio ``C(-|+)/C(+|-)`` that gives ``pcf`` at prevalence ``p_pos`` (eq. 6 inverted).

    ``pcf·(1 - p) / ((1 - pcf)·p)``; inf at pcf = 1.

    Examples
    --------
    >>> from costwidget.model.kernels.geometry import cost_ratio_for_pcf
    >>> import costwidget as cw
    >>> r = cost_ratio_for_pcf(0.25, 0.1)
    >>> round(cw.probability_cost(0.1, r, 1.0), 12)
    0.25
    """
    x = np.asarray(check_pcf(pcf), dtype=np.float64)
    p = np.asarray(check_probability(p_pos, "p_pos"), dtype=np.float64)
    if np.any((p <= 0) | (p >= 1)):
        raise ValueError(
            f"p_pos must lie strictly between 0 and 1 to set pcf by the costs, got {p_pos!r}."
        )
    with np.errstate(divide="ignore"):
        out = x * (1.0 - p) / ((1.0 - x) * p)
    return float(out) if out.ndim == 0 else out


def thin_indices(x, y, max_points: int = 2000) -> np.ndarray:
    """Indices of at most ``max_points`` points of a polyline, evenly spaced along its length.

    The first and last points are always kept. Arc-length spacing keeps a
    staircase ROC curve visually exact at ~2000 points; hulls and envelopes
    are never thinned.

    Examples
    --------
    >>> import numpy as np
    >>> from costwidget.model.kernels.geometry import thin_indices
    >>> idx = thin_indices(np.linspace(0, 1, 10_001), np.linspace(0, 1, 10_001), 100)
    >>> len(idx) <= 100, int(idx[0]), int(idx[-1])
    (True, 0, 10000)
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = len(x)
    if max_points < 2:
        raise ValueError(f"max_points must be >= 2, got {max_points!r}.")
    if n <= max_points:
        return np.arange(n)
    step = np.hypot(np.diff(x), np.diff(y))
    s = np.concatenate(([0.0], np.cumsum(step)))
    targets = np.linspace(0.0, s[-1], max_points)
    idx = np.searchsorted(s, targets, side="left")
    idx = np.clip(idx, 0, n - 1)
    idx[0], idx[-1] = 0, n - 1
    return np.unique(idx)
