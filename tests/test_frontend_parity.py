"""Parity of the front-end module (js/src/operating_point.mjs) with the Python model, in node.

Random classifiers (tied scores, weights, from_confusion with whole and fractional counts,
from_roc with and without thresholds, perfect and useless ones) are packed by
``frontend_payload.pack_classifiers``; >= 1000 random widget states over them are answered once
by the model (``clf.best``, ``clf.nec``, ``clf.operating_point``, ``clf.neyman_pearson``,
``clf.workforce``, ``decide``, the geometry of the marks) and once by the module, in
one ``node js/test/parity_runner.mjs`` run. The states include p(+) at exactly 0 and 1, zero
costs, PCF(+) exactly at envelope breakpoints, Neyman-Pearson limits on hull vertices and
between two, workforce capacities on hull vertices, between, above the positives and above all
cases, and states the model refuses (the module must refuse them too).

Required agreement: the optimal vertex and its threshold exactly; NEC and expected cost to
1e-12 (they agree exactly today: the module does the same IEEE operations in the same order);
the constrained rule exactly, including its mix probability, thresholds and message; the best
single threshold (sent to 6 significant digits, ``single_varints.encode_single``) within
``THRESHOLD_RELATIVE_BOUND`` and printed exactly as the model's at the 6 and 4 significant
digits the page shows; the marks, the readout rows and the readout's HTML exactly.
"""

from __future__ import annotations

import base64
import html
import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import costwidget as cw
from costwidget.frontend.contract import page_contract
from costwidget.model import readable
from costwidget.model.kernels.geometry import iso_performance_segment, workforce_segment
from costwidget.model.kernels.readable import next_lower_scores
from costwidget.widget.output.frontend_payload import (
    PAYLOAD_ARRAYS,
    SINGLE_ARRAYS,
    THRESHOLD_RELATIVE_BOUND,
    classifier_arrays,
    pack_classifiers,
    unpack_classifiers,
)

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "js" / "test" / "parity_runner.mjs"
NODE = shutil.which("node")
N_GROUPS = 70
STATES_PER_GROUP = 30  # 2100 states
TOL = 1e-12

needs_node = pytest.mark.skipif(
    NODE is None,
    reason="node is not installed: the front-end "
    "module's parity runs in node (CI installs Node 20)",
)


# ------------------------------------------------------------------------------ random classifiers
def _labels(rng, n):
    y = rng.integers(0, 2, n)
    y[0], y[1] = 0, 1  # both classes
    return y


def random_classifier(rng, kind, name):
    if kind == "tied":  # few distinct scores: ties of positives and negatives
        n = int(rng.integers(4, 200))
        y = _labels(rng, n)
        k = int(rng.integers(2, 12))
        s = rng.integers(0, k, n) / k + 0.3 * y * rng.integers(0, 2, n)
        return cw.Classifier.from_scores(y, s, name=name)
    if kind == "continuous":
        n = int(rng.integers(4, 400))
        y = _labels(rng, n)
        s = rng.normal(size=n) + rng.uniform(0, 2) * y
        return cw.Classifier.from_scores(y, s, name=name)
    if kind == "weighted":
        n = int(rng.integers(4, 150))
        y = _labels(rng, n)
        s = np.round(rng.normal(size=n) + y, 1)
        w = rng.exponential(size=n) * (rng.random(n) > 0.1)
        w[0], w[1] = 1.0, 1.0
        return cw.Classifier.from_scores(y, s, name=name, sample_weight=w)
    if kind == "confusion_int":
        tp, fn, fp, tn = (int(v) for v in rng.integers(0, 30, 4))
        return cw.Classifier.from_confusion(
            tp=tp, fn=fn + (tp + fn == 0), fp=fp, tn=tn + (fp + tn == 0), name=name
        )
    if kind == "confusion_float":
        tp, fn, fp, tn = rng.exponential(size=4) * 10.0 ** rng.integers(-3, 4)
        return cw.Classifier.from_confusion(tp=tp, fn=fn, fp=fp, tn=tn, name=name)
    if kind == "roc":
        m = int(rng.integers(1, 12))
        f = np.sort(rng.random(m))
        t = np.sort(rng.random(m))
        if rng.random() < 0.5:
            return cw.Classifier.from_roc(f, t, name=name)
        return cw.Classifier.from_roc(f, t, np.sort(rng.random(m))[::-1] * 10, name=name)
    if kind == "roc_grid":  # rates on a coarse grid: collinear and repeated points
        m = int(rng.integers(1, 8))
        return cw.Classifier.from_roc(
            rng.integers(0, 5, m) / 4, rng.integers(0, 5, m) / 4, name=name
        )
    if kind == "perfect":
        return cw.Classifier.from_scores([0, 0, 1, 1, 1], [0.1, 0.2, 0.7, 0.8, 0.8], name=name)
    if kind == "useless":  # one score: the diagonal only, no operating range
        return cw.Classifier.from_scores([0, 1, 1, 0], [0.5, 0.5, 0.5, 0.5], name=name)
    raise ValueError(kind)


KINDS = [
    "tied",
    "continuous",
    "weighted",
    "confusion_int",
    "confusion_float",
    "roc",
    "roc_grid",
    "perfect",
    "useless",
]
NAMES = ["a", "b", "<c & 'd'>", "e"]


# ------------------------------------------------------------------------------ random states
def _pcf_exactly(b):
    """(p_pos, cost_fn, cost_fp) whose PCF(+) is exactly b, or None."""
    for p, fn, fp in (
        (b, 1.0, 1.0),
        (0.5, b, 1.0 - b),
        (0.5, b / (1.0 - b), 1.0),
        (0.25, 3 * b / (1 - b), 1.0),
    ):
        try:
            if (
                0 <= p <= 1
                and fn >= 0
                and fp >= 0
                and math.isfinite(fn)
                and cw.probability_cost(p, fn, fp) == b
            ):
                return p, fn, fp
        except ValueError:
            pass
    return None


