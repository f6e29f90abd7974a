"""Real-browser test of the range of interest in the real widget: brushing in the cost pane, the
range table, the typed range and the thesis view.

JupyterLab + Debian's chromium driven by Playwright, on a scratch notebook showing
``cw.demo()``. With real mouse events: turning the brush on in the range-of-interest controls
and dragging in the cost pane from PCF 0.31 to 0.56 shades the range while the button is still
down (and changes nothing else yet); the release sets the range, snapped to [0.30, 0.55], in
the widget's range table (one row per classifier, one recommended), the range box, the shading
and the brush; with the brush off a click sets the operating point again, exactly on the
clicked target (PCF(+) from p(+) and the costs a multiple of 1/500); a typed range moves
the table and the shading; the thesis view draws both charts with ``FPcost/FNcost`` tick
labels and the range shaded at x = 1 - PCF(+). No browser console errors. Screenshots of the
widget and of the thesis view go to tests/artifacts/.

Every wait is on the whole expected state of the page, never on time. The browser gate (skip
or CI failure) and the JupyterLab launcher are in conftest.py.
"""

from __future__ import annotations

import json
import re

import pytest
from lab_server import console_errors, wait_for_state
from widget_dom import CONTROLS

from costwidget.widget.tools.operating_point import CLICK_STEPS
from costwidget.widget.tools.range_of_interest import SHADE_FILL

# Cell 1 is what a user types. Cell 2 says which of the cost figure's marks is the shading:
# the test finds it by its place in `w.figures.cost.marks`, computed by the widget itself.
CELLS = [
    "import costwidget as cw\nw = cw.demo()\nw",
    "print('shade mark', w.figures.cost.marks.index(w.range_tool.shade))",
]

# Shared page helpers. `_js(body)` is `(arg) => { helpers; body }`.
_HELPERS = r"""
const svgOf = (fig, cls) => document.querySelector(`${fig} svg.${cls}`);
const shown = el => {
  for (let e = el; e && e.tagName !== 'svg'; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.display === 'none' || s.visibility === 'hidden') return false;
  }
  return true;
};
// A figure's mark groups in the order of Figure.marks (bqplot draws them in that order).
const markGroups = fig => {
  const events = svgOf(fig, 'svg-figure').querySelector('.plotarea_events');
  return Array.from(events.nextElementSibling.children)
    .filter(g => g.tagName === 'g' && !g.classList.contains('g_legend'));
};
// Client x -> data map of a figure's horizontal axis, from its first and last tick.
const xAxis = fig => {
  const bg = svgOf(fig, 'svg-background');
  if (!bg) return null;
  for (const ax of bg.querySelectorAll('g.axis')) {
    const ts = Array.from(ax.querySelectorAll('g.tick')).map(t => {
      const b = t.querySelector('line').getBoundingClientRect();
      return [parseFloat(t.textContent), b.x + b.width / 2, b.y + b.height / 2]; });
    if (ts.length >= 2 && Math.abs(ts[0][2] - ts[ts.length - 1][2]) < 1) {
      const [a, b] = [ts[0], ts[ts.length - 1]];
      return {v0: a[0], p0: a[1], perPx: (b[0] - a[0]) / (b[1] - a[1])};
    }
  }
  return null;
};
// The data-x extent [lo, hi] of an element, or null when it is hidden or empty.
const extent = (el, ax) => {
  if (!el || !shown(el)) return null;
  const r = el.getBoundingClientRect();
  if (r.width <= 0) return null;
  return [ax.v0 + (r.x - ax.p0) * ax.perPx, ax.v0 + (r.x + r.width - ax.p0) * ax.perPx];
};
"""

