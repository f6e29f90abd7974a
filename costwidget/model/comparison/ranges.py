"""Choosing over a range of cost ratios: Al-Saffar (2018)'s MTMCS, MTMCR, cost sensitivity and CST.

The thesis (Al-Saffar (2018), secs. 4.1-4.5 and 5.7) normalizes the two error
costs so that ``FPcost + FNcost = 1`` and puts ``x = FPcost`` on the x axis
(printed as the ratio ``FPcost/FNcost``, e.g. ``0.25/0.75``). Its total
misclassification cost has no prior term::

    TMC(x) = FNrate * (1 - x) + FPrate * x            (in percent: times 100)

which is the normalized expected cost at ``PCF(+) = 1 - x`` with equal priors
(Drummond & Holte (2000), eq. 6 and 8, with p(+) = 0.5 and FNcost = 1 - x). So
the thesis's MTMCS, the minimum of TMC over thresholds, is ``100 * NEC`` of the
lower envelope at ``PCF(+) = 1 - x``, and this module computes it exactly from
the envelope instead of by scanning a threshold grid.

* MTMCR over ``[r1, r2]``: the plain sum of MTMCS at ``r1, r1 + step, ..., r2``
  (not multiplied by the step), Al-Saffar (2018), sec. 4.2.2.1.
* Cost sensitivity: the highest MTMCS minus the lowest in the range (sec. 4.2.2.2).
* CST = MTMCR * (1 + sensitivity / 100); lower is better (sec. 4.2.2.3).
* The "optimized search" (sec. 4.3.2) is the thesis's own heuristic, kept
  here as :func:`thesis_optimized_search` to show what it misses.

Decimal inputs such as ``fp_cost=0.35`` are taken as the decimal the user
typed (the shortest repr of the float), so that a tie between two thresholds
at exactly 0.35 is found as a tie; the comparison is done in exact rational
arithmetic on the ROC counts.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd

from ..base.fields import as_named

# Re-exported here, their documented home before the split
# (costwidget.model.comparison.ranges.range_grid, ...).
from ..kernels.range_checks import (  # noqa: F401
    check_range,
    check_unit,
    plain_value,
    range_grid,
    scalar_or_array,
    snap_range,
    typed_decimal,
)
from .thesis_search import ThesisSearch, search_curve, search_one, thesis_optimized_search  # noqa: F401

__all__ = [
    "ThesisSearch",
    "check_range",
    "cost_sensitivity_table",
    "mtmcs",
    "mtmcs_curve",
    "optimal_thresholds",
    "range_grid",
    "range_summary",
    "snap_range",
    "thesis_optimized_search",
    "threshold_segments",
]

#: Float pcf values closer than this to an envelope crossing get the exact rational check.
_NEAR_CROSSING = 1e-9
_AXES = ("fp_cost", "pcf")


# ---------------------------------------------------------------------------- MTMCS
def mtmcs(clf, fp_cost):
    """The thesis's MTMCS at normalized FP cost ``fp_cost``, in percent, exactly.

    ``MTMCS(x) = min over thresholds of FNrate·(1 - x) + FPrate·x``, times 100
    (Al-Saffar (2018), sec. 4.1), read off the lower envelope: it is
    ``100 * clf.nec(1 - x)`` (PCF(+) = FNcost = 1 - x at equal priors).
    Also available as :meth:`Classifier.mtmcs`.

    Parameters
    ----------
    clf : Classifier
    fp_cost : float or array-like
        Normalized FP cost(s) x in [0, 1] (FNcost = 1 - x); the thesis's x axis
        ``FPcost/FNcost`` from ``0.05/0.95`` to ``0.95/0.05`` is x = 0.05 ... 0.95.

    Returns
    -------
    float or ndarray
        Same shape as ``fp_cost``.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_confusion(tp=8, fn=2, fp=3, tn=7)   # FNR 0.2, FPR 0.3
    >>> clf.mtmcs(0.5)   # (0.2 + 0.3) / 2, below both trivial classifiers' 50
    25.0
    >>> clf.mtmcs([0.1, 0.9]).round(6).tolist()   # the trivial classifiers win at the ends
    [10.0, 10.0]
    """
    x = check_unit(fp_cost, "fp_cost")
    out = 100.0 * np.asarray(clf.nec(1.0 - x), dtype=np.float64)
    return scalar_or_array(x, out)


def _pcf_values(clf, pcf) -> np.ndarray:
    """100·NEC at PCF(+) values (the 'pcf' axis of :func:`range_summary`)."""
    return 100.0 * np.asarray(clf.nec(pcf), dtype=np.float64)


# ---------------------------------------------------------------------------- exact optimal vertices
class _ExactHull:
    """A classifier's hull vertices with exact (rational) TMC comparisons at a given PCF(+)."""

    def __init__(self, clf):
        counts, h = clf.counts, clf.hull_index
        self.clf = clf
        self.hull = h
        self.n_roc = len(counts.thresholds)
        self.thresholds = counts.thresholds
        self.scored = clf.sample is not None
        # Counts stay numpy until a comparison needs them: a hull can have 10^5 vertices,
        # and only a few are ever compared exactly.
        self.tp, self.fp = counts.tp[h], counts.fp[h]
        self.n_pos, self.n_neg = Fraction(counts.n_pos), Fraction(counts.n_neg)
        self.crossings = clf.envelope_curve.crossings

    def scaled_cost(self, k: int, c: Fraction) -> Fraction:
        """NEC of hull vertex k at PCF(+) = c, times n_pos·n_neg (exact)."""
        tp, fp = Fraction(self.tp[k].item()), Fraction(self.fp[k].item())
        return self.n_neg * (self.n_pos - tp) * c + self.n_pos * fp * (1 - c)

    def optimal(self, c: Fraction, start: int) -> tuple[int, int]:
        """(first, last) hull vertex optimal at c: one vertex, or the run of tied ones."""
        cost, last = self.scaled_cost, len(self.hull) - 1
        k = start
        # Walk downhill from the float guess; the envelope is concave in k, so the
        # local minimum is the global one.
        while k > 0 and cost(k - 1, c) < cost(k, c):
            k -= 1
        while k < last and cost(k + 1, c) < cost(k, c):
            k += 1
        a = b = k
        best = cost(k, c)
        while a > 0 and cost(a - 1, c) == best:
            a -= 1
        while b < last and cost(b + 1, c) == best:
            b += 1
        return a, b

    def optimal_many(self, pcf_float: np.ndarray, pcf_exact) -> tuple[np.ndarray, np.ndarray]:
        """Vectorized :meth:`optimal`: the float envelope where it is far from a crossing."""
        env = self.clf.envelope_curve
        k = np.atleast_1d(env.vertex_at(pcf_float)).astype(np.intp)
        x = np.atleast_1d(pcf_float)
        cross = self.crossings
        left = np.where(k > 0, cross[np.maximum(k - 1, 0)], -np.inf)
        right = np.where(k < len(cross), cross[np.minimum(k, len(cross) - 1)], np.inf)
        near = (x - left <= _NEAR_CROSSING) | (right - x <= _NEAR_CROSSING)
        a, b = k.copy(), k.copy()
        for i in np.flatnonzero(near):
            a[i], b[i] = self.optimal(pcf_exact(i), int(k[i]))
        return a, b

    def threshold_interval(self, a: int, b: int) -> tuple[float, float, bool]:
        """(lo, hi, gap) of the score thresholds θ reaching the minimum when vertices a..b tie.

        Every optimal θ satisfies ``lo < θ <= hi``; ``gap`` is True when some θ in
        that interval does not reach it (an ROC point strictly below the tied hull
        edge lies between the tied vertices).
        """
        if not self.scored:
            return math.nan, math.nan, False
        ra, rb = int(self.hull[a]), int(self.hull[b])
        hi = float(self.thresholds[ra])
        lo = float(self.thresholds[rb + 1]) if rb + 1 < self.n_roc else -math.inf
        gap = rb - ra > 1 and not self._on_edge(ra, rb)
        return lo, hi, gap

    def _on_edge(self, ra: int, rb: int) -> bool:
        """True if every ROC point between ROC indices ra and rb lies on the segment ra-rb."""
        counts = self.clf.counts
        tp, fp = counts.tp[ra : rb + 1], counts.fp[ra : rb + 1]
        if tp.dtype.kind in "iu" and max(int(tp[-1]), int(fp[-1])) < 2**31:
            # Integer counts: exact cross products in int64 (no overflow below 2^31).
            dt, df = tp - tp[0], fp - fp[0]
            return bool(np.all(df * dt[-1] == dt * df[-1]))
        t0, f0 = Fraction(float(tp[0])), Fraction(float(fp[0]))
        dt_end, df_end = Fraction(float(tp[-1])) - t0, Fraction(float(fp[-1])) - f0
        return all(
            (Fraction(float(f)) - f0) * dt_end == (Fraction(float(t)) - t0) * df_end
            for t, f in zip(tp[1:-1].tolist(), fp[1:-1].tolist())
        )


