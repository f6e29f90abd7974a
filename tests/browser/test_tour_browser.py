"""Real-browser test: JupyterLab + Debian's chromium driven by Playwright runs notebooks/tour.ipynb.

Checks both panes render as SVG with their marks, no browser console errors,
and that moving the p(+) slider with the keyboard moves the iso-performance
lines in the ROC SVG and the operating line in the cost SVG. Then, with real
mouse events: hovering hull-vertex dots in the ROC pane shows the hover info
(below the widget and as the bqplot tooltip) for that vertex and both
highlights; hovering an envelope piece in the cost pane does too; one click in
the cost pane moves the operating point (PCF readout and operating line) to the
pointer's x, and dragging the handle at the foot of the operating line moves it
to the drop point. Saves a screenshot to tests/artifacts/ and prints the
key-press, hover, click and drag latencies (figures for the notes, not
assertions).

Every wait is on the whole expected state of the page, never on time; the one fixed pause
checks that moving the pointer after a click changes nothing. The browser gate (skip, or a
failure under CI) and the JupyterLab launcher are in conftest.py.
"""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

import nbformat
import pytest
from lab_server import console_errors, wait_for_state
from widget_dom import CONTROLS as _CONTROLS
from widget_dom import bound, live, print_root_class, root_class_shown

TOUR = Path(__file__).resolve().parents[2] / "notebooks" / "tour.ipynb"


_PATHS_JS = """(sel) => Array.from(document.querySelectorAll(sel)).map(p => p.getAttribute('d')).join('|')"""

# Shared by the mouse checks below. `_js(body)` is `(arg) => { helpers; body }`.
_JS_HELPERS = r"""
const svgOf = (fig, cls) => document.querySelector(`${fig} svg.${cls}`);
// A figure's mark groups in the order of Figure.marks (bqplot draws them in that order).
const markGroups = fig => {
  const events = svgOf(fig, 'svg-figure').querySelector('.plotarea_events');
  return Array.from(events.nextElementSibling.children)
    .filter(g => g.tagName === 'g' && !g.classList.contains('g_legend'));
};
const shown = el => {
  for (let e = el; e && e.tagName !== 'svg'; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.display === 'none' || s.visibility === 'hidden') return false;
  }
  return true;
};
const centre = el => {
  const b = el.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; };
// Client pixel -> data map of a figure's x (horizontal) or y axis, from its first and last tick.
const axisMap = (fig, horizontal) => {
  for (const ax of svgOf(fig, 'svg-background').querySelectorAll('g.axis')) {
    const ticks = Array.from(ax.querySelectorAll('g.tick')).map(t => {
      const [x, y] = centre(t.querySelector('line')); return [parseFloat(t.textContent), x, y]; });
    if (ticks.length < 2) continue;
    const [a, b] = [ticks[0], ticks[ticks.length - 1]];
    if (horizontal ? Math.abs(a[2] - b[2]) < 1 : Math.abs(a[1] - b[1]) < 1) {
      const [pa, pb] = horizontal ? [a[1], b[1]] : [a[2], b[2]];
      return {v0: a[0], p0: pa, perPx: (b[0] - a[0]) / (pb - pa)};
    }
  }
  return null;
};
const tooltipShown = () => Array.from(document.querySelectorAll('.bqplot_mark_tooltip')).find(t => {
  const s = getComputedStyle(t); return s.display !== 'none' && parseFloat(s.opacity) > 0; });
"""

# Hull-vertex dots in the ROC pane: the small dots (default_size=24, ~5.5 px across; the chosen,
# constrained and highlight markers are larger), kept only where the pointer reaches the dot itself.
_HULL_DOTS = r"""
  const fig = '.costwidget-roc', ax = axisMap(fig, true), ay = axisMap(fig, false);
  const out = [];
  svgOf(fig, 'svg-figure').querySelectorAll('.dot').forEach(d => {
    const b = d.getBoundingClientRect();
    if (b.width === 0 || b.width > 7 || !shown(d)) return;
    const [cx, cy] = centre(d);
    if (document.elementFromPoint(cx, cy) !== d) return;
    out.push({cx, cy, fpr: ax.v0 + (cx - ax.p0) * ax.perPx, tpr: ay.v0 + (cy - ay.p0) * ay.perPx});
  });
  return out;
"""

