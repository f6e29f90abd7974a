"""Hull, lower envelope, duality and integrals against brute force (exact where possible)."""

from fractions import Fraction

import brute
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import integrate, stats
from test_model_roc import scored_data

import costwidget as cw
from costwidget.model.kernels.costs import (
    cost_line_to_roc_point,
    cost_point_to_roc_line,
    roc_line_to_cost_point,
    roc_point_to_cost_line,
)

pcfs = st.floats(0.0, 1.0, allow_nan=False)


def _clf(data):
    labels, scores, _ = data
    return cw.Classifier.from_scores(labels, scores)


# ---------------------------------------------------------------- hull
@given(scored_data())
def test_hull_equals_exact_brute_force_hull(data):
    clf = _clf(data)
    roc = clf.roc
    pts = list(zip(roc.fp.astype(int), roc.tp.astype(int)))
    expected = brute.upper_hull(pts)
    got = [(Fraction(int(f)), Fraction(int(t))) for f, t in zip(clf.hull.fp, clf.hull.tp)]
    assert got == expected


@given(scored_data())
def test_hull_is_concave_and_every_roc_point_is_on_or_below_it(data):
    clf = _clf(data)
    h = clf.hull
    # exact integer turn test on counts: strictly concave (collinear points dropped)
    assert brute.is_concave_chain(h.fp.astype(int).tolist(), h.tp.astype(int).tolist())
    assert (h.fpr.iloc[0], h.tpr.iloc[0]) == (0.0, 0.0)
    assert (h.fpr.iloc[-1], h.tpr.iloc[-1]) == (1.0, 1.0)
    for f, t in zip(clf.roc.fpr, clf.roc.tpr):
        assert t <= brute.hull_tpr_at(h.fpr, h.tpr, f) + 1e-12
    # hull vertices are ROC points
    roc_pts = set(zip(clf.roc.fpr, clf.roc.tpr))
    assert set(zip(h.fpr, h.tpr)) <= roc_pts


@given(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=1, max_size=12))
def test_from_roc_hull_equals_brute_force_on_dyadic_points(points):
    f = [Fraction(a, 8) for a, _ in points]
    t = [Fraction(b, 8) for _, b in points]
    clf = cw.Classifier.from_roc([float(x) for x in f], [float(x) for x in t])
    expected = brute.upper_hull(list(zip(f, t)) + [(0, 0), (1, 1)])
    got = [(Fraction(x), Fraction(y)) for x, y in zip(clf.hull.fpr, clf.hull.tpr)]
    assert got == expected


def test_collinear_interior_points_are_dropped():
    clf = cw.Classifier.from_roc([0.1, 0.2, 0.3], [0.1, 0.2, 0.3])
    assert clf.hull[["fpr", "tpr"]].to_numpy().tolist() == [[0, 0], [1, 1]]
    clf = cw.Classifier.from_roc(
        [0.2, 0.4, 0.1], [0.6, 0.8, 0.3]
    )  # (0.1,0.3),(0.2,0.6) collinear with 0
    assert clf.hull[["fpr", "tpr"]].to_numpy().tolist() == [[0, 0], [0.2, 0.6], [0.4, 0.8], [1, 1]]
    # integer counts: 3 points on one chord
    clf = cw.Classifier.from_scores([1, 0, 1, 0, 1, 0], [6, 5, 4, 3, 2, 1])
    assert clf.hull[["fp", "tp"]].to_numpy().tolist() == [[0, 0], [0, 1], [2, 3], [3, 3]]


def test_all_scores_equal_is_the_diagonal():
    clf = cw.Classifier.from_scores([0, 1, 0, 1, 1], [0.3] * 5)
    assert clf.hull[["fpr", "tpr"]].to_numpy().tolist() == [[0, 0], [1, 1]]
    x = np.linspace(0, 1, 101)
    np.testing.assert_allclose(clf.nec(x), np.minimum(x, 1 - x), atol=1e-15)
    assert clf.operating_range.empty
    assert clf.area() == pytest.approx(0.25, abs=1e-15)


