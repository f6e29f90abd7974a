"""The state traits a `CostWidget` reads and sets through ``w.p_pos`` etc., and which of them
are the analysis (`STATE_TRAITS`: what a snapshot records and a rollback restores)."""

from __future__ import annotations

__all__ = ["STATE_TRAITS", "StateTraits"]

#: The settable state traits: the analysis a snapshot records and a rollback restores.
STATE_TRAITS = (
    "p_pos",
    "cost_fn",
    "cost_fp",
    "constraint",
    "max_fpr",
    "capacity",
    "n_pos",
    "n_neg",
    "show_cost_lines",
    "show_bands",
    "band_level",
    "show_fold_spread",
    "difference",
    "visible",
    "range_of_interest",
)
STATE_TRAITS += ("threshold_choice", "show_decision_curve")  # issue 21
STATE_TRAITS += ("show_honest", "honest_strip")  # issue 32


class _StateTrait:
    """``w.p_pos`` etc.: read and set a trait of ``w.state`` (read-only traits raise TraitError)."""

    def __set_name__(self, owner, name):
        self.name = name
        self.__doc__ = f"State trait ``{name}`` (see `WidgetState`)."

    def __get__(self, obj, owner=None):
        return self if obj is None else getattr(obj.state, self.name)

    def __set__(self, obj, value):
        setattr(obj.state, self.name, value)


class StateTraits:
    """``w.p_pos``, ``w.cost_fn``, ...: each a trait of ``w.state`` (`WidgetState`)."""

    p_pos = _StateTrait()
    cost_fn = _StateTrait()
    cost_fp = _StateTrait()

    @property
    def pcf(self):
        """PCF(+). Setting it moves p(+) and keeps the costs, as a click in the cost pane does
        (exactly here, to 1e-12 for cost ratios up to 10^4); where a cost is 0, p(+) cannot
        move PCF(+) and a cost changes instead (`costwidget.model.move_to_pcf`)."""
        return self.state.pcf

    @pcf.setter
    def pcf(self, value):
        self.operating_tool.set_pcf_exactly(value)

    constraint = _StateTrait()
    max_fpr = _StateTrait()
    capacity = _StateTrait()
    n_pos = _StateTrait()
    n_neg = _StateTrait()
    show_cost_lines = _StateTrait()
    show_bands = _StateTrait()
    band_level = _StateTrait()
    show_fold_spread = _StateTrait()
    difference = _StateTrait()
    visible = _StateTrait()
    range_of_interest = _StateTrait()
    threshold_choice = _StateTrait()  # issue 21
    show_decision_curve = _StateTrait()  # issue 21
    show_honest = _StateTrait()  # issue 32
    honest_strip = _StateTrait()  # issue 32
    busy = _StateTrait()  # read-only: setting raises TraitError
