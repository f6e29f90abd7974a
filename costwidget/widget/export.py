"""Exports of a `CostWidget`'s current state: snapshot/restore, matplotlib figures, files, an
offline HTML page, tidy DataFrames, and the static fallback of its Jupyter display.

Every function takes the widget ``w``; `CostWidget` exposes them as methods (``w.snapshot()``,
``w.to_figure()``, ...). matplotlib is imported only when a figure is drawn.

This module is the public surface: it writes files (:func:`save`) and holds the Jupyter display
(its static image and the snapshot cell and button); the rest lives in modules named for it
(`snapshot`, `static_figure`, `html_page`, `tidy_frames`, `caption`) and is re-exported here.
"""

from __future__ import annotations

import base64
import html
import importlib.util
import pathlib
import warnings
import weakref

from ..export import notebook_output
from ..export.notebook_output import OUTPUT_ENV, output_mode
from .output.html_page import to_html
from .output.snapshot import INPUTS, SnapshotError, restore, snapshot
from .output.static_figure import figure_png, to_figure
from .output.tidy_frames import to_frame
from .text.caption import caption, cost_lines_shown, visible_classifiers

__all__ = [
    "snapshot",
    "restore",
    "to_figure",
    "save",
    "to_html",
    "to_frame",
    "snapshot_cell",
    "snapshot_button",
    "mimebundle",
    "output_mode",
    "OUTPUT_ENV",
    "page_frame",
    "caption",
    "SnapshotError",
    "SAVE_FORMATS",
]

#: File suffixes :func:`save` writes.
SAVE_FORMATS = (".png", ".svg", ".pdf", ".html")
#: Whether the widget's display bundle carries a static image of its state (set False to skip
#: drawing it, ~0.3 s a display, when notebooks are never saved or converted).
FALLBACK_IMAGE = True
#: Resolution of the PNG inside the widget's display bundle (kept low: it is made at every display).
FALLBACK_DPI = 72
#: Resolution of :func:`snapshot_cell`'s image and of ``save(".png")``.
REPORT_DPI = 150
# What a notebook output holds outside Jupyter (COSTWIDGET_NOTEBOOK_OUTPUT: live, page or image)
# is said in costwidget.export.notebook_output; ``page`` shows the interactive page of
# :func:`to_html` in an ``<iframe>``, so ``COSTWIDGET_NOTEBOOK_OUTPUT=page jupyter nbconvert
# --to html --execute`` shows the widget working offline. The documentation is built so.
#: Height of the ``page`` output's frame, in CSS pixels: the exported page of two panes side by
#: side, its readout and the note under it.
PAGE_FRAME_HEIGHT = 1080


# ---------------------------------------------------------------------------- files
def save(w, path, **kwargs) -> pathlib.Path:
    """Write the current state to ``path``; the suffix chooses the format.

    ``.png`` (raster, ``dpi=150`` unless given), ``.svg`` and ``.pdf`` (vector, from
    :func:`to_figure`, whose keywords are accepted), or ``.html`` (the standalone page of
    :func:`to_html`; keyword ``cdn``).
    """
    path = pathlib.Path(path)
    suffix = path.suffix.lower()
    if suffix not in SAVE_FORMATS:
        raise ValueError(
            f"cannot save {str(path)!r}: the suffix chooses the format, one of "
            f"{', '.join(SAVE_FORMATS)}."
        )
    if suffix == ".html":
        to_html(w, path, **kwargs)
        return path
    dpi = kwargs.pop("dpi", REPORT_DPI)
    fig = to_figure(w, **kwargs)
    # No creation date and fixed SVG ids, so the same state writes the same bytes.
    metadata = (
        {"Date": None} if suffix == ".svg" else {"CreationDate": None} if suffix == ".pdf" else None
    )
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "costwidget"}):
        fig.savefig(path, dpi=dpi, metadata=metadata)
    return path


# ---------------------------------------------------------------------------- Jupyter display
def _plain(w) -> str:
    names = ", ".join(c.name for c in visible_classifiers(w))
    return f"CostWidget ({names}): {caption(w)}"


def _image_bundle(w, dpi, *, shown_dpi=None, wait=True):
    """image/png and text/html (an escaped <img>) of the current state, and PNG metadata.

    ``shown_dpi`` sets the displayed width (a higher ``dpi`` then only adds sharpness).
    """
    png, width_in = figure_png(w, dpi, wait=wait)
    b64 = base64.b64encode(png).decode("ascii")
    alt = html.escape(f"Cost curves: {caption(w)}", quote=True)
    width = int(round(width_in * shown_dpi)) if shown_dpi else None
    size = f" width='{width}'" if width else ""
    text = (
        f"<div class='costwidget-static'><img src='data:image/png;base64,{b64}' alt='{alt}'"
        f"{size}/></div>"
    )
    metadata = {"image/png": {"width": width}} if width else {}
    return {"image/png": b64, "text/html": text}, metadata


