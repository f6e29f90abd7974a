// The live link with stand-in widget models (node --test). Closed forms as in
// page_bind.test.mjs: Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7) has one ROC point
// (0.3, 0.7), optimal on PCF(+) in [0.3, 0.7).

import assert from "node:assert/strict";
import { test } from "node:test";

import { CONTRACT, REQUIRED_ARRAYS } from "./contract.mjs";
import { bindLive, installArrowKeys, steppedValue } from "../src/live_link.mjs";
import { installTypedRefusals } from "../src/page_bind.mjs";
import { kernelSet, model, setup, standIns, tick } from "./stand_in.mjs";

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

test("each user move is drawn at once and sent as the keys it changed, with the next seq", async () => {
  const { link, models, bound } = await setup();
  models.p_pos.set("value", 0.25);
  await tick();
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.25, 0.25]);
  const sent = link.get("frontend_state");
  assert.equal(sent.seq, 1);
  // population_set is true: n_pos and n_neg do not follow p(+), so only p(+) changed.
  assert.deepEqual(sent.changes, { p_pos: 0.25 });
  assert.equal(models.p_pos_value.get("value"), 0.25);
  assert.equal(models.p_pos_value.saved.at(-1), "0.25");
  models.cost_fn.set("value", 3);
  await tick();
  assert.deepEqual(link.get("frontend_state").changes, { cost_fn: 3 });
  assert.equal(link.get("frontend_state").seq, 2);
  assert.equal(bound.sent(), 2);
});

test("each message repeats every move the kernel has not acknowledged: ipywidgets may deliver only the newest", async () => {
  // ipywidgets keeps one message in flight per model and merges later saves into one: of
  // three quick moves, the kernel may receive only the third frontend_state.
  const { link, models } = await setup();
  models.p_pos.set("value", 0.25); // seq 1
  await tick();
  models.cost_fn.set("value", 3); // seq 2
  await tick();
  models.max_fpr.set("value", 0.2); // seq 3
  await tick();
  const sent = link.get("frontend_state");
  assert.equal(sent.seq, 3);
  assert.deepEqual(sent.changes, { max_fpr: 0.2 });
  assert.deepEqual(sent.moves, [{ seq: 1, changes: { p_pos: 0.25 } }, { seq: 2, changes: { cost_fn: 3 } },
    { seq: 3, changes: { max_fpr: 0.2 } }]);
  // Once the kernel acknowledges seq 2, the next message repeats seq 3 only (and its own move).
  kernelSet(link, { kernel_state: { state: { ...link.get("initial_state"), p_pos: 0.25, cost_fn: 3 },
    acks: { [sent.session]: 2 }, attached: true } });
  models.p_pos.set("value", 0.3); // seq 4
  await tick();
  assert.deepEqual(link.get("frontend_state").moves.map((m) => m.seq), [3, 4]);
});

test("a kernel state is drawn with the page's moves it has not taken yet on top", async () => {
  const { link, models, bound } = await setup();
  models.p_pos.set("value", 0.25); // seq 1
  await tick();
  models.p_pos.set("value", 0.6); // seq 2
  await tick();
  const session = link.get("frontend_state").session;
  // The kernel's answer to seq 1 (its constraint set from Python meanwhile): p(+) stays at the
  // newer 0.6 (seq 2 is on its way), the constraint is taken.
  const state = { ...bound.page.state, p_pos: 0.25, constraint: "neyman_pearson" };
  kernelSet(link, { kernel_state: { state, acks: { [session]: 1 }, attached: true } });
  assert.equal(bound.page.state.p_pos, 0.6);
  assert.equal(bound.page.state.constraint, "neyman_pearson");
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.6, 0.6]);
  // Another view's move, answered by the kernel before it took our seq 2: ours stays on top.
  kernelSet(link, { kernel_state: { state: { ...state, p_pos: 0.4 }, acks: { [session]: 1, other: 1 } } });
  assert.equal(bound.page.state.p_pos, 0.6);
  // w.p_pos = 0.4 from Python once the kernel took seq 2: drawn.
  kernelSet(link, { kernel_state: { state: { ...state, p_pos: 0.4 }, acks: { [session]: 2 } } });
  assert.equal(bound.page.state.p_pos, 0.4);
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.4, 0.4]);
  assert.equal(models.p_pos_value.get("value"), 0.4);
  assert.equal(link.get("frontend_state").seq, 2, "a kernel state is not sent back");
});

