// The page glue with stand-in widget models (node --test; `npm test` in js/). Closed forms:
// Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7) has one ROC point (0.3, 0.7), optimal on
// PCF(+) in [0.3, 0.7); costs_for_ratio keeps C(+|-) when it is positive.

import assert from "node:assert/strict";
import { test } from "node:test";

import { CONTRACT, REQUIRED_ARRAYS } from "./contract.mjs";
import * as OP from "../src/operating_point.mjs";
import { bindPage, capacityFromCases, capacityToCases, costsForPcf, costsForRatio, 
  moveToPcf, prevalenceForPcf } from "../src/page_bind.mjs";

/** A Backbone-like model: get, set (object or key/value; "change:key" events), on. */
function model(attrs = {}) {
  const handlers = {};
  return {
    attrs,
    get: (k) => attrs[k],
    set(k, v) {
      const changes = typeof k === "string" ? { [k]: v } : k;
      for (const [key, value] of Object.entries(changes)) {
        if (attrs[key] === value) continue;
        attrs[key] = value;
        for (const h of handlers[`change:${key}`] || []) h(this, value);
      }
    },
    on(event, h) { (handlers[event] ||= []).push(h); },
  };
}

const floats = (a) => a.map((x) => new Float64Array([x]).buffer);
function setup() {
  const arrays = {
    hull_threshold: [Infinity, NaN, -Infinity], hull_fpr: [0, 0.3, 1], hull_tpr: [0, 0.7, 1],
    segment_lo: [0, 0.3, 0.7], segment_hi: [0.3, 0.7, 1], segment_vertex: [0, 1, 2],
    single_threshold: [Infinity, NaN, -Infinity], single_fpr: [0, 0.3, 1], single_tpr: [0, 0.7, 1],
    scalars: [10, 10, 0.3, 0.7],
  };
  const buffers = REQUIRED_ARRAYS.map((k) => new Float64Array(arrays[k]));
  const header = {
    format: CONTRACT.PAYLOAD_FORMAT, version: CONTRACT.PAYLOAD_VERSION, dtype: "<f8",
    classifiers: [{ name: "a", arrays: Object.fromEntries(REQUIRED_ARRAYS.map((k, i) =>
      [k, { buffer: i, offset: 0, length: arrays[k].length }])) }],
  };
  const models = {};
  const roles = {};
  for (const role of [...CONTRACT.CONTROL_ROLES, ...CONTRACT.OWNED_ROLES]) {
    models[role] = model({ value: 0, min: 0.001, max: 0.999, index: 0 });
    roles[role] = role;
  }
  // The click target: 501 bars at PCF(+) 0, 0.002, ..., 1; a click calls the model's send().
  const bars = model({ x: Float64Array.from({ length: 501 }, (_, i) => i / 500) });
  bars.sent = [];
  bars.send = (content) => { bars.sent.push(content); };
  models.click_bars = bars;
  roles.click_bars = "click_bars";
  const spec = {
    contract: CONTRACT, roles, colors: { a: "#123456" },
    state: { p_pos: 0.5, cost_fn: 1, cost_fp: 1, constraint: "none", max_fpr: 0.1, capacity: 10,
      n_pos: 10, n_neg: 10, population_set: false, visible: ["a"] },
    options: { constraint: ["none", "neyman_pearson", "workforce"], capacity_unit: ["cases", "% flagged"] },
    payload: { header, buffers },
  };
  const page = bindPage(OP, spec, (id) => models[id]);
  return { page, models };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

test("costs_for_ratio and the capacity units, as the Python docstrings say", () => {
  assert.deepEqual(costsForRatio(4, 1, 2), [8, 2]);
  assert.deepEqual(costsForRatio(4, 3, 0), [3, 0.75]);
  assert.deepEqual(costsForRatio(Infinity, 1, 2), [1, 0]);
  assert.deepEqual(costsForRatio(0, 1, 2), [0, 2]);
  assert.equal(capacityToCases(30, "% flagged", 300, 700), 300);
  assert.equal(capacityFromCases(300, "% flagged", 300, 700), 30);
});

test("costs_for_pcf and move_to_pcf as the Python docstrings say; the dropped handle moves p(+)", async () => {
  assert.deepEqual(costsForPcf(0.75, 0.5, 1.0, 0.0), [1.0, 0.3333333333333333]);
  assert.deepEqual(moveToPcf(0.7, 0.2, 5.0, 1.0, 3, OP.roundSignificant), [0.318, 5.0, 1.0]);
  assert.deepEqual(moveToPcf(0.5, 0.0, 0.0, 1.0), [0.5, 1.0, 1.0]);
  assert.equal(OP.probabilityCost(prevalenceForPcf(0.7, 5.0, 1.0), 5.0, 1.0), 0.7);
  const { page, models } = setup();
  models.handle.set("x", new Float64Array([0.75])); // costs 1 and 1 kept: p(+) = 0.75
  await tick();
  assert.deepEqual([page.state.p_pos, page.state.cost_fn, page.state.cost_fp], [0.75, 1, 1]);
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.75, 0.75]);
  // The population follows p(+) at its total (20) until it is set.
  assert.deepEqual([page.state.n_pos, page.state.n_neg], [15, 5]);
  assert.equal(models.population_value.get("value"), "population: 20 cases at p(+) = 0.75");
  models.n_pos.set("value", 4);
  await tick();
  models.handle.set("x", new Float64Array([0.2]));
  await tick();
  assert.deepEqual([page.state.p_pos, page.state.n_pos, page.state.n_neg], [0.2, 4, 5]);
  assert.equal(models.population_value.get("value"), "population set: 4 positives, 5 negatives");
  // From p(+) = 1 too (the handle used to be refused there).
  page.set({ p_pos: 1 });
  models.handle.set("x", new Float64Array([0.3]));
  await tick();
  assert.equal(page.state.p_pos, 0.3);
});

