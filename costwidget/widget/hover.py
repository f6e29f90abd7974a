"""The hover tool: hovering a hull vertex (ROC pane) or its envelope piece (cost pane) highlights
that vertex in both panes and shows its numbers."""

from __future__ import annotations

import html

import bqplot as bq
import ipywidgets as widgets

from ..model import cost_line_value
from .marks import hold
from .theme import INK

__all__ = ["HoverTool"]


class HoverTool:
    """Owns the two highlight marks and the info text (also the hover targets' tooltip)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.info = widgets.HTML(value="")
        self.info.add_class("costwidget-hover")
        self.roc_highlight = bq.Scatter(x=[0.0], y=[0.0], scales=ctx.figures.roc_scales,
                                        colors=[INK], default_size=200, fill=False,
                                        stroke=INK, visible=False)
        self.cost_highlight = bq.Lines(x=[0.0, 1.0], y=[0.0, 0.0], scales=ctx.figures.cost_scales,
                                       colors=[INK], stroke_width=3, visible=False)
        self.vertex = None  # (name, hull vertex index) shown

    def connect(self, layers) -> None:
        """Listen to the hover targets of `ClassifierLayers`."""
        for d, scatter in zip(self.ctx.drawings, layers.hull_vertices):
            scatter.on_hover(lambda _m, ev, d=d: self._on_hover(d, int(ev["data"]["index"])))
        for d, scatter in zip(self.ctx.drawings, layers.segment_hover):
            scatter.on_hover(lambda _m, ev, d=d: self._on_hover(
                d, int(d.segment_vertex[int(ev["data"]["index"])])))

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
        text = (f"<b>{html.escape(d.name)}</b><br>threshold {thr:.6g}<br>FPR {f:.4f}<br>"
                f"TPR {t:.4f}<br>NEC at PCF {s.pcf:.3f}: {nec:.4f}")
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