test("a write of the kernel to a control or to the handle is no move: the page draws its own state over it", async () => {
  // Run All on the tour: the kernel, not yet attached, wrote the handle at PCF(+) 0.3 for its
  // state (costs 1 and 1); the page, at costs 5 and 1, took it for a drag (p(+) = 0.0789).
  const { link, models, bound } = await setup();
  models.cost_fn.set("value", 5);
  await tick();
  const sent = bound.sent();
  const x = Array.from(models.handle.get("x"));
  kernelSet(models.handle, { x: [0.3] });
  kernelSet(models.p_pos, { value: 0.7 });
  kernelSet(models.operating_line, { x: [0.3, 0.3] });
  await tick();
  assert.equal(bound.page.state.p_pos, 0.5);
  assert.equal(bound.page.state.cost_fn, 5);
  assert.equal(bound.sent(), sent, "nothing was sent as a move");
  assert.deepEqual(Array.from(models.handle.get("x")), x, "the handle is back at the page's state");
  assert.equal(models.p_pos.get("value"), 0.5);
  assert.deepEqual(Array.from(models.operating_line.get("x")), x.concat(x));
  assert.equal(link.get("frontend_state").seq, 1);
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
  const { link, bound } = await setup({ state: before, acks: { "the page before": 9 } });
  assert.equal(bound.page.state.p_pos, 0.2);
  kernelSet(link, { kernel_state: { state: { ...before, p_pos: 0.35 }, acks: { "the page before": 9 } } });
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

test("text typed into a number field that is no number is refused in the banner, with the field's name", async () => {
  const { link, bound } = await setup();
  const listeners = [];
  const win = { addEventListener: (type, h, capture) => listeners.push({ type, h, capture }),
    removeEventListener() {} };
  installTypedRefusals(win, "costwidget-link-x", bound.page.refuse);
  assert.deepEqual([listeners[0].type, listeners[0].capture], ["change", true]);
  const input = (value, badInput, field) => ({ tagName: "INPUT", value, validity: { badInput },
    closest: (s) => (s === ".costwidget-link-x" || s === field ? {} : null) });
  listeners[0].h({ target: input("", true, ".costwidget-p-pos-value") }); // "abc" in a number input
  listeners[0].h({ target: input("", false, ".costwidget-cost-fn") }); // emptied, then Enter
  listeners[0].h({ target: input("0.4", false, ".costwidget-cost-fn") }); // a number: the page's
  const refused = link.sentMessages.filter((m) => m.event === "refused").map((m) => m.message);
  assert.equal(refused.length, 2);
  assert.match(refused[0], /^p\(\+\) must be a number in \[0, 1\]; what was typed is not a number/);
  assert.match(refused[1], /^C\(-\|\+\) must be a cost >= 0/);
  assert.equal(bound.page.state.p_pos, 0.5);
});

test("the kernel's honest curves reach the page's decision (issue 32), and a move keeps them", async () => {
  // from_confusion(tp=7, fn=3, fp=3, tn=7): NEC 0.3 at PCF(+) 0.5 (scale 1); an honest curve
  // 0.4 there makes the headline (choosing on it) and the readout give the cost on new data.
  const { link, models, bound } = await setup();
  const honest = { a: { pcf: [0, 1], nec: [0.4, 0.4] } };
  const session = link.get("frontend_state")?.session ?? "none";
  kernelSet(link, { kernel_state: { state: { ...bound.page.state, honest }, acks: { [session]: 0 },
    attached: true } });
  assert.match(models.headline.get("value"), /: 0\.4 per case on new data/);
  assert.match(models.readout.get("value"), /cost per case on new data/);
  models.p_pos.set("value", 0.4); // a move: the curves stay, and are never sent as a change
  await tick();
  assert.equal(link.get("frontend_state").changes.honest, undefined);
  assert.match(models.headline.get("value"), /: 0\.4 per case on new data/);
  // The kernel's curves gone (the box unticked): so is the cost on new data.
  kernelSet(link, { kernel_state: { state: { ...bound.page.state, honest: {} },
    acks: { [link.get("frontend_state").session]: 1 }, attached: true } });
  assert.doesNotMatch(models.headline.get("value"), /new data/);
});

test("per-case costs: the multipliers' units make PCF(+); under a limit the kernel draws and the page only sends", async () => {
  const { link, models } = standIns();
  // from_confusion(7, 3, 3, 7) as the twin of per-case costs with units 4 (misses) and 1.
  link.set("per_case", { units: [4.0, 1.0], floor: 0.0 });
  const bound = await bindLive(link, async (id) => models[id.slice(3)]);
  // PCF(+) at multipliers 1: 0.5·4 / (0.5·4 + 0.5·1) = 0.8, the multiplied costs, not 1 and 1.
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.8, 0.8]);
  assert.match(models.pcf.get("value"), /0\.8\b/);
  const drawn = models.headline.get("value");
  assert.match(drawn, /per case/);
  models.constraint.set("index", CONTRACT.CONSTRAINTS.indexOf("neyman_pearson"));
  await tick();
  assert.equal(link.get("frontend_state").changes.constraint, "neyman_pearson", "the move is sent");
  models.p_pos.set("value", 0.25);
  await tick();
  assert.equal(link.get("frontend_state").changes.p_pos, 0.25, "moves still go to the kernel");
  // The page drew nothing under the limit: the kernel draws every mark and table meanwhile.
  assert.deepEqual(Array.from(models.operating_line.get("x")), [0.8, 0.8]);
  assert.equal(models.headline.get("value"), drawn);
  kernelSet(models.headline, { value: "the kernel's words" });
  await tick();
  assert.equal(models.headline.get("value"), "the kernel's words", "the kernel's headline stays");
  bound.stop();
});
