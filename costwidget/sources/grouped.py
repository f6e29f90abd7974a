"""From an engine's ``GROUP BY`` result to classifiers: the part every engine shares.

An engine (DuckDB, Spark) runs an aggregation over the raw rows and returns
an Arrow table with one row per (model, fold, score key, label): the count
``n`` (the sum of the weights with ``sample_weight=``) and, when scores were
rounded, the lowest and highest raw score ``lo``/``hi`` of the row. Where
most scores are distinct, grouping hardly shrinks the rows, and DuckDB
returns them sorted instead (no ``n``: each row counts once, or by its weight
``w``). Everything here works on that table: it checks it (naming the
source's columns, and the keyword that named them, in every message), encodes
labels, models and folds as small integer codes in Arrow (no Python object per
row), and builds one :meth:`Classifier.from_counts` classifier per model.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ..model import Classifier, counts_classifier, missing_columns
from .cost_sums import attach_costs, summed_costs

__all__ = [
    "Columns",
    "columns_from_keywords",
    "check_columns",
    "check_decimals",
    "classifiers_from_groups",
    "require",
    "NUMERIC_TYPES",
]

# Type names (as DuckDB and Spark print them, upper-cased, without parameters) a score may have.
NUMERIC_TYPES = (
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "UHUGEINT",
    "FLOAT",
    "DOUBLE",
    "DECIMAL",
    "REAL",
    "INT",
    "BYTE",
    "SHORT",
    "LONG",
    "BYTETYPE",
    "SHORTTYPE",
    "INTEGERTYPE",
    "LONGTYPE",
    "FLOATTYPE",
    "DOUBLETYPE",
    "DECIMALTYPE",
)


def require(module: str, extra: str):
    """Import an optional engine, or say how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"This needs the optional package {module!r} ({exc}). Install it with "
            f"pip install 'costwidget[{extra}]'."
        ) from None


@dataclass(frozen=True)
class Columns:
    """The source's column names for each role (model, fold and weight may be None)."""

    score: str
    label: str
    model: str | None = None
    fold: str | None = None
    weight: str | None = None
    #: ``((argument, column or number), ...)`` of the per-case costs given (cost_sums.py).
    costs: tuple = ()

    def roles(self):
        """(keyword, column name) of each named role: the keyword is what messages quote."""
        return [
            (role, name)
            for role, name in (
                ("y_score", self.score),
                ("y_true", self.label),
                ("model", self.model),
                ("fold", self.fold),
                ("sample_weight", self.weight),
                *((arg, v) for arg, v in self.costs if isinstance(v, str)),
            )
            if name is not None
        ]


def columns_from_keywords(y_true, y_score, model, fold, sample_weight, costs=()):
    """The :class:`Columns` of an engine's keywords."""
    return Columns(
        score=y_score,
        label=y_true,
        model=model,
        fold=fold,
        weight=sample_weight,
        costs=costs,
    )


def check_columns(cols: Columns, available, types, source: str) -> None:
    """Every named column exists, distinct roles use distinct columns, the score is numeric."""
    for role, name in cols.roles():
        if not isinstance(name, str):
            raise TypeError(f"{role}= must be a column name (str), got {name!r}.")
    available = list(available)
    missing_columns(source, cols.roles(), available)  # the words of Classifier.from_frame
    names = [name for _, name in cols.roles()]
    if len(set(names)) != len(names):
        raise ValueError(
            f"y_true=, y_score=, model=, fold=, sample_weight= and the costs must name "
            f"different columns (one cost column may serve one cost only), got "
            f"{dict(cols.roles())!r}."
        )
    typed = dict(zip(available, types))
    for role, name, what in (
        ("y_score", cols.score, "scores"),
        ("sample_weight", cols.weight, "weights"),
        *((arg, v, "costs") for arg, v in cols.costs if isinstance(v, str)),
    ):
        if name is None:
            continue
        kind = str(typed[name]).upper()
        if kind.split("(")[0].strip() not in NUMERIC_TYPES or kind.endswith("]"):  # not a list
            raise TypeError(
                f"Column {name!r} ({role}=) has type {kind}; {what} must be numbers. "
                f"Cast it, or name the right column with {role}=."
            )


def check_decimals(decimals) -> int | None:
    if decimals is None:
        return None
    if (
        isinstance(decimals, bool)
        or not isinstance(decimals, numbers.Integral)
        or not -12 <= decimals <= 15
    ):
        raise ValueError(
            f"decimals must be None (exact) or an integer in [-12, 15], got {decimals!r}."
        )
    return int(decimals)


