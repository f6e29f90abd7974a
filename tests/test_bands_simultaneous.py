"""Simultaneous difference bands: family-wise false alarms, power, the sup-t construction; and
which single-classifier band covers the true cost curve.

Rates from simulations are judged with exact binomial tail probabilities
(scipy.stats.binom), never with a fudge factor: "the rate is at most p" is
rejected only if seeing this many hits or more would have probability below
1e-3 under p.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pairs import correlated_pair
from scipy import optimize, stats

import costwidget as cw
from costwidget.model.uncertainty.paired import (
    max_deviations,
    significant_intervals,
    simultaneous_limits,
)

ALPHA = 1e-3


def rate_at_most(hits, n, p):
    """False only if P(X >= hits) < ALPHA for X ~ Bin(n, p): the rate is then above p."""
    return stats.binom.sf(hits - 1, n, p) >= ALPHA


def rate_at_least(hits, n, p):
    """False only if P(X <= hits) < ALPHA for X ~ Bin(n, p)."""
    return stats.binom.cdf(hits, n, p) >= ALPHA


@pytest.mark.slow  # a coverage simulation
def test_no_true_difference_flags_some_pcf_at_most_ten_percent_of_the_time():
    """Same true costs, correlated scores: the 90 % simultaneous band excludes 0 somewhere in
    at most 10 % of samples (seeded: 28/300); the pointwise band, read the same way, does not
    hold that (seeded: 105/300)."""
    rng = np.random.default_rng(2024)
    n_sim, simultaneous, pointwise = 300, 0, 0
    for k in range(n_sim):
        a, b = correlated_pair(rng, 60, 90, shift_a=1.0, shift_b=1.0, rho=0.6)
        sim = cw.difference_band(a, b, 0.9, n_boot=200, grid=51, random_state=k)
        pw = cw.difference_band(a, b, 0.9, n_boot=200, grid=51, random_state=k, simultaneous=False)
        simultaneous += bool(sim.significant.any())
        pointwise += bool(pw.significant.any())
    assert rate_at_most(simultaneous, n_sim, 0.10), simultaneous
    # The same check can fail: it rejects the pointwise band.
    assert not rate_at_most(pointwise, n_sim, 0.10), pointwise


@pytest.mark.slow  # a coverage simulation
def test_true_difference_is_found():
    """B's scores separate the classes better: flagged somewhere in most samples, and only
    where B costs less (seeded: 60/60, none of the wrong sign)."""
    rng = np.random.default_rng(11)
    n_sim, found, wrong_sign = 60, 0, 0
    for k in range(n_sim):
        a, b = correlated_pair(rng, 150, 150, shift_a=0.8, shift_b=1.5, rho=0.7)
        iv = significant_intervals(
            cw.difference_band(a, b, 0.9, n_boot=200, grid=51, random_state=k)
        )
        found += len(iv) > 0
        wrong_sign += bool((iv.sign < 0).any())
    assert rate_at_least(found, n_sim, 0.8), found
    assert rate_at_most(wrong_sign, n_sim, 0.05), wrong_sign


@settings(max_examples=80, deadline=None)
@given(
    b=st.integers(1, 60),
    g=st.integers(1, 8),
    level=st.sampled_from([0.5, 0.8, 0.9, 0.95]),
    seed=st.integers(0, 10**6),
    dead=st.booleans(),
)
def test_sup_t_band_is_the_narrowest_holding_level_of_the_replicates(b, g, level, seed, dead):
    rng = np.random.default_rng(seed)
    reps = np.round(rng.normal(size=(b, g)) * rng.uniform(0.1, 2, g), 2)
    if dead:
        reps[:, 0] = 0.25  # a grid point without spread
    centre = np.round(rng.normal(size=g) * 0.1, 2)
    if dead:
        centre[0] = 0.25
    sd, m = max_deviations(reps, centre)
    lower, upper, c = simultaneous_limits(centre, sd, m, np.sort(reps, axis=0), level)
    live = sd > 1e-12

    # Brute force: for every candidate c, the replicates inside centre ± c·sd at all live points.
    def inside(cc):
        return ((np.abs(reps[:, live] - centre[live]) <= cc * sd[live] + 1e-12).all(1)).mean()

    # The band's edge passes through a replicate (or c = 0): try each replicate's max deviation.
    devs = np.abs(reps[:, live] - centre[live]) / sd[live] if live.any() else np.zeros((b, 1))
    candidates = np.unique(np.r_[0.0, devs.max(1)])
    smallest = min(cc for cc in candidates if inside(cc) >= level - 1e-12)
    assert c == pytest.approx(smallest)
    assert inside(c) >= level - 1e-12
    np.testing.assert_allclose(lower[live], centre[live] - c * sd[live])
    if dead:
        assert lower[0] == upper[0] == 0.25


def test_no_spread_anywhere_constant_difference():
    # a flags every case, b none: NEC_a − NEC_b = 1 − 2·pcf in every replicate.
    rng = np.random.default_rng(1)
    a, b = correlated_pair(rng, 30, 40, shift_a=1, shift_b=1, rho=0.5)
    band = cw.difference_band(
        a, b, threshold_a=-100.0, threshold_b=100.0, n_boot=50, grid=5, random_state=0
    )
    np.testing.assert_allclose(
        band[["diff", "lower", "upper"]].to_numpy(),
        np.repeat([[1.0], [0.5], [0.0], [-0.5], [-1.0]], 3, axis=1),
    )
    assert band.significant.tolist() == [True, True, False, True, True]
    assert band.attrs["critical_value"] == 0.0


def test_envelope_difference_ends_have_no_spread_and_are_not_significant():
    rng = np.random.default_rng(4)
    a, b = correlated_pair(rng, 200, 200, shift_a=0.5, shift_b=2.0, rho=0.7)
    band = cw.difference_band(a, b, n_boot=200, grid=101, random_state=0)
    ends = band.iloc[[0, -1]]
    assert (ends[["diff", "lower", "upper"]].to_numpy() == 0).all() and not ends.significant.any()
    assert band.significant.iloc[40:60].all()  # a large true difference in the middle
    assert band.attrs["kind"] == "simultaneous" and band.attrs["simultaneous"] is True
    assert band.attrs["label"] == "simultaneous 90 % band" and band.attrs["critical_value"] > 2
    pointwise = cw.difference_band(a, b, n_boot=200, grid=101, random_state=0, simultaneous=False)
    assert pointwise.attrs["kind"] == "pointwise" and pointwise.attrs["critical_value"] is None
    assert pointwise.attrs["label"] == "pointwise 90 % band"
    # Same replicates, wider band: the simultaneous one is at least as wide where there is spread.
    inner = band.iloc[5:-5]
    assert ((inner.upper - inner.lower) >= (pointwise.upper - pointwise.lower).iloc[5:-5]).all()
    with pytest.raises(TypeError, match="simultaneous"):
        cw.difference_band(a, b, simultaneous="yes")


# ---------------------------------------------------------------------- single classifier
def _true_best_cost(x, d):
    """Lowest NEC at pcf x over all thresholds of binormal scores N(d, 1) vs N(0, 1)."""

    def cost(t):
        return x * stats.norm.cdf(t - d) + (1 - x) * stats.norm.sf(t)

    best = optimize.minimize_scalar(cost, bounds=(-8, 8), method="bounded").fun
    return min(best, x, 1 - x)


@pytest.mark.slow  # a coverage simulation
def test_basic_envelope_band_covers_the_true_best_cost():
    """90 % bands at pcf 0.5 (seeded, 250 samples of 160 + 240 cases): the basic envelope
    band covers the true best cost 214 times, the percentile one 183 times."""
    d, x, n_sim = 1.2, np.array([0.5]), 250
    truth = _true_best_cost(0.5, d)
    rng = np.random.default_rng(7)
    basic = percentile = 0
    for k in range(n_sim):
        y = np.r_[np.ones(160, bool), np.zeros(240, bool)]
        clf = cw.Classifier.from_scores(y, np.r_[rng.normal(d, 1, 160), rng.normal(0, 1, 240)])
        b = clf.band(0.9, n_boot=200, grid=x, random_state=k, interval="basic")
        p = clf.band(0.9, n_boot=200, grid=x, random_state=k, interval="percentile")
        basic += bool((b.lower[0] <= truth) & (truth <= b.upper[0]))
        percentile += bool((p.lower[0] <= truth) & (truth <= p.upper[0]))
    assert rate_at_least(basic, n_sim, 0.80), basic
    assert basic > percentile, (basic, percentile)
    assert b.attrs["interval"] == "basic" and b.attrs["threshold"] == "envelope"


def test_basic_interval_reflects_and_clips():
    # A fixed rule's band is the paper's percentile band whatever interval= says (see
    # test_bands.py: reflected, it covers a binomial rate too rarely).
    clf = cw.Classifier.from_confusion(tp=16, fn=4, fp=4, tn=6)
    p = clf.band(0.9, grid=5, interval="percentile")
    b = clf.band(0.9, grid=5, interval="basic")
    np.testing.assert_array_equal(b.to_numpy(), p.to_numpy())
    y = np.r_[np.ones(30, bool), np.zeros(30, bool)]
    scored = cw.Classifier.from_scores(y, np.random.default_rng(0).normal(y * 1.0, 1))
    env = scored.band(0.9, n_boot=100, grid=21, random_state=0, interval="basic")
    pct = scored.band(0.9, n_boot=100, grid=21, random_state=0, interval="percentile")
    cap = np.minimum(env.pcf, 1 - env.pcf)
    np.testing.assert_allclose(env.lower, np.clip(2 * pct.nec - pct.upper, 0, cap))
    np.testing.assert_allclose(env.upper, np.clip(2 * pct.nec - pct.lower, 0, cap))
    assert (env.lower >= 0).all() and (env.upper <= cap + 1e-15).all()
    with pytest.raises(ValueError, match="interval"):
        clf.band(interval="bca")
