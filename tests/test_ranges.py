"""The thesis's range measures (Al-Saffar (2018), chapters 4-5) against its own tables and brute force."""

from __future__ import annotations

from fractions import Fraction

import brute
import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import costwidget as cw
from costwidget.datasets import load_demo_scores
from costwidget.model.comparison.ranges import (
    check_range,
    mtmcs_curve,
    range_grid,
    search_curve,
    snap_range,
    threshold_segments,
)

# ---------------------------------------------------------------- the thesis's own numbers
# Transcribed from Al-Saffar (2018), Tables 11-16 (sec. 5.7) and the worked example of
# Figure 8 (secs. 4.2.2.2-4.2.2.3): MTMCS rows in percent, then MTMCR, sensitivity, CST.
THESIS = {
    "Table 11/12 (Messidor)": (
        ["0.40/0.60", "0.45/0.55", "0.50/0.50", "0.55/0.45", "0.60/0.40"],
        {
            "Adaboost": ([40, 40, 36, 34, 32], 182, 8, 196.56),
            "Naive Bayes": ([37, 36, 36, 37, 32], 178, 5, 186.90),
        },
    ),
    "Table 13/14 (Credit Approval)": (
        ["0.25/0.75", "0.30/0.70", "0.35/0.65", "0.40/0.60", "0.45/0.55", "0.50/0.50"],
        {
            "Adaboost": ([10, 11, 12, 13, 13.5, 14], 73.5, 4, 76.44),
            "Random Forest": ([12, 13, 13, 13, 13, 13], 77.0, 1, 77.77),
        },
    ),
    "Table 15/16 (German credit)": (
        ["0.35/0.65", "0.40/0.60", "0.45/0.55", "0.50/0.50", "0.55/0.45"],
        {
            "IBK": ([30, 32, 34, 32, 35], 163, 5, 171.15),
            "Adaboost": ([27, 29, 31, 32, 40], 159, 13, 179.67),
        },
    ),
    "Figure 8 example": (
        ["A", "B", "C"],
        {
            "Classifier 1": ([13, 26, 40], 79, 27, 100.33),
            "Classifier 2": ([20, 28, 32], 80, 12, 89.6),
        },
    ),
}


@pytest.mark.parametrize("table", list(THESIS))
def test_cost_sensitivity_table_reproduces_the_thesis(table):
    columns, rows = THESIS[table]
    mtmcs = pd.DataFrame([r[0] for r in rows.values()], index=list(rows), columns=columns)
    out = cw.cost_sensitivity_table(mtmcs)
    assert list(out.columns) == ["MTMCR", "cost_sensitivity", "CST"]
    for name, (_, mtmcr, sensitivity, cst) in rows.items():
        assert out.loc[name, "MTMCR"] == pytest.approx(mtmcr, abs=1e-12)
        assert out.loc[name, "cost_sensitivity"] == pytest.approx(sensitivity, abs=1e-12)
        # printed with two decimals in the thesis
        assert round(out.loc[name, "CST"], 2) == pytest.approx(cst, abs=1e-9)
    # The thesis's recommendation: the lowest CST (sec. 5.7): Naive Bayes, Adaboost, IBK, 2.
    assert out["CST"].idxmin() == min(rows, key=lambda n: rows[n][3])


def test_cost_sensitivity_table_refuses_bad_input():
    with pytest.raises(TypeError, match="DataFrame"):
        cw.cost_sensitivity_table([[1, 2, 3]])
    with pytest.raises(ValueError, match="missing or infinite value at row 'a', column 0.5"):
        cw.cost_sensitivity_table(pd.DataFrame({0.4: [1.0], 0.5: [np.nan]}, index=["a"]))
    with pytest.raises(ValueError, match="empty"):
        cw.cost_sensitivity_table(pd.DataFrame(index=["a"]))


