"""Two-way binding of a slider to the state, safe against the browser's echo of snapped values."""

from __future__ import annotations

import math

import ipywidgets as widgets

__all__ = ["SliderBinding"]


class SliderBinding:
    """A slider (or number field) bound to the state through a shared `Transaction`.

    The browser snaps a value set from Python to the slider's step and sends the
    snapped value back, possibly after later state changes. Such an echo is not
    a user's move: it is recognized (once) and ignored, which prevents update
    loops and a late echo undoing a newer state.

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
        if snapped != value:
            self._pending.append(snapped)
            del self._pending[:-8]
        self.control.value = value

    def _on_value(self, change) -> None:
        if self.tx.is_pushing:
            return
        value = change["new"]
        if isinstance(value, float) and self._is_echo(value):
            return
        self.tx.apply(self.label, self.apply, value)
