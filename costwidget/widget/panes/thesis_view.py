"""The thesis view: Al-Saffar (2018)'s MTMCS chart and optimal-thresholds chart, drawn exactly.

x is the thesis's normalized FP cost, ``x = FPcost`` with ``FPcost + FNcost = 1``,
labelled as the ratio ``FPcost/FNcost`` (``0.25/0.75``), from 0.05 to 0.95
(Al-Saffar (2018), secs. 4.2.1 and 4.4). It is ``1 - PCF(+)``: at p(+) = 0.5
exactly the thesis's axis; at other priors the prior-weighted share of the FP
cost. All numbers come from the model (``costwidget.model.comparison.ranges``).
"""

from __future__ import annotations

import contextlib
import html

import bqplot as bq
import ipywidgets as widgets
import numpy as np

from ...model import mtmcs_curve, range_grid, threshold_segments
from ...palette import PALETTE
from ..controls.theme import RANGE_EDGE, RANGE_FILL, line_swatch, marker_swatch, rect_swatch
from .figures import pane_figure

__all__ = ["ThesisView", "ratio_tick_labels"]

X_LO, X_HI = 0.05, 0.95
TICKS = (0.05, 0.25, 0.5, 0.75, 0.95)
_MARGIN = dict(top=40, bottom=55, left=60, right=35)  # room for the last "0.95/0.05"
# Each chart at least 400 px wide (below that the "0.05/0.95" tick labels touch), side by side
# where there is room and stacked where not. Set on the figures themselves, not by the widget's
# style sheet, so the view is the same inside the widget and shown on its own in a notebook.
_CHART_LAYOUT = dict(flex="1 1 420px", min_width="400px", max_width="760px", height="340px")


def _js_number(value: float) -> str:
    """A number as JavaScript's String() writes it (the key bqplot looks tick labels up by)."""
    return np.format_float_positional(float(value), trim="-")


def ratio_tick_labels(ticks=TICKS) -> dict:
    """``{tick: "FPcost/FNcost"}`` for a bqplot Axis ``tick_labels``: 0.25 -> ``"0.25/0.75"``.

    Keys are written as JavaScript writes the tick values, which bqplot looks them up by.

    Examples
    --------
    >>> from costwidget.widget.panes.thesis_view import ratio_tick_labels
    >>> ratio_tick_labels([0.05, 0.5, 1.0])
    {'0.05': '0.05/0.95', '0.5': '0.50/0.50', '1': '1.00/0.00'}
    """
    return {_js_number(x): f"{x:.2f}/{1 - x:.2f}" for x in ticks}


class _Drawn:
    """One classifier's thesis-view data, computed once by the model."""

    def __init__(self, clf):
        curve = mtmcs_curve(clf, X_LO, X_HI)
        self.curve_x, self.curve_y = curve["fp_cost"].to_numpy(), curve["mtmcs"].to_numpy()
        grid = range_grid(X_LO, X_HI)
        at_grid = clf.optimal_thresholds(grid)
        self.grid_x = grid
        self.grid_mtmcs = at_grid["mtmcs"].to_numpy()
        seg = threshold_segments(clf, X_LO, X_HI)
        # Thresholds of the trivial classifiers (+inf: nothing positive) have no place
        # on a threshold axis; they are left out.
        finite = np.isfinite(seg["threshold"].to_numpy())
        seg = seg[finite]
        self.seg_x = seg[["fp_cost_lo", "fp_cost_hi"]].to_numpy()
        self.seg_y = np.column_stack([seg["threshold"], seg["threshold"]])
        th = at_grid["threshold"].to_numpy()
        ok = np.isfinite(th)
        self.grid_th_x, self.grid_th = grid[ok], th[ok]


#: Height of the charts' frame in a page (COSTWIDGET_NOTEBOOK_OUTPUT=page), in CSS pixels.
THESIS_FRAME_HEIGHT = 520


