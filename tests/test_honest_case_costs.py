"""The honest cost of classifiers with per-case costs, in money per case on new data, against
a brute force over every threshold of each fold (independent of the cost-weighted twin)."""

import numpy as np
import pytest

import costwidget as cw


def _data(seed, n=60, k=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.random(n)
    costs = dict(
        cost_fn=rng.uniform(0, 10, n),
        cost_fp=rng.uniform(0, 4, n),
        cost_tp=rng.uniform(0, 2, n),  # some positives cost more caught than missed
        cost_tn=rng.uniform(0, 0.5, n),
    )
    w = rng.uniform(0.5, 2, n)
    return y, s, costs, w, np.arange(n) % k


def _money(y, costs, w, m_fn, m_fp, p_pos):
    """Each case's weight and its cost flagged and passed, from the definitions alone."""
    pos = y == 1
    flag = np.where(pos, costs["cost_tp"], m_fp * costs["cost_fp"])
    keep = np.where(pos, m_fn * costs["cost_fn"], costs["cost_tn"])
    if p_pos is not None:
        prior = w[pos].sum() / w.sum()
        w = w * np.where(pos, p_pos / prior, (1 - p_pos) / (1 - prior))
    return w, flag, keep


def _brute(y, s, costs, w, folds, m_fn, m_fp, p_pos, *, raw=False, tune_at=None):
    """Per fold, the threshold cheapest on the other folds (over every score and 'flag none');
    the held-out cases' money summed, over the total weight. ``raw``: cheapest in money on the
    other folds as they are; else at the whole data's mix of the cost-weighted classes, or at
    PCF(+) ``tune_at`` of their cost-weighted rates."""
    w, flag, keep = _money(y, costs, w, m_fn, m_fp, p_pos)
    worth = flag < keep  # flagging it saves money
    gap = w * np.abs(flag - keep)
    big_p, big_n = gap[worth].sum(), gap[~worth].sum()
    p_prime = big_p / (big_p + big_n)
    x = p_prime if tune_at is None else tune_at
    total = 0.0
    for k in np.unique(folds):
        tr = folds != k
        best, best_t = np.inf, None
        for t in [*np.unique(s[tr]), np.inf]:
            d = s >= t
            if raw:
                obj = np.sum((w * np.where(d, flag, keep))[tr])
            else:
                fn = gap[tr & worth & ~d].sum() / gap[tr & worth].sum()
                fp = gap[tr & ~worth & d].sum() / gap[tr & ~worth].sum()
                obj = x * fn + (1 - x) * fp
            assert abs(obj - best) > 1e-9 * max(1.0, abs(obj))  # no tie: one answer
            if obj < best:
                best, best_t = obj, t
        ho = ~tr
        total += np.sum((w * np.where(s >= best_t, flag, keep))[ho])
    return total / w.sum(), p_prime


SETTINGS = [(1.0, 1.0, None), (2.0, 0.5, None), (0.5, 3.0, 0.3), (1.0, 1.0, 0.7)]


@pytest.mark.parametrize("m_fn, m_fp, p_pos", SETTINGS)
@pytest.mark.parametrize("seed", [0, 1])
def test_money_on_new_data_is_the_brute_force(seed, m_fn, m_fp, p_pos):
    y, s, costs, w, folds = _data(seed)
    clf = cw.Classifier.from_scores(y, s, sample_weight=w, folds=folds, **costs)
    expected, p_prime = _brute(y, s, costs, w, folds, m_fn, m_fp, p_pos)
    out = cw.honest_cost(clf, cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos)
    info = out.attrs["per_case"]
    assert info["pcf"] == pytest.approx(p_prime, rel=1e-12)
    at = cw.honest_cost(clf, [info["pcf"]], cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos)
    assert abs(at["money"].iloc[0] - expected) < 1e-9
    # At the decision's PCF(+) the money is the twin's NEC made money (the key fact).
    assert abs(at["nec"].iloc[0] * info["scale"] + info["offset"] - expected) < 1e-9


@pytest.mark.parametrize("tune_at", [0.2, 0.55, 0.8])
def test_money_of_thresholds_tuned_at_another_pcf_is_the_brute_force(tune_at):
    # A row at PCF(+) x: the thresholds tuned at x, their money judged at the costs as given.
    y, s, costs, w, folds = _data(2)
    clf = cw.Classifier.from_scores(y, s, sample_weight=w, folds=folds, **costs)
    for m_fn, m_fp, p_pos in SETTINGS:
        want, _ = _brute(y, s, costs, w, folds, m_fn, m_fp, p_pos, tune_at=tune_at)
        at = cw.honest_cost(clf, [tune_at], cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos)
        assert abs(at["money"].iloc[0] - want) < 1e-9


def test_money_when_the_folds_weigh_alike_is_tuned_on_the_raw_money():
    # Every fold holds the same cases' costs (scores differ): the other folds' cost-weighted
    # classes are in the whole data's mix, so tuning at p' is tuning on their money as it is.
    rng = np.random.default_rng(5)
    base = _data(5, n=20, k=1)
    y = np.tile(base[0], 3)
    costs = {key: np.tile(v, 3) for key, v in base[2].items()}
    w = np.tile(base[3], 3)
    s = rng.random(len(y))
    folds = np.repeat([0, 1, 2], 20)
    clf = cw.Classifier.from_scores(y, s, sample_weight=w, folds=folds, **costs)
    for m_fn, m_fp, p_pos in SETTINGS:
        raw, p_prime = _brute(y, s, costs, w, folds, m_fn, m_fp, p_pos, raw=True)
        at = cw.honest_cost(clf, [p_prime], cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos)
        assert abs(at["money"].iloc[0] - raw) < 1e-9


def test_per_class_refuses_multipliers():
    clf = cw.Classifier.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], folds=[0, 0, 1, 1])
    with pytest.raises(ValueError, match="per-case costs"):
        cw.honest_cost(clf, cost_fn=2.0)
    assert "money" not in cw.honest_cost(clf).columns


