"""The widget with per-case costs: it deploys the brute-force cheapest classifier and threshold of
the money per case (every threshold of every classifier, computed here from y, the scores and the
costs), at several multipliers and p(+); its headline says that money and empulse's savings;
its constructors take per-case costs; bad input is refused at once, naming the argument."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

import costwidget as cw


def _money(y, flagged, fn, fp, tp, tn, p_pos=None):
    """Money per case of flagging ``flagged``, every case counted, classes reweighted to
    ``p_pos`` (the data's share of positives when None): written out case by case."""
    prior = np.mean(y == 1)
    p = prior if p_pos is None else p_pos
    total = weight = 0.0
    for i in range(len(y)):
        if y[i] == 1:
            c, w = (tp[i] if flagged[i] else fn[i]), p / prior
        else:
            c, w = (fp[i] if flagged[i] else tn[i]), (1 - p) / (1 - prior)
        total += w * c
        weight += w
    return total / weight


def _brute(y, scores, fn, fp, tp, tn, p_pos=None):
    """``(cost, name, threshold)`` of the cheapest rule "flag score >= t" over every classifier
    and every threshold (inf: flag none)."""
    best = (math.inf, None, None)
    for name, s in scores.items():
        for t in np.concatenate(([np.inf], np.unique(s))):
            c = _money(y, s >= t, fn, fp, tp, tn, p_pos)
            if c < best[0] - 1e-12:
                best = (c, name, t)
    return best


def _data(seed, n=120):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    amount = np.round(rng.pareto(1.3, n) * 30.0 + 1.0, 2)  # heavy-tailed loan amounts
    scores = {
        "a": np.round(rng.random(n) + 0.5 * y, 3),
        "b": np.round(rng.random(n) + 0.7 * y * (amount > 10), 3),
    }
    return y, amount, scores


def _deployed_flags(w, scores):
    rule = w.decision.rule
    return scores[w.decision.chosen] >= rule.threshold


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_widget_deploys_the_brute_force_cheapest_rule_at_several_multipliers(seed):
    y, amount, scores = _data(seed)
    fee = 4.0
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=fee)
    zeros = np.zeros(len(y))
    for m_fn, m_fp, p_pos in [(1, 1, None), (2.5, 1, None), (1, 3, None), (0.4, 1, 0.2)]:
        if p_pos is None:
            w.update(cost_fn=float(m_fn), cost_fp=float(m_fp))
        else:
            w.update(cost_fn=float(m_fn), cost_fp=float(m_fp), p_pos=p_pos)
        want, name, _t = _brute(y, scores, m_fn * amount, m_fp * fee + zeros, zeros, zeros, p_pos)
        d = w.decision
        assert d.chosen == name
        assert d.rule.expected_cost == pytest.approx(want, rel=1e-9)
        # The deployed threshold's own money, counted case by case, is the brute force's.
        got = _money(
            y, _deployed_flags(w, scores), m_fn * amount, m_fp * fee + zeros, zeros, zeros, p_pos
        )
        assert got == pytest.approx(want, rel=1e-9)
        # The headline says that money per case; the cost pane's PCF(+) is the decision's.
        shown = float(re.search(r": ([0-9.e+-]+) per case", w.headline.text).group(1))
        assert shown == pytest.approx(want, rel=5e-4)
        assert w.pcf == pytest.approx(d.pcf, rel=1e-12)
        # The cost pane's optimal vertex (of the drawn, cost-weighted classifier) is the rule.
        drawn = w._ctx.drawing(name).clf.best(w.pcf)
        assert (drawn.fpr, drawn.tpr) == pytest.approx((d.rule.fpr, d.rule.tpr), abs=1e-12)


def test_the_headline_savings_is_empulses_savings_score():
    empulse = pytest.importorskip("empulse.metrics")
    y, amount, scores = _data(3)
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=4.0)
    for m_fn in (1.0, 0.3):
        w.cost_fn = m_fn
        flags = _deployed_flags(w, scores).astype(int)
        want = empulse.savings_score(y, flags, fn_cost=m_fn * amount, fp_cost=4.0)
        saved = w.per_case.savings(w.decision)
        assert saved.savings == pytest.approx(want, rel=1e-9)
        percent = float(re.search(r"saves ([0-9.e+-]+) %", w.headline.text).group(1))
        assert percent == pytest.approx(100 * want, rel=5e-3)


def test_from_frame_with_cost_columns_deploys_the_brute_force_rule():
    y, amount, scores = _data(4)
    df = pd.concat(
        [
            pd.DataFrame({"model": m, "label": y, "score": s, "Amount": amount, "fee": 2.0})
            for m, s in scores.items()
        ]
    )
    w = cw.CostWidget.from_frame(df, cost_fn="Amount", cost_fp="fee", p_pos=0.5)
    assert w.cost_fn == 1.0 and w.cost_fp == 1.0  # the sliders are multipliers, at 1
    assert w.operating_tool.cost_fn.description == "× Amount (false negative)"
    zeros = np.zeros(len(y))
    want, name, _ = _brute(y, scores, amount, zeros + 2.0, zeros, zeros, 0.5)
    assert w.decision.chosen == name
    assert w.decision.rule.expected_cost == pytest.approx(want, rel=1e-9)


