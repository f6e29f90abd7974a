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

import numpy as np

__all__ = ["classifier_from_estimator", "classifiers_from_estimators", "estimator_names"]

RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


def _sklearn():
    try:
        import sklearn  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("Classifiers from estimators need scikit-learn: "
                          "pip install 'costwidget[sklearn]'.") from exc


def classifier_from_estimator(estimator, X, y, *, cv=None, pos_label=None, name=None,
                              response_method="auto", groups=None, cls=None):
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
    >>> from costwidget.model.estimators import classifier_from_estimator
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
    _sklearn()
    from .classifier import Classifier

    cls = Classifier if cls is None else cls
    if response_method not in RESPONSE_METHODS:
        raise ValueError(f"response_method must be one of {RESPONSE_METHODS}, got {response_method!r}.")
    y_arr = np.asarray(y)
    if y_arr.ndim != 1:
        raise ValueError(f"y must be 1-dimensional, got shape {y_arr.shape}.")
    label = type(estimator).__name__ if name is None else name
    if cv is None:
        classes = _fitted_classes(estimator, label)
        pos_label = _resolve_pos_label(classes, pos_label, label)
        _check_labels_known(y_arr, classes, label)
        method = _method(estimator, response_method, label)
        scores = _positive_scores(getattr(estimator, method)(X), method, classes, pos_label)
        clf = cls.from_scores(y_arr, scores, name=label, pos_label=pos_label)
        return _record_source(clf, estimator, method, pos_label, cross_validated=False)
    splits = _splits([estimator], X, y_arr, cv, groups)
    return _cross_validated(cls, estimator, X, y_arr, splits, pos_label, label, response_method,
                            groups)


