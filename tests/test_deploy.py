"""The decision rule and its scikit-learn estimator, against brute force over every threshold."""

import json
import math
import re
from fractions import Fraction

import brute_constraints as bc
import numpy as np
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from sklearn.base import clone  # noqa: E402

import costwidget as cw
from costwidget.model import decision_rule, to_estimator

sklearn = pytest.importorskip("sklearn")
from sklearn.utils.fixes import parse_version  # noqa: E402

HAS_FIXED = parse_version(sklearn.__version__) >= parse_version("1.5")
needs_fixed = pytest.mark.skipif(
    not HAS_FIXED, reason="FixedThresholdClassifier needs sklearn >= 1.5"
)


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


KINDS = ("neyman_pearson", "workforce")
LIMITS = (
    "binding at a ROC point",
    "binding inside an edge",
    "at the cheapest rule's load",
    "above the cheapest rule's load",
    "allowing every rule",
)


@st.composite
def constrained_states(draw):
    """A classifier's raw scores (tied on a coarse grid), an operating point, and a constraint
    whose limit is drawn to land in each case: binding at a ROC point (0 among them), binding
    inside an edge (a randomized mix), and not binding (at or above the cheapest rule's load,
    or allowing every rule). Costs can tie two ROC points at the operating point."""
    n = draw(st.integers(2, 24))
    y = [True, False] + draw(st.lists(st.booleans(), min_size=n - 2, max_size=n - 2))
    s = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    points = bc.roc_rates(y, s)
    kind = draw(st.sampled_from(KINDS))
    n_pos, n_neg = sum(y), n - sum(y)
    if kind == "workforce" and draw(st.booleans()):
        n_pos, n_neg = draw(st.integers(1, 60)), draw(st.integers(0, 60))  # another population
    load = bc.neyman_pearson_load if kind == "neyman_pearson" else bc.workforce_load(n_pos, n_neg)
    if draw(st.booleans()):  # costs tying two ROC points: p(+) = 1/2, costs their rate gaps
        (_, f1, t1), (_, f2, t2) = draw(st.permutations(points))[:2]
        p_pos, cost_fn, cost_fp = 0.5, float(abs(f2 - f1)) or 1.0, float(abs(t2 - t1)) or 1.0
    else:
        p_pos = draw(st.sampled_from([0.05, 0.2, 0.4, 0.5, 0.75, 0.95]))
        cost_fn, cost_fp = (draw(st.sampled_from([0.25, 1.0, 3.0, 10.0])) for _ in "ab")
    cost = bc.expected_cost(p_pos, cost_fn, cost_fp)
    loads = sorted({load(f, t) for _, f, t in points})
    # The lowest load of a cheapest rule: a limit below it binds, at or above it does not.
    low = min(load(f, t) for _, f, t in points if cost(f, t) == bc.cheapest(points, cost))
    below = [v for v in loads if v <= low]
    case = draw(st.sampled_from(LIMITS))
    if case == "binding at a ROC point":
        limit = float(draw(st.sampled_from(below[:-1] or below)))
    elif case == "binding inside an edge" and len(below) > 1:
        i = draw(st.integers(0, len(below) - 2))
        limit = float((below[i] + below[i + 1]) / 2)
    elif case == "at the cheapest rule's load":
        limit = float(low)
    elif case == "above the cheapest rule's load":
        limit = float(low + (loads[-1] - low) * Fraction(draw(st.integers(1, 4)), 5))
    else:
        limit = float(loads[-1])
    return y, s, kind, limit, (n_pos, n_neg), (p_pos, cost_fn, cost_fp)


def _constraint(clf, kind, limit, population):
    if kind == "neyman_pearson":
        return clf.neyman_pearson(limit)
    return clf.workforce(limit, n_pos=population[0], n_neg=population[1])


def _realized_rates(y, s, rule):
    """The rule's (FPR, TPR), recomputed by classifying the raw scores (a mix for a randomized
    rule)."""
    if not rule.randomized:
        return _rates(y, s, rule.threshold)
    low, high = _rates(y, s, rule.threshold_low), _rates(y, s, rule.threshold_high)
    return tuple(rule.prob_low * a + (1 - rule.prob_low) * b for a, b in zip(low, high))


