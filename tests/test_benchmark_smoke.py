"""The benchmark script runs (at tiny sizes, no timing assertions), and its grid-vs-exact check holds.

Speed is measured only by ``benchmarks/bench_model.py`` itself; see ``benchmarks/README.md``.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow  # the benchmark scripts run, at tiny sizes

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_model.py"
BENCH_BANDS = BENCH.with_name("bench_bands.py")


def _load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():
    return _load(BENCH)


@pytest.fixture(scope="module")
def bench_bands():
    return _load(BENCH_BANDS)


@pytest.mark.parametrize("tied", [False, True])
def test_roc_benchmark_runs(bench, tied):
    r = bench.bench_roc(10**4, tied=tied, repeats=1)
    assert r["roc_points"] > 1 and r["hull_vertices"] >= 2
    assert r["ratio_to_sklearn"] > 0 and r["ratio_to_argsort"] > 0


def test_query_benchmark_runs(bench):
    r = bench.bench_queries(n_vertices=1000, n_pcf=100, repeats=1)
    assert r["nec_s"] > 0 and r["best_s"] > 0


def test_memory_benchmark_runs(bench):
    r = bench.peak_memory(10**4)
    assert r["call_peak_mb"] > 0 and r["process_peak_mb"] > 0


def test_grid_never_beats_the_exact_envelope_on_real_scores(bench):
    # The grid tries only some thresholds, so its minimum NEC can never be below the
    # envelope's; anything more than rounding would mean the envelope is not the minimum.
    rows = bench.bench_grid_vs_exact("german_credit", repeats=1)
    assert len(rows) == 4
    for r in rows:
        assert r["exact_minus_grid"] <= 1e-15, r
        assert r["grid_minus_exact"] >= 0.0


def test_grid_rates_by_search_equal_the_thesis_classification(bench):
    rng = np.random.default_rng(0)
    y = rng.random(500) < 0.4
    s = np.round(rng.random(500), 2)
    t = np.linspace(0.0, 1.0, 101)
    for got, want in zip(
        bench.grid_rates(y, s, t, method="search"), bench.grid_rates(y, s, t, method="classify")
    ):
        np.testing.assert_array_equal(got, want)


def test_main_runs_at_tiny_size(bench, capsys):
    bench.main(["--sizes", "10000", "--repeats", "1"])
    out = capsys.readouterr().out
    assert "roc_curve" in out and "max(exact - grid)" in out


def test_band_benchmarks_run_at_tiny_size(bench_bands, capsys):
    r = bench_bands.main(["--sizes", "3000", "--repeats", "1", "--n-boot", "50"])
    diff = r["difference"][0]
    # timings are the benchmark's business; only the documented accuracy bound is checked
    assert 0.0 <= diff["coarsening_bound"] <= 0.002
    out = capsys.readouterr().out
    assert "numpy.sort" in out and "roc_curve" in out and "floor" in out


def test_honest_cost_benchmark_runs(tmp_path):
    # Issue 32: the known-truth simulation, the speed figures and the figure, at tiny sizes.
    honest = _load(BENCH.with_name("bench_honest_cost.py"))
    r = honest.simulate(80, 1.0, reps=4, seed=1)
    assert r["reps"] == 4 and len(r["envelope_bias"]) == len(honest.PCF)
    speed = honest.bench_speed(n=3000, repeats=1)
    assert speed["honest_s"] > 0 and speed["widget_s"] > 0
    honest.figure([r], str(tmp_path / "sim.png"))
    assert (tmp_path / "sim.png").stat().st_size > 1000
