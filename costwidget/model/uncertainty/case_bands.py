"""Bootstrap bands of money per case, for classifiers with costs that differ case by case.

A classifier with per-case costs is drawn as its cost-weighted twin (Fawcett (2006), "ROC
graphs with instance-varying costs", sec. 3; :mod:`costwidget.model.base.case_costs`). Its
band is of money per case, drawn on the twin's cost-curve axes, with the replicates' cases
resampled as the per-class band resamples them (stratified by class, Drummond & Holte (2004),
sec. 8), each drawn case carrying its four costs and its weight.

The closed form. At the setting (``p_pos``, multipliers ``m_fn``, ``m_fp``) case ``i`` has
the weight ``a_i = w_i·r_i`` (``sample_weight`` times its class's factor for ``p_pos``), the
costs ``f_i`` if flagged and ``q_i`` if passed, the side ``s_i = [q_i > f_i]`` and the
cost weight ``g_i = a_i·|q_i − f_i|``. With ``W = Σ a_i``, the floor ``F = Σ a_i·min(f_i,
q_i)``, ``P`` and ``N`` the sums of ``g_i`` over each side and, for the rule flagging
``score >= t``, ``FN(t)`` (``FP(t)``) the sum of ``g_i`` of the cases of side 1 (side 0)
it decides wrongly, the rule costs per case

    money(t) = (F + FN(t) + FP(t)) / W.

The twin's NEC at PCF(+) ``x`` is ``x·FN/P + (1 − x)·FP/N = (α·FN + β·FP) / (P + N)`` with
``α = x·(P + N)/P`` and ``β = (1 − x)·(P + N)/N``: the money of a rule whose errors of each
side cost ``α`` (``β``) times what they cost, in the cost pane's units

    NEC_x(t) = (money_x(t) − F/W)·W / (P + N),  money_x(t) = (F + α·FN(t) + β·FP(t)) / W,

which at the setting's own point ``x₀ = P / (P + N)`` (``α = β = 1``) is the money per case
minus the floor over the normalizer (the affine map of ``honest_cost``'s ``money``). A
replicate ``b`` draws case ``i`` ``m_i`` times: its ``F_b``, ``W_b``, ``FN_b``, ``FP_b`` are
the sums above with ``a_i`` times ``m_i``. Its rule is re-optimized exactly, over every
threshold of its cases, at the same ``α`` and ``β`` (those of the original data: ``x`` means
the same on every replicate), and its money is mapped by the original's affine map:

    V_b(x) = (W/W_b·(F_b + min_t [α·FN_b(t) + β·FP_b(t)]) − F) / (P + N).

(Indeed ``(money_x − F/W)·W/(P + N) = (α·FN + β·FP)/(P + N) = x·FN/P + (1 − x)·FP/N``.)
With every ``m_i = 1`` this is the twin's envelope ``NEC(x)``. The minimum is over the
vertices of the upper convex hull of the replicate's cost-weighted ROC points, where a linear
cost with ``α, β >= 0`` has its minimum; the band is pointwise at each pcf of a grid, as the
per-class one. The held thresholds (``threshold="optimal"``) take ``t`` optimal on the
original data at each ``x`` in every replicate; a number holds one ``t``. The limits are the
``k``-th lowest and highest ``V_b`` at each pcf, ``k = ceil(B·(1 − level)/2)``, reflected about
``NEC(x)`` by default (the basic interval, as the per-class envelope band) and not clipped:
the trivial rules' money is resampled too, and a fee can make money per case negative. In
money per case a limit ``V`` reads ``V·(P + N)/W + F/W`` (``attrs["money"]``).

The cases are resampled by class (and fold, where the classifier has folds): in every
replicate each stratum's cases, in data order, are drawn with replacement
(``rng.integers(0, n_s, n_s)`` into them), negatives before positives within a fold, as in
:mod:`.case_paired`; ``r_i`` are the original data's class factors.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..kernels.costs import cost_scale
from ..kernels.hull import upper_hull
from ..kernels.validation import check_level, check_probability
from ..kernels.validation import check_random_state as make_rng
from .bands import check_n_boot, grid_key, pcf_grid, percentile_rows
from .coverage import coverage_words

__all__ = ["CaseSetting", "case_band", "check_case_resamplable", "stratified_draws"]

#: Up to this many pcf, a replicate's minimum is taken over all its points, not its hull.
_DIRECT_PCF = 8
#: Replicates x cases computed at once (a few arrays of this many float64 in memory).
_BLOCK_CELLS = 1 << 20


@dataclass(frozen=True)
class CaseSetting:
    """A per-case classifier's cases at one setting, in descending score order.

    Attributes
    ----------
    order : ndarray of intp
        The cases sorted by score, highest first (stable).
    ends : ndarray of intp
        One past the last sorted case of each distinct score.
    desc_scores : ndarray
        The distinct scores, highest first.
    weight, low, gain : ndarray of float64
        Per sorted case: ``a_i``, ``a_i·min(f_i, q_i)`` and ``a_i·(q_i − f_i)``.
    totals : tuple of float
        ``(P, N, F, W)`` of the original data.

    Examples
    --------
    >>> import numpy as np, costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [.9, .7, .6, .2], cost_fn=[8.0, 0, 2.0, 0],
    ...                                 cost_fp=1.0, cost_tp=3.0)   # a fee of 3 on a catch
    >>> s = CaseSetting.of(clf, 1.0, 1.0, None, clf.case_costs.twin(clf)[1])
    >>> s.totals   # P: the first positive saves 5; N: 1 + 1 + the second positive's 1
    (5.0, 3.0, 5.0, 4.0)
    >>> env, held = s.values(np.ones((1, 4)), np.array([5 / 8]), np.array([1]))
    >>> env.round(4).tolist(), held.round(4).tolist()   # flag only the top case: cost 0
    ([[0.0]], [[0.0]])
    """

    order: np.ndarray
    ends: np.ndarray
    desc_scores: np.ndarray
    weight: np.ndarray
    low: np.ndarray
    gain: np.ndarray
    totals: tuple

    @classmethod
    def of(cls, clf, m_fn: float, m_fp: float, p_pos, totals):
        """The setting of ``clf`` (per-case costs given case by case); ``totals`` its
        ``(P, N, F, W)`` there (:meth:`CaseCosts.twin`)."""
        cc = clf.case_costs
        flag, keep = cc.flag_and_pass(m_fn, m_fp)
        a = cc.case_weights(p_pos)
        scores = np.asarray(clf.sample.scores, dtype=np.float64)
        order = np.argsort(-scores, kind="stable")
        desc = scores[order]
        ends = np.flatnonzero(np.append(desc[1:] != desc[:-1], True)) + 1
        return cls(
            order,
            ends,
            desc[ends - 1],
            a[order],
            (a * np.minimum(flag, keep))[order],
            (a * (keep - flag))[order],
            tuple(float(v) for v in totals),
        )

    def cells(self, m: np.ndarray):
        """``(FN_b, FP_b, F_b, W_b)`` of replicates drawing sorted case ``j`` ``m[b, j]``
        times (one row each): ``FN_b``, ``FP_b`` at each number of distinct scores flagged
        (0 first), and ``F_b``, ``W_b`` per row."""
        tp = _cumulative(m * np.maximum(self.gain, 0.0), self.ends)
        fp = _cumulative(m * np.maximum(-self.gain, 0.0), self.ends)
        return tp[:, -1:] - tp, fp, m @ self.low, m @ self.weight

    def coefficients(self, x: np.ndarray):
        """``(α, β)`` of each pcf (see the module), from the original data's ``P`` and ``N``."""
        p, n = self.totals[:2]
        return x * (p + n) / p, (1.0 - x) * (p + n) / n

    def values(self, m, x, held, *, envelope=True):
        """``V_b`` of each row of ``m`` at each pcf, re-optimized (``envelope``, else None)
        and at the held points ``held`` (indices into the cells, one per pcf, or None): the
        module's closed form, (rows, len(x)) each."""
        fn, fp, floor_b, w_b = self.cells(m)
        alpha, beta = self.coefficients(x)
        floor_b, w_b = floor_b[:, None], w_b[:, None]
        env = fixed = None
        if envelope:
            if len(x) <= _DIRECT_PCF:  # a few pcf: every point, at less cost than the hull
                best = np.stack([np.min(a * fn + b * fp, axis=1) for a, b in zip(alpha, beta)])
                best = best.T
            else:  # the hull's vertices hold the minimum
                best = np.array([_hull_min(f, q, alpha, beta) for f, q in zip(fn, fp)])
            env = self._mapped(best, floor_b, w_b)
        if held is not None:
            fixed = self._mapped(alpha * fn[:, held] + beta * fp[:, held], floor_b, w_b)
        return env, fixed

    def _mapped(self, errors, floor_b, w_b):
        """The original's affine map of a replicate's money (see the module)."""
        p, n, floor, total = self.totals
        return (total / w_b * (floor_b + errors) - floor) / (p + n)

    def flagged_at(self, thresholds) -> np.ndarray:
        """How many distinct scores ``score >= t`` flags, for each threshold."""
        t = np.asarray(thresholds, dtype=np.float64)
        return np.searchsorted(-self.desc_scores, -t, side="right")


