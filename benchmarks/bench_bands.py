"""Speed of the confidence bands, with peers measured in the same run.

Run:  python benchmarks/bench_bands.py            (full sizes, about a minute)
      python benchmarks/bench_bands.py --quick    (small sizes, a smoke test)

Prints, for each task, the time, the target from the issue, and ratios against
a peer in the same run: ``numpy.sort`` of the same scores, and a pROC-style
naive loop (resample the indices, re-sort, recompute the curve per replicate).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import costwidget as cw


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def binormal(n, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, rng.normal(y * 1.0, 1.0)


def naive_envelope_replicate(y, s, grid, rng, pos, neg):
    """One pROC-style replicate: resample per class, re-sort, recompute ROC and envelope."""
    idx = np.concatenate([rng.choice(pos, len(pos)), rng.choice(neg, len(neg))])
    return cw.Classifier.from_scores(y[idx], s[idx]).nec(grid)


def bench_envelope(n, n_boot, grid, naive_reps):
    y, s = binormal(n)
    clf = cw.Classifier.from_scores(y, s)
    t_sort = best_of(lambda: np.sort(s))
    t = time.perf_counter()
    band = clf.band(0.90, n_boot=n_boot, grid=grid, random_state=0)
    t_band = time.perf_counter() - t
    t_level = best_of(lambda: clf.band(0.95, n_boot=n_boot, grid=grid, random_state=0), 5)
    x = np.linspace(0, 1, grid)
    rng = np.random.default_rng(1)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    t = time.perf_counter()
    for _ in range(naive_reps):
        naive_envelope_replicate(y, s, x, rng, pos, neg)
    t_naive = (time.perf_counter() - t) / naive_reps * n_boot
    bound = band.attrs["coarsening_bound"]
    return t_sort, t_band, t_level, t_naive, bound


def main(quick: bool):
    grid, n_boot = 512, 1000
    sizes = [(10 ** 4, 2.0), (10 ** 5, 2.0)] if quick else [(10 ** 5, 2.0), (10 ** 6, 10.0)]
    print(f"Envelope band: B = {n_boot}, {grid} pcf values, stratified bootstrap, binormal scores")
    for n, target in sizes:
        t_sort, t_band, t_level, t_naive, bound = bench_envelope(n, n_boot, grid, 3 if quick else 5)
        print(f"  n = {n:>9,}: {t_band:6.2f} s (target <= {target:.0f} s) = {t_band / t_sort:7.1f} x "
              f"numpy.sort of the scores ({t_sort * 1e3:.1f} ms)")
        print(f"               coarsening bound {bound:.5f} NEC (target <= 0.002)")
        print(f"               level change (cached replicates): {t_level * 1e3:.2f} ms (target <= 50 ms)")
        print(f"               pROC-style naive loop, extrapolated to B = {n_boot}: {t_naive:7.1f} s "
              f"({t_naive / t_band:.0f} x slower)")

    print("\nExact fixed-classifier band (no Monte Carlo):")
    n_pos = n_neg = 10 ** 3 if quick else 10 ** 4
    def fixed():
        return cw.Classifier.from_confusion(tp=int(0.8 * n_pos), fn=n_pos - int(0.8 * n_pos),
                                            fp=int(0.4 * n_neg), tn=n_neg - int(0.4 * n_neg))

    t_exact = best_of(lambda: fixed().band(0.90, grid=grid))
    t_mc = best_of(lambda: fixed().band(0.90, grid=grid, method="bootstrap", n_boot=n_boot,
                                        random_state=0))
    exact = fixed().band(0.90, grid=grid)
    mc = fixed().band(0.90, grid=grid, method="bootstrap", n_boot=20000, random_state=0)
    gap = float(np.max(np.abs(np.r_[exact.lower - mc.lower, exact.upper - mc.upper])))
    print(f"  {n_pos} x {n_neg} support, {grid} pcf values: {t_exact:.3f} s (target <= 1 s); "
          f"Monte Carlo B = {n_boot}: {t_mc:.3f} s; exact vs Monte Carlo (B = 20000) max gap {gap:.4f}")

    print("\nPaired difference band (joint resampling of instances):")
    n = 10 ** 4 if quick else 10 ** 5
    rng = np.random.default_rng(3)
    y = rng.random(n) < 0.3
    common = rng.normal(size=n)
    a = cw.Classifier.from_scores(y, y * 1.0 + common + 0.5 * rng.normal(size=n))
    b = cw.Classifier.from_scores(y, y * 1.2 + common + 0.5 * rng.normal(size=n))
    t = time.perf_counter()
    d = cw.difference_band(a, b, n_boot=n_boot, grid=grid, random_state=0)
    t_pair = time.perf_counter() - t
    print(f"  n = {n:,}, B = {n_boot}: {t_pair:.2f} s (no target); coarsening bound "
          f"{d.attrs['coarsening_bound']:.5f}; significant at {int(d.significant.sum())} of {grid} "
          f"pcf values")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    main(parser.parse_args().quick)
