"""The decision rule and its scikit-learn estimator, against brute force over every threshold."""

import json
import math

import numpy as np
import pytest

import costwidget as cw
from costwidget.model import decision_rule, to_estimator

sklearn = pytest.importorskip("sklearn")
from sklearn.utils.fixes import parse_version  # noqa: E402

HAS_FIXED = parse_version(sklearn.__version__) >= parse_version("1.5")
needs_fixed = pytest.mark.skipif(not HAS_FIXED,
                                 reason="FixedThresholdClassifier needs sklearn >= 1.5")


def _data(seed, n=60, ties=True):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 1)
    return y, s


def _rates(y, s, t):
    pred = s >= t
    return pred[y == 0].mean(), pred[y == 1].mean()


def _all_rates(y, s):
    """(threshold, fpr, tpr) of every deterministic rule 'score >= t'."""
    ts = np.concatenate(([np.inf], np.unique(s)[::-1]))
    return [(t, *_rates(y, s, t)) for t in ts]


def _nec(pcf, fpr, tpr):
    return pcf * (1 - tpr) + (1 - pcf) * fpr


@pytest.mark.parametrize("seed", range(8))
def test_rule_is_the_cheapest_threshold_and_its_interval_is_where_it_stays_so(seed):
    y, s = _data(seed)
    clf = cw.Classifier.from_scores(y, s, name="m")
    rng = np.random.default_rng(100 + seed)
    p_pos, cost_fn, cost_fp = rng.uniform(0.05, 0.95), rng.uniform(0.1, 10), rng.uniform(0.1, 10)
    rule = decision_rule(clf, p_pos=p_pos, cost_fn=cost_fn, cost_fp=cost_fp)
    pcf = p_pos * cost_fn / (p_pos * cost_fn + (1 - p_pos) * cost_fp)
    rules = _all_rates(y, s)
    # Expected cost per case, straight from the costs: no PCF(+) or normalization involved.
    costs = [p_pos * cost_fn * (1 - tpr) + (1 - p_pos) * cost_fp * fpr for _, fpr, tpr in rules]
    assert rule.expected_cost == pytest.approx(min(costs), abs=1e-12)
    assert rule.pcf == pytest.approx(pcf, abs=1e-15)
    assert rule.nec == pytest.approx(min(_nec(pcf, f, t) for _, f, t in rules), abs=1e-12)
    # The threshold, applied to the raw scores, gives the recorded rates.
    assert _rates(y, s, rule.threshold) == pytest.approx((rule.fpr, rule.tpr), abs=1e-15)
    # Inside the interval this rule is optimal; just outside it is beaten.
    assert rule.pcf_lo <= pcf <= rule.pcf_hi
    for x in np.linspace(rule.pcf_lo, rule.pcf_hi, 7):
        best = min(_nec(x, f, t) for _, f, t in rules)
        assert _nec(x, rule.fpr, rule.tpr) == pytest.approx(best, abs=1e-12)
    for x in (rule.pcf_lo - 1e-6, rule.pcf_hi + 1e-6):
        if 0 <= x <= 1:
            best = min(_nec(x, f, t) for _, f, t in rules)
            assert _nec(x, rule.fpr, rule.tpr) > best + 1e-9


