"""cw.from_duckdb on generated Parquet/CSV files, relations and tables: exact, and bounded when rounded."""

import glob as globbing
import sys

import brute
import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import costwidget as cw
from costwidget.model.kernels.rounding import merge_bound

duckdb = pytest.importorskip("duckdb", reason="the duckdb extra is not installed")
pytest.importorskip("pyarrow", reason="the duckdb extra is not installed")
from costwidget.sources import duckdb_source  # noqa: E402 (after the skip)
from costwidget.sources.grouped import Columns  # noqa: E402

N = 6000


def _frame(seed=0, n=N):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    model = rng.choice(["forest", "logit"], n)
    # Four decimals: many ties, as score tables often store them.
    s = np.round(rng.random(n) * 0.7 + 0.3 * y + 0.1 * (model == "forest") * y, 4)
    return pd.DataFrame(
        {
            "score": s,
            "label": np.where(y, "fraud", "ok"),
            "model": model,
            "fold": rng.integers(0, 4, n),
            "row": np.arange(n),
        }
    )


@pytest.fixture(scope="module")
def parquet_glob(tmp_path_factory):
    """The data split over three Parquet files; the glob and the frame they hold."""
    folder = tmp_path_factory.mktemp("scores")
    frame = _frame()
    con = duckdb.connect()
    for k, rows in enumerate(np.array_split(np.arange(len(frame)), 3)):
        con.register("part", frame.iloc[rows])
        con.execute(f"COPY part TO '{folder / f'part-{k}.parquet'}' (FORMAT parquet)")
        con.unregister("part")
    return str(folder / "*.parquet"), frame


def _assert_same(a, b):
    pd.testing.assert_frame_equal(a.roc, b.roc)
    pd.testing.assert_frame_equal(a.hull, b.hull)
    pd.testing.assert_frame_equal(a.envelope, b.envelope)


def test_multi_file_glob_with_models_folds_and_string_labels(parquet_glob):
    glob, frame = parquet_glob
    got = cw.from_duckdb(glob, model="model", fold="fold", pos_label="fraud")
    ref = cw.Classifier.from_frame(frame, fold="fold", pos_label="fraud")
    assert list(got) == sorted(ref) == ["forest", "logit"]
    for name, clf in got.items():
        _assert_same(clf, ref[name])
        assert clf.pos_label == "fraud" and clf.name == name
        assert list(clf.folds) == list(ref[name].folds) == [0, 1, 2, 3]
        for k, part in clf.folds.items():
            _assert_same(part, ref[name].folds[k])
        assert clf.envelope_error_bound == 0.0


def test_a_list_of_files_a_csv_file_a_relation_and_a_table_agree(parquet_glob, tmp_path):
    glob, frame = parquet_glob
    one = frame[frame["model"] == "logit"]
    ref = cw.Classifier.from_scores(one["label"], one["score"], pos_label="fraud")
    csv = tmp_path / "logit.csv"
    one.to_csv(csv, index=False)
    con = duckdb.connect()
    con.register("frame", frame)
    con.execute("CREATE TABLE scored AS SELECT * FROM frame WHERE model = 'logit'")
    sources = {
        "list": (sorted(globbing.glob(glob)), {}),
        "csv": (str(csv), {}),
        "relation": (con.table("scored"), {}),
        "table": ("scored", {"connection": con}),
    }
    for kind, (source, extra) in sources.items():
        got = cw.from_duckdb(source, pos_label="fraud", **extra)  # model="model" by default
        if kind == "list":
            assert list(got) == sorted(set(frame["model"]))
        _assert_same(got["logit"], ref)


@pytest.mark.parametrize("labels, pos", [((0, 1), 1), ((-1, 1), 1), ((False, True), True)])
def test_default_positive_label_for_numeric_and_bool_labels(labels, pos):
    rng = np.random.default_rng(1)
    y = rng.random(300) < 0.4
    s = np.round(rng.random(300) + 0.2 * y, 2)
    lab = np.where(y, labels[1], labels[0])
    got = cw.from_duckdb(
        duckdb.connect().from_df(pd.DataFrame({"score": s, "label": lab})), model=None
    )
    assert got["score"].pos_label == pos
    _assert_same(got["score"], cw.Classifier.from_scores(y, s))


