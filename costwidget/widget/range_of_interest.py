"""The range of interest on the cost pane: a brush, its shading, the range table and the thesis view.

A client who can only name a *range* of cost ratios asks which classifier to
pick over it and at which thresholds to run it (Al-Saffar (2018), ch. 4-5).
The range lives in the state as ``range_of_interest``: ``[lo, hi]`` in PCF(+),
or ``[]`` for none. This module owns everything drawn for it; every number
comes from :func:`costwidget.model.ranges.range_summary` and its helpers.

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

from ..model.ranges import check_range, range_summary, snap_range
from .thesis_view import ThesisView

__all__ = ["RangeOfInterest"]

SHADE_COLOR, SHADE_FILL = "#e6a000", "#ffcc55"
_RANGE_TEXT = re.compile(r"^\s*\[?\s*([-+0-9.eE]+)\s*(?:,|-|–|to|\s)\s*([-+0-9.eE]+)\s*\]?\s*$")


class RangeOfInterest:
    """Range-of-interest overlay for a cost pane, with its table and the thesis view.

    Parameters
    ----------
    state : HasTraits
        With traits ``range_of_interest`` (list of 0 or 2 floats, PCF(+)),
        ``visible`` (names), ``p_pos``, ``cost_fn``, ``cost_fp``, ``pcf``.
    cost_figure : bqplot.Figure
        The cost pane; its ``interaction`` is the brush while brushing is on.
    cost_x_scale : bqplot.LinearScale
        The cost pane's PCF(+) scale.
    classifiers : list of Classifier
        Named, in display order.
    colors : dict or list
        Colour per classifier (by name, or in the order of ``classifiers``).
    errors : object
        With ``show(exc, context=str)`` and ``clear()``.
    step : float, default 0.05
        The thesis's grid step; range ends are multiples of it.

    Attributes
    ----------
    widget : ipywidgets.VBox
        Controls, the range table and the thesis view, to place below the panes.
    marks : list of bqplot marks
        The shading, to add (first, under the curves) to ``cost_figure.marks``.
    table : DataFrame or None
        :func:`~costwidget.model.ranges.range_summary` of the visible
        classifiers over the range (``axis="pcf"``), or None without a range.

    Examples
    --------
    >>> import bqplot as bq
    >>> import traitlets as t
    >>> import costwidget as cw
    >>> from costwidget.widget.errors import ErrorArea
    >>> from costwidget.widget.range_of_interest import RangeOfInterest
    >>> class State(t.HasTraits):
    ...     range_of_interest = t.List(t.Float())
    ...     visible = t.List(t.Unicode())
    ...     p_pos, cost_fn, cost_fp, pcf = t.Float(0.5), t.Float(1.0), t.Float(1.0), t.Float(0.5)
    >>> a = cw.Classifier.from_confusion(tp=9, fn=1, fp=4, tn=6, name="a")
    >>> b = cw.Classifier.from_confusion(tp=7, fn=3, fp=1, tn=9, name="b")
    >>> state, xs, errors = State(visible=["a", "b"]), bq.LinearScale(min=0.0, max=1.0), ErrorArea()
    >>> figure = bq.Figure(marks=[])
    >>> roi = RangeOfInterest(state, figure, xs, [a, b], ["red", "blue"], errors)
    >>> figure.marks = [*roi.marks, *figure.marks]
    >>> state.range_of_interest = [0.5, 0.75]
    >>> roi.table[["mtmcr", "cst", "cst_exact", "recommended"]].round(2)
                mtmcr     cst  cst_exact  recommended
    classifier
    a           127.5  137.06      22.84         True
    b           135.0  141.75      23.62        False
    >>> state.range_of_interest = [0.5, 0.72]   # refused: the last good range is kept
    >>> state.range_of_interest, str(errors.last_error)
    ([0.5, 0.75], "range of interest: 0.72 is not a multiple of 0.05 (the thesis's grid step); use [0.5, 0.7] or [0.5, 0.75].")
    """

    def __init__(self, state, cost_figure, cost_x_scale, classifiers, colors, errors, *,
                 step=0.05):
        self.state, self.figure, self.errors, self.step = state, cost_figure, errors, step
        self.names = [c.name for c in classifiers]
        self.classifiers = dict(zip(self.names, classifiers))
        self.colors = dict(colors) if isinstance(colors, dict) else dict(zip(self.names, colors))
        self._table = None
        self._syncing = False
        self._other_interaction = None
        # Full-height shading on the pane's PCF(+) scale and a fixed 0-1 y scale of its own,
        # so that it ignores the pane's NEC axis.
        self.shade = bq.Lines(x=[0.0, 0.0], y=[0.0, 1.0],
                              scales={"x": cost_x_scale, "y": bq.LinearScale(min=0.0, max=1.0)},
                              fill="inside", colors=[SHADE_COLOR], fill_colors=[SHADE_FILL],
                              fill_opacities=[0.25], stroke_width=0.5, visible=False)
        self.marks = [self.shade]
        self.brush = bq.interacts.BrushIntervalSelector(scale=cost_x_scale, color=SHADE_COLOR)
        self.brush_toggle = widgets.ToggleButton(
            value=False, description="brush range", icon="arrows-h",
            tooltip="Drag in the cost pane to choose a range of interest (PCF(+)); "
                    "clicks set the operating point again when this is off.")
        self.range_text = widgets.Text(
            value="", placeholder="e.g. 0.30, 0.55", description="range PCF(+)",
            continuous_update=False, style={"description_width": "initial"},  # never "range PCF…"
            layout=widgets.Layout(width="250px"))
        self.clear_button = widgets.Button(description="clear", tooltip="No range of interest")
        self.thesis_toggle = widgets.ToggleButton(value=False, description="thesis view",
                                                  tooltip="MTMCS and optimal-threshold charts")
        self.table_html = widgets.HTML(value="")
        self.table_html.add_class("costwidget-range-table")
        self.thesis = ThesisView(classifiers, self.colors)
        controls = widgets.HBox([widgets.HTML("<b>Range of interest</b>"), self.brush_toggle,
                                 self.range_text, self.clear_button, self.thesis_toggle],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.widget = widgets.VBox([controls, self.table_html, self.thesis.widget])
        self.widget.add_class("costwidget-range")
        self._wire()
        self.sync()

    # ------------------------------------------------------------------ API
    @property
    def table(self):
        """The range table (a copy), or None when no range is set."""
        return None if self._table is None else self._table.copy()

    def sync(self) -> None:
        """Redraw everything from the state (shading, brush, text, table, thesis view)."""
        self._apply(self._checked(self.state.range_of_interest))

    # ------------------------------------------------------------------ wiring
    def _wire(self):
        s = self.state
        s.observe(self._on_range, names=["range_of_interest"])
        s.observe(self._guard("range table")(lambda change: self._apply(self._current())),
                  names=["visible"])
        s.observe(self._guard("thesis view")(lambda change: self._redraw_thesis()),
                  names=["p_pos"])
        self.brush.observe(self._guard("brush")(self._on_brush), names=["selected", "brushing"])
        self.brush_toggle.observe(self._guard("brush")(self._on_brush_toggle), names=["value"])
        self.range_text.observe(self._on_text, names=["value"])
        self.clear_button.on_click(self._guard("range of interest")(
            lambda _b: self._set_state([])))
        self.thesis_toggle.observe(self._guard("thesis view")(lambda c: self._redraw_thesis()),
                                   names=["value"])

    def _guard(self, context):
        """Run a callback; show any exception in the error area instead of raising."""
        def wrap(func):
            def inner(*args):
                try:
                    return func(*args)
                except Exception as exc:  # noqa: BLE001 - every failure must reach the user
                    self.errors.show(exc, context=context)
                    return None
            return inner
        return wrap

    def _current(self) -> list:
        return list(self.state.range_of_interest)

    def _checked(self, value) -> list:
        return check_range(list(value), step=self.step)

    def _set_state(self, value) -> None:
        self.state.range_of_interest = list(value)

    # ------------------------------------------------------------------ state -> view
    def _on_range(self, change):
        if self._syncing:
            return
        try:
            value = self._checked(change["new"])
            self._apply(value)
        except Exception as exc:  # noqa: BLE001 - refused: message, last good state kept
            self._restore(change["old"])
            self.errors.show(exc, context="range of interest refused")
            return
        if value != list(change["new"]):  # store the decimals meant (0.55, not 0.55000000000000004)
            self._quietly(lambda: self.state.set_trait("range_of_interest", value))
        self.errors.clear()

    def _restore(self, old):
        self._quietly(lambda: self.state.set_trait("range_of_interest", list(old)))
        self._apply(self._checked(old))

    def _quietly(self, action):
        self._syncing = True
        try:
            action()
        finally:
            self._syncing = False

    def _apply(self, value) -> None:
        """Everything the range shows, computed first and then drawn (nothing half-updated)."""
        shown = [n for n in self.names if n in set(self.state.visible)]
        table = None
        if value and shown:
            table = range_summary({n: self.classifiers[n] for n in shown}, value[0], value[1],
                                  step=self.step, axis="pcf")
        self._table = table
        with self.shade.hold_sync():
            if value:
                lo, hi = value
                self.shade.x, self.shade.y = [lo, hi, hi, lo, lo], [0.0, 0.0, 1.0, 1.0, 0.0]
            self.shade.visible = bool(value)
        self._quietly(lambda: self._show_in_controls(value))
        self.table_html.value = _table_html(table, value, self.colors, no_visible=not shown)
        self._redraw_thesis()

    def _show_in_controls(self, value):
        self.range_text.value = f"{value[0]:g}, {value[1]:g}" if value else ""
        selected = None if self.brush.selected is None else list(self.brush.selected)
        if value and selected != value:
            self.brush.selected = np.array(value, dtype=float)
        elif not value and selected:
            self.brush.selected = None

    def _redraw_thesis(self):
        if self.thesis_toggle.value:
            self.thesis.show(self.state.visible, self._current(), self.state.p_pos)
        else:
            self.thesis.hide()

    # ------------------------------------------------------------------ controls -> state
    def _on_brush(self, change):
        if self._syncing:
            return
        selected = self.brush.selected
        if selected is None or len(selected) != 2:
            return
        lo, hi = sorted(float(v) for v in selected)
        if self.brush.brushing:
            # Shade live while the mouse is down; the state changes once, on release.
            with self.shade.hold_sync():
                self.shade.x, self.shade.y = [lo, hi, hi, lo, lo], [0.0, 0.0, 1.0, 1.0, 0.0]
                self.shade.visible = True
            return
        self._set_state(snap_range(lo, hi, step=self.step))

    def _on_brush_toggle(self, change):
        if change["new"]:
            if self.figure.interaction is not self.brush:
                self._other_interaction = self.figure.interaction
            value = self._current()
            self._quietly(lambda: setattr(self.brush, "selected",
                                          np.array(value, dtype=float) if value else None))
            self.figure.interaction = self.brush
        else:
            self.figure.interaction = self._other_interaction
            self._other_interaction = None

    def _on_text(self, change):
        if self._syncing:
            return
        try:
            self._set_state(_parse_range(change["new"]))
        except Exception as exc:  # noqa: BLE001 - refused: message, last good state kept
            self.errors.show(exc, context="range of interest refused")
            self._quietly(lambda: self._show_in_controls(self._current()))


def _parse_range(text: str) -> list:
    """``"0.3, 0.55"`` (or ``0.3-0.55``, ``[0.3 0.55]``) -> [0.3, 0.55]; ``""`` -> []."""
    if not text.strip():
        return []
    m = _RANGE_TEXT.match(text)
    if not m:
        raise ValueError(f"type the range as two PCF(+) values, e.g. '0.30, 0.55' (or leave it "
                         f"empty for none); got {text!r}.")
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
        return ("<small>No range of interest: brush one in the cost pane or type it "
                "(PCF(+), multiples of 0.05).</small>")
    lo, hi = value
    head = (f"<b>Range of interest</b> PCF(+) in [{lo:.2f}, {hi:.2f}], i.e. the thesis's "
            f"FPcost/FNcost from {1 - hi:.2f}/{hi:.2f} to {1 - lo:.2f}/{lo:.2f} at p(+) = 0.5")
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
            f"<td>{_fmt(r['cst'])}</td><td>{int(r['rank'])}</td></tr>")
        exact_rows.append(
            f"<tr>{first}<td>{_fmt(r['mean_mtmcs_exact'])}</td>"
            f"<td>{_fmt(r['sensitivity_exact'])}</td><td>{_fmt(r['cst_exact'], 3)}</td>"
            f"<td>{int(r['rank_exact'])}</td><td class='costwidget-text'>"
            f"{_threshold(r['threshold_min'])} – {_threshold(r['threshold_max'])}</td></tr>")
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
        "envelope over the continuous range.</small>")
