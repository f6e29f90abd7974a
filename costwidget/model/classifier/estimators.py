"""Classifiers from scikit-learn estimators: a fitted one scored on test data, or cross-validated.

scikit-learn is imported only when these functions run (extra ``sklearn``).

Two ways to get scores, as in scikit-learn:

* ``cv=None``: the estimator is already fitted and is scored on the given
  ``(X, y)``, the test data (as ``RocCurveDisplay.from_estimator``);
* ``cv=5``, a CV splitter or a list of ``(train, test)`` index pairs: clones
  of the estimator are fitted on each training part and score its test part
  (``cross_val_predict``). The test fold of every sample is kept, so
  :meth:`Classifier.fold_average` and :meth:`Classifier.fold_spread` work. The
  test parts must partition the samples.

The score is the estimator's ``predict_proba`` column of the positive class
or, without ``predict_proba``, its ``decision_function``, which scikit-learn
defines for ``classes_[1]``: for ``pos_label == classes_[0]`` it is negated
(so a threshold on such a classifier is a threshold on ``-decision_function``).
As in scikit-learn's displays, ``pos_label`` defaults to ``classes_[1]``.
"""

from __future__ import annotations

from ..kernels.estimator_scoring import (
    RESPONSE_METHODS,
    FitProgress,
    as_labels,
    check_sklearn,
    cross_validated_scores,
    cv_splits,
    estimator_scores,
)
from .classifier import Classifier

# Layer 5 (classifier/): builds Classifier objects; the scoring itself is in .estimator_scoring.
__all__ = [
    "RESPONSE_METHODS",
    "classifier_from_estimator",
    "classifiers_from_estimators",
    "estimator_names",
]


def classifier_from_estimator(
    estimator,
    X,
    y,
    *,
    cv=None,
    pos_label=None,
    name=None,
    response_method="auto",
    groups=None,
    cls=None,
    n_jobs=None,
    progress="auto",
):
    """One :class:`~costwidget.Classifier` from a scikit-learn estimator.

    Parameters
    ----------
    estimator : scikit-learn binary classifier
        Fitted when ``cv`` is None; otherwise it is cloned and fitted per fold.
    X : array-like of shape (n_samples, n_features)
        Test data (``cv=None``) or all the data to cross-validate on.
    y : array-like of shape (n_samples,)
        True labels (two classes).
    cv : None, int, CV splitter or iterable of (train, test), default=None
        None scores the fitted estimator on ``(X, y)``. Anything else is passed
        to scikit-learn's ``check_cv`` (an int gives ``StratifiedKFold`` for a
        classifier) and the samples' test folds become the classifier's folds.
    pos_label : label, optional
        The positive class; default ``classes_[1]`` (the estimator's, or the
        sorted labels of ``y`` when cross-validating), as scikit-learn's displays do.
    name : str, optional
        Default: the estimator's class name.
    response_method : {"auto", "predict_proba", "decision_function"}
        ``"auto"`` takes ``predict_proba`` if the estimator has it.
    groups : array-like of shape (n_samples,), optional
        Group labels for group splitters (``cv`` only).
    cls : type, optional
        The class to build (default :class:`~costwidget.Classifier`).
    n_jobs : int, optional
        Folds fitted at the same time (``cv`` only), as in ``cross_val_predict``: None
        means 1, -1 all processors (joblib). The scores are the same whatever it is.
    progress : {"auto", True, False}, default="auto"
        ``"auto"`` says on stderr how many fits are done once fitting has taken longer
        than about 2 s (fast fits print nothing); True from the first fit; False never.

    Returns
    -------
    Classifier

    Raises
    ------
    ValueError
        If ``pos_label`` is not one of the labels (the message names them),
        there are not exactly two classes, an estimator is not fitted with
        ``cv=None``, or the response method is missing.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.svm import LinearSVC
    >>> from costwidget.model.classifier.estimators import classifier_from_estimator
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = np.where(X[:, 0] + 0.5 * rng.normal(size=200) > 0, "spam", "ham")
    >>> model = LogisticRegression().fit(X[:100], y[:100])
    >>> clf = classifier_from_estimator(model, X[100:], y[100:], pos_label="spam")
    >>> clf.name, clf.pos_label, len(clf.folds)
    ('LogisticRegression', 'spam', 0)
    >>> cv = classifier_from_estimator(LinearSVC(), X, y, cv=5, pos_label="ham")
    >>> len(cv.folds), round(cv.area(), 2) < 0.25   # scores of "ham", not of "spam"
    (5, True)
    """
    cls = Classifier if cls is None else cls
    label = type(estimator).__name__ if name is None else name
    return cls.from_scores(
        **estimator_scores(
            estimator,
            X,
            y,
            cv=cv,
            pos_label=pos_label,
            label=label,
            response_method=response_method,
            groups=groups,
            n_jobs=n_jobs,
            progress=progress,
        ),
        name=label,
    )


