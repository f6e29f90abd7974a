// Builds the script runtime of the offline HTML page that CostWidget.to_html writes.
//
//   costwidget/static/embed-runtime.js    minified require.js, FontAwesome's woff2 fonts as data
//                                         URIs, and @jupyter-widgets/html-manager's embed-amd.js
//                                         (widget manager + renderer), trimmed (see below)
//   costwidget/static/embed-runtime.json  what went in: versions, sizes, sha256 (read by Python)
//   costwidget/static/THIRD-PARTY-NOTICES.txt   licenses of everything bundled
//   costwidget/static/operating-point.js  js/src/operating_point.mjs minified, still an ES module
//                                         (the operating point, the constraints and the readout,
//                                         computed in the browser; no dependencies)
//   costwidget/static/page-bind.js        js/src/page_bind.mjs minified: binds the controls to
//                                         those marks and tables in an exported page
//   costwidget/static/live-link.js        js/src/live_link.mjs with the two above inlined: the
//                                         anywidget `_esm` of the live link (frontend_link.py)
//
// bqplot's and bqscales' bundles are NOT built here: Python takes them from the installed bqplot
// at export time, so they always match the bqplot that made the widget state.
//
// Run with `npm install && npm run build` in js/ (hatch-jupyter-builder does this when the wheel
// or an editable install is built). Versions are pinned exactly in package.json/package-lock.json;
// the trimming below checks the bundle's layout and fails loudly if a new version changes it.

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import vm from "node:vm";

import * as acorn from "acorn";
import * as walk from "acorn-walk";
import { minify } from "terser";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, "..", "costwidget", "static");
const require = createRequire(import.meta.url);
const pkgDir = (name) => dirname(require.resolve(`${name}/package.json`));
const pkgJson = (name) => JSON.parse(readFileSync(join(pkgDir(name), "package.json"), "utf8"));

// Sections of embed-amd.js (one per webpack build, each ending with its sourceMappingURL line)
// and whether the page needs them. base7/controls7 serve ipywidgets 7 widget state only; the
// state written by ipywidgets 8 (model version 2.x) and bqplot 0.13 never loads them.
const SECTIONS = {
  "base.js": true,
  "controls.js": true,
  "base7.js": false,
  "controls7.js": false,
  "index.js": true, // @jupyter-widgets/html-manager: HTMLManager, requireLoader, the CSS, fonts
  // renderWidgets() only (plus a second copy of ajv and the CSS, 230 kB): the page renders its
  // one widget with HTMLManager itself.
  "libembed-amd.js": false,
  "embed-amd-render.js": false, // auto-render on load
};

const FONT_RE = /^[0-9a-f]{20}\.(woff2|woff|ttf|eot|svg)$/;

function splitSections(text) {
  const re = /\/\/# sourceMappingURL=([\w.-]+)\.map;?\n?/g;
  const sections = [];
  let start = 0;
  for (let m; (m = re.exec(text)); ) {
    sections.push({ name: m[1], code: text.slice(start, m.index) });
    start = re.lastIndex;
  }
  if (text.slice(start).trim()) throw new Error("embed-amd.js: text after the last section");
  const names = sections.map((s) => s.name).join(",");
  if (names !== Object.keys(SECTIONS).join(",")) {
    throw new Error(`embed-amd.js has sections ${names}, expected ${Object.keys(SECTIONS)}; ` +
      "the html-manager version changed its layout: update SECTIONS in js/build.mjs");
  }
  return sections;
}

