"""How often the runner-up verdict tells two classifiers apart, and how often it errs.

The headline's "significantly more than …" reads ``cw.runner_up_band``: the pointwise paired
bootstrap interval of NEC(runner-up) − NEC(chosen) at the decision's PCF(+). This script
measures, by simulation, the share of samples in which that interval excludes 0:

* **false alarms**: both classifiers binormal with the same d′ (their noise correlated ρ), so
  neither is better; any "significantly more" is a false alarm (target at level 0.9: 2–14 %);
* **power**: d′ 1.4 against 1.0, n = 200; the share of samples whose decision deploys the
  better one and says the other costs significantly more (target: at least 30 %).

The old verdict, the difference view's simultaneous band read at the point (its critical
value over 512 grid points), is measured on the same samples for comparison
(``cw.difference_band`` with the PCF(+) added to its grid, critical value of the 512 points).

Data: ``n`` cases, 40 % positives; scores ``d′·y + e`` with ``e`` bivariate normal (unit
variances, correlation ρ) shared by the pair; PCF(+) cycles over 0.3, 0.5, 0.7 (unit costs,
p(+) = PCF(+)). Each sample draws new data; ``random_state`` is the sample's index.

Run, on a shared machine, with a low priority::

    nice -n 19 python benchmarks/bench_runner_up_rates.py              # 120 samples each
    nice -n 19 python benchmarks/bench_runner_up_rates.py --samples 400 --rho 0.0
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import costwidget as cw

PCFS = (0.3, 0.5, 0.7)


def pair(rng, n, d_a, d_b, rho, prevalence=0.4):
    """Two binormal classifiers scored on the same ``n`` cases (one y: paired)."""
    y = np.zeros(n, dtype=bool)
    y[: int(round(prevalence * n))] = True
    e = rng.multivariate_normal([0.0, 0.0], [[1.0, rho], [rho, 1.0]], size=n)
    return cw.classifiers_from_predictions(y, {"a": d_a * y + e[:, 0], "b": d_b * y + e[:, 1]})


def simultaneous_excludes_zero(clfs, band, level, n_boot, seed):
    """The old verdict: the 512-point simultaneous band of the difference view, at the PCF(+)."""
    grid = np.linspace(0.0, 1.0, 512)
    a, b = clfs[band.runner_up], clfs[band.chosen]
    c = cw.difference_band(a, b, level, n_boot=n_boot, grid=grid, random_state=seed).attrs[
        "critical_value"
    ]
    x = np.sort(np.append(grid, band.pcf))
    wide = cw.difference_band(a, b, level, n_boot=n_boot, grid=x, random_state=seed)
    row = wide[wide.pcf == band.pcf].iloc[0]
    centre = (row.lower + row.upper) / 2
    sd = (row.upper - row.lower) / (2 * wide.attrs["critical_value"])
    return not (centre - c * sd <= 0.0 <= centre + c * sd)


def rates(samples, n, d_a, d_b, rho, level, n_boot, seed, old=False):
    """(share said apart with the better one chosen, share with the old verdict, samples)."""
    rng = np.random.default_rng(seed)
    said = said_old = 0
    for k in range(samples):
        clfs = pair(rng, n, d_a, d_b, rho)
        d = cw.decide(clfs, p_pos=PCFS[k % len(PCFS)])
        band = cw.runner_up_band(clfs, d, level=level, n_boot=n_boot, random_state=k)
        if band is None:  # a tie: no runner-up, nothing said
            continue
        right = d_a == d_b or band.chosen == "a"  # with a better one, it must be the chosen
        said += right and not band.includes_zero
        if old:
            said_old += right and simultaneous_excludes_zero(clfs, band, level, n_boot, k)
    return said / samples, said_old / samples


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=120)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--rho", type=float, default=0.5, help="correlation of the two noises")
    parser.add_argument("--level", type=float, default=0.9)
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--old", action="store_true", help="also the simultaneous band's verdict")
    args = parser.parse_args(argv)
    print(
        f"Runner-up verdict at level {args.level}: n = {args.n} (40 % positives), "
        f"noise correlation {args.rho}, B = {args.n_boot}, {args.samples} samples each, "
        f"PCF(+) {', '.join(map(str, PCFS))}"
    )
    for label, d_a, d_b, target in (
        ("false alarms, d' 1.0 and 1.0", 1.0, 1.0, "2-14 %"),
        ("false alarms, d' 1.4 and 1.4", 1.4, 1.4, "2-14 %"),
        ("told apart, d' 1.4 vs 1.0   ", 1.4, 1.0, ">= 30 %"),
    ):
        start = time.perf_counter()
        new, old = rates(
            args.samples, args.n, d_a, d_b, args.rho, args.level, args.n_boot, args.seed, args.old
        )
        se = np.sqrt(new * (1 - new) / args.samples)
        line = f"{label}: pointwise paired interval {100 * new:5.1f} % (± {100 * se:.1f} s.e.)"
        if args.old:
            line += f", old simultaneous band at the point {100 * old:5.1f} %"
        print(f"{line}; target {target} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
