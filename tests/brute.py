"""Brute-force reference computations for the model tests.

Written independently of ``costwidget``: plain Python loops, exact
``fractions.Fraction`` arithmetic where inputs are small integers. Slow on
purpose; use only on small inputs.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np


def roc_points(is_pos, scores, weights=None):
    """(thresholds, tp, fp) with predicted positive = score >= threshold, one row per distinct score.

    The first row is threshold +inf with tp = fp = 0. Samples of weight 0 are ignored.
    """
    is_pos = [bool(v) for v in is_pos]
    scores = [float(s) for s in scores]
    weights = [1 for _ in scores] if weights is None else list(weights)
    keep = [i for i, w in enumerate(weights) if w != 0]
    thresholds = [float("inf")] + sorted({scores[i] for i in keep}, reverse=True)
    tp, fp = [], []
    for t in thresholds:
        tp.append(sum(weights[i] for i in keep if is_pos[i] and scores[i] >= t))
        fp.append(sum(weights[i] for i in keep if not is_pos[i] and scores[i] >= t))
    return thresholds, tp, fp


def counts_at(is_pos, scores, threshold, weights=None):
    """(tp, fp) of the rule score >= threshold, straight from the raw data."""
    weights = np.ones(len(scores)) if weights is None else np.asarray(weights, float)
    pred = np.asarray(scores, float) >= threshold
    is_pos = np.asarray(is_pos, bool)
    return float(weights[pred & is_pos].sum()), float(weights[pred & ~is_pos].sum())


def _on_or_below_chord(p, q, r):
    """True if p lies on or below the segment q-r (q.x <= p.x <= r.x, q.x < r.x)."""
    (px, py), (qx, qy), (rx, ry) = p, q, r
    if not (qx <= px <= rx and qx < rx):
        return False
    # chord height at px, compared without division: py <= qy + (ry-qy)(px-qx)/(rx-qx)
    return py * (rx - qx) <= qy * (rx - qx) + (ry - qy) * (px - qx)


def upper_hull(points):
    """Vertices of the ROC convex hull chain from (0, 0) to (1, 1), exact.

    ``points`` are pairs of Fractions (or ints) in a common scale where (0, 0)
    and ``top`` = the max corner are included. A point is a vertex iff it is
    not on or below any chord of two other points; the chain's end points are
    always vertices. Collinear interior points are therefore dropped.
    """
    pts = sorted(set((Fraction(x), Fraction(y)) for x, y in points))
    start, end = pts[0], max(pts, key=lambda p: (p[1], p[0]))
    assert start == (0, 0)
    out = []
    for p in pts:
        if p in (start, end):
            out.append(p)
            continue
        others = [q for q in pts if q != p]
        if any(_on_or_below_chord(p, q, r) for q, r in itertools.permutations(others, 2)):
            continue
        out.append(p)
    return sorted(out)


def monotone_chain_hull(x, y):
    """Indices of the strict upper-hull vertices of points sorted by x then y (Andrew's chain).

    Exact for integer coordinates (Python ints); O(n), for inputs too big for :func:`upper_hull`.
    """
    xs, ys = [int(v) for v in x], [int(v) for v in y]
    stack = []
    for k in range(len(xs)):
        while len(stack) >= 2:
            a, b = stack[-2], stack[-1]
            if (xs[b] - xs[a]) * (ys[k] - ys[a]) - (ys[b] - ys[a]) * (xs[k] - xs[a]) < 0:
                break  # a strict right turn: b stays
            stack.pop()
        stack.append(k)
    return stack


def is_concave_chain(xs, ys, tol=0.0):
    """Slopes between consecutive vertices strictly decrease."""
    for i in range(1, len(xs) - 1):
        # cross of (b-a) x (c-a) < 0 means right turn
        ax, ay, bx, by, cx, cy = xs[i - 1], ys[i - 1], xs[i], ys[i], xs[i + 1], ys[i + 1]
        if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) >= -tol:
            return False
    return True


def cost_line(fpr, tpr):
    """Eq. 8: NEC(x) = (1 - TPR - FPR) x + FPR, as (slope, intercept)."""
    return 1 - tpr - fpr, fpr


def envelope_min(fpr, tpr, x):
    """min over every ROC point's cost line at x (eq. 8), by brute force."""
    fpr = np.asarray(fpr, float)[:, None]
    tpr = np.asarray(tpr, float)[:, None]
    x = np.atleast_1d(np.asarray(x, float))[None, :]
    return ((1 - tpr - fpr) * x + fpr).min(axis=0)


def envelope_knots(fpr, tpr):
    """Every pcf in [0, 1] where two of the cost lines cross, plus 0 and 1.

    The lower envelope is linear between consecutive knots, so trapezoids on
    these knots integrate it exactly.
    """
    lines = sorted(set(cost_line(float(f), float(t)) for f, t in zip(fpr, tpr)))
    knots = {0.0, 1.0}
    for (a1, b1), (a2, b2) in itertools.combinations(lines, 2):
        if a1 != a2:
            x = (b2 - b1) / (a1 - a2)
            if 0 < x < 1:
                knots.add(x)
    return np.array(sorted(knots))


def envelope_area(fpr, tpr, lo=0.0, hi=1.0):
    """∫ brute-force envelope over [lo, hi] by trapezoids on all pairwise crossings."""
    k = envelope_knots(fpr, tpr)
    k = np.unique(np.concatenate(([lo, hi], k[(k > lo) & (k < hi)])))
    y = envelope_min(fpr, tpr, k)
    return float(np.sum((y[1:] + y[:-1]) * np.diff(k)) / 2)


def hull_tpr_at(hull_fpr, hull_tpr, f):
    """Height of the hull polyline at FPR f (max over its vertical run if any)."""
    hx = np.asarray(hull_fpr, float)
    hy = np.asarray(hull_tpr, float)
    best = -np.inf
    for i in range(len(hx) - 1):
        x0, x1, y0, y1 = hx[i], hx[i + 1], hy[i], hy[i + 1]
        if x0 <= f <= x1:
            if x1 == x0:
                best = max(best, y0, y1)
            else:
                best = max(best, y0 + (y1 - y0) * (f - x0) / (x1 - x0))
    return best


# ---------------------------------------------------------------- exact expected cost (eq. 11)
def exact_envelope_pieces(fpr, tpr):
    """[(lo, hi, slope, intercept)] of the lower envelope of the cost lines, in Fractions.

    Knots are every pairwise crossing of the lines in (0, 1); on each interval
    between knots the lowest line at the midpoint is the envelope.
    """
    lines = sorted({(1 - Fraction(t) - Fraction(f), Fraction(f)) for f, t in zip(fpr, tpr)})
    knots = {Fraction(0), Fraction(1)}
    for (a1, b1), (a2, b2) in itertools.combinations(lines, 2):
        if a1 != a2:
            x = (b2 - b1) / (a1 - a2)
            if 0 < x < 1:
                knots.add(x)
    knots = sorted(knots)
    pieces = []
    for lo, hi in zip(knots[:-1], knots[1:]):
        mid = (lo + hi) / 2
        s, c = min(lines, key=lambda line: line[0] * mid + line[1])
        pieces.append((lo, hi, s, c))
    return pieces


def _poly_integral(coeffs, a, b):
    """∫_a^b sum(c_k x^k) dx, exactly."""
    return sum(c * (b ** (k + 1) - a ** (k + 1)) / (k + 1) for k, c in enumerate(coeffs))


def _poly_times_line(coeffs, s, c):
    """(s x + c) · sum(c_k x^k) as coefficients."""
    out = [Fraction(0)] * (len(coeffs) + 1)
    for k, ck in enumerate(coeffs):
        out[k] += c * ck
        out[k + 1] += s * ck
    return out


def exact_expected_nec(fpr, tpr, density_pieces):
    """E[NEC | pcf in [0, 1]] for a piecewise-polynomial density, exactly (Fractions).

    ``density_pieces`` is [(a, b, coeffs)]: the density is sum(coeffs[k] x^k) on [a, b].
    """
    num = mass = Fraction(0)
    for lo, hi, s, c in exact_envelope_pieces(fpr, tpr):
        for a, b, coeffs in density_pieces:
            u, v = max(lo, Fraction(a)), min(hi, Fraction(b))
            if u < v:
                num += _poly_integral(_poly_times_line(coeffs, s, c), u, v)
                mass += _poly_integral(coeffs, u, v)
    return num / mass


def beta_density_pieces(p: int, q: int):
    """Beta(p, q) with integer p, q >= 1 as one polynomial piece on [0, 1]."""
    from math import comb, factorial

    norm = Fraction(factorial(p + q - 1), factorial(p - 1) * factorial(q - 1))
    # x^(p-1) (1-x)^(q-1) = sum_j C(q-1, j) (-1)^j x^(p-1+j)
    coeffs = [Fraction(0)] * (p + q - 1)
    for j in range(q):
        coeffs[p - 1 + j] = norm * comb(q - 1, j) * (-1) ** j
    return [(Fraction(0), Fraction(1), coeffs)]


# ---------------------------------------------------------------------- the score-driven rule
def bayes_threshold(pcf, prior) -> float:
    """c = prior·(1-pcf) / (prior·(1-pcf) + (1-prior)·pcf) in rationals from the floats given,
    rounded once to the nearest float (3/10 gives 0.3)."""
    x, r = Fraction(pcf), Fraction(prior)
    a = r * (1 - x)
    return float(a / (a + (1 - r) * x))


def bayes_threshold_from_costs(p_pos, cost_fn, cost_fp, prior) -> float:
    """The same c from the operating point's costs, without rounding PCF(+) first."""
    p, r = Fraction(p_pos), Fraction(prior)
    neg, pos = r * (1 - p) * Fraction(cost_fp), (1 - r) * p * Fraction(cost_fn)
    return float(neg / (neg + pos))


def rates_at_threshold(y, s, t, w=None):
    """(FPR, TPR) of 'score >= t' by classifying every case, sums exact in rationals."""
    w = np.ones(len(y)) if w is None else w
    pos = np.asarray(y) == 1
    above = np.asarray(s) >= t
    tot = [
        sum(map(Fraction, w[m].tolist()), Fraction(0))
        for m in (~pos, pos, ~pos & above, pos & above)
    ]
    return float(tot[2] / tot[0]), float(tot[3] / tot[1])


def nec_at_threshold(y, s, t, pcf, w=None) -> float:
    """NEC at PCF(+) ``pcf`` of 'score >= t', from the raw scores."""
    fpr, tpr = rates_at_threshold(y, s, t, w)
    return (1 - tpr) * pcf + fpr * (1 - pcf)


def pcfs_next_to_each_score(s, prior, steps=3) -> np.ndarray:
    """Float PCF(+) values around where each distinct score in [0, 1] joins the score-driven
    rule: the float ``flip`` of the score and ``steps`` floats either side, where a rounded
    Bayes threshold can land on the wrong side of the score."""
    out = []
    for v in np.unique(s):
        if not 0.0 <= v <= 1.0:
            continue
        x = float(prior * (1 - v) / (prior * (1 - v) + (1 - prior) * v))
        lo = hi = x
        out.append(x)
        for _ in range(steps):
            lo, hi = np.nextafter(lo, -1.0), np.nextafter(hi, 2.0)
            out += [lo, hi]
    return np.clip(np.array(out), 0.0, 1.0)
