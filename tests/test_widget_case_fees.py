"""A fee widget moves: fraud-like data (lognormal amounts, a review fee on every flagged case,
sample weights), whose small frauds are cheaper missed than reviewed, so cases change sides as
p(+) and the multipliers move. After every move the deployed classifier and threshold, the
headline's money per case, the savings, the cost pane's PCF(+) and NEC and the ROC pane's point
equal a numpy brute force over every threshold of every classifier (all four cells, sample
weights, classes reweighted to p(+)) and empulse's ``cost_loss(..., normalize=True)`` of the
deployed predictions. Before this file such a widget was pinned at the multipliers it was built
with and refused every move; a move now redraws once and decides once."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

import costwidget as cw
from costwidget.model.base.case_costs import CaseCosts
from costwidget.model.kernels import roc as roc_kernels
from costwidget.widget.state import decision as decision_module

FEE = 6.0
#: (p(+) or None for the data's, m_fn, m_fp): the moves each test makes, in order.
MOVES = [
    (None, 1.0, 1.0),
    (None, 2.5, 1.0),
    (None, 0.3, 1.0),
    (None, 1.0, 4.0),
    (0.2, 1.0, 1.0),
    (0.03, 0.7, 2.0),
    (0.5, 1.8, 0.4),
    (None, 1.0, 1.0),
]


def _data(seed, n=500):
    """Fraud-like cases: ``y``, scores of three classifiers, amounts (a miss costs the amount)
    and sample weights (None for the first data set)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.12).astype(int)
    amount = np.round(rng.lognormal(2.2, 1.3, n), 2)  # many frauds below the fee of 6
    big = amount > 15
    scores = {
        "rules": np.round(0.4 * y + rng.random(n), 2),
        "gbm": np.round(0.5 * y * big + 0.25 * y + rng.random(n), 3),
        "logit": np.round(rng.normal(0.9 * y, 1.0), 2),
    }
    weights = None if seed % 3 == 0 else rng.choice([1.0, 2.0, 3.0, 0.5], n)
    return y, scores, amount, weights


def _settled(y, weights, p_pos):
    """Each case's weight with the classes reweighted to ``p_pos`` (None: the data's)."""
    w = np.ones(len(y)) if weights is None else np.asarray(weights, float)
    if p_pos is None:
        return w
    prior = w[y == 1].sum() / w.sum()
    return w * np.where(y == 1, p_pos / prior, (1 - p_pos) / (1 - prior))


def _cells(y, amount, m_fn, m_fp):
    """Each case's cost if flagged and if passed: tp = fee, fn = m_fn·amount, fp = m_fp·fee,
    tn = 0."""
    flag = np.where(y == 1, FEE, m_fp * FEE)
    keep = np.where(y == 1, m_fn * amount, 0.0)
    return flag, keep


def _money(y, flagged, amount, weights, p_pos, m_fn, m_fp):
    flag, keep = _cells(y, amount, m_fn, m_fp)
    v = _settled(y, weights, p_pos)
    return float(np.sum(v * np.where(flagged, flag, keep)) / np.sum(v))


def _brute(y, scores, amount, weights, p_pos, m_fn, m_fp):
    """``(money, {name: (money, [thresholds at it])})``: the cheapest rule over every threshold
    of every classifier (+inf: flag none), and each classifier's cheapest."""
    per = {}
    for name, s in scores.items():
        ts = np.concatenate(([np.inf], np.unique(s)))
        costs = np.array([_money(y, s >= t, amount, weights, p_pos, m_fn, m_fp) for t in ts])
        best = costs.min()
        per[name] = (best, ts[costs <= best + 1e-12 * abs(best)].tolist())
    return min(c for c, _ in per.values()), per


def _cost_weighted(y, amount, weights, p_pos, m_fn, m_fp):
    """``(gain, v, P, N, F, W)``: what flagging each case saves (< 0: costs), the cases'
    weights, the cost-weighted class totals, the floor and the weight (Fawcett (2006), sec. 3),
    written out here."""
    flag, keep = _cells(y, amount, m_fn, m_fp)
    v = _settled(y, weights, p_pos)
    gain = keep - flag
    big_p, big_n = np.sum(v * np.maximum(gain, 0)), np.sum(v * np.maximum(-gain, 0))
    return gain, v, big_p, big_n, np.sum(v * np.minimum(flag, keep)), np.sum(v)


def _empulse_money(empulse, y, flagged, amount, weights, p_pos, m_fn, m_fp):
    """empulse's cost_loss(normalize=True): the mean over cases; each case's weight (with the
    p(+) reweighting) is folded into its four costs as v_i·n / Σv, which is exact (the loss is
    linear in each case's costs)."""
    v = _settled(y, weights, p_pos)
    k = v * len(y) / v.sum()
    return empulse.cost_loss(
        y,
        flagged.astype(int),
        tp_cost=FEE * k,
        fp_cost=m_fp * FEE * k,
        fn_cost=m_fn * amount * k,
        tn_cost=0.0,
        normalize=True,
    )