def random_state(rng, group, counters):
    clfs = [c for _, c in group]
    names = [n for n, _ in group]
    state = {
        "constraint": "none",
        "max_fpr": 0.1,
        "capacity": 0.0,
        "n_pos": 1.0,
        "n_neg": 1.0,
        "population_set": bool(rng.random() < 0.5),
    }
    pick = rng.random()
    if pick < 0.3:  # PCF(+) exactly at an envelope breakpoint of one of the classifiers
        clf = clfs[int(rng.integers(len(clfs)))]
        seg = clf.segments
        inner = [float(v) for v in seg["pcf_lo"].iloc[1:]] + [float(v) for v in seg["pcf_hi"]]
        b = inner[int(rng.integers(len(inner)))]
        made = _pcf_exactly(b) if 0 < b < 1 else None
        if made is None:
            made = (0.5, 1.0, 1.0)
        else:
            counters["breakpoint"] += 1
        state["p_pos"], state["cost_fn"], state["cost_fp"] = made
    else:
        state["p_pos"] = float(rng.choice([0.0, 1.0, rng.random(), rng.random(), 0.5, 0.001]))
        costs = [0.0, 1.0, float(rng.exponential()), float(rng.exponential() * 1e3), 1e-9, 7.0]
        state["cost_fn"] = float(costs[int(rng.integers(len(costs)))])
        state["cost_fp"] = float(costs[int(rng.integers(len(costs)))])
        if state["cost_fn"] == state["cost_fp"] == 0.0 and rng.random() < 0.7:
            state["cost_fp"] = 1.0
    counters["p0"] += state["p_pos"] == 0.0
    counters["p1"] += state["p_pos"] == 1.0
    counters["zero_cost"] += state["cost_fn"] == 0.0 or state["cost_fp"] == 0.0
    kind = rng.choice(["none", "neyman_pearson", "workforce"])
    state["constraint"] = str(kind)
    clf = clfs[int(rng.integers(len(clfs)))]
    h = clf.hull
    k = int(rng.integers(len(h)))
    if kind == "neyman_pearson":
        f = h["fpr"].to_numpy()
        choice = rng.integers(5)
        if choice == 0 or len(f) < 2:
            state["max_fpr"] = float(f[k])
            counters["np_vertex"] += 1
        elif choice == 1:
            j = int(rng.integers(len(f) - 1))
            state["max_fpr"] = float((f[j] + f[j + 1]) / 2)
            counters["np_between"] += int(f[j] < state["max_fpr"] < f[j + 1])
        elif choice == 2:
            state["max_fpr"] = float(rng.choice(clf.roc["fpr"].to_numpy()))
        else:
            state["max_fpr"] = float(rng.choice([0.0, 1.0, rng.random()]))
    elif kind == "workforce":
        if clf.n_pos is not None and rng.random() < 0.6:
            P, N = float(clf.n_pos), float(clf.n_neg)
        else:
            P = float(rng.choice([1.0, 100.0, rng.exponential() * 50 + 1e-3]))
            N = float(rng.choice([0.0, 1.0, 300.0, rng.exponential() * 50]))
        state["n_pos"], state["n_neg"] = P, N
        load = h["tpr"].to_numpy() * P + h["fpr"].to_numpy() * N  # as the model computes it
        choice = rng.integers(6)
        if choice == 0 or len(load) < 2:
            state["capacity"] = float(load[k])
            counters["wf_vertex"] += 1
        elif choice == 1:
            j = int(rng.integers(len(load) - 1))
            state["capacity"] = float((load[j] + load[j + 1]) / 2)
        elif choice == 2:
            state["capacity"] = P + float(rng.random()) * N  # above the positives
            counters["wf_above_pos"] += 1
        elif choice == 3:
            state["capacity"] = float(rng.choice([P + N + 1.0, math.inf, 0.0]))
        else:
            state["capacity"] = float(rng.random() * (P + N))
    r = rng.random()
    if r < 0.7:
        state["visible"] = list(names)
    elif r < 0.95:
        state["visible"] = [n for n in names if rng.random() < 0.6]
    else:
        state["visible"] = []
    state["colors"] = {n: c for n, c in zip(names, ["#1f77b4", "#ff7f0e", "#2ca02c"])}
    return state


# ------------------------------------------------------------------------------ the model's answers
# Each state's model answers are computed once and read by every test that compares with them.
_MEMO: dict = {}


def _memo(kind, s, compute):
    """``compute()`` once per (kind, state); a ValueError it raised is raised again."""
    hit = _MEMO.get((kind, id(s)))
    if hit is None or hit[0] is not s:
        try:
            hit = (s, compute(), None)
        except ValueError as exc:
            hit = (s, None, exc)
        _MEMO[(kind, id(s))] = hit
    if hit[2] is not None:
        raise hit[2]
    return hit[1]


def model_answer(group, s):
    """What the Python model says for state s, or {"error": ...} when it refuses the state."""
    return _memo("answer", s, lambda: _model_answer(group, s))


def _model_answer(group, s):
    clfs = [c for _, c in group]
    try:
        pcf = cw.probability_cost(s["p_pos"], s["cost_fn"], s["cost_fp"])
    except ValueError as exc:
        return {"error": str(exc)}
    ops = [c.best(pcf) for c in clfs]
    shown = set(s["visible"])
    visible = [c for c in clfs if c.name in shown]
    if s["constraint"] == "neyman_pearson":
        constrained = {c.name: c.neyman_pearson(s["max_fpr"]) for c in visible}
    elif s["constraint"] == "workforce":
        constrained = {
            c.name: c.workforce(s["capacity"], n_pos=s["n_pos"], n_neg=s["n_neg"]) for c in visible
        }
    else:
        constrained = {}
    iso = [iso_performance_segment(op.fpr, op.tpr, pcf) for op in ops]
    if s["constraint"] == "neyman_pearson":
        line = ([s["max_fpr"]] * 2, [0.0, 1.0])
    elif s["constraint"] == "workforce":
        xa, ya, xb, yb = workforce_segment(s["capacity"], s["n_pos"], s["n_neg"])
        line = ([1.0, 1.0], [1.0, 1.0]) if math.isnan(xa) else ([xa, xb], [ya, yb])
    else:
        line = ([0.0, 0.0], [0.0, 1.0])
    return {
        "pcf": pcf,
        "ops": ops,
        "nec": [c.nec(pcf) for c in clfs],
        "operating": [
            c.operating_point(p_pos=s["p_pos"], cost_fn=s["cost_fn"], cost_fp=s["cost_fp"])
            for c in clfs
        ],
        "iso": iso,
        "constrained": [constrained.get(c.name) for c in clfs],
        "roc_line": line,
        # The readout's rows are the decision's (the page's too): one answer, every view.
        "rows": list(model_decision(group, s).rows),
    }