def optimal_thresholds(clf, fp_cost) -> pd.DataFrame:
    """The thesis's optimal classification thresholds chart, exactly: who reaches MTMCS at each x.

    Al-Saffar (2018), sec. 4.4 plots, at each normalized FP cost x, the threshold
    that reaches MTMCS(x). Here the whole set of such thresholds is given. A
    score threshold θ means "predicted positive iff score >= θ" (as in
    ``sklearn.metrics.roc_curve``). Also available as
    :meth:`Classifier.optimal_thresholds`.

    Parameters
    ----------
    clf : Classifier
    fp_cost : float or array-like
        Normalized FP cost(s) x in [0, 1]. Each is taken as the decimal it was
        typed as (0.35 means 7/20), and ties are decided in exact arithmetic.

    Returns
    -------
    DataFrame
        One row per ``fp_cost``:

        * ``fp_cost``, ``mtmcs`` (percent);
        * ``threshold``: the threshold :meth:`Classifier.best` gives at PCF(+) =
          1 - x (where two hull vertices tie, the one with the lower threshold,
          except at x = 0);
        * ``threshold_lo``, ``threshold_hi``: every score threshold θ reaching
          MTMCS satisfies ``threshold_lo < θ <= threshold_hi``; NaN for a
          classifier without score thresholds (``from_roc``/``from_confusion``);
        * ``tie``: True where two hull vertices are optimal (an envelope
          breakpoint); then the interval spans both, and the ROC points on the
          hull edge between them;
        * ``gap``: True where some θ inside ``(threshold_lo, threshold_hi]`` does
          not reach MTMCS (a tie whose hull edge passes over a worse ROC point).

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 1, 1, 0, 1, 0, 0, 0],
    ...                                 [0.9, 0.8, 0.6, 0.6, 0.4, 0.4, 0.2, 0.1])
    >>> clf.optimal_thresholds([0.2, 0.5, 0.8])
       fp_cost  mtmcs  threshold  threshold_lo  threshold_hi    tie    gap
    0      0.2   10.0        0.4           0.2           0.4  False  False
    1      0.5   25.0        0.4           0.2           0.8   True  False
    2      0.8   10.0        0.8           0.6           0.8  False  False

    At x = 0.5 the hull vertices at thresholds 0.8 (FPR 0, TPR 0.5) and 0.4
    (FPR 0.5, TPR 1) tie, and so does the ROC point of 0.6 on the edge between
    them: every θ in (0.2, 0.8] reaches the minimum.
    """
    x = check_unit(fp_cost, "fp_cost")
    flat = np.atleast_1d(x).ravel()
    pcf = 1.0 - flat
    exact = _ExactHull(clf)
    a, b = exact.optimal_many(pcf, lambda i: 1 - typed_decimal(flat[i]))
    rows = [exact.threshold_interval(int(i), int(j)) for i, j in zip(a, b)]
    # As Classifier.best: the vertex optimal just to the right in PCF(+), except at PCF(+) = 1.
    chosen = np.where(pcf >= 1.0, a, b)
    return pd.DataFrame(
        {
            "fp_cost": flat,
            "mtmcs": 100.0 * np.asarray(clf.nec(pcf), dtype=np.float64).reshape(-1),
            "threshold": exact.thresholds[exact.hull[chosen]],
            "threshold_lo": [r[0] for r in rows],
            "threshold_hi": [r[1] for r in rows],
            "tie": a != b,
            "gap": [r[2] for r in rows],
        }
    )