def test_a_fee_on_caught_positives_moves_the_twins_with_the_multipliers():
    # cost_tp: the cost-weighted ROC moves with the multipliers; the widget makes its twins
    # again at each move and decides exactly there (it was pinned at its first multipliers).
    y, amount, scores = _data(5)
    w = cw.CostWidget.from_predictions(
        y, scores, cost_fn=amount, cost_fp=3.0, cost_tp=3.0, p_pos=0.3
    )
    n = len(y)
    fee = np.full(n, 3.0)
    for m_fn in (1.0, 2.0, 0.25):
        w.cost_fn = m_fn
        want, name, _ = _brute(y, scores, m_fn * amount, fee, fee, np.zeros(n), 0.3)
        assert w.decision.chosen == name
        assert w.decision.rule.expected_cost == pytest.approx(want, rel=1e-9)
        assert w.pcf == w.decision.pcf
    assert w.errors.last_error is None


def test_views_not_priced_per_case_are_refused_and_the_state_kept():
    y, amount, scores = _data(6)
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=1.0)
    shown = {"show_decision_curve": True}
    for trait, value in shown.items():
        with pytest.raises(ValueError, match="Not shown with per-case costs: the decision curve"):
            setattr(w, trait, value)
        assert not getattr(w, trait)
    # The decision curve's point would be the cost-weighted twins' (pt = 1/2), not the user's.
    assert w.decision.decision_curve is None
    assert w.decision.to_dict()["decision_curve"] is None


def test_snapshot_restore_and_export_carry_the_per_case_costs():
    y, amount, scores = _data(7)
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=4.0)
    w.cost_fn = 2.0
    snap = w.snapshot()
    assert snap["per_case"]["headline"] == w.headline.text
    assert snap["per_case"]["savings"]["savings"] == w.per_case.savings(w.decision).savings
    other = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=4.0)
    other.restore(snap)
    assert other.cost_fn == 2.0 and other.decision.rule == w.decision.rule
    # The readout says its costs are money and its rates cost-weighted; the figure says so too.
    assert "expected cost per case is money" in w.readout_view.widget.value
    fig = w.to_figure()
    assert [ax.get_xlabel() for ax in fig.axes[:2]] == [
        "cost-weighted FPR",
        "PCF(+) of the cost-weighted cases",
    ]
    page = w.to_html()
    # No case changes side: the page mirrors the multipliers, with their units in its spec
    # (tests/test_frontend_case_costs.py holds its numbers equal to the kernel's).
    assert 'id="costwidget-frontend">{"per_case": {"units": ' in page
    plain = cw.CostWidget.from_predictions(y, scores).to_html()
    assert 'id="costwidget-frontend"' in plain  # (the check sees a live page when there is one)
    assert "× cost_fn per case (false negative) = 2" in page


def test_bad_per_case_inputs_name_the_argument_and_build_nothing():
    y, amount, scores = _data(8)
    with pytest.raises(ValueError, match="cost_fn"):
        cw.CostWidget.from_predictions(y, scores, cost_fn=amount[:-1], cost_fp=1.0)
    bad = amount.copy()
    bad[3] = np.nan
    with pytest.raises(ValueError, match="cost_fn"):
        cw.CostWidget.from_predictions(y, scores, cost_fn=bad, cost_fp=1.0)
    df = pd.DataFrame({"model": "a", "label": y, "score": scores["a"], "Amount": amount})
    with pytest.raises(ValueError, match="Amont"):
        cw.CostWidget.from_frame(df, cost_fn="Amont", cost_fp=1.0)
    a = cw.Classifier.from_scores(y, scores["a"], name="a", cost_fn=amount, cost_fp=1.0)
    b = cw.Classifier.from_scores(y, scores["b"], name="b", cost_fn=2 * amount, cost_fp=1.0)
    with pytest.raises(ValueError, match="different per-case costs"):
        cw.CostWidget([a, b])
    plain = cw.Classifier.from_scores(y, scores["b"], name="p")
    with pytest.raises(ValueError, match="Some classifiers have per-case costs"):
        cw.CostWidget([a, plain])


def test_numbers_alone_keep_their_per_class_meaning():
    y, _amount, scores = _data(9)
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=5.0, cost_fp=1.0)
    assert w.per_case is None and w.cost_fn == 5.0
    assert w.operating_tool.cost_fn.description == "C(-|+) false negative"


