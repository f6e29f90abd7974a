"""`decide`: the one answer (issue 31), against an independent brute force.

The brute force recomputes every ROC point of each classifier from its raw labels, scores and
sample weights (predicted positive iff ``score >= threshold``), adds every crossing of the
limit by a segment between two ROC points (a randomized mix of the two: the hull edges'
crossings among them, Drummond & Holte (2000), sec. 2.2.2, fig. 10), keeps the rules the limit
allows (with a float tolerance of 1e-12 on the limit), and takes the lowest expected cost per
case ``p·C(-|+)·(1 - TPR) + (1 - p)·C(+|-)·FPR`` (Drummond & Holte (2006), sec. 2). It uses
neither the hull nor the envelope nor ``clf.best``.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

import costwidget as cw
from costwidget.model import Decision, decide

ISSUE_31_Y = [0, 0, 1, 1, 0, 1, 0, 0, 0, 1]
ISSUE_31_S = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.55, 0.3, 0.05, 0.6]
LIMIT_TOL = 1e-12


# ------------------------------------------------------------------------------ brute force
class Raw:
    """A classifier's raw data: labels, scores, weights (or one confusion matrix)."""

    def __init__(self, name, y=None, s=None, w=None, confusion=None):
        self.name, self.y, self.s, self.w, self.confusion = name, y, s, w, confusion

    def classifier(self):
        if self.confusion is not None:
            tp, fn, fp, tn = self.confusion
            return cw.Classifier.from_confusion(tp=tp, fn=fn, fp=fp, tn=tn, name=self.name)
        return cw.Classifier.from_scores(self.y, self.s, sample_weight=self.w, name=self.name)

    def totals(self):
        if self.confusion is not None:
            tp, fn, fp, tn = self.confusion
            return float(tp + fn), float(fp + tn)
        w = np.ones(len(self.y)) if self.w is None else np.asarray(self.w, float)
        y = np.asarray(self.y)
        return float(w[y == 1].sum()), float(w[y == 0].sum())

    def points(self):
        """Every ROC point (fpr, tpr): +inf and every distinct score as the threshold."""
        if self.confusion is not None:
            tp, fn, fp, tn = self.confusion
            return [(0.0, 0.0), (fp / (fp + tn), tp / (tp + fn)), (1.0, 1.0)]
        y, s = np.asarray(self.y), np.asarray(self.s, float)
        w = np.ones(len(y)) if self.w is None else np.asarray(self.w, float)
        P, N = w[y == 1].sum(), w[y == 0].sum()
        out = [(0.0, 0.0)]
        for t in sorted(set(s.tolist()), reverse=True):
            flagged = s >= t
            out.append((w[flagged & (y == 0)].sum() / N, w[flagged & (y == 1)].sum() / P))
        return out


def brute_cheapest(raw, state):
    """The lowest expected cost over every rule the state's constraint allows (pure or mixed)."""
    p, cfn, cfp = state["p_pos"], state["cost_fn"], state["cost_fp"]

    def cost(f, t):
        return p * cfn * (1.0 - t) + (1.0 - p) * cfp * f

    pts = raw.points()
    kind = state["constraint"]
    if kind == "none":
        return min(cost(f, t) for f, t in pts)
    if kind == "neyman_pearson":
        limit = state["max_fpr"]

        def load(f, t):
            return f
    else:
        limit = state["capacity"]
        P, N = state.get("n_pos"), state.get("n_neg")
        if P is None:
            P, N = raw.totals()

        def load(f, t):
            return t * P + f * N

    tol = LIMIT_TOL * max(1.0, abs(limit)) if math.isfinite(limit) else 0.0
    allowed = [(f, t) for f, t in pts if load(f, t) <= limit + tol]
    for f1, t1 in pts:
        for f2, t2 in pts:
            l1, l2 = load(f1, t1), load(f2, t2)
            if l1 < limit < l2:
                q = (limit - l1) / (l2 - l1)
                allowed.append((f1 + q * (f2 - f1), t1 + q * (t2 - t1)))
    return min(cost(f, t) for f, t in allowed)


