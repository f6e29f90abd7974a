"""Real-browser test of CostWidget.to_html: Debian's chromium (Playwright) opens the page from disk
with the network off.

Checks, for the default (offline) page: no request leaves file://, both panes and the difference
view render their marks, the console shows no error, the hostile classifier names
(``<img src=x onerror=...>``, ``</script><script>...``) run nothing (``window.__x`` stays
undefined) and are shown as text, and hovering a hull vertex pops up no empty tooltip. For the
``cdn=True`` page: its jsDelivr requests are answered from the npm files pinned in js/ and the
installed bqplot (so the subresource-integrity hashes are checked against the published bytes),
and it renders the same. Screenshots go to tests/artifacts/ (gitignored).

Every wait is on the whole expected state of the page; the fixed pauses left check that nothing
happens (no tooltip, no injected script), and say so. The browser gate (skip, or a failure under
CI) and the shared chromium are in conftest.py.
"""

from __future__ import annotations

import importlib.metadata
import json
import pathlib

import numpy as np
import pytest
from lab_server import wait_for_state

ROOT = pathlib.Path(__file__).resolve().parents[2]
EVIL = ['<img src=x onerror="window.__x=1">', "</script><script>window.__x=1</script>"]

# Marks per figure: SVG paths of Lines marks with data, and scatter dots.
_MARKS = r"""(sel) => {
  const svg = document.querySelector(`${sel} svg.svg-figure`);
  if (!svg) return null;
  const lines = Array.from(svg.querySelectorAll('path.line'))
    .filter(p => (p.getAttribute('d') || '').length > 20);
  const visible = el => getComputedStyle(el).display !== 'none' && getComputedStyle(el).opacity !== '0';
  return {lines: lines.filter(visible).length, dots: svg.querySelectorAll('.dot').length,
          areas: Array.from(svg.querySelectorAll('path.area')).filter(visible).length,
          title: (svg.querySelector('.mainheading') || {}).textContent || ''};
}"""


# The whole drawn page: every figure with the marks `_check_page` counts (n classifiers).
_DRAWN = (
    "(n) => { const m = "
    + _MARKS
    + r""";
  const [roc, cost, diff] = ['.costwidget-roc', '.costwidget-cost', '.costwidget-difference'].map(m);
  return Boolean(roc && cost && diff && roc.lines >= 2 * n + 1 && roc.dots >= 20 &&
                 cost.lines >= n + 3 && cost.areas >= n && diff.lines >= 2 && diff.areas >= 1 &&
                 roc.title === 'ROC space' && cost.title === 'Cost space');
}"""
)

_TOOLTIPS_SHOWN = """() => Array.from(document.querySelectorAll('.bqplot_mark_tooltip'))
  .filter(t => getComputedStyle(t).display !== 'none' && getComputedStyle(t).opacity !== '0').length"""


@pytest.fixture(scope="module")
def widget():
    from costwidget.widget import CostWidget

    rng = np.random.default_rng(4)
    n = 300
    y = rng.random(n) < 0.4
    scores = {
        "logistic": y * 1.4 + rng.normal(size=n),
        EVIL[0]: y * 0.8 + rng.normal(size=n),
        EVIL[1]: y * 1.1 + rng.normal(size=n),
    }
    w = CostWidget.from_predictions(y, {k: np.round(v, 2) for k, v in scores.items()}, p_pos=0.3)
    w.update(
        show_bands=True, constraint="neyman_pearson", max_fpr=0.2, difference=["logistic", EVIL[1]]
    )
    w.range_of_interest = [0.2, 0.45]
    w.wait(timeout=300)
    yield w
    w.close()


def _open(browser, path, route, widget):
    """Open ``path`` with every request going through ``route``; collect console messages;
    wait until the page has drawn ``widget``'s figures with all their marks."""
    # Big enough for the whole page (its readout table is ~1870 px wide), so that the screenshot
    # shows the page as it was laid out and checked (a full-page capture resizes the viewport).
    ctx = browser.new_context(viewport={"width": 1920, "height": 3400})
    ctx.route("**/*", route)
    page = ctx.new_page()
    messages = []
    page.on("console", lambda m: messages.append((m.type, m.text)))
    page.on("pageerror", lambda e: messages.append(("pageerror", str(e))))
    page.goto(path.as_uri())
    # On a time-out the assertions of _check_page say which marks are missing.
    wait_for_state(page, _DRAWN, len(widget.classifiers), timeout=60_000)
    return ctx, page, messages


