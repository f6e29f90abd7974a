"""The operating-point tool: p(+), cost and cost-ratio controls; iso lines, chosen vertices,
the operating line with its drag handle, and click targets in the cost pane."""

from __future__ import annotations

import math

import bqplot as bq
import ipywidgets as widgets
import numpy as np

from ...frontend.contract import GESTURE_DIGITS, RATIO_DECADES, RATIO_STEP
from ...model import (
    costs_for_ratio,
    iso_performance_segment,
    move_to_pcf,
    readable,
    readable_value,
    round_significant,
    snap_pcf,
    zero_cost_note,
)
from ..controls.marks import hold
from ..controls.sliders import SliderBinding
from ..controls.theme import INK
from ..state.component import Component

__all__ = [
    "OperatingPointTool",
    "CLICK_STEPS",
    "RATIO_DECADES",
    "GESTURE_DIGITS",
    "format_ratio",
    "pcf_label",
]

_STYLE = {"description_width": "initial"}
#: pcf steps of the click target in the cost pane (a click sets pcf to the nearest step).
CLICK_STEPS = 500
#: The widest the ratio slider grows, in decades either way (10 ** 308 is the largest power of
#: ten a float holds).
_MAX_DECADE = 308


def format_ratio(cost_fn: float, cost_fp: float) -> str:
    """C(-|+)/C(+|-) in words, by the one rule (`costwidget.model.kernels.readable`), "∞" when
    C(+|-) is 0.

    Examples
    --------
    >>> from costwidget.widget.tools.operating_point import format_ratio
    >>> format_ratio(123456.789, 1.0), format_ratio(1.0, 0.0), format_ratio(0.0, 2.0)
    ('123,500', '∞', '0')
    """
    if cost_fp == 0:
        return "∞"
    return readable(cost_fn / cost_fp)


def pcf_label(pcf: float, cost_fn: float, cost_fp: float) -> str:
    """The PCF(+) label beside the p(+) slider, with the one-line note when a cost is 0 (a click
    then changes a cost, not p(+)).

    Examples
    --------
    >>> from costwidget.widget.tools.operating_point import pcf_label
    >>> pcf_label(0.29995937, 1.0, 1.0)
    'PCF(+) = <b>0.3</b>'
    """
    note = zero_cost_note(cost_fn, cost_fp)
    note = f" <i class='costwidget-note'>{note}</i>" if note else ""
    return f"PCF(+) = <b>{readable(pcf)}</b>{note}"


