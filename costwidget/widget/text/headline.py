"""The headline: one line at the top of the widget that answers the question.

"Deploy gradient boosting at score ≥ 0.488: 0.229 per case (FPR 11 %, TPR 50 %); next best
random forest, +0.004". The words come from the model (`costwidget.model.headline_text`) over
the readout's rows, so the headline and the table always agree; with an active constraint it
names the constrained rule. Escaped: classifier names are user text.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ...model import headline_text

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


class Headline:
    """Owns the headline's HTML widget; draws it from the readout's rows."""

    def __init__(self, ctx, readout):
        self.ctx = ctx
        self.readout = readout
        self.widget = widgets.HTML()
        self.widget.add_class("costwidget-headline")
        self.text = ""

    def sync(self) -> None:
        rows = self.readout.rows()
        s = self.ctx.state
        drawings = {d.name: d for d in self.ctx.drawings}
        # The next lower score below each row's threshold: the headline shows the threshold
        # with the digits that select the same cases.
        lower = {name: drawings[name].lower_score(row["threshold"])
                 for name, row in rows if name in drawings}
        self.text = headline_text(rows, constrained=s.constraint != "none", pcf=s.pcf,
                                  lower_scores=lower)
        if self.ctx.frontend_draws:  # the front end writes it while attached (one writer)
            return
        value = headline_html(self.text)
        if value != self.widget.value:
            self.widget.value = value