// Two edits, found with a real parser (never by text search in minified code):
// * css-loader's source maps of the bundled CSS ({version: 3, sources, mappings, ...}), about
//   450 kB the page never uses, become `void 0` (css-loader then skips them);
// * webpack asset URLs `__webpack_require__.p + "<hash>.woff2"` (the font files, which would be
//   looked up next to the HTML file) become `__costwidgetFont("<hash>.woff2")`, a data URI.
function rewrite(code, stats) {
  const ast = acorn.parse(code, { ecmaVersion: "latest", sourceType: "script" });
  const edits = [];
  walk.full(ast, (node) => {
    if (node.type === "ObjectExpression") {
      const keys = node.properties.map((p) => p.key && (p.key.name ?? p.key.value));
      if (keys.includes("version") && keys.includes("mappings") && keys.includes("sources")) {
        edits.push([node.start, node.end, "void 0"]);
        stats.cssSourceMaps += 1;
      }
    } else if (node.type === "BinaryExpression" && node.operator === "+" &&
               node.left.type === "MemberExpression" && !node.left.computed &&
               node.left.property.name === "p" && node.right.type === "Literal" &&
               typeof node.right.value === "string" && FONT_RE.test(node.right.value)) {
      edits.push([node.start, node.end, `__costwidgetFont(${JSON.stringify(node.right.value)})`]);
      stats.fontRefs += 1;
    }
  });
  edits.sort((a, b) => b[0] - a[0]);
  for (let i = 1; i < edits.length; i++) {
    if (edits[i][1] > edits[i - 1][0]) throw new Error("overlapping edits");
  }
  for (const [start, end, text] of edits) code = code.slice(0, start) + text + code.slice(end);
  return code;
}

// Only woff2 is inlined: every browser that runs this bundle (ES2018+) supports it, and CSS
// @font-face takes the first supported format, so the .eot/.woff/.ttf/.svg copies would be
// 1.5 MB never read. They map to an empty data URI, which is never fetched either.
function fontTable(dist, used) {
  const table = {};
  for (const name of [...used].sort()) {
    if (name.endsWith(".woff2")) {
      table[name] = "data:font/woff2;base64," + readFileSync(join(dist, name)).toString("base64");
    }
  }
  return table;
}

