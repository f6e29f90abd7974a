"""Headless widget tests: set state, assert the marks' data against independent computations."""

from __future__ import annotations

import subprocess
import sys

import brute
import brute_constraints as bc
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_curve

import costwidget as cw
from costwidget.widget import CostWidget

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture()
def data():
    rng = np.random.default_rng(3)
    y = rng.random(400) < 0.35
    return y, {
        "good": np.round(y * 1.5 + rng.normal(size=400), 2),
        "weak": np.round(y * 0.6 + rng.normal(size=400), 2),
    }


@pytest.fixture()
def w(data):
    y, scores = data
    return CostWidget.from_predictions(y, scores)


def _brute_best(clf, pcf):
    # Independent of the envelope code: evaluate every ROC point's cost line (eq. 8) directly.
    roc = clf.roc
    nec = (1 - roc.tpr - roc.fpr) * pcf + roc.fpr
    return nec.min()


def test_import_costwidget_does_not_load_widget_libraries():
    code = (
        "import sys, costwidget; assert 'bqplot' not in sys.modules, 'bqplot'; "
        "assert 'ipywidgets' not in sys.modules, 'ipywidgets'; costwidget.CostWidget; "
        "assert 'bqplot' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_default_prevalence_and_pcf(w, data):
    y, _ = data
    assert w.p_pos == pytest.approx(y.mean())
    w.p_pos, w.cost_fn, w.cost_fp = 0.2, 4.0, 1.0
    assert w.pcf == pytest.approx(0.2 * 4 / (0.2 * 4 + 0.8 * 1))
    w.pcf = 0.3  # issue 23: settable, moving p(+) and keeping the costs
    assert (w.cost_fn, w.cost_fp) == (4.0, 1.0) and abs(w.pcf - 0.3) <= 1e-12


@pytest.mark.parametrize(
    "p_pos, cost_fn, cost_fp", [(0.3, 1, 1), (0.1, 9, 1), (0.7, 1, 5), (0.5, 0, 1)]
)
def test_vertical_line_and_nec_marks(w, p_pos, cost_fn, cost_fp):
    w.state.set_costs(cost_fn, cost_fp)
    w.p_pos = p_pos
    pcf = p_pos * cost_fn / (p_pos * cost_fn + (1 - p_pos) * cost_fp)
    assert list(w.operating_tool.operating_line.x) == pytest.approx([pcf, pcf])
    for i, clf in enumerate(w.classifiers):
        assert w.operating_tool.nec_points.x[i] == pytest.approx(pcf)
        assert w.operating_tool.nec_points.y[i] == pytest.approx(_brute_best(clf, pcf), abs=1e-12)


@pytest.mark.parametrize("pcf_target", [0.05, 0.3, 0.5, 0.8, 0.97])
def test_iso_line_through_best_vertex_with_slope(w, pcf_target):
    w.p_pos = 0.5
    w.state.set_costs(pcf_target / (1 - pcf_target), 1.0)  # at p = 0.5, pcf = r / (1 + r)
    assert w.pcf == pytest.approx(pcf_target)
    p, cfn, cfp = w.p_pos, w.cost_fn, w.cost_fp
    slope = (1 - p) * cfp / (p * cfn)  # p(-)C(+|-) / (p(+)C(-|+))
    for i, clf in enumerate(w.classifiers):
        op = clf.best(w.pcf)
        (xa, xb), (ya, yb) = w.operating_tool.iso_lines.x[i], w.operating_tool.iso_lines.y[i]
        assert (yb - ya) / (xb - xa) == pytest.approx(slope, rel=1e-9)
        # the vertex lies on the segment
        assert ya + slope * (op.fpr - xa) == pytest.approx(op.tpr, abs=1e-9)
        assert (w.operating_tool.chosen.x[i], w.operating_tool.chosen.y[i]) == (op.fpr, op.tpr)
        # tangent: no ROC point lies above the line (iso-performance optimum)
        roc = clf.roc
        assert np.all(roc.tpr - (op.tpr + slope * (roc.fpr - op.fpr)) <= 1e-9)
        # the segment ends on the border of ROC space
        for x, y in ((xa, ya), (xb, yb)):
            assert min(x, y, 1 - x, 1 - y) == pytest.approx(0, abs=1e-12)


def test_readout_equals_model(w, data):
    w.p_pos, w.cost_fn, w.cost_fp = 0.25, 10.0, 2.0
    r = w.readout
    assert list(r.index) == ["good", "weak"]
    y, scores = data
    for name, s in scores.items():
        row = r.loc[name]
        # Independent: every ROC point from the raw scores (brute.py), its cost line at pcf.
        _thr, tp, fp = brute.roc_points(y, s)
        tpr, fpr = np.array(tp, float) / y.sum(), np.array(fp, float) / (~y).sum()
        nec = brute.envelope_min(fpr, tpr, w.pcf)[0]
        assert row.nec == pytest.approx(nec, abs=1e-12)
        # The row's point reaches that minimum, and its threshold, applied to the raw scores,
        # gives exactly that point.
        assert (1 - row.tpr - row.fpr) * w.pcf + row.fpr == pytest.approx(nec, abs=1e-12)
        tp_t, fp_t = brute.counts_at(y, s, row.threshold)
        assert (tp_t / y.sum(), fp_t / (~y).sum()) == (row.tpr, row.fpr)
        # expected cost per case in the user's units, straight from the rates
        fn_rate, fp_rate = 1 - row.tpr, row.fpr
        assert row.expected_cost == pytest.approx(
            0.25 * 10 * fn_rate + 0.75 * 2 * fp_rate, abs=1e-12
        )
        # Operating range in closed form (Drummond & Holte (2000), sec. 2.1): point k beats
        # both trivial lines for f/(t+f) < x < (1-f)/(2-t-f), when t > f.
        better = tpr > fpr
        lo = np.min(fpr[better] / (tpr[better] + fpr[better]))
        hi = np.max((1 - fpr[better]) / (2 - tpr[better] - fpr[better]))
        assert (row.range_lo, row.range_hi) == (
            pytest.approx(lo, abs=1e-12),
            pytest.approx(hi, abs=1e-12),
        )
    best = r.expected_cost.idxmin()
    assert "costwidget-best" in w.readout_view.widget.value.split(best)[0].rsplit("<tr", 1)[1]


def test_neyman_pearson_marks(w, data):
    w.constraint = "neyman_pearson"
    w.max_fpr = 0.15
    assert w.constraint_tool.roc_line.visible and list(w.constraint_tool.roc_line.x) == [0.15, 0.15]
    r = w.readout
    y, scores = data
    for i, clf in enumerate(w.classifiers):
        cp = clf.neyman_pearson(0.15)
        # The paper's point by brute force over every ROC point and two-point mix (sec. 2.2.2).
        fpr, tpr = bc.paper_point(bc.roc_rates(y, scores[clf.name]), bc.neyman_pearson_load, 0.15)
        assert (cp.fpr, cp.tpr) == (
            pytest.approx(float(fpr), abs=1e-12),
            pytest.approx(float(tpr), abs=1e-12),
        )
        assert cp.fpr <= 0.15 + 1e-12
        # Issue 31: the diamond and the cost line show the rule deployed under the constraint:
        # the paper's point where the limit binds, the unconstrained optimum where it does not.
        rule = w.decision_rule(clf.name)
        assert rule.fpr <= 0.15 + 1e-12
        if rule.binding:
            assert (rule.fpr, rule.tpr) == (cp.fpr, cp.tpr)
        else:  # costs what the optimum costs
            assert rule.nec == pytest.approx(clf.best(w.pcf).nec, abs=1e-12)
        assert (w.constraint_tool.roc_points.x[i], w.constraint_tool.roc_points.y[i]) == (
            rule.fpr,
            rule.tpr,
        )
        # cost line of the rule: NEC = (1 - TPR - FPR) x + FPR
        assert list(w.constraint_tool.cost_lines.y[i]) == pytest.approx([rule.fpr, 1 - rule.tpr])
        assert r.loc[clf.name, "constrained_tpr"] == rule.tpr
        if rule.randomized:
            assert "with prob." in r.loc[clf.name, "constrained_rule"]
    w.constraint = "none"
    assert not w.constraint_tool.roc_line.visible and "constrained_tpr" not in w.readout


def test_workforce_marks_eq14(w, data):
    w.constraint = "workforce"
    n_pos, n_neg = w.n_pos, w.n_neg
    w.capacity = 100.0
    xa, xb = w.constraint_tool.roc_line.x
    ya, yb = w.constraint_tool.roc_line.y
    for x, y in ((xa, ya), (xb, yb)):  # the line TPR·P + FPR·N = capacity
        assert y * n_pos + x * n_neg == pytest.approx(100.0)
    labels, scores = data
    for i, clf in enumerate(w.classifiers):
        cp = clf.workforce(100.0, n_pos=n_pos, n_neg=n_neg)
        # The paper's point by brute force (eq. 12): the largest TPR flagging <= 100 cases.
        fpr, tpr = bc.paper_point(
            bc.roc_rates(labels, scores[clf.name]), bc.workforce_load(n_pos, n_neg), 100.0
        )
        assert (cp.fpr, cp.tpr) == (
            pytest.approx(float(fpr), abs=1e-12),
            pytest.approx(float(tpr), abs=1e-12),
        )
        assert cp.tpr * n_pos + cp.fpr * n_neg <= 100.0 + 1e-9
        # Issue 31: the marks show the rule deployed: the paper's point where the limit binds,
        # the unconstrained optimum where it does not.
        rule = w.decision_rule(clf.name)
        assert rule.tpr * n_pos + rule.fpr * n_neg <= 100.0 + 1e-9
        if not rule.binding:  # costs what the optimum costs
            assert rule.nec == pytest.approx(clf.best(w.pcf).nec, abs=1e-12)
            assert (w.constraint_tool.roc_points.x[i], w.constraint_tool.roc_points.y[i]) == (
                rule.fpr,
                rule.tpr,
            )
            assert list(w.constraint_tool.cost_lines.y[i]) == pytest.approx(
                [rule.fpr, 1 - rule.tpr]
            )
            continue
        assert (w.constraint_tool.roc_points.x[i], w.constraint_tool.roc_points.y[i]) == (
            cp.fpr,
            cp.tpr,
        )
        # eq. 14: on the workforce line TPR = (C - FPR·N)/P, so the cost line is
        # NEC(x) = (1 - (C - FPR·N)/P - FPR) x + FPR
        tpr14 = (100.0 - cp.fpr * n_neg) / n_pos if cp.binding else cp.tpr
        assert list(w.constraint_tool.cost_lines.y[i]) == pytest.approx([cp.fpr, 1 - tpr14])
    # capacity as % flagged
    w.constraint_tool.capacity_unit.value = "% flagged"
    assert w.constraint_tool.capacity.value == pytest.approx(100 * 100.0 / (n_pos + n_neg))
    w.constraint_tool.capacity.value = 10.0
    assert w.capacity == pytest.approx(0.1 * (n_pos + n_neg))


def test_controls_stay_in_sync_both_ways(w):
    c = w.operating_tool
    w.p_pos = 0.4
    assert c.p_pos.value == pytest.approx(0.4)
    c.p_pos.value = 0.3
    assert w.p_pos == pytest.approx(0.3)
    c.log_ratio.value = 4.0
    assert w.cost_fn / w.cost_fp == pytest.approx(4.0) and c.cost_fn.value == w.cost_fn
    c.cost_fp.value = 2.0
    # The slider shows the ratio on its grid (steps of 0.01 in log10); the state keeps it exact.
    assert c.log_ratio.value == pytest.approx(10 ** round(np.log10(w.cost_fn / 2.0), 2))
    assert w.cost_fn / w.cost_fp == pytest.approx(2.0)
    assert f"{w.pcf:.4f}" in c.pcf.value


@pytest.mark.parametrize("control, value", [("cost_fn", -1.0), ("cost_fp", -0.5)])
def test_invalid_control_input_refused(w, control, value):
    before = (w.p_pos, w.cost_fn, w.cost_fp, list(w.operating_tool.operating_line.x))
    getattr(w.operating_tool, control).value = value
    assert (w.p_pos, w.cost_fn, w.cost_fp, list(w.operating_tool.operating_line.x)) == before
    assert "refused" in w.errors.message and "&gt;= 0" in w.errors.message
    assert getattr(w.operating_tool, control).value == getattr(
        w, control
    )  # control shows the state


def test_both_costs_zero_refused(w):
    w.operating_tool.cost_fp.value = 0.0
    before = (w.cost_fn, w.cost_fp)
    w.operating_tool.cost_fn.value = 0.0
    assert (w.cost_fn, w.cost_fp) == before == (1.0, 0.0)
    assert "both 0" in w.errors.message
    with pytest.raises(
        ValueError, match="cost_fn and cost_fp are both 0: .* Give at least one cost > 0"
    ):
        w.cost_fn = 0.0  # from Python too


def _click_bar(w, index):
    """What bqplot sends when the user clicks bar ``index`` in the browser."""
    w.operating_tool.click_bars._handle_custom_msgs(
        None, {"event": "element_click", "data": {"index": index}}
    )


def test_click_in_cost_pane_moves_p_pos_and_keeps_the_costs(w):
    w.p_pos = 0.2
    bars = w.operating_tool.click_bars
    marks = w.figures.cost.marks
    # Transparent, above every filled area, below every hoverable dot.
    assert bars.opacities == [0.0]
    assert marks.index(bars) > max(
        marks.index(m)
        for m in [w.figures.never_use, *w.band_layer.marks, *w.fold_spread_layer.marks]
    )
    assert marks.index(bars) < min(marks.index(m) for m in w.classifier_layers.segment_hover)
    index = int(np.flatnonzero(np.isclose(w.operating_tool.click_pcf, 0.6))[0])
    costs = (w.cost_fn, w.cost_fp)
    _click_bar(w, index)
    assert (w.cost_fn, w.cost_fp) == costs  # issue 23: the click moves p(+), not a cost
    assert w.p_pos == pytest.approx(0.6)  # equal costs: PCF(+) = p(+)
    assert w.pcf == pytest.approx(0.6)
    assert list(w.operating_tool.operating_line.x) == pytest.approx([0.6, 0.6])
    assert list(w.operating_tool.handle.x) == pytest.approx([0.6])


def test_dragging_the_handle_moves_the_operating_point_without_loops(w):
    w.p_pos = 0.3
    changes = []
    w.observe(lambda c: changes.append(c["new"]), names=["pcf"])
    handle = w.operating_tool.handle
    # The browser drags the handle: bqplot sends drag_start, drag (pointer x) and drag_end.
    handle._handle_custom_msgs(
        None, {"event": "drag_start", "point": {"x": w.pcf, "y": 0.025}, "index": 0}
    )
    handle._handle_custom_msgs(None, {"event": "drag", "point": {"x": 0.4, "y": 0.025}, "index": 0})
    x_while_dragging = list(handle.x)
    handle._handle_custom_msgs(
        None, {"event": "drag", "point": {"x": 0.25, "y": 0.025}, "index": 0}
    )
    assert list(handle.x) == x_while_dragging  # the browser owns the handle while it drags
    handle._handle_custom_msgs(
        None, {"event": "drag_end", "point": {"x": 0.25, "y": 0.025}, "index": 0}
    )
    assert w.pcf == pytest.approx(0.25) and (w.cost_fn, w.cost_fp) == (1.0, 1.0)  # p(+) moved
    assert list(handle.x) == pytest.approx([0.25])  # the drop point, once the drag ends
    assert changes == [pytest.approx(0.4), pytest.approx(0.25)]  # the drop repeats no change
    w.cost_fn = 2.0  # from Python: the handle follows
    assert list(w.operating_tool.handle.x) == pytest.approx([w.pcf])


def test_observer_exception_is_shown_and_last_state_kept(w, monkeypatch):
    w.p_pos = 0.3
    marks_before = (
        np.array(w.operating_tool.iso_lines.x).copy(),
        list(w.operating_tool.operating_line.x),
    )
    html_before = w.readout_view.widget.value

    def boom(pcf):
        raise RuntimeError("model exploded <b>here</b>")

    monkeypatch.setattr(w.classifiers[1], "best", boom)
    with pytest.raises(RuntimeError, match="exploded"):  # from Python the failure is raised too
        w.p_pos = 0.6
    assert "model exploded &lt;b&gt;here&lt;/b&gt;" in w.errors.message
    assert "<b>here" not in w.errors.message
    assert np.array_equal(np.array(w.operating_tool.iso_lines.x), marks_before[0])
    assert list(w.operating_tool.operating_line.x) == marks_before[1]
    assert w.readout_view.widget.value == html_before
    assert w.p_pos == pytest.approx(0.3) and w.operating_tool.p_pos.value == pytest.approx(0.3)
    monkeypatch.undo()
    w.p_pos = 0.5
    assert w.errors.message == ""


def test_names_are_escaped_everywhere_in_html(data):
    y, scores = data
    w = CostWidget.from_predictions(y, {XSS: scores["good"], "ok": scores["weak"]})
    w.constraint = "neyman_pearson"
    w.hover_tool.show(w._ctx.drawings[0], 1)
    for html_widget in (
        w.readout_view.widget,
        w.constraint_tool.message,
        w.hover_tool.info,
        w.errors.widget,
    ):
        assert "<img" not in html_widget.value
    assert "&lt;img src=x onerror=alert(1)&gt;" in w.readout_view.widget.value
    assert XSS in w.readout.index


def _check_best_of(w, names):
    """The best-of-all line and the winner strip against brute force over the shown models."""
    layers = w.classifier_layers
    x, y = np.asarray(layers.combined.x), np.asarray(layers.combined.y)
    necs = {
        n: np.array([_brute_best(w.classifiers[i], xi) for xi in x])
        for i, n in enumerate(["good", "weak"])
        if n in names
    }
    trivial = np.minimum(x, 1 - x)
    np.testing.assert_allclose(
        y, np.minimum(np.min(list(necs.values()), axis=0), trivial), atol=1e-12
    )
    colors = {d.name: d.color for d in w._ctx.drawings}
    for (lo, hi), color in zip(
        np.asarray(layers.winner_strip.x).reshape(-1, 2), layers.winner_strip.colors
    ):
        mid = 0.5 * (lo + hi)
        costs = {n: _brute_best(w.classifiers[["good", "weak"].index(n)], mid) for n in names}
        winner = min(costs, key=costs.get)
        if costs[winner] < min(mid, 1 - mid) - 1e-12:
            assert color == colors[winner], f"strip [{lo}, {hi}] coloured {color}"


def test_picker_recomputes_combined_envelope(w):
    _check_best_of(w, ["good", "weak"])
    w.classifier_layers.picker["good"].value = False
    assert w.visible == ["weak"]
    _check_best_of(w, ["weak"])
    assert list(w.readout.index) == ["weak"]
    assert not w.classifier_layers.envelopes[0].visible
    with pytest.raises(ValueError, match="unknown"):
        w.visible = ["nope"]


def test_hover_highlights_cost_line(w):
    d = w._ctx.drawings[0]
    w.hover_tool.show(d, 1)
    f, t = d.hull_fpr[1], d.hull_tpr[1]
    assert list(w.hover_tool.cost_highlight.y) == pytest.approx([f, 1 - t])
    assert (w.hover_tool.roc_highlight.x[0], w.hover_tool.roc_highlight.y[0]) == (f, t)
    assert "threshold" in w.hover_tool.info.value and "NEC" in w.hover_tool.info.value


def test_drawn_curves_thinned_hulls_exact():
    rng = np.random.default_rng(0)
    y = rng.random(20_000) < 0.5
    noise = rng.normal(size=20_000)
    clf = cw.Classifier.from_scores(y, y + noise, name="big")
    w = CostWidget([clf])
    layers = w.classifier_layers
    # Independent: the ROC counts from sklearn, the hull by an exact integer monotone chain.
    fpr, tpr, _ = roc_curve(y, y + noise, drop_intermediate=False)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    fp, tp = np.rint(fpr * n_neg).astype(int), np.rint(tpr * n_pos).astype(int)
    assert len(fpr) > 2000 and 2 <= len(layers.roc_curves[0].x) <= 2000
    # The thinned curve keeps both ends and only real ROC points.
    drawn = set(
        zip(
            np.rint(np.asarray(layers.roc_curves[0].x) * n_neg).astype(int),
            np.rint(np.asarray(layers.roc_curves[0].y) * n_pos).astype(int),
        )
    )
    assert drawn <= set(zip(fp, tp)) and {(0, 0), (n_neg, n_pos)} <= drawn
    hull = brute.monotone_chain_hull(fp, tp)
    np.testing.assert_allclose(layers.hull_lines[0].x, fp[hull] / n_neg, rtol=0, atol=1e-15)
    np.testing.assert_allclose(layers.hull_lines[0].y, tp[hull] / n_pos, rtol=0, atol=1e-15)
    # The envelope drawn: at its breakpoints, the minimum of every ROC point's cost line.
    ex = np.asarray(layers.envelopes[0].x)
    np.testing.assert_allclose(layers.envelopes[0].y, brute.envelope_min(fpr, tpr, ex), atol=1e-12)


def test_constructors(data):
    y, scores = data
    frame = pd.DataFrame(
        {
            "label": np.tile(y, 2),
            "score": np.concatenate(list(scores.values())),
            "model": np.repeat(list(scores), len(y)),
        }
    )
    a = CostWidget.from_frame(frame)
    b = CostWidget.from_predictions(y, scores)
    pd.testing.assert_frame_equal(a.readout, b.readout)
    with pytest.raises(ValueError, match="no column"):
        CostWidget.from_frame(frame, y_true="y")
    folded = frame.assign(fold=np.tile(np.arange(len(y)) % 3, 2))
    c = CostWidget.from_frame(folded, fold="fold")
    for clf, s in zip(c.classifiers, scores.values()):
        # Each fold is the classifier of its own rows: its ROC points are sklearn's on them.
        for k, fold_clf in clf.folds.items():
            rows = np.arange(len(y)) % 3 == k
            fpr, tpr, _ = roc_curve(y[rows], s[rows], drop_intermediate=False)
            np.testing.assert_allclose(fold_clf.roc.fpr, fpr, atol=1e-15)
            np.testing.assert_allclose(fold_clf.roc.tpr, tpr, atol=1e-15)
        assert sorted(clf.folds) == [0, 1, 2]
    with pytest.raises(TypeError, match="Classifier"):
        CostWidget([object()])


def test_from_estimators():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.svm import LinearSVC

    from costwidget.datasets import load_dataset

    X, yv = load_dataset("sonar")
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    models = [
        LogisticRegression(max_iter=500),
        LogisticRegression(C=0.05, max_iter=500),
        LinearSVC(),
    ]
    for pos in ("M", "R"):  # decision_function scores must follow pos_label, either way
        w = CostWidget.from_estimators(models, X, yv, cv=cv, pos_label=pos)
        assert list(w.readout.index) == [
            "LogisticRegression",
            "LogisticRegression (2)",
            "LinearSVC",
        ]
        is_pos = np.asarray(yv) == pos
        for name, est in zip(w.readout.index, models):
            # Independent scores of the positive class, from sklearn's own cross_val_predict.
            if hasattr(est, "predict_proba"):
                proba = cross_val_predict(est, X, yv, cv=cv, method="predict_proba")
                score = proba[:, list(np.unique(yv)).index(pos)]
            else:
                score = cross_val_predict(est, X, yv, cv=cv, method="decision_function")
                score = score if pos == np.unique(yv)[1] else -score
            _thr, tp, fp = brute.roc_points(is_pos, score)
            nec = brute.envelope_min(
                np.array(fp, float) / (~is_pos).sum(), np.array(tp, float) / is_pos.sum(), w.pcf
            )[0]
            assert w.readout.loc[name, "nec"] == pytest.approx(nec, abs=1e-9)
    with pytest.raises(ValueError, match="pos_label"):
        CostWidget.from_estimators(models[:1], X, yv, cv=cv, pos_label="X")


def test_demo():
    from costwidget.datasets import load_demo_scores

    w = cw.demo()
    s = load_demo_scores("german_credit")
    assert w.p_pos == pytest.approx((s[s.model == s.model.iloc[0]].label == "Bad").mean())
    w.cost_fn = 5.0  # German credit's cost matrix
    # Every bundled model is shown, with the NEC of brute force over its own ROC points.
    assert sorted(w.readout.index) == sorted(s.model.unique())
    for model, rows in s.groupby("model"):
        is_bad = (rows.label == "Bad").to_numpy()
        _thr, tp, fp = brute.roc_points(is_bad, rows.score.to_numpy())
        nec = brute.envelope_min(
            np.array(fp, float) / (~is_bad).sum(), np.array(tp, float) / is_bad.sum(), w.pcf
        )[0]
        assert w.readout.loc[model, "nec"] == pytest.approx(nec, abs=1e-12)


def test_sliders_show_the_state_on_their_grid_and_every_move_counts(w):
    op = w.operating_tool
    # Pushed as the browser can show it (on the step grid, in range), so the browser never
    # snaps a value and sends it back late; the state keeps its exact value.
    w.p_pos = 0.12345
    assert op.p_pos.value == 0.123 and w.p_pos == 0.12345
    w.cost_fn = 5.0
    assert op.log_ratio.value == pytest.approx(10**0.7, rel=1e-12) and w.cost_fn == 5.0
    w.p_pos = 0.0004  # below the slider's range: the slider shows its minimum
    assert op.p_pos.value == op.p_pos.min and w.p_pos == 0.0004
    for value, slider in ((op.p_pos.value, op.p_pos), (np.log10(op.log_ratio.value), op.log_ratio)):
        steps = (value - slider.min) / slider.step
        assert abs(steps - round(steps)) < 1e-9
    # Every value that comes back is a user's move, also a return to a value shown before
    # (a key press back to 0.300 was once swallowed as an "echo").
    w.p_pos = 0.3
    op.p_pos.value = 0.301
    assert w.p_pos == 0.301
    op.p_pos.value = 0.3
    assert w.p_pos == 0.3
    op.log_ratio.value = 10.0
    assert w.cost_fn / w.cost_fp == pytest.approx(10.0)


def test_band_toggle_draws_model_bands(w, data):
    y, scores = data
    assert w.show_bands_box is not None  # the model offers Classifier.band
    assert not any(m.visible for m in w.band_layer.marks)
    w.band_level = 0.8
    w.show_bands = True
    assert w.busy  # computed in the background; the kernel is free meanwhile
    w.wait(timeout=120)
    assert not w.busy
    # Recomputed from the raw scores on fresh classifiers, which share no cache with the widget's.
    fresh = {n: cw.Classifier.from_scores(y, s) for n, s in scores.items()}
    for clf, mark in zip(fresh.values(), w.band_layer.marks):
        band = clf.band(0.8, interval="basic", random_state=0)
        assert mark.visible
        assert np.array_equal(mark.x, np.linspace(0, 1, 512))
        assert np.array_equal(mark.y[0], band.lower.to_numpy())
        assert np.array_equal(mark.y[1], band.upper.to_numpy())
    lower_80, upper_80 = (np.array(v) for v in w.band_layer.marks[0].y)
    w.band_level_slider.value = 0.95
    assert w.band_level == 0.95
    w.wait(timeout=120)
    lower_95, upper_95 = (np.array(v) for v in w.band_layer.marks[0].y)
    np.testing.assert_array_equal(
        upper_95, fresh["good"].band(0.95, interval="basic", random_state=0).upper
    )
    # Percentile bands of the same replicates nest: the 95 % band holds the 80 % one.
    assert (lower_95 <= lower_80).all() and (upper_80 <= upper_95).all()
    assert (upper_95 - lower_95 > upper_80 - lower_80).any()
    w.classifier_layers.picker["weak"].value = False
    assert w.band_layer.marks[0].visible and not w.band_layer.marks[1].visible
    w.show_bands = False
    assert not any(m.visible for m in w.band_layer.marks)


@pytest.fixture()
def folded(data):
    """Both models scored on the same 400 cases in the same order, with 4 folds."""
    y, scores = data
    fold = np.arange(len(y)) % 4
    frame = pd.DataFrame(
        {
            "label": np.tile(y, 2),
            "score": np.concatenate(list(scores.values())),
            "model": np.repeat(list(scores), len(y)),
            "fold": np.tile(fold, 2),
            "row": np.tile(np.arange(len(y)), 2),
        }
    )
    return CostWidget.from_frame(frame, fold="fold", instance="row"), y, scores, fold


def test_fold_spread_band_is_min_and_max_of_the_fold_envelopes(folded):
    w, y, scores, fold = folded
    assert w.show_fold_spread_box is not None
    assert not any(m.visible for m in w.fold_spread_layer.marks)
    w.show_fold_spread_box.value = True
    assert w.show_fold_spread
    w.wait(timeout=120)
    for s, mark in zip(scores.values(), w.fold_spread_layer.marks):
        assert mark.visible
        x = np.asarray(mark.x)
        # Independent: each fold's envelope as the minimum over its own ROC points' cost lines.
        folds = [cw.Classifier.from_scores(y[fold == k], s[fold == k]) for k in range(4)]
        necs = [[_brute_best(clf, xi) for xi in x] for clf in folds]
        np.testing.assert_allclose(mark.y[0], np.min(necs, axis=0), atol=1e-12)
        np.testing.assert_allclose(mark.y[1], np.max(necs, axis=0), atol=1e-12)
    w.classifier_layers.picker["weak"].value = False
    assert w.fold_spread_layer.marks[0].visible and not w.fold_spread_layer.marks[1].visible
    w.show_fold_spread = False
    assert not any(m.visible for m in w.fold_spread_layer.marks)


def test_fold_spread_without_folds_is_refused_visibly(w):
    assert w.show_fold_spread_box is None  # no classifier has folds: no checkbox
    with pytest.raises(ValueError, match="no visible classifier has folds"):
        w.show_fold_spread = True
    assert "no visible classifier has folds" in w.errors.message
    assert not w.show_fold_spread and not any(m.visible for m in w.fold_spread_layer.marks)


def test_difference_view_draws_paired_band_and_significant_intervals(folded):
    w, y, scores, _ = folded
    fig, row = w.difference_view.figure, w.difference_view.widget
    # Not even in the layout while off: a bqplot figure drawn hidden logs browser errors.
    assert row.children == () and w.difference_band is None
    w.difference_view.name_a.value, w.difference_view.name_b.value = "weak", "good"
    w.difference_view.show.value = True
    w.wait(timeout=120)
    assert w.difference == ["weak", "good"] and row.children[0] is fig
    x = np.asarray(w.difference_view.line.x)
    # The drawn difference is NEC_weak − NEC_good, each the minimum over every ROC point's line.
    nec = {n: np.array([_brute_best(c, xi) for xi in x]) for n, c in zip(scores, w.classifiers)}
    np.testing.assert_allclose(w.difference_view.line.y, nec["weak"] - nec["good"], atol=1e-12)
    # Recomputed on fresh classifiers from the raw scores (no cache shared with the widget's).
    fresh = {
        n: cw.Classifier.from_scores(y, s, folds=np.arange(len(y)) % 4) for n, s in scores.items()
    }
    band = cw.difference_band(fresh["weak"], fresh["good"], 0.9, random_state=0)
    np.testing.assert_array_equal(w.difference_view.band.y[0], band.lower)
    np.testing.assert_array_equal(w.difference_view.band.y[1], band.upper)
    # The good model is clearly better somewhere: a significant run, coloured as "good".
    intervals = w.difference_intervals
    assert len(intervals) >= 1 and (intervals.sign > 0).any()
    seg = np.asarray(w.difference_view.significant.x).reshape(-1, 2)  # bqplot squeezes one line
    assert w.difference_view.significant.visible and len(seg) == len(intervals)
    good_color = w._ctx.drawings[0].color
    for (lo, hi), sign, color in zip(seg, intervals.sign, w.difference_view.significant.colors):
        inside = (band.pcf >= lo) & (band.pcf <= hi)
        assert inside.any()
        assert ((band.lower[inside] > 0) if sign > 0 else (band.upper[inside] < 0)).all()
        assert color == (good_color if sign > 0 else w._ctx.drawings[1].color)
    assert "<b>good</b> costs less" in w.difference_view.caption.value
    # A lower level gives a band no wider, from the same cached replicates.
    width_90 = np.subtract(*w.difference_view.band.y[::-1])
    w.band_level = 0.6
    w.wait(timeout=120)
    width_60 = np.subtract(*w.difference_view.band.y[::-1])
    assert (width_60 <= width_90 + 1e-15).all() and (width_60 < width_90).any()
    # The operating line follows the operating point.
    w.p_pos = 0.2
    assert list(w.difference_view.operating_line.x) == [w.pcf, w.pcf]
    w.difference_view.show.value = False
    assert w.difference == [] and row.children == () and w.difference_band is None


def test_difference_view_refuses_bad_pairs_and_keeps_state(folded, data):
    w = folded[0]
    w.difference = ["good", "weak"]
    w.wait(timeout=120)
    before = w.difference_view.line.y.copy()
    with pytest.raises(ValueError, match="two different"):
        w.difference = ["good", "good"]
    with pytest.raises(ValueError, match="unknown"):
        w.difference = ["good", "nope"]
    # From the controls, picking the other side's model swaps the pair (issue 23): no error,
    # and the band is the old one negated (the same draws, tests/test_difference_symmetry.py).
    w.difference_view.name_b.value = "good"
    assert w.errors.message == ""
    assert w.difference == ["weak", "good"]
    assert (w.difference_view.name_a.value, w.difference_view.name_b.value) == ("weak", "good")
    w.wait(timeout=120)
    np.testing.assert_allclose(w.difference_view.line.y, -before, rtol=0, atol=1e-15)
    w.difference_view.name_a.value = "good"
    assert w.difference == ["good", "weak"]
    w.wait(timeout=120)
    np.testing.assert_allclose(w.difference_view.line.y, before, rtol=0, atol=1e-15)
    # Models scored on different cases cannot be paired: the error shows, the view stays off.
    y, scores = data
    other = cw.Classifier.from_scores(y[::-1], scores["weak"], name="other")
    v = CostWidget([cw.Classifier.from_scores(y, scores["good"], name="good"), other])
    with pytest.raises(ValueError, match="same instances"):
        v.difference = ["good", "other"]
    assert "same instances" in v.errors.message
    assert v.difference == [] and v.difference_view.widget.children == ()


def test_difference_caption_escapes_names(data):
    y, scores = data
    w = CostWidget.from_predictions(y, {XSS: scores["good"], "ok": scores["weak"]})
    w.difference = [XSS, "ok"]
    w.wait(timeout=120)
    assert "<img" not in w.difference_view.caption.value
    assert "&lt;img src=x onerror=alert(1)&gt;" in w.difference_view.caption.value


def test_cost_axis_fits_the_envelopes_and_keeps_them_with_full_cost_lines(w):
    # The full cost lines are clipped at the axis top: the envelopes keep the pane's height.
    assert w.figures.cost_y.max == 0.5
    w.classifier_layers.show_cost_lines.value = True
    assert w.figures.cost_y.max == 0.5 and w.classifier_layers.cost_lines[0].visible
    w.classifier_layers.show_cost_lines.value = False
    assert w.figures.cost_y.max == 0.5


def test_close_unregisters_every_widget_it_created(data):
    from ipywidgets.widgets import widget as ipw

    y, scores = data
    before = len(ipw._instances)
    for _ in range(5):
        with CostWidget.from_predictions(y, scores) as w:
            w.difference = ["good", "weak"]
            w.show_bands = True
            w.range_of_interest = [0.2, 0.6]
            w.wait(timeout=120)
            assert len(ipw._instances) > before + 100  # panes, marks, scales, controls
    assert len(ipw._instances) == before


def test_update_with_an_unknown_trait_is_a_type_error_and_changes_nothing():
    # Python raises TypeError for an unknown keyword argument; update() does the same.
    a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    with CostWidget([a], p_pos=0.5) as w:
        with pytest.raises(TypeError, match=r"unknown state traits \['pp_os'\]; settable"):
            w.update(p_pos=0.2, pp_os=0.3)
        assert w.p_pos == 0.5
