"""The constraint tool: Neyman-Pearson (a limit on FPR) or workforce (a limit on cases flagged),
its controls, its line in ROC space, the constrained points and their cost lines."""

from __future__ import annotations

import html
import math

import bqplot as bq
import ipywidgets as widgets
import numpy as np

from ...frontend.contract import CAPACITY_LABEL
from ...model import (
    capacity_from_cases,
    capacity_to_cases,
    counted_rates,
    readable,
    readable_value,
    roc_point_to_cost_line,
    workforce_segment,
)
from ..controls.marks import hold
from ..controls.sliders import SliderBinding
from ..controls.theme import INK
from ..state.component import Component
from ..text.readout import population_text

__all__ = ["ConstraintTool", "capacity_text", "PER_CASE_LIMIT_NOTE"]

_STYLE = {"description_width": "initial"}
_CAPACITY_LABEL = CAPACITY_LABEL  # shared with the page (costwidget.frontend.contract)


def capacity_text(cases: float, n_pos: float, n_neg: float) -> str:
    """The capacity in both units, from the state (the slider shows only its grid).

    Examples
    --------
    >>> from costwidget.widget.tools.constraint import capacity_text
    >>> capacity_text(29926.0, 29926.0, 70074.0)
    '= 29,926 cases, 29.93 % of 100,000'
    """
    total = n_pos + n_neg
    share = f", {readable(100.0 * cases / total)} % of {readable(total)}" if total > 0 else ""
    return f"= {readable(cases)} cases{share}"


#: Said on a widget with per-case costs under a limit: why the panes draw no line for it.
PER_CASE_LIMIT_NOTE = (
    "With per-case costs the limit counts the cases, while the panes draw the cases weighted by "
    "cost: the allowed rules are not an FPR cut of the cost-weighted ROC, so the limit has no "
    "line there. Each ◆ is the deployed rule on the cost-weighted ROC, its dashed line that "
    "rule's cost line."
)


def _made(c, given=None) -> str:
    """How a classifier's rule under the constraint is made (a `ClassifierDecision`): the
    paper's point where the limit binds; its optimum, and that it does not bind, elsewhere.
    ``given`` is the classifier with per-case costs: its rates are then counted on the cases,
    as the limit counts them (the rule's own are cost-weighted)."""
    if c.rule.binding:
        return c.constrained.message
    fpr, tpr, cases = c.rule.fpr, c.rule.tpr, ""
    counted = None if given is None else counted_rates(given, c.rule.threshold)
    if counted is not None:
        (fpr, tpr), cases = counted, " of the cases"
    return (
        f"the limit does not bind at this operating point: its cheapest rule, "
        f"FPR {readable(fpr)}, TPR {readable(tpr)}{cases}, is allowed and deployed "
        f"(the largest TPR the limit allows: {c.constrained.message})"
    )


