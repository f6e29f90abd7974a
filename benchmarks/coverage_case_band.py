"""Coverage of the per-case envelope band (``Classifier.band`` with per-case costs) of the
population's best money per case.

Population: scores binormal, positives N(d', 1) and negatives N(0, 1), 30 % positives (P and
N fixed per sample, as the stratified bootstrap keeps them). Costs per case:

* ``plain``: a positive missed costs its own amount, ``cost_fn ~ lognormal(3, 1.2)`` (mean
  ``e^{3.72}`` ≈ 41, heavy-tailed), a false alarm 5;
* ``fee``: the same amounts, and a fixed fee of 10 on every flagged case (``cost_tp =
  cost_fp = 10``): positives whose amount is below the fee count as negatives of the
  cost-weighted ROC (cases change sides).

The amounts are independent of the scores, so a rule "flag score >= t" costs per case, on the
population, with ``π`` the share of positives, ``μ = E[cost_fn]`` and ``Φ`` the normal cdf,

    plain:  π·μ·Φ(t − d') + (1 − π)·5·Φ(−t)
    fee:    π·(10·Φ(d' − t) + μ·Φ(t − d')) + (1 − π)·10·Φ(−t),

and the true best money per case is its minimum over t (a dense search over t; checked
against a sample of 10^6 cases). Each sample draws new cases, builds
``Classifier.from_scores(..., cost_fn=, cost_fp=, cost_tp=)``, reads the default band
(basic interval, B = 1000) at the sample's own PCF(+) (the setting's point, where the band's
NEC maps to money per case by ``attrs["money"]``), and counts whether it holds the truth. The
lowest and highest over the populations are ``CASE_ENVELOPE_COVERAGE`` in
``costwidget/model/uncertainty/coverage.py``.

Run::

    nice -n 19 python benchmarks/coverage_case_band.py     # n 50, 200, 1000; d' 1.2; plain and fee
    nice -n 19 python benchmarks/coverage_case_band.py --n 200 --samples 400
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

import costwidget as cw

POS_SHARE, LOG_MEAN, LOG_SD, FALSE_ALARM, FEE = 0.3, 3.0, 1.2, 5.0, 10.0


def money_curve(t, d, variant):
    """The population's money per case of "flag score >= t" (the module's formulas)."""
    mu = np.exp(LOG_MEAN + LOG_SD**2 / 2)
    missed, false_alarm = stats.norm.cdf(t - d), stats.norm.cdf(-t)
    if variant == "plain":
        return POS_SHARE * mu * missed + (1 - POS_SHARE) * FALSE_ALARM * false_alarm
    caught = stats.norm.cdf(d - t)
    return POS_SHARE * (FEE * caught + mu * missed) + (1 - POS_SHARE) * FEE * false_alarm


def true_best(d, variant):
    """The minimum over t of :func:`money_curve` (dense t, and the two trivial rules)."""
    t = np.linspace(-10, 12, 400001)
    return float(np.min(money_curve(t, d, variant)))


def draw(n_pos, n_neg, d, variant, rng):
    """A sample's labels, scores and per-case costs."""
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    s = np.r_[rng.normal(d, 1, n_pos), rng.normal(0, 1, n_neg)]
    amount = np.where(y, rng.lognormal(LOG_MEAN, LOG_SD, len(y)), 0.0)
    if variant == "plain":
        return y, s, {"cost_fn": amount, "cost_fp": FALSE_ALARM}
    return y, s, {"cost_fn": amount, "cost_fp": FEE, "cost_tp": FEE}


def check_truth(d, variant, n=1_000_000, seed=7):
    """The closed form's minimum against the cheapest threshold on 10^6 drawn cases."""
    y, s, costs = draw(
        int(POS_SHARE * n), n - int(POS_SHARE * n), d, variant, np.random.default_rng(seed)
    )
    order = np.argsort(-s)
    fn = np.broadcast_to(costs["cost_fn"], y.shape)[order]
    tp = np.broadcast_to(costs.get("cost_tp", 0.0), y.shape)[order]
    fp = np.broadcast_to(costs["cost_fp"], y.shape)[order]
    yo = y[order]
    flag_cost, pass_cost = np.where(yo, tp, fp), np.where(yo, fn, 0.0)
    money = (pass_cost.sum() + np.r_[0.0, np.cumsum(flag_cost - pass_cost)]) / n
    return float(money.min())


def coverage(n, d, variant, samples, level, n_boot, seed):
    """Share of samples whose band at their own PCF(+) holds the true best money per case."""
    truth = true_best(d, variant)
    rng = np.random.default_rng(seed)
    n_pos = int(round(POS_SHARE * n))
    hits = 0
    for k in range(samples):
        y, s, costs = draw(n_pos, n - n_pos, d, variant, rng)
        clf = cw.Classifier.from_scores(y, s, **costs)
        _, (p, q, _f, _w) = clf.case_costs.twin(clf)
        band = clf.band(level, grid=[p / (p + q)], n_boot=n_boot, random_state=k)
        money = band.attrs["money"]
        lo, hi = (
            float(band[c].iloc[0]) * money["scale"] + money["offset"] for c in ("lower", "upper")
        )
        hits += lo <= truth <= hi
    return hits / samples


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--samples-large", type=int, default=100, help="samples at n >= 1000")
    parser.add_argument("--n", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--d", type=float, nargs="+", default=[1.2])
    parser.add_argument("--variants", nargs="+", default=["plain", "fee"])
    parser.add_argument("--level", type=float, default=0.9)
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--check", action="store_true", help="check the truth on 10^6 cases")
    args = parser.parse_args(argv)
    if args.check:
        for d in args.d:
            for v in args.variants:
                print(
                    f"d' {d} {v}: closed form {true_best(d, v):.4f}, 10^6 cases {check_truth(d, v):.4f}"
                )
    print(
        f"Coverage of the best money per case by the per-case envelope band, nominal "
        f"{args.level:.0%} (basic), B = {args.n_boot}, {POS_SHARE:.0%} positives, seed {args.seed}"
    )
    for n in args.n:
        samples = args.samples_large if n >= 1000 else args.samples
        row = []
        for d in args.d:
            for v in args.variants:
                start = time.perf_counter()
                c = coverage(n, d, v, samples, args.level, args.n_boot, args.seed)
                row.append(c)
                print(
                    f"n {n:>5} d' {d:3.1f} {v:<5} samples {samples}: coverage {c:.3f} "
                    f"(s.e. {np.sqrt(c * (1 - c) / samples):.3f}; {time.perf_counter() - start:.0f} s)"
                )
        print(f"n = {n}: lowest {min(row):.3f}, highest {max(row):.3f}")


if __name__ == "__main__":
    main()
