"""Threshold choice methods (issue 21) against outside references and brute force.

References, none of them this package's output:
* the Brier score ``mean((s - y)²)`` computed from the cases (Hernández-Orallo, Flach &
  Ferri (2012), Theorem 13: the expected loss of the score-driven choice);
* the Brier score of isotonic (PAV) calibrated scores, ``sklearn.isotonic.IsotonicRegression``
  (the optimal choice's loss, their sec. 6);
* ``π₀π₁(1 - 2·AUC) + 1/3`` with ``sklearn.metrics.roc_auc_score`` (rate-driven, Theorem 29);
* the error rate at 0.5 (fixed, Theorem 5);
* ``hmeasure.h_score`` on the bundled data sets (Hand 2009);
* classifying the raw scores by each method's rule, case by case (brute force);
* ``scipy.integrate.quad`` of the pointwise NEC for the areas in PCF(+) space.
"""

import math
import warnings

import numpy as np
import pytest
from brute import bayes_threshold, nec_at_threshold, pcfs_next_to_each_score
from brute import bayes_threshold as brute_c
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import roc_auc_score

import costwidget as cw
from costwidget.datasets import DATASETS, load_demo_scores
from costwidget.model.decisions.threshold_choice import (
    brier_score,
    cost_curve,
    expected_loss,
    h_measure,
    nec_by_threshold_choice,
)
from costwidget.model.decisions.threshold_choice_table import threshold_choice_table

METHODS = ("optimal", "score", "rate", "fixed")
TOL = 1e-12


# ---------------------------------------------------------------------------- data
@st.composite
def scored(draw, weighted=None, prior=False):
    """(y, s, w, rho): labels 0/1 with both classes, scores in [0, 1] with ties, weights or None."""
    n = draw(st.integers(2, 40))
    levels = draw(st.integers(1, 12))  # few levels: many ties; many: mostly distinct
    fine = draw(st.booleans())
    if fine:
        # Rounded: sklearn's IsotonicRegression merges scores closer than 1e-15 as ties.
        s = np.round(draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n)), 12)
    else:
        s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))) / levels
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 0, 1
    if weighted is None:
        weighted = draw(st.booleans())
    w = None
    if weighted:
        w = np.array(draw(st.lists(st.floats(0.01, 10, allow_nan=False), min_size=n, max_size=n)))
        if draw(st.booleans()):  # some weight-0 cases, never the two that hold the classes
            zero = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
            zero[:2] = False
            w[zero] = 0.0
    rho = draw(st.floats(0.02, 0.98)) if prior else None
    return y, s, w, rho


def _clf(y, s, w=None):
    return cw.Classifier.from_scores(y, s, sample_weight=w)


def _class_weights(y, w, rho):
    """Weights of the cases in the population of prevalence rho (the data's when None)."""
    w = np.ones(len(y)) if w is None else w.astype(float)
    if rho is None:
        return w / w.sum()
    pos = y == 1
    return np.where(pos, w * rho / w[pos].sum(), w * (1 - rho) / w[~pos].sum())


def _brier(y, s, weights):
    return float(np.sum(weights * (s - y) ** 2) / np.sum(weights))


# ---------------------------------------------------------------------------- the four identities
@given(scored())
def test_loss_score_is_the_brier_score(data):
    y, s, w, _ = data
    clf = _clf(y, s, w)
    ref = _brier(y, s, np.ones(len(y)) if w is None else w)
    assert abs(expected_loss(clf, "score") - ref) <= TOL
    assert abs(brier_score(clf) - ref) <= TOL


@given(scored())
def test_loss_optimal_is_the_brier_score_after_pav(data):
    y, s, w, _ = data
    clf = _clf(y, s, w)
    keep = np.ones(len(y), bool) if w is None else w > 0  # sklearn keeps weight-0 cases as ties
    ww = np.ones(len(y)) if w is None else w
    iso = IsotonicRegression(increasing=True)
    calibrated = iso.fit_transform(s[keep], y[keep], sample_weight=ww[keep])
    ref = _brier(y[keep], calibrated, ww[keep])
    assert abs(expected_loss(clf, "optimal") - ref) <= TOL


