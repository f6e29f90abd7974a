"""Every kind of mark on screen has a legend entry, only while it is shown; AUC beside each
model's name; the ROC point at threshold 0.5 where the scores are probabilities (issue 23)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, roc_auc_score

import costwidget as cw
from costwidget.datasets import load_demo_scores, positive_label


@pytest.fixture(scope="module")
def demo():
    w = cw.demo()
    yield w
    w.close()


def _entries(w):
    return set(
        re.findall(
            r"costwidget-legend-item costwidget-legend-(\w+)", w.classifier_layers.legend.value
        )
    )


def _demo_cases():
    scores = load_demo_scores("german_credit")
    pos = positive_label("german_credit")
    return {
        name: ((g["label"] == pos).to_numpy(), g["score"].to_numpy())
        for name, g in scores.groupby("model")
    }


def test_auc_beside_each_name_as_sklearn_computes_it(demo):
    cases = _demo_cases()
    for name, box in demo.classifier_layers.picker.items():
        y, s = cases[name]
        assert box.description == f"{name} (AUC = {roc_auc_score(y, s):.2f})"


def test_half_points_are_the_counts_at_score_at_least_half(demo):
    cases = _demo_cases()
    hp = demo.classifier_layers.half_points
    assert hp.visible and list(hp.colors) == [demo.colors[n] for n in demo.visible]
    for name, fx, fy in zip(demo.visible, hp.x, hp.y):
        y, s = cases[name]
        tn, fp, fn, tp = confusion_matrix(y, s >= 0.5, labels=[False, True]).ravel()
        assert (fx, fy) == pytest.approx((fp / (fp + tn), tp / (tp + fn)), abs=1e-12)
    assert hp in demo.figures.roc.marks


def test_weighted_half_point_and_no_point_without_scores():
    rng = np.random.default_rng(1)
    y = rng.random(200) < 0.3
    s = 1 / (1 + np.exp(-(y + rng.normal(size=200))))
    wts = rng.uniform(0.5, 2, 200)
    a = cw.Classifier.from_scores(y, s, sample_weight=wts, name="a")
    b = cw.Classifier.from_confusion(tp=30, fn=10, fp=20, tn=140, name="b")
    w = cw.CostWidget([a, b])
    try:
        tn, fp, fn, tp = confusion_matrix(y, s >= 0.5, sample_weight=wts).ravel()
        hp = w.classifier_layers.half_points
        assert list(hp.x) == pytest.approx([fp / (fp + tn)]) and list(hp.y) == pytest.approx(
            [tp / (tp + fn)]
        )
        assert "half" in _entries(w)
        w.visible = ["b"]  # from_confusion: no scores, no point, no entry
        assert not hp.visible and "half" not in _entries(w)
        assert w.classifier_layers.picker["b"].description.startswith("b (AUC = ")
    finally:
        w.close()


def test_entries_follow_the_marks_shown(demo):
    w = demo
    base = {"best", "strip", "trivial", "never", "operating", "iso", "half"}
    assert _entries(w) == base
    w.constraint = "neyman_pearson"
    assert _entries(w) == base | {"neyman_pearson"}
    w.constraint = "workforce"
    assert _entries(w) == base | {"workforce"}
    w.constraint = "none"
    w.show_cost_lines = True
    assert "cost_lines" in _entries(w)
    w.show_cost_lines = False
    w.range_of_interest = [0.3, 0.55]
    assert "range" in _entries(w)
    w.range_of_interest = []
    w.update(show_bands=True, band_level=0.8)
    w.wait(timeout=300)  # the entry comes with the bands, once they are drawn
    assert (
        "bands" in _entries(w)
        and "bootstrap band (nominal 80%)" in w.classifier_layers.legend.value
    )
    w.update(show_bands=False, show_fold_spread=True)
    w.wait(timeout=300)
    assert "fold_spread" in _entries(w) and "bands" not in _entries(w)
    w.show_fold_spread = False
    assert _entries(w) == base
    w.wait()


def test_legend_swatches_use_the_marks_styles(demo):
    """The legend's strip swatch has the winners' colours, the range its olive, the 0.5 point
    the pane's marker shape."""
    from costwidget.widget.controls.theme import RANGE_EDGE, legend_html

    text = legend_html(["strip", "range", "half"], colors=["#0072B2", "#E69F00"])
    assert "fill:#0072B2" in text and "fill:#E69F00" in text and RANGE_EDGE in text
    assert demo.classifier_layers.half_points.marker == "square" and "<rect x='2.5'" in text
    assert "<script" not in legend_html(["strip"], colors=["<script>"])


def _kind_of_each_mark(w):
    """What legend entry each mark of the panes needs (None: the classifier checkboxes name it;
    "exempt": a transient highlight or an invisible click target)."""
    L, op, con, f = w.classifier_layers, w.operating_tool, w.constraint_tool, w.figures
    kinds = {}
    for group, kind in [
        ((*L.roc_curves, *L.hull_lines, *L.hull_vertices, *L.envelopes, *L.segment_hover), None),
        ((L.combined,), "best"),
        ((L.winner_strip,), "strip"),
        ((f.trivial, f.roc_diagonal), "trivial"),
        ((f.never_use,), "never"),
        ((op.operating_line, op.handle, op.nec_points, op.winner_dot, op.chosen), "operating"),
        ((op.iso_lines,), "iso"),
        ((L.half_points,), "half"),
        (L.cost_lines, "cost_lines"),
        (w.band_layer.marks, "bands"),
        (w.fold_spread_layer.marks, "fold_spread"),
        (w.threshold_choice_view.marks, "threshold_choice"),
        ((con.roc_line, con.roc_points, con.cost_lines), w.constraint),
        (w.range_tool.marks, "range"),
        ((w.hover_tool.roc_highlight, w.hover_tool.cost_highlight, op.click_bars), "exempt"),
    ]:
        for m in group:
            kinds[m.model_id] = kind
    return kinds


@pytest.mark.parametrize(
    "state",
    [
        {},
        dict(constraint="neyman_pearson", show_cost_lines=True),
        dict(constraint="workforce", show_bands=True, range_of_interest=[0.3, 0.55]),
        dict(show_fold_spread=True, threshold_choice="score"),
    ],
)
def test_every_visible_mark_has_its_legend_entry(state):
    w = cw.demo()
    try:
        w.update(**state)
        w.wait(timeout=300)
        kinds = _kind_of_each_mark(w)
        entries = _entries(w)
        for fig in (w.figures.roc, w.figures.cost):
            for m in fig.marks:
                if not m.visible:
                    continue
                assert m.model_id in kinds, f"a {type(m).__name__} mark nobody accounts for"
                kind = kinds[m.model_id]
                assert kind in (None, "exempt") or kind in entries, (
                    f"{kind} is drawn but has no legend entry ({sorted(entries)})"
                )
        # ... and no entry names a mark that is not drawn
        drawn = {
            kinds[m.model_id]
            for fig in (w.figures.roc, w.figures.cost)
            for m in fig.marks
            if m.visible
        }
        assert entries <= drawn, f"entries without marks: {entries - drawn}"
    finally:
        w.close()


def test_band_entry_waits_for_the_bands():
    """While bands compute nothing is drawn, and the legend names no band; once drawn it does."""
    w = cw.demo()
    try:
        w.show_bands = True  # returns at once; the bands compute in the background
        if not w.drawn_bands:
            assert "bands" not in _entries(w)
        w.wait(timeout=300)
        assert w.drawn_bands and "bands" in _entries(w)
        w.show_bands = False
        assert "bands" not in _entries(w)
    finally:
        w.close()
