"""What every component of a `CostWidget` shares: the state, the transaction, the figures."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Context"]


@dataclass
class Context:
    """The shared pieces a component is built on (it owns none of them).

    ``drawings`` holds one `ClassifierDrawing` per classifier, in the widget's
    order; ``background`` runs heavy work off the kernel's thread.
    """

    state: object
    tx: object
    errors: object
    figures: object
    drawings: list
    background: object
    #: The `FrontendLink`, set once the widget is composed; None without the front end.
    frontend_link: object = None
    #: The `DecisionSource`: the one answer every component reads (``decision``).
    decisions: object = None
    #: ``() -> {name: honest curve}`` of the honest curves on screen (the decision
    #: reads them); None in a widget without them.
    honest_curves: object = None

    @property
    def frontend_draws(self) -> bool:
        """True while a front end draws the operating point: the kernel must not write the marks,
        tables and control links it owns (one writer per mark)."""
        return self.frontend_link is not None and self.frontend_link.attached

    @property
    def decision(self):
        """The `Decision` at the current state (`DecisionSource`): what to deploy, with which
        rule, at what cost; every component that shows a part of the answer reads it."""
        return self.decisions.current()

    @property
    def names(self) -> list[str]:
        return [d.name for d in self.drawings]

    def drawing(self, name):
        for d in self.drawings:
            if d.name == name:
                return d
        raise KeyError(name)

    def visible(self) -> list:
        """The drawings of the classifiers shown, in the widget's order."""
        shown = set(self.state.visible)
        return [d for d in self.drawings if d.name in shown]

    def turn_off(self, trait: str, value) -> None:
        """Set a trait back without redrawing (a background job for it failed), and show it."""
        with self.tx.pushing():
            self.state.set_trait(trait, value)
        self.tx.good = self.tx.snapshot()
        self.tx.push_controls()
