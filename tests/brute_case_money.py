"""Money per case of per-case costs, written out case by case for the fold and difference tests.

Nothing here comes from costwidget: each case's cost under a decision is its ``cost_tp``,
``cost_fn``, ``cost_fp`` or ``cost_tn`` (the multipliers on ``cost_fn`` and ``cost_fp``), each
case weighs its ``sample_weight`` times its class's factor for ``p_pos`` (the whole data's
prior), and a threshold flags the cases scored ``>= t``.

The cost pane's axes (Drummond & Holte (2006), sec. 2, with the cases weighted by what deciding
them wrongly costs, as Fawcett (2006), "ROC graphs with instance-varying costs", proposes) are
the whole data's: ``P``, ``N`` the regret of the cases cheaper flagged and cheaper passed, ``F``
the cost of a perfect ranking, ``W`` the cases' weight. At PCF(+) ``x`` each case's regret is
scaled by ``a = x·(P + N)/P`` (cases cheaper flagged) or ``b = (1 − x)·(P + N)/N`` (the
others), which is 1 at ``x0 = P / (P + N)``; a part of the cases (a fold, a resample) costing
``money`` per case reads ``(money − F / W)·W / (P + N)`` on the pane.
"""

from __future__ import annotations

import numpy as np


def case_weights(y, sample_weight, p_pos=None):
    """Each case's weight: ``sample_weight`` times ``p/prior`` or ``(1 − p)/(1 − prior)``."""
    y = np.asarray(y)
    sw = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
    prior = sw[y == 1].sum() / sw.sum()
    p = prior if p_pos is None else p_pos
    return sw * np.where(y == 1, p / prior, (1 - p) / (1 - prior))


def flag_and_pass(y, fn, fp, tp, tn, m_fn=1.0, m_fp=1.0):
    """Each case's cost if flagged and if passed."""
    y = np.asarray(y)
    flag = np.where(y == 1, tp, m_fp * np.asarray(fp, float))
    keep = np.where(y == 1, m_fn * np.asarray(fn, float), tn)
    return flag, keep


def totals(omega, flag, keep):
    """``(P, N, F, W)`` of cases weighing ``omega``, summed case by case."""
    big_p = big_n = floor = total = 0.0
    for w, f, q in zip(omega, flag, keep):
        if q > f:
            big_p += w * (q - f)
        else:
            big_n += w * (f - q)
        floor += w * min(f, q)
        total += w
    return big_p, big_n, floor, total


def pane_lines(x, scores, omega, flag, keep, whole):
    """``(thresholds, values)``: the pane NEC at each ``x`` (columns) of flagging the cases
    scored ``>= t`` for every threshold (rows: inf, then every distinct score, descending),
    for the cases weighing ``omega`` (0 outside the part)."""
    big_p, big_n, floor, total = whole
    x = np.atleast_1d(np.asarray(x, float))
    ths = np.concatenate(([np.inf], np.unique(scores)[::-1]))
    low = np.minimum(flag, keep)
    part = omega.sum()
    out = np.empty((len(ths), len(x)))
    for i, t in enumerate(ths):
        cost = np.where(scores >= t, flag, keep)
        regret = omega * (cost - low)
        on_pos = keep > flag
        for j, xj in enumerate(x):
            a = xj * (big_p + big_n) / big_p
            b = (1 - xj) * (big_p + big_n) / big_n
            money = np.sum(omega * low) + a * regret[on_pos].sum() + b * regret[~on_pos].sum()
            out[i, j] = (money / part - floor / total) * total / (big_p + big_n)
    return ths, out


def pane_best(x, scores, omega, flag, keep, whole):
    """The part's cheapest threshold at each ``x``: the minimum over every threshold."""
    return pane_lines(x, scores, omega, flag, keep, whole)[1].min(axis=0)


def money_best(scores, omega, flag, keep):
    """The cheapest money per case of the cases weighing ``omega``, over every threshold."""
    best = np.inf
    for t in np.concatenate(([np.inf], np.unique(scores))):
        cost = np.where(scores >= t, flag, keep)
        best = min(best, float(np.sum(omega * cost) / np.sum(omega)))
    return best
