"""How a `CostWidget` is built from data: the classifiers' names, and the constructors from
predictions, a long-format frame, scikit-learn estimators, DuckDB and Spark.

Per-case costs and the widget's own costs share the names ``cost_fn`` and ``cost_fp``. The rule
(`split_costs`): a cost given per case (an array, or a column name for frames and engines), or
any ``cost_tp``/``cost_tn``, makes all four per-case costs of the model's constructor (a number
among them is that cost for every case); the widget's ``cost_fn``/``cost_fp`` are then
multipliers of each case's costs and start at 1. Numbers alone keep their meaning of per-class
costs C(-|+), C(+|-).
"""

from __future__ import annotations

import numbers

from ..model import Classifier, classifiers_from_predictions, per_case_setting

__all__ = ["named_classifiers", "split_costs", "Constructors"]

_COSTS = ("cost_fn", "cost_fp", "cost_tp", "cost_tn")


def split_costs(kwargs: dict) -> tuple[dict, dict]:
    """``(model_costs, widget_kwargs)``: the per-case costs for the model's constructor (empty
    for per-class costs) and the keywords left for :class:`CostWidget` (see the module).

    Examples
    --------
    >>> split_costs({"cost_fn": 5.0, "p_pos": 0.3})
    ({}, {'cost_fn': 5.0, 'p_pos': 0.3})
    >>> split_costs({"cost_fn": "Amount", "cost_fp": 2.0})
    ({'cost_fn': 'Amount', 'cost_fp': 2.0}, {})
    """
    kwargs = dict(kwargs)
    given = {k: kwargs[k] for k in _COSTS if kwargs.get(k) is not None}
    per_case = any(k in given for k in ("cost_tp", "cost_tn")) or any(
        not _is_number(given[k]) for k in ("cost_fn", "cost_fp") if k in given
    )
    if not per_case:
        return {}, kwargs
    for k in _COSTS:
        kwargs.pop(k, None)
    return given, kwargs


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def named_classifiers(classifiers):
    """The classifiers with distinct names; unnamed ones get "classifier i" on a *copy*, so the
    user's objects are never changed."""
    classifiers = list(classifiers)
    if not classifiers:
        raise ValueError("CostWidget needs at least one classifier.")
    out = []
    for i, clf in enumerate(classifiers):
        if not isinstance(clf, Classifier):
            raise TypeError(
                f"classifiers[{i}] is a {type(clf).__name__}, not a costwidget "
                "Classifier; build one with Classifier.from_scores(...)."
            )
        if clf.name is None:
            clf = clf.renamed(f"classifier {i}")
        out.append(clf)
    names = [c.name for c in out]
    if len(set(names)) != len(names):
        dupes = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(
            f"Classifier names must be distinct, got {names} ({dupes} repeated); "
            "give each a name= when you build it."
        )
    if any(getattr(c, "case_costs", None) is not None for c in out):
        # The model's own check: all per-case or none, the same cases and costs.
        per_case_setting(out)
    return out