def brute_unconstrained(raw, state):
    return brute_cheapest(raw, dict(state, constraint="none"))


def allowed(rule, raw, state):
    kind = state["constraint"]
    if kind == "none":
        return True
    if kind == "neyman_pearson":
        load, limit = rule.fpr, state["max_fpr"]
    else:
        P, N = state.get("n_pos"), state.get("n_neg")
        if P is None:
            P, N = raw.totals()
        load, limit = rule.tpr * P + rule.fpr * N, state["capacity"]
    return load <= limit + (LIMIT_TOL * max(1.0, abs(limit)) if math.isfinite(limit) else 0.0)


def tied(costs: dict) -> list:
    """The tie rule of `lowest_names`, on the brute force's costs."""
    low = min(costs.values())
    return [n for n, c in costs.items() if c - low <= 1e-12 * abs(low)]


# ------------------------------------------------------------------------------ strategies
@st.composite
def raw_classifier(draw, name):
    if draw(st.integers(0, 4)) == 0:
        tp, fn, fp, tn = (draw(st.integers(0, 6)) for _ in range(4))
        return Raw(name, confusion=(tp, fn + (tp + fn == 0), fp, tn + (fp + tn == 0)))
    n = draw(st.integers(2, 10))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y[0], y[1] = 0, 1
    levels = draw(st.integers(1, 6))  # few distinct scores: ties within and across classes
    s = [v / levels for v in draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))]
    w = None
    if draw(st.booleans()):
        w = draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.5, 0.25]), min_size=n, max_size=n))
    return Raw(name, y=y, s=s, w=w)


@st.composite
def decision_state(draw):
    k = draw(st.integers(1, 3))
    raws = [draw(raw_classifier(name)) for name in "abc"[:k]]
    if k > 1 and draw(st.integers(0, 3)) == 0:  # a twin: an exact tie wherever it is cheapest
        src = raws[0]
        raws[-1] = Raw(raws[-1].name, y=src.y, s=src.s, w=src.w, confusion=src.confusion)
    p = draw(st.sampled_from([0.0, 1.0, 0.5, 0.05]) | st.floats(0.0, 1.0))
    costs = st.sampled_from([0.0, 1.0, 4.0, 0.25]) | st.floats(0.01, 10.0)
    cfn, cfp = draw(costs), draw(costs)
    if cfn == 0.0 and cfp == 0.0:
        cfp = 1.0
    if (p == 1.0 and cfn == 0.0) or (p == 0.0 and cfp == 0.0):
        cfn, cfp = 1.0, 1.0  # PCF(+) undefined (refused: tested separately)
    state = {
        "p_pos": p,
        "cost_fn": cfn,
        "cost_fp": cfp,
        "constraint": draw(st.sampled_from(["none", "neyman_pearson", "workforce"])),
    }
    clfs = [r.classifier() for r in raws]
    if state["constraint"] == "neyman_pearson":
        fprs = sorted({f for c in clfs for f in c.roc["fpr"]})
        state["max_fpr"] = draw(
            st.sampled_from(fprs) | st.floats(0.0, 1.0) | st.sampled_from([0.0, 1.0])
        )
    elif state["constraint"] == "workforce":
        if draw(st.booleans()):
            state["n_pos"], state["n_neg"] = None, None
            P, N = raws[0].totals()
        else:
            P = draw(st.sampled_from([1.0, 4.0, 10.0, 2.5]))
            N = draw(st.sampled_from([0.0, 1.0, 6.0, 30.0]))
            state["n_pos"], state["n_neg"] = P, N
        loads = sorted({t * P + f * N for c in clfs for f, t in zip(c.roc["fpr"], c.roc["tpr"])})
        state["capacity"] = draw(
            st.sampled_from(loads) | st.floats(0.0, P + N + 1.0) | st.sampled_from([0.0, math.inf])
        )
    return raws, state


def run_decide(raws, state) -> Decision:
    kw = {k: v for k, v in state.items() if k not in ("p_pos", "cost_fn", "cost_fp")}
    return decide(
        [r.classifier() for r in raws],
        p_pos=state["p_pos"],
        cost_fn=state["cost_fn"],
        cost_fp=state["cost_fp"],
        **kw,
    )


