"""Costs that differ from case to case: each case's own cost of each of the four outcomes.

A case ``i`` with sample weight ``w_i`` costs ``cost_tp[i]`` or ``cost_fn[i]`` when positive
(flagged or passed) and ``cost_fp[i]`` or ``cost_tn[i]`` when negative: money, as in empulse's
``cost_loss``. The ROC analysis carries over exactly when each case is weighted by what its
decision is worth, as Fawcett (2006, "ROC graphs with instance-varying costs") proposes:

* flagging case ``i`` costs ``f_i`` (``cost_tp`` for a positive, ``cost_fp`` for a negative),
  passing it ``q_i`` (``cost_fn`` or ``cost_tn``); its cost under a decision ``D_i`` in {0, 1}
  is ``q_i + D_i·(f_i − q_i)``, which is ``min(f_i, q_i) + |f_i − q_i|`` on the wrong side and
  ``min(f_i, q_i)`` on the right one;
* a case with ``f_i < q_i`` is worth flagging: it counts as a *positive* of weight
  ``w_i·(q_i − f_i)`` (for a positive that is ``cost_fn − cost_tp``); a case with ``f_i > q_i``
  counts as a *negative* of weight ``w_i·(f_i − q_i)`` (for a negative ``cost_fp − cost_tn``).
  So a positive whose miss costs less than its catch (``cost_fn < cost_tp``) counts exactly as
  a negative of weight ``cost_tp − cost_fn``, and a negative whose false alarm pays counts as
  a positive; a case with ``f_i = q_i`` weighs nothing;
* the total cost of flagging the cases scored ``>= t`` is then
  ``floor + FN(t) + FP(t)`` with ``floor = Σ w_i·min(f_i, q_i)`` (what a perfect ranking
  costs) and ``FN``, ``FP`` the cost-weighted misses and false alarms of that threshold.

With ``P`` and ``N`` the cost-weighted class totals this is a cost curve with
``PCF(+) = P / (P + N)`` and ``NEC = (FN + FP) / (P + N)`` (equal costs of the two errors in the
weighted units, Drummond & Holte (2006), sec. 2), and the money per case is
``(floor + NEC·(P + N)) / Σ w_i``: every threshold, hull vertex and envelope piece of the
cost-weighted ROC means the same as for per-class costs.

The scalars of :func:`~costwidget.decide` multiply the per-case ``cost_fn`` and ``cost_fp``
(1 = as given), and a deployment prevalence ``p_pos`` reweights the classes by
``p_pos / prior`` and ``(1 − p_pos) / (1 − prior)``; both change which side a case counts on,
so the cost-weighted ROC is made again for them (:meth:`CaseCosts.roc_weights`).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

__all__ = [
    "CaseCosts",
    "SummedCosts",
    "COST_ARGUMENTS",
    "check_case_costs",
    "frame_cost_columns",
    "frame_costs",
]

#: The four per-case cost arguments, in the order of the confusion matrix's cells.
COST_ARGUMENTS = ("cost_fn", "cost_fp", "cost_tp", "cost_tn")


@dataclass(frozen=True, eq=False)
class CaseCosts:
    """The per-case costs of a classifier's evaluation cases (read-only arrays).

    Parameters
    ----------
    is_pos : ndarray of bool, shape (n_samples,)
        The true class of each case.
    weights : ndarray of float64 or None
        ``sample_weight``; None for 1 each.
    fn, fp, tp, tn : ndarray of float64, shape (n_samples,)
        Each case's cost of a miss, a false alarm, a catch and a correct pass.
    names : tuple of (str or None)
        What each of ``fn, fp, tp, tn`` was given as: a column name, or None (an array or a
        number); the widget labels its multipliers with them.

    Examples
    --------
    >>> import numpy as np
    >>> c = check_case_costs([True, False, True], None, cost_fn=[10.0, 0, 2.0], cost_fp=1.0,
    ...                      cost_tp=1.0)
    >>> pos, w, floor = c.roc_weights()
    >>> pos.tolist(), w.tolist(), floor   # flagging the first positive saves 9; a perfect ranking costs 1 + 0 + 1
    ([True, False, True], [9.0, 1.0, 1.0], 2.0)
    """

    is_pos: np.ndarray
    weights: np.ndarray | None
    fn: np.ndarray
    fp: np.ndarray
    tp: np.ndarray
    tn: np.ndarray
    names: tuple = (None, None, None, None)

    def __post_init__(self):
        for field in ("is_pos", "weights", "fn", "fp", "tp", "tn"):
            arr = getattr(self, field)
            if arr is not None:
                view = arr.view()
                view.flags.writeable = False
                object.__setattr__(self, field, view)

    def __getstate__(self):
        # The scores' order (see _twin_classifier) is a cache: made again, not pickled.
        state = dict(self.__dict__)
        state.pop("_order", None)
        return state

    @property
    def n_samples(self) -> int:
        return len(self.is_pos)

    @property
    def total_weight(self) -> float:
        """``Σ w_i``: the number of cases money per case divides by."""
        return float(self.n_samples if self.weights is None else self.weights.sum())

    @property
    def prior(self) -> float:
        """The share of positive cases (weighted by ``sample_weight``): the data's p(+)."""
        w = self.weights
        pos = np.count_nonzero(self.is_pos) if w is None else w[self.is_pos].sum()
        return float(pos) / self.total_weight

    def case_weights(self, p_pos=None) -> np.ndarray:
        """Each case's weight: ``sample_weight`` times its class's factor for ``p_pos``."""
        w = self._given_weights(p_pos)
        return np.ones(self.n_samples) if w is None else w

    def _given_weights(self, p_pos=None):
        """:meth:`case_weights`, or None where every weight is 1 (nothing to multiply by)."""
        w = self.weights
        if p_pos is None:
            return w
        if w is None:
            w = np.ones(self.n_samples)
        prior = self.prior
        p = float(p_pos)
        if (p > 0 and prior == 0) or (p < 1 and prior == 1):
            raise ValueError(
                f"p_pos={p_pos!r} needs cases of both classes, but the data has "
                f"{'no positive' if prior == 0 else 'no negative'} case."
            )
        up = p / prior if prior > 0 else 0.0
        down = (1.0 - p) / (1.0 - prior) if prior < 1 else 0.0
        return w * np.where(self.is_pos, up, down)

    def flag_and_pass(self, m_fn: float = 1.0, m_fp: float = 1.0):
        """``(f, q)``: each case's cost if flagged and if passed; ``m_fn``/``m_fp`` multiply
        ``cost_fn``/``cost_fp``."""
        # A product by 1 is the value itself: skipped, not computed.
        fp = self.fp if m_fp == 1.0 else m_fp * self.fp
        fn = self.fn if m_fn == 1.0 else m_fn * self.fn
        flag = np.where(self.is_pos, self.tp, fp)
        keep = np.where(self.is_pos, fn, self.tn)
        return flag, keep

    def roc_weights(self, m_fn: float = 1.0, m_fp: float = 1.0, p_pos=None):
        """The cost-weighted ROC's cases: ``(positive, weight, floor)`` (see the module).

        Returns
        -------
        positive : ndarray of bool
            True where flagging the case saves money.
        weight : ndarray of float64
            What deciding the case wrongly costs beyond deciding it rightly, times its weight.
        floor : float
            ``Σ w_i·min(f_i, q_i)``: the total cost of a perfect ranking.
        """
        flag, keep = self.flag_and_pass(m_fn, m_fp)
        w = self._given_weights(p_pos)
        cheaper = np.minimum(flag, keep)
        gain = np.subtract(keep, flag, out=keep)  # in place: fresh arrays cost a pass each
        positive = gain > 0
        weight = np.abs(gain, out=gain)
        if w is not None:  # a weight of 1 changes nothing: not multiplied
            weight *= w
            cheaper *= w
        return positive, weight, float(np.sum(cheaper))

    def checked_roc_weights(self, m_fn: float = 1.0, m_fp: float = 1.0, p_pos=None):
        """:meth:`roc_weights`, refusing costs that leave a side without weight."""
        pos, w, floor = self.roc_weights(m_fn, m_fp, p_pos)
        # A side's total of weights >= 0 is > 0 exactly when one of its weights is.
        weighs = w > 0
        _refuse_one_side(float(np.any(weighs & pos)), float(np.any(weighs & ~pos)))
        return pos, w, floor

    def twin(self, clf, m_fn: float = 1.0, m_fp: float = 1.0, p_pos=None):
        """``(twin, (P, N, F, W))``: the classifier of the cost-weighted cases at these
        multipliers and p(+) (without ``case_costs``), and its cost totals, floor and weight."""
        pos, w, floor = self.checked_roc_weights(m_fn, m_fp, p_pos)
        twin = self._twin_classifier(clf, pos, w)
        total = float(np.sum(self.case_weights(p_pos)))
        return twin, (*_side_totals(pos, w), floor, total)

    def _twin_classifier(self, clf, pos, w):
        """``type(clf).from_scores(pos, scores, pos_label=True, sample_weight=w, ...)``, the
        scores' order read from a cache: multipliers and p(+) change the weights and sides,
        never the order of the scores, so every twin of one classifier sorts once.

        The counts are ``sorted_roc_counts`` of the cases in that order (ties by index, a
        stable sort's order), which are ``roc_counts``' to the last bit."""
        from ..kernels.roc import descending_order, sorted_roc_counts
        from ..kernels.sample import ScoredSample, case_token_of
        from ..kernels.validation import check_sample_weight

        scores = clf.sample.scores
        cached = self.__dict__.get("_order")
        if cached is None or cached[0] is not scores:
            cached = (scores, *descending_order(scores))
            object.__setattr__(self, "_order", cached)  # a cache, not a field: frozen
        _, order, ordered = cached
        w = check_sample_weight(w, len(pos))  # as from_scores checks it
        counts = sorted_roc_counts(np.take(pos, order), ordered, np.take(w, order))
        sample = ScoredSample(
            pos, scores, w, instance=clf.sample.instance, case_token=case_token_of(pos)
        )
        return type(clf)(counts=counts, name=clf.name, pos_label=True, sample=sample)

    def cost_per_case(self, flagged, m_fn: float = 1.0, m_fp: float = 1.0, p_pos=None) -> float:
        """Money per case of deciding the cases as ``flagged`` (bool, or a probability of
        flagging each), all four outcomes counted: empulse's ``cost_loss(normalize=True)``
        with sample weights."""
        flag, keep = self.flag_and_pass(m_fn, m_fp)
        d = np.asarray(flagged, dtype=np.float64)
        w = self.case_weights(p_pos)
        return float(np.sum(w * (keep + d * (flag - keep))) / np.sum(w))


