"""The headline: one line at the top of the widget that answers the question.

"Deploy gradient boosting at score ≥ 0.488: 0.229 per case (FPR 11 %, TPR 50 %); next best
random forest, +0.004". The words are the widget's one `Decision`'s (``ctx.decision.headline``,
`costwidget.model.decide`), as are the readout's rows and ``w.decision_rule()``, so they always
agree; with an active constraint it names the cheapest rule the constraint allows, and says
when the limit does not bind. Escaped: classifier names are user text.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..state.component import Component

__all__ = ["Headline", "headline_html"]


#: The headline reads first: a little larger than the controls' labels, semi-bold.
_STYLE = "font-size:1.15em;font-weight:600;line-height:1.4"


def headline_html(text: str) -> str:
    """The headline's HTML: the text, escaped (js/src/operating_point.mjs headlineHtml).

    Examples
    --------
    >>> from costwidget.widget.text.headline import headline_html
    >>> headline_html("Deploy <b>")
    "<span style='font-size:1.15em;font-weight:600;line-height:1.4'>Deploy &lt;b&gt;</span>"
    """
    return f"<span style='{_STYLE}'>{html.escape(text)}</span>"


class Headline(Component):
    """Owns the headline's HTML widget; draws it from the widget's `Decision`."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.widget = widgets.HTML()
        self.widget.add_class("costwidget-headline")
        self.text = ""

    def sync(self) -> None:
        self.text = self.ctx.decision.headline
        if self.ctx.frontend_draws:  # the front end writes it while attached (one writer)
            return
        value = headline_html(self.text)
        if value != self.widget.value:
            self.widget.value = value

    def boxes(self) -> dict:
        return {"headline": [self.widget]}