SHOWN = re.compile(r"score ≥ ([^\s:,]+)")


def check_against_brute_force(raws, state, d: Decision) -> None:
    """Every claim of issue 31 about one state (raises AssertionError on the first wrong one)."""
    scale = max(1.0, state["cost_fn"], state["cost_fp"])
    expected = {r.name: brute_cheapest(r, state) for r in raws}
    for r in raws:
        c = d.of(r.name)
        rule = c.rule
        # The cheapest allowed rule: its cost is the brute force's, and the limit allows it.
        assert abs(rule.expected_cost - expected[r.name]) <= 1e-12 * scale, (
            r.name,
            rule.expected_cost,
            expected[r.name],
        )
        assert allowed(rule, r, state), (r.name, rule)
        # The same rule stays the cheapest allowed on an interval holding its own PCF(+).
        assert rule.pcf_lo <= d.pcf <= rule.pcf_hi, (r.name, rule.pcf_lo, d.pcf, rule.pcf_hi)
        # binding: the limit raises the cost (else the rule is an unconstrained optimum).
        if state["constraint"] != "none":
            free = brute_unconstrained(r, state)
            if rule.binding:
                # binding is said in NEC; where the cost scale is subnormal (p(+) = 5e-324 with
                # C(+|-) = 0) every cost per case rounds to 0, and only the NEC can show it.
                assert expected[r.name] > free or (
                    expected[r.name] == free == 0.0 and rule.nec > c.best.nec + 1e-12
                ), (r.name, expected[r.name], free)
            else:
                assert abs(expected[r.name] - free) <= 1e-12 * scale, (r.name, expected, free)
        # Every threshold shown selects the rule's cases on the classifier's own data.
        if r.confusion is None:
            s = np.asarray(r.s, float)
            for t, shown in (
                (rule.threshold_high, c.shown_high),
                (rule.threshold_low, c.shown_low),
            ):
                if math.isfinite(t):
                    assert np.array_equal(s >= float(shown.replace(",", "")), s >= t), (t, shown)
        # The decision curve: the rule's net benefit at the current p(+) (Vickers & Elkin 2006).
        pt = state["cost_fp"] / (state["cost_fp"] + state["cost_fn"])
        nb = dict(d.decision_curve.net_benefit)[r.name]
        if pt < 1.0:
            closed = rule.tpr * state["p_pos"] - rule.fpr * (1 - state["p_pos"]) * pt / (1 - pt)
            assert abs(nb - closed) <= 1e-12 * max(1.0, pt / (1 - pt)), (nb, closed)
        else:
            assert math.isnan(nb)
    # The chosen classifier is the brute force's cheapest; a tie iff several tie there.
    low = tied(expected)
    near = [n for n, c in expected.items() if c - min(expected.values()) <= 1e-12 * scale]
    if near == low:
        assert d.tie == (len(low) > 1), (expected, d.lowest)
        assert set(d.lowest) == set(low), (expected, d.lowest)
    else:
        # Costs apart by less than the costs' own rounding (1e-12 of the cost scale, e.g.
        # 1e-17 against 0 where p(+) is one ulp below 1): either answer is right; the tie
        # rule then decides on the model's own numbers.
        event("brute force: costs within rounding of a tie")
        assert set(d.lowest) <= set(near), (expected, d.lowest)
        low = list(d.lowest)
    if len(low) == 1:
        assert d.chosen == low[0] and d.rule is d.of(low[0]).rule
        assert d.rule_for() is d.rule
    else:
        assert d.chosen is None and d.rule is None
        with pytest.raises(ValueError, match="tie at the lowest cost") as info:
            d.rule_for()
        assert all(repr(n) in str(info.value) for n in low)
    # The headline: the chosen rule's cost and thresholds, or the tie.
    text = d.headline
    if d.pcf == 0.0 or (d.pcf == 1.0 and state["constraint"] == "none"):
        assert text.startswith("Flag "), text
        return
    if d.tie:
        assert text.startswith(f"Tie: {len(low)} classifiers share the lowest cost"), text
        return
    c = d.of(d.chosen)
    lead = "Under the constraint, deploy" if d.binding else "Deploy"
    assert text.startswith(f"{lead} {d.chosen}"), text
    assert ("does not bind" in text) == (state["constraint"] != "none" and not d.binding), text
    printed = float(
        re.search(r"([-+]?[\d,]*\.?\d+(?:e[-+]?\d+)?) per case", text).group(1).replace(",", "")
    )
    assert printed == pytest.approx(expected[d.chosen], rel=5e-4, abs=1e-15), text
    raw = next(r for r in raws if r.name == d.chosen)
    said = text.split(": ")[0]
    rule = c.rule
    if not rule.randomized and "flagging" in said:
        # In words: the rule flags no case (every case) of the data.
        every = "flagging every case" in said
        assert (rule.fpr, rule.tpr) == ((1.0, 1.0) if every else (0.0, 0.0)), (text, rule)
        return
    if raw.confusion is None:
        s = np.asarray(raw.s, float)
        thresholds = (
            [rule.threshold_low, rule.threshold_high] if rule.randomized else [rule.threshold]
        )
        finite = [t for t in thresholds if math.isfinite(t)]
        shown = SHOWN.findall(said)
        assert len(shown) == len(finite), (text, thresholds)
        for t, text_t in zip(finite, shown):
            assert np.array_equal(s >= float(text_t), s >= t), (text, t)