# ---------------------------------------------------------------------------- CST table
def cost_sensitivity_table(mtmcs) -> pd.DataFrame:
    """MTMCR, cost sensitivity and CST from MTMCS values, exactly as the thesis computes them.

    Al-Saffar (2018), secs. 4.2.2.1-4.2.2.3 and 5.7:
    ``MTMCR`` is the plain sum of a row (not multiplied by the grid step),
    ``cost_sensitivity`` is its highest minus its lowest value, and
    ``CST = MTMCR * (1 + cost_sensitivity / 100)``; lower is better.

    Parameters
    ----------
    mtmcs : DataFrame
        One row per classifier, one column per grid point of the range (both
        ends included), values in percent, e.g. Table 11 of the thesis.

    Returns
    -------
    DataFrame
        Same index; columns ``MTMCR``, ``cost_sensitivity``, ``CST``.

    Examples
    --------
    The thesis's Table 13 (Credit Approval, cost ratios 0.25/0.75 ... 0.50/0.50)
    gives its Table 14:

    >>> import pandas as pd
    >>> import costwidget as cw
    >>> table13 = pd.DataFrame([[10, 11, 12, 13, 13.5, 14], [12, 13, 13, 13, 13, 13]],
    ...                        index=["Adaboost", "Random Forest"],
    ...                        columns=["0.25/0.75", "0.30/0.70", "0.35/0.65", "0.40/0.60",
    ...                                 "0.45/0.55", "0.50/0.50"])
    >>> cw.cost_sensitivity_table(table13).round(2)
                   MTMCR  cost_sensitivity    CST
    Adaboost        73.5               4.0  76.44
    Random Forest   77.0               1.0  77.77
    """
    if isinstance(mtmcs, pd.Series):
        mtmcs = mtmcs.to_frame().T
    if not isinstance(mtmcs, pd.DataFrame):
        raise TypeError(
            f"mtmcs must be a pandas DataFrame (rows: classifiers, columns: grid "
            f"points), got {type(mtmcs).__name__}."
        )
    if mtmcs.shape[1] == 0 or mtmcs.shape[0] == 0:
        raise ValueError(
            f"mtmcs is empty (shape {mtmcs.shape}); it needs one row per classifier "
            "and one column per grid point."
        )
    try:
        values = mtmcs.to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("mtmcs must hold numbers (MTMCS in percent).") from None
    if not np.isfinite(values).all():
        row, col = np.argwhere(~np.isfinite(values))[0]
        label, column = (plain_value(v) for v in (mtmcs.index[row], mtmcs.columns[col]))
        raise ValueError(
            f"mtmcs has a missing or infinite value at row {label!r}, "
            f"column {column!r}; every grid point needs an MTMCS."
        )
    total = values.sum(axis=1)
    sensitivity = values.max(axis=1) - values.min(axis=1)
    return pd.DataFrame(
        {
            "MTMCR": total,
            "cost_sensitivity": sensitivity,
            "CST": total * (1.0 + sensitivity / 100.0),
        },
        index=mtmcs.index,
    )


