"""Neyman-Pearson and workforce limits with per-case costs, exactly.

With per-case costs the money is weighed on the cost-weighted cases (:mod:`.per_case`), but a
limit counts the cases themselves, as it does for per-class costs: the share of the negative
cases flagged (FPR, with ``sample_weight``) at most ``max_fpr``, or the cases flagged
(``TPR·n_pos + FPR·n_neg``, by default the number of cases flagged) at most ``capacity``.

The rules are the single thresholds "flag when score >= t" over every distinct score of the
data (and "flag no case"). As ``t`` falls both counts only grow, so a limit allows exactly the
thresholds down to the lowest allowed one, ``t*``: a prefix of the thresholds in score order.
In the cost-weighted ROC that prefix is not a cut of its FPR (a case's money weight and its
count differ), so the cheapest allowed rule need not be a hull vertex: it is the minimum of the
money per case over every threshold of the prefix, found with cumulative sums in score order.
Each classifier's rule is that minimum (the unconstrained optimum itself when the limit allows
it), and :func:`~costwidget.model.decisions.decide.decide` picks the cheapest classifier, as
without a limit.

The rules are deterministic: the limit holds on the data for the rule itself, not only on
average over a coin toss. A randomized mix of the last allowed threshold and the next one can
meet the limit with equality and cost less in expectation, as on the per-class hull (Drummond &
Holte (2000), sec. 2.2.2); with per-case costs its expected money is not on the cost-weighted
hull, so it is not offered.

``ClassifierDecision.constrained`` is the lowest allowed threshold ``t*`` (the largest TPR a
single threshold reaches within the limit), its ``fpr``/``tpr`` counted on the cases; the rule's
``fpr``/``tpr``/``nec`` are of the cost-weighted cases, as for the unconstrained per-case rule.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from functools import lru_cache

import numpy as np

from ..base.results import ConstrainedPoint
from ..kernels.costs import expected_cost
from ..kernels.readable import deployed_threshold, threshold_text
from .deploy import DecisionRule, rule_and_next_scores
from .operating import readout_row

__all__ = ["case_limited_part", "threshold_table"]

#: NEC lies in [0, 1]: an allowed rule within this of the unconstrained optimum costs the same.
_NEC_SLACK = 1e-12


def threshold_table(clf, m_fn: float, m_fp: float, p_pos=None) -> dict:
    """:func:`_threshold_table`, kept for the last few classifiers and multipliers: moving a
    limit reuses it (read-only arrays)."""
    return _cached_table(clf, float(m_fn), float(m_fp), None if p_pos is None else float(p_pos))


@lru_cache(maxsize=4)  # six arrays of n + 1 floats each: keep few
def _cached_table(clf, m_fn, m_fp, p_pos):
    table = _threshold_table(clf, m_fn, m_fp, p_pos)
    for column in table.values():
        column.flags.writeable = False
    return table


def _threshold_table(clf, m_fn: float, m_fp: float, p_pos=None) -> dict:
    """Every distinct threshold of ``clf``'s cases with its counts, in falling score order.

    Row 0 is "flag no case" (threshold ``+inf``); row ``j`` flags the cases scored at least
    the ``j``-th highest distinct score. Columns: ``threshold``, ``next_lower`` (the next lower
    distinct score, ``-inf`` below the lowest), ``pos``/``neg`` (the positive and negative
    cases flagged, weighted by ``sample_weight``) and ``gain``/``loss`` (the cost-weighted
    cases flagged that count as positive / negative, at the multipliers and p(+)).

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1],
    ...                                 cost_fn=[10.0, 0, 4.0, 0], cost_fp=1.0)
    >>> t = _threshold_table(clf, 1.0, 1.0)
    >>> t["threshold"].tolist(), t["neg"].tolist(), t["gain"].tolist(), t["loss"].tolist()
    ([inf, 0.9, 0.5, 0.1], [0.0, 0.0, 1.0, 2.0], [0.0, 10.0, 14.0, 14.0], [0.0, 0.0, 1.0, 2.0])
    """
    cc = clf.case_costs
    positive, weight, _ = cc.roc_weights(m_fn, m_fp, p_pos)
    count = np.ones(cc.n_samples) if cc.weights is None else np.asarray(cc.weights, float)
    scores = np.asarray(clf.sample.scores, dtype=np.float64)
    order = np.argsort(-scores, kind="stable")
    desc = scores[order]
    ends = np.flatnonzero(np.append(desc[1:] != desc[:-1], True))

    def cum(values):
        return np.concatenate(([0.0], np.cumsum(values[order])[ends]))

    is_pos = cc.is_pos
    threshold = np.concatenate(([np.inf], desc[ends]))
    return {
        "threshold": threshold,
        "next_lower": np.append(threshold[1:], -np.inf),
        "pos": cum(np.where(is_pos, count, 0.0)),
        "neg": cum(np.where(is_pos, 0.0, count)),
        "gain": cum(np.where(positive, weight, 0.0)),
        "loss": cum(np.where(positive, 0.0, weight)),
    }


_LOAD_SLACK = 1e-12


def _loads(table, constraint, limits):
    """Each threshold's load (the counted cases) and the limit, and how to say it."""
    n_pos_data, n_neg_data = table["pos"][-1], table["neg"][-1]
    tpr = table["pos"] / n_pos_data if n_pos_data > 0 else np.zeros_like(table["pos"])
    fpr = table["neg"] / n_neg_data if n_neg_data > 0 else np.zeros_like(table["neg"])
    if constraint == "neyman_pearson":
        return fpr, tpr, fpr, limits["max_fpr"], f"limit FPR <= {limits['max_fpr']:.4g}"
    n_pos, n_neg, capacity = limits["n_pos"], limits["n_neg"], limits["capacity"]
    if n_pos is None and n_neg is None:
        load = table["pos"] + table["neg"]  # the cases flagged, counted exactly
    else:
        n_pos = n_pos_data if n_pos is None else n_pos
        n_neg = n_neg_data if n_neg is None else n_neg
        if n_pos <= 0 or n_neg < 0:
            raise ValueError(
                f"n_pos must be > 0 and n_neg >= 0, got n_pos={n_pos!r}, n_neg={n_neg!r}."
            )
        load = tpr * n_pos + fpr * n_neg
    return fpr, tpr, load, capacity, f"capacity of {capacity:.6g} cases"


