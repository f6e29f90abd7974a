"""Two-way binding of a slider to the state, safe against the browser's echo of snapped values."""

from __future__ import annotations

import math
import time

import ipywidgets as widgets

__all__ = ["SliderBinding"]

#: How long an answer of the browser to an older push is told from a user's move: a user's
#: move back to exactly a position the kernel left within this time is taken for an echo.
_ECHO_SECONDS = 2.0


class SliderBinding:
    """A slider (or number field) bound to the state through a shared `Transaction`.

    A slider can show only values on its step grid, within its range. The
    browser sends a slider's value to the kernel only when the user moves it,
    or when the kernel set a value the slider cannot show (it then snaps or
    clamps it and sends that back). Such a late echo of an old push would undo a
    newer state, and ignoring "echo-looking" values instead would swallow a
    user's move to the same value. So the state is pushed as the slider shows
    it: snapped to the grid and clamped to the range (the state keeps its exact
    value), and a value that comes back is a user's move unless it is the pushed value
    re-expressed in its last bits (`_same_position`).

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
        # Positions pushed before the current one, for a few seconds or until the user moves
        # the control: with continuous updates the browser answers each push with the value it
        # shows (a log slider's 10**log10(v), a linear one's step arithmetic: not always v in
        # the last bits), and such an answer to an older push can arrive after a newer push (a
        # late echo of 5.0118 once overwrote a cost of 1; while the cost pane's handle was
        # dragged, p(+) jumped back to an earlier drag position). (time, position) pairs.
        self._older = []
        control.observe(self._on_value, names=["value"])

    def detach(self) -> None:
        """Stop applying the control's moves (a front end that links the controls itself sends
        the state whole; see `frontend_link`)."""
        self.control.unobserve(self._on_value, names=["value"])

    def shown(self, value):
        """The value the slider shows for ``value``: on its step grid, within its range.

        Rounded to 12 significant digits, so that a value on the grid (0.3 on a
        0.001 grid) stays exactly itself. The browser may still re-express a log
        slider's value in its last bits; `_same_position` tells that from a move.
        """
        s = self.control
        if isinstance(s, widgets.FloatLogSlider):
            if not value > 0:
                return s.base**s.min
            exp = (math.log(value, s.base) - s.min) / s.step
            exp = min(max(s.min + round(exp) * s.step, s.min), s.max)
            return s.base ** round(exp, 12)
        if isinstance(s, (widgets.FloatSlider, widgets.IntSlider)):
            snapped = s.min + round((value - s.min) / s.step) * s.step
            return type(s.value)(float(f"{min(max(snapped, s.min), s.max):.12g}"))
        return value

    def push(self, value) -> None:
        """State -> control (call inside ``transaction.pushing()``). A value the control
        already shows (the same position) is not written: while a slider with continuous
        updates is dragged, a write would pull it back to where the kernel last was."""
        shown = self.shown(value)
        if not self._same_position(self.control.value, shown):
            if self._echoes():
                now = time.monotonic()
                self._older = [
                    (now, self.control.value),
                    *[(t, v) for t, v in self._older if now - t < _ECHO_SECONDS],
                ][:8]
            self.control.value = shown

    def _echoes(self) -> bool:
        """A slider that sends while it moves answers the kernel's pushes (a text field
        answers nothing): only then can a late answer to an older push come."""
        s = self.control
        return isinstance(
            s, (widgets.FloatLogSlider, widgets.FloatSlider, widgets.IntSlider)
        ) and bool(s.continuous_update)

    def _same_position(self, old, new) -> bool:
        """True when ``new`` is ``old`` re-expressed by the browser (a log slider computes
        ``base ** exponent`` itself and may differ in the last bits), not a move: a user's move
        is at least one step away."""
        s = self.control
        if not isinstance(s, (widgets.FloatLogSlider, widgets.FloatSlider, widgets.IntSlider)):
            return False  # only a slider re-expresses what it was given; a field shows it
        tiny = 1e-6 * (s.step or 0.0) if hasattr(s, "step") and s.step else 0.0
        if not isinstance(old, float) or not isinstance(new, float) or tiny == 0.0:
            return False
        if isinstance(s, widgets.FloatLogSlider):
            return old > 0 and new > 0 and abs(math.log(new / old, s.base)) < tiny
        return abs(new - old) < tiny

    def _on_value(self, change) -> None:
        if self.tx.is_pushing or self._same_position(change["old"], change["new"]):
            return
        now = time.monotonic()
        if any(
            now - t < _ECHO_SECONDS and self._same_position(old, change["new"])
            for t, old in self._older
        ):
            # A late echo of an older push: not a move. Show the current push again.
            with self.tx.pushing():
                self.control.value = change["old"]
            return
        self._older = []
        self.tx.apply(self.label, self.apply, change["new"])
