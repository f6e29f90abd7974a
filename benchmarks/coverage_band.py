"""Coverage of ``Classifier.band``'s default band of the true best cost (issue 18).

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
is ``sqrt(c(1 − c)/samples)``.

Run::

    .venv/bin/python benchmarks/coverage_band.py              # n = 400, level 0.9, 400 samples
    .venv/bin/python benchmarks/coverage_band.py --samples 200 --n-pos 160 --n-neg 240
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--n-pos", type=int, default=160)
    parser.add_argument("--n-neg", type=int, default=240)
    parser.add_argument("--d", type=float, default=1.2, help="d' of the binormal scores")
    parser.add_argument("--level", type=float, default=0.9)
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    pcf = np.round(np.arange(0.1, 0.91, 0.1), 2)
    truth = true_best_cost(pcf, args.d)
    # Check the closed form against a dense search over thresholds.
    t = np.linspace(-8, 8, 200001)
    dense = np.min(
        pcf[:, None] * stats.norm.cdf(t - args.d) + (1 - pcf[:, None]) * stats.norm.cdf(-t), axis=1
    )
    assert np.allclose(dense, truth, atol=1e-9), (dense, truth)

    rng = np.random.default_rng(args.seed)
    y = np.r_[np.ones(args.n_pos, bool), np.zeros(args.n_neg, bool)]
    hits = {"basic (default)": np.zeros(len(pcf)), "percentile": np.zeros(len(pcf))}
    start = time.perf_counter()
    for k in range(args.samples):
        s = np.r_[rng.normal(args.d, 1, args.n_pos), rng.normal(0, 1, args.n_neg)]
        clf = cw.Classifier.from_scores(y, s)
        default = clf.band(args.level, grid=pcf, n_boot=args.n_boot, random_state=k)
        assert default.attrs["interval"] == "basic"
        pct = clf.band(
            args.level, grid=pcf, n_boot=args.n_boot, random_state=k, interval="percentile"
        )
        for name, band in (("basic (default)", default), ("percentile", pct)):
            hits[name] += (band.lower.to_numpy() <= truth) & (truth <= band.upper.to_numpy())
    seconds = time.perf_counter() - start

    n = args.n_pos + args.n_neg
    print(
        f"Coverage of the true best cost by the pointwise {args.level:.0%} band of "
        f"Classifier.band (basic: the default), binormal d' = {args.d}, n = {n} ({args.n_pos} + {args.n_neg}), "
        f"B = {args.n_boot}, {args.samples} samples (seed {args.seed}, {seconds:.0f} s)"
    )
    print(f"{'pcf':<12}" + " ".join(f"{x:6.1f}" for x in pcf) + "    mean    min   at pcf 0.5")
    for name, h in hits.items():
        c = h / args.samples
        print(
            f"{name.split()[0]:<12}"
            + " ".join(f"{v:6.3f}" for v in c)
            + f"   {c.mean():.3f}  {c.min():.3f}   {int(h[4])}/{args.samples}"
        )
    se = np.sqrt(args.level * (1 - args.level) / args.samples)
    print(f"Monte Carlo standard error of one coverage near {args.level}: {se:.3f}")


if __name__ == "__main__":
    main()
