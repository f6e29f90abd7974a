// The live link's protocol under random orders (node --test): two front ends (two tabs, or a
// page reloaded beside the old one) and a simulated kernel that speaks frontend_link.py's side
// (apply the keys a move changed, all or nothing; answer every change of its state with
// kernel_state = {state, acks}), with Python sets of several keys at a time, the kernel's own
// writes to the controls and the handle arriving late, and every message delivered in its
// channel's order but the channels interleaved at random. Checked after every delivery: no key
// a page moved goes back to an older value while that move is on its way; and once every
// message is delivered, each page's state, operating line and p(+) field equal the kernel's.
// 200 sequences from fixed seeds (a failure prints its seed).

import assert from "node:assert/strict";
import { test } from "node:test";

import { CONTRACT, REQUIRED_ARRAYS } from "./contract.mjs";
import * as OP from "../src/operating_point.mjs";
import { kernelSet, setup, tick } from "./stand_in.mjs";

/** A small seeded generator (mulberry32): the same seed, the same sequence. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** frontend_link.py's side of the protocol, over a plain state. */
class Kernel {
  constructor(state) {
    this.state = { ...state, visible: [...state.visible] };
    this.acks = {};
    this.taken = {}; // session -> the seqs applied (or refused), to check that none is lost
    this.outboxes = [];
    this.lastSent = null;
  }

  connect(outbox) { this.outboxes.push(outbox); }

  takeMove({ changes, seq, session, moves }) {
    // Every move not taken yet, oldest first (FrontendLink._new_moves).
    const fresh = (moves || [{ seq, changes }]).filter((m) => m.seq > (this.acks[session] || 0));
    if (!fresh.length) return;
    this.acks[session] = fresh.at(-1).seq;
    [this.session, this.ack] = [session, fresh.at(-1).seq];
    let refused = false;
    for (const move of fresh) {
      (this.taken[session] ||= []).push(move.seq);
      const before = { ...this.state };
      Object.assign(this.state, move.changes);
      try {
        OP.probabilityCost(this.state.p_pos, this.state.cost_fn, this.state.cost_fp);
      } catch {
        Object.assign(this.state, before); // all or nothing, as the transaction
        refused = true;
      }
    }
    this.send(refused);
  }

  pythonSet(changes) {
    Object.assign(this.state, changes);
    this.send(false);
  }

  send(refused) {
    const message = { state: { ...this.state, visible: [...this.state.visible] },
      acks: { ...this.acks }, attached: true, session: this.session, ack: this.ack, refused };
    const text = JSON.stringify(message);
    if (text === this.lastSent) return; // sent once per change
    this.lastSent = text;
    for (const outbox of this.outboxes) outbox.push(() => ({ kernel_state: message }));
  }
}

async function frontEnd(kernel, initial) {
  const { bound, models, link } = await setup({ state: initial, acks: {}, attached: true });
  const toKernel = [];
  const fromKernel = [];
  // What the page saves goes to the kernel, in order: its moves, and its controls' values
  // (which the kernel's copies take and echo to the other front ends, set_state there).
  // As ipywidgets (msg_throttle): one message in flight, the saves made meanwhile merged into
  // one, so a move still waiting behind the first is replaced by the newer one.
  link.save_changes = () => {
    const sent = link.get("frontend_state");
    if (!sent) return;
    const waiting = toKernel.findIndex((item, i) => i > 0 && item.move);
    if (waiting >= 0) toKernel.splice(waiting, 1);
    toKernel.push({ move: JSON.parse(JSON.stringify(sent)) });
  };
  for (const role of ["p_pos", "p_pos_value", "cost_fn", "cost_fp", "max_fpr"]) {
    models[role].save_changes = () => toKernel.push({ control: role, value: models[role].get("value") });
  }
  kernel.connect(fromKernel);
  return { bound, models, link, toKernel, fromKernel, latest: {} };
}

function pick(state) {
  return Object.fromEntries(CONTRACT.STATE_KEYS.map((k) => [k, k === "visible" ? [...state[k]] : state[k]]));
}

