"""The widget's one answer: the `Decision` for the current state, computed once.

`DecisionSource` is the first of a `CostWidget`'s components: at each state change it asks the
model (:func:`costwidget.model.decide`) which classifier to deploy, with which rule, at what
cost, over the visible classifiers at the state's p(+), costs and constraint. Every other
component reads that one record (``ctx.decision``): the headline, the readout's tables and
their highlighted row, ``w.decision_rule()``/``w.to_estimator()``, the constraint's marks, the
winner's dot, the decision-curve pane's point, ``w.snapshot()`` and the export. None of them
assembles an answer of its own, so they cannot disagree.

While the bands or the difference view are shown, `RunnerUpWork` (the last
component) computes the runner-up's paired band in the background; the decision is made with
it (``decide(..., runner_up_band=)``) once it arrives, and the headline says how sure it is.
"""

from __future__ import annotations

from ...model import decide
from .component import Component
from .runner_up_work import RunnerUpWork

__all__ = ["DecisionSource", "DECISION_TRAITS"]

#: The state the decision reads (and nothing else: a change elsewhere keeps it).
DECISION_TRAITS = (
    "visible",
    "p_pos",
    "cost_fn",
    "cost_fp",
    "constraint",
    "max_fpr",
    "capacity",
    "n_pos",
    "n_neg",
)


class DecisionSource(Component):
    """Owns the current `Decision`; recomputes it when the state it reads changes.

    It draws nothing: ``sync()`` (first in the widget's components) only brings the record up
    to date, and ``current()`` returns it, recomputed first if the state moved since (a reader
    outside a redraw, e.g. ``w.decision`` while a front end draws, still gets the current
    answer).
    """

    def __init__(self, ctx):
        self.ctx = ctx
        self._key = None
        self._decision = None
        self._band = None
        # how sure the headline is (the runner-up's paired band, in the background)
        self.runner_up = RunnerUpWork(ctx, self._band_arrived)

    def _state_key(self) -> tuple:
        s = self.ctx.state
        return tuple(
            tuple(v) if isinstance(v, (list, tuple)) else v
            for v in (getattr(s, name) for name in DECISION_TRAITS)
        ) + (tuple((n, id(c)) for n, c in self._honest().items()),)

    def _honest(self) -> dict:
        """The honest curves on screen of the visible classifiers, by name."""
        curves = self.ctx.honest_curves() if self.ctx.honest_curves is not None else {}
        shown = set(self.ctx.state.visible)
        return {n: c for n, c in curves.items() if n in shown}

    def current(self):
        """The `Decision` at the current state."""
        key = self._state_key()
        band = self.runner_up.for_state(self.ctx.state)
        if key != self._key or self._decision is None or band is not self._band:
            s = self.ctx.state
            self._decision = decide(
                [d.given for d in self.ctx.visible()],
                p_pos=s.p_pos,
                cost_fn=s.cost_fn,
                cost_fp=s.cost_fp,
                constraint=s.constraint,
                max_fpr=s.max_fpr,
                capacity=s.capacity,
                n_pos=s.n_pos,
                n_neg=s.n_neg,
                runner_up_band=band,
                honest=self._honest() or None,
            )
            self._key, self._band = key, band
        return self._decision

    def sync(self) -> None:
        self.current()

    def _band_arrived(self) -> None:
        """A band for the current decision: every view reads the decision again (the headline
        gains its clause), and the front end, which writes the headline while attached, hears."""
        self.ctx.tx.redraw()
        if self.ctx.frontend_link is not None:
            self.ctx.frontend_link.send_state()
