// The live link with stand-in widget models (node --test). Closed forms as in
// page_bind.test.mjs: Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7) has one ROC point
// (0.3, 0.7), optimal on PCF(+) in [0.3, 0.7).

import assert from "node:assert/strict";
import { test } from "node:test";

import * as OP from "../src/operating_point.mjs";
import { bindLive, installArrowKeys, steppedValue, STATE_KEYS } from "../src/live_link.mjs";
import { CONTROL_ROLES, OWNED_ROLES } from "../src/page_bind.mjs";

/** A Backbone-like model: get, set ("change:key" and "change" events), on, save_changes, send. */
function model(attrs = {}) {
  const handlers = {};
  const fire = (event, ...args) => { for (const h of handlers[event] || []) h(...args); };
  return {
    attrs,
    saved: [],
    sentMessages: [],
    get: (k) => attrs[k],
    set(k, v) {
      const changes = typeof k === "string" ? { [k]: v } : k;
      let any = false;
      for (const [key, value] of Object.entries(changes)) {
        if (attrs[key] === value) continue;
        attrs[key] = value;
        any = true;
        fire(`change:${key}`, this, value);
      }
      if (any) fire("change", this);
    },
    on(event, h) { (handlers[event] ||= []).push(h); },
    save_changes() { this.saved.push(JSON.stringify(attrs.value ?? attrs.frontend_state ?? attrs.attached)); },
    send(content) { this.sentMessages.push(content); },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

async function setup(kernelState = {}) {
  const arrays = {
    hull_threshold: [Infinity, NaN, -Infinity], hull_fpr: [0, 0.3, 1], hull_tpr: [0, 0.7, 1],
    segment_lo: [0, 0.3, 0.7], segment_hi: [0.3, 0.7, 1], segment_vertex: [0, 1, 2],
    single_threshold: [Infinity, NaN, -Infinity], single_fpr: [0, 0.3, 1], single_tpr: [0, 0.7, 1],
    scalars: [10, 10, 0.3, 0.7],
  };
  // As ipywidgets hands bytes traits over: DataViews (here into one shared, unaligned buffer).
  const total = OP.PAYLOAD_ARRAYS.reduce((n, k) => n + 8 * arrays[k].length, 3);
  const shared = new ArrayBuffer(total);
  let at = 3;
  const buffers = OP.PAYLOAD_ARRAYS.map((k) => {
    const view = new DataView(shared, at, 8 * arrays[k].length);
    arrays[k].forEach((v, i) => view.setFloat64(8 * i, v, true));
    at += 8 * arrays[k].length;
    return view;
  });
  const header = {
    format: OP.PAYLOAD_FORMAT, version: OP.PAYLOAD_VERSION, dtype: "<f8",
    classifiers: [{ name: "a", arrays: Object.fromEntries(OP.PAYLOAD_ARRAYS.map((k, i) =>
      [k, { buffer: i, offset: 0, length: arrays[k].length }])) }],
  };
  const models = {};
  const roles = {};
  for (const role of [...CONTROL_ROLES, ...OWNED_ROLES]) {
    models[role] = model({ value: 0, min: 0.001, max: 0.999, step: 0.001, index: 0 });
    roles[role] = `id-${role}`;
  }
  const link = model({
    roles, colors: { a: "#123456" },
    initial_state: { p_pos: 0.5, cost_fn: 1, cost_fp: 1, constraint: "none", max_fpr: 0.1,
      capacity: 10, n_pos: 10, n_neg: 10, population_set: true, visible: ["a"] },
    options: { constraint: ["none", "neyman_pearson", "workforce"], capacity_unit: ["cases", "% flagged"] },
    payload_header: header, payload_buffers: buffers, kernel_state: kernelState,
  });
  const bound = await bindLive(link, async (id) => models[id.slice(3)]);
  return { bound, models, link };
}

test("bound: attached is saved, and the controls the glue set are saved to the kernel", async () => {
  const { link, models } = await setup();
  assert.equal(link.get("attached"), true);
  assert.ok(link.saved.length >= 1);
  assert.equal(models.p_pos_value.get("value"), 0.5);
  assert.ok(models.p_pos_value.saved.length >= 1, "the field's value went to the kernel");
  // Marks and tables are never saved: the kernel's copies are not what the page shows.
  for (const role of ["operating_line", "chosen", "nec_points", "iso_lines", "readout"]) {
    assert.equal(models[role].saved.length, 0, role);
  }
});

test("each user move is drawn at once and sent whole with the next seq", async () => {
  const { link, models, bound } = await setup();
  models.p_pos.set("value", 0.25);
  await tick();
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.25, 0.25]);
  const sent = link.get("frontend_state");
  assert.equal(sent.seq, 1);
  assert.deepEqual(Object.keys(sent.state).sort(), [...STATE_KEYS].sort());
  assert.equal(sent.state.p_pos, 0.25);
  assert.equal(models.p_pos_value.get("value"), 0.25);
  assert.equal(models.p_pos_value.saved.at(-1), "0.25");
  models.cost_fn.set("value", 3);
  await tick();
  assert.equal(link.get("frontend_state").seq, 2);
  assert.equal(bound.sent(), 2);
});