def same(a, b) -> bool:
    """Exactly equal, NaN equal to NaN."""
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


def same_threshold(got, exact):
    """The page's best single threshold: within the stated bound of the exact one, and shown as
    it is (".6g" in the constraint's message, ``readable`` in the table)."""
    if same(got, exact):
        return True
    got, exact = float(got), float(exact)
    return (
        math.isfinite(exact)
        and abs(got - exact) <= THRESHOLD_RELATIVE_BOUND * abs(exact)
        and format(got, ".6g") == format(exact, ".6g")
        and readable(got) == readable(exact)
    )


BOUNDED = {"single_threshold", "best_single_threshold"}
CP_FIELDS = (
    "kind",
    "fpr",
    "tpr",
    "binding",
    "randomized",
    "threshold_low",
    "threshold_high",
    "prob_low",
    "single_threshold",
    "single_fpr",
    "single_tpr",
    "slope",
    "intercept",
    "message",
)


def _encode(value):
    """JSON for node: non-finite floats tagged (strict JSON has none)."""
    if isinstance(value, float) and not math.isfinite(value):
        return {"__float__": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


class NodeRunner:
    """One ``node js/test/parity_runner.mjs`` for the whole test run: each request is one JSON
    line on its stdin, each answer one line on its stdout."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [NODE, str(RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )

    def ask(self, request: dict, what: str):
        """The answer to ``request``; ``what`` names it in a failure's message."""
        self.proc.stdin.write(json.dumps(_encode(request), allow_nan=False) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(
                f"node exited while answering {what}:\n{self.proc.stderr.read()[-4000:]}"
            )
        answer = json.loads(line)
        if isinstance(answer, dict) and "failed" in answer:
            raise AssertionError(f"node failed on {what}:\n{answer['failed'][-4000:]}")
        return answer

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


@pytest.fixture(scope="session")
def node():
    if NODE is None:
        pytest.skip("node is not installed: the front-end module's parity runs in node")
    runner = NodeRunner()
    yield runner
    runner.close()


def run_node(payload: dict, module: Path | None = None, node: NodeRunner | None = None) -> dict:
    """The parity cases of ``payload`` answered in node (by ``node``, else by a runner of its
    own), under the contract Python sends unless the payload brings one."""
    payload = {"contract": page_contract(), **payload}
    request = {
        "task": "parity",
        "module": None if module is None else str(module),
        "input": payload,
    }
    what = f"the parity cases ({module or 'js/src/operating_point.mjs'})"
    if node is not None:
        return node.ask(request, what)
    runner = NodeRunner()
    try:
        return runner.ask(request, what)
    finally:
        runner.close()


def _b64(buffers):
    return [base64.b64encode(b).decode("ascii") for b in buffers]


# ------------------------------------------------------------------------------ the test
@pytest.fixture(scope="module")
def parity(node):
    rng = np.random.default_rng(20240619)
    twins = np.random.default_rng(31)
    groups, payload_groups = [], []
    for g in range(N_GROUPS):
        m = int(rng.integers(1, 5))
        kinds = [KINDS[g % len(KINDS)]] + [
            KINDS[int(rng.integers(len(KINDS)))] for _ in range(m - 1)
        ]
        group = [(NAMES[i], random_classifier(rng, kind, NAMES[i])) for i, kind in enumerate(kinds)]
        if m > 1 and twins.random() < 0.3:  # a twin of the first: a tie wherever it is cheapest
            group[-1] = (group[-1][0], group[0][1].renamed(group[-1][0]))
        groups.append(group)
        header, buffers = pack_classifiers(group)
        payload_groups.append({"header": header, "buffers": _b64(buffers)})
    counters = {
        k: 0
        for k in (
            "breakpoint",
            "p0",
            "p1",
            "zero_cost",
            "np_vertex",
            "np_between",
            "wf_vertex",
            "wf_above_pos",
        )
    }
    states = []
    for g, group in enumerate(groups):
        for _ in range(STATES_PER_GROUP):
            s = random_state(rng, group, counters)
            s["group"] = g
            states.append(s)
    # Direct look-ups: every breakpoint, its neighbours in floating point, 0 and 1.
    pcf_queries = []
    for g, group in enumerate(groups):
        for i, (_, clf) in enumerate(group):
            seg = clf.segments
            points = {0.0, 1.0, 0.5}
            for b in np.concatenate([seg["pcf_lo"].to_numpy(), seg["pcf_hi"].to_numpy()]):
                points.update({float(b), float(np.nextafter(b, 0.0)), float(np.nextafter(b, 1.0))})
            pcf_queries += [{"group": g, "index": i, "pcf": p} for p in sorted(points)]
    # Direct constraints: every hull vertex as a limit, between vertices, and the classifier's
    # own class totals as the workforce population (n_pos/n_neg not given).
    constraint_queries = []
    for g, group in enumerate(groups):
        for i, (_, clf) in enumerate(group):
            f, t = clf.hull["fpr"].to_numpy(), clf.hull["tpr"].to_numpy()
            for v in np.unique(np.concatenate([f, (f[1:] + f[:-1]) / 2])):
                constraint_queries.append(
                    {"group": g, "index": i, "kind": "neyman_pearson", "limit": float(v)}
                )
            if clf.n_pos is not None:
                load = t * clf.n_pos + f * clf.n_neg
                for v in np.unique(
                    np.concatenate([load, (load[1:] + load[:-1]) / 2, [clf.n_pos + clf.n_neg / 3]])
                ):
                    constraint_queries.append(
                        {
                            "group": g,
                            "index": i,
                            "kind": "workforce",
                            "limit": float(v),
                            "n_pos": None,
                            "n_neg": None,
                        }
                    )
    # Python's format() on awkward doubles: ties, tiny and huge numbers, grouping.
    xs = np.concatenate(
        [
            rng.normal(size=150) * 10.0 ** rng.integers(-8, 12, 150),
            np.arange(-40, 41) / 16,
            [0.125, 2.5, 1e16, 5e-324, 1e300, 29926.0, 99999.95, 9.9995, 0.00015, -0.0],
        ]
    )
    format_queries = [
        [float(x), spec] for x in xs for spec in (".4g", ".6g", ",.6g", "g", ".3g", ",.10g", ".4f")
    ]
    # The one rule for shown numbers (issue 23): awkward doubles, whole numbers around 10^5.
    readable_queries = [
        float(x)
        for x in np.concatenate(
            [
                xs,
                [
                    29926.0,
                    99999.0,
                    100000.0,
                    123456.0,
                    1e15,
                    999.95,
                    0.29995937,
                    3.1879154963398624,
                    57.543993733715666,
                    0.8250000000000001,
                    1e-7,
                    5e-324,
                    -0.0,
                    0.0,
                ],
            ]
        )
    ]
    # The threshold a headline shows (issue 30): every hull vertex with its next lower score,
    # awkward doubles with their neighbours, no lower score, and signs around 0.
    selecting_queries = [
        [float(t), float(lo)]
        for g in groups
        for _, clf in g
        for t, lo in zip(
            clf.hull["threshold"],
            next_lower_scores(clf.roc["threshold"].to_numpy(), clf.hull["threshold"].to_numpy()),
        )
    ]
    for x in xs:
        x = float(x)
        selecting_queries += [
            [x, float(np.nextafter(x, -np.inf))],
            [x, x - abs(x) / 3 - 1e-300],
            [x, float("nan")],
            [x, -float(np.float64(x) * 1.0000001)],
        ]
    payload = {
        "contract": page_contract(),
        "groups": payload_groups,
        "states": states,
        "pcf_queries": pcf_queries,
        "constraint_queries": constraint_queries,
        "format_queries": format_queries,
        "readable_queries": readable_queries,
        "selecting_queries": selecting_queries,
    }
    out = run_node(payload, node=node)
    return {
        "groups": groups,
        "states": states,
        "counters": counters,
        "out": out,
        "payload": payload,
        "pcf_queries": pcf_queries,
        "constraint_queries": constraint_queries,
        "format_queries": format_queries,
        "readable_queries": readable_queries,
        "selecting_queries": selecting_queries,
    }


@needs_node
def test_states_cover_the_edge_cases(parity):
    c = parity["counters"]
    assert len(parity["states"]) >= 1000
    for key, least in (
        ("breakpoint", 50),
        ("p0", 20),
        ("p1", 20),
        ("zero_cost", 100),
        ("np_vertex", 20),
        ("np_between", 20),
        ("wf_vertex", 20),
        ("wf_above_pos", 20),
    ):
        assert c[key] >= least, f"only {c[key]} states of kind {key}: {c}"
    kinds = {type(clf).__name__ for g in parity["groups"] for _, clf in g}
    assert kinds == {"Classifier"}


@needs_node
def test_states_agree_with_the_model(parity):
    groups, states, answers = parity["groups"], parity["states"], parity["out"]["states"]
    assert len(answers) == len(states)
    max_diff = {"nec": 0.0, "expected_cost": 0.0, "constrained_nec": 0.0}
    refused = 0
    message_differs = []
    for n, (s, js) in enumerate(zip(states, answers)):
        group = groups[s["group"]]
        py = model_answer(group, s)
        where = f"state {n}: {s}"
        if "error" in py:
            refused += 1
            assert "error" in js, f"{where}: the model refuses ({py['error']}), the module does not"
            continue
        assert "error" not in js, f"{where}: the module refuses: {js.get('error')}"
        decision = model_decision(group, s)
        assert js["pcf"] == py["pcf"], where
        for i, (op, jop) in enumerate(zip(py["ops"], js["best"])):
            # The optimal vertex and its threshold: exactly.
            assert same(jop["threshold"], op.threshold), f"{where}, classifier {i}: threshold"
            assert (jop["fpr"], jop["tpr"]) == (op.fpr, op.tpr), f"{where}, classifier {i}: vertex"
            d = abs(jop["nec"] - op.nec)
            max_diff["nec"] = max(max_diff["nec"], d, abs(jop["nec"] - py["nec"][i]))
            d = abs(js["expected_cost"][i] - py["operating"][i].expected_cost)
            max_diff["expected_cost"] = max(max_diff["expected_cost"], d)
            xa, ya, xb, yb = (float(v) for v in py["iso"][i])
            got = (
                js["iso_x"][2 * i],
                js["iso_y"][2 * i],
                js["iso_x"][2 * i + 1],
                js["iso_y"][2 * i + 1],
            )
            assert all(same(a, b) for a, b in zip(got, (xa, ya, xb, yb))), f"{where}: iso line {i}"
            assert (js["chosen_x"][i], js["chosen_y"][i]) == (op.fpr, op.tpr)
            assert js["nec_x"][i] == py["pcf"] and js["nec_y"][i] == jop["nec"]
            shown = group[i][0] in s["visible"]
            assert js["iso_opacities"][i] == (1.0 if shown else 0.0)
            cp, jcp = py["constrained"][i], js["constrained"][i]
            if cp is None:
                assert jcp is None, f"{where}: classifier {i} constrained only in the module"
                assert js["roc_points_opacities"][i] == 0.0
                continue
            for field in CP_FIELDS:
                agree = same_threshold if field in BOUNDED else same
                assert agree(jcp[field], getattr(cp, field)), (
                    f"{where}, classifier {i}: constrained {field} {jcp[field]!r} != {getattr(cp, field)!r}"
                )
            # Issue 31: the diamond and the dashed cost line are the decision's rule under the
            # constraint (the paper's point where the limit binds, the optimum where it does
            # not), as the widget's constraint tool draws them.
            rule = decision.of(group[i][0]).rule
            assert (js["roc_points"][0][i], js["roc_points"][1][i]) == (
                pytest.approx(rule.fpr, rel=1e-12, abs=1e-15),
                pytest.approx(rule.tpr, rel=1e-12, abs=1e-15),
            ), f"{where}: diamond {i}"
            assert js["cost_lines_y"][2 * i : 2 * i + 2] == pytest.approx(
                [rule.fpr, 1.0 - rule.tpr], rel=1e-12, abs=1e-15
            ), f"{where}: cost line {i}"
        # The constraint's message: how each rule is made, the widget's words.
        from costwidget.widget.tools.constraint import _made

        parts = [c for c in decision.classifiers] if s["constraint"] != "none" else []
        message = "".join(
            f"<li><b>{html.escape(c.name)}</b>: {html.escape(_made(c))}</li>" for c in parts
        )
        if message:
            message = (
                f"<details><summary>how each constrained rule is made</summary>"
                f"<ul>{message}</ul></details>"
            )
        if js["message_html"] != message:
            message_differs.append(n)
        # The winner's dot, drawn on top: the decision's chosen classifier at its rule's NEC,
        # none at a tie (the widget's operating tool).
        dot = js["winner_dot"]
        assert dot["visible"] == (decision.chosen is not None), where
        if decision.chosen is not None:
            assert dot["x"] == [py["pcf"]], where
            assert dot["y"] == [pytest.approx(decision.rule.nec, rel=1e-12, abs=1e-15)], where
            assert dot["colors"] == [s["colors"].get(decision.chosen, "#999999")], where
        assert js["operating_line"] == [[py["pcf"]] * 2, [0.0, 1.0]]
        assert js["constraint_on"] == (s["constraint"] != "none")
        assert all(
            same(a, b)
            for a, b in zip(
                js["roc_line"][0] + js["roc_line"][1],
                list(py["roc_line"][0]) + list(py["roc_line"][1]),
            )
        ), f"{where}: the constraint's line {js['roc_line']} != {py['roc_line']}"
        # The readout: the same rows, columns and values (strings exactly).
        assert [name for name, _ in js["rows"]] == [name for name, _ in py["rows"]], where
        for (name, jrow), (_, row) in zip(js["rows"], py["rows"]):
            assert set(jrow) == set(row), f"{where}: columns of {name}"
            for col, value in row.items():
                if col in ("nec", "expected_cost", "constrained_nec", "constrained_expected_cost"):
                    key = "constrained_nec" if col.startswith("constrained") else col
                    max_diff[key] = max(max_diff[key], abs(jrow[col] - value))
                else:
                    agree = same_threshold if col in BOUNDED else same
                    assert agree(jrow[col], value), (
                        f"{where}: {name}.{col} {jrow[col]!r} != {value!r}"
                    )
    for key, d in max_diff.items():
        assert d <= TOL, f"max |Δ{key}| = {d:.3g} over {len(states)} states"
    assert not message_differs, f"the constraint's message differs in states {message_differs[:10]}"
    assert refused < len(states) // 10
    print(
        f"\nparity: {len(states)} states ({refused} refused by both), max |Δ| {max_diff}, "
        f"edge cases {parity['counters']}, node {parity['out']['elapsed_ms']:.1f} ms"
    )


@needs_node
def test_readout_html_agrees_with_the_widget(parity):
    """The tables the page shows are the widget's, byte for byte (same columns, same values)."""
    readout = pytest.importorskip("costwidget.widget.text.readout")

    class _State:
        def __init__(self, s):
            self.__dict__.update(s)

    for n, (s, js) in enumerate(zip(parity["states"], parity["out"]["states"])):
        if "error" in js:
            continue
        py = model_answer(parity["groups"][s["group"]], s)
        assert js["readout_html"] == readout.readout_html(py["rows"], s["colors"]), f"state {n}"
        desc = readout.constraint_description(_State(s))
        assert js["description"] == desc, f"state {n}"
        assert js["constraint_html"] == readout.constraint_html(py["rows"], s["colors"], desc), (
            f"state {n}"
        )
        from costwidget.model import readable
        from costwidget.widget.text.headline import headline_html

        assert js["pcf_label"].startswith(f"PCF(+) = <b>{readable(py['pcf'])}</b>")
        text = model_decision(parity["groups"][s["group"]], s).headline
        assert js["headline"] == text, f"state {n}"
        assert js["headline_html"] == headline_html(text)


@needs_node
def test_each_mirror_row_agrees_by_itself(parity):
    """Every mirror row of costwidget/frontend/contract.py (MIRROR) called by itself in node, and
    its Python twin on the same arguments: the same doubles, the same words."""
    from costwidget.model.kernels.costs import cost_scale, iso_performance_slope
    from costwidget.widget.text.headline import headline_html
    from costwidget.widget.text.readout import (
        constraint_description,
        constraint_html,
        population_text,
        readout_html,
    )
    from costwidget.widget.tools.constraint import capacity_text
    from costwidget.widget.tools.operating_point import format_ratio, pcf_label

    class _State:
        def __init__(self, s):
            self.__dict__.update(s)

    checked = 0
    for n, (s, js) in enumerate(zip(parity["states"], parity["out"]["states"])):
        if "error" in js:
            continue
        d, where = js["direct"], f"state {n}: {s}"
        p, fn, fp = s["p_pos"], s["cost_fn"], s["cost_fp"]
        pcf = cw.probability_cost(p, fn, fp)
        rows = list(model_decision(parity["groups"][s["group"]], s).rows)
        assert d["probability_cost"] == pcf, where
        assert d["cost_scale"] == cost_scale(p, fn, fp), where
        assert same(d["iso_performance_slope"], iso_performance_slope(pcf)), where
        for got, b in zip(d["iso_performance_segment"], js["best"]):
            want = [float(v) for v in iso_performance_segment(b["fpr"], b["tpr"], pcf)]
            assert all(same(x, y) for x, y in zip(got, want)), where
        try:
            want = [float(v) for v in workforce_segment(s["capacity"], s["n_pos"], s["n_neg"])]
        except ValueError:
            want = "error"
        if want == "error" or d["workforce_segment"] == "error":
            assert d["workforce_segment"] == want, where
        else:
            assert all(same(x, y) for x, y in zip(d["workforce_segment"], want)), where
        assert d["readout_html"] == readout_html(rows, s["colors"]), where
        desc = constraint_description(_State(s))
        assert d["constraint_html"] == constraint_html(rows, s["colors"], desc), where
        assert d["population_text"] == population_text(_State(s)), where
        assert d["headline_html"] == headline_html(js["headline"]), where
        assert d["pcf_label"] == pcf_label(pcf, fn, fp), where
        assert d["format_ratio"] == format_ratio(fn, fp), where
        assert d["capacity_text"] == capacity_text(s["capacity"], s["n_pos"], s["n_neg"]), where
        checked += 1
    assert checked >= 1000


@needs_node
def test_breakpoints_and_ends_agree(parity):
    """clf.best at every envelope breakpoint, one ulp either side, and pcf 0 and 1: the tie rule."""
    for q, js in zip(parity["pcf_queries"], parity["out"]["pcf_queries"]):
        clf = parity["groups"][q["group"]][q["index"]][1]
        op = clf.best(q["pcf"])
        assert same(js["threshold"], op.threshold) and (js["fpr"], js["tpr"]) == (op.fpr, op.tpr), q
        assert js["nec"] == op.nec, q
    assert len(parity["pcf_queries"]) > 1000


@needs_node
def test_constraints_at_vertices_agree(parity):
    """Every hull vertex and every midpoint as a limit; workforce on the classifier's own totals."""
    for q, js in zip(parity["constraint_queries"], parity["out"]["constraint_queries"]):
        clf = parity["groups"][q["group"]][q["index"]][1]
        cp = (
            clf.neyman_pearson(q["limit"])
            if q["kind"] == "neyman_pearson"
            else clf.workforce(q["limit"])
        )
        for field in CP_FIELDS:
            agree = same_threshold if field in BOUNDED else same
            assert agree(js[field], getattr(cp, field)), (q, field, js[field], getattr(cp, field))
    kinds = [q["kind"] for q in parity["constraint_queries"]]
    assert kinds.count("neyman_pearson") > 200 and kinds.count("workforce") > 200


@needs_node
def test_readable_numbers_agree(parity):
    """model/kernels/readable.py and operating_point.mjs: the same text and the same rounded
    doubles."""
    from costwidget.model import readable, readable_value, round_significant

    for x, (text, value, sig3) in zip(
        parity["readable_queries"], parity["out"]["readable_queries"]
    ):
        assert text == readable(x), x
        assert value == readable_value(x) and sig3 == round_significant(x, 3), x
    assert len(parity["readable_queries"]) > 100


@needs_node
def test_selecting_thresholds_agree(parity):
    """model/kernels/readable.py selecting_threshold and operating_point.mjs selectingThreshold: the
    same text for every hull vertex of every classifier and for awkward doubles."""
    from costwidget.model.kernels.readable import selecting_threshold

    queries, answers = parity["selecting_queries"], parity["out"]["selecting_queries"]
    assert len(queries) == len(answers) > 500
    for (t, lo), text in zip(queries, answers):
        assert text == selecting_threshold(t, None if math.isnan(lo) else lo), (t, lo)


@needs_node
def test_deployed_thresholds_agree(parity):
    """model/kernels/readable.py deployed_threshold and threshold_text, and their twins
    deployedThreshold and thresholdText: the same float deployed, the same text shown, for every
    hull vertex with its next lower score and for awkward doubles."""
    from costwidget.model.kernels.readable import deployed_threshold, threshold_text

    queries, answers = parity["selecting_queries"], parity["out"]["deployed_queries"]
    assert len(queries) == len(answers) > 500
    as_float = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}
    for (t, lo), (value, text) in zip(queries, answers):
        want = deployed_threshold(t, None if math.isnan(lo) else lo)
        assert same(as_float.get(value, value), want), (t, lo)
        assert text == threshold_text(want), (t, lo)


@needs_node
def test_python_format_agrees(parity):
    for (x, spec), got in zip(parity["format_queries"], parity["out"]["format_queries"]):
        assert got == format(x, spec), (x, spec)


# ------------------------------------------------------------------------------ the decision
def model_decision(group, s):
    """``decide`` for state s over its visible classifiers (the page's shown ones)."""
    return _memo("decision", s, lambda: _model_decision(group, s))


def _model_decision(group, s):
    shown = set(s["visible"])
    kind = s["constraint"]
    return cw.decide(
        [c for n, c in group if n in shown],
        p_pos=s["p_pos"],
        cost_fn=s["cost_fn"],
        cost_fp=s["cost_fp"],
        constraint=kind,
        max_fpr=s["max_fpr"] if kind == "neyman_pearson" else None,
        capacity=s["capacity"] if kind == "workforce" else None,
        n_pos=s["n_pos"] if kind == "workforce" else None,
        n_neg=s["n_neg"] if kind == "workforce" else None,
    )


def _as_float(v):
    return (
        {"inf": math.inf, "-inf": -math.inf, None: math.nan}.get(v, v)
        if not isinstance(v, (int, float)) or isinstance(v, bool)
        else float(v)
    )


def decision_differences(py, js, path="", bounded=False):
    """Where two ``Decision.to_dict()`` values differ: floats beyond 1e-12 relative, anything
    else (strings, booleans, None, keys, lengths) at all. The best single threshold travels to 6
    significant digits (``single_varints``): it is held to ``same_threshold`` instead, as are a
    randomized rule's ``threshold`` (that single threshold)."""
    if isinstance(py, dict):
        if not isinstance(js, dict) or set(py) != set(js):
            return [f"{path}: keys {sorted(py)} != {sorted(js) if isinstance(js, dict) else js!r}"]
        out = []
        for k in py:
            b = k in BOUNDED or (k == "threshold" and py.get("randomized") is True)
            out += decision_differences(py[k], js[k], f"{path}.{k}", b)
        return out
    if isinstance(py, list):
        if not isinstance(js, list) or len(py) != len(js):
            return [f"{path}: {py!r} != {js!r}"]
        return [
            d
            for i, (a, b) in enumerate(zip(py, js))
            for d in decision_differences(a, b, f"{path}[{i}]", bounded)
        ]
    numeric = (isinstance(py, (int, float)) and not isinstance(py, bool)) or py in ("inf", "-inf")
    if bounded and (numeric or py is None):
        a, b = _as_float(py), _as_float(js)
        return [] if same_threshold(b, a) else [f"{path}: {js!r} != {py!r} (bounded)"]
    if isinstance(py, float) and isinstance(js, (int, float)) and not isinstance(js, bool):
        a, b = float(py), float(js)
        if a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b)):
            return []
        return [f"{path}: {js!r} != {py!r}"]
    if type(py) is not type(js) and not (isinstance(py, float) and isinstance(js, int)):
        return [f"{path}: {js!r} ({type(js).__name__}) != {py!r} ({type(py).__name__})"]
    return [] if py == js else [f"{path}: {js!r} != {py!r}"]


