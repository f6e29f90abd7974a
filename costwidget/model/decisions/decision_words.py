"""The decision's headline: what `decide` says, from the rules it made.

One main sentence, then short qualifiers after the first "; " (the widget draws them on a fixed
second line): the runner-up and its gap, what a limit did, the cost on new data. Details (rates
in sample when the choice is made on new data, both costs of each classifier) are the readout's.

``js/src/operating_point.mjs`` ``decisionHeadline`` says the same, word for word
(``tests/test_frontend_parity.py``).
"""

from __future__ import annotations

import math

from ..kernels.readable import readable, round_significant, threshold_text
from .runner_up import band_words

__all__ = ["headline", "honest_words", "savings_words"]


def _percent(rate) -> str:
    return readable(round_significant(100.0 * float(rate), 3))


def _at(threshold: float) -> str | None:
    """One threshold of a rule in words: "at score ≥ …", or flagging no / every case."""
    if threshold == math.inf:
        return "flagging no case"
    if threshold == -math.inf:
        return "flagging every case"
    if math.isnan(threshold):
        return None  # a classifier known only by its ROC points has no threshold
    return f"at score ≥ {threshold_text(threshold)}"


def _point_words(threshold, fpr, tpr) -> str | None:
    """A single-threshold rule in words (None: no threshold known)."""
    if threshold == math.inf or (fpr == 0.0 and tpr == 0.0):
        return "flagging no case"
    if threshold == -math.inf or (fpr == 1.0 and tpr == 1.0):
        return "flagging every case"
    return _at(threshold)


def _rule_words(rule, rates) -> str:
    if not rule.randomized:
        words = _point_words(rule.threshold, *rates)
        return "" if words is None else f" {words}"
    low = _at(rule.threshold_low) or "at one ROC point"
    high = _at(rule.threshold_high) or "at the other"
    return f" {low} with probability {readable(rule.prob_low)}, else {high}"


def _limit_words(constraint, max_fpr, capacity) -> str:
    if constraint == "neyman_pearson":
        return f"the FPR limit {_percent(max_fpr)} %"
    return f"the capacity of {readable(capacity)} cases"


def _moved_words(limit, chosen, free, delta, counted) -> str:
    """What a binding limit changed: the classifier, or its rule, and what that costs."""
    cost = f"+{readable(delta)} per case"
    if free is None:  # several classifiers tie without the limit
        return f"{limit} binds: {cost}"
    if free.name != chosen.name:
        return f"{limit} moves the choice from {free.name} to {chosen.name}: {cost}"
    b = free.best
    rates = _counted(counted, free.name, b.threshold) or (b.fpr, b.tpr)
    was = _point_words(b.threshold, *rates) or "its optimum"
    return f"{limit} moves the rule of {chosen.name} from {was.removeprefix('at ')}: {cost}"


def _counted(counted, name, threshold):
    """The case-count ``(fpr, tpr)`` at a threshold, or None (per-class costs, or costs summed
    in a database)."""
    return None if counted is None else counted(name, threshold)


def _rates(c, counted):
    """The rule's FPR and TPR to print and how to say them. With per-case costs the rule's own
    rates are of the cost-weighted cases, while a reader (and a limit) counts the cases: the
    headline counts them at the deployed threshold, or says the rates are cost-weighted when no
    single case is known."""
    rule = c.rule
    if counted is None:
        return (rule.fpr, rule.tpr), ""
    if rule.randomized:
        low = _counted(counted, c.name, rule.threshold_low)
        high = _counted(counted, c.name, rule.threshold_high)
        q = rule.prob_low
        rates = None if low is None else tuple(q * a + (1 - q) * b for a, b in zip(low, high))
    else:
        rates = _counted(counted, c.name, rule.threshold)
    if rates is None:
        return (rule.fpr, rule.tpr), ", cost-weighted"
    return rates, ", counted in cases"


def _trivial(pcf, constraint) -> str | None:
    # At PCF(+) = 0 flagging no case costs nothing, at 1 flagging every case (Drummond & Holte
    # 2006, sec. 2: the trivial classifiers' lines meet the axis there): said in words. Flagging
    # no case is always allowed; flagging every case not under a constraint.
    if pcf == 0.0:
        return "Flag no case: 0 per case (at PCF(+) = 0 only false positives cost)"
    if pcf == 1.0 and constraint == "none":
        return "Flag every case: 0 per case (at PCF(+) = 1 only missed positives cost)"
    return None