# ---------------------------------------------------------------------------- range summary
def _exact_measures(clf, c_lo: float, c_hi: float) -> tuple[float, float]:
    """(mean, max - min) of 100·NEC over PCF(+) in [c_lo, c_hi], from the envelope's pieces."""
    if c_hi <= c_lo:
        value = float(_pcf_values(clf, c_lo))
        return value, 0.0
    mean = 100.0 * clf.area(c_lo, c_hi) / (c_hi - c_lo)
    # NEC is linear between breakpoints: its extremes over the range are at the ends
    # or at a breakpoint inside.
    x = clf.envelope["pcf"].to_numpy()
    points = np.concatenate(([c_lo, c_hi], x[(x > c_lo) & (x < c_hi)]))
    values = _pcf_values(clf, points)
    return float(mean), float(values.max() - values.min())


def _threshold_span(clf, exact: _ExactHull, c_lo: Fraction, c_hi: Fraction) -> tuple[float, float]:
    """(min, max) threshold of the hull vertices optimal somewhere in PCF(+) [c_lo, c_hi].

    The optimal vertex moves monotonically along the hull as PCF(+) grows, so
    they are the run from the first vertex optimal at c_lo to the last at c_hi.
    """
    (a, _), (_, b) = (
        exact.optimal_many(np.array([float(c)]), lambda i, c=c: c) for c in (c_lo, c_hi)
    )
    th = exact.thresholds[exact.hull[int(a[0]) : int(b[0]) + 1]]
    if np.isnan(th).any():
        return math.nan, math.nan
    return float(th.min()), float(th.max())