def _side_totals(pos, w):
    """``(w[pos].sum(), w[~pos].sum())`` as floats: ``np.compress`` picks the same values as
    the boolean index (so the sums are the same to the last bit) in a tenth of the time."""
    return float(np.compress(pos, w).sum()), float(np.compress(~pos, w).sum())


def _one_cost(value, arg: str, n: int) -> np.ndarray:
    """One cost argument as ``n`` finite float64 values, or an error naming it and the fix."""
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{arg}={value!r} is text: give a number, or one number per case (an array of "
            f"{n}); a column name is taken only by from_frame, from_duckdb and from_spark."
        )
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if np.isfinite(float(value)):
            # One check, not one per case; a read-only view of the one number for every case
            # (kept read-only by CaseCosts anyway) instead of n copies of it.
            return np.broadcast_to(np.float64(value), (n,))
        arr = np.full(n, float(value))
    else:
        arr = np.asarray(value)
        if arr.dtype.kind not in "iuf" or arr.ndim > 1:
            shown = f"an array of dtype {arr.dtype}" if arr.ndim else repr(value)
            if arr.ndim > 1:
                shown = f"an array of shape {arr.shape}"
            raise TypeError(
                f"{arg} must be a number or a 1-D array of numbers (money per case), got "
                f"{shown}; convert it first, e.g. pd.to_numeric(frame[col]) or "
                "np.asarray(costs, dtype=float)."
            )
        arr = np.full(n, float(arr)) if arr.ndim == 0 else arr.astype(np.float64)
        if len(arr) != n:
            raise ValueError(
                f"{arg} has {len(arr)} values but there are {n} cases: give one cost per "
                "case, in the order of y_true, or one number for every case."
            )
    if not np.isfinite(arr).all():
        bad = ~np.isfinite(arr)
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{arg} has {int(bad.sum())} missing or infinite value(s) (first at index {i}: "
            f"{arr[i]}); every case needs a finite cost: fill them (e.g. "
            "frame[col].fillna(0)) or drop those cases."
        )
    return arr


