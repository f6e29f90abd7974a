// The node side of tests/test_frontend_parity.py: one process for the whole test run, answering
// requests read from stdin, one JSON object a line, one answer a line on stdout, in order.
//
//   node js/test/parity_runner.mjs < requests.jsonl > answers.jsonl
//
// Requests:
//   {"task": "parity", "module": null | "costwidget/static/operating-point.js", "input": {...}}
//     every case of the parity test at once, run by js/src/operating_point.mjs (module null) or
//     by the built (minified) file. Input: {contract, groups: [{header, buffers: [base64]}],
//     states, pcf_queries, constraint_queries, format_queries, readable_queries,
//     selecting_queries}; the answer: the same lists of answers.
//   {"task": "per_case", "module": ..., "input": {contract, groups: [{header, buffers, per_case}],
//     states}}: a per-case widget's view and decision at each state (perCase below).
//   {"task": "glue", "queries": [[kind, a, b, c, d], ...]}
//     page_bind.mjs's conversions; a refused query answers "error".
//
// Non-finite numbers travel as {"__float__": "inf" | "-inf" | "nan"} (strict JSON has no such
// numbers); answers are JSON with bare NaN/Infinity/-Infinity tokens, which Python's json.loads
// reads; typed arrays become lists. A case that throws answers {"error": message}, so that
// Python can check that both sides refuse the same states; a request that throws answers
// {"failed": message}, and the process goes on with the next one.

import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const glue = await import(new URL("../src/page_bind.mjs", import.meta.url).href);
const modules = new Map();
async function moduleAt(path) {
  const url = path ? pathToFileURL(resolve(path)).href
    : new URL("../src/operating_point.mjs", import.meta.url).href;
  if (!modules.has(url)) modules.set(url, await import(url));
  return modules.get(url);
}

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

function attemptOr(fn) {
  const out = attempt(fn);
  return out && typeof out === "object" && "error" in out && Object.keys(out).length === 1
    ? "error" : out;
}

function direct(op, s, view) {
  const pcf = view.operating.pcf;
  const rows = view.readout.rows;
  const colors = s.colors ?? {};
  return {
    probability_cost: op.probabilityCost(s.p_pos, s.cost_fn, s.cost_fp),
    cost_scale: op.costScale(s.p_pos, s.cost_fn, s.cost_fp),
    iso_performance_slope: op.isoPerformanceSlope(pcf),
    iso_performance_segment: view.operating.best.map((b) => op.isoPerformanceSegment(b.fpr, b.tpr, pcf)),
    workforce_segment: attemptOr(() => op.workforceSegment(s.capacity, s.n_pos, s.n_neg)),
    readout_html: op.readoutHtml(rows, colors),
    constraint_html: op.constraintHtml(rows, colors, op.constraintDescription(s)),
    population_text: op.populationText(s),
    headline_html: op.headlineHtml(view.headline.text),
    pcf_label: op.pcfLabel(pcf, s.cost_fn, s.cost_fp),
    format_ratio: op.formatRatio(s.cost_fn, s.cost_fp),
    capacity_text: op.capacityText(s.capacity, s.n_pos, s.n_neg),
  };
}

function parity(op, input) {
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
    // The one answer, as Decision.to_dict(), and the view's copy of it.
    decision: op.jsonable(op.decisionOf(groups[s.group], s, { runnerUpBand: band })),
    view_decision: op.jsonable(view.decision),
    // Each mirror row of costwidget/frontend/contract.py MIRROR called by itself, for its
    // Python twin (tests/test_frontend_parity.py test_each_mirror_row_agrees_by_itself).
    direct: direct(op, s, view),
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
// The threshold deployed for each query, as a string where JSON has no number (±inf, NaN), and
// its text as the headline prints it.
const deployedQueries = (input.selecting_queries || []).map(([t, lo]) => {
  const v = op.deployedThreshold(t, lo);
  return [Number.isFinite(v) ? v : String(v), op.thresholdText(v)];
});
return {
  states, pcf_queries: pcfQueries, constraint_queries: constraintQueries,
  format_queries: formatQueries, readable_queries: readableQueries,
  selecting_queries: selectingQueries, deployed_queries: deployedQueries, elapsed_ms: elapsedMs,
};
}

// Per-case costs (tests/test_frontend_case_costs.py): the page's view of a per-case widget
// (perCaseView), its decision (perCaseDecision, mirroring PerCaseCosts.headline of decide()) and
// savings (perCaseSavings, savingsWords: per_case_savings, savings_words), at each state.
function perCase(op, input) {
  op.useContract(input.contract);
  const groups = input.groups.map((g) => op.decodePayload(g.header, g.buffers));
  const states = input.states.map((s) => attempt(() => {
    const pc = input.groups[s.group].per_case;
    const runnerUpBand = s.runner_up_band ?? null;
    const view = op.perCaseView(groups[s.group], s, pc, { colors: s.colors ?? {}, runnerUpBand });
    const d = op.perCaseDecision(groups[s.group], s, pc, { runnerUpBand });
    const cost = d.rule === null ? null : d.rule.expected_cost;
    const savings = cost === null ? null : op.perCaseSavings(pc, cost, s.p_pos, s.cost_fn, s.cost_fp);
    return {
      decision: op.jsonable(d), headline: view.headline.text, headline_html: view.headline.html,
      readout_html: view.readout.html, pcf: view.operating.pcf, pcf_label: view.pcfLabel,
      winner_dot: { x: view.operating.winnerDot.x, y: view.operating.winnerDot.y,
        visible: view.operating.winnerDot.visible },
      nec_y: view.operating.necPoints.y, chosen_x: view.operating.chosen.x,
      chosen_y: view.operating.chosen.y,
      savings, savings_words: savings === null ? null : op.savingsWords(savings),
    };
  }));
  return { states };
}

function glueQueries(op, queries) {
  const g = glue;
  return queries.map(([kind, a, b, c, d]) => {
    try {
      return kind === "ratio" ? g.costsForRatio(a, b, c)
        : kind === "pcf" ? g.costsForPcf(a, b, c, d)
        : kind === "prev" ? [g.prevalenceForPcf(a, c, d)]
        : kind === "move" ? g.moveToPcf(a, b, c, d, 3, op.roundSignificant)
        : kind === "exact" ? g.moveToPcf(a, b, c, d)
        : kind === "snap" ? [g.snapPcf(a)]
        : kind === "population" ? g.populationFor(a, b)
        : kind === "to" ? [g.capacityToCases(a, b, c, d)] : [g.capacityFromCases(a, b, c, d)];
    } catch {
      return "error";
    }
  });
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  let answer;
  try {
    const request = JSON.parse(line, revive);
    answer = request.task === "glue" ? glueQueries(await moduleAt(null), request.queries)
      : request.task === "per_case" ? perCase(await moduleAt(request.module), request.input)
      : parity(await moduleAt(request.module), request.input);
  } catch (err) {
    answer = { failed: String(err && err.stack ? err.stack : err) };
  }
  process.stdout.write(`${dump(answer)}\n`);
}
