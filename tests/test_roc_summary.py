"""AUC and the ROC point at a fixed threshold (issue 23), against scikit-learn and a direct count."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, roc_auc_score, roc_curve

import costwidget as cw


def _data(seed, n, ties, weighted):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]  # both classes present
    s = 1 / (1 + np.exp(-(1.2 * y + rng.normal(size=n))))
    if ties:
        s = np.round(s, 1)  # many tied scores, 0.5 among them
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    return y, s, w


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000), n=st.integers(2, 200), ties=st.booleans(), weighted=st.booleans()
)
def test_auc_equals_sklearn(seed, n, ties, weighted):
    y, s, w = _data(seed, n, ties, weighted)
    clf = cw.Classifier.from_scores(y, s, sample_weight=w)
    assert cw.roc_auc(clf) == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(2, 200),
    ties=st.booleans(),
    weighted=st.booleans(),
    threshold=st.sampled_from([0.5, 0.3, 0.0, 1.0, 0.35]),
)
def test_point_at_threshold_equals_a_direct_count(seed, n, ties, weighted, threshold):
    y, s, w = _data(seed, n, ties, weighted)
    clf = cw.Classifier.from_scores(y, s, sample_weight=w)
    # sklearn's rule: predicted positive when score >= threshold; weighted confusion matrix.
    tn, fp, fn, tp = confusion_matrix(
        y, s >= threshold, labels=[False, True], sample_weight=w
    ).ravel()
    fpr, tpr = cw.roc_point_at_threshold(clf, threshold)
    assert fpr == pytest.approx(fp / (fp + tn), abs=1e-12)
    assert tpr == pytest.approx(tp / (tp + fn), abs=1e-12)
    # ... and it is one of the ROC points sklearn lists
    f, t, _ = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert np.any(np.isclose(f, fpr, atol=1e-12) & np.isclose(t, tpr, atol=1e-12))


def test_score_exactly_at_threshold_is_positive():
    clf = cw.Classifier.from_scores([1, 0, 0], [0.5, 0.5, 0.2])
    assert cw.roc_point_at_threshold(clf) == (0.5, 1.0)


def test_no_point_without_probabilities():
    assert cw.roc_point_at_threshold(cw.Classifier.from_scores([0, 1], [-2.0, 3.0])) is None
    assert cw.roc_point_at_threshold(
        cw.Classifier.from_scores([0, 1], [-2.0, 3.0]), 0.5, require_probabilities=False
    ) == (0.0, 1.0)
    f, t, thr = roc_curve([0, 1, 1], [0.2, 0.6, 0.9])
    assert cw.roc_point_at_threshold(cw.Classifier.from_roc(f, t, thr)) is None
    assert not cw.scores_are_probabilities(cw.Classifier.from_roc(f, t, thr))
    assert cw.roc_point_at_threshold(cw.Classifier.from_confusion(tp=3, fn=1, fp=1, tn=3)) is None
    assert cw.scores_are_probabilities(cw.Classifier.from_scores([0, 1], [0.0, 1.0]))
    with pytest.raises(ValueError, match="finite"):
        cw.roc_point_at_threshold(cw.Classifier.from_scores([0, 1], [0.2, 0.8]), np.nan)


def test_demo_models_auc_against_sklearn():
    from costwidget.datasets import load_demo_scores  # noqa: PLC0415

    scores = load_demo_scores("german_credit")
    for name, g in scores.groupby("model"):
        clf = cw.Classifier.from_scores(g["label"] == "Bad", g["score"], name=name)
        assert cw.roc_auc(clf) == pytest.approx(
            roc_auc_score(g["label"] == "Bad", g["score"]), abs=1e-12
        )
