"""The standalone page, without a browser: what it loads, what it escapes, what it embeds.

(tests/browser/test_export_browser.py opens it in Chromium with the network off.)
"""

from __future__ import annotations

import html
import html.parser
import json
import pathlib
import re
import shutil
import subprocess

import numpy as np
import pytest

import costwidget as cw
from costwidget.export import page
from costwidget.widget import CostWidget, export
from costwidget.widget.tools import nec_zoom

ROOT = pathlib.Path(__file__).resolve().parents[1]
EVIL = [
    '<img src=x onerror="window.__x=1">',
    "</script><script>window.__x=1</script>",
    "<!--<script>window.__x=1//",
]


class _Scan(html.parser.HTMLParser):
    """Collects every element's tag and attributes, and the script elements' text."""

    def __init__(self):
        super().__init__()
        self.tags, self.scripts, self._in = [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in = [dict(attrs), ""]

    def handle_data(self, data):
        if self._in is not None:
            self._in[1] += data

    def handle_endtag(self, tag):
        if tag == "script" and self._in is not None:
            self.scripts.append(tuple(self._in))
            self._in = None


def _scan(text):
    s = _Scan()
    s.feed(text)
    return s


@pytest.fixture(scope="module")
def evil_widget():
    rng = np.random.default_rng(2)
    y = rng.random(200) < 0.5
    scores = {name: np.round(y * (1 + i) + rng.normal(size=200), 2) for i, name in enumerate(EVIL)}
    w = CostWidget.from_predictions(y, scores)
    w.update(constraint="neyman_pearson", difference=EVIL[:2])
    w.wait(timeout=300)
    yield w
    w.close()


@pytest.fixture(scope="module")
def offline(evil_widget):
    return export.to_html(evil_widget)


def test_offline_page_loads_nothing(offline):
    scan = _scan(offline)
    for tag, attrs in scan.tags:
        for key in ("src", "href"):
            assert key not in attrs, (tag, attrs)
    kinds = [a.get("type", "text/javascript") for a, _ in scan.scripts]
    # runtime, bqscales, bqplot; widget state, view; snapshot; render call; the disabled
    # checkboxes' titles; the interactive page's spec and the module that binds it. Nothing else.
    assert kinds == ["text/javascript"] * 3 + [
        "application/vnd.jupyter.widget-state+json",
        "application/vnd.jupyter.widget-view+json",
        "application/json",
        "text/javascript",
        "text/javascript",
        "application/json",
        "module",
    ]
    assert 'define("bqplot",[' in scan.scripts[2][1]
    assert 'define("bqscales",[' in scan.scripts[1][1]


def test_interactive_page_imports_only_the_package_modules(offline, evil_widget):
    """The module script imports the package's own built files (as data: URLs) and evaluates
    nothing from the widget's data: the spec is JSON, read with JSON.parse."""
    import re
    import urllib.parse

    from costwidget.export.page import STATIC
    from costwidget.widget.output.page_spec import page_spec

    scan = _scan(offline)
    module = scan.scripts[-1][1]
    # percent-encoded: nothing in the URL can end its string or the script element
    urls = re.findall(r'from "data:text/javascript;charset=utf-8,([^"<>\\\s]+)"', module)
    assert [urllib.parse.unquote(u).encode() for u in urls] == [
        (STATIC / "operating-point.js").read_bytes(),
        (STATIC / "page-bind.js").read_bytes(),
    ]
    rest = re.sub(r'"data:[^"]+"', '""', module)
    assert "eval(" not in rest and "Function(" not in rest and "innerHTML" not in rest
    spec = json.loads(scan.scripts[-2][1])
    expected = page_spec(evil_widget)
    assert spec["state"] == expected["state"] and spec["roles"] == expected["roles"]
    assert [c["name"] for c in spec["payload"]["header"]["classifiers"]] == EVIL[
        : len(spec["payload"]["header"]["classifiers"])
    ]


def test_static_page_on_request(evil_widget):
    text = export.to_html(evil_widget, interactive=False)
    kinds = [a.get("type", "text/javascript") for a, _ in _scan(text).scripts]
    assert "module" not in kinds and "nothing is recomputed" in text


def test_the_interactive_page_says_its_caption_is_the_exported_state(offline, evil_widget):
    """The caption is written once, at export; in a page whose operating point moves (with its
    own live headline) it says that it describes the state as exported."""
    import re

    caption = re.search(r'<p class="caption">(.*?)</p>', offline, re.S).group(1)
    assert caption.startswith("As exported: p(+) = ")
    static = export.to_html(evil_widget, interactive=False)
    assert re.search(r'<p class="caption">(.*?)</p>', static, re.S).group(1).startswith("p(+) = ")


def test_user_text_is_escaped_everywhere(offline, evil_widget):
    for name in EVIL:
        assert name not in offline
        assert name.replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;") in offline
    scan = _scan(offline)
    state = json.loads(scan.scripts[3][1])
    assert json.loads(scan.scripts[5][1]) == export.snapshot(evil_widget)
    # The names are in the state, intact, as JSON strings.
    text = json.dumps(state)
    assert all(json.dumps(n)[1:-1] in text for n in EVIL)
    # The readout table shows them as text.
    assert offline.count("&lt;/script&gt;&lt;script&gt;window.__x=1&lt;/script&gt;") >= 2


def test_page_embeds_full_widget_state(offline, evil_widget):
    scan = _scan(offline)
    state = json.loads(scan.scripts[3][1])["state"]
    view = json.loads(scan.scripts[4][1])
    assert view["model_id"] == evil_widget.widget.model_id
    assert view["model_id"] in state
    # drop_defaults=False: every slider carries its value (ipywidgets#2440).
    sliders = [m["state"] for m in state.values() if m["model_name"] == "FloatSliderModel"]
    assert sliders and all("value" in s and "min" in s for s in sliders)
    p_slider = [s for s in sliders if s.get("description") == "p(+)"]
    assert p_slider and p_slider[0]["value"] == pytest.approx(evil_widget.p_pos, abs=1e-3)


def test_cdn_page_is_small_and_pinned(evil_widget):
    text = export.to_html(evil_widget, cdn=True)
    manifest = json.loads((page.STATIC / "embed-runtime.json").read_text())
    scan = _scan(text)
    srcs = [a["src"] for a, _ in scan.scripts if "src" in a]
    assert srcs == [
        "https://cdn.jsdelivr.net/npm/" + manifest["cdn"]["requirejs"]["path"],
        "https://cdn.jsdelivr.net/npm/" + manifest["cdn"]["embed_amd"]["path"],
    ]
    assert all(a["integrity"].startswith("sha384-") for a, _ in scan.scripts if "src" in a)
    bq = page.js_version("bqplot", "bqplot")
    assert f"bqplot@{bq}/dist/index" in text
    assert len(text.encode()) < len(export.to_html(evil_widget).encode()) / 3
    for name in EVIL:
        assert name not in text


def test_runtime_matches_the_pinned_versions():
    pins = json.loads((ROOT / "js" / "package.json").read_text())["devDependencies"]
    _, manifest = page.load_runtime()
    assert manifest["html_manager"] == pins["@jupyter-widgets/html-manager"]
    assert manifest["requirejs"] == pins["requirejs"]
    assert manifest["sections_dropped"] == [
        "base7.js",
        "controls7.js",
        "libembed-amd.js",
        "embed-amd-render.js",
    ]
    lock = json.loads((ROOT / "js" / "package-lock.json").read_text())["packages"]
    assert (
        lock["node_modules/@jupyter-widgets/html-manager"]["version"]
        == pins["@jupyter-widgets/html-manager"]
    )


def test_bqplot_bundle_is_the_installed_one():
    import importlib.metadata

    dist = importlib.metadata.distribution("bqplot")
    f = next(f for f in dist.files if str(f).endswith("nbextensions/bqplot/index.js"))
    original = pathlib.Path(dist.locate_file(f)).read_text()
    named = page.amd_bundle("bqplot", "bqplot")
    assert named.replace('define("bqplot",[', "define([", 1) == re.sub(
        r"\n//# sourceMappingURL=\S+\s*$", "\n", original
    )


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_script_safe_keeps_the_meaning():
    # Strings and template literals keep their value, regular expressions what they match.
    js = (
        'var a = "</script><!--", c = `</SCRIPT ${1}`, r = /x<!--y|<\\/script>/i;'
        'console.log(JSON.stringify([a, c, r.test("x<!--y"), r.test("</SCRIPT>"), '
        'r.test("x<y")]));'
    )
    safe = page.script_safe(js)
    assert "</script" not in safe.lower() and "<!--" not in safe
    run = [
        subprocess.run(["node", "-e", code], capture_output=True, text=True, check=True).stdout
        for code in (js, safe)
    ]
    assert run[0] == run[1]


def test_json_for_script_cannot_close_the_element():
    value = {"name": "</script><!-- & >"}
    text = page.json_for_script(value)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == value


def test_missing_runtime_says_how_to_build_it(evil_widget, monkeypatch, tmp_path):
    monkeypatch.setattr(page, "STATIC", tmp_path)
    with pytest.raises(page.RuntimeMissing, match="npm run build"):
        export.to_html(evil_widget)


def test_to_html_writes_the_file(evil_widget, tmp_path):
    path = tmp_path / "report.html"
    # A path in, the path out (not the 3.7 MB page, which a notebook would echo).
    assert export.to_html(evil_widget, path) == path
    # The page says the minute it was made: two pages made across a minute's turn differ there
    # only, so that line is masked.
    stamp = re.compile(r" on \d{4}-\d\d-\d\d \d\d:\d\d")
    written, again = path.read_text(encoding="utf-8"), export.to_html(evil_widget)
    assert stamp.search(written), "the page no longer says when it was made: update the mask"
    assert stamp.sub("", written) == stamp.sub("", again)
    assert export.save(evil_widget, tmp_path / "again.html") == tmp_path / "again.html"


def test_readout_table_shows_every_visible_row():
    a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A & B")
    w = CostWidget([a], p_pos=0.5)
    try:
        table = page.readout_table(w.readout, w.colors)
        assert "A &amp; B" in table and table.count("<tr") == 2
        w.visible = []
        assert "No classifier shown" in page.readout_table(w.readout, w.colors)
    finally:
        w.close()


def test_interactive_page_grows_by_at_most_80_kb_for_the_demo():
    """The operating-point module, the glue and the classifiers' payload cost <= 80 KB over the
    static page for the tour's demo widget (issue's budget; measured 72 KB)."""
    import costwidget as cw

    with cw.demo() as w:
        w.wait(timeout=300)
        growth = len(export.to_html(w).encode()) - len(
            export.to_html(w, interactive=False).encode()
        )
    assert 0 < growth <= 80_000


# ---------------------------------------------------------------------------- what is live
# Issue 29: the exported page says what is live. Written out here, as a reader sees them: the
# controls the page recomputes from (the operating point and the constraint), and those that
# need Python.
LIVE = {
    "p(+)",
    "p(+) field",
    "C(-|+) false negative",
    "C(+|-) false positive",
    "C(-|+)/C(+|-)",
    "constraint",
    "max false-positive rate",
    "capacity (cases flagged)",
    "in",
    "population positives",
    "negatives",
}
NEED_PYTHON = {
    "gradient boosting (AUC = 0.79)",
    "logistic regression (AUC = 0.79)",
    "naive Bayes (AUC = 0.76)",
    "random forest (AUC = 0.79)",
    "cost lines of all hull points",
    "bands",
    "level",
    "fold spread (min–max)",
    "threshold choice",
    "decision curve",
    "difference",
    "the difference's first model",
    "the difference's second model",
    "brush range",
    "range PCF(+)",
    "clear",
    "thesis view",
    "new data",
    "strip on new data",
}  # issue 32
#: Live in any page through a link the browser keeps (jsdlink to the cost pane's y scale).
LINKED = {"NEC axis up to"}
#: Needs the kernel, and says why in words of its own.
OWN_REASON = {"fit (kernel)": nec_zoom.NO_KERNEL}


@pytest.fixture(scope="module")
def demo_pages():
    """The demo with bands, threshold choice, the decision curve and a difference on: its
    interactive and static pages, and the PCF(+) it was exported at, computed here."""
    w = cw.demo(cost_fn=5.0)
    try:
        w.update(
            show_bands=True,
            threshold_choice="score+rate",
            show_decision_curve=True,
            difference=["gradient boosting", "naive Bayes"],
        )
        w.wait(timeout=300)
        p, c_fn, c_fp = w.p_pos, w.cost_fn, w.cost_fp
        pcf = p * c_fn / (p * c_fn + (1 - p) * c_fp)  # Drummond & Holte 2006, PCF(+)
        yield export.to_html(w), export.to_html(w, interactive=False), pcf
    finally:
        w.close()


def _state(text):
    return json.loads(_scan(text).scripts[3][1])["state"]


def _controls(text) -> dict:
    """Every control of the page's state (a model with ``disabled``), by what a reader calls it."""
    out = {}
    for m in _state(text).values():
        s = m["state"]
        if "disabled" not in s:
            continue
        name = s.get("description") or ""
        if m["model_name"] == "FloatTextModel" and name == "":
            name = "p(+) field"
        elif m["model_name"] == "DropdownModel" and name in ("", "−"):
            name = "the difference's " + ("first" if name == "" else "second") + " model"
        assert name not in out, f"two controls called {name!r}"
        out[name] = s
    return out


def test_controls_that_need_python_are_disabled_and_say_why(demo_pages):
    interactive, static, _ = demo_pages
    controls = _controls(interactive)
    assert set(controls) == LIVE | NEED_PYTHON | LINKED | set(OWN_REASON)
    for name, reason in OWN_REASON.items():
        assert controls[name]["disabled"] is True and controls[name]["tooltip"] == reason
    for name in LIVE | LINKED:
        assert controls[name]["disabled"] is False, name
        assert "needs Python" not in (controls[name].get("tooltip") or ""), name
    for name in NEED_PYTHON:
        assert controls[name]["disabled"] is True, name
        assert controls[name]["tooltip"] == f"{name}: {page.NEEDS_PYTHON}", name
    # The static page recomputes nothing: every control is disabled.
    assert all(s["disabled"] is True for name, s in _controls(static).items() if name not in LINKED)
    assert all(_controls(static)[name]["disabled"] is False for name in LINKED)


def _html_values(text) -> list:
    return [
        m["state"]["value"]
        for m in _state(text).values()
        if isinstance(m["state"].get("value"), str)
    ]


def _captions(text) -> list:
    return [
        html.unescape(re.sub(r"<[^>]+>", "", c))
        for value in _html_values(text)
        for c in re.findall(r"<caption[^>]*>(.*?)</caption>", value, re.S)
    ]


def test_frozen_tables_say_they_are_as_exported(demo_pages):
    interactive, static, pcf = demo_pages
    captions = _captions(interactive)
    frozen = [c for c in captions if "as exported at PCF(+) = " in c]
    # The band table and the two threshold-choice tables are frozen; the readout is the page's.
    assert any(c.startswith("Band (nominal 90 %)") for c in frozen), captions
    assert sum("hreshold" in c for c in frozen) == 2, captions
    for c in frozen:
        shown = float(re.search(r"as exported at PCF\(\+\) = ([\d.]+)", c).group(1))
        assert shown == pytest.approx(pcf, abs=5e-5), c
    live = [c for c in captions if c not in frozen]
    assert live and all(
        c.startswith(("At the operating point", "Under the constraint")) for c in live
    ), live
    notes = [v for v in _html_values(interactive) if "pt = C(+|−)/(C(+|−)+C(−|+))" in v]
    assert len(notes) == 1 and notes[0].startswith("<i>As exported at PCF(+) = ")
    # The static page says it once, for the whole page (its note); its tables are unchanged.
    assert not any("as exported" in c for c in _captions(static))


def test_the_note_on_what_is_live_is_under_the_headline(demo_pages):
    interactive, static, _ = demo_pages
    for text in (interactive, static):
        body = text[text.index("<body>") :]
        order = [
            body.index(tag)
            for tag in (
                "<h1>",
                '<p class="caption">',
                '<p class="note costwidget-page-note">',
                "<main>",
            )
        ]
        assert order == sorted(order), order
        # Nothing between the caption and the note.
        between = body[body.index("</p>", order[1]) + 4 : order[2]]
        assert between.strip() == "", between
    assert "greyed-out controls" in interactive and "greyed out" in static
