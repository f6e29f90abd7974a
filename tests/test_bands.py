"""Confidence bands: exact vs brute-force enumeration, engine vs brute force, coverage, errors."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import roc_curve

import costwidget as cw
from costwidget.model.resampling import resample
from costwidget.model.resampling.exact_band import exact_fixed_band


def brute_band(n_pos, n_neg, tp, fp, x, level):
    """Enumerate every (FN, FP) pair with its probability; percentile limits per pcf."""
    alpha = (1 - level) / 2
    i, j = np.arange(n_pos + 1), np.arange(n_neg + 1)
    pi = stats.binom.pmf(i, n_pos, (n_pos - tp) / n_pos)
    pj = stats.binom.pmf(j, n_neg, fp / n_neg)
    mass = (pi[:, None] * pj[None, :]).ravel()
    lo, hi = [], []
    for xx in x:
        v = (xx / n_pos * i[:, None] + (1 - xx) / n_neg * j[None, :]).ravel()
        o = np.argsort(v, kind="stable")
        vs, ms = v[o], mass[o]
        lo.append(vs[np.argmax(np.cumsum(ms) >= alpha - 1e-12)])
        hi.append(vs[::-1][np.argmax(np.cumsum(ms[::-1]) >= alpha - 1e-12)])
    return np.array(lo), np.array(hi)


@settings(max_examples=150, deadline=None)
@given(
    n_pos=st.integers(1, 30),
    n_neg=st.integers(1, 30),
    data=st.data(),
    level=st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]),
)
def test_exact_band_matches_enumeration(n_pos, n_neg, data, level):
    tp = data.draw(st.integers(0, n_pos))
    fp = data.draw(st.integers(0, n_neg))
    x = np.linspace(0, 1, 17)
    lower, upper = exact_fixed_band(n_pos, n_neg, tp, fp, x, level)
    b_lo, b_hi = brute_band(n_pos, n_neg, tp, fp, x, level)
    np.testing.assert_allclose(lower, b_lo, atol=1e-12)
    np.testing.assert_allclose(upper, b_hi, atol=1e-12)


def test_exact_band_large_support_matches_monte_carlo():
    clf = cw.Classifier.from_confusion(tp=800, fn=200, fp=300, tn=700)
    exact = clf.band(0.9, grid=33, method="exact")
    mc = clf.band(0.9, grid=33, method="bootstrap", n_boot=20000, random_state=3)
    # Monte Carlo percentiles of 20000 draws: within ~ a few thousandths of the exact ones.
    np.testing.assert_allclose(mc.lower, exact.lower, atol=0.004)
    np.testing.assert_allclose(mc.upper, exact.upper, atol=0.004)
    assert (exact.lower <= exact.nec).all() and (exact.nec <= exact.upper).all()


def test_paper_figure_11_example():
    # Drummond & Holte (2004), fig. 11: 20 positives (16 right), 10 negatives (4 wrong).
    from costwidget.model.resampling.exact_band import exact_fixed_band

    clf = cw.Classifier.from_confusion(tp=16, fn=4, fp=4, tn=6)
    x = np.array([0.0, 0.5, 1.0])
    lo, hi = brute_band(20, 10, 16, 4, x, 0.9)
    # The paper's band, of the matrix's line (NEC 0.4, 0.3, 0.2):
    lower, upper = exact_fixed_band(20, 10, 16, 4, x, 0.9)
    np.testing.assert_allclose(lower, lo)
    np.testing.assert_allclose(upper, hi)
    # clf.band() is its cost curve's, the envelope min(line, x, 1 - x) (issue 31): the paper's
    # band capped by the trivial classifiers, which do not vary (0 at both ends here).
    band = clf.band(0.9, grid=3, interval="percentile", method="exact")
    c = np.minimum(x, 1.0 - x)
    np.testing.assert_allclose(band.nec, np.minimum([0.4, 0.3, 0.2], c))
    np.testing.assert_allclose(band.lower, np.minimum(lo, c))
    np.testing.assert_allclose(band.upper, np.minimum(hi, c))


def _random_scores(seed, n=400, ties=2):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(y * 1.2, 1.0), ties)
    return y, s


@pytest.mark.parametrize("seed", range(4))
def test_envelope_values_match_min_over_all_cost_lines(seed):
    y, s = _random_scores(seed)
    bins = (
        resample.score_bins(s, y)
        if seed % 2
        else resample.score_bins(s, y, max_exact=10, per_class=15)
    )
    rng = np.random.default_rng(seed)
    counts = resample.stratified_counts(
        bins.bin_of * 2 + y, y.astype(int), 2 * bins.n_bins, 30, rng
    )
    tpb, fpb = counts[:, 1::2], counts[:, 0::2]
    p, n = y.sum(), (~y).sum()
    x = np.linspace(0, 1, 101)
    env = resample.envelope_values(tpb, fpb, p, n, x)
    tp = np.concatenate([np.zeros((30, 1)), np.cumsum(tpb, 1)], 1)
    fp = np.concatenate([np.zeros((30, 1)), np.cumsum(fpb, 1)], 1)
    brute = (x * (p - tp[:, :, None]) / p + (1 - x) * fp[:, :, None] / n).min(axis=1)
    np.testing.assert_allclose(env, brute, atol=1e-12)
    assert (tpb.sum(1) == p).all() and (fpb.sum(1) == n).all()  # stratified: class totals fixed


@pytest.mark.parametrize("seed", range(3))
def test_coarsening_error_within_its_bound(seed):
    # On the original counts (no resampling), binned envelope vs the exact one.
    y, s = _random_scores(seed, n=3000, ties=6)
    clf = cw.Classifier.from_scores(y, s)
    bins = resample.score_bins(s, y, max_exact=50, per_class=40)
    assert bins.multi.any()
    tpb = np.bincount(bins.bin_of[y], minlength=bins.n_bins)[None, :]
    fpb = np.bincount(bins.bin_of[~y], minlength=bins.n_bins)[None, :]
    x = np.linspace(0, 1, 257)
    coarse = resample.envelope_values(tpb, fpb, y.sum(), (~y).sum(), x)[0]
    bound = resample.coarsening_bound(tpb, fpb, bins.multi, y.sum(), (~y).sum())
    err = coarse - clf.nec(x)
    assert err.min() >= -1e-12
    assert err.max() <= bound + 1e-12
    assert 0 < bound < 0.02


def naive_envelope_band(y, s, x, level, n_boot, seed):
    """pROC-style: resample indices per class, recompute the ROC with sklearn, min over lines."""
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    out = []
    for _ in range(n_boot):
        idx = np.concatenate([rng.choice(pos, len(pos)), rng.choice(neg, len(neg))])
        fpr, tpr, _ = roc_curve(y[idx], s[idx], drop_intermediate=False)
        out.append((x[None, :] * (1 - tpr[:, None]) + (1 - x[None, :]) * fpr[:, None]).min(0))
    out = np.sort(np.array(out), axis=0)
    k = int(np.ceil(n_boot * (1 - level) / 2))
    return out[k - 1], out[n_boot - k]


@pytest.mark.slow  # 3,000 replicates resampled naively
def test_envelope_band_agrees_with_naive_resampling():
    y, s = _random_scores(7, n=300)
    clf = cw.Classifier.from_scores(y, s)
    x = np.linspace(0, 1, 21)
    band = clf.band(0.9, grid=x, n_boot=3000, random_state=1, interval="percentile")
    lo, hi = naive_envelope_band(y, s, x, 0.9, 3000, 2)
    np.testing.assert_allclose(band.lower, lo, atol=0.012)
    np.testing.assert_allclose(band.upper, hi, atol=0.012)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    centre = (x[None, :] * (1 - tpr[:, None]) + (1 - x[None, :]) * fpr[:, None]).min(0)
    np.testing.assert_allclose(band.nec, centre, atol=1e-15)


def test_optimal_threshold_band_is_fixed_confusion_band():
    # Where one hull vertex is optimal, "optimal held fixed" is that confusion matrix's band.
    y, s = _random_scores(11, n=300)
    clf = cw.Classifier.from_scores(y, s)
    x = np.array([0.3, 0.5, 0.7])
    opt = clf.band(0.9, threshold="optimal", grid=x, n_boot=20000, random_state=0)
    for i, xx in enumerate(x):
        th = clf.best(xx).threshold
        exact = clf.band(0.9, threshold=th, grid=[xx])
        assert abs(opt.lower[i] - exact.lower[0]) < 0.01
        assert abs(opt.upper[i] - exact.upper[0]) < 0.01


def test_same_seed_same_band_and_level_reuses_replicates():
    y, s = _random_scores(5)
    a = cw.Classifier.from_scores(y, s)
    b = cw.Classifier.from_scores(y, s)
    band_a = a.band(0.9, n_boot=200, random_state=42)
    band_b = b.band(0.9, n_boot=200, random_state=42)
    assert band_a.equals(band_b)
    other = b.band(0.9, n_boot=200, random_state=43)
    assert not band_a.equals(other)
    wide = a.band(0.99, n_boot=200, random_state=42)
    assert (wide.lower <= band_a.lower).all() and (wide.upper >= band_a.upper).all()
    assert len(a._band_cache._store) == 1  # the level change reused the replicates


@pytest.mark.slow  # a coverage simulation
def test_fixed_band_coverage_binormal():
    """400 samples from a binormal population: the 90 % band covers the true NEC 85-95 %."""
    rng = np.random.default_rng(2024)
    t, n_pos, n_neg = 0.6, 120, 180
    true_tpr, true_fpr = stats.norm.sf(t - 1.2), stats.norm.sf(t)
    pcfs = np.array([0.2, 0.5, 0.8])
    true_nec = pcfs * (1 - true_tpr) + (1 - pcfs) * true_fpr
    covered = np.zeros(3)
    for _ in range(400):
        s = np.concatenate([rng.normal(1.2, 1, n_pos), rng.normal(0, 1, n_neg)])
        y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
        band = cw.Classifier.from_scores(y, s).band(0.9, threshold=t, grid=pcfs)
        covered += (band.lower <= true_nec) & (true_nec <= band.upper)
    rate = covered / 400
    assert ((rate >= 0.85) & (rate <= 0.95)).all(), rate


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1, "0.9", None])
def test_bad_level(level):
    clf = cw.Classifier.from_confusion(tp=5, fn=5, fp=2, tn=8)
    with pytest.raises(ValueError, match="level"):
        clf.band(level)


@pytest.mark.parametrize("n_boot", [0, -3, 2.5, True])
def test_bad_n_boot(n_boot):
    clf = cw.Classifier.from_scores([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.5])
    with pytest.raises(ValueError, match="n_boot"):
        clf.band(0.9, n_boot=n_boot)


def test_bad_method_combinations():
    clf = cw.Classifier.from_scores([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.5])
    with pytest.raises(ValueError, match="exact"):
        clf.band(method="exact")
    with pytest.raises(ValueError, match="method"):
        clf.band(method="normal")
    with pytest.raises(ValueError, match="threshold"):
        clf.band(threshold="best")
    weighted = cw.Classifier.from_scores(
        [0, 1, 0, 1], [0.1, 0.9, 0.3, 0.5], sample_weight=[1, 2, 1, 1]
    )
    with pytest.raises(ValueError, match="sample_weight"):
        weighted.band()


def test_rates_only_classifier_has_no_band():
    clf = cw.Classifier.from_roc([0.2], [0.7])
    with pytest.raises(ValueError, match="rates only"):
        clf.band()


def test_stratified_counts_keep_every_stratum_total():
    rng = np.random.default_rng(0)
    stratum = rng.integers(0, 6, 500)  # e.g. fold x class
    cell = stratum * 3 + rng.integers(0, 3, 500)  # each stratum has its own 3 cells
    counts = resample.stratified_counts(cell, stratum, 18, 50, rng)
    per_stratum = counts.reshape(50, 6, 3).sum(axis=2)
    np.testing.assert_array_equal(per_stratum, np.tile(np.bincount(stratum, minlength=6), (50, 1)))
    # Mean counts approach the observed cell counts (multinomial with those proportions).
    big = resample.stratified_counts(cell, stratum, 18, 20000, np.random.default_rng(1))
    np.testing.assert_allclose(big.mean(0), np.bincount(cell, minlength=18), atol=0.5)
    again = resample.stratified_counts(cell, stratum, 18, 20000, np.random.default_rng(1))
    assert np.array_equal(big, again)


def test_band_with_folds_is_reproducible_and_brackets_envelope():
    y, s = _random_scores(9, n=400)
    folds = np.arange(400) % 4
    clf = cw.Classifier.from_scores(y, s, folds=folds)
    band = clf.band(0.9, n_boot=300, grid=65, random_state=0)
    assert band.equals(
        cw.Classifier.from_scores(y, s, folds=folds).band(0.9, n_boot=300, grid=65, random_state=0)
    )
    inner = band.iloc[1:-1]
    assert (inner.lower <= inner.nec + 1e-12).all()


# ---------------------------------------------------------------------- a fixed rule's coverage
def _coverage_at_pcf_one(n_pos, fnr, level, **band_kw):
    """Exact coverage of the true NEC at PCF(+) = 1 (= FNR): every FN outcome, with its
    binomial probability, and whether the band drawn from it holds FNR. No simulation."""
    covered = 0.0
    for fn in range(n_pos + 1):
        # The rule "score >= 0.5" held fixed: the matrix (n_pos - fn, fn, 3, 7) as scores (a
        # from_confusion classifier's band is its envelope's since issue 31, which is 0 at
        # PCF(+) = 1: flagging every case costs nothing there).
        y = [1] * n_pos + [0] * 10
        s = [1] * (n_pos - fn) + [0] * fn + [1] * 3 + [0] * 7
        band = cw.Classifier.from_scores(y, s).band(level, threshold=0.5, grid=[1.0], **band_kw)
        if band.lower[0] <= fnr <= band.upper[0]:
            covered += stats.binom.pmf(fn, n_pos, fnr)
    return covered


@pytest.mark.parametrize(
    "n_pos, fnr", [(20, 0.12), (50, 0.06), (100, 0.03), (30, 0.2), (40, 0.5), (60, 0.1)]
)
@pytest.mark.parametrize("interval", ["basic", "percentile"])
@pytest.mark.slow  # coverage by exact enumeration of every outcome
@pytest.mark.parametrize("method, least", [("auto", 0.86), ("exact", 0.88)])
def test_a_fixed_rule_band_covers_its_rate_whatever_the_interval(
    n_pos, fnr, interval, method, least
):
    # A fixed rule's band is never the basic (reflected) interval, meant for the envelope: it
    # covered 0.685, 0.781 and 0.782 at the first three cases; the widget asks for "basic" for
    # every band. The default score interval (Wilson's at PCF(+) 1) covers 0.872 at worst
    # here, the paper's percentile band (method="exact") 0.88 (but 0.64 at inner PCF(+)).
    kw = {"interval": interval, "method": method}
    assert _coverage_at_pcf_one(n_pos, fnr, 0.9, **kw) >= least


@pytest.mark.slow  # coverage by exact enumeration of every outcome
def test_a_fixed_rule_band_covers_at_an_inner_pcf():
    # Both rows vary at PCF(+) = 0.5: every (FN, FP) outcome of 20 + 20 cases, enumerated.
    n_pos = n_neg = 20
    fnr, fpr, pcf = 0.15, 0.25, 0.5
    true_nec = pcf * fnr + (1 - pcf) * fpr
    covered = 0.0
    for fn in range(n_pos + 1):
        for fp in range(n_neg + 1):
            band = cw.Classifier.from_confusion(tp=n_pos - fn, fn=fn, fp=fp, tn=n_neg - fp).band(
                0.9, grid=[pcf]
            )
            if band.lower[0] <= true_nec + 1e-12 and true_nec - 1e-12 <= band.upper[0]:
                covered += stats.binom.pmf(fn, n_pos, fnr) * stats.binom.pmf(fp, n_neg, fpr)
    assert covered >= 0.88


def test_a_fixed_rule_band_is_the_binomial_quantiles():
    # The paper's band (method="exact").
    # At PCF(+) = 1 NEC = FN/P with FN ~ Bin(20, 1/20): the band is FN's 5 % and 95 % quantiles
    # over 20 (scipy.stats), whatever interval= says; the basic interval gave [0, 0.10].
    # The matrix (19, 1, 2, 18) as the rule "score >= 0.5" (a from_confusion classifier's band
    # is its envelope's since issue 31: at PCF(+) = 1 flagging every case costs 0, for sure).
    y = np.r_[np.ones(20, bool), np.zeros(20, bool)]
    s = np.r_[np.full(19, 0.9), 0.1, np.full(2, 0.9), np.full(18, 0.1)]
    clf = cw.Classifier.from_scores(y, s)
    expected = stats.binom.ppf([0.05, 0.95], 20, 1 / 20) / 20  # [0, 0.15]
    matrix = cw.Classifier.from_confusion(tp=19, fn=1, fp=2, tn=18).band(0.9, grid=[1.0])
    assert (matrix.nec[0], matrix.lower[0], matrix.upper[0]) == (0.0, 0.0, 0.0)
    for interval in ("basic", "percentile"):
        band = clf.band(0.9, threshold=0.5, grid=[1.0], interval=interval, method="exact")
        np.testing.assert_allclose([band.lower[0], band.upper[0]], expected, atol=1e-15)
        assert band.attrs["interval"] == "percentile"
    # Beside the Clopper-Pearson interval (scipy.stats.binomtest), which inverts the test
    # instead of resampling: [0.0026, 0.216], wider, as an interval guaranteeing coverage is.
    cp = stats.binomtest(1, 20).proportion_ci(0.9, method="exact")
    assert cp.low <= band.nec[0] <= cp.high
    assert band.upper[0] - band.lower[0] <= cp.high - cp.low
    # A scored classifier held at a threshold is a fixed rule too.
    y = np.r_[np.ones(20, bool), np.zeros(20, bool)]
    s = np.r_[np.full(19, 0.9), 0.1, np.full(2, 0.9), np.full(18, 0.1)]
    held = cw.Classifier.from_scores(y, s).band(0.9, threshold=0.5, grid=[1.0], method="exact")
    np.testing.assert_allclose([held.lower[0], held.upper[0]], expected, atol=1e-15)


# ------------------------------------------------------------------ the fixed rule's score band
def _scipy_limits(k, n, level):
    """Wilson limits (scipy), with Clopper-Pearson's at k = 0 (upper) and k = n (lower)."""
    if n == 0:
        return 0.0, 0.0
    w = stats.binomtest(k, n).proportion_ci(level, method="wilson")
    cp = stats.binomtest(k, n).proportion_ci(level, method="exact")
    return (cp.low if k == n else w.low), (cp.high if k == 0 else w.high)


