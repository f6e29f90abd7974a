"""Decision curves (issue 21) against dcurves.dca, brute force and the cost curve.

References: ``dcurves.dca`` on its own ``df_binary`` data (models ``cancerpredmarker`` and
``marker``, the latter turned into risks by the logistic GLM that ``dca(models_to_prob=...)``
fits); net benefit computed case by case (Vickers & Elkin (2006):
π₁·TPR - π₀·FPR·pt/(1-pt)).
"""

import os

import brute
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import costwidget as cw
from costwidget.model.decisions.decision_curve import (
    TREAT_ALL,
    TREAT_NONE,
    decision_curve,
    net_benefit_from_nec,
    pcf_from_threshold_probability,
)
from costwidget.model.decisions.threshold_choice import nec_by_threshold_choice

PT = [i / 100 for i in range(1, 100)]


# ---------------------------------------------------------------------------- dcurves
def _reference(module: str):
    # CI's references job sets COSTWIDGET_REFERENCES=1: there a missing package fails the test.
    if os.environ.get("COSTWIDGET_REFERENCES") == "1":
        import importlib

        return importlib.import_module(module)
    return pytest.importorskip(module)


@pytest.fixture(scope="module")
def df_binary():
    dcurves = _reference("dcurves")
    return pd.read_csv(os.path.join(dcurves.data, "df_binary.csv"))


@pytest.mark.references
@pytest.mark.parametrize("prevalence", [None, 0.2])
def test_equals_dcurves_dca(df_binary, prevalence):
    dca = _reference("dcurves").dca
    sm = _reference("statsmodels.api")

    data = df_binary.copy()
    # dca(models_to_prob=["marker"]) turns the marker into risks with this GLM; do the same
    data["marker_risk"] = (
        sm.formula.glm("cancer ~ marker", family=sm.families.Binomial(), data=df_binary)
        .fit()
        .predict()
    )
    ref = dca(
        data=df_binary,
        outcome="cancer",
        modelnames=["cancerpredmarker", "marker"],
        models_to_prob=["marker"],
        thresholds=PT,
        prevalence=prevalence,
    )
    y = data["cancer"].to_numpy()
    models = {
        "cancerpredmarker": cw.Classifier.from_scores(y, data["cancerpredmarker"]),
        "marker": cw.Classifier.from_scores(y, data["marker_risk"]),
    }
    got = decision_curve(models, PT, prior=prevalence)
    names = {
        "cancerpredmarker": "cancerpredmarker",
        "marker": "marker",
        "all": TREAT_ALL,
        "none": TREAT_NONE,
    }
    for theirs, ours in names.items():
        r = ref[ref["model"] == theirs]
        g = got[got["classifier"] == ours]
        np.testing.assert_array_equal(g["threshold_probability"].to_numpy(), r["threshold"])
        np.testing.assert_allclose(
            g["net_benefit"].to_numpy(),
            r["net_benefit"].to_numpy(),
            rtol=0,
            atol=1e-12,
            err_msg=theirs,
        )
    opt = decision_curve(models, PT, threshold_choice="optimal", prior=prevalence)
    assert np.all(opt["net_benefit"].to_numpy() >= got["net_benefit"].to_numpy())


@pytest.mark.references
def test_pt_zero_equals_dcurves():
    # dcurves never treats a risk of exactly 0, at pt = 0 too (its risks.py moves 0 to -eps).
    dca = _reference("dcurves").dca
    data = pd.DataFrame({"y": [1, 0, 1, 0], "risk": [1.0, 0.0, 0.0, 1.0]})
    pt = [0.0, 0.25, 0.5]
    ref = dca(data=data, outcome="y", modelnames=["risk"], thresholds=pt)
    got = decision_curve(cw.Classifier.from_scores(data["y"], data["risk"], name="risk"), pt)
    np.testing.assert_allclose(
        got.loc[got["classifier"] == "risk", "net_benefit"].to_numpy(),
        ref.loc[ref["model"] == "risk", "net_benefit"].to_numpy(),
        rtol=0,
        atol=1e-15,
    )


# ---------------------------------------------------------------------------- random data
@st.composite
def scored(draw):
    n = draw(st.integers(2, 40))
    levels = draw(st.integers(1, 20))
    s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))) / levels
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 0, 1
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.floats(0.01, 10), min_size=n, max_size=n)))
    return y, s, w