# The hover info below the widget, the shown bqplot tooltip's copy of it, and the two highlight
# marks when visible (roc_highlight, the ROC figure's last mark; cost_highlight, the cost
# figure's last but one, before the drag handle).
_HOVER_STATE = r"""
  const info = document.querySelector('.costwidget .costwidget-hover'), tip = tooltipShown();
  const tipInfo = tip && tip.querySelector('.costwidget-hover');
  const rocDot = markGroups('.costwidget-roc').pop().querySelector('.dot');
  const costPath = markGroups('.costwidget-cost').slice(-2)[0].querySelector('path.line');
  return {info: info ? info.innerText : null, tooltip: tipInfo ? tipInfo.innerText : null,
          rocHl: rocDot && shown(rocDot) ? centre(rocDot) : null,
          costHl: costPath && shown(costPath) ? costPath.getAttribute('d') : null};
"""

# The PCF readout; the client x of the operating line(s) (visible vertical paths in the cost pane
# drawn in the theme's ink, the colour of the drag handle, the pane's last mark; there should be
# one); the cost pane's x-axis map and plot area.
_COST_STATE = r"""
  const fig = '.costwidget-cost', svg = svgOf(fig, 'svg-figure');
  const r = svg.querySelector('.plotarea_events').getBoundingClientRect();
  const handle = markGroups(fig).pop().querySelector('.dot');
  const ink = handle ? getComputedStyle(handle).fill : null;
  const op = Array.from(svg.querySelectorAll('path.line')).filter(p => {
    const b = p.getBoundingClientRect();
    return shown(p) && getComputedStyle(p).stroke === ink && b.width < 4
      && b.height > r.height / 2; }).map(p => centre(p)[0]);
  const pcf = document.querySelector('.costwidget .costwidget-pcf');
  return {pcf: pcf ? pcf.innerText : null, op, axis: axisMap(fig, true),
          area: [r.x, r.y, r.width, r.height]};
"""


def _js(body: str) -> str:
    return "(arg) => {" + _JS_HELPERS + body + "}"


def _until(state_body: str, condition: str) -> str:
    """JS predicate: `condition` over `s` (the state `state_body` returns) and `arg`."""
    return _js(f"const s = (() => {{ {state_body} }})(); return Boolean({condition});")


def _wait(page, predicate: str, arg=None) -> None:
    """Wait up to 15 s for `predicate`; on time-out, carry on to the assertions (they say what)."""
    wait_for_state(page, predicate, arg)


def _number(label: str, text: str | None) -> float:
    m = re.search(re.escape(label) + r"[^\d-]*(-?\d+(?:\.\d+)?)", text or "")
    assert m, f"no {label} number in {text!r}"
    return float(m.group(1))


