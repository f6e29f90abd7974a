"""Issue 18, model side: no silent mispairing, no pooled models, honest randomness and bands.

Each test compares with a computation that does not go through the code under test's
shortcut: a pair built in a known order, brute-force costs, or closed forms.
"""

import copy
import pickle

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costwidget as cw
from costwidget.model.kernels import validation
from costwidget.model.uncertainty.paired import check_pair

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _scores(n=400, seed=0):
    """Two correlated scorers of the same n cases (labels alternate in blocks)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    common = rng.normal(size=n)
    s1 = 1.0 * y + common + rng.normal(size=n)
    s2 = 1.2 * y + common + rng.normal(size=n)
    return y, s1, s2


def _long_frame(y, s1, s2, ids):
    return pd.concat(
        [
            pd.DataFrame({"model": name, "id": ids, "label": y.astype(int), "score": s})
            for name, s in (("a", s1), ("b", s2))
        ],
        ignore_index=True,
    )


# ---------------------------------------------------------------------- 1. pairing
def test_models_exported_sorted_by_label_and_score_are_refused_not_mispaired():
    # The review's case: each model's rows sorted by (label, score), as a database export may
    # be. Both label vectors are then equal, but row i of a is not row i of b.
    y, s1, s2 = _scores()
    frame = _long_frame(y, s1, s2, np.arange(len(y)))
    exported = frame.sort_values(["model", "label", "score"]).reset_index(drop=True)
    models = cw.Classifier.from_frame(exported)
    a, b = models["a"], models["b"]
    assert np.array_equal(a.sample.is_pos, b.sample.is_pos)  # what the old check relied on
    with pytest.raises(ValueError, match=r"not known to score the same instances.*instance="):
        cw.difference_band(a, b, n_boot=20, grid=5, random_state=0)
    with pytest.raises(ValueError, match="instance="):
        check_pair(a, b)
    # The unpaired band needs no pairing.
    cw.difference_band(a, b, n_boot=20, grid=5, random_state=0, paired=False)


def test_instance_ids_pair_shuffled_rows_as_the_known_pairing():
    y, s1, s2 = _scores()
    ids = np.arange(len(y))
    truth_a, truth_b = cw.Classifier.from_scores(y, s1), cw.Classifier.from_scores(y, s2)
    truth = cw.difference_band(truth_a, truth_b, n_boot=200, grid=21, random_state=3)
    # The same export, each model sorted by (label, score), now with the id column.
    frame = _long_frame(y, s1, s2, ids).sort_values(["model", "label", "score"])
    models = cw.Classifier.from_frame(frame, instance="id")
    got = cw.difference_band(models["a"], models["b"], n_boot=200, grid=21, random_state=3)
    pd.testing.assert_frame_equal(got, truth)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_instance_ids_pair_cases_in_any_order(seed):
    rng = np.random.default_rng(seed)
    y, s1, s2 = _scores(60, seed % 1000)
    y[:2], y[2:4] = True, False
    ids = rng.permutation(1000)[:60].astype(str)  # string ids, not in sorted order
    order_a, order_b = rng.permutation(60), rng.permutation(60)
    a = cw.Classifier.from_scores(y[order_a], s1[order_a], instance=ids[order_a])
    b = cw.Classifier.from_scores(y[order_b], s2[order_b], instance=ids[order_b])
    truth = cw.difference_band(
        cw.Classifier.from_scores(y, s1),
        cw.Classifier.from_scores(y, s2),
        n_boot=40,
        grid=11,
        random_state=1,
    )
    got = cw.difference_band(a, b, n_boot=40, grid=11, random_state=1)
    np.testing.assert_allclose(
        got[["diff", "lower", "upper"]], truth[["diff", "lower", "upper"]], atol=1e-12
    )
    for th in ((0.5, None), (0.3, -0.2)):
        t = cw.difference_band(
            cw.Classifier.from_scores(y, s1),
            cw.Classifier.from_scores(y, s2),
            n_boot=40,
            grid=11,
            random_state=1,
            threshold_a=th[0],
            threshold_b=th[1],
        )
        g = cw.difference_band(
            a, b, n_boot=40, grid=11, random_state=1, threshold_a=th[0], threshold_b=th[1]
        )
        np.testing.assert_allclose(
            g[["diff", "lower", "upper"]], t[["diff", "lower", "upper"]], atol=1e-12
        )


def test_duplicated_or_unmatched_ids_are_named():
    y, s1, s2 = _scores(50)
    ids = np.arange(50)
    dup = ids.copy()
    dup[[3, 7]] = [1, 2]
    with pytest.raises(ValueError, match=r"2 id\(s\) that occur more than once: \[1, 2\]"):
        cw.Classifier.from_scores(y, s1, instance=dup)
    a = cw.Classifier.from_scores(y, s1, instance=ids)
    b = cw.Classifier.from_scores(y, s2, instance=ids + 3)
    with pytest.raises(
        ValueError,
        match=r"3 id\(s\) only in a: \[0, 1, 2\]; 3 id\(s\) only "
        r"in b: \[50, 51, 52\]",
    ):
        cw.difference_band(a, b)
    frame = _long_frame(y, s1, s2, ids)
    with pytest.raises(ValueError, match=r"model 'b'.*more than once: \[0\]"):
        cw.Classifier.from_frame(
            frame.drop(index=[51]).assign(
                id=lambda f: np.where((f.model == "b") & (f.id == 2), 0, f.id)
            ),
            instance="id",
        )
    with pytest.raises(ValueError, match=r"only in model 'a': \[7\]"):
        cw.Classifier.from_frame(frame.drop(index=[57]), instance="id")
    # The same id with different labels in the two models.
    flipped = cw.Classifier.from_scores(~y, s2, instance=ids)
    with pytest.raises(ValueError, match="label 50 case"):
        check_pair(a, flipped)


def test_the_same_label_array_pairs_and_survives_copies():
    y, s1, s2 = _scores(80)
    a, b = cw.Classifier.from_scores(y, s1), cw.Classifier.from_scores(y, s2)
    check_pair(a, b)
    for other in (
        b.renamed("other"),
        copy.copy(b),
        copy.deepcopy(b),
        pickle.loads(pickle.dumps(b)),
    ):
        check_pair(a, other)
        pd.testing.assert_frame_equal(
            cw.difference_band(a, other, n_boot=30, grid=5, random_state=0),
            cw.difference_band(a, b, n_boot=30, grid=5, random_state=0),
        )
    # Equal copies of the labels are not known to be the same cases.
    with pytest.raises(ValueError, match="different label arrays"):
        check_pair(a, cw.Classifier.from_scores(y.copy(), s2))
    with pytest.raises(ValueError, match="different label arrays"):
        check_pair(cw.Classifier.from_scores(list(y), s1), cw.Classifier.from_scores(list(y), s2))
    # A pandas column read twice is the same memory.
    frame = pd.DataFrame({"y": y, "s1": s1, "s2": s2})
    check_pair(
        cw.Classifier.from_scores(frame["y"], frame["s1"]),
        cw.Classifier.from_scores(frame["y"].to_numpy(), frame["s2"]),
    )


def test_classifiers_from_predictions_pairs_even_a_list():
    y, s1, s2 = _scores(80)
    models = cw.classifiers_from_predictions(list(y), {"a": list(s1), "b": s2})
    assert list(models) == ["a", "b"] and models["a"].name == "a"
    got = cw.difference_band(models["a"], models["b"], n_boot=50, grid=5, random_state=0)
    truth = cw.difference_band(
        cw.Classifier.from_scores(y, s1),
        cw.Classifier.from_scores(y, s2),
        n_boot=50,
        grid=5,
        random_state=0,
    )
    pd.testing.assert_frame_equal(got, truth)
    with pytest.raises(TypeError, match="non-empty dict"):
        cw.classifiers_from_predictions(y, [s1, s2])


def test_folds_pair_only_with_the_same_fold_assignment():
    y, s1, s2 = _scores(80)
    f1, f2 = np.arange(80) % 2, (np.arange(80) // 40)
    a = cw.Classifier.from_scores(y, s1, folds=f1)
    check_pair(a, cw.Classifier.from_scores(y, s2, folds=f1))
    with pytest.raises(ValueError, match="different folds"):
        check_pair(a, cw.Classifier.from_scores(y, s2, folds=f2))
    # Fold classifiers of the same cases and folds pair; those of other folds do not.
    check_pair(a.folds[0], cw.Classifier.from_scores(y, s2, folds=f1).folds[0])
    with pytest.raises(ValueError, match="not known to score the same instances"):
        check_pair(a.folds[0], cw.Classifier.from_scores(y, s2, folds=f2).folds[0])


def test_counts_and_confusion_matrices_cannot_be_paired():
    counted = cw.Classifier.from_counts([0.9, 0.5, 0.1], [3, 2, 1], [1, 2, 3])
    other = cw.Classifier.from_counts([0.8, 0.4], [3, 3], [2, 4])
    with pytest.raises(ValueError, match="counts per score.*cannot be paired"):
        cw.difference_band(counted, other)
    matrix = cw.Classifier.from_confusion(tp=3, fn=1, fp=1, tn=3)
    with pytest.raises(ValueError, match="needs the scores"):
        cw.difference_band(matrix, matrix)


# ---------------------------------------------------------------------- 2. sources
def _frame_first_appearance_unsorted():
    rng = np.random.default_rng(4)
    y = rng.random(60) < 0.5
    return pd.DataFrame(
        {
            "model": np.repeat(["zeta", "alpha", "mid"], 20),
            "label": y.astype(int),
            "score": np.round(rng.random(60) + 0.3 * y, 2),
        }
    )


def test_duckdb_and_from_frame_agree_on_models_defaults_and_order():
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    frame = _frame_first_appearance_unsorted()
    rel = duckdb.connect().from_df(frame)
    pandas_side = cw.Classifier.from_frame(frame)
    duck_side = cw.from_duckdb(rel)  # the default model="model": never pooled
    assert list(duck_side) == list(pandas_side) == ["alpha", "mid", "zeta"]
    for name, part in frame.groupby("model"):
        truth = cw.Classifier.from_scores(part.label.to_numpy(), part.score.to_numpy())
        for got in (duck_side[name], pandas_side[name]):
            pd.testing.assert_frame_equal(got.roc[["fpr", "tpr"]], truth.roc[["fpr", "tpr"]])
    # model=None: one model, keyed by the score column, in all of them.
    pooled = cw.Classifier.from_scores(frame.label.to_numpy(), frame.score.to_numpy())
    for got in (cw.from_duckdb(rel, model=None), cw.Classifier.from_frame(frame, model=None)):
        assert list(got) == ["score"]
        pd.testing.assert_frame_equal(got["score"].roc[["fpr", "tpr"]], pooled.roc[["fpr", "tpr"]])
    # The same refusal of a missing model column, in the same words.
    no_model = frame.drop(columns="model")
    messages = []
    for call in (
        lambda: cw.Classifier.from_frame(no_model),
        lambda: cw.from_duckdb(duckdb.connect().from_df(no_model)),
    ):
        with pytest.raises(ValueError, match=r"no column model='model'.*model=None") as info:
            call()
        messages.append(str(info.value).split(" has no column ", 1)[1])
    assert messages[0] == messages[1]


# ---------------------------------------------------------------------- 3. randomness
def test_random_state_none_draws_afresh_and_an_int_is_cached():
    y, s1, s2 = _scores(200)
    a, b = cw.Classifier.from_scores(y, s1), cw.Classifier.from_scores(y, s2)
    first, second = a.band(n_boot=100, grid=33), a.band(n_boot=100, grid=33)
    assert not first[["lower", "upper"]].equals(second[["lower", "upper"]])
    d1 = cw.difference_band(a, b, n_boot=100, grid=33)
    d2 = cw.difference_band(a, b, n_boot=100, grid=33)
    assert not d1[["lower", "upper"]].equals(d2[["lower", "upper"]])
    matrix = cw.Classifier.from_confusion(tp=30, fn=10, fp=12, tn=28)
    m1 = matrix.band(method="bootstrap", n_boot=50, grid=5)
    m2 = matrix.band(method="bootstrap", n_boot=50, grid=5)
    assert not m1.equals(m2)
    assert a.band(n_boot=100, grid=33, random_state=5).equals(
        a.band(n_boot=100, grid=33, random_state=5)
    )
    # Nothing drawn with None was kept: only the int seed's replicates are cached.
    assert len(a._band_cache._store) == 1


def test_a_monte_carlo_loop_over_band_sees_independent_draws():
    # One fixed data set, 30 bands with random_state=None: the lower limit at pcf 0.5 is a
    # bootstrap quantile, so it varies from draw to draw; identical draws would give one value.
    y, s1, _ = _scores(300, seed=8)
    clf = cw.Classifier.from_scores(y, s1)
    lows = {float(clf.band(n_boot=60, grid=[0.5]).lower[0]) for _ in range(30)}
    assert len(lows) > 5


# ---------------------------------------------------------------------- 4. default band
def test_the_default_band_is_the_basic_interval():
    y, s1, _ = _scores(200)
    clf = cw.Classifier.from_scores(y, s1)
    default = clf.band(n_boot=200, grid=21, random_state=0)
    percentile = clf.band(n_boot=200, grid=21, random_state=0, interval="percentile")
    assert default.attrs["interval"] == "basic"
    # Basic = the percentile limits reflected about the curve, capped by the trivial cost.
    cap = np.minimum(percentile.pcf, 1 - percentile.pcf)
    np.testing.assert_allclose(
        default.lower, np.clip(2 * percentile.nec - percentile.upper, 0, cap)
    )
    np.testing.assert_allclose(
        default.upper, np.clip(2 * percentile.nec - percentile.lower, 0, cap)
    )


# ---------------------------------------------------------------------- 5. smaller defects
@pytest.mark.parametrize(
    "cells, nec",
    [
        (dict(tp=0, fn=5, fp=0, tn=7), lambda x: x),  # always negative: NEC = pcf
        (dict(tp=5, fn=0, fp=7, tn=0), lambda x: 1 - x),  # always positive: NEC = 1 - pcf
    ],
)
def test_a_trivial_confusion_matrix_has_its_exact_band(cells, nec):
    # Drummond & Holte (2004), sec. 8: the fixed classifier's rows are binomials; with a rate of
    # 0 or 1 nothing varies, so the band is the curve itself: since issue 31 the envelope
    # min(line, x, 1 - x) of the matrix and the trivial classifiers (what the readout reads).
    clf = cw.Classifier.from_confusion(**cells)
    x = np.linspace(0, 1, 11)
    env = np.minimum(nec(x), np.minimum(x, 1 - x))
    for band in (
        clf.band(grid=x),
        clf.band(grid=x, interval="percentile"),
        clf.band(grid=x, method="bootstrap", n_boot=50, random_state=0),
    ):
        np.testing.assert_allclose(band.nec, env, atol=1e-15)
        np.testing.assert_allclose(band.lower, env, atol=1e-15)
        np.testing.assert_allclose(band.upper, env, atol=1e-15)


def test_a_confusion_matrix_band_refuses_thresholds_with_the_reason():
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match=r"one confusion matrix.*without threshold="):
        clf.band(threshold=0.5)
    with pytest.raises(ValueError, match=r"threshold='optimal' cannot apply.*one confusion"):
        clf.band(threshold="optimal")


def test_one_number_check():
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    for bad in (np.inf, -np.inf):
        with pytest.raises(ValueError, match="n_pos must be a finite number"):
            clf.workforce(10, n_pos=bad)
        with pytest.raises(ValueError, match="n_neg must be a finite number"):
            clf.workforce(10, n_neg=bad)
    for bad in ("3", None, True, [3]):
        with pytest.raises(TypeError, match="capacity must be a number"):
            clf.workforce(bad)
    with pytest.raises(ValueError, match="step must be a finite number"):
        cw.model.comparison.ranges.range_grid(0.1, 0.5, np.inf)
    import costwidget.model.classifier.classifier as classifier_module
    import costwidget.model.comparison.ranges as ranges_module

    assert not hasattr(classifier_module, "_check_number")
    assert not hasattr(ranges_module, "_check_number")
    assert validation.check_number(np.float32(2.5), "x") == 2.5


@pytest.mark.parametrize(
    "args, name",
    [
        ((0.3, "2", 1), "cost_fn"),
        ((0.3, 1, "2"), "cost_fp"),
        ((0.3, None, 1), "cost_fn"),
        ((0.3, 1, None), "cost_fp"),
        ((0.3, [1, "2"], 1), "cost_fn"),
        ((0.3, True, 1), "cost_fn"),
    ],
)
def test_probability_cost_refuses_strings_and_none_by_name(args, name):
    with pytest.raises(TypeError, match=rf"^{name} \(the cost"):
        cw.probability_cost(*args)
    with pytest.raises(TypeError, match="p_pos"):
        cw.probability_cost("0.3", 1, 1)
    assert cw.probability_cost(0.3, 2, 1) == pytest.approx(0.6 / 1.3, rel=1e-15)