def _interval(f, t, j, pcf):
    """The PCF(+) interval where point ``j`` of the allowed points ``(f, t)`` stays cheapest:
    ``x·(1 − t_j) + (1 − x)·f_j <= x·(1 − t_i) + (1 − x)·f_i`` for every allowed ``i``."""
    a, b = t[j] - t, f - f[j]  # g_i(x) = b_i + x·(a_i − b_i) >= 0
    slope = a - b
    with np.errstate(divide="ignore", invalid="ignore"):
        root = -b / slope
    lo = float(np.max(root[slope > 0], initial=0.0))
    hi = float(np.min(root[slope < 0], initial=1.0))
    return min(max(lo, 0.0), pcf), max(min(hi, 1.0), pcf)


def _constrained_point(kind, table, fpr, tpr, last, load, limit, describe):
    """The lowest threshold the limit allows (the largest case TPR of a single threshold)."""
    top = int(np.argmax(tpr))
    t = deployed_threshold(table["threshold"][last], table["next_lower"][last])
    return ConstrainedPoint(
        kind=kind,
        fpr=float(fpr[last]),
        tpr=float(tpr[last]),
        binding=bool(load[top] > limit),
        randomized=False,
        threshold_low=t,
        threshold_high=t,
        prob_low=0.0,
        single_threshold=t,
        single_fpr=float(fpr[last]),
        single_tpr=float(tpr[last]),
        message=(
            f"With per-case costs the {describe} counts the cases: it allows the thresholds "
            f"down to score >= {threshold_text(t)} (FPR {fpr[last]:.4g}, TPR {tpr[last]:.4g} "
            "of the cases)."
        ),
    )


