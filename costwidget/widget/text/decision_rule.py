"""``w.decision_rule()`` and ``w.to_estimator()``: the widget's current choice, to deploy.

Thin: picks the classifier (named, or the cheapest visible one at the operating
point, under the constraint when one is active) and asks the model.
"""

from __future__ import annotations

from ...model import decision_rule, to_estimator

__all__ = ["widget_decision_rule", "widget_to_estimator"]


def _chosen_name(w, name):
    names = [c.name for c in w.classifiers]
    if name is not None:
        if name not in names:
            raise ValueError(f"No classifier named {name!r}; the classifiers are {names}.")
        return name
    table = w.readout
    if table.empty:
        raise ValueError("No classifier is shown: make one visible, or pass name=.")
    column = ("constrained_expected_cost" if "constrained_expected_cost" in table
              else "expected_cost")
    # The highlighted row of the readout: the lowest expected cost (first on ties).
    return str(table[column].astype(float).idxmin())


def widget_decision_rule(w, name=None):
    """The `DecisionRule` of classifier ``name`` (default: the best shown) at the widget's state."""
    name = _chosen_name(w, name)
    clf = next(c for c in w.classifiers if c.name == name)
    s = w.state
    cp = None
    if s.constraint == "neyman_pearson":
        cp = clf.neyman_pearson(s.max_fpr)
    elif s.constraint == "workforce":
        cp = clf.workforce(s.capacity, n_pos=s.n_pos, n_neg=s.n_neg)
    return decision_rule(clf, p_pos=s.p_pos, cost_fn=s.cost_fn, cost_fp=s.cost_fp, constrained=cp)


def widget_to_estimator(w, name=None):
    """``FixedThresholdClassifier`` running :func:`widget_decision_rule`'s rule."""
    rule = widget_decision_rule(w, name)
    clf = next(c for c in w.classifiers if c.name == rule.classifier)
    return to_estimator(clf, rule)
