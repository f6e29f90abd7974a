"""The fast stratified-bootstrap sampler draws exactly the multinomial law; bins and caches.

The sampler (Poisson draws per unit from inversion tables or numpy, a redraw
when a stratum's total overshoots, uniform picks for the rest) is checked
against the multinomial pmf computed by scipy, on every path: table units,
units split into table pieces, numpy-Poisson units, the redraw, the lookup
and binary-search picks, and a bit generator without 64-bit raw output.
"""

import gc
import threading
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import costwidget as cw
from costwidget.model.resampling import bootstrap_counts, resample
from costwidget.model.uncertainty import bands, paired

# One stratum of 1000 instances: units of 1 and 3 (tables), 40 and 56 (table pieces), 900 (numpy).
SIZES = np.array([1, 3, 40, 56, 900])


def _chi2_pvalue_two_units(counts, n, p, i, j):
    """Goodness of fit of the joint law of units i and j to Multinomial(n, (p_i, p_j, rest))."""
    pair, observed = np.unique(counts[:, [i, j]], axis=0, return_counts=True)
    expected = stats.multinomial.pmf(
        np.column_stack([pair, n - pair.sum(1)]), n, [p[i], p[j], 1 - p[i] - p[j]]
    ) * len(counts)
    keep = expected >= 5  # pool the sparse tail into one cell
    obs = np.r_[observed[keep], len(counts) - observed[keep].sum()]
    exp = np.r_[expected[keep], len(counts) - expected[keep].sum()]
    return stats.chisquare(obs, exp, ddof=0).pvalue


def _draw(n_boot, seed, rng_cls=np.random.PCG64):
    cell = np.repeat(np.arange(len(SIZES)), SIZES)
    return bootstrap_counts.stratified_counts(
        cell, np.zeros(len(cell), int), len(SIZES), n_boot, np.random.Generator(rng_cls(seed))
    )


@pytest.mark.parametrize("pair", [(0, 1), (1, 2), (2, 4), (3, 4)])
def test_counts_follow_the_multinomial_law(pair):
    counts = _draw(20000, 1)
    n = SIZES.sum()
    assert (counts.sum(1) == n).all()
    assert _chi2_pvalue_two_units(counts, n, SIZES / n, *pair) > 1e-3


def test_redraw_path_keeps_the_law(monkeypatch):
    # With no margin about half the replicates overshoot and are drawn again.
    monkeypatch.setattr(bootstrap_counts, "MARGIN_SD", 0.0)
    counts = _draw(6000, 2)
    n = SIZES.sum()
    assert (counts.sum(1) == n).all()
    for pair in [(0, 2), (2, 4)]:
        assert _chi2_pvalue_two_units(counts, n, SIZES / n, *pair) > 1e-3


def test_generator_without_raw_64_bit_output_and_binary_search_picks(monkeypatch):
    counts = _draw(20000, 3, np.random.MT19937)
    n = SIZES.sum()
    assert _chi2_pvalue_two_units(counts, n, SIZES / n, 1, 2) > 1e-3
    # Picks by binary search in the cumulative counts give the same draws as the lookup table.
    lookup = _draw(300, 4)
    monkeypatch.setattr(bootstrap_counts, "_LOOKUP_MAX", 0)
    assert np.array_equal(lookup, _draw(300, 4))


