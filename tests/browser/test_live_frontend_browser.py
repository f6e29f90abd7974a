"""Real-browser tests of the live link (issue 19): the operating point drawn by the front end
while a kernel is attached, in JupyterLab.

A notebook builds a widget over fixed data and shows it. The front end's live link
(``static/live-link.js``) binds the widget's models and tells the kernel it is attached; the
tests then drive the p(+) slider by keyboard and by mouse, the cost fields and the constraint,
and after every step compare the operating line, the dots and every readout row with what the
Python model computes here, independently, for the state the page shows (``Classifier.best``,
``decide``, the readout's Python formatter). The kernel side is read back by running a
cell: a trait set from Python is drawn, and a drag ends with the page's p(+) equal to
``w.p_pos``. A MutationObserver records every change of the operating line's SVG path during a
drag: its x must never go back (nothing drawn twice with different values).
"""

from __future__ import annotations

import json
import re
import types

import nbformat
import numpy as np
import pytest
from lab_server import console_errors, wait_for_state
from widget_dom import bound, live, print_root_class, root_class_shown, with_live

from costwidget.model import decide, probability_cost, readable_value
from costwidget.widget.text.readout import constraint_description, constraint_html, readout_html

BUILD = """\
import numpy as np
from costwidget.widget import CostWidget
rng = np.random.default_rng(11)
y = rng.random(600) < 0.35
scores = {"ties": np.round(y * 1.3 + rng.normal(size=600), 1), "smooth": y * 0.8 + rng.normal(size=600)}
w = CostWidget.from_predictions(y, scores, p_pos=0.3)
w.widget
"""


# Every write of the kernel's capacity, with where it came from: printed when the workforce test
# finds a capacity it did not set (once in about ten loaded runs, the kernel answered the switch to
# workforce with 215.8308 where every move had set whole cases; the cause is not found yet).
RECORD_CAPACITY = """\
import traceback
capacity_writes = []
w.state.observe(lambda c: capacity_writes.append(
    (c["old"], c["new"], "".join(traceback.format_stack(limit=16)[:-1]))), names=["capacity"])
"""


# Every state the kernel sent the page, and every error its banner showed: printed when the line
# is drawn back, to tell a state the kernel sent (a rollback, a refusal) from one the page made.
RECORD_SENDS = """\
kernel_sends, banner_shown = [], []
w.frontend_link.model.observe(lambda c: kernel_sends.append(
    {k: c["new"].get(k) for k in ("acks", "refused", "ack")}
    | {"p_pos": c["new"]["state"].get("p_pos"), "band": c["new"].get("runner_up_band") is not None}),
    names=["kernel_state"])
w.errors.widget.observe(lambda c: banner_shown.append(c["new"]), names=["value"])
"""


def _classifiers():
    scope: dict = {}
    exec(BUILD.replace("w.widget\n", ""), scope)  # noqa: S102 - the fixed snippet above
    w = scope["w"]
    out = list(w.classifiers), dict(w.colors)
    w.close()
    return out


# The live binding (the widget's entry in window.costwidgetLive, set by live-link.js; `$LIVE`
# stands for it, widget_dom.with_live) and what it drew, read through the widget models it bound.
_READ = r"""() => {
  const live = $LIVE;
  if (!live) return null;
  const m = (role) => live.models.get(live.roles[role]);
  const arr = (v) => Array.isArray(v) ? v.map((r) => Array.from(r)) : Array.from(v);
  const marks = {};
  for (const r of ['operating_line', 'chosen', 'nec_points', 'roc_points', 'roc_line'])
    marks[r] = {x: arr(m(r).get('x')), y: arr(m(r).get('y')), visible: m(r).get('visible')};
  return {state: live.page.state, sent: live.sent(), marks,
          p_pos: m('p_pos').get('value'), p_pos_value: m('p_pos_value').get('value'),
          max_fpr: m('max_fpr').get('value'), readout: m('readout').get('value'),
          constrained_readout: m('constrained_readout').get('value')};
}"""

