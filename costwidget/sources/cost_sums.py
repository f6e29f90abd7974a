"""Per-case costs summed by the engine: the cost-weighted counts of each (score, label) group.

Each case's cost of a miss, a false alarm, a catch and a correct pass (``cost_fn=`` ... of
:func:`~costwidget.from_duckdb`: a column name or a number) is read as DOUBLE, and each group
sums, with the case's weight ``w`` (1 without ``sample_weight``):

* for the positive label: ``greatest(fn − tp, 0)·w`` (counts as positive), ``greatest(tp −
  fn, 0)·w`` (counts as negative) and ``least(fn, tp)·w`` (the floor);
* for the negative label: ``greatest(tn − fp, 0)·w``, ``greatest(fp − tn, 0)·w`` and
  ``least(fp, tn)·w``,

which are the cost-weighted cases of :mod:`costwidget.model.base.case_costs` (after Fawcett 2006,
"ROC graphs with instance-varying costs"). The label of a group is known only after the query (``pos_label`` is resolved on
the labels found), so the group returns both pairs and the label picks one here. A NULL, NaN
or infinite cost is counted per group and refused by name, so that it cannot hide in a sum.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..model import COST_ARGUMENTS, SummedCosts, with_case_costs

__all__ = [
    "cost_items",
    "cost_select",
    "cost_sums",
    "spark_cost_columns",
    "summed_costs",
    "attach_costs",
]

_ALIAS = {"cost_fn": "c_fn", "cost_fp": "c_fp", "cost_tp": "c_tp", "cost_tn": "c_tn"}


def cost_items(cost_fn=None, cost_fp=None, cost_tp=None, cost_tn=None) -> tuple:
    """``((argument, column or number), ...)`` of the costs given; checked for type."""
    out = []
    for arg, value in zip(COST_ARGUMENTS, (cost_fn, cost_fp, cost_tp, cost_tn)):
        if value is None:
            continue
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise ValueError(f"{arg}={value!r}: a cost must be a finite number.")
            value = float(value)
        elif not isinstance(value, str):
            raise TypeError(
                f"{arg} must be the name of a column of money per case, or one number, got "
                f"{type(value).__name__}: add the costs to the source as a column and pass "
                f"its name, e.g. {arg}='amount'."
            )
        out.append((arg, value))
    return tuple(out)


def cost_select(costs: tuple, quote) -> list:
    """The inner select items: each of the four costs as DOUBLE (0 when not given)."""
    given = dict(costs)
    items = []
    for arg in COST_ARGUMENTS:
        value = given.get(arg, 0.0)
        expr = f"CAST({quote(value)} AS DOUBLE)" if isinstance(value, str) else f"{value!r}::DOUBLE"
        items.append(f"{expr} AS {_ALIAS[arg]}")
    return items


def cost_sums(weighted: bool, costs: tuple | None = None) -> str:
    """The aggregate items of the cost sums (``w`` the weight column when ``weighted``).

    Bad values are counted only in the costs given as columns (``costs`` as from
    :func:`cost_items`; None: all four): a number was checked in Python, and each count is a
    pass over every row. ``count_if`` counts in BIGINT; a ``sum`` of a CASE would return
    HUGEINT, which reaches numpy as Python objects, each converted on its own."""
    w = "w" if weighted else "1.0"
    sums = [
        f"sum(greatest(c_fn - c_tp, 0) * {w}) AS g_pos",
        f"sum(greatest(c_tp - c_fn, 0) * {w}) AS l_pos",
        f"sum(least(c_fn, c_tp) * {w}) AS f_pos",
        f"sum(greatest(c_tn - c_fp, 0) * {w}) AS g_neg",
        f"sum(greatest(c_fp - c_tn, 0) * {w}) AS l_neg",
        f"sum(least(c_fp, c_tn) * {w}) AS f_neg",
    ]
    columns = [a for a, v in costs if isinstance(v, str)] if costs is not None else COST_ARGUMENTS
    # isfinite(NULL) is NULL: a missing cost counts as bad, as NaN and infinity do.
    bad = [
        f"count_if(NOT coalesce(isfinite({_ALIAS[arg]}), false)) AS bad_{_ALIAS[arg]}"
        for arg in COST_ARGUMENTS
        if arg in columns
    ]
    return ", ".join(sums + bad)


def spark_cost_columns(F, costs: tuple, col, weighted: bool):
    """The same as :func:`cost_select` and :func:`cost_sums` for Spark: ``(select items,
    aggregates)``; ``col`` makes a column of a name, ``F`` is ``pyspark.sql.functions``."""
    given = dict(costs)
    items = []
    for arg in COST_ARGUMENTS:
        value = given.get(arg, 0.0)
        c = col(F, value) if isinstance(value, str) else F.lit(value)
        items.append(c.cast("double").alias(_ALIAS[arg]))
    w = F.col("w") if weighted else F.lit(1.0)
    zero = F.lit(0.0)

    def pair(a, b):
        return F.col(_ALIAS[a]) - F.col(_ALIAS[b])

    aggs = [
        F.sum(F.greatest(pair("cost_fn", "cost_tp"), zero) * w).alias("g_pos"),
        F.sum(F.greatest(pair("cost_tp", "cost_fn"), zero) * w).alias("l_pos"),
        F.sum(F.least(F.col("c_fn"), F.col("c_tp")) * w).alias("f_pos"),
        F.sum(F.greatest(pair("cost_tn", "cost_fp"), zero) * w).alias("g_neg"),
        F.sum(F.greatest(pair("cost_fp", "cost_tn"), zero) * w).alias("l_neg"),
        F.sum(F.least(F.col("c_fp"), F.col("c_tn")) * w).alias("f_neg"),
    ]
    for arg in COST_ARGUMENTS:
        c = F.col(_ALIAS[arg])
        bad = c.isNull() | F.isnan(c) | (F.abs(c) == F.lit(float("inf")))
        aggs.append(F.sum(F.when(bad, 1).otherwise(0)).alias(f"bad_{_ALIAS[arg]}"))
    return items, aggs


def summed_costs(table, costs: tuple, is_pos: np.ndarray):
    """``(gain, loss, floor)`` per row of the engine's table, the bad costs refused by name."""
    names = dict(costs)
    for arg in COST_ARGUMENTS:
        if f"bad_{_ALIAS[arg]}" not in table.column_names:  # a number: checked in Python
            continue
        bad = int(np.asarray(table.column(f"bad_{_ALIAS[arg]}").to_numpy(), dtype=np.int64).sum())
        if bad:
            raise ValueError(
                f"Column {names.get(arg)!r} ({arg}=) has {bad} missing (NULL), NaN or infinite "
                "value(s); every case needs a finite cost: fill them (e.g. COALESCE(col, 0)) "
                "or drop those rows."
            )

    def col(name):
        return np.asarray(table.column(name).to_numpy(zero_copy_only=False), dtype=np.float64)

    gain = np.where(is_pos, col("g_pos"), col("g_neg"))
    loss = np.where(is_pos, col("l_pos"), col("l_neg"))
    floor = np.where(is_pos, col("f_pos"), col("f_neg"))
    return gain, loss, floor


def attach_costs(clf, rows, key, low, high, is_pos, gain, loss, floor, n, costs: tuple):
    """The classifier with its :class:`SummedCosts` (the rows of its model)."""

    def take(a):
        return None if a is None else (a if rows is None else a[rows])

    weight = np.ones(len(key)) if n is None else np.asarray(n, dtype=np.float64)
    given = dict(costs)
    summed = SummedCosts(
        key=take(key),
        low=take(low),
        high=take(high),
        is_pos=take(is_pos),
        gain=take(gain),
        loss=take(loss),
        floor=take(floor),
        weight=take(weight),
        names=tuple(v if isinstance(v, str) else None for v in map(given.get, COST_ARGUMENTS)),
    )
    return with_case_costs(clf, summed)
