"""The difference view: NEC_a − NEC_b with its paired band, and the PCF(+) intervals where the
band excludes 0 (Drummond & Holte (2004), sec. 9). The band is computed in the background.

With per-case costs the two curves are the cost-weighted twins' (what the cost pane draws) and
the band is of the classifiers as given, their cases resampled with their costs at the state's
p(+) and multipliers (``cw.difference_band`` with ``cost_fn=``, ``cost_fp=``, ``p_pos=``): the
difference is money per case, scaled as the cost pane, and is made again when they move."""

from __future__ import annotations

import html

import bqplot as bq
import ipywidgets as widgets
import numpy as np

from ...model import axis_ticks, difference_band, significant_intervals
from ..controls.marks import hold
from ..controls.theme import INK, INK_SOFT
from ..state.component import Component
from .figures import FIGURE_MARGIN, TRIVIAL_COLOR, pane_figure
from .fill_layer import band_xy

__all__ = ["DifferenceView", "difference_caption"]

_STYLE = {"description_width": "initial"}
#: Room under the band for the significance strip, as a share of the band's reach.
STRIP_ROOM = 0.14


def _band_kind(band) -> str:
    simultaneous = band.attrs.get("simultaneous")
    if simultaneous is None:
        return "paired bootstrap band"
    return (
        "simultaneous paired bootstrap band" if simultaneous else "pointwise paired bootstrap band"
    )


def _units_words(band) -> str:
    """What the difference is in, for per-case costs (empty for per-class costs)."""
    money = band.attrs.get("per_case")
    if money is None:
        return ""
    return (
        "<small>(money per case, scaled as the cost pane: at the operating PCF(+) "
        f"{money['pcf']:.3f}, × {money['scale']:.4g} is money per case)</small>"
    )


def difference_caption(name_a, name_b, level, band, intervals) -> str:
    """Plain words for the difference view; every name is escaped."""
    a, b = html.escape(name_a), html.escape(name_b)
    lines = [f"<b>{a}</b> − <b>{b}</b>, {_band_kind(band)} at {level:.0%}:"]
    if _units_words(band):
        lines.append(_units_words(band))
    if len(intervals) == 0:
        lines.append("the difference is not significant at any PCF(+).")
    for lo, hi, sign in intervals[["pcf_lo", "pcf_hi", "sign"]].itertuples(index=False):
        cheaper = b if sign > 0 else a
        where = f"PCF(+) = {lo:.3f}" if lo == hi else f"PCF(+) in [{lo:.3f}, {hi:.3f}]"
        lines.append(f"<b>{cheaper}</b> costs less at {where}")
    bound = band.attrs.get("coarsening_bound")
    if bound:
        lines.append(f"<small>(score binning changes a bound by at most {bound:.2g})</small>")
    return "<br>".join(lines)