def _widget(seed, **kw):
    y, scores, amount, weights = _data(seed)
    w = cw.CostWidget.from_predictions(
        y, scores, cost_fn=amount, cost_fp=FEE, cost_tp=FEE, sample_weight=weights, **kw
    )
    return w, (y, scores, amount, weights)


def _move(w, p_pos, m_fn, m_fp, prior):
    w.update(p_pos=prior if p_pos is None else p_pos, cost_fn=m_fn, cost_fp=m_fp)


@pytest.mark.parametrize("seed", [0, 1, 2, 4])
def test_every_move_deploys_the_brute_force_rule_in_every_view(seed):
    empulse = pytest.importorskip("empulse.metrics")
    w, (y, scores, amount, weights) = _widget(seed)
    prior = w.p_pos
    sides = []
    for p_pos, m_fn, m_fp in MOVES:
        _move(w, p_pos, m_fn, m_fp, prior)
        assert w.errors.last_error is None
        p = None if p_pos is None else p_pos
        want, per = _brute(y, scores, amount, weights, p, m_fn, m_fp)
        d = w.decision
        # The deployed classifier and threshold are a brute-force cheapest rule.
        assert d.chosen is not None
        assert per[d.chosen][0] == pytest.approx(want, rel=1e-12, abs=1e-12)
        # (The rule's threshold is the shortest number flagging the same cases as a score.)
        flagged = scores[d.chosen] >= d.rule.threshold
        assert any(np.array_equal(flagged, scores[d.chosen] >= t) for t in per[d.chosen][1])
        assert d.rule.expected_cost == pytest.approx(want, rel=1e-9)
        assert _money(y, flagged, amount, weights, p, m_fn, m_fp) == pytest.approx(want, rel=1e-9)
        assert _empulse_money(empulse, y, flagged, amount, weights, p, m_fn, m_fp) == pytest.approx(
            want, rel=1e-9
        )
        # The headline says that money per case; the readout has each classifier's cheapest.
        shown = float(re.search(r": ([0-9.e+-]+) per case", w.headline.text).group(1))
        assert shown == pytest.approx(want, rel=5e-4)
        for name, (cost, _) in per.items():
            assert w.readout.loc[name, "expected_cost"] == pytest.approx(cost, rel=1e-9)
        # Savings against the cheaper trivial rule, written out.
        every = _money(y, np.ones(len(y), bool), amount, weights, p, m_fn, m_fp)
        none = _money(y, np.zeros(len(y), bool), amount, weights, p, m_fn, m_fp)
        saved = w.per_case.savings(d)
        assert saved.trivial_cost == pytest.approx(min(every, none), rel=1e-12)
        assert saved.savings == pytest.approx(1 - want / min(every, none), rel=1e-9, abs=1e-12)
        # The panes: PCF(+) of the new twins, the cost pane's NEC of the rule, the ROC point.
        gain, v, big_p, big_n, floor, total = _cost_weighted(y, amount, weights, p, m_fn, m_fp)
        sides.append(int(np.sum((gain > 0) != (y == 1))))
        assert w.pcf == d.pcf
        assert w.pcf == pytest.approx(big_p / (big_p + big_n), rel=1e-12)
        assert list(w.operating_tool.operating_line.x) == [w.pcf, w.pcf]
        i = w.state.names.index(d.chosen)
        nec = w.operating_tool.nec_points.y[i]
        assert (floor + nec * (big_p + big_n)) / total == pytest.approx(want, rel=1e-9)
        env = w.classifier_layers.envelopes[i]
        assert np.interp(w.pcf, env.x, env.y) == pytest.approx(nec, rel=1e-9, abs=1e-12)
        tpr = np.sum((v * gain)[(gain > 0) & flagged]) / big_p
        fpr = np.sum((v * -gain)[(gain < 0) & flagged]) / big_n
        hull = w.classifier_layers.hull_lines[i]
        assert np.min(np.hypot(hull.x - fpr, hull.y - tpr)) < 1e-12
        assert (w.operating_tool.chosen.x[i], w.operating_tool.chosen.y[i]) == pytest.approx(
            (fpr, tpr), abs=1e-12
        )
    # The moves did move cases across sides (otherwise a fixed ROC would have done).
    assert len(set(sides)) > 1
    w.close()