def test_float32_and_integer_scores_are_read_exactly():
    rng = np.random.default_rng(2)
    y = rng.random(500) < 0.5
    s32 = (rng.random(500) + 0.3 * y).astype(np.float32)
    frame = pd.DataFrame({"a": s32, "b": (s32 * 100).astype(np.int64), "label": y.astype(int)})
    rel = duckdb.connect().from_df(frame)
    _assert_same(
        cw.from_duckdb(rel, y_score="a", model=None)["a"], cw.Classifier.from_scores(y, s32)
    )
    _assert_same(
        cw.from_duckdb(rel, y_score="b", model=None)["b"], cw.Classifier.from_scores(y, frame["b"])
    )


# ---------------------------------------------------------------------- the two plans
# DuckDB groups when few scores are distinct and sorts the raw rows when most are
# (duckdb_source.plan). SORT_SHARE = 0 forces the sort, inf forces the GROUP BY.
PLANS = {"sort": 0.0, "group": float("inf")}


@pytest.mark.parametrize("how", PLANS)
def test_both_plans_give_the_classifiers_of_from_scores(monkeypatch, parquet_glob, how):
    monkeypatch.setattr(duckdb_source, "SORT_SHARE", PLANS[how])
    glob, frame = parquet_glob
    got = cw.from_duckdb(glob, model="model", fold="fold", pos_label="fraud")
    ref = cw.Classifier.from_frame(frame, fold="fold", pos_label="fraud")
    for name, clf in got.items():
        _assert_same(clf, ref[name])
        for k, part in clf.folds.items():
            _assert_same(part, ref[name].folds[k])


tied_rows = st.integers(2, 80).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(st.integers(0, 12), min_size=n, max_size=n),  # few distinct scores: ties
        st.lists(st.integers(0, 16), min_size=n, max_size=n),  # weights k/8: exact sums
        st.lists(st.sampled_from(["a", "b"]), min_size=n, max_size=n),
    )
)


@given(tied_rows, st.sampled_from(sorted(PLANS)), st.booleans())
@example(([True, False], [1, 0], [8, 16], ["a", "a"]), "group", True)  # whole weights: float
@example(([True, False], [1, 0], [8, 16], ["a", "a"]), "sort", True)
def test_plans_agree_with_from_scores_on_ties_and_dyadic_weights(rows, how, weighted):
    y, s, eighths, m = (np.array(v) for v in rows)
    y[0], y[-1] = True, False  # both classes (per model checked below)
    s = s / 7.0
    w = eighths / 8.0 if weighted else None
    frame = pd.DataFrame(
        {"score": s, "label": y.astype(np.int8), "model": m, **({} if w is None else {"w": w})}
    )
    old = duckdb_source.SORT_SHARE
    duckdb_source.SORT_SHARE = PLANS[how]  # (hypothesis runs the body many times: no monkeypatch)
    try:
        got = cw.from_duckdb(
            duckdb.connect().from_df(frame), model="model", sample_weight=None if w is None else "w"
        )
    except ValueError as exc:  # a model without one class (or without weight in it) is refused
        keep = np.ones(len(y), bool) if w is None else w > 0
        assert any(
            not (y[(m == k) & keep].any() and (~y[(m == k) & keep]).any()) for k in set(m)
        ), exc
        return
    finally:
        duckdb_source.SORT_SHARE = old
    for name, clf in got.items():
        rows_k = m == name
        ref = cw.Classifier.from_scores(
            y[rows_k], s[rows_k], sample_weight=None if w is None else w[rows_k]
        )
        _assert_same(clf, ref)
        th, tp, fp = brute.roc_points(y[rows_k], s[rows_k], None if w is None else w[rows_k])
        assert clf.roc["threshold"].tolist() == th
        assert clf.roc["tp"].tolist() == tp and clf.roc["fp"].tolist() == fp


def test_the_plan_follows_the_share_of_distinct_scores():
    rng = np.random.default_rng(6)
    con = duckdb.connect()
    cols = Columns(score="score", label="label")
    continuous = con.from_df(
        pd.DataFrame({"score": rng.random(5000), "label": rng.random(5000) < 0.3})
    )
    tied = con.from_df(
        pd.DataFrame({"score": np.round(rng.random(5000), 2), "label": rng.random(5000) < 0.3})
    )
    assert duckdb_source.plan(continuous, cols, None) == "sort"
    assert duckdb_source.plan(tied, cols, None) == "group"
    assert duckdb_source.plan(continuous, cols, 3) == "group"  # rounding exists to make groups