def check_case_costs(
    is_pos,
    weights,
    *,
    cost_fn=None,
    cost_fp=None,
    cost_tp=None,
    cost_tn=None,
    names=None,
    both_sides=True,
) -> CaseCosts | None:
    """The per-case costs, checked; None when none of the four is given.

    A cost not given is 0 (as in empulse). Each is a number or one number per case.
    ``both_sides=False`` skips the check that some case is worth flagging and some passing
    (new cases to decide need no cost curve).

    Raises
    ------
    TypeError, ValueError
        Naming the cost argument and the fix: text, NaN or infinite values, a wrong length; and
        when the costs make every case as cheap flagged as passed, or no case worth flagging
        (or none worth passing): the cost-weighted ROC then has a class of no weight.

    Examples
    --------
    >>> check_case_costs([True, False], None, cost_fn=[1.0, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: cost_fn has 1 missing or infinite value(s) (first at index 1: nan); every case needs a finite cost: fill them (e.g. frame[col].fillna(0)) or drop those cases.
    """
    given = dict(zip(COST_ARGUMENTS, (cost_fn, cost_fp, cost_tp, cost_tn)))
    if all(v is None for v in given.values()):
        return None
    is_pos = np.asarray(is_pos, dtype=bool)
    n = len(is_pos)
    arrays = {k: _one_cost(0.0 if v is None else v, k, n) for k, v in given.items()}
    out = CaseCosts(
        is_pos,
        weights,
        arrays["cost_fn"],
        arrays["cost_fp"],
        arrays["cost_tp"],
        arrays["cost_tn"],
        tuple(names) if names is not None else (None,) * 4,
    )
    if both_sides:
        check_both_sides(out)
    return out


