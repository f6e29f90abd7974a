"""Neyman-Pearson and workforce limits with per-case costs: the limit counts the cases, the cost
is money per case. Checked against a brute force over every threshold of every classifier that
counts the cases and the money directly (numpy only), and against empulse's ``cost_loss``."""

from __future__ import annotations

import math

import numpy as np
import pytest

import costwidget as cw


def _data_set(seed):
    """Heavy-tailed amounts, a fixed fee on both flagged outcomes; sample weights (some 0) on odd
    seeds, a cost of passing negatives on some."""
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(40, 140))
    y = (rng.random(n) < rng.uniform(0.15, 0.5)).astype(int)
    y[:2] = [0, 1]
    amount = rng.pareto(1.1, n) * 40.0 if seed % 3 == 0 else rng.lognormal(3.0, 1.5, n)
    fee = float(rng.choice([2.0, 5.0, 15.0]))
    scores = {
        "a": np.round(rng.normal(size=n) + 1.2 * y, 1),  # many ties
        "b": rng.normal(size=n) + 0.6 * y + 0.01 * np.log1p(amount),
        "c": rng.random(n) + 0.3 * y,
    }
    w = rng.integers(0, 4, n).astype(float) if seed % 2 else np.ones(n)
    w[:2] = 1.0  # both classes keep weight
    tn = np.zeros(n) if seed % 4 else rng.uniform(0, 3, n)
    return y, scores, w, amount, fee, tn


def _brute(y, scores, w, cells, limit_of, p_pos=None):
    """Every (classifier, threshold) rule: its money per case (all four cells, weights times
    p(+)'s class factors) and whether the limit allows it (counted on the cases)."""
    fn, fp, tp, tn = cells
    wm = w.astype(float).copy()
    if p_pos is not None:
        prior = w[y == 1].sum() / w.sum()
        wm = np.where(y == 1, w * p_pos / prior, w * (1 - p_pos) / (1 - prior))
    rules = []
    for name, s in scores.items():
        for t in np.concatenate(([np.inf], np.unique(s))):
            flagged = s >= t
            cost = np.where(y == 1, np.where(flagged, tp, fn), np.where(flagged, fp, tn))
            money = float(np.sum(wm * cost) / np.sum(wm))
            rules.append((name, float(t), money, bool(limit_of(flagged))))
    return rules


def _np_limit(y, w, max_fpr):
    return lambda flagged: w[(y == 0) & flagged].sum() / w[y == 0].sum() <= max_fpr


def _wf_limit(y, w, capacity, n_pos=None, n_neg=None):
    if n_pos is None:
        return lambda flagged: w[flagged].sum() <= capacity
    pos, neg = w[y == 1].sum(), w[y == 0].sum()
    return lambda flagged: (
        w[(y == 1) & flagged].sum() / pos * n_pos + w[(y == 0) & flagged].sum() / neg * n_neg
        <= capacity
    )


def _cheapest(rules):
    """The cheapest of ``rules``; thresholds that differ by cases of sample weight 0 cost the
    same, and the rule then flags the fewest cases among them (the highest threshold)."""
    low = min(r[2] for r in rules)
    return max((r for r in rules if r[2] <= low + 1e-12 * abs(low)), key=lambda r: r[1])


def _check(d, y, scores, rules, limit_of):
    free = min(r[2] for r in rules)
    allowed = [r for r in rules if r[3]]
    held = min(r[2] for r in allowed)
    for part in d.classifiers:  # each classifier's own cheapest allowed rule, deployed
        name, t, money, _ = _cheapest([r for r in allowed if r[0] == part.name])
        assert abs(part.rule.expected_cost - money) <= 1e-9 * abs(money)
        deployed = scores[name] >= part.rule.threshold
        assert np.array_equal(deployed, scores[name] >= t)  # exactly the brute force's cases
        assert limit_of(deployed)
        assert not part.rule.randomized
        own_free = min(r[2] for r in rules if r[0] == name)
        assert part.rule.binding is (money - own_free > 1e-9 * abs(money))
    tied = {r[0] for r in allowed if r[2] <= held + 1e-12 * abs(held)}
    if len(tied) > 1:  # e.g. capacity 0: every classifier flags no case
        assert d.tie and set(d.lowest) == tied
    else:
        assert d.chosen == tied.pop()
        assert abs(d.rule.expected_cost - held) <= 1e-9 * abs(held)
    gap = (held - free) / abs(free)
    assert not 1e-12 < gap < 1e-7  # the data sets say clearly whether the limit binds
    assert d.binding is (gap >= 1e-7)


SEEDS = range(9)
MULTS = [(1.0, 1.0), (3.0, 0.5)]


