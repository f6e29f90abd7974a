"""The difference band with per-case costs against a brute force (tests/brute_case_money.py):
the draws are reproduced from the seed (each stratum, in increasing order of ``2·fold + class``,
draws ``rng.integers(0, n_s, n_s)`` into its cases), and in every replicate each classifier's
cheapest threshold is found over every threshold, money per case counted case by case with all
four outcomes, the resampled cases' weights and the whole data's pane map. The fee data (cost_tp
on flagged positives, inside cost_fp) have cases on the other side."""

from __future__ import annotations

import math

import numpy as np
import pytest
from brute_case_money import case_weights, flag_and_pass, pane_best, pane_lines, totals

import costwidget as cw
from costwidget.model import check_pair, significant_intervals

GRID = np.linspace(0.0, 1.0, 11)
N_BOOT = 60


def _data(seed, n=50, folds=False, weighted=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    amount = np.round(rng.pareto(1.5, n) * 20.0 + 0.5, 2)
    costs = {
        "cost_fn": amount,
        "cost_fp": 8.0 + np.zeros(n),
        "cost_tp": 3.0 + np.zeros(n),
        "cost_tn": np.zeros(n),
    }
    s_a = np.round(rng.random(n) + 0.6 * y, 2)
    s_b = np.round(rng.random(n) + 0.9 * y * (amount > 8), 2)
    fold = rng.integers(0, 3, n) if folds else None
    sw = np.round(rng.uniform(0.5, 2.0, n), 1) if weighted else None
    kw = dict(folds=fold, sample_weight=sw, **costs)
    a = cw.Classifier.from_scores(y, s_a, name="a", **kw)
    b = cw.Classifier.from_scores(y, s_b, name="b", **kw)
    return a, b, (y, s_a, s_b, fold, sw, costs)


def _brute(data, setting):
    y, s_a, s_b, fold, sw, costs = data
    m_fn, m_fp, p_pos = setting
    flag, keep = flag_and_pass(
        y, costs["cost_fn"], costs["cost_fp"], costs["cost_tp"], costs["cost_tn"], m_fn, m_fp
    )
    omega = case_weights(y, sw, p_pos)
    return flag, keep, omega, totals(omega, flag, keep)


def _draws(y, fold, seed, n_boot, per_replicate=1):
    """The resamples' counts, drawn as the band draws them (reproduced, not called)."""
    strata = y if fold is None else 2 * fold + y
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_boot):
        ks = []
        for _ in range(per_replicate):
            k = np.zeros(len(y))
            for code in sorted(set(strata.tolist())):
                idx = np.flatnonzero(strata == code)
                for i in idx[rng.integers(0, len(idx), len(idx))]:
                    k[i] += 1
            ks.append(k)
        out.append(ks)
    return out


def _percentile(reps, level):
    b = len(reps)
    k = max(math.ceil(b * (1 - level) / 2 - 1e-9), 1)
    s = np.sort(reps, axis=0)
    return s[k - 1], s[b - k]


