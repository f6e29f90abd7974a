"""Speed of the confidence bands, as ratios against peers timed in the same run.

Run:  python benchmarks/bench_bands.py            (n = 10^5 and 10^6, a minute or two)
      python benchmarks/bench_bands.py --quick    (n = 10^5 only)
      python benchmarks/bench_bands.py --json out.json

Every band is B = 1000 replicates on a 512-point pcf grid, computed on a fresh
classifier (no cached replicates) after one warm-up band in the process (so
that lazy imports are not timed; they are reported once). Each figure is the
minimum of a few repeats, wall clock and CPU time (all threads) both: the
machine is shared, and CPU time is the steadier of the two. Peers in the same
run: ``numpy.sort`` of the scores and ``sklearn.metrics.roc_curve``. The
"floor" is what any exact bootstrap of this size must at least do: one random
number per (replicate, sampling unit), a cumulative sum over every
replicate's bins, and one multiply-add per (replicate, pcf) for the envelope.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import threading
import time

import numpy as np

import costwidget as cw
from costwidget.model.uncertainty import bands as bands_module
from costwidget.model.uncertainty import paired as paired_module

N_BOOT, GRID = 1000, 512


def best_of(fn, repeats=3):
    """(min wall, min CPU) seconds over ``repeats`` calls of ``fn()``."""
    wall, cpu = float("inf"), float("inf")
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
    return wall, cpu


def binormal(n, seed=0):
    """Labels (30 % positive) and continuous scores N(y, 1): every score distinct."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, rng.normal(y * 1.0, 1.0)


