"""The headline, the readout's tie rule and the workforce population (issue 23).

The headline's model, threshold and cost are checked against a brute-force search over every
threshold of every model (expected cost per case = p·C(-|+)·FNR + (1-p)·C(+|-)·FPR, Drummond &
Holte (2006), sec. 2), not against the package's own readout.
"""

from __future__ import annotations

import re
from fractions import Fraction

import brute_constraints as bc
import numpy as np
import pytest

import costwidget as cw
from costwidget.model import readable


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
    return y, {
        "weak <b>model</b>": y + rng.normal(scale=2.0, size=300),
        "strong": y + rng.normal(scale=0.6, size=300),
    }


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
    # The shown threshold, read back as a number, flags exactly the cases the brute-force best
    # threshold flags (it is written with the digits that select them, issue 30 item 6).
    shown = float(m.group(1).replace(",", ""))
    scores = models[winner]
    assert np.array_equal(scores >= shown, scores >= costs[winner][1])
    assert f"next best {other}, +" in text
    # Escaped in the widget: the model names are user text.
    assert "<b>model</b>" not in w.headline.widget.value
    assert "&lt;b&gt;model&lt;/b&gt;" in w.headline.widget.value or winner == "strong"
    w.close()


def test_a_tie_is_named_as_a_tie_and_no_row_is_highlighted(data):
    y, models = data
    scores = models["strong"]
    # Two models that score every case alike cost the same everywhere: a tie, whatever p(+).
    w = cw.CostWidget([cw.Classifier.from_scores(y, scores, name=n) for n in ("a", "b")])
    w.p_pos = 0.5
    cost, _ = brute_best(y, scores, 0.5, 1.0, 1.0)
    assert w.headline.text.startswith("Tie: 2 classifiers share the lowest cost, ")
    assert _cost_in_headline(w.headline.text) == pytest.approx(cost, abs=5e-5)
    assert "costwidget-best" not in w.readout_view.widget.value
    w.close()
    w = _widget(data)
    w.p_pos = 1.0  # every model flags every case and costs 0: the same rule, said in words
    assert w.headline.text.startswith("Flag every case: 0 per case")
    assert "costwidget-best" not in w.readout_view.widget.value
    w.p_pos = 0.5
    assert w.readout_view.widget.value.count("costwidget-best") == 1
    w.close()


def _brute_constrained(scores_of, y, kind, limit, population, p_pos, cost_fn, cost_fp):
    """Each model's cheapest allowed expected cost (tests/brute_constraints.py), exact."""
    load = bc.neyman_pearson_load if kind == "neyman_pearson" else bc.workforce_load(*population)
    cost = bc.expected_cost(p_pos, cost_fn, cost_fp)
    points = {n: bc.roc_rates(y, s) for n, s in scores_of.items()}
    return (
        {n: bc.cheapest_allowed(pts, load, limit, cost) for n, pts in points.items()},
        {n: bc.binds(pts, load, limit, cost) for n, pts in points.items()},
        load,
    )


def _binding_limit(scores_of, y, kind, population, costs, where):
    """A limit that binds for every model, the winner on a ROC point or inside an edge."""
    load = bc.neyman_pearson_load if kind == "neyman_pearson" else bc.workforce_load(*population)
    points = [bc.roc_rates(y, s) for s in scores_of.values()]
    return float(bc.binding_limit(points, load, bc.expected_cost(*costs), where))


def _cost_in_headline(text):
    """The cost per case the headline prints, read robustly (digits, separators, exponent)."""
    m = re.search(r"([-+]?[\d,]*\.?\d+(?:[eE][-+]?\d+)?) per case", text)
    return float(m.group(1).replace(",", ""))


CONSTRAINED_STATES = [
    (seed, kind, where, tie)
    for seed in (0, 1)
    for kind in ("neyman_pearson", "workforce")
    for where in ("vertex", "edge")
    for tie in (False, True)
]


