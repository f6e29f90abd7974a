"""Background work: heavy computations run off the kernel's thread, with a busy sign in the widget.

Threads. Every `CostWidget` shares one small pool of worker threads
(:data:`MAX_WORKERS`), so the number of threads stays bounded however many
widgets are built and dropped. A widget's jobs run one after another (a
per-widget queue served by at most one pool thread at a time). numpy
releases the GIL in its heavy loops, so the kernel stays free for slider
moves while bands are bootstrapped.

Slots. Each kind of work has a *slot* ("bands", "difference", ...). A newer
request in a slot supersedes the older one: the older job stops at its next
progress check, and its result is never drawn.

Where results are drawn. The worker only computes. Drawing a result (the
marks, the busy flag, the progress bar) happens on the thread that owns the
widget:

* **Jupyter (a running asyncio loop in the creating thread).** In ipykernel a
  cell runs inside the kernel's event loop; the widget captures that loop and
  every result, progress update and "idle" is handed to it with
  ``loop.call_soon_threadsafe``. Widget messages are then always sent from the
  kernel's own thread (ipykernel 7 changed how messages from other threads
  are sent: ipywidgets#4001, #4020). ``wait()`` called on that thread (which
  blocks the loop) draws the pending results itself, so it never deadlocks.
* **A plain script (no running loop).** There is no kernel to send messages
  to; the worker draws its result itself, under the transaction lock (never
  while user code runs: see `Transaction.held`).
* **No threads (Pyodide/JupyterLite, or a thread that cannot start).** The work
  runs at once in the caller's thread, with the busy sign shown first (as
  lonboard does).
"""

from __future__ import annotations

import collections
import itertools
import threading
import time

from .busy_sign import BusySign

# shared_pool is looked up here at each start, so a test can stand in for it.
from .worker_pool import MAX_WORKERS, running_loop, shared_pool, threads_available

__all__ = ["BackgroundWork", "Superseded", "MAX_WORKERS", "threads_available", "shared_pool"]


class Superseded(Exception):
    """Raised inside a job when a newer request of its slot arrived: stop, draw nothing."""


class _Job:
    __slots__ = ("slot", "ticket", "compute", "apply", "fail")

    def __init__(self, slot, ticket, compute, apply, fail):
        self.slot, self.ticket, self.compute, self.apply, self.fail = (
            slot,
            ticket,
            compute,
            apply,
            fail,
        )


