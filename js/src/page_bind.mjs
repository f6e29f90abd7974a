// The glue between the widget's controls and the marks and tables the operating point owns,
// for a page with no kernel (CostWidget.to_html): every control move is computed here, by the
// operating-point module, and drawn in the same frame.
//
// It only talks to widget *models* through the Backbone API that every Jupyter widget manager
// gives them (get, set, on), so it needs no DOM and runs in node tests with stand-in models.
// It never calls save_changes() in a page: with no kernel there is nobody to send to. Live (a
// kernel attached, js/src/live_link.mjs passes `live`), it saves the controls it sets, so the
// kernel's copies stay right, and hands every user move to `live.changed(state)`.
//
// The operating-point module is passed in (`OP`), not imported: the page inlines each module as a
// data: URL, where a relative import would not resolve. Nothing here evaluates text from the
// page's data; the payload is numbers (base64 float64) and model ids.

/** The widget's controls, by role (ids come from Python, costwidget/widget/page_spec.py). */
export const CONTROL_ROLES = ["p_pos", "p_pos_value", "cost_fn", "cost_fp", "log_ratio", "constraint",
  "max_fpr", "capacity", "capacity_unit", "n_pos", "n_neg"];
/** What the glue writes (one writer each: the page has no kernel to write them). */
export const OWNED_ROLES = ["iso_lines", "chosen", "operating_line", "nec_points", "handle",
  "roc_line", "roc_points", "cost_lines", "readout", "constrained_readout", "pcf", "ratio_text",
  "capacity_value", "message", "neyman_pearson_layout", "workforce_layout"];

const RATIO_DECADES = 3.0;
// constraint.py _CAPACITY_LABEL: the unit is part of what the number means.
const CAPACITY_LABEL = { cases: "capacity (cases flagged)", "% flagged": "capacity (% of cases flagged)" };

/** model/operating.py costs_for_ratio, operation for operation. */
export function costsForRatio(ratio, costFn, costFp) {
  const r = ratio;
  if (Number.isNaN(r) || r < 0) throw new RangeError(`the cost ratio must be a number >= 0, got ${ratio}.`);
  const unit = costFp > 0 ? costFp : costFn;
  if (r === Infinity) return [costFn > 0 ? costFn : unit, 0.0];
  if (r === 0.0) return [0.0, unit];
  if (costFp > 0) {
    const fn = r * costFp;
    return Number.isFinite(fn) ? [fn, costFp] : [costFp, costFp / r];
  }
  const fp = costFn / r;
  return Number.isFinite(fp) ? [costFn, fp] : [r * costFn, costFn];
}

/** model/operating.py costs_for_pcf: keep p(+), change one cost so that PCF(+) = pcf. */
export function costsForPcf(pcf, pPos, costFn, costFp) {
  if (!(pcf >= 0 && pcf <= 1)) throw new RangeError(`pcf must lie in [0, 1], got ${pcf}.`);
  if (!(pPos > 0 && pPos < 1)) {
    throw new RangeError(`p_pos must lie strictly between 0 and 1 to reach a given PCF(+), got ${pPos}.`);
  }
  const ratio = pcf === 1.0 ? Infinity : (pcf * (1.0 - pPos)) / ((1.0 - pcf) * pPos);
  return costsForRatio(ratio, costFn, costFp);
}

/** model/operating.py capacity_to_cases / capacity_from_cases. */
export function capacityToCases(value, unit, nPos, nNeg) {
  if (!(value >= 0)) throw new RangeError(`capacity must be a number >= 0, got ${value}.`);
  if (unit === "cases") return value;
  if (value > 100.0) throw new RangeError(`a capacity in percent must lie in [0, 100], got ${value}.`);
  return (value / 100.0) * (nPos + nNeg);
}

export function capacityFromCases(cases, unit, nPos, nNeg) {
  if (unit === "cases") return cases;
  const total = nPos + nNeg;
  return total > 0 ? (100.0 * cases) / total : 0.0;
}

/** A flat row-major [n, 2] array as the rows bqplot's deserializer makes for a 2-D array. */
function rows2(flat, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(flat.slice(2 * i, 2 * i + 2));
  return out;
}

/** Roles the glue writes that are not marks or tables: saved to the kernel when live. */
const SAVED_OUTPUT_ROLES = ["pcf", "ratio_text", "capacity_value", "neyman_pearson_layout",
  "workforce_layout"];

