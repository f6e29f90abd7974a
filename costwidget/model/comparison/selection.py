"""Parameter-based selection against envelope selection (Drummond & Holte (2000), sec. 2.3, figs. 17-18).

A family of classifiers, each trained for a probability-cost value, is often
used by picking the one trained for the operating point at hand. The papers
show this is suboptimal: the envelope of the same classifiers (with the
trivial ones) is never worse. This module measures by how much, exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..kernels.costs import roc_point_to_cost_line
from ..kernels.envelope import Envelope
from ..kernels.hull import upper_hull
from ..kernels.validation import as_1d, check_finite, check_same_length

__all__ = ["SelectionComparison", "parameter_selection", "ratio_to_pcf"]


def ratio_to_pcf(ratio):
    """Probability-cost ratio R -> PCF(+) = 1 / (1 + R), as the papers convert it (Drummond & Holte (2000), sec. 2.3).

    Parameters
    ----------
    ratio : float or array-like
        Ratios ``p(-)C(+|-) / (p(+)C(-|+))``, finite and >= 0.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> import costwidget as cw
    >>> cw.ratio_to_pcf(3.0), cw.ratio_to_pcf([0.0, 1.0]).tolist()
    (0.25, [1.0, 0.5])
    """
    r = np.asarray(ratio, dtype=np.float64)
    if np.any(~np.isfinite(r) | (r < 0)):
        raise ValueError("probability-cost ratios must be finite and >= 0.")
    out = 1.0 / (1.0 + r)
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class SelectionComparison:
    """Cost of parameter-based selection against the lower envelope.

    Attributes
    ----------
    curve : DataFrame
        ``pcf``, ``selected`` (NEC of the classifier chosen by its training
        pcf), ``envelope`` (NEC of the lower envelope of the same classifiers
        and the trivial ones), ``excess`` = selected - envelope, at every
        breakpoint of either curve, so linear interpolation between rows is exact.
    switches : DataFrame
        ``pcf_lo``, ``pcf_hi``, ``classifier``, ``trained_pcf``, ``fpr``, ``tpr``:
        which classifier parameter-based selection uses where.
    area_between : float
        ∫ (selected - envelope) dx over [0, 1]: the expected extra NEC for
        uniformly distributed pcf.
    selected_area, envelope_area : float
        The areas under each curve.

    Examples
    --------
    >>> import costwidget as cw
    >>> r = cw.parameter_selection([0.1, 0.3], [0.5, 0.8], trained_pcf=[0.3, 0.6])
    >>> r.switches[["pcf_lo", "pcf_hi", "classifier"]].round(2).to_numpy().tolist()
    [[0.0, 0.45, 'classifier 0'], [0.45, 1.0, 'classifier 1']]
    """

    curve: pd.DataFrame
    switches: pd.DataFrame
    area_between: float
    selected_area: float
    envelope_area: float


def parameter_selection(fpr, tpr, trained_pcf, *, names=None) -> SelectionComparison:
    """Compare choosing by training pcf with choosing from the lower envelope.

    Parameters
    ----------
    fpr, tpr : array-like
        ROC points of the classifiers.
    trained_pcf : array-like
        The pcf each was trained for (use :func:`ratio_to_pcf` for ratios).
        Distinct values. At pcf x the classifier trained nearest to x is used;
        it switches at the midpoints between consecutive training values.
    names : list of str, optional


    Returns
    -------
    SelectionComparison

    Examples
    --------
    >>> import costwidget as cw
    >>> r = cw.parameter_selection([0.1, 0.4], [0.5, 0.9], [0.3, 0.7])
    >>> r.switches[["pcf_lo", "pcf_hi", "trained_pcf"]].to_numpy().tolist()
    [[0.0, 0.5, 0.3], [0.5, 1.0, 0.7]]
    >>> bool(r.area_between > 0)
    True
    """
    f = check_finite(as_1d(fpr, "fpr"), "fpr")
    t = check_finite(as_1d(tpr, "tpr"), "tpr")
    trained = check_finite(as_1d(trained_pcf, "trained_pcf"), "trained_pcf")
    check_same_length(fpr=f, tpr=t, trained_pcf=trained)
    for arr, label in ((f, "fpr"), (t, "tpr"), (trained, "trained_pcf")):
        if np.any((arr < 0) | (arr > 1)):
            raise ValueError(f"{label} must lie in [0, 1].")
    names = [f"classifier {i}" for i in range(len(f))] if names is None else list(names)
    if len(names) != len(f):
        raise ValueError(f"names has {len(names)} entries for {len(f)} classifiers.")
    order = np.argsort(trained, kind="stable")
    if np.any(np.diff(trained[order]) == 0):
        raise ValueError("trained_pcf has repeated values: the selection rule would be ambiguous.")
    f, t, trained = f[order], t[order], trained[order]
    names = [names[i] for i in order]
    mids = (trained[1:] + trained[:-1]) / 2
    lo = np.concatenate(([0.0], mids))
    hi = np.concatenate((mids, [1.0]))
    switches = pd.DataFrame(
        {
            "pcf_lo": lo,
            "pcf_hi": hi,
            "classifier": names,
            "trained_pcf": trained,
            "fpr": f,
            "tpr": t,
        }
    )

    # Envelope of the same classifiers plus the trivial ones.
    pf = np.concatenate(([0.0], f, [1.0]))
    pt = np.concatenate(([0.0], t, [1.0]))
    o = np.lexsort((pt, pf))
    pf, pt = pf[o], pt[o]
    uniq = np.concatenate(([True], (pf[1:] != pf[:-1]) | (pt[1:] != pt[:-1])))
    pf, pt = pf[uniq], pt[uniq]
    h = upper_hull(pf, pt)
    env = Envelope(pf[h], pt[h])

    env_x, _ = env.breakpoints()
    x = np.union1d(env_x, np.concatenate((lo, [1.0])))
    slope, intercept = roc_point_to_cost_line(f, t)
    # At a switch point the curve jumps; evaluate both sides so the table is exact.
    x = np.sort(np.concatenate((x, mids)))
    piece = np.searchsorted(mids, x, side="right")
    dup = np.concatenate(([False], x[1:] == x[:-1]))
    piece = np.where(dup, piece, np.minimum(piece, np.searchsorted(mids, x, side="left")))
    selected = slope[piece] * x + intercept[piece]
    envelope = env.nec(x)
    sel_area = _piecewise_area(x, selected)
    env_area = env.area()
    curve = pd.DataFrame(
        {"pcf": x, "selected": selected, "envelope": envelope, "excess": selected - envelope}
    )
    return SelectionComparison(
        curve=curve,
        switches=switches,
        area_between=sel_area - env_area,
        selected_area=sel_area,
        envelope_area=env_area,
    )


def _piecewise_area(x: np.ndarray, y: np.ndarray) -> float:
    """Trapezoids between rows; zero-width steps (jumps) add nothing."""
    return float(np.sum((y[1:] + y[:-1]) * np.diff(x)) / 2.0)
