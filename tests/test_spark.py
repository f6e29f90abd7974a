"""cw.from_spark in Spark local mode: one SparkSession for the module, small data.

Skipped, with the reason printed, only where Java or pyspark is missing.
"""

import os
import shutil

import numpy as np
import pandas as pd
import pytest

import costwidget as cw

pyspark = pytest.importorskip("pyspark", reason="the spark extra (pyspark) is not installed")
duckdb = pytest.importorskip("duckdb", reason="the duckdb extra is not installed")

pytestmark = [
    pytest.mark.slow,  # a Spark session (a JVM) started
    pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning"),
]


def _java_missing() -> bool:
    java_home = os.environ.get("JAVA_HOME")
    return shutil.which("java") is None and not (java_home and os.path.exists(java_home))


@pytest.fixture(scope="module")
def spark():
    if _java_missing():
        pytest.skip("Spark needs Java (17+): no java on PATH and no JAVA_HOME")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("costwidget-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(0)
    n = 1200
    y = rng.random(n) < 0.3
    model = rng.choice(["forest", "logit"], n)
    s = np.round(rng.random(n) * 0.7 + 0.3 * y + 0.1 * (model == "forest"), 3)
    return pd.DataFrame(
        {
            "score": s,
            "label": np.where(y, "fraud", "ok"),
            "model": model,
            "fold": rng.integers(0, 3, n),
        }
    )


def _assert_same(a, b):
    pd.testing.assert_frame_equal(a.roc, b.roc)
    pd.testing.assert_frame_equal(a.hull, b.hull)
    pd.testing.assert_frame_equal(a.envelope, b.envelope)


def test_exact_counts_equal_from_scores_with_models_and_folds(spark, frame):
    got = cw.from_spark(spark.createDataFrame(frame), model="model", fold="fold", pos_label="fraud")
    ref = cw.Classifier.from_frame(frame, fold="fold", pos_label="fraud")
    assert list(got) == ["forest", "logit"]
    for name, clf in got.items():
        _assert_same(clf, ref[name])
        for k in ref[name].folds:
            _assert_same(clf.folds[k], ref[name].folds[k])
        assert clf.envelope_error_bound == 0.0


def test_rounded_groups_equal_duckdb_exactly(spark, frame):
    got = cw.from_spark(spark.createDataFrame(frame), model="model", pos_label="fraud", decimals=1)
    same = cw.from_duckdb(
        duckdb.connect().from_df(frame), model="model", pos_label="fraud", decimals=1
    )
    for name in same:
        _assert_same(got[name], same[name])
        assert got[name].envelope_error_bound == same[name].envelope_error_bound > 0


def test_malformed_frames_are_refused_with_the_column_named(spark):
    three = spark.createDataFrame(pd.DataFrame({"p": [0.1, 0.2, 0.3], "y": ["a", "b", "c"]}))
    with pytest.raises(
        ValueError, match=r"no column y_score='score'; its columns are \['p', 'y'\]"
    ):
        cw.from_spark(three, y_true="y", model=None)
    with pytest.raises(ValueError, match=r"Column 'y' \(y_true=\) has 3 distinct values"):
        cw.from_spark(three, y_score="p", y_true="y", model=None)
    # pandas NaN becomes NULL in Spark: the NaN is made in Spark SQL, as a Parquet file holds it.
    nan = spark.sql(
        "SELECT * FROM VALUES (0.1D, 0), (CAST('NaN' AS DOUBLE), 1), (0.3D, 1) AS t(p, label)"
    )
    with pytest.raises(ValueError, match=r"Column 'p' \(y_score=\) has 1 NaN"):
        cw.from_spark(nan, y_score="p", model=None)
    with pytest.raises(TypeError, match="pyspark.sql.DataFrame"):
        cw.from_spark(pd.DataFrame({"score": [0.1]}), model=None)


def test_weights_equal_duckdb_and_from_scores(spark, frame):
    weighted = frame.assign(w=np.where(frame["label"] == "fraud", 1.0, 12.5))
    got = cw.from_spark(
        spark.createDataFrame(weighted), model="model", pos_label="fraud", sample_weight="w"
    )
    same = cw.from_duckdb(
        duckdb.connect().from_df(weighted), model="model", pos_label="fraud", sample_weight="w"
    )
    for name in same:
        _assert_same(got[name], same[name])
        part = weighted[weighted["model"] == name]
        _assert_same(
            got[name],
            cw.Classifier.from_scores(
                part["label"], part["score"], pos_label="fraud", sample_weight=part["w"]
            ),
        )
    bad = spark.createDataFrame(weighted.assign(w=np.where(weighted.index == 5, -2.0, 1.0)))
    with pytest.raises(ValueError, match=r"Column 'w' \(sample_weight=\) has negative weights"):
        cw.from_spark(bad, model="model", pos_label="fraud", sample_weight="w")


def test_per_case_costs_are_summed_as_duckdb_sums_them(spark, frame):
    pytest.importorskip("duckdb")
    import duckdb

    rng = np.random.default_rng(5)
    costly = frame.assign(amount=rng.lognormal(3.0, 1.5, len(frame)), fee=2.0)
    costly.loc[7, "amount"] = 0.5  # a fraud cheaper missed than caught counts on the other side
    kwargs = dict(pos_label="fraud", fold=None, cost_fn="amount", cost_fp="fee", cost_tp=2.0)
    got = cw.from_spark(spark.createDataFrame(costly), **kwargs)
    con = duckdb.connect()
    con.register("t", costly)
    want = cw.from_duckdb("t", connection=con, **kwargs)
    for name in want:  # each model scored other cases here: decided one by one
        _assert_same(got[name], want[name])
        assert cw.decide([got[name]]).rule.expected_cost == pytest.approx(
            cw.decide([want[name]]).rule.expected_cost, rel=1e-12
        )
    bad = costly.assign(amount=costly["amount"].where(costly.index != 3, np.nan))
    with pytest.raises(ValueError, match=r"Column 'amount' \(cost_fn=\) has 1 missing"):
        cw.from_spark(spark.createDataFrame(bad), **kwargs)
