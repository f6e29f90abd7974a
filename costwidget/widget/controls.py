"""The ipywidgets controls: operating point, constraint tool, display options and picker."""

from __future__ import annotations

import ipywidgets as widgets

__all__ = ["Controls"]

_W = {"description_width": "initial"}


class Controls:
    """Plain container of the control widgets; `CostWidget` wires them to the state."""

    def __init__(self, names, *, total_cases: float | None, has_folds: bool = False):
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
        self.show_bands = widgets.Checkbox(description="bands", style=_W)
        self.band_level = widgets.FloatSlider(description="level", min=0.5, max=0.99, step=0.01,
                                              style=_W)
        self.show_fold_spread = (widgets.Checkbox(description="fold spread", style=_W)
                                 if has_folds else None)
        # The difference view compares two classifiers; Dropdown options render as text.
        if len(names) >= 2:
            self.show_difference = widgets.Checkbox(description="difference", style=_W,
                                                    layout=widgets.Layout(width="auto"))
            self.difference_a = widgets.Dropdown(options=list(names), value=names[0],
                                                 layout=widgets.Layout(width="auto"))
            self.difference_b = widgets.Dropdown(options=list(names), value=names[1],
                                                 description="−", style=_W,
                                                 layout=widgets.Layout(width="auto"))
        else:
            self.show_difference = self.difference_a = self.difference_b = None
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
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        display = [widgets.HTML("<b>draw:</b>"), self.show_cost_lines, self.show_bands,
                   self.band_level]
        if self.show_fold_spread is not None:
            display.append(self.show_fold_spread)
        # Rows wrap, so many classifiers or long names never push controls off the edge.
        rows = [widgets.HBox([widgets.HTML("<b>show:</b>"), *self.picker.values()], layout=wrap),
                widgets.HBox(display, layout=wrap)]
        if self.show_difference is not None:
            rows.append(widgets.HBox([self.show_difference, self.difference_a, self.difference_b],
                                     layout=wrap))
        picker = widgets.VBox(rows)
        return operating, constraint, picker
