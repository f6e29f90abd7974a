"""What a `CostWidget` asks of each of its components: the protocol the registry iterates.

A component is one view or tool of the widget (the classifiers' curves, the operating point, a
table, a pane...). It is built on the widget's `Context` and owns its marks, its boxes, its
observers and its controls. The widget knows it only through these five methods, called for
every component of the registry (``costwidget/widget/components.py``), in the registry's order:

* ``pane_marks()``: its marks per pane, ``{"roc" | "cost": {layer: [mark, ...]}}``; the layout
  (``controls/layout.py``: ``ROC_LAYERS``, ``COST_LAYERS``) stacks the layers bottom first;
* ``boxes()``: its widgets per place, ``{place: [widget, ...]}``; the layout
  (``BOX_PLACES``) puts the places top to bottom;
* ``sync()``: draw from the whole state (skip when nothing it reads changed);
* ``push_controls()``: show the state's values in its controls (inside ``tx.pushing()``);
* ``close()``: close every widget it created;
* ``drawings_changed()``: ``ctx.drawings`` holds new drawings (per-case costs whose
  cost-weighted twins move with p(+) and the multipliers, ``state/per_case_costs.py``): drop
  what was drawn or computed from the old ones, and cancel background work for them. It is
  called inside the redraw of the move, before the ``sync()`` that draws the new ones.

`Component` gives each a default that does nothing (``close`` closes the widgets the
component holds), so a component writes only what it has.
"""

from __future__ import annotations

from .lifecycle import reachable_widgets, widgets_held_by

__all__ = ["Component"]


class Component:
    """Base of the widget's components: the protocol, with do-nothing defaults."""

    def pane_marks(self) -> dict:
        """``{"roc" | "cost": {layer: [mark, ...]}}``: where its marks lie in each pane."""
        return {}

    def boxes(self) -> dict:
        """``{place: [widget, ...]}``: where its widgets go in the widget's column."""
        return {}

    def sync(self) -> None:
        """Draw from the state."""

    def push_controls(self) -> None:
        """Show the state's values in its controls."""

    def drawings_changed(self) -> None:
        """The drawings were made again: forget what was drawn from the old ones."""

    def close(self) -> None:
        """Close every widget it holds (also those not in the layout, e.g. a link)."""
        for w in reachable_widgets(widgets_held_by(self)):
            w.close()
