"""Results do not depend on the scale of the weights or counts (issue 13, item 2).

Every quantity is compared with the unscaled classifier's; a RuntimeWarning
(overflow, underflow, 0/0) fails the test.
"""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_model_roc import scored_data

import costwidget as cw

RTOL = 1e-12
# NEC is a difference of products (slope·pcf + FPR) in [0, 1]: near 0 its absolute
# error, a few ulps of 1, is what is meaningful, so NEC also gets a tiny atol.
NEC_ATOL = 1e-15
exponents = st.integers(-250, 250)


@st.composite
def float_weighted_data(draw, max_n=30):
    labels, scores, _ = draw(scored_data(max_n=max_n))
    weights = draw(st.lists(st.floats(0.01, 100.0), min_size=len(labels), max_size=len(labels)))
    return labels, scores, weights


def _same_curves(a, b, rtol=RTOL):
    """Every derived quantity of b equals a's to relative tolerance ``rtol``."""
    for col in ("fpr", "tpr"):
        np.testing.assert_allclose(b.roc[col], a.roc[col], rtol=rtol, atol=0)
        np.testing.assert_allclose(b.hull[col], a.hull[col], rtol=rtol, atol=0)
    np.testing.assert_array_equal(b.roc.threshold, a.roc.threshold)
    np.testing.assert_array_equal(b.hull.threshold, a.hull.threshold)
    np.testing.assert_allclose(b.envelope.pcf, a.envelope.pcf, rtol=rtol, atol=0)
    np.testing.assert_allclose(b.envelope.nec, a.envelope.nec, rtol=rtol, atol=NEC_ATOL)
    x = np.linspace(0.0, 1.0, 257)
    np.testing.assert_allclose(b.nec(x), a.nec(x), rtol=rtol, atol=NEC_ATOL)
    np.testing.assert_allclose(b.operating_range, a.operating_range, rtol=rtol, atol=0)
    assert b.area() == pytest.approx(a.area(), rel=rtol)
    assert b.prevalence == pytest.approx(a.prevalence, rel=rtol)


def _scaled(weights, k):
    return np.asarray(weights, dtype=np.float64) * 10.0**k


@pytest.mark.filterwarnings("error")
@given(scored_data(weighted=True), exponents)
def test_integer_weights_scaled_by_a_power_of_ten(data, k):
    labels, scores, weights = data
    a = cw.Classifier.from_scores(labels, scores, sample_weight=weights)
    b = cw.Classifier.from_scores(labels, scores, sample_weight=_scaled(weights, k))
    _same_curves(a, b)
    # the weighted counts stay in the data's units
    np.testing.assert_allclose(b.roc.tp, a.roc.tp * 10.0**k, rtol=RTOL, atol=0)
    np.testing.assert_allclose(b.roc.fp, a.roc.fp * 10.0**k, rtol=RTOL, atol=0)
    assert b.n_pos == pytest.approx(a.n_pos * 10.0**k, rel=RTOL)


@pytest.mark.filterwarnings("error")
@given(float_weighted_data(), exponents)
def test_float_weights_scaled_by_a_power_of_ten(data, k):
    labels, scores, weights = data
    a = cw.Classifier.from_scores(labels, scores, sample_weight=weights)
    b = cw.Classifier.from_scores(labels, scores, sample_weight=_scaled(weights, k))
    # w·10**k rounds every weight (by up to half an ulp), and a rate step between two
    # ROC points is a difference of cumulative sums: its relative error is up to about
    # eps·(total weight)/(smallest weight), the conditioning of the data, whatever k is.
    w = np.asarray(weights)
    kappa = w.sum() / w[w > 0].min()
    _same_curves(a, b, rtol=max(RTOL, 64 * np.finfo(float).eps * kappa))


@pytest.mark.filterwarnings("error")
@given(scored_data(weighted=True), st.sampled_from([1e300, 1e306, 1.7e308]))
def test_weights_whose_sum_overflows_a_float(data, top):
    # The largest weight is `top`: sums of such weights overflow a float.
    labels, scores, weights = data
    w = np.asarray(weights, dtype=np.float64)
    a = cw.Classifier.from_scores(labels, scores, sample_weight=w)
    b = cw.Classifier.from_scores(labels, scores, sample_weight=w / w.max() * top)
    _same_curves(a, b)