def _mover(n_pos, n_neg, tp, fp, x, level):
    """MOVER for x·FNR + (1 − x)·FPR (Zou & Donner 2008), written out from scipy's limits."""
    fn = n_pos - tp
    p1, p2 = fn / n_pos, fp / n_neg
    (l1, u1), (l2, u2) = _scipy_limits(fn, n_pos, level), _scipy_limits(fp, n_neg, level)
    est = x * p1 + (1 - x) * p2
    lower = est - np.sqrt((x * (p1 - l1)) ** 2 + ((1 - x) * (p2 - l2)) ** 2)
    upper = est + np.sqrt((x * (u1 - p1)) ** 2 + ((1 - x) * (u2 - p2)) ** 2)
    return np.clip(lower, 0, est), np.clip(upper, est, 1)


@pytest.mark.parametrize(
    "n_pos, n_neg, tp, fp",
    [(20, 10, 16, 4), (10, 10, 10, 0), (10, 10, 0, 10), (25, 40, 20, 3), (7, 30, 5, 29)],
)
def test_a_fixed_rules_band_is_mover_with_wilson_limits(n_pos, n_neg, tp, fp):
    """Issue 43 item 6: ``band(threshold=t)`` and a ``from_confusion`` band are the MOVER
    interval with Wilson limits (Zou & Donner 2008), computed here from scipy's intervals;
    the old default was the bootstrap percentile band."""
    x = np.array([0.0, 0.2, 0.5, 0.8, 1.0])
    expected = np.array([_mover(n_pos, n_neg, tp, fp, xx, 0.9) for xx in x])
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    s = np.r_[np.ones(tp), np.zeros(n_pos - tp), np.ones(fp), np.zeros(n_neg - fp)]
    held = cw.Classifier.from_scores(y, s).band(0.9, threshold=0.5, grid=x)
    np.testing.assert_allclose(held[["lower", "upper"]].to_numpy(), expected, atol=1e-12)
    assert held.attrs["interval"] == "score" and held.attrs["method"] == "score"
    matrix = cw.Classifier.from_confusion(tp=tp, fn=n_pos - tp, fp=fp, tn=n_neg - fp)
    band = matrix.band(0.9, grid=x)
    c = np.minimum(x, 1 - x)[:, None]  # its cost curve is min(line, x, 1 - x)
    np.testing.assert_allclose(band[["lower", "upper"]].to_numpy(), np.minimum(expected, c))
    from costwidget.model import band_limits_at

    for xx in (0.13, 0.37, 0.66):  # read off the band at any PCF(+): computed there
        lo, hi = _mover(n_pos, n_neg, tp, fp, xx, 0.9)
        cap = min(xx, 1 - xx)
        assert band_limits_at(band, xx) == pytest.approx((min(lo, cap), min(hi, cap)), abs=1e-12)