# Watches the cost pane's operating line: its SVG path (found through the line's own bqplot
# view) records its x at every change of its `d` (window.__lineXs), and every write the kernel
# makes to the page's marks is recorded too (window.__kernelWrites: there must be none, one
# writer per mark). window.__lineView maps a PCF(+) to the pixel the line is drawn at.
_WATCH_LINE = r"""async () => {
  const live = $LIVE;
  const m = (role) => live.models.get(live.roles[role]);
  const views = await Promise.all(Object.values(m('operating_line').views));
  const view = views.find((v) => v.el.isConnected) || views[0];
  window.__lineView = view;
  window.__lineXs = [];
  window.__kernelWrites = [];
  const path = view.d3el.select('.curve .line').node();
  const xOf = (d) => { const g = /^M(-?[\d.e+-]+),/.exec(d || ''); return g ? parseFloat(g[1]) : NaN; };
  window.__drawnX = () => xOf(path.getAttribute('d'));
  new MutationObserver(() => window.__lineXs.push(window.__drawnX()))
    .observe(path, {attributes: true, attributeFilter: ['d']});
  // (Not the handle: bqplot's drag writes its x and saves it, and the kernel echoes that back.)
  for (const role of ['operating_line', 'chosen', 'nec_points', 'iso_lines']) {
    m(role).on('change', (model) => { if (model._state_lock != null)
      window.__kernelWrites.push([role, JSON.stringify(model._state_lock).slice(0, 200)]); });
  }
  // What changed p(+), in order (printed when a test fails: a kernel state drawn, a control's
  // change, and whether ipywidgets applied it from the kernel): bound once per page.
  if (window.__events) return;
  window.__events = [];
  const note = (...what) => {
    window.__events.push([Math.round(performance.now()), ...what, 'page p', live.page.state.p_pos,
                          'sent', live.sent(), 'acked', live.acked()]);
    if (window.__events.length > 300) window.__events.shift();
  };
  const fromKernel = live.page.fromKernel;
  live.page.fromKernel = (target) => { note('kernel state', target.p_pos); return fromKernel(target); };
  for (const role of ['p_pos', 'p_pos_value'])
    m(role).on('change:value', (model, v) => note(role, v, model._state_lock != null ? 'kernel' : 'page'));
  new MutationObserver(() => note('line', window.__drawnX())).observe(path, {attributes: true, attributeFilter: ['d']});
}"""

# True once the line is drawn where the page's state puts it (the newest state's drawing has
# landed: bqplot draws through a zero-length d3 transition, on a later tick).
_DRAWN = r"""() => {
  const live = $LIVE;
  const view = window.__lineView;
  const pcf = live.models.get(live.roles.operating_line).get('x')[0];
  return Math.abs(window.__drawnX() - (view.scales.x.scale(pcf) + view.scales.x.offset)) < 1e-6;
}"""

# True once the kernel has taken every move the page sent.
_TAKEN = "() => { const l = $LIVE; return l.acked() === l.sent(); }"


def _state_is(root_class: str, condition: str) -> str:
    """A predicate: ``condition`` holds of ``s``, the state the widget's page shows."""
    return f"() => {{ const s = {live(root_class)}.page.state; return {condition}; }}"


def _wait_drawn(page, rc: str, what: str) -> None:
    assert wait_for_state(page, with_live(_DRAWN, rc)), (
        f"{what}: the line is not drawn at the page's state"
    )


def _what_happened(page) -> str:
    """The page's last events and the kernel's last states and banner, for a failure message."""
    events = page.evaluate("() => (window.__events || []).slice(-120)")
    sent = _run_python(
        page,
        "import json; print(json.dumps({'sends': kernel_sends[-40:], "
        "'banner': banner_shown[-5:]}))",
    )
    return "the page's events:\n" + "\n".join(map(str, events)) + f"\nthe kernel's: {sent}"


def _assert_never_back(page, increasing: bool = True) -> list:
    """The line's x at every change: never back, and none of the page's marks written by the
    kernel. Returns the x's."""
    xs = page.evaluate("() => window.__lineXs")
    steps = [b - a for a, b in zip(xs, xs[1:])]
    if not all((d >= 0) if increasing else (d <= 0) for d in steps):
        pytest.fail(f"the line went back: {xs}\n{_what_happened(page)}")
    assert page.evaluate("() => window.__kernelWrites") == []
    return xs


