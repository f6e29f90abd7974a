"""The page mirrors widgets with per-case costs where no case changes side (node vs the kernel).

Per-case data with heavy-tailed amounts (Pareto, some cases 1000 times the median), tied and
continuous scores, with and without ``sample_weight``, a name that needs escaping; the page's
spec is the widget's own (``page_spec(w)``: the twins, their hull's case counts, the units).
At several hundred settings of p(+) and the two multipliers (and classifier subsets, and the
settings the kernel refuses) the page's view (``perCaseView``, run in node on
``js/src/operating_point.mjs``) and the kernel's (``decide`` and ``PerCaseCosts.headline``, as
the widget's decision and headline make them) agree:

* the choice, the lowest names and the deployed threshold exactly; the headline, the readout's
  HTML and the PCF(+) label exactly; PCF(+) exactly (``state.pcf``);
* the money per case, the rule's NEC and rates to 1e-10 relative (the kernel weighs its twins
  again from the cases at each setting, summed in another order: not to the last bit).

A brute force independent of both (every threshold's money per case summed case by case, the
trivial rules, the rates counted in cases) checks the page's numbers. Limits and widgets whose
cases change sides are not mirrored: the page refuses a limit, and those widgets get no link.
"""

from __future__ import annotations

import html
import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import costwidget as cw
from costwidget.frontend.contract import PER_CASE_NOTE, mirrors_per_case, page_contract
from costwidget.model import decide, readable
from costwidget.model.kernels.costs import probability_cost
from costwidget.model.kernels.readable import round_significant
from costwidget.widget.live.frontend_link import link_widget
from costwidget.widget.output.page_spec import page_spec
from costwidget.widget.text.headline import headline_html
from costwidget.widget.text.readout import readout_html
from costwidget.widget.tools.operating_point import pcf_label

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "js" / "test" / "parity_runner.mjs"
NODE = shutil.which("node")
REL = 1e-10
ABS = 1e-12

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _encode(value):
    if isinstance(value, float) and not math.isfinite(value):
        return {"__float__": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


def ask_node(request: dict):
    proc = subprocess.run(
        [NODE, str(RUNNER)],
        input=json.dumps(_encode(request), allow_nan=False) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    answer = json.loads(proc.stdout.splitlines()[0])
    if isinstance(answer, dict) and "failed" in answer:
        raise AssertionError(answer["failed"][-4000:])
    return answer


# ------------------------------------------------------------------------------ the data
def case_data(seed: int, weighted: bool):
    """Three classifiers of one set of cases: heavy-tailed amounts lost on a missed positive,
    a review fee plus a share of the amount on a false alarm."""
    rng = np.random.default_rng(seed)
    n = 500
    y = (rng.random(n) < 0.3).astype(int)
    amount = 20.0 * (1.0 + rng.pareto(1.1, n))  # heavy tail: a few cases dwarf the rest
    cost_fn = np.where(y == 1, amount, 0.0)
    cost_fp = np.where(y == 0, 3.0 + 0.05 * amount, 0.0)
    w = rng.exponential(size=n) + 0.05 if weighted else None
    signal = y * (1.0 + 0.3 * np.log(amount))
    scores = {
        "continuous": rng.normal(size=n) + signal,
        "tied": np.round(rng.normal(size=n) + 0.8 * y, 1),
        "<b>risk & 'x'</b>": rng.normal(size=n) + 0.5 * signal,
    }
    return [
        cw.Classifier.from_scores(
            y, s, cost_fn=cost_fn, cost_fp=cost_fp, sample_weight=w, name=name
        )
        for name, s in scores.items()
    ]


def settings(rng, names, prior):
    out = []
    for k in range(160):
        p = float(rng.uniform(0.002, 0.998))
        m_fn = float(10 ** rng.uniform(-3, 3))
        m_fp = float(10 ** rng.uniform(-3, 3))
        if k % 10 == 0:
            p = prior
        if k % 7 == 0:
            m_fn, m_fp = 1.0, 1.0
        if k % 13 == 0:  # the widget's gesture grid: 3 significant digits
            p, m_fn, m_fp = (float(f"{v:.3g}") for v in (p, m_fn, m_fp))
        visible = list(names)
        if k % 5 == 1:
            visible = [names[k % 3]]
        if k % 11 == 2:
            visible = [names[0], names[2]]
        out.append({"p_pos": p, "cost_fn": m_fn, "cost_fp": m_fp, "visible": visible})
    # The kernel refuses these (one side of the twins without weight): so must the page.
    out += [
        {"p_pos": 0.3, "cost_fn": 0.0, "cost_fp": 1.0, "visible": list(names)},
        {"p_pos": 0.3, "cost_fn": 2.0, "cost_fp": 0.0, "visible": list(names)},
        {"p_pos": 0.0, "cost_fn": 1.0, "cost_fp": 1.0, "visible": list(names)},
        {"p_pos": 1.0, "cost_fn": 1.0, "cost_fp": 1.0, "visible": list(names)},
        # ... but not with no classifier shown (nothing to weigh).
        {"p_pos": 0.3, "cost_fn": 0.0, "cost_fp": 1.0, "visible": []},
    ]
    return [{**s, "constraint": "none", "max_fpr": 0.1, "capacity": 10.0} for s in out]


@pytest.fixture(scope="module")
def cases():
    """[(widget, classifiers, spec)] and the page's answers to every state of each."""
    rng = np.random.default_rng(45)
    groups, states, widgets = [], [], []
    for g, weighted in enumerate((False, True)):
        clfs = case_data(100 + g, weighted)
        w = cw.CostWidget(clfs)
        spec = page_spec(w)
        payload = spec["payload"]
        groups.append({**payload, "per_case": spec["per_case"]})
        colors = dict(w.colors)
        for s in settings(rng, [c.name for c in clfs], w.state.p_pos):
            states.append({**s, "group": g, "colors": colors})
        widgets.append((w, clfs, spec))
    answer = ask_node(
        {
            "task": "per_case",
            "module": None,
            "input": {"contract": page_contract(), "groups": groups, "states": states},
        }
    )
    yield widgets, states, answer["states"]
    for w, _, _ in widgets:
        w.close()


def kernel(w, clfs, s):
    """The kernel's decision, headline, readout and PCF(+) at state ``s`` (as the widget's
    DecisionSource, Headline and Readout make them)."""
    shown = [c for c in clfs if c.name in s["visible"]]
    d = decide(shown, p_pos=s["p_pos"], cost_fn=s["cost_fn"], cost_fp=s["cost_fp"])
    u_fn, u_fp = w.per_case.units
    pcf = float(probability_cost(s["p_pos"], s["cost_fn"] * u_fn, s["cost_fp"] * u_fp))
    colors = dict(w.colors)
    return {
        "decision": d,
        "headline": w.per_case.headline(d),
        "readout_html": readout_html(list(d.rows), colors, best=d.chosen, note=PER_CASE_NOTE),
        "pcf": pcf,
        "pcf_label": pcf_label(pcf, s["cost_fn"], s["cost_fp"]),
    }


def close(a, b, scale=1.0) -> bool:
    """Equal to rounding: within 1e-12 of ``scale`` (money: p·C(-|+) + (1 - p)·C(+|-), the
    money of NEC 1; rates and NEC: 1), or 1e-10 relative."""
    if a is None or b is None:
        return a is b
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return abs(a - b) <= max(ABS * scale, REL * max(abs(a), abs(b)))


# ------------------------------------------------------------------------------ the tests
def test_the_widgets_are_mirrored_and_linked(cases):
    widgets, _, _ = cases
    for w, clfs, spec in widgets:
        assert mirrors_per_case(clfs)
        assert spec["per_case"]["units"] == list(w.per_case.units)
        assert spec["per_case"]["floor"] == 0.0
        assert w.frontend_link is not None or link_widget(w) is not None


def test_the_page_decides_as_the_kernel(cases):
    widgets, states, answers = cases
    refused = checked = 0
    for s, js in zip(states, answers):
        w, clfs, _ = widgets[s["group"]]
        try:
            py = kernel(w, clfs, s)
        except ValueError as exc:
            assert "error" in js, (s, js)
            assert js["error"] == str(exc), (js["error"], str(exc))
            refused += 1
            continue
        assert "error" not in js, (s, js)
        d, jd = py["decision"], js["decision"]
        where = f"state {s}"
        u_fn, u_fp = w.per_case.units
        p = s["p_pos"]
        money = p * s["cost_fn"] * u_fn + (1 - p) * s["cost_fp"] * u_fp
        assert jd["chosen"] == d.chosen, where
        assert jd["lowest"] == list(d.lowest), where
        assert js["headline"] == py["headline"], where
        assert js["headline_html"] == headline_html(py["headline"]), where
        assert js["readout_html"] == py["readout_html"], where
        assert js["pcf"] == py["pcf"], where
        assert js["pcf_label"] == py["pcf_label"], where
        for (name, row), (jname, jrow) in zip(d.rows, jd["rows"]):
            assert jname == name
            assert close(jrow["expected_cost"], row["expected_cost"], money), where
            assert jrow["threshold"] == row["threshold"], where
        if d.rule is not None:
            r, jr = d.rule, jd["rule"]
            assert jr["threshold"] == r.threshold, where
            assert close(jr["expected_cost"], r.expected_cost, money), where
            for key in ("nec", "fpr", "tpr"):
                assert close(jr[key], getattr(r, key)), (key, where)
            assert (jr["p_pos"], jr["cost_fn"], jr["cost_fp"]) == (r.p_pos, r.cost_fn, r.cost_fp)
            assert close(js["winner_dot"]["y"][0], r.nec), where
        checked += 1
    assert refused == 8 and checked >= 300


def test_the_headlines_say_what_they_should(cases):
    """The states cover what the words must carry: savings, rates counted in cases, a runner-up,
    both trivial rules as the baseline, and an escaped name."""
    _, _, answers = cases
    texts = [a["headline"] for a in answers if "headline" in a]
    assert all(", counted in cases)" in t for t in texts if t.startswith("Deploy"))
    assert any("; next best" in t for t in texts)
    assert any("against flagging every case" in t for t in texts)
    assert any("against flagging no case" in t for t in texts)
    assert any(
        "&lt;b&gt;risk &amp; &#x27;x&#x27;&lt;/b&gt;" in a.get("headline_html", "") for a in answers
    )


# ------------------------------------------------------------------------------ brute force
def brute_force(clf, p, m_fn, m_fp):
    """Every threshold's money per case (and the trivial rules'), summed case by case at
    prevalence ``p``: ``{threshold: (money, counted fpr, counted tpr)}``."""
    cc = clf.case_costs
    y = cc.is_pos
    s = np.asarray(clf.sample.scores, float)
    w = np.ones(len(y)) if cc.weights is None else np.asarray(cc.weights, float)
    prior = w[y].sum() / w.sum()
    r = w * np.where(y, p / prior, (1 - p) / (1 - prior))
    out = {}
    for t in [math.inf, *np.unique(s)[::-1], -math.inf]:
        flag = s >= t
        money = np.where(y, ~flag * m_fn * cc.fn, flag * m_fp * cc.fp)
        fpr = w[~y & flag].sum() / w[~y].sum()
        tpr = w[y & flag].sum() / w[y].sum()
        out[t] = (float((r * money).sum() / r.sum()), float(fpr), float(tpr))
    return out


def _percent(x):
    return readable(round_significant(100.0 * x, 3))


def test_the_page_money_is_the_brute_force_minimum(cases):
    widgets, states, answers = cases
    done = 0
    for s, js in list(zip(states, answers))[::6]:
        if "error" in js or js["decision"]["rule"] is None:
            continue
        _, clfs, _ = widgets[s["group"]]
        jd = js["decision"]
        p, m_fn, m_fp = s["p_pos"], s["cost_fn"], s["cost_fp"]
        tables = {c.name: brute_force(c, p, m_fn, m_fp) for c in clfs if c.name in s["visible"]}
        best = min(m for t in tables.values() for m, _, _ in t.values())
        # NEC in [0, 1] times p·C(-|+) + (1 - p)·C(+|-) (what flagging every case plus flagging
        # none costs): to rounding of that scale (at PCF(+) near 1, 1 - PCF(+) loses digits).
        first = next(iter(tables.values()))
        scale = first[-math.inf][0] + first[math.inf][0]
        assert close(jd["rule"]["expected_cost"], best, scale), s
        # The chosen threshold flags the cases of a threshold of that money.
        table = tables[jd["chosen"]]
        th = jd["rule"]["threshold"]
        th = {"inf": math.inf, "-inf": -math.inf}.get(th, th) if isinstance(th, str) else th
        chosen_t = min((t for t in table if t >= th), default=math.inf)
        money, fpr, tpr = table[chosen_t]
        assert close(money, best, scale), s
        text = js["headline"]
        assert f"(FPR {_percent(fpr)} %, TPR {_percent(tpr)} %, counted in cases)" in text, s
        every, none = table[-math.inf][0], table[math.inf][0]
        trivial = min(every, none)
        sv = js["savings"]
        assert close(sv["trivial_cost"], trivial, scale), s
        assert close(sv["savings"], 1.0 - best / trivial, scale / trivial), s
        done += 1
    assert done >= 40


def test_a_limit_and_cases_that_change_sides_are_not_mirrored(cases):
    widgets, _, _ = cases
    w, clfs, spec = widgets[0]
    s = {"p_pos": 0.3, "cost_fn": 1.0, "cost_fp": 1.0, "visible": [c.name for c in clfs]}
    states = [
        {**s, "group": 0, "constraint": "neyman_pearson", "max_fpr": 0.1, "capacity": 1.0},
        {**s, "group": 0, "constraint": "workforce", "max_fpr": 0.1, "capacity": 10.0},
    ]
    group = {**spec["payload"], "per_case": spec["per_case"]}
    answer = ask_node(
        {
            "task": "per_case",
            "module": None,
            "input": {"contract": page_contract(), "groups": [group], "states": states},
        }
    )
    contract = page_contract()
    assert [a.get("error") for a in answer["states"]] == [contract["PER_CASE_REFUSED_LIMIT"]] * 2
    fee = cw.Classifier.from_scores(
        [1, 0, 1, 0], [0.9, 0.2, 0.6, 0.4], cost_fn=5.0, cost_fp=1.0, cost_tp=1.0, name="fee"
    )
    assert not mirrors_per_case([fee])
    wf = cw.CostWidget([fee])
    try:
        assert wf.frontend_link is None and link_widget(wf) is None
    finally:
        wf.close()


def test_the_live_link_hands_a_limit_to_the_kernel(cases):
    widgets, _, _ = cases
    w = widgets[1][0]
    link = w.frontend_link
    assert link is not None and link.model.per_case == page_spec(w)["per_case"]
    link.model.attached = True
    assert link.attached and w._ctx.frontend_draws
    w.constraint = "neyman_pearson"
    try:
        assert not link.attached and not w._ctx.frontend_draws  # the kernel draws the limit
        assert "counted in cases" in w.headline.widget.value
    finally:
        w.constraint = "none"
    assert link.attached


# ------------------------------------------------------------------------------ the page's glue
MOVES = ROOT / "js" / "test" / "page_moves_runner.mjs"


def test_the_exported_page_moves_to_the_kernels_words():
    """An exported page's glue (bindPage, no kernel) over the widget's own embedded models: a
    user's moves of the multipliers, p(+) and the ratio slider show the kernel's headline, PCF(+)
    label and readout for the same moves; a limit is refused in the page's banner, saying why,
    and the state kept."""
    from ipywidgets.embed import dependency_state

    clfs = case_data(7, weighted=True)
    w = cw.CostWidget(clfs)
    try:
        spec = page_spec(w)
        state = dependency_state(w.widget, drop_defaults=False)
        models = {mid: state[mid]["state"] for mid in spec["roles"].values() if mid in state}
        moves = [
            ("cost_fn", 3.5),
            ("cost_fp", 0.25),
            ("p_pos", 0.12),
            ("log_ratio", 40.0),
            ("p_pos_value", 0.61),
            ("handle", 0.372),  # a drag in the cost pane: PCF(+) of the multiplied costs
        ]
        request = {"spec": spec, "models": models, "moves": [*moves, ("constraint", "workforce")]}
        proc = subprocess.run(
            [NODE, str(MOVES)],
            input=json.dumps(request, allow_nan=False),
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        shown = json.loads(proc.stdout)
        for (role, value), page in zip(moves, shown):
            if role == "log_ratio":  # the slider's ratio, kept to 3 significant digits
                w.cost_fn, w.cost_fp = page["state"]["cost_fn"], page["state"]["cost_fp"]
            elif role == "handle":
                w._tx.apply("drag in cost pane", w.operating_tool.set_pcf, value)
            else:
                setattr(w, {"p_pos_value": "p_pos"}.get(role, role), value)
            assert (w.p_pos, w.cost_fn, w.cost_fp) == (
                page["state"]["p_pos"],
                page["state"]["cost_fn"],
                page["state"]["cost_fp"],
            ), role
            assert page["headline"] == headline_html(w.headline.text), role
            assert page["pcf"] == w.operating_tool.pcf.value, role
            assert page["readout"] == w.readout_view.widget.value, role
        refused = shown[-1]
        assert refused["state"]["constraint"] == "none"
        assert refused["headline"] == shown[-2]["headline"]
        assert page_contract()["PER_CASE_REFUSED_LIMIT"] in html.unescape(refused["banner"])
    finally:
        w.close()


def test_the_cost_on_new_data_agrees(cases):
    """With the honest curves on screen (the twins' NEC on new data, one curve at every
    multiplier) the page chooses on them and says the money on new data, as the kernel."""
    widgets, _, _ = cases
    w, clfs, spec = widgets[0]
    curves = {c.name: cw.honest_cost(c, random_state=0) for c in clfs}
    honest = {n: {"pcf": c["pcf"].tolist(), "nec": c["nec"].tolist()} for n, c in curves.items()}
    rng = np.random.default_rng(3)
    states = []
    for k in range(30):
        visible = [c.name for c in clfs] if k % 3 else [clfs[0].name, clfs[2].name]
        states.append(
            {
                "p_pos": float(rng.uniform(0.01, 0.99)),
                "cost_fn": float(10 ** rng.uniform(-2, 2)),
                "cost_fp": float(10 ** rng.uniform(-2, 2)),
                "visible": visible,
                "honest": {n: honest[n] for n in visible},
                "constraint": "none",
                "group": 0,
                "colors": dict(w.colors),
            }
        )
    group = {**spec["payload"], "per_case": spec["per_case"]}
    answer = ask_node(
        {
            "task": "per_case",
            "module": None,
            "input": {"contract": page_contract(), "groups": [group], "states": states},
        }
    )
    fresh = 0
    for s, js in zip(states, answer["states"]):
        shown = [c for c in clfs if c.name in s["visible"]]
        d = decide(
            shown,
            p_pos=s["p_pos"],
            cost_fn=s["cost_fn"],
            cost_fp=s["cost_fp"],
            honest={n: curves[n] for n in s["visible"]},
        )
        assert js["decision"]["on_new_data"] == d.on_new_data, s
        assert js["decision"]["chosen"] == d.chosen, s
        assert js["headline"] == w.per_case.headline(d), s
        fresh += d.on_new_data
    assert fresh >= 20


def test_pages_the_page_cannot_mirror_are_static():
    """Under a limit, and for cases that change sides, the exported page recomputes nothing (no
    front-end spec: its controls are disabled and its note says it is static)."""
    w = cw.CostWidget(case_data(9, weighted=False))
    fee = cw.Classifier.from_scores(
        [1, 0, 1, 0, 1, 0],
        [0.9, 0.2, 0.6, 0.4, 0.3, 0.5],
        cost_fn=5.0,
        cost_fp=1.0,
        cost_tp=1.0,
        name="fee",
    )
    wf = cw.CostWidget([fee])
    try:
        assert 'id="costwidget-frontend">{"per_case": {"units": ' in w.to_html()
        w.constraint = "neyman_pearson"
        assert 'id="costwidget-frontend"' not in w.to_html()
        assert 'id="costwidget-frontend"' not in wf.to_html()
    finally:
        w.close()
        wf.close()


@pytest.mark.parametrize("weighted", [False, True])
def test_the_hulls_case_counts_are_the_kernels_to_the_last_bit(weighted):
    """The rates the page prints are `counted_rates`, the kernel's, at every hull vertex."""
    from costwidget.model import cost_weighted, counted_rates
    from costwidget.widget.output.frontend_payload import hull_counted_rates

    for clf in case_data(11, weighted):
        twin = cost_weighted(clf)[0]
        got = hull_counted_rates(twin, clf)
        want = [counted_rates(clf, float(t)) for t in twin.hull["threshold"]]
        assert got["hull_counted_fpr"].tolist() == [f for f, _ in want]
        assert got["hull_counted_tpr"].tolist() == [t for _, t in want]


def test_the_page_says_the_kernels_runner_up_band():
    """With the difference view shown the kernel's headline reads the runner-up's paired band
    (the cases drawn with their costs); the page says the same words at that state (before, the
    page dropped the band for per-case widgets and its headline lacked the clause)."""
    rng = np.random.default_rng(1)
    n = 400
    y = (rng.random(n) < 0.35).astype(int)
    amount = np.round(rng.lognormal(3.0, 1.2, n), 2)
    scores = {"a": np.round(rng.random(n) + 0.5 * y, 3), "b": np.round(rng.random(n) + 0.45 * y, 3)}
    w = cw.CostWidget.from_predictions(y, scores, cost_fn=amount, cost_fp=4.0)
    try:
        w.difference = ["a", "b"]
        w.wait(timeout=300)
        band = w.decision.runner_up_band
        assert band is not None and "interval at this PCF(+)" in w.headline.text
        spec = page_spec(w)
        state = {
            "p_pos": w.p_pos,
            "cost_fn": w.cost_fn,
            "cost_fp": w.cost_fp,
            "visible": list(w.visible),
            "constraint": "none",
            "group": 0,
            "colors": dict(w.colors),
            "runner_up_band": band.to_dict(),
        }
        answer = ask_node(
            {
                "task": "per_case",
                "module": None,
                "input": {
                    "contract": page_contract(),
                    "groups": [{**spec["payload"], "per_case": spec["per_case"]}],
                    "states": [state],
                },
            }
        )
        assert answer["states"][0]["headline"] == w.headline.text
    finally:
        w.close()
