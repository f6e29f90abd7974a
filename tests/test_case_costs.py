"""Costs that differ from case to case: exact against brute force over every threshold and
against empulse's ``cost_loss``; clear errors for bad costs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costwidget as cw


def _money(y, flagged, w, fn, fp, tp, tn):
    """Money per case of a decision, every case counted: written out, cell by cell."""
    total = 0.0
    for i in range(len(y)):
        if y[i] == 1:
            c = tp[i] if flagged[i] else fn[i]
        else:
            c = fp[i] if flagged[i] else tn[i]
        total += w[i] * c
    return total / np.sum(w)


def _brute(y, s, w, fn, fp, tp, tn):
    """The cheapest single threshold (flag score >= t), over every threshold."""
    best = np.inf
    for t in np.concatenate(([np.inf], np.unique(s))):
        best = min(best, _money(y, s >= t, w, fn, fp, tp, tn))
    return best


def _data_set(seed):
    """Heavy-tailed amounts, a fixed fee on both flagged outcomes; weights on odd seeds."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 160))
    y = (rng.random(n) < rng.uniform(0.1, 0.5)).astype(int)
    if seed % 3 == 0:
        amount = rng.pareto(1.1, n) * 40.0  # infinite variance
    else:
        amount = rng.lognormal(3.0, 1.5, n)
    fee = float(rng.choice([2.0, 5.0, 15.0]))
    scores = {
        "a": np.round(rng.normal(size=n) + 1.2 * y, 1),  # many ties
        "b": rng.normal(size=n) + 0.6 * y + 0.01 * np.log1p(amount),
    }
    w = rng.integers(0, 4, n).astype(float) if seed % 2 else np.ones(n)
    w[np.flatnonzero(y)[0]] = 1.0  # both classes keep weight
    w[np.flatnonzero(1 - y)[0]] = 1.0
    tn = np.zeros(n) if seed % 4 else rng.uniform(0, 3, n)  # some with a cost of passing too
    return y, scores, w, amount, fee, tn


SEEDS = range(14)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("mult", [(1.0, 1.0), (2.0, 1.0), (0.25, 3.0)])
def test_decide_is_the_cheapest_threshold_by_brute_force(seed, mult):
    y, scores, w, amount, fee, tn = _data_set(seed)
    costs = {"cost_fn": amount, "cost_fp": fee, "cost_tp": fee, "cost_tn": tn}
    models = cw.classifiers_from_predictions(y, scores, sample_weight=w, **costs)
    m_fn, m_fp = mult
    d = cw.decide(models, cost_fn=m_fn, cost_fp=m_fp)
    n = len(y)
    cells = (m_fn * amount, m_fp * np.full(n, fee), np.full(n, fee), tn)
    brute = {k: _brute(y, s, w, *cells) for k, s in scores.items()}
    want = min(brute.values())
    first = d.of(d.lowest[0])  # the chosen one, or the first of a tie
    got = first.rule.expected_cost
    assert abs(got - want) <= 1e-9 * abs(want)
    # The rule deployed costs what it says, on the data: predictions s >= threshold.
    deployed = scores[first.name] >= first.rule.threshold
    assert abs(_money(y, deployed, w, *cells) - got) <= 1e-9 * abs(want)
    for name, rule_cost in ((c.name, c.rule.expected_cost) for c in d.classifiers):
        assert abs(rule_cost - brute[name]) <= 1e-9 * abs(brute[name])
    assert d.cost_fn == m_fn and d.cost_fp == m_fp