# ------------------------------------------------------------------------------ the tests
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decision_state())
@example(
    (
        [Raw("m", ISSUE_31_Y, ISSUE_31_S)],
        {
            "p_pos": 0.4,
            "cost_fn": 1.0,
            "cost_fp": 4.0,
            "constraint": "neyman_pearson",
            "max_fpr": 1.0,
        },
    )
)
@example(
    (
        [Raw("m", ISSUE_31_Y, ISSUE_31_S)],
        {
            "p_pos": 0.4,
            "cost_fn": 1.0,
            "cost_fp": 4.0,
            "constraint": "neyman_pearson",
            "max_fpr": 0.2,
        },
    )
)
@example(
    (
        [Raw("m", ISSUE_31_Y, ISSUE_31_S)],
        {
            "p_pos": 0.4,
            "cost_fn": 1.0,
            "cost_fp": 4.0,
            "constraint": "workforce",
            "capacity": 5.0,
            "n_pos": 4.0,
            "n_neg": 6.0,
        },
    )
)
@example(
    (
        [Raw("m", ISSUE_31_Y, ISSUE_31_S), Raw("twin", ISSUE_31_Y, ISSUE_31_S)],
        {"p_pos": 0.4, "cost_fn": 1.0, "cost_fp": 4.0, "constraint": "none"},
    )
)
def test_decision_is_the_brute_force_cheapest_allowed(case):
    """Each rule costs what the brute force's cheapest allowed rule costs and is allowed; the
    chosen classifier is the brute force's cheapest, a tie iff it finds several; the headline
    says that cost, with thresholds that select the rule's cases; the intervals hold PCF(+);
    the decision curve's net benefit is the closed form at the current p(+)."""
    raws, state = case
    try:
        cw.probability_cost(state["p_pos"], state["cost_fn"], state["cost_fp"])
    except ValueError:  # e.g. p(+) = 5e-324 with C(+|-) = 0: p·C(-|+) underflows to 0
        assume(False)
    check_against_brute_force(raws, state, run_decide(raws, state))


def _issue(**state):
    m = cw.Classifier.from_scores(ISSUE_31_Y, ISSUE_31_S, name="m")
    return decide([m], **{"p_pos": 0.4, "cost_fn": 1.0, "cost_fp": 4.0, **state})


