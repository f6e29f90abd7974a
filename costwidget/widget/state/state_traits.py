"""The state traits a `CostWidget` reads and sets through ``w.p_pos`` etc., and which of them
are the analysis (`STATE_TRAITS`: what ``w.update`` sets and a rollback restores).

Both are read from the tags of `WidgetState` (``analysis=True``), never listed here.
"""

from __future__ import annotations

from .state import traits_for

__all__ = ["STATE_TRAITS", "StateTraits"]

#: The settable state traits: the analysis ``w.update`` sets and a rollback restores.
STATE_TRAITS = traits_for("analysis")


class _StateTrait:
    """``w.p_pos`` etc.: read and set a trait of ``w.state`` (read-only traits raise TraitError)."""

    def __init__(self, name: str):
        self.name = name
        self.__doc__ = f"State trait ``{name}`` (see `WidgetState`)."

    def __get__(self, obj, owner=None):
        return self if obj is None else getattr(obj.state, self.name)

    def __set__(self, obj, value):
        setattr(obj.state, self.name, value)


class StateTraits:
    """``w.p_pos``, ``w.cost_fn``, ...: each a trait of ``w.state`` (`WidgetState`), one for
    every trait in `STATE_TRAITS` and ``busy`` (read-only: setting it raises TraitError)."""

    @property
    def pcf(self):
        """PCF(+). Setting it moves p(+) and keeps the costs, as a click in the cost pane does
        (exactly here, to 1e-12 for cost ratios up to 10^4); where a cost is 0, p(+) cannot
        move PCF(+) and a cost changes instead (`costwidget.model.move_to_pcf`)."""
        return self.state.pcf

    @pcf.setter
    def pcf(self, value):
        self.operating_tool.set_pcf_exactly(value)


for _name in (*STATE_TRAITS, "busy"):
    setattr(StateTraits, _name, _StateTrait(_name))
del _name
