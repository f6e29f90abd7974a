"""The readout: one row per visible classifier at the current operating point, as an HTML table.

The numbers come from the model (`costwidget.model.operating.operating_table`);
this module only lays them out, escaping every name.
"""

from __future__ import annotations

import html
import math

import ipywidgets as widgets
import pandas as pd

from ..model.operating import operating_table

__all__ = ["Readout", "readout_html"]


def _fmt(value) -> str:
    if isinstance(value, str):
        return html.escape(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{value:.4g}"


def readout_html(frame: pd.DataFrame, colors: dict) -> str:
    """An HTML table (names escaped), best expected cost highlighted; plain text copies cleanly."""
    if frame.empty:
        return "<i>No classifier shown.</i>"
    best = frame["expected_cost"].idxmin()
    cols = list(frame.columns)
    head = "".join(f"<th style='padding:0 6px'>{html.escape(c)}</th>" for c in ["classifier", *cols])
    body = []
    for name, row in frame.iterrows():
        style = " style='background:#fff3b0;font-weight:bold'" if name == best else ""
        swatch = f"<span style='color:{colors.get(name, '#000')}'>&#9632;</span> "
        cells = "".join(f"<td style='padding:0 6px;text-align:right'>{_fmt(row[c])}</td>" for c in cols)
        body.append(f"<tr{style}><td>{swatch}{html.escape(str(name))}</td>{cells}</tr>")
    return (f"<table class='costwidget-readout' style='border-collapse:collapse;font-size:12px'>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


class Readout:
    """Owns the readout's HTML widget; asks the operating-point and constraint tools for their
    look-ups, and the model for the table."""

    def __init__(self, ctx, operating_tool, constraint_tool):
        self.ctx = ctx
        self.operating_tool = operating_tool
        self.constraint_tool = constraint_tool
        self.widget = widgets.HTML()
        self.widget.add_class("costwidget-readout")
        self.frame = pd.DataFrame()

    def table(self) -> pd.DataFrame:
        s = self.ctx.state
        return operating_table([d.clf for d in self.ctx.visible()], p_pos=s.p_pos,
                               cost_fn=s.cost_fn, cost_fp=s.cost_fp,
                               constrained=self.constraint_tool.constrained,
                               best=self.operating_tool.best)

    def sync(self) -> None:
        frame = self.table()
        if frame.equals(self.frame) and self.widget.value:
            return
        self.frame = frame
        self.widget.value = readout_html(frame, {d.name: d.color for d in self.ctx.drawings})