@pytest.mark.parametrize(
    "state",
    [
        dict(constraint="neyman_pearson", max_fpr=1.0),
        dict(constraint="neyman_pearson", max_fpr=0.2),
        dict(constraint="workforce", capacity=5.0, n_pos=4.0, n_neg=6.0),
    ],
    ids=["max FPR 100 %", "max FPR 20 %", "capacity above the cheapest"],
)
def test_issue_31_a_limit_that_allows_the_cheapest_rule_does_not_change_the_answer(state):
    free = _issue()
    assert free.headline == "Deploy m at score ≥ 0.59: 0.1 per case (FPR 0 %, TPR 75 %)"
    d = _issue(**state)
    assert d.rule.expected_cost == pytest.approx(0.1, abs=1e-15)
    assert (d.rule.fpr, d.rule.tpr, d.rule.threshold) == (0.0, 0.75, 0.59)
    assert d.binding is False and d.rule.binding is False
    limit = (
        "the FPR limit 100 %"
        if state.get("max_fpr") == 1.0
        else "the FPR limit 20 %"
        if "max_fpr" in state
        else "the capacity of 5 cases"
    )
    assert d.headline == f"{free.headline}; {limit} does not bind"
    # The paper's criterion is unchanged: the largest TPR the limit allows.
    cp = d.of("m").constrained
    assert (
        cp.tpr >= 0.75 and d.table().loc["m", "constrained_expected_cost"] == d.rule.expected_cost
    )
    # w.decision_rule's model function gives the same rule.
    m = cw.Classifier.from_scores(ISSUE_31_Y, ISSUE_31_S, name="m")
    assert cw.decision_rule(m, p_pos=0.4, cost_fn=1.0, cost_fp=4.0, constrained=cp) == d.rule


def test_issue_31_a_binding_limit_deploys_the_papers_point():
    d = _issue(constraint="neyman_pearson", max_fpr=0.0, cost_fn=4.0, cost_fp=1.0)
    cp = d.of("m").constrained
    assert d.binding and (d.rule.fpr, d.rule.tpr) == (cp.fpr, cp.tpr) == (0.0, 0.75)
    assert d.headline.startswith("Under the constraint, deploy m at score ≥ 0.59: 0.4 per case")
    d = _issue(constraint="neyman_pearson", max_fpr=0.25, cost_fn=40.0, cost_fp=1.0)
    assert d.rule.randomized and d.binding
    assert d.headline.startswith(
        "Under the constraint, deploy m at score ≥ 0.34 with "
        "probability 0.75, else at score ≥ 0.59: 1.15 per case"
    )
    assert ",:" not in d.headline and "-0" not in d.headline


def test_issue_31_a_tie_names_no_classifier_and_rule_for_says_so():
    m = cw.Classifier.from_scores(ISSUE_31_Y, ISSUE_31_S, name="m")
    d = decide([m, m.renamed("twin")], p_pos=0.4, cost_fn=1.0, cost_fp=4.0)
    assert d.tie and d.chosen is None and d.rule is None and d.lowest == ("m", "twin")
    assert (
        d.headline
        == "Tie: 2 classifiers share the lowest cost, 0.1 per case; none is the best here"
    )
    with pytest.raises(ValueError, match=r"'m' and 'twin' tie at the lowest cost .* name="):
        d.rule_for()
    assert d.rule_for("twin").expected_cost == pytest.approx(0.1)
    with pytest.raises(ValueError, match=r"No classifier named 'x' is shown.*\['m', 'twin'\]"):
        d.rule_for("x")
    none = decide([], p_pos=0.4)
    assert none.headline == "No classifier shown." and none.chosen is None
    with pytest.raises(ValueError, match="No classifier is shown"):
        none.rule_for()


def test_issue_31_the_decision_curve_point_follows_p():
    """At p(+) = 0.05 the rule (FPR 0, TPR 3/4) has net benefit 0.75 · 0.05 = 0.0375 (the pane
    showed 0.30, its net benefit at the data's prevalence 0.4)."""
    d = _issue(p_pos=0.05)
    assert (d.rule.fpr, d.rule.tpr) == (0.0, 0.75)
    assert d.decision_curve.threshold_probability == 0.8
    assert d.decision_curve.chosen == pytest.approx(0.0375, abs=1e-15)


