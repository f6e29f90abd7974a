"""Neyman-Pearson and workforce constraints on the ROC convex hull (Drummond & Holte (2000), sec. 2.2.2).

Both maximize TPR subject to a linear constraint ``a·TPR + b·FPR <= c`` with
``a, b >= 0``. Along the hull from (0, 0) to (1, 1) the left-hand side only
grows, and the hull is concave, so the optimum is where the constraint line
meets the hull: a vertex, or a randomized mix of the two vertices of the edge
it crosses (Drummond & Holte (2000), fig. 10). The best *deterministic* choice is the ROC point
(any threshold, not only hull vertices) with the largest TPR that still
satisfies the constraint.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ConstrainedPoint", "solve_linear_constraint"]


@dataclass(frozen=True)
class ConstrainedPoint:
    """The answer to a Neyman-Pearson or workforce constraint.

    Attributes
    ----------
    kind : str
        ``"neyman_pearson"`` or ``"workforce"``.
    fpr, tpr : float
        The optimal (possibly randomized) classifier on the hull.
    binding : bool
        False when the constraint is slack: the best classifier (TPR = 1 at
        the lowest FPR) already satisfies it.
    randomized : bool
        True when the optimum lies strictly inside a hull edge.
    threshold_low, threshold_high : float
        Thresholds of the two hull vertices mixed (``threshold_high`` has the
        lower FPR). Equal when not randomized. NaN when unknown.
    prob_low : float
        Probability of using ``threshold_low`` (the higher-FPR vertex); use
        ``threshold_high`` with probability ``1 - prob_low``.
    single_threshold, single_fpr, single_tpr : float
        The best single, non-randomized threshold that satisfies the constraint.
    slope, intercept : float
        The optimal classifier's cost line ``NEC = slope·PCF + intercept`` (eq. 8).
    single_slope, single_intercept : float
        The cost line of the single-threshold choice.
    message : str
        One sentence saying what happened, for display.

    Examples
    --------
    >>> import costwidget as cw
    >>> cp = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).neyman_pearson(0.15)
    >>> cp.randomized, round(cp.fpr, 6), round(cp.tpr, 6), round(cp.prob_low, 6)
    (True, 0.15, 0.35, 0.5)
    """

    kind: str
    fpr: float
    tpr: float
    binding: bool
    randomized: bool
    threshold_low: float
    threshold_high: float
    prob_low: float
    single_threshold: float
    single_fpr: float
    single_tpr: float
    message: str

    @property
    def slope(self) -> float:
        return 1.0 - self.tpr - self.fpr

    @property
    def intercept(self) -> float:
        return self.fpr

    @property
    def single_slope(self) -> float:
        return 1.0 - self.single_tpr - self.single_fpr

    @property
    def single_intercept(self) -> float:
        return self.single_fpr

    def nec(self, pcf):
        """The optimal classifier's cost line at pcf."""
        return self.slope * np.asarray(pcf, dtype=np.float64) + self.intercept