def correlated_pair(n, seed=3):
    """Two scorers sharing a latent score (noise correlation about 0.8)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    common = rng.normal(size=n)
    return (
        y,
        y * 1.0 + common + 0.5 * rng.normal(size=n),
        y * 1.2 + common + 0.5 * rng.normal(size=n),
    )


def peers(y, s, repeats=3):
    from sklearn.metrics import roc_curve

    (sort_s, sort_cpu_s), (roc_s, roc_cpu_s) = (
        best_of(lambda: np.sort(s), repeats),
        best_of(lambda: roc_curve(y, s), repeats),
    )
    return {
        "sort_s": sort_s,
        "sort_cpu_s": sort_cpu_s,
        "roc_curve_s": roc_s,
        "roc_curve_cpu_s": roc_cpu_s,
    }


def floor(n_units, n_bins, n_boot=N_BOOT, grid=GRID, repeats=3, curves=1):
    """CPU time of the floor of an exact bootstrap band of this size.

    One random 16-bit word per (replicate, sampling unit); two cumulative sums
    (TP and FP) over every replicate's bins, per curve; one multiply-add per
    (replicate, pcf) for each curve's envelope; and sorting the (replicate x
    pcf) values once, which any percentile band needs.
    """
    rng = np.random.default_rng(0)
    counts = np.ones((n_boot, n_bins // curves), dtype=np.int64)
    a, b = np.ones((n_boot, grid)), np.ones((n_boot, grid))
    x = np.linspace(0, 1, grid)
    values = np.random.default_rng(1).random((n_boot, grid))
    parts = {
        "random_s": best_of(lambda: rng.bit_generator.random_raw(n_boot * n_units // 4), repeats)[
            1
        ],
        "cumsum_s": 2 * curves * best_of(lambda: np.cumsum(counts, axis=1), repeats)[1],
        "grid_s": curves * best_of(lambda: x * a + (1 - x) * b, repeats)[1],
        "sort_replicates_s": best_of(lambda: np.sort(values, axis=0), repeats)[1],
    }
    parts["floor_s"] = sum(parts.values())
    return parts


def stages(clf, n_boot=N_BOOT, grid=GRID, repeats=3):
    """CPU time of each step of an envelope band (as bands.envelope_replicates runs them)."""
    from costwidget.model.resampling import bootstrap_counts, resample

    x = np.linspace(0, 1, grid)
    counts = clf._counts
    pos_per, neg_per = np.diff(counts.tp), np.diff(counts.fp)
    keep = np.unique(clf.best(x)["threshold"])
    t_bins, bins = _timed(
        lambda: bands_module.envelope_bins(counts.thresholds[1:], pos_per, neg_per, keep), repeats
    )
    per_unit = np.concatenate(
        [np.bincount(bins.bin_of, weights=p, minlength=bins.n_bins) for p in (neg_per, pos_per)]
    ).astype(np.int64)
    unit = np.flatnonzero(per_unit)
    stratum = unit // bins.n_bins
    key = (unit % bins.n_bins) * 2 + stratum
    t_draw, (c,) = _timed(
        lambda: bootstrap_counts.unit_sums(
            stratum, per_unit[unit], [key], [2 * bins.n_bins], n_boot, np.random.default_rng(0)
        ),
        repeats,
    )
    t_env, env = _timed(
        lambda: resample.envelope_values(c[:, 1::2], c[:, 0::2], clf.n_pos, clf.n_neg, x), repeats
    )
    t_sort, _ = _timed(lambda: resample.sorted_columns(env), repeats)
    return {"bins_s": t_bins, "draws_s": t_draw, "envelopes_s": t_env, "sort_s": t_sort}


def _units(clf, x):
    """(sampling units, bins) of an envelope band, as bands.envelope_replicates makes them."""
    counts = clf._counts
    pos_per, neg_per = np.diff(counts.tp), np.diff(counts.fp)
    bins = bands_module.envelope_bins(
        counts.thresholds[1:], pos_per, neg_per, np.unique(clf.best(x)["threshold"])
    )
    units = sum(
        int(np.count_nonzero(np.bincount(bins.bin_of, weights=p, minlength=bins.n_bins)))
        for p in (pos_per, neg_per)
    )
    return units, bins.n_bins


def _timed(fn, repeats):
    out = fn()
    return best_of(fn, repeats)[1], out


def bench_envelope(n, n_boot=N_BOOT, grid=GRID, repeats=3):
    """``Classifier.from_scores(y, s).band(0.9, random_state=0)`` on a fresh classifier."""
    y, s = binormal(n)
    clfs = [cw.Classifier.from_scores(y, s) for _ in range(repeats + 1)]
    it = iter(clfs)
    band = next(it).band(0.9, n_boot=n_boot, grid=grid, random_state=0)
    wall, cpu = best_of(
        lambda: next(it).band(0.9, n_boot=n_boot, grid=grid, random_state=0), repeats
    )
    level_wall, _ = best_of(lambda: clfs[0].band(0.95, n_boot=n_boot, grid=grid, random_state=0), 5)
    units, n_bins = _units(clfs[0], np.linspace(0, 1, grid))
    out = {
        "n": n,
        "band_s": wall,
        "band_cpu_s": cpu,
        "level_change_s": level_wall,
        "coarsening_bound": band.attrs["coarsening_bound"],
        "units": units,
        "bins": n_bins,
    }
    out.update(peers(y, s))
    out.update(floor(units, n_bins, n_boot, grid))
    out["stages"] = stages(clfs[0], n_boot, grid)
    return out


def bench_difference(n, n_boot=N_BOOT, grid=GRID, repeats=3):
    """``cw.difference_band(a, b, 0.9, random_state=0)`` (paired, simultaneous) on fresh pairs."""
    y, sa, sb = correlated_pair(n)
    pairs = [
        (cw.Classifier.from_scores(y, sa), cw.Classifier.from_scores(y, sb))
        for _ in range(repeats + 1)
    ]
    it = iter(pairs)
    d = cw.difference_band(*next(it), 0.9, n_boot=n_boot, grid=grid, random_state=0)
    wall, cpu = best_of(
        lambda: cw.difference_band(*next(it), 0.9, n_boot=n_boot, grid=grid, random_state=0),
        repeats,
    )
    a = pairs[0][0]
    bins_a, bins_b = paired_module._bins(a, None), paired_module._bins(pairs[0][1], None)
    is_pos, _, strata = bands_module.scored_arrays(a)
    units = len(np.unique((strata * bins_a.n_bins + bins_a.bin_of) * bins_b.n_bins + bins_b.bin_of))
    out = {
        "n": n,
        "band_s": wall,
        "band_cpu_s": cpu,
        "coarsening_bound": d.attrs["coarsening_bound"],
        "units": units,
        "bins": bins_a.n_bins + bins_b.n_bins,
        "significant_points": int(d.significant.sum()),
    }
    out.update(peers(y, sa))
    out.update(floor(units, bins_a.n_bins + bins_b.n_bins, n_boot, grid, curves=2))
    return out


def bench_widget_bands(n, k=5, n_boot=N_BOOT, grid=GRID, threads=2):
    """What ``show_bands`` costs for k classifiers of n scores: one after the other, and split
    over ``threads`` worker threads (numpy releases the GIL)."""
    y, _ = binormal(n)
    rng = np.random.default_rng(1)
    scores = [rng.normal(y * (0.6 + 0.2 * i), 1.0) for i in range(k)]

    def run(parallel):
        clfs = [cw.Classifier.from_scores(y, s) for s in scores]
        start = time.perf_counter()
        if not parallel:
            for c in clfs:
                c.band(0.9, n_boot=n_boot, grid=grid, random_state=0)
            return time.perf_counter() - start
        todo = list(clfs)
        lock = threading.Lock()

        def worker():
            while True:
                with lock:
                    if not todo:
                        return
                    c = todo.pop()
                c.band(0.9, n_boot=n_boot, grid=grid, random_state=0)

        pool = [threading.Thread(target=worker) for _ in range(threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        return time.perf_counter() - start

    return {
        "n": n,
        "k": k,
        "sequential_s": min(run(False) for _ in range(2)),
        "threads": threads,
        "threaded_s": min(run(True) for _ in range(2)),
    }


def bench_exact_fixed(n_pos, grid=GRID, n_boot=N_BOOT):
    def fixed():
        return cw.Classifier.from_confusion(
            tp=int(0.8 * n_pos),
            fn=n_pos - int(0.8 * n_pos),
            fp=int(0.4 * n_pos),
            tn=n_pos - int(0.4 * n_pos),
        )

    exact_s, _ = best_of(lambda: fixed().band(0.90, grid=grid))
    mc_s, _ = best_of(
        lambda: fixed().band(0.90, grid=grid, method="bootstrap", n_boot=n_boot, random_state=0)
    )
    return {"n_pos": n_pos, "exact_s": exact_s, "monte_carlo_s": mc_s}


def import_cost():
    """Seconds to import what the first band imports lazily (scipy.sparse), in a fresh process."""
    import subprocess

    code = "import time, costwidget; t = time.perf_counter(); import scipy.sparse; print(time.perf_counter() - t)"
    return float(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
    )


def _print_ratios(n, r):
    print(
        f"   n = {n:>9,}: {_s(r['band_s'])} wall, {_s(r['band_cpu_s'])} CPU = "
        f"{r['band_s'] / r['sort_s']:.0f}x numpy.sort ({r['sort_s'] * 1e3:.1f} ms), "
        f"{r['band_s'] / r['roc_curve_s']:.1f}x roc_curve ({r['roc_curve_s'] * 1e3:.1f} ms); "
        f"CPU time {r['band_cpu_s'] / r['sort_cpu_s']:.0f}x and "
        f"{r['band_cpu_s'] / r['roc_curve_cpu_s']:.1f}x theirs"
    )


def _s(t):
    return f"{t:6.3f} s"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 10^5 only")
    parser.add_argument("--sizes", type=int, nargs="+", help="numbers of scores")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-boot", type=int, default=N_BOOT, help="replicates per band")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE")
    args = parser.parse_args(argv)
    sizes = args.sizes or ([10**5] if args.quick else [10**5, 10**6])
    res = {
        "date": datetime.date.today().isoformat(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "cpus": os.cpu_count(),
        "load": os.getloadavg()[0],
    }
    print(
        "costwidget band benchmarks, {date}: Python {python}, numpy {numpy}, {cpus} CPUs, "
        "load average {load:.1f}".format(**res)
    )
    b = args.n_boot
    print(f"B = {b} replicates, {GRID} pcf values; wall / CPU seconds, min of {args.repeats}")

    print(
        "\n1. Envelope band: clf.band(0.9, random_state=0), binormal continuous scores "
        "(target at 10^5: <= 0.5 s)"
    )
    res["envelope"] = []
    for n in sizes:
        r = bench_envelope(n, n_boot=b, repeats=args.repeats)
        res["envelope"].append(r)
        _print_ratios(n, r)
        print(
            f"                 floor {r['floor_s'] * 1e3:.0f} ms CPU ({r['units']} units, "
            f"{r['bins']} bins): the band is {r['band_cpu_s'] / r['floor_s']:.1f}x the floor; "
            f"coarsening bound {r['coarsening_bound']:.5f}; level change "
            f"{r['level_change_s'] * 1e3:.2f} ms"
        )
        st = r["stages"]
        print(
            "                 CPU by step: "
            + ", ".join(f"{k[:-2]} {v * 1e3:.0f} ms" for k, v in st.items())
            + f"; the rest (best thresholds, held-threshold NEC, bound) "
            f"{(r['band_cpu_s'] - sum(st.values())) * 1e3:.0f} ms"
        )

    print(
        "\n2. Paired difference band: cw.difference_band(a, b, 0.9, random_state=0), "
        "simultaneous (target at 10^5: <= 1 s, bound <= 0.002)"
    )
    res["difference"] = []
    for n in sizes:
        r = bench_difference(n, n_boot=b, repeats=args.repeats)
        res["difference"].append(r)
        _print_ratios(n, r)
        print(
            f"                 floor {r['floor_s'] * 1e3:.0f} ms CPU ({r['units']} joint units, "
            f"{r['bins']} bins): {r['band_cpu_s'] / r['floor_s']:.1f}x the floor; "
            f"coarsening bound {r['coarsening_bound']:.5f}; significant at "
            f"{r['significant_points']} of {GRID} pcf values"
        )

    n = sizes[0]
    print(f"\n3. show_bands: 5 envelope bands of n = {n:,} (target: <= 2 s to the last band)")
    r = bench_widget_bands(n, n_boot=b)
    res["widget"] = r
    print(f"   one after another {_s(r['sequential_s'])}; two worker threads {_s(r['threaded_s'])}")

    print("\n4. Exact fixed-classifier band (no Monte Carlo):")
    r = bench_exact_fixed(10**3 if args.quick or max(sizes) < 10**5 else 10**4, n_boot=b)
    res["exact"] = r
    print(
        f"   {r['n_pos']} x {r['n_pos']} support: exact {_s(r['exact_s'])}; "
        f"Monte Carlo B = {b}: {_s(r['monte_carlo_s'])}"
    )

    res["import_scipy_sparse_s"] = import_cost()
    print(
        f"\nOnce per process, the first band imports scipy.sparse: "
        f"{res['import_scipy_sparse_s']:.2f} s in a fresh process."
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    return res


if __name__ == "__main__":
    main()
