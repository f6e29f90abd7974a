"""Bands of money per case for classifiers with per-case costs (issue 45).

Every replicate is checked against a numpy brute force written from the definition: the
replicate's cases (drawn by index), every threshold of their scores, each case's money with
all four cells and its weight, the cheapest rule, and the original data's affine map to the
cost pane's NEC; then the band's pointwise quantiles from those values.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import costwidget as cw


def case_band(*args, **kwargs):
    """The model's band with explicit draws (imported here: each test fails on its own)."""
    from costwidget.model.uncertainty.case_bands import case_band as band

    return band(*args, **kwargs)


def _population(seed, n=60, fee=False, weights=False, ties=True):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    y[:2] = [True, False]
    score = y * 0.8 + rng.normal(size=n)
    if ties:
        score = np.round(score, 1)  # rounded: ties between cases
    cost_fn = np.round(rng.lognormal(3.0, 1.2, n), 2)
    costs = {"cost_fn": cost_fn, "cost_fp": np.full(n, 4.0)}
    if fee:  # a fee on every flagged case: positives whose loss is below it change side
        costs["cost_tp"] = np.full(n, 12.0)
        costs["cost_fp"] = np.full(n, 12.0)
        costs["cost_tn"] = np.round(rng.uniform(0, 2, n), 2)
    w = np.round(rng.uniform(0.5, 2.0, n), 2) if weights else None
    return y, score, costs, w


def _money_parts(y, cost, w, m_fn, m_fp, p_pos, prior):
    """Each case's weight, cost if flagged and if passed (the setting), from the definition."""
    n = len(y)
    w = np.ones(n) if w is None else np.asarray(w, float)
    if p_pos is not None:
        w = w * np.where(y, p_pos / prior, (1 - p_pos) / (1 - prior))
    tp, tn = cost.get("cost_tp", np.zeros(n)), cost.get("cost_tn", np.zeros(n))
    flag = np.where(y, tp, m_fp * cost["cost_fp"])
    keep = np.where(y, m_fn * cost["cost_fn"], tn)
    return w, flag, keep


def _totals(a, flag, keep):
    """(P, N, F, W): cost-weighted sides, floor and total weight."""
    gain = keep - flag
    return (
        float(np.sum(a * np.maximum(gain, 0))),
        float(np.sum(a * np.maximum(-gain, 0))),
        float(np.sum(a * np.minimum(flag, keep))),
        float(np.sum(a)),
    )


def _brute(y, score, cost, w, idx, x, m_fn=1.0, m_fp=1.0, p_pos=None, held=None):
    """V_b(x) of the replicate ``idx``: the cheapest threshold of its cases (or ``held``, one
    threshold per pcf), money with all four cells, mapped by the original's affine map."""
    w1 = np.ones(len(y)) if w is None else w
    prior = float(w1[y].sum() / w1.sum())
    a, flag, keep = _money_parts(y, cost, w, m_fn, m_fp, p_pos, prior)
    p, n, floor, total = _totals(a, flag, keep)
    ab, fb, kb, sb = a[idx], flag[idx], keep[idx], score[idx]
    floor_b, total_b = float(np.sum(ab * np.minimum(fb, kb))), float(np.sum(ab))
    ts = np.append(np.unique(sb), np.inf)
    pos_side = kb > fb
    out = []
    for j, xj in enumerate(x):
        alpha, beta = xj * (p + n) / p, (1 - xj) * (p + n) / n
        cands = ts if held is None else [held[j]]
        best = math.inf
        for t in cands:
            money = np.where(sb >= t, fb, kb)  # each case's money under the rule
            excess = ab * (money - np.minimum(fb, kb))
            err = alpha * excess[pos_side].sum() + beta * excess[~pos_side].sum()
            best = min(best, (floor_b + err) / total_b)
            if xj == p / (p + n):  # at the setting's own pcf it is the money, all four cells
                assert (floor_b + err) / total_b == pytest.approx(
                    np.sum(ab * money) / total_b, rel=1e-12, abs=1e-12
                )
        out.append((best - floor / total) * total / (p + n))
    return np.array(out)


def _draw(y, folds, n_boot, seed):
    """The stratified draws, written from the module's words: per stratum (class, or fold x 2
    + class), in increasing order, its cases in data order drawn with rng.integers."""
    rng = np.random.default_rng(seed)
    strata = y.astype(int) if folds is None else np.asarray(folds) * 2 + y
    out = []
    for _ in range(n_boot):
        parts = []
        for s in np.unique(strata):
            members = np.flatnonzero(strata == s)
            parts.append(members[rng.integers(0, len(members), len(members))])
        out.append(np.concatenate(parts))
    return out