# ---------------------------------------------------------------- brute force
@st.composite
def tied_data(draw, weighted=False):
    """Small samples with heavily tied integer scores and both classes."""
    n = draw(st.integers(2, 24))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    assume(any(labels) and not all(labels))
    scores = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    weights = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)) if weighted else None
    return np.array(labels), np.array(scores, dtype=float), weights


# Decimal FP costs hit exact ties on small data; arbitrary floats test the rest.
fp_costs = st.one_of(
    st.integers(0, 20).map(lambda k: k / 20),
    st.integers(0, 100).map(lambda k: k / 100),
    st.floats(0.0, 1.0, allow_nan=False),
)


def _brute_tmc(labels, scores, weights, x):
    """Exact TMC (a Fraction, as a rate) of every ROC point at FP cost x, from the raw data."""
    thresholds, tp, fp = brute.roc_points(labels, scores, weights)
    x = Fraction(repr(float(x)))
    n_pos, n_neg = Fraction(tp[-1]), Fraction(fp[-1])
    tmc = [
        (n_pos - Fraction(t)) / n_pos * (1 - x) + Fraction(f) / n_neg * x for t, f in zip(tp, fp)
    ]
    return thresholds, tmc


@given(tied_data(), st.lists(fp_costs, min_size=1, max_size=6))
def test_mtmcs_is_the_smallest_tmc_of_any_roc_point(data, xs):
    labels, scores, _ = data
    clf = cw.Classifier.from_scores(labels, scores)
    got = clf.mtmcs(xs)
    for x, value in zip(xs, got):
        _, tmc = _brute_tmc(labels, scores, None, x)
        assert value == pytest.approx(100 * float(min(tmc)), abs=1e-10)
    assert clf.mtmcs(xs[0]) == got[0]


def _check_optimal_thresholds(labels, scores, weights, xs):
    clf = cw.Classifier.from_scores(labels, scores, sample_weight=weights)
    table = clf.optimal_thresholds(xs)
    assert list(table["fp_cost"]) == list(xs)
    for row, x in zip(table.itertuples(), xs):
        thresholds, tmc = _brute_tmc(labels, scores, weights, x)
        best = min(tmc)
        optimal = [r for r, v in enumerate(tmc) if v == best]
        lo_r, hi_r = optimal[0], optimal[-1]
        assert row.threshold_hi == thresholds[lo_r]  # highest optimal threshold
        # the first distinct score below the lowest optimal one: θ must stay above it
        assert row.threshold_lo == (thresholds[hi_r + 1] if hi_r + 1 < len(thresholds) else -np.inf)
        assert row.tie == (len(optimal) > 1)
        assert row.gap == (len(optimal) != hi_r - lo_r + 1)
        assert row.threshold in [thresholds[r] for r in optimal]
        assert row.mtmcs == pytest.approx(100 * float(best), abs=1e-10)


@given(tied_data(), st.lists(fp_costs, min_size=1, max_size=6))
def test_optimal_thresholds_are_every_threshold_reaching_the_minimum(data, xs):
    labels, scores, _ = data
    _check_optimal_thresholds(labels, scores, None, xs)


@given(tied_data(weighted=True), st.lists(fp_costs, min_size=1, max_size=4))
def test_optimal_thresholds_with_sample_weights(data, xs):
    labels, scores, weights = data
    _check_optimal_thresholds(labels, scores, [float(w) for w in weights], xs)


def test_optimal_thresholds_at_a_tie_on_a_decimal_grid_point():
    # P = 2, N = 8: the hull edge from (FP 0, TP 1) at 0.9 to (FP 1, TP 2) at 0.6 has its
    # crossing at PCF(+) = 1·2 / (1·2 + 1·8) = 0.2, i.e. at x = 0.8 exactly, where the two
    # thresholds tie. In floats 1 - 0.8 falls just below 0.2 and would miss the tie.
    assert 1 - 0.8 < 0.2
    labels = [1, 1, 0] + [0] * 7
    scores = [0.9, 0.6, 0.6] + [0.1] * 7
    clf = cw.Classifier.from_scores(labels, scores)
    row = clf.optimal_thresholds(0.8).iloc[0]
    assert row.tie and not row.gap
    assert (row.threshold_lo, row.threshold_hi) == (0.1, 0.9)
    assert not clf.optimal_thresholds(0.81).tie.iloc[0]
    assert clf.optimal_thresholds(0.81).threshold_hi.iloc[0] == 0.9