def test_the_threshold_choice_pane_and_a_limit_follow_the_moves():
    y, scores, amount, weights = _data(5)
    w = cw.CostWidget.from_predictions(
        y, scores, cost_fn=amount, cost_fp=FEE, cost_tp=FEE, sample_weight=weights
    )
    w.threshold_choice = "score"
    for m_fn, m_fp in ((1.0, 1.0), (3.0, 0.5), (0.4, 2.0)):
        w.update(cost_fn=m_fn, cost_fp=m_fp)
        _, per = _brute(y, scores, amount, weights, None, m_fn, m_fp)
        table = w.threshold_choice_view.table
        for name, (cost, _) in per.items():
            assert table.loc[name, "cost_single_threshold"] == pytest.approx(cost, rel=1e-9)
    # A workforce limit counts cases: the cheapest rule flagging at most 40 (weighted) cases.
    w.threshold_choice = "none"
    w.update(constraint="workforce", capacity=40.0)
    for m_fn, m_fp in ((1.0, 1.0), (2.0, 3.0)):
        w.update(cost_fn=m_fn, cost_fp=m_fp)
        wt = np.ones(len(y)) if weights is None else weights
        best = np.inf
        for s in scores.values():
            for t in np.concatenate(([np.inf], np.unique(s))):
                if np.sum(wt * (s >= t)) <= 40.0 + 1e-9:
                    best = min(best, _money(y, s >= t, amount, weights, None, m_fn, m_fp))
        assert w.decision.rule.expected_cost == pytest.approx(best, rel=1e-9)
    w.close()


def test_a_move_redraws_once_decides_once_and_makes_each_twin_once(monkeypatch):
    w, _ = _widget(1)
    decided, redrawn, twins = [], [], []
    real_decide, real_redraw, real_twin = decision_module.decide, w._tx.redraw, CaseCosts.twin
    monkeypatch.setattr(
        decision_module, "decide", lambda *a, **k: decided.append(1) or real_decide(*a, **k)
    )
    monkeypatch.setattr(w._tx, "redraw", lambda: redrawn.append(1) or real_redraw())
    monkeypatch.setattr(
        CaseCosts, "twin", lambda self, *a, **k: twins.append(1) or real_twin(self, *a, **k)
    )
    sorts, real_order = [], roc_kernels.descending_order
    monkeypatch.setattr(
        roc_kernels, "descending_order", lambda *a: sorts.append(1) or real_order(*a)
    )
    for trait, value in (("cost_fn", 2.0), ("cost_fp", 0.5), ("p_pos", 0.3), ("cost_fn", 0.6)):
        decided.clear(), redrawn.clear(), twins.clear()
        setattr(w, trait, value)
        assert (len(redrawn), len(decided)) == (1, 1), (trait, value, redrawn, decided)
        assert len(twins) == 3  # one per classifier: the decision reads the drawn ones
        assert not sorts  # each classifier's score order was sorted once, when built
        w.decision, w.readout, w.headline.widget.value  # noqa: B018 - reading decides nothing
        assert len(decided) == 1
    w.close()


def test_honest_curves_are_made_again_at_the_new_setting():
    rng = np.random.default_rng(3)
    n = 160
    y = (rng.random(n) < 0.3).astype(int)
    amount = np.round(rng.lognormal(2.0, 1.0, n), 2)
    folds = rng.integers(0, 4, n)
    clfs = [
        cw.Classifier.from_scores(
            y, np.round(0.5 * y + rng.random(n), 2), name=k, folds=folds,
            cost_fn=amount, cost_fp=FEE, cost_tp=FEE,
        )
        for k in ("a", "b")
    ]  # fmt: skip
    with cw.CostWidget(clfs) as w:
        w.show_honest = True
        w.wait(timeout=120)
        for m_fn, p_pos in ((2.0, None), (0.5, 0.2)):
            w.update(cost_fn=m_fn, **({} if p_pos is None else {"p_pos": p_pos}))
            w.wait(timeout=120)
            assert w.errors.last_error is None
            for c in clfs:
                want = cw.honest_cost(c, random_state=0, cost_fn=m_fn, cost_fp=1.0, p_pos=w.p_pos)
                np.testing.assert_array_equal(w.drawn_honest[c.name]["nec"], want["nec"])
            assert w.decision.on_new_data


@pytest.mark.parametrize(
    "trait, value, words",
    [
        ("cost_fn", 0.0, "× cost_fn per case (false negative) must be a finite number > 0"),
        ("cost_fn", float("nan"), "× cost_fn per case (false negative) must be a finite"),
        ("cost_fp", -2.0, "× cost_fp per case (false positive) must be a finite number > 0"),
        ("p_pos", 1.0, "p(+) must lie strictly between 0 and 1"),
        ("p_pos", 0.0, "Move the p(+) slider inside (0, 1)"),
    ],
)
def test_a_bad_move_is_refused_in_the_banner_and_the_last_good_state_kept(trait, value, words):
    w, _ = _widget(2)
    w.update(cost_fn=1.5, cost_fp=0.8, p_pos=0.2)
    before = (w.p_pos, w.cost_fn, w.cost_fp, w.pcf, w.decision.rule, w.headline.text)
    with pytest.raises(ValueError, match=re.escape(words)):
        setattr(w, trait, value)
    assert words in html.unescape(w.errors.widget.value)
    assert (w.p_pos, w.cost_fn, w.cost_fp, w.pcf, w.decision.rule, w.headline.text) == before
    # The same from the control: refused, the field shows the last good value again.
    field = {
        "cost_fn": w.operating_tool.cost_fn,
        "cost_fp": w.operating_tool.cost_fp,
        "p_pos": w.operating_tool.p_pos_value,
    }[trait]
    field.value = value
    assert words in html.unescape(w.errors.widget.value)
    assert (w.p_pos, w.cost_fn, w.cost_fp, w.decision.rule) == before[:3] + (before[4],)
    w.close()