def _check_hover(page) -> list[float]:
    """Real mouse moves onto hull-vertex dots in the ROC pane: hover info, tooltip, highlights."""
    dots = page.evaluate(_js(_HULL_DOTS))
    # A few dots spread along the hulls, away from the (0,0) and (1,1) corners all hulls share.
    inner = [d for d in dots if 0.02 < d["fpr"] < 0.95]
    assert len(inner) >= 5, (
        f"found only {len(inner)} hull-vertex dots the pointer can reach: {dots}"
    )
    picks = [inner[round(k * (len(inner) - 1) / 4)] for k in range(5)]
    state = page.evaluate(_js(_HOVER_STATE))
    assert (
        "threshold" not in (state["info"] or "")
        and state["rocHl"] is None
        and state["costHl"] is None
    ), f"hover info or highlights before any hover: {state}"
    roc_area = page.locator(".costwidget-roc svg.svg-figure .plotarea_events").bounding_box()
    latencies = []
    for dot in picks:
        before = state
        t0 = time.perf_counter()
        page.mouse.move(dot["cx"], dot["cy"])
        # bqplot shows the tooltip at once, with the old text: wait for the kernel's new text in it.
        _wait(
            page,
            _until(
                _HOVER_STATE,
                "s.tooltip && s.tooltip.includes('threshold') && "
                "s.tooltip !== arg && s.info === s.tooltip",
            ),
            before["info"],
        )
        latencies.append(time.perf_counter() - t0)
        # Then wait for the whole expected state (never for a fixed time): the ring on the
        # hovered dot and the cost-pane highlight moved. On time-out the asserts say what is off.
        _wait(
            page,
            _until(
                _HOVER_STATE,
                "s.info === s.tooltip && s.rocHl && s.costHl && "
                "s.costHl !== arg.costHl && "
                "Math.abs(s.rocHl[0] - arg.cx) < 3 && "
                "Math.abs(s.rocHl[1] - arg.cy) < 3",
            ),
            {"costHl": before["costHl"], "cx": dot["cx"], "cy": dot["cy"]},
        )
        state = page.evaluate(_js(_HOVER_STATE))
        info = state["info"] or ""
        where = f"hovering the dot at FPR {dot['fpr']:.3f}, TPR {dot['tpr']:.3f}: {state}"
        assert info != before["info"] and all(
            k in info for k in ("threshold", "FPR", "TPR", "NEC")
        ), f"hover info (class costwidget-hover) not updated {where}"
        assert state["tooltip"] == info, f"the bqplot tooltip does not show the hover info {where}"
        assert (
            abs(_number("FPR", info) - dot["fpr"]) < 0.02
            and abs(_number("TPR", info) - dot["tpr"]) < 0.02
        ), f"hover info is for another vertex {where}"
        assert (
            state["rocHl"] is not None
            and max(abs(state["rocHl"][0] - dot["cx"]), abs(state["rocHl"][1] - dot["cy"])) < 3
        ), f"ROC highlight ring not on the hovered dot {where}"
        assert state["costHl"] is not None and state["costHl"] != before["costHl"], (
            f"cost-pane highlight line not shown or not moved {where}"
        )
        # Leaving the dot for an empty spot of ROC space (FPR 0.9, TPR 0.1) hides the tooltip.
        page.mouse.move(
            roc_area["x"] + 0.9 * roc_area["width"], roc_area["y"] + 0.9 * roc_area["height"]
        )
        _wait(page, _js("return !tooltipShown();"))
        assert page.evaluate(_js("return !tooltipShown();")), (
            f"tooltip still shown after leaving {where}"
        )
    return latencies


# The PCF readout shows `arg.target` (to 0.01) and the one operating line is at client x `arg.x`.
_AT_TARGET = (
    "s.pcf && Math.abs(parseFloat(s.pcf.replace(/^[^0-9.-]*/, '')) - arg.target) < 0.01 "
    "&& s.op.length === 1 && Math.abs(s.op[0] - arg.x) < arg.tol"
)


def _check_click(page) -> list[float]:
    """Real single clicks in the cost pane: the PCF readout and the operating line go to the
    pointer's x, and moving the pointer on afterwards changes nothing."""
    state = page.evaluate(_js(_COST_STATE))
    ax, (_x0, y0, _w, h) = state["axis"], state["area"]
    assert ax is not None and state["pcf"] is not None, (
        f"cost pane axis or PCF readout missing: {state}"
    )
    assert len(state["op"]) == 1, f"expected one operating line in the cost pane: {state}"
    y = y0 + 0.6 * h  # below the legend (top right); in the never-use region at the edges

    def px(pcf):
        return ax["p0"] + (pcf - ax["v0"]) / ax["perPx"]

    latencies = []
    for target in (0.15, 0.7, 0.42, 0.85):
        before = page.evaluate(_js(_COST_STATE))
        x = px(target)
        t0 = time.perf_counter()
        page.mouse.click(x, y)
        _wait(page, _until(_COST_STATE, "s.pcf !== arg"), before["pcf"])
        latencies.append(time.perf_counter() - t0)
        # The whole expected state: the readout at the clicked x and the operating line there.
        _wait(
            page,
            _until(_COST_STATE, _AT_TARGET),
            {"x": x, "target": target, "tol": 0.01 / ax["perPx"]},
        )
        after = page.evaluate(_js(_COST_STATE))
        where = (
            f"clicking the cost pane at PCF {target} (x = {x:.1f} px): "
            f"before {before}, after {after}"
        )
        assert after["pcf"] != before["pcf"], f"PCF readout did not change {where}"
        assert abs(_number("PCF(+) =", after["pcf"]) - target) < 0.01, (
            f"PCF readout is not the clicked x {where}"
        )
        assert (
            len(after["op"]) == 1
            and after["op"] != before["op"]
            and abs(after["op"][0] - x) < 0.01 / ax["perPx"]
        ), f"operating line not moved to the click {where}"
        page.mouse.move(px(0.5), y - 30, steps=4)
        # A check that nothing happens: a fixed pause is the only wait there is for that.
        page.wait_for_timeout(300)
        assert page.evaluate(_js(_COST_STATE))["pcf"] == after["pcf"], (
            f"the operating point follows the pointer after a click {where}"
        )
    return latencies


