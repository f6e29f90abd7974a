"""The headline: one line that answers "which classifier, at which threshold, at what cost".

`costwidget.model.decide` makes the headline of the one decision (``Decision.headline``, from
each classifier's cheapest allowed rule, with thresholds computed from the classifier's own
scores); use that. ``headline_text`` below is the older text made from readout rows, kept for
callers that have only rows.

Built from the readout's rows (`operating_rows`), so it always says what the table says. When
several classifiers tie at the lowest cost it says so and names none (at p(+) = 1 every
classifier costs 0). ``js/src/operating_point.mjs`` ``headlineText`` is the same function,
operation for operation (``tests/test_frontend_parity.py``).
"""

from __future__ import annotations

import math

from ..kernels.readable import lowest_names, readable, round_significant, selecting_threshold

__all__ = ["headline_text"]


def _percent(rate) -> str:
    return readable(round_significant(100.0 * float(rate), 3))


def _rule(row, constrained: bool, lower) -> str:
    if constrained:
        return f", {row['constrained_rule']}"  # then ": cost" (a comma there read ",:")
    t = float(row["threshold"])
    fpr, tpr = float(row["fpr"]), float(row["tpr"])
    if t == math.inf or (fpr == 0.0 and tpr == 0.0):
        return " flagging no case"
    if t == -math.inf or (fpr == 1.0 and tpr == 1.0):
        return " flagging every case"
    if math.isnan(t):
        return ""  # a classifier known only by its ROC points has no threshold
    # As many digits as select the same cases: `score >= shown` flags what `score >= t` does.
    return f" at score ≥ {selecting_threshold(t, lower)}"


def _trivial(pcf, constrained: bool) -> str | None:
    """At PCF(+) = 0 flagging no case costs nothing, at 1 flagging every case (Drummond & Holte
    2006, sec. 2: the trivial classifiers' lines meet the axis there): said in words, not as a
    threshold that happens to tie with them. A constraint allows flagging no case, not always
    every case."""
    if pcf is None:
        return None
    lead = "Under the constraint, flag" if constrained else "Flag"
    if pcf == 0.0:
        return f"{lead} no case: 0 per case (at PCF(+) = 0 only false positives cost)"
    if pcf == 1.0 and not constrained:
        return f"{lead} every case: 0 per case (at PCF(+) = 1 only missed positives cost)"
    return None


def headline_text(
    rows, *, constrained: bool = False, pcf: float | None = None, lower_scores=None
) -> str:
    """The headline for the readout ``rows`` (``(name, {column: value})`` pairs), plain text.

    With ``constrained`` the constrained columns decide (the rule to deploy under the
    constraint); otherwise each classifier at its best threshold. At ``pcf`` 0 (and 1 without
    a constraint) it says in words that flagging no case (every case) costs nothing.
    ``lower_scores`` maps a name to the next lower distinct score below its row's threshold:
    the threshold is then shown with the digits that select the same cases
    (`selecting_threshold`); without it, with the digits that read back as the threshold.

    Examples
    --------
    >>> from costwidget.model.decisions.headline import headline_text
    >>> rows = [("gb", {"threshold": 0.48812, "fpr": 0.1123, "tpr": 0.5, "expected_cost": 0.229}),
    ...         ("rf", {"threshold": 0.5, "fpr": 0.2, "tpr": 0.6, "expected_cost": 0.233})]
    >>> headline_text(rows)
    'Deploy gb at score ≥ 0.48812: 0.229 per case (FPR 11.2 %, TPR 50 %); next best rf, +0.004'
    >>> headline_text(rows, lower_scores={"gb": 0.45})
    'Deploy gb at score ≥ 0.48: 0.229 per case (FPR 11.2 %, TPR 50 %); next best rf, +0.004'
    >>> headline_text(rows, pcf=0.0)
    'Flag no case: 0 per case (at PCF(+) = 0 only false positives cost)'
    >>> headline_text([(n, dict(r, expected_cost=0.0)) for n, r in rows])
    'Tie: 2 classifiers share the lowest cost, 0 per case; none is the best here'
    """
    if not rows:
        return "No classifier shown."
    trivial = _trivial(pcf, constrained)
    if trivial is not None:
        return trivial
    prefix = "constrained_" if constrained else ""
    column = prefix + "expected_cost"
    low = lowest_names(rows, column)
    if not low:
        return "No classifier meets the constraint." if constrained else "No cost to compare."
    by_name = dict(rows)
    cost = float(by_name[low[0]][column])
    if len(low) > 1:
        return (
            f"Tie: {len(low)} classifiers share the lowest cost, {readable(cost)} per case; "
            f"none is the best here"
        )
    name, row = low[0], by_name[low[0]]
    lead = "Under the constraint, deploy" if constrained else "Deploy"
    lower = (lower_scores or {}).get(name)
    text = (
        f"{lead} {name}{_rule(row, constrained, lower)}: {readable(cost)} per case "
        f"(FPR {_percent(row[prefix + 'fpr'])} %, TPR {_percent(row[prefix + 'tpr'])} %)"
    )
    others = [(n, r) for n, r in rows if n != name]
    nxt = lowest_names(others, column)
    if nxt:
        gap = float(by_name[nxt[0]][column]) - cost
        text += f"; next best {nxt[0]}, +{readable(gap)}"
    return text