@pytest.mark.parametrize("seed", SEEDS)
def test_expected_cost_is_empulse_cost_loss_of_the_deployed_predictions(seed):
    empulse_metrics = pytest.importorskip("empulse.metrics")
    y, scores, w, amount, fee, tn = _data_set(seed)
    models = cw.classifiers_from_predictions(
        y, scores, sample_weight=w, cost_fn=amount, cost_fp=fee, cost_tp=fee, cost_tn=tn
    )
    d = cw.decide(models)
    rule = d.of(d.lowest[0]).rule
    flagged = (scores[rule.classifier] >= rule.threshold).astype(int)
    k = w.astype(int)  # whole weights: a case of weight k is k cases for empulse
    got = empulse_metrics.cost_loss(
        np.repeat(y, k),
        np.repeat(flagged, k),
        fn_cost=np.repeat(amount, k),
        fp_cost=fee,
        tp_cost=fee,
        tn_cost=np.repeat(tn, k),
        normalize=True,
    )
    assert abs(got - rule.expected_cost) <= 1e-9 * abs(got)


def test_a_positive_cheaper_missed_counts_as_a_negative_exactly():
    # Positives 0 and 1 cost less missed (1) than caught (the fee 10): flagging them is a loss.
    y = np.array([1, 1, 1, 0, 0, 1, 0])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.1])
    fn = np.array([1.0, 1.0, 100.0, 0, 0, 50.0, 0])
    clf = cw.Classifier.from_scores(y, s, name="m", cost_fn=fn, cost_fp=10.0, cost_tp=10.0)
    assert clf.n_pos == pytest.approx(90.0 + 40.0)  # the positives worth catching
    assert clf.n_neg == pytest.approx(9.0 + 9.0 + 30.0)  # 2 positives, 3 negatives
    d = cw.decide([clf])
    want = _brute(y, s, np.ones(7), fn, np.full(7, 10.0), np.full(7, 10.0), np.zeros(7))
    assert d.rule.expected_cost == pytest.approx(want, rel=1e-12)
    assert d.rule.threshold == 0.4  # passing the two cheap positives is not possible here


def test_p_pos_reweights_the_classes():
    y, scores, w, amount, fee, tn = _data_set(5)
    clf = cw.Classifier.from_scores(
        y, scores["b"], name="b", sample_weight=w, cost_fn=amount, cost_fp=fee, cost_tp=fee
    )
    prior = np.sum(w * y) / np.sum(w)
    p = 0.5
    ww = w * np.where(y == 1, p / prior, (1 - p) / (1 - prior))
    n = len(y)
    want = _brute(y, scores["b"], ww, amount, np.full(n, fee), np.full(n, fee), np.zeros(n))
    assert cw.decide([clf], p_pos=p).rule.expected_cost == pytest.approx(want, rel=1e-9)
    assert cw.decide([clf]).p_pos == pytest.approx(prior)


def test_p_pos_defaults_to_the_data_prevalence_per_class():
    y = [0, 0, 1, 1, 0, 1, 0, 0, 0, 1]
    s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.55, 0.3, 0.05, 0.6]
    m = cw.Classifier.from_scores(y, s, name="m")
    assert cw.decide([m], cost_fp=4.0).to_dict() == cw.decide([m], p_pos=0.4, cost_fp=4.0).to_dict()


def test_from_frame_cost_columns_equal_the_arrays():
    y, scores, w, amount, fee, tn = _data_set(2)
    frame = pd.DataFrame(
        {
            "label": np.tile(y, 2),
            "score": np.concatenate([scores["a"], scores["b"]]),
            "model": ["a"] * len(y) + ["b"] * len(y),
            "Amount": np.tile(amount, 2),
        }
    )
    models = cw.Classifier.from_frame(frame, cost_fn="Amount", cost_fp=fee, cost_tp=fee)
    assert models["a"].case_costs.names == ("Amount", None, None, None)
    d = cw.decide(models)
    n = len(y)
    cells = (amount, np.full(n, fee), np.full(n, fee), np.zeros(n))
    brute = {k: _brute(y, s, np.ones(n), *cells) for k, s in scores.items()}
    best = min(brute, key=brute.get)
    assert brute[best] < max(brute.values())  # one is cheaper: the choice is tested
    assert d.chosen == best
    assert d.rule.expected_cost == pytest.approx(brute[best], rel=1e-9)
    deployed = scores[best] >= d.rule.threshold
    assert _money(y, deployed, np.ones(n), *cells) == pytest.approx(brute[best], rel=1e-9)


