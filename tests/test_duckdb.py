"""cw.from_duckdb on generated Parquet/CSV files, relations and tables: exact, and bounded when rounded."""

import glob as globbing
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import costwidget as cw
from costwidget.model.rounding import merge_bound

duckdb = pytest.importorskip("duckdb", reason="the duckdb extra is not installed")
pytest.importorskip("pyarrow", reason="the duckdb extra is not installed")

N = 6000


def _frame(seed=0, n=N):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    model = rng.choice(["forest", "logit"], n)
    # Four decimals: many ties, as score tables often store them.
    s = np.round(rng.random(n) * 0.7 + 0.3 * y + 0.1 * (model == "forest") * y, 4)
    return pd.DataFrame({"score": s, "label": np.where(y, "fraud", "ok"), "model": model,
                         "fold": rng.integers(0, 4, n), "row": np.arange(n)})


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
        "list": (sorted(globbing.glob(glob)), {"model": "model"}),
        "csv": (str(csv), {}),
        "relation": (con.table("scored"), {}),
        "table": ("scored", {"connection": con}),
    }
    for kind, (source, extra) in sources.items():
        got = cw.from_duckdb(source, pos_label="fraud", **extra)
        clf = got["logit"] if kind == "list" else got["score"]
        _assert_same(clf, ref)


@pytest.mark.parametrize("labels, pos", [((0, 1), 1), ((-1, 1), 1), ((False, True), True)])
def test_default_positive_label_for_numeric_and_bool_labels(labels, pos):
    rng = np.random.default_rng(1)
    y = rng.random(300) < 0.4
    s = np.round(rng.random(300) + 0.2 * y, 2)
    lab = np.where(y, labels[1], labels[0])
    got = cw.from_duckdb(duckdb.connect().from_df(pd.DataFrame({"score": s, "label": lab})))
    assert got["score"].pos_label == pos
    _assert_same(got["score"], cw.Classifier.from_scores(y, s))


def test_float32_and_integer_scores_are_read_exactly():
    rng = np.random.default_rng(2)
    y = rng.random(500) < 0.5
    s32 = (rng.random(500) + 0.3 * y).astype(np.float32)
    frame = pd.DataFrame({"a": s32, "b": (s32 * 100).astype(np.int64), "label": y.astype(int)})
    rel = duckdb.connect().from_df(frame)
    _assert_same(cw.from_duckdb(rel, score="a")["a"], cw.Classifier.from_scores(y, s32))
    _assert_same(cw.from_duckdb(rel, score="b")["b"], cw.Classifier.from_scores(y, frame["b"]))


# ---------------------------------------------------------------------- rounding
def _groups(s, decimals):
    """Group keys computed in numpy, independently of the SQL: floor(s·10^d + 1/2)."""
    return np.floor(s * 10.0 ** decimals + 0.5)


def _check_bound(y, s, decimals):
    rel = duckdb.connect().from_df(pd.DataFrame({"score": s, "label": y.astype(np.int8)}))
    rounded = cw.from_duckdb(rel, decimals=decimals)["score"]
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
    x = np.unique(np.concatenate((exact.envelope["pcf"], rounded.envelope["pcf"],
                                  np.linspace(0, 1, 257))))
    diff = rounded.nec(x) - exact.nec(x)
    eps = merge_bound(merged["p"], merged["n"], y.sum(), (~y).sum(), pcf=x)
    assert diff.min() >= -1e-12
    assert np.all(diff <= eps + 1e-12)
    assert diff.max() <= bound + 1e-12
    return diff.max(), bound


@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([0, 1, 2]), st.integers(20, 400),
       st.floats(0.0, 2.0))
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
    rel = duckdb.connect().from_df(pd.DataFrame({"score": [0.41, 0.42, 0.38, 0.39],
                                                 "label": [1, 1, 0, 0]}))
    clf = cw.from_duckdb(rel, decimals=0)["score"]
    assert clf.envelope_error_bound == 0.5
    assert clf.nec(0.5) == 0.5
    assert cw.from_duckdb(rel)["score"].nec(0.5) == 0.0
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
    rel = duckdb.connect().from_df(pd.DataFrame({"score": [0.41, 0.42, 0.38, 0.39, 0.9, 0.1],
                                                 "label": [1, 1, 0, 0, 1, 0]}))
    clf = cw.from_duckdb(rel, decimals=1)["score"]
    assert clf.band(threshold=0.38, grid=3)["nec"].notna().all()  # a group's own threshold
    with pytest.raises(ValueError, match="falls inside a group of rounded scores"):
        clf.band(threshold=0.40, grid=3)


# ---------------------------------------------------------------------- errors
def _rel(**columns):
    return duckdb.connect().from_df(pd.DataFrame(columns))