@given(scored())
def test_loss_rate_follows_from_auc(data):
    y, s, w, _ = data
    clf = _clf(y, s, w)
    ww = np.ones(len(y)) if w is None else w
    pi1 = ww[y == 1].sum() / ww.sum()
    a = roc_auc_score(y, s, sample_weight=w)
    assert abs(expected_loss(clf, "rate") - (pi1 * (1 - pi1) * (1 - 2 * a) + 1 / 3)) <= TOL


@given(scored(), st.sampled_from([0.5, 0.25, 0.7]))
def test_loss_fixed_is_the_error_rate(data, threshold):
    y, s, w, _ = data
    clf = _clf(y, s, w)
    ww = np.ones(len(y)) if w is None else w
    wrong = (s >= threshold) != (y == 1)
    ref = float(np.sum(ww * wrong) / ww.sum())
    assert abs(expected_loss(clf, "fixed", threshold=threshold) - ref) <= TOL


@given(scored(prior=True))
def test_prior_reweights_the_classes(data):
    """With prior=rho every loss is the identity's value on the class-reweighted sample."""
    y, s, w, rho = data
    clf = _clf(y, s, w)
    cw_ = _class_weights(y, w, rho)
    keep = cw_ > 0
    assert abs(expected_loss(clf, "score", prior=rho) - _brier(y, s, cw_)) <= TOL
    assert abs(brier_score(clf, prior=rho) - _brier(y, s, cw_)) <= TOL
    calibrated = IsotonicRegression().fit_transform(s[keep], y[keep], sample_weight=cw_[keep])
    assert (
        abs(expected_loss(clf, "optimal", prior=rho) - _brier(y[keep], calibrated, cw_[keep]))
        <= TOL
    )
    a = roc_auc_score(y, s, sample_weight=w)
    ref = rho * (1 - rho) * (1 - 2 * a) + 1 / 3
    assert abs(expected_loss(clf, "rate", prior=rho) - ref) <= TOL
    wrong = (s >= 0.5) != (y == 1)
    assert abs(expected_loss(clf, "fixed", prior=rho) - np.sum(cw_ * wrong)) <= TOL


def test_identities_on_the_bundled_data():
    frame = load_demo_scores()
    for (dataset, _model), part in frame.groupby(["dataset", "model"]):
        y = (part["label"] == DATASETS[dataset][2]).to_numpy().astype(int)
        s = part["score"].to_numpy()
        clf = _clf(y, s)
        t = threshold_choice_table(clf).iloc[0]
        assert abs(t["loss_score"] - np.mean((s - y) ** 2)) <= TOL
        assert abs(t["brier"] - np.mean((s - y) ** 2)) <= TOL
        pav = IsotonicRegression().fit_transform(s, y)
        assert abs(t["loss_optimal"] - np.mean((pav - y) ** 2)) <= TOL
        # Calibration loss: the Brier score less the Brier score after PAV (sklearn), both
        # from the raw scores (not the table's own two columns).
        ref = np.mean((s - y) ** 2) - np.mean((pav - y) ** 2)
        assert abs(t["calibration_loss"] - ref) <= TOL
        assert t["calibration_loss"] >= -TOL
        pi1 = y.mean()
        a = roc_auc_score(y, s)
        assert abs(t["auc"] - a) <= TOL
        assert abs(t["loss_rate"] - (pi1 * (1 - pi1) * (1 - 2 * a) + 1 / 3)) <= TOL
        assert abs(t["loss_fixed"] - np.mean((s >= 0.5) != (y == 1))) <= TOL


# ---------------------------------------------------------------------------- brute force
def _brute_rates(y, s, w, rule, x, rho, threshold):
    """(FPR, TPR) at each pcf, classifying every case by the method's rule."""
    ww = np.ones(len(y)) if w is None else w
    pos = y == 1
    P, N = ww[pos].sum(), ww[~pos].sum()
    out = []
    for xi in x:
        c = rho * (1 - xi) / (rho * (1 - xi) + (1 - rho) * xi)
        if rule == "score":  # the Bayes threshold exact, rounded once (not the float c above)
            p = (s >= bayes_threshold(xi, rho)).astype(float)
        elif rule == "fixed":
            p = (s >= threshold).astype(float)
        else:  # rate: top share 1 - c of the rho-population, ties split evenly
            share = np.where(pos, rho * ww / P, (1 - rho) * ww / N)
            p = np.zeros(len(s))
            filled = 0.0
            for v in sorted(set(s[ww > 0]), reverse=True):
                g = (s == v) & (ww > 0)
                size = share[g].sum()
                p[g] = min(max((1 - c - filled) / size, 0.0), 1.0)
                filled += size
        out.append((np.sum(ww * p * ~pos) / N, np.sum(ww * p * pos) / P))
    return np.array(out).T