@needs_node
def test_the_decision_agrees_field_for_field(parity):
    """``decide`` in the page (js ``decide``, and the view's ``decision``) is Python's
    ``decide(...).to_dict()``: every field, floats to 1e-12 relative, strings exactly, on every
    state (non-binding and binding limits, ties, zero costs, p(+) at 0 and 1, single-point
    classifiers, sample weights), and both refuse the same states. The page's rows, headline
    and highlighted row are the decision's."""
    counts = {
        k: 0
        for k in (
            "states",
            "refused",
            "tie",
            "binding",
            "not binding",
            "randomized",
            "p0",
            "p1",
            "zero_cost",
            "constrained",
        )
    }
    for n, (s, js) in enumerate(zip(parity["states"], parity["out"]["states"])):
        group = parity["groups"][s["group"]]
        try:
            py = model_decision(group, s).to_dict()
        except ValueError:
            counts["refused"] += 1
            assert "error" in js, f"state {n}: the model refuses {s}, the page does not"
            continue
        assert "error" not in js, f"state {n}: the page refuses: {js.get('error')}"
        counts["states"] += 1
        diff = decision_differences(py, js["decision"])
        assert not diff, f"state {n}: {s}\n" + "\n".join(diff[:10])
        assert js["view_decision"] == js["decision"], f"state {n}: the view's decision"
        assert js["headline"] == py["headline"], f"state {n}"
        assert [r[0] for r in js["rows"]] == [r[0] for r in py["rows"]], f"state {n}"
        best = js["constraint_html" if s["constraint"] != "none" else "readout_html"]
        if py["chosen"] is None:
            assert "costwidget-best" not in best, f"state {n}"
        else:
            assert (
                best.count("costwidget-best") == 1
                and f"{html.escape(py['chosen'])}</td>"
                in best.split("costwidget-best")[1].split("</tr>")[0]
            ), f"state {n}: the highlighted row is not the chosen one"
        counts["tie"] += py["tie"]
        counts["constrained"] += s["constraint"] != "none"
        counts["binding"] += py["binding"] is True
        counts["not binding"] += py["binding"] is False
        counts["randomized"] += any(c["rule"]["randomized"] for c in py["classifiers"])
        counts["p0"] += s["p_pos"] == 0.0
        counts["p1"] += s["p_pos"] == 1.0
        counts["zero_cost"] += s["cost_fn"] == 0.0 or s["cost_fp"] == 0.0
    assert counts["states"] + counts["refused"] >= 2000, counts
    for key, least in (
        ("tie", 50),
        ("binding", 100),
        ("not binding", 100),
        ("randomized", 50),
        ("p0", 20),
        ("p1", 20),
        ("zero_cost", 100),
    ):
        assert counts[key] >= least, f"only {counts[key]} states of kind {key}: {counts}"
    kinds = {
        (
            "confusion"
            if c.n_pos is not None and len(c.roc) == 3 and math.isnan(c.roc["threshold"].iloc[1])
            else "other"
        )
        for g in parity["groups"]
        for _, c in g
    }
    assert "confusion" in kinds
    print(f"\ndecision parity: {counts}, node {parity['out']['elapsed_ms']:.1f} ms for all states")


