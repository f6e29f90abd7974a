"""What a `CostWidget` owns, for :meth:`CostWidget.close`: every ipywidgets model it created.

ipywidgets keeps every model in its registry (``ipywidgets.Widget.widgets``) until it is
closed, so a widget that is only dropped (a cell re-run) stays alive with its classifiers
and computed bands; ``close()`` (or ``with``) removes them all.
"""

from __future__ import annotations

import ipywidgets as widgets

__all__ = ["widgets_held_by", "reachable_widgets"]


def widgets_held_by(obj, depth=2):
    """Widgets a component holds in its attributes (also in lists, dicts and helper objects:
    a figure created on first show is not yet in the layout, but it is still ours)."""
    found = []
    for value in vars(obj).values():
        values = (
            value
            if isinstance(value, (list, tuple))
            else list(value.values())
            if isinstance(value, dict)
            else [value]
        )
        for v in values:
            if isinstance(v, widgets.Widget):
                found.append(v)
            elif (
                depth > 0
                and hasattr(v, "__dict__")
                and type(v).__module__.startswith("costwidget.widget")
            ):
                found += widgets_held_by(v, depth - 1)
    return found


def reachable_widgets(roots):
    """Every widget reachable from ``roots`` through widget-valued traits (children, marks, ...)."""
    seen, stack, out = set(), list(roots), []
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        out.append(w)
        for name in w.trait_names():
            if name in ("comm", "keys", "log"):
                continue
            value = getattr(w, name, None)
            values = (
                value
                if isinstance(value, (list, tuple))
                else list(value.values())
                if isinstance(value, dict)
                else [value]
            )
            stack.extend(v for v in values if isinstance(v, widgets.Widget))
    return out
