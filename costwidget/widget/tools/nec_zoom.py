"""The NEC axis's reach: "NEC axis up to" (a slider) and "fit" (to the curves shown).

With good classifiers every curve lies in the bottom fifth of a 0–0.5 axis and the bands'
outlines run together. The slider's value is linked *in the browser* to the top of the cost
pane's y scale (``ipywidgets.jsdlink``), so it zooms in JupyterLab and in an exported page with
no kernel alike; the link is the scale's one writer (the kernel never sets ``cost_y.max``).
"fit" needs the kernel (it reads the curves and bands drawn): it sets the slider, and an
exported page shows it disabled, saying so.
"""

from __future__ import annotations

import math

import ipywidgets as widgets
import numpy as np

from ..panes.fill_layer import band_xy

__all__ = ["NecZoom", "NEC_TOP", "fit_top"]

#: The axis's widest reach: NEC of the trivial classifiers' best is at most 0.5.
NEC_TOP = 0.5
#: The slider spans this many decades below NEC_TOP, in steps of this many decades.
_DECADES, _STEP = 2.0, 0.02
#: Room above the highest curve when fitting, as a share of it.
_HEADROOM = 0.1
#: Shown on the "fit" button of an exported page (no kernel reads the curves there).
NO_KERNEL = "fit needs the running kernel; in a saved page, drag the slider"


def _grid_exponent(top: float) -> float:
    """log10 of the smallest value on the slider's grid that is >= ``top`` (within its range)."""
    hi = math.log10(NEC_TOP)
    lo = hi - _DECADES
    k = math.ceil((math.log10(top) - lo) / _STEP - 1e-9)
    return min(max(lo + k * _STEP, lo), hi)


def fit_top(tops) -> float:
    """The slider value that shows every one of ``tops`` (highest NEC of each curve drawn) with
    a little room above, on the slider's grid; the full axis when nothing is drawn.

    Examples
    --------
    >>> from costwidget.widget.tools.nec_zoom import fit_top
    >>> round(fit_top([0.031, 0.05]), 4), fit_top([]), fit_top([0.7])
    (0.0574, 0.5, 0.5)
    """
    tops = [float(t) for t in tops if np.isfinite(t)]
    if not tops or max(tops) <= 0.0:
        return NEC_TOP
    exponent = _grid_exponent(min(max(tops) * (1.0 + _HEADROOM), NEC_TOP))
    return NEC_TOP if exponent >= math.log10(NEC_TOP) else float(10.0**exponent)


class NecZoom:
    """Owns the slider, the fit button and the browser-side link to the cost pane's y scale.

    Parameters
    ----------
    ctx : Context
        Its figures' ``cost_y`` scale is zoomed; ``visible()`` says which curves ``fit`` reads.
    fill_layers : sequence of FillBetweenLayer
        Bands whose drawn limits ``fit`` keeps in view.
    """

    def __init__(self, ctx, fill_layers=()):
        self.ctx = ctx
        self.fill_layers = list(fill_layers)
        hi = math.log10(NEC_TOP)
        self.slider = widgets.FloatLogSlider(
            value=NEC_TOP,
            base=10,
            min=hi - _DECADES,
            max=hi,
            step=_STEP,
            description="NEC axis up to",
            readout_format=".2g",
            continuous_update=True,
            style={"description_width": "initial"},
            tooltip="the top of the cost pane's y axis: zoom in on good classifiers",
        )
        self.slider.add_class("costwidget-nec-zoom")
        self.fit_button = widgets.Button(
            description="fit",
            tooltip="zoom the NEC axis to the curves and bands shown",
            layout=widgets.Layout(width="auto"),
        )
        self.fit_button.add_class("costwidget-nec-fit")
        self.fit_button.on_click(lambda _button: self.fit())
        # The browser moves the scale with the slider (also in a page with no kernel: an export's
        # dependency_state takes every link between the widgets it holds). CostWidget.close
        # closes it (it is in no view's tree).
        self.link = widgets.jsdlink((self.slider, "value"), (ctx.figures.cost_y, "max"))
        self.controls = [self.slider, self.fit_button]

    @property
    def top(self) -> float:
        """The NEC the axis reaches now (what an export draws)."""
        return float(self.slider.value)

    def tops(self) -> list:
        """The highest NEC of each curve and band limit drawn for the visible classifiers."""
        out = [float(np.max(d.env_y)) for d in self.ctx.visible()]
        for layer in self.fill_layers:
            for band in layer.drawn.values():
                _x, (_lower, upper) = band_xy(band)
                out.append(float(np.nanmax(upper)))
        return out

    def fit(self) -> None:
        """Zoom the axis to what is drawn (the slider moves; the link moves the scale)."""
        self.slider.value = fit_top(self.tops())

    def patch_export_state(self, state: dict) -> None:
        """In an exported page the fit button cannot work (no kernel): disabled, saying why."""
        entry = state.get(self.fit_button.model_id)
        if entry is not None:
            entry["state"].update(disabled=True, tooltip=NO_KERNEL, description="fit (kernel)")