@pytest.mark.parametrize(
    "labels, scores, x",
    [
        ([0, 1, 0, 1], [0.1, 0.4, 0.5, 0.9], 0.5),  # (FP 1, TP 1) below the tied edge
        ([0, 0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.6, 0.7, 0.9], 0.5),
        ([1, 1, 1, 0, 1, 0, 0, 0], [0.9, 0.8, 0.6, 0.6, 0.4, 0.4, 0.2, 0.1], 0.5),  # on the edge
        ([1, 0, 0, 1, 0, 1], [5, 4, 4, 3, 2, 1], 0.0),  # x = 0: every FP-free threshold
        ([1, 0, 0, 1, 0, 1], [5, 4, 4, 3, 2, 1], 1.0),  # x = 1: every FN-free threshold
    ],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_optimal_thresholds_gaps_and_ends(labels, scores, x, weighted):
    # Weights of 1.0 take the float-count path of the model (exact rationals there).
    weights = [1.0] * len(labels) if weighted else None
    _check_optimal_thresholds(np.array(labels, bool), np.array(scores, float), weights, [x])


def test_optimal_thresholds_without_score_thresholds():
    clf = cw.Classifier.from_confusion(tp=8, fn=2, fp=3, tn=7)
    table = clf.optimal_thresholds([0.3, 0.5])
    assert table[["threshold_lo", "threshold_hi"]].isna().all().all()
    assert table["mtmcs"].tolist() == pytest.approx([100 * (0.2 * 0.7 + 0.3 * 0.3), 25.0])


def test_fp_cost_is_checked():
    clf = cw.Classifier.from_confusion(tp=8, fn=2, fp=3, tn=7)
    for bad in (-0.1, 1.5, np.nan):
        with pytest.raises(ValueError, match="fp_cost must lie in"):
            clf.mtmcs(bad)
        with pytest.raises(ValueError, match="fp_cost must lie in"):
            clf.optimal_thresholds([0.5, bad])
    with pytest.raises(TypeError, match="fp_cost must be a number"):
        clf.mtmcs("half")


# ---------------------------------------------------------------- range summary
grid_ends = st.tuples(st.integers(0, 20), st.integers(0, 20)).map(
    lambda ab: (min(ab) / 20, max(ab) / 20)
)


@given(tied_data(), grid_ends)
def test_range_summary_against_brute_force_and_a_dense_grid(data, ends):
    labels, scores, _ = data
    lo, hi = ends
    clf = cw.Classifier.from_scores(labels, scores, name="m")
    row = cw.range_summary([clf], lo, hi).loc["m"]
    roc = clf.roc
    grid = np.round(np.arange(round(lo * 20), round(hi * 20) + 1) / 20, 2)
    at_grid = 100 * brute.envelope_min(roc.fpr, roc.tpr, 1 - grid)
    assert row.n_points == len(grid)
    assert row.mtmcr == pytest.approx(at_grid.sum(), abs=1e-9)
    assert row.sensitivity == pytest.approx(at_grid.max() - at_grid.min(), abs=1e-9)
    assert row.cst == pytest.approx(
        at_grid.sum() * (1 + (at_grid.max() - at_grid.min()) / 100), abs=1e-9
    )
    # Continuous range: never below the grid's sensitivity, and the true max - min.
    h = 1e-4
    dense_x = np.linspace(lo, hi, max(2, int(round((hi - lo) / h)) + 1))
    dense = 100 * brute.envelope_min(roc.fpr, roc.tpr, 1 - dense_x)
    assert row.sensitivity_exact >= row.sensitivity - 1e-9
    assert row.sensitivity_exact >= dense.max() - dense.min() - 1e-9
    # NEC has slope at most 1 in magnitude: a peak is within h/2 of a dense point.
    assert row.sensitivity_exact <= dense.max() - dense.min() + 100 * h / 2 + 1e-9
    if hi > lo:
        mean = 100 * brute.envelope_area(roc.fpr, roc.tpr, 1 - hi, 1 - lo) / (hi - lo)
    else:
        mean = at_grid[0]
    assert row.mean_mtmcs_exact == pytest.approx(mean, abs=1e-9)
    assert row.cst_exact == pytest.approx(mean * (1 + row.sensitivity_exact / 100), abs=1e-9)


@given(tied_data(), tied_data(), grid_ends)
def test_range_summary_threshold_span_and_pcf_axis(d1, d2, ends):
    lo, hi = ends
    clfs = {
        "a": cw.Classifier.from_scores(d1[0], d1[1]),
        "b": cw.Classifier.from_scores(d2[0], d2[1]),
    }
    s = cw.range_summary(clfs, lo, hi)
    # The PCF(+) axis at equal priors is the mirror image: same numbers.
    mirrored = cw.range_summary(clfs, round(1 - hi, 2), round(1 - lo, 2), axis="pcf")
    for col in (
        "mtmcr",
        "sensitivity",
        "cst",
        "mean_mtmcs_exact",
        "sensitivity_exact",
        "cst_exact",
        "threshold_min",
        "threshold_max",
    ):
        np.testing.assert_allclose(mirrored[col], s[col], atol=1e-9)
    assert s["recommended"].sum() == 1
    assert s.loc[s.attrs["recommended"], "rank"] == 1
    assert s.loc[s.attrs["recommended"], "cst"] == s["cst"].min()
    # Span of optimal thresholds: every threshold optimal somewhere on a fine grid is inside
    # it, and both ends are optimal at some x in the range.
    xs = np.unique(np.concatenate([np.linspace(lo, hi, 401), range_grid(lo, hi)]))
    for name, clf in clfs.items():
        table = clf.optimal_thresholds(xs)
        t_min, t_max = s.loc[name, ["threshold_min", "threshold_max"]]
        assert t_min <= table["threshold"].min() and table["threshold"].max() <= t_max
        for end in (t_min, t_max):
            assert (
                (table["threshold_lo"] < end) & (end <= table["threshold_hi"])
            ).any() or _optimal_at_a_breakpoint(clf, end, lo, hi)


def _optimal_at_a_breakpoint(clf, threshold, lo, hi):
    """A hull vertex optimal only at one x of the range (an end of its interval) is still optimal."""
    seg = clf.segments
    lo_pcf, hi_pcf = 1 - hi, 1 - lo
    row = seg[seg["threshold"] == threshold]
    if len(row) == 0:  # optimal only at a single PCF (e.g. the trivial vertex at PCF 0 or 1)
        return True
    return bool(((row["pcf_lo"] <= hi_pcf + 1e-12) & (row["pcf_hi"] >= lo_pcf - 1e-12)).any())


def test_range_summary_recommendation_flips_with_sensitivity():
    # Al-Saffar (2018), Table 15/16's situation: a lower MTMCR but a larger sensitivity.
    steady = cw.Classifier.from_roc([0.3], [0.7], name="steady")  # flat: MTMCS 30 at every x
    cheap_left = cw.Classifier.from_roc([0.05, 0.6], [0.45, 0.99], name="cheap left")
    s = cw.range_summary([steady, cheap_left], 0.1, 0.7)
    assert s.loc["cheap left", "mtmcr"] < s.loc["steady", "mtmcr"]
    assert s.loc["cheap left", "sensitivity"] > s.loc["steady", "sensitivity"]
    assert s.attrs["recommended"] == s["cst"].idxmin()


def test_range_summary_input_errors():
    clf = cw.Classifier.from_confusion(tp=8, fn=2, fp=3, tn=7, name="a")
    with pytest.raises(
        ValueError, match="not a whole number of steps of 0.05.*Use hi = 0.4 or 0.45"
    ):
        cw.range_summary([clf], 0.3, 0.42)
    with pytest.raises(ValueError, match="lo <= hi"):
        cw.range_summary([clf], 0.6, 0.4)
    with pytest.raises(ValueError, match="axis must be"):
        cw.range_summary([clf], 0.3, 0.4, axis="ratio")
    with pytest.raises(ValueError, match="lo must lie in"):
        cw.range_summary([clf], -0.05, 0.4)
    with pytest.raises(ValueError, match="distinct"):
        cw.range_summary([clf, clf], 0.3, 0.4)
    with pytest.raises(TypeError, match="not a costwidget Classifier"):
        cw.range_summary({"x": object()}, 0.3, 0.4)
    with pytest.raises(ValueError, match="step must be > 0"):
        cw.range_summary([clf], 0.3, 0.4, step=0)
    # a single classifier and a single point (the thesis's Table 10 midpoint)
    s = cw.range_summary(clf, 0.5, 0.5)
    assert s.loc["a", "n_points"] == 1 and s.loc["a", "mtmcr"] == pytest.approx(25.0)
    assert s.loc["a", "sensitivity_exact"] == 0 and s.loc["a", "mean_mtmcs_exact"] == pytest.approx(
        25.0
    )


# ---------------------------------------------------------------- the thesis's heuristic
def _thesis_rules(p_neg, t, fn_cost):
    """Predicted positive, by Al-Saffar (2018), sec. 4.5, rules 1-4 (class 1 is the negative class)."""
    if fn_cost >= 1 - fn_cost:
        return [
            not (p >= t) for p in p_neg
        ]  # rule 1: P(neg) >= t -> negative; rule 2: else positive
    return [p <= t for p in p_neg]  # rule 3: P(neg) <= t -> positive; rule 4: else negative


TABLE_4_5_P_NEG = [
    0.01,
    0.05,
    0.15,
    0.18,
    0.20,
    0.25,
    0.35,
    0.65,
    0.75,
    0.80,
    0.85,
    0.90,
    0.95,
    0.99,
]


def test_thesis_rules_reproduce_tables_4_and_5():
    # Table 4: FNcost 0.8, cutoff 0.8; Table 5: FNcost 0.2, cutoff 0.2 (sec. 4.5.1).
    assert _thesis_rules(TABLE_4_5_P_NEG, 0.8, 0.8) == [p < 0.8 for p in TABLE_4_5_P_NEG]
    assert sum(_thesis_rules(TABLE_4_5_P_NEG, 0.8, 0.8)) == 9
    assert _thesis_rules(TABLE_4_5_P_NEG, 0.2, 0.2) == [p <= 0.2 for p in TABLE_4_5_P_NEG]
    assert sum(_thesis_rules(TABLE_4_5_P_NEG, 0.2, 0.2)) == 5


@pytest.mark.parametrize("fp_cost, cutoff, n_positive", [(0.2, 0.8, 9), (0.8, 0.2, 5)])
def test_search_uses_the_thesis_tie_rules_at_the_cutoff(fp_cost, cutoff, n_positive):
    # Label the Table 4/5 instances with their assigned classes: the cutoff itself then
    # classifies perfectly only with the thesis's tie rule (0.80 negative, 0.20 positive),
    # and every later threshold is worse.
    p_neg = np.array(TABLE_4_5_P_NEG)
    y = np.arange(len(p_neg)) < n_positive
    r = cw.thesis_optimized_search(y, 1 - p_neg, fp_cost)
    assert (r.threshold, r.tmc) == (cutoff, 0.0)


@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 20)), min_size=2, max_size=30),
    st.integers(1, 19).map(lambda k: k / 20),
    st.sampled_from([0.01, 0.05, 0.003]),
)
def test_search_matches_a_literal_implementation(cases, fp_cost, step):
    labels = np.array([c[0] for c in cases])
    assume(labels.any() and not labels.all())
    p_neg = np.array([c[1] / 20 for c in cases])
    fn_cost = 1 - fp_cost
    # The thesis's loop: start at the cutoff, step to one end, classify, keep every TMC.
    t, ts = fn_cost / (fn_cost + fp_cost), []
    up = fn_cost >= 0.5
    while (t < 1 - 1e-12) if up else (t > 1e-12):
        ts.append(t)
        t = t + step if up else t - step
    ts.append(1.0 if up else 0.0)
    expected = []
    for t in ts:
        pred = np.array(_thesis_rules(np.round(p_neg, 12), round(t, 12), fn_cost))
        fnr = np.mean(~pred[labels])
        fpr = np.mean(pred[~labels])
        expected.append(100 * (fnr * fn_cost + fpr * fp_cost))
    got_t, got = search_curve(
        fp_cost, step, np.sort(np.round(p_neg[labels], 12)), np.sort(np.round(p_neg[~labels], 12))
    )
    np.testing.assert_allclose(got_t, np.round(ts, 12), atol=1e-12)
    np.testing.assert_allclose(got, expected, atol=1e-9)
    r = cw.thesis_optimized_search(labels, 1 - p_neg, fp_cost, step=step)
    assert r.tmc == pytest.approx(min(expected), abs=1e-9)