def test_refusals_say_what_is_wrong_and_how_to_fix_it():
    m = cw.Classifier.from_scores(ISSUE_31_Y, ISSUE_31_S, name="m")
    with pytest.raises(ValueError, match="constraint must be one of 'none', 'neyman_pearson'"):
        decide([m], p_pos=0.4, constraint="np")
    with pytest.raises(ValueError, match="needs max_fpr="):
        decide([m], p_pos=0.4, constraint="neyman_pearson")
    with pytest.raises(ValueError, match=r"max_fpr must lie in \[0, 1\]"):
        decide([m], p_pos=0.4, constraint="neyman_pearson", max_fpr=20)
    with pytest.raises(ValueError, match="needs capacity="):
        decide([m], p_pos=0.4, constraint="workforce")
    with pytest.raises(ValueError, match="capacity must be a number of cases >= 0"):
        decide([m], p_pos=0.4, constraint="workforce", capacity=-1)
    with pytest.raises(ValueError, match="names must be distinct"):
        decide([m, m], p_pos=0.4)
    with pytest.raises(ValueError, match="has no name"):
        decide([m.renamed(None)], p_pos=0.4)
    with pytest.raises(ValueError):
        decide([m], p_pos=1.0, cost_fn=0.0, cost_fp=1.0)  # PCF(+) undefined
    # Workforce defaults to each classifier's own class totals, as clf.workforce does.
    d = decide([m], p_pos=0.4, constraint="workforce", capacity=3.0)
    assert d.of("m").constrained == m.workforce(3.0)


def test_to_dict_is_json_and_repr_is_short():
    import json

    m = cw.Classifier.from_scores(ISSUE_31_Y, ISSUE_31_S, name="m")
    d = decide(
        {"m": m, "c": cw.Classifier.from_confusion(tp=3, fn=1, fp=1, tn=5)},
        p_pos=0.4,
        constraint="neyman_pearson",
        max_fpr=0.1,
    )
    out = json.loads(json.dumps(d.to_dict(), allow_nan=False))
    assert out["headline"] == d.headline and out["chosen"] == d.chosen
    assert [c["name"] for c in out["classifiers"]] == ["m", "c"]
    assert out["classifiers"][0]["best"]["threshold"] == 0.59
    assert out["classifiers"][1]["rule"]["threshold"] is None or isinstance(
        out["classifiers"][1]["rule"]["threshold"], (str, float)
    )
    assert "constrained_binding" in out["rows"][0][1]
    assert repr(d).startswith("Decision(PCF(+) = ") and len(repr(d)) < 200


# ------------------------------------------------------------------------------ binding (issue 43)
def _binding_state(rng):
    """Two or three classifiers of 6-14 cases with scores 0-5 (ties), a limit drawn uniformly
    or at a ROC point's load (a vertex), and an operating point."""
    import brute_constraints as bc

    raws = []
    n = int(rng.integers(6, 15))
    y = rng.random(n) < 0.5
    y[:2] = [True, False]  # both classes present
    for name in ("a", "b", "c")[: int(rng.integers(2, 4))]:
        raws.append((name, y, rng.integers(0, 6, n).astype(float)))
    points = {name: bc.roc_rates(y, s) for name, y, s in raws}
    p = float(rng.choice([0.2, 0.31, 0.5, 0.7]))
    c_fn, c_fp = float(rng.choice([1.0, 2.0, 4.0])), float(rng.choice([1.0, 2.0]))
    state = {"p_pos": p, "cost_fn": c_fn, "cost_fp": c_fp}
    if rng.random() < 0.5:
        fprs = sorted({float(f) for pts in points.values() for _, f, _ in pts})
        limit = float(rng.choice(fprs)) if rng.random() < 0.5 else float(rng.random())
        state.update(constraint="neyman_pearson", max_fpr=limit)
        load = bc.neyman_pearson_load
    else:
        P, N = int(y.sum()), int((~y).sum())
        load = bc.workforce_load(P, N)
        loads = sorted({float(load(f, t)) for pts in points.values() for _, f, t in pts})
        limit = float(rng.choice(loads)) if rng.random() < 0.5 else float(rng.uniform(0, n))
        state.update(constraint="workforce", capacity=limit)
    return raws, points, state, load, limit


