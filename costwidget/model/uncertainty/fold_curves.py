"""The geometry of fold curves: a polyline read at FPR values, the points of a vertical
average, the ROC points of a concave cost curve and the lower envelope of cost lines, shared by
the fold averages of per-class costs (:mod:`.folds`) and of per-case costs
(:mod:`.case_folds`); Drummond & Holte (2000), sec. 2.2.3 (the ROC-space averages mapped to
cost space) and Drummond & Holte (2004), sec. 7."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..kernels.envelope import Envelope
from ..kernels.hull import upper_hull

__all__ = [
    "cost_frame",
    "cost_to_roc",
    "lines_envelope",
    "polyline_at",
    "roc_frame",
    "vertical_runs",
]


def roc_frame(points: pd.DataFrame) -> pd.DataFrame:
    # Every ROC-space average has the same columns; averages that are not made of
    # score thresholds (cost, vertical) have threshold NaN, as from_confusion does.
    return pd.DataFrame(
        {
            "threshold": np.full(len(points), np.nan),
            "fpr": points.fpr.to_numpy(),
            "tpr": points.tpr.to_numpy(),
        }
    )


def cost_frame(env: Envelope) -> pd.DataFrame:
    x, y = env.breakpoints()
    return pd.DataFrame({"pcf": x, "nec": y})


def polyline_at(f: np.ndarray, t: np.ndarray, grid: np.ndarray):
    """(bottom, top) TPR of the polyline through the points (f, t) at each FPR of ``grid``.

    ``f``/``t`` are sorted by FPR then TPR and run from FPR 0 to 1. At an FPR
    where the polyline has a vertical run the two differ: ``bottom`` is the
    left limit (where the curve arrives) and ``top`` the right limit (where it
    leaves); elsewhere both are the height of the segment over that FPR.
    """
    first = np.concatenate(([True], f[1:] != f[:-1]))
    last = np.concatenate((f[1:] != f[:-1], [True]))
    u, bottom, top = f[first], t[first], t[last]
    j = np.clip(np.searchsorted(u, grid, side="right") - 1, 0, len(u) - 1)
    at_vertex = u[j] == grid
    # Between vertices j and j + 1 the curve is the segment from the top of j to the bottom of j + 1.
    nxt = np.minimum(j + 1, len(u) - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = (grid - u[j]) / (u[nxt] - u[j])
    between = top[j] + (bottom[nxt] - top[j]) * w
    return np.where(at_vertex, bottom[j], between), np.where(at_vertex, top[j], between)


def vertical_runs(grid, bottom, top, run):
    """The mean polyline's points: ``(grid, bottom)`` and, where some fold runs vertically,
    also ``(grid, top)``, sorted along the curve without repeats."""
    fpr = np.concatenate((grid, grid[run]))
    tpr = np.concatenate((bottom, top[run]))
    order = np.lexsort((tpr, fpr))
    fpr, tpr = fpr[order], tpr[order]
    keep = np.concatenate(([True], (fpr[1:] != fpr[:-1]) | (tpr[1:] != tpr[:-1])))
    return fpr[keep], tpr[keep]


def cost_to_roc(x, y, *, corners=False) -> pd.DataFrame:
    """The ROC points of a concave piecewise-linear cost curve with breakpoints ``(x, y)``:
    each linear piece ``y = s·x + f`` is the ROC point ``(f, 1 − s − f)``. ``corners`` adds
    the trivial classifiers (0, 0) and (1, 1) (per-class folds' envelopes always hold them).

    Examples
    --------
    >>> cost_to_roc([0.0, 0.5, 1.0], [0.0, 0.25, 0.0], corners=True)[["fpr", "tpr"]].to_numpy().tolist()
    [[0.0, 0.0], [0.0, 0.5], [0.5, 1.0], [1.0, 1.0]]
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    slope = np.diff(y) / np.diff(x)
    intercept = y[:-1] - slope * x[:-1]
    fpr, tpr = intercept, 1.0 - slope - intercept
    if corners:
        fpr = np.concatenate(([0.0], fpr, [1.0]))
        tpr = np.concatenate(([0.0], tpr, [1.0]))
    pts = pd.DataFrame({"fpr": fpr, "tpr": tpr}).drop_duplicates(ignore_index=True)
    return roc_frame(pts.sort_values(["fpr", "tpr"], ignore_index=True))


def lines_envelope(u, v) -> Envelope:
    """The lower envelope of the lines ``(1 − x)·u + x·v`` (``u`` rising, ``v`` falling along
    the thresholds), as an :class:`Envelope` of the dual points ``(u, 1 − v)``: no trivial
    corners are added, the part's flag-none and flag-all lines are among its lines.

    Examples
    --------
    >>> env = lines_envelope([0.0, 0.1, 0.6], [0.8, 0.3, 0.0])
    >>> [round(float(y), 6) for y in env.nec([0.0, 0.5, 1.0])]
    [0.0, 0.2, 0.0]
    """
    f = np.asarray(u, dtype=np.float64)
    t = 1.0 - np.asarray(v, dtype=np.float64)
    order = np.lexsort((t, f))
    f, t = f[order], t[order]
    keep = np.concatenate(([True], (np.diff(f) != 0) | (np.diff(t) != 0)))
    f, t = f[keep], t[keep]
    h = upper_hull(f, t)
    return Envelope(f[h], t[h])