# ---------------------------------------------------------------------- weights
def _weighted(seed=7, n=3000):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    s = np.round(rng.random(n) + 0.3 * y, 3)
    # A negatively downsampled table: kept negatives weigh 1/rate.
    w = np.where(y, 1.0, rng.choice([10.0, 12.5], n))
    return pd.DataFrame({"score": s, "label": y.astype(np.int8), "w": w})


@pytest.mark.parametrize("how", PLANS)
@pytest.mark.parametrize("whole", [False, True])
def test_weights_equal_from_scores_where_the_sums_are_exact(monkeypatch, how, whole):
    monkeypatch.setattr(duckdb_source, "SORT_SHARE", PLANS[how])
    frame = _weighted()
    if whole:  # negatives kept at a rate of 1/10: weights 10, still weights (float, no bands)
        frame["w"] = np.where(frame["label"] == 1, 1.0, 10.0)
    got = cw.from_duckdb(duckdb.connect().from_df(frame), sample_weight="w", model=None)["score"]
    ref = cw.Classifier.from_scores(frame["label"], frame["score"], sample_weight=frame["w"])
    _assert_same(got, ref)
    with pytest.raises(ValueError, match="whole-number counts: bootstrap resampling of weights"):
        got.band(0.9, n_boot=20, random_state=0)


@pytest.mark.parametrize("how", PLANS)
def test_huge_weights_neither_overflow_nor_lose_the_ratios(monkeypatch, how):
    monkeypatch.setattr(duckdb_source, "SORT_SHARE", PLANS[how])
    frame = pd.DataFrame(
        {
            "score": [0.9, 0.8, 0.7, 0.2, 0.1],
            "label": [1, 1, 1, 0, 0],
            "w": [4e18, 4e18, 4e18, 1.0, 1.0],
        }
    )
    got = cw.from_duckdb(duckdb.connect().from_df(frame), sample_weight="w", model=None)["score"]
    ref = cw.Classifier.from_scores(frame["label"], frame["score"], sample_weight=frame["w"])
    _assert_same(got, ref)
    assert got.roc["tpr"].tolist() == pytest.approx([0, 1 / 3, 2 / 3, 1, 1, 1])


def test_a_weight_sum_beyond_the_float_range_says_so():
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(duckdb_source, "SORT_SHARE", PLANS["group"])
    try:
        rel = duckdb.connect().from_df(
            pd.DataFrame({"score": [0.5, 0.5, 0.1], "label": [0, 0, 1], "w": [1e308, 1e308, 1.0]})
        )
        with pytest.raises(ValueError, match=r"sum beyond the largest float .* common factor"):
            cw.from_duckdb(rel, sample_weight="w", model=None)
    finally:
        monkeypatch.undo()


def test_fractional_weights_agree_with_from_scores_to_rounding():
    rng = np.random.default_rng(8)
    frame = _weighted()
    frame["w"] = rng.exponential(size=len(frame))
    got = cw.from_duckdb(duckdb.connect().from_df(frame), sample_weight="w", model=None)["score"]
    ref = cw.Classifier.from_scores(frame["label"], frame["score"], sample_weight=frame["w"])
    assert got.roc["threshold"].tolist() == ref.roc["threshold"].tolist()
    np.testing.assert_allclose(got.roc[["fpr", "tpr"]], ref.roc[["fpr", "tpr"]], rtol=1e-12)
    x = np.linspace(0, 1, 101)
    np.testing.assert_allclose(got.nec(x), ref.nec(x), atol=1e-12)


