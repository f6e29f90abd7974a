"""Array kernels for threshold choice methods: pure functions of ROC arrays, no Classifier.

Notation (Hernández-Orallo, Flach & Ferri (2012), "A unified view of performance
metrics", JMLR 13, its notation, in this package's orientation):

* ``rho`` is the prevalence π₁ of the population the operating points refer to;
* ``c`` in [0, 1] is the cost proportion, the normalized cost of a false positive
  (a false negative costs ``1 - c``); its loss is
  ``Q(c) = 2·[c·(1-rho)·FPR + (1-c)·rho·FNR]``;
* ``x`` is PCF(+) = ``rho·(1-c) / (rho·(1-c) + (1-rho)·c)``, the cost curve's
  axis (Drummond & Holte (2006)), and ``Q = 2·(rho·(1-c) + (1-rho)·c)·NEC``.

The map between c and x is its own inverse (:func:`flip`). ROC arrays are those
of :class:`~costwidget.model.kernels.roc.RocCounts` as rates: ``thresholds`` descending
from ``+inf``, ``fpr`` and ``tpr`` cumulative, from (0, 0) to (1, 1), one point
per distinct score.
"""

from __future__ import annotations

import struct

import numpy as np

__all__ = [
    "flip",
    "exact_score_threshold",
    "score_pcf_starts",
    "score_index",
    "rate_cumulative",
    "rate_point",
    "loss_integral",
    "linear_area",
    "rate_area",
    "beta_loss",
]


def flip(v, rho: float):
    """``rho·(1-v) / (rho·(1-v) + (1-rho)·v)``: c from PCF(+), and PCF(+) from c.

    The same formula both ways (the map is an involution); exact 1 at 0 and 0 at 1.

    Examples
    --------
    >>> from costwidget.model.kernels.threshold_choice_kernels import flip
    >>> float(flip(0.5, 0.2)), float(flip(flip(0.3, 0.2), 0.2))
    (0.2, 0.3)
    """
    v = np.asarray(v, dtype=np.float64)
    a = rho * (1.0 - v)
    return a / (a + (1.0 - rho) * v)


def _threshold_at(x: float, u: int, v: int) -> float:
    """c = rho(1-x) / (rho(1-x) + (1-rho)x) at float x for rho = u/v, rounded once.

    With x = p/q: c = u(q-p) / (u(q-p) + (v-u)p), in integers; Python's int division rounds
    correctly to the nearest float.
    """
    p, q = x.as_integer_ratio()
    a = u * (q - p)
    den = a + (v - u) * p
    return a / den if den else 1.0


def exact_score_threshold(v, rho) -> np.ndarray:
    """The Bayes threshold rho·(1-v) / (rho·(1-v) + (1-rho)·v), exact, rounded once to a float.

    ``score >= threshold`` is then the rule a user who typed c would get: c is computed
    without intermediate rounding (the float ``flip`` rounds ``1 - v`` and the division,
    which can move it a step off a score it equals), then rounded as a literal of c is
    (3/10 gives the float 0.3, so a score of 0.3 is positive).

    Examples
    --------
    >>> from costwidget.model.kernels.threshold_choice_kernels import exact_score_threshold, flip
    >>> exact_score_threshold([0.25, 0.5], 0.5).tolist()   # c = 3/4 and 1/2
    [0.75, 0.5]
    >>> float(flip(0.01, 0.75)), exact_score_threshold(0.01, 0.75).tolist()   # flip: 1 step up
    (0.9966442953020135, [0.9966442953020134])
    """
    u, w = float(rho).as_integer_ratio()
    x = np.atleast_1d(np.asarray(v, dtype=np.float64))
    return np.array([_threshold_at(xi, u, w) for xi in x.tolist()], dtype=np.float64)


