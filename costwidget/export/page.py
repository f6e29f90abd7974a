"""The standalone HTML page: widget state rendered by an inlined widget manager, offline.

Pieces, in page order: ``static/embed-runtime.js`` (minified require.js, FontAwesome as data
URIs and @jupyter-widgets/html-manager, built by ``js/build.mjs``), then bqscales' and bqplot's
AMD bundles taken from the *installed* bqplot distribution (checked against its RECORD hashes,
so they are exactly the JavaScript of the Python that made the state) and given their module
names, so that the widget manager finds them on the page instead of asking a CDN.

Everything that reaches the page is escaped: text with ``html.escape``, JSON with ``<``, ``>``
and ``&`` as ``\\u`` escapes (so no ``</script>`` can close its element), and the inlined
scripts must not contain ``</script`` or ``<!--`` (checked; they are rewritten if they ever do).
"""

from __future__ import annotations

import base64
import hashlib
import html
import importlib.metadata
import json
import math
import pathlib
import re
import urllib.parse

__all__ = [
    "standalone_page",
    "widget_page",
    "inline_head",
    "load_runtime",
    "amd_bundle",
    "script_safe",
    "json_for_script",
    "readout_table",
    "RuntimeMissing",
    "STATIC",
    "NEEDS_PYTHON",
]

STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"
_CDN = "https://cdn.jsdelivr.net/npm/"
# What libembed's renderWidgets does for a page, without its schema check (the state is ours):
# create the models from the embedded state, then a view in place of each view script. A failure
# is shown on the page, not only in the console.
_RENDER = """
// The interactive page's module (page-bind.js) binds its controls to the rendered models; it
// may run before require.js has loaded the manager, so it waits on this promise.
var resolveModels;
window.costwidgetModels = new Promise(function (resolve) { resolveModels = resolve; });
require(["@jupyter-widgets/html-manager"], function (hm) {
  var manager = new hm.HTMLManager({loader: hm.requireLoader});
  var read = function (el) { return JSON.parse(el.textContent); };
  var state = document.querySelector('script[type="application/vnd.jupyter.widget-state+json"]');
  var rendered = manager.set_state(read(state)).then(function (models) {
    var views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
    return Promise.all(Array.prototype.map.call(views, function (tag) {
      var id = read(tag).model_id;
      var model = models.find(function (m) { return m.model_id === id; });
      if (!model) { throw new Error("no widget model " + id + " in the page's state"); }
      var el = document.createElement("div");
      el.className = "widget-subarea";
      tag.parentNode.insertBefore(el, tag);
      return manager.create_view(model).then(function (view) {
        return manager.display_view(view, el);
      });
    })).then(function () { return models; });
  });
  resolveModels(rendered);
  rendered.catch(function (err) {
    var p = document.createElement("p");
    p.className = "render-error";
    p.textContent = "The widget could not be drawn: " + err;
    state.parentNode.insertBefore(p, state);
    console.error(err);
  });
});
"""


#: Why a control of an exported page is disabled (its tooltip, after its name; `page_limits`).
NEEDS_PYTHON = "needs Python, so it stays as exported (this page has no kernel behind it)"

# ipywidgets shows no tooltip on a checkbox with a description (it titles it with the
# description) nor on a labelled drop-down, text field or slider track: each disabled control
# of the page gets its name and the reason in its title here (buttons and labelled sliders show
# the tooltip the export gave them). The controls are drawn after the page loads, hence the
# observer; it only reads and writes title attributes.
_DISABLED_TITLES = """
(function () {
  var why = __WHY__;
  var kept = __KEPT__;  // a reason of its own (per-case costs: a limit counts cases) stays
  var fix = function () {
    var boxes = document.querySelectorAll(".costwidget .widget-inline-hbox");
    Array.prototype.forEach.call(boxes, function (box) {
      var control = box.querySelector("input:disabled, select:disabled, .noUi-target[disabled]");
      if (!control) { return; }
      var label = box.querySelector(".widget-label-basic span") || box.querySelector(".widget-label");
      var name = label ? label.textContent.trim() : "";
      var text = /\\w/.test(name) ? name + ": " + why : why;
      [control, label].forEach(function (el) {
        if (el && el.title.indexOf(why) < 0 && !(kept && el.title.indexOf(kept) >= 0)) {
          el.title = text;
        }
      });
    });
  };
  new MutationObserver(fix).observe(document.body, {childList: true, subtree: true,
    attributes: true, attributeFilter: ["title", "disabled"]});
})();
"""


