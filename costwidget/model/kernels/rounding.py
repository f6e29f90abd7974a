r"""The error bound of an envelope computed after merging adjacent scores (e.g. rounding).

Rounding scores to ``d`` decimals before counting them (as
``cw.from_duckdb(..., decimals=d)`` does) turns runs of adjacent distinct
scores into one group each. The envelope is then computed from fewer ROC
points. This module states and computes how far it can move.

The result
----------
Let ``P`` and ``N`` be the positives' and negatives' totals, and let the
merging map ``r`` be monotone: ``s <= s'`` implies ``r(s) <= r(s')`` (rounding
half up, ``floor(s·10^d + 1/2) / 10^d``, is; so is any binning of the score
axis into intervals). For a group ``G`` of the scores with the same ``r``,
let ``u_G`` and ``w_G`` be the share of the positives and of the negatives
whose score is in ``G``. Let ``E`` be the true lower envelope (all distinct
scores) and ``E_r`` the one of the merged scores. Then for every pcf ``x`` in
[0, 1]:

.. math::

    0 \le E_r(x) - E(x) \le \varepsilon(x) = \max_G \min(x\,u_G,\ (1-x)\,w_G)
    \le \varepsilon = \max_G \frac{u_G\, w_G}{u_G + w_G},

the maxima over the groups that hold more than one distinct score (the
others lose nothing). ``merge_bound`` computes ``ε`` (or ``ε(x)``).

Proof
-----
The cost line of ROC point ``(F, T)`` is ``NEC(x) = x·(1 - T) + (1 - x)·F``
(Drummond & Holte (2000), sec. 2.2, eq. 8), and the lower envelope at ``x``
is the least of the cost lines of the ROC points (Drummond & Holte (2004),
sec. 2).

1. *Every merged ROC point is a true ROC point.* The merged classifier at
   group value ``v`` predicts positive the cases with ``r(s) >= v``. Since
   ``r`` is monotone, ``r(s) < r(s')`` implies ``s < s'``, so this set is
   ``{s >= t}`` for ``t`` the lowest score in the group of ``v``: the true ROC
   point of threshold ``t``, with the same counts. (So the merged point's
   threshold on the raw scores is ``t``; the aggregation layer reports it.)
   The merged envelope is a minimum over a subset of the true points' cost
   lines, hence ``E_r >= E``.

2. *The points lost inside a group are close to the group's ends.* Let ``A``
   be the merged point just above group ``G`` (everything scoring above G
   predicted positive) and ``B = A`` plus all of ``G``; both are merged
   points. A true point ``Q`` with its threshold inside ``G`` has
   ``T_Q = T_A + a`` and ``F_Q = F_A + b`` with ``0 <= a <= u_G`` and
   ``0 <= b <= w_G``. From the cost line,

   ``NEC_A(x) - NEC_Q(x) = x·a - (1-x)·b <= x·u_G`` and
   ``NEC_B(x) - NEC_Q(x) = (1-x)·(w_G - b) - x·(u_G - a) <= (1-x)·w_G``.

   So ``min(NEC_A, NEC_B)(x) <= NEC_Q(x) + min(x·u_G, (1-x)·w_G)``.

3. *The envelope.* At any ``x`` let ``Q`` be a true point with
   ``NEC_Q(x) = E(x)``. If ``Q`` is a merged point, ``E_r(x) = E(x)``.
   Otherwise its threshold is inside a group ``G`` of several scores, and
   ``E_r(x) <= min(NEC_A, NEC_B)(x) <= E(x) + min(x·u_G, (1-x)·w_G)
   <= E(x) + ε(x)``. Finally ``min(x·u, (1-x)·w)`` is largest where
   ``x·u = (1-x)·w``, at ``x = w/(u+w)``, with value ``u·w/(u+w)``. ∎

The bound is tight: if all cases fall in one group, its positives all
scoring above its negatives, then ``E = 0`` (a perfect threshold inside the
group) while ``E_r(x) = min(x, 1-x)``, so the error at ``x = 1/2`` is
``1/2 = u·w/(u+w)`` with ``u = w = 1``. Since ``u·w/(u+w) <= min(u, w)``, a group holding a
small share of either class costs little: rounding to 3 decimals typically
leaves groups with well under 1 % of a class each.

The same bound is the envelope bootstrap's coarsening bound
(:func:`costwidget.model.resampling.resample.coarsening_bound`), which merges scores
for speed in the same way.
"""

from __future__ import annotations

import numpy as np

__all__ = ["merge_bound"]


def merge_bound(group_pos, group_neg, n_pos, n_neg, pcf=None):
    """Largest error of the lower envelope after merging scores into groups.

    Parameters
    ----------
    group_pos, group_neg : array-like
        Positives and negatives (counts or weights) in each group that holds
        more than one distinct score.
    n_pos, n_neg : float
        Class totals of the whole data.
    pcf : array-like, optional
        Where to evaluate the pointwise bound ``ε(x)``; by default the uniform
        bound ``ε = max u·w/(u+w)`` over all pcf.

    Returns
    -------
    float or ndarray
        ``ε``, or ``ε(x)`` at each ``pcf``: the merged envelope is above the
        true one by at most this much (and never below it).

    Examples
    --------
    A group with a tenth of the positives and a tenth of the negatives can
    cost at most 0.05, at pcf 0.5:

    >>> from costwidget.model.kernels.rounding import merge_bound
    >>> merge_bound([10], [30], 100, 300)
    0.05
    >>> merge_bound([10], [30], 100, 300, pcf=[0.0, 0.25, 0.5, 1.0]).tolist()
    [0.0, 0.025, 0.05, 0.0]
    """
    u = np.asarray(group_pos, dtype=np.float64) / float(n_pos)
    w = np.asarray(group_neg, dtype=np.float64) / float(n_neg)
    if pcf is None:
        if u.size == 0:
            return 0.0
        with np.errstate(invalid="ignore"):
            per_group = np.where(u + w > 0, u * w / (u + w), 0.0)
        return float(per_group.max())
    x = np.asarray(pcf, dtype=np.float64)
    if u.size == 0:
        return np.zeros_like(x)
    # min(x·u, (1-x)·w) for every (pcf, group), maximized over groups; in chunks of groups
    # so that the (pcf, group) array stays small.
    if u.size * x.size <= 1 << 22:
        return np.minimum(np.multiply.outer(x, u), np.multiply.outer(1.0 - x, w)).max(axis=1)
    out = np.zeros_like(x)
    for start in range(0, u.size, 1 << 12):
        uu, ww = u[start : start + (1 << 12)], w[start : start + (1 << 12)]
        out = np.maximum(
            out, np.minimum(np.multiply.outer(x, uu), np.multiply.outer(1.0 - x, ww)).max(axis=1)
        )
    return out