class OperatingPointTool(Component):
    """Owns the operating-point controls and marks; draws them from ``state.pcf``.

    ``best`` maps every classifier's name to ``clf.best(pcf)`` at the drawn
    operating point, for the readout to reuse.
    """

    def __init__(self, ctx):
        self.ctx = ctx
        self._controls(ctx.state, ctx.tx)
        if getattr(ctx.state, "per_case", None) is not None:
            self._label_multipliers(ctx.state.per_case.labels)
        n = len(ctx.drawings)
        colors = [d.color for d in ctx.drawings]
        self._roc_marks(ctx, n, colors)
        self._cost_marks(ctx, n, colors)
        self._dragging = False
        self.best = {}
        self._drawn = None

    def _controls(self, s, tx) -> None:
        """p(+) (slider and field), the two costs and their ratio, PCF(+): bound to the state,
        in ``widget``."""
        # p(+): a long slider (0.001 per key press, ~0.002 per pixel at 600 px) and a number
        # field. The field takes the arrow keys everywhere: Notebook 7 reads ArrowLeft/Right on a
        # focused slider as its own command-mode shortcuts (it handles keys before the page does,
        # JupyterLab after), but never in a text field.
        self.p_pos = widgets.FloatSlider(
            description="p(+)",
            min=0.001,
            max=0.999,
            step=0.001,
            readout=False,
            readout_format=".3f",
            continuous_update=True,
            style=_STYLE,
            tooltip="deployment prevalence: the share of positives",
        )
        self.p_pos.add_class("costwidget-p-pos")
        self.p_pos.add_class("costwidget-wide-slider")
        # A plain FloatText: a BoundedFloatText clamps 2 to 1 silently; the state refuses it in
        # the error banner instead, and the field shows the last good value again.
        self.p_pos_value = widgets.FloatText(step=0.001, tooltip="p(+); arrow keys step by 0.001")
        self.p_pos_value.add_class("costwidget-number")
        self.p_pos_value.add_class("costwidget-p-pos-value")
        self.cost_fn = widgets.FloatText(
            description="C(-|+) false negative",
            style=_STYLE,
            tooltip="cost of a missed positive, in your units",
        )
        self.cost_fp = widgets.FloatText(
            description="C(+|-) false positive",
            style=_STYLE,
            tooltip="cost of a false alarm, in your units",
        )
        for field, name in (
            (self.cost_fn, "costwidget-cost-fn"),
            (self.cost_fp, "costwidget-cost-fp"),
        ):
            field.add_class("costwidget-number")
            field.add_class(name)
        # The ratio slider (log scale, 0.01 decade per step) sends its value while it is
        # dragged, so the text beside it follows the pointer. The browser would send back a
        # value the kernel sets as 10**log10(v), not always v, and that echo could overwrite a
        # newer state: so the kernel never writes a value the slider already shows (the ratio
        # is snapped to 3 significant digits, which stays on the slider's grid position, and
        # SliderBinding.push skips a push to the same position). The text beside it shows the
        # ratio the costs make (the slider shows its grid).
        self.log_ratio = widgets.FloatLogSlider(
            description="C(-|+)/C(+|-)",
            base=10,
            min=-RATIO_DECADES,
            max=RATIO_DECADES,
            step=RATIO_STEP,
            readout=False,
            readout_format=".3g",
            continuous_update=True,
            style=_STYLE,
            tooltip="cost ratio, log scale",
        )
        self.log_ratio.add_class("costwidget-ratio")
        self.log_ratio.add_class("costwidget-wide-slider")
        self.ratio_text = widgets.HTML()
        self.ratio_text.add_class("costwidget-ratio-value")
        self.pcf = widgets.HTML()
        self.pcf.add_class("costwidget-pcf")
        self.bindings = [
            SliderBinding(self.p_pos, tx, lambda v: setattr(s, "p_pos", v), "p(+)"),
            SliderBinding(self.cost_fn, tx, lambda v: s.set_costs(v, s.cost_fp), "C(-|+)"),
            SliderBinding(self.cost_fp, tx, lambda v: s.set_costs(s.cost_fn, v), "C(+|-)"),
            SliderBinding(self.log_ratio, tx, self.set_ratio, "cost ratio"),
            SliderBinding(self.p_pos_value, tx, lambda v: setattr(s, "p_pos", v), "p(+)"),
        ]
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    [self.p_pos, self.p_pos_value, self.pcf],
                    layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
                ),
                widgets.HBox(
                    [self.cost_fn, self.cost_fp, self.log_ratio, self.ratio_text],
                    layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
                ),
            ]
        )
        self.widget.add_class("costwidget-operating-controls")

    def _roc_marks(self, ctx, n, colors) -> None:
        """Each classifier's iso-performance line and its chosen point."""
        rs = ctx.figures.roc_scales
        self.iso_lines = bq.Lines(
            x=np.zeros((n, 2)),
            y=np.zeros((n, 2)),
            scales=rs,
            colors=colors,
            line_style="dash_dotted",
            stroke_width=1.5,
        )
        self.chosen = bq.Scatter(
            x=np.zeros(n), y=np.zeros(n), scales=rs, colors=colors, default_size=90, stroke=INK
        )

    def _cost_marks(self, ctx, n, colors) -> None:
        """The operating line, each classifier's NEC on it, the winner's dot, the click bars
        and the drag handle."""
        cs = ctx.figures.cost_scales
        self.operating_line = bq.Lines(
            x=[0.5, 0.5], y=[0.0, 1.0], scales=cs, colors=[INK], stroke_width=1.5
        )
        self.nec_points = bq.Scatter(
            x=np.zeros(n), y=np.zeros(n), scales=cs, colors=colors, default_size=60, stroke=INK
        )
        # The cheapest classifier's dot again, drawn over the others (a runner-up's dot at almost
        # the same NEC hid it): one point in its colour, hidden at a tie (the dots coincide
        # there anyway). One point only: hidden points would still take the pointer.
        self.winner_dot = bq.Scatter(
            x=[0.5], y=[0.0], scales=cs, colors=[INK], default_size=60, stroke=INK, visible=False
        )
        # Clicking sets the operating point: transparent full-height bars, one per pcf step, above
        # the filled areas (which would take the click) but below the hoverable dots (an overlay
        # interaction would swallow their hover events).
        self.click_pcf = np.linspace(0.0, 1.0, CLICK_STEPS + 1)
        self.click_bars = bq.Bars(
            x=self.click_pcf,
            y=np.full(len(self.click_pcf), 10.0),
            scales=cs,
            colors=["white"],
            opacities=[0.0],
            padding=0.0,
        )
        self.click_bars.on_element_click(self._on_click)
        # The drag handle at the foot of the operating line. The browser owns its position
        # while a drag lasts (the kernel never writes it then: two writers of one trait
        # race); drag events carry the pointer's x, and the kernel only reads those.
        # Its y is a share of the pane's height (a scale of its own), so that it stays at the
        # pane's foot whatever NEC range the axis shows (NecZoom).
        self.handle = bq.Scatter(
            x=[0.5],
            y=[0.05],
            scales={"x": cs["x"], "y": bq.LinearScale(min=0.0, max=1.0)},
            marker="triangle-up",
            default_size=160,
            colors=[INK],
            enable_move=True,
            restrict_x=True,
            update_on_move=False,
        )
        self.handle.on_drag_start(self._on_drag_start)
        self.handle.on_drag(self._on_drag)
        self.handle.on_drag_end(self._on_drag_end)

    def _label_multipliers(self, labels) -> None:
        """Per-case costs: the cost fields are multipliers of each case's costs, labelled with
        what they multiply."""
        self.cost_fn.description, self.cost_fp.description = labels
        self.cost_fn.tooltip = "multiplies each case's cost of a miss (1: as given)"
        self.cost_fp.tooltip = "multiplies each case's cost of a false alarm (1: as given)"
        self.log_ratio.description = "× ratio fn/fp"
        self.log_ratio.tooltip = "ratio of the two multipliers, log scale"

    # ------------------------------------------------------------------ user input
    def for_pcf(self, x, *, digits=None) -> dict:
        """The state that gives PCF(+) = x: p(+) moves and the typed costs stay; where a cost is
        0 (p(+) cannot move PCF(+)) a cost changes instead (`move_to_pcf`). ``w.pcf = x`` uses
        it exactly; a gesture with p(+) rounded to ``digits`` significant digits."""
        s = self.ctx.state
        per_case = getattr(s, "per_case", None)
        if per_case is not None and per_case.moves:  # the twins move with p(+): solved on them
            p = per_case.p_for_pcf(x, digits=digits)
            return {"p_pos": p, "cost_fn": s.cost_fn, "cost_fp": s.cost_fp}
        u_fn, u_fp = s.cost_units  # per-case costs: the multipliers' per-class costs
        fn0, fp0 = s.cost_fn * u_fn, s.cost_fp * u_fp
        p, fn, fp = move_to_pcf(x, p_pos=s.p_pos, cost_fn=fn0, cost_fp=fp0, digits=digits)
        fn = s.cost_fn if fn == fn0 else fn / u_fn
        fp = s.cost_fp if fp == fp0 else fp / u_fp
        return {"p_pos": p, "cost_fn": fn, "cost_fp": fp}

    def set_pcf_exactly(self, x) -> None:
        """``w.pcf = x``: all or nothing; a refusal is shown in the banner and raised."""
        try:
            new = self.for_pcf(x)
        except Exception as exc:
            self.ctx.errors.show(exc, context="pcf refused")
            raise
        self.ctx.tx.update(**new)

    def set_pcf(self, x) -> None:
        """A click or a drag in the cost pane at x: PCF(+) on the 0.001 grid, then p(+) to 3
        significant digits, the costs kept as typed (so PCF(+) lands near x, not exactly on it:
        ``w.pcf = x`` is exact)."""
        s = self.ctx.state
        new = self.for_pcf(snap_pcf(x), digits=GESTURE_DIGITS)
        with s.hold_trait_notifications():
            if new["p_pos"] != s.p_pos:
                s.p_pos = new["p_pos"]
            s.set_costs(new["cost_fn"], new["cost_fp"])

    def set_ratio(self, ratio) -> None:
        """The ratio slider's value, snapped to 3 significant digits, keeping C(+|-) (or C(-|+))."""
        s = self.ctx.state
        ratio = round_significant(float(ratio), GESTURE_DIGITS)
        s.set_costs(*costs_for_ratio(ratio, cost_fn=s.cost_fn, cost_fp=s.cost_fp))

    def _on_click(self, _mark, event) -> None:
        self.ctx.tx.apply(
            "click in cost pane", self.set_pcf, self.click_pcf[int(event["data"]["index"])]
        )

    def _on_drag_start(self, _mark, _event) -> None:
        self._dragging = True

    def _on_drag(self, _mark, event) -> None:
        if self.ctx.frontend_draws:  # the front end draws the drag and sends the state
            return
        self._dragging = True
        self.ctx.tx.apply("drag in cost pane", self.set_pcf, event["point"]["x"])

    def _on_drag_end(self, _mark, event) -> None:
        self._dragging = False
        if self.ctx.frontend_draws:
            return
        self.ctx.tx.apply("drag in cost pane", self.set_pcf, event["point"]["x"])
        with self.ctx.tx.held():
            self.handle.x = [self.ctx.state.pcf]  # the drop point, as the state has it

    # ------------------------------------------------------------------ drawing
    def sync(self) -> None:
        s = self.ctx.state
        key = (s.pcf, tuple(s.visible), self.ctx.decision)
        if key == self._drawn:
            return
        values, ops = self.mark_values()
        # While a front end is attached it alone draws these marks (one writer per mark).
        if not self.ctx.frontend_draws:
            with hold(*values):
                for mark, traits in values.items():
                    if mark is self.handle and self._dragging:
                        continue
                    for name, value in traits.items():
                        setattr(mark, name, value)
        self.best = {d.name: op for d, op in zip(self.ctx.drawings, ops)}
        self._drawn = key

    def drawings_changed(self) -> None:
        self._drawn = None  # the chosen vertices are the new drawings'

    def mark_values(self):
        """``({mark: {trait: value}}, best vertices)`` at the state's operating point, in the
        order the marks are sent."""
        s = self.ctx.state
        pcf = s.pcf
        ops = [d.clf.best(pcf) for d in self.ctx.drawings]
        fpr = np.array([op.fpr for op in ops])
        tpr = np.array([op.tpr for op in ops])
        nec = np.array([op.nec for op in ops])
        xa, ya, xb, yb = iso_performance_segment(fpr, tpr, pcf)
        shown = set(s.visible)
        opacity = [1.0 if d.name in shown else 0.0 for d in self.ctx.drawings]
        values = {
            self.iso_lines: {
                "x": np.column_stack([xa, xb]),
                "y": np.column_stack([ya, yb]),
                "opacities": opacity,
            },
            self.chosen: {"x": fpr, "y": tpr, "opacities": opacity},
            self.operating_line: {"x": [pcf, pcf]},
            self.nec_points: {"x": np.full(len(nec), pcf), "y": nec, "opacities": opacity},
            self.winner_dot: self._winner_values(pcf),
            self.handle: {"x": [pcf]},
        }
        return values, ops

    def _winner_values(self, pcf) -> dict:
        """The winner's dot: the `Decision`'s chosen classifier at its rule's NEC (under a
        constraint, the cheapest rule it allows), in its colour; hidden at a tie or with none
        shown."""
        decision = self.ctx.decision
        if decision.chosen is None:
            return {"x": [pcf], "y": [0.0], "colors": [INK], "visible": False}
        return {
            "x": [pcf],
            "y": [float(decision.rule.nec)],
            "colors": [self.ctx.drawing(decision.chosen).color],
            "visible": True,
        }

    def push_controls(self) -> None:
        """State -> controls (inside ``tx.pushing()``)."""
        if self.ctx.frontend_draws:  # the front end links them (and saves them to the kernel)
            return
        s = self.ctx.state
        p_pos, cost_fn, cost_fp, log_ratio, p_pos_value = self.bindings
        p_pos.push(min(max(s.p_pos, self.p_pos.min), self.p_pos.max))
        # Fields show the rounded number (the state keeps its own); these writes are pushes,
        # which the bindings ignore, so they never change the state.
        p_pos_value.push(readable_value(s.p_pos))
        self.cost_fn.value = readable_value(s.cost_fn)
        self.cost_fp.value = readable_value(s.cost_fp)
        ratio = math.inf if s.cost_fp == 0 else s.cost_fn / s.cost_fp
        lo, hi = -RATIO_DECADES, RATIO_DECADES
        if 0.0 < ratio < math.inf:  # the slider grows to hold any finite ratio
            exponent = math.log10(ratio)
            # ... up to the decades a float holds: the slider computes 10 ** max, and 10 ** 309
            # overflows (a typed cost of 1.8e308 ended in OverflowError). The text beside the
            # slider still shows the exact ratio.
            lo = max(min(lo, math.floor(exponent)), -_MAX_DECADE)
            hi = min(max(hi, math.ceil(exponent)), _MAX_DECADE)
        # The handle never leaves the range it is in: the browser would clamp it and, as the
        # slider sends while it moves, send the clamped value back as a move (a ratio typed as
        # 1 after 123456.789 became 100 once the range shrank around the old handle). So the
        # range widens to hold both positions, the value moves, and then the range narrows;
        # each step in one message, with the value always on the grid.
        old_lo, old_hi = self.log_ratio.min, self.log_ratio.max
        if (lo, hi) != (old_lo, old_hi):
            with self.log_ratio.hold_sync():
                self.log_ratio.max, self.log_ratio.min = max(hi, old_hi), min(lo, old_lo)
        log_ratio.push(min(max(ratio, 10.0**lo), 10.0**hi))  # 0 and ∞ at the ends
        if (lo, hi) != (old_lo, old_hi):
            with self.log_ratio.hold_sync():
                self.log_ratio.max, self.log_ratio.min = hi, lo
        self.ratio_text.value = f"= {format_ratio(s.cost_fn, s.cost_fp)}"
        self.pcf.value = pcf_label(s.pcf, s.cost_fn, s.cost_fp)

    def pane_marks(self) -> dict:
        return {
            "roc": {"iso_lines": [self.iso_lines], "chosen": [self.chosen]},
            "cost": {
                "operating_line": [self.operating_line],
                "click_bars": [self.click_bars],
                "nec_points": [self.nec_points],
                "winner_dot": [self.winner_dot],
                "handle": [self.handle],
            },
        }

    def boxes(self) -> dict:
        return {"operating_point": [self.widget]}
