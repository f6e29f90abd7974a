"""What a notebook output of a costwidget view holds outside Jupyter.

nbconvert's HTML renders a saved live view with a widget manager loaded from a CDN (so offline
it shows nothing) and drops the other formats of the output; the documentation has no kernel.
The environment variable :data:`OUTPUT_ENV` (read at each display) chooses: ``live`` (unset: the
live view, and a static image beside it where there is one), ``page`` (the view's offline page in
an ``<iframe srcdoc>``, no live view) or ``image`` (the static image only).
"""

from __future__ import annotations

import html
import os

__all__ = ["OUTPUT_ENV", "OUTPUT_MODES", "output_mode", "page_frame", "widget_bundle"]

#: The environment variable that says what a notebook output holds.
OUTPUT_ENV = "COSTWIDGET_NOTEBOOK_OUTPUT"
OUTPUT_MODES = ("live", "page", "image")


def output_mode() -> str:
    """The value of :data:`OUTPUT_ENV`, or ``live``."""
    mode = os.environ.get(OUTPUT_ENV, "").strip().lower() or "live"
    if mode not in OUTPUT_MODES:
        raise ValueError(
            f"{OUTPUT_ENV}={mode!r} is not one of {', '.join(OUTPUT_MODES)}; "
            f"unset it for the live widget."
        )
    return mode


def page_frame(page: str, *, title: str, height: int) -> str:
    """``page`` (a whole HTML document) as an ``<iframe srcdoc>`` of ``height`` CSS pixels. The
    page is escaped into the attribute, so nothing in it is parsed as the host page's markup."""
    return (
        f"<iframe class='costwidget-page' title='{html.escape(title, quote=True)}' srcdoc='"
        f"{html.escape(page, quote=True)}' style='width: 100%; border: 0; "
        f"height: {height}px'></iframe>"
    )


def widget_bundle(widget, *, title: str, height: int) -> dict:
    """The notebook output of a plain ipywidgets view (the thesis view): its live view, or with
    ``page`` its widget state rendered offline in a frame (static: nothing recomputes)."""
    data = {"text/plain": title}
    mode = output_mode()
    if mode == "live" and widget.comm is not None:
        data["application/vnd.jupyter.widget-view+json"] = widget.get_view_spec()
    elif mode == "page":
        from ipywidgets.embed import dependency_state, embed_data

        from .page import widget_page

        state = dependency_state(widget, drop_defaults=False)
        embedded = embed_data(views=[widget], drop_defaults=False, state=state)
        page = widget_page(
            manager_state=embedded["manager_state"], view_specs=embedded["view_specs"], title=title
        )
        data["text/html"] = page_frame(page, title=title, height=height)
    return data
