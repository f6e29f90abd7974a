"""Exact percentiles of a fixed classifier's bootstrap NEC (Drummond & Holte (2004), sec. 8).

Stratified resampling keeps the class totals P and N and redraws the two rows
of the confusion matrix as independent binomials: FN ~ Bin(P, fn/P) and
FP ~ Bin(N, fp/N). At pcf x the resampled cost is

    W = a·FN + b·FP,   a = x/P,  b = (1-x)/N,

a weighted sum of two independent binomials, whose distribution is a finite
convolution. Its quantile is found without enumerating the (P+1)(N+1) support
points: with one variable as the *inner* one (the larger coefficient), the CDF
is ``F(w) = Σ_j q_j · C_inner(⌊(w - b_outer·j) / a_inner⌋)``, a sum over the
outer support only. Bisection narrows ``(lo, hi]`` (F(lo) < q <= F(hi))
until it is shorter than the inner coefficient; then each outer value j has
at most one support point in ``(lo, hi]``, the first one above lo, and sorting
those points and accumulating their probabilities from F(lo) gives the
smallest support value with F >= q exactly.

Outer probabilities below 1e-17 of the total (both tails together) are left
out; that moves F by less than 1e-16, below float resolution. Probabilities are
floats, so "F >= q" is decided with a tolerance of 1e-12.
"""

from __future__ import annotations

import numpy as np

__all__ = ["exact_fixed_band"]

_TAIL = 1e-17
_BISECT_MAX = 80
_Q_TOL = 1e-12


def _pmf_cdf(n: int, p: float):
    from scipy import stats  # imported on first use: scipy.stats is slow to import

    k = np.arange(n + 1)
    return stats.binom.pmf(k, n, p), stats.binom.cdf(k, n, p)


def _outer_support(n: int, p: float):
    """The outer variable's support (trimmed of negligible tails) and probabilities."""
    from scipy import stats

    lo = int(stats.binom.ppf(_TAIL / 2, n, p)) if 0 < p < 1 else int(round(n * p))
    hi = int(stats.binom.isf(_TAIL / 2, n, p)) if 0 < p < 1 else int(round(n * p))
    lo, hi = max(lo - 1, 0), min(hi + 1, n)
    j = np.arange(lo, hi + 1)
    return j, stats.binom.pmf(j, n, p)


def _bisect(below_q, lo, hi, width):
    """Halve ``(lo, hi]`` until shorter than ``width``, keeping F(lo) < q <= F(hi).

    ``below_q(w, rows)`` tells whether F(w) < q for the given rows; only rows
    still wider than ``width`` are evaluated.
    """
    lo, hi = lo.copy(), hi.copy()
    for _ in range(_BISECT_MAX):
        rows = np.flatnonzero((hi - lo) >= width)
        if rows.size == 0:
            break
        mid = 0.5 * (lo[rows] + hi[rows])
        below = below_q(mid, rows)
        lo[rows[below]] = mid[below]
        hi[rows[~below]] = mid[~below]
    return lo, hi


def _count_le(w, a, bj):
    """Largest inner i with a·i + b·j <= w, consistent with how support values are computed."""
    k = np.floor((w[:, None] - bj) / a)
    k += (a * (k + 1) + bj) <= w[:, None]
    k -= (a * k + bj) > w[:, None]
    return k


