"""The constructors of :class:`costwidget.CostCurveDisplay`: from scores, from a fitted estimator
and from cross-validation results, as scikit-learn's ``RocCurveDisplay`` builds its displays.

A base class of ``CostCurveDisplay`` (as ``ClassifierConstructors`` is of ``Classifier``): each
classmethod checks its input, builds the classifiers, computes what will be shown (the operating
point, the bootstrap bands) and calls ``cls(...).plot(...)``, which only draws. Estimators are
scored by scikit-learn's own helper, so its errors are scikit-learn's. No matplotlib import.
"""

from __future__ import annotations

from ..model import Classifier, check_pcf, probability_cost

__all__ = ["DisplayConstructors"]


class DisplayConstructors:
    """The constructors of :class:`~costwidget.CostCurveDisplay` (a base class of it; see there)."""

    @classmethod
    def from_predictions(
        cls,
        y_true,
        y_score,
        *,
        sample_weight=None,
        pos_label=None,
        name=None,
        ax=None,
        pcf=None,
        p_pos=None,
        cost_fn=1.0,
        cost_fp=1.0,
        show_bands=False,
        band_level=0.9,
        random_state=0,
        **kwargs,
    ):
        """Plot cost curves from true labels and scores.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples,), or dict
            Scores (higher means more positive), or ``{name: y_score}`` for several
            classifiers scored on the same ``y_true``.
        sample_weight : array-like of shape (n_samples,), optional
        pos_label : label, optional
            The positive class; may be omitted for labels {0, 1}, {-1, 1}, {False, True}.
        name : str, optional
            Legend name of a single classifier; default ``"Classifier"``, as
            scikit-learn's. With a dict of scores the keys are the names.
        ax : matplotlib Axes, optional
            Cost-space axes to draw on; default a new figure.
        pcf : float, optional
            Operating point as PCF(+): the operating line, each classifier's NEC on it
            and, with ``roc=True``, the iso-performance lines.
        p_pos, cost_fn, cost_fp : float, optional
            Operating point as prevalence and costs (PCF(+) is computed, eq. 6); give
            either ``pcf`` or ``p_pos``.
        show_bands : bool, default False
            Pointwise bootstrap bands around the envelopes at ``band_level``
            (:meth:`Classifier.band`, with ``random_state``), computed here.
        band_level : float, default 0.9
        random_state : int, RandomState instance or None, default 0
        **kwargs
            Keyword arguments of :meth:`plot` (``curve_kwargs``, ``trivial_kw``,
            ``despine``, ``roc``, ``cost_lines``, ...).

        Returns
        -------
        CostCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import costwidget as cw
        >>> y = [0, 0, 1, 1, 0, 1]
        >>> disp = cw.CostCurveDisplay.from_predictions(
        ...     y, {"a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.7], "b": [0.3, 0.2, 0.6, 0.5, 0.4, 0.9]},
        ...     curve_kwargs=[{"lw": 1}, {"c": "black", "linestyle": ":"}])
        >>> disp.name, [line.get_label() for line in disp.line_]
        (['a', 'b'], ['a (AUC = 0.89)', 'b (AUC = 1.00)'])
        >>> disp.line_[1].get_color(), disp.line_[0].get_linewidth()
        ('black', 1.0)
        """
        if isinstance(y_score, dict):
            if name is not None:
                raise ValueError(
                    "name= names one classifier; with a dict of scores the keys are the names."
                )
            from ..model import classifiers_from_predictions

            # One label array for all: the classifiers are known to score the same cases.
            clfs = list(
                classifiers_from_predictions(
                    y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
                ).values()
            )
            name = [clf.name for clf in clfs]
        else:
            name = "Classifier" if name is None else name
            clfs = [
                Classifier.from_scores(
                    y_true, y_score, name=name, pos_label=pos_label, sample_weight=sample_weight
                )
            ]
        shown_label = clfs[0].pos_label if pos_label is None else pos_label
        shown = _shown(
            clfs,
            pcf=pcf,
            p_pos=p_pos,
            cost_fn=cost_fn,
            cost_fp=cost_fp,
            show_bands=show_bands,
            band_level=band_level,
            random_state=random_state,
        )
        return cls(classifiers=clfs, name=name, pos_label=shown_label, **shown).plot(
            ax=ax, **kwargs
        )

    @classmethod
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        sample_weight=None,
        response_method="auto",
        pos_label=None,
        name=None,
        ax=None,
        pcf=None,
        p_pos=None,
        cost_fn=1.0,
        cost_fp=1.0,
        show_bands=False,
        band_level=0.9,
        random_state=0,
        **kwargs,
    ):
        """Plot the cost curve of a fitted scikit-learn binary classifier on ``(X, y)``.

        The scores are scikit-learn's own (``_get_response_values_binary``,
        as its ``RocCurveDisplay`` gets them), and so are the errors: an
        unfitted estimator raises ``NotFittedError``, a missing response
        method ``AttributeError``, a regressor or a multiclass classifier
        ``ValueError``.

        Parameters
        ----------
        estimator : fitted classifier
            A binary classifier, or a pipeline ending in one.
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
        response_method : {"auto", "predict_proba", "decision_function"}, default "auto"
            ``"auto"`` tries ``predict_proba`` first, as scikit-learn does.
        pos_label : label, optional
            Default ``estimator.classes_[1]``.
        name : str, optional
            Default the estimator's class name.
        ax : matplotlib Axes, optional
        pcf : float, optional
            Operating point as PCF(+): the operating line, each classifier's NEC on it
            and, with ``roc=True``, the iso-performance lines.
        p_pos, cost_fn, cost_fp : float, optional
            Operating point as prevalence and costs (PCF(+) is computed, eq. 6); give
            either ``pcf`` or ``p_pos``.
        show_bands : bool, default False
            Pointwise bootstrap bands around the envelopes at ``band_level``
            (:meth:`Classifier.band`, with ``random_state``), computed here.
        band_level : float, default 0.9
        random_state : int, RandomState instance or None, default 0
        **kwargs
            Keyword arguments of :meth:`plot`.

        Returns
        -------
        CostCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.linear_model import LogisticRegression
        >>> import costwidget as cw
        >>> X, y = make_classification(n_samples=200, random_state=0)
        >>> clf = LogisticRegression().fit(X, y)
        >>> disp = cw.CostCurveDisplay.from_estimator(clf, X, y, roc=True)
        >>> disp.name, disp.line_.get_label(), disp.roc_ax_.get_title()
        ('LogisticRegression', 'LogisticRegression (AUC = 0.98)', 'ROC space')
        """
        name = type(estimator).__name__ if name is None else name
        y_score, pos_label = _response_values(estimator, X, response_method, pos_label)
        clf = Classifier.from_scores(
            y, y_score, name=name, pos_label=pos_label, sample_weight=sample_weight
        )
        shown = _shown(
            [clf],
            pcf=pcf,
            p_pos=p_pos,
            cost_fn=cost_fn,
            cost_fp=cost_fp,
            show_bands=show_bands,
            band_level=band_level,
            random_state=random_state,
        )
        return cls(classifiers=[clf], name=name, pos_label=pos_label, **shown).plot(ax=ax, **kwargs)

    @classmethod
    def from_cv_results(
        cls,
        cv_results,
        X,
        y,
        *,
        sample_weight=None,
        response_method="auto",
        pos_label=None,
        name=None,
        ax=None,
        pcf=None,
        p_pos=None,
        cost_fn=1.0,
        cost_fp=1.0,
        show_bands=False,
        band_level=0.9,
        random_state=0,
        **kwargs,
    ):
        """Plot one cost curve per cross-validation fold, as ``RocCurveDisplay.from_cv_results``.

        Each fold's estimator scores its own test samples. scikit-learn has
        ``RocCurveDisplay.from_cv_results`` from 1.7; this one needs only
        ``cross_validate(..., return_indices=True)`` (scikit-learn >= 1.3).

        Parameters
        ----------
        cv_results : dict
            As returned by ``sklearn.model_selection.cross_validate`` with
            ``return_estimator=True`` and ``return_indices=True``.
        X : array-like of shape (n_samples, n_features)
            The data that was cross-validated.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
        response_method : {"auto", "predict_proba", "decision_function"}, default "auto"
        pos_label : label, optional
            Default ``classes_[1]`` of the folds' estimators.
        name : str or list of str, optional
            One name for all folds, or one per fold (then ``curve_kwargs`` must
            be a list, so that the curves told apart by name look different,
            as scikit-learn requires). Default none: the legend shows the AUC.
        ax : matplotlib Axes, optional
        pcf : float, optional
            Operating point as PCF(+): the operating line, each classifier's NEC on it
            and, with ``roc=True``, the iso-performance lines.
        p_pos, cost_fn, cost_fp : float, optional
            Operating point as prevalence and costs (PCF(+) is computed, eq. 6); give
            either ``pcf`` or ``p_pos``.
        show_bands : bool, default False
            Pointwise bootstrap bands around the envelopes at ``band_level``
            (:meth:`Classifier.band`, with ``random_state``), computed here.
        band_level : float, default 0.9
        random_state : int, RandomState instance or None, default 0
        **kwargs
            Keyword arguments of :meth:`plot`. ``curve_kwargs`` as one dict
            styles every fold, with one legend entry for all (the mean AUC +/-
            its standard deviation); as a list of one dict per fold, each fold
            has a legend entry.

        Returns
        -------
        CostCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import cross_validate
        >>> import costwidget as cw
        >>> X, y = make_classification(n_samples=200, random_state=0)
        >>> cv = cross_validate(LogisticRegression(), X, y, cv=3, return_estimator=True,
        ...                     return_indices=True)
        >>> disp = cw.CostCurveDisplay.from_cv_results(cv, X, y)
        >>> disp.line_[0].get_label(), len(disp.line_)
        ('AUC = 0.96 +/- 0.02', 3)
        >>> disp = cw.CostCurveDisplay.from_cv_results(cv, X, y, name="LR",
        ...                                            curve_kwargs=[{}, {"c": "red"}, {}])
        >>> [line.get_label() for line in disp.line_]
        ['LR (AUC = 0.98)', 'LR (AUC = 0.93)', 'LR (AUC = 0.96)']
        """
        from sklearn.utils import _safe_indexing

        _check_cv_results(cv_results, X, y, sample_weight)
        clfs = []
        for estimator, test in zip(cv_results["estimator"], cv_results["indices"]["test"]):
            y_score, fold_pos_label = _response_values(
                estimator, _safe_indexing(X, test), response_method, pos_label
            )
            weight = None if sample_weight is None else _safe_indexing(sample_weight, test)
            clfs.append(
                Classifier.from_scores(
                    _safe_indexing(y, test), y_score, pos_label=fold_pos_label, sample_weight=weight
                )
            )
        shown = _shown(
            clfs,
            pcf=pcf,
            p_pos=p_pos,
            cost_fn=cost_fn,
            cost_fp=cost_fp,
            show_bands=show_bands,
            band_level=band_level,
            random_state=random_state,
        )
        display = cls(classifiers=clfs, name=name, pos_label=fold_pos_label, folds=True, **shown)
        return display.plot(ax=ax, **kwargs)