@pytest.mark.parametrize("seed, kind, where, tie", CONSTRAINED_STATES)
def test_headline_follows_the_constraint(seed, kind, where, tie):
    """Where the limit binds for every model, the headline names the model whose cheapest
    allowed rule (over every ROC point and every mix of two, Drummond & Holte (2000), sec. 2.2.2)
    costs least, with that cost; a tie is named as a tie. The readout's constrained rows carry
    each model's brute-force cost and an allowed rule."""
    rng = np.random.default_rng(seed)
    y = rng.random(40) < 0.4
    y[:2] = [True, False]
    scores_of = {
        "a": np.round(y + rng.normal(scale=0.8, size=40), 1),
        "b": np.round(y + rng.normal(scale=1.2, size=40), 1),
    }
    population = (int(y.sum()), int((~y).sum()))
    costs = (0.4, 8.0, 1.0)  # FN dear: the cheapest rules flag many cases, a limit binds
    limit = _binding_limit(scores_of, y, kind, population, costs, where)
    if tie:  # the winner's scores again under another name: an exact tie at the lowest cost
        expected, _, _ = _brute_constrained(scores_of, y, kind, limit, population, *costs)
        winner = min(expected, key=expected.get)
        scores_of[f"{winner} twin"] = scores_of[winner].copy()
    expected, binding, load = _brute_constrained(scores_of, y, kind, limit, population, *costs)
    assert all(binding.values())
    w = cw.CostWidget(
        [cw.Classifier.from_scores(y, s, name=n) for n, s in scores_of.items()],
        p_pos=costs[0],
        cost_fn=costs[1],
        cost_fp=costs[2],
    )
    try:
        if kind == "neyman_pearson":
            w.update(constraint=kind, max_fpr=limit)
        else:
            w.update(
                constraint=kind,
                n_pos=float(population[0]),
                n_neg=float(population[1]),
                capacity=limit,
            )
        table = w.readout
        for name, cost in expected.items():
            row = table.loc[name]
            assert row["constrained_expected_cost"] == pytest.approx(float(cost), abs=1e-12)
            allowed = load(Fraction(row["constrained_fpr"]), Fraction(row["constrained_tpr"]))
            assert float(allowed) <= limit + 1e-9 * max(1.0, limit)
        low = min(expected.values())
        winners = [n for n, c in expected.items() if c == low]
        text = w.headline.text
        if len(winners) > 1:
            assert text.startswith(f"Tie: {len(winners)} classifiers share the lowest cost")
        else:
            assert re.match(rf"Under the constraint, deploy {re.escape(winners[0])}[, ]", text)
        assert _cost_in_headline(text) == pytest.approx(float(low), rel=5e-3)
    finally:
        w.close()


ISSUE_31_Y = [0, 0, 1, 1, 0, 1, 0, 0, 0, 1]
ISSUE_31_S = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.55, 0.3, 0.05, 0.6]


@pytest.mark.parametrize(
    "update",
    [
        dict(constraint="neyman_pearson", max_fpr=1.0),
        dict(constraint="neyman_pearson", max_fpr=0.2),
        dict(constraint="workforce", n_pos=4.0, n_neg=6.0, capacity=5.0),
    ],
    ids=["max FPR 100 %", "max FPR 20 %", "capacity above the cheapest"],
)
def test_a_constraint_that_does_not_bind_leaves_the_headline_as_it_was(update):
    """Issue 31's case: unconstrained, 'score >= 0.6: 0.1 per case' (FPR 0, TPR 3/4); each of
    these limits allows that rule, so the answer must stay it (the headline said 0.8 and 0.52)."""
    costs = (0.4, 1.0, 4.0)
    scores_of = {"m": ISSUE_31_S}
    population = (update.get("n_pos", 4), update.get("n_neg", 6))
    limit = update.get("max_fpr", update.get("capacity"))
    expected, binding, _ = _brute_constrained(
        scores_of, ISSUE_31_Y, update["constraint"], limit, population, *costs
    )
    assert float(expected["m"]) == pytest.approx(0.1, abs=1e-15) and not binding["m"]
    w = cw.CostWidget(
        [cw.Classifier.from_scores(ISSUE_31_Y, ISSUE_31_S, name="m")],
        p_pos=costs[0],
        cost_fn=costs[1],
        cost_fp=costs[2],
    )
    try:
        w.update(**update)
        assert w.readout.loc["m", "constrained_expected_cost"] == pytest.approx(0.1, abs=1e-12)
        assert _cost_in_headline(w.headline.text) == pytest.approx(0.1, rel=5e-3)
    finally:
        w.close()


def test_static_figure_caption_carries_the_headline(data):
    from costwidget.widget.export import caption

    w = _widget(data)
    assert w.headline.text in caption(w)
    w.close()


def test_population_follows_p_until_set(data):
    w = _widget(data)
    total = w.n_pos + w.n_neg
    w.constraint = "workforce"
    w.p_pos = 0.5
    assert (w.n_pos, w.n_neg) == (0.5 * total, total - 0.5 * total)
    assert (
        f"population: {readable(total)} cases at p(+) = 0.5"
        in w.readout_view.constrained_widget.value
    )
    assert (
        w.constraint_tool.population_value.value
        == f"population: {readable(total)} cases at p(+) = 0.5"
    )
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
    with pytest.raises(ValueError, match=r"band_level must lie strictly between 0 and 1, got 2\.0"):
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
        old = dict(
            fixed,
            constraint={k: v for k, v in fixed["constraint"].items() if k != "population_set"},
        )
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
        with pytest.raises(ValueError, match=r"cost_fn .* must be a finite number >= 0, got -1\.0"):
            w.update(n_pos=10.0, n_neg=90.0, cost_fn=-1.0)
        assert w.state.population_set is False
        w.p_pos = 0.25
        assert (w.n_pos, w.n_neg) == pytest.approx((25.0, 75.0), abs=1e-9)
    finally:
        w.close()
