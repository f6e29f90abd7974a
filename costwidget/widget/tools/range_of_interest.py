"""The range of interest on the cost pane: a brush, its shading, the range table and the thesis view.

A client who can only name a *range* of cost ratios asks which classifier to
pick over it and at which thresholds to run it (Al-Saffar (2018), ch. 4-5).
The range lives in the state as ``range_of_interest``: ``[lo, hi]`` in PCF(+),
or ``[]`` for none. This module owns everything drawn for it; every number
comes from :func:`costwidget.model.comparison.ranges.range_summary` and its helpers.

It is a component of `CostWidget` (see :meth:`RangeOfInterest.sync`).

Brushing: a "brush range" toggle makes a bqplot ``BrushIntervalSelector`` the
cost figure's interaction (an interaction takes the mouse, so it is off unless
asked for); the range is shaded live while brushing and, on release, snapped
to the thesis's 0.05 grid and written to the state.
"""

from __future__ import annotations

import html
import math
import re

import bqplot as bq
import ipywidgets as widgets
import numpy as np

from ...model import check_range, range_summary, snap_range
from ..controls.theme import RANGE_EDGE, RANGE_FILL
from ..panes.thesis_view import ThesisView
from ..state.component import Component

__all__ = ["RangeOfInterest"]

SHADE_COLOR, SHADE_FILL = RANGE_EDGE, RANGE_FILL
_RANGE_TEXT = re.compile(r"^\s*\[?\s*([-+0-9.eE]+)\s*(?:,|-|–|to|\s)\s*([-+0-9.eE]+)\s*\]?\s*$")


