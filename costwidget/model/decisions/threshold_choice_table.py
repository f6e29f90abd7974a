"""One table of the threshold-choice measures per classifier (Hernández-Orallo, Flach & Ferri 2012).

Layer 3 (decisions/): reads classifiers through :mod:`.threshold_choice`; see there for each
measure.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..base.fields import as_named as _as_named
from .threshold_choice import (
    auc,
    brier_score,
    cost_curve,
    expected_loss,
    h_measure,
    number_or_inf,
    prior_for,
    score_range,
)

__all__ = ["COLUMNS", "threshold_choice_table"]

_SCORE_COLUMNS = ("brier", "loss_score", "calibration_loss", "area_score")
_SCORED_COLUMNS = ("loss_fixed", "loss_rate", "area_fixed", "area_rate")
_PRIOR_COLUMNS = (
    "loss_fixed",
    "loss_score",
    "loss_rate",
    "loss_optimal",
    "calibration_loss",
    "brier",
    "h_measure",
    "area_score",
    "area_rate",
)
#: With per-case costs, the table's last columns (:func:`per_case_rule_table`): money per case.
PER_CASE_COLUMNS = ("cost_single_threshold", "cost_case_bayes", "cost_trivial")
COLUMNS = (
    "prior",
    "brier",
    "loss_fixed",
    "loss_score",
    "loss_rate",
    "loss_optimal",
    "calibration_loss",
    "auc",
    "h_measure",
    "area_fixed",
    "area_score",
    "area_rate",
    "area_optimal",
)


def _row(clf, name: str, prior, threshold: float, severity_ratio) -> dict:
    row = dict.fromkeys(COLUMNS, math.nan)
    row["auc"] = auc(clf)
    row["area_optimal"] = float(clf.area())
    rho = prior_for(clf, prior, needed=False)
    if rho is None:
        warnings.warn(
            f"threshold_choice_table: {name!r} was built from ROC rates only, so its "
            f"prevalence is unknown; columns {list(_PRIOR_COLUMNS)} are NaN. Pass "
            f"prior= to fill them.",
            UserWarning,
            stacklevel=3,
        )
        return row
    row["prior"] = rho
    row["loss_optimal"] = expected_loss(clf, "optimal", prior=rho)
    row["h_measure"] = h_measure(clf, prior=rho, severity_ratio=severity_ratio)
    th = clf.counts.thresholds
    if clf.n_pos is None or not np.all(np.isfinite(th[1:])):
        warnings.warn(
            f"threshold_choice_table: {name!r} has no scores (it was built from ROC "
            f"points or a confusion matrix), so columns "
            f"{list(_SCORE_COLUMNS + _SCORED_COLUMNS)} are NaN. Build it with "
            f"Classifier.from_scores to fill them.",
            UserWarning,
            stacklevel=3,
        )
        return row
    row["loss_fixed"] = expected_loss(clf, "fixed", prior=rho, threshold=threshold)
    row["loss_rate"] = expected_loss(clf, "rate", prior=rho)
    row["area_fixed"] = cost_curve(clf, "fixed", prior=rho, threshold=threshold).attrs["area"]
    row["area_rate"] = cost_curve(clf, "rate", prior=rho).attrs["area"]
    lo, hi = score_range(th)
    if lo < 0.0 or hi > 1.0:
        warnings.warn(
            f"threshold_choice_table: {name!r} has scores in [{lo:.6g}, {hi:.6g}], "
            f"outside [0, 1], so they are not probabilities and columns "
            f"{list(_SCORE_COLUMNS)} are NaN. Calibrate the scores first (e.g. "
            f"sklearn.calibration.CalibratedClassifierCV) to fill them.",
            UserWarning,
            stacklevel=3,
        )
        return row
    row["brier"] = brier_score(clf, prior=rho)
    row["loss_score"] = expected_loss(clf, "score", prior=rho)
    row["calibration_loss"] = row["loss_score"] - row["loss_optimal"]
    row["area_score"] = cost_curve(clf, "score", prior=rho).attrs["area"]
    return row


def threshold_choice_table(
    classifiers, *, prior=None, threshold: float = 0.5, severity_ratio=None
) -> pd.DataFrame:
    """One row per classifier: Brier score, the loss of each threshold choice method, AUC, H.

    The losses are ``∫ Q(c) dc`` over c uniform on [0, 1] (see
    :func:`expected_loss`), exactly; Hernández-Orallo, Flach & Ferri (2012),
    "A unified view of performance metrics", JMLR 13.

    Parameters
    ----------
    classifiers : Classifier, list of Classifier, or dict {name: Classifier}
    prior : float in (0, 1), optional
        π₁ for Q and the prevalence the scores are calibrated for; default
        each classifier's own (weighted) prevalence. See the module notes.
    threshold : float, default=0.5
        The threshold of the ``"fixed"`` method.
    severity_ratio : float, optional
        For ``h_measure``; default π₁/π₀ as in the ``hmeasure`` packages.

    Returns
    -------
    DataFrame
        Indexed by classifier name (index name ``classifier``), with columns:

        * ``prior``: the π₁ used;
        * ``brier``: the Brier score at that prevalence (:func:`brier_score`);
        * ``loss_fixed``, ``loss_score``, ``loss_rate``, ``loss_optimal``: the
          expected loss of each method (``loss_score`` equals ``brier``);
        * ``calibration_loss`` = ``loss_score - loss_optimal``: what trusting
          the scores as probabilities costs over the envelope (the
          calibration loss of the Brier score's decomposition);
        * ``auc``; ``h_measure`` (:func:`h_measure`);
        * ``area_fixed``, ``area_score``, ``area_rate``, ``area_optimal``: the
          area under each method's cost curve over PCF(+) in [0, 1]
          (Drummond & Holte (2000), eq. 11 with a uniform density);
        * with per-case costs (every classifier built with ``cost_fn=`` ...), the measures
          above are of the cost-weighted classifiers, and ``cost_single_threshold``,
          ``cost_case_bayes`` and ``cost_trivial`` follow: the money per case of the
          cheapest single threshold, of the per-case Bayes rule and of the cheaper trivial
          rule (:func:`~costwidget.per_case_rule_table`).

        Scores outside [0, 1] are not probabilities: ``brier``, ``loss_score``,
        ``calibration_loss`` and ``area_score`` are then NaN, with a warning
        that names them; the rest are filled. Classifiers without scores
        (``from_roc``, ``from_confusion``) fill only the envelope's columns.

    Notes
    -----
    Sample weights are in each classifier's counts. With folds the pooled
    out-of-fold scores are used; pass ``clf.folds`` (a dict) for one row per fold.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.decisions.threshold_choice_table import threshold_choice_table
    >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="toy")
    >>> t = threshold_choice_table(clf)
    >>> t[["brier", "loss_score", "loss_optimal", "calibration_loss", "auc"]].round(4)
                 brier  loss_score  loss_optimal  calibration_loss   auc
    classifier
    toy         0.1581      0.1581         0.125            0.0331  0.75
    """
    named = _as_named(classifiers, "threshold_choice_table")
    threshold = number_or_inf(threshold, "threshold")
    rows = [_row(clf, name, prior, threshold, severity_ratio) for name, clf in named.items()]
    out = pd.DataFrame(rows, index=pd.Index(list(named), name="classifier"), columns=list(COLUMNS))
    out.attrs.update(prior=prior, threshold=threshold, severity_ratio=severity_ratio)
    if all(getattr(c, "case_costs", None) is not None for c in named.values()) and named:
        from .per_case_table import per_case_rule_table  # money per case beside the measures above

        out = out.join(per_case_rule_table(named)[list(PER_CASE_COLUMNS)])
    return out
