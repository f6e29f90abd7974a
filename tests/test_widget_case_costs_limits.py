"""The widget with per-case costs under a Neyman-Pearson or workforce limit: it deploys the
brute-force cheapest rule the limit allows, the limit counting the cases (numpy here, every
threshold of every classifier), says so in its headline in the limit's units, and draws no limit
line on the cost-weighted ROC (the limit is no cut of it) but a note saying why."""

from __future__ import annotations

import re

import numpy as np
import pytest

import costwidget as cw


def _data(seed, n=90):
    rng = np.random.default_rng(4600 + seed)
    y = (rng.random(n) < 0.35).astype(int)
    y[:2] = [0, 1]
    amount = np.round(rng.pareto(1.3, n) * 30.0 + 1.0, 2)
    scores = {
        "a": np.round(rng.random(n) + 0.5 * y, 2),
        "b": np.round(rng.random(n) + 0.7 * y * (amount > 10), 3),
    }
    return y, amount, scores


def _brute(y, scores, amount, fee, allowed):
    """``(money, name, flags)`` of the cheapest allowed "flag score >= t" (highest t among equal
    costs: the fewest cases flagged), counting each case."""
    best, names = None, set()
    for name, s in scores.items():
        for t in np.concatenate(([np.inf], np.unique(s)[::-1])):
            flagged = s >= t
            if not allowed(flagged):
                continue
            cost = np.where(y == 1, np.where(flagged, 0.0, amount), np.where(flagged, fee, 0.0))
            money = float(cost.mean())
            if best is None or money < best[0] - 1e-12 * abs(best[0]):
                best, names = (money, name, flagged), {name}
            elif money <= best[0] + 1e-12 * abs(best[0]):
                names.add(name)
    return best, names


def _check(w, y, scores, want):
    (money, name, flags), names = want
    d = w.decision
    tool = w.constraint_tool
    assert not tool.roc_line.visible  # no FPR line on the cost-weighted ROC
    if len(names) > 1:  # e.g. every classifier's cheapest allowed rule flags no case
        assert d.tie and set(d.lowest) == names
        return
    assert d.chosen == name, w.headline.text
    assert d.rule.expected_cost == pytest.approx(money, rel=1e-9)
    assert np.array_equal(scores[d.chosen] >= d.rule.threshold, flags)
    m = re.search(r"\(FPR ([0-9.]+) %, TPR ([0-9.]+) %, counted in cases\)", w.headline.text)
    assert m is not None, w.headline.text
    fpr = 100.0 * flags[y == 0].mean()
    assert float(m.group(1)) == pytest.approx(fpr, rel=5e-3, abs=1e-12)
    assert "the limit has no line there" in tool.message.value


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("max_fpr", [0.05, 0.2, 0.5])
def test_widget_under_neyman_pearson_deploys_the_brute_force_rule(seed, max_fpr):
    y, amount, scores = _data(seed)
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=4.0, cost_tp=0.0)
    w.update(constraint="neyman_pearson", max_fpr=max_fpr)
    want = _brute(y, scores, amount, 4.0, lambda f: f[y == 0].mean() <= max_fpr)
    _check(w, y, scores, want)
    assert not w.decision.tie  # the limit is checked on a deployed rule
    limit = float(re.search(r"the FPR limit ([0-9.]+) %", w.headline.text).group(1))
    printed = float(re.search(r"\(FPR ([0-9.]+) %", w.headline.text).group(1))
    assert printed <= limit
    assert "the limit counts cases" in w.readout_view.constrained_widget.value


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("share", [0.1, 0.3])
def test_widget_under_workforce_deploys_the_brute_force_rule(seed, share):
    y, amount, scores = _data(seed)
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=4.0)
    capacity = float(np.floor(share * len(y)))
    w.update(constraint="workforce", capacity=capacity)
    want = _brute(y, scores, amount, 4.0, lambda f: f.sum() <= capacity + 1e-9)
    _check(w, y, scores, want)


def test_a_binding_limit_that_costs_more_than_a_trivial_rule_says_so():
    # Flagging at most 9 of 90 cases costs more than flagging every case: the savings are
    # negative, said as the extra cost, not "saves -…%".
    y, amount, scores = _data(0)
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=4.0)
    w.update(constraint="workforce", capacity=9.0)
    (money, _, _), _ = _brute(y, scores, amount, 4.0, lambda f: f.sum() <= 9.0)
    every, none = float(np.mean(np.where(y == 1, 0.0, 4.0))), float(np.mean(y * amount))
    trivial = min(every, none)
    assert money > trivial
    m = re.search(r"; costs ([0-9.,]+) % more than flagging", w.headline.text)
    assert m is not None, w.headline.text
    assert "saves -" not in w.headline.text
    extra = float(m.group(1).replace(",", ""))
    assert extra == pytest.approx(100.0 * (money / trivial - 1.0), rel=5e-3)
