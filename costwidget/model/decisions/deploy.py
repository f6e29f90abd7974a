"""The chosen decision rule as a record, and as a scikit-learn estimator that runs it.

Free functions over a classifier's public fields (``best``, ``segments``,
``hull``, ``neyman_pearson``/``workforce`` answers and, for classifiers made
from estimators, ``estimator_source``); they do not import ``Classifier``.

A rule is "predict positive iff score >= threshold" (the ROC convention of
this package and of scikit-learn), or, under a binding Neyman-Pearson or
workforce constraint that falls inside a hull edge, a randomized mix of two
such thresholds (Drummond & Holte (2000), sec. 2.2.2, fig. 10).

Each threshold a rule deploys is one number, shown as it is everywhere
(`deployed_threshold`): the shortest decimal above the next lower distinct
score and at most the lowest score the rule flags. It flags exactly the
rule's cases on the data, and a reader can type it; a rule that flags every
case deploys ``-inf`` so that new cases below the data are flagged too.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from ..kernels.costs import expected_cost, probability_cost
from ..kernels.estimator_scoring import EstimatorSource
from ..kernels.json_values import jsonable
from .case_bayes import case_bayes_estimator
from .operating import cheapest_allowed, deploy_thresholds

__all__ = ["DecisionRule", "EstimatorSource", "decision_rule", "to_estimator"]


@dataclass(frozen=True)
class DecisionRule:
    """The rule chosen at one operating point: what to deploy and what it costs.

    Attributes
    ----------
    classifier : str
        The classifier's name.
    threshold : float
        Predict positive iff ``score >= threshold``: the number deployed, shown and
        passed to ``to_estimator`` (`deployed_threshold`: the shortest decimal
        that flags exactly the rule's cases on the data; ``-inf`` when it flags
        every case, ``+inf`` when none). For a randomized rule, the best single
        threshold under the constraint (``single_threshold``, a score of the data).
    randomized : bool
        True for a constrained rule that mixes two thresholds.
    threshold_low, threshold_high, prob_low : float
        The mix: use ``threshold_low`` with probability ``prob_low``, else
        ``threshold_high`` (each deployed as ``threshold`` is). Equal thresholds
        and ``prob_low = 0`` when not randomized.
    constraint : str or None
        ``"neyman_pearson"``, ``"workforce"`` or None.
    pcf, p_pos, cost_fn, cost_fp : float
        The operating point: PCF(+), deployment prevalence and costs.
    fpr, tpr : float
        The rule's rates on the evaluation data.
    nec, expected_cost : float
        Normalized expected cost, and expected cost per case in the costs' units.
    pcf_lo, pcf_hi : float
        The PCF(+) interval over which this same rule stays optimal (for a
        constrained rule: optimal among the rules the constraint allows).
        It contains ``pcf``.
    binding : bool
        True when the constraint raises the cost: no cheapest unconstrained rule
        is allowed, and the rule is the paper's constrained point (Drummond &
        Holte (2000), sec. 2.2.2). False without a constraint, and where the
        limit allows the unconstrained optimum (the rule is then that optimum).
    nec_honest : float
        The honest cost (:func:`costwidget.honest_cost`) at ``pcf``: what the threshold tuned
        there costs on cases it was not tuned on. NaN unless given to :func:`decide`
        (``honest=``); ``to_dict`` carries it only when known.
    """

    classifier: str
    threshold: float
    randomized: bool
    threshold_low: float
    threshold_high: float
    prob_low: float
    constraint: str | None
    pcf: float
    p_pos: float
    cost_fn: float
    cost_fp: float
    fpr: float
    tpr: float
    nec: float
    expected_cost: float
    pcf_lo: float
    pcf_hi: float
    binding: bool = False
    nec_honest: float = math.nan

    def to_dict(self) -> dict:
        """The record as JSON-ready plain values; infinite thresholds become ``"inf"``/``"-inf"``
        (JSON has no infinity) and NaN becomes None.

        Examples
        --------
        >>> import json
        >>> import costwidget as cw
        >>> from costwidget.model import decision_rule
        >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9], name="m")
        >>> rule = decision_rule(clf, p_pos=0.5, cost_fn=1.0, cost_fp=2.0)
        >>> d = json.loads(json.dumps(rule.to_dict()))
        >>> d["threshold"], d["fpr"], d["tpr"], d["pcf_lo"], d["pcf_hi"]
        (0.9, 0.0, 0.5, 0.0, 0.5)
        """
        out = {k: jsonable(v) for k, v in asdict(self).items()}
        if math.isnan(self.nec_honest):
            del out["nec_honest"]  # unknown: the record is the one without honest curves
        return out


def decision_rule(clf, *, p_pos=None, cost_fn=1.0, cost_fp=1.0, constrained=None) -> DecisionRule:
    """The rule a classifier should deploy at an operating point, with its cost and its range.

    Parameters
    ----------
    clf : Classifier
        A named classifier.
    p_pos : float, optional
        Deployment prevalence; default the classifier's data prevalence.
    cost_fn, cost_fp : float, default=1.0
        Costs of a false negative C(-|+) and a false positive C(+|-).
    constrained : ConstrainedPoint, optional
        The answer of ``clf.neyman_pearson(...)`` or ``clf.workforce(...)``:
        the rule is then the constrained one.

    Returns
    -------
    DecisionRule

    Notes
    -----
    Unconstrained, the rule is the hull vertex optimal at PCF(+) (``clf.best``)
    and ``pcf_lo, pcf_hi`` is that vertex's piece of the lower envelope.
    Constrained, the rule is the cheapest one the constraint allows. The
    allowed rules on the hull run from (0, 0) up to the constrained point, and
    cost along the hull is convex: where the unconstrained optimum lies before
    the constrained point the limit does not bind, and the rule (with its
    interval) is the unconstrained one; where it lies at or beyond it, the
    rule is the constrained point (Drummond & Holte (2000), sec. 2.2.2), the
    cheapest allowed from the crossing where the hull vertex just before it
    hands over, up to PCF(+) = 1. ``binding`` says whether the limit raises the
    cost (a constrained point that costs what the optimum costs does not bind).
    :func:`costwidget.model.decide` asks this function for every classifier's
    rule and picks the one to deploy.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model import decision_rule
    >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    >>> r = decision_rule(clf, p_pos=0.5, cost_fn=1.0, cost_fp=1.0)
    >>> r.fpr, r.tpr, round(r.nec, 6), round(r.expected_cost, 6), r.pcf_lo, r.pcf_hi
    (0.3, 0.7, 0.3, 0.3, 0.3, 0.7)
    """
    if clf.name is None:
        raise ValueError(
            "decision_rule needs a named classifier; give it a name= or use clf.renamed('...')."
        )
    if p_pos is None:
        if clf.prevalence is None:
            raise ValueError("p_pos is required: this classifier was built from rates only.")
        p_pos = clf.prevalence
    return rule_and_next_scores(clf, p_pos, cost_fn, cost_fp, constrained)[0]


def rule_and_next_scores(
    clf, p_pos, cost_fn, cost_fp, constrained=None, op=None, *, pcf=None, scale=None
):
    """`decision_rule`'s rule, and the next lower distinct scores below the lowest scores its
    ``threshold_high`` and ``threshold_low`` flag (``-inf`` below the lowest, NaN unknown).

    ``pcf`` and ``scale`` (`cost_scale`), when given, are those of these (already checked)
    costs: `decide` computes them once for every classifier."""
    if pcf is None:
        pcf = float(probability_cost(p_pos, cost_fn, cost_fp))
    fields = cheapest_allowed(clf, pcf, constrained, op=op)
    cost = float(
        expected_cost(fields["nec"], p_pos, cost_fn, cost_fp)
        if scale is None
        else fields["nec"] * scale  # expected_cost's product, without checking the costs again
    )
    fields, lower = deploy_thresholds(clf, fields)
    rule = DecisionRule(
        classifier=clf.name,
        pcf=pcf,
        p_pos=float(p_pos),
        cost_fn=float(cost_fn),
        cost_fp=float(cost_fp),
        expected_cost=cost,
        **fields,
    )
    return rule, lower


def to_estimator(clf, rule: DecisionRule):
    """The rule as a ``sklearn.model_selection.FixedThresholdClassifier`` around the estimator.

    Parameters
    ----------
    clf : Classifier
        Made by ``Classifier.from_estimator`` or ``classifiers_from_estimators``
        (it carries ``estimator_source``).
    rule : DecisionRule or CaseBayesRule
        From :func:`decision_rule` for this classifier, or the per-case Bayes rule
        (:func:`~costwidget.case_bayes_rule`): then a :class:`~costwidget.CaseBayesClassifier`,
        whose ``predict(X, cost_fn=..., cost_fp=...)`` takes each new case's costs.

    Returns
    -------
    sklearn.model_selection.FixedThresholdClassifier
        Wrapping the estimator with the response method and ``pos_label`` that
        produced the scores, at ``rule.threshold``: ``predict(X)`` is
        ``pos_label`` where the score is ``>= threshold``: the threshold the
        headline shows, ``-inf`` for a rule that flags every case (every new
        case is flagged, whatever its score).

    Raises
    ------
    ValueError
        For a classifier not made from an estimator, or a randomized
        constrained rule (no single threshold reproduces it; the message gives
        the best single threshold, to pass as a rule made without randomizing).
    ImportError
        With scikit-learn older than 1.5 (no ``FixedThresholdClassifier``).

    Notes
    -----
    A classifier scored on test data (``cv=None``) wraps its fitted estimator
    as is: ``predict`` on the scored data reproduces ``score >= threshold``
    exactly. A cross-validated classifier's threshold was chosen on
    out-of-fold scores; the returned classifier is refit on all the data
    (``fit(X, y)``), as ``TunedThresholdClassifierCV`` does with
    ``refit=True``. The refit model's scores are not the out-of-fold ones, so
    its predictions on the training data can differ from the evaluated rule's,
    and the threshold suits it only as far as the folds' models resemble it.

    Examples
    --------
    >>> import numpy as np
    >>> import costwidget as cw
    >>> from sklearn.linear_model import LogisticRegression
    >>> from costwidget.model import decision_rule, to_estimator
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2)); y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
    >>> model = LogisticRegression().fit(X[:100], y[:100])
    >>> clf = cw.Classifier.from_estimator(model, X[100:], y[100:], name="lr")
    >>> rule = decision_rule(clf, p_pos=0.5, cost_fn=4.0, cost_fp=1.0)
    >>> try:
    ...     deployed = to_estimator(clf, rule)
    ... except ImportError:           # scikit-learn < 1.5: no FixedThresholdClassifier
    ...     deployed = None
    >>> score = model.predict_proba(X[100:])[:, 1]
    >>> deployed is None or bool((deployed.predict(X[100:]) == (score >= rule.threshold)).all())
    True
    """
    if not isinstance(rule, DecisionRule):  # the per-case Bayes rule (case_bayes.py)
        return case_bayes_estimator(clf, rule)
    source = getattr(clf, "estimator_source", None)
    if source is None:
        raise ValueError(
            f"{clf.name!r} was not made from a scikit-learn estimator; build it with "
            "Classifier.from_estimator(...) or classifiers_from_estimators(...) to "
            "deploy it as one."
        )
    if rule.randomized:
        raise ValueError(
            f"The rule for {rule.classifier!r} is randomized: threshold {rule.threshold_low:.6g} "
            f"with probability {rule.prob_low:.4g}, else {rule.threshold_high:.6g}; no single "
            "threshold reproduces it, and FixedThresholdClassifier takes one. The best single "
            f"threshold within the constraint is {rule.threshold:.6g}: deploy "
            f"FixedThresholdClassifier(estimator, threshold={rule.threshold!r}, "
            f"pos_label={source.pos_label!r}, response_method={source.response_method!r})."
        )
    try:
        from sklearn.model_selection import FixedThresholdClassifier
    except ImportError as exc:  # scikit-learn < 1.5
        import sklearn

        raise ImportError(
            f"to_estimator needs scikit-learn >= 1.5 (FixedThresholdClassifier); "
            f"this is {sklearn.__version__}. Upgrade with "
            "pip install 'scikit-learn>=1.5'."
        ) from exc
    out = FixedThresholdClassifier(
        source.estimator,
        threshold=float(rule.threshold),
        pos_label=source.pos_label,
        response_method=source.response_method,
    )
    if source.cross_validated:
        out.fit(source.X, source.y)
    else:
        import sklearn

        major, minor = (int(v) for v in sklearn.__version__.split(".")[:2])
        if (major, minor) < (1, 6):
            # scikit-learn 1.5 predicts with ``estimator_`` only (1.6 uses a fitted ``estimator``
            # as is): give it the already fitted estimator, so that no refit changes the scores.
            out.estimator_ = source.estimator
    return out