# The drag handle: the last mark of the cost pane (a triangle at the foot of the operating line).
_HANDLE = r"""
  const dot = markGroups('.costwidget-cost').pop().querySelector('.dot');
  return dot && shown(dot) ? centre(dot) : null;
"""


def _check_drag(page) -> float:
    """A real drag of the handle moves the operating point continuously; returns the latency."""
    start = page.evaluate(_js(_HANDLE))
    state = page.evaluate(_js(_COST_STATE))
    ax = state["axis"]
    assert start is not None, "no drag handle in the cost pane"
    target = 0.3
    x = ax["p0"] + (target - ax["v0"]) / ax["perPx"]
    t0 = time.perf_counter()
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(x, start[1], steps=8)
    page.mouse.up()
    _wait(
        page, _until(_COST_STATE, _AT_TARGET), {"x": x, "target": target, "tol": 0.01 / ax["perPx"]}
    )
    latency = time.perf_counter() - t0
    after = page.evaluate(_js(_COST_STATE))
    where = f"dragging the handle from {start} to x = {x:.1f} px: before {state}, after {after}"
    assert abs(_number("PCF(+) =", after["pcf"]) - target) < 0.01, f"PCF is not the drop x {where}"
    assert len(after["op"]) == 1 and abs(after["op"][0] - x) < 0.01 / ax["perPx"], (
        f"operating line not at the drop x {where}"
    )
    return latency


# Dots on the envelope pieces of the cost pane (segment_hover, default_size=16, ~4.5 px).
_SEGMENT_DOTS = r"""
  const out = [];
  svgOf('.costwidget-cost', 'svg-figure').querySelectorAll('.dot').forEach(d => {
    const b = d.getBoundingClientRect();
    if (b.width === 0 || b.width > 6 || !shown(d)) return;
    const [cx, cy] = centre(d);
    if (document.elementFromPoint(cx, cy) === d) out.push([cx, cy]);
  });
  return out;
"""