# ------------------------------------------------------------------------------ bad input
Y = np.array([0, 1, 1, 0, 1])
S = np.array([0.1, 0.9, 0.4, 0.3, 0.8])


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"cost_fn": [1.0, np.nan, 2.0, 1.0, 1.0]}, ValueError, "cost_fn has 1 missing"),
        ({"cost_fp": [1.0, 1.0, 2.0, np.inf, 1.0]}, ValueError, "cost_fp has 1 missing"),
        ({"cost_fn": [1.0, 2.0]}, ValueError, "cost_fn has 2 values but there are 5 cases"),
        ({"cost_tp": "Amount"}, TypeError, "cost_tp='Amount' is text"),
        ({"cost_tn": np.array(["1", "2", "3", "4", "5"])}, TypeError, "cost_tn must be a number"),
        ({"cost_fn": np.ones((5, 2))}, TypeError, "cost_fn must be a number"),
        ({"cost_fn": 0.0, "cost_fp": 0.0}, ValueError, "no case is cheaper"),
    ],
)
def test_bad_costs_name_the_argument_and_the_fix(kwargs, error, words):
    with pytest.raises(error, match=words) as info:
        cw.Classifier.from_scores(Y, S, **kwargs)
    text = str(info.value)
    assert any(fix in text for fix in ("give", "fill", "convert", "check"))


def test_from_frame_refuses_a_missing_cost_column_and_arrays():
    frame = pd.DataFrame({"label": Y, "score": S, "model": "m", "Amount": [1.0, 2, 3, 4, 5]})
    before = frame.copy()
    with pytest.raises(ValueError, match="cost_fn") as info:
        cw.Classifier.from_frame(frame, cost_fn="amount")
    assert "'amount'" in str(info.value)
    with pytest.raises(TypeError, match="cost_fp must be the name of a column"):
        cw.Classifier.from_frame(frame, cost_fn="Amount", cost_fp=np.ones(5))
    bad = frame.assign(Amount=["1", "2", "x", "4", "5"])
    with pytest.raises(TypeError, match="cost_fn must be a number"):
        cw.Classifier.from_frame(bad, cost_fn="Amount")
    pd.testing.assert_frame_equal(frame, before)


def test_decide_refuses_mixed_costs_and_constraints():
    a = cw.Classifier.from_scores(Y, S, name="a", cost_fn=[5.0, 1, 2, 3, 4], cost_fp=1.0)
    b = cw.Classifier.from_scores(Y, S, name="b")
    with pytest.raises(ValueError, match="Some classifiers have per-case costs"):
        cw.decide([a, b])
    with pytest.raises(ValueError, match=r"max_fpr must lie in \[0, 1\]"):
        cw.decide([a], constraint="neyman_pearson", max_fpr=10)  # a limit: as without case costs
    # An honest curve must be of the twin at the decision's multipliers and p(+).
    with pytest.raises(ValueError, match="not of per-case costs"):
        cw.decide([a], honest={"a": None})
    c = cw.Classifier.from_scores(Y, S, name="c", cost_fn=[5.0, 9, 2, 3, 4], cost_fp=1.0)
    with pytest.raises(ValueError, match="different per-case costs"):
        cw.decide([a, c])


# ------------------------------------------------------------------------------ per-case Bayes rule
def _calibrated(seed):
    """Probabilities that are calibrated by construction: labels drawn from them."""
    rng = np.random.default_rng(100 + seed)
    n = 400
    p = rng.beta(0.6, 2.5, n)
    y = (rng.random(n) < p).astype(int)
    amount = rng.pareto(1.3, n) * 30.0
    return y, p, amount, float(rng.choice([1.0, 4.0]))