def check_both_sides(costs: CaseCosts, m_fn: float = 1.0, m_fp: float = 1.0, p_pos=None):
    """Refuse costs under which no case is worth flagging, or none worth passing."""
    costs.checked_roc_weights(m_fn, m_fp, p_pos)


def _refuse_one_side(gain: float, loss: float) -> None:
    if gain > 0 and loss > 0:
        return
    what = "no case is cheaper flagged than passed" if gain == 0 else "no case is cheaper passed"
    raise ValueError(
        f"With these costs {what} (cost_fn - cost_tp for the positives, cost_fp - cost_tn for "
        "the negatives), so every threshold costs the same or the trivial rule is always best "
        "and there is no cost curve: check the signs and columns of cost_fn, cost_fp, cost_tp "
        "and cost_tn."
    )


def frame_cost_columns(**costs) -> list:
    """``(argument, column)`` of the cost arguments given as column names; a number is no
    column, anything else is refused (a frame's costs are its columns)."""
    out = []
    for arg, value in costs.items():
        if value is None or isinstance(value, str):
            out.append((arg, value))
        elif not (isinstance(value, numbers.Real) and not isinstance(value, bool)):
            raise TypeError(
                f"{arg} must be the name of a column of the frame (money per case) or one "
                f"number, got {type(value).__name__}: add the costs to the frame as a column "
                f"and pass its name, e.g. {arg}='amount'."
            )
    return out