@pytest.mark.parametrize("kwargs, message", [
    ({"score": "p"}, r"no column score='p'; its columns are \['score', 'label', 'model'\]"),
    ({"label": "y"}, "no column label='y'"),
    ({"model": "clf"}, "no column model='clf'"),
    ({"fold": "cv"}, "no column fold='cv'"),
    ({"model": "score"}, "must name different columns"),
    ({"score": "model"}, "Column 'model' \\(score=\\) has type VARCHAR; scores must be numbers"),
    ({"decimals": 2.5}, "decimals must be None"),
    ({"decimals": 99}, "decimals must be None"),
])
def test_column_and_argument_errors_name_the_column(kwargs, message):
    rel = _rel(score=[0.1, 0.2], label=[0, 1], model=["a", "a"])
    with pytest.raises((ValueError, TypeError), match=message):
        cw.from_duckdb(rel, **kwargs)


@pytest.mark.parametrize("columns, kwargs, message", [
    ({"score": [0.1, 0.2, 0.3], "label": ["a", "b", "c"]}, {},
     r"Column 'label' \(label=\) has 3 distinct values \['a', 'b', 'c'\]; a binary classifier"),
    ({"score": [0.1, 0.2], "label": ["a", "b"]}, {}, "pos_label is ambiguous"),
    ({"score": [0.1, 0.2], "label": ["a", "b"]}, {"pos_label": "c"}, "pos_label='c' is not a value"),
    ({"score": [0.1, 0.2], "label": [1, 1]}, {}, "holds only 1: the other class is missing"),
    ({"score": [0.1, np.inf], "label": [0, 1]}, {}, "has 1 infinite value"),
    ({"score": [0.1, None, 0.3], "label": [0, 1, 1]}, {},
     r"Column 'score' \(score=\) has 1 missing \(NULL\)"),
    ({"score": [0.1, 0.2, 0.3], "label": ["a", None, "b"]}, {"pos_label": "a"},
     r"Column 'label' \(label=\) has 1 missing \(NULL\)"),
    ({"score": [0.1, 0.2, 0.3], "label": [0, 1, 1], "m": ["x", "x", "y"]}, {"model": "m"},
     r"Model 'y' \(column 'm'\) has no negative cases"),
    ({"score": [0.1, 0.2, 0.3, 0.4], "label": [0, 1, 0, 0], "cv": [1, 1, 2, 2]}, {"fold": "cv"},
     r"Fold 2 \(column 'cv'\) has no positive cases .* stratified folds"),
    ({"score": [0.1, 0.2, 0.3], "label": [0, 1, 1], "m": ["x", None, "x"]}, {"model": "m"},
     r"Column 'm' \(model=\) has 1 missing \(NULL\)"),
])
def test_malformed_data_is_refused_with_the_column_named(columns, kwargs, message):
    frame = pd.DataFrame(columns)
    with pytest.raises(ValueError, match=message):
        cw.from_duckdb(duckdb.connect().from_df(frame), **kwargs)


def test_nan_scores_are_refused_by_column():
    # pandas NaN reaches DuckDB as NULL, so the NaN is made in SQL (as a Parquet file holds it).
    rel = duckdb.connect().sql("SELECT * FROM (VALUES (0.1, 0), ('NaN'::DOUBLE, 1), "
                               "('NaN'::DOUBLE, 1), (0.3, 1)) AS t(p, label)")
    with pytest.raises(ValueError, match=r"Column 'p' \(score=\) has 2 NaN value\(s\)"):
        cw.from_duckdb(rel, score="p")


def test_an_empty_result_is_refused(parquet_glob):
    glob, _ = parquet_glob
    con = duckdb.connect()
    empty = con.read_parquet(glob).filter("score > 99")
    with pytest.raises(ValueError, match="The relation has no rows"):
        cw.from_duckdb(empty, label="label", pos_label="fraud")


def test_sources_that_cannot_be_read_are_refused(tmp_path):
    with pytest.raises(ValueError, match="pass connection= to read a table"):
        cw.from_duckdb("scored")
    with pytest.raises(ValueError, match="has no table or view 'nope'"):
        cw.from_duckdb("nope", connection=duckdb.connect())
    with pytest.raises(ValueError, match="DuckDB could not read"):
        cw.from_duckdb(str(tmp_path / "missing-*.parquet"))
    with pytest.raises(TypeError, match="source must be a path"):
        cw.from_duckdb(42)


def test_column_names_are_quoted_not_spliced_into_sql():
    frame = pd.DataFrame({'odd "name"; DROP TABLE x; --': [0.1, 0.9], "label": [0, 1]})
    got = cw.from_duckdb(duckdb.connect().from_df(frame), score='odd "name"; DROP TABLE x; --')
    assert got['odd "name"; DROP TABLE x; --'].nec(0.5) == 0.0


def test_a_missing_engine_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "duckdb", None)  # import duckdb now raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'costwidget\[duckdb\]'"):
        cw.from_duckdb("x.parquet")


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
