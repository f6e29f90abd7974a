"""A band's limits at one PCF(+): what the drawn band shows there."""

from __future__ import annotations

import numpy as np

__all__ = ["band_limits_at"]


def band_limits_at(band, pcf: float) -> tuple[float, float]:
    """``(lower, upper)`` of ``band`` (a DataFrame with ``pcf``, ``lower``, ``upper``, ``pcf``
    increasing) at ``pcf``, linear between its rows: the value of the band as it is drawn (a
    fill between straight segments through those rows).

    Examples
    --------
    >>> import pandas as pd
    >>> band = pd.DataFrame({"pcf": [0.0, 0.5, 1.0], "lower": [0.0, 0.2, 0.0],
    ...                      "upper": [0.0, 0.4, 0.0]})
    >>> band_limits_at(band, 0.25)
    (0.1, 0.2)
    """
    x = band["pcf"].to_numpy(dtype=float)
    return (float(np.interp(pcf, x, band["lower"].to_numpy(dtype=float))),
            float(np.interp(pcf, x, band["upper"].to_numpy(dtype=float))))