@given(scored(prior=True), st.booleans(), st.integers(0, 2**32 - 1))
def test_every_method_equals_classifying_the_raw_scores(data, use_prior, seed):
    y, s, w, rho = data
    clf = _clf(y, s, w)
    ww = np.ones(len(y)) if w is None else w
    rho_ = rho if use_prior else ww[y == 1].sum() / ww.sum()
    # The data's prevalence as the classifier holds it (the weights summed in its order): at a
    # tie with the Bayes threshold one float of prior decides the tie.
    if not use_prior:
        held = cost_curve(clf, "rate").attrs["prior"]
        assert held == pytest.approx(rho_, rel=1e-14)
        rho_ = held
    # Uniform pcf values never put the Bayes threshold on a score; the floats around each
    # score's crossing do, where a float c can round past it.
    x = np.concatenate(
        (
            [0.0, 1.0, 0.5],
            np.random.default_rng(seed).uniform(0, 1, 100),
            pcfs_next_to_each_score(s, rho_),
        )
    )
    for method in ("score", "rate", "fixed"):
        f, t = _brute_rates(y, s, w, method, x, rho_, 0.5)
        ref = (1 - t) * x + f * (1 - x)
        got = nec_by_threshold_choice(clf, x, method, prior=rho if use_prior else None)
        np.testing.assert_allclose(got, ref, atol=TOL, rtol=0, err_msg=method)
    # optimal: the least NEC over every threshold (and the trivial classifiers)
    f, t = clf.roc["fpr"].to_numpy(), clf.roc["tpr"].to_numpy()
    ref = np.min((1 - t)[:, None] * x + f[:, None] * (1 - x), axis=0)
    np.testing.assert_allclose(nec_by_threshold_choice(clf, x), ref, atol=TOL, rtol=0)


@given(scored(prior=True), st.sampled_from(METHODS), st.booleans())
def test_cost_curve_pieces_agree_with_pointwise_nec(data, method, use_prior):
    y, s, w, rho = data
    clf = _clf(y, s, w)
    prior = rho if use_prior else None
    cc = cost_curve(clf, method, prior=prior)
    lo, hi = cc["pcf_lo"].to_numpy(), cc["pcf_hi"].to_numpy()
    assert lo[0] == 0.0 and hi[-1] == 1.0
    np.testing.assert_array_equal(lo[1:], hi[:-1])
    assert np.all(hi > lo)
    # inside each piece the pointwise NEC is the piece's
    mid = (lo + hi) / 2
    point = nec_by_threshold_choice(clf, mid, method, prior=prior)
    if cc.attrs["linear"]:
        np.testing.assert_allclose(point, (cc["nec_lo"] + cc["nec_hi"]) / 2, atol=1e-12)
        if method != "optimal":
            np.testing.assert_allclose(
                point, (1 - cc["tpr"]) * mid + cc["fpr"] * (1 - mid), atol=1e-12
            )
    else:
        # The piece's left end as a limit from inside: linear extrapolation from two points
        # just inside (its slope can be large: at a prevalence near 0 the rate-driven NEC
        # rises ~100 per unit of PCF(+), so one point 1e-9 inside is 1e-7 off).
        d = (hi - lo) * 1e-9
        f1 = nec_by_threshold_choice(clf, lo + d, method, prior=prior)
        f2 = nec_by_threshold_choice(clf, lo + 2 * d, method, prior=prior)
        np.testing.assert_allclose(2 * f1 - f2, cc["nec_lo"], atol=1e-7)
    # the exact area against quadrature of the pointwise NEC, piece by piece
    ref = sum(
        integrate.quad(
            lambda z: float(nec_by_threshold_choice(clf, z, method, prior=prior)),
            a,
            b,
            epsabs=1e-14,
            epsrel=1e-13,
        )[0]
        for a, b in zip(lo, hi)
    )
    assert abs(cc.attrs["area"] - ref) <= 1e-11


