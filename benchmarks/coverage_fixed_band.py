"""Exact coverage of a fixed rule's band (``band(threshold=t)``, ``from_confusion(...).band``).

A rule held at one threshold has ``FN ~ Bin(P, 1 − TPR)`` and ``FP ~ Bin(N, FPR)``,
independent (the class totals fixed), and true cost ``x·(1 − TPR) + (1 − x)·FPR`` at PCF(+) x.
Its band's coverage is therefore a finite sum, computed exactly here: over every confusion
matrix (tp, fp) with its probability, whether the band computed from that matrix holds the
true cost. No simulation, no Monte Carlo error (matrices of probability below 1e-15 are left
out: at most that much coverage is not counted).

Grid: n = 20, 50, 100 cases, split P = N = n / 2, and again with P = N = n, × TPR {0.6, 0.8, 0.95} × FPR {0.1, 0.2, 0.3} × PCF(+)
{0.2, 0.5, 0.8}, level 0.9. Bands: the default (``method="auto"``: the MOVER–Wilson score
interval, Zou & Donner (2008)) and, with ``--old``, the exact bootstrap percentile band of
Drummond & Holte (2004), sec. 8 (``method="exact"``, the default before).

Run::

    python benchmarks/coverage_fixed_band.py            # the default band, a second or two
    nice -n 19 python benchmarks/coverage_fixed_band.py --old   # also the percentile band
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np
from scipy import stats

import costwidget as cw
from costwidget.model.resampling.exact_band import exact_fixed_band
from costwidget.model.uncertainty.score_band import mover_wilson_band

NS = (20, 50, 100)
TPRS = (0.6, 0.8, 0.95)
FPRS = (0.1, 0.2, 0.3)
PCFS = (0.2, 0.5, 0.8)
NEGLIGIBLE = 1e-15


def coverage(band_of, n_pos, n_neg, tpr, fpr, x, level):
    """Exact coverage of ``band_of(n_pos, n_neg, tp, fp, x, level) -> (lo, hi)`` arrays over
    tp (rows) and fp (columns), of the true cost at ``x``."""
    tp, fp = np.arange(n_pos + 1), np.arange(n_neg + 1)
    prob = stats.binom.pmf(tp, n_pos, tpr)[:, None] * stats.binom.pmf(fp, n_neg, fpr)[None, :]
    truth = x * (1 - tpr) + (1 - x) * fpr
    keep = prob > NEGLIGIBLE
    lo, hi = band_of(n_pos, n_neg, tp, fp, x, level, keep)
    return float(np.sum(prob[keep] * ((lo <= truth) & (truth <= hi))))


def score_band(n_pos, n_neg, tp, fp, x, level, keep):
    """The default band, as ``Classifier.band`` computes it, over the kept matrices."""
    lo, hi = mover_wilson_band(n_pos, n_neg, tp[:, None], fp[None, :], np.float64(x), level)
    return lo[keep], hi[keep]


def percentile_band(n_pos, n_neg, tp, fp, x, level, keep):
    """The exact bootstrap percentile band (``method="exact"``), matrix by matrix."""
    rows, cols = np.nonzero(keep)
    out = np.array(
        [
            [v[0] for v in exact_fixed_band(n_pos, n_neg, int(t), int(f), np.array([x]), level)]
            for t, f in zip(tp[rows], fp[cols])
        ]
    )
    return out[:, 0], out[:, 1]


def check_against_the_api(level):
    """The band computed here is the one ``Classifier.band`` returns (spot checks)."""
    for tp, fn, fp, tn, x in ((16, 4, 4, 6, 0.5), (19, 1, 0, 20, 0.2), (50, 50, 30, 70, 0.8)):
        got = cw.Classifier.from_confusion(tp=tp, fn=fn, fp=fp, tn=tn).band(level, grid=[x])
        lo, hi = mover_wilson_band(tp + fn, fp + tn, tp, fp, np.array([x]), level)
        c = min(x, 1 - x)  # from_confusion's band is of min(line, x, 1 - x)
        assert np.allclose(got[["lower", "upper"]].to_numpy()[0], [min(lo[0], c), min(hi[0], c)])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", type=float, default=0.9)
    parser.add_argument("--old", action="store_true", help="also the bootstrap percentile band")
    args = parser.parse_args(argv)
    check_against_the_api(args.level)
    bands = {"MOVER-Wilson (default)": score_band}
    if args.old:
        bands["percentile (method='exact')"] = percentile_band
    print(
        f"Exact coverage at level {args.level} of a fixed rule's band over TPR "
        f"{TPRS} x FPR {FPRS} x PCF(+) {PCFS}"
    )
    for name, band_of in bands.items():
        for split, per_class in (("P = N = n/2", lambda n: n // 2), ("P = N = n", lambda n: n)):
            every = []
            for n in NS:
                k = per_class(n)
                cov = [
                    coverage(band_of, k, k, tpr, fpr, x, args.level)
                    for tpr, fpr, x in itertools.product(TPRS, FPRS, PCFS)
                ]
                every += cov
                print(
                    f"{name:<28} {split:<12} n = {n:>3}: min {min(cov):.3f}  mean {np.mean(cov):.3f}"
                )
            print(
                f"{name:<28} {split:<12} all    : min {min(every):.3f}  mean {np.mean(every):.3f}"
            )


if __name__ == "__main__":
    main()
