"""How sure the headline is (issue 32, item 5): what the runner-up's paired band costs.

Run, on a shared machine, with a low priority::

    nice -n 19 python benchmarks/bench_runner_up.py

Figures:

1. ``cw.runner_up_band`` at a first PCF(+) (the difference view's band over its 512 points,
   1000 replicates, and the replicates again at the point) and at a second PCF(+) (the view's
   band is cached: only the point), on German credit (4 models, 1000 cases) and on two models
   of 10^5 cases.
2. The kernel's own CPU time (``time.thread_time``, steadier than wall time on a loaded
   machine) per p(+) change of a German-credit widget with the difference view on, with the
   band's background requests on and off: the requests must not slow the kernel's answer.
"""

from __future__ import annotations

import time

import numpy as np

import costwidget as cw
from costwidget.datasets import load_demo_scores


def _band_times(clfs, label):
    d = cw.decide(clfs, p_pos=0.3)
    t = time.perf_counter()
    cw.runner_up_band(clfs, d)
    first = time.perf_counter() - t
    d = cw.decide(clfs, p_pos=0.35)
    t = time.perf_counter()
    cw.runner_up_band(clfs, d)
    print(f"{label}: first PCF(+) {first:.2f} s, next PCF(+) {time.perf_counter() - t:.2f} s")


def _kernel_per_move(models, rounds=3, moves=60):
    w = cw.CostWidget([models[k] for k in models], p_pos=0.2)
    w.difference = ["gradient boosting", "random forest"]
    w.wait(120)
    work = w.decision_source.runner_up
    real = work.sync
    out = {"off": [], "on": []}
    for r in range(rounds):
        for mode in ("off", "on"):
            work.sync = (lambda: None) if mode == "off" else real
            c = time.thread_time()
            for i in range(1, moves + 1):
                w.p_pos = 0.2 + 0.003 * i + 1e-4 * r
            out[mode].append(1000 * (time.thread_time() - c) / moves)
            w.wait(120)
    w.close()
    for mode, ms in out.items():
        print(
            f"kernel CPU per p(+) change, band requests {mode}: "
            f"{np.median(ms):.1f} ms (median of {rounds} runs of {moves} moves)"
        )


def main():
    m = cw.Classifier.from_frame(load_demo_scores("german_credit"), instance="row", pos_label="Bad")
    _band_times({k: m[k] for k in m}, "German credit, 4 models x 1000 cases")
    rng = np.random.default_rng(1)
    n = 100_000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    _band_times(
        cw.classifiers_from_predictions(y, {"a": s, "b": s + 0.3 * rng.normal(size=n)}),
        "2 models x 10^5 cases",
    )
    _kernel_per_move(m)


if __name__ == "__main__":
    main()
