"""The NEC axis's reach (issue 30, item 6): "NEC axis up to" and "fit".

The highest NEC a classifier's curve reaches is computed here by brute force from the raw scores
(the lower envelope of every threshold's cost line, NEC = (1 − TPR − FPR)·PCF(+) + FPR,
Drummond & Holte 2006, sec. 2), on a fine PCF(+) grid.
"""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest

import costwidget as cw
from costwidget.widget.tools.nec_zoom import NO_KERNEL

_GRID = np.linspace(0.0, 1.0, 4001)


def _brute_top(y, s, grid=_GRID):
    """max over PCF(+) of the lowest NEC over all thresholds (raw scores, score >= t)."""
    ts = np.append(np.unique(s), np.inf)
    fpr = np.array([((s >= t) & ~y).sum() / (~y).sum() for t in ts])
    tpr = np.array([((s >= t) & y).sum() / y.sum() for t in ts])
    nec = (1 - tpr - fpr)[:, None] * grid[None, :] + fpr[:, None]
    return nec.min(axis=0).max()


@pytest.fixture()
def good():
    rng = np.random.default_rng(4)
    y = rng.random(500) < 0.4
    scores = {
        "a": np.round(y * 3.0 + rng.normal(size=500), 3),
        "b": np.round(y * 3.4 + rng.normal(size=500), 3),
    }
    w = cw.CostWidget.from_predictions(y, scores, p_pos=0.3)
    yield y, scores, w
    w.close()


def test_fit_shows_every_curve_and_little_else(good):
    y, scores, w = good
    zoom = w.draw_controls.nec_zoom
    assert zoom.top == 0.5  # the full axis until asked
    zoom.fit()
    highest = max(_brute_top(y, s) for s in scores.values())
    assert highest <= zoom.top <= 1.25 * highest, (highest, zoom.top)
    w.visible = ["b"]  # fit reads the curves shown
    zoom.fit()
    assert _brute_top(y, scores["b"]) <= zoom.top < highest


def test_fit_keeps_the_bands_in_view(good):
    _y, _scores, w = good
    w.show_bands = True
    w.wait(timeout=300)
    zoom = w.draw_controls.nec_zoom
    zoom.fit()
    upper = max(float(np.nanmax(b["upper"].to_numpy())) for b in w.drawn_bands.values())
    assert upper <= zoom.top


def test_the_slider_moves_the_axis_in_the_browser(good):
    """A browser-side link from the slider to the cost pane's y scale: it works with no kernel,
    and it is the scale's one writer."""
    _y, _scores, w = good
    zoom = w.draw_controls.nec_zoom
    link = zoom.link
    assert link.source == (zoom.slider, "value") and link.target == (w.figures.cost_y, "max")
    assert zoom.slider in w.draw_controls.controls and zoom.fit_button in w.draw_controls.controls


def test_exported_page_zooms_and_says_why_fit_is_off(good, tmp_path):
    _y, _scores, w = good
    zoom = w.draw_controls.nec_zoom
    zoom.fit()
    text = w.to_html(tmp_path / "page.html").read_text(encoding="utf-8")
    raw = re.search(
        r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', text, re.S
    ).group(1)
    state = json.loads(html.unescape(raw) if raw.lstrip().startswith("&") else raw)["state"]
    link = state[zoom.link.model_id]["state"]
    assert link["source"] == [f"IPY_MODEL_{zoom.slider.model_id}", "value"]
    assert link["target"] == [f"IPY_MODEL_{w.figures.cost_y.model_id}", "max"]
    assert state[zoom.slider.model_id]["state"]["value"] == zoom.top
    button = state[zoom.fit_button.model_id]["state"]
    assert button["disabled"] is True and button["tooltip"] == NO_KERNEL
    assert zoom.fit_button.disabled is False  # the live widget keeps its button


def test_static_figure_draws_the_zoomed_axis(good):
    _y, _scores, w = good
    w.draw_controls.nec_zoom.fit()
    fig = w.to_figure()
    cost = next(ax for ax in fig.axes if ax.get_title() == "Cost space")
    assert cost.get_ylim()[1] == pytest.approx(w.draw_controls.nec_zoom.top)
    labels = [t.get_text() for t in cost.get_yticklabels() if t.get_text()]
    assert len(set(labels)) == len(labels), labels


def test_close_closes_the_link(good):
    """A link left open after its slider closed broke every later export in the kernel
    (ipywidgets' dependency_state reads every link's ends)."""
    _y, _scores, w = good
    link = w.draw_controls.nec_zoom.link
    w.close()
    assert link.comm is None
    other = cw.CostWidget([cw.Classifier.from_confusion(tp=8, fn=2, fp=1, tn=9, name="c")])
    try:
        assert "<html" in other.to_html()
    finally:
        other.close()
