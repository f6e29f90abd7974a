"""The result types of a classifier's queries, all immutable: :class:`OperatingPoint` (the optimal
hull vertex at one operating point), :class:`OperatingRange` and
:class:`ConstrainedPoint` (a Neyman-Pearson or workforce answer). Nothing here knows ``Classifier``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..kernels.costs import cost_line_value, roc_point_to_cost_line

__all__ = ["ConstrainedPoint", "OperatingPoint", "OperatingRange"]


@dataclass(frozen=True)
class OperatingPoint:
    """The optimal hull vertex at one operating point (what :meth:`Classifier.best` returns).

    ``threshold`` is NaN when the classifier has no score threshold (a single
    confusion matrix). ``expected_cost`` is per case, in the units of the
    costs given, and NaN when only a pcf was given.

    Parameters
    ----------
    pcf, threshold, fpr, tpr, nec : float
        Where, which threshold, its rates and its normalized expected cost.
    expected_cost : float, default=nan

    Examples
    --------
    >>> import costwidget as cw
    >>> op = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).best(0.5)
    >>> op.fpr, op.tpr, round(op.slope, 6)
    (0.3, 0.7, 0.0)
    """

    pcf: float
    threshold: float
    fpr: float
    tpr: float
    nec: float
    expected_cost: float = math.nan

    @property
    def slope(self) -> float:
        """Slope of this vertex's cost line (eq. 8)."""
        return roc_point_to_cost_line(self.fpr, self.tpr)[0]


class OperatingRange(tuple):
    """``(lo, hi)`` of the operating range; ``empty`` when ``lo >= hi``.

    Parameters
    ----------
    lo, hi : float
        The open PCF(+) interval where a classifier beats both trivial ones.

    Examples
    --------
    >>> from costwidget.model import OperatingRange
    >>> r = OperatingRange(0.3, 0.7)
    >>> r.lo, r.hi, r.empty, OperatingRange(0.5, 0.5).empty
    (0.3, 0.7, False, True)
    """

    __slots__ = ()

    def __new__(cls, lo: float, hi: float):
        return super().__new__(cls, (lo, hi))

    @property
    def lo(self) -> float:
        return self[0]

    @property
    def hi(self) -> float:
        return self[1]

    @property
    def empty(self) -> bool:
        return self[0] >= self[1]

    def __repr__(self) -> str:
        return f"OperatingRange(lo={self[0]!r}, hi={self[1]!r})"


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
        return roc_point_to_cost_line(self.fpr, self.tpr)[0]

    @property
    def intercept(self) -> float:
        return self.fpr

    def nec(self, pcf):
        """The optimal classifier's cost line at pcf."""
        return cost_line_value(self.fpr, self.tpr, pcf)
