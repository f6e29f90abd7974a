"""One transaction shared by every component: a lock, a guard against update loops, and rollback.

A change reaches the widget in one of three ways: a control moved in the
browser, a trait set from Python, or a background result (drawn on the
kernel's loop, or by the worker in a script). All three run inside
:meth:`Transaction.held` (the lock), so the state and the marks are only ever
seen whole.

User code never runs while the lock is held: an observer registered with
``CostWidget.observe`` that fires inside the transaction is called once the
outermost section has released the lock. It may then call ``wait()``,
``snapshot()``, ``to_figure()``... without deadlocking against a worker that
needs the lock to draw a result.

Components redraw from the *whole* current state (never from a single
change), so a refused change is undone by putting the last good state back
and asking every component to draw it again.
"""

from __future__ import annotations

import contextlib
import functools
import threading

__all__ = ["Transaction"]


class Transaction:
    """Guard + rollback for a `WidgetState` and the components drawn from it.

    Parameters
    ----------
    state : WidgetState
    errors : ErrorArea
        Where refusals and failures are shown (always visible).
    traits : sequence of str
        The state traits that make up "the state" (the rollback snapshot).
    """

    def __init__(self, state, errors, traits):
        self.state = state
        self.errors = errors
        self.traits = tuple(traits)
        self.lock = threading.RLock()
        self._user = {}  # (handler, names) -> its deferring wrapper
        # Per thread: the worker thread drawing a result must not make the kernel's thread
        # take a user's control move for the widget's own write.
        self._local = threading.local()
        self.good = self.snapshot()
        self.redraw = lambda: None  # set by the owner: draw every component from the state
        self.push_controls = lambda: None  # set by the owner: state -> controls

    # ------------------------------------------------------------------ state snapshots
    def snapshot(self) -> dict:
        values = {name: _copy(getattr(self.state, name)) for name in self.traits}
        # Whether the workforce population was set or follows p(+): a plain attribute of the
        # state, not a trait, but part of what a refused change must leave as it was.
        values["population_set"] = getattr(self.state, "population_set", True)
        return values

    def _put_back(self, values: dict) -> None:
        """Set the traits without notifying anyone (used to restore the last good state)."""
        with self.pushing():
            # Cross-validation waits until every trait is back: a half-restored state (say a
            # good p_pos next to a refused cost) would be refused on the way.
            values = dict(values)
            population_set = values.pop("population_set", None)
            with self.state.restoring():
                with self.state.hold_trait_notifications():
                    for name, value in values.items():
                        if getattr(self.state, name) != value:
                            self.state.set_trait(name, value)
                self.state.derive()
            if population_set is not None:
                self.state.population_set = population_set

    # ------------------------------------------------------------------ the lock, and user code
    @contextlib.contextmanager
    def held(self):
        """The lock, for one section of the transaction. User observers that fire inside it
        run after the outermost section of this thread released the lock."""
        outer = self._count("depth") == 0
        try:
            with self.lock:
                self._bump("depth", 1)
                try:
                    yield
                finally:
                    self._bump("depth", -1)
        except BaseException:
            if outer:
                self._run_user_code(raising=False)
            raise
        if outer:
            self._run_user_code(raising=True)

    def observe_user(self, handler, names) -> None:
        """``state.observe`` for a user's handler, deferred while this thread holds the lock."""
        key = (handler, _hashable(names))
        if key not in self._user:
            self._user[key] = self.user_observer(handler)
            self.state.observe(self._user[key], names=names)

    def unobserve_user(self, handler, names) -> None:
        self.state.unobserve(self._user.pop((handler, _hashable(names))), names=names)

    def user_observer(self, handler):
        """Wrap a user's trait observer: deferred while this thread holds the lock."""

        @functools.wraps(handler)
        def observer(change):
            # A trait derived inside a change (the population following p(+)) is written before
            # that change takes the lock: deferred too, so the handler sees the whole state.
            if self._count("depth") > 0 or getattr(self.state, "deriving", False):
                deferred = getattr(self._local, "deferred", None)
                if deferred is None:
                    deferred = self._local.deferred = []
                deferred.append((handler, change))
            else:
                handler(change)

        return observer

    def _run_user_code(self, *, raising) -> None:
        """Call the deferred user observers (the lock is free). A failure is shown in the banner;
        the first one is raised after all ran (as a trait set raises its observer's error),
        unless an exception is already on its way."""
        first = None
        while getattr(self._local, "deferred", None):
            handler, change = self._local.deferred.pop(0)
            try:
                handler(change)
            except Exception as exc:  # noqa: BLE001 - shown, and raised below
                self.errors.show(exc, context=f"observer of {change['name']} failed")
                first = first if first is not None else exc
        if raising and first is not None:
            raise first

    # ------------------------------------------------------------------ guards
    def _count(self, name) -> int:
        return getattr(self._local, name, 0)

    def _bump(self, name, delta) -> None:
        setattr(self._local, name, self._count(name) + delta)

    @property
    def is_pushing(self) -> bool:
        """True while the widget itself writes to controls or the state: not a user's change."""
        return self._count("pushing") > 0

    @property
    def _from_control(self) -> bool:
        return self._count("from_control") > 0

    @contextlib.contextmanager
    def pushing(self):
        self._bump("pushing", 1)
        try:
            yield
        finally:
            self._bump("pushing", -1)

    # ------------------------------------------------------------------ entry points
    def on_state_change(self, change) -> None:
        """Observer of every state trait: redraw; on failure restore the last good state.

        From Python the failure is raised again after it is shown (as an invalid
        trait value is), so a script never continues on a silently reverted state.
        """
        if self.is_pushing or getattr(self.state, "deriving", False):
            # A trait derived inside another change (the population following p(+)) is drawn by
            # that change's redraw, which follows: one redraw and one decision per change.
            return
        with self.held():
            try:
                self.redraw()
            except Exception as exc:
                self._rollback()
                self.errors.show(exc, context=f"{change['name']} refused")
                if not self._from_control:
                    raise
                return
            self.good = self.snapshot()
            self.errors.clear()
            self.push_controls()

    def _rollback(self) -> None:
        self._put_back(self.good)
        try:
            self.redraw()
        finally:
            self.push_controls()

    def apply(self, label: str, func, *args) -> bool:
        """Run ``func(*args)`` for a user's control move: refused input shows a message and
        changes nothing. Returns True when the change was taken."""
        if self.is_pushing:
            return False
        with self.held():
            self._bump("from_control", 1)
            try:
                func(*args)
            except Exception as exc:  # noqa: BLE001 - refused input: message, state unchanged
                self._put_back(self.good)
                self.errors.show(exc, context=f"{label} refused")
                self.push_controls()  # show the state (the old one when refused)
                return False
            finally:
                self._bump("from_control", -1)
            self.push_controls()
            return True

    def update(self, **values) -> None:
        """Set several traits at once, all or nothing: the first refusal raises and nothing changes."""
        unknown = sorted(set(values) - set(self.traits))
        if unknown:
            # As Python does for an unknown keyword argument.
            raise TypeError(
                f"update() got unknown state traits {unknown}; settable: {sorted(self.traits)}."
            )
        with self.held():
            before = self.snapshot()
            try:
                with self.pushing():
                    with self.state.hold_trait_notifications():
                        for name, value in values.items():
                            setattr(self.state, name, value)
                    self.state.derive()
                self.redraw()
            except Exception as exc:
                self._put_back(before)
                try:
                    self.redraw()
                finally:
                    self.push_controls()
                self.errors.show(exc, context="update refused")
                raise
            self.good = self.snapshot()
            self.errors.clear()
            self.push_controls()


def _hashable(names):
    return names if isinstance(names, str) or not hasattr(names, "__iter__") else tuple(names)


def _copy(value):
    return list(value) if isinstance(value, list) else value
