"""Issue 31, "One decision": every part of the widget that shows the answer names the same rule.

On every state (1-3 visible classifiers, ties of two identical models among them, constraints
that bind and that do not, p(+) 0 and 1, zero costs) the headline, the readout's highlighted
row (and its cost), ``w.decision_rule()`` (or its tie error naming the tied classifiers),
``w.to_estimator()`` (classifiers made from estimators; or the tie error) and the headline of the
exported page (``w.to_html()``, the widget state the page starts from) name the same rule, and the
decision-curve pane's dots are that rule's net benefit at the current p(+):
``NB = TPR·p - FPR·(1-p)·pt/(1-pt)``, ``pt = C(+|-)/(C(+|-) + C(-|+))``.

These checks read only what the widget showed before issue 31 (headline text, readout HTML,
``decision_rule()``, ``to_estimator()``, ``to_html()``, the decision-curve marks), so they run
on the code before it too, and fail there: a tie's ``decision_rule()`` returned the first row, a
constraint that does not bind had the headline and readout cost the paper's point while the
marks drew it, and the decision-curve dots ignored the constraint and p(+) at 0 or 1.
"""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import costwidget as cw

try:  # to_estimator needs scikit-learn >= 1.5; older ones get a clear ImportError
    from sklearn.model_selection import FixedThresholdClassifier  # noqa: F401

    HAS_FIXED_THRESHOLD = True
except ImportError:
    HAS_FIXED_THRESHOLD = False
from costwidget.model import lowest_names, readable

ISSUE_31_Y = np.array([0, 0, 1, 1, 0, 1, 0, 0, 0, 1], dtype=bool)
ISSUE_31_S = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.55, 0.3, 0.05, 0.6])


def _pool():
    """Five classifiers: the issue's model and its twin, a second model, and a fitted logistic
    regression and its twin (so that ``to_estimator`` has estimators to run). Returns
    ``(classifiers, {name: scores}, X the estimators were scored on)``."""
    from sklearn.linear_model import LogisticRegression

    k_scores = ISSUE_31_S.copy()
    k_scores[1] = 0.9  # one negative among the positives
    rng = np.random.default_rng(3)
    n = 30
    y = rng.integers(0, 2, n).astype(bool)
    y[:2] = [True, False]
    X = np.column_stack([y + rng.normal(size=n), rng.normal(size=n)])
    lr = LogisticRegression().fit(X, y)
    clfs = [
        cw.Classifier.from_scores(ISSUE_31_Y, ISSUE_31_S, name="m"),
        cw.Classifier.from_scores(ISSUE_31_Y, ISSUE_31_S, name="m twin"),
        cw.Classifier.from_scores(ISSUE_31_Y, k_scores, name="k"),
        cw.Classifier.from_estimator(lr, X, y, name="lr"),
        cw.Classifier.from_estimator(lr, X, y, name="lr twin"),
    ]
    lr_scores = lr.predict_proba(X)[:, 1]
    scores = {
        "m": ISSUE_31_S,
        "m twin": ISSUE_31_S,
        "k": k_scores,
        "lr": lr_scores,
        "lr twin": lr_scores,
    }
    return clfs, scores, X


CLASSIFIERS, SCORES, X_LR = _pool()
NAMES = [c.name for c in CLASSIFIERS]
FROM_ESTIMATORS = {"lr", "lr twin"}


@pytest.fixture(scope="module")
def w():
    widget = cw.CostWidget(CLASSIFIERS, p_pos=0.4, cost_fn=1.0, cost_fp=4.0)
    widget.show_decision_curve = True
    yield widget
    widget.close()


# ------------------------------------------------------------------------------ reading back
_BEST_ROW = re.compile(r"<tr class='costwidget-best'[^>]*><td><span[^>]*>&#9632;</span> (.*?)</td>")


def highlighted(w):
    """The name in the highlighted row of the table that shows the rules to deploy (the
    constraint's table under a constraint, else the main one); None when none is."""
    table = (
        w.readout_view.constrained_widget.value
        if w.constraint != "none"
        else w.readout_view.widget.value
    )
    hit = _BEST_ROW.findall(table)
    assert len(hit) <= 1, table
    return html.unescape(hit[0]) if hit else None


def headline_parts(text, names):
    """``(kind, name, thresholds shown, cost shown)`` of a headline: kind is "deploy", "tie",
    "none" (flag no case), "all" (flag every case) or "empty"."""
    if text.startswith("Tie:"):
        return "tie", None, [], re.search(r"lowest cost, (.+?) per case", text).group(1)
    if text.startswith("Flag no case"):
        return "none", None, [], "0"
    if text.startswith("Flag every case"):
        return "all", None, [], "0"
    if text.startswith("No classifier"):
        return "empty", None, [], None
    m = re.match(r"(?:Deploy|Under the constraint, deploy) ", text)
    assert m, text
    rest = text[m.end() :]
    name = max(
        (n for n in names if re.match(re.escape(n) + r"(?: at | flagging |:)", rest)), key=len
    )
    words = rest[len(name) :].split(": ", 1)
    cost = re.match(r"(.+?) per case", words[1]).group(1)
    shown = []
    for part in re.split(r" with probability [^,]+, else ", words[0]):
        part = part.strip()
        if part == "flagging no case":
            shown.append("inf")
        elif part == "flagging every case":
            shown.append("-inf")
        else:
            m = re.fullmatch(r"at score ≥ (\S+)", part)
            assert m, (text, part)
            shown.append(m.group(1).replace(",", ""))
    return "deploy", name, shown, cost


