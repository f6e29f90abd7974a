"""The Jupyter widget (ipywidgets + bqplot). Imported lazily by ``costwidget.CostWidget``."""

from .core import CostWidget
from .state.state import WidgetState

__all__ = ["CostWidget", "WidgetState"]