def _quantiles(values, level):
    b = values.shape[0]
    k = max(math.ceil(b * (1 - level) / 2 - 1e-9), 1)
    s = np.sort(values, axis=0)
    return s[k - 1], s[b - k]


@pytest.mark.parametrize(
    "fee, weights, setting, ties",
    [
        (False, False, (1.0, 1.0, None), True),
        (False, True, (2.0, 0.5, 0.3), True),
        (True, False, (1.0, 1.0, None), True),
        (True, True, (0.7, 1.5, 0.4), True),
        (True, True, (1.0, 1.0, 0.6), False),
    ],
)
def test_every_replicate_and_the_band_equal_the_brute_force(fee, weights, setting, ties):
    y, score, cost, w = _population(1 + fee + 2 * weights, fee=fee, weights=weights, ties=ties)
    m_fn, m_fp, p_pos = setting
    clf = cw.Classifier.from_scores(y, score, sample_weight=w, **cost)
    if fee:  # the fee case has positives counted as negatives
        assert np.any(y & (m_fn * cost["cost_fn"] < cost["cost_tp"]))
    draws = _draw(y, None, 40, 5)
    x = np.linspace(0, 1, 9)
    ident = np.arange(len(y))
    band = case_band(
        clf,
        0.8,
        grid=x,
        draws=draws,
        cost_fn=m_fn,
        cost_fp=m_fp,
        p_pos=p_pos,
        interval="percentile",
    )
    basic = case_band(clf, 0.8, grid=x, draws=draws, cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos)
    reps = np.array([_brute(y, score, cost, w, d, x, m_fn, m_fp, p_pos) for d in draws])
    nec = _brute(y, score, cost, w, ident, x, m_fn, m_fp, p_pos)
    np.testing.assert_allclose(band["nec"], nec, rtol=1e-9, atol=1e-12)
    lo, hi = _quantiles(reps, 0.8)
    np.testing.assert_allclose(band["lower"], lo, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(band["upper"], hi, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(basic["lower"], 2 * nec - hi, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(basic["upper"], 2 * nec - lo, rtol=1e-9, atol=1e-12)
    # the money map: at the setting's own pcf, nec·scale + offset is the best money per case
    money = band.attrs["money"]
    twin_x0 = case_band(
        clf, 0.8, grid=[money["pcf"]], draws=draws, cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos
    )
    a, flag, keep = _money_parts(y, cost, w, m_fn, m_fp, p_pos, clf.case_costs.prior)
    ts = np.append(np.unique(score), np.inf)
    best = min(np.sum(a * np.where(score >= t, flag, keep)) / a.sum() for t in ts)
    assert twin_x0["nec"].iloc[0] * money["scale"] + money["offset"] == pytest.approx(best)


def test_the_public_band_draws_stratified_by_class_and_fold_from_random_state():
    y, score, cost, _ = _population(7, n=50)
    folds = np.arange(50) % 3
    clf = cw.Classifier.from_scores(y, score, folds=folds, **cost)
    x = np.array([0.1, 0.35, 0.6, 0.85])
    band = clf.band(0.9, grid=x, n_boot=60, random_state=11)
    draws = _draw(y, folds, 60, 11)
    reps = np.array([_brute(y, score, cost, None, d, x) for d in draws])
    nec = _brute(y, score, cost, None, np.arange(50), x)
    lo, hi = _quantiles(reps, 0.9)
    np.testing.assert_allclose(band["lower"], 2 * nec - hi, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(band["upper"], 2 * nec - lo, rtol=1e-9, atol=1e-12)
    # cached per setting: the same call reads the same replicates; another setting (a fee,
    # so that the multiplier moves cases across sides) must not read them
    again = clf.band(0.9, grid=x, n_boot=60, random_state=11)
    assert again.equals(band)
    y, score, cost, _ = _population(8, n=50, fee=True)
    clf = cw.Classifier.from_scores(y, score, folds=folds, **cost)
    draws = _draw(y, folds, 60, 11)
    for m_fn in (1.0, 0.4, 1.0):
        got = clf.band(0.9, grid=x, n_boot=60, random_state=11, cost_fn=m_fn)
        reps = np.array([_brute(y, score, cost, None, d, x, m_fn) for d in draws])
        nec = _brute(y, score, cost, None, np.arange(50), x, m_fn)
        lo, hi = _quantiles(reps, 0.9)
        np.testing.assert_allclose(got["upper"], 2 * nec - lo, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("fee", [False, True])
def test_held_thresholds_and_a_fixed_rule_equal_the_brute_force(fee):
    y, score, cost, w = _population(3, fee=fee, weights=True)
    clf = cw.Classifier.from_scores(y, score, sample_weight=w, **cost)
    draws = _draw(y, None, 30, 2)
    x = np.array([0.15, 0.4, 0.55, 0.8])  # inside (0, 1): one optimal threshold at each
    twin, _ = clf.case_costs.twin(clf)
    held = twin.best(x)["threshold"].to_numpy()
    band = case_band(clf, 0.8, grid=x, draws=draws, threshold="optimal")
    reps = np.array([_brute(y, score, cost, w, d, x, held=held) for d in draws])
    nec = _brute(y, score, cost, w, np.arange(len(y)), x)
    lo, hi = _quantiles(reps, 0.8)
    np.testing.assert_allclose(band["lower"], 2 * nec - hi, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(band["upper"], 2 * nec - lo, rtol=1e-9, atol=1e-12)
    t = float(np.median(score))
    fixed = case_band(clf, 0.8, grid=x, draws=draws, threshold=t)
    at_t = np.full(len(x), t)
    reps = np.array([_brute(y, score, cost, w, d, x, held=at_t) for d in draws])
    lo, hi = _quantiles(reps, 0.8)
    line = _brute(y, score, cost, w, np.arange(len(y)), x, held=at_t)
    np.testing.assert_allclose(fixed["nec"], line, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fixed["lower"], lo, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fixed["upper"], hi, rtol=1e-9, atol=1e-12)
    assert fixed.attrs["interval"] == "percentile" and fixed.attrs["method"] == "bootstrap"


def test_the_levels_are_said_truthfully_never_the_per_class_figures():
    from costwidget.model.uncertainty.coverage import CASE_ENVELOPE_COVERAGE

    y, score, cost, _ = _population(4, n=200)
    clf = cw.Classifier.from_scores(y, score, **cost)
    held = clf.band(0.9, n_boot=50, grid=5, random_state=0, threshold="optimal")
    assert held.attrs["coverage"] == "nominal 90 %; coverage not measured"
    other = clf.band(0.8, n_boot=50, grid=5, random_state=0)
    assert other.attrs["coverage"] == "nominal 80 %; coverage not measured"
    env = clf.band(0.9, n_boot=50, grid=5, random_state=0)
    words = env.attrs["coverage"]
    assert env.attrs["label"] == f"pointwise band, {words}"
    rows = CASE_ENVELOPE_COVERAGE.get(0.9)
    if not rows:
        assert words == "nominal 90 %; coverage not measured"
    else:
        cases, lo, hi = min(rows, key=lambda r: abs(np.log(r[0] / 200)))
        assert words == (
            f"nominal 90 %; covers {math.floor(100 * lo + 1e-9)}–{round(100 * hi)} % of the "
            f"best money per case at n = {cases} (simulated)"
        )


def test_refusals_say_why_and_what_to_use():
    y, score, cost, _ = _population(5)
    clf = cw.Classifier.from_scores(y, score, **cost)
    for method in ("score", "exact"):
        with pytest.raises(ValueError, match="sum of the cases' amounts.*method='bootstrap'"):
            clf.band(0.9, threshold=0.2, method=method, n_boot=10)
    plain = cw.Classifier.from_scores(y, score)
    with pytest.raises(ValueError, match="for classifiers with per-case costs"):
        plain.band(0.9, n_boot=10, cost_fn=2.0)
    with pytest.raises(ValueError, match="p_pos"):
        clf.band(0.9, n_boot=10, p_pos=1.5)


def test_costs_summed_by_an_engine_are_refused_naming_from_frame():
    duckdb = pytest.importorskip("duckdb")
    import pandas as pd

    y, score, cost, _ = _population(6)
    df = pd.DataFrame({"model": "a", "label": y, "score": score, "Amount": cost["cost_fn"]})
    con = duckdb.connect()
    clf = cw.from_duckdb(con.from_df(df), cost_fn="Amount", cost_fp=4.0)["a"]
    with pytest.raises(ValueError, match=r"summed in a database.*from_frame"):
        clf.band(0.9, n_boot=10)


@pytest.mark.slow
def test_the_coverage_benchmark_runs_and_its_truth_holds_on_many_cases():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "coverage_case_band.py"
    spec = importlib.util.spec_from_file_location(path.stem, path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for variant in ("plain", "fee"):
        # the closed form's best money per case against the cheapest threshold of 2·10^5
        # drawn cases (heavy-tailed amounts: a loose tolerance)
        truth = bench.true_best(1.2, variant)
        assert bench.check_truth(1.2, variant, n=200_000) == pytest.approx(truth, rel=0.03)
        c = bench.coverage(40, 1.2, variant, samples=2, level=0.9, n_boot=20, seed=0)
        assert 0.0 <= c <= 1.0
