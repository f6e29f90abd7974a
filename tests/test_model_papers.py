"""Worked numbers from the papers: Drummond & Holte (2000) (KDD) and Drummond & Holte (2004) (ROCAI)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import costwidget as cw
from costwidget.model.kernels.costs import roc_point_to_cost_line


def test_kdd2000_figure_8_cost_line():
    # FP = 0.09, TP = 0.36: the line runs from y = 0.09 at x = 0 to y = 1 - 0.36 = 0.64 at x = 1
    slope, intercept = roc_point_to_cost_line(0.09, 0.36)
    assert intercept == 0.09
    assert slope == pytest.approx(0.64 - 0.09, abs=1e-15)
    clf = cw.Classifier.from_confusion(tp=36, fn=64, fp=9, tn=91)
    op = clf.best(0.5)
    assert (op.fpr, op.tpr) == (0.09, 0.36)
    # its operating range, by the closed form: [0.09/0.45, 0.91/1.55]
    assert clf.operating_range == pytest.approx((0.2, 0.91 / 1.55), abs=1e-15)


def test_kdd2000_figure_4_operating_range_and_horizontal_line():
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    rng = clf.operating_range
    assert rng == pytest.approx((0.3, 0.7), abs=1e-15)
    op = clf.best(0.5)
    assert op.slope == pytest.approx(0.0, abs=1e-15)  # FP = 1 - TP: horizontal line
    x = np.linspace(0.3, 0.7, 9)
    np.testing.assert_allclose(clf.nec(x), 0.3, atol=1e-15)


def test_rocai2004_trivial_classifiers():
    # all negative: (0, 0) -> y = x; all positive: (1, 1) -> y = 1 - x
    assert roc_point_to_cost_line(0.0, 0.0) == (1.0, 0.0)
    assert roc_point_to_cost_line(1.0, 1.0) == (-1.0, 1.0)
    # a classifier on the diagonal adds nothing: envelope min(x, 1 - x), empty range
    clf = cw.Classifier.from_roc([0.25, 0.5, 0.75], [0.25, 0.5, 0.75])
    x = np.linspace(0, 1, 21)
    np.testing.assert_allclose(clf.nec(x), np.minimum(x, 1 - x), atol=1e-15)
    assert clf.operating_range.empty
    # so does a classifier below it
    below = cw.Classifier.from_confusion(tp=2, fn=8, fp=5, tn=5)
    np.testing.assert_allclose(below.nec(x), np.minimum(x, 1 - x), atol=1e-15)


@given(st.floats(0, 1), st.floats(0, 1))
def test_closed_form_operating_range_for_a_single_point(f, t):
    clf = cw.Classifier.from_roc([f], [t])
    rng = clf.operating_range
    if t > f + 1e-9:
        # the closed form in exact rationals: in floats 1 - f cancels (f = 0.99999, t = 1)
        F, T = Fraction(f), Fraction(t)
        assert rng.lo == pytest.approx(float(F / (F + T)), abs=1e-12)
        assert rng.hi == pytest.approx(float((1 - F) / (2 - F - T)), abs=1e-12)
    elif t < f - 1e-9:
        assert rng.empty


def test_probability_cost_eq6_and_expected_cost():
    assert cw.probability_cost(0.5, 1, 1) == 0.5
    assert cw.probability_cost(0.1, 9, 1) == pytest.approx(0.5)
    p, cfn, cfp = 0.2, 5.0, 2.0
    # by hand: 0.2 * 5 = 1 and 0.8 * 2 = 1.6, so PCF(+) = 1 / 2.6 = 5/13
    assert cw.probability_cost(p, cfn, cfp) == pytest.approx(5 / 13, abs=1e-15)
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    op = clf.operating_point(p_pos=p, cost_fn=cfn, cost_fp=cfp)
    # 5/13 lies in the operating range [0.3, 0.7] of (FPR 0.3, TPR 0.7) (figure 4), so that
    # point is chosen; by hand its expected cost is 0.2*0.3*5 + 0.8*0.3*2 = 0.3 + 0.48 = 0.78
    assert (op.fpr, op.tpr) == (0.3, 0.7)
    assert op.expected_cost == pytest.approx(0.78, abs=1e-12)
    assert cw.iso_performance_slope(0.25) == pytest.approx(3.0)
    assert cw.ratio_to_pcf(1.0) == 0.5
