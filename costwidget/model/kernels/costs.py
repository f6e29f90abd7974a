"""Cost space: the probability-cost function and the ROC/cost point-line duality.

Notation and equation numbers follow Drummond & Holte (2000), sec. 2 (the KDD 2000 paper):

* ``PCF(+) = p(+)C(-|+) / (p(+)C(-|+) + p(-)C(+|-))`` (eq. 6), the x axis;
* a classifier at ROC point (FPR, TPR) is the cost line
  ``NEC(x) = (1 - TPR - FPR) x + FPR`` (eq. 8), the y axis being normalized
  expected cost;
* an ROC line ``TPR = S * FPR + TP0`` is the cost point
  ``(1 / (1 + S), (1 - TP0) / (1 + S))`` (eq. 9).
"""

from __future__ import annotations

import numpy as np

from .validation import check_costs, check_pcf, check_probability

__all__ = [
    "probability_cost",
    "cost_scale",
    "expected_cost",
    "iso_performance_slope",
    "roc_point_to_cost_line",
    "cost_line_value",
    "cost_line_to_roc_point",
    "roc_line_to_cost_point",
    "cost_point_to_roc_line",
]


def _scalar_or_array(x):
    x = np.asarray(x, dtype=np.float64)
    return float(x) if x.ndim == 0 else x


def probability_cost(p_pos, cost_fn, cost_fp):
    """Probability-cost function PCF(+), the x axis of cost space (eq. 6).

    Parameters
    ----------
    p_pos : float or array-like
        Probability of the positive class at deployment, in [0, 1].
    cost_fn : float or array-like
        Cost C(-|+) of a false negative (a positive called negative), >= 0.
    cost_fp : float or array-like
        Cost C(+|-) of a false positive (a negative called positive), >= 0.
        ``cost_fn`` and ``cost_fp`` may not both be 0.

    Returns
    -------
    float or ndarray
        ``p·C(-|+) / (p·C(-|+) + (1-p)·C(+|-))``, broadcast over the inputs.

    Examples
    --------
    >>> import costwidget as cw
    >>> cw.probability_cost(0.5, 1.0, 1.0)
    0.5
    >>> cw.probability_cost(0.1, 9.0, 1.0)
    0.5
    >>> cw.probability_cost([0.2, 0.5], 1.0, 4.0).round(4)
    array([0.0588, 0.2   ])
    """
    p = check_probability(p_pos, "p_pos")
    fn, fp = check_costs(cost_fn, cost_fp)
    w_pos = p * fn
    w_neg = (1.0 - p) * fp
    total = w_pos + w_neg
    if np.any(total == 0):
        no_cost = (p == 1.0) & (fn == 0) | (p == 0.0) & (fp == 0)
        if np.all(no_cost[total == 0] if np.ndim(no_cost) else no_cost):
            raise ValueError(
                "PCF(+) is undefined: p_pos is 1 with cost_fn = 0 (or p_pos is 0 with cost_fp = 0), "
                "so no error has any expected cost."
            )
        # Both weights are positive in exact arithmetic but round to 0 (say p_pos = 1e-311 with
        # cost_fn = 1e-16 and cost_fp = 0): refused, with the remedy.
        raise ValueError(
            "PCF(+) cannot be computed: p_pos·cost_fn and (1 - p_pos)·cost_fp both round to 0 in "
            "floating point; scale both costs up (only their ratio matters)."
        )
    return _scalar_or_array(w_pos / total)


def cost_scale(p_pos, cost_fn, cost_fp):
    """Expected cost of the always-wrong classifier, ``p·C(-|+) + (1-p)·C(+|-)`` (eq. 4).

    Normalized expected cost times this number is the expected cost per case in
    the user's own units.

    Parameters
    ----------
    p_pos : float or array-like
        Probability of the positive class at deployment, in [0, 1].
    cost_fn, cost_fp : float or array-like
        Costs of a false negative and of a false positive (>= 0, not both 0).

    Returns
    -------
    float or ndarray
        Broadcast over the inputs.

    Examples
    --------
    >>> import costwidget as cw
    >>> cw.cost_scale(0.2, 5.0, 2.0)   # 0.2 * 5 + 0.8 * 2
    2.6
    """
    p = check_probability(p_pos, "p_pos")
    fn, fp = check_costs(cost_fn, cost_fp)
    return _scalar_or_array(p * fn + (1.0 - p) * fp)


def expected_cost(nec, p_pos, cost_fn, cost_fp):
    """Expected cost per case in the user's units: ``NEC × (p·C(-|+) + (1-p)·C(+|-))``.

    Parameters
    ----------
    nec : float or array-like
        Normalized expected cost, e.g. ``clf.nec(pcf)``.
    p_pos : float or array-like
        Probability of the positive class at deployment, in [0, 1].
    cost_fn, cost_fp : float or array-like
        Costs of a false negative and of a false positive (>= 0, not both 0).

    Returns
    -------
    float or ndarray
        Broadcast over the inputs.

    Examples
    --------
    >>> import costwidget as cw
    >>> cw.expected_cost(0.25, p_pos=0.5, cost_fn=10.0, cost_fp=2.0)
    1.5
    """
    return _scalar_or_array(np.asarray(nec, dtype=np.float64) * cost_scale(p_pos, cost_fn, cost_fp))