def _allowed_rule(table, last, op, pcf, kind):
    """The cheapest allowed threshold's rule fields (the optimum ``op`` when allowed), in the
    cost-weighted rates, and its row of the table."""
    big_p, big_n = table["gain"][-1], table["loss"][-1]
    f = table["loss"][: last + 1] / big_n
    t = table["gain"][: last + 1] / big_p
    nec = pcf * (1.0 - t) + (1.0 - pcf) * f
    at_op = np.flatnonzero(table["threshold"][: last + 1] == op.threshold)
    if at_op.size:  # the unconstrained optimum is allowed: it is the rule, as without a limit
        j, fields = int(at_op[0]), {"fpr": float(op.fpr), "tpr": float(op.tpr)}
        fields["nec"] = float(op.nec)
    else:
        j = int(np.argmin(nec))  # the first minimum: the fewest cases flagged among equals
        fields = {"fpr": float(f[j]), "tpr": float(t[j]), "nec": float(nec[j])}
    lo, hi = _interval(f, t, j, pcf)
    threshold = deployed_threshold(table["threshold"][j], table["next_lower"][j])
    fields.update(
        threshold=threshold,
        randomized=False,
        threshold_low=threshold,
        threshold_high=threshold,
        prob_low=0.0,
        constraint=kind,
        pcf_lo=lo,
        pcf_hi=hi,
        binding=bool(fields["nec"] - float(op.nec) > _NEC_SLACK),
    )
    return fields, j


def case_limited_part(clf, pcf, costs, scale, constraint, limits, setting):
    """`decide`'s part for one classifier with per-case costs under a limit that counts cases:
    ``(fields of its ClassifierDecision, readout row)``, as ``decide._part`` makes them without
    per-case costs. ``clf`` is the cost-weighted twin; its cases and costs are ``setting``'s."""
    if constraint == "none":
        raise ValueError("case_limited_part is for constraint='neyman_pearson' or 'workforce'.")
    original = setting.originals[clf.name]
    p_given, m_fn, m_fp = setting.given
    table = threshold_table(original, m_fn, m_fp, setting.twin_p_pos)
    fpr, tpr, load, limit, describe = _loads(table, constraint, limits)
    # Loads are sums of float weights: ten cases of weight 0.1 with three flagged give an FPR of
    # 0.30000000000000004, which a limit of 0.3 must allow. A relative slack of 1e-12 (far above
    # the rounding of any sum of weights, far below any difference one case makes) does.
    slack = _LOAD_SLACK * max(1.0, abs(limit))
    last = int(np.searchsorted(load, limit + slack, side="right")) - 1  # loads only grow
    last = max(last, 0)  # flagging no case is always allowed (limits are >= 0)
    op = clf.best(pcf)
    free = rule_and_next_scores(clf, *costs, None, op=op)[0]
    fields, j = _allowed_rule(table, last, op, pcf, constraint)
    rule = DecisionRule(
        classifier=clf.name,
        pcf=pcf,
        p_pos=float(costs[0]),
        cost_fn=float(costs[1]),
        cost_fp=float(costs[2]),
        expected_cost=float(expected_cost(fields["nec"], *costs)),
        **fields,
    )
    cp = _constrained_point(constraint, table, fpr, tpr, last, load, limit, describe)
    below = float(table["next_lower"][j])
    best = replace(op, threshold=free.threshold)
    part = dict(
        name=clf.name,
        best=best,
        constrained=cp,
        rule=setting.money(rule),
        next_score_high=below,
        next_score_low=below,
        shown_high=threshold_text(rule.threshold_high),
        shown_low=threshold_text(rule.threshold_low),
    )
    row = readout_row(clf, best, asdict(rule), scale=scale)
    return part, setting.money_row(row)
