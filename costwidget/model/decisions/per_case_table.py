"""The best single threshold beside the per-case Bayes rule, each with its money per case and
its savings over the best trivial rule (empulse's ``savings_score``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..base.fields import as_named
from .case_bayes import case_bayes_rule
from .decide import decide
from .per_case import per_case_savings

__all__ = ["per_case_rule_table"]


def per_case_rule_table(classifiers, *, cost_fn=1.0, cost_fp=1.0) -> pd.DataFrame:
    """The best single threshold beside the per-case Bayes rule, each with its money per case.

    Parameters
    ----------
    classifiers : Classifier, list or dict {name: Classifier}
        With per-case costs, over the same cases and costs.
    cost_fn, cost_fp : float, default=1.0
        Multipliers of each case's ``cost_fn`` and ``cost_fp``.

    Returns
    -------
    DataFrame
        Indexed by classifier, columns ``threshold`` and ``cost_single_threshold`` (the
        cheapest single score threshold, :func:`~costwidget.decide`'s rule), ``cost_case_bayes``
        (the per-case Bayes rule; NaN where the scores are not probabilities), ``cost_trivial``
        (the cheaper of flagging every case and none), and ``savings_single_threshold``,
        ``savings_case_bayes``: ``1 − cost / cost_trivial``, empulse's ``savings_score``.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [0.2, 0.3, 0.6, 0.1], name="m",
    ...                                 cost_fn=[50.0, 0, 3.0, 0], cost_fp=5.0)
    >>> t = per_case_rule_table(clf)   # by hand: flag s >= 0.2 costs 5/4, the rule 3/4
    >>> t[["cost_single_threshold", "cost_case_bayes", "cost_trivial"]].to_numpy().tolist()
    [[1.25, 0.75, 2.5]]
    """
    named = as_named(classifiers, "per_case_rule_table")
    d = decide(named, cost_fn=cost_fn, cost_fp=cost_fp)
    rows = []
    for name, clf in named.items():
        rule = d.of(name).rule
        single = per_case_savings(clf, rule.expected_cost, cost_fn=cost_fn, cost_fp=cost_fp)
        trivial = single.trivial_cost
        try:
            bayes = case_bayes_rule(clf, cost_fn=cost_fn, cost_fp=cost_fp).expected_cost
        except ValueError:
            bayes = np.nan
        rows.append(
            {
                "threshold": rule.threshold,
                "cost_single_threshold": rule.expected_cost,
                "cost_case_bayes": bayes,
                "cost_trivial": trivial,
                "savings_single_threshold": single.savings,
                "savings_case_bayes": 1.0 - bayes / trivial,
            }
        )
    return pd.DataFrame(rows, index=pd.Index(list(named), name="classifier"))
