"""The Jupyter widget (ipywidgets + bqplot). Imported lazily by ``costwidget.CostWidget``.

Its names are loaded on first use (PEP 562), so that importing one of its modules (the state,
which `costwidget.frontend.contract` reads) does not compose the whole widget first.
"""

from __future__ import annotations

__all__ = ["CostWidget", "WidgetState"]


def __getattr__(name):
    if name == "CostWidget":
        from .core import CostWidget

        return CostWidget
    if name == "WidgetState":
        from .state.state import WidgetState

        return WidgetState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