def _pair(seed):
    y, s, costs, w, folds = _data(seed)
    rng = np.random.default_rng(seed + 100)
    s2 = np.clip(s + rng.normal(0, 0.3, len(s)), 0, 1)  # a second, noisier classifier
    a = cw.Classifier.from_scores(y, s, name="a", sample_weight=w, folds=folds, **costs)
    b = cw.Classifier.from_scores(y, s2, name="b", sample_weight=w, folds=folds, **costs)
    return (y, costs, w, folds), {"a": (a, s), "b": (b, s2)}


@pytest.mark.parametrize("m_fn, m_fp, p_pos", SETTINGS)
def test_decide_on_new_data_chooses_on_the_brute_force_money(m_fn, m_fp, p_pos):
    (y, costs, w, folds), pair = _pair(3)
    kw = dict(cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos)
    curves = {n: cw.honest_cost(c, **kw) for n, (c, _) in pair.items()}
    d = cw.decide([c for c, _ in pair.values()], honest=curves, **kw)
    brute = {n: _brute(y, s, costs, w, folds, m_fn, m_fp, p_pos)[0] for n, (_, s) in pair.items()}
    assert d.on_new_data
    if abs(brute["a"] - brute["b"]) > 1e-9:
        assert d.chosen == min(brute, key=brute.get)
        assert "on new data" in d.headline
    else:  # both deploy the same trivial rule on every fold
        assert d.tie and d.chosen is None
    for name, row in d.rows:
        assert abs(row["expected_cost_honest"] - brute[name]) < 1e-9


def test_decide_refuses_honest_curves_of_other_multipliers():
    _, pair = _pair(3)
    a = pair["a"][0]
    curve = cw.honest_cost(a, cost_fn=2.0)
    with pytest.raises(ValueError, match="computed at cost_fn=2.0"):
        cw.decide([a], honest={"a": curve})
    # Without honest=, the same decision is made on the data.
    assert not cw.decide([a]).on_new_data


@pytest.mark.parametrize("p_pos", [0.2, 0.7])
def test_a_curve_made_at_the_data_prior_serves_every_p_pos_where_sides_are_classes(p_pos):
    # Fees below every loss: at these multipliers every case counts on its own class's side,
    # so a curve made at the data's prior decides at any p(+) as the brute force does.
    (y, costs, w, folds), pair = _pair(4)
    costs = dict(costs, cost_fn=costs["cost_fn"] + 2.0, cost_tn=np.zeros(len(y)))
    clfs = {
        n: cw.Classifier.from_scores(y, s, name=n, sample_weight=w, folds=folds, **costs)
        for n, (_, s) in pair.items()
    }
    assert all(cw.sides_are_classes(c) for c in clfs.values())
    assert cw.multiplier_units(clfs["a"]) is None  # a fee: the ROC moves with the multipliers
    curves = {n: cw.honest_cost(c) for n, c in clfs.items()}  # made at the data's prior
    d = cw.decide(list(clfs.values()), honest=curves, p_pos=p_pos)
    brute = {n: _brute(y, s, costs, w, folds, 1.0, 1.0, p_pos)[0] for n, (_, s) in pair.items()}
    for name, row in d.rows:
        assert abs(row["expected_cost_honest"] - brute[name]) < 1e-9
    # At other multipliers the same curve is refused: the cost-weighted ROC moved.
    with pytest.raises(ValueError, match="not at this decision's"):
        cw.decide(list(clfs.values()), honest=curves, p_pos=p_pos, cost_fn=2.0)