def _codes(column, role: str, name: str, n):
    """(sorted distinct values, int32 code per row) of an Arrow column; NULLs refused (counted
    in cases: ``n`` per row, None for one each)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if column.null_count:
        nulls = _how_many(
            n, np.asarray(column.is_null().to_numpy(zero_copy_only=False)), "missing (NULL)"
        )
        raise ValueError(
            f"Column {name!r} ({role}=) has {nulls}; remove those rows or fill "
            f"them before evaluating."
        )
    if pa.types.is_dictionary(column.type):  # categorical / ENUM columns: their values
        column = column.cast(column.type.value_type)
    distinct = pc.unique(column)
    try:
        values = sorted(distinct.to_pylist())
    except TypeError:
        values = distinct.to_pylist()
    if len(values) == 1:
        return values, np.zeros(len(column), dtype=np.int32)
    codes = pc.index_in(column, value_set=_as_array(values, column.type))
    return values, np.asarray(codes.to_numpy(zero_copy_only=False), dtype=np.int32)


def _as_array(values, arrow_type):
    import pyarrow as pa

    return pa.array(values, type=arrow_type)


def _numpy(column, dtype):
    return np.asarray(column.to_numpy(zero_copy_only=False), dtype=dtype)


def _pos_label(labels: list, pos_label, name: str):
    """The positive label among the label column's distinct values (scikit-learn's default rule)."""
    shown = labels[:10]
    more = f" (and {len(labels) - 10} more)" if len(labels) > 10 else ""
    if len(labels) > 2:
        raise ValueError(
            f"Column {name!r} (y_true=) has {len(labels)} distinct values "
            f"{shown!r}{more}; a binary classifier needs exactly two. Filter the "
            f"rows or map the labels to two classes first."
        )
    if pos_label is None:
        if all(isinstance(v, (bool, np.bool_)) for v in labels):
            pos_label = True
        elif all(isinstance(v, numbers.Real) for v in labels) and (
            set(labels) <= {0, 1} or set(labels) <= {-1, 1}
        ):
            pos_label = 1
        else:
            raise ValueError(
                f"Column {name!r} (y_true=) has values {labels!r}; pos_label is "
                f"ambiguous. Pass pos_label= one of {labels!r}."
            )
    if pos_label not in labels:
        raise ValueError(
            f"pos_label={pos_label!r} is not a value of column {name!r} (y_true=), "
            f"which holds {labels!r}. Both classes are needed."
        )
    if len(labels) == 1:
        raise ValueError(
            f"Column {name!r} (y_true=) holds only {labels[0]!r}: the other class is "
            f"missing. Both classes are needed to estimate TPR and FPR."
        )
    return pos_label


def _check_scores(key, n, name: str) -> None:
    bad = ~np.isfinite(key)
    if bad.any():
        kinds = " or ".join(
            k for k, m in (("NaN", np.isnan(key)), ("infinite", np.isinf(key))) if m.any()
        )
        raise ValueError(
            f"Column {name!r} (y_score=) has {_how_many(n, bad, kinds)}; "
            f"remove those rows or replace the values before evaluating."
        )


def _check_classes(model_codes, fold_codes, is_pos, n, models, folds, cols: Columns, pos_label):
    """Every model (and every fold of every model) needs both classes."""
    n_folds = 1 if fold_codes is None else len(folds)
    size = len(models) * n_folds
    if size == 1:  # one model, no folds: two sums, no per-row cell codes
        if n is None:
            pos = [np.count_nonzero(is_pos)]
            neg = [len(is_pos) - pos[0]]
        else:
            pos, neg = [n.sum(where=is_pos)], [n.sum(where=~is_pos)]
    else:
        cell = model_codes * n_folds + (0 if fold_codes is None else fold_codes)
        pos = np.bincount(cell[is_pos], weights=None if n is None else n[is_pos], minlength=size)
        neg = np.bincount(cell[~is_pos], weights=None if n is None else n[~is_pos], minlength=size)
    for c in range(size):
        if pos[c] > 0 and neg[c] > 0:
            continue
        m, f = divmod(c, n_folds)
        if pos[c] == 0 and neg[c] == 0:
            continue  # this model has no rows in this fold
        cls = "positive" if pos[c] == 0 else "negative"
        where = "" if cols.model is None else f"Model {models[m]!r} (column {cols.model!r}) "
        if fold_codes is not None:
            where += f"{'in f' if where else 'F'}old {folds[f]!r} (column {cols.fold!r}) "
            fix = " Every fold needs both classes: use stratified folds or merge that fold."
        else:
            fix = " Both classes are needed to estimate TPR and FPR."
        where = where or "The source "
        raise ValueError(
            f"{where}has no {cls} cases (column {cols.label!r}, pos_label={pos_label!r}).{fix}"
        )


def _how_many(n, rows, what: str) -> str:
    """``"3 NaN value(s)"``: the count of the selected rows (``n`` None: one case per row), or
    with weights (a float sum) their weight."""
    if n is None:
        return f"{int(np.count_nonzero(rows))} {what} value(s)"
    total = n[rows].sum()
    if n.dtype.kind == "f":
        return f"{what} value(s) (of total weight {float(total):g})"
    return f"{int(total)} {what} value(s)"


def _row_counts(table, cols: Columns) -> np.ndarray | None:
    """Each row's count (int64) or weight (float64), the weights checked first; None where
    every row is one case (sorted raw rows without weights)."""
    names = table.column_names
    if cols.weight is None:
        if "n" in names:
            return _numpy(table.column("n"), np.int64)
        return None  # sorted raw rows: one case each
    if "n" in names:  # groups: the sum, the lowest weight and the NULL weights of each
        nulls = int(_numpy(table.column("w_null"), np.int64).sum())
        w_min = table.column("w_min")
        lowest = _numpy(w_min.fill_null(0.0) if w_min.null_count else w_min, np.float64)
        weights = _numpy(table.column("n").fill_null(0.0), np.float64)
    else:
        column = table.column("w")
        nulls = column.null_count
        weights = lowest = _numpy(column.fill_null(0.0) if nulls else column, np.float64)
    name = cols.weight
    if nulls:
        raise ValueError(
            f"Column {name!r} (sample_weight=) has {nulls} missing (NULL) value(s); "
            f"remove those rows or fill the weights before evaluating."
        )
    if not np.isfinite(lowest).all() or np.isnan(weights).any():
        raise ValueError(
            f"Column {name!r} (sample_weight=) has NaN or infinite weights; weights "
            f"must be finite numbers >= 0."
        )
    if not np.isfinite(weights).all():  # finite weights whose sum in one group overflowed
        raise ValueError(
            f"Column {name!r} (sample_weight=): the weights of one score sum beyond "
            f"the largest float (1.8e308). Only their ratios matter: divide them all "
            f"by a common factor, e.g. 2**64."
        )
    if (lowest < 0).any():
        raise ValueError(
            f"Column {name!r} (sample_weight=) has negative weights (the lowest is "
            f"{float(lowest.min())!r}); weights must be >= 0."
        )
    return weights


def classifiers_from_groups(
    table, cols: Columns, *, pos_label=None, rounded: bool = False, source: str = "The source"
) -> dict:
    """``{model: Classifier}`` from an aggregated (or sorted) Arrow table (see the module docstring).

    Columns of ``table``: ``k`` (score key), ``y`` (label), ``m``/``f`` when a
    model/fold column was named, ``lo``/``hi`` when rounded. Grouped rows have
    ``n`` (their count, or weight sum), and with weights ``w_min`` and
    ``w_null`` (each group's lowest weight and its number of NULL weights);
    sorted raw rows have no ``n``, and ``w`` (the row's weight) with weights.
    Without a model column the one classifier is keyed by the score column's
    name.
    """
    if table.num_rows == 0:
        raise ValueError(
            f"{source} has no rows: nothing to evaluate (check the path, glob or filter)."
        )
    n = _row_counts(table, cols)  # None: one case per row
    key_col = table.column("k")
    if key_col.null_count:
        nulls = _how_many(
            n, np.asarray(key_col.is_null().to_numpy(zero_copy_only=False)), "missing (NULL)"
        )
        raise ValueError(
            f"Column {cols.score!r} (y_score=) has {nulls}; "
            f"remove those rows or replace the values before evaluating."
        )
    key = _numpy(key_col, np.float64)
    _check_scores(key, n, cols.score)
    labels, label_codes = _codes(table.column("y"), "y_true", cols.label, n)
    pos_label = _pos_label(labels, pos_label, cols.label)
    is_pos = label_codes == labels.index(pos_label)
    if cols.model is None:
        models, model_codes = [cols.score], np.zeros(len(key), dtype=np.int32)
    else:
        models, model_codes = _codes(table.column("m"), "model", cols.model, n)
    folds, fold_codes = (
        (None, None) if cols.fold is None else _codes(table.column("f"), "fold", cols.fold, n)
    )
    _check_classes(model_codes, fold_codes, is_pos, n, models, folds, cols, pos_label)
    low = high = None
    if rounded:
        low, high = _numpy(table.column("lo"), np.float64), _numpy(table.column("hi"), np.float64)
    if cols.costs:  # the cost-weighted counts the engine summed (cost_sums.py)
        pos, neg, floor = summed_costs(table, cols.costs, is_pos)
    elif n is None:  # booleans, summed in int64 by from_counts: no n-row integer temporaries
        pos, neg = is_pos, ~is_pos
    else:
        pos = np.where(is_pos, n, 0)
        neg = n - pos
    out = {}
    for m, rows in _rows_per_model(model_codes, len(models)):

        def take(a, rows=rows):
            return None if a is None else (a if rows is None else a[rows])

        clf = counts_classifier(
            Classifier,
            take(key),
            take(pos),
            take(neg),
            name=str(models[m]),
            pos_label=pos_label,
            folds=take(fold_codes),
            low=take(low),
            high=take(high),
            score_name=cols.score,
            weights=cols.weight is not None or bool(cols.costs),
            fold_labels=folds,
        )
        if cols.costs:
            clf = attach_costs(clf, rows, key, low, high, is_pos, pos, neg, floor, n, cols.costs)
        out[models[m]] = clf
    return out


def _rows_per_model(model_codes, n_models):
    """(model code, row selector) for each model; None selects every row (one model)."""
    if n_models == 1:
        yield 0, None
        return
    order = np.argsort(model_codes, kind="stable")
    bounds = np.searchsorted(model_codes[order], np.arange(n_models + 1))
    for m in range(n_models):
        yield m, order[bounds[m] : bounds[m + 1]]
