// The live link: the operating point drawn by the front end while a kernel is attached.
//
// costwidget/widget/live/frontend_link.py puts a zero-size anywidget in the widget's layout whose
// `_esm` is this module (built with operating_point.mjs and page_bind.mjs inlined into
// costwidget/static/live-link.js). anywidget calls `initialize({model})` once per model in each
// front end, before any view: it resolves the widget's models by id and binds them with the
// same `bindPage` as an exported page, in live mode. The protocol (one writer per mark):
//
// * bound, the front end sets `attached`; from then on it alone writes the operating point's
//   and the constraint's marks, the readout tables and the controls' linking;
// * each user move is drawn at once, then sent as `frontend_state = {changes, seq, session}`:
//   only the keys it changed, so a key set meanwhile from Python or from another view stays;
// * the kernel answers every change of its state with `kernel_state = {state, acks}` (acks: the
//   last seq it took from each session). The page draws that state with its own moves the
//   kernel has not taken yet put back on top: every view converges to the kernel's state, and
//   a late answer never draws a key the user moved since at an older value;
// * a write of the kernel to a control or a mark (its updates arrive in ipywidgets' set_state)
//   is never a user's move: the page draws its own state over it (page_bind.mjs).
//
// Notebook 7 takes the arrow keys at document level before a focused slider sees them; a
// window-level capture listener (which runs first) steps the widget's own sliders itself.

import * as OP from "./operating_point.mjs";
import { bindPage, installTypedRefusals } from "./page_bind.mjs";

// The state keys exchanged with the kernel are the contract's STATE_KEYS (sent by Python with
// the spec; bindPage takes the contract before any state is picked or compared).
function pick(state) {
  const out = {};
  for (const key of OP.contract().STATE_KEYS) {
    if (state[key] !== undefined) out[key] = key === "visible" ? [...state[key]] : state[key];
  }
  return out;
}

function sameState(a, b) {
  return OP.contract().STATE_KEYS.every((k) => (Array.isArray(a[k]) && Array.isArray(b[k])
    ? a[k].length === b[k].length && a[k].every((v, i) => v === b[k][i])
    : Object.is(a[k], b[k]))) && sameHonest(a.honest, b.honest);
}

/** The honest curves on screen come from the kernel only (never a move): equal when they are
 * the same curves (each message decodes them afresh). */
