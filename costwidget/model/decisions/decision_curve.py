"""Decision curves (Vickers & Elkin 2006): net benefit against threshold probability.

Net benefit at threshold probability ``pt`` is the prevalence minus the
expected cost per case when a false negative costs 1 and a false positive
``pt / (1 - pt)``:

    NB(pt) = π₁·TPR - π₀·FPR·pt / (1 - pt)

(Vickers & Elkin (2006), "Decision curve analysis", Medical Decision Making 26,
"Methods"). It is the cost curve in other units: those costs make the cost
proportion ``c = pt`` exactly, hence ``PCF(+) = π₁(1-pt) / (π₁(1-pt) + π₀·pt)``
and

    NB = π₁ - (π₁(1-pt) + π₀·pt) / (1-pt) · NEC

(:func:`net_benefit_from_nec`). A decision curve is one threshold choice
method (:mod:`costwidget.model.decisions.threshold_choice`) read on that scale:
``"score"`` treats iff the risk is ``>= pt`` (as the ``dcurves`` package does),
``"optimal"`` is the envelope, the most net benefit any threshold reaches.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..base.fields import as_named as _as_named
from ..kernels import threshold_choice_kernels as K
from ..kernels.validation import as_1d, check_finite
from .threshold_choice import (
    check_probability_scores,
    check_threshold_choice,
    number_or_inf,
    prior_for,
    score_roc,
)

__all__ = [
    "decision_curve",
    "net_benefit",
    "net_benefit_from_nec",
    "pcf_from_threshold_probability",
    "TREAT_ALL",
    "TREAT_NONE",
]

TREAT_ALL = "treat all"
TREAT_NONE = "treat none"


def _check_pt(pt, name: str = "thresholds") -> np.ndarray:
    arr = np.asarray(pt, dtype=np.float64)
    bad = ~((arr >= 0.0) & (arr < 1.0))
    if bad.any():
        first = float(arr.ravel()[np.flatnonzero(bad.ravel())[0]])
        raise ValueError(
            f"{name} must be threshold probabilities in [0, 1), got {first}: at "
            f"pt = 1 a false positive would cost pt/(1-pt) = infinity."
        )
    return arr


def _check_prevalence(prevalence) -> float:
    p = number_or_inf(prevalence, "prevalence")
    if not 0.0 < p < 1.0:
        raise ValueError(f"prevalence must lie strictly between 0 and 1, got {prevalence!r}.")
    return p


def pcf_from_threshold_probability(pt, prevalence):
    """PCF(+) at threshold probability ``pt``: ``π₁(1-pt) / (π₁(1-pt) + π₀·pt)``.

    With C(-|+) = 1 and C(+|-) = pt/(1-pt) the cost proportion is pt itself.

    Examples
    --------
    >>> from costwidget.model.decisions.decision_curve import pcf_from_threshold_probability
    >>> float(pcf_from_threshold_probability(0.2, 0.2))
    0.5
    """
    return K.flip(_check_pt(pt, "pt"), _check_prevalence(prevalence))


def net_benefit_from_nec(nec, pt, prevalence):
    """Net benefit from the normalized expected cost at ``PCF(+)`` of threshold probability ``pt``.

    ``NB = π₁ - (π₁(1-pt) + π₀·pt) / (1-pt) · NEC``: the expected cost per case is
    NEC times its normalizer ``π₁·1 + π₀·pt/(1-pt)`` (Drummond & Holte (2006)).

    Parameters
    ----------
    nec : float or array-like
        NEC at ``pcf_from_threshold_probability(pt, prevalence)``.
    pt : float or array-like
        Threshold probabilities in [0, 1).
    prevalence : float in (0, 1)

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.decision_curve import (net_benefit_from_nec,
    ...                                               pcf_from_threshold_probability)
    >>> clf = cw.Classifier.from_scores([0, 0, 0, 1], [0.1, 0.2, 0.6, 0.7])
    >>> pcf = pcf_from_threshold_probability(0.5, 0.25)
    >>> float(net_benefit_from_nec(clf.nec(pcf), 0.5, 0.25))   # TPR 1, FPR 0 at 0.7
    0.25
    """
    rho = _check_prevalence(prevalence)
    p = _check_pt(pt, "pt")
    out = rho - (rho * (1.0 - p) + (1.0 - rho) * p) / (1.0 - p) * np.asarray(nec, np.float64)
    return float(out) if np.ndim(out) == 0 else out


def net_benefit(fpr, tpr, pt, rho):
    """Net benefit of a rule with rates (fpr, tpr) at threshold probability pt < 1 and
    prevalence rho: π₁·TPR - pt/(1-pt)·π₀·FPR, the formula of dcurves' binary dca (Vickers &
    Elkin 2006). `decide` reports its rules' net benefit with it."""
    return tpr * rho - (pt / (1.0 - pt)) * (fpr * (1.0 - rho))


def _treat_from(pt: np.ndarray) -> np.ndarray:
    """The least risk treated at each pt: ``risk >= pt``, and never a risk of exactly 0.

    dcurves moves risks of 0 to -eps before comparing (``_rectify_model_risk_boundaries``),
    so at pt = 0 it treats only risks above 0; the least positive float says the same.
    """
    return np.maximum(pt, np.nextafter(0.0, 1.0))


