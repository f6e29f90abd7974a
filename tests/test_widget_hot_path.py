"""The kernel's hot path: one state change computes one decision, builds no DataFrame until one
is read, and what it shows equals a fresh ``decide`` and a brute force over every threshold.

Before this file a p(+) change redrew the widget three times (the workforce population that
follows p(+) notified ``n_pos`` and ``n_neg`` first, each a redraw of its own) and decided
twice, the live link's observer read the decision on a state with ``n_pos`` moved and ``n_neg``
not yet, and the threshold-choice tables built two DataFrames at every move while off.
"""

from __future__ import annotations

import os
import threading

import numpy as np
import pandas as pd
import pytest

import costwidget as cw
from costwidget.model import population_for
from costwidget.widget.state import decision as decision_module


def _classifiers(n=3000, k=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return [
        cw.Classifier.from_scores(
            y, np.round(y * (0.6 + 0.3 * i) + rng.normal(size=n), 3), name=f"m{i}"
        )
        for i in range(k)
    ], y


@pytest.fixture
def w():
    clfs, _ = _classifiers()
    with cw.CostWidget(clfs) as widget:
        yield widget


@pytest.fixture
def decide_calls(monkeypatch):
    calls = []
    real = decision_module.decide

    def counting(*args, **kwargs):
        calls.append(kwargs.get("p_pos"))
        return real(*args, **kwargs)

    monkeypatch.setattr(decision_module, "decide", counting)
    return calls


@pytest.mark.parametrize(
    "setup, trait, values",
    [
        ({}, "p_pos", [0.2, 0.41, 0.77]),
        ({}, "cost_fn", [0.5, 3.0, 7.5]),
        ({"constraint": "neyman_pearson"}, "max_fpr", [0.05, 0.2, 0.6]),
        ({"constraint": "workforce"}, "capacity", [100.0, 800.0, 2500.0]),
        ({"constraint": "workforce"}, "p_pos", [0.15, 0.5]),
    ],
)
def test_one_decision_per_state_change(w, decide_calls, setup, trait, values):
    for name, value in setup.items():
        setattr(w, name, value)
    assert w.state.population_set is False or trait != "p_pos"
    for value in values:
        decide_calls.clear()
        setattr(w, trait, value)
        assert len(decide_calls) == 1, f"{trait} = {value}: decided {len(decide_calls)} times"
        # Every view reads that one answer: reading it again decides nothing.
        w.decision, w.readout, w.constrained, w.headline.widget.value  # noqa: B018
        assert len(decide_calls) == 1


def test_observers_see_the_whole_state_when_the_population_follows(w):
    """A user's observer of ``n_pos`` runs once the p(+) change is whole: ``n_neg`` has moved
    too, and the decision it reads is the one for that state."""
    total = w.state.n_pos + w.state.n_neg
    seen = []
    w.observe(lambda change: seen.append((w.p_pos, w.state.n_pos, w.state.n_neg)), "n_pos")
    w.p_pos = 0.42
    assert seen, "the population did not follow p(+)"
    expected = population_for(0.42, total)
    for p, n_pos, n_neg in seen:
        assert (p, n_pos, n_neg) == (0.42, *expected)


@pytest.mark.parametrize("bands", [False, True])
def test_no_dataframe_is_built_until_a_reader_asks(bands, monkeypatch):
    clfs, _ = _classifiers(n=300)
    w = cw.CostWidget(clfs)
    if bands:  # the band table under the readout reads the limits, not a DataFrame of them
        w.show_bands = True
        w.wait(timeout=120)
    built = []
    real = pd.DataFrame.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        real(self, *args, **kwargs)

    w.p_pos = 0.3  # the first move may fill caches
    monkeypatch.setattr(pd.DataFrame, "__init__", counting)
    for value in (0.35, 0.5, 0.62):
        w.p_pos = value
    w.cost_fp = 2.0
    assert built == [], f"{len(built)} DataFrames built by 4 state changes nobody read"
    table = w.readout  # a reader asks: now it is built
    assert built and isinstance(table, pd.DataFrame)
    # The band limits are there with bands drawn (NaN without).
    assert table["nec_band_lo"].notna().all() == bands
    w.close()


def _fresh(w, clfs):
    s = w.state
    return cw.decide(
        [c for c in clfs if c.name in s.visible],
        p_pos=s.p_pos,
        cost_fn=s.cost_fn,
        cost_fp=s.cost_fp,
        constraint=s.constraint,
        max_fpr=s.max_fpr,
        capacity=s.capacity,
        n_pos=s.n_pos,
        n_neg=s.n_neg,
    )


def _brute_cost(y, s, p, c_fn, c_fp):
    """Lowest expected cost per case over every threshold (each distinct score, and +inf)."""
    pos, neg = s[y], s[~y]
    best = np.inf
    for t in np.concatenate(([np.inf], np.unique(s))):
        tpr, fpr = np.mean(pos >= t), np.mean(neg >= t)
        best = min(best, (1 - tpr) * p * c_fn + fpr * (1 - p) * c_fp)
    return best


def test_values_after_a_change_are_a_fresh_decide_and_the_brute_force():
    clfs, y = _classifiers(n=400, k=3, seed=4)
    with cw.CostWidget(clfs) as w:
        for trait, value in (("p_pos", 0.23), ("cost_fn", 4.0), ("p_pos", 0.61)):
            setattr(w, trait, value)
            fresh = _fresh(w, clfs)
            assert w.decision.headline == fresh.headline
            assert w.decision.rows == fresh.rows
            table = fresh.table()
            pd.testing.assert_frame_equal(w.readout[table.columns], table)
            for c in clfs:
                want = _brute_cost(y, c.sample.scores, w.p_pos, w.cost_fn, w.cost_fp)
                assert w.readout.loc[c.name, "expected_cost"] == pytest.approx(want, abs=1e-12)
        w.constraint = "neyman_pearson"
        for value in (0.03, 0.17, 0.5):
            w.max_fpr = value
            fresh = _fresh(w, clfs)
            assert w.decision.headline == fresh.headline
            assert w.decision.rows == fresh.rows


def _brute_single(fpr, tpr, thresholds, load, limit):
    """The best single ROC point within ``load <= limit``: largest TPR, then lowest load (then
    the first in the classifier's order), by a loop over every point."""
    best = None
    for i in range(len(fpr)):
        if load[i] <= limit and (
            best is None or tpr[i] > tpr[best] or (tpr[i] == tpr[best] and load[i] < load[best])
        ):
            best = i
    return thresholds[best], fpr[best], tpr[best]


def _points(clf):
    roc = clf.roc
    return roc["fpr"].to_numpy(), roc["tpr"].to_numpy(), roc["threshold"].to_numpy()


@pytest.mark.parametrize("seed", range(6))
def test_constraints_best_single_point_equals_a_loop_over_every_point(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 400))
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    s = np.round(y * rng.random() + rng.normal(size=n), int(rng.integers(0, 3)))
    weight = rng.random(n) if seed % 2 else None
    clfs = [cw.Classifier.from_scores(y, s, sample_weight=weight)]
    # ROC points given as they are, not monotone: the constraint falls back to every point.
    f, t = np.sort(rng.random(6)), rng.random(6)
    clfs.append(cw.Classifier.from_roc(f, t, thresholds=np.linspace(0.9, 0.1, 6)))
    for clf in clfs:
        fpr, tpr, th = _points(clf)
        for limit in np.concatenate((rng.random(8), [0.0, 1.0], fpr[:: max(1, len(fpr) // 5)])):
            cp = clf.neyman_pearson(float(limit))
            want = _brute_single(fpr, tpr, th, fpr, limit)
            got = (cp.single_threshold, cp.single_fpr, cp.single_tpr)
            np.testing.assert_array_equal(got, want)
        n_pos, n_neg = 30.0 + seed, 70.0
        load = tpr * n_pos + fpr * n_neg
        for capacity in np.concatenate((rng.random(6) * 100, load[:: max(1, len(load) // 5)])):
            cp = clf.workforce(float(capacity), n_pos=n_pos, n_neg=n_neg)
            want = _brute_single(fpr, tpr, th, load, capacity)
            np.testing.assert_array_equal((cp.single_threshold, cp.single_fpr, cp.single_tpr), want)


# ---------------------------------------------------------------------------- the honest layer
def test_the_honest_layer_computes_its_classifiers_at_once_and_draws_the_model_s_curves():
    """Two classifiers' curves are computed together (each waits at a barrier for the other:
    one after another, the first would wait alone and fail), and what is drawn is
    ``cw.honest_cost`` of each, with the random splits seeded as the layer seeds them."""
    from costwidget.widget.panes.honest_layer import honest_curve

    clfs, _ = _classifiers(n=600, k=3, seed=2)
    barrier = threading.Barrier(2, timeout=10)
    at_once = []

    def compute(clf, _req):
        if clf.name != "m2":  # two of three meet at the barrier; the third runs when one is free
            barrier.wait()
            at_once.append(clf.name)
        return honest_curve(clf)

    with cw.CostWidget(clfs) as w:
        layer = w.honest_layer
        shipped = getattr(layer, "threads", 1)
        layer.threads, layer.compute = 2, compute
        w.show_honest = True
        w.wait(timeout=120)
        assert w.errors.last_error is None
        assert sorted(at_once) == ["m0", "m1"]
        assert sorted(w.drawn_honest) == ["m0", "m1", "m2"]
        assert shipped >= 2 or (os.cpu_count() or 1) == 1  # as the widget is built
        for c in clfs:
            want = cw.honest_cost(c, random_state=0)
            pd.testing.assert_frame_equal(w.drawn_honest[c.name][want.columns], want)


def test_a_superseded_honest_job_stops_and_drops_the_classifiers_not_started():
    from costwidget.widget.state.background import Superseded

    clfs, _ = _classifiers(n=300, k=4, seed=3)
    started, release = [], threading.Event()

    def compute(clf, _req):
        started.append(clf.name)
        if clf.name != "m0":  # still running when the job is superseded
            release.wait(timeout=1.0)
        return pd.DataFrame({"pcf": [0.0, 1.0], "lower": [0.0, 0.0], "upper": [0.0, 0.0]})

    def progress(done, total):
        if done >= 1:
            raise Superseded("honest")

    with cw.CostWidget(clfs) as w:
        layer = w.honest_layer
        layer.threads, layer.compute = 2, compute
        with pytest.raises(Superseded):
            layer._compute_all([(c.name, c) for c in clfs], "honest", progress)
    # m0 done and m1 running when the job was superseded (m2 too if the free thread took it
    # first): m3 cannot have started, and is dropped.
    assert {"m0", "m1"} <= set(started) and "m3" not in started