# ------------------------------------------------------------------------------ the payload
def test_payload_is_binary_and_round_trips():
    clf = cw.Classifier.from_roc([0.1, 0.3], [0.5, 0.8], [0.7, 0.4], name="r")
    conf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="c")
    header, buffers = pack_classifiers([clf, conf])
    assert all(isinstance(b, bytes) for b in buffers)
    # from_roc has no counts: float64 arrays; from_confusion's single candidates: one varint buffer
    # (the hull's rates counted in cases are sent for per-case costs only)
    sent = [a for a in PAYLOAD_ARRAYS if not a.startswith("hull_counted_")]
    assert len(sent) == len(PAYLOAD_ARRAYS) - 2
    assert len(buffers) == 2 * len(sent) - len(SINGLE_ARRAYS) + 1
    assert "single" not in header["classifiers"][0] and "single" in header["classifiers"][1]
    text = json.dumps(header, allow_nan=False)  # the header holds no floats
    assert "inf" not in text.lower() and len(text) < 2000
    (n1, a1), (n2, a2) = unpack_classifiers(json.loads(text), buffers)
    assert (n1, n2) == ("r", "c")
    assert a1["hull_threshold"].tolist()[0] == math.inf and a1["hull_threshold"][-1] == -math.inf
    assert math.isnan(a2["hull_threshold"][1])
    assert math.isnan(a1["scalars"][0]) and math.isnan(a1["scalars"][1])  # from_roc: no totals
    for key, arr in classifier_arrays(conf).items():
        assert np.array_equal(a2[key], arr, equal_nan=True), key
        if key not in SINGLE_ARRAYS:
            spec = header["classifiers"][1]["arrays"][key]
            assert buffers[spec["buffer"]] == arr.astype("<f8").tobytes()