def _feasible_vertices(y, s, max_fpr):
    """Every deterministic rule within FPR <= max_fpr, and every two-threshold mix that meets
    FPR = max_fpr exactly: the vertices of the set of allowed (FPR, TPR)."""
    pts = [(f, t) for _, f, t in _all_rates(y, s)]
    out = [(f, t) for f, t in pts if f <= max_fpr]
    for f1, t1 in pts:
        for f2, t2 in pts:
            if f1 < max_fpr < f2:
                w = (max_fpr - f1) / (f2 - f1)
                out.append((max_fpr, t1 + w * (t2 - t1)))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_neyman_pearson_rule_against_brute_force(seed):
    y, s = _data(seed, n=40)
    clf = cw.Classifier.from_scores(y, s, name="m")
    max_fpr = np.random.default_rng(seed).uniform(0.05, 0.5)
    cp = clf.neyman_pearson(max_fpr)
    rule = decision_rule(clf, p_pos=0.4, cost_fn=5.0, cost_fp=1.0, constrained=cp)
    allowed = _feasible_vertices(y, s, max_fpr)
    assert rule.constraint == "neyman_pearson"
    assert rule.tpr == pytest.approx(max(t for _, t in allowed), abs=1e-12)
    assert rule.fpr <= max_fpr + 1e-12
    if rule.randomized:
        lo_rates = _rates(y, s, rule.threshold_low)
        hi_rates = _rates(y, s, rule.threshold_high)
        mix = [rule.prob_low * a + (1 - rule.prob_low) * b for a, b in zip(lo_rates, hi_rates)]
        assert mix == pytest.approx([rule.fpr, rule.tpr], abs=1e-12)
        # The single threshold offered is the best deterministic rule within the limit.
        det = [(f, t) for _, f, t in _all_rates(y, s) if f <= max_fpr]
        assert _rates(y, s, rule.threshold)[1] == pytest.approx(max(t for _, t in det), abs=1e-12)
    # On [pcf_lo, 1] the rule is the cheapest allowed; just below pcf_lo a cheaper one exists.
    for x in np.linspace(rule.pcf_lo, 1.0, 6):
        best = min(_nec(x, f, t) for f, t in allowed)
        assert _nec(x, rule.fpr, rule.tpr) == pytest.approx(best, abs=1e-12)
    if rule.pcf_lo > 1e-6:
        x = rule.pcf_lo - 1e-6
        assert _nec(x, rule.fpr, rule.tpr) > min(_nec(x, f, t) for f, t in allowed) + 1e-10


def test_to_dict_is_strict_json():
    clf = cw.Classifier.from_scores([1, 0, 1, 0], [0.1, 0.2, 0.3, 0.9], name="m")
    rule = decision_rule(clf, p_pos=0.5, cost_fn=1.0, cost_fp=1e6)  # all negative: threshold +inf
    text = json.dumps(rule.to_dict(), allow_nan=False)
    back = json.loads(text)
    assert back["threshold"] == "inf" and back["classifier"] == "m"
    assert set(back) >= {"pcf", "p_pos", "cost_fn", "cost_fp", "nec", "expected_cost",
                         "pcf_lo", "pcf_hi", "threshold_low", "threshold_high", "prob_low"}
    with pytest.raises(AttributeError):
        rule.threshold = 0.5  # frozen


def _models():
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    return [LogisticRegression(), LinearSVC(random_state=0)]


def _positive_score(model, X, pos_label):
    """The positive class's score, computed here from the estimator's own outputs."""
    classes = list(model.classes_)
    if hasattr(model, "predict_proba"):
        return model.predict_proba(X)[:, classes.index(pos_label)]
    d = model.decision_function(X)
    return d if classes.index(pos_label) == 1 else -d


@needs_fixed
@pytest.mark.parametrize("model_index", [0, 1])
@pytest.mark.parametrize("pos_label", ["bad", "good"])
def test_to_estimator_predicts_score_at_least_threshold(model_index, pos_label):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 3))
    y = np.where(X[:, 0] - X[:, 1] + rng.normal(size=300) > 0, "bad", "good")
    model = _models()[model_index].fit(X[:150], y[:150])
    clf = cw.Classifier.from_estimator(model, X[150:], y[150:], pos_label=pos_label, name="m")
    score = _positive_score(model, X[150:], pos_label)
    other = "good" if pos_label == "bad" else "bad"
    for cost_fn in (0.2, 1.0, 5.0):
        rule = decision_rule(clf, p_pos=0.5, cost_fn=cost_fn, cost_fp=1.0)
        deployed = to_estimator(clf, rule)
        expected = np.where(score >= rule.threshold, pos_label, other)
        np.testing.assert_array_equal(deployed.predict(X[150:]), expected)
        assert deployed.response_method == ("predict_proba" if model_index == 0
                                            else "decision_function")
        assert deployed.pos_label == pos_label


