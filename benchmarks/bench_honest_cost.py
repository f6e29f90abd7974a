"""The honest cost (issue 32): its bias against known truth, and its speed against peers.

Run::

    nice -n 19 python benchmarks/bench_honest_cost.py            # about 2 min
    nice -n 19 python benchmarks/bench_honest_cost.py --quick    # about 20 s
    python benchmarks/bench_honest_cost.py --figure docs/user_guide/images/honest_simulation.png

1. **Known truth.** Binormal scores (negatives N(0, 1), positives N(sep, 1)), so the true cost
   of any threshold t is known in closed form: NEC = x Φ(t - sep) + (1 - x) (1 - Φ(t)). Each
   replicate draws n cases, builds the classifier with 5 stratified folds, and compares, at
   PCF(+) 0.05 .. 0.95, the envelope (``clf.nec``) and the honest cost (``cw.honest_cost``)
   with the true cost of the threshold the envelope picks (``clf.best``), i.e. of the
   threshold a user would deploy. Settings of the issue: n = 200, sep = 1, 30 % positives;
   n = 100, sep = 1.2. Also with random splits (no folds, ``n_repeats=10``).
2. **Speed.** 5 classifiers x 10^5 cases with 5 folds: ``cw.honest_cost`` (every breakpoint)
   of all five, as a ratio to peers timed in the same run on the same classifiers:
   ``sklearn.metrics.roc_curve`` of each (one ROC per classifier: the least any method that
   reads the curve does) and ``clf.band()`` (the default 90 % bootstrap band). And the time
   the widget takes to show the honest curves of the five (``w.show_honest = True`` until its
   background work is done), if ipywidgets is installed.

Speed is a figure here, never a timed assertion (``tests/test_benchmark_smoke.py`` runs the
functions at tiny sizes). Every time is the minimum of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from scipy.stats import norm

import costwidget as cw

PCF = np.round(np.linspace(0.05, 0.95, 19), 2)


def stratified_folds(y: np.ndarray, k: int, rng) -> np.ndarray:
    codes = np.empty(len(y), np.int64)
    for members in (np.flatnonzero(y), np.flatnonzero(~y)):
        codes[rng.permutation(members)] = np.arange(len(members)) % k
    return codes


def simulate(
    n: int,
    sep: float,
    *,
    prev: float = 0.3,
    reps: int = 400,
    seed: int = 0,
    folds: bool = True,
    n_repeats: int = 10,
) -> dict:
    """Mean bias (estimate - true cost of the envelope's threshold) at each PCF(+) of ``PCF``."""
    rng = np.random.default_rng(seed)
    env, honest, true = [], [], []
    for _ in range(reps):
        y = rng.random(n) < prev
        if min(y.sum(), (~y).sum()) < 5:
            continue
        s = rng.normal(size=n) + sep * y
        clf = cw.Classifier.from_scores(y, s, folds=stratified_folds(y, 5, rng) if folds else None)
        t = clf.best(PCF)["threshold"].to_numpy()
        cost = PCF * norm.cdf(t - sep) + (1 - PCF) * norm.sf(t)
        got = cw.honest_cost(clf, PCF, n_splits=5, n_repeats=n_repeats, random_state=rng)
        env.append(got["envelope"].to_numpy() - cost)
        honest.append(got["nec"].to_numpy() - cost)
        true.append(cost)
    env, honest, true = (np.asarray(a) for a in (env, honest, true))
    mid = (PCF >= 0.2) & (PCF <= 0.8)
    env_mean, honest_mean = env.mean(0), honest.mean(0)
    return {
        "n": n,
        "sep": sep,
        "prev": prev,
        "reps": len(env),
        "folds": "given" if folds else "random",
        "pcf": PCF.tolist(),
        "envelope_bias": env_mean.tolist(),
        "honest_bias": honest_mean.tolist(),
        "envelope_se": (env.std(0, ddof=1) / np.sqrt(len(env))).tolist(),
        "honest_se": (honest.std(0, ddof=1) / np.sqrt(len(env))).tolist(),
        "true_cost": true.mean(0).tolist(),
        "envelope_bias_0.2_0.8": float(env_mean[mid].mean()),
        "honest_bias_0.2_0.8": float(honest_mean[mid].mean()),
        "removed_0.2_0.8": float(1 - abs(honest_mean[mid].mean()) / abs(env_mean[mid].mean())),
        "envelope_worst_share": float(np.max(-env_mean[mid] / true.mean(0)[mid])),
    }


def min_time(func, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def five_classifiers(n: int, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    folds = stratified_folds(y, 5, rng)
    return {
        f"m{i}": cw.Classifier.from_scores(
            y, rng.normal(size=n) + (0.6 + 0.2 * i) * y, folds=folds, name=f"m{i}"
        )
        for i in range(5)
    }


def bench_speed(n: int = 10**5, repeats: int = 3, widget: bool = True) -> dict:
    from sklearn.metrics import roc_curve

    clfs = five_classifiers(n)
    honest = min_time(lambda: [cw.honest_cost(c) for c in clfs.values()], repeats)
    roc = min_time(
        lambda: [roc_curve(c.sample.is_pos, c.sample.scores) for c in clfs.values()], repeats
    )
    band = min_time(lambda: [c.band(random_state=None) for c in clfs.values()], 1)
    out = {
        "n": n,
        "classifiers": 5,
        "honest_s": honest,
        "roc_curve_s": roc,
        "band_s": band,
        "honest_over_roc_curve": honest / roc,
        "honest_over_band": honest / band,
    }
    if widget:
        out.update(widget_time(clfs, repeats) or {})
    return out


def widget_time(clfs: dict, repeats: int) -> dict | None:
    """Seconds from ``w.show_honest = True`` until every visible classifier's honest curve is
    drawn (on a fresh widget each time: no cache), and the time of a p(+) move made while they
    compute (the sliders stay live: the curves compute on a worker thread)."""
    try:
        from costwidget import CostWidget
    except ImportError:  # no widget extras
        return None

    def once():
        w = CostWidget(list(clfs.values()))
        start = time.perf_counter()
        w.show_honest = True
        moved = time.perf_counter()
        w.p_pos = 0.31  # a slider move while the curves compute
        move = time.perf_counter() - moved
        busy = w.busy
        w.wait(timeout=600)
        took = time.perf_counter() - start
        assert set(w.drawn_honest) == set(clfs), "every classifier's honest curve drawn"
        idle = time.perf_counter()
        w.p_pos = 0.29  # the same move with nothing computing, for comparison
        idle = time.perf_counter() - idle
        w.close()
        return took, move, busy, idle

    runs = [once() for _ in range(repeats)]
    return {
        "widget_s": min(r[0] for r in runs),
        "move_while_busy_s": min(r[1] for r in runs),
        "busy_during_move": all(r[2] for r in runs),
        "move_idle_s": min(r[3] for r in runs),
    }


def figure(results: list, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5.2 * len(results), 3.8), sharey=True)
    for ax, r in zip(np.atleast_1d(axes), results, strict=True):
        x = np.asarray(r["pcf"])
        for key, label, color in (
            ("envelope", "lower envelope (±2 s.e.)", "#444444"),
            ("honest", "honest cost, cw.honest_cost (±2 s.e.)", "#d95f02"),
        ):
            bias, se = np.asarray(r[f"{key}_bias"]), np.asarray(r[f"{key}_se"])
            ax.plot(x, bias, color=color, label=label, lw=2)
            ax.fill_between(x, bias - 2 * se, bias + 2 * se, color=color, alpha=0.2, lw=0)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_title(
            f"binormal, separation {r['sep']}, n = {r['n']}, 30 % positive\n"
            f"{r['reps']} replicates, 5 folds"
        )
        ax.set_xlabel("PCF(+)")
        ax.grid(alpha=0.3)
    np.atleast_1d(axes)[0].set_ylabel("mean NEC minus the true cost\nof the chosen threshold")
    np.atleast_1d(axes)[0].legend(loc="lower left", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer replicates")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--figure", help="save the simulation figure (PNG) here")
    parser.add_argument("--json", help="save every figure here")
    args = parser.parse_args(argv)
    reps = 100 if args.quick else 400
    settings = [(200, 1.0), (100, 1.2)]
    results = [simulate(n, sep, reps=reps, seed=i) for i, (n, sep) in enumerate(settings)]
    random = simulate(200, 1.0, reps=reps // 4, seed=7, folds=False)
    print("Known truth: mean bias at PCF(+) 0.2-0.8 (estimate - true cost of the chosen threshold)")
    for r in [*results, random]:
        print(
            f"  n={r['n']:4d} sep={r['sep']} folds={r['folds']:6s} reps={r['reps']}: "
            f"envelope {r['envelope_bias_0.2_0.8']:+.4f} "
            f"(worst {100 * r['envelope_worst_share']:.0f} % of the true cost), "
            f"honest {r['honest_bias_0.2_0.8']:+.4f}, removed {100 * r['removed_0.2_0.8']:.0f} %"
        )
    speed = bench_speed(repeats=args.repeats)
    print(
        f"Speed, 5 classifiers x 10^5 cases, 5 folds: honest {speed['honest_s']:.3f} s = "
        f"{speed['honest_over_roc_curve']:.1f}x roc_curve ({speed['roc_curve_s']:.3f} s), "
        f"{speed['honest_over_band']:.2f}x band() ({speed['band_s']:.2f} s); "
        f"widget: drawn in {speed.get('widget_s', float('nan')):.3f} s, a p(+) move meanwhile "
        f"{speed.get('move_while_busy_s', float('nan')):.3f} s "
        f"(idle {speed.get('move_idle_s', float('nan')):.3f} s) "
        f"(busy then: {speed.get('busy_during_move')})"
    )
    if args.figure:
        figure(results, args.figure)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"simulation": [*results, random], "speed": speed}, fh, indent=1)


if __name__ == "__main__":
    main()