function sameHonest(a, b) {
  return a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * Bind a link model: the spec comes from its traits, the role models from `getModel(id)`.
 * @param {object} model  the link's model (get, set, on, save_changes)
 * @param {function(string): Promise<object>} getModel  model id -> widget model
 * @returns {Promise<{page: object, models: Map, roles: object, sent: function(): number,
 *   acked: function(): number, session: string, stop: function}>}
 */
export async function bindLive(model, getModel) {
  const roles = model.get("roles");
  const byId = new Map();
  await Promise.all(Object.values(roles).map(async (id) => byId.set(id, await getModel(id))));
  const spec = {
    roles,
    contract: model.get("contract"),
    // The kernel's latest state when it has sent one (a page reloaded while the kernel ran on).
    state: (model.get("kernel_state") || {}).state || model.get("initial_state"),
    colors: model.get("colors"),
    options: model.get("options"),
    payload: { header: model.get("payload_header"), buffers: model.get("payload_buffers") },
    // Per-case costs: the units and floor of money per case (page_spec.py per_case_spec).
    per_case: model.get("per_case") ?? null,
  };
  let seq = 0;
  // Sequence numbers count from 0 in each front end (a reloaded page, another tab, the same
  // widget displayed twice in another front end): the kernel tells them apart by this session.
  const session = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  // The moves sent and not yet in a state the kernel sent back: [{seq, changes}], oldest first.
  const pending = [];
  const live = {
    changed(state, changes) {
      seq += 1;
      const sent = pick(changes);
      // The population's numbers mean "set" or "following p(+)" only with this flag.
      if ("n_pos" in sent || "n_neg" in sent) sent.population_set = state.population_set;
      pending.push({ seq, changes: sent });
      // ipywidgets keeps one message in flight per model and merges what is saved meanwhile
      // (its msg_throttle): of several quick moves only the newest frontend_state may reach
      // the kernel. So each message carries every move the kernel has not acknowledged yet,
      // oldest first, and the kernel applies those it has not taken: no move is lost, none is
      // applied twice.
      const moves = pending.map((move) => ({ seq: move.seq, changes: move.changes }));
      model.set("frontend_state", { changes: sent, seq, session, moves });
      model.save_changes();
    },
    // A move the page refused (say p(+) = 2 typed in the field): the kernel shows it in the
    // widget's error banner, as it shows its own refusals (the page keeps its last good state).
    refused(message) {
      model.send({ event: "refused", message });
    },
  };
  // Attached first: binding saves the controls the page sets, and the kernel must already take
  // them as the page's echo, not as moves (a constraint set from Python before the display was
  // undone by the page's initial state reaching the kernel's control observers).
  model.set("attached", true);
  model.save_changes();
  const page = bindPage(OP, spec, (id) => byId.get(id), { live });
  let synced = false; // the kernel's first state since it took `attached`
  const onKernel = () => {
    const reply = model.get("kernel_state");
    if (!reply || !reply.state) return;
    // The kernel's state, with this page's moves it has not taken yet on top (they are on their
    // way and it will apply them): a move of another view or a set from Python is drawn, and
    // no key this page moved since goes back to an older value.
    const acked = (reply.acks || {})[session] || 0;
    while (pending.length && pending[0].seq <= acked) pending.shift();
    const target = pick(reply.state);
    // The honest curves on screen: the page's decide reads them; the kernel draws them.
    if (reply.state.honest !== undefined) target.honest = reply.state.honest;
    for (const move of pending) Object.assign(target, move.changes);
    // Once attached the kernel writes no mark: redraw whatever it wrote before it knew.
    const first = Boolean(reply.attached) && !synced;
    synced ||= Boolean(reply.attached);
    // The band the kernel's headline says: the page says it too while it fits.
    const band = page.setRunnerUpBand(reply.runner_up_band ?? null, false);
    if (first || band || !sameState(target, page.state)) page.fromKernel(target);
  };
  model.on("change:kernel_state", onKernel);
  onKernel(); // a state set from Python before this front end was bound
  // sent: the last seq sent; acked: the last the kernel took (tests wait on acked() === sent()).
  const acked = () => ((model.get("kernel_state") || {}).acks || {})[session] || 0;
  // stop: the link model no longer calls into this page (its model closed).
  const stop = () => { if (model.off) model.off("change:kernel_state", onKernel); };
  return { page, models: byId, roles, sent: () => seq, acked, session, stop };
}

// ------------------------------------------------------------------------------ arrow keys

const KEY_STEP = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 };
/** Slider roles, by the class (or label) that marks them in the page. */
const SLIDERS = [["p_pos", ".costwidget-p-pos"], ["log_ratio", ".costwidget-ratio"],
  ["capacity", ".costwidget-capacity"], ["max_fpr", null]];

/** One step of a slider model from the arrow keys (FloatSlider, or FloatLogSlider's exponent). */
export function steppedValue(slider, direction) {
  const { min, max, step } = { min: slider.get("min"), max: slider.get("max"), step: slider.get("step") };
  const base = slider.get("base");
  const value = slider.get("value");
  if (base) { // a log slider: min, max and step are exponents
    const moved = Math.log(value) / Math.log(base) + direction * step;
    const exponent = Math.min(Math.max(min + Math.round((moved - min) / step) * step, min), max);
    return base ** Number(exponent.toFixed(12));
  }
  const snapped = min + Math.round((value + direction * step - min) / step) * step;
  return Number(Math.min(Math.max(snapped, min), max).toPrecision(12));
}

/**
 * Install the window-level arrow-key handler for one widget (its root has class `rootClass`).
 * @param {object} win  the window
 * @param {string} rootClass
 * @param {Object<string, object>} sliders  role -> slider model
 * @returns {function} removes the listener
 */