def page_headline(w) -> str:
    """The headline the exported page starts from (its embedded widget state), as text."""
    page = w.to_html()
    start = page.index('<script type="application/vnd.jupyter.widget-state+json">')
    start = page.index(">", start) + 1
    state = json.loads(page[start : page.index("</script>", start)])
    value = state["state"][w.headline.widget.model_id]["state"]["value"]
    # Two parts: the main sentence, then the qualifiers (after the first "; ") on a second line.
    parts = re.findall(r"<div[^>]*>(.*?)</div>", value)
    return "; ".join(html.unescape(p) for p in parts if p)


def _selects(scores, threshold):
    return np.asarray(scores) >= float(threshold)


def _tied(w):
    """The classifiers of lowest cost in the readout (its tie rule, `lowest_names`)."""
    r = w.readout
    column = "constrained_expected_cost" if w.constraint != "none" else "expected_cost"
    return lowest_names([(n, {"c": float(r.loc[n, column])}) for n in r.index], "c")


# ------------------------------------------------------------------------------ the property
def check_one_answer(w, *, page=True):
    shown = list(w.visible)
    text = w.headline.text
    kind, name, thresholds, cost = headline_parts(text, shown)
    best = highlighted(w)
    column = "constrained_expected_cost" if w.constraint != "none" else "expected_cost"
    if kind == "tie":
        tied = _tied(w)
        assert len(tied) > 1, (text, w.readout)
        assert best is None, (text, best)
        with pytest.raises(ValueError) as err:
            w.decision_rule()
        for n in tied:
            assert repr(n) in str(err.value), (tied, str(err.value))
        with pytest.raises(ValueError) as err:
            w.to_estimator()
        for n in tied:
            assert repr(n) in str(err.value)
    elif kind in ("none", "all"):
        # PCF(+) at 0 or 1: flagging no case (every case) costs nothing, and so does the rule.
        try:
            rule = w.decision_rule()
        except ValueError as exc:
            assert best is None and len(_tied(w)) > 1, (text, str(exc))
        else:
            assert rule.expected_cost == 0.0, (text, rule)
            assert best == rule.classifier, (text, best, rule.classifier)
    else:
        rule = w.decision_rule()
        assert rule.classifier == name, (text, rule)
        assert best == name, (text, best)
        assert cost == readable(rule.expected_cost), (text, rule.expected_cost)
        assert float(w.readout.loc[name, column]) == pytest.approx(rule.expected_cost, abs=1e-12)
        scores = SCORES[name]
        rule_thresholds = (
            [rule.threshold_low, rule.threshold_high] if rule.randomized else [rule.threshold]
        )
        assert len(thresholds) == len(rule_thresholds), (text, rule)
        for shown_t, t in zip(thresholds, rule_thresholds):
            assert np.array_equal(_selects(scores, shown_t), _selects(scores, t)), (
                text,
                shown_t,
                t,
            )
        if name in FROM_ESTIMATORS:
            if rule.randomized:
                with pytest.raises(ValueError):
                    w.to_estimator()
            elif not HAS_FIXED_THRESHOLD:  # scikit-learn < 1.5 (the oldest-supported job)
                with pytest.raises(ImportError, match="scikit-learn >= 1.5"):
                    w.to_estimator()
            else:
                est = w.to_estimator()
                assert est.threshold == rule.threshold
                assert np.array_equal(
                    est.predict(X_LR).astype(bool), _selects(scores, rule.threshold)
                )
    if page:
        assert page_headline(w) == text
    # The decision-curve pane: each shown classifier's rule, at the current p(+).
    view = w.decision_curve_view
    p = w.p_pos
    pt = w.cost_fp / (w.cost_fp + w.cost_fn)
    assert view.operating_pt == pytest.approx(pt)
    if pt < 1.0:
        for i, d in enumerate(w._ctx.drawings):
            if d.name not in shown:
                continue
            r = w.decision_rule(d.name)
            nb = r.tpr * p - r.fpr * (1.0 - p) * pt / (1.0 - pt)
            assert float(view.points.y[i]) == pytest.approx(nb, abs=1e-9), (d.name, r, p, pt)