@pytest.mark.filterwarnings("error")
@given(scored_data(weighted=True), st.sampled_from([-1072, -1060, -1000, -600, 600, 1000, 1021]))
def test_weights_scaled_by_a_power_of_two_give_identical_results(data, e):
    # 2**e times small integers is exact (subnormal at e = -1072 and -1060), so the
    # weights have exactly the same ratios: every result must be bit for bit the same.
    labels, scores, weights = data
    w = np.asarray(weights, dtype=np.float64)
    a = cw.Classifier.from_scores(labels, scores, sample_weight=w)
    b = cw.Classifier.from_scores(labels, scores, sample_weight=np.ldexp(w, e))
    for table in ("roc", "hull", "envelope", "segments"):
        ta, tb = getattr(a, table), getattr(b, table)
        for col in ta.columns:
            if col in ("tp", "fp"):  # in the data's units; inf where they overflow a float
                with np.errstate(over="ignore"):
                    expected = np.ldexp(ta[col].to_numpy(), e)
                np.testing.assert_array_equal(tb[col], expected)
            else:
                np.testing.assert_array_equal(tb[col], ta[col])
    assert b.operating_range == a.operating_range


@pytest.mark.filterwarnings("error")
@given(st.tuples(*[st.integers(0, 50)] * 4), exponents)
def test_confusion_matrix_scaled_by_a_power_of_ten(cells, k):
    tp, fn, fp, tn = cells
    if tp + fn == 0 or fp + tn == 0:
        return
    a = cw.Classifier.from_confusion(tp=tp, fn=fn, fp=fp, tn=tn)
    s = 10.0**k
    b = cw.Classifier.from_confusion(tp=tp * s, fn=fn * s, fp=fp * s, tn=tn * s)
    _same_curves(a, b)
    # exact crossing of the one non-trivial point (Fractions, eq. 8)
    if len(a.hull) == 3:
        f, t = Fraction(fp, fp + tn), Fraction(tp, tp + fn)
        lo = f / (f + t)
        hi = (1 - f) / ((1 - f) + (1 - t))
        np.testing.assert_allclose(b.operating_range, [float(lo), float(hi)], rtol=RTOL)


@pytest.mark.filterwarnings("error")
def test_confusion_matrix_at_the_float_limits():
    ref = cw.Classifier.from_confusion(tp=3, fn=1, fp=1, tn=3)
    for cells in ((1.5e308, 0.5e308, 0.5e308, 1.5e308), (3e-320, 1e-320, 1e-320, 3e-320)):
        clf = cw.Classifier.from_confusion(tp=cells[0], fn=cells[1], fp=cells[2], tn=cells[3])
        _same_curves(ref, clf)
    # whole numbers beyond 2**53 are floats, not int64 (which would overflow)
    big = cw.Classifier.from_confusion(tp=3e20, fn=1e20, fp=1e20, tn=3e20)
    _same_curves(ref, big)
    assert big.roc.tp.tolist() == [0.0, 3e20, 4e20]


@pytest.mark.filterwarnings("error")
@given(st.integers(1, 1000), st.integers(1, 1000), st.integers(-1074, -900))
def test_from_roc_with_tiny_rates(u, v, e):
    # One point at (u, v)·2**e: its cost line crosses the all-negative one at u/(u+v) (eq. 8).
    fpr, tpr = np.ldexp(float(u), e), np.ldexp(float(v), e)
    if fpr == 0 or tpr == 0:
        return
    clf = cw.Classifier.from_roc([fpr], [tpr])
    if tpr > fpr and len(clf.hull) == 3:
        exact = Fraction(fpr) / (Fraction(fpr) + Fraction(tpr))
        assert clf.operating_range.lo == pytest.approx(float(exact), rel=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf.nec(np.linspace(0, 1, 11))