def _cumulative(per_case: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Row sums of the first cases up to each distinct score's end, with 0 first."""
    out = np.zeros((per_case.shape[0], len(ends) + 1))
    if len(ends) == per_case.shape[1]:  # no tied scores: every case ends a score
        np.cumsum(per_case, axis=1, out=out[:, 1:])
    else:
        out[:, 1:] = np.cumsum(per_case, axis=1)[:, ends - 1]
    return out


def _hull_min(fn: np.ndarray, fp: np.ndarray, alpha, beta) -> np.ndarray:
    """``min_k α·FN_k + β·FP_k`` at each ``(α, β)``, over the points where it can be least for
    ``α, β >= 0``: the vertices of the upper hull of the ROC points ``(FP, TP = P_b − FN)``."""
    tp = fn[0] - fn
    keep = np.flatnonzero(np.concatenate(([True], (np.diff(fp) != 0) | (np.diff(tp) != 0))))
    if keep.size > 2:  # repeated points dropped, as the hull wants
        keep = keep[upper_hull(fp[keep], tp[keep])]
    return np.min(alpha[:, None] * fn[keep] + beta[:, None] * fp[keep], axis=1)


def stratified_draws(strata: np.ndarray, n_boot: int, rng):
    """Each replicate's drawn cases: per stratum (in increasing order), its cases in data
    order drawn with replacement (``rng.integers(0, n_s, n_s)`` into them).

    Examples
    --------
    >>> import numpy as np
    >>> draws = list(stratified_draws(np.array([1, 0, 1, 0]), 2, np.random.default_rng(0)))
    >>> [sorted(np.asarray([1, 0, 1, 0])[d].tolist()) for d in draws]
    [[0, 0, 1, 1], [0, 0, 1, 1]]
    """
    members = [np.flatnonzero(strata == s) for s in np.unique(strata)]
    for _ in range(n_boot):
        yield np.concatenate([idx[rng.integers(0, len(idx), len(idx))] for idx in members])


def _strata(clf) -> np.ndarray:
    """The true class of each case, and its fold where the classifier has folds."""
    is_pos = clf.case_costs.is_pos.astype(np.int64)
    folds = clf.sample.fold_codes
    return is_pos if folds is None else folds * 2 + is_pos


def _replicates(setting, draws, x, held, *, envelope=True):
    """``(envelope, held)`` values, (B, len(x)) each (or None), of the replicates ``draws``,
    computed a block of replicates at a time (each case's count in each replicate a row)."""
    n = len(setting.order)
    draws, env_parts, held_parts = iter(draws), [], []
    while chunk := list(itertools.islice(draws, max(1, _BLOCK_CELLS // n))):
        flat = (np.arange(len(chunk))[:, None] * n + np.asarray(chunk, dtype=np.intp)).ravel()
        m = np.bincount(flat, minlength=len(chunk) * n).reshape(len(chunk), n)
        env, fixed = setting.values(
            m[:, setting.order].astype(np.float64), x, held, envelope=envelope
        )
        env_parts.append(env)
        held_parts.append(fixed)
    return (
        np.concatenate(env_parts) if envelope else None,
        None if held is None else np.concatenate(held_parts),
    )


# ---------------------------------------------------------------------- public entry
def case_band(
    clf,
    level=0.90,
    *,
    threshold=None,
    method="auto",
    n_boot=1000,
    grid=512,
    random_state=None,
    interval="basic",
    cost_fn=1.0,
    cost_fp=1.0,
    p_pos=None,
    draws=None,
) -> pd.DataFrame:
    """:meth:`Classifier.band` of a classifier with per-case costs (see the module).

    Parameters
    ----------
    clf : Classifier
        With per-case costs given case by case (``from_scores``/``from_frame``).
    level, threshold, method, n_boot, grid, random_state, interval
        As :meth:`Classifier.band`. ``method`` is ``"auto"`` or ``"bootstrap"``: the score
        and exact intervals are of binomial counts of cases, and a fixed rule's cost is
        here a sum of amounts.
    cost_fn, cost_fp : float
        The multipliers of each case's ``cost_fn`` and ``cost_fp`` (1 = as given).
    p_pos : float or None
        The deployment prevalence (None: the data's).
    draws : iterable of int arrays, optional
        The replicates' drawn case indices (each of length ``n_samples``), instead of the
        stratified draws of ``random_state`` (nothing cached): for tests.

    Returns
    -------
    DataFrame
        ``pcf``, ``nec`` (the twin's curve, or a held rule's line), ``lower``, ``upper``, in
        the cost pane's NEC; ``attrs["money"]`` has the affine map to money per case
        (``money = nec·scale + offset``) and the setting's own ``pcf``.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0, 1, 0], [.9, .8, .7, .4, .3, .1],
    ...                                 cost_fn=[5.0, 0, 20.0, 0, 9.0, 0], cost_fp=2.0)
    >>> b = clf.band(0.9, n_boot=200, grid=3, random_state=0)
    >>> b["nec"].round(4).tolist()
    [0.0, 0.299, 0.0]
    >>> b.attrs["coverage"]   # measured by simulation at the nearest size
    'nominal 90 %; covers 50–52 % of the best money per case at n = 50 (simulated)'
    >>> clf.band(0.8, n_boot=200, grid=3, random_state=0).attrs["coverage"]
    'nominal 80 %; coverage not measured'
    >>> bool((b["lower"] <= b["nec"]).all() and (b["nec"] <= b["upper"]).all())
    True
    """
    level, n_boot, x = check_level(level), check_n_boot(n_boot), pcf_grid(grid)
    kind = _check_kind(clf, threshold, method, interval)
    m_fn, m_fp, p_pos = _check_setting(cost_fn, cost_fp, p_pos)
    twin, totals = clf.case_costs.twin(clf, m_fn, m_fp, p_pos)
    setting = CaseSetting.of(clf, m_fn, m_fp, p_pos, totals)
    if kind == "fixed":
        held = np.full(len(x), setting.flagged_at([float(threshold)])[0])
        nec = setting.values(np.ones((1, len(setting.order))), x, held, envelope=False)[1][0]
    else:
        held = setting.flagged_at(twin.best(x)["threshold"].to_numpy())
        nec = np.asarray(twin.nec(x), dtype=np.float64)
    reps = _sorted_replicates(
        clf,
        setting,
        x,
        held,
        kind,
        (n_boot, grid_key(grid), m_fn, m_fp, p_pos),
        random_state,
        draws,
    )
    lower, upper = percentile_rows(reps, level)
    if kind != "fixed" and interval == "basic":
        # Reflected about the original curve (the basic bootstrap interval), as the per-class
        # envelope band; not clipped: money per case has no bound that the trivial rules
        # keep fixed here (their cost is resampled too), and a fee can make it negative.
        lower, upper = 2.0 * nec - upper, 2.0 * nec - lower
    out = pd.DataFrame({"pcf": x, "nec": nec, "lower": lower, "upper": upper})
    return _labelled(
        out, level, kind, threshold, interval, reps.shape[0], (m_fn, m_fp, p_pos), totals, clf
    )


def check_case_resamplable(clf) -> None:
    """Refuse per-case costs summed by an engine: a band resamples single cases.

    Examples
    --------
    >>> import costwidget as cw
    >>> check_case_resamplable(cw.Classifier.from_scores([1, 0], [.8, .2], cost_fn=[3.0, 0],
    ...                                                  cost_fp=1.0)) is None
    True
    """
    if not hasattr(clf.case_costs, "tp"):
        raise ValueError(
            f"{clf.name!r} has per-case costs summed in a database (from_duckdb/from_spark: "
            "per score, not per case), and a band resamples the cases. Load the rows with "
            "Classifier.from_frame(..., cost_fn='col') for its band."
        )


def _check_kind(clf, threshold, method, interval) -> str:
    """``"envelope"``, ``"optimal"`` or ``"fixed"``, refusing what this band cannot be."""
    check_case_resamplable(clf)
    if method not in ("auto", "score", "exact", "bootstrap"):
        raise ValueError(f"method must be 'auto', 'score', 'exact' or 'bootstrap', got {method!r}.")
    if method in ("score", "exact"):
        raise ValueError(
            f"method={method!r} is an interval of binomial counts of cases; with per-case "
            "costs a rule's cost is a sum of the cases' amounts, so its band is the "
            "bootstrap's: use method='bootstrap' (or 'auto')."
        )
    if interval not in ("basic", "percentile"):
        raise ValueError(f"interval must be 'basic' or 'percentile', got {interval!r}.")
    if threshold is None:
        return "envelope"
    if isinstance(threshold, str):
        if threshold != "optimal":
            raise ValueError(f"threshold must be a number, None or 'optimal', got {threshold!r}.")
        return "optimal"
    if np.isnan(float(threshold)):
        raise ValueError("threshold must be a number, got NaN.")
    return "fixed"


def _check_setting(cost_fn, cost_fp, p_pos):
    """The multipliers (numbers >= 0, not both 0) and ``p_pos`` (None or in [0, 1])."""
    cost_scale(0.5, cost_fn, cost_fp)
    if p_pos is not None:
        p_pos = float(check_probability(p_pos, "p_pos"))
    return float(cost_fn), float(cost_fp), p_pos


def _sorted_replicates(clf, setting, x, held, kind, key_parts, random_state, draws):
    """The replicates of ``kind`` sorted per pcf, cached on ``clf`` for an int seed."""
    rng, seed = make_rng(random_state)
    fixed = kind == "fixed"
    key = None
    if draws is None and seed is not False:
        # The setting is in the key: multipliers and p(+) move cases across sides.
        key = ("per case", "fixed" if fixed else "envelope", *key_parts, seed)
        key += (int(held[0]),) if fixed else ()

    def make():
        n_boot = key_parts[0]
        source = stratified_draws(_strata(clf), n_boot, rng) if draws is None else draws
        env, kept = _replicates(setting, source, x, held, envelope=not fixed)
        if fixed:
            return {"fixed": np.sort(kept, axis=0)}
        return {"envelope": np.sort(env, axis=0), "optimal": np.sort(kept, axis=0)}

    return clf.band_cache.get(key, make)[kind]


def _labelled(out, level, kind, threshold, interval, n_boot, given, totals, clf):
    """The band's ``attrs``: as the per-class band's, with the setting and the money's map."""
    p, n, floor, total = totals
    m_fn, m_fp, p_pos = given
    out.attrs.update(
        {
            "kind": "pointwise",
            "simultaneous": False,
            "interval": "percentile" if kind == "fixed" else interval,
            "label": f"pointwise {level:.0%} band".replace("%", " %"),
            "level": level,
            "n_boot": n_boot,
            "method": "bootstrap",
            "threshold": float(threshold) if kind == "fixed" else kind,
            "costs": "per case",
            "coarsening_bound": 0.0,
            "money": {"pcf": p / (p + n), "scale": (p + n) / total, "offset": floor / total},
            "setting": {"cost_fn": m_fn, "cost_fp": m_fp, "p_pos": p_pos},
        }
    )
    words = coverage_words(out.attrs, clf.case_costs.n_samples)
    out.attrs["coverage"] = words
    if words.startswith("nominal"):
        out.attrs["label"] = f"pointwise band, {words}"
    return out
