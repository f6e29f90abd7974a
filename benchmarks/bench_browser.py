"""End-to-end latency in a real browser: input event -> the cost pane's operating-line SVG change.

    python benchmarks/bench_browser.py                 # the demo and 5 classifiers x 10^5 cases
    python benchmarks/bench_browser.py --data demo     # one of them
    python benchmarks/bench_browser.py --json out.json
    python benchmarks/bench_browser.py --exported      # the page w.to_html() writes, no kernel

JupyterLab runs a notebook that shows the widget; Debian's chromium (Playwright, never a
downloaded browser) then measures, with the page's own clock (``performance.now()``):

* arrow keys on the p(+) slider: from each keydown to the first change of the operating line;
* a mouse drag of the p(+) slider, one move every ~16 ms (60 Hz): for each value the slider
  showed, the time to the first drawing of the operating line at that value, how many of the
  values were drawn, and whether the last one was;
* the same drag while the bootstrap bands compute in the background (the "bands" box is ticked
  just before the drag).

The costs are 1:1, so PCF(+) = p(+) and the line's x is the slider's value. Latencies are
printed as median and p95. These are figures for the notes, never assertions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from lab_server import ARGS, CHROMIUM, run_all_cells, running_lab  # noqa: E402

BUILD = {
    "demo": "import costwidget as cw\nw = cw.demo(p_pos=0.3)\n",
    "5x1e5": (
        "import numpy as np, costwidget as cw\n"
        "rng = np.random.default_rng(0)\n"
        "y = rng.random(100_000) < 0.3\n"
        "scores = {f'm{k}': y * (0.6 + 0.2 * k) + rng.normal(size=y.size) for k in range(5)}\n"
        "w = cw.CostWidget.from_predictions(y, scores, p_pos=0.3)\n"
    ),
}

# Records every change of the cost pane's operating line (a thin, tall path in the theme's ink,
# the fill of the drag handle, the pane's last mark) with the page's clock and its client x, and
# every keydown / pointermove.
INSTRUMENT = r"""
() => {
  const svg = document.querySelector('.costwidget-cost svg.svg-figure');
  const area = () => svg.querySelector('.plotarea_events').getBoundingClientRect();
  const marks = svg.querySelector('.plotarea_events').nextElementSibling;
  const groups = Array.from(marks.children).filter(g => g.tagName === 'g'
                                                   && !g.classList.contains('g_legend'));
  const ink = getComputedStyle(groups[groups.length - 1].querySelector('.dot')).fill;
  const isOp = p => { const b = p.getBoundingClientRect(), r = area();
    return getComputedStyle(p).stroke === ink && b.width < 4 && b.height > r.height / 2; };
  window.__bench = {draws: [], inputs: []};
  new MutationObserver(muts => {
    const t = performance.now();
    for (const m of muts) {
      const p = m.target;
      if (p.tagName === 'path' && p.classList.contains('line') && isOp(p)) {
        const b = p.getBoundingClientRect();
        window.__bench.draws.push({t, x: b.x + b.width / 2});
      }
    }
  }).observe(svg, {attributes: true, attributeFilter: ['d'], subtree: true});
  // On the window, capturing: the live link's key handler (also there, registered first) stops
  // the key's propagation, not the other listeners of the window.
  for (const type of ['keydown', 'pointermove'])
    window.addEventListener(type, () => window.__bench.inputs.push({t: performance.now(), type}),
                            true);
}
"""

# Client pixel -> data map of the cost pane's x axis, from its first and last tick.
AXIS = r"""
() => {
  const svg = document.querySelector('.costwidget-cost svg.svg-background');
  for (const ax of svg.querySelectorAll('g.axis')) {
    const ticks = Array.from(ax.querySelectorAll('g.tick')).map(t => {
      const b = t.querySelector('line').getBoundingClientRect();
      return [parseFloat(t.textContent), b.x + b.width / 2, b.y + b.height / 2]; });
    if (ticks.length > 1 && Math.abs(ticks[0][2] - ticks[ticks.length - 1][2]) < 1) {
      const [a, b] = [ticks[0], ticks[ticks.length - 1]];
      return {v0: a[0], p0: a[1], perPx: (b[0] - a[0]) / (b[1] - a[1])};
    }
  }
  return null;
}
"""


# Whether the widget's busy sign (background work under way) is shown.
BUSY = r"""() => { const b = document.querySelector('.costwidget-busy');
  return !!b && getComputedStyle(b).display !== 'none' && b.offsetParent !== null; }"""


def _p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]


def _summary(name, lat_ms, extra=""):
    if not lat_ms:
        return {"what": name, "n": 0}
    out = {
        "what": name,
        "n": len(lat_ms),
        "median_ms": statistics.median(lat_ms),
        "p95_ms": _p95(lat_ms),
        "max_ms": max(lat_ms),
    }
    print(
        f"  {name}: median {out['median_ms']:.0f} ms, p95 {out['p95_ms']:.0f} ms, "
        f"max {out['max_ms']:.0f} ms over {len(lat_ms)}{extra}"
    )
    return out


def _arrow_keys(page, n=30):
    """Latencies of arrow-key presses: from just before the press is sent (Playwright's round
    trip to the page included, as in the earlier figures) and from the keydown event itself."""
    handle = page.locator(".costwidget-p-pos .noUi-handle").first
    handle.focus()
    lat, from_keydown, missed = [], [], 0
    for i in range(n):
        key = "ArrowRight" if (i // 5) % 2 == 0 else "ArrowLeft"
        before = page.evaluate("() => window.__bench.draws.length")
        t0 = page.evaluate("() => performance.now()")
        page.keyboard.press(key)
        try:
            page.wait_for_function(f"() => window.__bench.draws.length > {before}", timeout=10_000)
        except Exception:  # noqa: BLE001 - reported, not fatal: a press that drew nothing
            missed += 1
            continue
        t1 = page.evaluate(f"() => window.__bench.draws[{before}].t")
        lat.append(t1 - t0)
        down = page.evaluate(
            f"() => (window.__bench.inputs.find(e => e.type === 'keydown' "
            f"&& e.t >= {t0}) || {{}}).t"
        )
        if down is not None:
            from_keydown.append(t1 - down)
        page.wait_for_timeout(50)
    if missed:
        print(f"  ({missed} of {n} key presses drew nothing within 10 s)")
    return lat, from_keydown


# Records the p(+) slider's value each time its readout changes under the pointer (three
# decimals; the handle's aria-valuenow has only one), with the page's clock. Once per page.
WATCH_SLIDER = r"""
() => {
  window.__bench.values = [];
  if (window.__benchWatching) return;
  window.__benchWatching = true;
  const readout = document.querySelector('.costwidget-p-pos .widget-readout');
  new MutationObserver(() => window.__bench.values.push(
      {t: performance.now(), v: parseFloat(readout.textContent)}))
    .observe(readout, {characterData: true, childList: true, subtree: true});
}
"""


def _drag(page, moves=60, interval_ms=16):
    """Drag the p(+) handle; return (latencies of drawn values, values, drawn count, last drawn).

    A value's latency runs from the moment the slider showed it (its readout changed) to the
    first drawing of the operating line at that value.
    """
    ax = page.evaluate(AXIS)
    page.evaluate(WATCH_SLIDER)
    handle = page.locator(".costwidget-p-pos .noUi-handle").first
    box = handle.bounding_box()
    x0, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x0, y)
    page.mouse.down()
    for i in range(1, moves + 1):
        page.mouse.move(x0 + 2 * i, y)
        page.wait_for_timeout(interval_ms)
    page.mouse.up()
    values = page.evaluate("() => window.__bench.values")
    # The readout is written again, with the same text, when the drag ends (the slider's change
    # event after its slide events): that is no new value, and counting it as one made a value
    # drawn 32 ms before this second writing look undrawn ("60 of 61").
    values = [v for i, v in enumerate(values) if i == 0 or v["v"] != values[i - 1]["v"]]
    last = values[-1]["v"] if values else None
    px = lambda v: ax["p0"] + (v - ax["v0"]) / ax["perPx"]  # noqa: E731
    # Values 2 slider pixels apart are ~4 px apart on the cost pane: 1 px tells them apart.
    tol = 1.0
    if last is not None:  # wait (on state) until the last value is drawn, or give up after 15 s
        try:
            page.wait_for_function(
                "([x, tol]) => window.__bench.draws.some(d => Math.abs(d.x - x) < tol)",
                arg=[px(last), tol],
                timeout=15_000,
            )
        except Exception:  # noqa: BLE001 - reported below as "last drawn: False"
            pass
    draws = page.evaluate("() => window.__bench.draws")
    lat, drawn = [], 0
    for item in values:
        hit = next(
            (d for d in draws if d["t"] >= item["t"] and abs(d["x"] - px(item["v"])) < tol), None
        )
        if hit is not None:
            drawn += 1
            lat.append(hit["t"] - item["t"])
    last_drawn = bool(draws) and last is not None and abs(draws[-1]["x"] - px(last)) < tol
    return lat, len(values), drawn, last_drawn


def measure(data: str) -> list[dict]:
    import playwright.sync_api as sync_api
    from playwright.sync_api import sync_playwright

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(BUILD[data] + "w")]
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3",
            "language": "python",
        }
        nbformat.write(nb, root / "bench.ipynb")
        with running_lab(root) as (url, token), sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1300, "height": 1500})
            run_all_cells(page, sync_api, url, token, "bench.ipynb")
            page.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=120_000)
            page.wait_for_timeout(1000)
            page.evaluate(INSTRUMENT)
            print(f"{data}:")
            lat, from_keydown = _arrow_keys(page)
            results.append(dict(_summary("arrow key on p(+) -> operating line", lat), data=data))
            results.append(
                dict(_summary("  the same from the keydown event", from_keydown), data=data)
            )
            for bands in (False, True):
                if bands:
                    page.locator(".costwidget .widget-checkbox", has_text="bands").first.locator(
                        "input"
                    ).check()
                    page.wait_for_timeout(50)
                    # Keys first (15 presses, about a second), then the drag: both while the
                    # bands are still computing (the busy sign tells; printed below).
                    lat, from_keydown = _arrow_keys(page, n=15)
                    results.append(dict(_summary("arrow key (bands computing)", lat), data=data))
                    results.append(
                        dict(_summary("  the same from the keydown event", from_keydown), data=data)
                    )
                page.evaluate("() => { window.__bench.draws = []; }")
                lat, n, drawn, last = _drag(page)
                what = "drag of p(+) -> operating line" + (" (bands computing)" if bands else "")
                row = _summary(
                    what, lat, f" drawn values; {drawn} of {n} values drawn, last drawn: {last}"
                )
                row.update(data=data, values=n, drawn=drawn, last_drawn=last)
                if bands:
                    row["busy_after_drag"] = page.evaluate(BUSY)
                    print(f"    bands still computing after the drag: {row['busy_after_drag']}")
                results.append(row)
                # Put p(+) back for the next round.
                handle = page.locator(".costwidget-p-pos .noUi-handle").first
                handle.focus()
                for _ in range(5):
                    page.keyboard.press("Home")
            browser.close()
    return results


def measure_exported(data: str, *, interactive: bool = True) -> list[dict]:
    """The same key and drag figures in the page ``w.to_html(path)`` writes, opened from disk
    (no kernel; the operating point is computed in the page by operating-point.js)."""
    from playwright.sync_api import sync_playwright

    results = []
    scope: dict = {}
    exec(BUILD[data], scope)  # noqa: S102 - our own fixed snippets above
    w = scope["w"]
    with tempfile.TemporaryDirectory() as tmp:
        path = w.to_html(Path(tmp) / "page.html", interactive=interactive)
        w.close()
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1300, "height": 1500})
            page.goto(path.as_uri())
            page.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=120_000)
            if interactive:
                page.wait_for_function("() => window.costwidgetPage !== undefined")
                page.evaluate("window.costwidgetPage")
            page.wait_for_timeout(1000)
            page.evaluate(INSTRUMENT)
            kind = "exported page" if interactive else "static exported page"
            print(f"{data}, {kind}:")
            lat, from_keydown = _arrow_keys(page)
            results.append(
                dict(_summary("arrow key on p(+) -> operating line", lat), data=data, page=kind)
            )
            results.append(
                dict(
                    _summary("  the same from the keydown event", from_keydown),
                    data=data,
                    page=kind,
                )
            )
            page.evaluate("() => { window.__bench.draws = []; }")
            lat, n, drawn, last = _drag(page)
            row = _summary(
                "drag of p(+) -> operating line",
                lat,
                f" drawn values; {drawn} of {n} values drawn, last drawn: {last}",
            )
            row.update(data=data, page=kind, values=n, drawn=drawn, last_drawn=last)
            results.append(row)
            browser.close()
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", choices=[*BUILD, "all"], default="all")
    parser.add_argument("--json", help="also write every figure to this file")
    parser.add_argument(
        "--exported",
        action="store_true",
        help="measure the page w.to_html() writes (no kernel), not JupyterLab",
    )
    args = parser.parse_args(argv)
    results = []
    for data in BUILD if args.data == "all" else [args.data]:
        results += measure_exported(data) if args.exported else measure(data)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
