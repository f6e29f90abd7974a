"""ROC points against brute force and scikit-learn: ties, weights, labels, invariances."""

import brute
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_curve

import costwidget as cw


@st.composite
def scored_data(draw, max_n=30, weighted=False):
    """Small integer scores (many ties) with both classes present."""
    n = draw(st.integers(2, max_n))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(labels) or not any(labels):
        labels[0] = not labels[0]
    scores = draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    weights = None
    if weighted:
        weights = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
        pos_w = sum(w for w, is_pos in zip(weights, labels) if is_pos)
        neg_w = sum(w for w, is_pos in zip(weights, labels) if not is_pos)
        if pos_w == 0:
            weights[labels.index(True)] = 1
        if neg_w == 0:
            weights[labels.index(False)] = 1
    return np.array(labels), np.array(scores, dtype=float), weights


def _check_against_brute(clf, labels, scores, weights=None):
    th, tp, fp = brute.roc_points(labels, scores, weights)
    roc = clf.roc
    np.testing.assert_array_equal(roc.threshold.to_numpy(), th)
    np.testing.assert_allclose(roc.tp.to_numpy(), tp, rtol=0, atol=1e-9)
    np.testing.assert_allclose(roc.fp.to_numpy(), fp, rtol=0, atol=1e-9)
    np.testing.assert_allclose(roc.tpr.to_numpy(), np.array(tp) / tp[-1], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(roc.fpr.to_numpy(), np.array(fp) / fp[-1], rtol=1e-12, atol=1e-15)


@given(scored_data())
def test_roc_points_equal_brute_force_and_sklearn(data):
    labels, scores, _ = data
    clf = cw.Classifier.from_scores(labels.astype(int), scores)
    _check_against_brute(clf, labels, scores)
    fpr, tpr, thr = roc_curve(labels.astype(int), scores, drop_intermediate=False)
    np.testing.assert_array_equal(clf.roc.threshold.to_numpy(), thr)
    np.testing.assert_allclose(clf.roc.fpr.to_numpy(), fpr, rtol=1e-12, atol=0)
    np.testing.assert_allclose(clf.roc.tpr.to_numpy(), tpr, rtol=1e-12, atol=0)


@given(scored_data(weighted=True))
def test_weighted_roc_equals_brute_force_and_sklearn(data):
    labels, scores, weights = data
    clf = cw.Classifier.from_scores(labels, scores, sample_weight=weights)
    _check_against_brute(clf, labels, scores, weights)
    fpr, tpr, thr = roc_curve(labels, scores, sample_weight=weights, drop_intermediate=False)
    np.testing.assert_array_equal(clf.roc.threshold.to_numpy(), thr)
    np.testing.assert_allclose(clf.roc.fpr.to_numpy(), fpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(clf.roc.tpr.to_numpy(), tpr, rtol=1e-12, atol=1e-15)


def _float_weighted_classifier():
    # Float weights whose cumulative sum differs from np.sum in the last ulp.
    rng = np.random.default_rng(3)
    n = 5000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n)
    w = rng.uniform(0.1, 3.3, n)
    clf = cw.Classifier.from_scores(y, s, sample_weight=w)
    return clf


def test_weighted_roc_ends_exactly_at_one_one():
    clf = _float_weighted_classifier()
    assert clf.roc.fpr.iloc[-1] == 1.0 and clf.roc.tpr.iloc[-1] == 1.0
    assert clf.hull.fpr.iloc[-1] == 1.0 and clf.hull.tpr.iloc[-1] == 1.0
    assert clf.nec(1.0) == 0.0 and clf.nec(0.0) == 0.0


def test_weighted_float_totals_still_give_a_sane_neyman_pearson():
    clf = _float_weighted_classifier()
    r = clf.neyman_pearson(1.0)
    assert r.tpr == pytest.approx(1.0, abs=1e-12)
    assert r.fpr <= 1.0 + 1e-12


@given(scored_data(), st.randoms(use_true_random=False))
def test_tied_scores_make_one_point_whatever_the_order(data, rnd):
    labels, scores, _ = data
    perm = list(range(len(labels)))
    rnd.shuffle(perm)
    a = cw.Classifier.from_scores(labels, scores)
    b = cw.Classifier.from_scores(labels[perm], scores[perm])
    assert len(a.roc) == len(np.unique(scores)) + 1
    for col in ("threshold", "fpr", "tpr", "tp", "fp"):
        np.testing.assert_array_equal(a.roc[col].to_numpy(), b.roc[col].to_numpy())
        np.testing.assert_array_equal(a.hull[col].to_numpy(), b.hull[col].to_numpy())


@pytest.mark.parametrize(
    "transform",
    [
        lambda s: 3 * s + 7,
        lambda s: np.exp(s / 3.0),
        lambda s: 1 / (1 + np.exp(-s)),
        lambda s: s**3 + s,
    ],
)
@given(data=scored_data())
def test_invariant_to_strictly_increasing_transforms(transform, data):
    labels, scores, _ = data
    a = cw.Classifier.from_scores(labels, scores)
    b = cw.Classifier.from_scores(labels, transform(scores))
    for col in ("fpr", "tpr"):
        np.testing.assert_array_equal(a.roc[col].to_numpy(), b.roc[col].to_numpy())
        np.testing.assert_array_equal(a.hull[col].to_numpy(), b.hull[col].to_numpy())
    pd_a, pd_b = a.envelope, b.envelope
    np.testing.assert_array_equal(pd_a.pcf.to_numpy(), pd_b.pcf.to_numpy())
    np.testing.assert_array_equal(pd_a.nec.to_numpy(), pd_b.nec.to_numpy())
    # thresholds map through the transform (the +inf sentinel aside)
    np.testing.assert_allclose(
        b.roc.threshold.to_numpy()[1:], transform(a.roc.threshold.to_numpy()[1:]), rtol=1e-12
    )


def test_string_labels_with_pos_label_match_sklearn():
    rng = np.random.default_rng(0)
    y = rng.choice(["ham", "spam"], size=200)
    s = rng.integers(0, 20, size=200) / 7
    w = rng.uniform(0, 2, size=200)
    for pos in ("ham", "spam"):
        clf = cw.Classifier.from_scores(y, s, pos_label=pos, sample_weight=w)
        fpr, tpr, thr = roc_curve(y, s, pos_label=pos, sample_weight=w, drop_intermediate=False)
        np.testing.assert_array_equal(clf.roc.threshold.to_numpy(), thr)
        np.testing.assert_allclose(clf.roc.fpr, fpr, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(clf.roc.tpr, tpr, rtol=1e-12, atol=1e-15)
        assert clf.pos_label == pos


def test_bool_labels_and_minus_one_one_labels():
    rng = np.random.default_rng(1)
    y = rng.random(100) < 0.3
    s = rng.normal(size=100).round(1)
    for labels in (y, np.where(y, 1, -1)):
        clf = cw.Classifier.from_scores(labels, s)
        fpr, tpr, thr = roc_curve(labels, s, drop_intermediate=False)
        np.testing.assert_array_equal(clf.roc.threshold.to_numpy(), thr)
        np.testing.assert_allclose(clf.roc.fpr, fpr, rtol=1e-12)
        np.testing.assert_allclose(clf.roc.tpr, tpr, rtol=1e-12)
    # pos_label=False flips the roles
    clf = cw.Classifier.from_scores(y, -s, pos_label=False)
    fpr, tpr, _ = roc_curve(y, -s, pos_label=False, drop_intermediate=False)
    np.testing.assert_allclose(clf.roc.fpr, fpr, rtol=1e-12)
    np.testing.assert_allclose(clf.roc.tpr, tpr, rtol=1e-12)


def test_zero_weight_samples_create_no_threshold():
    y = [0, 1, 0, 1, 1]
    s = [0.1, 0.9, 0.5, 0.3, 0.7]
    w = [1, 1, 0, 1, 1]
    clf = cw.Classifier.from_scores(y, s, sample_weight=w)
    assert 0.5 not in clf.roc.threshold.tolist()
    _, _, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(clf.roc.threshold.to_numpy(), thr)


def _large_case(kind: str, rng) -> tuple[np.ndarray, np.ndarray]:
    n = 200_000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    if kind == "rounded":  # ties everywhere, few distinct values: the distinct-value merge
        s = np.round(s, 2)
    elif kind == "tied high only":  # the high range shrinks, so the low one moves down
        s = np.where(s > 0.5, np.round(s, 1), s)
    elif kind == "tied low only":
        s = np.where(s < 0.5, np.round(s, 1), s)
    elif kind == "block at the median":  # a tie bigger than either range would be
        s[: n // 2] = np.median(s)
    elif kind == "rare positives":
        y = (rng.random(n) < 0.002).astype(int)
    elif kind == "all equal":
        s = np.zeros(n)
    return y, s


@pytest.mark.parametrize(
    "kind",
    [
        "continuous",
        "rounded",
        "tied high only",
        "tied low only",
        "block at the median",
        "rare positives",
        "all equal",
    ],
)
def test_large_unweighted_input_matches_sklearn_and_brute_hull(kind):
    # Big enough for the two-range threaded path in roc.py, with ties placed to test each
    # of its branches; the hull is checked against a hull of every point.
    y, s = _large_case(kind, np.random.default_rng(7))
    clf = cw.Classifier.from_scores(y, s)
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_array_equal(clf.roc.threshold.to_numpy(), thr)
    np.testing.assert_allclose(clf.roc.fpr, fpr, rtol=1e-12)
    np.testing.assert_allclose(clf.roc.tpr, tpr, rtol=1e-12)
    tp, fp = clf.roc.tp.to_numpy(), clf.roc.fp.to_numpy()
    assert tp.dtype == fp.dtype == np.int64
    np.testing.assert_array_equal(
        clf.hull.threshold.to_numpy(), thr[brute.monotone_chain_hull(fp, tp)]
    )


@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_sorted_roc_counts_of_a_sorted_subset_equal_roc_curve_and_hull(tied, weighted):
    # The honest cost reads each split's training cases in one sorted order of all cases:
    # the counts of such a subset are sklearn's ROC points, and its hull is Andrew's chain.
    from costwidget.model.kernels.envelope import envelope_of_counts
    from costwidget.model.kernels.roc import sorted_roc_counts

    rng = np.random.default_rng(8 + tied + 2 * weighted)
    n = 30_000
    y = rng.random(n) < 0.35
    s = rng.normal(size=n) + y
    s = np.round(s, 2) if tied else s
    w = rng.choice([0.5, 1.0, 2.0], size=n) if weighted else None
    order = np.argsort(-s, kind="stable")
    keep = rng.random(n) < 0.8  # a training part, in the order of all cases
    sub = order[keep[order]]
    c = sorted_roc_counts(y[sub], s[sub], None if w is None else w[sub])
    fpr, tpr, thr = roc_curve(
        y[sub], s[sub], sample_weight=None if w is None else w[sub], drop_intermediate=False
    )
    np.testing.assert_array_equal(c.thresholds[1:], thr[1:])
    np.testing.assert_allclose(c.fp / c.n_neg, fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.tp / c.n_pos, tpr, rtol=0, atol=1e-12)
    if not weighted:
        hull, _ = envelope_of_counts(c)
        assert hull.tolist() == brute.monotone_chain_hull(c.fp, c.tp)


def test_corner_counts_have_the_hull_and_thresholds_of_all_the_points():
    # The honest cost's refits of distinct scores keep only a positive followed by a negative
    # (and the ends): the hull, its thresholds and its counts are those of the whole curve.
    from costwidget.model.kernels.envelope import envelope_of_counts
    from costwidget.model.kernels.roc import corner_counts

    rng = np.random.default_rng(12)
    for n in (2, 3, 50, 40_000):
        y = rng.random(n) < 0.4
        y[:2] = [True, False]  # both classes
        s = rng.normal(size=n) + y
        fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
        order = np.argsort(-s)
        c = corner_counts(y[order], s[order])
        hull, env = envelope_of_counts(c)
        full = brute.monotone_chain_hull(np.rint(fpr * (n - y.sum())), np.rint(tpr * y.sum()))
        np.testing.assert_array_equal(c.thresholds[hull][1:], thr[full][1:])
        np.testing.assert_array_equal(c.fp[hull] / c.n_neg, fpr[full])
        np.testing.assert_array_equal(c.tp[hull] / c.n_pos, tpr[full])