def test_a_multiplier_that_leaves_one_side_is_refused_naming_the_controls():
    w, _ = _widget(0)
    before = w.decision.rule
    with pytest.raises(ValueError, match="one side only.*Move the multipliers back toward 1"):
        w.cost_fn = 1e-6  # every fraud now cheaper missed than reviewed: none worth flagging
    assert w.cost_fn == 1.0 and w.decision.rule == before
    assert "× cost_fn per case (false negative) = 1e-06" in html.unescape(w.errors.widget.value)
    w.close()


def test_setting_pcf_moves_p_pos_to_the_twins_own_pcf():
    # p(+) reweights the cases and the twins' PCF(+) with them: w.pcf = x solves for the p(+)
    # whose twins have PCF(+) x (the units of the setting before would miss it).
    w, (y, scores, amount, weights) = _widget(1)
    w.update(cost_fn=0.8, cost_fp=1.5)
    for x in (0.3, 0.62, 0.08):
        w.pcf = x
        assert (w.cost_fn, w.cost_fp) == (0.8, 1.5)
        _, _, big_p, big_n, _, _ = _cost_weighted(y, amount, weights, w.p_pos, 0.8, 1.5)
        assert big_p / (big_p + big_n) == pytest.approx(x, abs=1e-12)
        assert w.pcf == pytest.approx(x, abs=1e-12) and w.pcf == w.decision.pcf
    w.operating_tool._on_click(None, {"data": {"index": 250}})  # a click at PCF(+) 0.5
    assert w.pcf == pytest.approx(0.5, abs=5e-3) and w.pcf == w.decision.pcf
    with pytest.raises(ValueError, match="No p\\(\\+\\) gives PCF\\(\\+\\) = 1"):
        w.pcf = 1.0
    w.close()


def test_a_snapshot_of_a_moved_fee_widget_restores():
    w, _ = _widget(4)
    w.update(cost_fn=2.0, cost_fp=0.5, p_pos=0.25)
    snap, text = w.snapshot(), w.headline.text
    w.update(cost_fn=1.0, cost_fp=1.0, p_pos=0.1)
    w.restore(snap)
    assert (w.cost_fn, w.cost_fp, w.p_pos) == (2.0, 0.5, 0.25)
    assert w.headline.text == text and w.pcf == w.decision.pcf
    w.close()


def test_the_fee_move_benchmark_runs():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_case_fees.py"
    spec = importlib.util.spec_from_file_location("bench_case_fees", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    r = bench.bench(3000, k=3, moves=2)
    assert r["cost_fn_move_to_np_sort"] > 0 and r["p_pos_move_s"] > 0


def test_a_move_that_fails_half_drawn_goes_back_whole():
    w, _ = _widget(2)
    good = (w.p_pos, w.cost_fn, w.cost_fp, w.decision.rule, w.headline.text)
    real, calls = w.range_tool.drawings_changed, []

    def failing():
        calls.append(1)
        if len(calls) == 1:  # the panes before it already hold the new drawings
            raise RuntimeError("drawing failed")
        real()

    w.range_tool.drawings_changed = failing
    with pytest.raises(RuntimeError, match="drawing failed"):
        w.cost_fn = 2.5
    assert (w.p_pos, w.cost_fn, w.cost_fp, w.decision.rule, w.headline.text) == good
    assert "drawing failed" in w.errors.widget.value
    for i, c in enumerate(w.classifiers):  # every pane draws the good setting's twin again
        twin = cw.cost_weighted(c, 1.0, 1.0, w.p_pos)[0]
        assert w._ctx.drawings[i].clf is twin
        np.testing.assert_array_equal(w.classifier_layers.hull_lines[i].x, twin.hull["fpr"])
    w.cost_fn = 2.5  # and the move goes through once the drawing works
    twin = cw.cost_weighted(w.classifiers[0], 2.5, 1.0, w.p_pos)[0]
    np.testing.assert_array_equal(w.classifier_layers.hull_lines[0].x, twin.hull["fpr"])
    w.close()
