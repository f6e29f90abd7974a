"""Scores of scikit-learn estimators: the positive class's response, fitted or cross-validated.

Layer 0: knows nothing of ``Classifier``. :mod:`.estimators` and ``Classifier.from_estimator``
build classifiers from what these return; ``costwidget.display`` scores with them too.
scikit-learn is imported only when these functions run (extra ``sklearn``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


@dataclass(frozen=True)
class EstimatorSource:
    """How a classifier's scores were made from a scikit-learn estimator.

    Recorded by ``Classifier.from_estimator`` / ``classifiers_from_estimators``
    as ``clf.estimator_source`` (a field given to the constructor), so that the
    chosen threshold can be deployed on the same response.

    Attributes
    ----------
    estimator : estimator
        The fitted estimator (``cross_validated=False``) or the unfitted
        template that was cloned in every fold.
    response_method : {"predict_proba", "decision_function"}
        The method that produced the scores.
    pos_label : label
        The positive class; the score is that class's.
    cross_validated : bool
        True when the scores are out-of-fold (``cv=`` was given).
    X, y : array-like or None
        The data the scores were made on (references, not copies), kept only
        for cross-validated classifiers, which are refit on all of it.
    """

    estimator: object
    response_method: str
    pos_label: object
    cross_validated: bool
    X: object = None
    y: object = None


def check_sklearn():
    try:
        import sklearn  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "Classifiers from estimators need scikit-learn: pip install 'costwidget[sklearn]'."
        ) from exc


def estimator_scores(estimator, X, y, *, cv, pos_label, label, response_method, groups) -> dict:
    """``from_scores`` keywords (y_true, y_score, pos_label, folds) of one estimator.

    ``cv=None`` scores the fitted estimator on ``(X, y)``; otherwise it is cross-validated.
    """
    check_sklearn()
    if response_method not in RESPONSE_METHODS:
        raise ValueError(
            f"response_method must be one of {RESPONSE_METHODS}, got {response_method!r}."
        )
    y_arr = as_labels(y)
    if cv is None:
        scores, pos_label = fitted_scores(
            estimator, X, pos_label=pos_label, label=label, response_method=response_method, y=y_arr
        )
        method = _method(estimator, response_method, label)
        return dict(
            y_true=y_arr,
            y_score=scores,
            pos_label=pos_label,
            folds=None,
            _estimator_source=EstimatorSource(estimator, method, pos_label, False),
        )
    splits = cv_splits([estimator], X, y_arr, cv, groups)
    return cross_validated_scores(
        estimator, X, y_arr, splits, pos_label, label, response_method, groups
    )


def as_labels(y) -> np.ndarray:
    y_arr = np.asarray(y)
    if y_arr.ndim != 1:
        raise ValueError(f"y must be 1-dimensional, got shape {y_arr.shape}.")
    return y_arr


def fitted_scores(
    estimator, X, *, pos_label, label, response_method="auto", y=None, cv_hint: bool = True
):
    """(scores of the positive class, pos_label) of a fitted binary estimator on ``X``.

    ``y``, when given, must hold only labels the estimator was fitted on. ``cv_hint``: an
    unfitted estimator's message suggests ``cv=5`` (where the caller takes ``cv``).
    """
    if response_method not in RESPONSE_METHODS:
        raise ValueError(
            f"response_method must be one of {RESPONSE_METHODS}, got {response_method!r}."
        )
    classes = _fitted_classes(estimator, label, cv_hint)
    pos_label = _resolve_pos_label(classes, pos_label, label)
    if y is not None:
        _check_labels_known(y, classes, label)
    method = _method(estimator, response_method, label)
    return _positive_scores(getattr(estimator, method)(X), method, classes, pos_label), pos_label


# ---------------------------------------------------------------------- helpers
def _fitted_classes(estimator, label, cv_hint: bool = True) -> np.ndarray:
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    try:
        check_is_fitted(estimator)
    except NotFittedError:
        if not cv_hint:
            raise ValueError(
                f"{label} is not fitted: call fit first, or use from_predictions with your scores."
            ) from None
        raise ValueError(
            f"{label} is not fitted. With cv=None it is scored as it is on (X, y), "
            f"the test data, like sklearn's RocCurveDisplay.from_estimator: fit it "
            f"first, or pass cv=5 (or a CV splitter) to cross-validate it."
        ) from None
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise ValueError(f"{label} has no classes_: a binary classifier is needed.")
    return _binary(np.asarray(classes), label)


def _binary(classes: np.ndarray, label) -> np.ndarray:
    if len(classes) != 2:
        raise ValueError(
            f"{label} has {len(classes)} classes {classes.tolist()!r}; a binary "
            f"classifier (exactly two classes) is needed."
        )
    return classes


def _resolve_pos_label(classes: np.ndarray, pos_label, label):
    if pos_label is None:
        return classes[1].item() if hasattr(classes[1], "item") else classes[1]
    if not any(_same(c, pos_label) for c in classes.tolist()):
        raise ValueError(
            f"pos_label={pos_label!r} is not one of the labels {classes.tolist()!r} "
            f"({label}), so not a class to score; pass one of them."
        )
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
        raise ValueError(
            f"y has labels {unknown!r} that {label} was not fitted on "
            f"(its classes_ are {classes.tolist()!r})."
        )


def _method(estimator, response_method, label) -> str:
    wanted = (
        ["predict_proba", "decision_function"] if response_method == "auto" else [response_method]
    )
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
            raise ValueError(
                f"{method} gave {out.shape[1]} columns; a binary classifier gives 1 or 2."
            )
    if method == "predict_proba":
        raise ValueError("predict_proba gave one column; a binary classifier gives two.")
    # decision_function is the score of classes[1]: the other class's score is its negative.
    return -out if col == 0 else out


def cv_splits(estimators, X, y, cv, groups) -> list:
    """The (train, test) splits, drawn once, checked to partition the samples."""
    from sklearn.base import is_classifier
    from sklearn.model_selection import check_cv

    splitter = check_cv(cv, y, classifier=all(is_classifier(e) for e in estimators))
    splits = [(np.asarray(tr), np.asarray(te)) for tr, te in splitter.split(X, y, groups)]
    seen = np.zeros(len(y), dtype=np.int64)
    for _, test in splits:
        np.add.at(seen, test, 1)
    if not (seen == 1).all():
        raise ValueError(
            "cv must put every sample in exactly one test fold (a partition, as "
            f"cross_val_predict needs); {int((seen == 0).sum())} samples are in no "
            f"test fold and {int((seen > 1).sum())} in several."
        )
    return splits


def cross_validated_scores(estimator, X, y, splits, pos_label, label, response_method, groups):
    """``from_scores`` keywords of the cross-validated scores: y_true, y_score, pos_label, folds."""
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
    return dict(
        y_true=y,
        y_score=scores,
        pos_label=pos_label,
        folds=folds,
        _estimator_source=EstimatorSource(estimator, method, pos_label, True, X, y),
    )
