"""A new view plugs into the widget through the component registry: its module (a `Component`)
plus one `Entry`. The small view below registers, draws in the cost pane and in its own box,
shows the state in its control, and is closed with the widget."""

from __future__ import annotations

import bqplot as bq
import ipywidgets as widgets
import pytest

import costwidget as cw
from costwidget.widget import CostWidget
from costwidget.widget.components import COMPONENTS, Entry
from costwidget.widget.controls.layout import COST_LAYERS
from costwidget.widget.state.component import Component


class DotView(Component):
    """A dot at the operating point on the best envelope, a line of text, a p(+) field."""

    def __init__(self, ctx):
        self.ctx = ctx
        f = ctx.figures
        self.dot = bq.Scatter(x=[0.0], y=[0.0], scales={"x": f.cost_x, "y": f.cost_y})
        self.text = widgets.HTML()
        self.p_pos_field = widgets.FloatText()
        self.unplaced = widgets.HTML("held by the view, in no layout")
        self.syncs = 0

    def pane_marks(self):
        return {"cost": {"views": [self.dot]}}

    def boxes(self):
        return {"views": [widgets.VBox([self.text, self.p_pos_field])]}

    def sync(self):
        s = self.ctx.state
        best = min(d.clf.nec(s.pcf) for d in self.ctx.visible())
        self.dot.x, self.dot.y = [s.pcf], [best]
        self.text.value = f"PCF(+) = {s.pcf:.4f}"
        self.syncs += 1

    def push_controls(self):
        self.p_pos_field.value = self.ctx.state.p_pos


class WithDot(CostWidget):
    _entries = COMPONENTS + (Entry("dot_view", lambda ctx, w, get: DotView(ctx)),)


def _clf():
    # ROC points (0, 0), (0.3, 0.7), (1, 1): the envelope is min(x, 0.3, 1 - x) (Drummond &
    # Holte (2000), figure 4).
    return cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")


def _children(box):
    out = [box]
    for child in getattr(box, "children", ()):
        out += _children(child)
    return out


def test_a_registered_view_draws_is_placed_and_closes():
    w = WithDot([_clf()], p_pos=0.5)
    view = w.dot_view
    # Its mark lies in its layer: above the bands, under the envelopes.
    marks = w.figures.cost.marks
    i = marks.index(view.dot)
    assert marks.index(w.band_layer.marks[0]) < i < marks.index(w.classifier_layers.envelopes[0])
    assert view.text in _children(w.widget) and view.p_pos_field in _children(w.widget)
    # It draws from the state, as every component: PCF(+) by eq. 6, NEC = min(x, 0.3, 1 - x).
    w.update(p_pos=0.2, cost_fn=3.0)
    pcf = 0.2 * 3.0 / (0.2 * 3.0 + 0.8 * 1.0)
    assert view.dot.x.tolist() == pytest.approx([pcf])
    assert view.dot.y.tolist() == pytest.approx([min(pcf, 0.3, 1 - pcf)])
    assert view.text.value == f"PCF(+) = {pcf:.4f}"
    # The control push reaches it too: the field shows the state again.
    view.p_pos_field.value = 0.9
    w._push_controls()
    assert view.p_pos_field.value == 0.2
    held = [view.dot, view.text, view.p_pos_field, view.unplaced]
    assert all(x.comm is not None for x in held)
    w.close()
    assert all(x.comm is None for x in held)


def test_a_view_that_names_no_known_place_is_refused_with_the_places():
    class Lost(DotView):
        def boxes(self):
            return {"somewhere": [self.text]}

    class WithLost(CostWidget):
        _entries = COMPONENTS + (Entry("lost", lambda ctx, w, get: Lost(ctx)),)

    with pytest.raises(ValueError, match="'somewhere' is not one of the widget's places"):
        WithLost([_clf()])


def test_the_registry_names_every_component_once_and_the_layers_once():
    names = [e.name for e in COMPONENTS]
    assert len(names) == len(set(names))
    assert len(COST_LAYERS) == len(set(COST_LAYERS))
    w = CostWidget([_clf()])
    try:
        assert all(isinstance(c, Component) for c in w._components.values())
        # Every mark in the panes comes from a component (or is the pane's own frame).
        own = {id(m) for m in (w.figures.roc_diagonal, w.figures.never_use, w.figures.trivial)}
        placed = {
            id(m)
            for c in w._components.values()
            for pane in c.pane_marks().values()
            for layer in pane.values()
            for m in layer
        }
        for fig in (w.figures.roc, w.figures.cost):
            assert {id(m) for m in fig.marks} <= placed | own
    finally:
        w.close()