class ThesisView:
    """The MTMCS chart and the optimal-thresholds chart, built on first :meth:`show`.

    Al-Saffar (2018)'s two charts over the thesis's x axis, for the classifiers given;
    the widget shows it under its "thesis view" toggle, and ``cw.ThesisView`` shows it on
    its own (display ``view``, or ``view.widget``, after :meth:`show`). Each chart is at least
    400 px wide; the two stand side by side where there is room and stack where not.

    Parameters
    ----------
    classifiers : list of Classifier
        Drawn in this order; their names label the legend (escaped).
    colors : dict of str, optional
        A colour per classifier name. Default: the package palette, in order.

    Figures drawn while hidden have no size in the browser (and log errors),
    so nothing is created until the view is first shown.

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_confusion(tp=9, fn=1, fp=4, tn=6, name="a")
    >>> view = cw.ThesisView([a], colors={"a": "red"})
    >>> view.built
    False
    >>> view.show(["a"], [0.5, 0.75], p_pos=0.5)   # range in PCF(+): shaded at x = 1 - PCF
    >>> view.mtmcs_shade.x[:2].tolist()
    [0.25, 0.5]
    >>> view.mtmcs_lines["a"].y.round(2).tolist()   # exact MTMCS, kinks included
    [5.0, 14.29, 30.77, 5.0]
    """

    def __init__(self, classifiers, colors=None):
        self.names = [c.name for c in classifiers]
        self._classifiers = dict(zip(self.names, classifiers))
        self.colors = (
            {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(self.names)}
            if colors is None
            else dict(colors)
        )
        missing = [n for n in self.names if n not in self.colors]
        if missing:
            raise ValueError(
                f"colors has no colour for {missing}; give one per classifier name, "
                "or colors=None for the package's palette."
            )
        self._drawn = {}
        self.built = False
        self.caption = widgets.HTML(value="")
        self.caption.add_class("costwidget-thesis-caption")
        # The legend is HTML above the charts: a legend inside a chart covered its curves.
        self.legend = widgets.HTML(value="")
        self.legend.add_class("costwidget-thesis-legend")
        self.widget = widgets.VBox([])
        self.widget.add_class("costwidget-thesis")

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """The charts' live view (``display(view)``, as ``display(view.widget)``); outside
        Jupyter (COSTWIDGET_NOTEBOOK_OUTPUT=page) their state rendered offline in a frame."""
        from ...export.notebook_output import widget_bundle

        return widget_bundle(
            self.widget,
            title="Al-Saffar (2018): the MTMCS and the optimal thresholds charts",
            height=THESIS_FRAME_HEIGHT,
        )

    def use(self, classifiers) -> None:
        """Draw these classifiers (of the same names) from now: the curves computed from the
        old ones are dropped. The next `show` or `redraw` draws them."""
        self._classifiers = {c.name: c for c in classifiers}
        self._drawn = {}

    def _data(self, name) -> _Drawn:
        if name not in self._drawn:
            self._drawn[name] = _Drawn(self._classifiers[name])
        return self._drawn[name]

    def _build(self):
        xs = bq.LinearScale(min=X_LO, max=X_HI)
        self.x_scale = xs
        x_axis = dict(
            scale=xs,
            label="FPcost/FNcost (FPcost + FNcost = 1)",
            side="bottom",
            tick_values=np.array(TICKS),
            tick_labels=ratio_tick_labels(),
            grid_lines="dashed",
        )
        self._build_mtmcs(xs, x_axis)
        self._build_thresholds(xs, x_axis)
        for figure in (self.mtmcs_figure, self.threshold_figure):
            figure.layout = widgets.Layout(**_CHART_LAYOUT)
        charts = widgets.HBox(
            [self.mtmcs_figure, self.threshold_figure],
            layout=widgets.Layout(flex_flow="row wrap", width="100%", align_items="flex-start"),
        )
        charts.add_class("costwidget-panes")
        self._children = (self.legend, charts, self.caption)
        self.built = True

    def _build_mtmcs(self, xs, x_axis) -> None:
        """The MTMCS chart: each classifier's MTMCS over the cost ratio, the range shaded."""
        my = bq.LinearScale(min=0.0, max=50.0)
        self.mtmcs_y = my
        # The range shade is on the chart's own scales (on a 0-1 y scale of its own bqplot laid
        # it out past the x axis), spanning the y axis as it is when placed.
        self.mtmcs_shade = _shade(xs, my)
        self.mtmcs_lines = {
            n: bq.Lines(
                x=[X_LO, X_HI],
                y=[0.0, 0.0],
                scales={"x": xs, "y": my},
                colors=[self.colors[n]],
                stroke_width=2.5,
                labels=[n],
                visible=False,
            )
            for n in self.names
        }
        self.mtmcs_points = {
            n: bq.Scatter(
                x=[X_LO],
                y=[0.0],
                scales={"x": xs, "y": my},
                colors=[self.colors[n]],
                default_size=20,
                visible=False,
            )
            for n in self.names
        }
        self.mtmcs_figure = pane_figure(
            "costwidget-mtmcs",
            wide=True,
            marks=[self.mtmcs_shade, *self.mtmcs_lines.values(), *self.mtmcs_points.values()],
            axes=[
                bq.Axis(**x_axis),
                bq.Axis(
                    scale=my, label="MTMCS (%)", side="left", grid_lines="dashed", tick_format=".0f"
                ),
            ],
            title="MTMCS chart",
            fig_margin=_MARGIN,
        )

    def _build_thresholds(self, xs, x_axis) -> None:
        """The optimal-thresholds chart: one horizontal piece per optimal hull vertex."""
        ty = bq.LinearScale(min=0.0, max=1.0)
        self.threshold_y = ty
        self.threshold_shade = _shade(xs, ty)
        self.threshold_lines = {
            n: bq.Lines(
                x=[[X_LO, X_HI]],
                y=[[0.0, 0.0]],
                scales={"x": xs, "y": ty},
                colors=[self.colors[n]],
                stroke_width=2.5,
                visible=False,
            )
            for n in self.names
        }
        self.threshold_points = {
            n: bq.Scatter(
                x=[X_LO],
                y=[0.0],
                scales={"x": xs, "y": ty},
                colors=[self.colors[n]],
                default_size=20,
                visible=False,
            )
            for n in self.names
        }
        self.threshold_figure = pane_figure(
            "costwidget-thresholds",
            wide=True,
            marks=[
                self.threshold_shade,
                *self.threshold_lines.values(),
                *self.threshold_points.values(),
            ],
            axes=[
                bq.Axis(**x_axis),
                bq.Axis(
                    scale=ty,
                    label="optimal score threshold",
                    side="left",
                    grid_lines="dashed",
                    tick_format=".2f",
                ),
            ],
            title="Optimal classification thresholds",
            fig_margin=_MARGIN,
        )

    @property
    def shown(self) -> bool:
        return bool(self.widget.children)

    def show(self, visible, range_pcf, p_pos) -> None:
        """Build the figures if needed, draw the visible classifiers and the range, and show them."""
        if not self.built:
            self._build()
        self.redraw(visible, range_pcf, p_pos)
        if not self.widget.children:
            # Attached (not un-hidden) so that bqplot sizes its figures in a visible container.
            self.widget.children = self._children

    def hide(self) -> None:
        """Take the charts out of the page (a display:none figure would lose its size)."""
        if self.widget.children:
            self.widget.children = ()

    def redraw(self, visible, range_pcf, p_pos) -> None:
        """Draw ``visible`` (names) and shade ``range_pcf`` (PCF(+) [lo, hi] or []) as x = 1 - PCF."""
        if not self.built:
            return
        shown = [n for n in self.names if n in set(visible)]
        data = {n: self._data(n) for n in shown}  # every number first, then the marks
        peak = max([d.curve_y.max() for d in data.values()] + [1.0])
        thresholds = np.concatenate([d.seg_y.ravel() for d in data.values()] + [np.zeros(0)])
        if len(thresholds):
            t_lo, t_hi = float(thresholds.min()), float(thresholds.max())
            pad = 0.05 * (t_hi - t_lo) if t_hi > t_lo else 0.05 * max(abs(t_hi), 1.0)
            t_lo, t_hi = t_lo - pad, t_hi + pad
        else:
            t_lo, t_hi = 0.0, 1.0
        marks = [
            *self.mtmcs_lines.values(),
            *self.mtmcs_points.values(),
            *self.threshold_lines.values(),
            *self.threshold_points.values(),
            self.mtmcs_shade,
            self.threshold_shade,
        ]
        with _hold(marks):
            self.mtmcs_y.max = float(np.ceil(peak * 1.1 / 5.0) * 5.0)
            self.threshold_y.min, self.threshold_y.max = t_lo, t_hi
            for n in self.names:
                on = n in data
                for group in (
                    self.mtmcs_lines,
                    self.mtmcs_points,
                    self.threshold_lines,
                    self.threshold_points,
                ):
                    group[n].visible = on
                if not on:
                    continue
                d = data[n]
                self.mtmcs_lines[n].x, self.mtmcs_lines[n].y = d.curve_x, d.curve_y
                self.mtmcs_points[n].x, self.mtmcs_points[n].y = d.grid_x, d.grid_mtmcs
                if len(d.seg_x):
                    self.threshold_lines[n].x, self.threshold_lines[n].y = d.seg_x, d.seg_y
                    self.threshold_lines[n].colors = [self.colors[n]] * len(d.seg_x)
                else:
                    self.threshold_lines[n].visible = False
                if len(d.grid_th):
                    self.threshold_points[n].x = d.grid_th_x
                    self.threshold_points[n].y = d.grid_th
                else:
                    self.threshold_points[n].visible = False
            for shade in (self.mtmcs_shade, self.threshold_shade):
                _place_shade(shade, [1.0 - range_pcf[1], 1.0 - range_pcf[0]] if range_pcf else [])
        self.legend.value = _legend(shown, self.colors, bool(range_pcf))
        self.caption.value = _caption(range_pcf, p_pos)