test("a kernel state is drawn only when it acknowledges the latest seq", async () => {
  const { link, models, bound } = await setup();
  models.p_pos.set("value", 0.25); // seq 1
  await tick();
  models.p_pos.set("value", 0.6); // seq 2
  await tick();
  const state = { ...bound.page.state, p_pos: 0.4 };
  const session = link.get("frontend_state").session;
  link.set("kernel_state", { state, ack: 1, session }); // late: the user moved since
  assert.equal(bound.page.state.p_pos, 0.6);
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.6, 0.6]);
  link.set("kernel_state", { state, ack: 2, session: "another page" }); // not ours
  assert.equal(bound.page.state.p_pos, 0.6);
  link.set("kernel_state", { state, ack: 2, session }); // w.p_pos = 0.4 from Python, after seq 2
  assert.equal(bound.page.state.p_pos, 0.4);
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.4, 0.4]);
  assert.equal(models.p_pos_value.get("value"), 0.4);
  assert.equal(link.get("frontend_state").seq, 2, "a kernel state is not sent back");
});

test("a drag of the handle is drawn at each pointer move, and still reported to the kernel", async () => {
  const { models, bound } = await setup();
  models.handle.send({ event: "drag", point: { x: 0.75, y: 0 }, index: 0 });
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.75, 0.75]);
  // issue 23: a drag moves p(+) (3 significant digits) and keeps the typed costs
  assert.deepEqual([bound.page.state.cost_fn, bound.page.state.cost_fp], [1, 1]);
  assert.equal(bound.page.state.p_pos, 0.75);
  assert.equal(models.handle.sentMessages.length, 1);
});

test("arrow-key steps: one grid step, clamped; log sliders step their exponent", () => {
  const slider = (a) => ({ get: (k) => a[k] });
  assert.equal(steppedValue(slider({ min: 0.001, max: 0.999, step: 0.001, value: 0.3 }), 1), 0.301);
  assert.equal(steppedValue(slider({ min: 0.001, max: 0.999, step: 0.001, value: 0.3 }), -1), 0.299);
  assert.equal(steppedValue(slider({ min: 0.001, max: 0.999, step: 0.001, value: 0.999 }), 1), 0.999);
  assert.equal(steppedValue(slider({ min: -3, max: 3, step: 0.01, base: 10, value: 1 }), 1), 10 ** 0.01);
  assert.equal(steppedValue(slider({ min: -3, max: 3, step: 0.01, base: 10, value: 1000 }), 1), 1000);
});

test("the window-level key handler steps only this widget's sliders and stops the event", () => {
  const listeners = [];
  const win = { addEventListener: (type, h, capture) => listeners.push({ type, h, capture }),
    removeEventListener() {} };
  const slider = model({ min: 0.001, max: 0.999, step: 0.001, value: 0.3 });
  installArrowKeys(win, "costwidget-link-x", { p_pos: slider });
  assert.equal(listeners[0].type, "keydown");
  assert.equal(listeners[0].capture, true);
  const box = { matches: (s) => s === ".costwidget-p-pos", closest: () => box, querySelector: () => null };
  const element = (inside) => ({ closest: (s) => (s === ".costwidget-link-x" ? inside : s === ".widget-slider" ? box : null) });
  let stopped = 0;
  const event = (key, target) => ({ key, target, stopPropagation: () => { stopped += 1; }, preventDefault() {} });
  listeners[0].h(event("ArrowRight", element(true)));
  assert.equal(slider.get("value"), 0.301);
  assert.equal(stopped, 1);
  assert.equal(slider.saved.at(-1), "0.301");
  listeners[0].h(event("ArrowRight", element(null))); // another widget's slider: untouched
  listeners[0].h(event("a", element(true)));
  assert.equal(slider.get("value"), 0.301);
  assert.equal(stopped, 1);
});

test("a reloaded page starts from the kernel's latest state, and takes a state sent before its first move", async () => {
  const before = { p_pos: 0.2, cost_fn: 1, cost_fp: 1, constraint: "none", max_fpr: 0.1,
    capacity: 10, n_pos: 10, n_neg: 10, visible: ["a"] };
  const { link, bound } = await setup({ state: before, ack: 9, session: "the page before" });
  assert.equal(bound.page.state.p_pos, 0.2);
  link.set("kernel_state", { state: { ...before, p_pos: 0.35 }, ack: 9, session: "the page before" });
  assert.equal(bound.page.state.p_pos, 0.35); // no move of its own yet: the kernel's state
});

test("a move the page refuses is reported to the kernel for its banner, and not sent as state", async () => {
  const { models, link, bound } = await setup();
  models.p_pos_value.set("value", 2); // out of [0, 1]
  await tick();
  assert.equal(bound.page.state.p_pos, 0.5, "the last good state is kept");
  const refused = link.sentMessages.filter((m) => m.event === "refused");
  assert.equal(refused.length, 1);
  assert.match(refused[0].message, /2/);
  assert.equal(link.get("frontend_state"), undefined, "no state was sent");
});
