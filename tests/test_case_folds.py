"""Fold averages and the fold spread with per-case costs, against a brute force written out case
by case (tests/brute_case_money.py): per fold, the money per case of every threshold with all
four outcomes and the sample weights, its minimum, then the mean over the folds; the same on the
cost pane's axes at every PCF(+) of a grid. The data have a fee on flagged positives (cost_tp)
that cost_fp includes, so that cheap positives count as negatives (cases change sides), unequal
folds (not stratified) and sample weights; the settings move the multipliers and p(+)."""

from __future__ import annotations

import numpy as np
import pytest
from brute_case_money import (
    case_weights,
    flag_and_pass,
    money_best,
    pane_best,
    pane_lines,
    totals,
)

import costwidget as cw
from costwidget.model import cost_weighted
from costwidget.model.uncertainty.folds import fold_average, fold_spread

SETTINGS = [(1.0, 1.0, None), (2.0, 0.5, 0.3), (0.7, 1.5, 0.6)]
GRID = np.linspace(0.0, 1.0, 21)


def _data(seed, n=90, weighted=True):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    amount = np.round(rng.pareto(1.5, n) * 20.0 + 0.5, 2)
    fee = 3.0
    costs = {
        "cost_fn": amount,
        "cost_fp": fee + 5.0 + np.zeros(n),
        "cost_tp": fee + np.zeros(n),
        "cost_tn": np.zeros(n),
    }
    scores = np.round(rng.random(n) + 0.6 * y * (amount > 8), 2)  # ties
    folds = rng.integers(0, 4, n)  # unequal, not stratified
    sw = np.round(rng.uniform(0.5, 2.0, n), 1) if weighted else None
    return y, scores, folds, sw, costs


def _clf(seed, weighted=True):
    y, scores, folds, sw, costs = _data(seed, weighted=weighted)
    clf = cw.Classifier.from_scores(y, scores, folds=folds, sample_weight=sw, name="m", **costs)
    return clf, (y, scores, folds, sw, costs)


def _brute_setting(data, setting):
    y, scores, folds, sw, costs = data
    m_fn, m_fp, p_pos = setting
    flag, keep = flag_and_pass(
        y, costs["cost_fn"], costs["cost_fp"], costs["cost_tp"], costs["cost_tn"], m_fn, m_fp
    )
    omega = case_weights(y, sw, p_pos)
    return flag, keep, omega, totals(omega, flag, keep)


def _kw(setting):
    return dict(zip(("cost_fn", "cost_fp", "p_pos"), setting))


def _at(frame, x):
    return np.interp(x, frame["pcf"].to_numpy(), frame["nec"].to_numpy())


def test_the_data_have_cases_on_the_other_side():
    clf, data = _clf(0)
    flag, keep, *_ = _brute_setting(data, SETTINGS[0])
    y = data[0]
    assert np.any((y == 1) & (keep < flag)), "a positive cheaper passed (its fee above its loss)"


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("seed", [0, 1])
def test_the_cost_average_at_the_twins_pcf_is_the_mean_of_each_folds_cheapest_money(seed, setting):
    clf, data = _clf(seed)
    flag, keep, omega, whole = _brute_setting(data, setting)
    folds = data[2]
    want = np.mean([money_best(data[1], omega * (folds == k), flag, keep) for k in range(4)])
    avg = fold_average(clf, "cost", **_kw(setting))
    m = avg.attrs["per_case"]
    big_p, big_n, floor, total = whole
    assert m["pcf"] == pytest.approx(big_p / (big_p + big_n), rel=1e-12)
    assert m["scale"] == pytest.approx((big_p + big_n) / total, rel=1e-12)
    assert m["offset"] == pytest.approx(floor / total, rel=1e-12)
    got = _at(avg, m["pcf"]) * m["scale"] + m["offset"]
    assert got == pytest.approx(want, rel=1e-10)