class BackgroundWork:
    """Per-slot supersession, a busy flag and a progress bar over the shared worker pool.

    Parameters
    ----------
    transaction : Transaction
        Its lock guards every drawing; its error area shows failures.
    on_busy : callable(bool)
        Called (inside the transaction) when the widget becomes busy or idle.
    synchronous : bool, optional
        Run every job at once in the caller's thread. Default: only where there are no
        threads (Pyodide); also taken when a worker thread cannot be started.
    """

    def __init__(self, transaction, on_busy, *, synchronous: bool | None = None):
        self.tx = transaction
        self.on_busy = on_busy
        self.synchronous = (not threads_available()) if synchronous is None else synchronous
        # The owner's event loop (a Jupyter kernel's), where results are drawn; None in a script.
        self._loop = running_loop()
        self._loop_thread = threading.get_ident() if self._loop is not None else None
        self._counter = itertools.count(1)
        self._latest: dict[str, int] = {}
        self._labels: dict[str, str] = {}
        self._progress: dict[str, tuple[int, int]] = {}
        self._running = 0  # jobs submitted and not yet counted down
        # thread id -> results it is drawing: wait() returns once they are drawn, sign included
        self._drawing = collections.Counter()
        self._queue = collections.deque()  # jobs waiting for this widget's runner
        self._inbox = collections.deque()  # (job, outcome) computed, to draw on the loop
        self._runner_active = False
        self._runner_thread = None
        self._show_pending = False
        self._closed = False
        self._idle = threading.Condition()
        self._show_lock = threading.Lock()  # without a loop the bar is written from both threads
        self.sign = BusySign()
        self.bar, self.label, self.widget = self.sign.bar, self.sign.label, self.sign.widget

    # ------------------------------------------------------------------ requests
    @property
    def busy(self) -> bool:
        with self._idle:
            return self._running > 0

    @property
    def on_loop(self) -> bool:
        """Whether results are drawn on an event loop (a kernel's) rather than by the worker."""
        return self._loop is not None

    def cancel(self, slot: str) -> None:
        """Forget the slot's pending request: a running job stops, its result is dropped."""
        with self._idle:
            if slot in self._latest:
                self._latest[slot] = next(self._counter)
                self._labels.pop(slot, None)
                self._progress.pop(slot, None)
        self._show()

    def submit(self, slot: str, label: str, compute, apply, fail) -> None:
        """Run ``compute(progress)`` in the background, then ``apply(result)`` in the transaction.

        ``progress(done, total)`` reports progress and raises :class:`Superseded`
        once a newer request of the same slot has arrived. ``fail(exc)`` runs
        in the transaction when ``compute`` or ``apply`` raised.
        """
        with self._idle:
            if self._closed:
                return
            ticket = next(self._counter)
            self._latest[slot] = ticket
            self._labels[slot] = label
            self._progress[slot] = (0, 1)
            self._running += 1
            first = self._running == 1
            job = _Job(slot, ticket, compute, apply, fail)
            if not self.synchronous:
                self._queue.append(job)
                start = not self._runner_active
                self._runner_active = True
        # The job is queued before anyone hears "busy": an observer of `busy` may wait().
        if first:
            with self.tx.held():
                self.on_busy(True)
        self._show()
        if self.synchronous:
            self._run_now(job)
            return
        if start:
            try:
                shared_pool().submit(self._runner)
            except RuntimeError:  # no thread can be started: run here from now on
                self.synchronous = True
                with self._idle:
                    self._runner_active = False
                    jobs = list(self._queue)
                    self._queue.clear()
                for queued in jobs:
                    self._run_now(queued)

    def _current(self, job) -> bool:
        with self._idle:
            return not self._closed and self._latest.get(job.slot) == job.ticket

    # ------------------------------------------------------------------ running
    def _runner(self) -> None:
        """Serve this widget's queue on a pool thread until it is empty."""
        self._runner_thread = threading.current_thread()
        try:
            while True:
                with self._idle:
                    if not self._queue or self._closed:
                        self._runner_active = False
                        return
                    job = self._queue.popleft()
                self._hand_over(job, self._compute(job))
        finally:
            self._runner_thread = None

    def _run_now(self, job) -> None:
        self._deliver(job, self._compute(job))

    def _compute(self, job):
        """("ok", result), ("error", exc) or ("superseded", None)."""

        def progress(done, total):
            if not self._current(job):
                raise Superseded(job.slot)
            with self._idle:
                self._progress[job.slot] = (done, max(total, 1))
            self._request_show()

        try:
            progress(0, 1)
            return "ok", job.compute(progress)
        except Superseded:
            return "superseded", None
        except Exception as exc:  # noqa: BLE001 - shown in the widget by `fail`
            return "error", exc

    def _hand_over(self, job, outcome) -> None:
        """From the worker: draw on the owner's loop, or here (under the lock) without one."""
        if self._loop is not None:
            with self._idle:
                self._inbox.append((job, outcome))
                self._idle.notify_all()  # a wait() on the loop's thread draws it
            try:
                self._loop.call_soon_threadsafe(self._drain)
                return
            except RuntimeError:  # the loop is closed (its script ended): draw here
                self._drain()
                return
        self._deliver(job, outcome)

    def _drain(self) -> None:
        """On the owner's loop: draw every result that arrived, and the progress."""
        while True:
            with self._idle:
                if not self._inbox:
                    break
                job, outcome = self._inbox.popleft()
            self._deliver(job, outcome)
        if self._show_pending:
            self._show()

    def _deliver(self, job, outcome) -> None:
        try:
            self._apply(job, outcome)
        except Exception:  # noqa: BLE001 - a user observer's failure, already in the banner
            pass

    def _apply(self, job, outcome) -> None:
        me = threading.get_ident()
        with self._idle:
            self._drawing[me] += 1
        try:
            self._apply_drawn(job, outcome)
        finally:
            with self._idle:
                self._drawing[me] -= 1
                if not self._drawing[me]:
                    del self._drawing[me]
                self._idle.notify_all()

    def _apply_drawn(self, job, outcome) -> None:
        kind, value = outcome
        try:
            with self.tx.held():
                try:
                    if kind != "superseded" and self._current(job):
                        try:
                            if kind == "ok":
                                job.apply(value)
                            else:
                                job.fail(value)
                        except Exception as exc:  # noqa: BLE001 - a failed drawing is shown
                            job.fail(exc)
                finally:
                    self._count_down(job)
        finally:
            self._show()

    def _count_down(self, job) -> None:
        """Inside the transaction: one job less; "idle" when it was the last."""
        with self._idle:
            if self._closed:
                return  # close() counted everything down already
            if self._latest.get(job.slot) == job.ticket:
                self._labels.pop(job.slot, None)
                self._progress.pop(job.slot, None)
            self._running -= 1
            idle = self._running == 0
            self._idle.notify_all()
        if idle:
            self.on_busy(False)

    # ------------------------------------------------------------------ waiting and display
    def wait(self, timeout=None) -> None:
        """Block until no job is pending; raise TimeoutError after ``timeout`` seconds.

        On the owner's loop thread the results that arrive are drawn here (the loop
        is blocked by this very call); on this widget's worker (an observer that
        waits) the queued jobs run here.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        me = threading.get_ident()
        on_loop = self._loop is not None and me == self._loop_thread
        in_runner = threading.current_thread() is self._runner_thread
        while True:
            if on_loop:
                self._drain()
            if in_runner:
                with self._idle:
                    job = self._queue.popleft() if self._queue else None
                if job is not None:
                    self._run_now(job)
                    continue
            with self._idle:
                # Not while another thread draws (it once returned before the worker redrew
                # the busy sign); a wait() inside a drawing does not wait on itself.
                if not self._running and not any(t != me for t in self._drawing):
                    return
                if on_loop and self._inbox:
                    continue
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise TimeoutError(
                        f"background work still running after {timeout} s: "
                        f"{', '.join(self._labels.values()) or 'finishing'}."
                    )
                self._idle.wait(left)

    def _request_show(self) -> None:
        """From the worker: redraw the progress bar (on the owner's loop when there is one)."""
        if self._loop is None:
            self._show()
            return
        with self._idle:
            if self._show_pending:
                return
            self._show_pending = True
        try:
            self._loop.call_soon_threadsafe(self._show)
        except RuntimeError:
            pass  # the loop is closed: the bar is redrawn with the next result

    def _show(self) -> None:
        with self._show_lock:
            with self._idle:
                self._show_pending = False
                if self._closed:
                    return
                labels, parts = list(self._labels.values()), list(self._progress.values())
            self.sign.draw(labels, parts)

    def close(self) -> None:
        """End all work: queued jobs are dropped, a running one stops at its next progress check
        and draws nothing; ``busy`` is False and ``wait()`` returns at once afterwards."""
        with self._idle:
            if self._closed:
                return
            self._closed = True
            for slot in self._latest:
                self._latest[slot] = next(self._counter)
            self._queue.clear()
            self._inbox.clear()
            self._labels.clear()
            self._progress.clear()
            was_busy = self._running > 0
            self._running = 0
            self._idle.notify_all()
        if was_busy:
            with self.tx.held():
                self.on_busy(False)