async function runSequence(seed) {
  const r = random(seed);
  const initial = { p_pos: 0.5, cost_fn: 1, cost_fp: 1, constraint: "none", max_fpr: 0.1,
    capacity: 10, n_pos: 10, n_neg: 10, population_set: true, visible: ["a"] };
  const kernel = new Kernel(initial);
  const pages = [await frontEnd(kernel, initial), await frontEnd(kernel, initial)];
  const round = (x) => Math.round(x * 1000) / 1000;
  const checkNoneGoesBack = (page) => {
    const acked = ((page.link.get("kernel_state") || {}).acks || {})[page.session] || 0;
    for (const [key, { seq, value }] of Object.entries(page.latest)) {
      if (seq <= acked) delete page.latest[key];
      else assert.equal(page.bound.page.state[key], value, `seed ${seed}: ${key} went back`);
    }
  };
  const deliver = async (page, toKernelSide) => {
    if (toKernelSide) {
      const item = page.toKernel.shift();
      if (item.move) {
        kernel.takeMove(item.move);
      } else {
        // The kernel's copy of a control takes the value and echoes it to the other front end.
        for (const other of pages) {
          if (other !== page) other.fromKernel.push(() => ({ model: item.control, value: item.value }));
        }
      }
      return;
    }
    const item = page.fromKernel.shift()();
    if (item.kernel_state) kernelSet(page.link, { kernel_state: item.kernel_state });
    else kernelSet(page.models[item.model], { value: item.value });
    await tick();
    checkNoneGoesBack(page);
  };
  const move = async (page) => {
    const m = page.models;
    const kind = Math.floor(r() * 5);
    if (kind === 0) m.p_pos.set("value", round(0.05 + 0.9 * r()));
    else if (kind === 1) m.cost_fn.set("value", round(0.5 + 5 * r()));
    else if (kind === 2) m.cost_fp.set("value", r() < 0.1 ? -1 : round(0.5 + 5 * r())); // -1 refused
    else if (kind === 3) m.constraint.set("index", Math.floor(3 * r()));
    else m.max_fpr.set("value", round(0.01 + 0.5 * r()));
    await tick();
    const sent = page.link.get("frontend_state");
    if (sent && sent.seq > (page.lastSeq || 0)) {
      page.lastSeq = sent.seq;
      page.session = sent.session;
      for (const [key, value] of Object.entries(sent.changes)) page.latest[key] = { seq: sent.seq, value };
    }
  };
  const python = () => {
    // Several sets in one cell, no wait between them.
    const sets = 1 + Math.floor(3 * r());
    for (let i = 0; i < sets; i++) {
      const k = Math.floor(4 * r());
      if (k === 0) kernel.pythonSet({ p_pos: round(0.05 + 0.9 * r()) });
      else if (k === 1) kernel.pythonSet({ cost_fn: round(0.5 + 5 * r()), cost_fp: round(0.5 + 5 * r()) });
      else if (k === 2) kernel.pythonSet({ constraint: ["none", "neyman_pearson", "workforce"][Math.floor(3 * r())] });
      else kernel.pythonSet({ max_fpr: round(0.01 + 0.5 * r()) });
    }
  };
  for (let step = 0; step < 40; step++) {
    const what = r();
    const page = pages[Math.floor(2 * r())];
    if (what < 0.3) await move(page);
    else if (what < 0.4) python();
    else if (what < 0.7 && page.toKernel.length) await deliver(page, true);
    else if (page.fromKernel.length) await deliver(page, false);
  }
  // Deliver everything, the channels still interleaved at random.
  for (;;) {
    const open = [];
    for (const page of pages) {
      if (page.toKernel.length) open.push([page, true]);
      if (page.fromKernel.length) open.push([page, false]);
    }
    if (!open.length) break;
    const [page, side] = open[Math.floor(r() * open.length)];
    await deliver(page, side);
  }
  for (const [i, page] of pages.entries()) {
    const seqs = Array.from({ length: page.bound.sent() }, (_, k) => k + 1);
    assert.deepEqual(kernel.taken[page.bound.session] || [], seqs, `seed ${seed}: page ${i} lost a move`);
    const got = pick(page.bound.page.state);
    assert.deepEqual(got, pick(kernel.state), `seed ${seed}: page ${i} differs from the kernel`);
    const pcf = OP.probabilityCost(got.p_pos, got.cost_fn, got.cost_fp);
    assert.deepEqual(Array.from(page.models.operating_line.get("x")), [pcf, pcf], `seed ${seed}: line`);
    assert.equal(page.models.p_pos_value.get("value"), OP.readableValue(got.p_pos), `seed ${seed}: field`);
    assert.equal(page.models.cost_fn.get("value"), OP.readableValue(got.cost_fn), `seed ${seed}: field`);
  }
}

test("two front ends, Python sets and the kernel's late writes, in random orders: each converges to the kernel, none goes back", async () => {
  const error = console.error;
  console.error = () => {}; // the refused -1 costs are logged by the page
  try {
    for (let seed = 1; seed <= 200; seed++) await runSequence(seed);
  } finally {
    console.error = error;
  }
});