@settings(max_examples=150)
@given(constrained_states())
# Found by CI and by the ci-long profile: a capacity 1e-17 past a vertex's load allows a mix
# whose weight is float noise.
@example(
    (
        [True, False, False, False, False, True, True, True, True, True],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        "workforce",
        0.8333333333333334,
        (5, 0),
        (0.05, 10.0, 0.25),
    )
)
@example(
    (
        [
            True,
            False,
            False,
            False,
            False,
            True,
            True,
            True,
            False,
            True,
            True,
            True,
            True,
            False,
            True,
        ],
        [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 4, 3],
        "workforce",
        0.3888888888888889,
        (1, 1),
        (0.5, 1.0, 1.0),
    )
)
def test_constrained_rule_is_the_cheapest_allowed_rule(state):
    """Under a constraint the rule is the cheapest one allowed, over every ROC point and every
    mix of two (tests/brute_constraints.py): where the limit binds that is the paper's point
    (Drummond & Holte (2000), sec. 2.2.2), where it does not, the unconstrained cheapest rule."""
    y, s, kind, limit, population, (p_pos, cost_fn, cost_fp) = state
    y = np.asarray(y)
    s = np.asarray(s, dtype=float)
    points = bc.roc_rates(y, s)
    load = bc.neyman_pearson_load if kind == "neyman_pearson" else bc.workforce_load(*population)
    cost = bc.expected_cost(p_pos, cost_fn, cost_fp)
    clf = cw.Classifier.from_scores(y, s, name="m")
    rule = decision_rule(
        clf,
        p_pos=p_pos,
        cost_fn=cost_fn,
        cost_fp=cost_fp,
        constrained=_constraint(clf, kind, limit, population),
    )
    event(
        f"{kind}; {'binding' if bc.binds(points, load, limit, cost) else 'not binding'}; "
        f"{'randomized' if rule.randomized else 'one threshold'}"
    )
    scale = p_pos * cost_fn + (1 - p_pos) * cost_fp
    best = bc.cheapest_allowed(points, load, limit, cost)
    assert rule.constraint == kind
    assert rule.expected_cost == pytest.approx(float(best), abs=1e-12 * scale)
    # The rule is allowed, and classifying the raw scores with it gives its rates.
    fpr, tpr = _realized_rates(y, s, rule)
    assert (fpr, tpr) == pytest.approx((rule.fpr, rule.tpr), abs=1e-12)
    assert float(load(Fraction(fpr), Fraction(tpr))) <= limit + 1e-9 * max(1.0, limit)
    # On [pcf_lo, pcf_hi] the rule stays the cheapest allowed; just outside, another is cheaper.
    # At a tie between two vertices the hand-over is computed in floating point twice (by
    # clf.best and by the interval), and the two may differ by an ulp.
    assert rule.pcf_lo - 4e-16 <= rule.pcf <= rule.pcf_hi + 4e-16
    extremes = bc.allowed_extremes(points, load, limit)
    for x in np.linspace(rule.pcf_lo, rule.pcf_hi, 5):
        best_nec = min(_nec(x, float(f), float(t)) for f, t in extremes)
        assert _nec(x, rule.fpr, rule.tpr) == pytest.approx(best_nec, abs=1e-12)
    # A rule on the limit itself stays the cheapest allowed up to PCF(+) = 1, but the code reads
    # the workforce load in floating point (0.6 * 9 = 5.3999999999999995 < 5.4): a capacity equal
    # to a vertex's load then allows a mix 1e-16 past it, and pcf_hi ends where that mix takes
    # over. JS mirrors that expression (parity), so only the upper end is left unchecked there.
    # On the limit up to float noise: the rates are floats (1/6 + 2/9 against a capacity 7/18).
    on_limit = abs(load(Fraction(fpr), Fraction(tpr)) - Fraction(limit)) <= 1e-12 * max(1, limit)
    # A mix whose weight on one side is float noise (the limit 1e-17 past a vertex's load: a
    # capacity of 0.8333333333333334 against 5 · 1/6) is allowed and exact, but it costs the
    # same as its vertex to 1e-16 below its hand-over: no rule is cheaper there by 1e-10.
    degenerate = rule.randomized and min(rule.prob_low, 1 - rule.prob_low) < 1e-9
    for x in (
        None if degenerate else rule.pcf_lo - 1e-6,
        None if on_limit or degenerate else rule.pcf_hi + 1e-6,
    ):
        if x is not None and 0 <= x <= 1:
            best_nec = min(_nec(x, float(f), float(t)) for f, t in extremes)
            assert _nec(x, rule.fpr, rule.tpr) > best_nec + 1e-10


