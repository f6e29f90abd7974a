"""Where a `CostWidget`'s components go: the z-order of the marks in each pane, and the boxes of
the widget (controls, panes, tables) from top to bottom."""

from __future__ import annotations

import ipywidgets as widgets

__all__ = [
    "ROC_LAYERS",
    "COST_LAYERS",
    "BOX_PLACES",
    "compose_marks",
    "build_widget",
    "status_layer",
]

#: The ROC pane's layers, bottom first (later marks are drawn on top).
ROC_LAYERS = (
    "roc_curves",
    "hull_lines",
    "constraint_line",
    "iso_lines",
    "hull_vertices",
    "half_points",  # score >= 0.5
    "constraint_points",
    "chosen",
    "hover",
)
#: The cost pane's layers, bottom first. The click bars lie above the filled areas (which would
#: take the click) and below the hover dots and the drag handle; the cheapest classifier's dot
#: (winner_dot, one point) over the other dots. The handle stays last (it must take the pointer).
#: ``views``: the curves a view adds (threshold choice), above the fills, under the envelopes.
COST_LAYERS = (
    "range",
    "fold spread",
    "bands",
    "honest",
    "views",
    "cost_lines",
    "constraint_lines",
    "envelopes",
    "combined",
    "winner_strip",
    "operating_line",
    "click_bars",
    "segment_hover",
    "nec_points",
    "winner_dot",
    "hover",
    "handle",
)
#: The places of the widget's boxes, top to bottom. ``headline`` lies under the error banner
#: and the busy sign (`status_layer`); ``panes`` are the two figures; ``draw`` is the "draw:"
#: row. Nothing moves under the pointer: every control sits above everything that comes and
#: goes (tables, the decision-curve and difference panes, the range's tables and the thesis
#: view), which comes last; ``views`` is the place of a view's own box.
BOX_PLACES = (
    "headline",
    "operating_point",
    "picker",
    "panes",
    "draw",
    "difference_controls",
    "range_controls",
    "constraint",  # its own controls come and go with it: last of the controls
    "readout",  # right under the constraint that shapes it
    "band_readout",
    "constrained_readout",
    "threshold_choice",
    "decision_curve",
    "difference",
    "views",
    "range_tables",
    "hover_info",
)


def _placed(parts: list, order: tuple, what: str) -> dict:
    """``{place: [items]}`` for every place of ``order``, the parts' items in the parts' order."""
    out = {place: [] for place in order}
    for part in parts:
        for place, items in part.items():
            if place not in out:
                raise ValueError(
                    f"{place!r} is not one of the {what} ({', '.join(order)}): name one of "
                    "them, or add it where it belongs in costwidget/widget/controls/layout.py."
                )
            out[place] += list(items)
    return out


def _stacked(parts: list, order: tuple, what: str) -> list:
    placed = _placed(parts, order, what)
    return [item for place in order for item in placed[place]]


def compose_marks(figures, components) -> None:
    """Set both panes' marks from the components' ``pane_marks()``, bottom first."""
    marks = [c.pane_marks() for c in components]
    figures.compose(
        roc_marks=_stacked([m.get("roc", {}) for m in marks], ROC_LAYERS, "ROC pane's layers"),
        cost_marks=_stacked([m.get("cost", {}) for m in marks], COST_LAYERS, "cost pane's layers"),
    )


def build_widget(w, components) -> widgets.VBox:
    """The whole widget: every component's boxes in their places (`BOX_PLACES`)."""
    from .theme import style_widget

    placed = _placed([c.boxes() for c in components], BOX_PLACES, "widget's places")
    wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
    draw = widgets.HBox([widgets.HTML("<b>draw:</b>"), *placed["draw"]], layout=wrap)
    # The panes share the width, or stack when it is narrow (theme.CSS). The legend row is
    # above them.
    panes = widgets.HBox([w.figures.roc, w.figures.cost])
    panes.add_class("costwidget-panes")
    placed["headline"] = [status_layer(w, placed["headline"])]
    placed["panes"] = [panes]
    # The "draw:" row and the difference's controls under it are one box.
    placed["draw"] = [widgets.VBox([draw, *placed.pop("difference_controls")])]
    rows = [box for place in BOX_PLACES for box in placed.get(place, [])]
    widget = widgets.VBox([style_widget(), *rows])
    widget.add_class("costwidget")
    return widget


def status_layer(w, top) -> widgets.Box:
    """The headline (``top``: the answer, above the controls and panes), with the error banner
    and the busy sign laid over it: they take no room of their own, so neither pushes the
    controls down when it shows (theme.CSS: ``costwidget-top``, ``costwidget-status``)."""
    status = widgets.Box([w.errors.widget, w._background.widget])
    status.add_class("costwidget-status")
    top = widgets.Box([*top, status])
    top.add_class("costwidget-top")
    return top