@pytest.mark.parametrize("how", PLANS)
@pytest.mark.parametrize(
    "weights, message",
    [
        # The tied negatives' weights sum to 2: the lowest weight must still be seen.
        (
            ("-1.0", "3.0", "1.0"),
            r"Column 'w' \(sample_weight=\) has negative weights \(the lowest "
            r"is -1.0\)",
        ),
        (("NULL", "1.0", "1.0"), r"Column 'w' \(sample_weight=\) has 1 missing \(NULL\)"),
        (("'NaN'::DOUBLE", "1.0", "1.0"), r"Column 'w' \(sample_weight=\) has NaN or infinite"),
    ],
)
def test_bad_weights_are_refused_with_the_column_named(monkeypatch, how, weights, message):
    monkeypatch.setattr(duckdb_source, "SORT_SHARE", PLANS[how])
    a, b, c = weights
    rel = duckdb.connect().sql(
        f"SELECT * FROM (VALUES (0.2, 0, {a}), (0.2, 0, {b}), (0.1, 1, {c})) AS t(score, label, w)"
    )
    with pytest.raises(ValueError, match=message):
        cw.from_duckdb(rel, sample_weight="w", model=None)


def test_zero_weights_drop_their_rows_as_from_scores_does():
    frame = _weighted()
    frame.loc[::3, "w"] = 0.0
    got = cw.from_duckdb(duckdb.connect().from_df(frame), sample_weight="w", model=None)["score"]
    ref = cw.Classifier.from_scores(frame["label"], frame["score"], sample_weight=frame["w"])
    _assert_same(got, ref)


# ---------------------------------------------------------------------- awkward columns
@pytest.mark.parametrize("how", PLANS)
@pytest.mark.parametrize("decimals", [None, 1])
def test_source_columns_named_like_the_querys_aliases_change_nothing(monkeypatch, how, decimals):
    monkeypatch.setattr(duckdb_source, "SORT_SHARE", PLANS[how])
    frame = pd.DataFrame(
        {
            "score": [0.9, 0.8, 0.3, 0.2, 0.9, 0.1],
            "label": [1, 1, 0, 1, 0, 0],
            "s": [5.0, 1, 2, 3, 4, 0],
            "k": [7.0, 7, 7, 7, 7, 7],
            "y": [0, 0, 0, 0, 0, 1],
            "n": [9, 9, 9, 9, 9, 9],
        }
    )
    got = cw.from_duckdb(duckdb.connect().from_df(frame), decimals=decimals, model=None)["score"]
    ref = cw.Classifier.from_scores(frame["label"], frame["score"])
    if decimals is None:
        _assert_same(got, ref)
    else:
        assert set(got.roc["threshold"]) <= set(ref.roc["threshold"])
        assert got.roc["threshold"].is_monotonic_decreasing
    # A label column named s: the score is still the score.
    renamed = frame.drop(columns="s").rename(columns={"label": "s"})
    got = cw.from_duckdb(duckdb.connect().from_df(renamed), y_true="s", model=None)["score"]
    _assert_same(got, ref)


@pytest.mark.parametrize("how", PLANS)
def test_categorical_labels_and_models_are_read_as_their_values(monkeypatch, how):
    monkeypatch.setattr(duckdb_source, "SORT_SHARE", PLANS[how])
    frame = _frame(n=800)
    cat = frame.assign(label=pd.Categorical(frame["label"]), model=pd.Categorical(frame["model"]))
    got = cw.from_duckdb(duckdb.connect().from_df(cat), model="model", pos_label="fraud")
    ref = cw.Classifier.from_frame(frame, pos_label="fraud")
    assert sorted(got) == sorted(ref)
    for name in ref:
        _assert_same(got[name], ref[name])


@pytest.mark.parametrize("how", PLANS)
@pytest.mark.parametrize("column", ["label", "model", "fold"])
def test_missing_values_are_counted_in_rows_under_both_plans(monkeypatch, how, column):
    monkeypatch.setattr(duckdb_source, "SORT_SHARE", PLANS[how])
    frame = pd.DataFrame(
        {
            "score": [0.5, 0.5, 0.5, 0.2, 0.9],
            "label": ["a", "a", "a", "b", "a"],
            "model": ["m"] * 5,
            "fold": [1, 1, 1, 2, 2],
        }
    )
    frame[column] = frame[column].astype(object)
    frame.loc[:2, column] = None  # three missing values, all at the one score 0.5
    keyword = {"label": "y_true", "model": "model", "fold": "fold"}[column]
    with pytest.raises(ValueError, match=rf"Column '{column}' \({keyword}=\) has 3 missing"):
        cw.from_duckdb(duckdb.connect().from_df(frame), model="model", fold="fold", pos_label="a")