def _legend(names, colors, with_range) -> str:
    """One line of swatches: a line per classifier (names escaped: user text), the grid's dots
    and, when one is set, the range of interest."""

    def item(swatch, text):
        return (
            f"<span style='display:inline-flex;align-items:center;gap:4px;"
            f"margin-right:14px'>{swatch}{html.escape(text)}</span>"
        )

    # The swatches of the widget's legend (theme), so one place knows how a mark looks.
    items = [item(line_swatch(html.escape(colors[n], quote=True), "", 2.5), n) for n in names]
    items.append(
        item(
            marker_swatch("circle", "currentColor", "currentColor"), "the thesis's grid (step 0.05)"
        )
    )
    if with_range:
        items.append(item(rect_swatch(RANGE_FILL, RANGE_EDGE, opacity=0.5), "range of interest"))
    return "<div style='line-height:1.6'>" + "".join(items) + "</div>"


def _shade(xs, ys) -> bq.Lines:
    return bq.Lines(
        x=[0.0, 0.0],
        y=[0.0, 1.0],
        scales={"x": xs, "y": ys},
        fill="inside",
        colors=[RANGE_EDGE],
        fill_colors=[RANGE_FILL],
        fill_opacities=[0.25],
        stroke_width=0.5,
        visible=False,
    )