export function installArrowKeys(win, rootClass, sliders) {
  const onKey = (event) => {
    const direction = KEY_STEP[event.key];
    const target = event.target;
    if (!direction || !target || !target.closest || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!target.closest(`.${rootClass}`)) return;
    const box = target.closest(".widget-slider");
    if (!box) return;
    const role = roleOf(box);
    if (!role || !sliders[role]) return;
    event.stopPropagation();
    event.preventDefault();
    const slider = sliders[role];
    slider.set("value", steppedValue(slider, direction));
    slider.save_changes();
  };
  win.addEventListener("keydown", onKey, true);
  return () => win.removeEventListener("keydown", onKey, true);
}

function roleOf(box) {
  for (const [role, selector] of SLIDERS) {
    if (selector && (box.matches(selector) || box.closest(selector))) return role;
  }
  const label = box.querySelector(".widget-label");
  return label && label.textContent.trim().startsWith("max false-positive rate") ? "max_fpr" : null;
}

/**
 * Put a bound link in the window's registry, `win.costwidgetLive`: one entry per widget bound in
 * this window and not closed, found by its `rootClass` (the class on the widget's root,
 * `costwidget-link-<the root's model id>`). Read only, for tests and benchmarks (as the exported
 * page's window.costwidgetPage). Entries are found by the widget's class, never by position:
 * the links bind in whatever order their models resolve.
 * @param {object} win  the window
 * @param {object} entry  {rootClass, page, models, roles, sent, acked, session}
 * @returns {function} removes this entry (and only it: the same widget may be bound again)
 */
export function register(win, entry) {
  const links = (win.costwidgetLive ||= []);
  links.push(entry);
  return () => {
    const at = links.indexOf(entry);
    if (at >= 0) links.splice(at, 1);
  };
}

/**
 * Bind the link in a front end (`win`, or none outside a browser); resolves to a function that
 * undoes all it installed. Once the link's model closes, nothing of the window refers to the
 * widget any more: its registry entry, its window listeners and its handler on the link model
 * go, so a closed widget neither stays in the registry nor keeps its models and page state alive
 * for as long as the page lives.
 * @param {object} model  the link's model
 * @param {function(string): Promise<object>} getModel  model id -> widget model
 * @param {object|undefined} win  the window
 * @param {{closed: boolean}} link  `closed` is set once the model closed: a link that finishes
 *   binding after that installs nothing
 */
export async function bindFrontEnd(model, getModel, win, link = { closed: false }) {
  let bound; // {page, models, roles, sent, acked, session, stop}
  try {
    bound = await bindLive(model, getModel);
  } catch (err) {
    console.error("costwidget: the live link could not bind; the kernel keeps drawing", err);
    return () => {};
  }
  const { stop, ...entry } = bound;
  if (!win || link.closed) return stop;
  const roles = model.get("roles");
  const sliders = {};
  for (const [role] of SLIDERS) sliders[role] = await getModel(roles[role]);
  if (link.closed) return stop;
  const rootClass = model.get("root_class");
  const undo = [
    stop,
    installArrowKeys(win, rootClass, sliders),
    installTypedRefusals(win, rootClass, entry.page.refuse),
    register(win, { rootClass, ...entry }),
  ];
  return () => { for (const step of undo.splice(0)) step(); };
}

/** anywidget's entry points. */
export default {
  // Not awaited: anywidget fails a model whose initialize takes over 2 s ("[anywidget] Failed
  // to initialize model.", seen on a loaded machine), while binding waits for every widget
  // model the page owns. The binding goes on; the kernel draws until it is done.
  // anywidget calls the function returned when the model is destroyed (the widget closed).
  initialize({ model }) {
    const link = { closed: false };
    const manager = model.widget_manager;
    const win = typeof window === "undefined" ? undefined : window;
    const removing = bindFrontEnd(model, (id) => manager.get_model(id), win, link);
    return () => {
      link.closed = true;
      removing.then((remove) => remove());
    };
  },
  render() {},
};
