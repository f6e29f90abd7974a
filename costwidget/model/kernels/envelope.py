"""The lower envelope of cost lines, the dual of the ROC convex hull.

Hull vertex k at ROC point (f_k, t_k) is a cost line (eq. 8; its slope and intercept from
``costs.roc_point_to_cost_line``). Consecutive vertices' lines cross at
``x = Δf / (Δf + Δt)``; vertex k is optimal between the crossing with its left
neighbour and the crossing with its right neighbour. Because the hull is
concave, the crossings increase along the hull, so the envelope is read off
with one ``searchsorted``. The hull always starts at (0, 0) and ends at (1, 1),
so the trivial classifiers' lines y = x and y = 1 - x are part of it.
"""

from __future__ import annotations

import numpy as np

from .costs import roc_point_to_cost_line
from .hull import upper_hull

__all__ = ["Envelope", "envelope_of_counts", "hull_crossings"]


class Envelope:
    """Lower envelope of the cost lines of hull vertices ``(fpr, tpr)``.

    Parameters
    ----------
    fpr, tpr : ndarray
        Hull vertices from (0, 0) to (1, 1), in hull order.
    crossings : ndarray, optional
        ``crossings[k]``, the pcf where vertex k hands over to vertex k + 1,
        when the caller knows it more exactly than the rates do (from the
        integer counts, see ``classifier._crossings``). By default it is
        ``Δf / (Δf + Δt)`` of the given rates.

    Examples
    --------
    >>> from costwidget.model.kernels.envelope import Envelope
    >>> env = Envelope([0.0, 0.3, 1.0], [0.0, 0.7, 1.0])   # Drummond & Holte (2000), figure 4
    >>> env.crossings.tolist(), float(env.nec(0.5))
    ([0.3, 0.7], 0.3)
    """

    def __init__(self, fpr: np.ndarray, tpr: np.ndarray, *, crossings: np.ndarray | None = None):
        self.fpr = np.asarray(fpr, dtype=np.float64)
        self.tpr = np.asarray(tpr, dtype=np.float64)
        self.slope, self.intercept = roc_point_to_cost_line(self.fpr, self.tpr)
        if crossings is None:
            dfp = np.diff(self.fpr)
            dtp = np.diff(self.tpr)
            crossings = dfp / (dfp + dtp)
        # crossings[k] is where vertex k hands over to vertex k + 1.
        self.crossings = np.asarray(crossings, dtype=np.float64)

    def __len__(self) -> int:
        return len(self.fpr)

    def vertex_at(self, pcf: np.ndarray) -> np.ndarray:
        """Index of the optimal vertex at each pcf.

        At a crossing two vertices tie; the one returned is optimal just to the
        right of it (the one optimal just to the left at pcf = 1), so that at
        pcf = 0 the returned vertex is the best classifier with FPR = 0, not the
        trivial all-negative one.
        """
        pcf = np.asarray(pcf, dtype=np.float64)
        k = np.searchsorted(self.crossings, pcf, side="right")
        at_one = pcf >= 1.0
        if np.any(at_one):
            k = np.where(at_one, np.searchsorted(self.crossings, 1.0, side="left"), k)
        return k

    def nec(self, pcf: np.ndarray) -> np.ndarray:
        """Envelope value: the optimal vertex's cost line evaluated at pcf."""
        k = self.vertex_at(pcf)
        return self.slope[k] * pcf + self.intercept[k]

    def breakpoints(self) -> tuple[np.ndarray, np.ndarray]:
        """(pcf, nec) of every envelope breakpoint, from pcf 0 to 1, without repeats."""
        inner = self.crossings
        x = np.concatenate(([0.0], inner, [1.0]))
        # Value at a crossing from the left vertex's line (both lines agree there).
        left_vertex = np.concatenate(([0], np.arange(len(inner)), [len(self.fpr) - 1]))
        y = self.slope[left_vertex] * x + self.intercept[left_vertex]
        keep = np.ones(len(x), dtype=bool)
        keep[1:] = x[1:] > x[:-1]
        return x[keep], y[keep]

    def segments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(pcf_lo, pcf_hi, vertex) for every vertex optimal on an interval of positive length."""
        lo = np.concatenate(([0.0], self.crossings))
        hi = np.concatenate((self.crossings, [1.0]))
        keep = hi > lo
        return lo[keep], hi[keep], np.flatnonzero(keep)

    def area(self, lo: float = 0.0, hi: float = 1.0) -> float:
        """Exact ∫ NEC dx over [lo, hi] (trapezoids are exact on linear pieces)."""
        if hi <= lo:
            return 0.0
        x, _ = self.breakpoints()
        inside = x[(x > lo) & (x < hi)]
        grid = np.concatenate(([lo], inside, [hi]))
        y = self.nec(grid)
        return float(np.sum((y[1:] + y[:-1]) * np.diff(grid)) / 2.0)

    def operating_range(self) -> tuple[float, float]:
        """(lo, hi): where the envelope is strictly below both trivial lines.

        ``lo`` is where the first non-trivial vertex takes over from the
        all-negative classifier (0, 0); ``hi`` is where the all-positive
        classifier (1, 1) takes over. A hull that is only the diagonal has no
        operating range and gives ``lo == hi``.
        """
        return float(self.crossings[0]), float(self.crossings[-1])


def hull_crossings(hull_fp, hull_tp, n_pos, n_neg) -> np.ndarray:
    """pcf where consecutive hull vertices' cost lines cross: Δf / (Δf + Δt) (eq. 8).

    Integer counts: ΔFP·P / (ΔFP·P + ΔTP·N), exact products, one rounding.
    Float counts (weights, rates): from the rate differences ΔFP/N and ΔTP/P,
    which lie in [0, 1] whatever the scale of the counts; a product of two
    weighted counts would overflow at 1e160 or underflow at 1e-160.
    """
    if hull_fp.dtype.kind in "iu" and hull_tp.dtype.kind in "iu":
        dfp = np.diff(hull_fp) * float(n_pos)
        dtp = np.diff(hull_tp) * float(n_neg)
    else:
        dfp = np.diff(hull_fp) / n_neg
        dtp = np.diff(hull_tp) / n_pos
    return dfp / (dfp + dtp)


def envelope_of_counts(counts) -> tuple[np.ndarray, Envelope]:
    """(hull vertex indices into the ROC points, their :class:`Envelope`) of a ``RocCounts``.

    The one way a classifier's envelope is made from its counts, so that a classifier refitted
    on part of the data (``out_of_fold``) chooses its thresholds exactly as ``Classifier.best``.
    """
    hull = upper_hull(counts.fp, counts.tp, counts.hull_candidates)
    hull_fp, hull_tp = counts.fp[hull], counts.tp[hull]
    return hull, Envelope(
        hull_fp / counts.n_neg,
        hull_tp / counts.n_pos,
        crossings=hull_crossings(hull_fp, hull_tp, counts.n_pos, counts.n_neg),
    )