def frame_costs(part, **costs) -> dict:
    """The cost arguments of :meth:`Classifier.from_scores` for one model's rows of a frame:
    a column's values, a number as it is, and ``_cost_names`` (the columns, for labels)."""
    out = {
        arg: part[value].to_numpy() if isinstance(value, str) else value
        for arg, value in costs.items()
    }
    out["_cost_names"] = tuple(v if isinstance(v, str) else None for v in costs.values())
    return out


@dataclass(frozen=True, eq=False)
class SummedCosts:
    """Per-case costs summed by an engine (``from_duckdb``): per row of (score, label) group,
    the cost-weighted class totals and the floor (see the module), not each case's costs.

    The cost-weighted ROC is exact, and so is the money per case at the costs as given, for
    any ``p_pos`` (a class's factor scales its rows, so no case changes sides). Multipliers
    other than 1 move cases across sides one by one: they need the cases (``from_frame``).

    Parameters
    ----------
    key, low, high : ndarray
        The rows' score keys and, when rounded, their lowest and highest raw scores (else None).
    is_pos : ndarray of bool
        Whether the row's label is the positive class.
    gain, loss, floor, weight : ndarray of float64
        Per row: the weight counting as positive, as negative, ``Σ w·min(f, q)``, and ``Σ w``.
    names : tuple of (str or None)
        The cost columns (as :class:`CaseCosts`).
    """

    key: np.ndarray
    low: np.ndarray | None
    high: np.ndarray | None
    is_pos: np.ndarray
    gain: np.ndarray
    loss: np.ndarray
    floor: np.ndarray
    weight: np.ndarray
    names: tuple = (None, None, None, None)

    @property
    def prior(self) -> float:
        return float(self.weight[self.is_pos].sum() / self.weight.sum())

    def _factors(self, p_pos):
        if p_pos is None:
            return np.ones(len(self.key))
        prior, p = self.prior, float(p_pos)
        up = p / prior if prior > 0 else 0.0
        down = (1.0 - p) / (1.0 - prior) if prior < 1 else 0.0
        return np.where(self.is_pos, up, down)

    def twin(self, clf, m_fn: float = 1.0, m_fp: float = 1.0, p_pos=None):
        """As :meth:`CaseCosts.twin`; multipliers other than 1 are refused (see above)."""
        if m_fn != 1.0 or m_fp != 1.0:
            raise ValueError(
                f"{clf.name!r} has per-case costs summed in the database, which give the exact "
                "curve at the costs as given (cost_fn=1, cost_fp=1) only: a multiplier moves "
                "cases from one side to the other one by one. Decide at cost_fn=1.0, "
                "cost_fp=1.0, or load the rows with Classifier.from_frame(..., cost_fn='col')."
            )
        from ..kernels.counts import counts_classifier

        r = self._factors(p_pos)
        gain, loss = self.gain * r, self.loss * r
        if not (gain.sum() > 0 and loss.sum() > 0):
            raise ValueError(
                "With these costs no case is cheaper flagged than passed, or none cheaper "
                "passed: there is no cost curve; check the cost columns."
            )
        twin = counts_classifier(
            type(clf),
            self.key,
            gain,
            loss,
            name=clf.name,
            low=self.low,
            high=self.high,
            weights=True,
        )
        totals = (float(gain.sum()), float(loss.sum()), float(np.sum(self.floor * r)))
        return twin, (*totals, float(np.sum(self.weight * r)))


def with_case_costs(clf, costs):
    """A copy of ``clf`` that carries ``costs`` (:class:`SummedCosts`): what an engine builds,
    its counts already cost-weighted. The copy has its own band cache; ``clf`` is unchanged."""
    import copy

    out = copy.copy(clf)
    out.case_costs = costs
    out._band_cache = None
    return out