def test_from_duckdb_with_cost_columns_deploys_the_brute_force_rule_and_keeps_multipliers_1():
    duckdb = pytest.importorskip("duckdb")
    empulse = pytest.importorskip("empulse.metrics")
    y, amount, scores = _data(10)
    df = pd.concat(
        [
            pd.DataFrame({"model": m, "label": y, "score": s, "Amount": amount, "fee": 2.5})
            for m, s in scores.items()
        ]
    )
    con = duckdb.connect()
    w = cw.CostWidget.from_duckdb(con.from_df(df), cost_fn="Amount", cost_fp="fee")
    zeros = np.zeros(len(y))
    for p_pos in (None, 0.6):
        if p_pos is not None:
            w.p_pos = p_pos  # p(+) moves: a class's factor scales its rows
        want, name, _ = _brute(y, scores, amount, zeros + 2.5, zeros, zeros, p_pos)
        assert w.decision.chosen == name
        assert w.decision.rule.expected_cost == pytest.approx(want, rel=1e-9)
    w.p_pos = float(np.mean(y))
    flags = _deployed_flags(w, scores).astype(int)
    want = empulse.savings_score(y, flags, fn_cost=amount, fp_cost=2.5)
    assert w.per_case.savings(w.decision).savings == pytest.approx(want, rel=1e-9)
    with pytest.raises(ValueError, match="multipliers stay at 1"):
        w.cost_fn = 2.0
    assert w.cost_fn == 1.0


def test_from_estimators_passes_per_case_costs_to_every_classifier():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(11)
    X = rng.normal(size=(150, 2))
    y = (X[:, 0] + rng.normal(size=150) > 0.5).astype(int)
    amount = np.round(rng.pareto(1.5, 150) * 20 + 1, 2)
    w = cw.CostWidget.from_estimators(
        [LogisticRegression(), LogisticRegression(C=0.01)], X, y, cv=3, cost_fn=amount, cost_fp=3.0
    )
    scores = {c.name: np.asarray(c.sample.scores) for c in w.classifiers}
    zeros = np.zeros(len(y))
    want, name, _ = _brute(y, scores, amount, zeros + 3.0, zeros, zeros)
    assert w.decision.chosen == name
    assert w.decision.rule.expected_cost == pytest.approx(want, rel=1e-9)


def test_the_threshold_choice_pane_puts_the_per_case_bayes_rule_beside_the_best_threshold():
    empulse = pytest.importorskip("empulse.metrics")
    rng = np.random.default_rng(12)
    n = 200
    y = (rng.random(n) < 0.3).astype(int)
    amount = np.round(rng.pareto(1.4, n) * 25 + 1, 2)
    proba = {"a": np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0.001, 0.999).round(3)}
    w = cw.CostWidget.from_predictions(y, proba, cost_fn=amount, cost_fp=5.0)
    w.cost_fn = 1.5
    w.threshold_choice = "score"
    row = w.threshold_choice_view.table.loc["a"]
    zeros = np.zeros(n)
    want, _, _ = _brute(y, proba, 1.5 * amount, zeros + 5.0, zeros, zeros)
    assert row["cost_single_threshold"] == pytest.approx(want, rel=1e-9)
    bayes = empulse.cost_loss(y, proba["a"], fn_cost=1.5 * amount, fp_cost=5.0, normalize=True)
    assert row["cost_case_bayes"] == pytest.approx(bayes, rel=1e-9)
    html = w.threshold_choice_view.choices_html.value
    assert "per-case Bayes rule" in html and "savings" in html
    # The score-driven curves price each class: not drawn with per-case costs.
    assert not any(c.visible for c in w.threshold_choice_view.curves.values())
    # Away from the data's p(+) the per-case rule is not computed, and the pane says so.
    w.p_pos = 0.5
    assert w.threshold_choice_view.table.empty
    assert "set p(+) to it" in w.threshold_choice_view.choices_html.value


def test_a_fee_below_every_loss_lets_p_pos_move_and_keeps_the_brute_force_rule():
    # A fee on caught positives below every positive's loss: at the built multipliers every
    # case counts on its own class's side, so a p(+) move rescales each side; the multipliers
    # move too (a move there changes the cost-weighted ROC: the twins are made again).
    y, amount, scores = _data(6)
    amount = amount + 3.0  # every loss above the fee of 3
    n = len(y)
    w = cw.CostWidget.from_predictions(
        y, scores, cost_fn=amount, cost_fp=3.0, cost_tp=3.0, p_pos=0.3
    )
    fee, zeros = np.full(n, 3.0), np.zeros(n)
    for p_pos in (0.3, 0.12, 0.55, 0.8):
        w.p_pos = p_pos
        want, name, _ = _brute(y, scores, amount, fee, fee, zeros, p_pos)
        assert w.decision.chosen == name, p_pos
        assert w.decision.rule.expected_cost == pytest.approx(want, rel=1e-9)
        got = _money(y, _deployed_flags(w, scores), amount, fee, fee, zeros, p_pos)
        assert got == pytest.approx(want, rel=1e-9)
        assert w.pcf == pytest.approx(w.decision.pcf, rel=1e-12)
    w.cost_fn = 0.2  # now many losses are below the fee: those positives change sides
    want, name, _ = _brute(y, scores, 0.2 * amount, fee, fee, zeros, 0.8)
    assert w.decision.chosen == name
    assert w.decision.rule.expected_cost == pytest.approx(want, rel=1e-9)