@pytest.fixture(scope="module")
def live_page(lab, browser):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(BUILD),
        nbformat.v4.new_code_cell(print_root_class("w")),
        nbformat.v4.new_code_cell(RECORD_CAPACITY),
        nbformat.v4.new_code_cell(RECORD_SENDS),
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, lab.root / "live.ipynb")
    page = browser.new_page(viewport={"width": 1300, "height": 1600})
    errors = console_errors(page)
    lab.run_notebook(page, "live.ipynb")
    page.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=120_000)
    rc = root_class_shown(page)
    assert wait_for_state(page, bound(rc), timeout=60_000), "the live link never bound"
    clfs, colors = _classifiers()
    yield page, clfs, colors, errors, rc
    page.close()


def _check(page, clfs, colors, rc: str) -> dict:
    """The page's marks and readout equal the Python model at the state the page shows (the
    page of the widget whose root class is ``rc``)."""
    got = page.evaluate(with_live(_READ, rc))
    s = got["state"]
    assert got["p_pos_value"] == readable_value(s["p_pos"])  # the field shows it readable
    pcf = probability_cost(s["p_pos"], s["cost_fn"], s["cost_fp"])
    ops = [c.best(pcf) for c in clfs]
    marks = got["marks"]
    assert marks["operating_line"]["x"] == [pcf, pcf]
    assert marks["chosen"]["x"] == [op.fpr for op in ops]
    assert marks["chosen"]["y"] == [op.tpr for op in ops]
    np.testing.assert_allclose(marks["nec_points"]["y"], [op.nec for op in ops], rtol=0, atol=1e-12)
    # The page's answer is the model's one decision (issue 31): each classifier's rule under the
    # constraint (its optimum where the limit does not bind), the readout's rows and highlight.
    if s["constraint"] == "neyman_pearson":
        assert marks["roc_line"]["x"] == [s["max_fpr"], s["max_fpr"]]
    limits = {
        "none": {},
        "neyman_pearson": {"max_fpr": s["max_fpr"]},
        "workforce": {k: s[k] for k in ("capacity", "n_pos", "n_neg")},
    }
    decision = decide(
        clfs,
        p_pos=s["p_pos"],
        cost_fn=s["cost_fn"],
        cost_fp=s["cost_fp"],
        constraint=s["constraint"],
        **limits[s["constraint"]],
    )
    assert marks["roc_points"]["visible"] is (s["constraint"] != "none")
    if s["constraint"] != "none":
        rules = [decision.of(c.name).rule for c in clfs]
        np.testing.assert_allclose(
            marks["roc_points"]["x"], [r.fpr for r in rules], rtol=1e-12, atol=1e-15
        )
        np.testing.assert_allclose(
            marks["roc_points"]["y"], [r.tpr for r in rules], rtol=1e-12, atol=1e-15
        )
    rows = list(decision.rows)
    constrained = s["constraint"] != "none"
    assert got["readout"] == readout_html(
        rows, colors, **({} if constrained else {"best": decision.chosen})
    )
    types_ = types.SimpleNamespace(
        **{
            k: s[k]
            for k in (
                "constraint",
                "max_fpr",
                "capacity",
                "n_pos",
                "n_neg",
                "p_pos",
                "population_set",
            )
        }
    )
    assert got["constrained_readout"] == constraint_html(
        rows, colors, constraint_description(types_), best=decision.chosen
    )
    return got


def _run_python(page, code: str) -> str:
    """Run ``code`` in the notebook's last cell (replacing it); return that cell's output text."""
    cell = page.locator(".jp-Notebook .jp-CodeCell").last
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+a")
    page.keyboard.type(code)
    count = cell.locator(".jp-InputPrompt").inner_text()
    page.keyboard.press("Control+Enter")  # run in place: no new cell
    assert wait_for_state(
        page,
        "([c]) => { const cells = document.querySelectorAll('.jp-Notebook .jp-CodeCell');"
        " const p = cells[cells.length - 1].querySelector('.jp-InputPrompt').textContent;"
        " return /\\[\\d+\\]/.test(p) && p !== c; }",
        [count],
        timeout=60_000,
    )
    out = cell.locator(".jp-OutputArea-output")
    return out.last.inner_text() if out.count() else ""


