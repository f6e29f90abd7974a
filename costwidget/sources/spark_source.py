"""Classifiers counted by Spark, for scores that live on a cluster."""

from __future__ import annotations

from .cost_sums import cost_items, spark_cost_columns
from .grouped import (
    Columns,
    check_columns,
    check_decimals,
    classifiers_from_groups,
    columns_from_keywords,
    require,
)

__all__ = ["from_spark", "aggregate_frame"]


def _col(F, name: str):
    # Backticks make any column name (dots, spaces) a plain name, not a struct path.
    return F.col("`" + name.replace("`", "``") + "`")


def aggregate_frame(df, cols: Columns, decimals: int | None):
    """The one aggregation: a count per (model, fold, score key, label), as a Spark DataFrame.

    The same keys as the DuckDB query (:func:`costwidget.sources.duckdb_source.aggregate_sql`),
    so both engines give the same groups.
    """
    from pyspark.sql import functions as F

    s = _col(F, cols.score).cast("double")
    items = [s.alias("s"), _col(F, cols.label).alias("y")]
    groups = ["y"]
    if cols.model is not None:
        items.append(_col(F, cols.model).alias("m"))
        groups.insert(0, "m")
    if cols.fold is not None:
        items.append(_col(F, cols.fold).alias("f"))
        groups.insert(1 if cols.model is not None else 0, "f")
    if cols.weight is None:
        counts = [F.count(F.lit(1)).alias("n")]
    else:  # as the DuckDB query: the sum, and the lowest and NULL weights a sum would hide
        items.append(_col(F, cols.weight).cast("double").alias("w"))
        counts = [
            F.sum("w").alias("n"),
            F.min("w").alias("w_min"),
            (F.count(F.lit(1)) - F.count("w")).alias("w_null"),
        ]
    if decimals is None:
        items.append(s.alias("k"))
        aggs = counts
    else:
        # floor() in Spark returns a long; the DOUBLE floor of DuckDB is kept by flooring
        # a double and casting back (exact for |k| < 2**53, i.e. any real score).
        items.append(F.floor(s * F.lit(10.0**decimals) + F.lit(0.5)).cast("double").alias("k"))
        aggs = counts + [F.min("s").alias("lo"), F.max("s").alias("hi")]
    if cols.costs:
        more, sums = spark_cost_columns(F, cols.costs, _col, cols.weight is not None)
        items, aggs = items + more, aggs + sums
    groups.insert(len(groups) - 1, "k")
    return df.select(*items).groupBy(*groups).agg(*aggs)


def _arrow(frame):
    to_arrow = getattr(frame, "toArrow", None)  # pyspark >= 4.0
    if to_arrow is not None:
        return to_arrow()
    import pyarrow as pa

    return pa.Table.from_pandas(frame.toPandas(), preserve_index=False)


def from_spark(
    df,
    *,
    y_true="label",
    y_score="score",
    model="model",
    fold=None,
    sample_weight=None,
    pos_label=None,
    decimals=None,
    cost_fn=None,
    cost_fp=None,
    cost_tp=None,
    cost_tn=None,
) -> dict:
    """Classifiers counted by Spark: ``groupBy`` + ``agg`` on the cluster, only the counts collected.

    The same arguments, defaults (``model="model"``; ``model=None`` for one
    model) and result as :func:`costwidget.from_duckdb` (see there),
    on a ``pyspark.sql.DataFrame`` (without ``connection``). It always
    groups: the sorted-rows plan that DuckDB picks for continuous scores
    would collect every row to the driver. Unlike Spark's own
    ``BinaryClassificationMetrics`` (which bins thresholds, ``numBins``), the
    curve is exact without ``decimals``, and bounded with it. Per-case costs
    (``cost_fn=`` ...) are summed on the cluster as DuckDB sums them.

    Examples
    --------
    >>> import costwidget as cw
    >>> from pyspark.sql import SparkSession            # doctest: +SKIP
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()   # doctest: +SKIP
    >>> df = spark.createDataFrame([(0.9, 1), (0.4, 0), (0.35, 1), (0.1, 0)],
    ...                            ["score", "label"])  # doctest: +SKIP
    >>> cw.from_spark(df, model=None)["score"].nec(0.5)   # one model: no model column  # doctest: +SKIP
    0.25
    """
    require("pyspark", "spark")
    require("pyarrow", "spark")
    from pyspark.sql import DataFrame

    if not isinstance(df, DataFrame):
        raise TypeError(f"df must be a pyspark.sql.DataFrame, got {type(df).__name__}.")
    costs = cost_items(cost_fn, cost_fp, cost_tp, cost_tn)
    cols = columns_from_keywords(y_true, y_score, model, fold, sample_weight, costs)
    decimals = check_decimals(decimals)
    types = dict(df.dtypes)
    check_columns(cols, df.columns, [types[c] for c in df.columns], "The DataFrame")
    table = _arrow(aggregate_frame(df, cols, decimals))
    return classifiers_from_groups(
        table, cols, pos_label=pos_label, rounded=decimals is not None, source="The DataFrame"
    )