class DifferenceView(Component):
    """Owns the difference figure, its marks, its caption and its controls."""

    def __init__(self, ctx):
        self.ctx = ctx
        names = ctx.names
        # ------------------------------------------------------------- controls
        if len(names) >= 2:
            self.show = widgets.Checkbox(
                description="difference",
                style=_STYLE,
                tooltip="NEC of one model minus another's, with a paired band",
                layout=widgets.Layout(width="auto"),
            )
            self.name_a = widgets.Dropdown(
                options=list(names), value=names[0], layout=widgets.Layout(width="auto")
            )
            self.name_b = widgets.Dropdown(
                options=list(names),
                value=names[1],
                description="−",
                tooltip="the model subtracted",
                style=_STYLE,
                layout=widgets.Layout(width="auto"),
            )
            for control in (self.show, self.name_a, self.name_b):
                control.observe(self._on_controls, names=["value"])
            self.controls = widgets.HBox(
                [self.show, self.name_a, self.name_b],
                layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
            )
        else:
            self.show = self.name_a = self.name_b = self.controls = None
        self.caption = widgets.HTML(value="")
        self.caption.add_class("costwidget-difference-caption")
        self.caption.add_class("costwidget-side-text")
        # Empty until first shown: a bqplot figure drawn while hidden has no size and makes the
        # browser log errors about negative sizes. The caption wraps under a narrow figure.
        self.widget = widgets.HBox(
            [], layout=widgets.Layout(align_items="center", flex_flow="row wrap")
        )
        self._results = {}  # (a, b, level) -> (band, intervals)
        self.shown = None  # (band, intervals) on screen, or None
        self._drawn_key = None
        self._pending = None
        self._reach = 1.0

    # ------------------------------------------------------------------ the figure, on first use
    # Built when the view is first shown (or first asked for): a widget whose difference view is
    # never shown does not register its ~13 ipywidgets models (figure, scales, axes, marks).
    _LAZY = ("figure", "y_scale", "y_axis", "zero", "band", "line", "significant", "operating_line")

    def __getattr__(self, name):
        if name in DifferenceView._LAZY and "ctx" in self.__dict__:
            self._build_figure()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _build_figure(self) -> None:
        ctx = self.ctx
        cx = ctx.figures.cost_x
        dy = bq.LinearScale(min=-0.1, max=0.1)
        self.y_scale = dy
        sc = {"x": cx, "y": dy}
        self.zero = bq.Lines(
            x=[0.0, 1.0], y=[0.0, 0.0], scales=sc, colors=[TRIVIAL_COLOR], line_style="dashed"
        )
        self.band = bq.Lines(
            x=[0.0, 1.0],
            y=[[0.0, 0.0], [0.0, 0.0]],
            scales=sc,
            fill="between",
            colors=[INK_SOFT, INK_SOFT],
            fill_colors=["#888888"],
            fill_opacities=[0.25],
            stroke_width=0.75,
        )
        self.line = bq.Lines(x=[0.0, 1.0], y=[0.0, 0.0], scales=sc, colors=[INK], stroke_width=2)
        # A strip under the band (not on the zero line, where it hid the band's lower edge):
        # one piece per interval where the band excludes 0, coloured by the cheaper classifier.
        self.significant = bq.Lines(
            x=[[0.0, 0.0]],
            y=[[0.0, 0.0]],
            scales=sc,
            colors=[TRIVIAL_COLOR],
            stroke_width=6,
            visible=False,
        )
        self.operating_line = bq.Lines(
            x=[0.5, 0.5], y=[-1.0, 1.0], scales=sc, colors=[INK], stroke_width=1.5
        )
        # Ticks and their format follow the band's reach (`_draw`): a fixed ".2f" read 0.01,
        # 0.01, 0.00 for ticks 0.005 apart.
        ticks, fmt = axis_ticks(-0.1 * (1.0 + STRIP_ROOM), 0.1)
        self.y_axis = bq.Axis(
            scale=dy,
            label="NEC difference",
            side="left",
            grid_lines="dashed",
            tick_format=fmt,
            tick_values=ticks,
        )
        self.figure = pane_figure(
            "costwidget-difference",
            wide=True,
            marks=[self.zero, self.band, self.line, self.significant, self.operating_line],
            axes=[
                bq.Axis(
                    scale=cx,
                    label="probability cost PCF(+)",
                    side="bottom",
                    grid_lines="dashed",
                    tick_format=".1f",
                ),
                self.y_axis,
            ],
            title="difference",
            fig_margin=FIGURE_MARGIN,
        )
        self.figure.add_class("costwidget-difference")

    # ------------------------------------------------------------------ user input
    def _on_controls(self, change) -> None:
        tx = self.ctx.tx
        if tx.is_pushing:
            return
        if self.name_a.value == self.name_b.value and change["owner"] in (self.name_a, self.name_b):
            # Picking the other side's model swaps the pair (a pair of one model is refused,
            # so a swap would otherwise need a detour through a third model).
            other = self.name_b if change["owner"] is self.name_a else self.name_a
            with tx.pushing():
                other.value = change["old"]
        pair = [self.name_a.value, self.name_b.value] if self.show.value else []
        tx.apply("difference", setattr, self.ctx.state, "difference", pair)

    # ------------------------------------------------------------------ drawing
    def sync(self) -> None:
        s = self.ctx.state
        if not s.difference:
            self._cancel()
            self._draw(None, None)
            return
        a, b = s.difference
        self._check_pair(a, b)
        key = (a, b, s.band_level, *self._setting())
        if key in self._results:
            self._cancel()
            self._draw(key, self._results[key])
        else:
            self._hide_stale(key)
            if key != self._pending:
                self._pending = key
                self.ctx.background.submit(
                    "difference",
                    f"difference {a} − {b}",
                    lambda progress: self._compute(key, progress),
                    self._arrived,
                    self._failed,
                )
        if self.shown is not None:
            self.operating_line.x = [s.pcf, s.pcf]

    def _check_pair(self, a, b) -> None:
        """The model's quick checks of a pair, at once (a refused pair is refused synchronously)."""
        from ...model import check_pair

        check_pair(self.ctx.drawing(a).given, self.ctx.drawing(b).given)

    def _setting(self) -> tuple:
        """``(p_pos, cost_fn, cost_fp)`` the band of per-case costs is priced at; () else."""
        s = self.ctx.state
        if getattr(s, "per_case", None) is None:
            return ()
        return (float(s.p_pos), float(s.cost_fn), float(s.cost_fp))

    def _compute(self, key, progress):
        a, b, level, *setting = key
        given_a, given_b = self.ctx.drawing(a).given, self.ctx.drawing(b).given
        if setting:
            p_pos, m_fn, m_fp = setting
            band = difference_band(
                given_a, given_b, level, random_state=0, cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos
            )
        else:
            band = difference_band(given_a, given_b, level, random_state=0)
        progress(1, 2)
        return key, (band, significant_intervals(band))

    def _arrived(self, result) -> None:
        key, value = result
        self._pending = None
        self._results[key] = value
        self.sync()

    def _failed(self, exc) -> None:
        self._pending = None
        self._draw(None, None)
        self.ctx.errors.show(exc, context="difference failed")
        self.ctx.turn_off("difference", [])

    def _cancel(self) -> None:
        if self._pending is not None:
            self._pending = None
            self.ctx.background.cancel("difference")

    def _hide_stale(self, key) -> None:
        """A band for another pair or level must not stay on screen while the new one computes."""
        if self._drawn_key is not None and self._drawn_key != key:
            with hold(self.band, self.line, self.significant):
                self.band.visible = self.line.visible = self.significant.visible = False
            self.caption.value = "<i>computing the difference band…</i>"
            self.shown = None
            self._drawn_key = ("stale",)

    def _draw(self, key, result) -> None:
        if key == self._drawn_key:
            return
        if result is None:
            self.shown = None
            self.widget.children = ()
            self.caption.value = ""
            self._drawn_key = key
            return
        name_a, name_b, level = key[:3]
        band, intervals = result
        a, b = self.ctx.drawing(name_a), self.ctx.drawing(name_b)
        x, (lower, upper) = band_xy(band)
        diff = band["diff"].to_numpy()
        reach = max(np.abs(lower).max(), np.abs(upper).max(), np.abs(diff).max(), 1e-3) * 1.1
        # A run of significant grid points is drawn half a grid step wider on each side, so that
        # a single significant point still shows.
        half = 0.5 * (x[1] - x[0]) if len(x) > 1 else 0.0
        seg_x = np.clip(
            np.column_stack([intervals["pcf_lo"] - half, intervals["pcf_hi"] + half]), 0.0, 1.0
        )
        # sign +1: a costs more, so b is the better one there.
        seg_colors = [b.color if sign > 0 else a.color for sign in intervals["sign"]]
        pcf = self.ctx.state.pcf
        floor = -reach * (1.0 + STRIP_ROOM)
        ticks, fmt = axis_ticks(floor, reach)
        with hold(self.y_axis, self.band, self.line, self.significant, self.operating_line):
            self.y_scale.min, self.y_scale.max = floor, reach
            self.y_axis.tick_values, self.y_axis.tick_format = ticks, fmt
            self.band.x, self.band.y = x, np.vstack([lower, upper])
            self.line.x, self.line.y = x, diff
            self.band.visible = self.line.visible = True
            if len(seg_x):
                self.significant.x = seg_x
                self.significant.y = np.full_like(seg_x, -reach * (1.0 + STRIP_ROOM / 2))
                self.significant.colors = seg_colors
            self.significant.visible = bool(len(seg_x))
            self.operating_line.x = [pcf, pcf]
            self.operating_line.y = [floor, reach]
        # A bqplot title is SVG text (never parsed as HTML).
        self.figure.title = f"NEC({name_a}) − NEC({name_b})"
        per_case = "per_case" in band.attrs
        self.y_axis.label = (
            "money per case difference, scaled as the cost pane" if per_case else "NEC difference"
        )
        self.caption.value = difference_caption(name_a, name_b, level, band, intervals)
        if not self.widget.children:
            self.widget.children = (self.figure, self.caption)
        self.shown = result
        self._drawn_key = key

    def push_controls(self) -> None:
        if self.show is None:
            return
        pair = self.ctx.state.difference
        self.show.value = bool(pair)
        if pair:
            self.name_a.value, self.name_b.value = pair

    def boxes(self) -> dict:
        controls = [] if self.controls is None else [self.controls]
        return {"difference_controls": controls, "difference": [self.widget]}