def _brute_nb(y, s, w, pt, rho=None):
    """Net benefit of every threshold the model has (and treat all / none), case by case."""
    ww = np.ones(len(y)) if w is None else w
    pos = y == 1
    rho = ww[pos].sum() / ww.sum() if rho is None else rho
    cuts = np.concatenate(([np.inf], np.unique(s), [-np.inf]))
    pred = s[None, :] >= cuts[:, None]
    tpr = (pred * (ww * pos)).sum(1) / ww[pos].sum()
    fpr = (pred * (ww * ~pos)).sum(1) / ww[~pos].sum()
    return rho * tpr[:, None] - (1 - rho) * fpr[:, None] * (pt / (1 - pt))[None, :]


@given(scored(), st.one_of(st.none(), st.floats(0.05, 0.95)))
def test_score_and_optimal_against_brute_force(data, prior):
    y, s, w = data
    clf = cw.Classifier.from_scores(y, s, sample_weight=w, name="m")
    pt = np.array(PT)
    every = _brute_nb(y, s, w, pt, prior)
    score = decision_curve(clf, pt, prior=prior)
    opt = decision_curve(clf, pt, threshold_choice="optimal", prior=prior)
    nb_s = score.loc[score["classifier"] == "m", "net_benefit"].to_numpy()
    nb_o = opt.loc[opt["classifier"] == "m", "net_benefit"].to_numpy()
    # score: treat iff s >= pt
    ww = np.ones(len(y)) if w is None else w
    rho = ww[y == 1].sum() / ww.sum() if prior is None else prior
    pred = s[None, :] >= pt[:, None]
    tpr = (pred * (ww * (y == 1))).sum(1) / ww[y == 1].sum()
    fpr = (pred * (ww * (y == 0))).sum(1) / ww[y == 0].sum()
    np.testing.assert_allclose(nb_s, rho * tpr - (1 - rho) * fpr * pt / (1 - pt), atol=1e-12)
    # optimal: the best threshold, never below score, treat all or treat none
    np.testing.assert_allclose(nb_o, every.max(axis=0), atol=1e-12)
    assert np.all(nb_o >= nb_s)
    for ref in (TREAT_ALL, TREAT_NONE):
        assert np.all(nb_o >= opt.loc[opt["classifier"] == ref, "net_benefit"].to_numpy() - 1e-15)


DCURVES_GRID = np.arange(100) / 100  # dcurves' default thresholds, 0 to 0.99


def _dcurves_nb(y, s, w, pt, rho):
    """Net benefit as dcurves defines it: TP/n - FP/n · pt/(1-pt) with class weights from rho,
    treating risk >= pt, a risk of 0 never (dcurves moves it to -eps); sums exact."""
    out = []
    for p in pt.tolist():
        fpr, tpr = brute.rates_at_threshold(y, np.where(s == 0, -1.0, s), p, w)
        out.append(rho * tpr - (1 - rho) * fpr * p / (1 - p))
    return np.array(out)


@given(scored(), st.sampled_from(["optimal", "rate", "fixed"]))
def test_decision_curve_is_the_cost_curve_in_other_units(data, method):
    y, s, w = data
    clf = cw.Classifier.from_scores(y, s, sample_weight=w, name="m")
    pt = DCURVES_GRID
    dc = decision_curve(clf, pt, threshold_choice=method)
    nb = dc.loc[dc["classifier"] == "m", "net_benefit"].to_numpy()
    rho = clf.prevalence
    nec = nec_by_threshold_choice(clf, pcf_from_threshold_probability(pt, rho), method)
    np.testing.assert_allclose(net_benefit_from_nec(nec, pt, rho), nb, atol=1e-11)


@given(scored())
def test_score_decision_curve_and_cost_curve_on_the_dcurves_grid(data):
    # Scores on a grid of 1/levels and pt on the 0.01 grid: pt often equals a score. Each
    # curve against the raw scores: the decision curve treats risk >= pt (dcurves' rule), the
    # cost curve predicts score >= its Bayes threshold (exact, rounded once) at the pcf of pt;
    # the two agree in other units wherever the two thresholds classify alike.
    y, s, w = data
    clf = cw.Classifier.from_scores(y, s, sample_weight=w, name="m")
    pt = DCURVES_GRID
    rho = clf.prevalence
    dc = decision_curve(clf, pt)
    nb = dc.loc[dc["classifier"] == "m", "net_benefit"].to_numpy()
    np.testing.assert_allclose(nb, _dcurves_nb(y, s, w, pt, rho), atol=1e-12)
    x = pcf_from_threshold_probability(pt, rho)
    nec = nec_by_threshold_choice(clf, x, "score")
    cuts = [brute.bayes_threshold(xi, rho) for xi in x.tolist()]
    ref = [brute.nec_at_threshold(y, s, c, xi, w) for c, xi in zip(cuts, x.tolist())]
    np.testing.assert_allclose(nec, ref, atol=1e-12)
    alike = np.array([np.array_equal(s >= c, (s >= p) & (s > 0)) for c, p in zip(cuts, pt)])
    assert alike.mean() > 0.5
    np.testing.assert_allclose(net_benefit_from_nec(nec, pt, rho)[alike], nb[alike], atol=1e-11)