# The range of interest as the page shows it (null until the cost pane has its axes): the cost
# x axis map and plot area; the shading (the cost figure's mark number arg.shadeMark) and its
# fill; the brush (toggle, overlay, selection); the range table, its rows and the range box;
# the PCF readout, the p(+) slider's readout and the two cost boxes (full precision); the
# thesis view's MTMCS tick labels, lines, shading (the area filled with the shading's colour,
# arg.fill) and caption.
_STATE = (
    r"""
  const fig = '.costwidget .costwidget-cost', ax = xAxis(fig);
  const svg = svgOf(fig, 'svg-figure');
  if (!ax || !svg) return null;
  const events = svg.querySelector('.plotarea_events'), r = events.getBoundingClientRect();
  const shadeGroup = markGroups(fig)[arg.shadeMark];
  // A fill="inside" Lines mark is filled on its path.line (its path.area stays empty).
  const shadePath = shadeGroup && shadeGroup.querySelector('path.line');
  const interaction = events.nextElementSibling.nextElementSibling;
  const selection = interaction && interaction.querySelector('.selection');
  const toggle = Array.from(document.querySelectorAll('.costwidget-range button'))
    .find(b => b.innerText.includes('brush range'));
  const table = document.querySelector('.costwidget .costwidget-range-table');
  const rows = Array.from(document.querySelectorAll(
    '.costwidget table.costwidget-range-table tbody tr')).map(tr => tr.innerText);
  const box = document.querySelector('.costwidget-range input[type="text"]');
  const pcf = document.querySelector('.costwidget .costwidget-pcf');
  const controls = (() => { """
    + CONTROLS
    + r""" })();
  const m = '.costwidget .costwidget-mtmcs', mAx = xAxis(m), mSvg = svgOf(m, 'svg-figure');
  const caption = document.querySelector('.costwidget .costwidget-thesis-caption');
  // Shown, drawn lines of a figure other than the range's shading.
  const curves = f => Array.from(document.querySelectorAll(`${f} svg.svg-figure path.line`))
    .filter(p => shown(p) && (p.getAttribute('d') || '').length > 10 &&
                 getComputedStyle(p).fill !== arg.fill).length;
  return {
    ax, area: [r.x, r.y, r.width, r.height],
    shade: extent(shadePath, ax), shadeFill: shadePath ? getComputedStyle(shadePath).fill : null,
    brushOn: Boolean(toggle && toggle.classList.contains('mod-active')),
    overlay: Boolean(interaction && interaction.querySelector('.overlay')),
    brush: selection && selection.getAttribute('display') !== 'none' ? extent(selection, ax) : null,
    table: table ? table.innerText : '', rows, box: box ? box.value : null,
    pcf: pcf ? parseFloat(pcf.innerText.replace(/^[^0-9.-]*/, '')) : null,
    controls,
    ticks: mAx ? Array.from(svgOf(m, 'svg-background').querySelectorAll('g.tick text'))
      .map(t => t.textContent) : [],
    mtmcsLines: curves(m), thresholdLines: curves('.costwidget .costwidget-thresholds'),
    mtmcsShade: mSvg ? extent(Array.from(mSvg.querySelectorAll('path.line'))
      .find(p => getComputedStyle(p).fill === arg.fill), mAx) : null,
    caption: caption ? caption.innerText : '',
  };
"""
)


def _js(body: str) -> str:
    return "(arg) => {" + _HELPERS + body + "}"


def _until(condition: str) -> str:
    """JS predicate: `condition` over `s` (the page state, never null there) and `arg`."""
    return _js(f"const s = (() => {{ {_STATE} }})(); return Boolean(s && ({condition}));")


# `s.shade` / `s.brush` / `s.mtmcsShade` within `tol` of [lo, hi] (JS, for the waits).
def _near(what: str, lo: float, hi: float, tol: float) -> str:
    return f"{what} && Math.abs({what}[0] - {lo}) < {tol} && Math.abs({what}[1] - {hi}) < {tol}"


def _notebook(root) -> str:
    cells = [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": f"range{i}",
            "metadata": {},
            "outputs": [],
            "source": src,
        }
        for i, src in enumerate(CELLS)
    ]
    nb = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (root / "range.ipynb").write_text(json.dumps(nb))
    return "range.ipynb"


