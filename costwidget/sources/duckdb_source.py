"""Classifiers counted by DuckDB, the embedded default: Parquet/CSV files, relations, tables."""

from __future__ import annotations

import os

from .cost_sums import cost_items, cost_select, cost_sums
from .grouped import (
    Columns,
    check_columns,
    check_decimals,
    classifiers_from_groups,
    columns_from_keywords,
    require,
)

__all__ = ["from_duckdb", "aggregate_sql", "sorted_sql", "plan"]

_PARQUET = (".parquet", ".parq", ".pq")
_CSV = (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz", ".csv.zst")
_VIEW = "__costwidget_source"


def _quote(name: str) -> str:
    """A SQL identifier for any column name (quotes doubled, so a name cannot end the identifier)."""
    return '"' + name.replace('"', '""') + '"'


def _score(cols: Columns) -> str:
    return f"CAST({_quote(cols.score)} AS DOUBLE)"


def _inner_select(cols: Columns) -> tuple[list, list]:
    """The select items over the source (``s`` the score as DOUBLE, ``y`` the label, ``m``,
    ``f``, ``w`` when named) and the model/fold aliases to keep apart.

    No item may use another's alias: DuckDB resolves a name to a source column first, so a
    source column named ``s`` would stand in for the score."""
    inner = [f"{_score(cols)} AS s", f"{_quote(cols.label)} AS y"]
    parts = []
    if cols.model is not None:
        inner.append(f"{_quote(cols.model)} AS m")
        parts.append("m")
    if cols.fold is not None:
        inner.append(f"{_quote(cols.fold)} AS f")
        parts.append("f")
    if cols.weight is not None:
        inner.append(f"CAST({_quote(cols.weight)} AS DOUBLE) AS w")
    if cols.costs:
        inner += cost_select(cols.costs, _quote)
    return inner, parts


def aggregate_sql(cols: Columns, decimals: int | None, view: str = _VIEW) -> str:
    """The aggregation query: a count per (model, fold, score key, label).

    Exact (``decimals=None``): the key is the score itself. Rounded: the key is
    ``floor(score·10^d + 1/2)``, monotone in the score, and each group also
    returns its lowest and highest raw score (the lowest is the group's exact
    threshold on the raw scores; see :mod:`costwidget.model.kernels.rounding`). With
    weights the count is the weights' sum, and each group also returns its
    lowest weight and its number of NULL weights, so that a negative or
    missing weight cannot hide inside a sum.
    """
    inner, groups = _inner_select(cols)
    if decimals is None:
        inner.append(f"{_score(cols)} AS k")
        extra = ""
    else:
        inner.append(f"floor({_score(cols)} * {10.0**decimals!r} + 0.5) AS k")
        extra = ", min(s) AS lo, max(s) AS hi"
    if cols.weight is None:
        count = "count(*) AS n"
    else:
        count = "sum(w) AS n, min(w) AS w_min, count(*) - count(w) AS w_null"
    if cols.costs:
        count += ", " + cost_sums(cols.weight is not None, cols.costs)
    groups += ["k", "y"]
    order = ", ".join((["m"] if cols.model is not None else []) + ["k DESC"])
    return (
        f"SELECT {', '.join(groups)}, {count}{extra} "
        f"FROM (SELECT {', '.join(inner)} FROM {view}) "
        f"GROUP BY {', '.join(groups)} ORDER BY {order}"
    )


def sorted_sql(cols: Columns, view: str = _VIEW) -> str:
    """The raw rows sorted by model, then score descending: about what grouping returns where
    most scores are distinct, at less than half its CPU (a sort instead of a hash table of an
    entry per distinct score, then a sort of the groups). Ties are summed in numpy.
    (The outer select reads the inner one's columns, so its ``s`` is the score.)"""
    inner, _ = _inner_select(cols)
    keep = ["s AS k", "y"] + [
        c
        for c, name in (("m", cols.model), ("f", cols.fold), ("w", cols.weight))
        if name is not None
    ]
    order = ", ".join((["m"] if cols.model is not None else []) + ["k DESC"])
    return f"SELECT {', '.join(keep)} FROM (SELECT {', '.join(inner)} FROM {view}) ORDER BY {order}"


def estimate_sql(cols: Columns, view: str = _VIEW) -> str:
    """Rows and a HyperLogLog estimate of the distinct scores: one pass over the score column."""
    return f"SELECT count(*), approx_count_distinct({_score(cols)}) FROM {view}"


# Sort instead of group when more than this share of the rows have distinct scores. CPU: the
# sort costs less from about 10 % distinct on (10^7 rows, 2 cores: every score distinct, 3.6 s
# to group and order, 1.4 s to sort; 8.5 % distinct, 1.3 s each; 0.85 %, 0.45 s and 1.1 s).
# Memory: grouping holds less below about 25 % (up to two 17-byte rows per distinct score
# against one 9-byte row per case). See benchmarks/README.md.
SORT_SHARE = 0.25


def plan(rel, cols: Columns, decimals: int | None) -> str:
    """``"group"`` or ``"sort"``: how to count this source (the result is the same)."""
    if decimals is not None:
        return "group"  # rounding exists to make few groups
    ((rows, distinct),) = rel.query(_VIEW, estimate_sql(cols)).fetchall()
    return "sort" if rows and distinct > SORT_SHARE * rows else "group"


_shared = {}


def _default_connection(duckdb):
    """A cursor on one in-memory database per process: a new database costs ~50 ms, a cursor ~0."""
    pid = os.getpid()  # a forked child must not share its parent's database
    if _shared.get("pid") != pid:
        _shared.update(pid=pid, con=duckdb.connect())
    return _shared["con"].cursor()


def _relation(duckdb, source, connection):
    """A DuckDB relation over the source, how to name it in messages, and its file format
    ("parquet", "csv", or None for a relation or table)."""
    if isinstance(source, duckdb.DuckDBPyRelation):
        return source, "The relation", None
    con = connection if connection is not None else _default_connection(duckdb)
    if (
        isinstance(source, (list, tuple))
        and source
        and all(isinstance(p, (str, os.PathLike)) for p in source)
    ):
        paths = [os.fspath(p) for p in source]
        kind = _file_kind(paths[0])
        shown = f"{paths[:3]!r}{'...' if len(paths) > 3 else ''}"
        return _read(con, paths, kind), f"The files {shown}", kind
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _file_kind(source)):
        path = os.fspath(source)
        kind = _file_kind(path)
        return _read(con, path, kind), f"The file(s) {path!r}", kind
    if isinstance(source, str):
        if connection is None:
            raise ValueError(
                f"source={source!r} is neither a Parquet/CSV path (by its ending: "
                f"{', '.join(_PARQUET + _CSV)}) nor a table on a given connection: "
                f"pass connection= to read a table or view."
            )
        try:
            return connection.table(source), f"The table {source!r}", None
        except duckdb.Error as exc:
            raise ValueError(f"The connection has no table or view {source!r}: {exc}") from None
    raise TypeError(
        f"source must be a path or glob, a list of paths, a DuckDB relation or a "
        f"table name, got {type(source).__name__}."
    )


