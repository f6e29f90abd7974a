"""The hover tool: hovering a hull vertex (ROC pane) or its envelope piece (cost pane) highlights
that vertex in both panes and shows its numbers.

A hover describes the vertex at the operating point of the moment it was made ("NEC at PCF
0.088"): once the operating point moves, or the vertex's classifier is hidden, `HoverTool.sync`
clears the rings and the text rather than leave them naming a PCF(+) that is no longer shown.
An export never carries a hover (`HoverTool.drop_from_state`), so a report shows the analysis,
not where the mouse last was."""

from __future__ import annotations

import html

import bqplot as bq
import ipywidgets as widgets

from ...model import cost_line_value
from ..controls.marks import hold
from ..controls.theme import INK
from ..state.component import Component

__all__ = ["HoverTool"]


class HoverTool(Component):
    """Owns the two highlight marks and the info text (also the hover targets' tooltip)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.info = widgets.HTML(value="")
        self.info.add_class("costwidget-hover")
        self.roc_highlight = bq.Scatter(
            x=[0.0],
            y=[0.0],
            scales=ctx.figures.roc_scales,
            colors=[INK],
            default_size=200,
            fill=False,
            stroke=INK,
            visible=False,
        )
        self.cost_highlight = bq.Lines(
            x=[0.0, 1.0],
            y=[0.0, 0.0],
            scales=ctx.figures.cost_scales,
            colors=[INK],
            stroke_width=3,
            visible=False,
        )
        self.vertex = None  # (name, hull vertex index) shown
        self._shown_at = None  # the PCF(+) the text was written for

    def connect(self, layers) -> None:
        """Listen to the hover targets of `ClassifierLayers`."""
        # The drawing is looked up at each hover, by position: per-case costs whose twins move
        # make the drawings again (`drawings_changed`), and a drawing bound here would be old.
        drawings = self.ctx.drawings
        for i, scatter in enumerate(layers.hull_vertices):
            scatter.on_hover(
                lambda _m, ev, i=i: self._on_hover(drawings[i], int(ev["data"]["index"]))
            )
        for i, scatter in enumerate(layers.segment_hover):
            scatter.on_hover(
                lambda _m, ev, i=i: self._on_hover(
                    drawings[i], int(drawings[i].segment_vertex[int(ev["data"]["index"])])
                )
            )

    def _on_hover(self, d, vertex) -> None:
        tx = self.ctx.tx
        with tx.held():
            try:
                self.show(d, vertex)
            except Exception as exc:  # noqa: BLE001 - shown, never lost in the log console
                self.ctx.errors.show(exc, context="hover")

    def show(self, d, vertex: int) -> None:
        """Highlight hull vertex ``vertex`` of drawing ``d`` in both panes and describe it."""
        s = self.ctx.state
        f, t, thr = d.hull_fpr[vertex], d.hull_tpr[vertex], d.hull_threshold[vertex]
        x, y = d.cost_lines()
        nec = cost_line_value(f, t, s.pcf)
        text = (
            f"<b>{html.escape(d.name)}</b><br>threshold {thr:.6g}<br>FPR {f:.4f}<br>"
            f"TPR {t:.4f}<br>NEC at PCF {s.pcf:.3f}: {nec:.4f}"
        )
        # Both rings move before the text that names their vertex: whoever reads the text
        # (a person, or the browser test) finds the rings already on that vertex.
        with hold(self.roc_highlight, self.cost_highlight):
            self.roc_highlight.x, self.roc_highlight.y = [f], [t]
            self.roc_highlight.visible = True
            self.cost_highlight.x, self.cost_highlight.y = x[vertex], y[vertex]
            self.cost_highlight.colors = [d.color]
            self.cost_highlight.visible = True
        self.info.value = text
        self.vertex = (d.name, vertex)
        self._shown_at = s.pcf

    def sync(self) -> None:
        """Clear a hover made at another operating point, or on a classifier now hidden."""
        if self.vertex is None:
            return
        s = self.ctx.state
        if s.pcf != self._shown_at or self.vertex[0] not in set(s.visible):
            self.clear()

    def drawings_changed(self) -> None:
        if self.vertex is not None:  # its vertex is of an old drawing
            self.clear()

    def clear(self) -> None:
        """No ring, no thick cost line, no text."""
        with hold(self.roc_highlight, self.cost_highlight):
            self.roc_highlight.visible = False
            self.cost_highlight.visible = False
        self.info.value = ""
        self.vertex = self._shown_at = None

    def drop_from_state(self, state: dict) -> dict:
        """Remove the hover from ``state``, an embedded widget state (``{model_id: {"state":
        ...}}``, as ``ipywidgets.embed.dependency_state`` gives): the rings hidden, the text
        empty. The live widget keeps its hover. Returns ``state``."""
        for mark in (self.roc_highlight, self.cost_highlight):
            if mark.model_id in state:
                state[mark.model_id]["state"]["visible"] = False
        if self.info.model_id in state:
            state[self.info.model_id]["state"]["value"] = ""
        return state

    def pane_marks(self) -> dict:
        return {"roc": {"hover": [self.roc_highlight]}, "cost": {"hover": [self.cost_highlight]}}

    def boxes(self) -> dict:
        return {"hover_info": [self.info]}