def classifiers_from_estimators(
    estimators,
    X,
    y,
    *,
    cv=5,
    pos_label=None,
    response_method="auto",
    groups=None,
    n_jobs=None,
    progress="auto",
    progress_view=None,
    cost_fn=None,
    cost_fp=None,
    cost_tp=None,
    cost_tn=None,
) -> dict:
    """Classifiers of several estimators on the same data, keyed by name (for the widget).

    Parameters
    ----------
    estimators : dict or list
        ``{"name": estimator}``, or a list of estimators and/or
        ``(name, estimator)`` pairs. Names are the given ones or, for a bare
        estimator, its class name; a repeated class name gets " (2)", " (3)", ...
        (see :func:`estimator_names`). Repeated given names are refused.
    X, y, pos_label, response_method, groups
        As :func:`classifier_from_estimator`.
    cv : None, int, CV splitter or iterable of (train, test), default=5
        5-fold cross-validation by default (``StratifiedKFold`` for
        classifiers); None scores fitted estimators on ``(X, y)``. The splits
        are drawn once, so every estimator is scored on the same folds and the
        classifiers can be compared paired (:func:`~costwidget.difference_band`).
    n_jobs : int, optional
        Folds fitted at the same time, as in ``cross_val_predict`` (None: 1; -1: all
        processors). The classifiers are the same whatever it is.
    progress : {"auto", True, False}, default="auto"
        Say how many of the fits are done once fitting has taken longer than about 2 s
        (``"auto"``; fast fits show nothing), from the first fit (True), or never (False).
    progress_view : callable, optional
        Draws the progress: ``view(done, total, label, elapsed)``, ``done=None`` at the end.
        Default: a line on stderr per fit. ``CostWidget.from_estimators`` gives a progress
        bar in a notebook.
    cost_fn, cost_fp, cost_tp, cost_tn : float or array-like of shape (n_samples,), optional
        Per-case costs of the cases of ``y``, as in :meth:`Classifier.from_scores` (every
        classifier gets the same).

    Returns
    -------
    dict
        Name -> :class:`~costwidget.Classifier`, in the given order.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from costwidget.model.classifier.estimators import classifiers_from_estimators
    >>> rng = np.random.default_rng(1)
    >>> X = rng.normal(size=(120, 2))
    >>> y = (X[:, 0] + rng.normal(size=120) > 0).astype(int)
    >>> models = classifiers_from_estimators([LogisticRegression(), LogisticRegression(C=0.01)], X, y)
    >>> list(models)
    ['LogisticRegression', 'LogisticRegression (2)']
    >>> len(models["LogisticRegression (2)"].folds)
    5
    """
    check_sklearn()
    costs = dict(cost_fn=cost_fn, cost_fp=cost_fp, cost_tp=cost_tp, cost_tn=cost_tn)
    named = estimator_names(estimators)
    y_arr = as_labels(y)
    if cv is None:
        return {
            n: Classifier.from_estimator(
                e, X, y_arr, pos_label=pos_label, name=n, response_method=response_method, **costs
            )
            for n, e in named
        }
    splits = cv_splits([e for _, e in named], X, y_arr, cv, groups)
    counter = FitProgress(len(splits) * len(named), show=progress, view=progress_view)
    try:
        return {
            n: Classifier.from_scores(
                **cross_validated_scores(
                    e,
                    X,
                    y_arr,
                    splits,
                    pos_label,
                    n,
                    response_method,
                    groups,
                    n_jobs=n_jobs,
                    progress=counter,
                ),
                name=n,
                **costs,
            )
            for n, e in named
        }
    finally:
        counter.close()


def estimator_names(estimators) -> list:
    """``[(name, estimator)]``: the naming rule of :func:`classifiers_from_estimators`.

    Parameters
    ----------
    estimators : dict or list
        A dict's keys are the names (strings). A list holds estimators and/or
        ``(name, estimator)`` pairs: a given name is kept as it is, and a bare
        estimator is named by its class, with " (2)", " (3)", ... added to a
        class name already taken (by a given name or an earlier estimator).

    Returns
    -------
    list of (str, estimator)

    Raises
    ------
    ValueError
        If there are no estimators or a given name is repeated.
    TypeError
        If a name is not a string or ``estimators`` is neither a dict nor a list.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.svm import LinearSVC
    >>> from costwidget.model.classifier.estimators import estimator_names
    >>> [n for n, _ in estimator_names([LogisticRegression(), LinearSVC(), LogisticRegression()])]
    ['LogisticRegression', 'LinearSVC', 'LogisticRegression (2)']
    >>> [n for n, _ in estimator_names([("LogisticRegression", LinearSVC()), LogisticRegression()])]
    ['LogisticRegression', 'LogisticRegression (2)']
    """
    if isinstance(estimators, dict):
        items = list(estimators.items())
    elif isinstance(estimators, (list, tuple)):
        items = [e if _is_pair(e) else (None, e) for e in estimators]
    else:
        raise TypeError(
            "estimators must be a dict {name: estimator} or a list of estimators "
            f"(or of (name, estimator) pairs), got {type(estimators).__name__}."
        )
    if not items:
        raise ValueError("estimators is empty: give at least one estimator.")
    given = [n for n, _ in items if n is not None]
    for n in given:
        if not isinstance(n, str):
            raise TypeError(f"Estimator names must be strings, got {n!r} ({type(n).__name__}).")
    repeated = sorted({n for n in given if given.count(n) > 1})
    if repeated:
        raise ValueError(f"Estimator names must be unique; repeated: {repeated!r}.")
    taken, out = set(given), []
    for n, est in items:
        if n is None:
            base = n = type(est).__name__
            k = 2
            while n in taken:
                n, k = f"{base} ({k})", k + 1
            taken.add(n)
        out.append((n, est))
    return out


def _is_pair(item) -> bool:
    return isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