def test_score_curve_jumps_at_every_distinct_score():
    s = np.array([0.05, 0.2, 0.2, 0.45, 0.7, 0.7, 0.9, 0.99])
    y = np.array([0, 0, 1, 0, 1, 0, 1, 1])
    clf = _clf(y, s)
    cc = cost_curve(clf, "score")
    assert sorted(cc["threshold"].to_numpy()[1:].tolist(), reverse=True) == sorted(
        set(s), reverse=True
    )
    rho = y.mean()
    # Each piece starts at the least float PCF(+) whose Bayes threshold (exact, rounded once)
    # lets its score in: the score is positive there and not one float below.
    for x, v in zip(cc["pcf_lo"].to_numpy()[1:], cc["threshold"].to_numpy()[1:]):
        assert v >= bayes_threshold(x, rho) and v < bayes_threshold(np.nextafter(x, -1), rho)


def test_prior_of_the_data_gives_the_default():
    # The default prior is the data's, 3/8: every method against the raw scores classified at
    # that prior, at pcf values where the Bayes threshold lands on or next to a score.
    y = np.array([0, 0, 0, 1, 1, 0, 1, 0])
    s = np.array([0.1, 0.3, 0.3, 0.375, 0.6, 0.6, 0.9, 0.2])
    clf = _clf(y, s)
    x = np.concatenate((np.linspace(0, 1, 101), [0.5], pcfs_next_to_each_score(s, 3 / 8)))
    for m in ("score", "rate", "fixed"):
        f, t = _brute_rates(y, s, None, m, x, 3 / 8, 0.5)
        np.testing.assert_allclose(
            nec_by_threshold_choice(clf, x, m),
            (1 - t) * x + f * (1 - x),
            atol=TOL,
            rtol=0,
            err_msg=m,
        )
    # at pcf 1/2 and prior 3/8 the Bayes threshold is 3/8 exactly, a score: it is positive
    assert nec_by_threshold_choice(clf, 0.5, "score") == pytest.approx(
        nec_at_threshold(y, s, 0.375, 0.5), abs=1e-15
    )


def test_score_threshold_is_the_cost_proportion_at_the_data_prior():
    """The Bayes threshold is c, whose PCF(+) is π₁(1-c) / (π₁(1-c) + π₀c), on scores equal to c."""
    # Prevalence 1/2: PCF(+) = 1 - c, exact in floats for c in [1/2, 1] and for dyadic c, so the
    # Bayes threshold equals the score c exactly, and the score counts as positive.
    y = np.array([0, 0, 0, 1, 1, 0, 1, 1])
    s = np.array([0.1, 0.25, 0.375, 0.5, 0.625, 0.75, 0.9, 0.3])
    clf = _clf(y, s)
    pi1 = 0.5
    for c in (0.25, 0.375, 0.5, 0.625, 0.75, 0.3, 0.9):
        x = 1 - c
        pred = s >= brute_c(x, pi1)
        fpr, tpr = pred[y == 0].mean(), pred[y == 1].mean()
        q = 2 * (c * (1 - pi1) * fpr + (1 - c) * pi1 * (1 - tpr))
        nec = nec_by_threshold_choice(clf, x, "score")
        assert abs(q - 2 * (pi1 * (1 - c) + (1 - pi1) * c) * nec) <= 1e-15, c
    for c in (0.25, 0.375, 0.5, 0.625, 0.75):  # dyadic: the score c itself is positive
        assert brute_c(1 - c, pi1) == c
        assert nec_by_threshold_choice(clf, 1 - c, "score") == pytest.approx(
            nec_at_threshold(y, s, c, 1 - c), abs=1e-15
        )


def test_prior_shift_is_folded_into_the_threshold():
    """Scores calibrated at prevalence ρ: the deployment-optimal rule at PCF(+) x is
    odds(s) >= ρ/(1-ρ)·(1-x)/x, i.e. s >= ρ(1-x) / (ρ(1-x) + (1-ρ)x)."""
    rng = np.random.default_rng(3)
    s = rng.integers(0, 101, 200) / 100  # a 0.01 grid: thresholds can fall on scores
    y = (rng.uniform(0, 1, 200) < s).astype(int)
    clf = _clf(y, s)
    rho = 0.2
    # 0.6 (ρ(1-x)/(ρ(1-x)+(1-ρ)x) = 1/7, no score) and pcf values next to every score's
    # crossing; at x = 0.5 and ρ = 0.2 the threshold is 0.2, a score.
    x = np.concatenate(([0.6, 0.5], pcfs_next_to_each_score(s, rho, steps=2)))
    ref = [nec_at_threshold(y, s, bayes_threshold(xi, rho), xi) for xi in x.tolist()]
    np.testing.assert_allclose(
        nec_by_threshold_choice(clf, x, "score", prior=rho), ref, atol=1e-15, rtol=0
    )
    assert bayes_threshold(0.5, rho) == 0.2


