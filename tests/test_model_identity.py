"""A classifier's identity and data are read-only after construction (issue 14)."""

import warnings

import numpy as np
import pytest

import costwidget as cw


def test_renamed_is_a_copy_and_leaves_the_original():
    clf = cw.Classifier.from_scores([0, 1, 0, 1], [0.1, 0.8, 0.4, 0.35], name="a")
    other = clf.renamed("b")
    assert (clf.name, other.name) == ("a", "b")
    assert other.roc.equals(clf.roc) and other.sample is clf.sample
    with pytest.raises(TypeError, match="name must be a string"):
        clf.renamed(3)


def test_name_is_read_only():
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(AttributeError):
        clf.name = "x"
    assert clf.name is None


def test_sample_holds_the_cases_and_leaves_the_callers_arrays_writable():
    y = np.array([0, 1, 1, 0, 1, 0])
    s = np.array([0.3, 0.9, 0.2, 0.5, 0.7, 0.1])
    folds = np.array([0, 0, 0, 1, 1, 1])
    clf = cw.Classifier.from_scores(y, s, folds=folds)
    sample = clf.sample
    np.testing.assert_array_equal(sample.is_pos, y == 1)
    np.testing.assert_array_equal(sample.scores, s)
    np.testing.assert_array_equal(sample.fold_codes, folds)
    assert sample.weights is None
    with pytest.raises(ValueError, match="read-only"):
        sample.scores[0] = 1.0
    s[0] = 0.35  # the caller's array is untouched by the classifier's read-only view
    np.testing.assert_array_equal(clf.folds[1].sample.scores, [0.5, 0.7, 0.1])
    assert cw.Classifier.from_confusion(tp=1, fn=1, fp=1, tn=1).sample is None


def test_from_roc_has_no_class_totals_from_the_start():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = cw.Classifier.from_roc([0.1, 0.3], [0.5, 0.8])
    assert clf.n_pos is None and clf.n_neg is None and clf.prevalence is None
    assert "tp" not in clf.roc.columns
