"""JSON values of the model's records (layer 0): numpy scalars and arrays to Python, NaN to
None, ±inf to ``"inf"``/``"-inf"`` (strict JSON has neither), tuples to lists, dict keys to str.
Shared by ``DecisionRule.to_dict`` and the widget's snapshots.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

__all__ = ["jsonable"]


def jsonable(value):
    """``value`` as JSON values only: numpy scalars and arrays to Python, NaN to None, ±inf to
    ``"inf"``/``"-inf"``, tuples to lists, dict keys to str."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if value is pd.NA:
        return None
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        x = float(value)
        if math.isnan(x):
            return None
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [jsonable(v) for v in value]
    raise TypeError(f"cannot put a {type(value).__name__} into a snapshot: {value!r}")
