"""Every classifier has the same fields, set by its constructor (issue 20).

Before, ``counts.py`` and the aggregation layer attached ``envelope_error_bound`` and the
counts per score after construction, so some classifiers lacked them (AttributeError). The
reference here is a classifier's ``__dict__`` right after construction: whatever builds it, the
names must be the same, and the documented fields must read back what the data say.
"""

import copy
import pickle

import numpy as np
import pytest

import costwidget as cw

Y = np.array([0, 0, 1, 1, 0, 1, 1, 0])
S = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.5])


def _built():
    return {
        "from_scores": cw.Classifier.from_scores(Y, S),
        "from_scores folds": cw.Classifier.from_scores(Y, S, folds=[0, 1] * 4),
        "from_confusion": cw.Classifier.from_confusion(tp=3, fn=1, fp=1, tn=3),
        "from_roc": cw.Classifier.from_roc([0, 0.5, 1], [0, 0.75, 1]),
        "from_counts": cw.Classifier.from_counts(S, Y, 1 - Y),
        "from_counts folds": cw.Classifier.from_counts(S, Y, 1 - Y, folds=[0, 1] * 4),
        "renamed": cw.Classifier.from_scores(Y, S).renamed("r"),
    }


def test_every_constructor_sets_the_same_fields():
    built = _built()
    names = {key: frozenset(vars(clf)) for key, clf in built.items()}
    reference = names["from_scores"]
    assert {key for key, got in names.items() if got != reference} == set()
    for key, clf in built.items():
        assert clf.envelope_error_bound == 0.0, key  # exact classifiers: no grouping error
        for part in clf.folds.values():
            assert frozenset(vars(part)) == reference and part.envelope_error_bound == 0.0


def test_fields_read_back_the_data():
    clf = cw.Classifier.from_scores(Y, S, folds=[0, 1] * 4)
    counts = clf.counts
    # The hull indices are ROC points; the envelope's lines are those points' cost lines (eq. 8):
    # NEC(x) = min over hull vertices of (1 - tpr) x + fpr (1 - x), independently recomputed.
    fpr, tpr = counts.fp[clf.hull_index] / counts.n_neg, counts.tp[clf.hull_index] / counts.n_pos
    x = np.linspace(0, 1, 101)
    brute = np.min((1 - tpr)[:, None] * x + fpr[:, None] * (1 - x), axis=0)
    assert np.allclose(clf.envelope_curve.nec(x), brute, atol=1e-12)
    assert clf.score_counts is None and sorted(clf.folds) == [0, 1]
    assert clf.band_cache is clf.band_cache  # made once, by the class
    by_counts = cw.Classifier.from_counts(S, Y, 1 - Y, folds=[0, 1] * 4)
    assert len(by_counts.score_counts.folds) == 2 and sorted(by_counts.folds) == [0, 1]


@pytest.mark.parametrize("key", ["from_scores folds", "from_counts folds"])
def test_fields_survive_pickle_copy_and_renamed(key):
    clf = _built()[key]
    for other in (
        pickle.loads(pickle.dumps(clf)),
        copy.copy(clf),
        copy.deepcopy(clf),
        clf.renamed("other"),
    ):
        assert frozenset(vars(other)) == frozenset(vars(clf))
        assert other.envelope_error_bound == clf.envelope_error_bound
        assert sorted(other.folds) == sorted(clf.folds)
        assert (other.score_counts is None) == (clf.score_counts is None)
        assert np.array_equal(other.hull_index, clf.hull_index)
        assert other.nec(0.3) == clf.nec(0.3)
    assert clf.renamed("other").band_cache is not clf.band_cache