def _drag_right(page, handle, moves: int = 60, step_px: float = 3) -> None:
    """Drag ``handle`` right by ``step_px`` a move, one move a frame (16 ms apart, as a hand)."""
    # In view first: a cell run from Python scrolls the notebook to its last cell, and a taller
    # widget (the headline's room, the legend's) left the slider above the viewport, where the
    # mouse presses nothing.
    handle.scroll_into_view_if_needed()
    box = handle.bounding_box()
    x0, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x0, y)
    page.mouse.down()
    for i in range(1, moves + 1):
        page.mouse.move(x0 + step_px * i, y)
        page.wait_for_timeout(16)
    page.mouse.up()


def _kernel_state(page) -> dict:
    text = _run_python(
        page,
        'import json; print(json.dumps({"p_pos": w.p_pos, "cost_fn": '
        'w.cost_fn, "cost_fp": w.cost_fp, "attached": '
        "w.frontend_link.attached}))",
    )
    return json.loads(re.search(r"\{.*\}", text).group(0))


def test_attached_and_keys_drawn_by_the_front_end(live_page):
    page, clfs, colors, errors, rc = live_page
    assert _kernel_state(page)["attached"] is True
    _check(page, clfs, colors, rc)
    handle = page.locator(".costwidget .costwidget-p-pos .noUi-handle").first
    handle.focus()
    start = page.evaluate(with_live(_READ, rc))["state"]["p_pos"]
    for i in range(8):
        page.keyboard.press("ArrowRight" if i < 5 else "ArrowLeft")
        got = _check(page, clfs, colors, rc)  # drawn in the same frame: no wait
    assert got["state"]["p_pos"] == pytest.approx(start + 0.002, abs=1e-12)
    # The kernel takes the state too.
    assert wait_for_state(page, "() => true")
    assert _kernel_state(page)["p_pos"] == got["state"]["p_pos"]
    # A cost typed into its field.
    field = page.locator(".costwidget .costwidget-cost-fn input").first
    field.fill("3")
    field.press("Enter")
    assert wait_for_state(page, _state_is(rc, "s.cost_fn === 3"))
    _check(page, clfs, colors, rc)
    assert not errors, errors


# What is typed, into which field, and the reason the banner must give.
TYPED_REFUSALS = [
    (".costwidget-p-pos-value", "2", "p_pos must lie in [0, 1], got 2"),
    (
        ".costwidget-p-pos-value",
        "abc",
        "p(+) must be a number in [0, 1]; what was typed is not a number",
    ),
    (
        ".costwidget-cost-fn",
        "-5",
        "cost_fn (the cost C(-|+) of a false negative) must be a finite number >= 0, got -5",
    ),
    (
        ".costwidget-cost-fp",
        "-1",
        "cost_fp (the cost C(+|-) of a false positive) must be a finite number >= 0, got -1",
    ),
]


@pytest.mark.parametrize("field_class, typed, reason", TYPED_REFUSALS)
def test_a_refused_typed_value_shows_in_the_banner(live_page, field_class, typed, reason):
    """A value typed into a field and refused by the page: the page keeps its state, and the
    banner shows the refusal with its reason (not only the console); the next good move clears
    it. "abc" cannot enter a number input in Chrome: the field is left empty, and Enter
    commits that."""
    page, clfs, colors, _errors, rc = live_page
    before = page.evaluate(f"() => ({{...{live(rc)}.page.state}})")
    field = page.locator(f".costwidget {field_class} input").first
    if typed == "abc":
        field.fill("")
        field.press_sequentially("abc")
    else:
        field.fill(typed)
    field.press("Enter")
    banner = ".costwidget .costwidget-errors"
    assert wait_for_state(
        page,
        f"([r]) => ((document.querySelector('{banner}') || {{}}).innerText || '').includes(r)",
        [reason],
    ), page.evaluate(f"() => (document.querySelector('{banner}') || {{}}).innerText")
    after = page.evaluate(f"() => {live(rc)}.page.state")
    assert after == before
    _check(page, clfs, colors, rc)
    good = ".costwidget .costwidget-p-pos-value input"
    p = 0.26 if before["p_pos"] == 0.25 else 0.25  # a move: the banner clears on the next move
    page.locator(good).first.fill(str(p))
    page.locator(good).first.press("Enter")
    assert wait_for_state(
        page,
        _state_is(
            rc, f"s.p_pos === {p} && !(document.querySelector('{banner}') || {{}}).innerText"
        ),
    )
    _check(page, clfs, colors, rc)


