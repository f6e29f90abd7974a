"""Fold averages and the fold spread of a classifier with per-case costs, in money per case.

With per-case costs the cost pane draws the cost-weighted twin of the whole data at a setting
(multipliers ``m_fn``, ``m_fp`` of each case's ``cost_fn``, ``cost_fp`` and a prevalence
``p_pos``; Fawcett (2006), "ROC graphs with instance-varying costs", sec. 3): with ``P``, ``N``
its cost-weighted class totals, ``F`` its floor and ``W`` the weight of its cases
(:mod:`costwidget.model.base.case_costs`), PCF(+) is ``x0 = P / (P + N)`` and a threshold's
money per case is ``F / W + NEC·(P + N) / W``. That affine map, of the WHOLE data, puts any
part of the cases on the pane's axes.

**A part of the cases** (a fold, or a bootstrap replicate's counts ``k``) keeps each case's
weight of the whole data's twin (``sample_weight`` times its class's factor for ``p_pos``,
the whole data's prior). Flagging the part's cases scored ``>= t`` costs per case

    ``money(t) = (F_k + FN_k(t) + FP_k(t)) / W_k``

with ``F_k``, ``W_k`` the part's floor and weight and ``FN_k``, ``FP_k`` its cost-weighted
misses and false alarms, all four outcomes counted. Along the pane's axis the two sides are
rescaled as the twin's are (side factors ``a = x·(P + N)/P`` and ``b = (1 − x)·(P + N)/N``,
which keep the normalizer ``P + N`` and give ``a = b = 1`` at ``x0``), so on the pane each
threshold is the line

    ``NEC_k(x; t) = off_k + (1 − x)·u_k(t) + x·v_k(t)``

with ``u_k = FP_k·W / (W_k·N)``, ``v_k = FN_k·W / (W_k·P)`` and
``off_k = (F_k / W_k − F / W)·W / (P + N)``: at ``x0`` it is exactly
``(money(t) − F / W)·W / (P + N)``. The part's curve is the lower envelope of its lines
(``min_t``), piecewise linear and concave; the whole data is the twin itself (``off = 0``,
``u``, ``v`` its cost-weighted rates). Where no case changes side (`multiplier_units`), the
multipliers and p(+) rescale each side as one, so ``u_k``, ``v_k`` and ``off_k = 0`` and the
curves do not move with the setting, as the twin's ROC does not.

The averages (Drummond & Holte (2000), sec. 2.2.3; Drummond & Holte (2004), sec. 7) put
points of the folds into correspondence; each average here is a mean of the folds' lines in
these units, so a mean line is the mean money per case of the corresponding rules:

* ``"cost"``: the vertical average in cost space, ``mean_k NEC_k(x)``: at ``x0`` the mean over
  the folds of each fold's cheapest money per case, exact on the union of the folds'
  breakpoints (linear in between).
* ``"threshold"``: at each threshold ``t`` the mean line ``mean_k NEC_k(x; t)`` (the mean money
  per case of deploying ``t`` in every fold); the curve is their lower envelope.
* ``"vertical"``: points correspond at the same cost-weighted FPR of each fold's own cases,
  ``FP_k / N_k`` (Provost et al.'s vertical average of the folds' cost-weighted ROC curves);
  along a fold's polyline (a mix of two thresholds) ``u_k`` and ``v_k`` are affine in the
  fold's own rates, ``u_k = FPR_k·N_k·W / (W_k·N)``, ``v_k = (1 − TPR_k)·P_k·W / (W_k·P)``, so
  the mean line at each FPR is the mean money per case of those rules. A fold with no
  cost-weighted positive or negative has no rates: refused.
* ``"pooled"``: all folds' cases as one: the twin itself.

In ROC space (``space="roc"``) an average is given by the points dual to its lines on the
pane: the line ``y = (1 − x)·f + x·(1 − t)`` is the ROC point ``(f, t)``, so
``f = mean(off_k + u_k)`` and ``t = 1 − mean(off_k + v_k)``: the pane's cost-weighted ROC
units. Where the folds' floors per case and weights differ, these may lie outside the unit
square (a fold whose perfect ranking costs less per case than the whole data's lies below
the pane's zero): the money is what it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import pandas as pd

from ..kernels.costs import cost_scale
from ..kernels.validation import check_probability
from .fold_curves import (
    cost_frame,
    cost_to_roc,
    lines_envelope,
    polyline_at,
    roc_frame,
    vertical_runs,
)

__all__ = ["PaneMoney", "case_fold_average", "case_fold_spread"]


@dataclass(frozen=True)
class PaneMoney:
    """The whole data's twin at a setting, case by case: what puts a part on the pane.

    Attributes
    ----------
    scores : ndarray
        Each case's score.
    side : ndarray of bool
        True where flagging the case saves money (its side of the cost-weighted ROC).
    weight : ndarray
        Its weight in the twin: ``|f_i − q_i|`` times its case weight.
    cheaper : ndarray
        ``min(f_i, q_i)`` times its case weight (the floor's terms).
    case_weight : ndarray
        ``sample_weight`` times its class's factor for ``p_pos``.
    totals : tuple of float
        ``(P, N, F, W)`` of the whole data.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [.9, .6, .4, .2], cost_fn=[8.0, 0, 2.0, 0],
    ...                                 cost_fp=4.0, cost_tp=3.0)
    >>> money = PaneMoney.of(clf)
    >>> money.side.tolist(), money.totals   # the positive of loss 2 < fee 3 counts as a negative
    ([True, False, False, False], (5.0, 9.0, 5.0, 4.0))
    >>> th, u, v, off = money.lines(mask=[True, True, False, False])   # the first two cases
    >>> th.tolist()   # flag none, then every score (of any case: the others weigh 0 here)
    [inf, 0.9, 0.6, 0.4, 0.2]
    >>> u.round(4).tolist(), v.round(4).tolist(), round(off, 4)   # F_k / W_k = 3 / 2 > 5 / 4
    ([0.0, 0.0, 0.8889, 0.8889, 0.8889], [2.0, 0.0, 0.0, 0.0, 0.0], 0.0714)
    """

    scores: np.ndarray
    side: np.ndarray
    weight: np.ndarray
    cheaper: np.ndarray
    case_weight: np.ndarray
    totals: tuple

    @classmethod
    def of(cls, clf, cost_fn=1.0, cost_fp=1.0, p_pos=None) -> "PaneMoney":
        """The setting of ``clf`` (with per-case costs, one per case) at the multipliers and
        p(+) of :func:`~costwidget.decide`; refuses costs summed by an engine."""
        cc = clf.case_costs
        if not hasattr(cc, "tp"):
            raise ValueError(
                f"{clf.name!r} has per-case costs summed in a database (per score, not per "
                "case): its folds and paired bootstrap need each case with its costs. Load "
                "the rows with Classifier.from_frame(..., cost_fn='col')."
            )
        cost_scale(0.5, cost_fn, cost_fp)  # the multipliers: numbers >= 0, not both 0
        m_fn, m_fp = float(cost_fn), float(cost_fp)
        p = None if p_pos is None else float(check_probability(p_pos, "p_pos"))
        side, weight, floor = cc.checked_roc_weights(m_fn, m_fp, p)
        flag, keep = cc.flag_and_pass(m_fn, m_fp)
        case_weight = cc.case_weights(p)
        big_p, big_n = float(np.sum(weight[side])), float(np.sum(weight[~side]))
        totals = (big_p, big_n, float(floor), float(np.sum(case_weight)))
        scores = np.asarray(clf.sample.scores, dtype=np.float64)
        return cls(scores, side, weight, np.minimum(flag, keep) * case_weight, case_weight, totals)

    def taken(self, perm, totals) -> "PaneMoney":
        """The same setting with the cases in the order ``perm``, in the units of ``totals``
        (another classifier's, so that both read on one pane)."""
        arrays = ("scores", "side", "weight", "cheaper", "case_weight")
        moved = {
            name: getattr(self, name) if perm is None else getattr(self, name)[perm]
            for name in arrays
        }
        return replace(self, totals=totals, **moved)

    @cached_property
    def _order(self):
        """The cases by descending score (ties in data order) and the last of each score."""
        order = np.argsort(-self.scores, kind="stable")
        desc = self.scores[order]
        return order, desc, np.flatnonzero(np.append(desc[1:] != desc[:-1], True))

    def lines(self, count=None, mask=None):
        """``(thresholds, u, v, offset)``: the part's lines on the pane (see the module).

        ``count`` multiplies each case (a replicate's draws), ``mask`` picks a fold; the
        thresholds descend from ``inf`` (flag no case) to the lowest score (flag every case).
        """
        k = np.ones(len(self.scores)) if count is None else np.asarray(count, np.float64)
        if mask is not None:
            k = k * mask
        big_p, big_n, floor, total = self.totals
        part_w = float(np.sum(k * self.case_weight))
        if not part_w > 0:
            raise ValueError("A fold (or a resample) has no case of positive weight.")
        order, desc, ends = self._order
        kw = (k * self.weight)[order]
        side = self.side[order]
        fp = np.concatenate(([0.0], np.cumsum(np.where(side, 0.0, kw))[ends]))
        caught = np.concatenate(([0.0], np.cumsum(np.where(side, kw, 0.0))[ends]))
        fn = caught[-1] - caught
        scale = total / part_w
        offset = (
            (float(np.sum(k * self.cheaper)) / part_w - floor / total) * total / (big_p + big_n)
        )
        th = np.concatenate(([np.inf], desc[ends]))
        return th, fp * scale / big_n, fn * scale / big_p, offset


def _fold_masks(clf):
    """``(labels, masks)``: each fold's cases, in the order of ``clf.folds``."""
    if not clf.folds:
        raise ValueError(
            "This classifier has no folds: build it with "
            "Classifier.from_scores(..., folds=fold_ids) or Classifier.from_frame(...)."
        )
    codes = clf.sample.fold_codes
    labels = list(clf.folds)
    return labels, [codes == j for j in range(len(labels))]


def _fold_curves(clf, setting):
    """Each fold's ``(thresholds, u, v, offset, envelope)`` on the pane."""
    money = PaneMoney.of(clf, *setting)
    curves = []
    for mask in _fold_masks(clf)[1]:
        th, u, v, off = money.lines(mask=mask)
        curves.append((th, u, v, off, lines_envelope(u, v)))
    return money, curves


def case_fold_spread(clf, x, quantiles, setting) -> pd.DataFrame:
    """The folds' NEC on the pane at the pcf values ``x``: ``pcf``, ``nec`` (the mean: the
    mean money per case, scaled as the pane), ``lower``, ``upper`` (min and max, or the
    ``quantiles``); see the module.

    Examples
    --------
    >>> import numpy as np
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [.9, .6, .2, .4], cost_fn=[8.0, 0, 6.0, 0],
    ...                                 cost_fp=4.0, folds=[0, 0, 1, 1])
    >>> band = case_fold_spread(clf, np.array([0.0, 0.5, 1.0]), None, (1.0, 1.0, None))
    >>> band.round(4).to_numpy().tolist()   # fold 0 ranks perfectly; fold 1 misses (6·2/14)
    [[0.0, 0.0, 0.0, 0.0], [0.5, 0.2143, 0.0, 0.4286], [1.0, 0.0, 0.0, 0.0]]
    """
    money, curves = _fold_curves(clf, setting)
    nec = np.array([env.nec(x) + off for *_, off, env in curves])
    if quantiles is None:
        lower, upper = nec.min(axis=0), nec.max(axis=0)
    else:
        lower, upper = np.quantile(nec, np.asarray(quantiles, dtype=np.float64), axis=0)
    out = pd.DataFrame({"pcf": x, "nec": nec.mean(axis=0), "lower": lower, "upper": upper})
    out.attrs["per_case"] = _attrs(money, setting)
    return out


def _attrs(money, setting) -> dict:
    """What the curves are in: the setting and the whole data's map to money per case."""
    big_p, big_n, floor, total = money.totals
    m_fn, m_fp, p_pos = setting
    return {
        "cost_fn": float(m_fn),
        "cost_fp": float(m_fp),
        "p_pos": None if p_pos is None else float(p_pos),
        "pcf": big_p / (big_p + big_n),
        "scale": (big_p + big_n) / total,
        "offset": floor / total,
        "units": "money per case, scaled as the cost pane",
    }


def _cost_mean(curves):
    knots = np.unique(np.concatenate([env.breakpoints()[0] for *_, env in curves]))
    return knots, np.mean([env.nec(knots) + off for *_, off, env in curves], axis=0)


def _threshold_mean(curves, thresholds):
    if thresholds is None:
        thresholds = np.unique(np.concatenate([th[1:] for th, *_ in curves]))[::-1]
    th = np.concatenate(([np.inf], np.asarray(thresholds, dtype=np.float64)))
    f, t = [], []
    for fold_th, u, v, off, _ in curves:
        # A fold's line at t is its last threshold >= t (thresholds descend).
        k = np.searchsorted(-fold_th, -th, side="right") - 1
        f.append(off + u[k])
        t.append(1.0 - (off + v[k]))
    return th, np.mean(f, axis=0), np.mean(t, axis=0)


def _vertical_mean(curves, on):
    own, maps = [], []
    for _, u, v, off, env in curves:
        u_all, v_all = (env.fpr, 1.0 - env.tpr) if on == "hull" else (u, v)
        u_max, v_max = u[-1], v[0]  # the fold's N_k, P_k in the pane's units
        if not (u_max > 0 and v_max > 0):
            raise ValueError(
                "fold_average('vertical') with per-case costs reads each fold's own "
                "cost-weighted rates, but a fold has no cost-weighted positive or negative: "
                "use method='cost' or 'threshold'."
            )
        own.append((np.asarray(u_all) / u_max, 1.0 - np.asarray(v_all) / v_max))
        maps.append((u_max, v_max, off))
    grid = np.unique(np.concatenate([f for f, _ in own]))
    ends = [polyline_at(f, t, grid) for f, t in own]
    bottom = [off + (1.0 - b) * vm for (b, _), (_, vm, off) in zip(ends, maps)]
    top = [off + (1.0 - t) * vm for (_, t), (_, vm, off) in zip(ends, maps)]
    f = np.mean([off + grid * um for um, _, off in maps], axis=0)
    run = np.any([b != t for b, t in ends], axis=0)
    return vertical_runs(f, 1.0 - np.mean(bottom, axis=0), 1.0 - np.mean(top, axis=0), run)


def case_fold_average(clf, method, space, on, thresholds, setting) -> pd.DataFrame:
    """:func:`~costwidget.model.uncertainty.folds.fold_average` of a classifier with per-case
    costs at ``setting = (cost_fn, cost_fp, p_pos)``; the averages are the module's.

    Examples
    --------
    >>> import numpy as np
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [.9, .6, .2, .4], cost_fn=[8.0, 0, 6.0, 0],
    ...                                 cost_fp=4.0, folds=[0, 0, 1, 1])
    >>> avg = case_fold_average(clf, "cost", "cost", "hull", None, (1.0, 1.0, None))
    >>> m = avg.attrs["per_case"]   # P = 14, N = 8, W = 4: the twin's PCF(+) is 14 / 22
    >>> nec = np.interp(m["pcf"], avg.pcf, avg.nec)
    >>> round(float(nec * m["scale"] + m["offset"]), 6)   # fold 0: 0; fold 1 flags both: 4 / 2
    1.0
    """
    money, curves = _fold_curves(clf, setting)
    if method == "cost":
        x, y = _cost_mean(curves)
        out = pd.DataFrame({"pcf": x, "nec": y}) if space == "cost" else cost_to_roc(x, y)
    elif method == "pooled":
        th, u, v, _ = money.lines()
        if space == "cost":
            out = cost_frame(lines_envelope(u, v))
        else:
            out = pd.DataFrame({"threshold": th, "fpr": u, "tpr": 1.0 - v})
    else:
        if method == "threshold":
            th, f, t = _threshold_mean(curves, thresholds)
        else:
            (f, t), th = _vertical_mean(curves, on), None
        if space == "cost":
            out = cost_frame(lines_envelope(f, 1.0 - t))
        elif th is None:
            out = roc_frame(pd.DataFrame({"fpr": f, "tpr": t}))
        else:
            out = pd.DataFrame({"threshold": th, "fpr": f, "tpr": t})
    out.attrs["per_case"] = _attrs(money, setting)
    return out
