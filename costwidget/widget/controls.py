"""The ipywidgets controls: operating point, constraint tool, display options and picker."""

from __future__ import annotations

import ipywidgets as widgets

__all__ = ["Controls"]

_W = {"description_width": "initial"}


class Controls:
    """Plain container of the control widgets; `CostWidget` wires them to the state."""

    def __init__(self, names, *, total_cases: float | None, has_bands: bool):
        self.p_pos = widgets.FloatSlider(description="p(+)", min=0.001, max=0.999, step=0.001,
                                         readout_format=".3f", continuous_update=True, style=_W)
        self.p_pos.add_class("costwidget-p-pos")
        self.cost_fn = widgets.FloatText(description="C(-|+) false negative", style=_W,
                                         layout=widgets.Layout(width="210px"))
        self.cost_fp = widgets.FloatText(description="C(+|-) false positive", style=_W,
                                         layout=widgets.Layout(width="210px"))
        self.log_ratio = widgets.FloatLogSlider(description="C(-|+)/C(+|-)", base=10, min=-3, max=3,
                                                step=0.01, readout_format=".3g", style=_W)
        self.pcf = widgets.HTML()
        self.pcf.add_class("costwidget-pcf")
        self.constraint = widgets.ToggleButtons(
            options=[("none", "none"), ("Neyman-Pearson", "neyman_pearson"),
                     ("workforce", "workforce")], description="constraint", style=_W)
        self.max_fpr = widgets.FloatSlider(description="max FPR", min=0.0, max=1.0, step=0.005,
                                           readout_format=".3f", style=_W)
        self.capacity_unit = widgets.ToggleButtons(options=["cases", "% flagged"],
                                                   description="capacity in", style=_W)
        top = total_cases if total_cases else 1.0
        self.capacity = widgets.FloatSlider(description="capacity", min=0.0, max=top,
                                            step=max(top / 1000.0, 1e-6), style=_W)
        self.n_pos = widgets.FloatText(description="population positives", style=_W,
                                       layout=widgets.Layout(width="230px"))
        self.n_neg = widgets.FloatText(description="negatives", style=_W,
                                       layout=widgets.Layout(width="170px"))
        self.show_cost_lines = widgets.Checkbox(description="every hull vertex's cost line",
                                                value=False, style=_W)
        self.show_bands = widgets.Checkbox(description="bands", style=_W) if has_bands else None
        self.band_level = (widgets.FloatSlider(description="level", min=0.5, max=0.99, step=0.01,
                                               style=_W) if has_bands else None)
        # Checkbox descriptions render as text, not HTML, so names need no escaping here.
        self.picker = {name: widgets.Checkbox(value=True, description=name, indent=False,
                                              layout=widgets.Layout(width="auto"))
                       for name in names}

    def layout(self):
        operating = widgets.VBox([
            widgets.HBox([self.p_pos, self.pcf]),
            widgets.HBox([self.cost_fn, self.cost_fp, self.log_ratio]),
        ])
        constraint = widgets.VBox([
            self.constraint,
            widgets.HBox([self.max_fpr]),
            widgets.HBox([self.capacity_unit, self.capacity]),
            widgets.HBox([self.n_pos, self.n_neg]),
        ])
        display = [self.show_cost_lines]
        if self.show_bands is not None:
            display += [self.show_bands, self.band_level]
        picker = widgets.HBox([widgets.HTML("<b>show:</b>"), *self.picker.values(), *display])
        return operating, constraint, picker