def test_strata_and_groupings():
    rng = np.random.default_rng(5)
    stratum = rng.integers(0, 5, 3000)
    cell = rng.integers(0, 40, 3000)
    key_a, key_b = np.arange(40) % 7, np.arange(40) // 5
    ga, gb = bootstrap_counts.stratified_sums(
        cell, stratum, [(key_a, 7), (key_b, 8)], 50, np.random.default_rng(0)
    )
    assert ga.sum(1).tolist() == [3000] * 50 and gb.sum(1).tolist() == [3000] * 50
    # Each stratum keeps its size: count per stratum through a grouping keyed by stratum.
    (per,) = bootstrap_counts.stratified_sums(
        stratum * 40 + cell, stratum, [(np.arange(200) // 40, 5)], 50, np.random.default_rng(0)
    )
    assert (per == np.bincount(stratum, minlength=5)).all()
    # The two groupings come from the same draws: summed per cell they must agree.
    (full,) = bootstrap_counts.stratified_sums(
        cell, stratum, [(np.arange(40), 40)], 50, np.random.default_rng(0)
    )
    assert np.array_equal(ga, np.stack([full[:, key_a == k].sum(1) for k in range(7)], 1))
    assert np.array_equal(gb, np.stack([full[:, key_b == k].sum(1) for k in range(8)], 1))


def test_poisson_tables_match_scipy():
    lam = np.array([0.01, 0.5, 0.98, 3.7, 15.9, 47.2, 127.9])
    cdf = bootstrap_counts._poisson_cdfs(lam)
    ref = stats.poisson.cdf(np.arange(cdf.shape[1])[None, :], lam[:, None])
    np.testing.assert_allclose(cdf, ref, atol=1e-15)
    table = bootstrap_counts._inversion_table(cdf).reshape(len(lam), -1)
    slices = np.arange(table.shape[1]) / table.shape[1]
    for row, t in zip(cdf, table):
        lo = np.searchsorted(row, slices, side="right")
        hi = np.searchsorted(row, slices + 1 / table.shape[1], side="left")
        assert ((t == lo) | (t == -1)).all() and (t[lo != hi] == -1).all()


# ---------------------------------------------------------------------- bins
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_merged_one_class_runs_lose_nothing(data):
    # Exact path: runs of one class are merged; the envelope must equal brute force.
    k = data.draw(st.integers(1, 40))
    pos = np.array(data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k)))
    neg = np.array(data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k)))
    if pos.sum() == 0 or neg.sum() == 0:
        return
    bins = resample.bins_from_counts(np.arange(k, 0, -1) / 10.0, pos, neg)
    tp = np.bincount(bins.bin_of, weights=pos, minlength=bins.n_bins)[None, :].astype(int)
    fp = np.bincount(bins.bin_of, weights=neg, minlength=bins.n_bins)[None, :].astype(int)
    x = np.linspace(0, 1, 41)
    env = resample.envelope_values(tp, fp, pos.sum(), neg.sum(), x)[0]
    ctp, cfp = np.r_[0, np.cumsum(pos)], np.r_[0, np.cumsum(neg)]
    brute = (x * (pos.sum() - ctp[:, None]) / pos.sum() + (1 - x) * cfp[:, None] / neg.sum()).min(0)
    np.testing.assert_allclose(env, brute, atol=1e-12)
    assert resample.coarsening_bound(tp, fp, bins.multi, pos.sum(), neg.sum()) == 0.0


def test_greedy_bins_keep_the_replicates_loss_below_target():
    rng = np.random.default_rng(8)
    y = rng.random(60000) < 0.3
    s = rng.normal(y * 1.0, 1.0)
    keep = np.sort(s)[[1000, 30000]]
    bins = resample.score_bins(s, y, keep_thresholds=keep, per_class=4096, max_loss=0.002)
    assert 50 < bins.n_bins < 1000
    assert set(keep) <= set(bins.thresholds)  # kept thresholds are bin edges
    counts = bootstrap_counts.stratified_counts(
        bins.bin_of * 2 + y, y.astype(int), 2 * bins.n_bins, 500, np.random.default_rng(1)
    )
    bound = resample.coarsening_bound(
        counts[:, 1::2], counts[:, 0::2], bins.multi, y.sum(), (~y).sum()
    )
    assert 0.0005 < bound <= 0.002


# ---------------------------------------------------------------------- caches
def _pair(seed, n=300):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    common = rng.normal(size=n)
    return (
        cw.Classifier.from_scores(y, y + common + rng.normal(size=n)),
        cw.Classifier.from_scores(y, 1.2 * y + common + rng.normal(size=n)),
        y,
    )


def test_difference_cache_neither_keeps_b_alive_nor_answers_for_another():
    a, b, y = _pair(0)
    first = cw.difference_band(a, b, n_boot=50, grid=9, random_state=0)
    ref = weakref.ref(b)
    del b
    gc.collect()
    assert ref() is None  # the cache on a held b only weakly
    other = cw.Classifier.from_scores(y, np.random.default_rng(9).normal(size=len(y)))
    again = cw.difference_band(a, other, n_boot=50, grid=9, random_state=0)
    assert not again.equals(first)
    # The entry of the dead b is gone, so no later object can be served it.
    keys = list(a._band_cache._store)
    assert all(k[1]() is not None for k in keys if k[0] == "difference")