def test_brushing_in_the_widget_sets_the_range_of_interest(lab, browser, artifacts):
    page = browser.new_page(viewport={"width": 1300, "height": 2600})
    errors = console_errors(page)
    try:
        lab.run_notebook(page, _notebook(lab.root))
        out = page.locator(".jp-OutputArea-output", has_text="shade mark").first
        out.wait_for(timeout=60_000)
        found = re.search(r"shade mark (\d+)", out.inner_text())
        assert found, f"the notebook did not say which mark is the shading: {out.inner_text()!r}"
        fill = "rgb({}, {}, {})".format(*(int(SHADE_FILL[i : i + 2], 16) for i in (1, 3, 5)))
        arg = {"shadeMark": int(found.group(1)), "fill": fill}

        def state():
            return page.evaluate(_js(_STATE), arg)

        wait_for_state(
            page,
            _until(
                "s.table.includes('No range of interest') && s.box === '' "
                "&& s.pcf !== null && s.shadeFill"
            ),
            arg,
            timeout=60_000,
        )
        s = state()
        assert s is not None, "the widget's cost pane did not render"
        assert s["shade"] is None and "No range of interest" in s["table"] and s["box"] == "", s
        # The mark found by its place in w.figures.cost.marks is the range's shading.
        assert s["shadeFill"] == fill, f"mark {arg['shadeMark']} is not the shading: {s}"
        assert not s["brushOn"] and not s["overlay"], f"the brush is on before the toggle: {s}"

        # Brush on, in the range-of-interest controls: the cost pane gets the brush overlay.
        page.get_by_role("button", name="brush range").click()
        wait_for_state(page, _until("s.brushOn && s.overlay"), arg)
        page.locator(".costwidget .costwidget-cost").scroll_into_view_if_needed()
        s = state()
        assert s["brushOn"] and s["overlay"], f"no brush in the cost pane after the toggle: {s}"

        # A real drag from PCF 0.31 to 0.56, at mid height.
        ax, (_x0, y0, _w, h) = s["ax"], s["area"]
        y = y0 + 0.5 * h

        def px(v):
            return ax["p0"] + (v - ax["v0"]) / ax["perPx"]

        page.mouse.move(px(0.31), y)
        page.mouse.down()
        page.mouse.move(px(0.45), y, steps=6)
        page.mouse.move(px(0.56), y, steps=6)
        # Shaded while brushing (the brush's own rectangle, and the widget's shading once the
        # kernel has seen the moving selection), before the button is released.
        wait_for_state(
            page,
            _until(
                _near("s.brush", 0.31, 0.56, 0.01) + " && " + _near("s.shade", 0.31, 0.56, 0.01)
            ),
            arg,
        )
        mid = state()
        assert mid["brush"] == pytest.approx([0.31, 0.56], abs=0.01), (
            f"no brush rectangle while dragging: {mid}"
        )
        assert mid["shade"] == pytest.approx([0.31, 0.56], abs=0.01), f"no live shading: {mid}"
        assert "No range of interest" in mid["table"] and mid["box"] == "", (
            f"the range changed before the release: {mid}"
        )
        page.mouse.up()
        # The release: the range snapped to the 0.05 grid, everywhere it is shown.
        wait_for_state(
            page,
            _until(
                "s.table.includes('[0.30, 0.55]') && s.box === '0.3, 0.55' "
                "&& s.rows.length === 4 && "
                + _near("s.shade", 0.30, 0.55, 0.005)
                + " && "
                + _near("s.brush", 0.30, 0.55, 0.005)
            ),
            arg,
        )
        after = state()
        assert "PCF(+) in [0.30, 0.55]" in after["table"], f"table not set by the brush: {after}"
        assert after["shade"] == pytest.approx([0.30, 0.55], abs=0.005), (
            f"shading not snapped to the grid: {after}"
        )
        assert after["brush"] == pytest.approx([0.30, 0.55], abs=0.005), (
            f"the brush is not on the snapped range: {after}"
        )
        assert after["box"] == "0.3, 0.55", f"the range box does not show the range: {after}"
        names = ("logistic regression", "random forest", "gradient boosting", "naive Bayes")
        assert len(after["rows"]) == 4 and all(any(n in r for r in after["rows"]) for n in names), (
            f"the range table has not one row per classifier: {after}"
        )
        assert sum("★" in r for r in after["rows"]) == 1 and "recommended" in after["table"], (
            f"not exactly one recommended classifier: {after}"
        )

        # Brush off: the overlay goes, and a click sets the operating point again.
        page.get_by_role("button", name="brush range").click()
        wait_for_state(page, _until("!s.brushOn && !s.overlay"), arg)
        off = state()
        assert not off["brushOn"] and not off["overlay"], f"the brush stays after the toggle: {off}"
        page.locator(".costwidget .costwidget-cost").scroll_into_view_if_needed()
        ax, (_x0, y0, _w, h) = off["ax"], off["area"]
        page.mouse.click(ax["p0"] + (0.7 - ax["v0"]) / ax["perPx"], y0 + 0.6 * h)
        wait_for_state(page, _until("Math.abs(s.pcf - 0.7) < 0.01"), arg)
        clicked = state()
        assert clicked["pcf"] == pytest.approx(0.7, abs=0.01), (
            f"a click with the brush off does not set the operating point: {clicked}"
        )
        # Where clicked: the click moves p(+) to 3 significant digits and keeps the costs
        # (issue 23), so the PCF(+) the controls make is next to 0.70 (the target, a multiple
        # of 1/CLICK_STEPS, within the rounding of p(+)) - not moved on by anything after it.
        c = clicked["controls"]
        p, fn, fp = c["p"], float(c["fnText"]), float(c["fpText"])
        exact = p * fn / (p * fn + (1 - p) * fp)
        assert (
            abs(exact - 0.7) < 1.0 / CLICK_STEPS + 0.001 and abs(float(f"{p:.3g}") - p) < 1e-12
        ), f"the operating point is at PCF(+) = {exact!r}, not at the clicked target: {clicked}"
        assert clicked["shade"] == pytest.approx([0.30, 0.55], abs=0.005), clicked

        # A typed range moves the table, the shading and the box.
        box = page.locator(".costwidget-range input[type='text']").first
        box.fill("0.2, 0.4")
        box.press("Enter")
        wait_for_state(
            page,
            _until(
                "s.table.includes('[0.20, 0.40]') && s.box === '0.2, 0.4' && "
                + _near("s.shade", 0.2, 0.4, 0.005)
            ),
            arg,
        )
        typed = state()
        assert (
            "PCF(+) in [0.20, 0.40]" in typed["table"]
            and typed["shade"] == pytest.approx([0.2, 0.4], abs=0.005)
            and typed["box"] == "0.2, 0.4"
        ), typed

        # The thesis view: both charts, FPcost/FNcost tick labels, the range at x = 1 - PCF(+).
        page.get_by_role("button", name="thesis view").click()
        wait_for_state(
            page,
            _until(
                "s.ticks.includes('0.25/0.75') && s.ticks.includes('0.50/0.50')"
                " && s.mtmcsLines >= 4 && s.thresholdLines >= 4 && "
                "s.caption.includes('x in [0.60, 0.80]') && "
                + _near("s.mtmcsShade", 0.6, 0.8, 0.005)
            ),
            arg,
            timeout=60_000,
        )
        thesis = state()
        assert "0.25/0.75" in thesis["ticks"] and "0.50/0.50" in thesis["ticks"], thesis
        assert thesis["mtmcsLines"] >= 4 and thesis["thresholdLines"] >= 4, (
            f"not every classifier drawn in the thesis view: {thesis}"
        )
        assert "x in [0.60, 0.80]" in thesis["caption"] and thesis["mtmcsShade"] == pytest.approx(
            [0.6, 0.8], abs=0.005
        ), f"the range is not shaded at x = 1 - PCF(+) in the MTMCS chart: {thesis}"
        widget = page.locator(".costwidget").first
        widget.scroll_into_view_if_needed()
        widget.screenshot(path=str(artifacts / "range.png"))
        page.locator(".costwidget-thesis").first.screenshot(
            path=str(artifacts / "range_thesis_view.png")
        )
    except BaseException:
        page.screenshot(path=str(artifacts / "range_failure.png"), full_page=True)
        raise
    finally:
        page.close()
    assert not errors, f"browser console errors: {errors}"
