"""Fold data and averages, each against an independent brute-force computation."""

from fractions import Fraction

import brute
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_curve

import costwidget as cw
from costwidget.datasets import load_demo_scores


def folded(seed=0, n=300, k=4, ties=2):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(y * 1.0, 1.0) + rng.integers(0, k, n) * 0.1, ties)
    f = rng.permutation(np.arange(n) % k)
    return y, s, f


def brute_envelope(y, s, x):
    """min over every ROC point's cost line (sklearn ROC points)."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    return (x[None, :] * (1 - tpr[:, None]) + (1 - x[None, :]) * fpr[:, None]).min(0)


@pytest.mark.parametrize("seed", range(3))
def test_cost_average_is_mean_of_fold_envelopes(seed):
    y, s, f = folded(seed)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    avg = clf.fold_average("cost")
    x = np.random.default_rng(seed).random(200)
    brute = np.mean([brute_envelope(y[f == k], s[f == k], x) for k in range(4)], axis=0)
    np.testing.assert_allclose(np.interp(x, avg.pcf, avg.nec), brute, atol=1e-12)
    # Exact: linear between its breakpoints, so a kink it missed shows at a midpoint.
    mid = (avg.pcf.to_numpy()[1:] + avg.pcf.to_numpy()[:-1]) / 2
    brute_mid = np.mean([brute_envelope(y[f == k], s[f == k], mid) for k in range(4)], axis=0)
    np.testing.assert_allclose(np.interp(mid, avg.pcf, avg.nec), brute_mid, atol=1e-12)


def test_cost_average_roc_form_is_its_dual():
    y, s, f = folded(1)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    avg = clf.fold_average("cost")
    pts = clf.fold_average("cost", space="roc")
    x = np.linspace(0, 1, 301)
    lines = (
        x[None, :] * (1 - pts.tpr.to_numpy()[:, None])
        + (1 - x[None, :]) * pts.fpr.to_numpy()[:, None]
    ).min(0)
    np.testing.assert_allclose(lines, np.interp(x, avg.pcf, avg.nec), atol=1e-12)


def test_threshold_average_brute_force():
    y, s, f = folded(3)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    avg = clf.fold_average("threshold", space="roc")
    for t, fpr, tpr in avg.iloc[1::7].to_numpy():
        exp_f = np.mean([np.mean(s[(f == k) & ~y] >= t) for k in range(4)])
        exp_t = np.mean([np.mean(s[(f == k) & y] >= t) for k in range(4)])
        assert fpr == pytest.approx(exp_f, abs=1e-12) and tpr == pytest.approx(exp_t, abs=1e-12)
    assert len(avg) == len(np.unique(s)) + 1
    given = clf.fold_average("threshold", space="roc", thresholds=[0.5, 0.0])
    assert given.threshold.tolist() == [np.inf, 0.5, 0.0]


def test_pooled_is_the_classifier_without_folds():
    y, s, f = folded(4)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    plain = cw.Classifier.from_scores(y, s)
    pd.testing.assert_frame_equal(clf.fold_average("pooled"), plain.envelope)
    pd.testing.assert_frame_equal(
        clf.fold_average("pooled", space="roc"), plain.roc[["threshold", "fpr", "tpr"]]
    )


def test_cost_average_not_above_roc_averages_on_average():
    # Drummond & Holte (2000), sec. 2.2.3: ROC averages include suboptimal classifiers; the cost average is the mean of
    # the folds' best costs, so it is below the vertical average's cost curve nowhere by much.
    y, s, f = folded(5)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    x = np.linspace(0, 1, 201)
    cost = clf.fold_average("cost")
    vert = clf.fold_average("vertical")
    assert (
        _trapezoid(np.interp(x, cost.pcf, cost.nec), x)
        <= _trapezoid(np.interp(x, vert.pcf, vert.nec), x) + 1e-12
    )


def _trapezoid(y, x):
    """The trapezoid rule written out (np.trapezoid needs numpy >= 2, np.trapz is gone in 2.x)."""
    return float(np.sum((y[1:] + y[:-1]) * np.diff(x)) / 2.0)


def test_fold_spread_min_max_and_quantiles():
    y, s, f = folded(6)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    spread = clf.fold_spread(grid=51)
    x = spread.pcf.to_numpy()
    per = np.array([brute_envelope(y[f == k], s[f == k], x) for k in range(4)])
    np.testing.assert_allclose(spread["lower"], per.min(0), atol=1e-12)
    np.testing.assert_allclose(spread["upper"], per.max(0), atol=1e-12)
    np.testing.assert_allclose(spread["nec"], per.mean(0), atol=1e-12)
    q = clf.fold_spread(grid=51, quantiles=(0.25, 0.75))
    np.testing.assert_allclose(q["lower"], np.quantile(per, 0.25, axis=0), atol=1e-12)


def test_fold_with_one_class_names_the_fold():
    y = np.array([0, 1, 0, 1, 0, 0])
    s = np.array([0.1, 0.9, 0.2, 0.8, 0.3, 0.4])
    with pytest.raises(ValueError, match="Fold 'c' has only negative"):
        cw.Classifier.from_scores(y, s, folds=["a", "a", "b", "b", "c", "c"])
    with pytest.raises(ValueError, match="different lengths"):
        cw.Classifier.from_scores(y, s, folds=[0, 1])
    with pytest.raises(ValueError, match="no folds"):
        cw.Classifier.from_scores(y, s).fold_average()
    clf = cw.Classifier.from_scores(y, s, folds=[0, 0, 1, 1, 0, 1])
    with pytest.raises(ValueError, match="method"):
        clf.fold_average("mean")


def test_from_frame_demo_scores():
    frame = load_demo_scores("sonar")
    models = cw.Classifier.from_frame(frame, fold="fold", instance="row", pos_label="M")
    assert list(models) == sorted(set(frame.model))  # sorted by name, as from_duckdb/from_spark
    nb = frame[frame.model == "naive Bayes"].sort_values("row")
    direct = cw.Classifier.from_scores(nb.label, nb.score, pos_label="M")
    pd.testing.assert_frame_equal(models["naive Bayes"].roc, direct.roc)
    assert sorted(models["naive Bayes"].folds) == sorted(frame.fold.unique())
    with pytest.raises(ValueError, match="no column"):
        cw.Classifier.from_frame(frame, fold="split")
    shuffled = frame.drop(index=frame.index[:3])
    with pytest.raises(ValueError, match="same instances"):
        cw.Classifier.from_frame(shuffled, instance="row", pos_label="M")


# ---------------------------------------------------------------- every average, by hypothesis
@st.composite
def folded_data(draw):
    """2-4 folds of small integer scores (many ties, vertical runs), each with both classes."""
    k = draw(st.integers(2, 4))
    labels, scores, folds = [], [], []
    for fold in range(k):
        n = draw(st.integers(2, 9))
        y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        if all(y) or not any(y):
            y[0] = not y[0]
        labels += y
        scores += draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
        folds += [fold] * n
    return np.array(labels), np.array(scores, dtype=float), np.array(folds)


def brute_curves(y, s, f, on):
    """Per fold: its ROC polyline (or hull) as exact Fraction points (fpr, tpr)."""
    out = []
    for k in np.unique(f):
        _, tp, fp = brute.roc_points(y[f == k], s[f == k])
        pts = list(zip(fp, tp))
        if on == "hull":
            pts = brute.upper_hull(pts)
        n_pos, n_neg = tp[-1], fp[-1]
        out.append([(Fraction(a, n_neg), Fraction(b, n_pos)) for a, b in pts])
    return out


def brute_heights(points, x):
    """All TPR values of the polyline through `points` at FPR x (a vertical run gives several)."""
    ys = []
    for (x0, y0), (x1, y1) in zip(points[:-1], points[1:]):
        if x0 == x1 == x:
            ys += [y0, y1]
        elif x0 <= x <= x1 and x0 < x1:
            ys.append(y0 + (y1 - y0) * (x - x0) / (x1 - x0))
    return ys


def brute_vertical(curves):
    """Exact rows of the vertical average: at each FPR of any fold, mean bottom then mean top."""
    grid = sorted({x for c in curves for x, _ in c})
    rows = []
    for x in grid:
        lo = sum(min(brute_heights(c, x)) for c in curves) / len(curves)
        hi = sum(max(brute_heights(c, x)) for c in curves) / len(curves)
        rows += [(x, lo)] + ([(x, hi)] if hi != lo else [])
    return rows


def brute_cost_lines_min(fpr, tpr, x):
    return brute.envelope_min(np.asarray(fpr, float), np.asarray(tpr, float), x)


@pytest.mark.parametrize("on", ["hull", "roc"])
@given(data=folded_data())
def test_vertical_average_equals_brute_force(on, data):
    y, s, f = data
    clf = cw.Classifier.from_scores(y, s, folds=f)
    curves = brute_curves(y, s, f, on)
    expected = brute_vertical(curves)
    avg = clf.fold_average("vertical", space="roc", on=on)
    got = avg[["fpr", "tpr"]].to_numpy()
    np.testing.assert_allclose(got, np.array(expected, dtype=float), rtol=0, atol=1e-12)
    # Linear in between: at the midpoint of consecutive FPRs the mean of the folds'
    # heights is the midpoint of the average's top at the left and bottom at the right.
    xs = sorted({x for x, _ in expected})
    for a, b in zip(xs[:-1], xs[1:]):
        m = (a + b) / 2
        mean = sum(brute_heights(c, m)[0] for c in curves) / len(curves)
        left_top = max(t for x, t in expected if x == a)
        right_bottom = min(t for x, t in expected if x == b)
        assert float(mean) == pytest.approx(float(left_top + right_bottom) / 2, abs=1e-12)
    # Cost space: the lower envelope of the average's points' cost lines.
    cost = clf.fold_average("vertical", on=on)
    x = np.linspace(0, 1, 41)
    ef, et = zip(*expected)
    np.testing.assert_allclose(
        np.interp(x, cost.pcf, cost.nec), brute_cost_lines_min(ef, et, x), atol=1e-12
    )


@given(data=folded_data())
def test_threshold_average_equals_brute_force(data):
    y, s, f = data
    clf = cw.Classifier.from_scores(y, s, folds=f)
    folds = np.unique(f)
    avg = clf.fold_average("threshold", space="roc")
    thresholds = sorted(set(s.tolist()), reverse=True)
    assert avg.threshold.tolist() == [np.inf] + thresholds
    for t, fpr, tpr in avg.to_numpy()[1:]:
        ef = sum(
            Fraction(int(np.sum((f == k) & ~y & (s >= t))), int(np.sum((f == k) & ~y)))
            for k in folds
        ) / len(folds)
        et = sum(
            Fraction(int(np.sum((f == k) & y & (s >= t))), int(np.sum((f == k) & y))) for k in folds
        ) / len(folds)
        assert (fpr, tpr) == pytest.approx((float(ef), float(et)), abs=1e-12)
    assert avg[["fpr", "tpr"]].iloc[0].tolist() == [0.0, 0.0]
    for on in ("hull", "roc"):  # `on` does not apply to the threshold average
        pd.testing.assert_frame_equal(clf.fold_average("threshold", space="roc", on=on), avg)
    cost = clf.fold_average("threshold")
    x = np.linspace(0, 1, 41)
    np.testing.assert_allclose(
        np.interp(x, cost.pcf, cost.nec), brute_cost_lines_min(avg.fpr, avg.tpr, x), atol=1e-12
    )


@given(data=folded_data())
def test_cost_average_equals_brute_force_both_spaces(data):
    y, s, f = data
    clf = cw.Classifier.from_scores(y, s, folds=f)
    curves = brute_curves(y, s, f, "roc")
    avg = clf.fold_average("cost")
    x = np.concatenate((np.linspace(0, 1, 41), avg.pcf.to_numpy()))
    expected = np.mean([brute_cost_lines_min(*zip(*c), x) for c in curves], axis=0)
    np.testing.assert_allclose(np.interp(x, avg.pcf, avg.nec), expected, atol=1e-12)
    for on in ("hull", "roc"):  # the cost average is of the envelopes, whatever `on`
        pd.testing.assert_frame_equal(clf.fold_average("cost", on=on), avg)
    # ROC form: points whose cost lines' lower envelope is the average, each one touching it.
    pts = clf.fold_average("cost", space="roc")
    np.testing.assert_allclose(brute_cost_lines_min(pts.fpr, pts.tpr, x), expected, atol=1e-12)
    assert pts.threshold.isna().all()
    for fpr, tpr in pts[["fpr", "tpr"]].to_numpy():
        line = (1 - tpr - fpr) * x + fpr
        assert np.min(line - expected) == pytest.approx(0.0, abs=1e-12)


@given(data=folded_data())
def test_pooled_average_equals_brute_force_both_spaces(data):
    y, s, f = data
    clf = cw.Classifier.from_scores(y, s, folds=f)
    th, tp, fp = brute.roc_points(y, s)
    roc = clf.fold_average("pooled", space="roc")
    assert roc.threshold.tolist() == th
    np.testing.assert_allclose(roc.fpr, np.array(fp) / fp[-1], atol=1e-15)
    np.testing.assert_allclose(roc.tpr, np.array(tp) / tp[-1], atol=1e-15)
    cost = clf.fold_average("pooled")
    x = np.linspace(0, 1, 41)
    np.testing.assert_allclose(
        np.interp(x, cost.pcf, cost.nec),
        brute_cost_lines_min(np.array(fp) / fp[-1], np.array(tp) / tp[-1], x),
        atol=1e-12,
    )


def test_vertical_average_of_raw_curves_issue_example():
    # Fold 0: (0,0) (0,.5) (.5,.5) (.5,1) (1,1); fold 1: (0,0) (0,1) (1,1). At FPR 0.25 the
    # folds' TPRs are .5 and 1: the mean is .75 (it was .875 when vertical runs were skipped).
    y = [1, 0, 1, 0, 1, 1, 0, 0]
    s = [0.9, 0.8, 0.7, 0.6, 0.9, 0.8, 0.2, 0.1]
    clf = cw.Classifier.from_scores(y, s, folds=[0, 0, 0, 0, 1, 1, 1, 1])
    avg = clf.fold_average("vertical", space="roc", on="roc")
    assert avg[["fpr", "tpr"]].to_numpy().tolist() == [
        [0, 0],
        [0, 0.75],
        [0.5, 0.75],
        [0.5, 1],
        [1, 1],
    ]