async function main() {
  const hm = pkgJson("@jupyter-widgets/html-manager");
  const rq = pkgJson("requirejs");
  const dist = join(pkgDir("@jupyter-widgets/html-manager"), "dist");
  const embed = readFileSync(join(dist, "embed-amd.js"), "utf8");
  const stats = { cssSourceMaps: 0, fontRefs: 0 };
  const used = new Set();
  for (const m of embed.matchAll(/"([0-9a-f]{20}\.(?:woff2|woff|ttf|eot|svg))"/g)) used.add(m[1]);
  const kept = [];
  const dropped = [];
  const code = [];
  for (const s of splitSections(embed)) {
    if (!SECTIONS[s.name]) {
      dropped.push(s.name);
      continue;
    }
    kept.push(s.name);
    code.push(rewrite(s.code, stats).trim());
  }
  if (stats.fontRefs === 0 || stats.cssSourceMaps === 0) {
    throw new Error(`expected font references and CSS source maps, got ${JSON.stringify(stats)}`);
  }
  const requirePath = join(pkgDir("requirejs"), "require.js");
  const requireSrc = readFileSync(requirePath, "utf8");
  const requireMin = (await minify(requireSrc, {
    compress: true, mangle: true, format: { comments: /@license|@preserve|^!/ },
  })).code;

  const fonts = fontTable(dist, used);
  const parts = [
    `/* costwidget embed runtime, built by js/build.mjs from requirejs ${rq.version} and ` +
      `@jupyter-widgets/html-manager ${hm.version}; licenses in THIRD-PARTY-NOTICES.txt. */`,
    requireMin,
    `var __costwidgetFonts=${JSON.stringify(fonts)};` +
      `function __costwidgetFont(n){return __costwidgetFonts[n]||"data:,"}`,
  ];
  parts.push(...code);
  let runtime = parts.join("\n") + "\n";
  // The runtime is inlined into <script> elements: neither sequence may appear in it (Python
  // checks again when it writes the page).
  if (/<\/script|<!--/i.test(runtime)) throw new Error("runtime contains </script or <!--");
  new vm.Script(runtime, { filename: "embed-runtime.js" });

  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "embed-runtime.js"), runtime);
  const manifest = {
    file: "embed-runtime.js",
    bytes: Buffer.byteLength(runtime),
    sha256: createHash("sha256").update(runtime).digest("hex"),
    requirejs: rq.version,
    html_manager: hm.version,
    sections_kept: kept,
    sections_dropped: dropped,
    css_source_maps_removed: stats.cssSourceMaps,
    font_references_rewritten: stats.fontRefs,
    fonts_inlined: Object.keys(fonts),
    render_module: "@jupyter-widgets/html-manager",
    // For the cdn=True page, which loads the original files from jsDelivr (the npm files as
    // published): subresource-integrity hashes of exactly these versions.
    cdn: {
      requirejs: { path: `requirejs@${rq.version}/require.js`, integrity: sri(requirePath) },
      embed_amd: {
        path: `@jupyter-widgets/html-manager@${hm.version}/dist/embed-amd.js`,
        integrity: sri(join(dist, "embed-amd.js")),
      },
      assets: `@jupyter-widgets/html-manager@${hm.version}/dist/`,
    },
  };
  writeFileSync(join(out, "embed-runtime.json"), JSON.stringify(manifest, null, 2) + "\n");
  writeFileSync(join(out, "THIRD-PARTY-NOTICES.txt"), notices(hm, rq, dist));
  console.log(`wrote ${join(out, "embed-runtime.js")}: ${manifest.bytes} bytes ` +
    `(dropped ${dropped.join(", ")}; ${stats.cssSourceMaps} CSS source maps removed; ` +
    `${Object.keys(fonts).length} woff2 fonts inlined)`);
  await buildOperatingPoint();
  await buildModule("page_bind.mjs", "page-bind.js", (m) => m.costsForRatio(4, 1, 2)[0] === 8);
  await buildModule("live_link.mjs", "live-link.js",
    (m) => typeof m.default.initialize === "function" && m.steppedValue(
      { get: (k) => ({ min: 0.001, max: 0.999, step: 0.001, value: 0.3 })[k] }, 1) === 0.301,
    inlineImports);
}

// anywidget loads `_esm` as one module from a blob URL, where relative imports do not resolve:
// live-link.js carries operating_point.mjs and page_bind.mjs inside it. Each import of a local
// module becomes `const` bindings to an object of that module's exports, made by wrapping the
// module (its `export` keywords removed, found with a real parser) in a function.
function inlineImports(src) {
  const ast = acorn.parse(src, { ecmaVersion: "latest", sourceType: "module" });
  const edits = [];
  const modules = [];
  for (const node of ast.body) {
    if (node.type !== "ImportDeclaration") continue;
    const file = node.source.value;
    if (!file.startsWith("./")) throw new Error(`live_link.mjs imports ${file}: only ./ modules inline`);
    const ns = `__cw_${modules.length}`;
    modules.push(`const ${ns} = ${wrapModule(readFileSync(join(here, "src", file), "utf8"), file)};`);
    const binds = node.specifiers.map((s) => (s.type === "ImportNamespaceSpecifier"
      ? `const ${s.local.name} = ${ns};`
      : s.type === "ImportSpecifier" ? `const ${s.local.name} = ${ns}.${s.imported.name};`
        : `const ${s.local.name} = ${ns}.default;`));
    edits.push([node.start, node.end, binds.join("\n")]);
  }
  edits.sort((a, b) => b[0] - a[0]);
  for (const [start, end, text] of edits) src = src.slice(0, start) + text + src.slice(end);
  return `${modules.join("\n")}\n${src}`;
}