@pytest.mark.parametrize("seed", range(6))
def test_case_bayes_rule_is_empulse_cost_loss_on_the_probabilities(seed):
    empulse_metrics = pytest.importorskip("empulse.metrics")
    y, p, amount, fee = _calibrated(seed)
    clf = cw.Classifier.from_scores(y, p, name="m", cost_fn=amount, cost_fp=fee, cost_tp=fee)
    rule = cw.case_bayes_rule(clf)
    want = empulse_metrics.cost_loss(y, p, fn_cost=amount, fp_cost=fee, tp_cost=fee, normalize=True)
    assert abs(rule.expected_cost - want) <= 1e-9 * abs(want)
    # The rule's cost from its own flags, written out cell by cell.
    n = len(y)
    assert rule.expected_cost == pytest.approx(
        _money(y, rule.flagged, np.ones(n), amount, np.full(n, fee), np.full(n, fee), np.zeros(n)),
        rel=1e-12,
    )


def test_per_case_rule_table_sets_both_rules_side_by_side():
    empulse_metrics = pytest.importorskip("empulse.metrics")
    y, p, amount, fee = _calibrated(1)
    clf = cw.Classifier.from_scores(y, p, name="m", cost_fn=amount, cost_fp=fee, cost_tp=fee)
    n = len(y)
    table = cw.per_case_rule_table(clf)
    cells = (amount, np.full(n, fee), np.full(n, fee), np.zeros(n))
    assert table.loc["m", "cost_single_threshold"] == pytest.approx(
        _brute(y, p, np.ones(n), *cells), rel=1e-9
    )

    # Under the probabilities themselves the per-case rule is the cheapest of all rules (on a
    # finite sample a tuned threshold may still cost less: the table shows both).
    def expected(flags):
        return np.mean(p * np.where(flags, fee, amount) + (1 - p) * np.where(flags, fee, 0.0))

    bayes = expected(cw.case_bayes_rule(clf).flagged)
    assert all(bayes <= expected(p >= t) + 1e-12 for t in np.unique(p))
    flagged = (p >= table.loc["m", "threshold"]).astype(int)
    savings = empulse_metrics.savings_score(y, flagged, fn_cost=amount, fp_cost=fee, tp_cost=fee)
    assert table.loc["m", "savings_single_threshold"] == pytest.approx(savings, rel=1e-9)
    full = cw.threshold_choice_table(clf)
    assert full.loc["m", "cost_case_bayes"] == table.loc["m", "cost_case_bayes"]


def test_case_bayes_classifier_predicts_from_each_cases_costs():
    empulse_metrics = pytest.importorskip("empulse.metrics")
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] + rng.normal(size=300) > 1).astype(int)
    amount = rng.pareto(1.3, 300) * 30.0
    model = LogisticRegression().fit(X, y)
    deployed = cw.CaseBayesClassifier(model, pos_label=1)
    flags = deployed.predict(X, cost_fn=amount, cost_fp=5.0, cost_tp=5.0)
    p = model.predict_proba(X)[:, 1]
    assert set(np.unique(flags)) <= {0, 1}
    assert empulse_metrics.cost_loss(
        y, flags, fn_cost=amount, fp_cost=5.0, tp_cost=5.0
    ) == pytest.approx(
        empulse_metrics.cost_loss(y, p, fn_cost=amount, fp_cost=5.0, tp_cost=5.0), rel=1e-12
    )
    with pytest.raises(ValueError, match="cost_fn has 3 values but X has 300 rows"):
        deployed.predict(X, cost_fn=[1.0, 2.0, 3.0], cost_fp=5.0)
    from sklearn.base import clone

    assert clone(deployed).get_params()["pos_label"] == 1


def test_case_bayes_rule_refuses_scores_that_are_not_probabilities():
    clf = cw.Classifier.from_scores(Y, S * 3, name="m", cost_fn=10.0, cost_fp=1.0)
    with pytest.raises(ValueError, match="not probabilities"):
        cw.case_bayes_rule(clf)


