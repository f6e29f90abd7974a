"""The two bqplot figures, ROC space (left) and cost space (right): scales, axes and fixed marks.

Components own the marks they draw; `Figures.compose` stacks them in the
order given (later marks are drawn on top), so each figure's z-order is
decided in one place, in `CostWidget`. Their size comes from the widget's
CSS (`theme.CSS`: the panes share the width, or stack when it is narrow), not
from fixed pixels.
"""

from __future__ import annotations

import bqplot as bq
import ipywidgets as widgets

from ..controls.theme import NEVER_USE, NEVER_USE_OPACITY

__all__ = ["Figures", "TRIVIAL_COLOR", "FIGURE_MARGIN", "pane_figure"]

#: The trivial classifiers' lines: a mid grey reads on light and dark backgrounds alike.
TRIVIAL_COLOR = "#999999"
# Top + bottom = left + right: bqplot keeps the *figure* square (min/max_aspect_ratio=1), so the
# plot area is square too; the right margin also leaves room for the last tick label. The top
# holds the title whole: bqplot sets its baseline 1 em below half the top margin, and at 40 px
# its descenders reached into the plot area, where the trivial lines meet at (0.5, 0.5).
FIGURE_MARGIN = dict(top=52, bottom=50, left=60, right=42)


def axes(xs, ys, xlabel, ylabel, y_format=".1f"):
    return [
        bq.Axis(scale=xs, label=xlabel, side="bottom", grid_lines="dashed", tick_format=".1f"),
        bq.Axis(scale=ys, label=ylabel, side="left", grid_lines="dashed", tick_format=y_format),
    ]


def pane_figure(css_class: str, *, wide: bool = False, **kwargs) -> bq.Figure:
    """A bqplot figure sized by the widget's CSS (a square pane, or a wide one).

    No toolbar: it appears over the title on hover, and its pan-zoom would take the clicks that
    set the operating point (the widget has its own exports: ``w.save``, ``w.to_figure``).
    """
    fig = bq.Figure(layout=widgets.Layout(), display_toolbar=False, **kwargs)
    fig.add_class("costwidget-wide-pane" if wide else "costwidget-pane")
    fig.add_class(css_class)
    return fig


class Figures:
    """Scales, axes and the marks that never change: the ROC diagonal, the trivial cost lines and
    the region where no classifier should be used."""

    def __init__(self):
        rx, ry = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=0.0, max=1.0)
        self.roc_scales = {"x": rx, "y": ry}
        self.roc_diagonal = bq.Lines(
            x=[0.0, 1.0],
            y=[0.0, 1.0],
            scales=self.roc_scales,
            colors=[TRIVIAL_COLOR],
            line_style="dashed",
        )
        self.roc = pane_figure(
            "costwidget-roc",
            marks=[],
            axes=axes(rx, ry, "false-positive rate (FPR)", "true-positive rate (TPR)"),
            title="ROC space",
            fig_margin=FIGURE_MARGIN,
            min_aspect_ratio=1,
            max_aspect_ratio=1,
        )
        # NEC on the envelopes never exceeds 0.5 (the trivial classifiers' best), so the axis
        # stops there; lines that go higher (every hull vertex's cost line) are clipped at it.
        cx, cy = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=0.0, max=0.5)
        self.cost_x, self.cost_y = cx, cy
        self.cost_scales = {"x": cx, "y": cy}
        # Above either trivial line (y = x or y = 1 - x, i.e. above min(x, 1 - x)) a trivial
        # classifier costs less: no classifier should be used there.
        # Drawn up to NEC 1: bqplot clips every mark to the plot area (its clip path), so the
        # region fills the plot to its top edge, above the axis's last tick (the scale is padded).
        self.never_use = bq.Lines(
            x=[0.0, 0.5, 1.0, 1.0, 0.0, 0.0],
            y=[0.0, 0.5, 0.0, 1.0, 1.0, 0.0],
            scales=self.cost_scales,
            fill="inside",
            colors=[NEVER_USE],
            fill_colors=[NEVER_USE],
            fill_opacities=[NEVER_USE_OPACITY],
            stroke_width=0,
        )
        self.trivial = bq.Lines(
            x=[[0.0, 1.0], [0.0, 1.0]],
            y=[[0.0, 1.0], [1.0, 0.0]],
            scales=self.cost_scales,
            colors=[TRIVIAL_COLOR, TRIVIAL_COLOR],
            labels=["all negative", "all positive"],
        )
        self.cost = pane_figure(
            "costwidget-cost",
            marks=[],
            # The axis zooms (NecZoom): "~f" writes each tick with the decimals it needs
            # (0.05, 0.1; 0.002, 0.004), where a fixed ".2f" read 0.00, 0.00 once zoomed.
            axes=axes(cx, cy, "probability cost PCF(+)", "normalized expected cost", y_format="~f"),
            title="Cost space",
            fig_margin=FIGURE_MARGIN,
            min_aspect_ratio=1,
            max_aspect_ratio=1,
        )

    def compose(self, roc_marks, cost_marks) -> None:
        """Set both figures' marks, bottom first."""
        self.roc.marks = [self.roc_diagonal, *roc_marks]
        self.cost.marks = [self.never_use, self.trivial, *cost_marks]