def test_a_constraint_that_allows_the_cheapest_rule_does_not_change_it():
    """Issue 31's case: no constraint gives 'score >= 0.6, 0.1 per case'; max FPR = 100 % and
    20 % allow that rule (FPR 0), so the answer stays it (not the paper's point, 0.8 and 0.52)."""
    y = [0, 0, 1, 1, 0, 1, 0, 0, 0, 1]
    s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.55, 0.3, 0.05, 0.6]
    clf = cw.Classifier.from_scores(y, s, name="m")
    for cp in (
        clf.neyman_pearson(1.0),
        clf.neyman_pearson(0.2),
        clf.workforce(5, n_pos=4, n_neg=6),
    ):
        rule = decision_rule(clf, p_pos=0.4, cost_fn=1.0, cost_fp=4.0, constrained=cp)
        assert (rule.threshold, rule.fpr, rule.tpr) == (0.59, 0.0, 0.75)
        assert rule.expected_cost == pytest.approx(0.1, abs=1e-15)


def test_to_dict_is_strict_json():
    clf = cw.Classifier.from_scores([1, 0, 1, 0], [0.1, 0.2, 0.3, 0.9], name="m")
    rule = decision_rule(clf, p_pos=0.5, cost_fn=1.0, cost_fp=1e6)  # all negative: threshold +inf
    text = json.dumps(rule.to_dict(), allow_nan=False)
    back = json.loads(text)
    assert back["threshold"] == "inf" and back["classifier"] == "m"
    assert set(back) >= {
        "pcf",
        "p_pos",
        "cost_fn",
        "cost_fp",
        "nec",
        "expected_cost",
        "pcf_lo",
        "pcf_hi",
        "threshold_low",
        "threshold_high",
        "prob_low",
    }
    from dataclasses import FrozenInstanceError

    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'threshold'"):
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
        assert deployed.response_method == (
            "predict_proba" if model_index == 0 else "decision_function"
        )
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
    np.testing.assert_array_equal(
        deployed.predict(X), (full.predict_proba(X)[:, 1] >= rule.threshold).astype(int)
    )


def test_not_from_an_estimator_is_refused():
    clf = cw.Classifier.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.9], name="m")
    with pytest.raises(ValueError, match="from_estimator"):
        to_estimator(clf, decision_rule(clf))


WIDGET_COSTS = (0.3, 4.0, 1.0)


