"""The headline, the readout's tie rule and the workforce population (issue 23).

The headline's model, threshold and cost are checked against a brute-force search over every
threshold of every model (expected cost per case = p·C(-|+)·FNR + (1-p)·C(+|-)·FPR, Drummond &
Holte (2006), sec. 2), not against the package's own readout.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import costwidget as cw
from costwidget.model import headline_text, readable


def brute_best(y, scores, p, fn, fp):
    """The lowest expected cost per case of one model over all its thresholds."""
    pos, neg = y.sum(), (~y).sum()
    best = (np.inf, None)
    for t in np.concatenate([np.unique(scores), [np.inf]]):
        pred = scores >= t
        fnr = (~pred & y).sum() / pos
        fpr = (pred & ~y).sum() / neg
        best = min(best, (p * fn * fnr + (1 - p) * fp * fpr, t), key=lambda b: b[0])
    return best


@pytest.fixture()
def data():
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.35
    return y, {"weak <b>model</b>": y + rng.normal(scale=2.0, size=300),
               "strong": y + rng.normal(scale=0.6, size=300)}


def _widget(data):
    y, models = data
    return cw.CostWidget([cw.Classifier.from_scores(y, s, name=n) for n, s in models.items()])


def test_headline_names_the_brute_force_best(data):
    y, models = data
    w = _widget(data)
    w.update(p_pos=0.3, cost_fn=5.0, cost_fp=1.0)
    costs = {n: brute_best(y, s, 0.3, 5.0, 1.0) for n, s in models.items()}
    winner = min(costs, key=lambda n: costs[n][0])
    other = next(n for n in costs if n != winner)
    text = w.headline.text
    assert text.startswith(f"Deploy {winner} at score ≥ ")
    m = re.search(r"score ≥ (\S+): (\S+) per case", text)
    assert float(m.group(2)) == pytest.approx(costs[winner][0], rel=1e-3)
    assert m.group(1) == readable(w.readout.loc[winner, "threshold"])
    assert f"next best {other}, +" in text
    # Escaped in the widget: the model names are user text.
    assert "<b>model</b>" not in w.headline.widget.value
    assert "&lt;b&gt;model&lt;/b&gt;" in w.headline.widget.value or winner == "strong"
    w.close()


def test_a_tie_is_named_as_a_tie_and_no_row_is_highlighted(data):
    w = _widget(data)
    w.p_pos = 1.0  # every model costs 0 (it flags every case)
    assert w.headline.text.startswith("Tie: 2 classifiers share the lowest cost, 0 per case")
    assert "costwidget-best" not in w.readout_view.widget.value
    w.p_pos = 0.5
    assert w.readout_view.widget.value.count("costwidget-best") == 1
    w.close()


def test_headline_follows_the_constraint(data):
    w = _widget(data)
    w.update(constraint="neyman_pearson", max_fpr=0.05)
    table = w.readout
    best = table["constrained_expected_cost"].idxmin()
    assert w.headline.text.startswith(f"Under the constraint, deploy {best}, ")
    assert f"{readable(table.loc[best, 'constrained_expected_cost'])} per case" in w.headline.text
    w.close()


def test_static_figure_caption_carries_the_headline(data):
    from costwidget.widget.export import caption

    w = _widget(data)
    assert w.headline.text in caption(w)
    w.close()


def test_headline_text_ties_and_gaps():
    rows = [("a", {"threshold": 0.5, "fpr": 0.1, "tpr": 0.9, "expected_cost": 0.2}),
            ("b", {"threshold": 0.4, "fpr": 0.2, "tpr": 0.8, "expected_cost": 0.2}),
            ("c", {"threshold": 0.3, "fpr": 0.3, "tpr": 0.7, "expected_cost": 0.5})]
    assert headline_text(rows).startswith("Tie: 2 classifiers")
    assert headline_text(rows[1:]).endswith("next best c, +0.3")
    assert headline_text([]) == "No classifier shown."


def test_population_follows_p_until_set(data):
    w = _widget(data)
    total = w.n_pos + w.n_neg
    w.constraint = "workforce"
    w.p_pos = 0.5
    assert (w.n_pos, w.n_neg) == (0.5 * total, total - 0.5 * total)
    assert f"population: {readable(total)} cases at p(+) = 0.5" in w.readout_view.constrained_widget.value
    assert w.constraint_tool.population_value.value == f"population: {readable(total)} cases at p(+) = 0.5"
    w.n_pos = 30.0
    w.p_pos = 0.2
    assert (w.n_pos, w.n_neg) == (30.0, total - 0.5 * total)  # set: it stops following
    assert "population set: 30 positives" in w.readout_view.constrained_widget.value
    assert w.constraint_tool.population_value.value.startswith("population set: 30 positives")
    w.state.follow_population()
    assert w.n_pos == pytest.approx(0.2 * (30.0 + total / 2))
    w.close()


def test_a_refused_change_keeps_the_population_following(data):
    w = _widget(data)
    w.p_pos = 0.4
    with pytest.raises(Exception):
        w.update(p_pos=0.6, band_level=2.0)
    assert w.p_pos == 0.4 and w.state.population_set is False
    w.p_pos = 0.5
    assert w.n_pos == pytest.approx(0.5 * (w.n_pos + w.n_neg))
    w.close()


def test_snapshot_keeps_whether_the_population_follows_p_pos():
    """Restoring a snapshot brings back whether the workforce population follows p(+): a
    following one goes on following after the restore, a set one stays put."""
    import costwidget as cw

    a = cw.Classifier.from_confusion(tp=30, fn=10, fp=20, tn=40, name="a")
    w = cw.CostWidget([a], p_pos=0.4)
    try:
        w.constraint = "workforce"
        following = w.snapshot()
        assert following["constraint"]["population_set"] is False
        w.update(n_pos=10.0, n_neg=90.0)
        fixed = w.snapshot()
        assert fixed["constraint"]["population_set"] is True
        w.restore(following)
        w.p_pos = 0.25
        assert (w.n_pos, w.n_neg) == pytest.approx((25.0, 75.0), abs=1e-9)
        w.restore(fixed)
        w.p_pos = 0.6
        assert (w.n_pos, w.n_neg) == (10.0, 90.0)
        old = dict(fixed, constraint={k: v for k, v in fixed["constraint"].items()
                                      if k != "population_set"})
        w.restore(old)  # a snapshot from before issue 23: its population was set
        assert w.state.population_set is True
    finally:
        w.close()


def test_update_of_the_population_stops_it_following():
    """``w.update(n_pos=..., n_neg=...)`` sets the population as a typed field does: p(+) no
    longer moves it (traitlets validates held traits through set_trait at the end of the
    hold, which once counted as a rollback's write and left the population "following")."""
    import costwidget as cw

    a = cw.Classifier.from_confusion(tp=30, fn=10, fp=20, tn=40, name="a")
    w = cw.CostWidget([a], p_pos=0.4)
    try:
        w.update(p_pos=0.2, n_pos=120.0, n_neg=180.0)
        assert w.state.population_set is True
        w.p_pos = 0.5
        assert (w.n_pos, w.n_neg) == (120.0, 180.0)
    finally:
        w.close()


def test_a_refused_update_leaves_the_population_following():
    """A refused update changes nothing, the population's "set" flag included."""
    import costwidget as cw

    a = cw.Classifier.from_confusion(tp=30, fn=10, fp=20, tn=40, name="a")
    w = cw.CostWidget([a], p_pos=0.4)
    try:
        with pytest.raises(Exception):
            w.update(n_pos=10.0, n_neg=90.0, cost_fn=-1.0)
        assert w.state.population_set is False
        w.p_pos = 0.25
        assert (w.n_pos, w.n_neg) == pytest.approx((25.0, 75.0), abs=1e-9)
    finally:
        w.close()