def test_single_candidates_hold_every_best_single_threshold():
    """The reduced ROC (first point of each TPR) gives the model's best single threshold."""
    rng = np.random.default_rng(3)
    for _ in range(30):
        y = _labels(rng, 60)
        clf = cw.Classifier.from_scores(y, rng.integers(0, 8, 60) + y)
        a = classifier_arrays(clf)
        assert len(a["single_tpr"]) == len(np.unique(clf.roc["tpr"]))
        for limit in np.linspace(0, 1, 11):
            cp = clf.neyman_pearson(limit)
            within = a["single_fpr"] <= limit
            j = np.flatnonzero(within)[np.argmax(a["single_tpr"][within])]
            assert (a["single_threshold"][j], a["single_fpr"][j], a["single_tpr"][j]) == (
                cp.single_threshold,
                cp.single_fpr,
                cp.single_tpr,
            )


@needs_node
def test_built_module_answers_the_same(parity, node):
    """costwidget/static/operating-point.js (minified by js/build.mjs) gives the source's answers."""
    built = ROOT / "costwidget" / "static" / "operating-point.js"
    if not built.exists():
        pytest.skip("costwidget/static/operating-point.js is not built (npm run build in js/)")
    out = run_node(parity["payload"], built, node=node)
    for key in ("states", "pcf_queries", "constraint_queries", "format_queries"):
        assert json.dumps(out[key]) == json.dumps(parity["out"][key]), key