def _widget_models(seed):
    """Two models' tied scores of the same 80 cases."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 80).astype(bool)
    y[:2] = [True, False]
    return y, {
        "a": np.round(y + rng.normal(size=80), 1),
        "b": np.round(y + 2 * rng.normal(size=80), 1),
    }


def _check_widget_rule(w, y, scores_of, kind, limit, population, costs=WIDGET_COSTS):
    """``w.decision_rule()`` names the model whose cheapest allowed rule costs least (brute
    force over every ROC point and two-point mix), at that cost, with an allowed rule that
    classifying the raw scores reproduces."""
    cost = bc.expected_cost(*costs)
    points = {n: bc.roc_rates(y, s) for n, s in scores_of.items()}
    if kind == "none":
        expected = {n: bc.cheapest(pts, cost) for n, pts in points.items()}
    else:
        load = (
            bc.neyman_pearson_load if kind == "neyman_pearson" else bc.workforce_load(*population)
        )
        expected = {n: bc.cheapest_allowed(pts, load, limit, cost) for n, pts in points.items()}
    winner = min(expected, key=expected.get)
    assert sorted(expected.values())[1:2] != [expected[winner]]  # no tie in these states
    rule = w.decision_rule()
    assert rule.classifier == winner
    assert rule.constraint == (None if kind == "none" else kind)
    assert rule.expected_cost == pytest.approx(float(expected[winner]), abs=1e-12)
    fpr, tpr = _realized_rates(y, scores_of[winner], rule)
    assert (fpr, tpr) == pytest.approx((rule.fpr, rule.tpr), abs=1e-12)
    if kind != "none":
        assert float(load(Fraction(fpr), Fraction(tpr))) <= limit + 1e-9 * max(1.0, limit)
    for name in scores_of:  # a named model's rule is its own cheapest allowed
        assert w.decision_rule(name).expected_cost == pytest.approx(
            float(expected[name]), abs=1e-12
        )


def _set_constraint(w, kind, limit, population):
    if kind == "neyman_pearson":
        w.update(constraint=kind, max_fpr=limit)
    elif kind == "workforce":
        w.update(
            constraint=kind, n_pos=float(population[0]), n_neg=float(population[1]), capacity=limit
        )


@pytest.mark.parametrize("seed", [5, 6])
@pytest.mark.parametrize(
    "kind, where",
    [
        ("none", None),
        ("neyman_pearson", "vertex"),
        ("neyman_pearson", "edge"),
        ("workforce", "vertex"),
        ("workforce", "edge"),
    ],
)
def test_widget_rule_is_the_brute_force_cheapest_allowed(seed, kind, where):
    """Without a constraint, and under one that binds for every model, the widget's rule is the
    cheapest (allowed) rule of all models, by brute force."""
    y, scores_of = _widget_models(seed)
    population = (int(y.sum()), int((~y).sum()))
    limit = None
    if kind != "none":
        load = (
            bc.neyman_pearson_load if kind == "neyman_pearson" else bc.workforce_load(*population)
        )
        limit = float(
            bc.binding_limit(
                [bc.roc_rates(y, s) for s in scores_of.values()],
                load,
                bc.expected_cost(*WIDGET_COSTS),
                where,
            )
        )
    w = cw.CostWidget(
        [cw.Classifier.from_scores(y, s, name=n) for n, s in scores_of.items()],
        p_pos=WIDGET_COSTS[0],
        cost_fn=WIDGET_COSTS[1],
        cost_fp=WIDGET_COSTS[2],
    )
    try:
        _set_constraint(w, kind, limit, population)
        _check_widget_rule(w, y, scores_of, kind, limit, population)
        with pytest.raises(ValueError, match="No classifier named 'zzz'; the classifiers are"):
            w.decision_rule("zzz")
    finally:
        w.close()


ISSUE_31_Y = np.array([0, 0, 1, 1, 0, 1, 0, 0, 0, 1], dtype=bool)
ISSUE_31_S = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.55, 0.3, 0.05, 0.6])


@pytest.mark.parametrize(
    "kind, limit", [("neyman_pearson", 1.0), ("neyman_pearson", 0.2), ("workforce", 5.0)]
)
def test_widget_rule_of_one_model_under_a_constraint_that_does_not_bind(kind, limit):
    """Issue 31's case: every limit here allows the unconstrained rule (score >= 0.6, 0.1 per
    case at these costs), so ``w.decision_rule()`` is that rule."""
    scores_of = {"m": ISSUE_31_S}
    w = cw.CostWidget(
        [cw.Classifier.from_scores(ISSUE_31_Y, ISSUE_31_S, name="m")],
        p_pos=0.4,
        cost_fn=1.0,
        cost_fp=4.0,
    )
    try:
        _set_constraint(w, kind, limit, (4, 6))
        _check_widget_rule(w, ISSUE_31_Y, scores_of, kind, limit, (4, 6), costs=(0.4, 1.0, 4.0))
        assert (w.decision_rule().threshold, w.decision_rule().expected_cost) == (0.59, 0.1)
    finally:
        w.close()


def test_widget_rule_picks_the_model_whose_allowed_rule_is_cheapest():
    """Max FPR 100 % allows every rule: 'm' at score >= 0.6 costs 0.1, 'k' at best 0.4; the
    readout costs 'm' at its paper's point (0.8) and so the widget deploys 'k'."""
    k_scores = np.where(ISSUE_31_Y, 0.9, 0.1)
    k_scores[1] = 0.9  # one negative among the positives: k costs 0.4 at best
    scores_of = {"m": ISSUE_31_S, "k": k_scores}
    w = cw.CostWidget(
        [cw.Classifier.from_scores(ISSUE_31_Y, s, name=n) for n, s in scores_of.items()],
        p_pos=0.4,
        cost_fn=1.0,
        cost_fp=4.0,
    )
    try:
        _set_constraint(w, "neyman_pearson", 1.0, None)
        _check_widget_rule(
            w, ISSUE_31_Y, scores_of, "neyman_pearson", 1.0, None, costs=(0.4, 1.0, 4.0)
        )
    finally:
        w.close()


def test_widget_rule_under_a_tie_names_the_tied_models():
    y, scores_of = _widget_models(5)
    w = cw.CostWidget(
        [cw.Classifier.from_scores(y, scores_of["a"], name=n) for n in ("a", "a twin")],
        p_pos=0.3,
        cost_fn=4.0,
        cost_fp=1.0,
    )
    try:
        assert w.headline.text.startswith("Tie: 2 classifiers")
        with pytest.raises(ValueError, match="'a'.*'a twin'"):
            w.decision_rule()
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
    assert d["threshold"] is None or not (
        isinstance(d["threshold"], float) and math.isnan(d["threshold"])
    )
    json.dumps(d, allow_nan=False)