test("a click in the cost pane keeps the typed costs 5 and 1 and gives a round p(+)", async () => {
  const { page, models } = setup();
  page.set({ cost_fn: 5, cost_fp: 1 });
  assert.equal(models.cost_fn.get("value"), 5);
  models.click_bars.send({ event: "element_click", data: { index: 350 } }); // PCF(+) 0.7
  assert.deepEqual([page.state.p_pos, page.state.cost_fn, page.state.cost_fp], [0.318, 5, 1]);
  assert.equal(models.p_pos_value.get("value"), 0.318);
  assert.ok(Math.abs(OP.probabilityCost(0.318, 5, 1) - 0.7) < 1e-3);
  assert.match(models.headline.get("value"), />Deploy a: /); // no threshold: a ROC point
  models.click_bars.send({ event: "hover", data: {} }); // other messages pass through
  assert.deepEqual(models.click_bars.sent, [{ event: "hover", data: {} }]);
});

test("fields show readable numbers; the state keeps its own; p(+) = 2 is refused", async () => {
  const { page, models } = setup();
  page.set({ p_pos: 0.29995937, cost_fn: 3.1879154963398624 });
  assert.equal(models.p_pos_value.get("value"), 0.3);
  assert.equal(models.cost_fn.get("value"), 3.188);
  assert.equal(page.state.p_pos, 0.29995937);
  models.p_pos_value.set("value", 2);
  await tick();
  assert.equal(page.state.p_pos, 0.29995937);
  assert.equal(models.p_pos_value.get("value"), 0.3);
});

test("a p(+) move redraws the operating line and the dots, and the number field follows", async () => {
  const { page, models } = setup();
  models.p_pos.set("value", 0.25); // PCF(+) = 0.25 with equal costs: vertex (0, 0)
  await tick();
  assert.equal(page.state.p_pos, 0.25);
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.25, 0.25]);
  assert.deepEqual(Array.from(models.chosen.get("x")), [0]);
  assert.equal(models.p_pos_value.get("value"), 0.25);
  models.p_pos_value.set("value", 0.5); // PCF(+) 0.5: the point (0.3, 0.7)
  await tick();
  assert.deepEqual(Array.from(models.chosen.get("x")), [0.3]);
  assert.deepEqual(Array.from(models.chosen.get("y")), [0.7]);
  assert.match(models.readout.get("value"), /costwidget-readout/);
  assert.equal(models.pcf.get("value"), "PCF(+) = <b>0.5</b>");
});

test("the ratio slider changes C(-|+) only; both costs zero is refused and undone", async () => {
  const { page, models } = setup();
  models.log_ratio.set("value", 4);
  await tick();
  assert.deepEqual([page.state.cost_fn, page.state.cost_fp], [4, 1]);
  assert.equal(models.cost_fn.get("value"), 4);
  models.cost_fp.set("value", 0);
  await tick();
  models.cost_fn.set("value", 0);
  await tick();
  assert.deepEqual([page.state.cost_fn, page.state.cost_fp], [4, 0]);
  assert.equal(models.cost_fn.get("value"), 4); // the field shows the kept state again
});

test("constraints: Neyman-Pearson and workforce marks and tables, by index", async () => {
  const { page, models } = setup();
  models.constraint.set("index", 1);
  await tick();
  assert.equal(page.state.constraint, "neyman_pearson");
  assert.equal(models.roc_points.get("visible"), true);
  assert.equal(models.neyman_pearson_layout.get("display"), null);
  assert.equal(models.workforce_layout.get("display"), "none");
  models.max_fpr.set("value", 0.15); // half-way to (0.3, 0.7): a mix, FPR 0.15
  await tick();
  assert.deepEqual(Array.from(models.roc_points.get("x")), [0.15]);
  assert.match(models.constrained_readout.get("value"), /costwidget-constraint-table/);
  models.constraint.set("index", 2);
  await tick();
  models.capacity_unit.set("index", 1); // percent
  await tick();
  assert.equal(models.capacity.get("max"), 100);
  assert.equal(models.capacity.get("value"), 50); // 10 of 20 cases
  models.capacity.set("value", 25);
  await tick();
  assert.equal(page.state.capacity, 5);
  models.constraint.set("index", 0);
  await tick();
  assert.equal(models.roc_points.get("visible"), false);
  assert.equal(models.constrained_readout.get("value"), "");
});