@pytest.mark.slow  # the whole `node --test` suite (`npm test` runs it too)
@needs_node
def test_node_unit_tests_pass():
    """`npm test` in js/ (node --test): the closed forms, run here too so pytest alone catches them."""
    files = sorted(str(p) for p in (ROOT / "js" / "test").glob("*.test.mjs"))
    assert files, "no js/test/*.test.mjs"
    proc = subprocess.run(
        [NODE, "--test", *files], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


# The page glue's conversions (js/src/page_bind.mjs) against the model's, on random and edge
# inputs: the same doubles, and the same inputs refused (js/test/parity_runner.mjs "glue").


def _glue_model(kind, a, b, c, d):
    from costwidget.model.decisions.operating import (
        capacity_from_cases,
        capacity_to_cases,
        costs_for_pcf,
        costs_for_ratio,
        move_to_pcf,
        population_for,
        prevalence_for_pcf,
        snap_pcf,
    )

    try:
        if kind == "snap":
            return [snap_pcf(a)]
        if kind == "population":
            return list(population_for(a, b))
        if kind == "ratio":
            return list(costs_for_ratio(a, cost_fn=b, cost_fp=c))
        if kind == "pcf":
            return list(costs_for_pcf(a, p_pos=b, cost_fn=c, cost_fp=d))
        if kind == "prev":
            return [prevalence_for_pcf(a, cost_fn=c, cost_fp=d)]
        if kind in ("move", "exact"):
            return list(
                move_to_pcf(a, p_pos=b, cost_fn=c, cost_fp=d, digits=3 if kind == "move" else None)
            )
        if kind == "to":
            return [capacity_to_cases(a, b, n_pos=c, n_neg=d)]
        return [capacity_from_cases(a, b, n_pos=c, n_neg=d)]
    except ValueError:
        return "error"


def test_page_glue_conversions_agree_with_the_model(node):
    rng = np.random.default_rng(19)
    costs = lambda: float(rng.choice([0.0, 1.0, rng.uniform(0, 5), 10 ** rng.uniform(-8, 8)]))  # noqa: E731
    queries = []
    for _ in range(400):
        fn, fp = costs(), costs()
        if fn == fp == 0.0:
            fp = 1.0
        ratio = float(rng.choice([0.0, math.inf, rng.uniform(0, 3), 10 ** rng.uniform(-300, 300)]))
        queries.append(["ratio", ratio, fn, fp, 0.0])
        pcf = float(rng.choice([0.0, 1.0, rng.random(), 0.5]))
        p = float(rng.choice([0.0, 1.0, rng.random(), 0.001]))
        queries.append(["pcf", pcf, p, fn, fp])
        for kind in ("prev", "move", "exact"):  # issue 23: gestures and w.pcf move p(+)
            queries.append([kind, float(rng.choice([pcf, rng.random()])), p, fn, fp])
        n_pos, n_neg = float(rng.integers(0, 1000)), float(rng.integers(0, 1000))
        unit = str(rng.choice(["cases", "% flagged"]))
        queries.append(["to", float(rng.uniform(0, 120)), unit, n_pos, n_neg])
        queries.append(
            ["snap", float(rng.choice([rng.uniform(-0.2, 1.2), 0.0005, 0.9995])), 0, 0, 0]
        )
        queries.append(["population", p, float(rng.choice([n_pos + n_neg, 1e6, 0.0])), 0, 0])
        queries.append(["from", float(rng.uniform(0, 2000)), unit, n_pos, n_neg])
    got = node.ask({"task": "glue", "queries": queries}, "the page glue's conversions")
    for q, js in zip(queries, got):
        py = _glue_model(*q)
        if py == "error" or js == "error":
            assert py == js, (q, py, js)
        else:
            assert [float(v) for v in js] == py, (q, py, js)