def test_to_estimator_deploys_the_per_case_rule_with_each_cases_costs():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 2))
    y = (X[:, 0] + rng.normal(size=400) > 0.8).astype(int)
    amount = rng.lognormal(3.0, 1.2, 400)
    model = LogisticRegression().fit(X[:200], y[:200])
    test = slice(200, None)
    clf = cw.Classifier.from_estimator(
        model, X[test], y[test], name="lr", cost_fn=amount[test], cost_fp=8.0, cost_tp=8.0
    )
    rule = cw.case_bayes_rule(clf, cost_fn=2.0)
    deployed = cw.to_estimator(clf, rule)
    flags = deployed.predict(X[test], cost_fn=amount[test], cost_fp=8.0, cost_tp=8.0)
    assert np.array_equal(flags == 1, rule.flagged)
    p = model.predict_proba(X[test])[:, 1]
    by_hand = p * (2.0 * amount[test] - 8.0) > (1 - p) * 8.0
    assert np.array_equal(rule.flagged, by_hand)


# ------------------------------------------------------------------------------ DuckDB
def _long_frame(seed):
    y, scores, w, amount, fee, tn = _data_set(seed)
    n = len(y)
    frame = pd.DataFrame(
        {
            "label": np.tile(y, 2),
            "score": np.concatenate([scores["a"], scores["b"]]),
            "model": ["a"] * n + ["b"] * n,
            "Amount": np.tile(amount, 2),
            "pass_cost": np.tile(tn, 2),
            "wt": np.tile(w, 2),
        }
    )
    return frame, (y, scores, w, amount, fee, tn)


@pytest.mark.parametrize("seed", [0, 1, 4, 7])
def test_from_duckdb_sums_the_costs_and_deploys_the_brute_force_cheapest(seed):
    duckdb = pytest.importorskip("duckdb")
    frame, (y, scores, w, amount, fee, tn) = _long_frame(seed)
    con = duckdb.connect()
    con.register("scored", frame)
    models = cw.from_duckdb(
        "scored",
        connection=con,
        sample_weight="wt",
        cost_fn="Amount",
        cost_fp=fee,
        cost_tp=fee,
        cost_tn="pass_cost",
    )
    assert models["a"].case_costs.names == ("Amount", None, None, "pass_cost")
    d = cw.decide(models)
    n = len(y)
    cells = (amount, np.full(n, fee), np.full(n, fee), tn)
    brute = {k: _brute(y, s, w, *cells) for k, s in scores.items()}
    best = min(brute, key=brute.get)
    assert brute[best] < max(brute.values())  # one is cheaper: the choice is tested
    assert d.chosen == best
    assert abs(d.rule.expected_cost - brute[best]) <= 1e-9 * brute[best]
    deployed = scores[best] >= d.rule.threshold
    assert abs(_money(y, deployed, w, *cells) - brute[best]) <= 1e-9 * brute[best]
    # p(+) reweights the classes' rows exactly as it does the cases.
    prior = np.sum(w * y) / np.sum(w)
    ww = w * np.where(y == 1, 0.5 / prior, 0.5 / (1 - prior))
    want = min(_brute(y, s, ww, *cells) for s in scores.values())
    assert cw.decide(models, p_pos=0.5).rule.expected_cost == pytest.approx(want, rel=1e-9)
    with pytest.raises(ValueError, match="summed in the database"):
        cw.decide(models, cost_fn=2.0)


def test_from_duckdb_refuses_bad_cost_columns_by_name():
    duckdb = pytest.importorskip("duckdb")
    frame, _ = _long_frame(2)
    con = duckdb.connect()
    bad = frame.assign(Amount=frame["Amount"].where(frame.index != 3, np.nan))
    con.register("bad", bad)
    with pytest.raises(ValueError, match=r"Column 'Amount' \(cost_fn=\) has 1 missing"):
        cw.from_duckdb("bad", connection=con, cost_fn="Amount", cost_fp=1.0)
    con.register("scored", frame)
    with pytest.raises(ValueError, match="cost_fn") as info:
        cw.from_duckdb("scored", connection=con, cost_fn="amount", cost_fp=1.0)
    assert "'amount'" in str(info.value)
    con.register("text", frame.assign(Amount=frame["Amount"].astype(str)))
    with pytest.raises(TypeError, match=r"Column 'Amount' \(cost_fn=\) has type VARCHAR"):
        cw.from_duckdb("text", connection=con, cost_fn="Amount", cost_fp=1.0)
    with pytest.raises(TypeError, match="cost_fp must be the name of a column"):
        cw.from_duckdb("scored", connection=con, cost_fn="Amount", cost_fp=[1.0, 2.0])