def test_binding_is_the_brute_force_over_random_constrained_states():
    """``Decision.binding`` is True exactly when the decision without the limit is not allowed:
    the cheapest allowed rule of any classifier costs more than the cheapest rule without the
    limit, by exact enumeration (tests/brute_constraints.py: every ROC point and every mix of two,
    in Fractions); each classifier's own ``rule.binding`` is that of its own rules; the headline
    says what the limit changed, or that it does not bind."""
    import brute_constraints as bc

    rng = np.random.default_rng(43)
    seen = {"binding": 0, "not binding": 0, "moved classifier": 0, "row differs": 0}
    for _ in range(150):
        raws, points, state, load, limit = _binding_state(rng)
        cost = bc.expected_cost(state["p_pos"], state["cost_fn"], state["cost_fp"])
        free = {n: bc.cheapest(points[n], cost) for n in points}
        held = {n: bc.cheapest_allowed(points[n], load, limit, cost) for n in points}
        # Beyond the tie rule of `lowest_names` (a float limit is a Fraction that may pass a
        # ROC point by 1e-17); a row's binding beyond 1e-12 in NEC.
        low = min(free.values())
        binds = min(held.values()) - low > 1e-12 * low
        nec = state["p_pos"] * state["cost_fn"] + (1 - state["p_pos"]) * state["cost_fp"]
        kw = {k: v for k, v in state.items() if k not in ("p_pos", "cost_fn", "cost_fp")}
        clfs = [cw.Classifier.from_scores(y, s, name=n) for n, y, s in raws]
        d = decide(
            clfs, p_pos=state["p_pos"], cost_fn=state["cost_fn"], cost_fp=state["cost_fp"], **kw
        )
        assert d.binding is binds, (state, free, held, d.headline)
        for n in points:
            row_binds = float(held[n] - free[n]) / nec > 1e-12
            assert d.of(n).rule.binding is row_binds, (n, state, held, free)
            seen["row differs"] += row_binds != binds
        seen["binding" if binds else "not binding"] += 1
        if d.chosen is None or d.pcf in (0.0, 1.0):
            continue
        if not binds:
            assert d.headline.endswith("does not bind"), d.headline
            continue
        winners = [n for n in free if free[n] - low <= 1e-12 * low]
        if len(winners) == 1 and winners[0] != d.chosen:
            seen["moved classifier"] += 1
            assert f"moves the choice from {winners[0]} to {d.chosen}: +" in d.headline
        elif len(winners) == 1:
            assert f"moves the rule of {d.chosen} from " in d.headline, d.headline
        gap = float(held[d.chosen] - min(free.values()))
        said = re.search(r"(?:moves .*|binds): \+([^ ]+) per case$", d.headline).group(1)
        assert float(said) == pytest.approx(gap, rel=5e-4), d.headline
    assert min(seen.values()) >= 5, seen
    print(seen)


def test_the_tours_limit_moves_the_choice_and_says_so():
    """Issue 43's tour case: German credit's demo models at p(+) 0.31, C(-|+) 2, C(+|-) 1.
    Without a limit logistic regression costs 0.3589 per case; FPR <= 20 % does not allow its
    rule, and gradient boosting's cheapest allowed rule costs 0.0075 more: the limit binds."""
    clfs = cw.demo().classifiers
    free = decide(clfs, p_pos=0.31, cost_fn=2.0, cost_fp=1.0)
    d = decide(clfs, p_pos=0.31, cost_fn=2.0, cost_fp=1.0, constraint="neyman_pearson", max_fpr=0.2)
    assert free.chosen == "logistic regression" and free.rule.fpr > 0.2
    assert d.chosen == "gradient boosting" and d.binding is True
    gap = d.rule.expected_cost - free.rule.expected_cost
    assert 0.007 < gap < 0.008
    assert d.headline.startswith("Under the constraint, deploy gradient boosting at score ≥ ")
    assert (
        "; the FPR limit 20 % moves the choice from logistic regression to gradient boosting: "
        f"+{cw.model.readable(gap)} per case"
    ) in d.headline
    assert "does not bind" not in d.headline
    # The rows keep their own: logistic regression's rule is bound by the limit.
    assert d.of("logistic regression").rule.binding is True
