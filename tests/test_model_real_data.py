"""Real data: bundled German credit and sonar, scikit-learn models, checked against sklearn and brute force."""

import brute
import numpy as np
import pytest
from scipy import integrate
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_curve
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import costwidget as cw
from costwidget.datasets import load_dataset, load_demo_scores, positive_label


def _fit_scores(dataset, model):
    X, y = load_dataset(dataset)
    X = X.select_dtypes("number")
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    s = cross_val_predict(model, X, y, cv=cv, method="predict_proba")
    classes = np.unique(y)  # sklearn orders predict_proba columns like np.unique
    return y.to_numpy(), s[:, list(classes).index(positive_label(dataset))]


CASES = [
    ("german_credit", make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))),
    ("german_credit", GaussianNB()),
    ("sonar", make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))),
    ("sonar", GaussianNB()),
]


@pytest.fixture(scope="module", params=range(len(CASES)), ids=lambda i: f"{CASES[i][0]}-{i}")
def fitted(request):
    dataset, model = CASES[request.param]
    y, s = _fit_scores(dataset, model)
    pos = positive_label(dataset)
    return y, s, pos, cw.Classifier.from_scores(y, s, pos_label=pos, name=dataset)


def test_roc_agrees_with_sklearn(fitted):
    y, s, pos, clf = fitted
    fpr, tpr, thr = roc_curve(y, s, pos_label=pos, drop_intermediate=False)
    np.testing.assert_array_equal(clf.roc.threshold.to_numpy(), thr)
    np.testing.assert_allclose(clf.roc.fpr, fpr, rtol=1e-12)
    np.testing.assert_allclose(clf.roc.tpr, tpr, rtol=1e-12)


def test_envelope_and_area_equal_brute_force(fitted):
    y, s, pos, clf = fitted
    f, t = clf.roc.fpr.to_numpy(), clf.roc.tpr.to_numpy()
    x = np.concatenate((np.linspace(0, 1, 501), clf.envelope.pcf))
    np.testing.assert_allclose(clf.nec(x), brute.envelope_min(f, t, x), atol=1e-12)
    # area: quad on each envelope piece, breakpoints found by brute force on the hull vertices
    h = clf.hull
    knots = brute.envelope_knots(h.fpr, h.tpr)
    area = sum(
        integrate.quad(lambda z: brute.envelope_min(f, t, z)[0], lo, hi)[0]
        for lo, hi in zip(knots[:-1], knots[1:])
    )
    assert clf.area() == pytest.approx(area, abs=1e-10)


def test_operating_range_closed_form_on_hull_vertices(fitted):
    y, s, pos, clf = fitted
    h = clf.hull
    # the first non-trivial vertex takes over from y = x at f/(f + t) ...
    f1, t1 = h.fpr.iloc[1], h.tpr.iloc[1]
    assert clf.operating_range.lo == pytest.approx(f1 / (f1 + t1), abs=1e-12)
    # ... and the last one hands over to y = 1 - x at (1 - f)/(2 - f - t)
    f2, t2 = h.fpr.iloc[-2], h.tpr.iloc[-2]
    assert clf.operating_range.hi == pytest.approx((1 - f2) / (2 - f2 - t2), abs=1e-12)
    # every vertex's own operating range is closed-form too, and its line is optimal inside it
    for f, t in zip(h.fpr.iloc[1:-1], h.tpr.iloc[1:-1]):
        one = cw.Classifier.from_roc([f], [t])
        assert one.operating_range == pytest.approx((f / (f + t), (1 - f) / (2 - f - t)), abs=1e-12)


def test_constraints_against_raw_scores(fitted):
    y, s, pos, clf = fitted
    is_pos = y == pos
    P, N = is_pos.sum(), (~is_pos).sum()
    for max_fpr in (0.0, 0.05, 0.1, 0.33, 1.0):
        r = clf.neyman_pearson(max_fpr)
        tp, fp = brute.counts_at(is_pos, s, r.single_threshold)
        assert fp / N <= max_fpr
        assert tp / P == r.single_tpr
        # no threshold in the data does better under the constraint
        best = max(
            (
                tpi / P
                for thr in np.unique(s)
                for tpi, fpi in [brute.counts_at(is_pos, s, thr)]
                if fpi / N <= max_fpr
            ),
            default=0.0,
        )
        assert r.single_tpr >= best - 1e-15
        assert r.tpr >= r.single_tpr - 1e-12
        assert r.tpr == pytest.approx(
            brute.hull_tpr_at(clf.hull.fpr, clf.hull.tpr, max_fpr), abs=1e-12
        )
    cap = 0.2 * len(y)
    w = clf.workforce(cap)
    assert w.tpr * P + w.fpr * N == pytest.approx(cap, rel=1e-12)


def test_demo_scores_all_models_against_sklearn_and_brute_force():
    for dataset in ("sonar", "german_credit"):
        demo = load_demo_scores(dataset)
        pos = positive_label(dataset)
        clfs = []
        for model, part in demo.groupby("model"):
            clf = cw.Classifier.from_scores(part.label, part.score, pos_label=pos, name=model)
            fpr, tpr, thr = roc_curve(
                part.label, part.score, pos_label=pos, drop_intermediate=False
            )
            np.testing.assert_array_equal(clf.roc.threshold.to_numpy(), thr)
            np.testing.assert_allclose(clf.roc.fpr, fpr, rtol=1e-12)
            np.testing.assert_allclose(clf.roc.tpr, tpr, rtol=1e-12)
            clfs.append(clf)
        ce = cw.combined_envelope(clfs)
        x = np.linspace(0, 1, 201)
        best = np.min([brute.envelope_min(c.roc.fpr, c.roc.tpr, x) for c in clfs], axis=0)
        row = np.clip(np.searchsorted(ce.pcf_hi.to_numpy(), x, side="left"), 0, len(ce) - 1)
        line = (1 - ce.tpr.to_numpy()[row] - ce.fpr.to_numpy()[row]) * x + ce.fpr.to_numpy()[row]
        np.testing.assert_allclose(line, best, atol=1e-12)
        c = cw.compare(clfs[0], clfs[1])
        for root in c.crossovers:
            assert clfs[0].nec(root) == pytest.approx(clfs[1].nec(root), abs=1e-12)
