"""The decision-curve pane: net benefit against threshold probability (Vickers & Elkin 2006).

A component of `CostWidget`, shown when the state's ``show_decision_curve`` is
on. It is the cost pane in other units: with C(−|+) = 1 and C(+|−) = pt/(1 − pt),
NB = π₁ − (π₁(1 − pt) + π₀·pt)/(1 − pt) · NEC. Each visible classifier's
envelope (``"optimal"``, the most net benefit any threshold reaches) is drawn
solid, its score-driven curve (treat iff score ≥ pt, as ``dcurves``) dashed when
the threshold choice is on, with "treat all" and "treat none". Net benefit is that of
the population the operating point describes: prevalence π₁ = p(+) (the data's when p(+) is
0 or 1, where net benefit is not defined). The operating point is drawn at the threshold
probability its costs imply, pt = C(+|−) / (C(+|−) + C(−|+)), and moves with the sliders: each
classifier's dot is the net benefit of its rule in the widget's `Decision` at the
current p(+), NB = TPR·p − FPR·(1 − p)·pt/(1 − pt) (under a constraint, of the cheapest rule
it allows), so it names the same rule as the headline.
"""

from __future__ import annotations

import math

import bqplot as bq
import ipywidgets as widgets
import numpy as np
import pandas as pd

from ...model import decision_curve
from ..state.component import Component
from .figures import FIGURE_MARGIN, TRIVIAL_COLOR, axes, pane_figure

__all__ = ["DecisionCurveView", "THRESHOLDS", "threshold_probability"]

#: The threshold probabilities drawn: those of ``dcurves.dca`` (0, 0.01, ..., 0.99).
THRESHOLDS = np.round(np.arange(0, 100) / 100, 2)


def _prior(p_pos: float):
    """The prevalence net benefit is reported at: p(+), or the data's (None) at 0 or 1."""
    return float(p_pos) if 0.0 < p_pos < 1.0 else None


def threshold_probability(cost_fn: float, cost_fp: float) -> float:
    """The pt the costs imply: treating pays iff the risk is at least C(+|−)/(C(+|−) + C(−|+))."""
    return float(cost_fp) / (float(cost_fp) + float(cost_fn))


