"""Scores of scikit-learn estimators: the positive class's response, fitted or cross-validated.

Layer 0: knows nothing of ``Classifier``. :mod:`.estimators` and ``Classifier.from_estimator``
build classifiers from what these return; ``costwidget.display`` scores with them too.
scikit-learn is imported only when these functions run (extra ``sklearn``).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numpy as np

RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")
# Fits that end sooner than this say nothing; longer ones show how many are done.
PROGRESS_AFTER_S = 2.0


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


def estimator_scores(
    estimator,
    X,
    y,
    *,
    cv,
    pos_label,
    label,
    response_method,
    groups,
    n_jobs=None,
    progress="auto",
    progress_view=None,
) -> dict:
    """``from_scores`` keywords (y_true, y_score, pos_label, folds) of one estimator.

    ``cv=None`` scores the fitted estimator on ``(X, y)``; otherwise it is cross-validated,
    ``n_jobs`` folds at a time, the fits counted as :class:`FitProgress` says (``progress``,
    ``progress_view``).
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
    counter = FitProgress(len(splits), show=progress, view=progress_view)
    try:
        return cross_validated_scores(
            estimator,
            X,
            y_arr,
            splits,
            pos_label,
            label,
            response_method,
            groups,
            n_jobs=n_jobs,
            progress=counter,
        )
    finally:
        counter.close()


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


class FitProgress:
    """Counts finished fits and, once they have taken longer than ``after`` seconds, shows it.

    ``show``: ``"auto"`` (after ``after`` seconds), True (from the first fit) or False (never).
    ``view(done, total, label, elapsed)`` draws it; ``view(None, ...)`` closes it. The default
    view writes a line to stderr (a plain script); the widget gives a progress bar. The model
    knows nothing of widgets: the view is all it calls.
    """

    def __init__(self, total: int, *, show="auto", view=None, after: float | None = None):
        if show not in ("auto", True, False):
            raise ValueError(f'progress must be "auto", True or False, got {show!r}.')
        self.total, self.done, self.show = int(total), 0, show
        after = PROGRESS_AFTER_S if after is None else after
        self.after = 0.0 if show is True else after
        self.view = text_progress if view is None else view
        self.start = time.perf_counter()
        self.shown = False

    def step(self, label: str) -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.start
        if self.show is not False and (self.shown or elapsed >= self.after):
            self.shown = True
            self.view(self.done, self.total, label, elapsed)

    def close(self) -> None:
        if self.shown:
            self.view(None, self.total, "", time.perf_counter() - self.start)


def text_progress(done, total, label, elapsed, stream=None) -> None:
    """One line per finished fit on stderr (``done=None``: the last line, the total time)."""
    stream = sys.stderr if stream is None else stream
    if done is None:
        print(f"costwidget: {total} fits done in {elapsed:.1f} s", file=stream, flush=True)
    else:
        print(f"costwidget: fit {done}/{total} done ({label}), {elapsed:.1f} s", file=stream)


def cross_validated_scores(
    estimator,
    X,
    y,
    splits,
    pos_label,
    label,
    response_method,
    groups,
    *,
    n_jobs=None,
    progress: FitProgress | None = None,
):
    """``from_scores`` keywords of the cross-validated scores: y_true, y_score, pos_label, folds.

    The folds are fitted as ``cross_val_predict`` fits them (the same per-fold function, on
    labels encoded the same way), ``n_jobs`` at a time with joblib, and each finished fit is
    counted on ``progress``. Every fold's clone gets the same parameters whatever ``n_jobs``
    is, so the scores do not depend on it.
    """
    # cross_val_predict encodes the labels, so its columns (and the decision
    # function's sign) follow the sorted labels of y.
    classes = _binary(np.unique(y), f"y ({label})")
    pos_label = _resolve_pos_label(classes, pos_label, label)
    method = _method(estimator, response_method, label)
    out = _fold_responses(estimator, X, y, splits, method, n_jobs, progress, label)
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


def _fold_responses(estimator, X, y, splits, method, n_jobs, progress, label) -> np.ndarray:
    """Each sample's response from the clone fitted without its test fold (cross_val_predict)."""
    from joblib import Parallel, delayed
    from sklearn.base import clone
    from sklearn.preprocessing import LabelEncoder

    y_codes = LabelEncoder().fit_transform(y)
    jobs = (
        _per_fold_job(delayed, clone(estimator), X, y_codes, tr, te, method) for tr, te in splits
    )
    results = Parallel(n_jobs=n_jobs, return_as="generator")(jobs)
    out = None
    for k, ((_, test), pred) in enumerate(zip(splits, results, strict=True)):
        pred = np.asarray(pred, dtype=np.float64)
        if out is None:
            out = np.empty((len(y),) + pred.shape[1:])
        out[test] = pred
        if progress is not None:
            progress.step(f"{label}, fold {k + 1} of {len(splits)}")
    return out


def _per_fold_job(delayed, estimator, X, y, train, test, method):
    """A joblib job of scikit-learn's own per-fold fit and response of ``cross_val_predict``.

    The job calls scikit-learn's function itself, so worker processes import scikit-learn
    only, not costwidget. It is private to scikit-learn, so its signature is read: 1.3 takes
    a ``verbose`` argument that later versions dropped.
    """
    import inspect

    from sklearn.model_selection._validation import _fit_and_predict

    if "verbose" in inspect.signature(_fit_and_predict).parameters:
        return delayed(_fit_and_predict)(estimator, X, y, train, test, 0, None, method)
    return delayed(_fit_and_predict)(estimator, X, y, train, test, None, method)