@pytest.mark.parametrize("setting", SETTINGS)
def test_the_fold_spread_and_the_cost_average_are_the_folds_pane_curves(setting):
    clf, data = _clf(2)
    flag, keep, omega, whole = _brute_setting(data, setting)
    scores, folds = data[1], data[2]
    per_fold = np.array(
        [pane_best(GRID, scores, omega * (folds == k), flag, keep, whole) for k in range(4)]
    )
    spread = fold_spread(clf, grid=GRID, **_kw(setting))
    np.testing.assert_allclose(spread["lower"], per_fold.min(axis=0), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(spread["upper"], per_fold.max(axis=0), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(spread["nec"], per_fold.mean(axis=0), rtol=1e-10, atol=1e-12)
    avg = fold_average(clf, "cost", **_kw(setting))
    np.testing.assert_allclose(_at(avg, GRID), per_fold.mean(axis=0), rtol=1e-10, atol=1e-12)
    quartiles = fold_spread(clf, grid=GRID, quantiles=(0.25, 0.75), **_kw(setting))
    want = np.quantile(per_fold, [0.25, 0.75], axis=0)
    np.testing.assert_allclose(quartiles["lower"], want[0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(quartiles["upper"], want[1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("setting", SETTINGS)
def test_the_threshold_average_is_the_cheapest_mean_money_of_one_threshold(setting):
    clf, data = _clf(3)
    flag, keep, omega, whole = _brute_setting(data, setting)
    scores, folds = data[1], data[2]
    # Every fold deploys the same threshold: the mean of the folds' lines, then the minimum.
    lines = np.mean(
        [pane_lines(GRID, scores, omega * (folds == k), flag, keep, whole)[1] for k in range(4)],
        axis=0,
    )
    avg = fold_average(clf, "threshold", **_kw(setting))
    np.testing.assert_allclose(_at(avg, GRID), lines.min(axis=0), rtol=1e-10, atol=1e-12)


def _own_polyline_top(scores, omega, flag, keep):
    """A fold's own cost-weighted ROC points (FPR, TPR), every threshold, and the top of the
    polyline at an FPR (the highest TPR over the segments that reach it)."""
    side = keep > flag
    regret = omega * np.abs(keep - flag)
    # Sums over the fold's own cases, as at the last threshold: its FPR and TPR end at 1 exactly.
    pos = regret[(omega > 0) & side].sum()
    neg = regret[(omega > 0) & ~side].sum()
    pts = []
    for t in np.concatenate(([np.inf], np.unique(scores[omega > 0])[::-1])):
        d = (scores >= t) & (omega > 0)
        pts.append((regret[d & ~side].sum() / neg, regret[d & side].sum() / pos))
    pts = np.array(pts)

    def top(g):
        best = -np.inf
        for (f0, t0), (f1, t1) in zip(pts[:-1], pts[1:]):
            if f0 <= g <= f1:
                if f1 == f0:
                    best = max(best, t0, t1)
                else:
                    best = max(best, t0 + (t1 - t0) * (g - f0) / (f1 - f0))
        return best

    return pts, top, pos, neg


@pytest.mark.parametrize("setting", SETTINGS[:2])
def test_the_vertical_average_means_the_money_lines_at_each_folds_own_fpr(setting):
    clf, data = _clf(4)
    flag, keep, omega, whole = _brute_setting(data, setting)
    scores, folds = data[1], data[2]
    big_p, big_n, floor, total = whole
    folds_own = []
    for k in range(4):
        part = omega * (folds == k)
        pts, top, pos, neg = _own_polyline_top(scores, part, flag, keep)
        w_k = part.sum()
        off = (
            (np.sum(part * np.minimum(flag, keep)) / w_k - floor / total) * total / (big_p + big_n)
        )
        folds_own.append((pts, top, neg * total / (w_k * big_n), pos * total / (w_k * big_p), off))
    grid = np.unique(np.concatenate([pts[:, 0] for pts, *_ in folds_own]))
    # At FPR g each fold's point is its polyline's top there; its line on the pane is
    # off + (1 − x)·g·u + x·(1 − TPR)·v; the average's curve is the lowest mean line.
    means = np.array(
        [
            np.mean(
                [
                    off + (1 - GRID) * g * u + GRID * (1 - top(g)) * v
                    for _, top, u, v, off in folds_own
                ],
                axis=0,
            )
            for g in grid
        ]
    )
    avg = fold_average(clf, "vertical", on="roc", **_kw(setting))
    np.testing.assert_allclose(_at(avg, GRID), means.min(axis=0), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("setting", SETTINGS)
def test_the_pooled_average_is_the_whole_datas_cheapest_money(setting):
    clf, data = _clf(5)
    flag, keep, omega, whole = _brute_setting(data, setting)
    want = pane_best(GRID, data[1], omega, flag, keep, whole)
    avg = fold_average(clf, "pooled", **_kw(setting))
    np.testing.assert_allclose(_at(avg, GRID), want, rtol=1e-10, atol=1e-12)
    # ... which is the twin the cost pane draws.
    twin, _ = cost_weighted(clf, setting[0], setting[1], setting[2])
    np.testing.assert_allclose(twin.nec(GRID), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("method", ["cost", "threshold", "vertical", "pooled"])
def test_roc_space_points_are_the_duals_of_the_cost_space_lines(method):
    clf, _ = _clf(6)
    kw = _kw(SETTINGS[1])
    cost = fold_average(clf, method, **kw)
    roc = fold_average(clf, method, space="roc", **kw)
    f, t = roc["fpr"].to_numpy(), roc["tpr"].to_numpy()
    # The point (f, t) is the line (1 − x)·f + x·(1 − t); their lower envelope is the curve.
    lowest = np.min((1 - GRID)[None, :] * f[:, None] + GRID[None, :] * (1 - t)[:, None], axis=0)
    np.testing.assert_allclose(_at(cost, GRID), lowest, rtol=1e-10, atol=1e-12)


def test_without_sample_weight_at_the_classifiers_own_setting():
    clf, data = _clf(7, weighted=False)
    flag, keep, omega, whole = _brute_setting(data, SETTINGS[0])
    folds = data[2]
    want = np.mean([money_best(data[1], omega * (folds == k), flag, keep) for k in range(4)])
    # The Classifier's own method: multipliers 1 and the data's p(+).
    x0 = clf.fold_spread(grid=2).attrs["per_case"]["pcf"]
    spread = clf.fold_spread(grid=[x0])
    m = spread.attrs["per_case"]
    assert spread["nec"].iloc[0] * m["scale"] + m["offset"] == pytest.approx(want, rel=1e-10)


def test_refusals_name_the_fix():
    clf, _ = _clf(0)
    plain = cw.Classifier.from_scores([1, 0, 1, 0], [0.9, 0.2, 0.6, 0.4], folds=[0, 0, 1, 1])
    with pytest.raises(ValueError, match="for classifiers with per-case costs"):
        fold_spread(plain, cost_fn=2.0)
    with pytest.raises(ValueError, match="for classifiers with per-case costs"):
        fold_average(plain, p_pos=0.3)
    no_folds = cw.Classifier.from_scores(
        [1, 0, 1, 0], [0.9, 0.2, 0.6, 0.4], cost_fn=5.0, cost_fp=1.0
    )
    with pytest.raises(ValueError, match="has no folds"):
        fold_spread(no_folds)
    with pytest.raises(ValueError, match="p_pos"):
        fold_spread(clf, p_pos=1.5)
    # At cost_fn × 0.5 fold 0's positive (loss 5 × 0.5 below its fee 3) counts as a negative:
    # fold 0 has no cost-weighted positive, so no rates of its own: no vertical average.
    one_sided = cw.Classifier.from_scores(
        [1, 0, 1, 0, 1, 0],
        [0.9, 0.2, 0.8, 0.3, 0.7, 0.4],
        folds=[0, 0, 1, 1, 1, 1],
        cost_fn=[5.0, 0, 20.0, 0, 30.0, 0],
        cost_fp=8.0,
        cost_tp=3.0,
    )
    fold_average(one_sided, "vertical")  # at × 1 every fold has both sides
    with pytest.raises(ValueError, match="method='cost' or 'threshold'"):
        fold_average(one_sided, "vertical", cost_fn=0.5)
    fold_average(one_sided, "cost", cost_fn=0.5)  # defined: each fold's money per case


def test_costs_summed_by_an_engine_are_refused_naming_from_frame():
    duckdb = pytest.importorskip("duckdb")
    import pandas as pd

    y, scores, folds, _, costs = _data(8, n=40, weighted=False)
    frame = pd.DataFrame({"label": y, "score": scores, "fold": folds, "loss": costs["cost_fn"]})
    frame["model"] = "m"
    from costwidget.sources.duckdb_source import from_duckdb

    try:
        clf = from_duckdb(
            duckdb.connect().from_df(frame), fold="fold", cost_fn="loss", cost_fp=1.0
        )["m"]
    except (TypeError, ValueError) as exc:  # the engine path may refuse folds itself
        pytest.skip(f"from_duckdb with folds and costs: {exc}")
    with pytest.raises(ValueError, match="from_frame"):
        fold_spread(clf)


@pytest.mark.parametrize("setting", SETTINGS)
def test_the_classifiers_methods_take_the_setting(setting):
    # Users call clf.fold_average / clf.fold_spread: they must price the same setting as the
    # model's functions (before, the methods took no multipliers and no p(+)).
    clf, data = _clf(4)
    flag, keep, omega, whole = _brute_setting(data, setting)
    scores, folds = data[1], data[2]
    per_fold = np.array(
        [pane_best(GRID, scores, omega * (folds == k), flag, keep, whole) for k in range(4)]
    )
    spread = clf.fold_spread(grid=GRID, **_kw(setting))
    np.testing.assert_allclose(spread["nec"], per_fold.mean(axis=0), rtol=1e-10, atol=1e-12)
    avg = clf.fold_average("cost", **_kw(setting))
    np.testing.assert_allclose(_at(avg, GRID), per_fold.mean(axis=0), rtol=1e-10, atol=1e-12)
