"""The readout: one row per visible classifier at the current operating point, as an HTML table.

The numbers come from the model (`costwidget.model.operating.operating_table`);
this module only lays them out, escaping every name.
"""

from __future__ import annotations

import html
import math

import ipywidgets as widgets
import pandas as pd

from ..model.operating import operating_rows

__all__ = ["Readout", "readout_html"]


def _fmt(value) -> str:
    if isinstance(value, str):
        return html.escape(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{value:.4g}"


def readout_html(rows, colors: dict) -> str:
    """An HTML table of ``(name, {column: value})`` rows (names escaped), the lowest expected
    cost highlighted; plain text copies cleanly."""
    if not rows:
        return "<i>No classifier shown.</i>"
    best = min(rows, key=lambda r: r[1]["expected_cost"])[0]
    cols = list(rows[0][1])
    head = "".join(f"<th style='padding:0 6px'>{html.escape(c)}</th>" for c in ["classifier", *cols])
    body = []
    for name, row in rows:
        style = " style='background:#fff3b0;font-weight:bold'" if name == best else ""
        swatch = f"<span style='color:{colors.get(name, '#000')}'>&#9632;</span> "
        cells = "".join(f"<td style='padding:0 6px;text-align:right'>{_fmt(row.get(c))}</td>"
                        for c in cols)
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

    def _rows(self):
        s = self.ctx.state
        return operating_rows([d.clf for d in self.ctx.visible()], p_pos=s.p_pos,
                              cost_fn=s.cost_fn, cost_fp=s.cost_fp,
                              constrained=self.constraint_tool.constrained,
                              best=self.operating_tool.best)

    def table(self) -> pd.DataFrame:
        """The readout as a DataFrame indexed by classifier name."""
        rows = self._rows()
        return pd.DataFrame([row for _, row in rows],
                            index=pd.Index([name for name, _ in rows], name="classifier"))

    def sync(self) -> None:
        value = readout_html(self._rows(), {d.name: d.color for d in self.ctx.drawings})
        if value != self.widget.value:
            self.widget.value = value
