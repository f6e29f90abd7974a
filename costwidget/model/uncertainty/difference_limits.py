"""The limits of a difference band from its replicates: pointwise percentile limits or the
bootstrap sup-t band that holds at every grid point at once (Drummond & Holte (2004), sec. 9,
read at many PCF(+) together), and the band's table. Shared by the per-class band
(:mod:`.paired`) and the per-case one (:mod:`.case_paired`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .bands import percentile_rows

__all__ = ["SD_FLOOR", "band_frame", "max_deviations", "simultaneous_limits"]

#: Grid points whose bootstrap SD is at most this (NEC) have no spread to standardize by.
SD_FLOOR = 1e-12


def max_deviations(reps: np.ndarray, center: np.ndarray):
    """Bootstrap SD per grid point and the sorted sup-t statistics of the replicates.

    ``M_r = max_j |reps[r, j] - center[j]| / sd[j]`` over the grid points
    whose SD exceeds :data:`SD_FLOOR`; points with no spread are left out
    (every replicate there equals the original up to rounding).

    Parameters
    ----------
    reps : ndarray, (B, n_grid)
        Bootstrap replicates of a curve.
    center : ndarray, (n_grid,)
        The curve on the original data, computed as the replicates are (the
        same score bins), so that a replicate equal to it deviates by 0.

    Returns
    -------
    sd : ndarray, (n_grid,)
        Standard deviation of the replicates at each grid point (ddof = 1).
    max_dev : ndarray, (B,)
        ``M_r`` of every replicate, sorted ascending (all 0 if no point has spread).

    Examples
    --------
    >>> import numpy as np
    >>> reps = np.array([[0.0, 1.0], [0.0, 3.0], [0.0, 2.0]])
    >>> sd, m = max_deviations(reps, np.array([0.0, 2.0]))
    >>> sd.tolist(), m.tolist()
    ([0.0, 1.0], [0.0, 1.0, 1.0])
    """
    ddof = 1 if reps.shape[0] > 1 else 0
    sd = reps.std(axis=0, ddof=ddof)
    live = sd > SD_FLOOR
    if not live.any():
        return sd, np.zeros(reps.shape[0])
    dev = np.abs(reps[:, live] - center[live]) / sd[live]
    return sd, np.sort(dev.max(axis=1))


def simultaneous_limits(center, sd, max_dev_sorted, sorted_reps, level):
    """Sup-t band ``center ± c·sd``, c the ``level`` quantile of the max deviations.

    ``c`` is the ``ceil(level·B)``-th smallest of the B statistics, so that at
    least a fraction ``level`` of the replicates lie inside the band at every
    grid point at once. Where the SD is 0 the band is the range of the
    original value and the replicates (all equal up to rounding).

    Parameters
    ----------
    center, sd : ndarray, (n_grid,)
        The original curve and the replicates' SD (:func:`max_deviations`).
    max_dev_sorted : ndarray, (B,)
        The sorted sup-t statistics (:func:`max_deviations`).
    sorted_reps : ndarray, (B, n_grid)
        The replicates sorted per grid point (for the points without spread).
    level : float in (0, 1)
        Simultaneous confidence level.

    Returns
    -------
    lower, upper : ndarray, (n_grid,)
        The band.
    c : float
        The critical value.

    Examples
    --------
    >>> import numpy as np
    >>> reps = np.sort(np.array([[0.0, 1.0], [0.0, 3.0], [0.0, 2.0]]), axis=0)
    >>> center = np.array([0.0, 2.0])
    >>> sd, m = max_deviations(reps, center)
    >>> lo, hi, c = simultaneous_limits(center, sd, m, reps, 0.9)
    >>> lo.tolist(), hi.tolist(), c
    ([0.0, 1.0], [0.0, 3.0], 1.0)
    """
    b = len(max_dev_sorted)
    c = float(max_dev_sorted[max(int(math.ceil(level * b - 1e-9)), 1) - 1])
    lower, upper = center - c * sd, center + c * sd
    dead = sd <= SD_FLOOR
    lower[dead] = np.minimum(center[dead], sorted_reps[0, dead])
    upper[dead] = np.maximum(center[dead], sorted_reps[-1, dead])
    return lower, upper, c


def band_frame(x, diff, reps: dict, level, *, simultaneous: bool, paired: bool) -> pd.DataFrame:
    """The band's table from its replicates (``sorted``, ``sd``, ``max_dev``, ``centre``,
    ``bound``, as :func:`difference_band` keeps them): its limits, where they exclude 0, and
    the ``attrs`` that say which band it is.

    Examples
    --------
    >>> import numpy as np
    >>> reps = np.array([[0.1, 0.3], [0.2, 0.5], [0.3, 0.4]])
    >>> sd, max_dev = max_deviations(reps, np.array([0.2, 0.4]))
    >>> drawn = {"sorted": np.sort(reps, axis=0), "sd": sd, "max_dev": max_dev, "bound": 0.0,
    ...          "centre": np.array([0.2, 0.4])}
    >>> band = band_frame(np.array([0.0, 1.0]), np.array([0.2, 0.4]), drawn, 0.5,
    ...                   simultaneous=False, paired=True)
    >>> band[["lower", "upper", "significant"]].to_numpy().tolist(), band.attrs["label"]
    ([[0.1, 0.3, True], [0.3, 0.5, True]], 'pointwise 50 % band')
    """
    if simultaneous:
        lower, upper, crit = simultaneous_limits(
            reps["centre"], reps["sd"], reps["max_dev"], reps["sorted"], level
        )
    else:
        (lower, upper), crit = percentile_rows(reps["sorted"], level), None
    out = pd.DataFrame(
        {
            "pcf": x,
            "diff": diff,
            "lower": lower,
            "upper": upper,
            "significant": (lower > 0) | (upper < 0),
        }
    )
    kind = "simultaneous" if simultaneous else "pointwise"
    out.attrs.update(
        {
            "kind": kind,
            "simultaneous": simultaneous,
            "label": f"{kind} {level:.0%} band".replace("%", " %"),
            "level": level,
            "n_boot": int(reps["sorted"].shape[0]),
            "paired": paired,
            "critical_value": crit,
            "coarsening_bound": reps["bound"],
        }
    )
    return out
