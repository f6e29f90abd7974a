"""Classifier.from_counts: the same classifier as from_scores on the cases it counts."""

from collections import Counter

import brute
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import costwidget as cw


def _count_table(y, s, rng, *, split=True, zero_rows=True):
    """(score, n_pos, n_neg) rows counted in plain Python, then split, padded and shuffled.

    Each score's counts are spread over several rows (rows with the same score
    are summed), rows of zero counts are added, and the order is shuffled.
    """
    pos, neg = Counter(), Counter()
    for label, score in zip(y, s):
        (pos if label else neg)[float(score)] += 1
    rows = []
    for score in set(pos) | set(neg):
        p, n = pos[score], neg[score]
        if split and p + n > 1:
            cut_p, cut_n = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
            rows += [(score, cut_p, cut_n), (score, p - cut_p, n - cut_n)]
        else:
            rows.append((score, p, n))
    if zero_rows:
        rows.append((float(rng.normal()), 0, 0))
    rows = [rows[i] for i in rng.permutation(len(rows))]
    score, n_pos, n_neg = (np.array(c) for c in zip(*rows))
    return score, n_pos.astype(np.int64), n_neg.astype(np.int64)


def _assert_same(a, b):
    pd.testing.assert_frame_equal(a.roc, b.roc)
    pd.testing.assert_frame_equal(a.hull, b.hull)
    pd.testing.assert_frame_equal(a.envelope, b.envelope)
    assert (a.n_pos, a.n_neg) == (b.n_pos, b.n_neg)


labelled = st.integers(2, 60).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(st.integers(-4, 6), min_size=n, max_size=n),  # few values: many ties
        st.integers(0, 2**32 - 1),
    )
)


@given(labelled)
def test_integer_counts_equal_from_scores(data):
    y, s, seed = data
    y = np.array(y)
    if y.all() or not y.any():
        y[0] = not y[0]
    s = np.array(s, dtype=np.float64) / 4
    score, n_pos, n_neg = _count_table(y, s, np.random.default_rng(seed))
    clf = cw.Classifier.from_counts(score, n_pos, n_neg)
    _assert_same(clf, cw.Classifier.from_scores(y, s))
    # And against the brute-force ROC points, straight from the cases.
    th, tp, fp = brute.roc_points(y, s)
    assert clf.roc["threshold"].tolist() == th
    assert clf.roc["tp"].tolist() == tp and clf.roc["fp"].tolist() == fp
    assert clf.envelope_error_bound == 0.0


@given(labelled, st.lists(st.integers(0, 16), min_size=60, max_size=60))
def test_dyadic_weights_equal_from_scores_in_any_row_order(data, eighths):
    # Weights k/8 sum exactly in any order, so aggregated rows must agree bit for bit.
    y, s, seed = data
    y = np.array(y)
    w = np.array(eighths[: len(y)], dtype=np.float64) / 8 + 1 / 8
    w[0] += 0.5  # some weight is not a whole number: the float path
    if y.all() or not y.any():
        y[0] = not y[0]
    s = np.array(s, dtype=np.float64)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(y))
    clf = cw.Classifier.from_counts(s[order], np.where(y, w, 0)[order], np.where(y, 0, w)[order])
    ref = cw.Classifier.from_scores(y, s, sample_weight=w)
    _assert_same(clf, ref)
    th, tp, fp = brute.roc_points(y, s, w)
    assert clf.roc["tp"].tolist() == tp and clf.roc["fp"].tolist() == fp


def test_float_weights_one_row_per_case_are_bit_identical():
    rng = np.random.default_rng(3)
    y = rng.random(5000) < 0.3
    s = np.round(rng.random(5000) + 0.3 * y, 2)
    w = rng.exponential(size=5000) * 1e-3
    clf = cw.Classifier.from_counts(s, w * y, w * ~y)
    _assert_same(clf, cw.Classifier.from_scores(y, s, sample_weight=w))


def test_aggregated_float_weights_agree_to_rounding():
    rng = np.random.default_rng(4)
    y = rng.random(3000) < 0.4
    s = np.round(rng.random(3000) + 0.2 * y, 2)
    w = rng.exponential(size=3000)
    frame = pd.DataFrame({"s": s, "p": w * y, "n": w * ~y}).groupby("s", as_index=False).sum()
    clf = cw.Classifier.from_counts(frame["s"], frame["p"], frame["n"])
    ref = cw.Classifier.from_scores(y, s, sample_weight=w)
    assert clf.roc["threshold"].tolist() == ref.roc["threshold"].tolist()
    np.testing.assert_allclose(clf.roc[["fpr", "tpr"]], ref.roc[["fpr", "tpr"]], rtol=1e-12)
    x = np.linspace(0, 1, 101)
    np.testing.assert_allclose(clf.nec(x), ref.nec(x), atol=1e-12)


@pytest.mark.parametrize("dtype", [np.uint64, np.int64, np.float64])
def test_counts_whose_total_would_overflow_int64_are_summed_in_floats(dtype):
    big = 2**62 if dtype is np.int64 else 2**63  # int64 holds 2**62, its sum 2**63 overflows
    clf = cw.Classifier.from_counts(
        [0.9, 0.5, 0.1], np.array([big, big, 0], dtype=dtype), np.array([0, 1, 1], dtype=dtype)
    )
    assert clf.roc["tpr"].tolist() == [0.0, 0.5, 1.0, 1.0]
    assert clf.roc["fpr"].tolist() == [0.0, 0.0, 0.5, 1.0]
    assert clf.n_pos == pytest.approx(2.0 * big)


