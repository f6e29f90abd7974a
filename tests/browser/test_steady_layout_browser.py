"""Nothing moves under the pointer (issue 29, item 4), in JupyterLab with a kernel attached.

Ticking "bands" once showed the busy sign above the controls (every control 32 px down), then a
legend row above the panes (the panes 32 px down), and both jumped back when the bands were
drawn; a refusal's banner pushed the controls down too. Here a notebook shows a widget of six
models over 20,000 cases (three models' bands take seconds to compute, so "while they compute" is a state the page
is in, not a moment), and the box of every slider, field, checkbox, button, drop-down and pane,
relative to the widget's top left, is measured:

* before the bands, while the busy sign shows (measured in the very frame it is seen), after
  they are drawn (the legend names them), and after they are switched off again;
* while a refusal shows in the error banner: a cost of -1 typed into its field, and a refusal
  as long as a paragraph shown by the kernel;

at 1400 px (panes side by side) and 900 px (the file browser open: panes stacked). Every box
must be where it was, to 0.5 px. Screenshots of each state go to tests/artifacts/steady-*.png.
Every wait is on the page's state, never on time.
"""

from __future__ import annotations

import nbformat
import pytest
from lab_server import console_errors, wait_for_state
from widget_dom import bound, print_root_class, root_class_shown

pytestmark = pytest.mark.timeout(900)

BUILD = """\
import numpy as np
from costwidget.widget import CostWidget
rng = np.random.default_rng(5)
y = rng.random(20_000) < 0.3
scores = {f"model {i}": y + rng.normal(0, 0.7 + 0.1 * i, y.size) for i in range(6)}
w = CostWidget.from_predictions(y, scores, p_pos=0.3)
w.widget
"""

# The box of every control and pane, relative to the widget's top left, keyed by what it is
# (its kind, its label, and its rank among the same keys). Hidden ones are left out.
_BOXES = r"""
  const root = document.querySelector('.costwidget');
  if (!root) return null;
  const r0 = root.getBoundingClientRect();
  const sel = ['.widget-slider', 'input', 'select', 'button', '.widget-checkbox',
               '.costwidget-roc', '.costwidget-cost'].join(', ');
  const out = {}, seen = {};
  for (const el of root.querySelectorAll(sel)) {
    if (el.closest('.costwidget-status')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let name;
    if (el.matches('.costwidget-roc, .costwidget-cost')) name = `pane ${el.className.match(/costwidget-(roc|cost)\b/)[1]}`;
    else {
      const host = el.closest('.jupyter-widgets') || el;
      const label = host.querySelector('.widget-label, .widget-label-basic span');
      const text = (label && label.textContent.trim()) || el.textContent.trim()
                   || el.getAttribute('placeholder') || '';
      name = `${el.tagName.toLowerCase()} ${text.slice(0, 40)}`;
    }
    seen[name] = (seen[name] || 0) + 1;
    out[`${name} #${seen[name]}`] = [r.left - r0.left, r.top - r0.top, r.width, r.height];
  }
  return out;
"""

# Shown in this frame: the busy sign, the banner.
_BUSY = r"""
  const label = document.querySelector('.costwidget .costwidget-busy');
  return Boolean(label && label.getClientRects().length && label.innerText.includes('computing'));
"""
_BANNER = r"""
  const b = document.querySelector('.costwidget .costwidget-errors');
  return Boolean(b && b.getClientRects().length && b.innerText.includes('cost'));
"""
# The bands drawn and named in the legend (not in its hidden room), nothing computing.
_DRAWN = r"""
  const legend = document.querySelector('.costwidget .costwidget-legend-fixed');
  const table = document.querySelector('.costwidget .costwidget-band-readout table');
  return !busy() && Boolean(legend && legend.querySelector('.costwidget-legend-bands') && table
                            && !table.innerText.includes('computing'));
"""
_GONE = r"""
  const legend = document.querySelector('.costwidget .costwidget-legend-fixed');
  return !busy() && Boolean(legend && !legend.querySelector('.costwidget-legend-bands'));
"""


def _fn(body: str) -> str:
    return (
        "(arg) => { const boxes = () => {"
        + _BOXES
        + "}; const busy = () => {"
        + _BUSY
        + "}; const banner = () => {"
        + _BANNER
        + "};"
        + body
        + "}"
    )


# The boxes once they have not changed for 5 animation frames in a row (the layout has settled:
# a condition on the page, not a delay), when `arg` (a predicate body) holds.
_SETTLED = (
    r"""(arg) => new Promise((done) => {
  const boxes = () => {"""
    + _BOXES
    + r"""};
  const busy = () => {"""
    + _BUSY
    + r"""};
  const banner = () => {"""
    + _BANNER
    + r"""};
  const holds = new Function('busy', 'banner', arg);
  let last = null, same = 0;
  const step = () => {
    const now = holds(busy, banner) ? JSON.stringify(boxes()) : null;
    same = now !== null && now === last ? same + 1 : 0;
    last = now;
    if (same >= 5) done(JSON.parse(now)); else requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})"""
)


def _settled(page, predicate: str, timeout=120_000) -> dict:
    """The boxes once ``predicate`` (a JS function body over ``busy()`` and ``banner()``) holds
    and they have stayed the same for 5 animation frames in a row."""
    return page.evaluate(
        f"(p) => Promise.race([({_SETTLED})(p), new Promise((_, no) => "
        f"setTimeout(() => no(new Error('not reached: ' + p)), {timeout}))])",
        predicate,
    )