def range_summary(classifiers, lo, hi, *, step=0.05, axis="fp_cost") -> pd.DataFrame:
    """Compare classifiers over a range of cost ratios: the thesis's MTMCR, sensitivity, CST, exactly.

    Parameters
    ----------
    classifiers : Classifier, list of Classifier, or dict {name: Classifier}
    lo, hi : float
        The range of interest, ends included. With ``axis="fp_cost"`` (the
        thesis's axis) they are normalized FP costs: ``[0.35, 0.55]`` is the
        thesis's ``[0.35/0.65, 0.55/0.45]``. ``hi - lo`` must be a whole
        number of steps; ``lo == hi`` is a single point.
    step : float, default 0.05
        The thesis's grid step.
    axis : {"fp_cost", "pcf"}
        ``"fp_cost"``: the thesis's x = FPcost with FPcost + FNcost = 1 and
        no prior term; the value at x is ``MTMCS(x) = 100·NEC(PCF(+) = 1 - x)``.
        ``"pcf"``: the same measures on the PCF(+) axis of cost space, which
        includes the priors: ``PCF(+) = p·FNcost / (p·FNcost + (1-p)·FPcost)``,
        and the value at PCF(+) is ``100·NEC``. At p(+) = 0.5 the two axes are
        mirror images, ``PCF(+) = 1 - x``: the range ``[lo, hi]`` on
        ``"fp_cost"`` gives the same numbers as ``[1 - hi, 1 - lo]`` on
        ``"pcf"``. In general, x = 1 - PCF(+) is the prior-weighted share of
        the FP cost, ``(1-p)·FPcost / (p·FNcost + (1-p)·FPcost)``.

    Returns
    -------
    DataFrame
        Indexed by classifier name, with columns:

        * ``mtmcr``, ``sensitivity``, ``cst``: the thesis's grid measures
          (Al-Saffar (2018), sec. 5.7) on ``lo, lo + step, ..., hi``, as
          :func:`cost_sensitivity_table` computes them; ``n_points`` is the
          number of grid points.
        * ``mean_mtmcs_exact``: the integral of MTMCS over [lo, hi] divided by
          ``hi - lo`` (the value at lo when ``lo == hi``), exact on the
          envelope's linear pieces. ``mtmcr / n_points`` tends to it as the
          step shrinks.
        * ``sensitivity_exact``: max - min of MTMCS over the continuous range.
          The grid points lie in the range, so it is never below
          ``sensitivity``; it is larger when a peak falls between grid points.
        * ``cst_exact = mean_mtmcs_exact · (1 + sensitivity_exact / 100)``:
          step-free, per point; ``cst / n_points`` tends to it as the step shrinks.
        * ``rank`` (by ``cst``, 1 = best, ties share the lower rank) and
          ``rank_exact`` (by ``cst_exact``); ``recommended``: True for the
          classifier with the lowest ``cst`` (the first one on a tie).
        * ``threshold_min``, ``threshold_max``: the span of the optimal score
          thresholds (as :meth:`Classifier.best` reports them) over the whole
          closed range, from every hull vertex optimal somewhere in it; NaN
          without score thresholds.

        ``attrs`` holds ``grid`` (the grid points), ``axis``, ``lo``, ``hi``,
        ``step`` and ``recommended`` (a name).

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_confusion(tp=9, fn=1, fp=4, tn=6, name="a")   # FNR .1, FPR .4
    >>> b = cw.Classifier.from_confusion(tp=7, fn=3, fp=1, tn=9, name="b")   # FNR .3, FPR .1
    >>> s = cw.range_summary([a, b], 0.25, 0.5)
    >>> s.attrs["grid"]
    [0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
    >>> s[["mtmcr", "sensitivity", "cst", "rank", "recommended"]].round(2)
                mtmcr  sensitivity     cst  rank  recommended
    classifier
    a           127.5          7.5  137.06     1         True
    b           135.0          5.0  141.75     2        False

    Over [0.6, 0.8], a's MTMCS peaks at x = 9/13 (30.77), between two grid points:

    >>> s = cw.range_summary([a, b], 0.6, 0.8)
    >>> s[["sensitivity", "sensitivity_exact", "mean_mtmcs_exact", "cst_exact"]].round(2)
                sensitivity  sensitivity_exact  mean_mtmcs_exact  cst_exact
    classifier
    a                  10.0              10.77             27.23      30.16
    b                   4.0               4.00             16.00      16.64
    """
    if axis not in _AXES:
        raise ValueError(
            f"axis must be 'fp_cost' (the thesis's FPcost axis) or 'pcf' (PCF(+)), got {axis!r}."
        )
    named = as_named(classifiers, "range_summary")
    lo_, hi_ = (float(check_unit(v, n)) for v, n in ((lo, "lo"), (hi, "hi")))
    grid = range_grid(lo_, hi_, step)
    if axis == "fp_cost":
        pcf_grid = 1.0 - grid
        c_lo, c_hi = 1.0 - hi_, 1.0 - lo_
        exact_lo, exact_hi = 1 - typed_decimal(hi_), 1 - typed_decimal(lo_)
    else:
        pcf_grid = grid
        c_lo, c_hi = lo_, hi_
        exact_lo, exact_hi = typed_decimal(lo_), typed_decimal(hi_)
    values = pd.DataFrame(
        [_pcf_values(clf, pcf_grid) for clf in named.values()], index=list(named), columns=grid
    )
    table = cost_sensitivity_table(values)
    rows = []
    for clf in named.values():
        mean, sens = _exact_measures(clf, c_lo, c_hi)
        t_min, t_max = _threshold_span(clf, _ExactHull(clf), exact_lo, exact_hi)
        rows.append((mean, sens, mean * (1.0 + sens / 100.0), t_min, t_max))
    exact = pd.DataFrame(
        rows,
        index=list(named),
        columns=[
            "mean_mtmcs_exact",
            "sensitivity_exact",
            "cst_exact",
            "threshold_min",
            "threshold_max",
        ],
    )
    out = pd.DataFrame(
        {
            "mtmcr": table["MTMCR"],
            "sensitivity": table["cost_sensitivity"],
            "cst": table["CST"],
            "n_points": len(grid),
        },
        index=list(named),
    )
    out = out.join(exact[["mean_mtmcs_exact", "sensitivity_exact", "cst_exact"]])
    out["rank"] = out["cst"].rank(method="min").astype(int)
    out["rank_exact"] = out["cst_exact"].rank(method="min").astype(int)
    best = str(out["cst"].idxmin())
    out["recommended"] = out.index == best
    out = out.join(exact[["threshold_min", "threshold_max"]])
    out.index.name = "classifier"
    out.attrs.update(
        grid=grid.tolist(), axis=axis, lo=lo_, hi=hi_, step=float(step), recommended=best
    )
    return out