def test_neyman_pearson_by_button_and_keys(live_page):
    page, clfs, colors, _errors, rc = live_page
    page.locator(
        ".costwidget-constraint .widget-toggle-button", has_text="Neyman-Pearson"
    ).first.click()
    assert wait_for_state(page, _state_is(rc, "s.constraint === 'neyman_pearson'"))
    _check(page, clfs, colors, rc)
    slider = page.locator(".costwidget-constraint .widget-slider .noUi-handle").first
    slider.focus()
    for _ in range(6):
        page.keyboard.press("ArrowRight")
        _check(page, clfs, colors, rc)
    assert page.evaluate(with_live(_READ, rc))["state"]["max_fpr"] == pytest.approx(0.13, abs=1e-12)
    page.locator(".costwidget-constraint .widget-toggle-button", has_text="none").first.click()
    assert wait_for_state(page, _state_is(rc, "s.constraint === 'none'"))
    _check(page, clfs, colors, rc)


def test_drag_of_the_handle_moves_the_line_with_it(live_page):
    page, clfs, colors, _errors, rc = live_page
    _run_python(page, "w.update(p_pos=0.3, cost_fn=1.0, cost_fp=1.0, constraint='none')")
    assert wait_for_state(
        page,
        _state_is(rc, "s.p_pos === 0.3 && s.cost_fn === 1"),
    )
    page.evaluate(with_live(_WATCH_LINE, rc))
    _wait_drawn(page, rc, "the state set before the drag")
    page.evaluate("() => { window.__lineXs = []; }")
    # The handle: the cost pane's last mark (a triangle at the operating line's foot).
    dot = page.evaluate("""() => {
      const svg = document.querySelector('.costwidget-cost svg.svg-figure');
      const marks = svg.querySelector('.plotarea_events').nextElementSibling;
      const groups = Array.from(marks.children).filter(g => g.tagName === 'g'
                                                       && !g.classList.contains('g_legend'));
      const b = groups[groups.length - 1].querySelector('.dot').getBoundingClientRect();
      return {x: b.x + b.width / 2, y: b.y + b.height / 2}; }""")
    page.mouse.move(dot["x"], dot["y"])
    page.mouse.down()
    for i in range(1, 21):
        page.mouse.move(dot["x"] + 5 * i, dot["y"])
        page.wait_for_timeout(16)
        if i == 10:  # mid-drag: the line already follows the pointer
            mid = page.evaluate(with_live(_READ, rc))
            # issue 23: a drag moves p(+) and keeps the costs as typed
            assert mid["state"]["p_pos"] > 0.3 and mid["state"]["cost_fn"] == 1.0, mid["state"]
    page.mouse.up()
    got = _check(page, clfs, colors, rc)
    assert got["state"]["p_pos"] > 0.3 and got["state"]["cost_fn"] == got["state"]["cost_fp"] == 1.0
    _wait_drawn(page, rc, "the drag's last move")
    xs = _assert_never_back(page)
    assert len(set(xs)) >= 5, xs
    assert wait_for_state(page, with_live(_TAKEN, rc)), "the kernel did not take every move"
    kernel = _kernel_state(page)
    assert (kernel["p_pos"], kernel["cost_fn"], kernel["cost_fp"]) == (
        got["state"]["p_pos"],
        got["state"]["cost_fn"],
        got["state"]["cost_fp"],
    )


