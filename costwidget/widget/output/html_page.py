"""`to_html`: a standalone HTML page of a `CostWidget`'s current state (the page itself is built by
`costwidget.export.page`)."""

from __future__ import annotations

import pathlib
import time

from ... import __version__
from ..text.caption import caption, range_table, visible_classifiers
from .snapshot import snapshot

__all__ = ["to_html"]


def to_html(w, path=None, *, cdn=False, interactive=True):
    """A standalone HTML page of the current state: the panes rendered from the embedded widget
    state, the caption, the readout as an HTML table and the snapshot record.

    The default page needs no network at all: require.js, the widget manager, bqplot and
    bqscales (from the installed bqplot, so they match the state) and the fonts are inlined.
    ``cdn=True`` loads them from jsDelivr instead (pinned versions, subresource integrity for
    the widget manager), for a much smaller page that needs the internet to render.
    With ``path``, writes the page there (UTF-8) and returns the path as a ``pathlib.Path``
    (as lonboard's ``to_html`` does: a notebook then echoes a short path, not 3.7 MB of text);
    without, returns the page's text.

    ``interactive=True`` (offline pages only): with no kernel, p(+), the costs, the ratio and
    the constraint's controls move the operating line, the dots, the constraint's marks and the
    readout, computed in the page by ``static/operating-point.js`` (`page_spec` says which
    models those are). ``interactive=False`` (or ``cdn=True``): nothing is recomputed. Controls
    the page cannot act on are shown disabled, with a tooltip saying why, and tables it does not
    recompute say "as exported at PCF(+) = …" in their title (`page_limits`). A widget with
    per-case costs where no case changes side (`costwidget.frontend.contract.mirrors_per_case`)
    recomputes p(+) and the multipliers' decision in money per case; its limit's controls need
    Python (a limit counts the cases), and with a limit on the page is static. Other per-case
    widgets (cases that change sides, costs summed by an engine) export a page that recomputes
    nothing: its multipliers and p(+) are fixed at the exported state.
    """
    from ipywidgets.embed import dependency_state, embed_data

    from ...export import page
    from .page_limits import mark_page_limits
    from .page_spec import page_mirrors, page_spec

    w.wait()
    # drop_defaults=False: with defaults dropped, a slider shows the wrong value (ipywidgets#2440).
    # (dependency_state also takes the links between its widgets: the NEC axis's zoom.)
    state = w.hover_tool.drop_from_state(dependency_state(w.widget, drop_defaults=False))
    if w.frontend_link is not None:  # the marks as Python computes them; no link model
        w.frontend_link.patch_export_state(state)
    # Python fills the marks' tooltips on hover; with no Python behind the page they would pop
    # up empty, so the page has none.
    for model in state.values():
        if model.get("model_module") == "bqplot" and model["state"].get("tooltip"):
            model["state"]["tooltip"] = None
    # Per-case costs the page does not mirror, or under a limit (which counts the cases): nothing
    # is recomputed in the page (its controls are disabled, saying why); the numbers are
    # Python's, at the exported state.
    mirrored = page_mirrors(w) and (w.per_case is None or w.state.constraint == "none")
    live = interactive and not cdn and mirrored
    frontend = page_spec(w) if live else None
    # The page says what is live. Controls it cannot act on are disabled, with a
    # tooltip saying why; tables it does not recompute say they show the exported state.
    mark_page_limits(w, state, live_roles=None if frontend is None else frontend["roles"])
    w.draw_controls.nec_zoom.patch_export_state(state)  # "fit" needs a kernel: says its own why
    data = embed_data(views=[w.widget], drop_defaults=False, state=state)
    snap = snapshot(w)
    text = page.standalone_page(
        manager_state=data["manager_state"],
        view_specs=data["view_specs"],
        title="Cost curves: " + ", ".join(c.name for c in visible_classifiers(w)),
        caption=caption(w),
        readout=w.readout,
        range_table=range_table(w),
        colors=dict(w.colors),
        snapshot=snap,
        cdn=cdn,
        frontend=frontend,
        decision_rule=snap["decision_rule"],
        generator=f"costwidget {__version__}",
        created=time.strftime("%Y-%m-%d %H:%M"),
    )
    if path is None:
        return text
    path = pathlib.Path(path)
    path.write_text(text, encoding="utf-8")
    return path
