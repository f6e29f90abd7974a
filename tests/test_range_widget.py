"""The range-of-interest overlay and thesis view: a component of CostWidget like the others.

``w.range_tool`` draws from the state in ``sync()`` inside the widget's transaction: a refused
range raises from Python and shows in the banner from a control, the last good state kept.
Numbers are checked against brute force over every ROC point (tests/brute.py).
"""

from __future__ import annotations

import html

import bqplot as bq
import brute
import numpy as np
import pytest
import traitlets as t

import costwidget as cw
from costwidget.model import scored_arrays
from costwidget.widget import CostWidget

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture()
def classifiers():
    rng = np.random.default_rng(7)
    y = rng.random(300) < 0.3
    good = np.round(y * 1.4 + rng.normal(size=300), 1)
    weak = np.round(y * 0.5 + rng.normal(size=300), 1)
    return [
        cw.Classifier.from_scores(y, good, name="good"),
        cw.Classifier.from_scores(y, weak, name=XSS),
    ]


_OPEN = []


def _build(classifiers, **state):
    w = CostWidget(classifiers)
    _OPEN.append(w)
    if state:
        w.update(**state)
    return w.state, w.figures.cost, w.figures.cost_x, w.errors, w.range_tool


@pytest.fixture(autouse=True)
def _close_widgets():
    yield
    while _OPEN:
        _OPEN.pop().close()


@pytest.fixture()
def parts(classifiers):
    return _build(classifiers)


def _brute_grid_measures(clf, lo, hi):
    roc = clf.roc
    grid = np.round(np.arange(round(lo * 20), round(hi * 20) + 1) / 20, 2)
    values = 100 * brute.envelope_min(roc.fpr, roc.tpr, grid)  # the PCF(+) axis: 100·NEC
    return values.sum(), values.max() - values.min()


def test_setting_the_range_shades_it_and_fills_the_table(parts, classifiers):
    s, fig, xs, errors, roi = parts
    assert roi.table is None and not roi.shade.visible
    s.range_of_interest = [0.3, 0.55]
    assert roi.shade.visible
    assert list(roi.shade.x)[:2] == [0.3, 0.55] and roi.shade.scales["x"] is xs
    table = roi.table
    assert list(table.index) == [c.name for c in classifiers]
    for clf in classifiers:
        mtmcr, sens = _brute_grid_measures(clf, 0.3, 0.55)
        assert table.loc[clf.name, "mtmcr"] == pytest.approx(mtmcr, abs=1e-9)
        assert table.loc[clf.name, "sensitivity"] == pytest.approx(sens, abs=1e-9)
        assert table.loc[clf.name, "cst"] == pytest.approx(mtmcr * (1 + sens / 100), abs=1e-9)
    assert table["recommended"].sum() == 1
    assert roi.range_text.value == "0.3, 0.55"
    assert list(roi.brush.selected) == [0.3, 0.55]
    # Names reach the HTML escaped only.
    assert XSS not in roi.table_html.value and "&lt;img" in roi.table_html.value
    assert errors.message == ""


@pytest.mark.parametrize(
    "bad, message",
    [
        ([0.31, 0.4], "multiple of 0.05"),
        ([0.6, 0.4], "0 <= lo < hi <= 1"),
        ([0.2, 1.5], "0 <= lo < hi <= 1"),
        ([0.2, 0.3, 0.4], "two numbers"),
    ],
)
def test_bad_ranges_are_refused_and_the_last_good_one_kept(parts, bad, message):
    s, fig, xs, errors, roi = parts
    s.range_of_interest = [0.3, 0.55]
    before = (roi.table.copy(), roi.table_html.value, list(roi.shade.x))
    with pytest.raises((ValueError, TypeError, t.TraitError), match=message):
        s.range_of_interest = bad  # from Python a refusal raises (the README's promise)
    assert s.range_of_interest == [0.3, 0.55]
    assert roi.table.equals(before[0]) and roi.table_html.value == before[1]
    assert list(roi.shade.x) == before[2] and roi.range_text.value == "0.3, 0.55"
    if len(bad) == 2:  # the same range typed in the field: shown in the banner, nothing raised
        roi.range_text.value = f"{bad[0]}, {bad[1]}"
        assert message in html.unescape(errors.message) and "refused" in errors.message
        assert s.range_of_interest == [0.3, 0.55] and roi.range_text.value == "0.3, 0.55"
    s.range_of_interest = [0.35, 0.55]  # a good one clears the message
    assert errors.message == ""