def _rates_at(clf, method: str, pt: np.ndarray, rho: float, threshold: float):
    """(FPR, TPR) chosen by ``method`` at cost proportion c = pt, at prevalence rho."""
    if method == "optimal":
        best = clf.best(K.flip(pt, rho))
        f, t = best["fpr"].to_numpy(), best["tpr"].to_numpy()
        # Any threshold the model has is a candidate: keep the score-driven one where the
        # envelope's vertex rounds a hair below it (it never is, mathematically).
        if clf.n_pos is not None and np.all(np.isfinite(clf.counts.thresholds[1:])):
            th, fpr, tpr = score_roc(clf, "score")
            j = K.score_index(th, pt)
            better = net_benefit(fpr[j], tpr[j], pt, rho) > net_benefit(f, t, pt, rho)
            f, t = np.where(better, fpr[j], f), np.where(better, tpr[j], t)
        return f, t
    th, fpr, tpr = score_roc(clf, method)
    if method == "score":
        j = K.score_index(th, _treat_from(pt))
        return fpr[j], tpr[j]
    if method == "fixed":
        j = K.score_index(th, np.full(pt.shape, threshold))
        return fpr[j], tpr[j]
    f, t, _ = K.rate_point(K.rate_cumulative(fpr, tpr, rho), fpr, tpr, 1.0 - pt)
    return f, t


def decision_curve(
    classifiers,
    thresholds=None,
    *,
    threshold_choice: str = "score",
    prior=None,
    threshold: float = 0.5,
) -> pd.DataFrame:
    """Net benefit against threshold probability, with "treat all" and "treat none".

    Vickers & Elkin (2006), "Decision curve analysis", Medical Decision Making 26.

    Parameters
    ----------
    classifiers : Classifier, list of Classifier, or dict {name: Classifier}
    thresholds : array-like, optional
        Threshold probabilities pt in [0, 1); default ``0, 0.01, ..., 0.99``
        (the default of ``dcurves.dca``).
    threshold_choice : {"score", "optimal", "rate", "fixed"}
        * ``"score"``: treat iff the score (a risk) is ``>= pt``, as ``dcurves``
          does, and as it never treat a risk of exactly 0 (at pt = 0 too).
          Scores must lie in [0, 1].
        * ``"optimal"``: the most net benefit any threshold of the model
          reaches at pt (the lower envelope in these units); never less than
          ``"score"``, ``"treat all"`` or ``"treat none"``.
        * ``"rate"``: treat the top share ``1 - pt``; ``"fixed"``: treat iff
          ``score >= threshold`` at every pt.
    prior : float in (0, 1), optional
        The prevalence π₁ of the population net benefit is reported for, and
        which the risks are calibrated for; default the data's (weighted)
        prevalence. As ``dcurves.dca(prevalence=...)`` for a case-control
        sample: TPR and FPR come from the data, the class weights from prior.
    threshold : float, default=0.5
        The threshold of ``"fixed"``.

    Returns
    -------
    DataFrame
        Tidy: ``classifier``, ``threshold_probability``, ``net_benefit``; the
        classifiers in order, then ``"treat all"`` (``π₁ - π₀·pt/(1-pt)``) and
        ``"treat none"`` (0). ``attrs``: ``threshold_choice``, ``prior``.

    Raises
    ------
    ValueError
        If the classifiers' prevalences differ and no ``prior`` is given (treat
        all would differ per classifier), or a classifier is named like a
        reference strategy.

    Notes
    -----
    Sample weights are in each classifier's counts; with folds the pooled
    out-of-fold scores are used (for one fold's curve pass ``clf.folds[k]``).

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.decision_curve import decision_curve
    >>> clf = cw.Classifier.from_scores([0, 0, 0, 1], [0.1, 0.2, 0.6, 0.7], name="risk")
    >>> decision_curve(clf, [0.1, 0.65]).round(4)
       classifier  threshold_probability  net_benefit
    0        risk                   0.10       0.1667
    1        risk                   0.65       0.2500
    2   treat all                   0.10       0.1667
    3   treat all                   0.65      -1.1429
    4  treat none                   0.10       0.0000
    5  treat none                   0.65       0.0000
    """
    named = _as_named(classifiers, "decision_curve")
    method = check_threshold_choice(threshold_choice)
    for reserved in (TREAT_ALL, TREAT_NONE):
        if reserved in named:
            raise ValueError(
                f"A classifier is named {reserved!r}, the name of a reference "
                f"strategy in the decision curve; rename it (clf.renamed(...))."
            )
    if thresholds is None:
        pt = np.arange(100) / 100.0
    else:
        pt = _check_pt(check_finite(as_1d(thresholds, "thresholds"), "thresholds"))
    threshold = number_or_inf(threshold, "threshold")
    rhos = {name: prior_for(clf, prior) for name, clf in named.items()}
    distinct = sorted(set(rhos.values()))
    if len(distinct) > 1 and not np.allclose(distinct, distinct[0], rtol=1e-12, atol=0.0):
        shown = ", ".join(f"{n!r}: {r:.6g}" for n, r in rhos.items())
        raise ValueError(
            f"The classifiers were evaluated on data of different prevalences "
            f"({shown}), so 'treat all' differs between them. Pass prior= (the "
            f"prevalence to report net benefit at) or one data set's classifiers."
        )
    rho = next(iter(rhos.values()))
    frames = []
    for name, clf in named.items():
        if method == "score":
            check_probability_scores(
                clf, score_roc(clf, method)[0], "decision_curve(threshold_choice='score')"
            )
        f, t = _rates_at(clf, method, pt, rhos[name], threshold)
        frames.append((name, net_benefit(f, t, pt, rhos[name])))
    ones = np.ones_like(pt)
    frames.append((TREAT_ALL, net_benefit(ones, ones, pt, rho)))
    frames.append((TREAT_NONE, np.zeros_like(pt)))
    out = pd.DataFrame(
        {
            "classifier": np.repeat([n for n, _ in frames], len(pt)),
            "threshold_probability": np.tile(pt, len(frames)),
            "net_benefit": np.concatenate([nb for _, nb in frames]),
        }
    )
    out.attrs.update(threshold_choice=method, prior=rho)
    return out