@pytest.mark.parametrize("n", [7, 5000, 150_000])  # the last one in two threads
def test_cost_weighted_counts_equal_the_weighted_roc_counts(n):
    from costwidget.model.base.case_weighted_roc import cost_weighted_counts
    from costwidget.model.kernels.roc import roc_counts

    rng = np.random.default_rng(n)
    side = rng.random(n) < 0.3
    side[:2] = [True, False]
    scores = np.round(rng.normal(size=n), 2)  # ties across the median cut
    weights = rng.pareto(1.2, n) * (rng.random(n) < 0.9)
    weights[:2] = 1.0
    got, want = cost_weighted_counts(side, scores, weights), roc_counts(side, scores, weights)
    assert np.array_equal(got.thresholds, want.thresholds)
    assert got.exponent == want.exponent
    # The same weights added in the same order (ties by index, the low range's sums going on
    # from the high range's): equal to the last bit, not just close.
    assert np.array_equal(got.tp, want.tp) and np.array_equal(got.fp, want.fp)
    assert (got.n_pos, got.n_neg) == (want.n_pos, want.n_neg)


def _brute_weighted_counts(side, scores, weights):
    """Cost-weighted ROC points by definition: for each distinct score t, the weights of the
    cases scored >= t (each distinct score's weights binned, then summed from the top)."""
    keep = weights > 0
    side, scores, weights = side[keep], scores[keep], weights[keep]
    ts, inverse = np.unique(scores, return_inverse=True)
    per_score = [np.bincount(inverse, weights * s, len(ts))[::-1] for s in (side, ~side)]
    return ts[::-1], np.cumsum(per_score[0]), np.cumsum(per_score[1])


@pytest.mark.parametrize(
    "kind", ["continuous", "tied", "all equal", "zeros of both signs", "packed close", "extreme"]
)
@pytest.mark.parametrize("n", [2, 9, 400, 70_000])  # the last one in two threads
def test_cost_weighted_counts_equal_brute_force_on_hard_scores(kind, n):
    """The sorted-keys order (a value sort of keys carrying the index) on ties, scores equal but
    for their last bits, zeros of both signs, all-equal scores and weights of extreme scale."""
    from costwidget.model.base.case_weighted_roc import cost_weighted_counts
    from costwidget.model.kernels.roc import in_units

    rng = np.random.default_rng(n + len(kind))
    side = rng.random(n) < 0.4
    side[:2] = [True, False]
    scores = {
        "continuous": rng.normal(size=n),
        "tied": np.round(rng.normal(size=n), 1),
        "all equal": np.full(n, 0.25),
        "zeros of both signs": np.where(rng.random(n) < 0.5, 0.0, -0.0) + (rng.random(n) < 0.2),
        "packed close": 1.0 + rng.integers(0, 64, n) * np.finfo(float).eps,
        "extreme": rng.choice([-1e308, -5e-324, 0.0, 5e-324, 1e-300, 1e308], n),
    }[kind]
    weights = rng.pareto(1.2, n) * (rng.random(n) < 0.9)
    if kind == "extreme":
        weights *= 1e-310  # subnormal weights: the exact power-of-two scaling
    weights[:2] = [1e-310, 3e-310] if kind == "extreme" else [1.0, 2.0]
    got = cost_weighted_counts(side, scores, weights)
    ts, tp, fp = _brute_weighted_counts(side, scores, weights)
    assert np.array_equal(got.thresholds, np.concatenate(([np.inf], ts)))
    scale = max(tp[-1], fp[-1])
    np.testing.assert_allclose(
        in_units(got.tp[1:], got.exponent), tp, rtol=1e-12, atol=1e-12 * scale
    )
    np.testing.assert_allclose(
        in_units(got.fp[1:], got.exponent), fp, rtol=1e-12, atol=1e-12 * scale
    )


