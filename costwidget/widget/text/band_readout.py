"""The bands in the readout: each visible model's bootstrap band at the operating point.

With bands on, ``w.readout`` gains ``nec_band_lo`` and ``nec_band_hi`` (NaN while bands are off or
still computing) and a small table under the readout gives them with their width, so the band
has a number, not only a shade, and what the band covers as measured (the band's
``attrs["coverage"]``, `costwidget.model.uncertainty.coverage`): the level set is a nominal one,
and the envelope's band covers less. The limits are the drawn band read at PCF(+)
(`costwidget.model.band_limits_at`: linear between the band's rows, as the fill is drawn).
The kernel is this table's one writer.
"""

from __future__ import annotations

import html
import math

import ipywidgets as widgets
import pandas as pd

from ...model import band_limits_at
from ..state.component import Component

__all__ = ["BandReadout", "BAND_COLUMNS"]

BAND_COLUMNS = ["nec_band_lo", "nec_band_hi"]


def _fmt(value: float) -> str:
    return "" if math.isnan(value) else f"{value:.4g}"


class BandReadout(Component):
    """A table of band limits at PCF(+), redrawn on every state change and whenever the band
    layer draws (a band arriving from the background)."""

    def __init__(self, ctx, band_layer):
        self.ctx, self.band_layer = ctx, band_layer
        self.widget = widgets.HTML(value="")
        self.widget.add_class("costwidget-band-readout")
        band_layer.on_drawn.append(self.sync)

    def _limits(self) -> dict:
        """``{name: (lower, upper)}`` per visible classifier at PCF(+) (NaN where none is drawn)."""
        pcf = self.ctx.state.pcf
        drawn = self.band_layer.drawn
        return {
            d.name: band_limits_at(drawn[d.name], pcf) if d.name in drawn else (math.nan, math.nan)
            for d in self.ctx.visible()
        }

    def table(self) -> pd.DataFrame:
        """``nec_band_lo``, ``nec_band_hi`` per visible classifier (NaN where none is drawn).
        Built when a reader asks (``w.readout``); the table in the widget reads the limits."""
        limits = self._limits()
        return pd.DataFrame(
            list(limits.values()),
            columns=BAND_COLUMNS,
            index=pd.Index(list(limits), name="classifier"),
            dtype=float,
        )

    def sync(self) -> None:
        value = self._html()
        if value != self.widget.value:
            self.widget.value = value

    def _html(self) -> str:
        s = self.ctx.state
        if not s.show_bands:
            return ""
        limits = self._limits()
        rows = []
        for d in self.ctx.visible():
            lo, hi = (float(v) for v in limits[d.name])
            nec = float(d.clf.nec(s.pcf))
            color = html.escape(d.color, quote=True)
            drawn = self.band_layer.drawn.get(d.name)
            covers = "" if drawn is None else drawn.attrs.get("coverage", "")
            cells = (
                [_fmt(lo), _fmt(nec), _fmt(hi), _fmt(hi - lo), covers]
                if not math.isnan(lo)
                else ["computing…", "", "", "", ""]
            )
            rows.append(
                f"<tr><td><span style='color:{color}'>&#9632;</span> "
                f"{html.escape(d.name)}</td>"
                + "".join(f"<td>{html.escape(c)}</td>" for c in cells)
                + "</tr>"
            )
        if not rows:
            return ""
        head = "".join(
            f"<th>{h}</th>"
            for h in ("classifier", "band lower", "NEC", "band upper", "width", "level, covers")
        )
        caption = (
            f"Band (nominal {100 * s.band_level:.4g} %) of the normalized expected cost at "
            f"PCF(+) = {s.pcf:.4g}; what it covers, measured, in the last column"
        )
        return (
            f"<table class='costwidget-table'><caption>{html.escape(caption)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )

    def boxes(self) -> dict:
        return {"band_readout": [self.widget]}