def iso_performance_slope(pcf):
    """Slope ``p(-)C(+|-) / (p(+)C(-|+)) = (1 - PCF) / PCF`` of ROC iso-performance lines (eq. 1).

    Parameters
    ----------
    pcf : float or array-like
        PCF(+) in [0, 1].

    Returns
    -------
    float or ndarray
        ``inf`` at ``pcf = 0`` (only false positives cost anything).

    Examples
    --------
    >>> import costwidget as cw
    >>> cw.iso_performance_slope(0.25)
    3.0
    """
    x = np.asarray(check_probability(pcf, "pcf"), dtype=np.float64)
    with np.errstate(divide="ignore"):
        return _scalar_or_array((1.0 - x) / x)


def roc_point_to_cost_line(fpr, tpr):
    """ROC point -> cost line (eq. 8): ``NEC(x) = (1 - TPR - FPR)·x + FPR``.

    Parameters
    ----------
    fpr, tpr : float or array-like
        The ROC point(s).

    Returns
    -------
    (slope, intercept) : floats or ndarrays
        The cost line ``NEC(x) = slope·x + intercept``.

    Examples
    --------
    >>> from costwidget.model.kernels.costs import roc_point_to_cost_line
    >>> roc_point_to_cost_line(0.09, 0.36)   # Drummond & Holte (2000), figure 8
    (0.55, 0.09)
    """
    fpr = np.asarray(fpr, dtype=np.float64)
    tpr = np.asarray(tpr, dtype=np.float64)
    return _scalar_or_array(1.0 - tpr - fpr), _scalar_or_array(fpr)


def cost_line_value(fpr, tpr, pcf):
    """NEC at ``pcf`` of the cost line of ROC point ``(fpr, tpr)`` (eq. 8).

    The one place the package evaluates a cost line from an ROC point: the
    envelope, the optimal vertex, the comparison table, threshold choice and
    the widget's marks all call it (or `roc_point_to_cost_line`, which it uses),
    so that they agree to the last bit. The page mirrors it in
    ``js/src/operating_point.mjs`` with the same operations in the same order.

    Parameters
    ----------
    fpr, tpr : float or array-like
        The ROC point(s).
    pcf : float or array-like in [0, 1]

    Returns
    -------
    float or ndarray
        Broadcast over the inputs.

    Examples
    --------
    >>> from costwidget.model.kernels.costs import cost_line_value
    >>> cost_line_value(0.09, 0.36, 0.5)   # Drummond & Holte (2000), figure 8's line at 0.5
    0.365
    """
    x = np.asarray(check_pcf(pcf), dtype=np.float64)
    slope, intercept = roc_point_to_cost_line(fpr, tpr)
    return _scalar_or_array(slope * x + intercept)


def cost_line_to_roc_point(slope, intercept):
    """Cost line -> ROC point, the inverse of eq. 8: ``FPR = intercept``, ``TPR = 1 - slope - FPR``.

    Parameters
    ----------
    slope, intercept : float or array-like
        The cost line ``NEC(x) = slope·x + intercept``.

    Returns
    -------
    (fpr, tpr) : floats or ndarrays

    Examples
    --------
    >>> from costwidget.model.kernels.costs import cost_line_to_roc_point
    >>> cost_line_to_roc_point(0.5, 0.25)
    (0.25, 0.25)
    """
    slope = np.asarray(slope, dtype=np.float64)
    fpr = np.asarray(intercept, dtype=np.float64)
    return _scalar_or_array(fpr), _scalar_or_array(1.0 - slope - fpr)


def roc_line_to_cost_point(slope, tpr_intercept):
    """ROC line ``TPR = S·FPR + TP0`` -> cost point (eq. 9): ``PCF = 1/(1+S)``, ``NEC = (1-TP0)·PCF``.

    Every ROC point on the line maps to a cost line through this point. A
    negative slope (a workforce constraint line, eq. 13) gives a "virtual"
    point with PCF outside [0, 1]; a slope of -1 has no finite dual.

    Parameters
    ----------
    slope, tpr_intercept : float or array-like
        The ROC line ``TPR = slope·FPR + tpr_intercept``.

    Returns
    -------
    (pcf, nec) : floats or ndarrays

    Examples
    --------
    >>> from costwidget.model.kernels.costs import roc_line_to_cost_point
    >>> roc_line_to_cost_point(1.0, 0.5)   # iso-performance line of slope 1: PCF 1/2
    (0.5, 0.25)
    """
    s = np.asarray(slope, dtype=np.float64)
    tp0 = np.asarray(tpr_intercept, dtype=np.float64)
    if np.any(s == -1):
        raise ValueError(
            "An ROC line of slope -1 is parallel to every cost line's dual: no cost point."
        )
    pcf = 1.0 / (1.0 + s)
    return _scalar_or_array(pcf), _scalar_or_array((1.0 - tp0) * pcf)


def cost_point_to_roc_line(pcf, nec):
    """Cost point -> ROC line, the inverse of eq. 9: ``S = 1/PCF - 1``, ``TP0 = 1 - NEC/PCF``.

    Parameters
    ----------
    pcf, nec : float or array-like
        The cost point; ``pcf`` may not be 0 (a vertical ROC line).

    Returns
    -------
    (slope, tpr_intercept) : floats or ndarrays

    Examples
    --------
    >>> from costwidget.model.kernels.costs import cost_point_to_roc_line
    >>> cost_point_to_roc_line(0.5, 0.25)
    (1.0, 0.5)
    """
    x = np.asarray(pcf, dtype=np.float64)
    y = np.asarray(nec, dtype=np.float64)
    if np.any(x == 0):
        raise ValueError("A cost point at PCF = 0 is a vertical ROC line: no finite slope.")
    return _scalar_or_array(1.0 / x - 1.0), _scalar_or_array(1.0 - y / x)