class ConstraintTool(Component):
    """Owns the constraint controls and marks; draws each visible classifier's rule under the
    active constraint from the widget's `Decision` (``constrained`` maps each to the paper's
    `ConstrainedPoint`, empty when none)."""

    def __init__(self, ctx, *, total_cases: float | None):
        self.ctx = ctx
        self._controls(ctx.state, ctx.tx, total_cases)
        self._layout()
        self._marks(ctx)
        self.constrained = {}
        self.values = {}  # {mark: {trait: value}} of the drawn state (sync)
        self._drawn = None

    def _controls(self, s, tx, total_cases) -> None:
        """The constraint's choice, its limits and the workforce's population, bound to the
        state."""
        self.constraint = widgets.ToggleButtons(
            options=[
                ("none", "none"),
                ("Neyman-Pearson", "neyman_pearson"),
                ("workforce", "workforce"),
            ],
            description="constraint",
            tooltip="a limit the classifier must meet: none, on the false-positive rate, or on "
            "the cases flagged",
            style={**_STYLE, "button_width": "auto"},
            tooltips=[
                "no constraint",
                "a limit on the false-positive rate",
                "a limit on the number of cases flagged positive",
            ],
        )
        self.max_fpr = widgets.FloatSlider(
            description="max false-positive rate",
            min=0.0,
            max=1.0,
            step=0.005,
            readout_format=".3f",
            style=_STYLE,
            tooltip="the largest false-positive rate allowed",
        )
        self.max_fpr.add_class("costwidget-wide-slider")
        self.capacity_unit = widgets.ToggleButtons(
            options=["cases", "% flagged"],
            description="in",
            style={**_STYLE, "button_width": "auto"},
            tooltip="the capacity in cases, or in % of the population",
        )
        top = total_cases if total_cases else 1.0
        # Sends a value when it is let go: its range and step change with the unit, and the
        # browser applies a new value under the old step first (29.93 % became 30) and, with
        # continuous updates, sends that back as a move (the capacity drifted 29,926 -> 30,000
        # -> 100 -> 0 over two unit round trips).
        self.capacity = widgets.FloatSlider(
            description=_CAPACITY_LABEL["cases"],
            min=0.0,
            max=top,
            step=max(top / 1000.0, 1e-6),
            continuous_update=False,
            style=_STYLE,
            tooltip="how many cases the workforce can handle",
        )
        self.capacity.add_class("costwidget-wide-slider")
        self.capacity.add_class("costwidget-capacity")
        self.capacity_value = widgets.HTML()
        self.capacity_value.add_class("costwidget-capacity-value")
        self.n_pos = widgets.FloatText(
            description="population positives",
            style=_STYLE,
            tooltip="positives in the population the workforce serves",
        )
        self.n_neg = widgets.FloatText(
            description="negatives", style=_STYLE, tooltip="negatives in that population"
        )
        for field in (self.n_pos, self.n_neg):
            field.add_class("costwidget-number")
        # Which population the workforce uses: following p(+) at its total, or the user's.
        self.population_value = widgets.HTML()
        self.population_value.add_class("costwidget-population-value")
        self.message = widgets.HTML()
        self.message.add_class("costwidget-constraint-message")
        self.bindings = [
            SliderBinding(self.constraint, tx, lambda v: setattr(s, "constraint", v), "constraint"),
            SliderBinding(self.max_fpr, tx, lambda v: setattr(s, "max_fpr", v), "max FPR"),
            SliderBinding(self.capacity, tx, self._set_capacity, "capacity"),
            SliderBinding(self.n_pos, tx, lambda v: setattr(s, "n_pos", v), "population positives"),
            SliderBinding(self.n_neg, tx, lambda v: setattr(s, "n_neg", v), "negatives"),
        ]
        self.capacity_unit.observe(lambda _ch: self._on_unit(), names=["value"])

    def _layout(self) -> None:
        """``widget``: the choice, then only the active constraint's controls, then the message."""

        def row():  # one Layout per box: a shared one would hide them all at once
            return widgets.Layout(flex_flow="row wrap", align_items="center")

        # Only the active constraint's controls are shown (push_controls).
        self.neyman_pearson_box = widgets.HBox([self.max_fpr], layout=row())
        self.workforce_box = widgets.VBox(
            [
                widgets.HBox(
                    [self.capacity, self.capacity_unit, self.capacity_value], layout=row()
                ),
                widgets.HBox([self.n_pos, self.n_neg, self.population_value], layout=row()),
            ]
        )
        self.widget = widgets.VBox(
            [self.constraint, self.neyman_pearson_box, self.workforce_box, self.message]
        )
        self.widget.add_class("costwidget-constraint")

    def _marks(self, ctx) -> None:
        """The constraint's line and each rule's point in ROC space, each rule's cost line."""
        n = len(ctx.drawings)
        colors = [d.color for d in ctx.drawings]
        rs, cs = ctx.figures.roc_scales, ctx.figures.cost_scales
        self.roc_line = bq.Lines(
            x=[0.0, 0.0], y=[0.0, 1.0], scales=rs, colors=[INK], line_style="dashed", visible=False
        )
        self.roc_points = bq.Scatter(
            x=np.zeros(n),
            y=np.zeros(n),
            scales=rs,
            colors=colors,
            marker="diamond",
            default_size=110,
            stroke=INK,
            visible=False,
        )
        # The constrained classifier's cost line (eq. 14 for workforce, eq. 8 at its ROC point).
        self.cost_lines = bq.Lines(
            x=np.zeros((n, 2)),
            y=np.zeros((n, 2)),
            scales=cs,
            colors=colors,
            line_style="dashed",
            stroke_width=2,
            visible=False,
        )

    def _set_capacity(self, value) -> None:
        s = self.ctx.state
        s.capacity = capacity_to_cases(
            value, self.capacity_unit.value, n_pos=s.n_pos, n_neg=s.n_neg
        )

    def _on_unit(self) -> None:
        if self.ctx.frontend_draws:  # the front end converts the capacity's unit itself
            return
        tx = self.ctx.tx
        with tx.held(), tx.pushing():
            self.push_controls()

    # ------------------------------------------------------------------ drawing
    def current_values(self) -> dict:
        """``{mark: {trait: value}}`` at the current state, recomputed (its last sync may have
        been skipped while a front end drew)."""
        self._drawn = None
        self.sync()
        return self.values

    def sync(self) -> None:
        s = self.ctx.state
        decision = self.ctx.decision
        key = (
            s.constraint,
            s.max_fpr,
            s.capacity,
            s.n_pos,
            s.n_neg,
            tuple(s.visible),
            s.p_pos,
            s.cost_fn,
            s.cost_fp,
        )
        if key == self._drawn:
            return
        # Each classifier's rule under the constraint is the Decision's: the
        # cheapest rule the limit allows, its optimum where the limit does not bind.
        parts = {c.name: c for c in decision.classifiers} if s.constraint != "none" else {}
        constrained = {name: c.constrained for name, c in parts.items()}
        n = len(self.ctx.drawings)
        fpr, tpr = np.zeros(n), np.zeros(n)
        slope, intercept, opacity = np.zeros(n), np.zeros(n), np.zeros(n)
        for i, d in enumerate(self.ctx.drawings):
            c = parts.get(d.name)
            if c is not None:
                fpr[i], tpr[i], opacity[i] = c.rule.fpr, c.rule.tpr, 1.0
                slope[i], intercept[i] = roc_point_to_cost_line(c.rule.fpr, c.rule.tpr)
        if s.constraint == "neyman_pearson":
            line_x, line_y = [s.max_fpr, s.max_fpr], [0.0, 1.0]
        elif s.constraint == "workforce":
            xa, ya, xb, yb = workforce_segment(s.capacity, s.n_pos, s.n_neg)
            line_x, line_y = [xa, xb], [ya, yb]
            if math.isnan(xa):  # the line misses ROC space (capacity beyond all cases)
                line_x, line_y = [1.0, 1.0], [1.0, 1.0]
        else:
            line_x, line_y = [0.0, 0.0], [0.0, 1.0]
        on = s.constraint != "none"
        per_case = getattr(s, "per_case", None)
        given = {} if per_case is None else {c.name: c for c in per_case.given}
        # The rules are in the readout's constraint table; how each is made, on request.
        message = "".join(
            f"<li><b>{html.escape(name)}</b>: {html.escape(_made(c, given.get(name)))}</li>"
            for name, c in parts.items()
        )
        if message:
            message = (
                f"<details><summary>how each constrained rule is made</summary>"
                f"<ul>{message}</ul></details>"
            )
            if per_case is not None:
                message = f"<div>{html.escape(PER_CASE_LIMIT_NOTE)}</div>{message}"
        self.values = {
            # A limit that counts cases is no line of the cost-weighted ROC: none is drawn.
            self.roc_line: {"x": line_x, "y": line_y, "visible": on and per_case is None},
            self.roc_points: {"x": fpr, "y": tpr, "opacities": list(opacity), "visible": on},
            self.cost_lines: {
                "x": np.tile([0.0, 1.0], (n, 1)),
                "y": np.column_stack([intercept, intercept + slope]),
                "opacities": list(opacity),
                "visible": on,
            },
            self.message: {"value": message},
        }
        # While a front end is attached it alone draws these (one writer per mark).
        if not self.ctx.frontend_draws:
            with hold(self.roc_line, self.roc_points, self.cost_lines):
                for mark, traits in self.values.items():
                    for name, value in traits.items():
                        setattr(mark, name, value)
        self.constrained = constrained
        self._drawn = key

    def push_controls(self) -> None:
        if self.ctx.frontend_draws:  # the front end links them (and saves them to the kernel)
            return
        s = self.ctx.state
        constraint, max_fpr, capacity, n_pos, n_neg = self.bindings
        self.constraint.value = s.constraint
        self.neyman_pearson_box.layout.display = (
            None if s.constraint == "neyman_pearson" else "none"
        )
        self.workforce_box.layout.display = None if s.constraint == "workforce" else "none"
        max_fpr.push(s.max_fpr)
        total = s.n_pos + s.n_neg
        unit = self.capacity_unit.value
        # Whole cases when the counts are whole (a slider shows only its step grid).
        whole = float(total).is_integer() and total >= 1
        fmt = (",.0f" if whole else ".4g") if unit == "cases" else ".2f"
        # The format first, in a message of its own: sent with the value, it reached the
        # browser's readout after the value had been written with the old one.
        if self.capacity.readout_format != fmt:
            self.capacity.readout_format = fmt
        # Range, step and value in one message: the browser never sees a value outside the
        # range or off the grid (it would clamp or snap it and send that back as a move).
        with self.capacity.hold_sync():
            if unit == "cases":
                self.capacity.max = max(total, 1e-9)
                self.capacity.step = 1.0 if whole else total / 1000.0
            else:
                self.capacity.max, self.capacity.step = 100.0, 0.01
            self.capacity.description = _CAPACITY_LABEL[unit]
            capacity.push(capacity_from_cases(s.capacity, unit, n_pos=s.n_pos, n_neg=s.n_neg))
        self.capacity_value.value = capacity_text(s.capacity, s.n_pos, s.n_neg)
        self.n_pos.value = readable_value(s.n_pos)
        self.n_neg.value = readable_value(s.n_neg)
        self.population_value.value = html.escape(population_text(s))

    def pane_marks(self) -> dict:
        return {
            "roc": {"constraint_line": [self.roc_line], "constraint_points": [self.roc_points]},
            "cost": {"constraint_lines": [self.cost_lines]},
        }

    def boxes(self) -> dict:
        return {"constraint": [self.widget]}
