"""Classifiers counted by DuckDB, the embedded default: Parquet/CSV files, relations, tables."""

from __future__ import annotations

import os

from .grouped import Columns, check_columns, check_decimals, classifiers_from_groups, require

__all__ = ["from_duckdb", "aggregate_sql"]

_PARQUET = (".parquet", ".parq", ".pq")
_CSV = (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz", ".csv.zst")
_VIEW = "__costwidget_source"


def _quote(name: str) -> str:
    """A SQL identifier for any column name (quotes doubled, so a name cannot end the identifier)."""
    return '"' + name.replace('"', '""') + '"'


def aggregate_sql(cols: Columns, decimals: int | None, view: str = _VIEW) -> str:
    """The one aggregation query: a count per (model, fold, score key, label).

    Exact (``decimals=None``): the key is the score itself. Rounded: the key is
    ``floor(score·10^d + 1/2)``, monotone in the score, and each group also
    returns its lowest and highest raw score (the lowest is the group's exact
    threshold on the raw scores; see :mod:`costwidget.model.rounding`).
    """
    score = f"CAST({_quote(cols.score)} AS DOUBLE)"
    inner = [f"{score} AS s", f"{_quote(cols.label)} AS y"]
    groups = []
    if cols.model is not None:
        inner.append(f"{_quote(cols.model)} AS m")
        groups.append("m")
    if cols.fold is not None:
        inner.append(f"{_quote(cols.fold)} AS f")
        groups.append("f")
    if decimals is None:
        inner.append("s AS k")
        extra = ""
    else:
        inner.append(f"floor(s * {10.0 ** decimals!r} + 0.5) AS k")
        extra = ", min(s) AS lo, max(s) AS hi"
    groups += ["k", "y"]
    order = ", ".join((["m"] if cols.model is not None else []) + ["k DESC"])
    # DuckDB lets a later select item use an earlier alias (s in k), so the cast is written once.
    return (f"SELECT {', '.join(groups)}, count(*) AS n{extra} "
            f"FROM (SELECT {', '.join(inner)} FROM {view}) "
            f"GROUP BY {', '.join(groups)} ORDER BY {order}")


_shared = {}


def _default_connection(duckdb):
    """A cursor on one in-memory database per process: a new database costs ~50 ms, a cursor ~0."""
    pid = os.getpid()  # a forked child must not share its parent's database
    if _shared.get("pid") != pid:
        _shared.update(pid=pid, con=duckdb.connect())
    return _shared["con"].cursor()


def _relation(duckdb, source, connection):
    """A DuckDB relation over the source, and how to name it in messages."""
    if isinstance(source, duckdb.DuckDBPyRelation):
        return source, "The relation"
    con = connection if connection is not None else _default_connection(duckdb)
    if isinstance(source, (list, tuple)) and source and all(
            isinstance(p, (str, os.PathLike)) for p in source):
        paths = [os.fspath(p) for p in source]
        kind = _file_kind(paths[0])
        return _read(con, paths, kind), f"The files {paths[:3]!r}{'...' if len(paths) > 3 else ''}"
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _file_kind(source)):
        path = os.fspath(source)
        return _read(con, path, _file_kind(path)), f"The file(s) {path!r}"
    if isinstance(source, str):
        if connection is None:
            raise ValueError(f"source={source!r} is neither a Parquet/CSV path (by its ending: "
                             f"{', '.join(_PARQUET + _CSV)}) nor a table on a given connection: "
                             f"pass connection= to read a table or view.")
        try:
            return connection.table(source), f"The table {source!r}"
        except duckdb.Error as exc:
            raise ValueError(f"The connection has no table or view {source!r}: {exc}") from None
    raise TypeError(f"source must be a path or glob, a list of paths, a DuckDB relation or a "
                    f"table name, got {type(source).__name__}.")


def _file_kind(path: str) -> str | None:
    lower = os.fspath(path).lower()
    if lower.endswith(_PARQUET):
        return "parquet"
    if lower.endswith(_CSV):
        return "csv"
    return None


