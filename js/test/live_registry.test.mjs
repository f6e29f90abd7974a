// The window's registry of live links (window.costwidgetLive) with stand-in models and a
// stand-in window (node --test): one entry per widget bound and not closed, found by its root
// class; a closed widget's link leaves it and removes what it installed in the window.

import assert from "node:assert/strict";
import { test } from "node:test";

import liveLink, { bindFrontEnd } from "../src/live_link.mjs";
import { kernelSet, standIns, tick } from "./stand_in.mjs";

/** A window that records its listeners (added and not removed yet). */
function standInWindow() {
  const listeners = new Set();
  const remove = (type, h, capture) => listeners.forEach((l) => l.h === h && l.type === type
    && l.capture === capture && listeners.delete(l));
  return {
    listeners,
    addEventListener: (type, h, capture) => listeners.add({ type, h, capture }),
    removeEventListener: remove,
  };
}

/** A link and its models for the widget whose root class is `rootClass`. */
function widget(rootClass) {
  const { link, models } = standIns();
  link.set("root_class", rootClass);
  return { link, models, getModel: async (id) => models[id.slice(3)] };
}

test("two widgets bound: two entries, each found by its root class", async () => {
  const win = standInWindow();
  const a = widget("costwidget-link-a");
  const b = widget("costwidget-link-b");
  await bindFrontEnd(b.link, b.getModel, win); // bound first: the order is the models' own
  await bindFrontEnd(a.link, a.getModel, win);
  const found = (rc) => win.costwidgetLive.find((l) => l.rootClass === rc);
  assert.deepEqual(win.costwidgetLive.map((l) => l.rootClass).sort(), ["costwidget-link-a", "costwidget-link-b"]);
  assert.equal(found("costwidget-link-a").models.get("id-p_pos"), a.models.p_pos);
  assert.equal(found("costwidget-link-b").models.get("id-p_pos"), b.models.p_pos);
  assert.equal(win.listeners.size, 4, "each link: its arrow keys and its typed refusals");
});

test("a closed widget's link leaves the registry, its window listeners and its link model", async () => {
  const win = standInWindow();
  const a = widget("costwidget-link-a");
  const b = widget("costwidget-link-b");
  const removeA = await bindFrontEnd(a.link, a.getModel, win);
  const removeB = await bindFrontEnd(b.link, b.getModel, win);
  const pageB = win.costwidgetLive.find((l) => l.rootClass === "costwidget-link-b").page;
  removeB();
  assert.deepEqual(win.costwidgetLive.map((l) => l.rootClass), ["costwidget-link-a"]);
  assert.equal(win.listeners.size, 2, "only the open widget's listeners are left");
  // The closed link's model no longer reaches its page.
  kernelSet(b.link, { kernel_state: { state: { ...pageB.state, p_pos: 0.2 }, acks: {}, attached: true } });
  assert.equal(pageB.state.p_pos, 0.5);
  // The open one still binds its page.
  const pageA = win.costwidgetLive[0].page;
  kernelSet(a.link, { kernel_state: { state: { ...pageA.state, p_pos: 0.2 }, acks: {}, attached: true } });
  assert.equal(pageA.state.p_pos, 0.2);
  removeB(); // a second call removes nothing else
  assert.equal(win.costwidgetLive.length, 1);
  removeA();
  assert.deepEqual(win.costwidgetLive, []);
  assert.equal(win.listeners.size, 0);
});

test("a widget closed before its link bound installs nothing", async () => {
  const win = standInWindow();
  const a = widget("costwidget-link-a");
  const link = { closed: false };
  const removing = bindFrontEnd(a.link, a.getModel, win, link);
  link.closed = true; // the model closed while its link waited for the widget's models
  (await removing)();
  assert.deepEqual(win.costwidgetLive ?? [], []);
  assert.equal(win.listeners.size, 0);
});

test("anywidget's cleanup (the model destroyed) removes the entry, even while the link still binds", async () => {
  const a = widget("costwidget-link-a");
  const b = widget("costwidget-link-b");
  const win = standInWindow();
  globalThis.window = win;
  try {
    for (const w of [a, b]) w.link.widget_manager = { get_model: w.getModel };
    const cleanupA = liveLink.initialize({ model: a.link });
    const cleanupB = liveLink.initialize({ model: b.link });
    cleanupB(); // b closed at once, before its link is bound
    for (let i = 0; i < 20 && (win.costwidgetLive ?? []).length < 1; i++) await tick();
    for (let i = 0; i < 20; i++) await tick(); // b's binding has had time to end too
    assert.deepEqual(win.costwidgetLive.map((l) => l.rootClass), ["costwidget-link-a"]);
    cleanupA();
    await tick();
    assert.deepEqual(win.costwidgetLive, []);
    assert.equal(win.listeners.size, 0);
  } finally {
    delete globalThis.window;
  }
});
