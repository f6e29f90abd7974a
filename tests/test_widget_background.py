"""Background work in the widget: the kernel stays free, newer requests win, failures show.

Bands, the fold spread and the difference view run on a worker thread. These tests slow the
model down on purpose (a band that waits for an event the test sets) to make the races
happen every time.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import costwidget as cw
from costwidget.widget import CostWidget


@pytest.fixture()
def w():
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.4
    clfs = [
        cw.Classifier.from_scores(y, np.round(y * k + rng.normal(size=300), 2), name=f"m{k}")
        for k in (1, 2)
    ]
    with CostWidget(clfs) as widget:
        yield widget


def _gated_bands(monkeypatch, w, gates):
    """Every band at a level in ``gates`` waits for that event; record the levels computed and
    signal ``started[level]`` when a job reaches one (the tests wait on states, never on time)."""
    computed, started = [], {level: threading.Event() for level in gates}
    for clf in w.classifiers:
        real = clf.band

        def band(level, *args, _real=real, **kwargs):
            key = round(level, 2)
            if key in gates:
                started[key].set()
                gates[key].wait(60)
            computed.append(key)
            return _real(level, *args, **kwargs)

        monkeypatch.setattr(clf, "band", band)
    return computed, started


@pytest.fixture()
def gate():
    event = threading.Event()
    yield event
    event.set()  # never leave a worker blocked


@pytest.mark.timeout(120)
def test_state_changes_are_taken_at_once_while_bands_compute(w, monkeypatch, gate):
    _gated_bands(monkeypatch, w, {0.9: gate})
    w.show_bands = True  # returns while the bands cannot finish: it never waits for them
    assert w.busy
    assert w._background.bar.layout.visibility == "visible"  # the busy sign
    assert "computing bands" in w._background.label.value
    # The operating point and the readout follow at once, while the bands still compute.
    w.p_pos = 0.2
    assert w.busy and w.operating_tool.operating_line.x[0] == pytest.approx(w.pcf)
    assert w.readout.nec.tolist() == [c.nec(w.pcf) for c in w.classifiers]
    gate.set()
    w.wait(timeout=30)
    assert not w.busy and sorted(w.drawn_bands) == ["m1", "m2"]
    assert w._background.bar.layout.visibility == "hidden"


@pytest.mark.timeout(120)
def test_a_newer_request_supersedes_an_older_one(w, monkeypatch, gate):
    # The 0.8 bands are held until the newer request is in: the old job would finish last.
    computed, started = _gated_bands(monkeypatch, w, {0.8: gate})
    w.band_level = 0.8
    w.show_bands = True
    assert started[0.8].wait(30)  # the old job is computing its first band
    w.band_level = 0.95
    gate.set()
    w.wait(timeout=30)
    for name, band in w.drawn_bands.items():
        assert band.attrs["level"] == 0.95, f"{name}: a stale band is drawn"
    marks = {d.name: m for d, m in zip(w._ctx.drawings, w.band_layer.marks)}
    for name, band in w.drawn_bands.items():
        np.testing.assert_array_equal(marks[name].y[1], band.upper)
    # The old job stopped at its next check (after at most the band it was computing).
    assert computed.count(0.8) <= 1 and computed.count(0.95) == len(w.classifiers)


@pytest.mark.timeout(120)
def test_wait_times_out_with_a_message(w, monkeypatch, gate):
    _gated_bands(monkeypatch, w, {0.9: gate})
    w.show_bands = True
    with pytest.raises(TimeoutError, match="bands"):
        w.wait(timeout=0.05)
    gate.set()
    w.wait(timeout=30)


@pytest.mark.timeout(120)
def test_wait_returns_once_the_busy_sign_is_drawn_idle(w, monkeypatch):
    """wait() returned between the last job's count-down and the busy sign's redraw, so a script
    (and test_presentation, in about one loaded run in twenty) saw "computing how sure …" after
    wait(). The worker's redraw of the sign is slowed here, so the old wait() failed every time."""
    # A script's case: no event loop, the worker draws (a live Playwright sync API in the same
    # thread would look like a kernel's loop; tests/browser/conftest.py runs those tests last).
    assert not w._background.on_loop
    sign = w._background.sign
    real_draw, worker_drawing = sign.draw, threading.Event()

    def slow_draw(labels, parts):
        if threading.current_thread() is not threading.main_thread() and not labels:
            worker_drawing.set()
            threading.Event().wait(0.5)  # the worker is slow to draw "idle" (a loaded machine)
        real_draw(labels, parts)

    monkeypatch.setattr(sign, "draw", slow_draw)
    w.show_bands = True
    w.wait(timeout=60)
    assert worker_drawing.is_set()  # the worker drew the last result (no event loop here)
    assert not w.busy
    assert w._background.label.value == ""
    assert w._background.widget.layout.display == "none"


def test_a_failure_in_the_background_shows_and_leaves_nothing_half_drawn(w, monkeypatch):
    calls = []

    def broken(level, *args, **kwargs):
        calls.append(threading.current_thread().name)
        raise RuntimeError("bootstrap <b>failed</b>")

    monkeypatch.setattr(w.classifiers[1], "band", broken)
    w.show_bands = True  # m1's band computes, m2's fails
    w.wait(timeout=30)
    assert calls and all(name.startswith("costwidget") for name in calls)  # on the worker
    assert "bands failed" in w.errors.message and "&lt;b&gt;failed" in w.errors.message
    assert not any(m.visible for m in w.band_layer.marks)  # not even m1's half
    assert w.show_bands is False and w.show_bands_box.value is False
    monkeypatch.undo()
    w.show_bands = True
    w.wait(timeout=30)
    assert all(m.visible for m in w.band_layer.marks) and w.errors.message == ""


def test_a_value_the_browser_reexpresses_is_no_move(w):
    # The browser computes a log slider's value as Math.pow(10, exponent) and can send back our
    # value changed in its last bits (5.011872336272725 for 10**0.7): that must not move the
    # state, while a move of one step must.
    w.cost_fn = 10**0.7
    slider = w.operating_tool.log_ratio
    before = (w.cost_fn, w.cost_fp)
    slider.value = slider.value * (1 + 4e-16)
    assert (w.cost_fn, w.cost_fp) == before
    slider.value = 10**0.71  # one step up (issue 23: the ratio snaps to 3 significant digits)
    assert w.cost_fn / w.cost_fp == pytest.approx(5.13)


def test_the_busy_sign_escapes_classifier_names():
    rng = np.random.default_rng(6)
    y = rng.random(200) < 0.4
    names = ["<img src=x onerror=alert(1)>", "ok"]
    clfs = [
        cw.Classifier.from_scores(y, y * k + rng.normal(size=200), name=n)
        for k, n in zip((1, 2), names)
    ]
    with CostWidget(clfs) as w:
        seen = []
        w._background.label.observe(lambda ch: seen.append(ch["new"]), names=["value"])
        w.difference = names
        w.wait(timeout=30)
        assert any("computing difference" in v for v in seen)
        assert not any("<img" in v for v in seen)