@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 50)), min_size=2, max_size=40),
    st.lists(st.integers(0, 20).map(lambda k: k / 20), min_size=1, max_size=5),
)
def test_search_is_never_below_the_exact_mtmcs(cases, xs):
    labels = np.array([c[0] for c in cases])
    assume(labels.any() and not labels.all())
    scores = np.array([c[1] / 50 for c in cases])
    found = cw.thesis_optimized_search(labels, scores, xs, step=1e-3)
    exact = cw.Classifier.from_scores(labels, scores).mtmcs(xs)
    assert list(found.columns) == ["fp_cost", "threshold", "tmc"]
    assert np.all(found["tmc"].to_numpy() >= exact - 1e-9)


def test_the_heuristic_misses_on_bundled_german_credit():
    """Real misses: the unsearched side (FP cost > 0.5, positives a 30 % minority) and naive Bayes."""
    scores = load_demo_scores("german_credit")
    grid = range_grid(0.05, 0.95)
    misses = {}
    for model, part in scores.groupby("model"):
        clf = cw.Classifier.from_scores(part["label"], part["score"], pos_label="Bad")
        found = cw.thesis_optimized_search(part["label"], part["score"], grid, pos_label="Bad")
        gap = found["tmc"].to_numpy() - clf.mtmcs(grid)
        assert np.all(gap >= -1e-9)  # a heuristic can never beat the exact minimum
        misses[model] = dict(zip(grid, gap))
    # Random forest at 0.60/0.40: the optimal cutoff on P(negative) is above the start 0.4,
    # on the side the search never visits; it misses by about 6 points of TMC.
    assert misses["random forest"][0.6] > 5
    # Naive Bayes at 0.05/0.95: its posteriors pile up near 0 and 1 and the optimum needs
    # a cutoff on P(negative) finer than the step; it misses by about 2.5 points.
    assert misses["naive Bayes"][0.05] > 2
    # Where FNcost >= 0.5 is far from the prior-weighted cutoff the search is exact.
    assert abs(misses["random forest"][0.3]) < 1e-9


