"""The busy sign of a `CostWidget`: a progress bar and what is computing, hidden while nothing is
(`background.BackgroundWork` says what to show). It lies over the headline (`layout.status_layer`),
so showing it moves nothing."""

from __future__ import annotations

import html

import ipywidgets as widgets

__all__ = ["BusySign"]


class BusySign:
    """The bar, its label and the row that holds them (``widget``)."""

    def __init__(self):
        self.bar = widgets.FloatProgress(
            value=0.0,
            min=0.0,
            max=1.0,
            description="",
            bar_style="info",
            layout=widgets.Layout(width="160px", visibility="hidden"),
        )
        self.label = widgets.HTML(value="")
        self.label.add_class("costwidget-busy")
        # Hidden while idle; laid over the headline, so it takes no room either way.
        self.widget = widgets.HBox(
            [self.bar, self.label], layout=widgets.Layout(align_items="center", display="none")
        )
        self.widget.add_class("costwidget-busy-sign")

    def draw(self, labels, parts) -> None:
        """Show the jobs ``labels`` at their progress ``parts`` (``(done, total)`` each); hide
        the sign when there are none."""
        if labels:
            done = sum(d / t for d, t in parts) / len(parts)
            self.bar.value = min(max(done, 0.0), 1.0)
            self.bar.layout.visibility = "visible"
            self.widget.layout.display = None
            # Labels name classifiers ("difference a − b"): escaped, they are user text.
            self.label.value = f"<i>computing {html.escape(', '.join(labels))}…</i>"
        else:
            self.bar.layout.visibility = "hidden"
            self.widget.layout.display = "none"
            self.bar.value = 0.0
            if self.label.value:
                self.label.value = ""