# The manager's bundles find their public path from their require.js URL resolved against
# document.location, which in an <iframe srcdoc> (a notebook or documentation page showing the
# page) is about:srcdoc, no base at all. An absolute baseUrl from the document's base URL (its
# own folder, or the host page's for srcdoc) works in both. It is set in the runtime's own
# <script>: the runtime has require.js take its modules on a timer, which fixes each module's
# URL, and on a loaded machine the parser of a page of megabytes let that timer run before a
# later script set the baseUrl ("Failed to construct 'URL': Invalid URL"; the widget was never
# drawn: one documentation frame in a few).
_BASE_URL = 'require.config({baseUrl: new URL(".", document.baseURI).href});'


def inline_head() -> str:
    """The ``<script>`` elements a page's head needs to render widget state offline: the runtime
    (require.js and the widget manager, its baseUrl set at once), bqscales and bqplot."""
    runtime, _ = load_runtime()
    return "\n".join(
        f"<script>{script_safe(js)}</script>"
        for js in (
            f"{runtime}\n{_BASE_URL}",
            amd_bundle("bqscales", "bqscales"),
            amd_bundle("bqplot", "bqplot"),
        )
    )


class RuntimeMissing(RuntimeError):
    """The built JavaScript runtime is absent (a source checkout where js/ was never built)."""


def load_runtime() -> tuple[str, dict]:
    """The runtime's text and its manifest (``embed-runtime.json``), checked against each other."""
    js, manifest = STATIC / "embed-runtime.js", STATIC / "embed-runtime.json"
    if not js.exists() or not manifest.exists():
        raise RuntimeMissing(
            f"{js} is missing: this costwidget was installed from source without building its "
            "JavaScript runtime. Reinstall with `pip install -e .` (it runs npm; node >= 18 and "
            "npm must be on PATH), or build it by hand: `cd js && npm ci && npm run build`. "
            "Or pass cdn=True for a page that loads it from the internet."
        )
    meta = json.loads(manifest.read_text(encoding="utf-8"))
    raw = js.read_bytes()
    if hashlib.sha256(raw).hexdigest() != meta["sha256"]:
        raise RuntimeMissing(
            f"{js} does not match {manifest} (a partial build?); rebuild it: "
            "`cd js && npm ci && npm run build`."
        )
    return raw.decode("utf-8"), meta


def _dist_file(dist: str, suffix: str):
    """A file of an installed distribution, by the end of its RECORD path, hash-checked."""
    try:
        d = importlib.metadata.distribution(dist)
    except importlib.metadata.PackageNotFoundError:
        raise RuntimeError(f"{dist} is not installed; it is a dependency of costwidget.") from None
    matches = [f for f in (d.files or []) if str(f).replace("\\", "/").endswith(suffix)]
    if len(matches) != 1:
        raise RuntimeError(
            f"the installed {dist} {d.version} has no single file ending in "
            f"{suffix} (found {len(matches)}); reinstall it: pip install "
            f"--force-reinstall {dist}."
        )
    f = matches[0]
    data = pathlib.Path(d.locate_file(f)).read_bytes()
    if f.hash is not None and f.hash.mode == "sha256":
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        if digest != f.hash.value:
            raise RuntimeError(
                f"{d.locate_file(f)} differs from what {dist} {d.version} "
                f"installed; reinstall it: pip install --force-reinstall {dist}."
            )
    return data, d.version


def amd_bundle(dist: str, module: str) -> str:
    """The installed ``share/jupyter/nbextensions/<module>/index.js`` as a *named* AMD module.

    The bundle is an anonymous ``define([...], factory)``, which require.js can only name from
    the URL it loaded it from; inlined, it must say ``define("<module>", [...], ...)``.
    """
    data, _ = _dist_file(dist, f"nbextensions/{module}/index.js")
    js = data.decode("utf-8")
    js = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", js)  # the map is not shipped
    js, n = re.subn(
        r"\A((?:\s*/\*.*?\*/)*\s*)define\(\[",
        lambda m: f'{m.group(1)}define("{module}",[',
        js,
        count=1,
        flags=re.S,
    )
    if n != 1:
        raise RuntimeError(
            f"{dist}'s nbextension bundle does not start with an anonymous "
            "define([...]); costwidget cannot inline this version."
        )
    return js