def test_whole_number_float_counts_are_counted_exactly_as_integers():
    clf = cw.Classifier.from_counts([0.3, 0.2, 0.1], [2.0, 1.0, 0.0], [0.0, 1.0, 3.0])
    assert clf._counts.tp.dtype == np.int64
    _assert_same(
        clf, cw.Classifier.from_scores([1, 1, 1, 0, 0, 0, 0], [0.3, 0.3, 0.2, 0.2, 0.1, 0.1, 0.1])
    )


def test_folds_equal_from_scores_folds():
    rng = np.random.default_rng(5)
    y = rng.random(400) < 0.35
    s = np.round(rng.random(400) + 0.4 * y, 1)
    folds = rng.choice(["a", "b", "c"], 400)
    table = pd.DataFrame({"s": s, "p": y.astype(int), "n": (~y).astype(int), "f": folds})
    table = table.groupby(["f", "s"], as_index=False).sum().sample(frac=1, random_state=0)
    clf = cw.Classifier.from_counts(table["s"], table["p"], table["n"], folds=table["f"])
    ref = cw.Classifier.from_scores(y, s, folds=folds)
    _assert_same(clf, ref)
    assert list(clf.folds) == list(ref.folds) == ["a", "b", "c"]
    for k in ref.folds:
        _assert_same(clf.folds[k], ref.folds[k])
    pd.testing.assert_frame_equal(clf.fold_average("vertical"), ref.fold_average("vertical"))


@pytest.mark.parametrize(
    "args, message",
    [
        (([0.1, 0.2], [1, -1], [0, 1]), "n_pos has 1 negative"),
        (([0.1, 0.2], [1, 0], [0, -0.5]), "n_neg has 1 negative"),
        (([0.1, np.nan], [1, 0], [0, 1]), "score has 1 NaN"),
        (([0.1, np.inf], [1, 0], [0, 1]), "score has 1 infinite"),
        (([0.1, 0.2], [0, 0], [1, 1]), "no positive cases"),
        (([0.1, 0.2], [1, 2], [0, 0.0]), "no negative cases"),
        (([0.1, 0.2], [1, 0], [0, 0]), "no negative cases"),
        (([0.1, 0.2], [1, 0, 1], [0, 1]), "n_pos has 3 entries but score has 2"),
        (([0.1, 0.2], [1, np.nan], [0, 1]), "n_pos has 1 NaN"),
    ],
)
def test_bad_input_is_refused_with_the_reason(args, message):
    with pytest.raises(ValueError, match=message):
        cw.Classifier.from_counts(*args)


def test_a_fold_without_a_class_is_refused_by_name():
    with pytest.raises(ValueError, match="Fold 'b' has no positive cases"):
        cw.Classifier.from_counts([0.1, 0.2, 0.3], [1, 1, 0], [1, 0, 1], folds=["a", "a", "b"])


# ---------------------------------------------------------------------- bands from counts
def _pair(n=600, decimals=2, folds=False, seed=6):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.round(rng.random(n) + 0.3 * y, decimals)
    f = rng.integers(0, 3, n) if folds else None
    ref = cw.Classifier.from_scores(y, s, folds=f)
    table = pd.DataFrame(
        {"s": s, "p": y.astype(int), "n": (~y).astype(int), "f": 0 if f is None else f}
    )
    table = table.groupby(["f", "s"], as_index=False).sum()
    clf = cw.Classifier.from_counts(
        table["s"], table["p"], table["n"], folds=None if f is None else table["f"]
    )
    return clf, ref


@pytest.mark.parametrize("folds", [False, True])
@pytest.mark.parametrize("threshold", [None, "optimal"])
def test_bootstrap_band_from_counts_is_the_band_from_the_cases(folds, threshold):
    # Same strata, same bins, same draws: the per-case band, bit for bit.
    clf, ref = _pair(folds=folds)
    a = clf.band(0.9, threshold=threshold, n_boot=60, grid=33, random_state=1)
    b = ref.band(0.9, threshold=threshold, n_boot=60, grid=33, random_state=1)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs == b.attrs


def test_bootstrap_band_with_coarsened_bins_from_counts():
    clf, ref = _pair(n=12000, decimals=5)  # > 4096 distinct scores: the bins may be coarsened
    assert len(clf.roc) > 4097
    a = clf.band(0.9, n_boot=40, grid=17, random_state=2)
    b = ref.band(0.9, n_boot=40, grid=17, random_state=2)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs["coarsening_bound"] == b.attrs["coarsening_bound"]


@pytest.mark.parametrize("method", ["exact", "bootstrap"])
def test_fixed_threshold_band_needs_only_counts(method):
    clf, ref = _pair()
    a = clf.band(0.9, threshold=0.6, method=method, n_boot=80, grid=9, random_state=3)
    b = ref.band(0.9, threshold=0.6, method=method, n_boot=80, grid=9, random_state=3)
    pd.testing.assert_frame_equal(a, b)


def test_band_refuses_float_weights():
    clf = cw.Classifier.from_counts([0.1, 0.2, 0.3], [0.5, 1, 0], [1, 0, 1.5])
    with pytest.raises(ValueError, match="whole-number counts"):
        clf.band(n_boot=10)
