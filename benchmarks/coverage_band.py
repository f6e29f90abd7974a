"""Coverage of ``Classifier.band``'s default envelope band of the true best cost.

Data: binormal scores, positives N(d', 1) and negatives N(0, 1), with P
positives and N negatives (n = P + N). The true ROC curve is
``TPR(t) = Φ(d' − t)``, ``FPR(t) = Φ(−t)``; it is concave, so the true best
cost at pcf x (Drummond & Holte (2000), eq. 8, minimized over thresholds) is
reached where the derivative in t vanishes:

    x·φ(t − d') = (1 − x)·φ(t)   ⇔   t* = (ln((1 − x)/x) + d'²/2) / d',
    best(x) = x·Φ(t* − d') + (1 − x)·Φ(−t*).

Each sample draws new data, builds ``Classifier.from_scores`` and reads the
default band (``clf.band(level)``: ``interval="basic"``, B = 1000) and the
percentile band from the same replicates (``interval="percentile"``, same
int seed, so the cached replicates are re-read). Coverage at a pcf is the
share of samples whose band holds ``best(x)``; its Monte Carlo standard error
is ``sqrt(c(1 − c)/samples)``. The figures printed for n = 50 and 200 at level 0.9 are the
ones the widget and the docs state next to the band (``ENVELOPE_COVERAGE`` in
``costwidget/model/uncertainty/coverage.py``).

Run::

    nice -n 19 python benchmarks/coverage_band.py        # n 50, 200 x d' 0.8, 1.2, 1.6, 200 samples
    nice -n 19 python benchmarks/coverage_band.py --n 400 --d 1.2 --samples 400
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

import costwidget as cw


def true_best_cost(x, d):
    """The true best NEC of the binormal classifier at pcf ``x`` (closed form, above)."""
    x = np.asarray(x, dtype=np.float64)
    inner = (x > 0) & (x < 1)
    xi = x[inner]
    t = (np.log((1 - xi) / xi) + d * d / 2) / d
    out = np.zeros_like(x)
    out[inner] = xi * stats.norm.cdf(t - d) + (1 - xi) * stats.norm.cdf(-t)
    return out


def coverage(n_pos, n_neg, d, samples, level, n_boot, seed, pcf):
    """Coverage per pcf of the default (basic) and the percentile band: two arrays."""
    truth = true_best_cost(pcf, d)
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    hits = {"basic": np.zeros(len(pcf)), "percentile": np.zeros(len(pcf))}
    for k in range(samples):
        s = np.r_[rng.normal(d, 1, n_pos), rng.normal(0, 1, n_neg)]
        clf = cw.Classifier.from_scores(y, s)
        for interval in hits:
            band = clf.band(level, grid=pcf, n_boot=n_boot, random_state=k, interval=interval)
            hits[interval] += (band.lower.to_numpy() <= truth) & (truth <= band.upper.to_numpy())
    return {k: v / samples for k, v in hits.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument(
        "--n", type=int, nargs="+", default=[50, 200], help="cases (40 %% positives)"
    )
    parser.add_argument("--d", type=float, nargs="+", default=[0.8, 1.2, 1.6], help="d' values")
    parser.add_argument("--level", type=float, default=0.9)
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    pcf = np.round(np.arange(0.1, 0.91, 0.1), 2)
    # Check the closed form against a dense search over thresholds.
    t = np.linspace(-8, 8, 200001)
    for d in args.d:
        dense = np.min(
            pcf[:, None] * stats.norm.cdf(t - d) + (1 - pcf[:, None]) * stats.norm.cdf(-t), axis=1
        )
        assert np.allclose(dense, true_best_cost(pcf, d), atol=1e-9)

    print(
        f"Coverage of the true best cost by Classifier.band's pointwise {args.level:.0%} band "
        f"(basic: the default; percentile), binormal, 40 % positives, B = {args.n_boot}, "
        f"{args.samples} samples per row (seed {args.seed}); Monte Carlo s.e. near 0.8: "
        f"{np.sqrt(0.16 / args.samples):.3f}"
    )
    print(
        f"{'n':>4} {'d':>4} {'interval':<11}" + "".join(f"{x:6.1f}" for x in pcf) + "    min  mean"
    )
    for n in args.n:
        n_pos = int(round(0.4 * n))
        worst = []
        for d in args.d:
            start = time.perf_counter()
            cov = coverage(
                n_pos, n - n_pos, d, args.samples, args.level, args.n_boot, args.seed, pcf
            )
            for name, c in cov.items():
                print(
                    f"{n:>4} {d:>4} {name:<11}"
                    + "".join(f"{v:6.2f}" for v in c)
                    + f"  {c.min():.2f}  {c.mean():.2f}"
                    + (f"   ({time.perf_counter() - start:.0f} s)" if name == "percentile" else "")
                )
            worst.append(cov["basic"].min())
        print(f"n = {n}: the default band's coverage, lowest over d' and pcf: {min(worst):.2f}")


if __name__ == "__main__":
    main()
