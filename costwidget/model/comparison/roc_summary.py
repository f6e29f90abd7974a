"""What users of the usual ROC tools look for beside a curve: its area (AUC, as scikit-learn's
``RocCurveDisplay`` prints it in the legend) and the ROC point of a fixed score threshold (the
default threshold 0.5 that Orange's ROC Analysis marks where the scores are probabilities)."""

from __future__ import annotations

import numpy as np

from ..decisions.threshold_choice import auc as _auc

__all__ = ["roc_auc", "scores_are_probabilities", "roc_point_at_threshold"]


def roc_auc(clf) -> float:
    """Area under the ROC curve, exact, from the classifier's ROC points (ties count half).

    The same number as ``sklearn.metrics.roc_auc_score(y_true, y_score,
    sample_weight=...)`` for a classifier built with
    :meth:`~costwidget.Classifier.from_scores`: the trapezoids between
    consecutive ROC points, whose diagonal steps are the tied scores.

    Parameters
    ----------
    clf : Classifier

    Returns
    -------
    float

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> cw.roc_auc(clf)
    0.75
    """
    return _auc(clf)


def scores_are_probabilities(clf) -> bool:
    """Whether ``clf``'s scores read as probabilities, so that a threshold of 0.5 means something.

    Decided from the scores alone: the classifier keeps its scored cases
    (:attr:`~costwidget.Classifier.sample`, i.e. it was built from scores) and
    every score is a finite number in [0, 1]. Classifiers built from an ROC
    curve, a confusion matrix or class counts per score keep no scores: False.
    A score in [0, 1] that is no probability (a rank scaled to [0, 1]) cannot
    be told apart; there the point at 0.5 is simply the point of threshold 0.5.

    Parameters
    ----------
    clf : Classifier

    Returns
    -------
    bool

    Examples
    --------
    >>> import costwidget as cw
    >>> cw.scores_are_probabilities(cw.Classifier.from_scores([0, 1], [0.2, 0.9]))
    True
    >>> cw.scores_are_probabilities(cw.Classifier.from_scores([0, 1], [-1.3, 2.0]))
    False
    >>> cw.scores_are_probabilities(cw.Classifier.from_confusion(tp=1, fn=1, fp=1, tn=1))
    False
    """
    sample = clf.sample
    if sample is None or sample.scores.size == 0:
        return False
    scores = sample.scores
    return bool(np.all(np.isfinite(scores)) and scores.min() >= 0.0 and scores.max() <= 1.0)


def roc_point_at_threshold(clf, threshold: float = 0.5, *, require_probabilities: bool = True):
    """The ROC point ``(fpr, tpr)`` of predicting positive when the score is ``>= threshold``.

    As scikit-learn predicts (``predict`` of a probabilistic classifier, or
    ``FixedThresholdClassifier``): a score equal to the threshold is positive.
    The point is one of the classifier's ROC points (with sample weights, the
    weighted rates).

    Parameters
    ----------
    clf : Classifier
    threshold : float, default=0.5
    require_probabilities : bool, default=True
        Return None unless :func:`scores_are_probabilities` holds (the
        default threshold 0.5 means nothing on other scores).

    Returns
    -------
    tuple of float, or None
        ``(fpr, tpr)``; None when ``clf`` keeps no scores (built from an ROC
        curve, a confusion matrix or counts), or when its scores are not
        probabilities and ``require_probabilities`` is set.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([0, 0, 1, 1, 0], [0.1, 0.5, 0.35, 0.8, 0.7])
    >>> cw.roc_point_at_threshold(clf)      # 0.5, 0.7 and 0.8 are predicted positive
    (0.6666666666666666, 0.5)
    >>> cw.roc_point_at_threshold(cw.Classifier.from_confusion(tp=1, fn=1, fp=1, tn=1)) is None
    True
    """
    threshold = float(threshold)
    if not np.isfinite(threshold):
        raise ValueError(f"threshold must be a finite number, got {threshold!r}.")
    if clf.sample is None or (require_probabilities and not scores_are_probabilities(clf)):
        return None
    c = clf.counts
    # ROC point i counts the cases whose score is >= thresholds[i] (descending, the first inf):
    # the point of `threshold` is the last one whose threshold is still >= it.
    i = int(np.searchsorted(-np.asarray(c.thresholds, dtype=float), -threshold, side="right")) - 1
    return float(c.fp[i] / c.n_neg), float(c.tp[i] / c.n_pos)