function wrapModule(src, file) {
  const ast = acorn.parse(src, { ecmaVersion: "latest", sourceType: "module" });
  const names = [];
  const edits = [];
  for (const node of ast.body) {
    if (node.type === "ImportDeclaration") throw new Error(`${file} imports: not inlinable`);
    if (node.type === "ExportDefaultDeclaration" || node.type === "ExportAllDeclaration" ||
        (node.type === "ExportNamedDeclaration" && !node.declaration)) {
      throw new Error(`${file}: only \`export function/const/class\` can be inlined`);
    }
    if (node.type !== "ExportNamedDeclaration") continue;
    const decl = node.declaration;
    if (decl.type === "VariableDeclaration") {
      for (const d of decl.declarations) names.push(d.id.name);
    } else {
      names.push(decl.id.name);
    }
    edits.push([node.start, decl.start]);
  }
  edits.sort((a, b) => b[0] - a[0]);
  for (const [start, end] of edits) src = src.slice(0, start) + src.slice(end);
  return `(() => {\n${src}\nreturn Object.freeze({ ${names.join(", ")} });\n})()`;
}

// The front-end operating-point module: minified as an ES module (its exports keep their names,
// which anywidget's _esm and a page's <script type="module"> both import). The result is
// imported back and must export exactly what the source does, so a minifier change that drops
// or renames an export fails here, not in a user's browser.
async function buildOperatingPoint() {
  await buildModule("operating_point.mjs", "operating-point.js",
    (m) => m.probabilityCost(0.1, 9, 1) === 0.5 && m.formatPy(0.125, ".2g") === "0.12");
}

// One ES module of js/src, minified into costwidget/static; `check` runs on the built module.
async function buildModule(source, target, check, transform = (text) => text) {
  const srcPath = join(here, "src", source);
  const src = transform(readFileSync(srcPath, "utf8"));
  const min = (await minify(src, {
    module: true, ecma: 2020, compress: true, mangle: true, format: { comments: false },
  })).code;
  const code = `/* costwidget ${target}, built by js/build.mjs from ` +
    `js/src/${source} (BSD-3-Clause). */\n${min}\n`;
  // It may be inlined into the exported page's <script> elements.
  if (/<\/script|<!--/i.test(code)) throw new Error(`${target} contains </script or <!--`);
  const file = join(out, target);
  writeFileSync(file, code);
  const [built, original] = await Promise.all([
    import(`${pathToFileURL(file).href}?${Date.now()}`), import(pathToFileURL(srcPath).href)]);
  const names = (m) => Object.keys(m).sort().join(",");
  if (names(built) !== names(original)) {
    throw new Error(`${target} exports ${names(built)}, the source ${names(original)}`);
  }
  if (!check(built)) throw new Error(`${target} computes differently from its source`);
  console.log(`wrote ${file}: ${Buffer.byteLength(code)} bytes (source ${Buffer.byteLength(src)})`);
}

function sri(path) {
  return "sha384-" + createHash("sha384").update(readFileSync(path)).digest("base64");
}

function notices(hm, rq, dist) {
  const fa = pkgDir("@fortawesome/fontawesome-free");
  const faVersion = pkgJson("@fortawesome/fontawesome-free").version;
  return [
    "Third-party software in costwidget/static/embed-runtime.js",
    "=".repeat(60),
    "",
    `requirejs ${rq.version} - MIT license, Copyright jQuery Foundation and other contributors.`,
    "https://github.com/requirejs/requirejs",
    "",
    `@jupyter-widgets/html-manager ${hm.version} (with @jupyter-widgets/base and controls) - ` +
      `${hm.license}, Copyright (c) Jupyter Development Team. https://github.com/jupyter-widgets/ipywidgets`,
    "It bundles the following, whose notices follow:",
    "",
    readFileSync(join(dist, "embed.js.LICENSE.txt"), "utf8"),
    "",
    `@fortawesome/fontawesome-free ${faVersion} (fonts inlined as data URIs):`,
    readFileSync(join(fa, "LICENSE.txt"), "utf8"),
    "",
  ].join("\n");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
