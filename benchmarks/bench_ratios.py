"""The speed budgets of the core, the cost on new data and long fits, each next to its peer.

Run::

    python benchmarks/bench_ratios.py            # about 2 min on a loaded 2-core machine
    python benchmarks/bench_ratios.py --quick    # smaller sizes, a few seconds

Every figure is a ratio (or a time) measured in this one process: the subject and its peer are
timed in turn, ``--repeats`` times each, and the minimum of each is kept, the figure least
disturbed by other work on the machine. Wall time and CPU time (all threads of this process)
are both given, with the load average before and after, because on a shared machine the wall
time of the two-thread kernels depends on what else runs.

1. **Core**: ``Classifier.from_scores(y, s).envelope`` (ROC points, hull, envelope) at 10^6
   cases against ``np.sort(s)``. Budget 1.25x.
2. **Cost on new data**: ``cw.honest_cost(clf)`` with its defaults (5 splits x 10 repeats,
   every breakpoint) at 2 x 10^5 cases without folds, against ``np.argsort(s)``. Budget 25x.
3. **The widget's honest layer**: 5 classifiers x 2 x 10^5 cases without folds, from
   ``w.show_honest = True`` until every curve is drawn (budget: about 1 s), and a p(+) move
   made meanwhile (the controls stay live: the curves compute on a worker thread).
4. **Long fits**: ``CostWidget.from_estimators`` (gradient boosting, cv=5) with ``n_jobs=2``
   against ``n_jobs=1``, and whether the scores are identical.

The kernel's hot path (a p(+) change in a widget) is measured by ``bench_widget.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

import costwidget as cw


def timed(funcs: dict, repeats: int, clock=time.perf_counter) -> dict:
    """Minimum time of each function, the functions called in turn ``repeats`` times."""
    best = dict.fromkeys(funcs, float("inf"))
    for _ in range(repeats):
        for name, func in funcs.items():
            start = clock()
            func()
            best[name] = min(best[name], clock() - start)
    return best


def both_clocks(funcs: dict, repeats: int) -> dict:
    wall = timed(funcs, repeats)
    cpu = timed(funcs, repeats, time.process_time)
    return {f"{name}_{kind}_s": t[name] for kind, t in (("wall", wall), ("cpu", cpu)) for name in t}


def binormal(n: int, sep: float = 1.0, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, rng.normal(size=n) + sep * y


def bench_core(n: int, repeats: int) -> dict:
    y, s = binormal(n)
    t = both_clocks(
        {"core": lambda: cw.Classifier.from_scores(y, s).envelope, "sort": lambda: np.sort(s)},
        repeats,
    )
    return {
        "n": n,
        **t,
        "ratio_wall": t["core_wall_s"] / t["sort_wall_s"],
        "ratio_cpu": t["core_cpu_s"] / t["sort_cpu_s"],
    }


def bench_honest(n: int, repeats: int) -> dict:
    y, s = binormal(n)
    clf = cw.Classifier.from_scores(y, s)
    t = both_clocks(
        {
            "honest": lambda: cw.honest_cost(clf, random_state=0),
            "argsort": lambda: np.argsort(s),
        },
        repeats,
    )
    return {
        "n": n,
        **t,
        "ratio_wall": t["honest_wall_s"] / t["argsort_wall_s"],
        "ratio_cpu": t["honest_cpu_s"] / t["argsort_cpu_s"],
    }


def bench_widget_honest(n: int, repeats: int) -> dict | None:
    """Seconds until the honest curves of five classifiers without folds are drawn."""
    try:
        from costwidget import CostWidget
    except ImportError:  # no widget extras
        return None
    rng = np.random.default_rng(1)
    y = rng.random(n) < 0.3
    clfs = [
        cw.Classifier.from_scores(y, rng.normal(size=n) + (0.6 + 0.2 * i) * y, name=f"m{i}")
        for i in range(5)
    ]
    runs = []
    for _ in range(repeats):
        w = CostWidget(clfs)
        start = time.perf_counter()
        w.show_honest = True
        moved = time.perf_counter()
        w.p_pos = 0.31  # a slider move while the curves compute
        move = time.perf_counter() - moved
        busy = w.busy
        w.wait(timeout=600)
        took = time.perf_counter() - start
        if set(w.drawn_honest) != {c.name for c in clfs}:
            raise AssertionError("not every honest curve was drawn")
        idle = time.perf_counter()
        w.p_pos = 0.29
        idle = time.perf_counter() - idle
        w.close()
        runs.append((took, move, busy, idle))
    return {
        "n": n,
        "classifiers": len(clfs),
        "drawn_s": min(r[0] for r in runs),
        "move_while_busy_s": min(r[1] for r in runs),
        "busy_during_move": all(r[2] for r in runs),
        "move_idle_s": min(r[3] for r in runs),
    }


def bench_fits(n: int) -> dict | None:
    """``from_estimators`` with n_jobs=2 against n_jobs=1, and the scores of both.

    One run each (fits are long). n_jobs=2 runs twice: joblib's worker processes start (and
    import scikit-learn) on the first run and are reused on the second.
    """
    try:
        from sklearn.ensemble import GradientBoostingClassifier
    except ImportError:
        return None
    rng = np.random.default_rng(2)
    X = rng.normal(size=(n, 10))
    y = (X[:, 0] - X[:, 1] + rng.normal(size=n) > 0).astype(int)
    # One thread per fit (the histogram booster's OpenMP threads would compete with joblib's).
    models = {"gb": GradientBoostingClassifier(n_estimators=40, subsample=0.8, random_state=0)}
    out, scores = {"n": n}, {}
    for key, jobs in (("n_jobs_1", 1), ("n_jobs_2_cold", 2), ("n_jobs_2_warm", 2)):
        start = time.perf_counter()
        clfs = cw.model.classifiers_from_estimators(models, X, y, cv=5, n_jobs=jobs, progress=False)
        out[f"{key}_s"] = time.perf_counter() - start
        scores[key] = clfs["gb"].sample.scores
    out["ratio_warm"] = out["n_jobs_2_warm_s"] / out["n_jobs_1_s"]
    out["identical_scores"] = all(np.array_equal(scores["n_jobs_1"], v) for v in scores.values())
    return out


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", help="save every figure here")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1
    load_before = os.getloadavg()
    out = {
        "core": bench_core(10**6 // scale, args.repeats),
        "honest": bench_honest(200_000 // scale, max(3, args.repeats // 2)),
        "widget_honest": bench_widget_honest(200_000 // scale, 3),
        "fits": bench_fits(4000 // scale),
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "cpus": os.cpu_count(),
        "numpy": np.__version__,
        "python": sys.version.split()[0],
    }
    c, h, w, f = out["core"], out["honest"], out["widget_honest"], out["fits"]
    print(
        f"load average before {load_before[0]:.1f}, after {out['load_average_after'][0]:.1f} "
        f"({out['cpus']} CPUs)"
    )
    print(
        f"core, {c['n']:.0e} cases: ROC+hull+envelope {c['core_wall_s'] * 1e3:.1f} ms vs "
        f"np.sort {c['sort_wall_s'] * 1e3:.1f} ms = {c['ratio_wall']:.2f}x wall, "
        f"{c['ratio_cpu']:.2f}x CPU (budget 1.25x)"
    )
    print(
        f"honest_cost, {h['n']:.0e} cases, 5 x 10: {h['honest_wall_s'] * 1e3:.0f} ms vs "
        f"np.argsort {h['argsort_wall_s'] * 1e3:.1f} ms = {h['ratio_wall']:.1f}x wall, "
        f"{h['ratio_cpu']:.1f}x CPU (budget 25x)"
    )
    if w:
        print(
            f"widget honest layer, {w['classifiers']} x {w['n']:.0e}: drawn in "
            f"{w['drawn_s']:.2f} s (budget about 1 s); a p(+) move meanwhile "
            f"{w['move_while_busy_s'] * 1e3:.1f} ms (idle {w['move_idle_s'] * 1e3:.1f} ms), "
            f"busy sign on: {w['busy_during_move']}"
        )
    if f:
        print(
            f"from_estimators, gradient boosting, {f['n']} rows, cv=5: n_jobs=2 "
            f"{f['n_jobs_2_warm_s']:.2f} s (workers started: {f['n_jobs_2_cold_s']:.2f} s the "
            f"first time) vs n_jobs=1 {f['n_jobs_1_s']:.2f} s = {f['ratio_warm']:.2f}x; "
            f"identical scores: {f['identical_scores']}"
        )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return out


if __name__ == "__main__":
    main()
