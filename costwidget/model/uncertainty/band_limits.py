"""A band's limits at one PCF(+): what the drawn band shows there."""

from __future__ import annotations

import numpy as np

__all__ = ["band_limits_at"]


def band_limits_at(band, pcf: float) -> tuple[float, float]:
    """``(lower, upper)`` of ``band`` (a DataFrame with ``pcf``, ``lower``, ``upper``, ``pcf``
    increasing) at ``pcf``, linear between its rows: the value of the band as it is drawn (a
    fill between straight segments through those rows). The exact band of one confusion matrix
    (``attrs["exact_matrix"]``, by ``attrs["method"]``, from :meth:`Classifier.band` of a ``from_confusion``
    classifier) is computed at ``pcf`` itself: its curve bends between the rows.

    Examples
    --------
    >>> import pandas as pd
    >>> band = pd.DataFrame({"pcf": [0.0, 0.5, 1.0], "lower": [0.0, 0.2, 0.0],
    ...                      "upper": [0.0, 0.4, 0.0]})
    >>> band_limits_at(band, 0.25)
    (0.1, 0.2)
    """
    matrix = band.attrs.get("exact_matrix") if hasattr(band, "attrs") else None
    if matrix is not None:
        # One confusion matrix's exact band (`Classifier.band` of a from_confusion classifier):
        # computed at pcf itself, as its NEC is. Its curve min(line, x, 1 - x) bends between
        # the rows (at 0.5, where the line meets a trivial one), and a band read linearly
        # there would fall just below it.
        from .bands import FIXED_BANDS

        n_pos, n_neg, tp, fp = matrix
        lower, upper = FIXED_BANDS[band.attrs.get("method", "score")](
            n_pos, n_neg, tp, fp, np.array([float(pcf)]), band.attrs["level"]
        )
        c = min(float(pcf), 1.0 - float(pcf))
        return min(float(lower[0]), c), min(float(upper[0]), c)
    x = band["pcf"].to_numpy(dtype=float)
    return (
        float(np.interp(pcf, x, band["lower"].to_numpy(dtype=float))),
        float(np.interp(pcf, x, band["upper"].to_numpy(dtype=float))),
    )