@pytest.mark.parametrize("n", [1, 2, 7, 3000, 200_000])
def test_descending_order_is_the_stable_argsort_of_the_negated_scores(n):
    from costwidget.model.kernels.roc import descending_order

    rng = np.random.default_rng(n)
    for scores in (
        rng.normal(size=n),
        np.round(rng.normal(size=n), 2),
        1.0 + rng.integers(0, 1000, n) * np.finfo(float).eps,  # equal but for the last bits
        rng.choice([-np.inf, -1e308, -0.0, 0.0, 5e-324, 1.0, np.inf], n),
    ):
        order, ordered = descending_order(scores)
        want = np.argsort(-scores, kind="stable")
        assert np.array_equal(order, want)
        assert np.array_equal(ordered.view(np.int64), scores[want].view(np.int64))


def test_the_widget_refuses_per_case_and_per_class_classifiers_mixed():
    # The widget shows per-case costs now (tests/test_widget_case_costs.py); mixing the two
    # kinds is the model's clear error, at construction.
    clf = cw.Classifier.from_scores(Y, S, name="m", cost_fn=[5.0, 1, 2, 3, 4], cost_fp=1.0)
    plain = cw.Classifier.from_scores(Y, S, name="p")
    with pytest.raises(ValueError, match="Some classifiers have per-case costs"):
        cw.CostWidget([clf, plain])


def test_the_case_cost_benchmark_runs():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_case_costs.py"
    spec = importlib.util.spec_from_file_location("bench_case_costs", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    r = bench.bench(5000, repeats=1)
    assert r["ratio_per_case_to_per_class"] > 0 and r["decide_per_case_new_multipliers_s"] > 0


def test_operating_point_of_a_per_case_classifier_is_money_per_case():
    y, scores, w, amount, fee, tn = _data_set(3)
    clf = cw.Classifier.from_scores(
        y, scores["b"], name="b", sample_weight=w, cost_fn=amount, cost_fp=fee, cost_tp=fee
    )
    n = len(y)
    for m in (1.0, 3.0):
        cells = (m * amount, np.full(n, fee), np.full(n, fee), np.zeros(n))
        op = clf.operating_point(cost_fn=m)
        assert op.expected_cost == pytest.approx(_brute(y, scores["b"], w, *cells), rel=1e-9)
        assert op.expected_cost == pytest.approx(_money(y, scores["b"] >= op.threshold, w, *cells))


@pytest.mark.parametrize("bad", ["NULL", "'nan'::DOUBLE", "'-inf'::DOUBLE"])
def test_from_duckdb_counts_bad_costs_only_in_cost_columns(bad):
    """The bad-cost counts run on the columns given (a number is checked in Python) and come
    back as whole numbers: a NULL, NaN or infinite cost in the one cost column is refused by
    name, however many constant costs go with it."""
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES (0.9, 1, 10.0), (0.4, 0, 3.0), "
        f"(0.3, 1, {bad}), (0.1, 0, 2.0)) AS v(score, label, amount)"
    )
    with pytest.raises(ValueError, match=r"Column 'amount' \(cost_fn=\) has 1 missing"):
        cw.from_duckdb("t", connection=con, model=None, cost_fn="amount", cost_fp=1.0, cost_tp=0.5)
    con.execute("UPDATE t SET amount = 4.0 WHERE amount IS NULL OR NOT isfinite(amount)")
    (clf,) = cw.from_duckdb(
        "t", connection=con, model=None, cost_fn="amount", cost_fp=1.0, cost_tp=0.5
    ).values()
    want = cw.Classifier.from_scores(
        [1, 0, 1, 0], [0.9, 0.4, 0.3, 0.1], cost_fn=[10.0, 3.0, 4.0, 2.0], cost_fp=1.0, cost_tp=0.5
    )
    np.testing.assert_allclose(clf.roc[["fpr", "tpr"]], want.roc[["fpr", "tpr"]], rtol=1e-12)


