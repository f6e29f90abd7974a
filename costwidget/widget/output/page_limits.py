"""What an exported page can and cannot do, said on the page itself.

`to_html` embeds the widget's state. With no kernel behind the page, only the controls that
``js/src/page_bind.mjs`` binds (`costwidget.frontend.contract.CONTROL_ROLES`) act; every other control (bands,
their level, the decision curve, the difference, threshold choice, the classifier picker, the
range of interest, ...) would toggle and do nothing. Here, in the embedded state, at export:

* every control that cannot act in the page is disabled, with a tooltip saying why;
* every table the page does not recompute says in its title that it shows the state as exported
  ("as exported at PCF(+) = 0.6818"), as does the decision-curve pane's note.

Nothing here changes the live widget: only the state dict that goes into the page.
"""

from __future__ import annotations

import re

from ...export.page import NEEDS_PYTHON
from ...model import readable
from ..state.lifecycle import reachable_widgets

__all__ = ["mark_page_limits", "NEEDS_PYTHON", "as_exported"]


_CAPTION = re.compile(r"(<caption\b[^>]*>)(.*?)(</caption>)", re.S)
_AT_PCF = re.compile(r"\bat PCF\(\+\) = ")


def as_exported(table_html: str, pcf: float) -> str:
    """``table_html`` with each ``<caption>`` saying it shows the state as exported at ``pcf``.

    A caption that names the PCF(+) already ("... at PCF(+) = 0.6818") says "as exported at
    PCF(+) = 0.6818" there; any other gets it at its end.

    Examples
    --------
    >>> from costwidget.widget.output.page_limits import as_exported
    >>> as_exported("<table><caption>Band at PCF(+) = 0.25</caption></table>", 0.25)
    '<table><caption>Band as exported at PCF(+) = 0.25</caption></table>'
    >>> as_exported("<table><caption>Threshold choice</caption></table>", 0.25)
    '<table><caption>Threshold choice, as exported at PCF(+) = 0.25</caption></table>'
    """

    def one(match):
        open_tag, body, close_tag = match.groups()
        if _AT_PCF.search(body):
            body = _AT_PCF.sub("as exported at PCF(+) = ", body, count=1)
        else:
            body = f"{body}, as exported at PCF(+) = {readable(pcf)}"
        return open_tag + body + close_tag

    return _CAPTION.sub(one, table_html)


def _label(widget, names: dict) -> str:
    """A control's name for its tooltip: the name given in ``names``, else its description when
    it has words, else its own tooltip."""
    if widget.model_id in names:
        return names[widget.model_id]
    for name in ("description", "tooltip"):
        text = getattr(widget, name, None)
        if isinstance(text, str) and re.search(r"\w", text):
            return text.strip()
    return "this control"


def _names(w) -> dict:
    """Controls whose description does not name them (the difference's "−")."""
    view = w.difference_view
    pair = [getattr(view, "name_a", None), getattr(view, "name_b", None)]
    return {
        c.model_id: f"the difference's {which} model"
        for c, which in zip(pair, ("first", "second"))
        if c is not None
    }


def _link_sources(state: dict) -> set:
    """Controls that drive a link the browser itself keeps (``jslink``/``jsdlink``, as the NEC
    axis's zoom): they act in any page, kernel or not, so they stay enabled."""
    sources = set()
    for model in state.values():
        if model.get("model_name") in ("LinkModel", "DirectionalLinkModel"):
            source = model["state"].get("source") or [""]
            sources.add(str(source[0]).removeprefix("IPY_MODEL_"))
    return sources


def mark_page_limits(w, state: dict, *, live_roles: dict | None) -> None:
    """Disable, in ``state`` (``ipywidgets.embed`` models by id), every control of ``w`` the page
    cannot act on, and mark the tables it does not recompute as exported.

    ``live_roles``: the page's roles (`page_spec`), for an interactive page; None for a static
    page, where no control acts.
    """
    from ...frontend.contract import CONTROL_ROLES, PER_CASE_KERNEL_ROLES, PER_CASE_REFUSED_LIMIT

    live_roles = live_roles or {}
    # Per-case costs: a limit counts the cases, which the page does not hold (the contract).
    kernel = set(PER_CASE_KERNEL_ROLES) if w.per_case is not None else set()
    roles = [r for r in CONTROL_ROLES if r in live_roles and r not in kernel]
    live = {live_roles[r] for r in roles} | _link_sources(state)
    limit_ids = {live_roles[r] for r in kernel if r in live_roles}
    drawn_by_page = set(live_roles.values()) - live
    names = _names(w)
    for widget in reachable_widgets([w.widget]):
        model = state.get(widget.model_id)
        if model is None or widget.model_id in live:
            continue
        values = model["state"]
        if "disabled" in widget.trait_names():
            values["disabled"] = True
            why = PER_CASE_REFUSED_LIMIT if widget.model_id in limit_ids else NEEDS_PYTHON
            values["tooltip"] = f"{_label(widget, names)}: {why}"
        elif (
            live_roles
            and widget.model_id not in drawn_by_page
            and isinstance(values.get("value"), str)
            and "<caption" in values["value"]
        ):
            values["value"] = as_exported(values["value"], w.state.pcf)
    caption = w.decision_curve_view.caption  # the pane's point stays at the exported pt
    model = state.get(caption.model_id)
    if live_roles and model is not None and model["state"].get("value"):
        model["state"]["value"] = (
            f"<i>As exported at PCF(+) = {readable(w.state.pcf)}:</i> " + model["state"]["value"]
        )
