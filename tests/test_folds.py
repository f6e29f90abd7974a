"""Fold data and averages, each against an independent brute-force computation."""

import numpy as np
import pandas as pd
import pytest
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
    # The exact breakpoints are the union of the folds' breakpoints.
    union = np.unique(np.concatenate([c.envelope.pcf for c in clf.folds.values()]))
    np.testing.assert_array_equal(avg.pcf, union)


def test_cost_average_roc_form_is_its_dual():
    y, s, f = folded(1)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    avg = clf.fold_average("cost")
    pts = clf.fold_average("cost", space="roc")
    x = np.linspace(0, 1, 301)
    lines = (x[None, :] * (1 - pts.tpr.to_numpy()[:, None])
             + (1 - x[None, :]) * pts.fpr.to_numpy()[:, None]).min(0)
    np.testing.assert_allclose(lines, np.interp(x, avg.pcf, avg.nec), atol=1e-12)


@pytest.mark.parametrize("on", ["hull", "roc"])
def test_vertical_average_brute_force(on):
    y, s, f = folded(2)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    avg = clf.fold_average("vertical", space="roc", on=on)
    grid = np.random.default_rng(0).random(300)
    curves = []
    for k in range(4):
        c = cw.Classifier.from_scores(y[f == k], s[f == k])
        pts = c.hull if on == "hull" else c.roc
        # highest TPR at each FPR, then linear in between
        best = pts.groupby("fpr").tpr.max()
        curves.append(np.interp(grid, best.index.to_numpy(), best.to_numpy()))
    np.testing.assert_allclose(np.interp(grid, avg.fpr, avg.tpr), np.mean(curves, 0), atol=1e-12)
    cost = clf.fold_average("vertical", on=on)
    x = np.linspace(0, 1, 101)
    brute = (x[None, :] * (1 - avg.tpr.to_numpy()[:, None])
             + (1 - x[None, :]) * avg.fpr.to_numpy()[:, None]).min(0)
    np.testing.assert_allclose(np.interp(x, cost.pcf, cost.nec), brute, atol=1e-12)


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
    pd.testing.assert_frame_equal(clf.fold_average("pooled", space="roc"),
                                  plain.roc[["threshold", "fpr", "tpr"]])


def test_cost_average_not_above_roc_averages_on_average():
    # 000_… 2.2.3: ROC averages include suboptimal classifiers; the cost average is the mean of
    # the folds' best costs, so it is below the vertical average's cost curve nowhere by much.
    y, s, f = folded(5)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    x = np.linspace(0, 1, 201)
    cost = clf.fold_average("cost")
    vert = clf.fold_average("vertical")
    assert np.trapezoid(np.interp(x, cost.pcf, cost.nec), x) <= np.trapezoid(
        np.interp(x, vert.pcf, vert.nec), x) + 1e-12


def test_fold_spread_min_max_and_quantiles():
    y, s, f = folded(6)
    clf = cw.Classifier.from_scores(y, s, folds=f)
    spread = clf.fold_spread(grid=51)
    x = spread.pcf.to_numpy()
    per = np.array([brute_envelope(y[f == k], s[f == k], x) for k in range(4)])
    np.testing.assert_allclose(spread["lower"], per.min(0), atol=1e-12)
    np.testing.assert_allclose(spread["upper"], per.max(0), atol=1e-12)
    np.testing.assert_allclose(spread["mean"], per.mean(0), atol=1e-12)
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
    assert list(models) == list(dict.fromkeys(frame.model))
    nb = frame[frame.model == "naive Bayes"].sort_values("row")
    direct = cw.Classifier.from_scores(nb.label, nb.score, pos_label="M")
    pd.testing.assert_frame_equal(models["naive Bayes"].roc, direct.roc)
    assert sorted(models["naive Bayes"].folds) == sorted(frame.fold.unique())
    with pytest.raises(ValueError, match="no column"):
        cw.Classifier.from_frame(frame, fold="split")
    shuffled = frame.drop(index=frame.index[:3])
    with pytest.raises(ValueError, match="same instances"):
        cw.Classifier.from_frame(shuffled, instance="row", pos_label="M")