def _check_page(page, messages, widget, shot, artifacts):
    roc, cost, diff = (
        page.evaluate(_MARKS, sel)
        for sel in (".costwidget-roc", ".costwidget-cost", ".costwidget-difference")
    )
    n = len(widget.classifiers)
    # ROC: diagonal, n curves, n hulls, the constraint line, the iso lines; dots on the hulls.
    assert roc["lines"] >= 2 * n + 1 and roc["dots"] >= 20, roc
    # Cost: trivial lines, n envelopes, best of all, operating line; n bands filled.
    assert cost["lines"] >= n + 3 and cost["areas"] >= n, cost
    assert diff["lines"] >= 2 and diff["areas"] >= 1, diff
    assert roc["title"] == "ROC space" and cost["title"] == "Cost space"
    assert page.evaluate("() => window.__x") is None
    text = page.evaluate("() => document.body.innerText")
    for name in EVIL:
        assert name in text, f"{name!r} is not shown as text"
    snap = json.loads(
        page.evaluate("() => document.getElementById('costwidget-snapshot').textContent")
    )
    assert snap["format"] == "costwidget.snapshot"
    assert [r["classifier"] for r in snap["readout"]] == [c.name for c in widget.classifiers]
    errors = [m for m in messages if m[0] in ("error", "pageerror")]
    assert not errors, errors
    # Tooltips are filled by Python on hover; the page has none rather than empty ones.
    page.evaluate(
        "() => document.addEventListener('mouseover', e => {"
        " if (e.target.classList.contains('dot')) window.__hoveredDot = true; }, true)"
    )
    box = page.locator(".costwidget-roc svg.svg-figure .dot").nth(5).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_for_state(page, "() => window.__hoveredDot === true")
    assert page.evaluate("() => window.__hoveredDot") is True, "the pointer reached no hull dot"
    # A check that nothing happens (bqplot would show a tooltip on that mouseover at once): a
    # fixed pause is the only wait there is for that.
    page.wait_for_timeout(300)
    assert page.evaluate(_TOOLTIPS_SHOWN) == 0
    page.screenshot(path=str(artifacts / shot))


def test_offline_page_renders_without_network(widget, browser, tmp_path, artifacts):
    from costwidget.widget import export

    path = tmp_path / "report.html"
    export.to_html(widget, path)
    leaving = []

    def route(r):
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            leaving.append(r.request.url)
            r.abort()

    ctx, page, messages = _open(browser, path, route, widget)
    try:
        _check_page(page, messages, widget, "export_page_offline.png", artifacts)
        assert leaving == [], leaving
    finally:
        ctx.close()


def _cdn_files():
    """jsDelivr paths the cdn=True page asks for -> the local bytes of exactly those versions."""
    from costwidget.export import page as page_mod

    node = ROOT / "js" / "node_modules"
    if not node.exists():
        pytest.fail(
            f"{node} is absent: the runtime is built by `pip install -e .` (npm install "
            "in js/); run `cd js && npm ci` to test the CDN page"
        )
    manifest = json.loads((page_mod.STATIC / "embed-runtime.json").read_text())["cdn"]
    files = {
        manifest["requirejs"]["path"]: node / "requirejs" / "require.js",
        manifest["embed_amd"]["path"]: node
        / "@jupyter-widgets"
        / "html-manager"
        / "dist"
        / "embed-amd.js",
    }
    for font in (node / "@jupyter-widgets" / "html-manager" / "dist").glob("*.woff*"):
        files[manifest["assets"] + font.name] = font
    for module in ("bqplot", "bqscales"):
        dist = importlib.metadata.distribution(module)
        f = next(f for f in dist.files if str(f).endswith(f"nbextensions/{module}/index.js"))
        files[f"{module}@{page_mod.js_version(module, module)}/dist/index.js"] = pathlib.Path(
            dist.locate_file(f)
        )
    return files