def _lower_quantile(coef_in, coef_out, n_in, p_in, n_out, p_out, q):
    """Smallest support value w of ``coef_in·I + coef_out·J`` with P(W <= w) >= q.

    ``coef_in``/``coef_out`` are arrays over pcf values (``coef_in > 0``).
    Returns (i, j) of that support point, arrays over pcf.
    """
    pmf_in, cdf_in = _pmf_cdf(n_in, p_in)
    j, q_out = _outer_support(n_out, p_out)
    # Probabilities are floats: a cumulative probability within 1e-12 of q counts as reaching it.
    q = q - _Q_TOL
    a = coef_in[:, None]
    inv_a = 1.0 / a
    bj = coef_out[:, None] * j[None, :]
    cdf_ext = np.concatenate(([0.0], cdf_in))  # cdf_ext[k + 1] = P(I <= k), k = -1 .. n_in

    def cdf_of_counts(k):
        np.clip(k, -1, n_in, out=k)
        k += 1
        return cdf_ext[k.astype(np.intp)] @ q_out

    def approx_cdf(w, rows=slice(None)):
        # The search only needs a monotone F; the float-consistent count is used at the end.
        k = np.subtract(w[:, None], bj[rows])
        k *= inv_a[rows]
        np.floor(k, out=k)
        return cdf_of_counts(k)

    def approx_below(w, rows=slice(None)):
        return approx_cdf(w, rows) < q

    def exact_rows(rows):
        """Exact bisection from the full range for the given rows: (lo, hi)."""
        return _bisect(
            lambda w, r: cdf_of_counts(_count_le(w, a[rows][r], bj[rows][r])) < q,
            np.full(len(rows), -1.0),
            np.full(len(rows), 2.0),
            coef_in[rows],
        )

    # Start from a normal-approximation guess, a quarter sd either side; widen when it misses.
    from scipy.special import ndtri

    mean = coef_in * n_in * p_in + coef_out * n_out * p_out
    sd = np.sqrt(coef_in**2 * n_in * p_in * (1 - p_in) + coef_out**2 * n_out * p_out * (1 - p_out))
    # Cornish-Fisher: the skewness term puts the guess within a small fraction of an sd.
    k3 = coef_in**3 * n_in * p_in * (1 - p_in) * (1 - 2 * p_in) + coef_out**3 * n_out * p_out * (
        1 - p_out
    ) * (1 - 2 * p_out)
    z = ndtri(q)
    with np.errstate(invalid="ignore", divide="ignore"):
        skew = np.where(sd > 0, k3 / sd**3, 0.0)
    # The guess only starts the search: where sd**3 underflows (a PCF(+) near 0 or 1 makes a
    # coefficient ~1e-110; 0/0 gave NaN, cast to a count index) it starts from the normal guess.
    skew = np.where(np.isfinite(skew), skew, 0.0)
    guess = mean + (z + (z * z - 1) * skew / 6) * sd
    lo, hi = guess - 0.25 * sd - coef_in, guess + 0.25 * sd + coef_in
    for widen in (1.0, 12.0, None):
        miss_lo, miss_hi = ~approx_below(lo), approx_below(hi)
        if not (miss_lo.any() or miss_hi.any()):
            break
        lo = np.where(miss_lo, guess - widen * sd - coef_in if widen else -1.0, lo)
        hi = np.where(miss_hi, guess + widen * sd + coef_in if widen else 2.0, hi)
    lo, hi = _bisect(approx_below, lo, hi, coef_in)
    for attempt in range(2):
        k_lo = _count_le(lo, a, bj)
        f_lo = cdf_of_counts(k_lo.copy())
        # The first support point above lo for each outer j, and its probability.
        i_first = k_lo + 1
        i_idx = np.clip(i_first, 0, n_in).astype(np.intp)
        mass = np.where((i_first >= 0) & (i_first <= n_in), pmf_in[i_idx] * q_out[None, :], 0.0)
        value = np.where(mass > 0, a * i_first + bj, np.inf)  # points of probability 0 never count
        order = np.argsort(value, axis=1, kind="stable")
        cum = f_lo[:, None] + np.cumsum(np.take_along_axis(mass, order, axis=1), axis=1)
        reached = cum >= q
        first = reached.argmax(axis=1)
        sorted_value = np.take_along_axis(value, order, axis=1)[np.arange(len(first)), first]
        # The answer must lie in (lo, hi]: otherwise the approximate bisection was fooled by
        # rounding at a support point, and that row is redone with the exact count.
        ok = (f_lo < q) & reached.any(axis=1) & (sorted_value <= hi + 1e-15)
        if ok.all() or attempt == 1:
            break
        bad = np.flatnonzero(~ok)
        lo[bad], hi[bad] = exact_rows(bad)
    col = np.take_along_axis(order, first[:, None], axis=1)[:, 0]
    rows = np.arange(len(col))
    return i_first[rows, col].astype(np.int64), j[col].astype(np.int64)


def _quantile_fn_fp(x, n_pos, n_neg, fn, fp, q):
    """(FN, FP) counts of the smallest NEC value with P(NEC <= value) >= q, per pcf."""
    a = x / n_pos  # weight of FN
    b = (1.0 - x) / n_neg  # weight of FP
    p_fn, p_fp = fn / n_pos, fp / n_neg
    out_fn = np.empty(len(x), dtype=np.int64)
    out_fp = np.empty(len(x), dtype=np.int64)
    fn_inner = a >= b
    if fn_inner.any():
        i, j = _lower_quantile(a[fn_inner], b[fn_inner], n_pos, p_fn, n_neg, p_fp, q)
        out_fn[fn_inner], out_fp[fn_inner] = i, j
    if (~fn_inner).any():
        i, j = _lower_quantile(b[~fn_inner], a[~fn_inner], n_neg, p_fp, n_pos, p_fn, q)
        out_fp[~fn_inner], out_fn[~fn_inner] = i, j
    return out_fn, out_fp


def exact_fixed_band(n_pos: int, n_neg: int, tp: int, fp: int, pcf: np.ndarray, level: float):
    """Exact pointwise percentile band of a fixed classifier's stratified-bootstrap NEC.

    ``lower`` is the smallest NEC value with P(NEC <= value) >= (1-level)/2,
    ``upper`` the largest with P(NEC >= value) >= (1-level)/2: the limits that
    B bootstrap replicates approach as B grows (the paper's "fifth lowest and
    fifth highest" of 100). Returns ``(lower, upper)`` arrays over ``pcf``.
    """
    x = np.asarray(pcf, dtype=np.float64)
    alpha = (1.0 - level) / 2.0
    fn = n_pos - tp
    lo_fn, lo_fp = _quantile_fn_fp(x, n_pos, n_neg, fn, fp, alpha)
    # Upper limit: the same search on the complement 1 - NEC = a·TP + b·TN.
    hi_tp, hi_tn = _quantile_fn_fp(x, n_pos, n_neg, tp, n_neg - fp, alpha)
    a, b = x / n_pos, (1.0 - x) / n_neg
    lower = a * lo_fn + b * lo_fp
    upper = a * (n_pos - hi_tp) + b * (n_neg - hi_tn)
    return lower, upper
