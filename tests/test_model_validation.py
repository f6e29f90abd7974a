"""Bad input gives a clear ValueError/TypeError naming what is wrong."""

import subprocess
import sys

import numpy as np
import pytest

import costwidget as cw

fs = cw.Classifier.from_scores


@pytest.mark.parametrize("y,kw,match", [
    ([0, 0, 0], {}, r"no samples of the positive class.*only holds \[0\]"),
    ([1, 1, 1], {}, r"only the positive class 1: the negative class is missing"),
    (["a", "a", "a"], {"pos_label": "a"}, r"negative class is missing"),
    (["a", "a", "a"], {"pos_label": "b"}, r"no samples of the positive class \(pos_label='b'\)"),
    (["a", "a", "a"], {}, r"only one class 'a'; the other class is missing"),
    ([0, 0, 0], {"pos_label": 0}, r"only the positive class 0: the negative class is missing"),
    ([0, 1, 2], {}, r"3 distinct labels \[0, 1, 2\].*exactly two"),
    (["x", "y"], {}, r"pos_label is ambiguous"),
])
def test_bad_labels(y, kw, match):
    with pytest.raises(ValueError, match=match):
        fs(y, [0.1, 0.2, 0.3][: len(y)], **kw)


@pytest.mark.parametrize("score,match", [
    ([0.1, np.nan, 0.3, np.nan], r"y_score has 2 NaN values \(first at index 1"),
    ([0.1, 0.2, np.inf, 0.4], r"y_score has 1 infinite value \(first at index 2"),
    ([-np.inf, 0.2, np.nan, 0.4], r"y_score has 2 NaN or infinite values \(first at index 0"),
])
def test_non_finite_scores(score, match):
    with pytest.raises(ValueError, match=match):
        fs([0, 1, 0, 1], score)


def test_lengths_empty_weights():
    with pytest.raises(ValueError, match="different lengths: y_true has 3, y_score has 2"):
        fs([0, 1, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match="y_score is empty"):
        fs([], [])
    with pytest.raises(ValueError, match=r"sample_weight has 1 negative weight.*index 1"):
        fs([0, 1, 0], [0.1, 0.2, 0.3], sample_weight=[1, -1, 1])
    with pytest.raises(ValueError, match="sample_weight has 2 entries but there are 3 samples"):
        fs([0, 1, 0], [0.1, 0.2, 0.3], sample_weight=[1, 1])
    with pytest.raises(ValueError, match="positive class a total weight of 0"):
        fs([0, 1, 0], [0.1, 0.2, 0.3], sample_weight=[1, 0, 1])
    with pytest.raises(TypeError, match="y_score must hold numbers"):
        fs([0, 1], ["a", "b"])
    with pytest.raises(TypeError, match="name must be a string"):
        fs([0, 1], [0.1, 0.2], name=3)


@pytest.mark.parametrize("p", [-0.1, 1.5, np.nan])
def test_p_pos_outside_unit_interval(p):
    with pytest.raises(ValueError, match="p_pos must lie in \\[0, 1\\]"):
        cw.probability_cost(p, 1, 1)
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match="p_pos must lie in"):
        clf.operating_point(p_pos=p)


@pytest.mark.parametrize("fn,fp,match", [
    (-1, 1, r"cost_fn .* must be a finite number >= 0, got -1.0"),
    (1, -2, r"cost_fp .* must be a finite number >= 0, got -2.0"),
    (np.nan, 1, r"cost_fn .* got nan"),
    (1, np.inf, r"cost_fp .* got inf"),
    (0, 0, r"cost_fn and cost_fp are both 0"),
])
def test_bad_costs(fn, fp, match):
    with pytest.raises(ValueError, match=match):
        cw.probability_cost(0.3, fn, fp)


def test_undefined_pcf_names_the_cause():
    with pytest.raises(ValueError, match="PCF\\(\\+\\) is undefined"):
        cw.probability_cost(1.0, 0.0, 1.0)


@pytest.mark.parametrize("bad", [-0.01, 1.01, np.nan])
def test_pcf_and_max_fpr_outside_unit_interval(bad):
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match="pcf must lie in"):
        clf.nec(bad)
    with pytest.raises(ValueError, match="max_fpr must"):
        clf.neyman_pearson(bad)


def test_capacity_and_types():
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match="capacity must be >= 0"):
        clf.workforce(-1)
    with pytest.raises(TypeError, match="capacity must be a number"):
        clf.workforce("10")
    with pytest.raises(TypeError, match="max_fpr must be a number"):
        clf.neyman_pearson(None)
    with pytest.raises(ValueError, match="tp must be a finite count >= 0"):
        cw.Classifier.from_confusion(tp=-1, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match=r"no positive \(tp \+ fn\) cases"):
        cw.Classifier.from_confusion(tp=0, fn=0, fp=3, tn=7)
    with pytest.raises(ValueError, match="fpr must lie in \\[0, 1\\]; entry 1"):
        cw.Classifier.from_roc([0.1, 1.2], [0.5, 0.6])


def test_all_scores_equal_is_valid():
    clf = fs([0, 1, 1, 0], [2.0, 2.0, 2.0, 2.0])
    assert clf.hull[["fpr", "tpr"]].to_numpy().tolist() == [[0, 0], [1, 1]]
    assert clf.nec(0.25) == 0.25 and clf.nec(0.75) == 0.25


def test_import_costwidget_does_not_import_widget_libraries():
    code = ("import costwidget, sys; "
            "assert 'bqplot' not in sys.modules and 'ipywidgets' not in sys.modules, "
            "[m for m in sys.modules if m.startswith(('bqplot', 'ipywidgets'))]")
    subprocess.run([sys.executable, "-c", code], check=True)