class Constructors:
    """``CostWidget.from_predictions``, ``from_frame`` and ``from_estimators``."""

    @classmethod
    def from_predictions(cls, y_true, scores, *, pos_label=None, sample_weight=None, **kwargs):
        """One classifier per entry of ``scores`` (``{"name": y_score}``) on the same ``y_true``.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        scores : dict
            ``{name: y_score}``, each an array-like of shape (n_samples,).
        pos_label : int, float, bool or str, optional
            The positive class (as in ``sklearn.metrics.roc_curve``).
        sample_weight : array-like of shape (n_samples,), optional
        **kwargs
            ``p_pos``, ``cost_fn``, ``cost_fp`` of :class:`CostWidget`; or per-case costs
            ``cost_fn``, ``cost_fp``, ``cost_tp``, ``cost_tn`` (arrays of shape (n_samples,)
            or numbers, money as in :meth:`Classifier.from_scores`): an array among them, or
            any ``cost_tp``/``cost_tn``, makes them per-case and the widget's costs multipliers
            starting at 1 (see :func:`split_costs`).

        Returns
        -------
        CostWidget

        Examples
        --------
        >>> import costwidget as cw
        >>> w = cw.CostWidget.from_predictions([0, 1, 1, 0], {"m": [0.1, 0.8, 0.6, 0.3]})
        >>> float(w.readout.loc["m", "tpr"])
        1.0
        """
        if not isinstance(scores, dict) or not scores:
            raise TypeError("scores must be a non-empty dict {name: y_score}.")
        costs, kwargs = split_costs(kwargs)
        # One reading of the labels: the classifiers are known to score the same cases, so
        # the difference view can pair them (even when y_true is a list).
        clfs = list(
            classifiers_from_predictions(
                y_true,
                {str(n): s for n, s in scores.items()},
                pos_label=pos_label,
                sample_weight=sample_weight,
                **costs,
            ).values()
        )
        return cls(clfs, **kwargs)

    @classmethod
    def from_frame(
        cls,
        df,
        *,
        y_true="label",
        y_score="score",
        model="model",
        fold=None,
        instance=None,
        pos_label=None,
        **kwargs,
    ):
        """Long-format scores: one row per (model, case) with a label and a score column.

        Delegates to :meth:`Classifier.from_frame`: with ``fold=`` (a column name)
        each classifier keeps its folds; ``instance=`` checks that every model
        scores the same cases. ``cost_fn=`` ... as a column name gives per-case costs (the
        widget's costs become multipliers starting at 1, :func:`split_costs`); other keywords
        go to :class:`CostWidget`.

        Examples
        --------
        >>> import pandas as pd, costwidget as cw
        >>> df = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "label": [0, 1, 1, 0] * 2,
        ...                    "score": [.1, .8, .6, .3, .5, .4, .9, .2]})
        >>> w = cw.CostWidget.from_frame(df)
        >>> list(w.readout.index)
        ['a', 'b']
        """
        costs, kwargs = split_costs(kwargs)
        clfs = Classifier.from_frame(
            df,
            y_true=y_true,
            y_score=y_score,
            model=model,
            fold=fold,
            instance=instance,
            pos_label=pos_label,
            **costs,
        )
        return cls(list(clfs.values()), **kwargs)

    @classmethod
    def from_estimators(
        cls,
        estimators,
        X,
        y,
        *,
        cv=5,
        pos_label=None,
        response_method="auto",
        n_jobs=None,
        progress="auto",
        **kwargs,
    ):
        """Cross-validated scores of scikit-learn estimators, one classifier each (extra ``sklearn``).

        Delegates to :func:`costwidget.model.classifier.estimators.classifiers_from_estimators`: the
        splits are drawn once, so every estimator is scored on the same folds (the difference
        view can pair them); ``decision_function`` scores follow ``pos_label``.

        Parameters
        ----------
        estimators : dict or list
            ``{"name": estimator}``, or a list of estimators (named by class; a repeated
            class name gets " (2)", " (3)", ...) or ``(name, estimator)`` pairs.
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        cv : int, CV splitter, iterable or None, default=5
            None scores already fitted estimators on ``(X, y)``.
        pos_label : optional
            The positive class; default the larger label.
        response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
        n_jobs : int, optional
            Folds fitted at the same time, as in ``cross_val_predict`` (None: 1; -1: all
            processors). The classifiers are the same whatever it is.
        progress : {"auto", True, False}, default="auto"
            Fits that take longer than about 2 s say how many are done: a progress bar in a
            notebook, a line on stderr elsewhere. True shows it from the first fit, False never.
        **kwargs
            ``p_pos``, ``cost_fn``, ``cost_fp`` of :class:`CostWidget`; or per-case costs
            ``cost_fn``, ``cost_fp``, ``cost_tp``, ``cost_tn`` (arrays of shape (n_samples,)
            or numbers, money as in :meth:`Classifier.from_scores`): an array among them, or
            any ``cost_tp``/``cost_tn``, makes them per-case and the widget's costs multipliers
            starting at 1 (see :func:`split_costs`).

        Returns
        -------
        CostWidget

        Examples
        --------
        >>> import numpy as np, costwidget as cw
        >>> from sklearn.linear_model import LogisticRegression
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 3))
        >>> y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
        >>> w = cw.CostWidget.from_estimators([LogisticRegression(), LogisticRegression(C=0.01)], X, y)
        >>> list(w.readout.index)
        ['LogisticRegression', 'LogisticRegression (2)']
        """
        from ..model import classifiers_from_estimators

        costs, kwargs = split_costs(kwargs)
        clfs = classifiers_from_estimators(
            estimators,
            X,
            y,
            cv=cv,
            pos_label=pos_label,
            response_method=response_method,
            n_jobs=n_jobs,
            progress=progress,
            progress_view=_notebook_fit_bar(),
            **costs,
        )
        return cls(list(clfs.values()), **kwargs)

    @classmethod
    def from_duckdb(cls, source, **kwargs):
        """Classifiers counted by DuckDB (:func:`costwidget.from_duckdb`), shown in a widget.

        Every keyword of :func:`costwidget.from_duckdb` goes there (``cost_fn=`` ... as column
        names are summed in DuckDB and make the widget's costs multipliers starting at 1,
        :func:`split_costs`); ``p_pos``, ``cost_fn``, ``cost_fp`` as numbers go to
        :class:`CostWidget`.

        Examples
        --------
        >>> import duckdb, pandas as pd, costwidget as cw
        >>> df = pd.DataFrame({"model": ["a"] * 4, "label": [0, 1, 1, 0],
        ...                    "score": [.1, .8, .6, .3], "amount": [0, 40.0, 10.0, 0]})
        >>> con = duckdb.connect()
        >>> w = cw.CostWidget.from_duckdb(con.from_df(df), cost_fn="amount", cost_fp=1.0)
        >>> w.cost_fn, w.decision.chosen
        (1.0, 'a')
        """
        from ..sources import from_duckdb

        return cls._from_engine(from_duckdb, source, kwargs)

    @classmethod
    def from_spark(cls, frame, **kwargs):
        """Classifiers counted by Spark (:func:`costwidget.from_spark`), shown in a widget; the
        keywords as :meth:`from_duckdb`."""
        from ..sources import from_spark

        return cls._from_engine(from_spark, frame, kwargs)

    @classmethod
    def _from_engine(cls, engine, source, kwargs):
        costs, kwargs = split_costs(kwargs)
        widget_kwargs = {k: kwargs.pop(k) for k in ("p_pos", "cost_fn", "cost_fp") if k in kwargs}
        return cls(list(engine(source, **kwargs, **costs).values()), **widget_kwargs)


def _notebook_fit_bar():
    """A progress-bar view of the fits (``FitProgress``) in a running kernel, else None.

    None leaves the model's own view, a line on stderr, for scripts and terminals. The bar is
    displayed only when the model first calls the view, so fast fits show nothing.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    import ipywidgets as widgets
    from IPython.display import display

    parts = {}

    def view(done, total, label, elapsed):
        if not parts:
            parts["bar"] = widgets.IntProgress(min=0, max=total, description="fitting")
            parts["text"] = widgets.Label()
            display(widgets.HBox([parts["bar"], parts["text"]]))
        if done is None:
            parts["bar"].value, parts["bar"].bar_style = total, "success"
            parts["text"].value = f"{total} fits done in {elapsed:.1f} s"
        else:
            parts["bar"].value = done
            parts["text"].value = f"{done}/{total} fits done ({label}), {elapsed:.1f} s"

    return view
