"""Two-way binding of a slider to the state, safe against the browser's echo of snapped values."""

from __future__ import annotations

import math

import ipywidgets as widgets

__all__ = ["SliderBinding"]


class SliderBinding:
    """A slider (or number field) bound to the state through a shared `Transaction`.

    A slider shows values on its step grid only. Pushing an off-grid value makes
    the browser snap it and send the snapped value back, possibly after later
    state changes; taken as a user's move, such an echo would undo a newer state
    (a drag in the cost pane pushes the ratio slider at every step). So the
    state is pushed *snapped* (the slider shows what it can show; the state
    keeps its exact value), and a value the browser may still echo is
    recognized once and ignored.

    Parameters
    ----------
    control : ipywidgets widget with a ``value``
    transaction : Transaction
    apply : callable(value)
        Sets the state from a user's value (may raise: refused with a message).
    label : str
        Names the control in messages.
    """

    def __init__(self, control, transaction, apply, label):
        self.control = control
        self.tx = transaction
        self.apply = apply
        self.label = label
        self._pending: list[float] = []
        control.observe(self._on_value, names=["value"])

    def _snapped(self, value) -> float:
        """The value the browser's slider shows for ``value``: snapped to its step grid."""
        s = self.control
        if isinstance(s, widgets.FloatLogSlider):
            if value <= 0:
                return value
            exp = s.min + round((math.log(value, s.base) - s.min) / s.step) * s.step
            exp = min(max(exp, s.min), s.max)
            return s.base ** exp
        if isinstance(s, (widgets.FloatSlider, widgets.IntSlider)):
            snapped = s.min + round((value - s.min) / s.step) * s.step
            return min(max(snapped, s.min), s.max)
        return value

    def _is_echo(self, value) -> bool:
        step = getattr(self.control, "step", 0.0) or 0.0
        for i, snapped in enumerate(self._pending):
            if abs(value - snapped) <= 1e-6 * max(abs(snapped), step, 1e-300):
                del self._pending[i]
                return True
        return False

    def push(self, value) -> None:
        """State -> control (call inside ``transaction.pushing()``)."""
        snapped = self._snapped(value)
        if snapped != value and (not self._pending or self._pending[-1] != snapped):
            self._pending.append(snapped)
            del self._pending[:-16]
        self.control.value = snapped

    def _on_value(self, change) -> None:
        if self.tx.is_pushing:
            return
        value = change["new"]
        if isinstance(value, float) and self._is_echo(value):
            return
        self.tx.apply(self.label, self.apply, value)
