"""The registry of a `CostWidget`'s components: one line per view or tool.

`CostWidget` builds the components of `COMPONENTS` on its `Context`, keeps each as the
attribute of its name (``w.operating_tool``...), and iterates them, in this order, to stack
their marks in the panes and their boxes in the widget (``controls/layout.py``), to redraw
(``sync``), to show the state in the controls (``push_controls``) and to ``close``. The
protocol is `costwidget.widget.state.component.Component`.

The order is the redraw order: the honest curves first (the decision reads them), then the
decision (every view reads it), then the views; the runner-up's band is requested last, after
the bands the user asked for. A component built on another takes it with ``get(name)``, which
builds it first if need be: the build order follows from what each needs.

A new view is its module (a `Component`) plus one `Entry` here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .panes.band_layers import bootstrap_band_layer, fold_spread_layer
from .panes.classifier_layers import ClassifierLayers
from .panes.decision_curve_view import DecisionCurveView
from .panes.difference import DifferenceView
from .panes.honest_layer import honest_layer
from .panes.threshold_choice_view import ThresholdChoiceView
from .state.component import Component
from .state.decision import DecisionSource
from .text.band_readout import BandReadout
from .text.headline import Headline
from .text.readout import Readout
from .tools.constraint import ConstraintTool
from .tools.draw_controls import DrawControls
from .tools.hover import HoverTool
from .tools.operating_point import OperatingPointTool
from .tools.range_of_interest import RangeOfInterest

__all__ = ["Entry", "COMPONENTS", "build_components"]


@dataclass(frozen=True)
class Entry:
    """One component: the widget's attribute ``name`` and ``build(ctx, w, get) -> Component``
    (``w`` the `CostWidget` being built, ``get(name)`` another component)."""

    name: str
    build: Callable


def _honest(ctx, w, get):
    layer = honest_layer(ctx)
    ctx.honest_curves = lambda: layer.drawn  # the decision reads the honest curves on screen
    layer.on_drawn.append(w._honest_drawn)
    return layer


def _decisions(ctx, w, get):
    ctx.decisions = DecisionSource(ctx)  # the one answer: every component below reads it
    return ctx.decisions


def _classifier_layers(ctx, w, get):
    hover = get("hover_tool")
    layers = ClassifierLayers(ctx, tooltip=hover.info)
    hover.connect(layers)
    # Their legend entries while drawn.
    layers.follow_fill_layers(
        bands=get("band_layer"), fold_spread=get("fold_spread_layer"), honest=get("honest_layer")
    )
    return layers


def _draw_controls(ctx, w, get):
    fills = [get("band_layer"), get("fold_spread_layer"), get("honest_layer")]
    return DrawControls(ctx, folds=any(c.folds for c in w.classifiers), fill_layers=fills)


def _per_case(ctx, w, get):
    # First: it refuses the states a widget with per-case costs cannot show, before any view
    # computes for them. A widget without per-case costs gets a component that does nothing.
    if w.per_case is None:
        return Component()
    w.per_case.label_figures(ctx.figures)
    return w.per_case


COMPONENTS: tuple[Entry, ...] = (
    Entry("per_case_costs", _per_case),
    Entry("honest_layer", _honest),
    Entry("decision_source", _decisions),
    Entry("classifier_layers", _classifier_layers),
    Entry("constraint_tool", lambda ctx, w, get: ConstraintTool(ctx, total_cases=w._total)),
    Entry("operating_tool", lambda ctx, w, get: OperatingPointTool(ctx)),
    Entry("readout_view", lambda ctx, w, get: Readout(ctx)),
    Entry("headline", lambda ctx, w, get: Headline(ctx)),
    Entry("band_layer", lambda ctx, w, get: bootstrap_band_layer(ctx)),
    Entry("fold_spread_layer", lambda ctx, w, get: fold_spread_layer(ctx)),
    Entry("difference_view", lambda ctx, w, get: DifferenceView(ctx)),
    Entry("range_tool", lambda ctx, w, get: RangeOfInterest(ctx)),
    Entry("hover_tool", lambda ctx, w, get: HoverTool(ctx)),  # clears a hover the point left
    Entry("band_readout", lambda ctx, w, get: BandReadout(ctx, get("band_layer"))),
    Entry("draw_controls", _draw_controls),
    Entry("threshold_choice_view", lambda ctx, w, get: ThresholdChoiceView(ctx)),
    Entry("decision_curve_view", lambda ctx, w, get: DecisionCurveView(ctx)),
    Entry("runner_up", lambda ctx, w, get: get("decision_source").runner_up),
)


def build_components(ctx, w, entries=COMPONENTS) -> dict:
    """``{name: component}`` in the order of ``entries``, each built once."""
    by_name = {e.name: e for e in entries}
    built: dict = {}
    building: set = set()

    def get(name):
        if name not in built:
            if name in building:
                raise RuntimeError(f"components {sorted(building)} need each other to be built")
            building.add(name)
            built[name] = by_name[name].build(ctx, w, get)
            building.discard(name)
        return built[name]

    for entry in entries:
        get(entry.name)
    return {e.name: built[e.name] for e in entries}
