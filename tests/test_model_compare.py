"""compare, combined_envelope and parameter_selection against dense-grid and exact brute force."""

import brute
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from test_model_roc import scored_data

import costwidget as cw

GRID = np.linspace(0, 1, 4001)


def _clf(data, name):
    labels, scores, _ = data
    return cw.Classifier.from_scores(labels, scores, name=name)


def _brute(clf, x):
    return brute.envelope_min(clf.roc.fpr, clf.roc.tpr, x)


@given(scored_data(max_n=20), scored_data(max_n=20))
def test_compare_against_grid_and_exact_roots(da, db):
    a, b = _clf(da, "A"), _clf(db, "B")
    c = cw.compare(a, b)
    # exactness at every crossover
    for x in c.crossovers:
        assert 0 < x < 1
        assert a.nec(x) == pytest.approx(b.nec(x), abs=1e-12)
    # max difference: at least every grid value, attained where stated
    d_grid = _brute(a, GRID) - _brute(b, GRID)
    assert c.max_difference >= np.abs(d_grid).max() - 1e-12
    assert abs(a.nec(c.max_difference_at) - b.nec(c.max_difference_at)) == pytest.approx(
        c.max_difference, abs=1e-12
    )
    # the maximum over the exact knots of both brute-force envelopes
    knots = np.union1d(
        brute.envelope_knots(a.roc.fpr, a.roc.tpr), brute.envelope_knots(b.roc.fpr, b.roc.tpr)
    )
    d_knots = _brute(a, knots) - _brute(b, knots)
    assert c.max_difference == pytest.approx(np.abs(d_knots).max(), abs=1e-12)
    assert c.a_better_by == pytest.approx(max(-d_knots.min(), 0), abs=1e-12)
    assert c.b_better_by == pytest.approx(max(d_knots.max(), 0), abs=1e-12)
    # intervals tile [0, 1]; inside each, the named winner is better (or tied) on the grid
    iv = c.intervals
    assert iv.pcf_lo.iloc[0] == 0 and iv.pcf_hi.iloc[-1] == 1
    np.testing.assert_array_equal(iv.pcf_lo.to_numpy()[1:], iv.pcf_hi.to_numpy()[:-1])
    for lo, hi, who in iv.itertuples(index=False):
        inside = GRID[(GRID > lo) & (GRID < hi)]
        d = _brute(a, inside) - _brute(b, inside)
        if who == "A":
            assert np.all(d <= 1e-12)
        elif who == "B":
            assert np.all(d >= -1e-12)
        else:
            assert np.all(np.abs(d) <= 1e-12)
    # each strict sign change on the grid has a crossover between the two grid points
    s = np.sign(np.where(np.abs(d_grid) <= 1e-12, 0, d_grid))
    nz = np.flatnonzero(s)
    for i, j in zip(nz[:-1], nz[1:]):
        if s[i] != s[j]:
            assert np.any((c.crossovers >= GRID[i]) & (c.crossovers <= GRID[j])), (GRID[i], GRID[j])


def test_compare_worked_example_and_names():
    a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    b = cw.Classifier.from_confusion(tp=9, fn=1, fp=5, tn=5, name="B")
    c = cw.compare(a, b)
    # A's line: 0.0 x + 0.3; B's line: -0.4 x + 0.5; cross at x = 0.5
    np.testing.assert_allclose(c.crossovers, [0.5], atol=1e-15)
    assert c.intervals.classifier.tolist() == ["tie", "A", "B", "tie"]
    same = cw.compare(a, a)
    assert same.crossovers.size == 0 and same.max_difference == 0
    assert same.intervals.classifier.tolist() == ["tie"]
    assert (same.name_a, same.name_b) == ("A (a)", "A (b)")


