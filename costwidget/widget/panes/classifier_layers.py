"""One layer of marks per classifier (ROC curve, hull, envelope, cost lines, hover targets), the
best-of-all envelope with its winner strip, and the legend row: a checkbox per classifier in its
colour (shows or hides it) and the marks common to all."""

from __future__ import annotations

import bqplot as bq
import ipywidgets as widgets
import numpy as np

from ...model import combined_envelope, honest_winners
from ..controls.marks import hold
from ..controls.sliders import SliderBinding
from ..controls.theme import ALWAYS, HALF_POINT_MARKER, INK, legend_html, swatch_class, swatch_css
from ..state.component import Component
from .figures import TRIVIAL_COLOR
from .fill_layer import OUTLINE_ABOVE

__all__ = ["ClassifierLayers", "possible_legend_kinds"]


class ClassifierLayers(Component):
    """Marks drawn once per classifier from the model; `sync` only shows and hides them.

    ``tooltip`` is the HTML widget the hover targets show as their bqplot tooltip.
    """

    def __init__(self, ctx, tooltip):
        self.ctx = ctx
        rs, cs = ctx.figures.roc_scales, ctx.figures.cost_scales
        ds = ctx.drawings
        self._roc_marks(rs, ds, tooltip)
        self._cost_marks(cs, ds, tooltip)
        self._picker(ctx, ds)
        self._legend_row(ds)
        self._drawn = None
        self._legend_drawn = None
        self._fill_layers = {}  # legend kind -> FillBetweenLayer (see follow_fill_layers)

    def _roc_marks(self, rs, ds, tooltip) -> None:
        """Per classifier: its ROC curve, its hull and the hull's vertices (the hover targets);
        and the points of threshold 0.5."""
        self.roc_curves = [
            bq.Lines(
                x=d.roc_x, y=d.roc_y, scales=rs, colors=[d.color], opacities=[0.45], stroke_width=1
            )
            for d in ds
        ]
        self.hull_lines = [
            bq.Lines(
                x=d.hull_fpr,
                y=d.hull_tpr,
                scales=rs,
                colors=[d.color],
                stroke_width=2,
                labels=[d.name],
            )
            for d in ds
        ]
        self.hull_vertices = [
            bq.Scatter(
                x=d.hull_fpr,
                y=d.hull_tpr,
                scales=rs,
                colors=[d.color],
                default_size=24,
                tooltip=tooltip,
            )
            for d in ds
        ]
        # The ROC point of threshold 0.5 (predicted positive when score >= 0.5, as sklearn), for
        # the classifiers whose scores are probabilities (`model.roc_point_at_threshold`).
        self.half_points = bq.Scatter(
            x=[0.0],
            y=[0.0],
            scales=rs,
            colors=[INK],
            marker=HALF_POINT_MARKER,
            default_size=70,
            stroke=INK,
            stroke_width=1.2,
            visible=False,
        )

    def _cost_marks(self, cs, ds, tooltip) -> None:
        """Per classifier: its hull points' cost lines, its envelope and the segments' hover
        targets; the best of all and the winner strip."""
        self.cost_lines = []
        for d in ds:
            x, y = d.cost_lines()
            # Thin and faint: many lines, under the envelope they make (clipped at the axis top).
            self.cost_lines.append(
                bq.Lines(
                    x=x,
                    y=y,
                    scales=cs,
                    colors=[d.color],
                    opacities=[0.25],
                    stroke_width=0.75,
                    visible=False,
                )
            )
        # The legend is a row of its own above the panes (never over the data): no SVG legends.
        self.envelopes = [
            bq.Lines(
                x=d.env_x, y=d.env_y, scales=cs, colors=[d.color], stroke_width=2.5, labels=[d.name]
            )
            for d in ds
        ]
        self.segment_hover = [
            bq.Scatter(
                x=d.segment_mid,
                y=d.clf.nec(d.segment_mid),
                scales=cs,
                colors=[d.color],
                default_size=16,
                opacities=[0.6],
                tooltip=tooltip,
            )
            for d in ds
        ]
        self.combined = bq.Lines(
            x=[0.0, 1.0],
            y=[0.0, 0.0],
            scales=cs,
            colors=[INK],
            stroke_width=1.5,
            line_style="dashed",
            labels=["best of all"],
        )
        self.winner_strip = bq.Lines(
            x=[[0.0, 1.0]], y=[[0.0, 0.0]], scales=cs, colors=[TRIVIAL_COLOR], stroke_width=10
        )

    def _picker(self, ctx, ds) -> None:
        """The show/hide checkboxes (one per classifier) and the cost-lines checkbox."""
        # Checkbox descriptions render as text, not HTML, so names need no escaping here. Each
        # checkbox carries its classifier's colour (a CSS line before the name): it is the legend.
        self.picker = {}
        for d in ds:
            box = widgets.Checkbox(
                value=True,
                description=d.label,
                indent=False,
                tooltip="show or hide this classifier",
                layout=widgets.Layout(width="auto"),
            )
            if swatch_class(d.color):
                box.add_class(swatch_class(d.color))
            self.picker[d.name] = box
        for name, box in self.picker.items():
            box.observe(lambda ch, name=name: self._on_pick(name, ch["new"]), names=["value"])
        self.show_cost_lines = widgets.Checkbox(
            description="cost lines of all hull points",
            value=False,
            style={"description_width": "initial"},
            tooltip="each ROC hull point's line NEC = (1 − TPR − FPR)·PCF(+) + FPR; their lower "
            "envelope is the cost curve",
        )
        self._cost_lines_binding = SliderBinding(
            self.show_cost_lines,
            ctx.tx,
            lambda v: setattr(ctx.state, "show_cost_lines", v),
            "cost lines",
        )

    def _legend_row(self, ds) -> None:
        """The legend above the panes, in one row with the picker."""
        self._swatch_css = swatch_css(d.color for d in ds)
        self.legend = widgets.HTML(value=self._swatch_css + legend_html())
        self.legend.add_class("costwidget-legend-fixed")
        # An entry that comes or goes never moves the panes under the legend. A
        # hidden copy with every entry this widget can show lies under the legend in one grid
        # cell (theme.CSS), so the legend always has the room of all of them.
        self.legend_room = widgets.HTML(
            value=legend_html(
                possible_legend_kinds(ds), colors=[d.color for d in ds], band_level=1.0
            )
        )
        self.legend_room.add_class("costwidget-legend-room")
        self.legend_box = widgets.Box([self.legend_room, self.legend])
        self.legend_box.add_class("costwidget-legend-stack")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        # Rows wrap, so many classifiers or long names never push controls off the edge.
        self.picker_row = widgets.HBox(
            [widgets.HTML("<b>show:</b>"), *self.picker.values(), self.legend_box], layout=wrap
        )
        self.picker_row.add_class("costwidget-legend")

    def follow_fill_layers(self, **layers) -> None:
        """Name the bands (``bands=``, ``fold_spread=``: `FillBetweenLayer`) in the legend while
        they are drawn, not while they compute: the legend is redrawn whenever one draws."""
        self._fill_layers.update(layers)
        for layer in layers.values():
            layer.on_drawn.append(self._sync_legend)

    # ------------------------------------------------------------------ user input
    def _on_pick(self, name, shown) -> None:
        tx = self.ctx.tx

        def toggle():
            current = set(self.ctx.state.visible)
            current = current | {name} if shown else current - {name}
            self.ctx.state.visible = [n for n in self.ctx.names if n in current]

        if not tx.is_pushing:
            tx.apply("classifier picker", toggle)

    # ------------------------------------------------------------------ drawing
    def sync(self) -> None:
        self._sync_marks()
        self._sync_legend()

    def drawings_changed(self) -> None:
        """Each classifier's marks take the new drawing's curves (the cost-weighted twins at a
        new setting); shown and hidden by the `sync` that follows."""
        ds = self.ctx.drawings
        groups = (self.roc_curves, self.hull_lines, self.hull_vertices, self.envelopes)
        with hold(*[m for g in groups for m in g], *self.cost_lines, *self.segment_hover):
            for i, d in enumerate(ds):
                self.roc_curves[i].x, self.roc_curves[i].y = d.roc_x, d.roc_y
                for mark in (self.hull_lines[i], self.hull_vertices[i]):
                    mark.x, mark.y = d.hull_fpr, d.hull_tpr
                self.cost_lines[i].x, self.cost_lines[i].y = d.cost_lines()
                self.envelopes[i].x, self.envelopes[i].y = d.env_x, d.env_y
                self.segment_hover[i].x = d.segment_mid
                self.segment_hover[i].y = d.clf.nec(d.segment_mid)
        for d in ds:  # the AUC in the label is the new twin's
            self.picker[d.name].description = d.label
        self._drawn = None

    def legend_kinds(self) -> list:
        """The kinds of mark on screen now (`theme.LEGEND_KINDS`), read from the state."""
        s = self.ctx.state
        visible = self.ctx.visible()
        kinds = list(ALWAYS)
        if any(d.half_point is not None for d in visible):
            kinds.append("half")
        if s.show_cost_lines and visible:
            kinds.append("cost_lines")
        for kind, enabled in (
            ("bands", s.show_bands),
            ("fold_spread", s.show_fold_spread),
            ("honest", s.show_honest),
        ):
            layer = self._fill_layers.get(kind)
            if layer.drawn if layer is not None else enabled and visible:
                kinds.append(kind)
        # (per-case costs draw no threshold-choice curves: their pane shows a table instead)
        if s.threshold_choice != "none" and visible and getattr(s, "per_case", None) is None:
            kinds.append("threshold_choice")
        if s.constraint in ("neyman_pearson", "workforce") and visible:
            kinds.append(s.constraint)
        if len(s.range_of_interest) == 2:
            kinds.append("range")
        return kinds

    def _sync_legend(self) -> None:
        s = self.ctx.state
        kinds = self.legend_kinds()
        colors = [d.color for d in self.ctx.visible()]
        bands = self._fill_layers.get("bands")
        outlined = len(bands.drawn if bands is not None else colors) > OUTLINE_ABOVE
        key = (tuple(kinds), tuple(colors), s.band_level, outlined)
        if key == self._legend_drawn:
            return
        self.legend.value = self._swatch_css + legend_html(
            kinds, colors=colors, band_level=s.band_level, bands_outlined=outlined
        )
        self._legend_drawn = key

    def _sync_marks(self) -> None:
        s = self.ctx.state
        per_vertex = s.show_cost_lines
        honest = self.honest_for_strip()
        key = (tuple(s.visible), per_vertex, tuple((n, id(c)) for n, c in (honest or {}).items()))
        if key == self._drawn:
            return
        visible = self.ctx.visible()
        shown = {d.name for d in visible}
        if visible:
            best = combined_envelope([d.clf for d in visible])
            comb_x = np.concatenate([best["pcf_lo"].to_numpy(), best["pcf_hi"].to_numpy()[-1:]])
            comb_y = np.concatenate([best["nec_lo"].to_numpy(), best["nec_hi"].to_numpy()[-1:]])
            colors = {d.name: d.color for d in visible}
            # the strip compares the honest curves when asked and all are drawn
            wins = best if honest is None else honest_winners(honest)
            strip_x = np.column_stack([wins["pcf_lo"], wins["pcf_hi"]])
            strip_colors = [colors.get(n, TRIVIAL_COLOR) for n in wins["classifier"]]
        else:
            comb_x, comb_y = np.array([0.0, 0.5, 1.0]), np.array([0.0, 0.5, 0.0])
            strip_x, strip_colors = np.array([[0.0, 1.0]]), [TRIVIAL_COLOR]
        groups = (
            self.roc_curves,
            self.hull_lines,
            self.hull_vertices,
            self.envelopes,
            self.segment_hover,
        )
        half = [d for d in visible if d.half_point is not None]
        marks = [m for g in groups for m in g] + [
            *self.cost_lines,
            self.combined,
            self.winner_strip,
            self.half_points,
        ]
        with hold(*marks):
            for i, d in enumerate(self.ctx.drawings):
                on = d.name in shown
                for group in groups:
                    group[i].visible = on
                self.cost_lines[i].visible = on and per_vertex
            self.combined.x, self.combined.y = comb_x, comb_y
            self.winner_strip.x = strip_x
            self.winner_strip.y = np.zeros_like(strip_x)
            self.winner_strip.colors = strip_colors
            if half:
                self.half_points.x = [d.half_point[0] for d in half]
                self.half_points.y = [d.half_point[1] for d in half]
                self.half_points.colors = [d.color for d in half]
            self.half_points.visible = bool(half)
        self._drawn = key

    def honest_for_strip(self):
        """``{name: honest curve}`` the winner strip compares: with ``honest_strip``
        on and every visible classifier's honest curve on screen; else None (the envelopes)."""
        s, ctx = self.ctx.state, self.ctx
        if not (s.honest_strip and s.show_honest) or ctx.honest_curves is None:
            return None
        curves = ctx.honest_curves()
        visible = [d.name for d in ctx.visible()]
        if not visible or any(n not in curves for n in visible):
            return None
        return {n: curves[n] for n in visible}

    def push_controls(self) -> None:
        shown = set(self.ctx.state.visible)
        for name, box in self.picker.items():
            box.value = name in shown
        self.show_cost_lines.value = self.ctx.state.show_cost_lines

    def pane_marks(self) -> dict:
        return {
            "roc": {
                "roc_curves": self.roc_curves,
                "hull_lines": self.hull_lines,
                "hull_vertices": self.hull_vertices,
                "half_points": [self.half_points],
            },
            "cost": {
                "cost_lines": self.cost_lines,
                "envelopes": self.envelopes,
                "combined": [self.combined],
                "winner_strip": [self.winner_strip],
                "segment_hover": self.segment_hover,
            },
        }

    def boxes(self) -> dict:
        return {"picker": [self.picker_row], "draw": [self.show_cost_lines]}


def possible_legend_kinds(drawings) -> list:
    """Every kind of legend entry (`theme.LEGEND_KINDS`) a widget over ``drawings`` can show.

    The two constraints never show together: the workforce entry, the longer of the two, stands
    for both.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.widget.panes.classifier_layers import possible_legend_kinds
    >>> w = cw.CostWidget([cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")])
    >>> possible_legend_kinds(w._ctx.drawings)[-5:]
    ['cost_lines', 'bands', 'threshold_choice', 'workforce', 'range']
    >>> w.close()
    """
    kinds = list(ALWAYS)
    if any(d.half_point is not None for d in drawings):
        kinds.append("half")
    kinds += ["cost_lines", "bands"]
    # The classifier as given, not a per-case widget's cost-weighted twin: the twin keeps
    # neither folds nor cases, yet the fold spread and the honest curves are drawn from them.
    if any(d.given.folds for d in drawings):
        kinds.append("fold_spread")
    if any(d.given.sample is not None or d.given.score_counts is not None for d in drawings):
        kinds.append("honest")
    return kinds + ["threshold_choice", "workforce", "range"]