def test_snapshot_and_page_carry_the_rule(tmp_path):
    a = cw.Classifier.from_scores(
        [0, 0, 1, 1, 0, 1], [0.1, 0.5, 0.4, 0.9, 0.3, 0.7], name="<b>a</b>"
    )
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


# ------------------------------------------------------------------------------ one threshold (issue 43)
def _fitted_states():
    """States built from fitted scikit-learn estimators: three models, three data sets, and
    operating points from p(+) 0.1 to 0.9 with unequal costs."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    models = (
        LogisticRegression(),
        GaussianNB(),
        DecisionTreeClassifier(max_depth=4, random_state=0),
    )
    for seed in range(3):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(300, 3))
        y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=300) > 0.3).astype(int)
        for model in models:
            model = clone(model).fit(X[:150], y[:150])
            clf = cw.Classifier.from_estimator(model, X[150:], y[150:], name=type(model).__name__)
            for p, c_fn in ((0.1, 4.0), (0.3, 2.0), (0.5, 1.0), (0.7, 1.0)):
                yield clf, model, X[150:], y[150:], dict(p_pos=p, cost_fn=c_fn, cost_fp=1.0)


@needs_fixed
def test_the_threshold_shown_is_the_threshold_deployed_on_fitted_estimators():
    """Issue 43: the headline's number, read back, is the float of the rule, the readout and
    ``to_estimator``; and ``score >= it`` flags exactly the rule's cases on the data (its TPR
    and FPR recomputed from the labels and the estimator's own scores)."""
    pytest.importorskip("sklearn.model_selection", minversion=None)
    from sklearn.model_selection import FixedThresholdClassifier  # noqa: F401

    states = 0
    for clf, model, X, y, state in _fitted_states():
        d = cw.decide([clf], **state)
        rule = d.rule
        if not math.isfinite(rule.threshold):
            continue
        states += 1
        said = re.search(r"at score ≥ (\S+?):", d.headline).group(1)
        assert float(said) == rule.threshold, (d.headline, rule.threshold)
        assert d.table().loc[clf.name, "threshold"] == rule.threshold
        deployed = to_estimator(clf, rule)
        assert deployed.threshold == rule.threshold
        score = model.predict_proba(X)[:, 1]
        flagged = score >= float(said)
        assert flagged[y == 1].mean() == rule.tpr and flagged[y == 0].mean() == rule.fpr
        assert np.array_equal(deployed.predict(X) == 1, flagged)
    assert states >= 30, states


@needs_fixed
def test_flag_every_case_deploys_minus_infinity_and_flags_new_low_scores():
    """Issue 43: where the (1, 1) corner is cheapest the rule flags every case: it deploys -inf,
    so a new case scored below every training score is flagged too; "flag no case" stays +inf."""
    pytest.importorskip("sklearn.model_selection", minversion=None)
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
    y[-1], X[-1] = 1, [-10.0, 0.0]  # a positive scored lowest: TPR 1 only at the (1, 1) corner
    y[-2], X[-2] = 0, [10.0, 0.0]  # a negative scored highest: FPR 0 only at (0, 0)
    model = LogisticRegression().fit(X[:100], y[:100])
    clf = cw.Classifier.from_estimator(model, X[100:], y[100:], name="lr")
    d = cw.decide([clf], p_pos=0.95, cost_fn=100.0, cost_fp=1.0)
    assert (d.rule.fpr, d.rule.tpr) == (1.0, 1.0) and d.rule.threshold == -np.inf
    assert "flagging every case" in d.headline
    new = np.array([[-50.0, 0.0], [-80.0, 3.0]])  # scores far below the data's lowest
    assert model.predict_proba(new)[:, 1].max() < model.predict_proba(X[100:])[:, 1].min()
    assert (to_estimator(clf, d.rule).predict(new) == 1).all()
    none = cw.decide([clf], p_pos=0.05, cost_fn=1.0, cost_fp=40.0)
    assert (none.rule.fpr, none.rule.tpr) == (0.0, 0.0) and none.rule.threshold == np.inf
    assert "flagging no case" in none.headline
    assert (to_estimator(clf, none.rule).predict(X[100:]) == 0).all()
