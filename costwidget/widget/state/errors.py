"""An always-visible error area, and a guard that routes observer exceptions to it."""

from __future__ import annotations

import functools
import html

import ipywidgets as widgets

__all__ = ["ErrorArea"]


class ErrorArea:
    """An HTML banner: the escaped message of the last error; hidden while all is well. It lies
    over the headline (`layout.status_layer`), so showing it moves no control."""

    def __init__(self):
        self.widget = widgets.HTML(value="", layout=widgets.Layout(display="none"))
        self.widget.add_class("costwidget-errors")
        self.last_error: BaseException | None = None

    @property
    def message(self) -> str:
        return self.widget.value

    def show(self, exc: BaseException, *, context: str = "") -> None:
        self.last_error = exc
        text = f"{context}: {exc}" if context else f"{type(exc).__name__}: {exc}"
        # Theme colours (the widget's CSS), with light-theme fallbacks for pages without it.
        self.widget.value = (
            '<div role="alert" class="costwidget-error-banner" style="color:var(--cw-error-fg,'
            "#000);background:var(--cw-error-bg,#fdd);border-left:4px solid "
            f'var(--cw-error-edge,#d32f2f);padding:2px 6px">{html.escape(text)}</div>'
        )
        self.widget.layout.display = None

    def clear(self) -> None:
        self.last_error = None
        if self.widget.value:
            self.widget.value = ""
            self.widget.layout.display = "none"

    def guard(self, context: str):
        """Decorator: run a callback; on any exception show it here instead of raising."""

        def wrap(func):
            @functools.wraps(func)
            def inner(*args, **kwargs):
                try:
                    return func(*args, **kwargs)
                except Exception as exc:  # noqa: BLE001 - every failure must reach the user
                    self.show(exc, context=context)
                    return None

            return inner

        return wrap
