"""The headline of a decision with per-case costs prints the rates a reader and a limit count:
the deployed rule's FPR and TPR counted on the cases (with sample weights), not those of the
cost-weighted twin. Checked against a numpy count of the deployed rule's cases; under a
Neyman-Pearson limit the limit printed is at least the FPR printed (the limit visibly holds)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import costwidget as cw

RATES = re.compile(r"\(FPR ([0-9.]+) %, TPR ([0-9.]+) %, counted in cases\)")
LIMIT = re.compile(r"the FPR limit ([0-9.]+) %")


def _data_set(seed):
    """Heavy-tailed amounts, a fee on flagged cases on some seeds, sample weights (some 0) on odd
    seeds, tied scores in one classifier."""
    rng = np.random.default_rng(4500 + seed)
    n = int(rng.integers(30, 120))
    y = (rng.random(n) < rng.uniform(0.15, 0.6)).astype(int)
    y[:2] = [0, 1]
    amount = rng.lognormal(3.0, 1.5, n)
    fee = float(rng.choice([0.0, 2.0, 10.0]))
    scores = {
        "a": np.round(rng.normal(size=n) + y, 1),
        "b": rng.random(n) + 0.3 * y,
    }
    w = rng.integers(0, 4, n).astype(float) if seed % 2 else np.ones(n)
    w[:2] = 1.0
    costs = {"cost_fn": amount, "cost_fp": fee + 1.0, "cost_tp": fee}
    models = cw.classifiers_from_predictions(y, scores, sample_weight=w, **costs)
    return y, scores, w, models


def _counted(y, s, w, threshold):
    """The case-count FPR and TPR of "flag when s >= threshold", in percent."""
    flagged = s >= threshold
    fpr = w[(y == 0) & flagged].sum() / w[y == 0].sum()
    tpr = w[(y == 1) & flagged].sum() / w[y == 1].sum()
    return 100.0 * fpr, 100.0 * tpr


def _printed(headline):
    m = RATES.search(headline)
    assert m is not None, headline
    return float(m.group(1)), float(m.group(2))


def _same(printed, exact):
    """Printed to 3 significant digits."""
    assert abs(printed - exact) <= 5e-3 * abs(exact) + 1e-12, (printed, exact)


def _check(d, y, scores, w):
    assert not d.tie, d.headline
    fpr, tpr = _printed(d.headline)
    exact = _counted(y, scores[d.chosen], w, d.rule.threshold)
    _same(fpr, exact[0])
    _same(tpr, exact[1])
    return fpr, exact


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("mult", [(1.0, 1.0), (2.0, 0.5)])
def test_headline_rates_are_counted_on_the_cases(seed, mult):
    y, scores, w, models = _data_set(seed)
    _check(cw.decide(models, cost_fn=mult[0], cost_fp=mult[1]), y, scores, w)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("max_fpr", [0.0, 0.05, 0.1, 0.3])
def test_headline_under_neyman_pearson_shows_the_limit_holding(seed, max_fpr):
    y, scores, w, models = _data_set(seed)
    d = cw.decide(models, constraint="neyman_pearson", max_fpr=max_fpr)
    fpr, exact = _check(d, y, scores, w)
    assert exact[0] <= 100.0 * max_fpr + 1e-9
    limit = float(LIMIT.search(d.headline).group(1))
    assert limit >= fpr, d.headline


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("share", [0.05, 0.2, 0.5])
def test_headline_under_workforce_counts_the_cases(seed, share):
    y, scores, w, models = _data_set(seed)
    capacity = share * w.sum()
    d = cw.decide(models, constraint="workforce", capacity=capacity)
    _check(d, y, scores, w)
    assert w[scores[d.chosen] >= d.rule.threshold].sum() <= capacity + 1e-9


def test_flagging_every_case_is_said_only_when_every_case_is_flagged():
    # A negative that costs nothing below every other case: the cost-weighted rates are 100 %
    # without flagging it; the words and rates must be of the cases the rule flags.
    y = np.array([1, 0, 1, 0])
    s = np.array([0.9, 0.8, 0.6, 0.1])
    clf = cw.Classifier.from_scores(
        y, s, cost_fn=[50.0, 0, 50.0, 0], cost_fp=[0, 0.1, 0, 0.0], name="m"
    )
    d = cw.decide([clf])
    fpr, tpr = _printed(d.headline)
    exact = _counted(y, s, np.ones(4), d.rule.threshold)
    _same(fpr, exact[0])
    _same(tpr, exact[1])
    assert ("flagging every case" in d.headline) is bool(np.all(s >= d.rule.threshold))


def test_costs_summed_in_a_database_say_their_rates_are_cost_weighted():
    # No single case is known, so the rates cannot be counted: they are labelled, not passed off
    # as counts.
    duckdb = pytest.importorskip("duckdb")
    import pandas as pd

    rng = np.random.default_rng(7)
    n = 60
    y = (rng.random(n) < 0.4).astype(int)
    frame = pd.DataFrame(
        {"y": y, "m": rng.random(n) + 0.4 * y, "Amount": rng.lognormal(3.0, 1.0, n)}
    )
    con = duckdb.connect()
    con.register("scored", frame)
    models = cw.from_duckdb(
        "scored", connection=con, y_true="y", y_score="m", model=None, cost_fn="Amount", cost_fp=5.0
    )
    d = cw.decide(models)
    assert re.search(r"\(FPR [0-9.]+ %, TPR [0-9.]+ %, cost-weighted\)", d.headline), d.headline
    assert "counted in cases" not in d.headline