def _check_cost_pane_hover(page) -> None:
    """Hovering an envelope piece's dot in the cost pane shows that vertex's info too."""
    dots = page.evaluate(_js(_SEGMENT_DOTS))
    assert len(dots) >= 4, (
        f"the pointer reaches only {len(dots)} envelope-piece dots in the cost pane"
    )
    before = page.evaluate(_js(_HOVER_STATE))
    page.mouse.move(*dots[len(dots) // 2])
    _wait(
        page,
        _until(_HOVER_STATE, "s.info && s.info.includes('threshold') && s.info !== arg"),
        before["info"],
    )
    after = page.evaluate(_js(_HOVER_STATE))
    assert after["info"] != before["info"] and "threshold" in (after["info"] or ""), (
        f"hovering an envelope-piece dot in the cost pane showed nothing: {before} -> {after}"
    )
    assert after["costHl"] is not None, f"no cost-pane highlight after hovering a piece: {after}"


# The PCF readout shows the PCF(+) of the p(+) slider and cost boxes: the kernel has answered.
_CONTROLS_AGREE = "Number.isFinite(s.pcf) && Math.abs(s.pcf - s.expected) < 5e-5"

# The state the tour leaves, as far as the page can say: nothing computing, the fold-spread
# bands (cost marks arg.fold) and the bootstrap bands (cost marks arg.bands) drawn exactly when
# their boxes are ticked, the readout table, and the PCF readout agreeing with the controls.
# (Which boxes the tour leaves ticked is the notebook's business, not this test's.)
_TOUR_DONE = (
    r"""
  const groups = markGroups('.costwidget-cost');
  const drawn = i => { const a = groups[i] && groups[i].querySelector('path.area');
                       return Boolean(a && shown(a) && (a.getAttribute('d') || '')); };
  const ticked = text => { const box = Array.from(document.querySelectorAll(
      '.costwidget .widget-checkbox')).find(b => b.innerText.trim() === text);
    const input = box && box.querySelector('input'); return Boolean(input && input.checked); };
  const c = (() => { """
    + _CONTROLS
    + r""" })();
  return {
    fold: arg.fold.map(drawn), foldOn: ticked('fold spread'),
    bands: arg.bands.map(drawn), bandsOn: ticked('bands'),
    busy: (document.querySelector('.costwidget .costwidget-busy') || {}).innerText,
    readout: document.querySelectorAll('.costwidget-readout table').length, ...c};
"""
)
_TOUR_SETTLED = (
    "s.fold.every(d => d === s.foldOn) && s.bands.every(d => d === s.bandsOn) && "
    "!s.busy && s.readout === 1 && " + _CONTROLS_AGREE
)


@pytest.fixture(scope="module")
def cost_marks():
    """Where the fold-spread and band marks are in the cost pane's marks, as the widget the tour
    shows composes them (`w.figures.cost.marks`), computed by the widget itself."""
    import costwidget as cw

    w = cw.demo()
    try:
        marks = w.figures.cost.marks
        return {
            "fold": [marks.index(m) for m in w.fold_spread_layer.marks],
            "bands": [marks.index(m) for m in w.band_layer.marks],
        }
    finally:
        w.close()


def test_tour_runs_and_panes_follow_keyboard_and_mouse(lab, browser, artifacts, cost_marks):
    # A copy (never autosave over ours) with one more cell: it prints the widget's root class,
    # by which the test finds the widget's live link.
    tour = nbformat.read(TOUR, as_version=4)
    tour.cells.append(nbformat.v4.new_code_cell(print_root_class("w")))
    nbformat.write(tour, lab.root / "tour.ipynb")
    # Tall enough for the whole widget to be on screen (and in the screenshot).
    page = browser.new_page(viewport={"width": 1300, "height": 2200})
    errors = console_errors(page)
    try:
        lab.run_notebook(page, "tour.ipynb")
        roc = ".costwidget-roc svg.svg-figure"
        cost = ".costwidget-cost svg.svg-figure"
        try:
            page.wait_for_selector(roc, timeout=60_000)
            page.wait_for_selector(cost, timeout=60_000)
        except Exception:
            raise AssertionError(f"the panes did not render; console errors: {errors}") from None
        # Every cell has run (the last one sets C(-|+) = 1); wait for the page to have drawn it.
        _wait(page, _until(_TOUR_DONE, "s.fn === 1 && " + _TOUR_SETTLED), cost_marks)
        done = page.evaluate(_js(_TOUR_DONE), cost_marks)
        assert (
            done["fold"]
            and all(d == done["foldOn"] for d in done["fold"])
            and all(d == done["bandsOn"] for d in done["bands"])
            and not done["busy"]
        ), f"the bands on screen are not the ones ticked, or still computing: {done}"

        n_roc_lines = page.locator(f"{roc} path.line").count()
        n_cost_lines = page.locator(f"{cost} path.line").count()
        n_roc_dots = page.locator(f"{roc} .dot").count()
        print(
            f"\nROC pane: {n_roc_lines} line paths, {n_roc_dots} dots; cost pane: {n_cost_lines} line paths"
        )
        # 4 classifiers: ROC curve + hull each, diagonal, iso lines (4), constraint line.
        assert n_roc_lines >= 4 * 2 + 1 + 4
        assert n_roc_dots >= 4 * 3  # hull vertices plus the chosen vertices
        # Envelopes (4), trivial lines (2), combined envelope, operating line, winner strip pieces.
        assert n_cost_lines >= 4 + 2 + 1 + 1
        assert page.locator(".costwidget-readout table").count() == 1
        # The notebook's last cell set cost_fn = 1 from Python: the control shows it (no echo loop).
        assert float(page.evaluate(_js(_CONTROLS))["fnText"]) == 1.0

        handle = page.locator(".costwidget-p-pos .noUi-handle").first
        handle.focus()
        latencies = []
        for key in ["ArrowRight"] * 5 + ["ArrowLeft"] * 5:
            roc_before = page.evaluate(_PATHS_JS, f"{roc} path.line")
            cost_before = page.evaluate(_PATHS_JS, f"{cost} path.line")
            p_before = page.evaluate(_js(_CONTROLS))["p"]
            t0 = time.perf_counter()
            page.keyboard.press(key)
            page.wait_for_function(
                "([sel_r, sel_c, r, c]) => {"
                " const f = s => Array.from(document.querySelectorAll(s)).map(p => p.getAttribute('d')).join('|');"
                " return f(sel_r) !== r && f(sel_c) !== c; }",
                arg=[f"{roc} path.line", f"{cost} path.line", roc_before, cost_before],
                timeout=15_000,
                polling=5,
            )
            latencies.append(time.perf_counter() - t0)
            # The whole answer to this key press before the next one: the slider moved one step
            # and the PCF readout shows the PCF(+) it makes.
            _wait(page, _until(_CONTROLS, "s.p !== arg && " + _CONTROLS_AGREE), p_before)
            now = page.evaluate(_js(_CONTROLS))
            assert (
                now["p"]
                == pytest.approx(p_before + (0.001 if key == "ArrowRight" else -0.001), abs=1e-9)
                and abs(now["pcf"] - now["expected"]) < 5e-5
            ), f"after {key} from p(+) = {p_before}: {now}"

        # The page draws each key press at once and sends it to the kernel, which takes it
        # later on a loaded machine. A hover describes the kernel's operating point and is
        # cleared when that point moves, so hover once the kernel has taken every move: else a
        # late move clears the text the hover just wrote (a failed run under load).
        rc = root_class_shown(page, "w")
        taken = (
            f"() => {{ const l = {live(rc)}; return l !== undefined && l.acked() === l.sent(); }}"
        )
        assert wait_for_state(page, bound(rc)), "the widget's live link never bound"
        assert wait_for_state(page, taken, timeout=60_000), (
            "the kernel has not taken the page's key presses: "
            + str(page.evaluate(f"() => {{ const l = {live(rc)}; return [l.sent(), l.acked()]; }}"))
        )
        hover_latencies = _check_hover(page)
        _check_cost_pane_hover(page)
        click_latencies = _check_click(page)
        drag_latency = _check_drag(page)
        page.locator(".costwidget").first.screenshot(path=str(artifacts / "tour.png"))
    except BaseException:
        page.screenshot(path=str(artifacts / "failure.png"), full_page=True)
        raise
    finally:
        page.close()
    for what, lats, unit in (
        ("key press -> changed ROC and cost SVG", latencies, "presses"),
        ("hover on a hull vertex -> tooltip with its info", hover_latencies, "dots"),
        ("click in the cost pane -> new PCF readout", click_latencies, "clicks"),
    ):
        print(
            f"{what}: median {statistics.median(lats) * 1e3:.0f} ms, min {min(lats) * 1e3:.0f} ms, "
            f"max {max(lats) * 1e3:.0f} ms over {len(lats)} {unit}"
        )
    print(
        f"drag of the operating-point handle -> operating line at the drop: {drag_latency * 1e3:.0f} ms"
    )
    assert not errors, f"browser console errors: {errors}"