def test_workforce_capacity_by_keys_and_the_ratio_slider(live_page):
    page, clfs, colors, _errors, rc = live_page
    _run_python(page, "w.update(cost_fn=1.0, cost_fp=1.0)")  # ratio 1: the slider at 10^0
    assert wait_for_state(page, _state_is(rc, "s.cost_fn === 1"))
    page.locator(".costwidget-constraint .widget-toggle-button", has_text="workforce").first.click()
    assert wait_for_state(page, _state_is(rc, "s.constraint === 'workforce'"))
    # The kernel answers the switch with the capacity it sets for workforce (seen in CI: read
    # before that answer, the start was 218 and the page then showed the kernel's 215.83): count
    # the presses from the state the kernel took, not from the page's first guess.
    assert wait_for_state(page, with_live(_TAKEN, rc)), (
        "the kernel did not take the switch to workforce"
    )
    _check(page, clfs, colors, rc)
    start = page.evaluate(with_live(_READ, rc))["state"]["capacity"]
    page.locator(".costwidget .costwidget-capacity .noUi-handle").first.focus()
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
        _check(page, clfs, colors, rc)
    assert wait_for_state(page, with_live(_TAKEN, rc)), (
        "the kernel did not take the capacity's moves"
    )
    got = page.evaluate(with_live(_READ, rc))["state"]["capacity"]
    assert got == start - 4, (
        got,
        start,
        _run_python(  # whole cases, step 1
            page, "for old, new, where in capacity_writes: print(old, '->', new, where)"
        ),
    )
    page.locator(".costwidget .costwidget-ratio .noUi-handle").first.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        _check(page, clfs, colors, rc)
    s = page.evaluate(with_live(_READ, rc))["state"]
    # three steps of 0.01 decade: 10^0.03 = 1.0715..., snapped to 3 significant digits (issue 23)
    assert s["cost_fn"] / s["cost_fp"] == pytest.approx(1.07, rel=1e-9)
    _run_python(page, "w.update(cost_fn=1.0, cost_fp=1.0, constraint='none')")
    assert wait_for_state(page, _state_is(rc, "s.constraint === 'none'"))
    _check(page, clfs, colors, rc)


def test_python_set_trait_is_drawn(live_page):
    page, clfs, colors, _errors, rc = live_page
    _run_python(page, "w.p_pos = 0.4321")
    assert wait_for_state(page, _state_is(rc, "s.p_pos === 0.4321"))
    got = _check(page, clfs, colors, rc)
    assert got["p_pos_value"] == 0.4321


def test_drag_is_monotone_and_ends_equal_in_kernel(live_page):
    page, clfs, colors, _errors, rc = live_page
    _run_python(page, "w.update(p_pos=0.3, cost_fn=1.0, cost_fp=1.0)")
    assert wait_for_state(page, _state_is(rc, "s.p_pos === 0.3"))
    page.evaluate(with_live(_WATCH_LINE, rc))
    _wait_drawn(page, rc, "the state set before the drag")
    page.evaluate("() => { window.__lineXs = []; }")
    _drag_right(page, page.locator(".costwidget .costwidget-p-pos .noUi-handle").first)
    got = _check(page, clfs, colors, rc)
    _wait_drawn(page, rc, "the drag's last move")
    xs = _assert_never_back(page)
    assert len(xs) >= 20, xs
    # Once the kernel has taken every move, it holds the page's p(+).
    assert wait_for_state(page, with_live(_TAKEN, rc)), "the kernel did not take every move"
    assert _kernel_state(page)["p_pos"] == got["state"]["p_pos"]
    _check(page, clfs, colors, rc)


def test_keys_and_a_drag_under_load_never_draw_the_line_back(live_page):
    """30 arrow keys 20 ms apart, then a drag of 60 moves, while the bands compute and two busy
    loops hold both cores: the line never moves back, and ends at the page's final state,
    which the kernel holds too."""
    import subprocess

    page, clfs, colors, _errors, rc = live_page
    busy = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(2)]
    try:
        _run_python(page, "w.update(p_pos=0.3, cost_fn=1.0, cost_fp=1.0, constraint='none')")
        assert wait_for_state(
            page,
            _state_is(rc, "s.p_pos === 0.3 && s.cost_fn === 1"),
        )
        page.evaluate(with_live(_WATCH_LINE, rc))
        _wait_drawn(page, rc, "the state before the keys")
        page.evaluate("() => { window.__lineXs = []; }")
        _run_python(page, "w.show_bands = True")  # returns at once: they compute meanwhile
        handle = page.locator(".costwidget .costwidget-p-pos .noUi-handle").first
        handle.focus()
        for _ in range(30):
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(20)  # the pace of the keys (what is pressed, not a wait)
        assert wait_for_state(page, _state_is(rc, "Math.abs(s.p_pos - 0.33) < 1e-9")), "30 presses"
        _wait_drawn(page, rc, "the 30th press")
        xs = _assert_never_back(page)
        assert len(set(xs)) >= 2, xs
        assert wait_for_state(page, with_live(_TAKEN, rc)), "the kernel did not take every key"
        got = _check(page, clfs, colors, rc)
        kernel_p = _kernel_state(page)["p_pos"]
        assert kernel_p == got["state"]["p_pos"] == pytest.approx(0.33), _what_happened(page)

        page.evaluate("() => { window.__lineXs = []; }")
        _drag_right(page, handle)
        _wait_drawn(page, rc, "the drag's last move")
        xs = _assert_never_back(page)
        assert len(set(xs)) >= 5, xs
        assert wait_for_state(page, with_live(_TAKEN, rc)), "the kernel did not take every move"
        got = _check(page, clfs, colors, rc)
        assert got["state"]["p_pos"] > 0.33
        kernel = _kernel_state(page)
        assert (kernel["p_pos"], kernel["cost_fn"], kernel["cost_fp"]) == (
            got["state"]["p_pos"],
            got["state"]["cost_fn"],
            got["state"]["cost_fp"],
        )
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    _run_python(page, "w.show_bands = False")


