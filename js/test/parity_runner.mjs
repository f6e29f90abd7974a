// Runs js/src/operating_point.mjs on every case of tests/test_frontend_parity.py at once.
//
//   node js/test/parity_runner.mjs [module] < input.json > output.json
//
// `module` defaults to js/src/operating_point.mjs; give costwidget/static/operating-point.js to
// check the built (minified) file.
//
// Input: {groups: [{header, buffers: [base64]}], states: [...], pcf_queries: [...],
// constraint_queries: [...], format_queries: [...]}. Non-finite numbers travel as
// {"__float__": "inf" | "-inf" | "nan"} (strict JSON has no such numbers). Output: the same
// lists of answers, written as JSON with bare NaN/Infinity/-Infinity tokens, which Python's
// json.loads reads; typed arrays become lists. A case that throws answers {"error": message},
// so that Python can check that both sides refuse the same states.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const op = await import(process.argv[2] ? pathToFileURL(resolve(process.argv[2])).href
  : new URL("../src/operating_point.mjs", import.meta.url).href);

const SENTINEL = { inf: Infinity, "-inf": -Infinity, nan: NaN };

function revive(_key, value) {
  if (value && typeof value === "object" && !Array.isArray(value) && "__float__" in value) {
    return SENTINEL[value.__float__];
  }
  return value;
}

function dump(value) {
  const text = JSON.stringify(value, (_key, v) => {
    if (ArrayBuffer.isView(v)) return Array.from(v);
    if (typeof v === "number" && !Number.isFinite(v)) {
      return Number.isNaN(v) ? "@@NaN@@" : v > 0 ? "@@Infinity@@" : "@@-Infinity@@";
    }
    return v;
  });
  return text.replace(/"@@(NaN|Infinity|-Infinity)@@"/g, "$1");
}

function attempt(fn) {
  try {
    return fn();
  } catch (err) {
    return { error: String(err && err.message ? err.message : err) };
  }
}

const input = JSON.parse(readFileSync(0, "utf8"), revive);
op.useContract(input.contract); // what Python sends with every page's spec
const groups = input.groups.map((g) => op.decodePayload(g.header, g.buffers));
const t0 = process.hrtime.bigint();
const states = input.states.map((s) => attempt(() => {
  const band = s.runner_up_band ?? null; // issue 32: the kernel's band, when the case has one
  const view = op.computeView(groups[s.group], s, { colors: s.colors ?? {}, runnerUpBand: band });
  return {
    pcf: view.operating.pcf,
    slope: view.operating.slope,
    best: view.operating.best,
    iso_x: view.operating.isoLines.x,
    iso_y: view.operating.isoLines.y,
    iso_opacities: view.operating.isoLines.opacities,
    chosen_x: view.operating.chosen.x,
    chosen_y: view.operating.chosen.y,
    nec_x: view.operating.necPoints.x,
    nec_y: view.operating.necPoints.y,
    winner_dot: { x: view.operating.winnerDot.x, y: view.operating.winnerDot.y,
      colors: view.operating.winnerDot.colors, visible: view.operating.winnerDot.visible },
    operating_line: [view.operating.operatingLine.x, view.operating.operatingLine.y],
    expected_cost: view.operating.best.map((b) => b.nec * op.costScale(s.p_pos, s.cost_fn, s.cost_fp)),
    constrained: view.constraint.constrained,
    roc_line: [view.constraint.rocLine.x, view.constraint.rocLine.y],
    roc_points: [view.constraint.rocPoints.x, view.constraint.rocPoints.y],
    roc_points_opacities: view.constraint.rocPoints.opacities,
    cost_lines_y: view.constraint.costLines.y,
    constraint_on: view.constraint.on,
    message_html: view.constraint.messageHtml,
    rows: view.readout.rows,
    readout_html: view.readout.html,
    constraint_html: view.readout.constraintHtml,
    description: op.constraintDescription(s),
    pcf_label: view.pcfLabel,
    headline: view.headline.text,
    headline_html: view.headline.html,
    // The one answer, as Decision.to_dict() (op.decide), and the view's copy of it.
    decision: op.decide(groups[s.group], s, { runnerUpBand: band }),
    view_decision: op.jsonable(view.decision),
  };
}));
const elapsedMs = Number(process.hrtime.bigint() - t0) / 1e6;
const pcfQueries = input.pcf_queries.map((q) => attempt(() => op.best(groups[q.group][q.index], q.pcf)));
const constraintQueries = input.constraint_queries.map((q) => attempt(() => {
  const clf = groups[q.group][q.index];
  return q.kind === "neyman_pearson" ? op.neymanPearson(clf, q.limit)
    : op.workforce(clf, q.limit, q.n_pos ?? undefined, q.n_neg ?? undefined);
}));
const formatQueries = input.format_queries.map(([x, spec]) => op.formatPy(x, spec));
const readableQueries = (input.readable_queries || []).map((x) =>
  [op.readable(x), op.readableValue(x), op.roundSignificant(x, 3)]);
const selectingQueries = (input.selecting_queries || []).map(([t, lo]) => op.selectingThreshold(t, lo));
process.stdout.write(dump({
  states, pcf_queries: pcfQueries, constraint_queries: constraintQueries,
  format_queries: formatQueries, readable_queries: readableQueries,
  selecting_queries: selectingQueries, elapsed_ms: elapsedMs,
}));
