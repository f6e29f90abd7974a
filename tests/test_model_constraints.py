"""Neyman-Pearson and workforce constraints against brute force (Drummond & Holte (2000), sec. 2.2.2, eq. 12-14)."""

import brute
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_model_roc import scored_data

import costwidget as cw


def _brute_max_tpr_on_hull(hf, ht, load, limit):
    """Max TPR over every point of every hull edge with load <= limit (load linear along an edge)."""
    best = -np.inf
    for i in range(len(hf) - 1):
        for lam in (0.0, 1.0):
            if (
                load(hf[i] + lam * (hf[i + 1] - hf[i]), ht[i] + lam * (ht[i + 1] - ht[i]))
                <= limit + 1e-12
            ):
                best = max(best, ht[i] + lam * (ht[i + 1] - ht[i]))
        l0, l1 = load(hf[i], ht[i]), load(hf[i + 1], ht[i + 1])
        if l0 < limit < l1:
            lam = (limit - l0) / (l1 - l0)
            best = max(best, ht[i] + lam * (ht[i + 1] - ht[i]))
    return best


def _check_answer(clf, r, load, limit, data):
    h = clf.hull
    hf, ht = h.fpr.to_numpy(), h.tpr.to_numpy()
    # randomized optimum equals the brute-force maximum on the hull polyline
    assert r.tpr == pytest.approx(_brute_max_tpr_on_hull(hf, ht, load, limit), abs=1e-12)
    assert load(r.fpr, r.tpr) <= limit + 1e-9
    assert r.tpr <= brute.hull_tpr_at(hf, ht, r.fpr) + 1e-12
    # the mix of the two named thresholds gives the stated (fpr, tpr)
    lo = h[h.threshold == r.threshold_low].iloc[0]
    hi = h[h.threshold == r.threshold_high].iloc[0]
    q = r.prob_low
    assert 0 <= q <= 1
    assert q * lo.fpr + (1 - q) * hi.fpr == pytest.approx(r.fpr, abs=1e-12)
    assert q * lo.tpr + (1 - q) * hi.tpr == pytest.approx(r.tpr, abs=1e-12)
    assert r.randomized == (0 < q < 1)
    # binding: the limit does not allow the unconstrained answer, TPR 1 at the lowest load
    # (recomputed from the ROC points; a limit equal to that load allows it)
    top_load = min(load(f, t) for f, t in zip(clf.roc.fpr, clf.roc.tpr) if t == 1.0)
    assert r.binding == (top_load > limit), (r.binding, top_load, limit)
    # best single threshold: brute force over ROC points, recomputed from the raw scores
    labels, scores, _ = data
    P, N = labels.sum(), (~labels).sum()
    feasible = [t for f, t in zip(clf.roc.fpr, clf.roc.tpr) if load(f, t) <= limit]
    assert r.single_tpr == max(feasible)
    tp, fp = brute.counts_at(labels, scores, r.single_threshold)
    assert (tp / P, fp / N) == pytest.approx((r.single_tpr, r.single_fpr), abs=1e-15)
    assert load(fp / N, tp / P) <= limit + 1e-12
    assert r.single_tpr <= r.tpr + 1e-12


@given(scored_data(), st.data())
def test_neyman_pearson_equals_brute_force(data, draw):
    labels, scores, _ = data
    clf = cw.Classifier.from_scores(labels, scores)
    # A uniform float almost never equals an ROC point's FPR: draw those limits on purpose.
    max_fpr = draw.draw(st.one_of(st.floats(0, 1), st.sampled_from(sorted(set(clf.roc.fpr)))))
    r = clf.neyman_pearson(max_fpr)
    assert r.kind == "neyman_pearson"
    _check_answer(clf, r, lambda f, t: f, max_fpr, data)
    assert r.fpr <= max_fpr


@given(scored_data(), st.data())
def test_workforce_equals_brute_force_and_eq14(data, draw):
    labels, scores, _ = data
    clf = cw.Classifier.from_scores(labels, scores)
    P, N = float(labels.sum()), float((~labels).sum())
    # Capacities equal to a ROC point's load (cases flagged) too, not only uniform floats.
    loads = sorted(set(clf.roc.tpr * P + clf.roc.fpr * N))
    capacity = draw.draw(st.one_of(st.floats(0, 40), st.sampled_from(loads)))
    r = clf.workforce(capacity)
    _check_answer(clf, r, lambda f, t: t * P + f * N, capacity, data)
    if r.binding:
        # eq. 12 holds with equality, so the cost line is eq. 14 at the answer's FPR
        assert r.tpr * P + r.fpr * N == pytest.approx(capacity, abs=1e-9)
        # the cost line is NEC by its definition, x * FNR + (1 - x) * FPR, at the answer
        x = np.linspace(0, 1, 5)
        np.testing.assert_allclose(r.nec(x), x * (1 - r.tpr) + (1 - x) * r.fpr, atol=1e-12)


def test_workforce_other_population():
    clf = cw.Classifier.from_roc([0.1, 0.3], [0.5, 0.8], thresholds=[0.7, 0.4])
    with pytest.raises(ValueError, match="n_pos and n_neg are required"):
        clf.workforce(10)
    r = clf.workforce(100, n_pos=100, n_neg=1000)
    # 100 = 100 TP + 1000 FP; on edge (0,0)-(0.1,0.5): 50 l + 100 l = 100 -> l = 2/3
    assert r.tpr == pytest.approx(1 / 3) and r.fpr == pytest.approx(1 / 15)
    assert r.randomized and r.threshold_low == 0.7 and r.threshold_high == np.inf


def test_edge_cases_give_clear_answers():
    clf = cw.Classifier.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.9, 0.95])
    r0 = clf.neyman_pearson(0.0)
    assert r0.fpr == 0 and r0.tpr == pytest.approx(1 / 3) and not r0.randomized
    r1 = clf.neyman_pearson(1.0)
    assert r1.tpr == 1.0 and not r1.binding and "does not bind" in r1.message
    c0 = clf.workforce(0)
    assert (c0.fpr, c0.tpr, c0.single_tpr) == (0.0, 0.0, 0.0) and c0.single_threshold == np.inf
    big = clf.workforce(1e9)
    assert big.tpr == 1.0 and not big.binding
    # the unconstrained best is the first hull vertex at TPR 1, not (1, 1)
    assert big.fpr == min(f for f, t in zip(clf.roc.fpr, clf.roc.tpr) if t == 1.0)


def test_figure_10_style_randomized_mix():
    clf = cw.Classifier.from_roc([0.2, 0.5], [0.6, 0.9], thresholds=[0.8, 0.5])
    r = clf.neyman_pearson(0.35)
    assert r.randomized and r.prob_low == pytest.approx(0.5) and r.tpr == pytest.approx(0.75)
    assert r.threshold_low == 0.5 and r.threshold_high == 0.8
    assert r.single_threshold == 0.8 and r.single_tpr == 0.6


def test_messages_name_points_without_thresholds_by_their_rates():
    r = cw.Classifier.from_roc([0.2], [0.6]).neyman_pearson(0.1)
    assert r.randomized and "nan" not in r.message
    assert "(FPR 0.2, TPR 0.6) with probability 0.5" in r.message