def classifiers_from_estimators(estimators, X, y, *, cv=5, pos_label=None, response_method="auto",
                                groups=None) -> dict:
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

    Returns
    -------
    dict
        Name -> :class:`~costwidget.Classifier`, in the given order.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from costwidget.model.estimators import classifiers_from_estimators
    >>> rng = np.random.default_rng(1)
    >>> X = rng.normal(size=(120, 2))
    >>> y = (X[:, 0] + rng.normal(size=120) > 0).astype(int)
    >>> models = classifiers_from_estimators([LogisticRegression(), LogisticRegression(C=0.01)], X, y)
    >>> list(models)
    ['LogisticRegression', 'LogisticRegression (2)']
    >>> len(models["LogisticRegression (2)"].folds)
    5
    """
    _sklearn()
    from .classifier import Classifier

    named = estimator_names(estimators)
    y_arr = np.asarray(y)
    if y_arr.ndim != 1:
        raise ValueError(f"y must be 1-dimensional, got shape {y_arr.shape}.")
    if cv is None:
        return {n: classifier_from_estimator(e, X, y_arr, pos_label=pos_label, name=n,
                                             response_method=response_method)
                for n, e in named}
    splits = _splits([e for _, e in named], X, y_arr, cv, groups)
    return {n: _cross_validated(Classifier, e, X, y_arr, splits, pos_label, n, response_method, groups)
            for n, e in named}


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
    >>> from costwidget.model.estimators import estimator_names
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
        raise TypeError("estimators must be a dict {name: estimator} or a list of estimators "
                        f"(or of (name, estimator) pairs), got {type(estimators).__name__}.")
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


# ---------------------------------------------------------------------- helpers
def _is_pair(item) -> bool:
    return isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)


def _fitted_classes(estimator, label) -> np.ndarray:
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    try:
        check_is_fitted(estimator)
    except NotFittedError:
        raise ValueError(f"{label} is not fitted. With cv=None it is scored as it is on (X, y), "
                         f"the test data, like sklearn's RocCurveDisplay.from_estimator: fit it "
                         f"first, or pass cv=5 (or a CV splitter) to cross-validate it.") from None
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise ValueError(f"{label} has no classes_: a binary classifier is needed.")
    return _binary(np.asarray(classes), label)


def _binary(classes: np.ndarray, label) -> np.ndarray:
    if len(classes) != 2:
        raise ValueError(f"{label} has {len(classes)} classes {classes.tolist()!r}; a binary "
                         f"classifier (exactly two classes) is needed.")
    return classes


def _resolve_pos_label(classes: np.ndarray, pos_label, label):
    if pos_label is None:
        return classes[1].item() if hasattr(classes[1], "item") else classes[1]
    if not any(_same(c, pos_label) for c in classes.tolist()):
        raise ValueError(f"pos_label={pos_label!r} is not one of the labels {classes.tolist()!r} "
                         f"({label}); pass one of them.")
    return pos_label


def _same(a, b) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _check_labels_known(y: np.ndarray, classes: np.ndarray, label):
    known = classes.tolist()
    unknown = [v for v in np.unique(y).tolist() if not any(_same(v, c) for c in known)]
    if unknown:
        raise ValueError(f"y has labels {unknown!r} that {label} was not fitted on "
                         f"(its classes_ are {classes.tolist()!r}).")


def _method(estimator, response_method, label) -> str:
    wanted = ["predict_proba", "decision_function"] if response_method == "auto" else [response_method]
    for m in wanted:
        if hasattr(estimator, m):
            return m
    raise ValueError(f"{label} has no {' or '.join(wanted)} to score the samples with.")


def _positive_scores(out, method, classes, pos_label) -> np.ndarray:
    """The score of the positive class from predict_proba or decision_function output."""
    out = np.asarray(out, dtype=np.float64)
    col = 0 if _same(classes[0], pos_label) else 1
    if out.ndim == 2:
        if out.shape[1] == 2:
            return out[:, col]
        if out.shape[1] == 1:
            out = out[:, 0]
        else:
            raise ValueError(f"{method} gave {out.shape[1]} columns; a binary classifier gives 1 or 2.")
    if method == "predict_proba":
        raise ValueError("predict_proba gave one column; a binary classifier gives two.")
    # decision_function is the score of classes[1]: the other class's score is its negative.
    return -out if col == 0 else out


def _splits(estimators, X, y, cv, groups) -> list:
    """The (train, test) splits, drawn once, checked to partition the samples."""
    from sklearn.base import is_classifier
    from sklearn.model_selection import check_cv

    splitter = check_cv(cv, y, classifier=all(is_classifier(e) for e in estimators))
    splits = [(np.asarray(tr), np.asarray(te)) for tr, te in splitter.split(X, y, groups)]
    seen = np.zeros(len(y), dtype=np.int64)
    for _, test in splits:
        np.add.at(seen, test, 1)
    if not (seen == 1).all():
        raise ValueError("cv must put every sample in exactly one test fold (a partition, as "
                         f"cross_val_predict needs); {int((seen == 0).sum())} samples are in no "
                         f"test fold and {int((seen > 1).sum())} in several.")
    return splits


def _cross_validated(cls, estimator, X, y, splits, pos_label, label, response_method, groups):
    from sklearn.model_selection import cross_val_predict

    # cross_val_predict encodes the labels, so its columns (and the decision
    # function's sign) follow the sorted labels of y.
    classes = _binary(np.unique(y), f"y ({label})")
    pos_label = _resolve_pos_label(classes, pos_label, label)
    method = _method(estimator, response_method, label)
    out = cross_val_predict(estimator, X, y, cv=splits, method=method, groups=groups)
    scores = _positive_scores(out, method, classes, pos_label)
    folds = np.empty(len(y), dtype=np.int64)
    for k, (_, test) in enumerate(splits):
        folds[test] = k
    clf = cls.from_scores(y, scores, name=label, pos_label=pos_label, folds=folds)
    return _record_source(clf, estimator, method, pos_label, cross_validated=True, X=X, y=y)


def _record_source(clf, estimator, method, pos_label, *, cross_validated, X=None, y=None):
    """Keep how the scores were made (``clf.estimator_source``), so the chosen threshold can
    be deployed on the same response (`costwidget.model.deploy.to_estimator`)."""
    from .deploy import EstimatorSource

    clf.estimator_source = EstimatorSource(estimator, method, pos_label, cross_validated, X, y)
    return clf