def test_a_list_column_is_refused_as_a_score():
    rel = duckdb.connect().sql("SELECT [0.5, 0.2] AS score, 1 AS label UNION ALL SELECT [0.1], 0")
    with pytest.raises(
        TypeError,
        match=r"Column 'score' \(y_score=\) has type .*\[\]; scores "
        r"must be numbers",
    ):
        cw.from_duckdb(rel, model=None)


# ---------------------------------------------------------------------- rounding
def _groups(s, decimals):
    """Group keys computed in numpy, independently of the SQL: floor(s·10^d + 1/2)."""
    return np.floor(s * 10.0**decimals + 0.5)


def _check_bound(y, s, decimals):
    rel = duckdb.connect().from_df(pd.DataFrame({"score": s, "label": y.astype(np.int8)}))
    rounded = cw.from_duckdb(rel, decimals=decimals, model=None)["score"]
    exact = cw.Classifier.from_scores(y, s)
    # Every rounded ROC point (threshold, tp, fp) is one of the exact ROC points.
    exact_rows = set(map(tuple, exact.roc[["threshold", "tp", "fp"]].to_numpy().tolist()))
    assert set(map(tuple, rounded.roc[["threshold", "tp", "fp"]].to_numpy().tolist())) <= exact_rows
    # The rounded classifier counts the groups of the rounded scores exactly.
    g = _groups(s, decimals)
    by_group = cw.Classifier.from_scores(y, g)
    assert rounded.roc["tp"].tolist() == by_group.roc["tp"].tolist()
    assert rounded.roc["fp"].tolist() == by_group.roc["fp"].tolist()
    # The bound, from the groups that hold several distinct scores.
    frame = pd.DataFrame({"g": g, "s": s, "p": y, "n": ~y})
    per = frame.groupby("g").agg(lo=("s", "min"), hi=("s", "max"), p=("p", "sum"), n=("n", "sum"))
    merged = per[per["hi"] > per["lo"]]
    bound = merge_bound(merged["p"], merged["n"], y.sum(), (~y).sum())
    assert rounded.envelope_error_bound == pytest.approx(bound, rel=1e-12, abs=0)
    # The envelopes differ linearly between the union of their breakpoints and the grid.
    x = np.unique(
        np.concatenate((exact.envelope["pcf"], rounded.envelope["pcf"], np.linspace(0, 1, 257)))
    )
    diff = rounded.nec(x) - exact.nec(x)
    eps = merge_bound(merged["p"], merged["n"], y.sum(), (~y).sum(), pcf=x)
    assert diff.min() >= -1e-12
    assert np.all(diff <= eps + 1e-12)
    assert diff.max() <= bound + 1e-12
    return diff.max(), bound


@given(
    st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 2]), st.integers(20, 400), st.floats(0.0, 2.0)
)
def test_rounding_bound_holds_on_random_data(seed, decimals, n, shift):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < rng.uniform(0.1, 0.9)
    y[:2] = [True, False]
    s = rng.normal(size=n) * 0.3 + shift * y  # continuous: every score distinct
    _check_bound(y, s, decimals)


def test_rounding_bound_on_a_larger_sample_is_met_and_not_loose():
    rng = np.random.default_rng(11)
    y = rng.random(50_000) < 0.2
    s = rng.random(50_000) * 0.6 + 0.4 * y
    worst, bound = _check_bound(y, s, 2)
    assert 0 < worst <= bound < 0.01


def test_rounding_bound_is_attained():
    # One group: positives 0.41, 0.42 above negatives 0.38, 0.39. Exact E = 0; rounded to 0
    # decimals the only points are (0,0) and (1,1): E_r(1/2) = 1/2 = u·w/(u+w) with u = w = 1.
    rel = duckdb.connect().from_df(
        pd.DataFrame({"score": [0.41, 0.42, 0.38, 0.39], "label": [1, 1, 0, 0]})
    )
    clf = cw.from_duckdb(rel, decimals=0, model=None)["score"]
    assert clf.envelope_error_bound == 0.5
    assert clf.nec(0.5) == 0.5
    assert cw.from_duckdb(rel, model=None)["score"].nec(0.5) == 0.0
    assert clf.roc["threshold"].tolist() == [np.inf, 0.38]  # the group's lowest raw score


