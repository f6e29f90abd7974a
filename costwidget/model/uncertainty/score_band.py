"""A fixed rule's band: a score interval for its cost, a weighted sum of two binomial rates.

A rule held at one threshold has cost ``NEC(x) = x·FNR + (1 − x)·FPR`` at PCF(+) ``x``, with
``FN ~ Bin(P, FNR)`` and ``FP ~ Bin(N, FPR)`` independent (the class totals fixed). Its band is
the MOVER interval for a weighted sum of independent proportions with Wilson score limits
for each (Zou & Donner (2008), sec. 2-3; Newcombe (1998) for the Wilson limits of each and
their recovery of variance): with ``(l_i, u_i)`` the Wilson interval of ``p̂_i`` at level
``level`` and weights ``w_i ≥ 0``,

    lower = Σ w_i p̂_i − sqrt(Σ w_i² (p̂_i − l_i)²),
    upper = Σ w_i p̂_i + sqrt(Σ w_i² (u_i − p̂_i)²).

At a count of 0 (or of every case) the Wilson limit ``z²/(n + z²)`` lies below the exact one,
and the rate just above it is missed whenever no case errs (at n = 20 and level 0.9 that
leaves coverage 0.84 at a rate of 0.12); there the Clopper–Pearson limit ``1 − (α/2)^(1/n)``
is used (as Brown, Cai & DasGupta (2001), sec. 4.1, modify intervals at the boundary), which
brings that case to 0.92 and moves no other.

The bootstrap percentile band of Drummond & Holte (2004), sec. 8 (kept as
``method="exact"``) is the interval of the plug-in distribution, which has no spread at a rate
of 0 or 1 and covers the true cost far too rarely at small n: on the grid n = 20/50/100 ×
TPR {0.6, 0.8, 0.95} × FPR {0.1, 0.2, 0.3} × PCF(+) {0.2, 0.5, 0.8}, its exact coverage at
level 0.9 is 0.64 at worst, this one's 0.876, mean 0.91 (``benchmarks/coverage_fixed_band.py``,
by exact enumeration of both binomials).
"""

from __future__ import annotations

import numpy as np

__all__ = ["wilson_limits", "mover_wilson_band"]


def _z(level: float) -> float:
    from scipy.special import ndtri  # imported on first use: scipy is slow to import

    return float(ndtri(0.5 + level / 2.0))


def wilson_limits(k, n, level: float):
    """Wilson score interval ``(lower, upper)`` of the proportion ``k / n`` (arrays), with
    the Clopper–Pearson limit at ``k = 0`` (upper) and ``k = n`` (lower).

    Where ``n`` is 0 there is no rate to estimate: ``(0, 0)`` (its weight in a cost is 0).

    Examples
    --------
    >>> lo, hi = wilson_limits(1, 29, 0.95)
    >>> round(float(lo), 4), round(float(hi), 4)   # Newcombe (1998), table I: 0.0061 to 0.1718
    (0.0061, 0.1718)
    >>> lo, hi = wilson_limits(0, 20, 0.95)   # exact there: 1 - 0.025 ** (1 / 20)
    >>> round(float(lo), 6), round(float(hi), 4)
    (0.0, 0.1684)
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    z2 = _z(level) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / n, 0.0)
        denom = 1.0 + z2 / n
        centre = (p + z2 / (2.0 * n)) / denom
        half = np.sqrt(z2 * p * (1.0 - p) / n + z2 * z2 / (4.0 * n * n)) / denom
        exact = ((1.0 - level) / 2.0) ** (1.0 / n)  # Clopper–Pearson at k = n (1 - it at 0)
    lower = np.where(k == n, exact, np.clip(centre - half, 0.0, p))
    upper = np.where(k == 0, 1.0 - exact, np.clip(centre + half, p, 1.0))
    return np.where(n > 0, lower, 0.0), np.where(n > 0, upper, 0.0)


def mover_wilson_band(n_pos: int, n_neg: int, tp: int, fp: int, pcf, level: float):
    """``(lower, upper)`` over ``pcf`` of a fixed rule's NEC: MOVER with Wilson limits.

    Parameters
    ----------
    n_pos, n_neg, tp, fp : int
        The rule's confusion matrix (``fn = n_pos − tp``).
    pcf : array-like of float in [0, 1]
    level : float in (0, 1)

    Examples
    --------
    >>> import numpy as np
    >>> lo, hi = mover_wilson_band(20, 10, 16, 4, np.array([0.0, 0.5, 1.0]), 0.9)
    >>> np.round(lo, 4).tolist(), np.round(hi, 4).tolist()   # pcf 0: FPR 4/10's Wilson limits
    ([0.1942, 0.1841, 0.0931], [0.6484, 0.4529, 0.3784])
    """
    x = np.asarray(pcf, dtype=np.float64)
    fn = n_pos - tp
    p_fn = fn / n_pos if n_pos else 0.0
    p_fp = fp / n_neg if n_neg else 0.0
    (l_fn, u_fn), (l_fp, u_fp) = wilson_limits(fn, n_pos, level), wilson_limits(fp, n_neg, level)
    w_fn, w_fp = x, 1.0 - x
    nec = w_fn * p_fn + w_fp * p_fp
    lower = nec - np.hypot(w_fn * (p_fn - l_fn), w_fp * (p_fp - l_fp))
    upper = nec + np.hypot(w_fn * (u_fn - p_fn), w_fp * (u_fp - p_fp))
    # A matrix that flags no case (or every case) is the trivial classifier's: it misses every
    # positive (flags every negative) on any data, so its cost x (1 - x) has no sampling error.
    flagged = np.asarray(tp) + np.asarray(fp)
    trivial = (flagged == 0) | (flagged == n_pos + n_neg)
    lower = np.where(trivial, nec, np.clip(lower, 0.0, nec))
    upper = np.where(trivial, nec, np.clip(upper, nec, 1.0))
    return lower, upper