# ---------------------------------------------------------------------------- H measure
def _bundled():
    frame = load_demo_scores()
    for (dataset, model), part in frame.groupby(["dataset", "model"]):
        y = (part["label"] == DATASETS[dataset][2]).to_numpy().astype(int)
        yield f"{dataset}/{model}", y, part["score"].to_numpy()


@pytest.mark.parametrize("severity_ratio", [None, 0.7, 2.0, -1.0])
def test_h_measure_equals_the_hmeasure_package(severity_ratio):
    hmeasure = pytest.importorskip("hmeasure")
    for name, y, s in _bundled():
        ref = hmeasure.h_score(y, s, severity_ratio=severity_ratio)
        got = h_measure(_clf(y, s), severity_ratio=severity_ratio)
        assert abs(got - ref) <= 1e-12, name
        if severity_ratio is None:
            assert threshold_choice_table(_clf(y, s))["h_measure"].iloc[0] == got


@given(scored(weighted=False))
def test_h_measure_equals_the_hmeasure_package_on_random_data(data):
    hmeasure = pytest.importorskip("hmeasure")
    y, s, _, _ = data
    try:
        ref = hmeasure.h_score(y, s)
    except Exception:  # qhull refuses some degenerate hulls; nothing to compare
        return
    assert abs(h_measure(_clf(y, s)) - ref) <= 1e-12


def test_h_measure_with_integer_weights_equals_repeated_cases():
    y = np.array([0, 1, 0, 1, 1, 0, 0])
    s = np.array([0.1, 0.8, 0.4, 0.4, 0.9, 0.3, 0.7])
    w = np.array([1, 2, 3, 1, 2, 1, 2])
    rep = _clf(np.repeat(y, w), np.repeat(s, w))
    assert abs(h_measure(_clf(y, s, w.astype(float))) - h_measure(rep)) <= 1e-14


# ---------------------------------------------------------------------------- table
def test_table_columns_and_rows():
    frame = load_demo_scores("sonar")
    models = cw.Classifier.from_frame(frame, fold="fold", instance="row", pos_label="M")
    t = threshold_choice_table(models)
    assert list(t.index) == list(models)
    assert t.index.name == "classifier"
    for col in (
        "brier",
        "loss_fixed",
        "loss_score",
        "loss_rate",
        "loss_optimal",
        "calibration_loss",
        "auc",
        "h_measure",
        "area_fixed",
        "area_score",
        "area_rate",
        "area_optimal",
    ):
        assert t[col].notna().all(), col
    for name, clf in models.items():
        assert t.loc[name, "area_optimal"] == clf.area()
        assert (
            t.loc[name, "loss_optimal"]
            <= min(t.loc[name, ["loss_score", "loss_rate", "loss_fixed"]]) + TOL
        )
    # folds: the pooled classifier is the table's; its folds' own rows from clf.folds
    per_fold = threshold_choice_table({str(k): c for k, c in models["naive Bayes"].folds.items()})
    assert len(per_fold) == 5 and per_fold["brier"].notna().all()


def test_scores_outside_unit_interval_blank_the_score_columns_only():
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([-2.0, 1.5, 0.3, 3.0, 0.2, -0.5])
    clf = cw.Classifier.from_scores(y, s, name="svm")
    with pytest.warns(
        UserWarning,
        match=r"'svm'.*outside \[0, 1\].*'brier', 'loss_score', "
        r"'calibration_loss', 'area_score'.*[Cc]alibrat",
    ):
        t = threshold_choice_table(clf)
    row = t.iloc[0]
    for col in ("brier", "loss_score", "calibration_loss", "area_score"):
        assert math.isnan(row[col])
    for col in (
        "loss_fixed",
        "loss_rate",
        "loss_optimal",
        "auc",
        "h_measure",
        "area_fixed",
        "area_rate",
        "area_optimal",
    ):
        assert not math.isnan(row[col]), col
    with pytest.raises(ValueError, match=r"outside \[0, 1\].*CalibratedClassifierCV"):
        nec_by_threshold_choice(clf, 0.5, "score")
    with pytest.raises(ValueError, match="outside"):
        cost_curve(clf, "score")
    # rate and optimal need only the ranking
    assert np.isfinite(nec_by_threshold_choice(clf, 0.5, "rate"))


