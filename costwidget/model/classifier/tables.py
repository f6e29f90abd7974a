"""The DataFrames a :class:`~costwidget.Classifier` shows: ROC points, hull, envelope and its
segments (layer 5, a base class of ``Classifier`` that reads its fields).
"""

from __future__ import annotations

import pandas as pd

from ..kernels.roc import in_units as _in_units

__all__ = ["ClassifierTables"]


class ClassifierTables:
    """The tables of :class:`~costwidget.Classifier`: ROC points, hull, envelope, segments."""

    __slots__ = ()

    def _frame(self, index) -> pd.DataFrame:
        cols = {
            "threshold": self._thresholds[index],
            "fpr": self._fpr[index],
            "tpr": self._tpr[index],
        }
        if self.n_pos is not None:
            cols["tp"] = _in_units(self._counts.tp[index], self._counts.exponent)
            cols["fp"] = _in_units(self._counts.fp[index], self._counts.exponent)
        return pd.DataFrame(cols)

    @property
    def roc(self) -> pd.DataFrame:
        """ROC points: one row per distinct threshold, from (0, 0) to (1, 1), sorted by fpr then tpr.

        Returns
        -------
        DataFrame
            Columns ``threshold``, ``fpr``, ``tpr`` and, when the class totals
            are known, the (weighted) counts ``tp`` and ``fp``.

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).roc.tp.tolist()
        [0, 7, 10]
        """
        return self._frame(slice(None))

    @property
    def hull(self) -> pd.DataFrame:
        """Vertices of the ROC convex hull, from (0, 0) to (1, 1); collinear points dropped.

        Returns
        -------
        DataFrame
            The columns of :attr:`roc`, one row per vertex.

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_roc([.2, .4, .5], [.6, .7, .9]).hull[["fpr", "tpr"]].to_numpy().tolist()
        [[0.0, 0.0], [0.2, 0.6], [0.5, 0.9], [1.0, 1.0]]
        """
        return self._frame(self._hull_index).reset_index(drop=True)

    @property
    def envelope(self) -> pd.DataFrame:
        """Every breakpoint ``(pcf, nec)`` of the lower envelope, from pcf 0 to 1.

        Returns
        -------
        DataFrame
            Columns ``pcf`` and ``nec``; the envelope is linear in between.

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).envelope.round(6).to_numpy().tolist()
        [[0.0, 0.0], [0.3, 0.3], [0.7, 0.3], [1.0, 0.0]]
        """
        x, y = self._envelope.breakpoints()
        return pd.DataFrame({"pcf": x, "nec": y})

    def segment_rates(self):
        """`segments` as arrays, without a DataFrame: ``(pcf_lo, pcf_hi, fpr, tpr)``, one entry
        per piece of the envelope (a decision reads them at every move of the operating point).

        Examples
        --------
        >>> import costwidget as cw
        >>> lo, hi, fpr, tpr = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).segment_rates()
        >>> lo.round(6).tolist(), fpr.round(6).tolist()
        ([0.0, 0.3, 0.7], [0.0, 0.3, 1.0])
        """
        lo, hi, k = self._envelope.segments()
        h = self._hull_index[k]
        return lo, hi, self._fpr[h], self._tpr[h]

    @property
    def segments(self) -> pd.DataFrame:
        """Which hull vertex is optimal where: ``pcf_lo``, ``pcf_hi``, ``threshold``, ``fpr``, ``tpr``.

        Returns
        -------
        DataFrame
            One row per piece of the envelope, from pcf 0 to 1.

        Examples
        --------
        >>> import costwidget as cw
        >>> seg = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).segments
        >>> seg[["pcf_lo", "pcf_hi", "fpr", "tpr"]].round(6).to_numpy().tolist()
        [[0.0, 0.3, 0.0, 0.0], [0.3, 0.7, 0.3, 0.7], [0.7, 1.0, 1.0, 1.0]]
        """
        lo, hi, k = self._envelope.segments()
        h = self._hull_index[k]
        return pd.DataFrame(
            {
                "pcf_lo": lo,
                "pcf_hi": hi,
                "threshold": self._thresholds[h],
                "fpr": self._fpr[h],
                "tpr": self._tpr[h],
            }
        )