def _bits(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


def _from_bits(b: int) -> float:
    return struct.unpack("<d", struct.pack("<q", b))[0]


def score_pcf_starts(scores, rho) -> np.ndarray:
    """For each score, the least float PCF(+) x at which ``score >= exact_score_threshold(x, rho)``.

    The threshold falls as x rises, so the score is positive from this x on (to 1). The float
    ``flip`` lands near it; a search over the floats around it (ordered as their bit patterns
    are, for x >= 0) finds it exactly.

    Examples
    --------
    >>> from costwidget.model.kernels.threshold_choice_kernels import score_pcf_starts
    >>> score_pcf_starts([0.25, 0.5], 0.5).tolist()
    [0.75, 0.5]
    """
    scores = np.asarray(scores, dtype=np.float64)
    guess = np.atleast_1d(flip(scores, rho)).tolist()
    u, w = float(rho).as_integer_ratio()
    top = _bits(1.0)
    out = np.empty(len(scores))
    for i, score in enumerate(scores.tolist()):

        def positive(b, score=score):
            return score >= _threshold_at(_from_bits(b), u, w)

        g = min(max(_bits(guess[i]), 0), top)
        # Bracket (lo, hi]: not positive at lo (or lo = -1), positive at hi; then bisect.
        step = 1
        if positive(g):
            hi, lo = g, g - 1
            while lo >= 0 and positive(lo):
                hi, lo, step = lo, max(lo - step, -1), step * 2
        else:
            lo, hi = g, g + 1
            while hi < top and not positive(hi):
                lo, hi, step = hi, min(hi + step, top), step * 2
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if positive(mid) else (mid, hi)
        out[i] = _from_bits(hi)
    return out


def score_index(thresholds: np.ndarray, t) -> np.ndarray:
    """Index of the ROC point that predicts ``score >= t`` positive.

    ``thresholds`` descends from ``+inf`` (index 0, nothing positive).

    Examples
    --------
    >>> import numpy as np
    >>> from costwidget.model.kernels.threshold_choice_kernels import score_index
    >>> score_index(np.array([np.inf, 0.9, 0.5, 0.2]), np.array([1.0, 0.9, 0.3, 0.0])).tolist()
    [0, 1, 2, 3]
    """
    return np.searchsorted(-thresholds, -np.asarray(t, dtype=np.float64), side="right") - 1


def rate_cumulative(fpr: np.ndarray, tpr: np.ndarray, rho: float) -> np.ndarray:
    """Share of the population predicted positive at each ROC point: ``rho·TPR + (1-rho)·FPR``.

    Exactly 0 at the first point and 1 at the last, and non-decreasing.
    """
    r = rho * tpr + (1.0 - rho) * fpr
    r[0], r[-1] = 0.0, 1.0
    return np.maximum.accumulate(np.clip(r, 0.0, 1.0))


def rate_point(cum: np.ndarray, fpr: np.ndarray, tpr: np.ndarray, r):
    """(FPR, TPR, j) when the top share ``r`` is predicted positive, ties split evenly.

    The tie group of ROC point ``j`` (the cases with score ``thresholds[j]``) is the
    one cut by ``r``; each of its cases is predicted positive with the probability
    that fills the share, so FPR and TPR are the linear interpolation between
    points ``j - 1`` and ``j`` (the expected rates under a random order within
    the tie).

    Examples
    --------
    >>> import numpy as np
    >>> from costwidget.model.kernels.threshold_choice_kernels import rate_cumulative, rate_point
    >>> fpr, tpr = np.array([0.0, 0.0, 1.0]), np.array([0.0, 0.5, 1.0])
    >>> cum = rate_cumulative(fpr, tpr, 0.5)   # 1 positive, then a tie of 1 positive, 2 negatives
    >>> [v.tolist() for v in rate_point(cum, fpr, tpr, np.array([0.25, 0.625]))]
    [[0.0, 0.5], [0.5, 0.75], [1, 2]]
    """
    r = np.asarray(r, dtype=np.float64)
    j = np.clip(np.searchsorted(cum, r, side="left"), 1, len(cum) - 1)
    lo, width = cum[j - 1], cum[j] - cum[j - 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.where(width > 0, (r - lo) / np.where(width > 0, width, 1.0), 0.0)
    lam = np.clip(lam, 0.0, 1.0)
    f = fpr[j - 1] + lam * (fpr[j] - fpr[j - 1])
    t = tpr[j - 1] + lam * (tpr[j] - tpr[j - 1])
    return f, t, j


def _q(c, fpr, tpr, rho):
    return 2.0 * (c * (1.0 - rho) * fpr + (1.0 - c) * rho * (1.0 - tpr))


def loss_integral(c_lo, c_hi, fpr_lo, tpr_lo, fpr_hi, tpr_hi, rho: float) -> float:
    """``∫ Q(c) dc`` over pieces ``[c_lo, c_hi]`` on which FPR and TPR are linear in c.

    ``fpr_lo``/``tpr_lo`` are the rates at ``c_lo``, ``fpr_hi``/``tpr_hi`` at
    ``c_hi`` (equal for a classification held on the piece). Q is then a
    quadratic in c, so Simpson's rule is exact.
    """
    c_lo, c_hi = np.asarray(c_lo, np.float64), np.asarray(c_hi, np.float64)
    mid = 0.5 * (c_lo + c_hi)
    q = (
        _q(c_lo, fpr_lo, tpr_lo, rho)
        + 4.0 * _q(mid, 0.5 * (fpr_lo + fpr_hi), 0.5 * (tpr_lo + tpr_hi), rho)
        + _q(c_hi, fpr_hi, tpr_hi, rho)
    )
    return float(np.sum((c_hi - c_lo) * q) / 6.0)


def linear_area(x_lo, x_hi, nec_lo, nec_hi) -> float:
    """``∫ NEC dx`` over pieces on which NEC is linear in PCF(+) (trapezoids, exact)."""
    return float(
        np.sum((np.asarray(x_hi) - np.asarray(x_lo)) * (np.asarray(nec_lo) + np.asarray(nec_hi)))
        / 2.0
    )


_N_SERIES = 64  # terms of the series below for |u| <= 0.5: 0.5**64 ~ 5e-20


def _h(u: np.ndarray, m: int) -> np.ndarray:
    """``Σ_{n>=0} (-u)^n / (n + m)`` for m = 2, 3: (u - log1p u)/u², (log1p u - u + u²/2)/u³.

    The series where |u| <= 0.5 (the closed forms cancel there); the closed forms elsewhere.
    """
    u = np.asarray(u, dtype=np.float64)
    small = np.abs(u) <= 0.5
    out = np.empty_like(u)
    us = u[small]
    acc = np.zeros_like(us)
    for n in range(_N_SERIES - 1, -1, -1):  # Horner, smallest terms first
        acc = acc * (-us) + 1.0 / (n + m)
    out[small] = acc
    ub = u[~small]
    if m == 2:
        out[~small] = (ub - np.log1p(ub)) / ub**2
    else:
        out[~small] = (np.log1p(ub) - ub + 0.5 * ub**2) / ub**3
    return out


def rate_area(x_lo, x_hi, r_start, fpr0, tpr0, beta_f, beta_t, rho: float) -> float:
    """``∫ NEC dx`` over pieces of the rate-driven cost curve, in closed form.

    On a piece the tie group between ROC points ``(fpr0, tpr0)`` (at share
    ``r_start``) and the next is split: FPR = fpr0 + beta_f·(r - r_start) and
    likewise TPR, where the share predicted positive at PCF(+) x is
    ``r(x) = (1-rho)·x / D(x)``, ``D(x) = rho + (1-2·rho)·x``. NEC is then
    rational in x. With ``y = x - x_lo``,
    ``r(x) - r(x_lo) = rho·(1-rho)·y / (D(x_lo)·D(x))``, and the integrals
    ``∫ y^m / (1 + a·y) dy`` (m = 1, 2) are ``Δ^(m+1)·h_m(a·Δ)`` with ``h`` summed as
    a series near 0, so nothing cancels as rho nears 1/2 or a piece shrinks.
    """
    x0, x1 = np.asarray(x_lo, np.float64), np.asarray(x_hi, np.float64)
    d = x1 - x0
    d0 = rho + (1.0 - 2.0 * rho) * x0
    u = (1.0 - 2.0 * rho) * d / d0
    delta = (1.0 - rho) * x0 / d0 - r_start  # r(x_lo) - r_start
    beta_s = beta_f + beta_t
    g0 = beta_f * (1.0 - x0) - beta_t * x0  # the factor [beta_f - beta_s·x] at x_lo
    # NEC = x(1 - tpr0) + (1 - x) fpr0 + (r - r_start)·[beta_f - beta_s·x]
    base = ((1.0 - tpr0) * (x0 + x1) / 2.0 + fpr0 * (1.0 - (x0 + x1) / 2.0)) * d
    split = delta * (g0 * d - beta_s * d * d / 2.0)
    curve = rho * (1.0 - rho) / d0**2 * (g0 * d**2 * _h(u, 2) - beta_s * d**3 * _h(u, 3))
    return float(np.sum(base + split + curve))


def beta_loss(c_lo, c_hi, fpr, tpr, rho: float, a: float, b: float) -> float:
    """``∫ [c·(1-rho)·FPR + (1-c)·rho·FNR] u(c) dc``, u the Beta(a, b) density (Hand (2009)).

    One classification per piece ``[c_lo, c_hi]``. Masses and first moments of
    the Beta density are regularized incomplete beta functions:
    ``∫ c·u = a/(a+b)·[I(c; a+1, b)]``.
    """
    from scipy.special import betainc

    c_lo, c_hi = np.asarray(c_lo, np.float64), np.asarray(c_hi, np.float64)
    m0 = betainc(a, b, c_hi) - betainc(a, b, c_lo)
    m1 = a / (a + b) * (betainc(a + 1.0, b, c_hi) - betainc(a + 1.0, b, c_lo))
    return float(np.sum((1.0 - rho) * fpr * m1 + rho * (1.0 - tpr) * (m0 - m1)))