def test_classifiers_without_scores():
    roc = cw.Classifier.from_roc([0.2, 0.5], [0.6, 0.9], name="roc")
    conf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="conf")
    for clf, how in ((roc, "from_roc"), (conf, "from_confusion")):
        for m in ("score", "rate", "fixed"):
            with pytest.raises(ValueError, match=f"needs the classifier's scores.*{how}"):
                nec_by_threshold_choice(clf, 0.5, m)
        assert nec_by_threshold_choice(clf, 0.5) == clf.nec(0.5)
        assert cost_curve(clf).attrs["area"] == clf.area()
    with pytest.warns(UserWarning) as record:
        t = threshold_choice_table([roc, conf])
    messages = [str(r.message) for r in record]
    assert any("'roc'" in m and "prevalence is unknown" in m for m in messages)
    assert any("'conf'" in m and "no scores" in m for m in messages)
    assert math.isnan(t.loc["roc", "loss_optimal"]) and not math.isnan(t.loc["roc", "auc"])
    # prevalence 1/2: PCF(+) = 1 - c and Q = NEC, so the loss is the area, 0.21
    assert t.loc["conf", "loss_optimal"] == pytest.approx(conf.area(), abs=1e-15)
    with pytest.warns(UserWarning, match="no scores"):
        t = threshold_choice_table(roc, prior=0.5)
    assert t.loc["roc", "loss_optimal"] == pytest.approx(expected_loss(roc, prior=0.5))
    with pytest.raises(ValueError, match="pass prior="):
        expected_loss(roc)


def test_from_counts_works_like_from_scores():
    y = np.array([0, 1, 0, 1, 1, 0, 0])
    s = np.array([0.1, 0.8, 0.4, 0.4, 0.9, 0.3, 0.7])
    a = _clf(y, s)
    v = np.unique(s)
    b = cw.Classifier.from_counts(
        v, [((s == u) & (y == 1)).sum() for u in v], [((s == u) & (y == 0)).sum() for u in v]
    )
    ta, tb = threshold_choice_table(a), threshold_choice_table(b)
    np.testing.assert_allclose(ta.to_numpy(), tb.to_numpy(), atol=1e-15)


@given(scored(weighted=False), st.lists(st.integers(1, 4), min_size=40, max_size=40))
def test_integer_weights_equal_repeated_cases(data, reps):
    y, s, _, _ = data
    w = np.array(reps[: len(y)])
    a = threshold_choice_table(_clf(y, s, w.astype(float)))
    b = threshold_choice_table(_clf(np.repeat(y, w), np.repeat(s, w)))
    np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), atol=1e-12)


# ---------------------------------------------------------------------------- input errors
def test_input_errors_say_what_to_do():
    clf = _clf(np.array([0, 1, 0, 1]), np.array([0.1, 0.8, 0.4, 0.3]))
    with pytest.raises(ValueError, match="threshold_choice must be one of"):
        nec_by_threshold_choice(clf, 0.5, "bayes")
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        nec_by_threshold_choice(clf, 0.5, "score", prior=1.0)
    with pytest.raises(TypeError, match="prior must be a number"):
        cost_curve(clf, "rate", prior="0.3")
    with pytest.raises(ValueError, match=r"pcf must lie in \[0, 1\]"):
        nec_by_threshold_choice(clf, 1.5, "rate")
    with pytest.raises(TypeError, match="must be a Classifier"):
        nec_by_threshold_choice([0.1, 0.2], 0.5)
    with pytest.raises(TypeError, match="threshold must be a number"):
        cost_curve(clf, "fixed", threshold=None)
    with pytest.raises(ValueError, match="severity_ratio must not be 0"):
        h_measure(clf, severity_ratio=0)
    with pytest.raises(ValueError, match="at least one classifier"):
        threshold_choice_table([])
    with pytest.raises(ValueError, match="names must be distinct"):
        threshold_choice_table([clf.renamed("a"), clf.renamed("a")])


def test_no_warning_for_probabilities():
    y = np.array([0, 1, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        threshold_choice_table(_clf(y, np.array([0.0, 1.0, 0.4, 0.3])))
