"""Where a `CostWidget`'s components go: the z-order of the marks in each pane, and the boxes of
the widget (controls, panes, tables) from top to bottom."""

from __future__ import annotations

import ipywidgets as widgets

__all__ = ["compose_marks", "build_widget", "status_layer"]


def compose_marks(w) -> None:
    """Set both panes' marks from the components, bottom first."""
    layers, op, con, hov = (w.classifier_layers, w.operating_tool, w.constraint_tool, w.hover_tool)
    # Later marks are drawn on top. In the cost pane the click bars lie above the filled
    # areas (which would take the click) and below the hover dots and the drag handle; the
    # cheapest classifier's dot (winner_dot, one point) over the other dots. The handle stays
    # last (it must take the pointer), at the pane's foot.
    w.figures.compose(
        roc_marks=[
            *layers.roc_curves,
            *layers.hull_lines,
            con.roc_line,
            op.iso_lines,
            *layers.hull_vertices,
            layers.half_points,  # issue 23: score >= 0.5
            con.roc_points,
            op.chosen,
            hov.roc_highlight,
        ],
        cost_marks=[
            *w.range_tool.marks,
            *w.fold_spread_layer.marks,
            *w.band_layer.marks,
            *w.honest_layer.marks,  # issue 32
            *w.threshold_choice_view.marks,
            *layers.cost_lines,
            con.cost_lines,
            *layers.envelopes,
            layers.combined,
            layers.winner_strip,
            op.operating_line,
            op.click_bars,
            *layers.segment_hover,
            op.nec_points,
            op.winner_dot,
            hov.cost_highlight,
            op.handle,
        ],
    )


def build_widget(w) -> widgets.VBox:
    """The whole widget: every component's boxes in their places.

    Nothing moves under the pointer (issue 29): what comes and goes never pushes a control or a
    pane. The error banner and the busy sign lie over the headline (`status_layer`), the legend
    keeps the room of every entry it can show (`ClassifierLayers.legend_box`), and every control
    sits above everything that appears (tables, the decision-curve and difference panes, the
    range's tables and the thesis view), which comes last.
    """
    from .theme import style_widget

    wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
    draw = [
        widgets.HTML("<b>draw:</b>"),
        w.classifier_layers.show_cost_lines,
        *w.draw_controls.controls,
    ]
    draw += [w.threshold_choice_view.control, w.decision_curve_view.toggle]  # issue 21
    rows = [widgets.HBox(draw, layout=wrap)]
    if w.difference_view.controls is not None:
        rows.append(w.difference_view.controls)
    # The panes share the width, or stack when it is narrow (theme.CSS). The legend row is
    # above them.
    panes = widgets.HBox([w.figures.roc, w.figures.cost])
    panes.add_class("costwidget-panes")
    widget = widgets.VBox(
        [
            style_widget(),
            status_layer(w),
            w.operating_tool.widget,
            w.classifier_layers.picker_row,
            panes,
            widgets.VBox(rows),
            w.range_tool.controls,
            # The constraint's own controls come and go with it: last of the controls.
            w.constraint_tool.widget,
            # What appears and disappears, under every control. The readout comes right under the
            # constraint that shapes it.
            w.readout_view.widget,
            w.band_readout.widget,  # issue 23: the bands' limits, under the readout
            w.readout_view.constrained_widget,
            w.threshold_choice_view.widget,
            w.decision_curve_view.widget,  # issue 21: the decision-curve pane
            w.difference_view.widget,
            w.range_tool.tables,
            w.hover_tool.info,
        ]
    )
    widget.add_class("costwidget")
    return widget


def status_layer(w) -> widgets.Box:
    """The headline (issue 23: the answer, above the controls and panes), with the error banner
    and the busy sign laid over it: they take no room of their own, so neither pushes the
    controls down when it shows (theme.CSS: ``costwidget-top``, ``costwidget-status``)."""
    status = widgets.Box([w.errors.widget, w._background.widget])
    status.add_class("costwidget-status")
    top = widgets.Box([w.headline.widget, status])
    top.add_class("costwidget-top")
    return top
