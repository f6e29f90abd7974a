// Stand-in widget models and a bound live link for the node tests of the live link: a
// Backbone-like model, an update from the kernel as ipywidgets applies it, and `setup()`, a
// link bound over Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7) (one ROC point (0.3, 0.7)).

import { CONTRACT, REQUIRED_ARRAYS } from "./contract.mjs";
import * as OP from "../src/operating_point.mjs";
import { bindLive } from "../src/live_link.mjs";

/** A Backbone-like model: get, set ("change:key" and "change" events), on, off, save_changes,
 * send. */
export function model(attrs = {}) {
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
    off(event, h) { handlers[event] = (handlers[event] || []).filter((x) => x !== h); },
    save_changes() { this.saved.push(JSON.stringify(attrs.value ?? attrs.frontend_state ?? attrs.attached)); },
    send(content) { this.sentMessages.push(content); },
  };
}

export const tick = () => new Promise((r) => setTimeout(r, 0));

/** As ipywidgets applies an update from the kernel: set() inside set_state's `_state_lock`. */
export function kernelSet(target, attrs) {
  target._state_lock = attrs;
  try {
    target.set(attrs);
  } finally {
    target._state_lock = null;
  }
}

export async function setup(kernelState = {}) {
  const { link, models } = standIns(kernelState);
  const bound = await bindLive(link, async (id) => models[id.slice(3)]);
  return { bound, models, link };
}

/** A link model over from_confusion(tp=7, fn=3, fp=3, tn=7) and its role models (id "id-<role>"),
 * not bound yet. */
export function standIns(kernelState = {}) {
  const arrays = {
    hull_threshold: [Infinity, NaN, -Infinity], hull_fpr: [0, 0.3, 1], hull_tpr: [0, 0.7, 1],
    segment_lo: [0, 0.3, 0.7], segment_hi: [0.3, 0.7, 1], segment_vertex: [0, 1, 2],
    single_threshold: [Infinity, NaN, -Infinity], single_fpr: [0, 0.3, 1], single_tpr: [0, 0.7, 1],
    scalars: [10, 10, 0.3, 0.7],
  };
  // As ipywidgets hands bytes traits over: DataViews (here into one shared, unaligned buffer).
  const total = REQUIRED_ARRAYS.reduce((n, k) => n + 8 * arrays[k].length, 3);
  const shared = new ArrayBuffer(total);
  let at = 3;
  const buffers = REQUIRED_ARRAYS.map((k) => {
    const view = new DataView(shared, at, 8 * arrays[k].length);
    arrays[k].forEach((v, i) => view.setFloat64(8 * i, v, true));
    at += 8 * arrays[k].length;
    return view;
  });
  const header = {
    format: CONTRACT.PAYLOAD_FORMAT, version: CONTRACT.PAYLOAD_VERSION, dtype: "<f8",
    classifiers: [{ name: "a", arrays: Object.fromEntries(REQUIRED_ARRAYS.map((k, i) =>
      [k, { buffer: i, offset: 0, length: arrays[k].length }])) }],
  };
  const models = {};
  const roles = {};
  for (const role of [...CONTRACT.CONTROL_ROLES, ...CONTRACT.OWNED_ROLES]) {
    models[role] = model({ value: 0, min: 0.001, max: 0.999, step: 0.001, index: 0 });
    roles[role] = `id-${role}`;
  }
  const link = model({
    contract: CONTRACT, roles, colors: { a: "#123456" },
    initial_state: { p_pos: 0.5, cost_fn: 1, cost_fp: 1, constraint: "none", max_fpr: 0.1,
      capacity: 10, n_pos: 10, n_neg: 10, population_set: true, visible: ["a"] },
    options: { constraint: CONTRACT.CONSTRAINTS, capacity_unit: ["cases", "% flagged"] },
    payload_header: header, payload_buffers: buffers, kernel_state: kernelState,
  });
  return { link, models };
}

