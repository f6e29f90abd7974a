"""``w.decision_rule()`` and ``w.to_estimator()``: the widget's current choice, to deploy.

Thin: the rule is the widget's one `Decision`'s (``w.decision.rule_for(name)``): by default
the chosen classifier's (the cheapest shown, under the constraint when one is active; a tie
raises, naming the tied classifiers), with ``name=`` any classifier's.
"""

from __future__ import annotations

from ...model import decide, to_estimator

__all__ = ["widget_decision_rule", "widget_to_estimator"]


def widget_decision_rule(w, name=None):
    """The `DecisionRule` of classifier ``name`` (default: the one chosen) at the widget's state.

    A shown classifier's rule is the `Decision`'s; a hidden one's is :func:`decide`'s over it
    alone at the same state (a classifier's rule does not depend on the others)."""
    decision = w.decision
    if name is None or name in decision.names:
        return decision.rule_for(name)
    names = [c.name for c in w.classifiers]
    if name not in names:
        raise ValueError(f"No classifier named {name!r}; the classifiers are {names}.")
    d = decision
    clf = next(c for c in w.classifiers if c.name == name)
    return decide(
        [clf],
        p_pos=d.p_pos,
        cost_fn=d.cost_fn,
        cost_fp=d.cost_fp,
        constraint=d.constraint,
        max_fpr=d.max_fpr,
        capacity=d.capacity,
        n_pos=d.n_pos,
        n_neg=d.n_neg,
    ).rule_for(name)


def widget_to_estimator(w, name=None):
    """``FixedThresholdClassifier`` running :func:`widget_decision_rule`'s rule."""
    rule = widget_decision_rule(w, name)
    clf = next(c for c in w.classifiers if c.name == rule.classifier)
    return to_estimator(clf, rule)
