"""The per-case widget's honest curves: the twins' (in the cost pane's NEC), and a decision on
new data in money per case that matches a per-fold brute force (tests/test_honest_case_costs)."""

from __future__ import annotations

import numpy as np

import costwidget as cw
from tests.test_honest_case_costs import _brute, _data


def _widget(costs, **kw):
    y, s, _, w, folds = _data(7)
    rng = np.random.default_rng(8)
    s2 = np.clip(s + rng.normal(0, 0.3, len(s)), 0, 1)
    scores = {"a": s, "b": s2}
    clfs = [
        cw.Classifier.from_scores(y, v, name=n, sample_weight=w, folds=folds, **costs)
        for n, v in scores.items()
    ]
    return cw.CostWidget(clfs, **kw), (y, w, folds), scores


def _check(widget, data, scores, costs, m_fn, m_fp, p_pos):
    y, w, folds = data
    full = {k: costs.get(k, np.zeros(len(y))) for k in ("cost_fn", "cost_fp", "cost_tp", "cost_tn")}
    full = {k: np.broadcast_to(np.asarray(v, float), (len(y),)) for k, v in full.items()}
    d = widget.decision
    assert d.on_new_data
    for name, row in d.rows:
        want = _brute(y, scores[name], full, w, folds, m_fn, m_fp, p_pos)[0]
        assert abs(row["expected_cost_honest"] - want) < 1e-9
    assert "on new data" in d.headline or d.tie


def test_the_widget_draws_the_twins_honest_curves_and_decides_on_new_data_in_money():
    rng = np.random.default_rng(9)
    costs = {"cost_fn": rng.uniform(1, 20, 60), "cost_fp": 1.0}  # no case changes side
    widget, data, scores = _widget(costs, p_pos=0.5)
    with widget as w:
        w.show_honest = True
        w.wait(timeout=60)
        assert sorted(w.drawn_honest) == ["a", "b"]
        for i, clf in enumerate(w.classifiers):
            want = cw.honest_cost(clf)  # the twin at multipliers 1, with the folds
            got = w.drawn_honest[clf.name]
            np.testing.assert_array_equal(got["pcf"], want["pcf"])
            np.testing.assert_array_equal(got["nec"], want["nec"])
            np.testing.assert_array_equal(w.honest_layer.marks[i].y[1], want["nec"])
            # The pane's envelope edge is the drawn twin's envelope.
            np.testing.assert_allclose(
                got["envelope"], w.per_case.twins[i].nec(got["pcf"]), rtol=0, atol=1e-12
            )
        _check(w, data, scores, costs, 1.0, 1.0, 0.5)
        w.cost_fn = 2.0  # the twins' ROC holds: the same curves, read at the new PCF(+)
        _check(w, data, scores, costs, 2.0, 1.0, 0.5)


def test_a_pinned_widget_decides_on_new_data_at_its_multipliers():
    rng = np.random.default_rng(10)
    costs = {"cost_fn": rng.uniform(1, 20, 60), "cost_fp": 2.0, "cost_tp": 3.0}
    widget, data, scores = _widget(costs, p_pos=0.4, cost_fn=1.5, cost_fp=0.8)
    with widget as w:
        w.show_honest = True
        w.wait(timeout=60)
        assert sorted(w.drawn_honest) == ["a", "b"]
        _check(w, data, scores, costs, 1.5, 0.8, 0.4)


def test_the_savings_on_new_data_are_of_the_cost_on_new_data():
    # The headline's cost is on new data; its savings must be of that cost, not of the cost
    # on this data (the trivial rules cost the same on both: no threshold is tuned).
    rng = np.random.default_rng(12)
    costs = {"cost_fn": rng.uniform(1, 20, 60), "cost_fp": 1.0}
    widget, (y, w, _folds), _scores = _widget(costs, p_pos=0.3)
    with widget as wd:
        wd.show_honest = True
        wd.wait(timeout=60)
        d = wd.decision
        assert d.on_new_data and d.chosen is not None
        honest = dict(d.rows)[d.chosen]["expected_cost_honest"]
        pos = y == 1
        prior = w[pos].sum() / w.sum()
        wt = w * np.where(pos, 0.3 / prior, 0.7 / (1 - prior))  # classes reweighted to p(+)
        every = np.sum(wt[~pos] * 1.0) / wt.sum()  # flag every case: each negative's cost_fp
        none = np.sum(wt[pos] * costs["cost_fn"][pos]) / wt.sum()  # flag none: each miss
        trivial = min(every, none)
        saved = wd.per_case.savings(d)
        assert abs(saved.trivial_cost - trivial) < 1e-12
        assert abs(saved.savings - (1 - honest / trivial)) < 1e-12
        # Here the rule tuned on the other folds costs more on new data than flagging every
        # case: the headline says so rather than a saving measured on this data.
        assert saved.savings < 0 and "more than flagging every case" in wd.per_case.headline(d)
