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
