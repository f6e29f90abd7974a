"""How a `CostWidget` is built from data: the classifiers' names, and the constructors from
predictions, a long-format frame and scikit-learn estimators."""

from __future__ import annotations

from ..model import Classifier, classifiers_from_predictions

__all__ = ["named_classifiers", "Constructors"]


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
        if getattr(clf, "case_costs", None) is not None:
            raise ValueError(
                f"classifiers[{i}] ({clf.name!r}) has per-case costs, which the widget does not "
                "show yet (its sliders, headline and page price each class); decide with "
                "cw.decide(...) and cw.per_case_rule_table(...), or show it built without "
                "cost_fn=/cost_fp=/cost_tp=/cost_tn=."
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
            ``p_pos``, ``cost_fn``, ``cost_fp`` of :class:`CostWidget`.

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
        # One reading of the labels: the classifiers are known to score the same cases, so
        # the difference view can pair them (even when y_true is a list).
        clfs = list(
            classifiers_from_predictions(
                y_true,
                {str(n): s for n, s in scores.items()},
                pos_label=pos_label,
                sample_weight=sample_weight,
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
        scores the same cases. Other keywords go to :class:`CostWidget`.

        Examples
        --------
        >>> import pandas as pd, costwidget as cw
        >>> df = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "label": [0, 1, 1, 0] * 2,
        ...                    "score": [.1, .8, .6, .3, .5, .4, .9, .2]})
        >>> w = cw.CostWidget.from_frame(df)
        >>> list(w.readout.index)
        ['a', 'b']
        """
        clfs = Classifier.from_frame(
            df,
            y_true=y_true,
            y_score=y_score,
            model=model,
            fold=fold,
            instance=instance,
            pos_label=pos_label,
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
            ``p_pos``, ``cost_fn``, ``cost_fp`` of :class:`CostWidget`.

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
        )
        return cls(list(clfs.values()), **kwargs)


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
