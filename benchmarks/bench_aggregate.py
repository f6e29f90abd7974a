"""Cost curves from aggregated counts (DuckDB, Spark), as ratios against pandas + sklearn in the same run.

Run, on a shared machine, with a low priority and the data outside the repo::

    nice -n 19 python benchmarks/bench_aggregate.py --data-dir /tmp/cw_bench          # all, ~30 min
    nice -n 19 python benchmarks/bench_aggregate.py --data-dir /tmp/cw_bench --quick  # 10^6 only

Figures (see ``benchmarks/README.md``):

1. 10^7 rows in Parquet, scores with 4 decimals (about 10^4 distinct values):
   ``cw.from_duckdb(path, model=None)`` + the envelope, against ``pandas.read_parquet`` of the
   same two columns + ``sklearn.metrics.roc_curve``. Exactness is checked
   against ``Classifier.from_scores`` on the same rows.
2. The same with continuous float64 scores (every score distinct), with where
   the time goes: the distinct-score estimate, the query of the plan it picks
   (DuckDB sorts instead of grouping there) into Arrow, and the model (counts,
   hull, envelope); the other plan's query is timed too. CPU times (every
   thread) are reported beside wall times: on a loaded machine they are the
   steadier ratio. Then both plans' CPU on the continuous scores and on them
   rounded to 7, 6 and 5 decimals: where grouping stops paying (``SORT_SHARE``).
3. 10^8 rows: time and peak RSS of a fresh process, exact and with
   ``decimals=3`` (with the proved bound it reports).
4. Spark local mode on 10^7 rows: time, and equality with DuckDB's result.
5. Scaling: DuckDB exact on 10^6, 10^7, 10^8 rows.

The data is generated seeded and written in chunks of 10^7 rows (never all in
memory). Large files are deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

CHUNK = 10**7


def min_time(func, repeats: int) -> tuple[float, object]:
    """Smallest wall time of ``repeats`` calls, and the last result."""
    best, out = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        out = func()
        best = min(best, time.perf_counter() - start)
    return best, out


def min_cpu(func, repeats: int) -> float:
    """Smallest CPU time (every thread of this process: DuckDB's too) of ``repeats`` calls.
    On a loaded machine CPU time is the steadier figure: wall time waits for a free core."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        func()
        best = min(best, time.process_time() - start)
    return best


def write_parquet(
    path: Path, n: int, *, kind: str, models=("score",), seed: int = 0, chunk: int = CHUNK
) -> Path:
    """Seeded labels (30 % positive) and scores, written ``chunk`` rows at a time.

    ``kind="tied"``: scores with 4 decimals (about 10^4 distinct values);
    ``"continuous"``: float64, every score distinct. With several ``models``
    the file is long: a ``model`` column, ``n`` rows in all.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".partial")
    rng = np.random.default_rng(seed)
    writer = None
    try:
        done = 0
        while done < n:
            m = min(chunk, n - done)
            y = rng.random(m) < 0.3
            k = rng.integers(0, len(models), m) if len(models) > 1 else np.zeros(m, np.int64)
            # Models differ in how far they separate the classes.
            s = rng.random(m) * 0.7 + (0.15 + 0.1 * k) * y
            if kind == "tied":
                s = np.round(s, 4)
            cols = {"score": pa.array(s), "label": pa.array(y.astype(np.int8))}
            if len(models) > 1:
                cols["model"] = pa.DictionaryArray.from_arrays(
                    pa.array(k.astype(np.int32)), pa.array(list(models))
                )
            table = pa.table(cols)
            if writer is None:
                writer = pq.ParquetWriter(tmp, table.schema)
            writer.write_table(table, row_group_size=1 << 20)
            done += m
    finally:
        if writer is not None:
            writer.close()
    tmp.rename(path)
    return path


def _same(a, b) -> bool:
    return a.roc.equals(b.roc) and a.hull.equals(b.hull) and a.envelope.equals(b.envelope)


# ---------------------------------------------------------------- 1, 2: ratio to pandas + sklearn
def bench_ratio(path: Path, *, repeats: int = 3, check: bool = True) -> dict:
    """DuckDB + from_counts + envelope against pandas read + roc_curve, on the same file."""
    import duckdb
    import pandas as pd
    from sklearn.metrics import roc_curve

    import costwidget as cw
    from costwidget.sources.duckdb_source import (
        _VIEW,
        aggregate_sql,
        estimate_sql,
        plan,
        sorted_sql,
    )
    from costwidget.sources.grouped import Columns, classifiers_from_groups

    def peer():
        frame = pd.read_parquet(path, columns=["score", "label"])
        return roc_curve(frame["label"].to_numpy(), frame["score"].to_numpy())

    def ours():
        clf = cw.from_duckdb(str(path), model=None)["score"]
        _ = clf.envelope  # computed (and cached) inside the timing
        return clf

    peer_s, _ = min_time(peer, repeats)
    ours_s, clf = min_time(ours, repeats)
    peer_cpu, ours_cpu = min_cpu(peer, repeats), min_cpu(ours, repeats)
    # Where the time goes: the estimate, the query (its plan: group or sort; into Arrow), the
    # model. The other plan's query is timed too, to show what the choice saves.
    cols = Columns(score="score", label="label")
    con = duckdb.connect()

    def rel():
        return con.read_parquet(str(path))

    how = plan(rel(), cols, None)
    estimate_s, _ = min_time(lambda: rel().query(_VIEW, estimate_sql(cols)).fetchall(), repeats)
    queries = {"group": aggregate_sql(cols, None), "sort": sorted_sql(cols)}
    query_s, table = min_time(lambda: rel().query(_VIEW, queries[how]).to_arrow_table(), repeats)
    other = "sort" if how == "group" else "group"
    other_s, _ = min_time(lambda: rel().query(_VIEW, queries[other]).to_arrow_table(), repeats)
    model_s, _ = min_time(lambda: classifiers_from_groups(table, cols)["score"].envelope, repeats)
    out = {
        "rows": int(clf.n_pos + clf.n_neg),
        "distinct_scores": len(clf.roc) - 1,
        "plan": how,
        "result_rows": table.num_rows,
        "peer_s": peer_s,
        "ours_s": ours_s,
        "ratio": ours_s / peer_s,
        "peer_cpu_s": peer_cpu,
        "ours_cpu_s": ours_cpu,
        "cpu_ratio": ours_cpu / peer_cpu,
        "estimate_s": estimate_s,
        "query_s": query_s,
        f"{other}_query_s": other_s,
        "model_s": model_s,
    }
    if check:
        frame = pd.read_parquet(path, columns=["score", "label"])
        ref = cw.Classifier.from_scores(frame["label"].to_numpy(), frame["score"].to_numpy())
        out["exact"] = _same(clf, ref)
        del frame, ref
    return out


# ---------------------------------------------------------------- 2b: the plan's threshold
def bench_plans(path: Path, *, repeats: int = 2) -> list:
    """CPU time of both plans (group, sort) on the continuous file and on copies of it rounded
    to 7, 6 and 5 decimals: where grouping stops paying, which SORT_SHARE encodes."""
    import duckdb

    from costwidget.sources.duckdb_source import _VIEW, aggregate_sql, sorted_sql
    from costwidget.sources.grouped import Columns

    cols = Columns(score="score", label="label")
    con = duckdb.connect()
    rows = []
    for decimals in (None, 7, 6, 5):
        source = path
        if decimals is not None:
            source = path.with_name(f"{path.stem}_round{decimals}.parquet")
            if not source.exists():
                con.sql(
                    f"COPY (SELECT round(score, {decimals}) AS score, label FROM "
                    f"read_parquet('{path}')) TO '{source}' (FORMAT parquet)"
                )
        ((n, distinct),) = con.sql(
            f"SELECT count(*), count(DISTINCT score) FROM read_parquet('{source}')"
        ).fetchall()
        row = {"decimals": decimals, "rows": n, "distinct_share": distinct / n}
        for how, sql in (("group", aggregate_sql(cols, None)), ("sort", sorted_sql(cols))):
            row[f"{how}_cpu_s"] = min_cpu(
                lambda sql=sql, source=source: (
                    con.read_parquet(str(source)).query(_VIEW, sql).to_arrow_table()
                ),
                repeats,
            )
        rows.append(row)
    return rows


# ---------------------------------------------------------------- 3: 10^8 rows, fresh process
def _peak_rss_mb() -> float:
    """This process's peak resident size. VmHWM, not ru_maxrss: Linux keeps ru_maxrss across
    execve, so a child started by a big parent would report the parent's peak."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(path: str, decimals) -> None:
    """Run in a fresh process: time and peak RSS of each step (printed as JSON)."""
    steps = {}
    start = time.perf_counter()
    import duckdb  # noqa: F401

    import costwidget as cw

    steps["import_s"] = time.perf_counter() - start
    t = time.perf_counter()
    clf = cw.from_duckdb(path, decimals=decimals, model=None)["score"]
    steps["from_duckdb_s"] = time.perf_counter() - t
    t = time.perf_counter()
    env = clf.envelope
    steps["envelope_s"] = time.perf_counter() - t
    steps.update(
        rows=int(clf.n_pos + clf.n_neg),
        roc_points=len(clf.roc),
        envelope_breakpoints=len(env),
        bound=clf.envelope_error_bound,
        peak_rss_mb=_peak_rss_mb(),
    )
    print(json.dumps(steps))


def bench_big(path: Path, *, decimals=None) -> dict:
    """Time and peak RSS of ``from_duckdb`` + envelope in a fresh process."""
    arg = "none" if decimals is None else str(decimals)
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path), arg],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- 4: Spark local mode
def bench_spark(path: Path, *, repeats: int = 2) -> dict:
    """``from_spark`` in local mode on the Parquet file; equal to DuckDB's result?"""
    from pyspark.sql import SparkSession

    import costwidget as cw

    t = time.perf_counter()
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("costwidget-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "2g")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    start_s = time.perf_counter() - t
    try:
        df = spark.read.parquet(str(path))
        spark_s, clf = min_time(lambda: cw.from_spark(df, model=None)["score"], repeats)
        duck_s, ref = min_time(lambda: cw.from_duckdb(str(path), model=None)["score"], repeats)
        return {
            "rows": int(clf.n_pos + clf.n_neg),
            "session_start_s": start_s,
            "spark_s": spark_s,
            "duckdb_s": duck_s,
            "equal_to_duckdb": _same(clf, ref),
        }
    finally:
        spark.stop()


# ---------------------------------------------------------------- 5: scaling
def bench_scaling(paths: dict, *, repeats: int = 2) -> list:
    import costwidget as cw

    rows = []
    for n, path in sorted(paths.items()):
        s, _ = min_time(
            lambda path=path: cw.from_duckdb(str(path), model=None)["score"].envelope, repeats
        )
        rows.append({"rows": n, "seconds": s, "ns_per_row": 1e9 * s / n})
    return rows


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default="/tmp/cw_bench")
    parser.add_argument("--quick", action="store_true", help="10^6 rows only, no Spark")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument("--json", help="also write every figure to this file")
    parser.add_argument("--skip", default="", help="comma list of: ratio,plans,big,spark,scaling")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], None if args.child[1] == "none" else int(args.child[1]))
        return {}
    skip = set(filter(None, args.skip.split(",")))
    data = Path(args.data_dir)
    n = 10**6 if args.quick else 10**7
    results = {}
    try:
        tied = write_parquet(data / f"tied_{n}.parquet", n, kind="tied")
        if "ratio" not in skip:
            cont = write_parquet(data / f"continuous_{n}.parquet", n, kind="continuous")
            results["ratio_tied"] = bench_ratio(tied)
            print("4 decimals:", json.dumps(results["ratio_tied"]), flush=True)
            results["ratio_continuous"] = bench_ratio(cont)
            print("continuous:", json.dumps(results["ratio_continuous"]), flush=True)
        if "plans" not in skip:
            cont = write_parquet(data / f"continuous_{n}.parquet", n, kind="continuous")
            results["plans"] = bench_plans(cont)
            print("plans:", json.dumps(results["plans"]), flush=True)
        if "spark" not in skip and not args.quick:
            results["spark"] = bench_spark(tied)
            print("spark:", json.dumps(results["spark"]), flush=True)
        paths = {n: tied}
        if not args.quick and not {"big", "scaling"} <= skip:
            paths[10**6] = write_parquet(data / f"tied_{10**6}.parquet", 10**6, kind="tied")
            big = write_parquet(data / f"tied_{10**8}.parquet", 10**8, kind="tied")
            paths[10**8] = big
            if "big" not in skip:
                results["big_exact"] = bench_big(big)
                print("10^8 exact:", json.dumps(results["big_exact"]), flush=True)
                results["big_decimals3"] = bench_big(big, decimals=3)
                print("10^8 decimals=3:", json.dumps(results["big_decimals3"]), flush=True)
        if "scaling" not in skip:
            results["scaling"] = bench_scaling(paths)
            print("scaling:", json.dumps(results["scaling"]), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(data, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    sys.path.insert(0, os.fspath(Path(__file__).resolve().parent.parent))
    main()
