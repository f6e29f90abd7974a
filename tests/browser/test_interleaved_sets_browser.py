"""Python sets interleaved with the page's moves (issue 29, item 1), drawn by hypothesis.

Each example is a sequence of steps on one live widget in JupyterLab:

* a cell that sets several state keys one after another (``w.p_pos = …; w.cost_fn = …``), run
  without waiting for it: its sets reach the page while the next steps move the page;
* arrow keys on the p(+) slider, 20 ms apart;
* a cost typed into its field.

Once every move is taken and every cell ran, the page must hold the kernel's state, and draw it
(`test_live_frontend_browser._check`: the marks and the readout as the Python model computes
them for that state). A key only one side wrote must end at that side's last value: a Python set
of a key the user is not moving survives the user's moves, and a state set from Python is never
taken by the page for a move of its own (keys both sides wrote may end at either's).
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st
from lab_server import wait_for_state
from test_live_frontend_browser import (  # noqa: F401 - live_page, a fixture: its widget in JupyterLab
    _TAKEN,
    _check,
    _what_happened,
    live_page,
)
from widget_dom import live, with_live

START = {"p_pos": 0.3, "cost_fn": 1.0, "cost_fp": 1.0, "constraint": "none", "max_fpr": 0.1}
STEP = 0.001  # the p(+) slider's step
KEYS = ("p_pos", "cost_fn", "cost_fp", "constraint", "max_fpr")

# Values on the p(+) slider's grid (a key press moves from the slider's value) and costs a
# field shows as typed.
_p = st.integers(100, 600).map(lambda k: k / 1000)
_cost = st.sampled_from([0.5, 1.0, 2.0, 2.5, 4.0, 5.0])
_python_set = st.one_of(
    st.tuples(st.just("p_pos"), _p),
    st.tuples(st.sampled_from(["cost_fn", "cost_fp"]), _cost),
    st.tuples(st.just("constraint"), st.sampled_from(["none", "neyman_pearson"])),
    st.tuples(st.just("max_fpr"), st.sampled_from([0.05, 0.1, 0.2, 0.35])),
)
_step = st.one_of(
    st.tuples(st.just("cell"), st.lists(_python_set, min_size=2, max_size=4)),
    st.tuples(st.just("keys"), st.integers(-8, 8).filter(bool)),
    st.tuples(st.just("type"), st.sampled_from(["cost_fn", "cost_fp"]), _cost),
)


def _run_cell(page, code: str, *, wait: bool) -> str:
    """Run ``code`` in a new cell at the notebook's end. Without ``wait``, go on at once: the
    cell runs while the next steps move the page. With it, return the cell's output once it ran
    (so once every cell started before it ran). Each cell runs once: a cell run again while its
    last run is queued would show the older run's count."""
    page.locator(".jp-Notebook .jp-CodeCell").last.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Escape")  # command mode
    page.keyboard.press("b")  # a new cell below, selected
    page.keyboard.press("Enter")  # edit it
    page.keyboard.type(code)
    page.keyboard.press("Control+Enter")  # run it, stay on it
    if not wait:
        return ""
    cell = page.locator(".jp-Notebook .jp-CodeCell").last
    assert wait_for_state(
        page,
        "() => { const cells = document.querySelectorAll('.jp-Notebook .jp-CodeCell');"
        " return /\\[\\d+\\]/.test(cells[cells.length - 1]"
        ".querySelector('.jp-InputPrompt').textContent); }",
        timeout=120_000,
    ), "the cell did not run"
    out = cell.locator(".jp-OutputArea-output")
    return out.last.inner_text() if out.count() else ""


def _press(page, presses: int) -> None:
    page.locator(".costwidget .costwidget-p-pos .noUi-handle").first.focus()
    for _ in range(abs(presses)):
        page.keyboard.press("ArrowRight" if presses > 0 else "ArrowLeft")
        page.wait_for_timeout(20)  # the pace of the keys (what is pressed, not a wait)


