"""A widget in real use (issue 18): displaying never waits, close() ends all work, threads stay
bounded, user observers never deadlock, and results are drawn on the kernel's own thread.

Slow work is made slow on purpose: a band that blocks on an event the test sets, so that the
races happen every time. No test measures wall time; each waits on state, under a pytest timeout
so that a regression (a hang) fails its own test.
"""

from __future__ import annotations

import asyncio
import functools
import sys
import threading
import time
import weakref

import numpy as np
import pytest

import costwidget as cw
from costwidget.widget import CostWidget
from costwidget.widget.state import background
from costwidget.widget.state.lifecycle import reachable_widgets


def _classifiers(n=300, seed=5):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    return [
        cw.Classifier.from_scores(y, np.round(y * k + rng.normal(size=n), 2), name=f"m{k}")
        for k in (1, 2)
    ]


@pytest.fixture()
def gate():
    """An event the slow bands wait for; always set at the end, so no worker stays blocked."""
    event = threading.Event()
    yield event
    event.set()


def _gated_bands(monkeypatch, w, gate, *, difference=False):
    """Every band (and the difference band) of ``w`` waits for ``gate`` before computing."""
    for clf in w.classifiers:
        real = clf.band

        def band(level, *args, _real=real, **kwargs):
            gate.wait(120)
            return _real(level, *args, **kwargs)

        monkeypatch.setattr(clf, "band", band)
    if difference:
        import costwidget.widget.panes.difference as diff

        real_diff = diff.difference_band

        def difference_band(*args, **kwargs):
            gate.wait(120)
            return real_diff(*args, **kwargs)

        monkeypatch.setattr(diff, "difference_band", difference_band)


def _threads():
    return [t for t in threading.enumerate() if t.name.startswith("costwidget-worker")]