def test_cdn_page_renders_from_the_pinned_files(widget, browser, tmp_path, artifacts):
    from costwidget.widget import export

    path = tmp_path / "report-cdn.html"
    export.to_html(widget, path, cdn=True)
    files = _cdn_files()
    served, refused = [], []
    prefix = "https://cdn.jsdelivr.net/npm/"

    def route(r):
        url = r.request.url
        if url.startswith("file:"):
            return r.continue_()
        key = url[len(prefix) :] if url.startswith(prefix) else None
        if key in files:
            served.append(key)
            return r.fulfill(
                status=200,
                body=files[key].read_bytes(),
                headers={
                    "Content-Type": "application/javascript",
                    "Access-Control-Allow-Origin": "*",
                },
            )
        refused.append(url)
        return r.abort()

    ctx, page, messages = _open(browser, path, route, widget)
    try:
        _check_page(page, messages, widget, "export_page_cdn.png", artifacts)
        assert refused == [], refused
        assert {k for k in served if k.endswith(".js")} == {k for k in files if k.endswith(".js")}
    finally:
        ctx.close()


def test_a_broken_page_says_so(widget, browser, tmp_path):
    """If the widget cannot be drawn, the page says why instead of staying blank."""
    from costwidget.widget import export

    text = export.to_html(widget).replace(widget.widget.model_id, "0" * 32, 1)
    path = tmp_path / "broken.html"
    path.write_text(text, encoding="utf-8")
    ctx = browser.new_context()
    ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
    page = ctx.new_page()
    try:
        page.goto(path.as_uri())
        page.wait_for_selector(".render-error", timeout=60_000)
        assert "could not be drawn" in page.inner_text(".render-error")
    finally:
        ctx.close()


def test_other_exports_run_nothing(widget, browser, tmp_path):
    """The SVG and the notebook fallback's HTML, opened as documents: the names stay inert."""
    from costwidget.widget import export

    svg = export.save(widget, tmp_path / "figure.svg")
    fallback = tmp_path / "fallback.html"
    fallback.write_text(
        "<!DOCTYPE html><html><body>" + export.mimebundle(widget)["text/html"] + "</body></html>",
        encoding="utf-8",
    )
    ctx = browser.new_context()
    ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for path in (svg, fallback):
            page.goto(path.as_uri())  # returns after the load event: scripts ran, images failed
            # A check that nothing happens (no injected handler or script runs later either): a
            # fixed pause is the only wait there is for that.
            page.wait_for_timeout(300)
            assert page.evaluate("() => window.__x") is None, path.name
        assert page.evaluate("() => document.images[0].naturalWidth") > 500
        assert EVIL[1] in page.evaluate("() => document.images[0].alt")  # the cheapest
        assert not errors, errors
    finally:
        ctx.close()


# What the runtime's own timer does when the parser yields before the page's next script (a
# loaded machine): require.js takes the modules defined so far, fixing their URLs. A require()
# call takes them at once, so the case is made every time.
_TAKE_MODULES_NOW = "<script>require([], function () {});</script>"


def test_a_page_in_a_srcdoc_frame_draws_if_require_takes_the_modules_after_the_runtime(
    widget, browser, tmp_path
):
    """The documentation and `COSTWIDGET_NOTEBOOK_OUTPUT=page` show the page in an <iframe
    srcdoc>, whose location is about:srcdoc. require.js takes the runtime's modules on a timer;
    when the parser of a page of megabytes yielded before the baseUrl was set (a loaded machine),
    the modules kept relative URLs, the manager's bundle failed on new URL(uri, 'about:srcdoc')
    and the widget was never drawn (one documentation frame in a few). It failed so here every
    time before the baseUrl was set in the runtime's own script."""
    from costwidget.export.notebook_output import page_frame

    html = widget.to_html()
    end = html.index("</script>") + len("</script>")
    assert "requirejs" in html[:end]  # the runtime's script
    host = tmp_path / "host.html"
    host.write_text(
        "<!DOCTYPE html><html><body>"
        + page_frame(html[:end] + _TAKE_MODULES_NOW + html[end:], title="t", height=800)
        + "</body></html>",
        encoding="utf-8",
    )
    ctx = browser.new_context()
    ctx.route(
        "**/*",
        lambda r: r.continue_() if r.request.url.startswith(("file:", "data:")) else r.abort(),
    )
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(host.as_uri())
        frame = page.locator("iframe.costwidget-page").element_handle().content_frame()
        drawn = wait_for_state(
            frame,
            "() => Boolean(document.querySelector('.costwidget-cost svg.svg-figure'))",
            timeout=60_000,
        )
        assert drawn and errors == [], errors
    finally:
        ctx.close()
