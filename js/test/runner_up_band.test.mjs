// How sure the headline is (issue 32, item 5), in the page: the kernel's band of the runner-up is
// said while it is of the page's state, in an exported page and over the live link (node --test).
// Two single-point classifiers (from_confusion): a at ROC (0.3, 0.7), b at (0.4, 0.7); at PCF(+)
// 0.5 a costs 0.3 (NEC) and b 0.35, so a is deployed and b is next best, +0.05.

import assert from "node:assert/strict";
import { test } from "node:test";

import { CONTRACT, REQUIRED_ARRAYS, decide } from "./contract.mjs";
import * as OP from "../src/operating_point.mjs";
import { bindLive } from "../src/live_link.mjs";
import { bindPage } from "../src/page_bind.mjs";
import { kernelSet, model, tick } from "./stand_in.mjs";

function payload() {
  const arrays = (fpr) => ({
    hull_threshold: [Infinity, NaN, -Infinity], hull_fpr: [0, fpr, 1], hull_tpr: [0, 0.7, 1],
    segment_lo: [0, fpr, 0.7], segment_hi: [fpr, 0.7, 1], segment_vertex: [0, 1, 2],
    single_threshold: [Infinity, NaN, -Infinity], single_fpr: [0, fpr, 1], single_tpr: [0, 0.7, 1],
    scalars: [10, 10, 0.3, 0.7],
  });
  const buffers = [];
  const classifiers = [["a", 0.3], ["b", 0.4]].map(([name, fpr]) => {
    const a = arrays(fpr);
    const spec = {};
    for (const k of REQUIRED_ARRAYS) {
      spec[k] = { buffer: buffers.length, offset: 0, length: a[k].length };
      buffers.push(new Float64Array(a[k]));
    }
    return { name, arrays: spec };
  });
  return { header: { format: CONTRACT.PAYLOAD_FORMAT, version: CONTRACT.PAYLOAD_VERSION, dtype: "<f8", classifiers }, buffers };
}

const STATE = { p_pos: 0.5, cost_fn: 1, cost_fp: 1, constraint: "none", max_fpr: 0.1, capacity: 10,
  n_pos: 10, n_neg: 10, population_set: true, visible: ["a", "b"] };
// RunnerUpBand.to_dict() of the pair at PCF(+) 0.5 (NEC of b minus a's).
const BAND = { chosen: "a", runner_up: "b", pcf: 0.5, of: "envelopes", threshold_chosen: null,
  threshold_runner_up: null, diff: 0.05, lower: -0.01, upper: 0.11, level: 0.9, n_boot: 1000,
  random_state: 0 };
const SAID = "; next best b, +0.05, which this data cannot tell apart from a (paired 90 % " +
  "interval at this PCF(+): −0.01 to +0.11)";

function roles() {
  const models = {};
  const ids = {};
  for (const role of [...CONTRACT.CONTROL_ROLES, ...CONTRACT.OWNED_ROLES]) {
    models[role] = model({ value: 0, min: 0.001, max: 0.999, step: 0.001, index: 0 });
    ids[role] = `id-${role}`;
  }
  return { models, ids };
}

test("decide says a fitting band, and no band of another PCF(+), pair or kind", () => {
  const clfs = OP.decodePayload(payload().header, payload().buffers);
  const plain = decide(clfs, STATE);
  assert.equal(plain.runner_up_band, null);
  assert.ok(plain.headline.endsWith("; next best b, +0.05"), plain.headline);
  const d = decide(clfs, STATE, { runnerUpBand: BAND });
  assert.ok(d.headline.endsWith(SAID), d.headline);
  assert.deepEqual(d.runner_up_band, BAND);
  const apart = decide(clfs, STATE, { runnerUpBand: { ...BAND, lower: 0.02 } });
  assert.match(apart.headline, /, significantly more than a \(paired 90 % interval at this PCF\(\+\): \+0\.02 to \+0\.11\)$/);
  for (const other of [{ pcf: 0.51 }, { chosen: "b", runner_up: "a" }, { of: "rules" }]) {
    const e = decide(clfs, STATE, { runnerUpBand: { ...BAND, ...other } });
    assert.equal(e.headline, plain.headline, JSON.stringify(other));
    assert.equal(e.runner_up_band, null);
  }
  // In cost per case: costs 3 and 1 at p(+) 0.25 is PCF(+) 0.5 again, at scale 1.5.
  const scaled = decide(clfs, { ...STATE, p_pos: 0.25, cost_fn: 3 }, { runnerUpBand: BAND });
  assert.match(scaled.headline, /interval at this PCF\(\+\): −0\.015 to \+0\.165\)$/);
});

test("an exported page says the band as exported, and only at that state", async () => {
  const { models, ids } = roles();
  const { header, buffers } = payload();
  const spec = { contract: CONTRACT, roles: ids, colors: { a: "#111111", b: "#222222" }, state: { ...STATE },
    options: { constraint: CONTRACT.CONSTRAINTS, capacity_unit: ["cases", "% flagged"] },
    payload: { header, buffers }, runner_up_band: BAND };
  const page = bindPage(OP, spec, (id) => models[id.slice(3)]);
  assert.ok(models.headline.get("value").includes("which this data cannot tell apart from a"));
  page.set({ p_pos: 0.45 });
  assert.ok(!models.headline.get("value").includes("tell apart"), "a band of another PCF(+)");
  page.set({ p_pos: 0.5 });
  assert.ok(models.headline.get("value").includes("tell apart"), "back at the exported state");
});

test("live: the kernel's band is said once it arrives, and dropped when the kernel drops it", async () => {
  const { models, ids } = roles();
  const { header, buffers } = payload();
  const link = model({
    contract: CONTRACT, roles: ids, colors: { a: "#111111", b: "#222222" }, initial_state: { ...STATE },
    options: { constraint: CONTRACT.CONSTRAINTS, capacity_unit: ["cases", "% flagged"] },
    payload_header: header, payload_buffers: buffers, kernel_state: {},
  });
  const bound = await bindLive(link, async (id) => models[id.slice(3)]);
  assert.ok(!models.headline.get("value").includes("tell apart"));
  kernelSet(link, { kernel_state: { state: { ...STATE }, acks: {}, attached: true, runner_up_band: BAND } });
  assert.ok(models.headline.get("value").includes("which this data cannot tell apart from a"));
  // The user moves on: the band is of the old PCF(+), so the page drops the clause at once.
  models.p_pos.set("value", 0.45);
  await tick();
  assert.equal(bound.page.state.p_pos, 0.45);
  assert.ok(!models.headline.get("value").includes("tell apart"));
  // The kernel's answer for the new state has no band yet (it is computing): none is said.
  const session = link.get("frontend_state").session;
  kernelSet(link, { kernel_state: { state: { ...STATE, p_pos: 0.45 }, acks: { [session]: 1 },
    attached: true, runner_up_band: null } });
  assert.ok(!models.headline.get("value").includes("tell apart"));
  // Its band arrives.
  kernelSet(link, { kernel_state: { state: { ...STATE, p_pos: 0.45 }, acks: { [session]: 1 },
    attached: true, runner_up_band: { ...BAND, pcf: 0.45 } } });
  assert.ok(models.headline.get("value").includes("tell apart"));
  // Another level chosen in the kernel: it sends no band until the new one is computed.
  kernelSet(link, { kernel_state: { state: { ...STATE, p_pos: 0.45 }, acks: { [session]: 1 },
    attached: true, runner_up_band: null } });
  assert.ok(!models.headline.get("value").includes("tell apart"));
});