def test_search_input_errors():
    with pytest.raises(ValueError, match="probabilities of the positive class"):
        cw.thesis_optimized_search([0, 1], [0.2, 1.5], 0.5)
    with pytest.raises(ValueError, match="step must lie in"):
        cw.thesis_optimized_search([0, 1], [0.2, 0.5], 0.5, step=0)
    with pytest.raises(ValueError, match="fp_cost must lie in"):
        cw.thesis_optimized_search([0, 1], [0.2, 0.5], 1.2)
    with pytest.raises(ValueError, match="pos_label"):
        cw.thesis_optimized_search(["a", "b"], [0.2, 0.5], 0.5)


# ---------------------------------------------------------------- drawing helpers and range checks
@given(tied_data())
def test_mtmcs_curve_is_exact_between_its_rows(data):
    labels, scores, _ = data
    clf = cw.Classifier.from_scores(labels, scores)
    curve = mtmcs_curve(clf, 0.05, 0.95)
    x, y = curve["fp_cost"].to_numpy(), curve["mtmcs"].to_numpy()
    assert x[0] == 0.05 and x[-1] == 0.95 and np.all(np.diff(x) > 0)
    roc = clf.roc
    probe = np.linspace(0.05, 0.95, 181)
    np.testing.assert_allclose(
        np.interp(probe, x, y), 100 * brute.envelope_min(roc.fpr, roc.tpr, 1 - probe), atol=1e-9
    )


