"""The kernel's hot path: one `cw.decide` over 10 classifiers of 10^5 scores, as a p(+) move asks.

Every view of the widget reads the one decision, so its time is paid at every move of a slider,
in scripts and sweeps as in the widget. Printed as the median over p(+) values and as a ratio to
one ``numpy.sort`` of 10^5 floats measured in the same run (the machine may be busy).

Run: ``.venv/bin/python benchmarks/bench_decide.py``
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import costwidget as cw


def main(n_classifiers: int = 10, n_scores: int = 100_000, moves: int = 60) -> None:
    rng = np.random.default_rng(0)
    y = rng.random(n_scores) < 0.3
    clfs = [
        cw.Classifier.from_scores(y, y * (0.5 + 0.1 * k) + rng.normal(size=n_scores), name=f"m{k}")
        for k in range(n_classifiers)
    ]
    cw.decide(clfs, p_pos=0.3)  # first use builds what is cached
    times = []
    for p in np.linspace(0.2, 0.6, moves):
        t = time.perf_counter()
        cw.decide(clfs, p_pos=float(p), cost_fn=2.0, cost_fp=1.0)
        times.append(time.perf_counter() - t)
    x = rng.random(n_scores)
    sorts = []
    for _ in range(moves):
        t = time.perf_counter()
        np.sort(x)
        sorts.append(time.perf_counter() - t)
    d, s = statistics.median(times), statistics.median(sorts)
    print(
        f"decide over {n_classifiers} x {n_scores:.0e} scores: median {d * 1e3:.2f} ms "
        f"({d / s:.1f}x one numpy.sort of {n_scores:.0e} floats = {s * 1e3:.2f} ms)"
    )


if __name__ == "__main__":
    main()