@given(
    st.lists(scored_data(max_n=15), min_size=1, max_size=4), st.lists(st.floats(0, 1), max_size=10)
)
def test_combined_envelope_is_min_of_classifiers(datas, xs):
    clfs = [_clf(d, f"m{i}") for i, d in enumerate(datas)]
    ce = cw.combined_envelope(clfs)
    assert ce.pcf_lo.iloc[0] == 0 and ce.pcf_hi.iloc[-1] == 1
    np.testing.assert_array_equal(ce.pcf_lo.to_numpy()[1:], ce.pcf_hi.to_numpy()[:-1])
    x = np.concatenate((GRID[::20], xs, ce.pcf_lo, ce.pcf_hi))
    best = np.min([_brute(c, x) for c in clfs], axis=0)
    row = np.clip(np.searchsorted(ce.pcf_hi.to_numpy(), x, side="left"), 0, len(ce) - 1)
    line = (1 - ce.tpr.to_numpy()[row] - ce.fpr.to_numpy()[row]) * x + ce.fpr.to_numpy()[row]
    np.testing.assert_allclose(line, best, atol=1e-12)
    np.testing.assert_allclose(
        ce.nec_lo, np.min([_brute(c, ce.pcf_lo) for c in clfs], axis=0), atol=1e-12
    )
    np.testing.assert_allclose(
        ce.nec_hi, np.min([_brute(c, ce.pcf_hi) for c in clfs], axis=0), atol=1e-12
    )
    # the named winner's own envelope equals the min on its interval
    by_name = {c.name: c for c in clfs}
    for lo, hi, who in zip(ce.pcf_lo, ce.pcf_hi, ce.classifier):
        mid = np.array([(lo + hi) / 2])
        m = np.min([_brute(c, mid) for c in clfs])
        if who == "all negative":
            assert mid[0] == pytest.approx(m, abs=1e-12)
        elif who == "all positive":
            assert 1 - mid[0] == pytest.approx(m, abs=1e-12)
        else:
            assert by_name[who].nec(mid[0]) == pytest.approx(m, abs=1e-12)


def test_combined_envelope_needs_a_classifier():
    with pytest.raises(ValueError, match="at least one classifier"):
        cw.combined_envelope([])


@settings(max_examples=40)
@given(
    st.lists(
        st.tuples(st.integers(0, 20), st.integers(0, 20)),
        min_size=1,
        max_size=6,
        unique_by=lambda p: p,
    ),
    st.data(),
)
def test_parameter_selection_against_independent_integration(points, data):
    f = np.array([p[0] for p in points]) / 20
    t = np.array([p[1] for p in points]) / 20
    trained = data.draw(st.lists(st.integers(1, 99), min_size=len(f), max_size=len(f), unique=True))
    trained = np.array(trained) / 100
    r = cw.parameter_selection(f, t, trained)
    allf, allt = np.r_[0, f, 1], np.r_[0, t, 1]
    order = np.argsort(trained)

    def selected(x):  # nearest training pcf (ties between two: either side is a measure-zero set)
        i = order[np.argmin(np.abs(trained[order] - x))]
        return (1 - t[i] - f[i]) * x + f[i]

    cur = r.curve
    assert np.all(cur.selected >= cur.envelope - 1e-12)
    np.testing.assert_allclose(cur.envelope, brute.envelope_min(allf, allt, cur.pcf), atol=1e-12)
    xs = np.linspace(0, 1, 997)
    sel = np.array([selected(x) for x in xs])
    assert np.all(sel >= brute.envelope_min(allf, allt, xs) - 1e-12)
    # independent integration: quad of the selected step-linear curve, with its jumps as points
    mids = np.sort(trained)
    mids = (mids[1:] + mids[:-1]) / 2
    cuts = np.unique(np.r_[0, mids, 1])
    sel_area = sum(integrate.quad(selected, lo, hi)[0] for lo, hi in zip(cuts[:-1], cuts[1:]))
    env_area = brute.envelope_area(allf, allt)
    assert r.selected_area == pytest.approx(sel_area, abs=1e-9)
    assert r.envelope_area == pytest.approx(env_area, abs=1e-12)
    assert r.area_between == pytest.approx(sel_area - env_area, abs=1e-9)
    assert r.area_between >= -1e-12


def test_crossover_through_a_shared_segment_is_reported():
    # both hulls share vertex (0.3, 0.7); A adds a vertex good at low pcf, B one good at high pcf
    a = cw.Classifier.from_roc([0.05, 0.3], [0.4, 0.7], name="A")
    b = cw.Classifier.from_roc([0.3, 0.6], [0.7, 0.95], name="B")
    c = cw.compare(a, b)
    assert c.intervals.classifier.tolist() == ["tie", "A", "tie", "B", "tie"]
    # A stops being better where (0.05, 0.4) hands over to (0.3, 0.7): 0.25 / (0.25 + 0.3)
    np.testing.assert_allclose(c.crossovers, [0.25 / 0.55], atol=1e-15)
    assert a.nec(c.crossovers[0]) == pytest.approx(b.nec(c.crossovers[0]), abs=1e-15)
    # a tie at one knot between opposite signs
    a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    b = cw.Classifier.from_confusion(tp=9, fn=1, fp=5, tn=5, name="B")
    np.testing.assert_allclose(cw.compare(a, b).crossovers, [0.5], atol=1e-15)
