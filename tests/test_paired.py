"""Paired difference bands: joint resampling, validity under null/alternative, errors."""

import numpy as np
import pytest
from pairs import correlated_pair

import costwidget as cw
from costwidget.model import scored_arrays
from costwidget.model.uncertainty.paired import significant_intervals


def test_same_classifier_difference_is_zero():
    rng = np.random.default_rng(0)
    a, _ = correlated_pair(rng, 50, 70, shift_a=1, shift_b=1, rho=0.5)
    band = cw.difference_band(a, a, n_boot=100, grid=33, random_state=0)
    assert (band[["diff", "lower", "upper"]].to_numpy() == 0).all()
    assert not band.significant.any()


def test_fixed_threshold_joint_table_matches_direct_resampling():
    """The 2x2x2 table version: compare with an independent instance-level bootstrap."""
    rng = np.random.default_rng(1)
    a, b = correlated_pair(rng, 80, 120, shift_a=1.0, shift_b=1.4, rho=0.7)
    x = np.array([0.25, 0.5, 0.75])
    # The pointwise band (the paper's percentile interval) is what a per-x quantile of an
    # independent bootstrap estimates; the default, simultaneous band is wider by design.
    band = cw.difference_band(
        a,
        b,
        threshold_a=0.5,
        threshold_b=0.6,
        n_boot=20000,
        grid=x,
        random_state=0,
        simultaneous=False,
    )
    is_pos, sa, _ = scored_arrays(a)
    _, sb, _ = scored_arrays(b)
    pos, neg = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
    r = np.random.default_rng(5)
    diffs = []
    for _ in range(4000):
        i = np.concatenate([r.choice(pos, len(pos)), r.choice(neg, len(neg))])
        p, yy = i[: len(pos)], i[len(pos) :]
        fn_a, fn_b = np.mean(sa[p] < 0.5), np.mean(sb[p] < 0.6)
        fp_a, fp_b = np.mean(sa[yy] >= 0.5), np.mean(sb[yy] >= 0.6)
        diffs.append(x * (fn_a - fn_b) + (1 - x) * (fp_a - fp_b))
    diffs = np.asarray(diffs)
    # The difference takes few values (steps of 1/80 and 1/120), so two bootstraps of it can
    # put a 5 % quantile on neighbouring atoms. The band's limits are checked as quantiles of
    # the independent bootstrap: about 5 % of its draws below the lower limit (or at it), and
    # about 5 % above the upper one, to Monte Carlo error.
    for j in range(len(x)):
        d, lo, hi = diffs[:, j], band.lower[j], band.upper[j]
        assert np.mean(d < lo - 1e-12) <= 0.05 + 0.015 and np.mean(d <= lo + 1e-12) >= 0.05 - 0.015
        assert np.mean(d > hi + 1e-12) <= 0.05 + 0.015 and np.mean(d >= hi - 1e-12) >= 0.05 - 0.015
    fn_a, fn_b = np.mean(sa[pos] < 0.5), np.mean(sb[pos] < 0.6)
    fp_a, fp_b = np.mean(sa[neg] >= 0.5), np.mean(sb[neg] >= 0.6)
    np.testing.assert_allclose(band["diff"], x * (fn_a - fn_b) + (1 - x) * (fp_a - fp_b))


@pytest.mark.slow  # a coverage simulation
def test_null_difference_rarely_significant():
    """Identical true performance, correlated noise: significant at pcf 0.5 in <= 15 % of 400."""
    rng = np.random.default_rng(7)
    hits = 0
    for k in range(400):
        a, b = correlated_pair(rng, 60, 90, shift_a=1.0, shift_b=1.0, rho=0.6)
        band = cw.difference_band(a, b, 0.9, n_boot=200, grid=[0.5], random_state=k)
        hits += bool(band.significant[0])
    assert hits / 400 <= 0.15, hits


@pytest.mark.slow  # a coverage simulation
def test_alternative_detected_and_pairing_narrower():
    """B better (seeded: paired detects 87/100, unpaired 42/100); paired band narrower."""
    rng = np.random.default_rng(8)
    hits, narrower, unpaired_hits = 0, 0, 0
    for k in range(100):
        a, b = correlated_pair(rng, 150, 150, shift_a=0.8, shift_b=1.15, rho=0.8)
        paired = cw.difference_band(a, b, n_boot=200, grid=[0.5], random_state=k)
        unpaired = cw.difference_band(a, b, n_boot=200, grid=[0.5], random_state=k, paired=False)
        hits += bool(paired.significant[0])
        unpaired_hits += bool(unpaired.significant[0])
        w_p = float(paired.upper[0] - paired.lower[0])
        w_u = float(unpaired.upper[0] - unpaired.lower[0])
        narrower += w_p < w_u
    assert hits >= 75, hits
    assert hits >= unpaired_hits + 20, (hits, unpaired_hits)
    assert narrower >= 90, narrower