# ---------------------------------------------------------------- envelope
@given(scored_data(), st.lists(pcfs, min_size=1, max_size=20))
def test_envelope_equals_brute_force_min_over_all_cost_lines(data, xs):
    clf = _clf(data)
    roc = clf.roc
    x = np.concatenate((xs, clf.envelope.pcf.to_numpy(), [0.0, 1.0]))
    expected = brute.envelope_min(roc.fpr, roc.tpr, x)
    got = clf.nec(x)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    # below (or on) every single cost line
    for f, t in zip(roc.fpr, roc.tpr):
        assert np.all(got <= (1 - t - f) * x + f + 1e-12)
    # breakpoint table values are the envelope there
    np.testing.assert_allclose(
        clf.envelope.nec, brute.envelope_min(roc.fpr, roc.tpr, clf.envelope.pcf), rtol=0, atol=1e-12
    )
    # scalar input gives a float
    assert isinstance(clf.nec(float(x[0])), float)


@given(scored_data(), st.data())
def test_best_vertex_attains_the_envelope(data, draw):
    clf = _clf(data)
    # Also at the envelope's breakpoints, where two vertices tie (a uniform float never is).
    x = draw.draw(st.one_of(pcfs, st.sampled_from(clf.envelope.pcf.tolist())))
    op = clf.best(x)
    assert op.nec == pytest.approx(brute.envelope_min(clf.roc.fpr, clf.roc.tpr, x)[0], abs=1e-12)
    assert op.nec == pytest.approx((1 - op.tpr - op.fpr) * x + op.fpr, abs=1e-15)
    # the threshold reproduces fpr/tpr from the raw data (score >= threshold)
    labels, scores, _ = data
    tp, fp = brute.counts_at(labels, scores, op.threshold)
    assert (tp / labels.sum(), fp / (~labels).sum()) == pytest.approx((op.tpr, op.fpr), abs=1e-15)


@given(scored_data())
def test_segments_tile_unit_interval_and_attain_envelope(data):
    clf = _clf(data)
    seg = clf.segments
    assert seg.pcf_lo.iloc[0] == 0.0 and seg.pcf_hi.iloc[-1] == 1.0
    np.testing.assert_array_equal(seg.pcf_lo.to_numpy()[1:], seg.pcf_hi.to_numpy()[:-1])
    assert np.all(seg.pcf_hi > seg.pcf_lo)
    mid = (seg.pcf_lo + seg.pcf_hi).to_numpy() / 2
    line = (1 - seg.tpr - seg.fpr).to_numpy() * mid + seg.fpr.to_numpy()
    np.testing.assert_allclose(line, brute.envelope_min(clf.roc.fpr, clf.roc.tpr, mid), atol=1e-12)


@given(st.integers(0, 50), st.integers(0, 50), st.integers(1, 50), st.integers(1, 50))
def test_single_point_operating_range_closed_form(tp, fp, n_pos_extra, n_neg_extra):
    n_pos, n_neg = tp + n_pos_extra - 1 + 1, fp + n_neg_extra
    fn, tn = n_pos - tp, n_neg - fp
    assume(tp + fn > 0 and fp + tn > 0)
    clf = cw.Classifier.from_confusion(tp=tp, fn=fn, fp=fp, tn=tn)
    tpr, fpr = tp / n_pos, fp / n_neg
    rng = clf.operating_range
    if tpr > fpr:
        assert rng.lo == pytest.approx(fpr / (fpr + tpr), abs=1e-12)
        assert rng.hi == pytest.approx((1 - fpr) / (2 - fpr - tpr), abs=1e-12)
        assert not rng.empty
    else:  # at or below the diagonal: useless
        assert rng.empty
        x = np.linspace(0, 1, 41)
        np.testing.assert_allclose(clf.nec(x), np.minimum(x, 1 - x), atol=1e-15)


# ---------------------------------------------------------------- duality (eq. 8, eq. 9)
unit = st.floats(0, 1, allow_nan=False)


