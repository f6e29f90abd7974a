"""The two bqplot figures, ROC space (left) and cost space (right): scales, axes and fixed marks.

Components own the marks they draw; `Figures.compose` stacks them in the
order given (later marks are drawn on top), so each figure's z-order is
decided in one place, in `CostWidget`.
"""

from __future__ import annotations

import bqplot as bq
import ipywidgets as widgets

__all__ = ["Figures", "TRIVIAL_COLOR", "FIGURE_LAYOUT", "FIGURE_MARGIN"]

TRIVIAL_COLOR = "#999999"
FIGURE_LAYOUT = dict(width="480px", height="440px")
FIGURE_MARGIN = dict(top=40, bottom=50, left=55, right=15)


def axes(xs, ys, xlabel, ylabel, y_format=".1f"):
    return [bq.Axis(scale=xs, label=xlabel, side="bottom", grid_lines="dashed", tick_format=".1f"),
            bq.Axis(scale=ys, label=ylabel, side="left", grid_lines="dashed", tick_format=y_format)]


class Figures:
    """Scales, axes and the marks that never change: the ROC diagonal, the trivial cost lines and
    the region where no classifier should be used."""

    def __init__(self):
        rx, ry = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=0.0, max=1.0)
        self.roc_scales = {"x": rx, "y": ry}
        self.roc_diagonal = bq.Lines(x=[0.0, 1.0], y=[0.0, 1.0], scales=self.roc_scales,
                                     colors=[TRIVIAL_COLOR], line_style="dashed")
        self.roc = bq.Figure(
            marks=[], axes=axes(rx, ry, "false-positive rate (FPR)", "true-positive rate (TPR)"),
            title="ROC space", layout=widgets.Layout(**FIGURE_LAYOUT), fig_margin=FIGURE_MARGIN,
            min_aspect_ratio=1, max_aspect_ratio=1)
        self.roc.add_class("costwidget-roc")
        # NEC on the envelopes never exceeds 0.5 (the trivial classifiers' best); the axis grows
        # to 1 only when every hull vertex's full cost line is drawn.
        cx, cy = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=0.0, max=0.5)
        self.cost_x, self.cost_y = cx, cy
        self.cost_scales = {"x": cx, "y": cy}
        # Above both trivial lines (y = x and y = 1 - x) no classifier should ever be used.
        self.never_use = bq.Lines(x=[0.0, 0.5, 1.0, 1.0, 0.0, 0.0],
                                  y=[0.0, 0.5, 0.0, 1.0, 1.0, 0.0], scales=self.cost_scales,
                                  fill="inside", colors=["#dddddd"], fill_colors=["#dddddd"],
                                  fill_opacities=[0.5])
        self.trivial = bq.Lines(x=[[0.0, 1.0], [0.0, 1.0]], y=[[0.0, 1.0], [1.0, 0.0]],
                                scales=self.cost_scales, colors=[TRIVIAL_COLOR, TRIVIAL_COLOR],
                                labels=["all negative", "all positive"])
        self.cost = bq.Figure(
            marks=[],
            # Ticks every 0.05 on the 0-0.5 axis need two decimals.
            axes=axes(cx, cy, "probability cost PCF(+)", "normalized expected cost", y_format=".2f"),
            title="Cost space", layout=widgets.Layout(**FIGURE_LAYOUT), fig_margin=FIGURE_MARGIN,
            legend_location="top-right", min_aspect_ratio=1, max_aspect_ratio=1)
        self.cost.add_class("costwidget-cost")

    def compose(self, roc_marks, cost_marks) -> None:
        """Set both figures' marks, bottom first."""
        self.roc.marks = [self.roc_diagonal, *roc_marks]
        self.cost.marks = [self.never_use, self.trivial, *cost_marks]