def test_significant_intervals_from_band():
    rng = np.random.default_rng(3)
    a, b = correlated_pair(rng, 200, 200, shift_a=0.5, shift_b=2.0, rho=0.7)
    band = cw.difference_band(a, b, n_boot=300, grid=101, random_state=0)
    iv = significant_intervals(band)
    assert len(iv) >= 1 and (iv.sign == 1).all()
    inside = np.zeros(101, bool)
    for lo, hi, _ in iv.to_numpy():
        inside |= (band.pcf >= lo) & (band.pcf <= hi)
    assert (inside == band.significant).all()


def test_level_change_reuses_cache_and_seed_is_reproducible():
    rng = np.random.default_rng(4)
    a, b = correlated_pair(rng, 40, 60, shift_a=1, shift_b=1.3, rho=0.5)
    one = cw.difference_band(a, b, 0.9, n_boot=150, grid=17, random_state=9)
    # fresh classifiers (no cache shared with a, b): the seed alone fixes the band
    a2, b2 = correlated_pair(np.random.default_rng(4), 40, 60, shift_a=1, shift_b=1.3, rho=0.5)
    assert cw.difference_band(a2, b2, 0.9, n_boot=150, grid=17, random_state=9).equals(one)
    assert not cw.difference_band(a2, b2, 0.9, n_boot=150, grid=17, random_state=10).equals(one)
    wide = cw.difference_band(a, b, 0.99, n_boot=150, grid=17, random_state=9)
    assert (wide.lower <= one.lower).all() and (wide.upper >= one.upper).all()


def test_errors():
    rng = np.random.default_rng(2)
    a, b = correlated_pair(rng, 10, 10, shift_a=1, shift_b=1, rho=0.5)
    y = scored_arrays(a)[0]
    with pytest.raises(ValueError, match="level"):
        cw.difference_band(a, b, 1.0)
    with pytest.raises(ValueError, match="n_boot"):
        cw.difference_band(a, b, n_boot=0)
    folds = np.arange(20) % 2
    # Built over the same label array y: known to be the same cases, so the folds are compared.
    fa = cw.Classifier.from_scores(y, scored_arrays(a)[1], folds=folds)
    fb = cw.Classifier.from_scores(y, scored_arrays(b)[1])
    with pytest.raises(ValueError, match="[Ff]olds were given for a but not"):
        cw.difference_band(fa, fb)
    other = cw.Classifier.from_scores(y[::-1], scored_arrays(b)[1])
    with pytest.raises(ValueError, match="not known to score the same instances.*instance="):
        cw.difference_band(a, other)
    with pytest.raises(TypeError, match="Classifier"):
        cw.difference_band(a, "b")
    cw.difference_band(a, other, paired=False, n_boot=10, grid=3, random_state=0)  # allowed


def test_bad_thresholds():
    rng = np.random.default_rng(6)
    a, b = correlated_pair(rng, 10, 10, shift_a=1, shift_b=1, rho=0.5)
    with pytest.raises(ValueError, match="threshold_a"):
        cw.difference_band(a, b, threshold_a="optimal")
    with pytest.raises(ValueError, match="threshold_b"):
        cw.difference_band(a, b, threshold_b=float("nan"))


def test_paired_models_scoring_different_cases_are_named():
    """A paired comparison of models scored on different numbers of cases names both models,
    the cases only one scored, and how to fix it."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 20)
    y[:2] = [0, 1]
    s = rng.random(20)
    a = cw.Classifier.from_scores(y, s, name="a", instance=np.arange(20))
    b = cw.Classifier.from_scores(y[:-1], s[:-1], name="b", instance=np.arange(19))
    with pytest.raises(
        ValueError,
        match=r"^a and b do not score the same instances: 1 id\(s\) "
        r"only in a: \[19\]\. .*keep the rows of the instances "
        r"both scored",
    ):
        cw.difference_band(a, b, n_boot=10, grid=3)