def test_a_failing_range_drawing_raises_and_keeps_the_last_good_state(parts, monkeypatch):
    # Issue 18, item 10: the range lived outside the transaction and its guard swallowed
    # errors; now a failure in its drawing is a refusal like any other.
    s, fig, xs, errors, roi = parts
    s.range_of_interest = [0.3, 0.55]
    good = roi.table.copy()

    def broken(*args, **kwargs):
        raise RuntimeError("range summary <b>failed</b>")

    monkeypatch.setattr("costwidget.widget.tools.range_of_interest.range_summary", broken)
    with pytest.raises(RuntimeError, match="failed"):
        s.range_of_interest = [0.4, 0.6]
    assert s.range_of_interest == [0.3, 0.55] and roi.table.equals(good)
    assert "refused" in errors.message and "&lt;b&gt;failed" in errors.message
    with pytest.raises(RuntimeError, match="failed"):
        s.visible = ["good"]  # the table follows `visible`: refused as a whole
    assert s.visible == ["good", XSS] and roi.table.equals(good)
    roi.range_text.value = "0.4, 0.6"  # from a control: shown, not raised, state kept
    assert s.range_of_interest == [0.3, 0.55] and "failed" in errors.message
    assert roi.range_text.value == "0.3, 0.55"


def test_decimals_are_stored_as_meant(parts):
    s, *_ = parts
    s.range_of_interest = [0.1 + 0.2, 0.55]  # 0.30000000000000004
    assert s.range_of_interest == [0.3, 0.55]


def test_brushing_shades_live_and_sets_the_snapped_range_on_release(parts):
    s, fig, xs, errors, roi = parts
    roi.brush_toggle.value = True
    assert fig.interaction is roi.brush
    roi.brush.brushing = True
    roi.brush.selected = np.array([0.312, 0.47])
    assert s.range_of_interest == []  # nothing computed while the mouse is down
    assert roi.shade.visible and list(roi.shade.x)[:2] == [0.312, 0.47]
    roi.brush.selected = np.array([0.312, 0.561])
    assert list(roi.shade.x)[:2] == [0.312, 0.561]
    roi.brush.brushing = False
    assert s.range_of_interest == [0.3, 0.55]
    assert list(roi.shade.x)[:2] == [0.3, 0.55] and list(roi.brush.selected) == [0.3, 0.55]
    assert roi.table is not None
    # Python -> brush: the brush follows the state.
    s.range_of_interest = [0.1, 0.2]
    assert list(roi.brush.selected) == [0.1, 0.2]


def test_brush_toggle_gives_the_mouse_back(classifiers):
    s, fig, xs, errors, roi = _build(classifiers)
    other = bq.interacts.PanZoom(scales={"x": [xs]})
    fig.interaction = other
    roi.brush_toggle.value = True
    assert fig.interaction is roi.brush
    roi.brush_toggle.value = False
    assert fig.interaction is other


def test_typed_range_and_clear(parts):
    s, fig, xs, errors, roi = parts
    roi.range_text.value = "0.2 - 0.4"
    assert s.range_of_interest == [0.2, 0.4] and errors.message == ""
    roi.range_text.value = "cheap"
    assert s.range_of_interest == [0.2, 0.4]
    assert (
        "two PCF(+) values" in html.unescape(errors.message) and roi.range_text.value == "0.2, 0.4"
    )
    roi.range_text.value = "0.22, 0.4"
    assert s.range_of_interest == [0.2, 0.4] and "multiple of 0.05" in errors.message
    assert roi.range_text.value == "0.2, 0.4"
    roi.clear_button.click()
    assert s.range_of_interest == [] and roi.table is None and not roi.shade.visible
    assert roi.range_text.value == ""