def solve_linear_constraint(
    *,
    kind: str,
    load_hull: np.ndarray,
    hull_fpr: np.ndarray,
    hull_tpr: np.ndarray,
    hull_thresholds: np.ndarray,
    load_roc: np.ndarray,
    roc_fpr: np.ndarray,
    roc_tpr: np.ndarray,
    roc_thresholds: np.ndarray,
    limit: float,
    describe: str,
) -> ConstrainedPoint:
    """Maximize TPR subject to ``load <= limit``, where load is non-decreasing along hull and ROC.

    ``load_hull``/``load_roc`` are the constraint's left-hand side at every
    hull vertex / ROC point (e.g. FPR for Neyman-Pearson).
    """
    # The first vertex reaching the top TPR (1, up to rounding of weighted totals) is the
    # unconstrained best; beyond it TPR cannot grow. argmax returns the first maximum.
    top = int(np.argmax(hull_tpr))
    if load_hull[top] <= limit:
        k = top
        return _at_vertex(kind, k, hull_fpr, hull_tpr, hull_thresholds, load_roc, roc_fpr, roc_tpr,
                          roc_thresholds, limit, binding=False,
                          message=f"The {describe} does not bind: the classifier at "
                                  f"{_where(hull_thresholds[k], hull_fpr[k], hull_tpr[k])} already "
                                  f"reaches TPR = 1 within it.")
    # Last vertex within the limit; the next one exceeds it (k < top here).
    k = int(np.searchsorted(load_hull, limit, side="right")) - 1
    if load_hull[k] == limit:
        return _at_vertex(kind, k, hull_fpr, hull_tpr, hull_thresholds, load_roc, roc_fpr, roc_tpr,
                          roc_thresholds, limit, binding=True,
                          message=f"The {describe} is met exactly by the hull vertex at "
                                  f"{_where(hull_thresholds[k], hull_fpr[k], hull_tpr[k])}.")
    q = (limit - load_hull[k]) / (load_hull[k + 1] - load_hull[k])  # weight on vertex k + 1
    if not 0.0 < q < 1.0:  # the mix rounds to a vertex (e.g. a denormal limit): no coin to toss
        k = k if q <= 0.0 else k + 1
        return _at_vertex(kind, k, hull_fpr, hull_tpr, hull_thresholds, load_roc, roc_fpr, roc_tpr,
                          roc_thresholds, limit, binding=True,
                          message=f"The {describe} is met by the hull vertex at "
                                  f"{_where(hull_thresholds[k], hull_fpr[k], hull_tpr[k])}.")
    fpr = (1 - q) * hull_fpr[k] + q * hull_fpr[k + 1]
    tpr = (1 - q) * hull_tpr[k] + q * hull_tpr[k + 1]
    if kind == "neyman_pearson":
        fpr = limit  # exact: the mix meets FPR = max_fpr; the formula above may round 1 ulp over it
    single = _best_single(load_roc, roc_fpr, roc_tpr, roc_thresholds, limit)
    return ConstrainedPoint(
        kind=kind, fpr=float(fpr), tpr=float(tpr), binding=True, randomized=True,
        threshold_low=float(hull_thresholds[k + 1]), threshold_high=float(hull_thresholds[k]),
        prob_low=float(q),
        single_threshold=single[0], single_fpr=single[1], single_tpr=single[2],
        message=(f"The {describe} falls between two hull vertices: use "
                 f"{_where(hull_thresholds[k + 1], hull_fpr[k + 1], hull_tpr[k + 1])} with "
                 f"probability {q:.4g} and {_where(hull_thresholds[k], hull_fpr[k], hull_tpr[k])} "
                 f"otherwise (TPR {tpr:.4g}). The best single choice is "
                 f"{_where(*single)} (TPR {single[2]:.4g})."),
    )


def _where(threshold, fpr, tpr) -> str:
    """Name an ROC point by its threshold, or by its rates when it has none (from_roc/from_confusion)."""
    if np.isnan(threshold):
        return f"the ROC point (FPR {fpr:.4g}, TPR {tpr:.4g})"
    return f"threshold {threshold:.6g}"


def _best_single(load_roc, roc_fpr, roc_tpr, roc_thresholds, limit):
    # Any ROC point may be used alone; among those within the limit take the largest
    # TPR, and among equal TPRs the lowest load. (0, 0) always qualifies (limit >= 0).
    within = np.flatnonzero(load_roc <= limit)
    best_tpr = roc_tpr[within].max()
    ties = within[roc_tpr[within] == best_tpr]
    j = int(ties[np.argmin(load_roc[ties])])
    return float(roc_thresholds[j]), float(roc_fpr[j]), float(roc_tpr[j])


def _at_vertex(kind, k, hull_fpr, hull_tpr, hull_thresholds, load_roc, roc_fpr, roc_tpr,
               roc_thresholds, limit, *, binding, message):
    single = _best_single(load_roc, roc_fpr, roc_tpr, roc_thresholds, limit)
    return ConstrainedPoint(
        kind=kind, fpr=float(hull_fpr[k]), tpr=float(hull_tpr[k]), binding=binding,
        randomized=False, threshold_low=float(hull_thresholds[k]),
        threshold_high=float(hull_thresholds[k]), prob_low=0.0,
        single_threshold=single[0], single_fpr=single[1], single_tpr=single[2], message=message,
    )