@pytest.mark.parametrize("decimals", [None, 2, 4])
def test_cost_weighted_hull_from_the_ranges_candidates_is_the_whole_hull(decimals):
    """Each range's own hull vertices (found in its thread) hold the whole hull's: the hull
    from those candidates equals the hull of every point (the path without candidates)."""
    from costwidget.model.base.case_weighted_roc import cost_weighted_counts
    from costwidget.model.kernels.hull import upper_hull

    rng = np.random.default_rng(7 + (decimals or 0))
    n = 120_000  # two ranges, two threads
    side = rng.random(n) < 0.2
    scores = rng.normal(size=n) + 1.5 * side
    if decimals is not None:
        scores = np.round(scores, decimals)
    weights = rng.pareto(1.1, n) * (rng.random(n) < 0.95)
    counts = cost_weighted_counts(side, scores, weights)
    assert counts.hull_candidates is not None
    whole = upper_hull(counts.fp, counts.tp)
    assert np.array_equal(upper_hull(counts.fp, counts.tp, counts.hull_candidates), whole)
    # Every point on or below the hull's chords (the hull is a hull).
    x, y = counts.fp / counts.n_neg, counts.tp / counts.n_pos
    on_hull = np.interp(x, x[whole], y[whole])
    assert np.all(y <= on_hull + 1e-12)


@pytest.mark.parametrize("kind", ["continuous", "tied", "all equal"])
def test_twin_from_the_cached_order_equals_the_twin_from_scores(kind):
    """The cost-weighted twin read from the classifier's cached score order is the classifier
    ``from_scores`` builds of the same weighted cases, to the last bit, at any multipliers."""
    rng = np.random.default_rng(len(kind))
    n = 3000
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    s = {
        "continuous": rng.normal(size=n) + y,
        "tied": np.round(rng.normal(size=n) + y, 1),
        "all equal": np.full(n, 0.3),
    }[kind]
    sw = rng.pareto(2.0, n) * (rng.random(n) < 0.9)
    clf = cw.Classifier.from_scores(
        y,
        s,
        name="m",
        sample_weight=sw,
        cost_fn=rng.pareto(1.5, n) * 20,
        cost_fp=5.0,
        cost_tp=rng.random(n) * 3,
    )
    cc = clf.case_costs
    for m_fn, m_fp, p_pos in [(1.0, 1.0, None), (2.0, 1.0, None), (0.7, 1.3, 0.2), (3.0, 0.5, 0.8)]:
        twin, totals = cc.twin(clf, m_fn, m_fp, p_pos)
        pos, w, floor = cc.checked_roc_weights(m_fn, m_fp, p_pos)
        want = cw.Classifier.from_scores(pos, s, name="m", pos_label=True, sample_weight=w)
        for field in ("thresholds", "tp", "fp"):
            assert np.array_equal(getattr(twin.counts, field), getattr(want.counts, field))
        assert (twin.n_pos, twin.n_neg) == (want.n_pos, want.n_neg)
        assert twin.envelope.equals(want.envelope)
        assert np.array_equal(twin.sample.weights, w) and np.array_equal(twin.sample.is_pos, pos)
        assert totals[:3] == (float(w[pos].sum()), float(w[~pos].sum()), floor)


def test_the_cached_score_order_is_not_pickled_and_is_made_again():
    import pickle

    rng = np.random.default_rng(4)
    n = 500
    y, s = rng.random(n) < 0.3, rng.normal(size=n)
    clf = cw.Classifier.from_scores(y, s, name="m", cost_fn=rng.random(n) * 10, cost_fp=1.0)
    twin, _ = clf.case_costs.twin(clf, 2.0, 1.0, None)
    copy = pickle.loads(pickle.dumps(clf))
    assert "_order" not in copy.case_costs.__dict__
    again, _ = copy.case_costs.twin(copy, 2.0, 1.0, None)
    assert np.array_equal(again.counts.tp, twin.counts.tp)
    assert np.array_equal(again.counts.fp, twin.counts.fp)
