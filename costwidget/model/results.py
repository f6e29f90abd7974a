"""The result types of a classifier's queries, all immutable: :class:`OperatingPoint` (the optimal
hull vertex at one operating point), :class:`OperatingRange` and, re-exported from
:mod:`.constraints`, :class:`ConstrainedPoint`. Layer 1: nothing here knows ``Classifier``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .constraints import ConstrainedPoint

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
        """Slope of this vertex's cost line, ``1 - TPR - FPR`` (eq. 8)."""
        return 1.0 - self.tpr - self.fpr


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
