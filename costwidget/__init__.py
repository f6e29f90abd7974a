"""costwidget: choose a binary classifier and its threshold with cost curves.

The model (``costwidget.model``) is plain numpy/pandas and is imported here;
the Jupyter widget is loaded only when ``CostWidget`` or ``demo`` is first
used, so ``import costwidget`` never imports ipywidgets or bqplot.
"""

from .model import *  # noqa: F403 - the model's public names are the package's
from .model import __all__ as _model_all

__version__ = "0.1.0"

_LAZY = {  # name -> "module:attribute", filled by the widget layer
    "CostWidget": ".widget:CostWidget",
    "demo": ".demos:demo",
    "from_duckdb": ".sources:from_duckdb",
    "from_spark": ".sources:from_spark",
    "CostCurveDisplay": ".display:CostCurveDisplay",
    "ThesisView": ".widget.panes.thesis_view:ThesisView",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name].split(":")
        value = getattr(importlib.import_module(module, __name__), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'costwidget' has no attribute {name!r}")


__all__ = [*_model_all, *_LAZY]