# ------------------------------------------------------------------------------ states
_unit = st.floats(0.0, 1.0, allow_nan=False)
_cost = st.one_of(st.sampled_from([0.0, 1.0, 4.0]), st.floats(0.0, 10.0, allow_nan=False))
_constraint = st.one_of(
    st.just({"constraint": "none"}),
    st.builds(
        lambda m: {"constraint": "neyman_pearson", "max_fpr": m},
        st.one_of(st.sampled_from([0.0, 0.2, 1.0]), _unit),
    ),
    st.builds(
        lambda c: {"constraint": "workforce", "capacity": c},
        st.one_of(st.sampled_from([0.0, 3.0, 5.0, 100.0]), st.floats(0.0, 40.0)),
    ),
)


@st.composite
def states(draw):
    visible = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True))
    p_pos = draw(st.one_of(st.sampled_from([0.0, 1.0, 0.4]), _unit))
    cost_fn, cost_fp = draw(_cost), draw(_cost)
    if cost_fn == 0.0 and cost_fp == 0.0:
        cost_fp = 1.0
    # PCF(+) is undefined where no error costs anything: the state refuses those.
    if p_pos == 1.0 and cost_fn == 0.0:
        cost_fn = 1.0
    if p_pos == 0.0 and cost_fp == 0.0:
        cost_fp = 1.0
    # Weights that round to 0 (p(+) = 2.2e-311, C(-|+) = 2.2e-16, C(+|-) = 0) are refused too.
    if p_pos * cost_fn + (1.0 - p_pos) * cost_fp == 0.0:
        cost_fn = cost_fp = 1.0
    return {
        "visible": visible,
        "p_pos": p_pos,
        "cost_fn": cost_fn,
        "cost_fp": cost_fp,
        **draw(_constraint),
    }


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(state=states())
def test_every_view_names_the_same_rule(w, state):
    w.update(**state)
    check_one_answer(w, page=True)


# ------------------------------------------------------------------------------ explicit cases
@pytest.mark.parametrize(
    "constraint",
    [
        {"constraint": "none"},
        {"constraint": "neyman_pearson", "max_fpr": 1.0},
        {"constraint": "neyman_pearson", "max_fpr": 0.2},
        {"constraint": "workforce", "capacity": 5.0},
    ],
)
def test_issue_31_example(w, constraint):
    """y, s of the issue at p(+) 0.4, C(-|+) 1, C(+|-) 4: the cheapest rule flags score >= 0.6
    (3 cases of 10, FPR 0) at 0.1 per case, and no limit here binds: headline, readout and
    ``decision_rule()`` all deploy it."""
    w.update(visible=["m"], p_pos=0.4, cost_fn=1.0, cost_fp=4.0, **constraint)
    if constraint["constraint"] == "workforce":
        assert w.n_pos + w.n_neg == 10 and 0.75 * w.n_pos < 5.0  # above what the rule flags
    rule = w.decision_rule()
    assert (rule.classifier, rule.threshold, rule.randomized) == ("m", 0.59, False)
    assert rule.expected_cost == pytest.approx(0.1, abs=1e-12)
    text = w.headline.text
    assert text.startswith("Deploy m at score ≥ ") and ": 0.1 per case" in text, text
    if constraint["constraint"] != "none":
        assert text.endswith("does not bind"), text
        assert w.readout.loc["m", "best_single_threshold"] == 0.59
        assert w.readout.loc["m", "constrained_expected_cost"] == pytest.approx(0.1, abs=1e-12)
        assert "does not bind" in w.constraint_tool.message.value
        # The constraint's diamond is the rule deployed: FPR 0, TPR 0.75.
        i = NAMES.index("m")
        assert (w.constraint_tool.roc_points.x[i], w.constraint_tool.roc_points.y[i]) == (0.0, 0.75)
    assert highlighted(w) == "m"
    check_one_answer(w)


@pytest.mark.parametrize("pair", [["m", "m twin"], ["lr", "lr twin"]])
def test_a_tie_of_two_identical_models_names_both(w, pair):
    w.update(visible=pair, p_pos=0.4, cost_fn=1.0, cost_fp=4.0, constraint="none")
    assert w.headline.text.startswith("Tie: 2 classifiers")
    assert highlighted(w) is None
    for call in (w.decision_rule, w.to_estimator):
        with pytest.raises(ValueError, match=f"{pair[0]!r} and {pair[1]!r} tie"):
            call()
    assert w.decision_rule(name=pair[1]).classifier == pair[1]  # name= still picks one
    snap = w.snapshot()
    assert snap["decision_rule"] is None
    assert snap["decision"]["tie"] and snap["decision"]["lowest"] == pair
    check_one_answer(w)


def test_w_decision_is_the_one_answer(w):
    """``w.decision`` is what every view reads: the same object until the state changes."""
    w.update(
        visible=["m", "k"],
        p_pos=0.4,
        cost_fn=1.0,
        cost_fp=4.0,
        constraint="neyman_pearson",
        max_fpr=0.2,
    )
    d = w.decision
    assert d is w.decision
    assert d.headline == w.headline.text
    assert d.rule_for() == w.decision_rule()
    assert list(d.table().index) == list(w.readout.index)
    assert w.snapshot()["decision"] == json.loads(json.dumps(d.to_dict()))
    w.p_pos = 0.3
    assert w.decision is not d and w.decision.p_pos == 0.3