def test_one_band_computed_once_for_two_threads(monkeypatch):
    a, _, _ = _pair(1)
    calls = []
    make = bands.envelope_replicates

    def counted(*args):
        calls.append(1)
        return make(*args)

    monkeypatch.setattr(bands, "envelope_replicates", counted)
    out = [None, None]

    def run(i):
        out[i] = a.band(0.9, n_boot=300, grid=65, random_state=5)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and out[0].equals(out[1])


def test_paired_bound_and_speed_settings_are_consistent():
    assert paired.PAIRED_MAX_LOSS <= 0.002 and bands.ENVELOPE_MAX_LOSS <= 0.002


def _greedy_by_hand(ends, forced, pos, neg, max_loss, z):
    """The greedy merge one pre-bin at a time (the definition), for comparison."""
    n_pos, n_neg = pos.sum(), neg.sum()
    a_of = np.diff(np.r_[0, np.cumsum(pos)[ends]])
    b_of = np.diff(np.r_[0, np.cumsum(neg)[ends]])

    def h_ok(a, b):
        u = (a + z * np.sqrt(a) + z * z / 2) / n_pos if a else 0.0
        v = (b + z * np.sqrt(b) + z * z / 2) / n_neg if b else 0.0
        return u * v <= max_loss * (u + v)

    out, a, b = [], 0, 0
    for i, end in enumerate(ends):
        if (a or b) and not h_ok(a + a_of[i], b + b_of[i]):
            out.append(ends[i - 1])
            a, b = 0, 0
        a, b = a + a_of[i], b + b_of[i]
        if end in forced or i == len(ends) - 1:
            out.append(end)
            a, b = 0, 0
    return np.array(out)


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(), max_loss=st.sampled_from([0.0, 0.01, 0.05, 0.2]), z=st.sampled_from([0.0, 5.0])
)
def test_vectorized_merge_is_the_greedy_merge(data, max_loss, z):
    k = data.draw(st.integers(1, 60))
    pos = np.array(data.draw(st.lists(st.integers(0, 4), min_size=k, max_size=k)))
    neg = np.array(data.draw(st.lists(st.integers(0, 4), min_size=k, max_size=k)))
    if pos.sum() == 0 or neg.sum() == 0:
        return
    ends = np.unique(np.r_[data.draw(st.lists(st.integers(0, k - 1), max_size=k)), k - 1]).astype(
        int
    )
    forced = np.array(data.draw(st.lists(st.sampled_from(ends.tolist()), max_size=3)), dtype=int)
    got = resample._merge_ends(ends, forced, pos, neg, pos.sum(), neg.sum(), max_loss, z)
    np.testing.assert_array_equal(got, _greedy_by_hand(ends, forced, pos, neg, max_loss, z))


def test_classifier_with_cached_bands_pickles_and_copies():
    import copy
    import pickle

    a, b, _ = _pair(2)
    band = a.band(0.9, n_boot=40, grid=9, random_state=1)
    cw.difference_band(a, b, n_boot=40, grid=9, random_state=1)
    for clone in (pickle.loads(pickle.dumps(a)), copy.deepcopy(a)):
        assert clone.band(0.9, n_boot=40, grid=9, random_state=1).equals(band)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), n_boot=st.integers(1, 5), m=st.integers(1, 12))
def test_envelopes_with_empty_bins_are_the_minimum_over_all_cost_lines(data, n_boot, m):
    # Empty bins repeat ROC points (runs of equal points, also at either end of a row).
    cells = st.lists(st.integers(0, 2), min_size=n_boot * m, max_size=n_boot * m)
    tpb = np.array(data.draw(cells)).reshape(n_boot, m)
    fpb = np.array(data.draw(cells)).reshape(n_boot, m)
    tpb[:, 0] += 1  # every replicate needs both classes
    fpb[:, -1] += 1
    p, n = tpb.sum(1), fpb.sum(1)
    x = np.linspace(0, 1, 23)
    env = resample.envelope_values(tpb, fpb, p, n, x)
    tp = np.concatenate([np.zeros((n_boot, 1)), np.cumsum(tpb, 1)], 1)
    fp = np.concatenate([np.zeros((n_boot, 1)), np.cumsum(fpb, 1)], 1)
    brute = (
        x * (p[:, None, None] - tp[:, :, None]) / p[:, None, None]
        + (1 - x) * fp[:, :, None] / n[:, None, None]
    ).min(axis=1)
    np.testing.assert_allclose(env, brute, atol=1e-12)
