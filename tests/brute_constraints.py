"""Brute force for constrained choices (Drummond & Holte (2000), sec. 2.2.2, eq. 12-13), exact.

Written without ``costwidget``: every ROC point of a classifier is recomputed from the raw
labels and scores as exact fractions, and every randomized mix of two ROC points (the points of
every segment, hull edges among them) is a rule a user can deploy (Drummond & Holte (2000),
fig. 10). The rules a constraint allows are those with ``load <= limit``; the load is FPR for
Neyman-Pearson and TP·P + FP·N cases flagged for workforce (eq. 12). The allowed set is
convex, so its extreme points are the allowed ROC points and the points where a segment between
two ROC points crosses ``load = limit``: a linear objective (expected cost, or TPR) takes its
optimum over the allowed rules at one of them.

Two answers are computed:

- :func:`paper_point`: the paper's criterion, the largest TPR the constraint allows;
- :func:`cheapest_allowed`: the lowest expected cost over the allowed rules (issue 31). Where the
  limit binds (no cheapest unconstrained rule is allowed) it is the paper's point; where it
  does not, it is the unconstrained cheapest rule.
"""

from __future__ import annotations

from fractions import Fraction


def roc_rates(is_pos, scores):
    """Every ROC point ``(fpr, tpr)`` as Fractions, one per threshold (+inf and each distinct
    score), with predicted positive meaning ``score >= threshold``."""
    is_pos = [bool(v) for v in is_pos]
    scores = [float(s) for s in scores]
    n_pos = sum(is_pos)
    n_neg = len(is_pos) - n_pos
    out = []
    for t in [float("inf")] + sorted(set(scores), reverse=True):
        tp = sum(1 for p, s in zip(is_pos, scores) if p and s >= t)
        fp = sum(1 for p, s in zip(is_pos, scores) if not p and s >= t)
        out.append((t, Fraction(fp, n_neg), Fraction(tp, n_pos)))
    return out


def neyman_pearson_load(fpr, tpr):
    """The Neyman-Pearson constraint's left-hand side: FPR."""
    return fpr


def workforce_load(n_pos, n_neg):
    """The workforce constraint's left-hand side, cases flagged TP·P + FP·N (eq. 12)."""
    n_pos, n_neg = Fraction(n_pos), Fraction(n_neg)
    return lambda fpr, tpr: tpr * n_pos + fpr * n_neg


def expected_cost(p_pos, cost_fn, cost_fp):
    """Expected cost per case of a rule with rates ``(fpr, tpr)``, straight from the costs."""
    p, cfn, cfp = Fraction(p_pos), Fraction(cost_fn), Fraction(cost_fp)
    return lambda fpr, tpr: p * cfn * (1 - tpr) + (1 - p) * cfp * fpr


def allowed_extremes(points, load, limit):
    """The extreme points of the allowed rules: every allowed ROC point, and every crossing of
    ``load = limit`` by a segment between two ROC points (a mix of the two)."""
    limit = Fraction(limit)
    rates = [(f, t) for _, f, t in points]
    out = [(f, t) for f, t in rates if load(f, t) <= limit]
    for f1, t1 in rates:
        l1 = load(f1, t1)
        for f2, t2 in rates:
            l2 = load(f2, t2)
            if l1 < limit < l2:
                w = (limit - l1) / (l2 - l1)  # weight on the second point
                out.append((f1 + w * (f2 - f1), t1 + w * (t2 - t1)))
    return out


def cheapest_allowed(points, load, limit, cost):
    """The lowest expected cost over every rule with ``load <= limit`` (pure or mixed)."""
    return min(cost(f, t) for f, t in allowed_extremes(points, load, limit))


def cheapest(points, cost):
    """The lowest expected cost over every rule, unconstrained."""
    return min(cost(f, t) for _, f, t in points)


def paper_point(points, load, limit):
    """The paper's criterion: the largest TPR over the allowed rules, and the lowest FPR that
    reaches it (Drummond & Holte (2000), sec. 2.2.2)."""
    allowed = allowed_extremes(points, load, limit)
    top = max(t for _, t in allowed)
    return min(f for f, t in allowed if t == top), top


def binds(points, load, limit, cost):
    """True when no cheapest unconstrained rule is allowed: the limit changes the answer."""
    return cheapest_allowed(points, load, limit, cost) > cheapest(points, cost)


def binding_limit(point_sets, load, cost, where):
    """A limit below every classifier's cheapest rules (so it binds for each), where the
    winner's cheapest allowed rule is a ROC point (``where="vertex"``) or a mix of two
    (``where="edge"``). ``point_sets`` holds each classifier's :func:`roc_rates`."""
    lows = [
        min(load(f, t) for _, f, t in pts if cost(f, t) == cheapest(pts, cost))
        for pts in point_sets
    ]
    below = sorted({load(f, t) for pts in point_sets for _, f, t in pts if load(f, t) < min(lows)})
    candidates = below[::-1] + [(u + v) / 2 for u, v in zip(below[-2::-1], below[::-1])]
    for limit in candidates:
        extremes = [allowed_extremes(pts, load, limit) for pts in point_sets]
        costs = [min(cost(f, t) for f, t in ext) for ext in extremes]
        winner = costs.index(min(costs))
        at = next((f, t) for f, t in extremes[winner] if cost(f, t) == costs[winner])
        on_point = at in {(f, t) for _, f, t in point_sets[winner]}
        if limit > 0 and on_point == (where == "vertex"):
            return limit
    raise ValueError(f"no binding limit puts the winner on a {where} in this state")