def _during_bands(page) -> dict:
    """The boxes in the first frame where the busy sign shows (polled every animation frame)."""
    handle = page.wait_for_function(
        _fn("return busy() ? boxes() : null;"), polling="raf", timeout=120_000
    )
    return handle.json_value()


def _same(where: str, before: dict, now: dict) -> None:
    assert now, f"{where}: no controls found"
    assert set(now) == set(before), (
        f"{where}: controls appeared or vanished: {set(now) ^ set(before)}"
    )
    moved = {
        k: (before[k], now[k])
        for k in before
        if max(abs(a - b) for a, b in zip(before[k], now[k])) > 0.5
    }
    assert not moved, f"{where}: {len(moved)} boxes moved (before, now): {moved}"


def _run_python(page, code: str) -> None:
    """Run ``code`` (one line) in the notebook's last cell, in place; wait until it has run."""
    cell = page.locator(".jp-Notebook .jp-CodeCell").last
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+a")
    page.keyboard.type(code)
    count = cell.locator(".jp-InputPrompt").inner_text()
    page.keyboard.press("Control+Enter")
    assert wait_for_state(
        page,
        "([c]) => { const cells = document.querySelectorAll('.jp-Notebook .jp-CodeCell');"
        " const p = cells[cells.length - 1].querySelector('.jp-InputPrompt').textContent;"
        " return /\\[\\d+\\]/.test(p) && p !== c; }",
        [count],
        timeout=60_000,
    )


def _unexpected(errors) -> list:
    """The page's errors but two that are not this test's subject: the page logs the refusal
    of a typed value (besides the banner), and anywidget (0.9) reports "Failed to initialize
    model" when the live link's initialize takes over 2 s (its AbortSignal.timeout(2000)),
    though the link binds once it ends (seen here on a busy machine; the live link's tests
    own that)."""
    known = (
        "costwidget: RangeError: cost_fn",
        "pageerror: [anywidget] Failed to initialize model.",
    )
    return [e for e in errors if not e.startswith(known)]


def _shot(page, artifacts, name):
    page.locator(".costwidget").first.screenshot(path=str(artifacts / f"steady-{name}.png"))


@pytest.fixture(scope="module")
def steady_page(lab, browser):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(BUILD),
        nbformat.v4.new_code_cell(print_root_class("w")),
        nbformat.v4.new_code_cell("1"),
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, lab.root / "steady.ipynb")
    page = browser.new_page(viewport={"width": 1400, "height": 2400})
    errors = console_errors(page)
    lab.run_notebook(page, "steady.ipynb")
    page.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=120_000)
    rc = root_class_shown(page)
    assert wait_for_state(page, bound(rc), timeout=60_000), "the live link never bound"
    yield page, errors
    page.close()


@pytest.mark.parametrize("width", [1400, 900])
def test_bands_move_no_control_and_no_pane(steady_page, artifacts, width):
    page, errors = steady_page
    # A classifier's bootstrap replicates are kept once computed: three models of their own per
    # width, so that the bands compute for seconds.
    shown = [f"model {i}" for i in ((0, 1, 2) if width == 1400 else (3, 4, 5))]
    _run_python(page, f"w.update(visible={shown!r}, band_level=0.9)")
    page.set_viewport_size({"width": width, "height": 2400})
    before = _settled(page, "return !busy() && !banner();")
    _shot(page, artifacts, f"{width}-before")
    page.locator(".costwidget .widget-checkbox", has_text="bands").first.locator("input").click()
    during = _during_bands(page)
    _shot(page, artifacts, f"{width}-during")
    _same(f"{width} px, while the bands compute", before, during)
    after = _settled(page, _DRAWN, timeout=300_000)
    _shot(page, artifacts, f"{width}-after")
    _same(f"{width} px, once the bands are drawn", before, after)
    page.locator(".costwidget .widget-checkbox", has_text="bands").first.locator("input").click()
    off = _settled(page, _GONE)
    _same(f"{width} px, once the bands are off again", before, off)
    assert not _unexpected(errors), errors


@pytest.mark.parametrize("width", [1400, 900])
def test_a_refusal_in_the_banner_moves_nothing(steady_page, artifacts, width):
    page, errors = steady_page
    page.set_viewport_size({"width": width, "height": 2400})
    before = _settled(page, "return !busy() && !banner();")
    field = page.locator(".costwidget .costwidget-cost-fn input").first
    field.fill("-1")
    field.press("Enter")
    typed = _settled(page, "return banner();")
    _shot(page, artifacts, f"{width}-refused-typed")
    _same(f"{width} px, a typed refusal in the banner", before, typed)
    field.fill("2")  # a good change clears the banner
    field.press("Enter")
    _same(f"{width} px, the banner cleared", before, _settled(page, "return !banner();"))
    # A refusal as long as a paragraph, shown by the kernel (a value set from Python raises in
    # its cell instead): it may scroll inside the banner, never push the controls.
    _run_python(
        page,
        'w.errors.show(ValueError("cost refused: " + "far too long to fit on one '
        'line of the banner, " * 8), context="cost_fn")',
    )
    long = _settled(page, "return banner();")
    _shot(page, artifacts, f"{width}-refused-long")
    _same(f"{width} px, a long refusal in the banner", before, long)
    _run_python(page, "w.cost_fn = 1.0")
    _same(f"{width} px, the banner cleared", before, _settled(page, "return !banner();"))
    assert not _unexpected(errors), errors
