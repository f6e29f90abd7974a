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
#: pcf steps of the click target in the cost pane (a click sets pcf to the nearest step).
CLICK_STEPS = 500


def _axes(xs, ys, xlabel, ylabel, y_format=".1f"):
    return [bq.Axis(scale=xs, label=xlabel, side="bottom", grid_lines="dashed", tick_format=".1f"),
            bq.Axis(scale=ys, label=ylabel, side="left", grid_lines="dashed",
                    tick_format=y_format)]


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
        self.hover_info.add_class("costwidget-hover")
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
        # NEC on the envelopes never exceeds 0.5 (the trivial classifiers' best); the axis
        # grows to 1 only when every hull vertex's full cost line is drawn.
        cx, cy = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=0.0, max=0.5)
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
        # Spread of the fold envelopes (min to max over folds), for classifiers with folds.
        self.fold_spreads = [bq.Lines(x=[0.0, 1.0], y=[[0.0, 0.0], [0.0, 0.0]],
                                      scales={"x": cx, "y": cy}, fill="between",
                                      colors=[d.color, d.color], fill_colors=[d.color],
                                      fill_opacities=[0.10], stroke_width=1, line_style="dotted",
                                      visible=False)
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
        # Clicking sets the operating point: transparent full-height bars, one per pcf step,
        # above the filled areas (which would take the click) but below the hoverable dots (an
        # overlay interaction would swallow their hover events). Dragging the handle at the
        # foot of the operating line moves it.
        self.click_pcf = np.linspace(0.0, 1.0, CLICK_STEPS + 1)
        self.click_bars = bq.Bars(x=self.click_pcf, y=np.full(len(self.click_pcf), 10.0),
                                  scales={"x": cx, "y": cy}, colors=["white"], opacities=[0.0],
                                  padding=0.0)
        self.operating_handle = bq.Scatter(x=[0.5], y=[0.025], scales={"x": cx, "y": cy},
                                           marker="triangle-up", default_size=160, colors=["black"],
                                           enable_move=True, restrict_x=True, update_on_move=True)
        self.cost_figure = bq.Figure(
            marks=[self.never_use, self.trivial, *self.fold_spreads, *self.bands,
                   *self.cost_lines, self.cost_constrained,
                   *self.envelopes, self.combined, self.winner_strip, self.operating_line,
                   self.click_bars,
                   *self.segment_hover, self.nec_points, self.cost_highlight,
                   self.operating_handle],
            # Ticks every 0.05 on the 0-0.5 axis need two decimals.
            axes=_axes(cx, cy, "probability cost PCF(+)", "normalized expected cost", y_format=".2f"),
            title="Cost space", layout=widgets.Layout(**_FIG_LAYOUT),
            fig_margin=dict(top=40, bottom=50, left=55, right=15), legend_location="top-right",
            min_aspect_ratio=1, max_aspect_ratio=1)
        self.cost_figure.add_class("costwidget-cost")
        self._build_difference(cx)

    def _build_difference(self, cx):
        """NEC_a − NEC_b over the cost pane's pcf scale, its band, and where it excludes 0."""
        dy = bq.LinearScale(min=-0.1, max=0.1)
        self.difference_y = dy
        s = {"x": cx, "y": dy}
        self.difference_zero = bq.Lines(x=[0.0, 1.0], y=[0.0, 0.0], scales=s, colors=[TRIVIAL_COLOR],
                                        line_style="dashed")
        self.difference_band = bq.Lines(x=[0.0, 1.0], y=[[0.0, 0.0], [0.0, 0.0]], scales=s,
                                        fill="between", colors=["#555555", "#555555"],
                                        fill_colors=["#888888"], fill_opacities=[0.25],
                                        stroke_width=0.5)
        self.difference_line = bq.Lines(x=[0.0, 1.0], y=[0.0, 0.0], scales=s, colors=["black"],
                                        stroke_width=2)
        # One thick segment on the zero line per interval where the band excludes 0,
        # coloured by the classifier that costs less there.
        self.difference_significant = bq.Lines(x=[[0.0, 0.0]], y=[[0.0, 0.0]], scales=s,
                                               colors=[TRIVIAL_COLOR], stroke_width=8,
                                               visible=False)
        self.difference_operating_line = bq.Lines(x=[0.5, 0.5], y=[-1.0, 1.0], scales=s,
                                                  colors=["black"], stroke_width=1.5)
        self.difference_figure = bq.Figure(
            marks=[self.difference_zero, self.difference_band, self.difference_line,
                   self.difference_significant, self.difference_operating_line],
            axes=[bq.Axis(scale=cx, label="probability cost PCF(+)", side="bottom",
                          grid_lines="dashed", tick_format=".1f"),
                  bq.Axis(scale=dy, label="NEC difference", side="left", grid_lines="dashed",
                          tick_format=".2f")],
            title="difference", layout=widgets.Layout(width="480px", height="260px"),
            fig_margin=dict(top=40, bottom=50, left=55, right=15))
        self.difference_figure.add_class("costwidget-difference")
        self.difference_caption = widgets.HTML(value="")
        self.difference_caption.add_class("costwidget-difference-caption")