# ---------------------------------------------------------------------------- item 5: display
@pytest.mark.timeout(120)
def _in_a_thread_without_a_loop(test):
    """Run ``test`` in a new thread, which has no running asyncio loop.

    These tests are about a script (no loop) or a loop of their own; in the whole suite the
    browser tests' Playwright sync API leaves a running loop on the main thread.
    """

    @functools.wraps(test)
    def run(*args, **kwargs):
        errors = []

        def body():
            try:
                test(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
                errors.append(exc)

        thread = threading.Thread(target=body, name="test-script")
        thread.start()
        thread.join(300)
        assert not thread.is_alive(), "the test's thread was still running after 300 s"
        if errors:
            raise errors[0]

    return run


def test_display_never_waits_and_shows_what_is_drawn_now(monkeypatch, gate):
    pytest.importorskip("matplotlib")
    with CostWidget(_classifiers()) as w:
        _gated_bands(monkeypatch, w, gate)
        w.show_bands = True
        assert w.busy
        bundle = w._repr_mimebundle_()  # before the fix: to_figure() -> w.wait(), a hang
        assert w.busy and w.drawn_bands == {}  # it returned with the bands still computing
        assert "image/png" in bundle and "text/plain" in bundle
        gate.set()
        w.wait(timeout=60)
        again = w._repr_mimebundle_()
        # The image is drawn again once the bands are on screen (never the cached one without).
        assert again["image/png"] != bundle["image/png"]


# ---------------------------------------------------------------------------- item 6: close
@pytest.mark.timeout(120)
def test_close_during_work_ends_it(monkeypatch, gate):
    w = CostWidget(_classifiers())
    _gated_bands(monkeypatch, w, gate, difference=True)
    w.show_bands = True
    w.difference = ["m1", "m2"]  # queued behind the bands
    assert w.busy
    seen = []
    w.observe(lambda change: seen.append(change["new"]), names=["busy"])
    w.close()
    assert not w.busy and seen == [False]
    w.wait(timeout=0)  # returns at once: nothing is pending
    gate.set()  # the running band finishes on the worker, and is drawn nowhere
    for _ in range(1000):
        if not w._background._runner_active:
            break
        time.sleep(0.01)
    assert not w._background._runner_active and not w.busy and w.drawn_bands == {}
    w.show_bands = False  # a closed widget takes no new work
    w.show_bands = True
    assert not w.busy


# ---------------------------------------------------------------------------- item 7: threads
def _models():
    from ipywidgets.widgets import widget

    return len(getattr(widget, "_instances", None) or widget.Widget.widgets)


@pytest.mark.slow  # 30 widgets built, each drawing its bands
@pytest.mark.timeout(300)
def test_threads_stay_bounded_however_many_widgets_are_built_and_dropped():
    clfs = _classifiers(200)
    models = _models()
    built = []
    for _ in range(30):
        w = CostWidget(clfs)
        w.show_bands = True
        w.wait(timeout=60)
        built.append(weakref.ref(w))
        # (w is dropped here, not closed: a cell re-run)
    del w
    # Before: one worker thread per widget, 30 threads.
    assert len(_threads()) <= background.MAX_WORKERS
    # A dropped widget stays registered with ipywidgets until closed (the README says so);
    # closed, none of its models is left.
    assert _models() > models
    for ref in built:
        ref().close()
    assert _models() == models


def test_the_difference_figure_is_built_only_when_first_shown():
    # 12 of a widget's ipywidgets models (the difference figure, its scales, axes and marks)
    # are registered only once the view is used.
    with CostWidget(_classifiers()) as w:
        models = _models()
        assert "figure" not in vars(w.difference_view)
        w.difference = ["m1", "m2"]
        w.wait(timeout=60)
        assert w.difference_view.figure in w.difference_view.widget.children
        assert _models() > models


# ---------------------------------------------------------------------------- item 8: observers
CALLS = {
    "wait": lambda w: w.wait(timeout=60),
    "snapshot": lambda w: w.snapshot()["bands"]["show_bands"],
    "to_figure": lambda w: w.to_figure(),
    "to_html": lambda w: len(w.to_html(cdn=True)),
}


@pytest.mark.timeout(180)
@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("trigger", ["update", "control", "busy"])
def test_a_user_observer_may_wait_while_bands_compute(call, trigger, monkeypatch):
    """Before the fix: the observer ran while the widget held its lock (inside ``update()``,
    a control move, or the busy sign of a new job), the worker needed the lock to draw its
    result, and ``wait()`` hung. Now user observers run after the lock is released."""
    if call in ("to_figure",):
        pytest.importorskip("matplotlib")
    with CostWidget(_classifiers()) as w:
        # Slow enough that the bands are still computing when the observer runs.
        for clf in w.classifiers:
            real = clf.band
            monkeypatch.setattr(
                clf, "band", lambda *a, _real=real, **k: (time.sleep(0.2), _real(*a, **k))[1]
            )
        results = []

        def observer(change):
            if change["name"] == "busy" and not change["new"]:
                return
            results.append(CALLS[call](w))
            results.append(sorted(w.drawn_bands))

        if trigger == "busy":
            w.observe(observer, names=["busy"])
            w.show_bands = True
        else:
            w.show_bands = True
            w.observe(observer, names=["p_pos"])
            if trigger == "update":
                w.update(p_pos=0.3, cost_fn=2.0)
            else:
                w.operating_tool.p_pos.value = 0.3  # as from the browser
        assert results and results[-1] == ["m1", "m2"], results
        w.wait(timeout=60)
        assert not w.busy and w.errors.message == ""


def test_an_observer_failure_is_raised_and_shown(monkeypatch):
    with CostWidget(_classifiers()) as w:

        def observer(change):
            raise RuntimeError("observer <b>broke</b>")

        w.observe(observer, names=["p_pos"])
        with pytest.raises(RuntimeError, match="broke"):
            w.update(p_pos=0.3)  # deferred past the lock, still raised to the caller
        assert w.p_pos == 0.3 and "&lt;b&gt;broke" in w.errors.message
        w.unobserve(observer, names=["p_pos"])
        w.p_pos = 0.4


@pytest.mark.timeout(120)
def test_an_observer_failing_after_a_result_never_stops_the_work():
    with CostWidget(_classifiers()) as w:

        def observer(change):
            if not change["new"]:  # "idle", drawn by the worker in a script
                raise RuntimeError("observer broke")

        w.observe(observer, names=["busy"])
        w.show_bands = True
        w.wait(timeout=60)
        for _ in range(1000):
            if "observer broke" in w.errors.message:
                break
            time.sleep(0.01)
        assert "observer broke" in w.errors.message
        w.band_level = 0.8  # the worker still serves this widget
        w.wait(timeout=60)
        assert {b.attrs["level"] for b in w.drawn_bands.values()} == {0.8}


@pytest.mark.timeout(120)
@_in_a_thread_without_a_loop
def test_an_observer_run_by_the_worker_may_wait_for_the_jobs_queued_behind_it(monkeypatch):
    # In a script the worker draws results, so an observer of a trait it sets (here
    # show_bands, turned off after a failed band) runs on the worker: its wait() runs the
    # widget's queued jobs itself instead of waiting for the thread it is on.
    with CostWidget(_classifiers()) as w:

        def broken(*args, **kwargs):
            raise RuntimeError("no band")

        monkeypatch.setattr(w.classifiers[1], "band", broken)
        got = []

        def observer(change):
            if not change["new"]:
                w.wait(timeout=30)
                got.append((threading.current_thread().name, w.difference_band is not None))

        w.observe(observer, names=["show_bands"])
        w.update(show_bands=True, difference=["m1", "m2"])  # bands first, the difference queued
        w.wait(timeout=60)
        for _ in range(1000):
            if got:
                break
            time.sleep(0.01)
        assert got == [(got[0][0], True)] and got[0][0].startswith("costwidget-worker")
        assert "bands failed" in w.errors.message


# ---------------------------------------------------------------------------- item 9: threads
def _record_writes(w):
    """Every trait change of every model of ``w`` (and of its state), with the thread."""
    writes = []

    def record(change, _kind=None):
        writes.append(
            (threading.current_thread().name, type(change["owner"]).__name__, change["name"])
        )

    for model in reachable_widgets([w.widget]):
        model.observe(record)
    w.state.observe(record)
    return writes


@pytest.mark.timeout(180)
@_in_a_thread_without_a_loop
def test_results_are_drawn_on_the_owner_loop_never_by_the_worker(monkeypatch, gate):
    """With a running asyncio loop (as in ipykernel, where a cell runs inside the kernel's loop)
    the worker only computes; marks, progress and busy are written on the loop's thread."""
    main = threading.current_thread().name
    computed_on = []

    async def scenario():
        w = CostWidget(_classifiers())
        try:
            assert w._background.on_loop
            for clf in w.classifiers:
                real = clf.band

                def band(level, *args, _real=real, **kwargs):
                    computed_on.append(threading.current_thread().name)
                    gate.wait(120)
                    return _real(level, *args, **kwargs)

                monkeypatch.setattr(clf, "band", band)
            writes = _record_writes(w)
            w.show_bands = True
            w.difference = ["m1", "m2"]
            for _ in range(200):  # the loop runs: progress arrives while the bands compute
                await asyncio.sleep(0.01)
            assert w.busy and w.drawn_bands == {}
            gate.set()
            while w.busy:
                await asyncio.sleep(0.01)
            assert sorted(w.drawn_bands) == ["m1", "m2"] and w.difference_band is not None
            # wait() on the loop's own thread blocks the loop: it draws the results itself.
            w.band_level = 0.8
            w.wait(timeout=60)
            assert {b.attrs["level"] for b in w.drawn_bands.values()} == {0.8}
            return writes
        finally:
            w.close()

    writes = asyncio.run(scenario())
    assert computed_on and all(t.startswith("costwidget") for t in computed_on)
    kinds = {(owner, name) for _, owner, name in writes}
    assert ("Lines", "y") in kinds and ("FloatProgress", "value") in kinds
    assert ("WidgetState", "busy") in kinds
    off_thread = sorted({w for w in writes if w[0] != main})
    assert not off_thread, off_thread[:10]


@_in_a_thread_without_a_loop
def test_without_a_loop_a_script_still_gets_its_results():
    # A plain script (no running loop): the worker draws under the lock; busy ends by itself.
    with CostWidget(_classifiers()) as w:
        assert not w._background.on_loop
        w.show_bands = True
        for _ in range(6000):
            if not w.busy:
                break
            time.sleep(0.01)
        assert not w.busy and sorted(w.drawn_bands) == ["m1", "m2"]


def test_without_threads_the_work_runs_at_once_with_the_busy_sign(monkeypatch):
    # Pyodide/JupyterLite: no threads; as lonboard, compute synchronously, busy shown first.
    monkeypatch.setattr(sys, "platform", "emscripten")
    with CostWidget(_classifiers()) as w:
        computed_on, labels = [], []
        w._background.label.observe(lambda ch: labels.append(ch["new"]), names=["value"])
        real = w.classifiers[0].band
        monkeypatch.setattr(
            w.classifiers[0],
            "band",
            lambda *a, **k: (computed_on.append(threading.current_thread()), real(*a, **k))[1],
        )
        w.show_bands = True
        assert not w.busy and sorted(w.drawn_bands) == ["m1", "m2"]
        assert computed_on == [threading.current_thread()]
        assert any("computing bands" in v for v in labels) and labels[-1] == ""


def test_a_thread_that_cannot_start_means_synchronous_work(monkeypatch):
    class NoThreads:
        def submit(self, *args, **kwargs):
            raise RuntimeError("can't start new thread")

    monkeypatch.setattr(background, "shared_pool", lambda: NoThreads())
    with CostWidget(_classifiers()) as w:
        w.show_bands = True
        w.difference = ["m1", "m2"]
        assert not w.busy and sorted(w.drawn_bands) == ["m1", "m2"]
        assert w.difference_band is not None and w.errors.message == ""


KERNEL_NOTEBOOK = [
    """
import asyncio, threading
import numpy as np
import costwidget as cw
from costwidget.widget.state.lifecycle import reachable_widgets
rng = np.random.default_rng(5)
y = rng.random(400) < 0.4
w = cw.CostWidget([cw.Classifier.from_scores(y, np.round(y * k + rng.normal(size=400), 2),
                                             name=f"m{k}") for k in (1, 2)])
writes = []
record = lambda ch: writes.append((threading.current_thread().name, type(ch["owner"]).__name__,
                                   ch["name"]))
for m in reachable_widgets([w.widget]):
    m.observe(record)
w.state.observe(record)
w
""",
    "w.show_bands = True\nw.difference = ['m1', 'm2']",
    "while w.busy:\n    await asyncio.sleep(0.02)\nprint(sorted(w.drawn_bands))",
    "w.band_level = 0.8\nw.wait(timeout=120)\nprint(sorted({b.attrs['level'] for b in "
    "w.drawn_bands.values()}), w.busy)",
    "off = sorted({x for x in writes if x[0] != threading.main_thread().name})\n"
    "kinds = {(o, n) for _, o, n in writes}\n"
    "assert ('Lines', 'y') in kinds and ('WidgetState', 'busy') in kinds, kinds\n"
    "assert not off, off[:10]\nprint('main thread only', len(writes))",
]


@pytest.mark.slow  # a notebook executed by a real kernel
@pytest.mark.timeout(300)
def test_under_a_real_ipykernel_every_write_is_on_the_kernel_thread(tmp_path):
    """ipykernel 7 sends messages from other threads differently (ipywidgets#4001, #4020):
    a real kernel runs a notebook that shows bands, waits in a cell and awaits the loop."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src.strip()) for src in KERNEL_NOTEBOOK]
    nbclient.NotebookClient(
        nb, timeout=240, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    text = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    assert "['m1', 'm2']" in text and "[0.8] False" in text and "main thread only" in text