def headline(d, costs, *, band=None, scale=1.0, free=None, counted=None) -> str:
    """The answer in words, for the decision fields ``d`` (a mapping with ``pcf, constraint,
    max_fpr, capacity, lowest, runner_up, binding, on_new_data`` and ``classifiers``).

    ``costs`` maps each name to its cost per case on the decision's scale (on new data when
    ``on_new_data``); ``free`` is ``(part or None, cost)``, the decision without the limit
    (part None on a tie there), used when the limit binds. ``counted`` (per-case costs) gives
    ``(fpr, tpr)`` counted on the cases for a name and threshold (`CostSetting.counted_rates`):
    the rates printed, in the units of a limit.
    """
    parts = d["classifiers"]
    if not parts:
        return "No classifier shown."
    trivial = _trivial(d["pcf"], d["constraint"])
    if trivial is not None:
        return trivial
    lowest = d["lowest"]
    if not lowest:
        return "No cost to compare."
    cost = costs[lowest[0]]
    if len(lowest) > 1:
        return (
            f"Tie: {len(lowest)} classifiers share the lowest cost, {readable(cost)} per "
            f"case; none is the best here"
        )
    c = next(p for p in parts if p.name == lowest[0])
    rule = c.rule
    (fpr, tpr), unit = _rates(c, counted)
    new = d["on_new_data"]
    lead = "Under the constraint, deploy" if d["binding"] else "Deploy"
    text = (
        f"{lead} {c.name}{_rule_words(rule, (fpr, tpr))}: {readable(cost)} per case"
        f"{' on new data' if new else ''} (FPR {_percent(fpr)} %, TPR {_percent(tpr)} %"
        f"{unit}{' on this data' if new else ''})"
    )
    runner = d["runner_up"]
    if runner is not None:
        text += f"; next best {runner}, +{readable(costs[runner] - cost)}"
        text += " on new data" if new else ""
        if band is not None:  # how sure: the paired interval of the difference (runner_up.py)
            text += band_words(band, c.name, scale)
    if d["constraint"] != "none":
        limit = _limit_words(d["constraint"], d["max_fpr"], d["capacity"])
        if d["binding"]:
            text += "; " + _moved_words(limit, c, free[0], cost - free[1], counted)
        else:
            text += f"; {limit} does not bind"
    return text


def honest_words(rule, scale, pcf, constraint, offset=0.0) -> str:
    """The chosen rule's cost on new data when known but not the decision's scale: when the rule
    is the threshold tuned at the PCF(+) (no limit binds it), and when the headline names it
    (not at PCF(+) 0, nor at 1 without a constraint, where it says to flag no or every case).
    ``offset``: what per-case costs add to ``NEC·scale`` to make money (`CostSetting.offset`)."""
    if rule is None or math.isnan(rule.nec_honest) or rule.binding:
        return ""
    if pcf == 0.0 or (pcf == 1.0 and constraint == "none"):
        return ""
    return f"; on new data {readable(rule.nec_honest * scale + offset)} per case"


def savings_words(savings) -> str:
    """What a rule with per-case costs saves against the best trivial rule (a `Savings`), the
    headline's last qualifier (the headline says in what units its rates are).

    Examples
    --------
    >>> from costwidget.model.decisions.per_case import Savings
    >>> savings_words(Savings(1.25, "flagging every case", 2.5, 0.5))
    '; saves 50 % against flagging every case (2.5 per case)'
    >>> savings_words(Savings(5.0, "flagging no case", 2.5, -1.0))
    '; costs 100 % more than flagging no case (2.5 per case)'
    """
    if math.isnan(savings.savings):
        saved = "the trivial rules cost nothing"
    elif savings.savings < 0:  # a limit can forbid every rule as cheap as a trivial one
        saved = (
            f"costs {_percent(-savings.savings)} % more than {savings.trivial} "
            f"({readable(savings.trivial_cost)} per case)"
        )
    else:
        saved = (
            f"saves {_percent(savings.savings)} % against {savings.trivial} "
            f"({readable(savings.trivial_cost)} per case)"
        )
    return f"; {saved}"