SETTINGS = [(1.0, 1.0, None), (2.0, 0.5, 0.3)]


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("folds", [False, True])
def test_the_pointwise_band_is_the_brute_force_of_each_reproduced_resample(setting, folds):
    a, b, data = _data(1, folds=folds, weighted=folds)
    y, s_a, s_b, fold, *_ = data
    flag, keep, omega, whole = _brute(data, setting)
    kw = dict(zip(("cost_fn", "cost_fp", "p_pos"), setting))
    band = cw.difference_band(
        a, b, 0.8, grid=GRID, n_boot=N_BOOT, random_state=7, simultaneous=False, **kw
    )
    want = pane_best(GRID, s_a, omega, flag, keep, whole) - pane_best(
        GRID, s_b, omega, flag, keep, whole
    )
    np.testing.assert_allclose(band["diff"], want, rtol=1e-10, atol=1e-12)
    reps = np.array(
        [
            pane_best(GRID, s_a, k * omega, flag, keep, whole)
            - pane_best(GRID, s_b, k * omega, flag, keep, whole)
            for (k,) in _draws(y, fold, 7, N_BOOT)
        ]
    )
    lower, upper = _percentile(reps, 0.8)
    np.testing.assert_allclose(band["lower"], lower, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(band["upper"], upper, rtol=1e-9, atol=1e-12)
    assert band.attrs["kind"] == "pointwise"


def test_at_the_twins_pcf_the_difference_is_money_per_case_over_the_scale():
    a, b, data = _data(2)
    y, s_a, s_b, *_ = data
    flag, keep, omega, whole = _brute(data, (1.5, 1.0, 0.35))
    band = cw.difference_band(
        a, b, grid=[0.5], n_boot=10, random_state=0, cost_fn=1.5, cost_fp=1.0, p_pos=0.35
    )
    m = band.attrs["per_case"]
    big_p, big_n, _floor, total = whole
    assert m["pcf"] == pytest.approx(big_p / (big_p + big_n), rel=1e-12)
    at = cw.difference_band(
        a, b, grid=[m["pcf"]], n_boot=10, random_state=0, cost_fn=1.5, cost_fp=1.0, p_pos=0.35
    )

    def money(scores):
        return min(
            float(np.sum(omega * np.where(scores >= t, flag, keep)) / omega.sum())
            for t in np.concatenate(([np.inf], np.unique(scores)))
        )

    assert at["diff"].iloc[0] * m["scale"] == pytest.approx(money(s_a) - money(s_b), rel=1e-10)
    assert m["units"] == "money per case, scaled as the cost pane"


def test_the_simultaneous_band_is_the_sup_t_band_of_the_brute_replicates():
    a, b, data = _data(3)
    y, s_a, s_b, *_ = data
    flag, keep, omega, whole = _brute(data, SETTINGS[0])
    band = cw.difference_band(a, b, 0.9, grid=GRID, n_boot=N_BOOT, random_state=3)
    centre = pane_best(GRID, s_a, omega, flag, keep, whole) - pane_best(
        GRID, s_b, omega, flag, keep, whole
    )
    reps = np.array(
        [
            pane_best(GRID, s_a, k * omega, flag, keep, whole)
            - pane_best(GRID, s_b, k * omega, flag, keep, whole)
            for (k,) in _draws(y, None, 3, N_BOOT)
        ]
    )
    sd = reps.std(axis=0, ddof=1)
    live = sd > 1e-12
    stat = np.sort(np.max(np.abs(reps[:, live] - centre[live]) / sd[live], axis=1))
    c = stat[math.ceil(0.9 * N_BOOT - 1e-9) - 1]
    np.testing.assert_allclose(band["lower"][live], (centre - c * sd)[live], rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(band["upper"][live], (centre + c * sd)[live], rtol=1e-8, atol=1e-12)
    assert band.attrs["critical_value"] == pytest.approx(c, rel=1e-8)
    # Where it excludes 0, significant_intervals says so, in runs of grid points.
    sig = (band["lower"] > 0) | (band["upper"] < 0)
    runs = significant_intervals(band)
    assert int(
        sum(
            ((band.pcf >= lo) & (band.pcf <= hi)).sum()
            for lo, hi in runs[["pcf_lo", "pcf_hi"]].itertuples(index=False)
        )
    ) == int(sig.sum())


def test_held_thresholds_and_the_unpaired_band():
    a, b, data = _data(4)
    y, s_a, s_b, *_ = data
    flag, keep, omega, whole = _brute(data, SETTINGS[0])
    th_a, th_b = float(np.median(s_a)), float(np.quantile(s_b, 0.7))

    def held(scores, th, k):
        ths, lines = pane_lines(GRID, scores, k * omega, flag, keep, whole)
        return lines[np.flatnonzero(ths >= th)[-1]]  # the lowest threshold >= th flags the same

    band = cw.difference_band(
        a,
        b,
        0.8,
        grid=GRID,
        n_boot=N_BOOT,
        random_state=5,
        simultaneous=False,
        paired=False,
        threshold_a=th_a,
        threshold_b=th_b,
    )
    ones = np.ones(len(y))
    np.testing.assert_allclose(
        band["diff"], held(s_a, th_a, ones) - held(s_b, th_b, ones), rtol=1e-10, atol=1e-12
    )
    reps = np.array(
        [held(s_a, th_a, ka) - held(s_b, th_b, kb) for ka, kb in _draws(y, None, 5, N_BOOT, 2)]
    )
    lower, upper = _percentile(reps, 0.8)
    np.testing.assert_allclose(band["lower"], lower, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(band["upper"], upper, rtol=1e-9, atol=1e-12)
    assert band.attrs["paired"] is False


def test_swapping_the_pair_negates_the_band():
    a, b, _ = _data(5)
    ab = cw.difference_band(a, b, grid=GRID, n_boot=40, random_state=1, cost_fn=1.3)
    ba = cw.difference_band(b, a, grid=GRID, n_boot=40, random_state=1, cost_fn=1.3)
    np.testing.assert_allclose(ab["diff"], -ba["diff"], atol=1e-12)
    np.testing.assert_allclose(ab["lower"], -ba["upper"], atol=1e-12)
    np.testing.assert_allclose(ab["upper"], -ba["lower"], atol=1e-12)


def test_pairs_of_other_cases_or_costs_are_refused_with_the_reason():
    a, b, (y, s_a, s_b, _, _, costs) = _data(6)
    other_costs = dict(costs, cost_fp=costs["cost_fp"] + np.arange(len(y)) % 2)
    c = cw.Classifier.from_scores(y, s_b, name="c", **other_costs)
    with pytest.raises(ValueError, match=r"differ in the cost_tp \(positives\) or cost_fp"):
        cw.difference_band(a, c, n_boot=10, random_state=0)
    with pytest.raises(ValueError, match=r"or cost_fp \(negatives\) of their cases"):
        check_pair(a, c)
    # A cost that never counts (a positive's cost_fp) may differ: the money is the same.
    unused = dict(costs, cost_fp=np.where(y == 1, 99.0, costs["cost_fp"]))
    same = cw.Classifier.from_scores(y, s_b, name="same", **unused)
    check_pair(a, same)
    d = cw.Classifier.from_scores(y.copy(), s_b, name="d", **costs)  # another y array
    with pytest.raises(ValueError, match="not known to score the same cases"):
        cw.difference_band(a, d, n_boot=10, random_state=0)
    plain = cw.Classifier.from_scores(y, s_b, name="plain")
    with pytest.raises(ValueError, match="no per-case costs but the other has"):
        cw.difference_band(a, plain, n_boot=10, random_state=0)
    both_plain = cw.Classifier.from_scores(y, s_a, name="p2")
    with pytest.raises(ValueError, match="for classifiers with per-case costs"):
        cw.difference_band(plain, both_plain, n_boot=10, random_state=0, cost_fn=2.0)
    # Paired by instance ids in another order: the same band as in one order.
    ids = np.arange(len(y))
    perm = np.random.default_rng(0).permutation(len(y))
    a_ids = cw.Classifier.from_scores(y, s_a, name="a", instance=ids, **costs)
    b_ids = cw.Classifier.from_scores(
        y[perm],
        s_b[perm],
        name="b",
        instance=ids[perm],
        **{k: v[perm] for k, v in costs.items()},
    )
    got = cw.difference_band(a_ids, b_ids, grid=GRID, n_boot=30, random_state=2)
    want = cw.difference_band(a, b, grid=GRID, n_boot=30, random_state=2)
    np.testing.assert_allclose(
        got[["diff", "lower", "upper"]], want[["diff", "lower", "upper"]], atol=1e-12
    )


def test_costs_summed_by_an_engine_are_refused_naming_from_frame():
    duckdb = pytest.importorskip("duckdb")
    import pandas as pd

    from costwidget.sources.duckdb_source import from_duckdb

    _, _, (y, s_a, s_b, _, _, costs) = _data(7)
    frame = pd.concat(
        [
            pd.DataFrame({"model": m, "label": y, "score": s, "loss": costs["cost_fn"]})
            for m, s in (("a", s_a), ("b", s_b))
        ]
    )
    models = from_duckdb(duckdb.connect().from_df(frame), cost_fn="loss", cost_fp=1.0)
    summed = (
        r"summed in a database .* Load the rows with Classifier.from_frame\(\.\.\., cost_fn='col'\)"
    )
    with pytest.raises(ValueError, match=summed):
        cw.difference_band(models["a"], models["b"], n_boot=10, random_state=0)
    with pytest.raises(ValueError, match=summed):
        check_pair(models["a"], models["b"])
