"""How sure the headline is: the runner-up's paired interval, in the background.

`RunnerUpWork` computes `costwidget.model.runner_up_band` (the pointwise paired interval of the
runner-up's NEC minus the chosen one's, at the decision's PCF(+), at the state's
``band_level``, with a fixed seed so that one state always says the same) off the kernel's
thread, like the bands, whenever the operating point,
the chosen rule or the runner-up changes. A slider drag submits one request per move: each
waits `DEBOUNCE` seconds and stops there if a newer one arrived (the slot's supersession), so
only the state the user stops at is computed, and the sliders never wait for it.

A result is never shown for an older state: the background work drops a superseded job's
result, and `decide` says a band only when it is of the decision's pair, PCF(+) and rules
(`DecisionSource` also passes it only at its level).

When: while the widget shows the uncertainty, the bands or the difference view (`wanted`), as
in the issue's case (the difference view said "not significant" while the headline named a
winner). A widget that shows no uncertainty computes nothing it did not ask for, and its
headline does not change under a script that reads it. Its request is the last component's
sync, so that the bands the user asked for are queued before it.
"""

from __future__ import annotations

import time

from ...model import check_pair, runner_up_band
from .component import Component

__all__ = ["RunnerUpWork", "DEBOUNCE", "wanted"]

#: Seconds a request waits before computing: a drag's intermediate states are skipped.
DEBOUNCE = 0.15
_SLOT = "runner_up"


def wanted(state) -> bool:
    """Whether the headline says how sure it is: while the bands or the difference are shown."""
    return bool(state.show_bands or state.difference)


def _request_key(decision, level):
    """What the band depends on: the pair, the PCF(+), their rules, the level; None without a
    runner-up (one classifier, a tie, PCF(+) 0 or 1)."""
    chosen = decision.chosen
    if (
        chosen is None
        or decision.pcf == 0.0
        or (decision.pcf == 1.0 and decision.constraint == "none")
    ):
        return None
    runner = decision.runner_up
    if runner is None or decision.on_new_data:
        return None  # the paired interval is of in-sample costs: not said of a new-data choice
    rules = tuple(
        (r.threshold, r.binding, r.randomized)
        for r in (decision.of(chosen).rule, decision.of(runner).rule)
    )
    return (chosen, runner, decision.pcf, rules, float(level))


class RunnerUpWork(Component):
    """Owns the last band computed and the background request for the current decision.

    ``on_band()`` is called (inside the transaction) when a band arrives: the decision is
    then made again with it, and every view redrawn.
    """

    def __init__(self, ctx, on_band):
        self.ctx = ctx
        self.on_band = on_band
        self.band = None  # the last RunnerUpBand computed
        self.reason = ""  # why the current pair has no band ("" when it has one)
        self._pending = None  # the request key being computed
        self._pairs = {}  # (chosen, runner-up) -> "" or the model's refusal

    def for_state(self, state):
        """The last band if the state wants one at its level (another level's is not said)."""
        band = self.band
        if band is None or not wanted(state) or band.level != float(state.band_level):
            return None
        return band

    def sync(self) -> None:
        """Last of the widget's components: request the band of the current decision."""
        s = self.ctx.state
        if not wanted(s):
            self._cancel()
            self.reason = "said while the bands or the difference view are shown"
            return
        self.request(self.ctx.decision, s.band_level)

    def request(self, decision, level) -> None:
        """Make sure a band for ``decision`` at ``level`` is computed (or being computed)."""
        key = _request_key(decision, level)
        if key is None or decision.runner_up_band is not None:
            self._cancel()  # nothing to compute, or the band shown is this decision's
            self.reason = "" if key is not None else "no runner-up"
            return
        if key == self._pending:
            return
        chosen, runner = key[0], key[1]
        refused = self._refusal(decision, chosen, runner)
        if refused:
            self._cancel()
            self.reason = refused
            return
        self.reason = ""
        self._pending = key
        # The classifiers as given: with per-case costs the band resamples their cases and
        # costs (the drawn twins' weights are of one sample).
        clfs = {name: self.ctx.drawing(name).given for name in (chosen, runner)}

        def compute(progress):
            time.sleep(DEBOUNCE)
            progress(1, 3)  # raises Superseded when a newer request arrived meanwhile
            return key, runner_up_band(clfs, decision, level=level, random_state=0)

        self.ctx.background.submit(
            _SLOT, f"how sure: {chosen} vs {runner}", compute, self._arrived, self._failed
        )

    def _refusal(self, decision, chosen, runner) -> str:
        """Why no paired band exists for the pair (checked at once, once per pair), or ""."""
        pair = (chosen, runner)
        if pair not in self._pairs:
            try:
                check_pair(self.ctx.drawing(chosen).given, self.ctx.drawing(runner).given)
                self._pairs[pair] = ""
            except (TypeError, ValueError) as exc:
                self._pairs[pair] = str(exc)
        if self._pairs[pair]:
            return self._pairs[pair]
        rules = (decision.of(chosen).rule, decision.of(runner).rule)
        if any(r.binding and r.randomized for r in rules):
            return "a rule the constraint binds mixes two thresholds: no paired band"
        return ""

    def _arrived(self, result) -> None:
        key, band = result
        if key != self._pending:
            return
        self._pending = None
        self.band = band
        self.on_band()

    def _failed(self, exc) -> None:
        self._pending = None
        self.reason = str(exc)
        self.ctx.errors.show(exc, context="the runner-up's band failed")

    def _cancel(self) -> None:
        if self._pending is not None:
            self._pending = None
            self.ctx.background.cancel(_SLOT)