_FALLBACK_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _state_key(w):
    """Everything the static image depends on."""
    s = w.state
    # What is drawn now, too: the image shows the bands on screen, never ones still computing.
    drawn = (
        tuple(w.band_layer.drawn),
        tuple(w.fold_spread_layer.drawn),
        w.difference_view.shown is not None,
        tuple(w.honest_layer.drawn),
        s.honest_strip,
    )
    return (
        tuple(repr(getattr(s, t)) for t in INPUTS),
        cost_lines_shown(w),
        tuple(dict(w.colors).items()),
        drawn,
    )


def mimebundle(w, include=None, exclude=None, **kwargs) -> dict:
    """``_repr_mimebundle_`` of a CostWidget: the live widget view, and a static PNG (and an
    ``<img>`` as HTML) of the current state for wherever the widget cannot render: nbconvert
    without saved widget state, LaTeX/PDF, GitHub's notebook viewer.

    Displaying never waits for background work: the PNG shows what is drawn now (bands,
    fold spread or a difference still computing are not in it, as they are not yet in the
    live panes). It is drawn at 72 dpi to keep every display cheap, and reused while the
    state and what is drawn are unchanged; without matplotlib there is none, and a failure
    to draw it never stops the widget from displaying (a warning says why).
    """
    mode = output_mode()
    # The view spec is what ipywidgets' own _repr_mimebundle_ returns; that one also builds a
    # text/plain repr of every trait of every child (all the marks' arrays), ~0.2 s thrown away.
    data = {"text/plain": _plain(w)}
    if mode == "live" and w.widget.comm is not None:  # a closed widget has only its image
        data["application/vnd.jupyter.widget-view+json"] = w.widget.get_view_spec()
    wanted = [
        m
        for m in ("image/png", "text/html")
        if (include is None or m in include) and (exclude is None or m not in exclude)
    ]
    # Without matplotlib (the `export` extra) there is simply no static image.
    if wanted and FALLBACK_IMAGE and importlib.util.find_spec("matplotlib") is not None:
        try:
            # Displaying the same, unchanged widget again reuses its image.
            key = _state_key(w)
            cached = _FALLBACK_CACHE.get(w)
            if cached is None or cached[0] != key:
                cached = (key, _image_bundle(w, FALLBACK_DPI, wait=False)[0])
                _FALLBACK_CACHE[w] = cached
            data.update({k: v for k, v in cached[1].items() if k in wanted})
        except Exception as exc:  # noqa: BLE001 - the live widget must still display
            warnings.warn(
                f"costwidget: no static image in this output ({type(exc).__name__}: "
                f"{exc}); the live widget is unaffected.",
                RuntimeWarning,
                stacklevel=2,
            )
    if (
        mode == "page"
        and (include is None or "text/html" in include)
        and (exclude is None or "text/html" not in exclude)
    ):
        data["text/html"] = page_frame(w)
    return data


def page_frame(w) -> str:
    """The interactive page of :func:`to_html` as an ``<iframe srcdoc>``: a notebook output (or a
    documentation page) that shows the widget working with no kernel and no network."""
    return notebook_output.page_frame(
        to_html(w),
        title=f"Cost curves (interactive, no kernel): {caption(w)}",
        height=PAGE_FRAME_HEIGHT,
    )


def snapshot_cell(w, *, dpi=REPORT_DPI):
    """Display a static image of the current state as a normal cell output.

    JupyterLab shows the live widget, never the static fallback (ipympl#473), and a widget's
    state is saved only on request; this output is stored in the notebook like any figure, so it
    survives nbconvert (HTML, LaTeX/PDF) and GitHub's viewer. Returns None.
    """
    from IPython.display import display

    bundle, metadata = _image_bundle(w, dpi, shown_dpi=100)
    bundle["text/plain"] = _plain(w)
    display(bundle, raw=True, metadata=metadata)


def snapshot_button(w):
    """A "Snapshot" button (an ipywidgets widget to place anywhere) and, below it, the static
    image of the state at the last click. The image lives in widget state; for a record that
    survives any export, call ``w.snapshot_cell()`` in a cell. A click never waits for
    background work: the image shows what is drawn at that moment."""
    import ipywidgets as widgets

    button = widgets.Button(
        description="Snapshot",
        icon="camera",
        tooltip="Draw a static image of the current state below",
    )
    image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
    status = widgets.HTML()

    def on_click(_):
        try:
            image.value, _ = figure_png(w, 100, wait=False)
            status.value = f"<small>{html.escape(caption(w))}</small>"
        except Exception as exc:  # noqa: BLE001 - a click must never raise into the front end
            status.value = f"<span style='color:#a40000'>{html.escape(str(exc))}</span>"

    button.on_click(on_click)
    box = widgets.VBox([button, status, image])
    box.add_class("costwidget-snapshot-button")
    return box