def test_pt_zero_treats_no_risk_of_zero_as_dcurves():
    # dcurves (risks.py, _rectify_model_risk_boundaries): a risk of 0 becomes -eps, so it is
    # never treated. y = [1, 0, 1, 0], risks [1, 0, 0, 1]: at pt = 0 cases 1 and 4 are
    # treated, TP/n - FP/n · 0 = 1/4 (not 1/2, which treats everyone).
    clf = cw.Classifier.from_scores([1, 0, 1, 0], [1.0, 0.0, 0.0, 1.0], name="m")
    dc = decision_curve(clf, [0.0, 0.01, 0.5])
    nb = dc.loc[dc["classifier"] == "m", "net_benefit"].to_numpy()
    np.testing.assert_allclose(nb, [1 / 4, 1 / 4 - 1 / 4 * 0.01 / 0.99, 0.0], atol=1e-15)


def test_treat_all_and_none():
    y = np.array([0, 0, 1, 0, 1])
    clf = cw.Classifier.from_scores(y, [0.1, 0.3, 0.6, 0.5, 0.9], name="m")
    dc = decision_curve(clf, [0.0, 0.25, 0.5])
    assert dc["classifier"].tolist() == ["m"] * 3 + [TREAT_ALL] * 3 + [TREAT_NONE] * 3
    all_ = dc.loc[dc["classifier"] == TREAT_ALL, "net_benefit"].to_numpy()
    np.testing.assert_allclose(all_, [0.4, 0.4 - 0.6 / 3, 0.4 - 0.6])
    assert (dc.loc[dc["classifier"] == TREAT_NONE, "net_benefit"] == 0).all()
    assert dc.attrs == {"threshold_choice": "score", "prior": 0.4}
    # default thresholds: dcurves' 0, 0.01, ..., 0.99
    assert decision_curve(clf)["threshold_probability"].head(100).tolist() == [
        i / 100 for i in range(100)
    ]


def test_errors():
    y = np.array([0, 0, 1, 0, 1])
    clf = cw.Classifier.from_scores(y, [0.1, 0.3, 0.6, 0.5, 0.9], name="m")
    with pytest.raises(ValueError, match=r"in \[0, 1\).*infinity"):
        decision_curve(clf, [0.5, 1.0])
    with pytest.raises(ValueError, match="different prevalences.*prior="):
        decision_curve([clf, cw.Classifier.from_scores([0, 1], [0.2, 0.7], name="other")])
    decision_curve([clf, cw.Classifier.from_scores([0, 1], [0.2, 0.7], name="other")], prior=0.3)
    with pytest.raises(ValueError, match="named 'treat all'"):
        decision_curve(clf.renamed(TREAT_ALL))
    svm = cw.Classifier.from_scores(y, [-1.0, 0.3, 2.0, 0.5, 0.9], name="svm")
    with pytest.raises(ValueError, match=r"outside \[0, 1\].*[Cc]alibrat"):
        decision_curve(svm)
    decision_curve(svm, threshold_choice="optimal")  # needs only the ranking
    with pytest.raises(ValueError, match="threshold_choice must be one of"):
        decision_curve(clf, threshold_choice="bayes")


def test_folds_pool_the_out_of_fold_scores():
    y = np.array([0, 1, 0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.9, 0.4, 0.6, 0.2, 0.3, 0.8, 0.7])
    pooled = decision_curve(cw.Classifier.from_scores(y, s, name="m"), PT)
    folds = [0, 0, 0, 0, 1, 1, 1, 1]
    folded = decision_curve(cw.Classifier.from_scores(y, s, name="m", folds=folds), PT)
    pd.testing.assert_frame_equal(pooled, folded)
