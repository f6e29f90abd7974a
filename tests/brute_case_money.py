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


def widget_data(seed=0, n=80, fee=False):
    """Labels, two classifiers' scores, four folds and per-case costs (Pareto amounts; with
    ``fee`` a fee on flagged positives, inside cost_fp, so cheap positives change sides): the
    data of the widget tests of the fold spread and the difference view."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    amount = np.round(rng.pareto(1.5, n) * 20.0 + 0.5, 2)
    costs = {"cost_fn": amount, "cost_fp": 8.0 + np.zeros(n)}
    if fee:
        costs["cost_tp"] = 3.0 + np.zeros(n)
    scores = {
        "a": np.round(rng.random(n) + 0.6 * y, 2),
        "b": np.round(rng.random(n) + 0.9 * y * (amount > 8), 2),
    }
    folds = np.arange(n) % 4
    return y, scores, folds, costs


def widget_setting(y, costs, m_fn, m_fp, p_pos):
    """``(flag, keep, omega, totals)`` of `widget_data`'s costs at a setting (no sample weight)."""
    zeros = np.zeros(len(y))
    flag, keep = flag_and_pass(
        y, costs["cost_fn"], costs["cost_fp"], costs.get("cost_tp", zeros), zeros, m_fn, m_fp
    )
    omega = case_weights(y, None, p_pos)
    return flag, keep, omega, totals(omega, flag, keep)