@needs_fixed
def test_randomized_rule_is_refused_with_the_best_single_threshold():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
    model = LogisticRegression().fit(X[:100], y[:100])
    clf = cw.Classifier.from_estimator(model, X[100:], y[100:], name="lr")
    fprs = np.sort(clf.hull.fpr.unique())
    cp = clf.neyman_pearson(float(fprs[1] + fprs[2]) / 2)  # strictly inside a hull edge
    rule = decision_rule(clf, p_pos=0.5, cost_fn=10.0, cost_fp=1.0, constrained=cp)
    assert rule.randomized
    with pytest.raises(ValueError, match="randomized") as err:
        to_estimator(clf, rule)
    assert f"{rule.threshold:.6g}" in str(err.value)


@needs_fixed
def test_cross_validated_classifier_is_refit_on_all_the_data():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(2)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
    clf = cw.Classifier.from_estimator(LogisticRegression(), X, y, cv=4, name="cv")
    rule = decision_rule(clf, p_pos=0.5, cost_fn=3.0, cost_fp=1.0)
    deployed = to_estimator(clf, rule)
    full = LogisticRegression().fit(X, y)
    np.testing.assert_array_equal(deployed.predict(X),
                                  (full.predict_proba(X)[:, 1] >= rule.threshold).astype(int))


def test_not_from_an_estimator_is_refused():
    clf = cw.Classifier.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.9], name="m")
    with pytest.raises(ValueError, match="from_estimator"):
        to_estimator(clf, decision_rule(clf))


def test_widget_rule_is_the_highlighted_row_and_follows_the_constraint():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    a = cw.Classifier.from_scores(y, y + rng.normal(size=200), name="a")
    b = cw.Classifier.from_scores(y, y + 2 * rng.normal(size=200), name="b")
    w = cw.CostWidget([b, a], p_pos=0.3, cost_fn=4.0, cost_fp=1.0)
    try:
        costs = {c.name: decision_rule(c, p_pos=0.3, cost_fn=4.0, cost_fp=1.0).expected_cost
                 for c in (a, b)}
        rule = w.decision_rule()
        assert rule.classifier == min(costs, key=costs.get)
        assert w.decision_rule("b").expected_cost == pytest.approx(costs["b"], abs=1e-12)
        w.max_fpr = 0.1
        w.constraint = "neyman_pearson"
        rule = w.decision_rule("a")
        assert rule.constraint == "neyman_pearson" and rule.fpr <= 0.1 + 1e-12
        assert rule.tpr == pytest.approx(w.constrained["a"].tpr, abs=1e-15)
        with pytest.raises(ValueError, match="No classifier named"):
            w.decision_rule("zzz")
    finally:
        w.close()


@pytest.mark.skipif(HAS_FIXED, reason="only on scikit-learn < 1.5")
def test_old_sklearn_is_refused_clearly():
    from sklearn.linear_model import LogisticRegression

    X = np.arange(20.0).reshape(-1, 1)
    y = (X[:, 0] > 9).astype(int)
    clf = cw.Classifier.from_estimator(LogisticRegression().fit(X, y), X, y, name="lr")
    with pytest.raises(ImportError, match="1.5"):
        to_estimator(clf, decision_rule(clf))


def test_json_value_handles_nan():
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    d = decision_rule(clf, p_pos=0.5).to_dict()
    assert d["threshold"] is None or not (isinstance(d["threshold"], float)
                                          and math.isnan(d["threshold"]))
    json.dumps(d, allow_nan=False)


def test_snapshot_and_page_carry_the_rule(tmp_path):
    a = cw.Classifier.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.5, 0.4, 0.9, 0.3, 0.7],
                                  name="<b>a</b>")
    w = cw.CostWidget([a], p_pos=0.5)
    try:
        snap = json.loads(json.dumps(w.snapshot(), allow_nan=False))
        rule = decision_rule(a, p_pos=0.5)
        assert snap["decision_rule"]["classifier"] == "<b>a</b>"
        assert snap["decision_rule"]["nec"] == pytest.approx(rule.nec, abs=1e-15)
        text = w.to_html(tmp_path / "p.html").read_text(encoding="utf-8")
        assert "costwidget-decision-rule" in text and "Rule to deploy" in text
        section = text.split("costwidget-decision-rule")[1].split("</section>")[0]
        assert "&lt;b&gt;a&lt;/b&gt;" in section and "<b>a</b>" not in section
        w.restore(snap)  # the extra record does not break restoring
    finally:
        w.close()