def _type(page, key: str, value: float) -> None:
    field = page.locator(f".costwidget .costwidget-{key.replace('_', '-')} input").first
    field.fill(str(value))
    field.press("Enter")


def _kernel_state(page) -> dict:
    """The kernel's state, read by a cell (which runs after every cell started before it)."""
    text = _run_cell(
        page,
        "import json; from costwidget.widget.output.page_spec import "
        "state_values; print(json.dumps(state_values(w.state)))",
        wait=True,
    )
    return json.loads(re.search(r"\{.*\}", text).group(0))


def _settled(page, rc: str) -> dict:
    """The state once every move was taken and every cell ran; the page holds it."""
    taken = wait_for_state(page, with_live(_TAKEN, rc), timeout=60_000)
    assert taken, "the kernel did not take every move"
    sent = page.evaluate(f"() => {live(rc)}.sent()")
    kernel = _kernel_state(page)
    held = wait_for_state(
        page,
        f"([s]) => {{ const l = {live(rc)}; return l.acked() === l.sent() && "
        "Object.keys(s).every((k) => JSON.stringify(l.page.state[k]) === "
        "JSON.stringify(s[k])); }",
        [kernel],
        timeout=60_000,
    )
    page_state = page.evaluate(f"() => {live(rc)}.page.state")
    assert held, f"the page holds {page_state}, the kernel {kernel}\n{_what_happened(page)}"
    assert page.evaluate(f"() => {live(rc)}.sent()") == sent, (
        "the page sent a move though nobody touched it"
    )
    return kernel


def _expected(steps) -> tuple[dict, dict]:
    """The last value each side wrote to each key: (Python's, the page's). The page's p(+)
    after presses is known only while Python never set it (a press moves from what is shown)."""
    python, page = {}, {}
    p = START["p_pos"]
    for step in steps:
        if step[0] == "cell":
            python.update(step[1])
        elif step[0] == "type":
            page[step[1]] = step[2]
        else:
            p = min(max(round(p + STEP * step[1], 6), 0.0), 1.0)
            page["p_pos"] = p
    return python, page


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),  # no shrinking: each example takes seconds
    suppress_health_check=[HealthCheck.too_slow],
)
@given(steps=st.lists(_step, min_size=3, max_size=6))
def test_python_sets_interleaved_with_page_moves(live_page, steps):  # noqa: F811 - the fixture
    page, clfs, colors, errors, rc = live_page
    note(f"steps: {steps}")
    _run_cell(
        page, "w.update(" + ", ".join(f"{k}={v!r}" for k, v in START.items()) + ")", wait=True
    )
    base = _settled(page, rc)
    assert {k: base[k] for k in START} == START
    for step in steps:
        if step[0] == "cell":  # several sets in one cell, no wait between them
            _run_cell(page, "; ".join(f"w.{k} = {v!r}" for k, v in step[1]), wait=False)
        elif step[0] == "keys":
            _press(page, step[1])
        else:
            _type(page, step[1], step[2])
    final = _settled(page, rc)
    _check(page, clfs, colors, rc)
    python, moved = _expected(steps)
    for key in KEYS:
        if key in python and key not in moved:
            assert final[key] == python[key], (
                f"{key}: Python set {python[key]}, ended at {final[key]}"
            )
        elif key in moved and key not in python:
            assert final[key] == pytest.approx(moved[key], abs=1e-9), (
                f"{key}: the page moved it to {moved[key]}, it ended at {final[key]}"
            )
        elif key not in python and key not in moved:
            assert final[key] == START[key], f"{key}: nobody set it, it ended at {final[key]}"
        elif key != "p_pos":  # both wrote it: either's last value
            assert final[key] in (python[key], moved[key]), (
                key,
                final[key],
                python[key],
                moved[key],
            )
    assert not errors, errors