@given(unit, unit)
def test_roc_point_cost_line_round_trip(f, t):
    slope, intercept = roc_point_to_cost_line(f, t)
    f2, t2 = cost_line_to_roc_point(slope, intercept)
    assert f2 == f and t2 == pytest.approx(t, abs=1e-15)
    # NEC by its definition, the pcf-weighted mix of the error rates: x * FNR + (1 - x) * FPR
    for x in (0.0, 0.3, 1.0):
        assert slope * x + intercept == pytest.approx(x * (1 - t) + (1 - x) * f, abs=1e-15)


@given(st.floats(0.01, 100), st.floats(-2, 2))
def test_roc_line_cost_point_round_trip(s, tp0):
    x, y = roc_line_to_cost_point(s, tp0)
    s2, tp02 = cost_point_to_roc_line(x, y)
    assert s2 == pytest.approx(s, rel=1e-9) and tp02 == pytest.approx(tp0, abs=1e-9)


@given(st.floats(0.01, 100), st.floats(-1, 1), st.lists(unit, min_size=2, max_size=5))
def test_eq9_every_point_on_an_roc_line_is_a_cost_line_through_its_dual(s, tp0, fs):
    x, y = roc_line_to_cost_point(s, tp0)
    for f in fs:
        t = s * f + tp0
        slope, intercept = roc_point_to_cost_line(f, t)
        assert slope * x + intercept == pytest.approx(y, abs=1e-9 * (1 + abs(s)))


def test_duality_refuses_degenerate_inputs():
    with pytest.raises(ValueError, match="slope -1"):
        roc_line_to_cost_point(-1.0, 0.5)
    with pytest.raises(ValueError, match="PCF = 0"):
        cost_point_to_roc_line(0.0, 0.1)


# ---------------------------------------------------------------- integrals
@given(scored_data(max_n=15), pcfs, pcfs)
def test_area_equals_exact_brute_force_integral(data, a, b):
    clf = _clf(data)
    lo, hi = min(a, b), max(a, b)
    expected = brute.envelope_area(clf.roc.fpr, clf.roc.tpr, lo, hi)
    assert clf.area(lo, hi) == pytest.approx(expected, abs=1e-12)
    assert clf.area() == pytest.approx(brute.envelope_area(clf.roc.fpr, clf.roc.tpr), abs=1e-12)


def test_area_refuses_reversed_bounds():
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match="lo <= hi"):
        clf.area(0.8, 0.2)
    with pytest.raises(ValueError, match="hi must lie in"):
        clf.area(0.2, 1.5)


@pytest.mark.parametrize("a,b", [(1, 1), (2, 5), (0.5, 0.5), (8, 2), (30, 30)])
@settings(max_examples=10)
@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")
@given(data=scored_data(max_n=10))
def test_total_expected_cost_beta_equals_quad_on_brute_envelope(a, b, data):
    clf = _clf(data)
    f, t = clf.roc.fpr, clf.roc.tpr
    knots = brute.envelope_knots(f, t)
    dens = stats.beta(a, b)
    lines = [(1 - ti - fi, fi) for fi, ti in zip(f, t)]

    def integrand(x):
        if x <= 0 or x >= 1:  # Beta(a < 1) is infinite there; a null set for the integral
            return 0.0
        return min(s * x + c for s, c in lines) * dens.pdf(x)

    num = sum(
        integrate.quad(integrand, lo, hi, limit=200)[0] for lo, hi in zip(knots[:-1], knots[1:])
    )
    assert clf.total_expected_cost(dens) == pytest.approx(num, abs=1e-8)
    assert clf.total_expected_cost(dens.pdf) == pytest.approx(num, abs=1e-8)


def test_total_expected_cost_refuses_bad_density():
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(TypeError, match="density"):
        clf.total_expected_cost(3.0)
    with pytest.raises(ValueError, match=">= 0"):
        clf.total_expected_cost(lambda x: x - 0.5)
    with pytest.raises(ValueError, match="integrates to 0"):
        clf.total_expected_cost(lambda x: 0.0)