def _models(seed):
    y, scores, w, amount, fee, tn = _data_set(seed)
    costs = {"cost_fn": amount, "cost_fp": fee, "cost_tp": fee, "cost_tn": tn}
    models = cw.classifiers_from_predictions(y, scores, sample_weight=w, **costs)
    return y, scores, w, amount, fee, tn, models


def _cells(amount, fee, tn, mult):
    n = len(amount)
    return mult[0] * amount, mult[1] * np.full(n, fee), np.full(n, fee), tn


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("mult", MULTS)
@pytest.mark.parametrize("max_fpr", [0.0, 0.03, 0.1, 0.25, 0.6, 1.0])
def test_neyman_pearson_with_per_case_costs_is_the_brute_force(seed, mult, max_fpr):
    y, scores, w, amount, fee, tn, models = _models(seed)
    d = cw.decide(
        models, cost_fn=mult[0], cost_fp=mult[1], constraint="neyman_pearson", max_fpr=max_fpr
    )
    limit_of = _np_limit(y, w, max_fpr)
    _check(d, y, scores, _brute(y, scores, w, _cells(amount, fee, tn, mult), limit_of), limit_of)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("mult", MULTS)
@pytest.mark.parametrize("share", [0.0, 0.05, 0.15, 0.4, math.inf])
def test_workforce_with_per_case_costs_is_the_brute_force(seed, mult, share):
    y, scores, w, amount, fee, tn, models = _models(seed)
    capacity = share if share in (0.0, math.inf) else float(round(share * w.sum()))  # whole cases
    d = cw.decide(
        models, cost_fn=mult[0], cost_fp=mult[1], constraint="workforce", capacity=capacity
    )
    limit_of = _wf_limit(y, w, capacity)
    _check(d, y, scores, _brute(y, scores, w, _cells(amount, fee, tn, mult), limit_of), limit_of)


@pytest.mark.parametrize("seed", SEEDS)
def test_workforce_with_a_population_and_p_pos(seed):
    y, scores, w, amount, fee, tn, models = _models(seed)
    kw = dict(capacity=1500.0, n_pos=2000.0, n_neg=8000.0)
    d = cw.decide(models, p_pos=0.2, cost_fn=2.0, constraint="workforce", **kw)
    limit_of = _wf_limit(y, w, **kw)
    rules = _brute(y, scores, w, _cells(amount, fee, tn, (2.0, 1.0)), limit_of, p_pos=0.2)
    _check(d, y, scores, rules, limit_of)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("constraint", ["neyman_pearson", "workforce"])
def test_limited_rule_costs_empulse_cost_loss_of_the_deployed_predictions(seed, constraint):
    empulse_metrics = pytest.importorskip("empulse.metrics")
    y, scores, w, amount, fee, tn, models = _models(seed)
    limit = {"max_fpr": 0.1} if constraint == "neyman_pearson" else {"capacity": 0.1 * w.sum()}
    d = cw.decide(models, cost_fn=1.5, cost_fp=2.0, constraint=constraint, **limit)
    rule = d.rule
    flagged = (scores[rule.classifier] >= rule.threshold).astype(int)
    k = w.astype(int)  # whole weights: a case of weight k is k cases for empulse
    got = empulse_metrics.cost_loss(
        np.repeat(y, k),
        np.repeat(flagged, k),
        fn_cost=np.repeat(1.5 * amount, k),
        fp_cost=2.0 * fee,
        tp_cost=fee,
        tn_cost=np.repeat(tn, k),
        normalize=True,
    )
    assert abs(got - rule.expected_cost) <= 1e-9 * abs(got)


def test_a_tight_limit_moves_the_rule_and_a_loose_one_does_not():
    y, scores, w, amount, fee, tn, models = _models(2)
    free = cw.decide(models)
    loose = cw.decide(models, constraint="neyman_pearson", max_fpr=1.0)
    assert loose.binding is False and loose.rule.threshold == free.rule.threshold
    assert loose.rule.expected_cost == free.rule.expected_cost
    tight = cw.decide(models, constraint="workforce", capacity=0.0)
    assert tight.binding is True and tight.tie  # every classifier flags no case
    assert all(c.rule.threshold == math.inf and c.rule.binding for c in tight.classifiers)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"constraint": "neyman_pearson"}, "needs max_fpr="),
        ({"constraint": "neyman_pearson", "max_fpr": 1.5}, r"max_fpr must lie in \[0, 1\]"),
        ({"constraint": "neyman_pearson", "max_fpr": "a"}, "max_fpr must be a number"),
        ({"constraint": "workforce"}, "needs capacity="),
        ({"constraint": "workforce", "capacity": -1.0}, "capacity must be a number of cases"),
        ({"constraint": "workforce", "capacity": 5, "n_pos": 0, "n_neg": 5}, "n_pos must be > 0"),
        ({"constraint": "budget"}, "constraint must be one of"),
    ],
)
def test_bad_limits_give_the_clear_errors(kwargs, words):
    *_, models = _models(1)
    with pytest.raises(ValueError, match=words):
        cw.decide(models, **kwargs)


