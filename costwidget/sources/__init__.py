"""Classifiers from data that does not fit in memory: an engine counts, costwidget does the rest.

:func:`from_duckdb` (embedded, the default) and :func:`from_spark` (clusters)
count the positives and negatives per score with the engine (a ``GROUP BY``;
DuckDB sorts instead where nearly every score is distinct, see
:func:`from_duckdb`) and build each model's classifier from the per-score
counts with :meth:`costwidget.Classifier.from_counts`. The engines are
optional extras, imported only when called.
"""

from .duckdb_source import from_duckdb
from .spark_source import from_spark

__all__ = ["from_duckdb", "from_spark"]