def test_table_follows_visible_classifiers(parts, classifiers):
    s, fig, xs, errors, roi = parts
    s.range_of_interest = [0.2, 0.5]
    s.visible = ["good"]
    assert list(roi.table.index) == ["good"] and bool(roi.table.loc["good", "recommended"])
    s.visible = []
    assert roi.table is None and "No visible classifier" in roi.table_html.value


def test_a_range_present_at_construction_is_drawn(classifiers):
    s, fig, xs, errors, roi = _build(classifiers, range_of_interest=[0.4, 0.6])
    assert roi.shade.visible and roi.table is not None


def test_thesis_view_draws_exact_curves_on_the_thesis_axis(parts, classifiers):
    s, fig, xs, errors, roi = parts
    view = roi.thesis
    assert not view.built  # nothing drawn while hidden
    s.range_of_interest = [0.3, 0.55]
    roi.thesis_toggle.value = True
    legend, charts, caption = view.widget.children
    assert view.built and view.shown and view.mtmcs_figure in charts.children
    # The legend sits above the charts, not inside one (it covered the curves); names escaped.
    assert not any(m.display_legend for m in view.mtmcs_figure.marks)
    assert html.escape(XSS) in legend.value and XSS not in legend.value
    assert "range of interest" in legend.value
    for figure in (view.mtmcs_figure, view.threshold_figure):
        assert figure.layout.min_width == "400px"  # tick labels apart, on its own or in the widget
    axis = view.mtmcs_figure.axes[0]
    assert axis.tick_labels["0.25"] == "0.25/0.75" and axis.tick_labels["0.5"] == "0.50/0.50"
    for clf in classifiers:
        roc = clf.roc
        line = view.mtmcs_lines[clf.name]
        x = np.asarray(line.x)
        assert x[0] == 0.05 and x[-1] == 0.95 and line.visible
        np.testing.assert_allclose(
            line.y, 100 * brute.envelope_min(roc.fpr, roc.tpr, 1 - x), atol=1e-9
        )
        # straight lines between the drawn points are exact: check the midpoints too
        mid = (x[1:] + x[:-1]) / 2
        np.testing.assert_allclose(
            np.interp(mid, x, line.y),
            100 * brute.envelope_min(roc.fpr, roc.tpr, 1 - mid),
            atol=1e-9,
        )
        # each threshold piece: the rule score >= threshold, applied to the raw data,
        # reaches the minimum TMC inside its piece
        is_pos, scores, _ = scored_arrays(clf)
        seg = view.threshold_lines[clf.name]
        assert len(np.asarray(seg.x)) >= 2
        for (a, b), (th, _) in zip(np.asarray(seg.x), np.asarray(seg.y)):
            m = (a + b) / 2
            tp, fp = brute.counts_at(is_pos, scores, th)
            tmc = (1 - tp / is_pos.sum()) * (1 - m) + fp / (~is_pos).sum() * m
            assert tmc == pytest.approx(brute.envelope_min(roc.fpr, roc.tpr, 1 - m)[0], abs=1e-12)
    # the range is shaded at x = 1 - PCF(+)
    assert list(view.mtmcs_shade.x)[:2] == pytest.approx([0.45, 0.7])
    assert view.mtmcs_shade.visible and view.threshold_shade.visible
    s.visible = ["good"]
    assert not view.mtmcs_lines[XSS].visible and view.mtmcs_lines["good"].visible
    s.p_pos = 0.3
    assert "prior-weighted" in view.caption.value
    roi.thesis_toggle.value = False
    assert not view.shown and view.widget.children == ()