def _place_shade(mark, interval) -> None:
    """A full-height rectangle over ``interval`` ([lo, hi] on the mark's x scale), hidden if []."""
    if interval:
        lo, hi = interval
        y = mark.scales["y"]
        bottom, top = float(y.min), float(y.max)
        mark.x, mark.y = [lo, hi, hi, lo, lo], [bottom, bottom, top, top, bottom]
    mark.visible = bool(interval)


def _caption(range_pcf, p_pos) -> str:
    parts = [
        "Exact MTMCS = 100·NEC at PCF(+) = 1 − x (lines; their kinks are exact); dots: the "
        "thesis's grid, step 0.05. Thresholds are on the score (positive if score ≥ t); the "
        "thesis plots them on P(negative) = 1 − score."
    ]
    if range_pcf:
        lo, hi = range_pcf
        parts.append(
            f"Range of interest: x in [{1 - hi:.2f}, {1 - lo:.2f}] "
            f"(PCF(+) in [{lo:.2f}, {hi:.2f}])."
        )
    if abs(p_pos - 0.5) > 1e-12:
        parts.append(
            f"With p(+) = {p_pos:.3g} the thesis's FPcost/FNcost is read as "
            "prior-weighted: x = (1−p)·C(+|−) / (p·C(−|+) + (1−p)·C(+|−))."
        )
    return "<small>" + html.escape(" ".join(parts)) + "</small>"


@contextlib.contextmanager
def _hold(marks):
    """hold_sync on several marks: one message per mark for a whole redraw."""
    with contextlib.ExitStack() as stack:
        for m in marks:
            stack.enter_context(m.hold_sync())
        yield
