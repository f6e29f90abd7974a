"""Background work: heavy computations run on a worker thread, with a busy sign in the widget.

numpy releases the GIL in its heavy loops, so one worker thread keeps the
kernel free for slider moves while bands are bootstrapped. Each kind of work
has a *slot* ("bands", "difference", ...). A newer request in a slot
supersedes the older one: the older job stops at its next progress check, and
its result is never drawn. Results are drawn under the shared transaction
lock, after checking that they are still the newest request of their slot.
"""

from __future__ import annotations

import html
import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import ipywidgets as widgets

__all__ = ["BackgroundWork", "Superseded"]


class Superseded(Exception):
    """Raised inside a job when a newer request of its slot arrived: stop, draw nothing."""


class BackgroundWork:
    """One worker thread, per-slot supersession, a busy flag and a progress bar.

    Parameters
    ----------
    transaction : Transaction
        Its lock guards every drawing; its error area shows failures.
    on_busy : callable(bool)
        Called (under the lock) when the widget becomes busy or idle.
    synchronous : bool, default False
        Run every job at once in the caller's thread (for debugging).
    """

    def __init__(self, transaction, on_busy, *, synchronous: bool = False):
        self.tx = transaction
        self.on_busy = on_busy
        self.synchronous = synchronous
        self._counter = itertools.count(1)
        self._latest: dict[str, int] = {}
        self._labels: dict[str, str] = {}
        self._progress: dict[str, tuple[int, int]] = {}
        self._running = 0
        self._idle = threading.Condition()
        self._show_lock = threading.Lock()  # the bar is written from both threads
        self._executor = None
        self.bar = widgets.FloatProgress(value=0.0, min=0.0, max=1.0, description="",
                                         bar_style="info",
                                         layout=widgets.Layout(width="160px", visibility="hidden"))
        self.label = widgets.HTML(value="")
        self.label.add_class("costwidget-busy")
        self.widget = widgets.HBox([self.bar, self.label],
                                   layout=widgets.Layout(align_items="center", min_height="1.6em"))

    # ------------------------------------------------------------------ requests
    @property
    def busy(self) -> bool:
        with self._idle:
            return self._running > 0

    def cancel(self, slot: str) -> None:
        """Forget the slot's pending request: a running job stops, its result is dropped."""
        with self._idle:
            if slot in self._latest:
                self._latest[slot] = next(self._counter)
                self._labels.pop(slot, None)
                self._progress.pop(slot, None)
        self._show()

    def submit(self, slot: str, label: str, compute, apply, fail) -> None:
        """Run ``compute(progress)`` in the background, then ``apply(result)`` under the lock.

        ``progress(done, total)`` reports progress and raises :class:`Superseded`
        once a newer request of the same slot has arrived. ``fail(exc)`` runs
        under the lock when ``compute`` or ``apply`` raised.
        """
        with self._idle:
            ticket = next(self._counter)
            self._latest[slot] = ticket
            self._labels[slot] = label
            self._progress[slot] = (0, 1)
            self._running += 1
            first = self._running == 1
        if first:
            with self.tx.lock:
                self.on_busy(True)
        self._show()
        job = (slot, ticket, compute, apply, fail)
        if self.synchronous:
            self._run(*job)
            return
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="costwidget")
        self._executor.submit(self._run, *job)

    def _current(self, slot, ticket) -> bool:
        with self._idle:
            return self._latest.get(slot) == ticket

    def _run(self, slot, ticket, compute, apply, fail) -> None:
        def progress(done, total):
            if not self._current(slot, ticket):
                raise Superseded(slot)
            with self._idle:
                self._progress[slot] = (done, max(total, 1))
            self._show()

        try:
            try:
                progress(0, 1)
                result, error = compute(progress), None
            except Superseded:
                return
            except Exception as exc:  # noqa: BLE001 - shown in the widget by `fail`
                result, error = None, exc
            with self.tx.lock:
                if not self._current(slot, ticket):
                    return  # a newer request came while this one ran: never draw a stale result
                try:
                    if error is None:
                        apply(result)
                    else:
                        fail(error)
                except Exception as exc:  # noqa: BLE001 - a failed drawing is shown, not lost
                    fail(exc)
        finally:
            self._finish(slot, ticket)

    def _finish(self, slot, ticket) -> None:
        with self._idle:
            if self._latest.get(slot) == ticket:
                self._labels.pop(slot, None)
                self._progress.pop(slot, None)
            self._running -= 1
            idle = self._running == 0
        if idle:
            with self.tx.lock:
                if not self.busy:  # nothing new was submitted meanwhile
                    self.on_busy(False)
        self._show()
        with self._idle:
            self._idle.notify_all()

    # ------------------------------------------------------------------ waiting and display
    def wait(self, timeout=None) -> None:
        """Block until no job is pending; raise TimeoutError after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._idle:
            while self._running:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise TimeoutError(f"background work still running after {timeout} s: "
                                       f"{', '.join(self._labels.values()) or 'finishing'}.")
                self._idle.wait(left)

    def _show(self) -> None:
        with self._show_lock:
            self._draw_progress()

    def _draw_progress(self) -> None:
        with self._idle:
            labels = list(self._labels.values())
            parts = list(self._progress.values())
        if labels:
            done = sum(d / t for d, t in parts) / len(parts)
            self.bar.value = min(max(done, 0.0), 1.0)
            self.bar.layout.visibility = "visible"
            # Labels name classifiers ("difference a − b"): escaped, they are user text.
            self.label.value = f"<i>computing {html.escape(', '.join(labels))}…</i>"
        else:
            self.bar.layout.visibility = "hidden"
            self.bar.value = 0.0
            if self.label.value:
                self.label.value = ""

    def close(self) -> None:
        with self._idle:
            for slot in self._latest:
                self._latest[slot] = next(self._counter)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
