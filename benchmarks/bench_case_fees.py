"""A fee widget's move: the time one multiplier or p(+) move takes, as a ratio to ``np.sort``.

Run ``python benchmarks/bench_case_fees.py`` (10 classifiers × 10^5 cases; under a minute).
A widget over classifiers with per-case costs whose cases change sides (fraud: a miss costs the
amount, reviewing any flagged case a fee, ``cost_tp = cost_fp = fee``) makes its cost-weighted
twins again at every move of ``cost_fn``, ``cost_fp`` or p(+), and redraws every view from them
(``costwidget/widget/state/per_case_costs.py``). Timed in the same run, in turn:

* ``move``: ``w.cost_fn = m`` (or ``w.cost_fp``, ``w.p_pos``), each to a value not shown before
  (no cached twin), through the widget's whole update path: the twins (each classifier's scores
  sorted once, at construction: a move is O(n) per classifier), their drawings, the decision,
  the headline, the readout and every pane;
* ``sort``: ``np.sort`` of 10^5 floats (fresh random ones each time), the peer.

The figure is the median move over the median sort; the medians of p(+) moves and of
``cost_fp`` moves are given too, and the widget's construction once.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

import costwidget as cw


def data(n: int, k: int, seed: int = 0):
    """Labels (5 % fraud), ``k`` classifiers' scores, lognormal amounts and a fee of 5: many
    frauds are below the fee (cheaper missed than reviewed), so cases change sides."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.05).astype(int)
    amount = np.round(rng.lognormal(3.0, 1.4, n), 2)
    scores = {f"m{i}": rng.normal(size=n) + (0.6 + 0.15 * i) * y for i in range(k)}
    return y, scores, amount, 5.0


def bench(n: int = 10**5, k: int = 10, moves: int = 15) -> dict:
    y, scores, amount, fee = data(n, k)
    start = time.perf_counter()
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=fee, cost_tp=fee)
    built = time.perf_counter() - start
    rng = np.random.default_rng(1)
    # Values never repeated: every move makes new twins (a cached pair would time nothing).
    plans = {
        "cost_fn": rng.permutation(np.linspace(0.4, 3.0, moves)),
        "cost_fp": rng.permutation(np.linspace(0.5, 2.5, moves)),
        "p_pos": rng.permutation(np.linspace(0.02, 0.3, moves)),
    }
    times = {name: [] for name in plans}
    sorts = []
    for i in range(moves):
        for name, values in plans.items():
            start = time.perf_counter()
            setattr(w, name, float(values[i]))
            times[name].append(time.perf_counter() - start)
            peer = rng.random(n)
            start = time.perf_counter()
            np.sort(peer)
            sorts.append(time.perf_counter() - start)
    assert w.errors.last_error is None, w.errors.last_error
    w.close()
    sort = statistics.median(sorts)
    out = {"n": n, "classifiers": k, "moves": moves, "build_s": built, "np_sort_s": sort}
    for name, ts in times.items():
        out[f"{name}_move_s"] = statistics.median(ts)
        out[f"{name}_move_to_np_sort"] = statistics.median(ts) / sort
    return out


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**5)
    parser.add_argument("--classifiers", type=int, default=10)
    parser.add_argument("--moves", type=int, default=15)
    args = parser.parse_args(argv)
    r = bench(args.n, args.classifiers, args.moves)
    print(
        f"fee widget, {r['classifiers']} classifiers x {r['n']:.0e} cases (built in "
        f"{r['build_s']:.2f} s); np.sort of {r['n']:.0e} floats {r['np_sort_s'] * 1e3:.2f} ms"
    )
    for name in ("cost_fn", "cost_fp", "p_pos"):
        print(
            f"  a {name} move: {r[f'{name}_move_s'] * 1e3:.0f} ms median = "
            f"{r[f'{name}_move_to_np_sort']:.0f}x np.sort"
        )
    print(json.dumps(r))
    return r


if __name__ == "__main__":
    main()