def js_version(dist: str, module: str) -> str:
    """The npm version of ``module`` as installed by ``dist`` (its labextension package.json)."""
    data, _ = _dist_file(dist, f"labextensions/{module}/package.json")
    return json.loads(data)["version"]


def script_safe(js: str) -> str:
    """JavaScript that can sit inside ``<script>...</script>``: ``</script`` and ``<!--`` are
    escaped (they can only occur in strings, regular expressions or comments, where ``<\\/`` and
    ``\\x3C`` mean the same characters)."""
    js = re.sub(r"(?i)</(script)", r"<\\/\1", js)
    return js.replace("<!--", "\\x3C!--")


def json_for_script(value, **kwargs) -> str:
    """JSON for a ``<script type="application/...json">`` element: ``<``, ``>`` and ``&`` are
    ``\\u`` escapes, so no text in the data can end the element or start markup."""
    text = json.dumps(value, allow_nan=False, **kwargs)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _cell(value) -> str:
    if isinstance(value, str):
        return html.escape(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return html.escape(str(value))


def readout_table(
    readout, colors: dict, *, best_column="expected_cost", empty="No classifier shown."
) -> str:
    """A table indexed by classifier (the readout, the range table) as HTML; every text is
    escaped. Highlighted: the row with the least ``best_column``, or where it is True."""
    if readout is None or readout.empty:
        return f"<p><i>{html.escape(empty)}</i></p>"
    best = set()
    if best_column in readout:
        col = readout[best_column]
        best = set(readout.index[col.astype(bool)]) if col.dtype == bool else {col.idxmin()}
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in ["classifier", *readout.columns])
    rows = []
    for name, row in readout.iterrows():
        color = html.escape(colors.get(name, "#000000"), quote=True)
        cls = " class='best'" if name in best else ""
        cells = "".join(f"<td>{_cell(v)}</td>" for v in row.tolist())
        rows.append(
            f"<tr{cls}><th scope='row'><span class='swatch' style='color:{color}'>"
            f"&#9632;</span> {html.escape(str(name))}</th>{cells}</tr>"
        )
    return (
        f"<table class='readout'><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5rem;
       color: #222; }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .4rem; }
.caption { margin: 0 0 .4rem; }
.costwidget-page-note { margin: 0 0 1rem; }
.note { color: #666; font-size: .85rem; }
table.readout { border-collapse: collapse; font-size: .85rem; }
table.readout th, table.readout td { padding: 2px 8px; text-align: right; border-bottom: 1px solid #ddd; }
table.readout th[scope=row] { text-align: left; font-weight: normal; }
table.readout tr.best { background: #fff3b0; font-weight: bold; }
.render-error { color: #a40000; }
/* Controls that need Python (disabled at export): their labels greyed out too. */
.costwidget .widget-checkbox:has(input:disabled) span,
.costwidget .widget-inline-hbox:has(:disabled, [disabled]) > .widget-label { opacity: .55; }
pre.snapshot { font-size: .75rem; background: #f6f6f6; padding: .5rem; overflow: auto;
               max-height: 30rem; }
"""


_NOTE_STATIC = """A static page, drawn from the widget's saved state: nothing is recomputed
(there is no Python behind it), so its controls are greyed out."""
_NOTE_INTERACTIVE = """Interactive with no Python behind it: p(+), the costs, the ratio and the
constraint recompute the operating point, its marks, the headline and the readout in the page.
The greyed-out controls (bands, the decision curve, the difference, threshold choice, the
classifiers shown, the range of interest) need Python: what they draw stays as exported, and
tables the page does not recompute say so in their title. Every number it recomputes is exact,
but for a constraint's best single threshold: computed from thresholds kept to
6 significant digits, within 5·10⁻⁶ relative, and shown exactly as the exact one."""
_NOTE_PER_CASE = """Interactive with no Python behind it: the cases carry their own costs, and
p(+) and the two multipliers recompute the operating point, its marks, the headline (money per
case, the rates counted in cases, the savings) and the readout in the page, as the kernel does
(the same choice, threshold and words; the money to rounding, as the kernel sums the
cost-weighted cases again at each setting). A
limit counts the cases at every threshold, which the page does not hold: its controls are
greyed out, as are those that need Python (bands, the decision curve, the difference,
threshold choice, the classifiers shown, the range of interest)."""


def _disabled_titles(frontend) -> str:
    """The script that titles each disabled control with why it is disabled; a per-case page's
    limit controls keep their own reason (the contract's, in the page's spec)."""
    kept = None
    if frontend is not None and frontend.get("per_case"):
        kept = frontend["contract"]["PER_CASE_REFUSED_LIMIT"]
    return _DISABLED_TITLES.replace("__WHY__", json_for_script(NEEDS_PYTHON)).replace(
        "__KEPT__", json_for_script(kept)
    )


def _page_note(frontend) -> str:
    """What the page recomputes, in words."""
    if frontend is None:
        return _NOTE_STATIC
    return _NOTE_PER_CASE if frontend.get("per_case") else _NOTE_INTERACTIVE


#: Kept as they are in a module's data: URL (letters and digits always are).
_URL_SAFE = "!$&'()*+,;=:@/?[]{}|^`~-._"


def _module_url(name: str) -> str:
    """A built ES module of the package's own static folder as a data: URL (an inlined
    ``<script type="module">`` can import it; nothing from the page's data is evaluated)."""
    path = STATIC / name
    if not path.exists():
        raise RuntimeMissing(
            f"{path} is missing: build it with `cd js && npm ci && npm run "
            "build`, or pass interactive=False for a static page."
        )
    # Percent-encoded text, not base64: a minified module is nearly all URL-safe characters, so
    # this grows it by a few per cent where base64 adds a third (the demo page's front end was
    # 45 bytes over its 80 KB budget). Quotes, "<", "%", "#", "\\" and whitespace are escaped, so
    # the URL can neither end the JS string it sits in nor the <script> element.
    text = path.read_bytes().decode("utf-8")
    return "data:text/javascript;charset=utf-8," + urllib.parse.quote(text, safe=_URL_SAFE)


def _bind_script(frontend) -> str:
    """The spec as a JSON element, and the module that binds the controls to the marks."""
    return f"""<script type="application/json" id="costwidget-frontend">{json_for_script(frontend)}</script>
<script type="module">
import * as OP from "{_module_url("operating-point.js")}";
import {{ bindPage, installTypedRefusals }} from "{_module_url("page-bind.js")}";
const spec = JSON.parse(document.getElementById("costwidget-frontend").textContent);
window.costwidgetPage = window.costwidgetModels.then((models) => {{
  const byId = new Map(models.map((m) => [m.model_id, m]));
  const page = bindPage(OP, spec, (id) => byId.get(id));
  installTypedRefusals(window, "costwidget", page.refuse);  // text that is no number: banner
  return page;
}});
window.costwidgetPage.catch((err) => console.error("costwidget:", err));
</script>"""


def standalone_page(
    *,
    manager_state,
    view_specs,
    title,
    caption,
    readout,
    colors,
    snapshot,
    range_table=None,
    cdn=False,
    generator="costwidget",
    created="",
    frontend=None,
    decision_rule=None,
) -> str:
    """The page's HTML text. ``manager_state``/``view_specs`` come from ``ipywidgets.embed``;
    ``frontend`` (`widget.page_spec`), when given, makes the operating point move in the page;
    ``decision_rule`` (a `DecisionRule` record's dict) is shown as the rule to deploy."""
    views = "\n".join(
        f'<script type="application/vnd.jupyter.widget-view+json">{json_for_script(v)}</script>'
        for v in view_specs
    )
    if cdn:
        head, render = _cdn_scripts()
    else:
        head = inline_head()
        render = f"<script>{_RENDER}</script>"
    when = f" on {html.escape(created)}" if created else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{html.escape(generator, quote=True)}">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
{head}
</head>
<body>
<h1>{html.escape(title)}</h1>
<p class="caption">{"" if frontend is None else "As exported: "}{html.escape(caption)}</p>
<p class="note costwidget-page-note">{_page_note(frontend)} Made with
{html.escape(generator)}{when}.</p>
<main>
<section id="costwidget-view">
<script type="application/vnd.jupyter.widget-state+json">{json_for_script(manager_state)}</script>
{views}
</section>
<section id="costwidget-readout">
<h2>Readout at the {"" if frontend is None else "exported "}operating point</h2>
{readout_table(readout, colors)}
</section>
{_range_section(range_table, colors)}
{_decision_rule_section(decision_rule)}
<section id="costwidget-snapshot-record">
<h2>Snapshot</h2>
<p class="note">The record of this analysis; <code>w.restore(snapshot)</code> brings a widget over
the same classifiers back to it (copy the JSON below, or read the
<code>costwidget-snapshot</code> script element).</p>
<details><summary>JSON</summary>
<pre class="snapshot">{html.escape(json.dumps(snapshot, indent=1, allow_nan=False))}</pre>
</details>
<script type="application/json" id="costwidget-snapshot">{json_for_script(snapshot)}</script>
</section>
</main>
{render}
<script>{_disabled_titles(frontend)}</script>
{"" if frontend is None else _bind_script(frontend)}
</body>
</html>
"""


def _decision_rule_section(rule) -> str:
    """The rule to deploy (a ``DecisionRule.to_dict()``) as a two-column table, every text escaped."""
    if not rule:
        return ""
    rows = "".join(
        f"<tr><th scope=row>{html.escape(str(k))}</th><td>{_cell(v)}</td></tr>"
        for k, v in rule.items()
    )
    return (
        "<section id='costwidget-decision-rule'>\n<h2>Rule to deploy</h2>\n"
        "<p class='note'>Predict positive when score &ge; threshold (a randomized rule mixes "
        "two thresholds); <code>w.decision_rule()</code>, <code>w.to_estimator()</code>.</p>\n"
        f"<table class='readout'><tbody>{rows}</tbody></table>\n</section>"
    )


def _range_section(table, colors) -> str:
    if table is None:
        return ""
    return (
        "<section id='costwidget-range'>\n<h2>Over the range of interest</h2>\n"
        + readout_table(table, colors, best_column="recommended")
        + "\n</section>"
    )


def _cdn_scripts() -> tuple[str, str]:
    """Script tags loading the runtime from jsDelivr (exact versions; SRI where the bytes are
    known here), with bqplot and bqscales pinned to the installed versions."""
    meta = _cdn_manifest()
    paths = {m: f"{_CDN}{m}@{js_version(m, m)}/dist/index" for m in ("bqplot", "bqscales")}
    # The widget manager's modules are defined by embed-amd.js itself, so these paths are never
    # fetched; webpack derives each module's asset folder (the FontAwesome files) from them,
    # which would otherwise be the page's own folder.
    dist = _CDN + meta["assets"]
    paths.update(
        {
            "@jupyter-widgets/base": dist + "base",
            "@jupyter-widgets/controls": dist + "controls",
            "@jupyter-widgets/html-manager": dist + "index",
            "@jupyter-widgets/html-manager/dist": dist.rstrip("/"),
        }
    )
    rq, embed = meta["requirejs"], meta["embed_amd"]
    config = json_for_script({"paths": paths})
    assets = json_for_script(_CDN + meta["assets"])
    head = "\n".join(
        [
            f'<script src="{_CDN}{rq["path"]}" integrity="{rq["integrity"]}" '
            'crossorigin="anonymous"></script>',
            f"<script>window.__jupyter_widgets_assets_path__ = {assets}; "
            f"require.config({config});</script>",
        ]
    )
    # embed-amd.js renders the page's widgets itself once loaded.
    render = (
        f'<script src="{_CDN}{embed["path"]}" integrity="{embed["integrity"]}" '
        'crossorigin="anonymous"></script>'
    )
    return head, render


def _cdn_manifest() -> dict:
    manifest = STATIC / "embed-runtime.json"
    if manifest.exists():
        return json.loads(manifest.read_text(encoding="utf-8"))["cdn"]
    raise RuntimeMissing(
        f"{manifest} is missing (it pins the CDN versions): rebuild the runtime "
        "with `cd js && npm ci && npm run build`."
    )


def widget_page(*, manager_state, view_specs, title) -> str:
    """A page of any widget's embedded state (bqplot included), offline and static: the same
    inlined runtime as :func:`standalone_page`, without the cost widget's readout and record.
    Names reach it only as escaped text and as JSON in script elements."""
    head = inline_head()
    views = "\n".join(
        f'<script type="application/vnd.jupyter.widget-view+json">{json_for_script(v)}</script>'
        for v in view_specs
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
{head}
</head>
<body>
<main>
<section id="costwidget-view">
<script type="application/vnd.jupyter.widget-state+json">{json_for_script(manager_state)}</script>
{views}
</section>
</main>
<script>{_RENDER}</script>
</body>
</html>
"""