# ---------------------------------------------------------------------------- curves and ranges for drawing
def mtmcs_curve(clf, lo=0.05, hi=0.95) -> pd.DataFrame:
    """The exact MTMCS curve over FP costs [lo, hi]: ``fp_cost``, ``mtmcs`` at every kink.

    MTMCS is linear between the rows, so drawing straight lines between them
    is exact (the thesis's chart joins grid points instead).

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.comparison.ranges import mtmcs_curve
    >>> clf = cw.Classifier.from_confusion(tp=8, fn=2, fp=3, tn=7)
    >>> mtmcs_curve(clf, 0.0, 1.0).round(4).to_numpy().tolist()   # kinks at 2/9 and 8/11
    [[0.0, 0.0], [0.2222, 22.2222], [0.7273, 27.2727], [1.0, 0.0]]
    """
    lo_, hi_ = (float(check_unit(v, n)) for v, n in ((lo, "lo"), (hi, "hi")))
    if hi_ < lo_:
        raise ValueError(f"mtmcs_curve needs lo <= hi, got lo={lo!r}, hi={hi!r}.")
    kinks = 1.0 - clf.envelope["pcf"].to_numpy()
    x = np.unique(np.concatenate(([lo_, hi_], kinks[(kinks > lo_) & (kinks < hi_)])))
    return pd.DataFrame({"fp_cost": x, "mtmcs": mtmcs(clf, x)})


def threshold_segments(clf, lo=0.05, hi=0.95) -> pd.DataFrame:
    """Which score threshold is optimal where, over FP costs [lo, hi] (the thesis's threshold chart).

    One row per hull vertex optimal on an interval of positive length inside
    [lo, hi]: ``fp_cost_lo``, ``fp_cost_hi``, ``threshold``, in increasing
    FP cost. A larger FP cost asks for fewer positives, so the threshold
    rises from row to row.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.comparison.ranges import threshold_segments
    >>> clf = cw.Classifier.from_scores([0, 1, 0, 1], [0.1, 0.4, 0.5, 0.9])
    >>> threshold_segments(clf, 0.0, 1.0)
       fp_cost_lo  fp_cost_hi  threshold
    0         0.0         0.5        0.4
    1         0.5         1.0        0.9
    """
    lo_, hi_ = (float(check_unit(v, n)) for v, n in ((lo, "lo"), (hi, "hi")))
    seg = clf.segments
    x_lo = np.maximum(1.0 - seg["pcf_hi"].to_numpy(), lo_)
    x_hi = np.minimum(1.0 - seg["pcf_lo"].to_numpy(), hi_)
    keep = x_hi > x_lo
    out = pd.DataFrame(
        {
            "fp_cost_lo": x_lo[keep],
            "fp_cost_hi": x_hi[keep],
            "threshold": seg["threshold"].to_numpy()[keep],
        }
    )
    return out.iloc[::-1].reset_index(drop=True)
