"""The two bqplot panes: ROC space (left) and cost space (right), and their marks.

Static marks (curves, hulls, envelopes) are set once per classifier; the
operating-point and constraint marks are recomputed from the model and set
inside ``hold_sync`` so each change reaches the browser as one message per mark.
"""

from __future__ import annotations

import numpy as np
import bqplot as bq
import ipywidgets as widgets

__all__ = ["Panes", "TRIVIAL_COLOR"]

TRIVIAL_COLOR = "#999999"
_FIG_LAYOUT = dict(width="480px", height="440px")


def _axes(xs, ys, xlabel, ylabel):
    return [bq.Axis(scale=xs, label=xlabel, side="bottom", grid_lines="dashed", tick_format=".1f"),
            bq.Axis(scale=ys, label=ylabel, side="left", grid_lines="dashed",
                    tick_format=".1f")]


class Panes:
    """Builds both figures and owns every mark."""

    def __init__(self, drawings):
        self.drawings = drawings
        n = len(drawings)
        colors = [d.color for d in drawings]
        # ------------------------------------------------------------- ROC space
        rx, ry = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=0.0, max=1.0)
        self.roc_diagonal = bq.Lines(x=[0.0, 1.0], y=[0.0, 1.0], scales={"x": rx, "y": ry},
                                     colors=[TRIVIAL_COLOR], line_style="dashed")
        self.roc_curves = [bq.Lines(x=d.roc_x, y=d.roc_y, scales={"x": rx, "y": ry},
                                    colors=[d.color], opacities=[0.45], stroke_width=1)
                           for d in drawings]
        self.hull_lines = [bq.Lines(x=d.hull_fpr, y=d.hull_tpr, scales={"x": rx, "y": ry},
                                    colors=[d.color], stroke_width=2, labels=[d.name])
                           for d in drawings]
        self.hover_info = widgets.HTML(value="")
        self.hull_vertices = [bq.Scatter(x=d.hull_fpr, y=d.hull_tpr, scales={"x": rx, "y": ry},
                                         colors=[d.color], default_size=24,
                                         tooltip=self.hover_info)
                              for d in drawings]
        self.iso_lines = bq.Lines(x=np.zeros((n, 2)), y=np.zeros((n, 2)), scales={"x": rx, "y": ry},
                                  colors=colors, line_style="dash_dotted", stroke_width=1.5)
        self.chosen = bq.Scatter(x=np.zeros(n), y=np.zeros(n), scales={"x": rx, "y": ry},
                                 colors=colors, default_size=90, stroke="black")
        self.roc_constraint_line = bq.Lines(x=[0.0, 0.0], y=[0.0, 1.0], scales={"x": rx, "y": ry},
                                            colors=["black"], line_style="dashed", visible=False)
        self.roc_constrained = bq.Scatter(x=np.zeros(n), y=np.zeros(n), scales={"x": rx, "y": ry},
                                          colors=colors, marker="diamond", default_size=110,
                                          stroke="black", visible=False)
        self.roc_highlight = bq.Scatter(x=[0.0], y=[0.0], scales={"x": rx, "y": ry},
                                        colors=["black"], default_size=200, fill=False,
                                        stroke="black", visible=False)
        self.roc_figure = bq.Figure(
            marks=[self.roc_diagonal, *self.roc_curves, *self.hull_lines, self.roc_constraint_line,
                   self.iso_lines, *self.hull_vertices, self.roc_constrained, self.chosen,
                   self.roc_highlight],
            axes=_axes(rx, ry, "false-positive rate (FPR)", "true-positive rate (TPR)"),
            title="ROC space", layout=widgets.Layout(**_FIG_LAYOUT),
            fig_margin=dict(top=40, bottom=50, left=55, right=15), min_aspect_ratio=1,
            max_aspect_ratio=1)
        self.roc_figure.add_class("costwidget-roc")
        # ------------------------------------------------------------- cost space
        cx, cy = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=0.0, max=1.0)
        self.cost_x, self.cost_y = cx, cy
        # Above both trivial lines (y = x and y = 1 - x) no classifier should ever be used.
        self.never_use = bq.Lines(x=[0.0, 0.5, 1.0, 1.0, 0.0, 0.0], y=[0.0, 0.5, 0.0, 1.0, 1.0, 0.0],
                                  scales={"x": cx, "y": cy}, fill="inside", colors=["#dddddd"],
                                  fill_colors=["#dddddd"], fill_opacities=[0.5])
        self.trivial = bq.Lines(x=[[0.0, 1.0], [0.0, 1.0]], y=[[0.0, 1.0], [1.0, 0.0]],
                                scales={"x": cx, "y": cy}, colors=[TRIVIAL_COLOR, TRIVIAL_COLOR],
                                labels=["all negative", "all positive"])
        self.cost_lines = []
        for d in drawings:
            x, y = d.cost_lines()
            self.cost_lines.append(bq.Lines(x=x, y=y, scales={"x": cx, "y": cy}, colors=[d.color],
                                            opacities=[0.3], stroke_width=1, visible=False))
        self.envelopes = [bq.Lines(x=d.env_x, y=d.env_y, scales={"x": cx, "y": cy},
                                   colors=[d.color], stroke_width=2.5, labels=[d.name],
                                   display_legend=True)
                          for d in drawings]
        self.segment_hover = [bq.Scatter(x=d.segment_mid, y=d.clf.nec(d.segment_mid),
                                         scales={"x": cx, "y": cy}, colors=[d.color], default_size=16,
                                         opacities=[0.6], tooltip=self.hover_info)
                              for d in drawings]
        # Bootstrap bands around each envelope (filled between lower and upper), drawn on request.
        self.bands = [bq.Lines(x=[0.0, 1.0], y=[[0.0, 0.0], [0.0, 0.0]], scales={"x": cx, "y": cy},
                               fill="between", colors=[d.color, d.color], fill_colors=[d.color],
                               fill_opacities=[0.18], stroke_width=0.5, visible=False)
                      for d in drawings]
        self.combined = bq.Lines(x=[0.0, 1.0], y=[0.0, 0.0], scales={"x": cx, "y": cy},
                                 colors=["black"], stroke_width=1.5, line_style="dashed",
                                 labels=["best of all"], display_legend=True)
        self.winner_strip = bq.Lines(x=[[0.0, 1.0]], y=[[0.0, 0.0]], scales={"x": cx, "y": cy},
                                     colors=[TRIVIAL_COLOR], stroke_width=10)
        self.operating_line = bq.Lines(x=[0.5, 0.5], y=[0.0, 1.0], scales={"x": cx, "y": cy},
                                       colors=["black"], stroke_width=1.5)
        self.nec_points = bq.Scatter(x=np.zeros(n), y=np.zeros(n), scales={"x": cx, "y": cy},
                                     colors=colors, default_size=60, stroke="black")
        self.cost_constrained = bq.Lines(x=np.zeros((n, 2)), y=np.zeros((n, 2)),
                                         scales={"x": cx, "y": cy}, colors=colors,
                                         line_style="dashed", stroke_width=2, visible=False)
        self.cost_highlight = bq.Lines(x=[0.0, 1.0], y=[0.0, 0.0], scales={"x": cx, "y": cy},
                                       colors=["black"], stroke_width=3, visible=False)
        self.click = bq.interacts.IndexSelector(scale=cx, marks=[], line_width=1, color="#bbbbbb")
        self.cost_figure = bq.Figure(
            marks=[self.never_use, self.trivial, *self.bands, *self.cost_lines, self.cost_constrained,
                   *self.envelopes, self.combined, self.winner_strip, self.operating_line,
                   *self.segment_hover, self.nec_points, self.cost_highlight],
            axes=_axes(cx, cy, "probability cost PCF(+)", "normalized expected cost"),
            title="Cost space", layout=widgets.Layout(**_FIG_LAYOUT), interaction=self.click,
            fig_margin=dict(top=40, bottom=50, left=55, right=15), legend_location="top-right",
            min_aspect_ratio=1, max_aspect_ratio=1)
        self.cost_figure.add_class("costwidget-cost")

    @property
    def all_marks(self):
        return [*self.roc_figure.marks, *self.cost_figure.marks]
