"""How the threshold will really be chosen: cost curves and losses under threshold choice methods.

The lower envelope (``"optimal"``) is the cost of the best threshold at every
operating point, tuned on this very data. Deployed models choose their
threshold otherwise. Hernández-Orallo, Flach & Ferri unified the choices as
*threshold choice methods* ("Brier curves", ICML 2011; "A unified view of
performance metrics", JMLR 13, 2012, whose sections on each method give
the expected losses below):

* ``"optimal"``: the threshold optimal on the data (the envelope; Drummond &
  Holte (2000), sec. 2.2.1); its expected loss over c uniform is the refinement
  loss, the Brier score after isotonic (PAV) calibration (JMLR (2012), the
  optimal threshold choice);
* ``"score"``: the Bayes threshold for calibrated probabilities, predict
  positive iff ``score >= c``, the cost proportion; its expected loss is the
  Brier score (JMLR (2012), the score-driven threshold choice; the Brier curve
  of the ICML (2011) paper is this method's cost curve);
* ``"rate"``: predict the top share ``1 - c`` of cases positive, ties split
  evenly; its expected loss is ``π₀π₁(1 - 2·AUC) + 1/3`` (the rate-driven
  threshold choice);
* ``"fixed"``: one threshold (default 0.5) everywhere; its expected loss is
  the error rate (the fixed threshold choice).

Conventions: the cost proportion ``c`` in [0, 1] is the normalized cost of a
false positive (a false negative costs ``1 - c``), the loss at c is
``Q(c) = 2·[c·π₀·FPR + (1-c)·π₁·FNR]`` and on the cost curve's axis
``PCF(+) = π₁(1-c) / (π₁(1-c) + π₀·c)``, ``Q = 2·(π₁(1-c) + π₀·c)·NEC``.

**The prior.** ``prior`` (default: the evaluation data's weighted prevalence)
is π₁ of the population the scores are calibrated for and the operating
points refer to. The class-conditional score distributions are the data's;
only the class weights change. On the cost curve PCF(+) already holds the
deployment prevalence, so the prior enters in one place: the map from PCF(+)
to the cost proportion, ``c = prior·(1-x) / (prior·(1-x) + (1-prior)·x)``.
That c is the score method's Bayes threshold, because a score calibrated at
prevalence ρ has posterior odds ``s/(1-s)`` that are the likelihood ratio
times ``ρ/(1-ρ)``, and predicting positive pays iff those odds exceed
``(1-x)/x · ρ/(1-ρ)`` (prior shift folded into the threshold); and ``1 - c``
is the rate method's share of the population predicted positive. The losses
of :func:`threshold_choice_table` use π₁ = ``prior`` in Q.

Functions here read only a classifier's public fields (``counts``, ``hull``,
``segments``, ``prevalence``, ``nec``, ``area``); the kernels are in
:mod:`costwidget.model.kernels.threshold_choice_kernels`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from ..base.fields import check_classifier
from ..kernels import threshold_choice_kernels as K
from ..kernels.costs import cost_line_value
from ..kernels.validation import check_number, check_pcf, check_scalar_or_1d

__all__ = [
    "THRESHOLD_CHOICES",
    "nec_by_threshold_choice",
    "score_rule_at_costs",
    "cost_curve",
    "auc",
    "expected_loss",
    "brier_score",
    "h_measure",
]

THRESHOLD_CHOICES = ("optimal", "score", "rate", "fixed")


# ---------------------------------------------------------------------------- checks
def check_threshold_choice(threshold_choice) -> str:
    if threshold_choice not in THRESHOLD_CHOICES:
        raise ValueError(
            f"threshold_choice must be one of {list(THRESHOLD_CHOICES)}, got "
            f"{threshold_choice!r}. 'optimal' is the envelope, 'score' thresholds "
            f"calibrated probabilities at the Bayes threshold, 'rate' predicts a "
            f"share of cases positive, 'fixed' uses one threshold."
        )
    return threshold_choice


def _check_classifier(clf, name: str = "clf"):
    return check_classifier(clf, name)


def number_or_inf(value, name: str) -> float:
    """A number, NaN refused, ±inf allowed (validation.check_number's rules and words)."""
    return check_number(value, name, finite=False)


def prior_for(clf, prior, *, needed: bool = True):
    """The prevalence ρ to use: ``prior``, else the classifier's (weighted) prevalence."""
    if prior is None:
        if clf.prevalence is None and needed:
            raise ValueError(
                f"{_label(clf)} was built from ROC rates only "
                f"(Classifier.from_roc), so its prevalence is unknown: pass prior= "
                f"(the share of positives, strictly between 0 and 1)."
            )
        return None if clf.prevalence is None else float(clf.prevalence)
    p = number_or_inf(prior, "prior")
    if not 0.0 < p < 1.0:
        raise ValueError(
            f"prior must lie strictly between 0 and 1 (the prevalence of the positive "
            f"class), got {prior!r}."
        )
    return p


def _label(clf) -> str:
    return "This classifier" if clf.name is None else f"Classifier {clf.name!r}"


def score_roc(clf, method: str):
    """(thresholds, fpr, tpr) of every distinct score, refusing classifiers without scores."""
    c = clf.counts
    th = c.thresholds
    if clf.n_pos is None or not np.all(np.isfinite(th[1:])):
        how = "from_roc" if clf.n_pos is None else "from_confusion"
        raise ValueError(
            f"threshold_choice={method!r} needs the classifier's scores, but {_label(clf).lower()} "
            f"was built with Classifier.{how} and has only ROC points. Build it with "
            f"Classifier.from_scores, from_counts, from_frame or from_estimator; "
            f"threshold_choice='optimal' works for any classifier."
        )
    return th, c.fp / c.n_neg, c.tp / c.n_pos


def score_range(th: np.ndarray) -> tuple[float, float]:
    return float(th[-1]), float(th[1])


def check_probability_scores(clf, th, what: str) -> None:
    lo, hi = score_range(th)
    if lo < 0.0 or hi > 1.0:
        raise ValueError(
            f"{what} reads scores as calibrated probabilities, but {_label(clf).lower()}'s scores "
            f"span [{lo:.6g}, {hi:.6g}], outside [0, 1]. Calibrate them first (e.g. "
            f"sklearn.calibration.CalibratedClassifierCV, or IsotonicRegression on held-out "
            f"scores), or use threshold_choice='rate' or 'optimal', which need only the ranking."
        )


# ---------------------------------------------------------------------------- pointwise NEC
def nec_by_threshold_choice(
    clf, pcf, threshold_choice: str = "optimal", *, prior=None, threshold: float = 0.5
):
    """Normalized expected cost at ``pcf`` when the threshold is chosen by ``threshold_choice``.

    Hernández-Orallo, Flach & Ferri (2012), "A unified view of performance
    metrics" (its threshold choice methods), drawn on Drummond & Holte's
    (2006) cost-curve axes; the ``"score"`` curve is their ICML (2011) Brier
    curve in these axes.

    Parameters
    ----------
    clf : Classifier
    pcf : float or 1-D array-like
        PCF(+) values in [0, 1].
    threshold_choice : {"optimal", "score", "rate", "fixed"}
        * ``"optimal"``: the lower envelope (what :meth:`Classifier.nec` gives).
        * ``"score"``: predict positive iff ``score >= t``, the Bayes threshold
          for scores calibrated at prevalence ``prior``:
          ``t = prior·(1-pcf) / (prior·(1-pcf) + (1-prior)·pcf)``, which is the
          cost proportion c. Scores must lie in [0, 1].
        * ``"rate"``: predict the top share ``1 - c`` of the population
          positive (share weighted by ``prior``), tied scores split evenly:
          the expected cost of a random order within the tie.
        * ``"fixed"``: predict positive iff ``score >= threshold`` at every pcf.
    prior : float in (0, 1), optional
        Prevalence the scores are calibrated for and the operating points refer
        to; default the evaluation data's (weighted). See the module notes.
    threshold : float, default=0.5
        The threshold of ``"fixed"``.

    Returns
    -------
    float or ndarray
        A float for a number, an array for an array.

    Notes
    -----
    Sample weights are in the classifier's counts. With folds the pooled
    out-of-fold scores are used; pass ``clf.folds[k]`` for one fold's. The
    score-driven cost jumps at every distinct score: at a jump the value is the
    one on the right (the score is predicted positive once ``t`` reaches it).

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.threshold_choice import nec_by_threshold_choice
    >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> nec_by_threshold_choice(clf, 0.5)           # the envelope
    0.25
    >>> nec_by_threshold_choice(clf, 0.5, "score")  # prevalence 1/2: threshold 0.5, 0.8 positive
    0.25
    >>> nec_by_threshold_choice(clf, 0.5, "rate")   # top half: 0.8 and 0.4
    0.5
    >>> nec_by_threshold_choice(clf, [0.2, 0.8], "fixed", threshold=0.3).tolist()
    [0.4, 0.1]
    """
    _check_classifier(clf)
    method = check_threshold_choice(threshold_choice)
    x = check_scalar_or_1d(check_pcf(pcf), "pcf")
    if method == "optimal":
        prior_for(clf, prior, needed=False)  # checked, though the envelope does not depend on it
        # From best(), not clf.nec(): Classifier.nec may delegate here.
        out = clf.best(np.atleast_1d(x))["nec"].to_numpy()
        out = out[0] if np.ndim(x) == 0 else out
    else:
        th, fpr, tpr = score_roc(clf, method)
        if method == "fixed":
            prior_for(clf, prior, needed=False)
            j = K.score_index(th, number_or_inf(threshold, "threshold"))
            out = cost_line_value(fpr[j], tpr[j], x)
        else:
            rho = prior_for(clf, prior)
            if method == "score":
                check_probability_scores(clf, th, "threshold_choice='score'")
                # c computed exactly and rounded once: the float flip(x) can round past a score.
                t = K.exact_score_threshold(x, rho)
                j = K.score_index(th, t if np.ndim(x) else t[0])
                out = cost_line_value(fpr[j], tpr[j], x)
            else:
                c = K.flip(x, rho)
                f, t, _ = K.rate_point(K.rate_cumulative(fpr, tpr, rho), fpr, tpr, 1.0 - c)
                out = cost_line_value(f, t, x)
    return float(out) if np.ndim(out) == 0 else out


def score_rule_at_costs(clf, p_pos, cost_fn, cost_fp, *, prior=None) -> dict:
    """The score-driven rule at an operating point given by its costs, decided exactly.

    Predict positive iff ``score >= c``, c the Bayes threshold for scores calibrated at
    ``prior``: ``c = prior·(1-p)·C(+|-) / (prior·(1-p)·C(+|-) + (1-prior)·p·C(-|+))``, computed
    in rationals from the floats given (at ``prior = p_pos``, ``C(+|-) / (C(+|-) + C(-|+))``)
    and rounded once to the nearest float, so a score equal to c (3/10: the score 0.3) counts
    as positive; PCF(+) rounded first, then ``flip``, could move c a step off it.

    Parameters
    ----------
    clf : Classifier
        With scores in [0, 1] (calibrated probabilities).
    p_pos, cost_fn, cost_fp : float
        The operating point, as :func:`costwidget.probability_cost`.
    prior : float in (0, 1), optional
        As :func:`nec_by_threshold_choice`; default the data's prevalence.

    Returns
    -------
    dict
        ``threshold`` (the lowest score predicted positive; ``inf`` when none is),
        ``fpr``, ``tpr``, ``pcf`` and ``nec`` (at that PCF(+)).

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.threshold_choice import score_rule_at_costs
    >>> clf = cw.Classifier.from_scores([0, 1, 0, 1], [0.5, 0.75, 0.25, 0.8])
    >>> rule = score_rule_at_costs(clf, 0.5, 1.0, 3.0)   # c = 3/4: 0.75 is positive
    >>> rule["threshold"], rule["tpr"], rule["fpr"]
    (0.75, 1.0, 0.0)
    """
    from ..kernels.costs import probability_cost

    _check_classifier(clf)
    th, fpr, tpr = score_roc(clf, "score")
    rho = prior_for(clf, prior)
    check_probability_scores(clf, th, "threshold_choice='score'")
    pcf = float(probability_cost(p_pos, cost_fn, cost_fp))
    r, p = Fraction(rho), Fraction(p_pos)
    neg, pos = r * (1 - p) * Fraction(cost_fp), (1 - r) * p * Fraction(cost_fn)
    c = neg / (neg + pos) if neg + pos else Fraction(1)
    j = int(K.score_index(th, float(c)))  # c rounded once, as a literal of it would be
    return {
        "threshold": float(th[j]),
        "fpr": float(fpr[j]),
        "tpr": float(tpr[j]),
        "pcf": pcf,
        "nec": float(cost_line_value(fpr[j], tpr[j], pcf)),
    }


# ---------------------------------------------------------------------------- exact curves
def cost_curve(
    clf, threshold_choice: str = "optimal", *, prior=None, threshold: float = 0.5
) -> pd.DataFrame:
    """The exact cost curve of a threshold choice method, as pieces over PCF(+).

    Parameters
    ----------
    clf : Classifier
    threshold_choice : {"optimal", "score", "rate", "fixed"}
        See :func:`nec_by_threshold_choice`.
    prior : float in (0, 1), optional
        See :func:`nec_by_threshold_choice`.
    threshold : float, default=0.5
        The threshold of ``"fixed"``.

    Returns
    -------
    DataFrame
        One row per piece ``[pcf_lo, pcf_hi)``, from 0 to 1, with ``nec_lo``
        and ``nec_hi`` the cost at its ends (``nec_hi`` is the limit from the
        left; the next piece may start elsewhere: a jump).

        * ``"optimal"``, ``"score"``, ``"fixed"``: one classification per piece,
          ``threshold`` (predicted positive iff ``score >= threshold``; ``inf``
          predicts nothing positive), ``fpr``, ``tpr`` and ``rate`` (the share
          of the population predicted positive, ``prior·tpr + (1-prior)·fpr``;
          NaN when the prevalence is unknown). NEC is linear on each piece.
          The score-driven curve has a piece for every distinct score in
          [0, 1]: it jumps where the threshold passes a score.
        * ``"rate"``: the piece where the tie group of score ``threshold`` is
          split; ``rate_lo``/``rate_hi`` (share predicted positive),
          ``fpr_lo``, ``tpr_lo``, ``fpr_hi``, ``tpr_hi`` at its ends. FPR and TPR
          are linear in the share, which is rational in PCF(+), so NEC is
          curved: evaluate it with :func:`nec_by_threshold_choice` to draw it.

        ``attrs``: ``threshold_choice``, ``prior``, ``linear`` (NEC linear on
        each piece), ``area`` (the exact area under the curve over [0, 1],
        Drummond & Holte (2000), eq. 11 with a uniform density).

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.threshold_choice import cost_curve
    >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> cc = cost_curve(clf, "score")
    >>> cc[["pcf_lo", "pcf_hi", "threshold", "fpr", "tpr", "nec_lo", "nec_hi"]].round(3)
       pcf_lo  pcf_hi  threshold  fpr  tpr  nec_lo  nec_hi
    0    0.00    0.20        inf  0.0  0.0    0.00    0.20
    1    0.20    0.60       0.80  0.0  0.5    0.10    0.30
    2    0.60    0.65       0.40  0.5  0.5    0.50    0.50
    3    0.65    0.90       0.35  0.5  1.0    0.175   0.05
    4    0.90    1.00       0.10  1.0  1.0    0.10    0.00
    >>> round(cc.attrs["area"], 6)   # at prevalence 1/2, PCF(+) = 1 - c: the Brier score
    0.158125
    """
    _check_classifier(clf)
    method = check_threshold_choice(threshold_choice)
    if method == "optimal":
        rho = prior_for(clf, prior, needed=False)
        seg = clf.segments
        lo, hi = seg["pcf_lo"].to_numpy(), seg["pcf_hi"].to_numpy()
        f, t = seg["fpr"].to_numpy(), seg["tpr"].to_numpy()
        out = _constant_pieces(lo, hi, seg["threshold"].to_numpy(), f, t, rho)
        out.attrs["area"] = float(clf.area())
    else:
        th, fpr, tpr = score_roc(clf, method)
        if method == "fixed":
            rho = prior_for(clf, prior, needed=False)
            j = np.atleast_1d(K.score_index(th, number_or_inf(threshold, "threshold")))
            out = _constant_pieces(np.array([0.0]), np.array([1.0]), th[j], fpr[j], tpr[j], rho)
        elif method == "score":
            rho = prior_for(clf, prior)
            check_probability_scores(clf, th, "threshold_choice='score'")
            lo, hi, j = _score_pieces(th, rho)
            out = _constant_pieces(lo, hi, th[j], fpr[j], tpr[j], rho)
        else:
            rho = prior_for(clf, prior)
            out = _rate_pieces(th, fpr, tpr, rho)
        out.attrs["area"] = _area(out, method, rho)
    out.attrs.update(threshold_choice=method, prior=rho, linear=method != "rate")
    return out


def _constant_pieces(lo, hi, th, f, t, rho) -> pd.DataFrame:
    rate = np.full(len(lo), np.nan) if rho is None else rho * t + (1.0 - rho) * f
    return pd.DataFrame(
        {
            "pcf_lo": lo,
            "pcf_hi": hi,
            "threshold": th,
            "fpr": f,
            "tpr": t,
            "rate": rate,
            "nec_lo": cost_line_value(f, t, lo),
            "nec_hi": cost_line_value(f, t, hi),
        }
    )


def _score_pieces(th: np.ndarray, rho: float):
    """Pieces of the score-driven curve: (pcf_lo, pcf_hi, ROC index on the piece)."""
    first = int(K.score_index(th, 1.0))  # at pcf 0 the threshold is 1
    k = np.arange(first + 1, len(th))
    k = k[th[k] >= 0.0]  # scores below 0 are never positive
    # Where each further score joins: the least float PCF(+) whose threshold is <= the score, so
    # that a piece holds exactly the pcf values nec_by_threshold_choice classifies its way.
    starts = K.score_pcf_starts(th[k], rho)
    lo = np.concatenate(([0.0], starts))
    hi = np.concatenate((starts, [1.0]))
    j = np.concatenate(([first], k))
    keep = hi > lo
    return lo[keep], hi[keep], j[keep]


def _rate_pieces(th, fpr, tpr, rho) -> pd.DataFrame:
    cum = K.rate_cumulative(fpr, tpr, rho)
    x = K.flip(1.0 - cum, rho)  # pcf where the share reaches cum[j]
    x[0], x[-1] = 0.0, 1.0
    j = np.arange(1, len(th))
    out = pd.DataFrame(
        {
            "pcf_lo": x[j - 1],
            "pcf_hi": x[j],
            "threshold": th[j],
            "rate_lo": cum[j - 1],
            "rate_hi": cum[j],
            "fpr_lo": fpr[j - 1],
            "tpr_lo": tpr[j - 1],
            "fpr_hi": fpr[j],
            "tpr_hi": tpr[j],
            "nec_lo": cost_line_value(fpr[j - 1], tpr[j - 1], x[j - 1]),
            "nec_hi": cost_line_value(fpr[j], tpr[j], x[j]),
        }
    )
    return out[out["pcf_hi"] > out["pcf_lo"]].reset_index(drop=True)


def _area(pieces: pd.DataFrame, method: str, rho) -> float:
    p = {k: pieces[k].to_numpy() for k in pieces.columns}
    if method != "rate":
        return K.linear_area(p["pcf_lo"], p["pcf_hi"], p["nec_lo"], p["nec_hi"])
    width = p["rate_hi"] - p["rate_lo"]
    return K.rate_area(
        p["pcf_lo"],
        p["pcf_hi"],
        p["rate_lo"],
        p["fpr_lo"],
        p["tpr_lo"],
        (p["fpr_hi"] - p["fpr_lo"]) / width,
        (p["tpr_hi"] - p["tpr_lo"]) / width,
        rho,
    )


# ---------------------------------------------------------------------------- losses over c
def _cost_pieces(clf, method: str, rho: float, threshold: float):
    """Pieces over the cost proportion c: (c_lo, c_hi, fpr/tpr at c_lo, fpr/tpr at c_hi)."""
    if method == "optimal":
        h = clf.hull
        f, t = h["fpr"].to_numpy(), h["tpr"].to_numpy()
        df, dt = np.diff(f), np.diff(t)
        cross = rho * dt / (rho * dt + (1.0 - rho) * df)  # c where vertex k hands over to k + 1
        c_hi = np.concatenate(([1.0], cross))  # vertex k optimal on [cross_k, cross_k-1]
        c_lo = np.concatenate((cross, [0.0]))
        return c_lo, c_hi, f, t, f, t
    th, fpr, tpr = score_roc(clf, method)
    if method == "fixed":
        j = np.atleast_1d(K.score_index(th, threshold))
        return np.array([0.0]), np.array([1.0]), fpr[j], tpr[j], fpr[j], tpr[j]
    if method == "score":
        # On c in (v_k+1, v_k] the scores >= v_k are positive; scores outside [0, 1] are clipped.
        v = np.clip(th[1:], 0.0, 1.0)
        c_hi = np.concatenate(([1.0], v))
        c_lo = np.concatenate((v, [0.0]))
        j = np.arange(len(th))
        return c_lo, c_hi, fpr[j], tpr[j], fpr[j], tpr[j]
    cum = K.rate_cumulative(fpr, tpr, rho)  # share 1 - c
    j = np.arange(1, len(th))
    return (1.0 - cum[j], 1.0 - cum[j - 1], fpr[j], tpr[j], fpr[j - 1], tpr[j - 1])


def expected_loss(
    clf, threshold_choice: str = "optimal", *, prior=None, threshold: float = 0.5
) -> float:
    """Expected loss of a threshold choice method: ``∫ Q(c) dc``, c uniform on [0, 1], exactly.

    ``Q(c) = 2·[c·(1-prior)·FPR + (1-c)·prior·FNR]`` (Hernández-Orallo, Flach &
    Ferri (2012), the loss of their notation section, with the factor 2 that
    makes the fixed method's loss the error rate). It equals, for scores in
    [0, 1], as their sections on each method show: ``"score"``, the Brier
    score; ``"optimal"``, the Brier score after isotonic (PAV) calibration, the
    refinement loss; ``"rate"``, ``prior·(1-prior)·(1 - 2·AUC) + 1/3``;
    ``"fixed"``, the error rate of ``score >= threshold``.

    Parameters
    ----------
    clf : Classifier
    threshold_choice : {"optimal", "score", "rate", "fixed"}
    prior : float in (0, 1), optional
        π₁ in Q and the prevalence the scores are calibrated for (see the module
        notes); default the data's (weighted) prevalence.
    threshold : float, default=0.5

    Returns
    -------
    float

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.threshold_choice import expected_loss
    >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> round(expected_loss(clf, "score"), 6)       # (0.01 + 0.16 + 0.4225 + 0.04) / 4
    0.158125
    >>> round(expected_loss(clf, "fixed"), 6)       # error rate at 0.5
    0.25
    >>> round(expected_loss(clf, "rate"), 6)        # AUC 3/4: 1/4 · (1 - 3/2) + 1/3
    0.208333
    """
    _check_classifier(clf)
    method = check_threshold_choice(threshold_choice)
    rho = prior_for(clf, prior)
    if method == "score":
        check_probability_scores(clf, score_roc(clf, method)[0], "threshold_choice='score'")
    pieces = _cost_pieces(clf, method, rho, number_or_inf(threshold, "threshold"))
    return K.loss_integral(*pieces, rho)


def brier_score(clf, *, prior=None) -> float:
    """Brier score ``mean((s - y)²)`` (weighted), at prevalence ``prior``.

    At the data's prevalence this is the plain (weighted) Brier score. With
    ``prior`` the class means are reweighted:
    ``prior·mean_pos((1-s)²) + (1-prior)·mean_neg(s²)``, the Brier score in a
    population of that prevalence with the same class-conditional scores.
    Scores outside [0, 1] are refused.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.threshold_choice import brier_score
    >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> round(brier_score(clf), 6)
    0.158125
    """
    _check_classifier(clf)
    th, fpr, tpr = score_roc(clf, "score")
    check_probability_scores(clf, th, "brier_score")
    rho = prior_for(clf, prior)
    v = th[1:]
    pos, neg = np.diff(tpr), np.diff(fpr)  # share of each class at each distinct score
    return float(rho * np.sum(pos * (1.0 - v) ** 2) + (1.0 - rho) * np.sum(neg * v**2))


def _beta_params(rho: float, severity_ratio):
    if severity_ratio is None:
        severity_ratio = rho / (1.0 - rho)
    sr = number_or_inf(severity_ratio, "severity_ratio")
    if sr > 0:
        return 2.0, 1.0 + 1.0 / sr
    if sr < 0:
        return rho + 1.0, (1.0 - rho) + 1.0
    raise ValueError(
        "severity_ratio must not be 0: give a positive ratio C(+|-)/C(-|+) of the "
        "cost of a false positive to a false negative, a negative number for "
        "Beta(π₁+1, π₀+1) (Hand & Anagnostopoulos 2014), or None for the "
        "default "
        "π₁/π₀."
    )


def auc(clf) -> float:
    """Area under the ROC curve (ties count half), exact from the ROC points."""
    c = clf.counts
    f, t = c.fp / c.n_neg, c.tp / c.n_pos
    return float(np.sum(np.diff(f) * (t[1:] + t[:-1])) / 2.0)


def h_measure(clf, *, severity_ratio=None, prior=None) -> float:
    """Hand's (2009) H measure: 1 − the envelope's loss under a Beta cost density, normalized.

    ``H = 1 - L_H / L_max``, with ``L_H = ∫ min_t [c·π₀·FPR + (1-c)·π₁·FNR] u(c) dc``
    over the ROC convex hull, ``L_max`` the same for the better trivial
    classifier, and u the Beta(a, b) density of the cost proportion c
    (Hand (2009), Machine Learning 77, the H measure's definition). Computed exactly with
    regularized incomplete beta functions, as the ``hmeasure`` packages do.

    Parameters
    ----------
    clf : Classifier
    severity_ratio : float, optional
        ``C(+|-)/C(-|+)``, how much worse a false positive is than a false
        negative: the mode of c is ``severity_ratio / (1 + severity_ratio)``,
        with ``a = 2``, ``b = 1 + 1/severity_ratio``. Default ``π₁/π₀``, the
        default of the R and Python ``hmeasure`` packages. A negative value
        gives Beta(π₁+1, π₀+1) (Hand & Anagnostopoulos (2014), "A better Beta").
    prior : float in (0, 1), optional
        π₁ (default: the data's weighted prevalence).

    Returns
    -------
    float

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.threshold_choice import h_measure
    >>> h_measure(cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]))   # separates
    1.0
    >>> round(h_measure(cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])), 6)
    0.5
    """
    _check_classifier(clf)
    rho = prior_for(clf, prior)
    a, b = _beta_params(rho, severity_ratio)
    c_lo, c_hi, f, t, _, _ = _cost_pieces(clf, "optimal", rho, 0.5)
    loss = K.beta_loss(c_lo, c_hi, f, t, rho, a, b)
    # Trivial classifiers: all positive (FPR = TPR = 1) below c = π₁, all negative above.
    worst = K.beta_loss(
        np.array([0.0, rho]),
        np.array([rho, 1.0]),
        np.array([1.0, 0.0]),
        np.array([1.0, 0.0]),
        rho,
        a,
        b,
    )
    return float(1.0 - min(loss, worst) / worst)