/**
 * Bind the controls to the marks and tables.
 * @param {object} OP  the operating-point module (operating_point.mjs)
 * @param {object} spec  {roles: {role: model id}, state, colors, payload: {header, buffers}}
 * @param {function(string): object} modelOf  model id -> widget model
 * @param {{live?: {changed: function(object)}}} [bindOptions]  `live`: a kernel is attached;
 *   the controls the glue sets are saved (save_changes), and each user move that is taken is
 *   passed to `live.changed(state)` after it is drawn
 * @returns {{state: object, draw: function, set: function, fromKernel: function}}
 */
export function bindPage(OP, spec, modelOf, bindOptions = {}) {
  const live = bindOptions.live || null;
  const classifiers = OP.decodePayload(spec.payload.header, spec.payload.buffers);
  const n = classifiers.length;
  const m = {};
  for (const [role, id] of Object.entries(spec.roles)) m[role] = modelOf(id);
  const state = { ...spec.state };
  let good = { ...state };
  let pushing = false; // our own writes to controls fire change events: not user moves
  // Selection widgets (the constraint, the capacity unit) hold an index in the browser; their
  // values are in spec.options, in order.
  const options = spec.options || {};
  const valueOf = (role) => (options[role] ? options[role][m[role].get("index")] : m[role].get("value"));
  const setValue = (role, v) => {
    if (options[role]) m[role].set("index", options[role].indexOf(v));
    else m[role].set("value", v);
  };

  // Live: the controls (and their texts) our own writes changed, saved once the move is drawn.
  const dirty = new Set();
  if (live) {
    for (const role of [...CONTROL_ROLES, ...SAVED_OUTPUT_ROLES]) {
      const model = m[role];
      if (model) model.on("change", () => { if (pushing) dirty.add(model); });
    }
  }
  function saveDirty() {
    for (const model of dirty) model.save_changes();
    dirty.clear();
  }

  const setHtml = (role, value) => {
    if (m[role] && m[role].get("value") !== value) m[role].set("value", value);
  };

  function draw() {
    const view = OP.computeView(classifiers, state, { colors: spec.colors });
    const op = view.operating;
    const con = view.constraint;
    // x and y in one set(): a view redrawn between them would join old x with new y.
    m.iso_lines.set({ x: rows2(op.isoLines.x, n), y: rows2(op.isoLines.y, n), opacities: op.isoLines.opacities });
    m.chosen.set({ x: op.chosen.x, y: op.chosen.y, opacities: op.chosen.opacities });
    m.operating_line.set({ x: op.operatingLine.x, y: op.operatingLine.y });
    m.nec_points.set({ x: op.necPoints.x, y: op.necPoints.y, opacities: op.necPoints.opacities });
    pushing = true; // the handle's x is also an input (a drag ends by setting it)
    try {
      m.handle.set({ x: op.handle.x });
    } finally {
      pushing = false;
    }
    m.roc_line.set({ x: con.rocLine.x, y: con.rocLine.y, visible: con.rocLine.visible });
    m.roc_points.set({ x: con.rocPoints.x, y: con.rocPoints.y, opacities: con.rocPoints.opacities,
      visible: con.rocPoints.visible });
    m.cost_lines.set({ x: rows2(con.costLines.x, n), y: rows2(con.costLines.y, n),
      opacities: con.costLines.opacities, visible: con.costLines.visible });
    setHtml("readout", view.readout.html);
    setHtml("constrained_readout", view.readout.constraintHtml);
    setHtml("message", con.messageHtml);
    return view;
  }

  function pushControls() {
    pushing = true;
    try {
      const s = state;
      m.p_pos.set("value", Math.min(Math.max(s.p_pos, m.p_pos.get("min")), m.p_pos.get("max")));
      m.p_pos_value.set("value", s.p_pos);
      m.cost_fn.set("value", s.cost_fn);
      m.cost_fp.set("value", s.cost_fp);
      const ratio = s.cost_fp === 0 ? Infinity : s.cost_fn / s.cost_fp;
      let lo = -RATIO_DECADES;
      let hi = RATIO_DECADES;
      if (ratio > 0 && ratio < Infinity) {
        const e = Math.log10(ratio);
        lo = Math.min(lo, Math.floor(e));
        hi = Math.max(hi, Math.ceil(e));
      }
      m.log_ratio.set({ min: lo, max: hi, value: Math.min(Math.max(ratio, 10 ** lo), 10 ** hi) });
      setHtml("ratio_text", `= ${OP.formatRatio(s.cost_fn, s.cost_fp)}`);
      setHtml("pcf", OP.pcfLabel(OP.probabilityCost(s.p_pos, s.cost_fn, s.cost_fp)));
      setValue("constraint", s.constraint);
      m.neyman_pearson_layout.set("display", s.constraint === "neyman_pearson" ? null : "none");
      m.workforce_layout.set("display", s.constraint === "workforce" ? null : "none");
      m.max_fpr.set("value", s.max_fpr);
      const total = s.n_pos + s.n_neg;
      const unit = valueOf("capacity_unit");
      const whole = Number.isInteger(total) && total >= 1;
      const range = unit === "cases"
        ? { max: Math.max(total, 1e-9), step: whole ? 1.0 : total / 1000.0 }
        : { max: 100.0, step: 0.01 };
      m.capacity.set({ ...range, description: CAPACITY_LABEL[unit], readout_format: unit === "cases" ? (whole ? ",.0f" : ".4g") : ".2f",
        value: capacityFromCases(s.capacity, unit, s.n_pos, s.n_neg) });
      setHtml("capacity_value", OP.capacityText(s.capacity, s.n_pos, s.n_neg));
      m.n_pos.set("value", s.n_pos);
      m.n_neg.set("value", s.n_neg);
    } finally {
      pushing = false;
    }
  }

  /** Apply a change to the state; on an error keep the last good state (nothing half-drawn).
   * A user's move (`fromUser`) that is taken goes to the kernel when live. */
  function apply(change, fromUser = true) {
    const before = { ...state };
    try {
      change(state);
      const view = draw();
      good = { ...state };
      pushControls();
      if (live) {
        saveDirty();
        if (fromUser) live.changed({ ...state });
      }
      return view;
    } catch (err) {
      console.error("costwidget:", err);
      Object.assign(state, before, good);
      draw();
      pushControls();
      if (live) saveDirty();
      return null;
    }
  }

  const moves = {
    p_pos: (v) => apply((s) => { s.p_pos = v; }),
    p_pos_value: (v) => apply((s) => { s.p_pos = v; }),
    cost_fn: (v) => apply((s) => { OP.probabilityCost(s.p_pos, v, s.cost_fp); s.cost_fn = v; }),
    cost_fp: (v) => apply((s) => { OP.probabilityCost(s.p_pos, s.cost_fn, v); s.cost_fp = v; }),
    log_ratio: (v) => apply((s) => { [s.cost_fn, s.cost_fp] = costsForRatio(v, s.cost_fn, s.cost_fp); }),
    constraint: () => apply((s) => { s.constraint = valueOf("constraint"); }),
    max_fpr: (v) => apply((s) => { s.max_fpr = v; }),
    capacity: (v) => apply((s) => {
      s.capacity = capacityToCases(v, valueOf("capacity_unit"), s.n_pos, s.n_neg);
    }),
    capacity_unit: () => apply(() => {}),
    n_pos: (v) => apply((s) => { s.n_pos = v; }),
    n_neg: (v) => apply((s) => { s.n_neg = v; }),
    // The drag handle at the foot of the operating line: bqplot sets its x when a drag ends.
    handle: (x) => apply((s) => {
      const pcf = Math.min(Math.max(x[0], 0.0), 1.0);
      const [fn, fp] = costsForPcf(pcf, s.p_pos, s.cost_fn, s.cost_fp);
      OP.probabilityCost(s.p_pos, fn, fp); // refuses both costs zero, as Python does
      [s.cost_fn, s.cost_fp] = [fn, fp];
    }),
  };
  for (const [role, move] of Object.entries(moves)) {
    if (!m[role]) continue;
    const event = options[role] ? "change:index" : role === "handle" ? "change:x" : "change:value";
    m[role].on(event, (_model, value) => {
      // Once the control's own set() is over (a microtask: still before the next frame), so
      // that what we set is a change of its own, which every view draws (inside the control's
      // change event Backbone would merge it into that event, which its view skips).
      if (!pushing) queueMicrotask(() => move(value));
    });
  }
  if (live && m.handle) {
    // A drag of the handle: bqplot's view reports each pointer move to the kernel through the
    // model's send(); drawn here at once (the kernel ignores these events while attached).
    const send = m.handle.send.bind(m.handle);
    m.handle.send = (content, ...rest) => {
      if (content && content.event === "drag" && content.point) moves.handle([content.point.x]);
      return send(content, ...rest);
    };
  }
  pushControls();
  draw();
  if (live) saveDirty();
  return {
    state,
    draw,
    /** Set state keys as a control would (tests, benchmarks). */
    set: (changes) => apply((s) => Object.assign(s, changes)),
    /** Take a state the kernel sent (a trait set from Python): drawn, not sent back. */
    fromKernel: (changes) => apply((s) => Object.assign(s, changes), false),
  };
}
