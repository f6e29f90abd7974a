"""The headline: one line that answers "which classifier, at which threshold, at what cost".

Built from the readout's rows (`operating_rows`), so it always says what the table says. When
several classifiers tie at the lowest cost it says so and names none (at p(+) = 1 every
classifier costs 0). ``js/src/operating_point.mjs`` ``headlineText`` is the same function,
operation for operation (``tests/test_frontend_parity.py``).
"""

from __future__ import annotations

import math

from .readable import lowest_names, readable, round_significant

__all__ = ["headline_text"]


def _percent(rate) -> str:
    return readable(round_significant(100.0 * float(rate), 3))


def _rule(row, constrained: bool) -> str:
    if constrained:
        return f", {row['constrained_rule']}"  # then ": cost" (a comma there read ",:")
    t = float(row["threshold"])
    if math.isnan(t):
        return ""  # a classifier known only by its ROC points has no threshold
    if t == math.inf:
        return " flagging no case"
    if t == -math.inf:
        return " flagging every case"
    return f" at score ≥ {readable(t)}"


def headline_text(rows, *, constrained: bool = False) -> str:
    """The headline for the readout ``rows`` (``(name, {column: value})`` pairs), plain text.

    With ``constrained`` the constrained columns decide (the rule to deploy under the
    constraint); otherwise each classifier at its best threshold.

    Examples
    --------
    >>> from costwidget.model import headline_text
    >>> rows = [("gb", {"threshold": 0.48812, "fpr": 0.1123, "tpr": 0.5, "expected_cost": 0.229}),
    ...         ("rf", {"threshold": 0.5, "fpr": 0.2, "tpr": 0.6, "expected_cost": 0.233})]
    >>> headline_text(rows)
    'Deploy gb at score ≥ 0.4881: 0.229 per case (FPR 11.2 %, TPR 50 %); next best rf, +0.004'
    >>> headline_text([(n, dict(r, expected_cost=0.0)) for n, r in rows])
    'Tie: 2 classifiers share the lowest cost, 0 per case; none is the best here'
    """
    if not rows:
        return "No classifier shown."
    prefix = "constrained_" if constrained else ""
    column = prefix + "expected_cost"
    low = lowest_names(rows, column)
    if not low:
        return "No classifier meets the constraint." if constrained else "No cost to compare."
    by_name = dict(rows)
    cost = float(by_name[low[0]][column])
    if len(low) > 1:
        return (f"Tie: {len(low)} classifiers share the lowest cost, {readable(cost)} per case; "
                f"none is the best here")
    name, row = low[0], by_name[low[0]]
    lead = "Under the constraint, deploy" if constrained else "Deploy"
    text = (f"{lead} {name}{_rule(row, constrained)}: {readable(cost)} per case "
            f"(FPR {_percent(row[prefix + 'fpr'])} %, TPR {_percent(row[prefix + 'tpr'])} %)")
    others = [(n, r) for n, r in rows if n != name]
    nxt = lowest_names(others, column)
    if nxt:
        gap = float(by_name[nxt[0]][column]) - cost
        text += f"; next best {nxt[0]}, +{readable(gap)}"
    return text