def test_rounded_classifier_with_folds_has_per_fold_bounds(parquet_glob):
    glob, frame = parquet_glob
    got = cw.from_duckdb(glob, model="model", fold="fold", pos_label="fraud", decimals=2)
    for name, clf in got.items():
        one = frame[frame["model"] == name]
        exact = cw.Classifier.from_scores(one["label"], one["score"], pos_label="fraud")
        x = np.linspace(0, 1, 513)
        diff = clf.nec(x) - exact.nec(x)
        assert -1e-12 <= diff.min() and diff.max() <= clf.envelope_error_bound + 1e-12
        assert all(part.envelope_error_bound <= 0.5 for part in clf.folds.values())
        assert len(clf.folds) == 4


def test_a_threshold_inside_a_rounded_group_is_refused_for_a_fixed_band():
    rel = duckdb.connect().from_df(
        pd.DataFrame({"score": [0.41, 0.42, 0.38, 0.39, 0.9, 0.1], "label": [1, 1, 0, 0, 1, 0]})
    )
    clf = cw.from_duckdb(rel, decimals=1, model=None)["score"]
    assert clf.band(threshold=0.38, grid=3)["nec"].notna().all()  # a group's own threshold
    with pytest.raises(ValueError, match="falls inside a group of rounded scores"):
        clf.band(threshold=0.40, grid=3)


# ---------------------------------------------------------------------- errors
def _rel(**columns):
    return duckdb.connect().from_df(pd.DataFrame(columns))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"y_score": "p"}, r"no column y_score='p'; its columns are \['score', 'label', 'model'\]"),
        ({"y_true": "y"}, "no column y_true='y'"),
        ({"sample_weight": "w"}, "no column sample_weight='w'"),
        ({"model": "clf"}, "no column model='clf'"),
        ({"fold": "cv"}, "no column fold='cv'"),
        ({"model": "score"}, "must name different columns"),
        (
            {"y_score": "model"},
            "Column 'model' \\(y_score=\\) has type VARCHAR; scores must be numbers",
        ),
        (
            {"sample_weight": "model"},
            "Column 'model' \\(sample_weight=\\) has type VARCHAR; weights must be numbers",
        ),
        ({"decimals": 2.5}, "decimals must be None"),
        ({"decimals": 99}, "decimals must be None"),
    ],
)
def test_column_and_argument_errors_name_the_column(kwargs, message):
    rel = _rel(score=[0.1, 0.2], label=[0, 1], model=["a", "a"])
    with pytest.raises((ValueError, TypeError), match=message):
        cw.from_duckdb(rel, **{"model": None, **kwargs})


@pytest.mark.parametrize(
    "columns, kwargs, message",
    [
        (
            {"score": [0.1, 0.2, 0.3], "label": ["a", "b", "c"]},
            {},
            r"Column 'label' \(y_true=\) has 3 distinct values \['a', 'b', 'c'\]; a binary classifier",
        ),
        ({"score": [0.1, 0.2], "label": ["a", "b"]}, {}, "pos_label is ambiguous"),
        (
            {"score": [0.1, 0.2], "label": ["a", "b"]},
            {"pos_label": "c"},
            "pos_label='c' is not a value",
        ),
        ({"score": [0.1, 0.2], "label": [1, 1]}, {}, "holds only 1: the other class is missing"),
        ({"score": [0.1, np.inf], "label": [0, 1]}, {}, "has 1 infinite value"),
        (
            {"score": [0.1, None, 0.3], "label": [0, 1, 1]},
            {},
            r"Column 'score' \(y_score=\) has 1 missing \(NULL\)",
        ),
        (
            {"score": [0.1, 0.2, 0.3], "label": ["a", None, "b"]},
            {"pos_label": "a"},
            r"Column 'label' \(y_true=\) has 1 missing \(NULL\)",
        ),
        (
            {"score": [0.1, 0.2, 0.3], "label": [0, 1, 1], "m": ["x", "x", "y"]},
            {"model": "m"},
            r"Model 'y' \(column 'm'\) has no negative cases",
        ),
        (
            {"score": [0.1, 0.2, 0.3, 0.4], "label": [0, 1, 0, 0], "cv": [1, 1, 2, 2]},
            {"fold": "cv"},
            r"Fold 2 \(column 'cv'\) has no positive cases .* stratified folds",
        ),
        (
            {"score": [0.1, 0.2, 0.3], "label": [0, 1, 1], "m": ["x", None, "x"]},
            {"model": "m"},
            r"Column 'm' \(model=\) has 1 missing \(NULL\)",
        ),
    ],
)
def test_malformed_data_is_refused_with_the_column_named(columns, kwargs, message):
    frame = pd.DataFrame(columns)
    with pytest.raises(ValueError, match=message):
        cw.from_duckdb(duckdb.connect().from_df(frame), **{"model": None, **kwargs})