# ------------------------------------------------------------------------------ runner-up band
def _replicate_money(y, s, w, cells, threshold):
    """Money per case of one classifier on (resampled) cases: at ``threshold``, or the cheapest
    over every threshold of these cases when None."""
    fn, fp, tp, tn = cells
    ts = [threshold] if threshold is not None else np.concatenate(([np.inf], np.unique(s)))
    best = np.inf
    for t in ts:
        flagged = s >= t
        cost = np.where(y == 1, np.where(flagged, tp, fn), np.where(flagged, fp, tn))
        best = min(best, float(np.sum(w * cost) / np.sum(w)))
    return best


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
@pytest.mark.parametrize("limit", [None, 0.1])
def test_runner_up_band_with_per_case_costs_is_a_direct_case_bootstrap(seed, limit):
    y, scores, w, amount, fee, tn, models = _models(seed)
    mult = (2.0, 1.0)
    kw = {} if limit is None else {"constraint": "neyman_pearson", "max_fpr": limit}
    d = cw.decide(models, cost_fn=mult[0], cost_fp=mult[1], **kw)
    band = cw.runner_up_band(models, d, level=0.8, n_boot=40, random_state=seed)
    cells = _cells(amount, fee, tn, mult)
    held = band.of == "rules"
    assert held is (d.of(d.chosen).rule.binding or d.of(d.runner_up).rule.binding)
    pair = [(d.chosen, d.of(d.chosen).rule), (d.runner_up, d.of(d.runner_up).rule)]
    ths = [r.threshold if held else None for _, r in pair]

    def diff(idx):
        ys, ws = y[idx], w[idx]
        c = [x[idx] for x in cells]
        a, b = (_replicate_money(ys, scores[n][idx], ws, c, t) for (n, _), t in zip(pair, ths))
        return b - a  # the runner-up's money minus the chosen one's

    rng = np.random.default_rng(seed)
    classes = [np.flatnonzero(y == 0), np.flatnonzero(y == 1)]
    reps = np.sort(
        [
            diff(np.concatenate([c[rng.integers(0, len(c), len(c))] for c in classes]))
            for _ in range(40)
        ]
    )
    k = math.ceil(40 * (1 - 0.8) / 2)
    # The band is in NEC of the cost-weighted cases: money per case over (P + N) / W.
    flag = np.where(y == 1, cells[2], cells[1])
    keep = np.where(y == 1, cells[0], cells[3])
    scale = np.sum(w * np.abs(keep - flag)) / np.sum(w)
    want = (diff(np.arange(len(y))), reps[k - 1], reps[40 - k])
    got = (band.diff * scale, band.lower * scale, band.upper * scale)
    assert np.allclose(got, want, rtol=1e-9, atol=1e-12)
    d2 = cw.decide(models, cost_fn=mult[0], cost_fp=mult[1], runner_up_band=band, **kw)
    assert d2.runner_up_band is band  # the headline states it


def test_a_limit_reached_exactly_by_weights_of_one_tenth_allows_the_rule():
    # Ten negatives of weight 0.1, three of them above the score 0.5: in exact arithmetic their
    # FPR is 3/10, which max_fpr=0.3 allows; the float sums give 0.30000000000000004.
    from fractions import Fraction

    y = np.array([0, 0, 0, 1, 1, 1, 1, 1] + [0] * 7)
    s = np.linspace(1.0, 0.01, 15)
    clf = cw.Classifier.from_scores(
        y, s, name="a", sample_weight=np.full(15, 0.1), cost_fn=100.0, cost_fp=1.0
    )
    d = cw.decide([clf], constraint="neyman_pearson", max_fpr=0.3)
    flagged = s >= d.rule.threshold
    tenth = Fraction(1, 10)
    fpr = sum(tenth for f, yi in zip(flagged, y) if f and yi == 0) / (tenth * int(np.sum(y == 0)))
    assert fpr == Fraction(3, 10)  # the limit reached exactly, not passed
    assert np.all(flagged[:8]) and not np.any(flagged[8:])  # every positive caught
    assert d.rule.expected_cost == pytest.approx(0.2, rel=1e-12)  # 3 false alarms x 1 / 15
