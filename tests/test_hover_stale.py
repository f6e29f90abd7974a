"""A hover names the operating point it was made at; moving that point clears it (issue 23), and
no export carries it (the page, the snapshot, the matplotlib figure)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import costwidget as cw


@pytest.fixture()
def w():
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.4
    wid = cw.CostWidget.from_predictions(
        y, {"a": y + rng.normal(size=300), "b": 0.5 * y + rng.normal(size=300)}, p_pos=0.3
    )
    yield wid
    wid.close()


def _hover(w, i=0, vertex=1):
    w.hover_tool._on_hover(w._ctx.drawings[i], vertex)  # what a bqplot hover event calls
    assert w.hover_tool.roc_highlight.visible and w.hover_tool.cost_highlight.visible
    return w.hover_tool.info.value


def _shown_pcf(text):
    m = re.search(r"NEC at PCF ([0-9.]+)", text)
    return None if m is None else float(m.group(1))


def _cleared_or_current(w):
    text = w.hover_tool.info.value
    if text:  # recomputed: it must name the PCF(+) shown now, and its rings must be on
        assert _shown_pcf(text) == pytest.approx(w.pcf, abs=5e-4), text
    else:
        assert not w.hover_tool.roc_highlight.visible
        assert not w.hover_tool.cost_highlight.visible


@pytest.mark.parametrize(
    "move", [dict(p_pos=0.76), dict(cost_fn=4.0), dict(cost_fp=0.2), dict(p_pos=0.5, cost_fn=2.0)]
)
def test_moving_the_operating_point_clears_the_hover(w, move):
    before = w.pcf
    text = _hover(w)
    assert _shown_pcf(text) == pytest.approx(before, abs=5e-4)
    w.update(**move)
    assert w.pcf != pytest.approx(before)
    _cleared_or_current(w)
    assert "NEC at PCF" not in w.hover_tool.info.value or _shown_pcf(
        w.hover_tool.info.value
    ) == pytest.approx(w.pcf, abs=5e-4)


def test_hiding_the_hovered_classifier_clears_it(w):
    _hover(w, i=0)
    w.visible = ["b"]
    assert w.hover_tool.info.value == "" and not w.hover_tool.roc_highlight.visible


def test_a_change_elsewhere_keeps_the_hover(w):
    text = _hover(w, i=1)
    w.show_cost_lines = True  # the operating point did not move: the hover is still true
    assert w.hover_tool.info.value == text and w.hover_tool.roc_highlight.visible


def test_a_refused_move_keeps_the_hover(w):
    text = _hover(w)
    with pytest.raises(ValueError, match=r"p_pos must lie in \[0, 1\], got 2\.0"):
        w.p_pos = 2.0
    assert w.hover_tool.info.value == text


def test_the_page_after_a_hover_has_no_hover(w):
    text = _hover(w)
    assert "NEC at PCF" in text
    page = w.to_html(interactive=False)
    assert "NEC at PCF" not in page
    # The rings are hidden in the embedded state; the live widget keeps its hover.
    ids = {w.hover_tool.roc_highlight.model_id, w.hover_tool.cost_highlight.model_id}
    found = 0
    for m in re.finditer(
        r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', page, re.S
    ):
        state = json.loads(m.group(1))["state"]
        for mid in ids & set(state):
            assert state[mid]["state"]["visible"] is False
            found += 1
    assert found == 2
    assert w.hover_tool.info.value == text and w.hover_tool.roc_highlight.visible


def test_snapshot_and_figure_after_a_hover_have_no_hover(w):
    _hover(w)
    assert "NEC at PCF" not in json.dumps(w.snapshot())
    fig = w.to_figure()
    texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    assert not any("NEC at PCF" in t for t in texts)