class DecisionCurveView(Component):
    """Owns the decision-curve pane, its marks and its toggle.

    Attributes
    ----------
    toggle : ipywidgets.Checkbox
        Sets ``show_decision_curve`` through the transaction.
    figure : bqplot.Figure
        The pane (hidden when off).
    frame : DataFrame
        What is drawn: ``classifier``, ``threshold_choice``, ``threshold_probability``,
        ``net_benefit`` (empty when off).

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="a")
    >>> w = cw.CostWidget([a], p_pos=0.5, cost_fn=3.0, cost_fp=1.0)
    >>> w.show_decision_curve = True
    >>> w.decision_curve_view.operating_pt
    0.25
    >>> w.close()
    """

    def __init__(self, ctx):
        from ..controls.sliders import SliderBinding

        self.ctx = ctx
        x, y = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=-0.05, max=0.5)
        self.scales = {"x": x, "y": y}
        n = len(ctx.drawings)
        colors = [d.color for d in ctx.drawings]
        self.optimal = bq.Lines(
            x=np.zeros((n, 2)),
            y=np.zeros((n, 2)),
            scales=self.scales,
            colors=colors,
            stroke_width=2,
            labels=[d.name for d in ctx.drawings],
        )
        self.score = bq.Lines(
            x=np.zeros((n, 2)),
            y=np.zeros((n, 2)),
            scales=self.scales,
            colors=colors,
            stroke_width=1.5,
            line_style="dashed",
            visible=False,
        )
        self.reference = bq.Lines(
            x=np.zeros((2, 2)),
            y=np.zeros((2, 2)),
            scales=self.scales,
            colors=[TRIVIAL_COLOR, "#555555"],
            labels=["treat all", "treat none"],
        )
        self.point_line = bq.Lines(
            x=[0.5, 0.5], y=[-1.0, 2.0], scales=self.scales, colors=["#000000"], line_style="dotted"
        )
        self.points = bq.Scatter(
            x=np.zeros(n),
            y=np.zeros(n),
            scales=self.scales,
            colors=colors,
            default_size=60,
            stroke="#000000",
        )
        self.figure = pane_figure(
            "costwidget-decision-curve",
            marks=[self.reference, self.optimal, self.score, self.point_line, self.points],
            axes=axes(x, y, "threshold probability pt", "net benefit", y_format=".2f"),
            title="Decision curve",
            fig_margin=FIGURE_MARGIN,
            min_aspect_ratio=1,
            max_aspect_ratio=1,
        )
        self.toggle = widgets.Checkbox(
            description="decision curve",
            value=False,
            style={"description_width": "initial"},
            tooltip="net benefit against threshold probability (Vickers & Elkin 2006)",
        )
        self.binding = SliderBinding(
            self.toggle,
            ctx.tx,
            lambda v: setattr(ctx.state, "show_decision_curve", v),
            "decision curve",
        )
        self.caption = widgets.HTML("")
        # Attached when shown, not hidden with display: none: a bqplot figure drawn in a hidden
        # container has no size and the browser logs negative <rect> sizes.
        self.widget = widgets.VBox([])
        self.frame = pd.DataFrame(
            columns=["classifier", "threshold_choice", "threshold_probability", "net_benefit"]
        )
        self.operating_pt = math.nan
        #: ``{name: net benefit}`` of the dots drawn (the Decision's; empty when off).
        self.operating_nb = {}
        self._drawn_curves = None
        self._drawn_point = None

    def push_controls(self) -> None:
        self.binding.push(self.ctx.state.show_decision_curve)

    def _curves(self, shown, with_score, prior) -> pd.DataFrame:
        if not shown:
            return self.frame.iloc[:0]
        named = {d.name: d.clf for d in shown}
        parts = [
            decision_curve(named, THRESHOLDS, threshold_choice="optimal", prior=prior).assign(
                threshold_choice="optimal"
            )
        ]
        if with_score:
            ok = {}
            for name, clf in named.items():
                try:
                    decision_curve(clf, [0.5])
                except ValueError:
                    continue  # scores that are not risks have no score-driven curve
                ok[name] = clf
            if ok:
                part = decision_curve(ok, THRESHOLDS, threshold_choice="score", prior=prior)
                parts.append(part[part.classifier.isin(list(ok))].assign(threshold_choice="score"))
        frame = pd.concat(parts, ignore_index=True)
        return frame[["classifier", "threshold_choice", "threshold_probability", "net_benefit"]]

    def sync(self) -> None:
        s = self.ctx.state
        if not s.show_decision_curve:
            if self.widget.children:
                self.widget.children = ()
            if len(self.frame):  # slicing builds a frame (pandas < 2.1 by __init__): only once
                self.frame = self.frame.iloc[:0]
            self._drawn_curves = None
            self._drawn_point = None
            self.operating_pt = math.nan
            self.operating_nb = {}
            return
        shown = self.ctx.visible()
        with_score = s.threshold_choice != "none"
        prior = _prior(s.p_pos)
        key = (tuple(s.visible), with_score, prior)
        if key != self._drawn_curves:
            self.frame = self._curves(shown, with_score, prior)
            self._draw_curves(shown)
            self._drawn_curves = key
            self._drawn_point = None
        point = (key, self.ctx.decision)
        if point != self._drawn_point:
            self._draw_point(shown)
            self._drawn_point = point
        if not self.widget.children:
            self.widget.children = (self.figure, self.caption)

    def _rows(self, name, method):
        f = self.frame
        part = f[(f.classifier == name) & (f.threshold_choice == method)]
        return part.threshold_probability.to_numpy(float), part.net_benefit.to_numpy(float)

    def _draw_curves(self, shown) -> None:
        names = {d.name for d in shown}
        opt_x, opt_y, sc_x, sc_y = [], [], [], []
        for d in self.ctx.drawings:
            x, y = self._rows(d.name, "optimal") if d.name in names else ([], [])
            x, y = (x, y) if len(x) else (THRESHOLDS, np.full(len(THRESHOLDS), np.nan))
            opt_x.append(x)
            opt_y.append(y)
            x, y = self._rows(d.name, "score")
            x, y = (x, y) if len(x) else (THRESHOLDS, np.full(len(THRESHOLDS), np.nan))
            sc_x.append(x)
            sc_y.append(y)
        all_x, all_y = self._rows("treat all", "optimal")
        top = float(np.nanmax(all_y)) if len(all_y) else 0.5
        with self.figure.hold_sync():
            self.scales["y"].max = max(top * 1.1, 0.05)
            self.scales["y"].min = -0.1 * max(top, 0.05)
            self.optimal.x, self.optimal.y = np.array(opt_x), np.array(opt_y)
            self.score.x, self.score.y = np.array(sc_x), np.array(sc_y)
            self.score.visible = bool((self.frame.threshold_choice == "score").any())
            if len(all_x):
                self.reference.x = np.array([all_x, all_x])
                self.reference.y = np.array([all_y, np.zeros(len(all_y))])

    def _draw_point(self, shown) -> None:
        # The Decision's point: each shown classifier's rule, its net benefit at
        # the current p(+) (the population the cost pane describes) and pt; NaN at pt = 1.
        point = self.ctx.decision.decision_curve
        if point is None:  # per-case costs: no single pt (the view is refused there)
            return
        pt = point.threshold_probability
        self.operating_pt = pt
        nb = dict(point.net_benefit)
        ys = np.array([nb.get(d.name, np.nan) for d in self.ctx.drawings], dtype=float)
        self.operating_nb = {name: v for name, v in point.net_benefit}
        with self.figure.hold_sync():
            self.point_line.x = [pt, pt]
            self.points.x = np.full(len(ys), pt)
            self.points.y = np.where(np.isnan(ys), -10.0, ys)
        self.caption.value = (
            f"<span class='costwidget-table-note'>Operating point: pt = C(+|−)/(C(+|−)+C(−|+)) "
            f"= {pt:.4g}. Net benefit = π₁ − (π₁(1−pt) + π₀·pt)/(1−pt) · NEC: the cost pane "
            f"in other units (solid: best threshold; dashed: treat iff score ≥ pt).</span>"
        )

    def boxes(self) -> dict:
        return {"draw": [self.toggle], "decision_curve": [self.widget]}


def draw_on_matplotlib(ax, view, colors: dict) -> None:
    """Draw the decision-curve pane as shown (``view.frame``, the operating pt) with matplotlib."""
    f = view.frame
    ax.set_title("Decision curve")
    ax.set_xlabel("threshold probability pt")
    ax.set_ylabel("net benefit")
    for (name, method), part in f.groupby(["classifier", "threshold_choice"], sort=False):
        if name in ("treat all", "treat none"):
            ax.plot(
                part.threshold_probability,
                part.net_benefit,
                color=TRIVIAL_COLOR,
                linestyle="-" if name == "treat all" else ":",
                label=name,
            )
        else:
            ax.plot(
                part.threshold_probability,
                part.net_benefit,
                color=colors.get(name, "#999999"),
                linestyle="-" if method == "optimal" else "--",
                linewidth=1.5,
            )
    ax.set_xlim(0, 1)
    ax.set_ylim(view.scales["y"].min, view.scales["y"].max)
    if not math.isnan(view.operating_pt):
        ax.axvline(view.operating_pt, color="black", linestyle=":", linewidth=1)
