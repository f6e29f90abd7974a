"""The headline: the answer at the top of the widget.

"Deploy gradient boosting at score ≥ 0.488: 0.229 per case (FPR 11 %, TPR 50 %)", then on a
second line the qualifiers: "next best random forest, +0.004; the FPR limit 20 % does not bind".
The words are the widget's one `Decision`'s (``ctx.decision.headline``,
`costwidget.model.decide`), as are the readout's rows and ``w.decision_rule()``, so they always
agree; with an active constraint it names the cheapest rule the constraint allows, and says
what the limit changed or that it does not bind. Escaped: classifier names are user text. The
box keeps the room of two lines of each (theme's ``costwidget-top``), so that nothing moves
when the words change.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..state.component import Component

__all__ = ["Headline", "headline_html"]


#: The main sentence reads first: a little larger than the controls' labels, semi-bold.
_MAIN = "font-size:1.15em;font-weight:600;line-height:1.3"
#: The qualifiers (runner-up, limit, new data): a second line of their own, in plain weight.
_NOTES = "font-size:0.92em;line-height:1.3"


def headline_html(text: str) -> str:
    """The headline's HTML: the main sentence, then the qualifiers after its first "; " on a
    second line of their own (always there, so that the box keeps its room), escaped
    (js/src/operating_point.mjs headlineHtml).

    Examples
    --------
    >>> from costwidget.widget.text.headline import headline_html
    >>> print(headline_html("Deploy <b>: 0.1 per case; next best c, +0.01"))
    <div class='costwidget-headline-main' style='font-size:1.15em;font-weight:600;line-height:1.3'>Deploy &lt;b&gt;: 0.1 per case</div><div class='costwidget-headline-notes' style='font-size:0.92em;line-height:1.3'>next best c, +0.01</div>
    """
    main, _, notes = text.partition("; ")
    return (
        f"<div class='costwidget-headline-main' style='{_MAIN}'>{html.escape(main)}</div>"
        f"<div class='costwidget-headline-notes' style='{_NOTES}'>{html.escape(notes)}</div>"
    )


class Headline(Component):
    """Owns the headline's HTML widget; draws it from the widget's `Decision`."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.widget = widgets.HTML()
        self.widget.add_class("costwidget-headline")
        self.text = ""

    def sync(self) -> None:
        per_case = getattr(self.ctx.state, "per_case", None)
        d = self.ctx.decision
        # Per-case costs: the savings against the best trivial rule, and what the rates are.
        self.text = d.headline if per_case is None else per_case.headline(d)
        if self.ctx.frontend_draws:  # the front end writes it while attached (one writer)
            return
        value = headline_html(self.text)
        if value != self.widget.value:
            self.widget.value = value

    def boxes(self) -> dict:
        return {"headline": [self.widget]}