def _file_kind(path: str) -> str | None:
    lower = os.fspath(path).lower()
    if lower.endswith(_PARQUET):
        return "parquet"
    if lower.endswith(_CSV):
        return "csv"
    return None


def _read(con, path, kind):
    if kind is None:
        raise ValueError(
            f"Cannot tell the format of {path!r}: name Parquet files *.parquet and CSV files *.csv."
        )
    try:
        return con.read_parquet(path) if kind == "parquet" else con.read_csv(path)
    except Exception as exc:  # duckdb.IOException and friends: say which path
        raise ValueError(f"DuckDB could not read {path!r}: {exc}") from None


def _arrow(relation):
    fetch = getattr(relation, "to_arrow_table", None) or relation.fetch_arrow_table
    return fetch()


def from_duckdb(
    source,
    *,
    y_true="label",
    y_score="score",
    model="model",
    fold=None,
    sample_weight=None,
    pos_label=None,
    decimals=None,
    connection=None,
    cost_fn=None,
    cost_fp=None,
    cost_tp=None,
    cost_tn=None,
) -> dict:
    """Classifiers counted by DuckDB over Parquet/CSV files, relations or tables.

    The ROC curve, its hull and the lower envelope depend only on the count of
    positives and negatives at each distinct score. DuckDB counts them over
    the source (in parallel, streaming, within its memory limit); only the
    per-score counts come back (or the sorted score and label columns, see
    below), and each model becomes a
    :meth:`Classifier.from_counts` classifier, equal to
    :meth:`Classifier.from_scores` on the same rows.

    How it counts: a first pass over the score column estimates the number of
    distinct scores (HyperLogLog; on Parquet it reads only that column, about
    0.05 s per 10^7 rows). If at most a quarter of the rows have distinct
    scores, one ``GROUP BY`` returns a row per (model, fold, score, label).
    Above that, grouping shrinks the rows little and costs up to three times
    the CPU of a sort (a hash table entry per distinct score, then a sort of
    the groups): DuckDB then sorts the rows by score instead, and the ties are
    summed in numpy on the sorted rows. Both give the same counts, hence the
    same classifiers; on continuous scores the sort is 2.5 to 4 times as
    fast as ``pandas.read_parquet`` + ``sklearn.metrics.roc_curve``, and holds
    9 bytes per row (a DOUBLE score and an int8 label) where grouping would
    hold 17
    (``benchmarks/bench_aggregate.py``). CSV files, which a second pass would
    parse again, are always grouped. A relation is run twice (estimate, then
    count): store an expensive query in a table first.

    Parameters
    ----------
    source : str, path, list of paths, DuckDB relation or table name
        A Parquet or CSV file, a glob (``"scores/*.parquet"``) or a list of
        files, told apart by their endings; a ``duckdb.DuckDBPyRelation``; or
        the name of a table or view on ``connection``.
    y_true, y_score : str, default "label", "score"
        Column names of the true label (two distinct values) and of the score
        (any numeric type, read as DOUBLE; higher means more positive), as in
        :meth:`Classifier.from_frame`.
    model : str or None, default "model"
        Column naming the model that made the score: one classifier per
        model. ``None``: every row is one model's score. As in
        :meth:`Classifier.from_frame` (the same default, the same refusal of
        a missing column, the same order): a file with a ``model`` column is
        never pooled into one classifier unless asked.
    fold : str, optional
        Column of the fold (or run) id; each classifier then carries folds, as
        :meth:`Classifier.from_scores` with ``folds=``.
    sample_weight : str, optional
        Column of case weights (numbers >= 0; NULL, NaN and negative weights
        are refused). Each group then counts the sum of its weights, as
        ``sample_weight`` in :meth:`Classifier.from_scores`: equal bit for bit
        where the sums are exact (whole numbers below 2**53, or dyadic
        fractions such as 0.5 and 0.125), and otherwise up to the rounding
        of DuckDB's summation order, which may differ from run to run in the
        last bits. As there, the counts are float even where the weights are
        whole, and bands are refused (bootstrap resampling of weights is not
        supported). A negatively downsampled table whose kept negatives carry
        weight 1/rate is the typical use.
    pos_label : label, optional
        The positive class; may be omitted for labels {0, 1}, {-1, 1} or
        {False, True}.
    decimals : int, optional
        Round scores half up to this many decimals first, i.e. group them by
        ``floor(score·10^d + 1/2)``: far fewer groups on continuous scores.
        The envelope is then off by at most ``clf.envelope_error_bound`` (and
        never below the exact one); the proof is in
        :mod:`costwidget.model.kernels.rounding`. Each group is one ROC point whose
        threshold is its lowest raw score, so every threshold reported is
        exact on the raw scores. Without ``decimals`` the result is exact and
        the bound is 0.
    connection : duckdb.DuckDBPyConnection, optional
        The connection to read tables from (and files with; default: a cursor
        on one in-memory database per process).
    cost_fn, cost_fp, cost_tp, cost_tn : str or float, optional
        Per-case costs (:meth:`Classifier.from_scores`): a column of money per case, or one
        number. DuckDB sums the cost-weighted counts of each group
        (:mod:`costwidget.sources.cost_sums`; always grouped, never sorted), so the curves are
        exact; the classifiers carry the sums (``clf.case_costs``), which :func:`decide`
        turns into money per case at the costs as given (multipliers 1).

    Returns
    -------
    dict
        Model name -> :class:`Classifier`, sorted by model name (with
        ``model=None``, one classifier keyed by the score column's name). Each
        has ``envelope_error_bound``. Built from counts, they cannot be
        compared paired (:func:`difference_band` needs each case's scores).

    Examples
    --------
    >>> import duckdb
    >>> import costwidget as cw
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE scored AS SELECT * FROM (VALUES "
    ...                 "('a', 0.9, 1), ('a', 0.4, 0), ('a', 0.35, 1), ('a', 0.1, 0), "
    ...                 "('b', 0.8, 0), ('b', 0.6, 1), ('b', 0.3, 0), ('b', 0.2, 1)) "
    ...                 "AS t(model, score, label)")
    >>> models = cw.from_duckdb("scored", connection=con)   # one classifier per model
    >>> {name: clf.nec(0.5) for name, clf in models.items()}
    {'a': 0.25, 'b': 0.5}
    >>> models["a"].envelope.equals(cw.Classifier.from_scores([1, 0, 1, 0], [0.9, 0.4, 0.35, 0.1]).envelope)
    True
    """
    duckdb = require("duckdb", "duckdb")
    require("pyarrow", "duckdb")
    costs = cost_items(cost_fn, cost_fp, cost_tp, cost_tn)
    cols = columns_from_keywords(y_true, y_score, model, fold, sample_weight, costs)
    decimals = check_decimals(decimals)
    rel, what, kind = _relation(duckdb, source, connection)
    check_columns(cols, rel.columns, rel.types, what)
    how = "group" if kind == "csv" or costs else plan(rel, cols, decimals)
    sql = aggregate_sql(cols, decimals) if how == "group" else sorted_sql(cols)
    table = _arrow(rel.query(_VIEW, sql))
    return classifiers_from_groups(
        table, cols, pos_label=pos_label, rounded=decimals is not None, source=what
    )