def test_nan_scores_are_refused_by_column():
    # pandas NaN reaches DuckDB as NULL, so the NaN is made in SQL (as a Parquet file holds it).
    rel = duckdb.connect().sql(
        "SELECT * FROM (VALUES (0.1, 0), ('NaN'::DOUBLE, 1), "
        "('NaN'::DOUBLE, 1), (0.3, 1)) AS t(p, label)"
    )
    with pytest.raises(ValueError, match=r"Column 'p' \(y_score=\) has 2 NaN value\(s\)"):
        cw.from_duckdb(rel, y_score="p", model=None)


def test_an_empty_result_is_refused(parquet_glob):
    glob, _ = parquet_glob
    con = duckdb.connect()
    empty = con.read_parquet(glob).filter("score > 99")
    with pytest.raises(ValueError, match="The relation has no rows"):
        cw.from_duckdb(empty, y_true="label", pos_label="fraud", model=None)


def test_sources_that_cannot_be_read_are_refused(tmp_path):
    with pytest.raises(ValueError, match="pass connection= to read a table"):
        cw.from_duckdb("scored", model=None)
    with pytest.raises(ValueError, match="has no table or view 'nope'"):
        cw.from_duckdb("nope", connection=duckdb.connect(), model=None)
    with pytest.raises(ValueError, match="DuckDB could not read"):
        cw.from_duckdb(str(tmp_path / "missing-*.parquet"), model=None)
    with pytest.raises(TypeError, match="source must be a path"):
        cw.from_duckdb(42, model=None)


def test_column_names_are_quoted_not_spliced_into_sql():
    frame = pd.DataFrame({'odd "name"; DROP TABLE x; --': [0.1, 0.9], "label": [0, 1]})
    got = cw.from_duckdb(
        duckdb.connect().from_df(frame), y_score='odd "name"; DROP TABLE x; --', model=None
    )
    assert got['odd "name"; DROP TABLE x; --'].nec(0.5) == 0.0


def test_a_missing_engine_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "duckdb", None)  # import duckdb now raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'costwidget\[duckdb\]'"):
        cw.from_duckdb("x.parquet", model=None)


# ---------------------------------------------------------------------- the benchmark script
def _bench():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_aggregate.py"
    spec = importlib.util.spec_from_file_location("bench_aggregate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_aggregate_benchmark_runs_at_a_tiny_size(tmp_path):
    # No timing assertions (speed is measured only by the script); it must run and be exact.
    bench = _bench()
    tied = bench.write_parquet(tmp_path / "tied.parquet", 3000, kind="tied", chunk=1000)
    cont = bench.write_parquet(tmp_path / "cont.parquet", 3000, kind="continuous", chunk=1000)
    for path in (tied, cont):
        r = bench.bench_ratio(path, repeats=1)
        assert r["exact"] and r["rows"] == 3000 and r["ratio"] > 0
    big = bench.bench_big(tied, decimals=3)
    assert big["rows"] == 3000 and big["peak_rss_mb"] > 0 and 0 < big["bound"] < 0.5
    assert [row["rows"] for row in bench.bench_scaling({3000: tied}, repeats=1)] == [3000]
    plans = bench.bench_plans(cont, repeats=1)
    assert [row["decimals"] for row in plans] == [None, 7, 6, 5]
    assert plans[0]["distinct_share"] == 1.0 and plans[-1]["distinct_share"] < 1.0