def _shown(clfs, *, pcf, p_pos, cost_fn, cost_fp, show_bands, band_level, random_state) -> dict:
    """What the display will show beyond the curves: the operating point and the bands (the
    band of the best achievable cost, as the widget draws it: :meth:`Classifier.band`)."""
    pcf = _operating_pcf(pcf, p_pos, cost_fn, cost_fp)
    if not show_bands:
        return {"pcf": pcf}
    bands = [clf.band(band_level, interval="basic", random_state=random_state) for clf in clfs]
    return {"pcf": pcf, "bands": bands, "band_level": band_level}


def _operating_pcf(pcf, p_pos, cost_fn, cost_fp):
    """The operating point's PCF(+), from ``pcf`` or from ``p_pos`` and the costs (eq. 6)."""
    if pcf is not None and p_pos is not None:
        raise ValueError(
            "give the operating point as pcf= or as p_pos= (with cost_fn=, cost_fp=), not both."
        )
    if p_pos is not None:
        return float(probability_cost(p_pos, cost_fn, cost_fp))
    if pcf is None:
        return None
    return float(check_pcf(pcf))


def _response_values(estimator, X, response_method, pos_label):
    """(scores of the positive class, pos_label), and the errors, as scikit-learn's displays get
    them: NotFittedError, AttributeError for a missing method, ValueError for a regressor or
    more than two classes or an unknown pos_label."""
    from sklearn.utils._response import _get_response_values_binary

    return _get_response_values_binary(
        estimator, X, response_method=response_method, pos_label=pos_label
    )


def _check_cv_results(cv_results, X, y, sample_weight):
    """scikit-learn's checks of ``from_cv_results``' input (its messages, but for the keys
    missing, which are named)."""
    from sklearn.utils import check_consistent_length
    from sklearn.utils.multiclass import type_of_target
    from sklearn.utils.validation import _num_samples

    missing = [key for key in ("estimator", "indices") if key not in cv_results]
    if missing:
        raise ValueError(
            f"`cv_results` does not contain the required keys {missing}: pass "
            "return_estimator=True and return_indices=True to cross_validate."
        )
    n_samples = len(cv_results["indices"]["train"][0]) + len(cv_results["indices"]["test"][0])
    if _num_samples(X) != n_samples:
        raise ValueError(
            "`X` does not contain the correct number of samples. "
            f"Expected {n_samples}, got {_num_samples(X)}."
        )
    if type_of_target(y) != "binary":
        raise ValueError(f"The target `y` is not binary. Got {type_of_target(y)} type of target.")
    check_consistent_length(X, y, sample_weight)