def _read(con, path, kind):
    if kind is None:
        raise ValueError(f"Cannot tell the format of {path!r}: name Parquet files *.parquet and "
                         f"CSV files *.csv.")
    try:
        return con.read_parquet(path) if kind == "parquet" else con.read_csv(path)
    except Exception as exc:  # duckdb.IOException and friends: say which path
        raise ValueError(f"DuckDB could not read {path!r}: {exc}") from None


def _arrow(relation):
    fetch = getattr(relation, "to_arrow_table", None) or relation.fetch_arrow_table
    return fetch()


def from_duckdb(source, *, score="score", label="label", model=None, fold=None, pos_label=None,
                decimals=None, connection=None) -> dict:
    """Classifiers counted by DuckDB: one ``GROUP BY`` query, never the raw rows in Python.

    The ROC curve, its hull and the lower envelope depend only on the count of
    positives and negatives at each distinct score. DuckDB counts them in one
    aggregation query over the source (in parallel, streaming, within its
    memory limit); only the per-score counts come back, and each model becomes
    a :meth:`Classifier.from_counts` classifier, equal to
    :meth:`Classifier.from_scores` on the same rows.

    Parameters
    ----------
    source : str, path, list of paths, DuckDB relation or table name
        A Parquet or CSV file, a glob (``"scores/*.parquet"``) or a list of
        files, told apart by their endings; a ``duckdb.DuckDBPyRelation``; or
        the name of a table or view on ``connection``.
    score, label : str
        Column names of the score (any numeric type, read as DOUBLE; higher
        means more positive) and of the true label (two distinct values).
    model : str, optional
        Column naming the model that made the score: one classifier per model.
    fold : str, optional
        Column of the fold (or run) id; each classifier then carries folds, as
        :meth:`Classifier.from_scores` with ``folds=``.
    pos_label : label, optional
        The positive class; may be omitted for labels {0, 1}, {-1, 1} or
        {False, True}.
    decimals : int, optional
        Round scores half up to this many decimals first, i.e. group them by
        ``floor(score·10^d + 1/2)``: far fewer groups on continuous scores.
        The envelope is then off by at most ``clf.envelope_error_bound`` (and
        never below the exact one); the proof is in
        :mod:`costwidget.model.rounding`. Each group is one ROC point whose
        threshold is its lowest raw score, so every threshold reported is
        exact on the raw scores. Without ``decimals`` the result is exact and
        the bound is 0.
    connection : duckdb.DuckDBPyConnection, optional
        The connection to read tables from (and files with; default: a new
        in-memory connection).

    Returns
    -------
    dict
        Model name -> :class:`Classifier`, sorted by model name (without
        ``model``, one classifier keyed by the score column's name). Each has
        ``envelope_error_bound``.

    Examples
    --------
    >>> import duckdb
    >>> import costwidget as cw
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE scored AS SELECT * FROM (VALUES "
    ...                 "('a', 0.9, 1), ('a', 0.4, 0), ('a', 0.35, 1), ('a', 0.1, 0), "
    ...                 "('b', 0.8, 0), ('b', 0.6, 1), ('b', 0.3, 0), ('b', 0.2, 1)) "
    ...                 "AS t(model, score, label)")
    >>> models = cw.from_duckdb("scored", model="model", connection=con)
    >>> {name: clf.nec(0.5) for name, clf in models.items()}
    {'a': 0.25, 'b': 0.5}
    >>> models["a"].envelope.equals(cw.Classifier.from_scores([1, 0, 1, 0], [0.9, 0.4, 0.35, 0.1]).envelope)
    True
    """
    duckdb = require("duckdb", "duckdb")
    require("pyarrow", "duckdb")
    cols = Columns(score=score, label=label, model=model, fold=fold)
    decimals = check_decimals(decimals)
    rel, what = _relation(duckdb, source, connection)
    check_columns(cols, rel.columns, rel.types, what)
    table = _arrow(rel.query(_VIEW, aggregate_sql(cols, decimals)))
    return classifiers_from_groups(table, cols, pos_label=pos_label, rounded=decimals is not None,
                                   source=what)