@given(tied_data())
def test_threshold_segments_cover_the_axis_with_optimal_thresholds(data):
    labels, scores, _ = data
    clf = cw.Classifier.from_scores(labels, scores)
    seg = threshold_segments(clf, 0.0, 1.0)
    assert seg["fp_cost_lo"].iloc[0] == 0.0 and seg["fp_cost_hi"].iloc[-1] == 1.0
    np.testing.assert_array_equal(
        seg["fp_cost_lo"].to_numpy()[1:], seg["fp_cost_hi"].to_numpy()[:-1]
    )
    assert np.all(np.diff(seg["threshold"].to_numpy()) > 0)  # dearer FPs, higher threshold
    for row in seg.itertuples():
        m = (row.fp_cost_lo + row.fp_cost_hi) / 2
        thresholds, tmc = _brute_tmc(labels, scores, None, m)
        assert tmc[thresholds.index(row.threshold)] == min(tmc)


def test_check_range_and_snap_range():
    assert check_range([0.3, 0.55]) == [0.3, 0.55]
    assert check_range([0.1 + 0.2, 0.55]) == [0.3, 0.55]
    assert check_range([]) == [] and check_range(None) == []
    assert check_range([0.0, 1.0]) == [0.0, 1.0]
    for bad, message in (
        ([0.31, 0.4], r"0.31 is not a multiple of 0.05.*\[0.3, 0.4\] or \[0.35, 0.4\]"),
        ([0.3, 0.42], r"use \[0.3, 0.4\] or \[0.3, 0.45\]"),
        ([0.4, 0.4], "lo < hi"),
        ([0.5, 0.4], "lo < hi"),
        ([-0.05, 0.4], "0 <= lo"),
        ([0.1], "two numbers"),
        ([np.nan, 0.4], "0 <= lo"),
    ):
        with pytest.raises(ValueError, match=message):
            check_range(bad)
    with pytest.raises(TypeError, match="two numbers"):
        check_range(["a", "b"])
    assert check_range([0.3, 0.6], step=0.1) == [0.3, 0.6]
    assert snap_range(0.312, 0.561) == [0.3, 0.55]
    assert snap_range(0.561, 0.312) == [0.3, 0.55]
    assert snap_range(0.41, 0.43) == [0.4, 0.45]
    assert snap_range(0.98, 0.99) == [0.95, 1.0]
    assert snap_range(-0.2, 1.3) == [0.0, 1.0]
    assert snap_range(0.4, 0.4) == []
    for lo, hi in ((0.312, 0.561), (0.01, 0.02), (0.97, 1.0), (0.0, 0.024)):
        assert check_range(snap_range(lo, hi)) == snap_range(lo, hi)