# ---------------------------------------------------------------------------- Notebook 7, Voila


def _arrow_keys_move_the_line(page):
    """Focus the p(+) slider's handle; each ArrowRight moves p(+) one step and the line with it."""
    rc = root_class_shown(page, timeout=300_000)
    assert wait_for_state(page, bound(rc), timeout=120_000), "the live link never bound"
    page.evaluate(with_live(_WATCH_LINE, rc))
    _wait_drawn(page, rc, "the state before the keys")
    start = page.evaluate(f"() => {live(rc)}.page.state.p_pos")
    page.locator(".costwidget .costwidget-p-pos .noUi-handle").first.focus()
    for i in range(1, 4):
        page.keyboard.press("ArrowRight")
        assert wait_for_state(
            page,
            f"([p]) => Math.abs({live(rc)}.page.state.p_pos - p) < 1e-9",
            [start + 0.001 * i],
        ), f"press {i}"
        # ... and the line is drawn there (the newest drawing landed) before the next press.
        _wait_drawn(page, rc, f"press {i}")
    xs = _assert_never_back(page)
    assert len(set(xs)) >= 3, xs
    # The slider shows it too (aria-valuetext: aria-valuenow is rounded to one decimal).
    shown = page.locator(".costwidget .costwidget-p-pos .noUi-handle").first.get_attribute(
        "aria-valuetext"
    )
    assert float(shown) == pytest.approx(start + 0.003, abs=1e-9)
    assert wait_for_state(page, with_live(_TAKEN, rc)), "the kernel did not take every move"


def _write_notebook(folder):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(BUILD), nbformat.v4.new_code_cell(print_root_class("w"))]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, folder / "live.ipynb")


def test_arrow_keys_on_the_slider_in_notebook7(browser, sync_api, tmp_path):
    import secrets

    from lab_server import ROOT_FLAGS, open_in_notebook7, run_all_open_cells, running_server

    _write_notebook(tmp_path)
    token = secrets.token_hex(16)
    cmd = [
        "jupyter",
        "notebook",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={tmp_path}",
        *ROOT_FLAGS,
    ]
    with running_server(tmp_path, cmd, f"/api/status?token={token}") as url:
        page = browser.new_page(viewport={"width": 1300, "height": 1600})
        try:
            open_in_notebook7(page, url, token, "live.ipynb")
            run_all_open_cells(page, sync_api)
            page.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=120_000)
            _arrow_keys_move_the_line(page)
        finally:
            page.close()


def test_arrow_keys_on_the_slider_in_voila(browser, tmp_path):
    import secrets

    from lab_server import running_server

    _write_notebook(tmp_path)
    token = secrets.token_hex(16)
    cmd = ["voila", "live.ipynb", "--no-browser", "--Voila.ip=127.0.0.1", f"--token={token}"]
    with running_server(tmp_path, cmd, f"/api/status?token={token}") as url:
        page = browser.new_page(viewport={"width": 1300, "height": 1600})
        try:
            page.goto(f"{url}/?token={token}", timeout=300_000)
            page.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=300_000)
            _arrow_keys_move_the_line(page)
        finally:
            page.close()
