"""The "draw:" controls a `CostWidget` owns itself: the bands checkbox and their level, the
fold-spread checkbox (only when a classifier has folds), and the NEC axis's reach (`NecZoom`).
Their layers draw what they set."""

from __future__ import annotations

import ipywidgets as widgets

from ..controls.sliders import SliderBinding
from ..state.component import Component
from .nec_zoom import NecZoom

__all__ = ["DrawControls"]


class DrawControls(Component):
    """``show_bands_box``, ``band_level_slider``, ``show_fold_spread_box`` (None without
    folds), ``show_honest_box`` and ``honest_strip_box``, bound to the state through the widget's transaction; ``nec_zoom``, the NEC axis's
    reach (its "fit" keeps the bands of ``fill_layers`` in view)."""

    def __init__(self, ctx, *, folds: bool, fill_layers=()):
        self.state = ctx.state
        self.show_bands_box = widgets.Checkbox(
            description="bands",
            style={"description_width": "initial"},
            tooltip="pointwise bootstrap band of the best achievable cost at each PCF(+)",
        )
        self.band_level_slider = widgets.FloatSlider(
            description="level",
            min=0.5,
            max=0.99,
            step=0.01,
            readout_format=".0%",
            style={"description_width": "initial"},
            tooltip="confidence level of the bands",
        )
        self.show_fold_spread_box = (
            widgets.Checkbox(
                description="fold spread (min–max)", style={"description_width": "initial"}
            )
            if folds
            else None
        )
        # the cost on new data, and whether the winner strip compares it
        self.show_honest_box = widgets.Checkbox(
            description="new data",
            style={"description_width": "initial"},
            tooltip="the cost on new data of the threshold tuned at each PCF(+) (each case "
            "judged by a threshold chosen without it), dashed, the gap to the "
            "envelope shaded",
        )
        self.honest_strip_box = widgets.Checkbox(
            description="strip on new data",
            style={"description_width": "initial"},
            tooltip="the winner strip: which classifier is cheapest on new data (the honest "
            "curves) rather than on this data (the envelopes)",
        )
        self.nec_zoom = NecZoom(ctx, fill_layers)
        s, tx = self.state, ctx.tx
        self._bindings = [
            SliderBinding(self.show_bands_box, tx, lambda v: setattr(s, "show_bands", v), "bands"),
            SliderBinding(
                self.band_level_slider, tx, lambda v: setattr(s, "band_level", v), "band level"
            ),
            SliderBinding(
                self.show_honest_box, tx, lambda v: setattr(s, "show_honest", v), "new data"
            ),
            SliderBinding(
                self.honest_strip_box,
                tx,
                lambda v: setattr(s, "honest_strip", v),
                "strip on new data",
            ),
        ]
        if self.show_fold_spread_box is not None:
            self._bindings.append(
                SliderBinding(
                    self.show_fold_spread_box,
                    tx,
                    lambda v: setattr(s, "show_fold_spread", v),
                    "fold spread",
                )
            )

    @property
    def controls(self) -> list:
        """The controls, in their order in the "draw:" row."""
        out = [self.show_bands_box, self.band_level_slider]
        if self.show_fold_spread_box is not None:
            out.append(self.show_fold_spread_box)
        out += [self.show_honest_box, self.honest_strip_box]
        return out + self.nec_zoom.controls

    def push_controls(self) -> None:
        """Show the state's values (inside the transaction's ``pushing()``)."""
        s = self.state
        self.show_bands_box.value = s.show_bands
        self._bindings[1].push(s.band_level)
        if self.show_fold_spread_box is not None:
            self.show_fold_spread_box.value = s.show_fold_spread
        self.show_honest_box.value = s.show_honest
        self.honest_strip_box.value = s.honest_strip

    def boxes(self) -> dict:
        return {"draw": self.controls}