def test_a_fixed_rules_band_keeps_its_level_by_exact_enumeration():
    """Exact coverage of the true cost x·(1 − TPR) + (1 − x)·FPR, summed over every confusion
    matrix with its binomial probability: n = 20, 50, 100 cases (P = N = n/2, and P = N = n)
    × TPR {0.6, 0.8, 0.95} × FPR {0.1, 0.2, 0.3} × PCF(+) {0.2, 0.5, 0.8} at level 0.9: the
    minimum at least 0.86, the mean 0.88-0.93 (the percentile band: 0.64 at worst)."""
    from costwidget.model.uncertainty.score_band import mover_wilson_band

    every = []
    for per_class in (k for n in (20, 50, 100) for k in (n // 2, n)):
        tp = np.arange(per_class + 1)[:, None]
        fp = np.arange(per_class + 1)[None, :]
        for tpr, fpr, x in itertools.product((0.6, 0.8, 0.95), (0.1, 0.2, 0.3), (0.2, 0.5, 0.8)):
            prob = stats.binom.pmf(tp, per_class, tpr) * stats.binom.pmf(fp, per_class, fpr)
            truth = x * (1 - tpr) + (1 - x) * fpr
            lo, hi = mover_wilson_band(per_class, per_class, tp, fp, np.float64(x), 0.9)
            every.append(float(np.sum(prob * ((lo <= truth) & (truth <= hi)))))
    assert min(every) >= 0.86, min(every)
    assert 0.88 <= np.mean(every) <= 0.93, np.mean(every)
