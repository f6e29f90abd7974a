"""The cost on new data in the widget (issue 32): ``w.show_honest`` and ``w.honest_strip``.

Every number is compared with the model computed independently in the test: the brute force of
``test_honest_cost`` (refit on the other folds, pool the confusion matrix), or
``cw.honest_cost`` called directly.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from test_honest_cost import brute_force

import costwidget as cw
from costwidget.export.snapshot_format import SnapshotError


def data(seed=0, n=150):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    folds = rng.integers(0, 4, n)
    scores = {
        name: np.round(rng.normal(size=n) + sep * y, 2)
        for name, sep in (("a", 1.0), ("b", 1.3), ("c", 0.8))
    }
    return y, folds, scores


@pytest.fixture
def widget():
    y, folds, scores = data()
    clfs = [cw.Classifier.from_scores(y, s, folds=folds, name=n) for n, s in scores.items()]
    w = cw.CostWidget(clfs, p_pos=0.4, cost_fn=1.0, cost_fp=1.5)
    yield w, y, folds, scores
    w.close()


def test_show_honest_draws_each_visible_classifiers_curve(widget):
    w, y, folds, scores = widget
    w.visible = ["a", "c"]
    w.show_honest = True
    w.wait(timeout=60)
    assert sorted(w.drawn_honest) == ["a", "c"]
    for i, name in enumerate(["a", "b", "c"]):
        mark = w.honest_layer.marks[i]
        assert mark.visible == (name != "b")
        if name == "b":
            continue
        want = cw.honest_cost(w.classifiers[i])
        np.testing.assert_array_equal(mark.x, want["pcf"])
        np.testing.assert_array_equal(mark.y[1], want["nec"])  # the honest edge
        np.testing.assert_array_equal(mark.y[0], want["envelope"])  # the envelope edge
        pd.testing.assert_frame_equal(w.drawn_honest[name][want.columns], want)
    w.show_honest = False
    assert w.drawn_honest == {} and not any(m.visible for m in w.honest_layer.marks)


def test_readout_headline_and_rule_carry_the_cost_on_new_data(widget):
    w, y, folds, scores = widget
    w.show_honest = True
    w.wait(timeout=60)
    pcf, scale = w.pcf, 0.4 * 1.0 + 0.6 * 1.5
    honest = {n: float(brute_force(y, s, folds, None, pcf)[0]) for n, s in scores.items()}
    table = w.readout
    for name, nec in honest.items():
        assert table.loc[name, "nec_honest"] == pytest.approx(nec, abs=1e-12)
        assert table.loc[name, "expected_cost_honest"] == pytest.approx(nec * scale, abs=1e-12)
    chosen = w.decision.chosen
    assert chosen == min(honest, key=honest.get)  # chosen on new data (issue 43)
    rule = w.decision_rule()
    assert rule.nec_honest == pytest.approx(honest[chosen], abs=1e-12)
    assert rule.to_dict()["nec_honest"] == pytest.approx(honest[chosen], abs=1e-12)
    words = f": {cw.model.readable(honest[chosen] * scale)} per case on new data"
    assert words in w.headline.text, w.headline.text
    assert "cost per case on new data" in w.readout_view.widget.value
    # Moving the operating point keeps them in step (no new background work is needed).
    w.p_pos = 0.2
    pcf, scale = w.pcf, 0.2 * 1.0 + 0.8 * 1.5
    want = float(brute_force(y, scores["b"], folds, None, pcf)[0])
    assert w.readout.loc["b", "nec_honest"] == pytest.approx(want, abs=1e-12)
    w.show_honest = False
    assert "nec_honest" not in w.readout.columns and "new data" not in w.headline.text
    assert "nec_honest" not in w.decision_rule().to_dict()


def test_to_frame_and_figure_show_the_curves(widget):
    w, *_ = widget
    w.show_honest = True
    frame = w.to_frame()["honest"]
    for clf in w.classifiers:
        want = cw.honest_cost(clf)
        got = frame[frame["classifier"] == clf.name].drop(columns="classifier")
        pd.testing.assert_frame_equal(got.reset_index(drop=True), want)
    fig = w.to_figure()
    cost_ax = fig.axes[1]
    dashed = [line for line in cost_ax.get_lines() if line.get_linestyle() == "--"]
    for clf in w.classifiers:
        want = cw.honest_cost(clf)["nec"].to_numpy()
        assert any(
            len(d.get_ydata()) == len(want) and np.array_equal(d.get_ydata(), want) for d in dashed
        ), clf.name
    assert "cost on new data" in [t.get_text() for t in fig.legends[0].get_texts()]


def test_snapshot_and_restore_keep_show_honest(widget):
    w, *_ = widget
    w.update(show_honest=True, honest_strip=True)
    snap = json.loads(json.dumps(w.snapshot()))
    assert snap["honest"] == {"show_honest": True, "honest_strip": True}
    assert "nec_honest" in snap["decision_rule"]
    w.update(show_honest=False, honest_strip=False)
    w.restore(snap)
    assert w.show_honest and w.honest_strip
    old = {k: v for k, v in snap.items() if k != "honest"}  # a snapshot from before issue 32
    w.restore(old)
    assert not w.show_honest and not w.honest_strip
    bad = {**snap, "honest": {"show_honest": "yes", "honest_strip": False}}
    with pytest.raises(SnapshotError, match="'honest.show_honest' must be true/false"):
        w.restore(bad)
    assert not w.show_honest  # unchanged


def test_strip_on_new_data_names_the_cheapest_honest_curve(widget):
    w, y, folds, scores = widget
    w.update(show_honest=True, honest_strip=True)
    w.wait(timeout=60)
    strip = w.classifier_layers.winner_strip
    colors = {v: k for k, v in w.colors.items()}
    for (lo, hi), color in zip(np.asarray(strip.x), strip.colors, strict=True):
        mid = (lo + hi) / 2
        costs = {"all negative": mid, "all positive": 1 - mid}
        costs.update({n: float(brute_force(y, s, folds, None, mid)[0]) for n, s in scores.items()})
        lowest = min(costs.values())
        want = {n for n, v in costs.items() if v <= lowest + 1e-12}
        got = colors.get(color, "trivial")
        assert got in want or (got == "trivial" and want & {"all negative", "all positive"}), (
            mid,
            got,
            costs,
        )
    w.honest_strip = False  # back to the envelopes' winners
    best = cw.combined_envelope(w.classifiers)
    np.testing.assert_array_equal(np.asarray(strip.x)[:, 0], best["pcf_lo"])


def test_honest_winners_agree_with_a_scan():
    rng = np.random.default_rng(1)
    curves = {}
    for name in "pqr":
        x = np.sort(np.r_[0.0, rng.random(6), 1.0])
        curves[name] = pd.DataFrame({"pcf": x, "nec": rng.random(len(x)) * 0.5})
    wins = cw.model.honest_winners(curves)
    assert wins["pcf_lo"].iloc[0] == 0 and wins["pcf_hi"].iloc[-1] == 1
    np.testing.assert_array_equal(wins["pcf_hi"].to_numpy()[:-1], wins["pcf_lo"].to_numpy()[1:])
    for t in np.linspace(0.001, 0.999, 997):
        values = {"all negative": t, "all positive": 1 - t}
        values.update({n: np.interp(t, c["pcf"], c["nec"]) for n, c in curves.items()})
        row = wins[(wins["pcf_lo"] <= t) & (wins["pcf_hi"] >= t)]
        lowest = min(values.values())
        assert any(values[n] <= lowest + 1e-9 for n in row["classifier"]), t


def test_no_scores_refused_at_once_and_state_unchanged():
    m = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="m")
    with cw.CostWidget([m]) as w:
        with pytest.raises(ValueError, match="needs each case's score"):
            w.show_honest = True
        assert not w.show_honest
    y, folds, scores = data()
    scored = cw.Classifier.from_scores(y, scores["a"], name="a")
    with cw.CostWidget([m, scored]) as w:  # mixed: only the scored one is drawn
        w.show_honest = True
        w.wait(timeout=60)
        assert list(w.drawn_honest) == ["a"]
        np.testing.assert_array_equal(
            w.drawn_honest["a"]["nec"], cw.honest_cost(scored, random_state=0)["nec"]
        )


def test_the_draw_row_has_the_new_data_boxes(widget):
    w, *_ = widget
    boxes = w.draw_controls.controls
    assert w.draw_controls.show_honest_box in boxes and w.draw_controls.honest_strip_box in boxes
    w.draw_controls.show_honest_box.value = True  # as a click
    assert w.show_honest
    w.wait(timeout=60)
    assert sorted(w.drawn_honest) == ["a", "b", "c"]


# ------------------------------------------------------------------------ the front end
def test_the_front_ends_decision_reads_the_honest_curves_as_python_does():
    """js ``decide`` with ``state.honest`` (the curves on screen, as the live link and the
    exported page send them) is Python's ``decide(..., honest=)``: field for field, the rows'
    honest columns, the headline and the readout's columns; at PCF(+) on and between the
    curves' breakpoints (jumps included) and under constraints."""
    from test_frontend_parity import NODE, _b64, decision_differences, run_node

    from costwidget.widget.output.frontend_payload import pack_classifiers

    if NODE is None:
        pytest.skip("node is not installed")
    y, folds, scores = data(seed=3, n=90)
    group = [(n, cw.Classifier.from_scores(y, s, folds=folds, name=n)) for n, s in scores.items()]
    curves = {n: cw.honest_cost(c) for n, c in group}
    header, buffers = pack_classifiers(group)
    knots = np.unique(np.concatenate([c["pcf"].to_numpy() for c in curves.values()]))
    pcfs = [0.0, 1.0, *knots[1:-1:7], *((knots[1:] + knots[:-1]) / 2)[::5]]
    states = []
    for i, x in enumerate(pcfs):
        constraint = ("none", "neyman_pearson", "workforce")[i % 3]
        shown = [n for j, (n, _) in enumerate(group) if (i + j) % 4 != 0]
        states.append(
            {
                "group": 0,
                "p_pos": float(x),
                "cost_fn": 1.0,
                "cost_fp": 1.0,
                "constraint": constraint,
                "max_fpr": 0.15,
                "capacity": 20.0,
                "n_pos": float(y.sum()),
                "n_neg": float((~y).sum()),
                "population_set": True,
                "visible": shown,
                "honest": {
                    n: {"pcf": c["pcf"].tolist(), "nec": c["nec"].tolist()}
                    for n, c in curves.items()
                    if n != "c" or i % 2
                },
            }
        )
    out = run_node(
        {
            "groups": [{"header": header, "buffers": _b64(buffers)}],
            "states": states,
            "pcf_queries": [],
            "constraint_queries": [],
            "format_queries": [],
            "readable_queries": [],
            "selecting_queries": [],
        }
    )
    said = 0
    for s, js in zip(states, out["states"], strict=True):
        shown = [c for n, c in group if n in s["visible"]]
        honest = {n: curves[n] for n in s["honest"] if n in s["visible"]}
        py = cw.decide(
            shown,
            p_pos=s["p_pos"],
            cost_fn=1.0,
            cost_fp=1.0,
            constraint=s["constraint"],
            max_fpr=s["max_fpr"] if s["constraint"] == "neyman_pearson" else None,
            capacity=s["capacity"] if s["constraint"] == "workforce" else None,
            n_pos=s["n_pos"] if s["constraint"] == "workforce" else None,
            n_neg=s["n_neg"] if s["constraint"] == "workforce" else None,
            honest=honest or None,
        ).to_dict()
        assert "error" not in js, js
        diff = decision_differences(py, js["decision"])
        assert not diff, f"{s['p_pos']}, {s['constraint']}: " + "\n".join(diff[:10])
        assert js["headline"] == py["headline"]
        assert ("cost per case on new data" in js["readout_html"]) == bool(honest)
        said += "on new data" in py["headline"]
    assert said >= 10, said