class RangeOfInterest(Component):
    """Range-of-interest overlay for the cost pane, with its table and the thesis view.

    A component like the others: it owns its controls, its marks (the shading,
    the brush) and their observers, and draws from the whole state in
    :meth:`sync`, which `CostWidget` calls inside its transaction. A control
    move goes through the transaction (a refused range shows in the banner and
    the last good state is kept); a refused range set from Python raises.

    Parameters
    ----------
    ctx : Context
        Reads ``range_of_interest``, ``visible`` and ``p_pos`` of the state; draws on the cost
        pane (``ctx.figures.cost``, ``ctx.figures.cost_x``).
    step : float, default 0.05
        The thesis's grid step; range ends are multiples of it.

    Attributes
    ----------
    widget : ipywidgets.VBox
        Controls, the range table and the thesis view, to place below the panes.
    controls, tables : ipywidgets.HBox, ipywidgets.VBox
        The two parts of ``widget``: the controls, and what appears with a range (the
        `CostWidget` places them apart, the tables under every control).
    marks : list of bqplot marks
        The shading, to add (first, under the curves) to the cost pane's marks.
    table : DataFrame or None
        :func:`~costwidget.model.comparison.ranges.range_summary` of the visible
        classifiers over the range (``axis="pcf"``), or None without a range.

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_confusion(tp=9, fn=1, fp=4, tn=6, name="a")
    >>> b = cw.Classifier.from_confusion(tp=7, fn=3, fp=1, tn=9, name="b")
    >>> w = cw.CostWidget([a, b])
    >>> w.range_of_interest = [0.5, 0.75]
    >>> w.range_tool.table[["mtmcr", "cst", "cst_exact", "recommended"]].round(2)
                mtmcr     cst  cst_exact  recommended
    classifier
    a           127.5  137.06      22.84         True
    b           135.0  141.75      23.62        False
    >>> try:
    ...     w.range_of_interest = [0.5, 0.72]   # refused: raises, the last good range is kept
    ... except ValueError as exc:
    ...     print(exc)
    range of interest: 0.72 is not a multiple of 0.05 (the thesis's grid step); use [0.5, 0.7] or [0.5, 0.75].
    >>> w.range_of_interest
    [0.5, 0.75]
    >>> w.close()
    """

    def __init__(self, ctx, *, step=0.05):
        self.ctx, self.step = ctx, step
        self.state, self.errors = ctx.state, ctx.errors
        self.figure = ctx.figures.cost
        self.names = list(ctx.names)
        self.classifiers = {d.name: d.clf for d in ctx.drawings}
        self.colors = {d.name: d.color for d in ctx.drawings}
        self._table = None
        self._drawn = None
        self._other_interaction = None
        cost_x_scale = ctx.figures.cost_x
        # Shading on the pane's own scales, from NEC 0 (where the envelopes start) up past the
        # plot's top edge, where the clip path cuts it. (On a 0-1 y scale of its own, bqplot
        # laid it out with another padding, ~7 px below NEC 0 and short of the top.)
        self.shade = bq.Lines(
            x=[0.0, 0.0],
            y=[0.0, 1.0],
            scales=ctx.figures.cost_scales,
            fill="inside",
            colors=[SHADE_COLOR],
            fill_colors=[SHADE_FILL],
            fill_opacities=[0.25],
            stroke_width=0.5,
            visible=False,
        )
        self.marks = [self.shade]
        self.brush = bq.interacts.BrushIntervalSelector(scale=cost_x_scale, color=SHADE_COLOR)
        self.brush_toggle = widgets.ToggleButton(
            value=False,
            description="brush range",
            icon="arrows-h",
            tooltip="Drag in the cost pane to choose a range of interest (PCF(+)); "
            "clicks set the operating point again when this is off.",
        )
        self.range_text = widgets.Text(
            value="",
            placeholder="e.g. 0.30, 0.55",
            description="range PCF(+)",
            continuous_update=False,
            style={"description_width": "initial"},  # never "range PCF…"
            tooltip="lo, hi: PCF(+) values on the thesis's 0.05 grid",
            layout=widgets.Layout(width="250px"),
        )
        self.clear_button = widgets.Button(description="clear", tooltip="No range of interest")
        self.thesis_toggle = widgets.ToggleButton(
            value=False, description="thesis view", tooltip="MTMCS and optimal-threshold charts"
        )
        self.table_html = widgets.HTML(value="")
        self.table_html.add_class("costwidget-range-table")
        self.thesis = ThesisView([d.clf for d in ctx.drawings], self.colors)
        self.controls = widgets.HBox(
            [
                widgets.HTML("<b>Range of interest</b>"),
                self.brush_toggle,
                self.range_text,
                self.clear_button,
                self.thesis_toggle,
            ],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        # What appears with a range (its tables, the thesis view): `layout` puts it under every
        # control, so that it never moves one.
        self.tables = widgets.VBox([self.table_html, self.thesis.widget])
        self.widget = widgets.VBox([self.controls, self.tables])
        for box in (self.widget, self.controls, self.tables):  # placed apart in a CostWidget
            box.add_class("costwidget-range")
        self._wire()

    # ------------------------------------------------------------------ API
    @property
    def table(self):
        """The range table (a copy), or None when no range is set."""
        return None if self._table is None else self._table.copy()

    def sync(self) -> None:
        """Draw from the state (shading, table, thesis view); skip when nothing it shows changed.

        Raises when the range cannot be drawn: the transaction then keeps the last good state.
        """
        s = self.state
        value = check_range(list(s.range_of_interest), step=self.step)
        key = (tuple(value), tuple(s.visible), s.p_pos, self.thesis_toggle.value)
        if key == self._drawn:
            return
        # Everything is computed first and then drawn (nothing half-updated).
        shown = [n for n in self.names if n in set(s.visible)]
        table = None
        if value and shown:
            table = range_summary(
                {n: self.classifiers[n] for n in shown},
                value[0],
                value[1],
                step=self.step,
                axis="pcf",
            )
        self._table = table
        self._draw_shade(value)
        self.table_html.value = _table_html(table, value, self.colors, no_visible=not shown)
        if self.thesis_toggle.value:
            self.thesis.show(s.visible, value, s.p_pos)
        else:
            self.thesis.hide()
        self._drawn = key

    def drawings_changed(self) -> None:
        """The range table and the thesis view read the new drawings' classifiers."""
        self.classifiers = {d.name: d.clf for d in self.ctx.drawings}
        self.thesis.use([d.clf for d in self.ctx.drawings])
        self._drawn = None

    def push_controls(self) -> None:
        """State -> the range field and the brush (call inside ``tx.pushing()``)."""
        value = list(self.state.range_of_interest)
        self.range_text.value = f"{value[0]:g}, {value[1]:g}" if value else ""
        selected = None if self.brush.selected is None else list(self.brush.selected)
        if value and selected != value:
            self.brush.selected = np.array(value, dtype=float)
        elif not value and selected:
            self.brush.selected = None

    # ------------------------------------------------------------------ wiring
    def _wire(self):
        tx, guard = self.ctx.tx, self.errors.guard
        self.brush.observe(self._on_brush, names=["selected", "brushing"])
        self.brush_toggle.observe(guard("brush")(self._on_brush_toggle), names=["value"])
        self.range_text.observe(self._on_text, names=["value"])
        self.clear_button.on_click(lambda _b: tx.apply("range of interest", self._set, []))
        self.thesis_toggle.observe(guard("thesis view")(self._on_thesis_toggle), names=["value"])

    def _set(self, value) -> None:
        self.state.range_of_interest = list(value)

    def _draw_shade(self, value) -> None:
        with self.shade.hold_sync():
            if value:
                lo, hi = value
                self.shade.x, self.shade.y = [lo, hi, hi, lo, lo], [0.0, 0.0, 1.0, 1.0, 0.0]
            self.shade.visible = bool(value)

    # ------------------------------------------------------------------ controls -> state
    def _on_brush(self, change):
        tx = self.ctx.tx
        if tx.is_pushing:
            return
        selected = self.brush.selected
        if selected is None or len(selected) != 2:
            return
        lo, hi = sorted(float(v) for v in selected)
        if self.brush.brushing:
            # Shade live while the mouse is down; the state changes once, on release.
            with tx.held():
                self._draw_shade([lo, hi])
            return
        tx.apply("brush", lambda: self._set(snap_range(lo, hi, step=self.step)))
        with tx.held():  # the snapped range (or the kept one), not the brushed span
            self._draw_shade(list(self.state.range_of_interest))

    def _on_brush_toggle(self, change):
        tx = self.ctx.tx
        with tx.held(), tx.pushing():
            if change["new"]:
                if self.figure.interaction is not self.brush:
                    self._other_interaction = self.figure.interaction
                value = list(self.state.range_of_interest)
                self.brush.selected = np.array(value, dtype=float) if value else None
                self.figure.interaction = self.brush
            else:
                self.figure.interaction = self._other_interaction
                self._other_interaction = None

    def _on_text(self, change):
        tx = self.ctx.tx
        if tx.is_pushing:
            return
        tx.apply("range of interest", lambda: self._set(_parse_range(change["new"])))

    def _on_thesis_toggle(self, change):
        with self.ctx.tx.held():
            self.sync()

    def pane_marks(self) -> dict:
        return {"cost": {"range": self.marks}}

    def boxes(self) -> dict:
        return {"range_controls": [self.controls], "range_tables": [self.tables]}


def _parse_range(text: str) -> list:
    """``"0.3, 0.55"`` (or ``0.3-0.55``, ``[0.3 0.55]``) -> [0.3, 0.55]; ``""`` -> []."""
    if not text.strip():
        return []
    m = _RANGE_TEXT.match(text)
    if not m:
        raise ValueError(
            f"type the range as two PCF(+) values, e.g. '0.30, 0.55' (or leave it "
            f"empty for none); got {text!r}."
        )
    return [float(m.group(1)), float(m.group(2))]


def _fmt(value: float, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.{digits}f}"


def _threshold(value: float) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "–"
    if math.isinf(value):
        return "∞ (none positive)" if value > 0 else "−∞"
    return f"{value:.4g}"


def _table_html(table, value, colors, *, no_visible=False) -> str:
    """The range table as HTML; every name is escaped."""
    if not value:
        return (
            "<small>No range of interest: brush one in the cost pane or type it "
            "(PCF(+), multiples of 0.05).</small>"
        )
    lo, hi = value
    head = (
        f"<b>Range of interest</b> PCF(+) in [{lo:.2f}, {hi:.2f}], i.e. the thesis's "
        f"FPcost/FNcost from {1 - hi:.2f}/{hi:.2f} to {1 - lo:.2f}/{lo:.2f} at p(+) = 0.5"
    )
    if no_visible or table is None:
        return head + "<br><small>No visible classifier.</small>"
    grid = table.attrs.get("grid", [])
    # Two compact tables (the grid measures, then the exact ones) rather than one of ten
    # columns: each fits a narrow widget.
    grid_rows, exact_rows = [], []
    for name, r in table.iterrows():
        color = html.escape(colors.get(name, "#999999"))
        mark = " ★" if r["recommended"] else ""
        first = f"<td><span style='color:{color}'>■</span> {html.escape(str(name))}{mark}</td>"
        grid_rows.append(
            f"<tr>{first}<td>{_fmt(r['mtmcr'])}</td><td>{_fmt(r['sensitivity'])}</td>"
            f"<td>{_fmt(r['cst'])}</td><td>{int(r['rank'])}</td></tr>"
        )
        exact_rows.append(
            f"<tr>{first}<td>{_fmt(r['mean_mtmcs_exact'])}</td>"
            f"<td>{_fmt(r['sensitivity_exact'])}</td><td>{_fmt(r['cst_exact'], 3)}</td>"
            f"<td>{int(r['rank_exact'])}</td><td class='costwidget-text'>"
            f"{_threshold(r['threshold_min'])} – {_threshold(r['threshold_max'])}</td></tr>"
        )
    best = html.escape(str(table.attrs.get("recommended", "")))
    return (
        head + f"; grid of {len(grid)} points, step {table.attrs.get('step', 0.05):g}.<br>"
        "<table class='costwidget-range-table costwidget-table'><caption>on the thesis's grid"
        "</caption><thead><tr><th>classifier</th><th>MTMCR</th><th>sensitivity</th><th>CST</th>"
        "<th>rank</th></tr></thead><tbody>" + "".join(grid_rows) + "</tbody></table>"
        "<table class='costwidget-range-exact costwidget-table'><caption>exact, over the "
        "continuous range</caption><thead><tr><th>classifier</th><th>mean MTMCS</th>"
        "<th>sensitivity</th><th>CST per point</th><th>rank</th><th>optimal thresholds</th>"
        "</tr></thead><tbody>" + "".join(exact_rows) + "</tbody></table>"
        f"<small>★ recommended (lowest CST, Al-Saffar (2018), sec. 4.2.2.3): <b>{best}</b>. "
        "MTMCS in percent; grid measures as the thesis computes them, exact ones from the "
        "envelope over the continuous range.</small>"
    )