# ---------------------------------------------------------------- weighted and float inputs
@given(scored_data(weighted=True))
def test_weighted_hull_equals_exact_brute_force_hull(data):
    # integer weights make float counts that are exact integers: the float hull path must
    # still drop collinear points and agree with the exact hull
    labels, scores, weights = data
    clf = cw.Classifier.from_scores(labels, scores, sample_weight=weights)
    pts = list(zip(clf.roc.fp.astype(int), clf.roc.tp.astype(int)))
    expected = brute.upper_hull(pts)
    got = [(Fraction(int(f)), Fraction(int(t))) for f, t in zip(clf.hull.fp, clf.hull.tp)]
    assert got == expected


# Rates of real classifiers are >= 1/n; keep products of coordinates out of the underflow range.
rates = st.floats(0, 1).filter(lambda v: v == 0 or v >= 1e-100)


@given(st.lists(st.tuples(rates, rates), min_size=1, max_size=15), st.lists(pcfs, max_size=10))
def test_from_roc_float_points_envelope_equals_brute_force(points, xs):
    f = [p[0] for p in points]
    t = [p[1] for p in points]
    clf = cw.Classifier.from_roc(f, t)
    allf, allt = [0.0, *f, 1.0], [0.0, *t, 1.0]
    x = np.concatenate((xs, clf.envelope.pcf, [0.0, 1.0]))
    np.testing.assert_allclose(clf.nec(x), brute.envelope_min(allf, allt, x), atol=1e-12)
    h = clf.hull
    assert brute.is_concave_chain(h.fpr.tolist(), h.tpr.tolist())
    for fi, ti in zip(allf, allt):
        assert ti <= brute.hull_tpr_at(h.fpr, h.tpr, fi) + 1e-12
    assert clf.area() == pytest.approx(brute.envelope_area(allf, allt), abs=1e-12)


def test_hull_keeps_vertex_next_to_a_subnormal_fpr():
    clf = cw.Classifier.from_roc([0.0, 5e-324], [0.5, 0.0])
    assert [0.0, 0.5] in clf.hull[["fpr", "tpr"]].to_numpy().tolist()
    assert clf.nec(0.5) == pytest.approx(0.25)


@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(0, 4), st.integers(1, 12)), min_size=2, max_size=25
    )
)
def test_dyadic_weight_hull_equals_exact_brute_force_hull(rows):
    # weights k/8 sum exactly in float64, so the float hull must equal the exact one
    labels = np.array([r[0] for r in rows])
    assume(labels.any() and not labels.all())
    scores = np.array([r[1] for r in rows], dtype=float)
    weights = [Fraction(r[2], 8) for r in rows]
    clf = cw.Classifier.from_scores(labels, scores, sample_weight=[float(w) for w in weights])
    _, tp, fp = brute.roc_points(labels, scores, weights)
    expected = brute.upper_hull(list(zip(fp, tp)))
    got = [(Fraction(f), Fraction(t)) for f, t in zip(clf.hull.fp, clf.hull.tp)]
    assert got == expected
    x = np.concatenate((np.linspace(0, 1, 11), clf.envelope.pcf))
    np.testing.assert_allclose(
        clf.nec(x), brute.envelope_min(clf.roc.fpr, clf.roc.tpr, x), atol=1e-12
    )


@pytest.mark.parametrize(
    "n, shape",
    [(60_000, "smooth"), (60_000, "steps"), (20_000, "near_diagonal"), (60_000, "tied")],
)
def test_long_roc_hull_equals_monotone_chain(n, shape):
    # Long ROC curves take the pruning against the hull of a sample of the candidates;
    # Andrew's monotone chain in Python ints is the independent answer.
    rng = np.random.default_rng(n + len(shape))
    y = rng.random(n) < 0.4
    scores = {
        "smooth": rng.normal(size=n) + 1.5 * y,
        "steps": np.floor(8 * rng.random(n)) + rng.random(n) * 1e-3 + 0.2 * y,
        "near_diagonal": rng.random(n) + 0.01 * y,
        "tied": np.round(rng.normal(size=n) + y, 2),
    }[shape]
    clf = cw.Classifier.from_scores(y, scores)
    counts = clf.counts
    expected = brute.monotone_chain_hull(counts.fp, counts.tp)
    assert clf.hull_index.tolist() == expected
