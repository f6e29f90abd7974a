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

// The roles, the ratio slider's span and step, the digits of a gesture and the capacity's
// labels come from Python with the spec (`spec.contract`, costwidget/frontend/contract.py).

/** model/decisions/operating.py costs_for_ratio, operation for operation. */
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

/** model/decisions/operating.py costs_for_pcf: keep p(+), change one cost so that PCF(+) = pcf. */
export function costsForPcf(pcf, pPos, costFn, costFp) {
  if (!(pcf >= 0 && pcf <= 1)) throw new RangeError(`pcf must lie in [0, 1], got ${pcf}.`);
  if (!(pPos > 0 && pPos < 1)) {
    throw new RangeError(`p_pos must lie strictly between 0 and 1 to reach a given PCF(+), got ${pPos}.`);
  }
  const ratio = pcf === 1.0 ? Infinity : (pcf * (1.0 - pPos)) / ((1.0 - pcf) * pPos);
  return costsForRatio(ratio, costFn, costFp);
}

/** math.nextafter(x, toward) for finite x. */
function nextAfter(x, toward) {
  if (x === toward || Number.isNaN(x) || Number.isNaN(toward)) return x;
  if (x === 0) return toward > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const f = new Float64Array([x]);
  const bits = new BigInt64Array(f.buffer);
  bits[0] += (toward > x) === (x > 0) ? 1n : -1n;
  return f[0];
}

/** model/kernels/costs.py probability_cost's arithmetic (eq. 6), for checked inputs. */
function pcfOf(p, fn, fp) {
  const wPos = p * fn;
  return wPos / (wPos + (1.0 - p) * fp);
}

function checkPcfInputs(pcf, fn, fp) {
  if (!(pcf >= 0 && pcf <= 1)) throw new RangeError(`pcf must lie in [0, 1], got ${pcf}.`);
  for (const c of [fn, fp]) {
    if (!(Number.isFinite(c) && c >= 0)) throw new RangeError(`a cost must be a finite number >= 0, got ${c}.`);
  }
  if (fn === 0 && fp === 0) throw new RangeError("cost_fn and cost_fp are both 0.");
}

/** model/decisions/operating.py prevalence_for_pcf: eq. 6 solved for p(+), nudged by ulps to round-trip. */
export function prevalenceForPcf(pcf, costFn, costFp) {
  checkPcfInputs(pcf, costFn, costFp);
  if (!(costFn > 0 && costFp > 0)) {
    throw new RangeError("p(+) cannot move PCF(+) while a cost is 0 (PCF(+) is then 0 or 1 at " +
      "every p(+)): change a cost instead.");
  }
  const x = pcf;
  if (x === 0 || x === 1) return x;
  let p = (x * costFp) / (x * costFp + (1.0 - x) * costFn);
  let best = p;
  let err = Math.abs(pcfOf(p, costFn, costFp) - x);
  for (let i = 0; i < 64; i++) {
    const got = pcfOf(p, costFn, costFp);
    if (got === x) return p;
    const step = nextAfter(p, got < x ? 1.0 : 0.0);
    const e = Math.abs(pcfOf(step, costFn, costFp) - x);
    if (e > Math.abs(got - x)) break;
    p = step;
    if (e < err) {
      best = p;
      err = e;
    }
  }
  return best;
}

// model/decisions/operating.py _REACHED and _GESTURE_SLACK.
const REACHED = 1e-9;
const GESTURE_SLACK = 5e-4;

/** model/decisions/operating.py snap_pcf: a gesture's PCF(+) on the 0.001 grid, in [0, 1]. */
export function snapPcf(x) {
  const c = Math.min(Math.max(x, 0.0), 1.0);
  return Math.floor(1000.0 * c + 0.5) / 1000.0;
}

/**
 * model/decisions/operating.py move_to_pcf: [p, costFn, costFp] giving PCF(+) = pcf; p(+) moves and the
 * costs stay (p to `digits` significant digits when given); with a zero cost a cost changes.
 * @param {function(number, number): number} roundSig  operating_point.mjs roundSignificant
 */
export function moveToPcf(pcf, pPos, costFn, costFp, digits = null, roundSig = null) {
  checkPcfInputs(pcf, costFn, costFp);
  if (!(pPos >= 0 && pPos <= 1)) throw new RangeError(`p_pos must lie in [0, 1], got ${pPos}.`);
  if (costFn > 0 && costFp > 0) {
    const q = prevalenceForPcf(pcf, costFn, costFp);
    // Unreachable by p(+) alone (cost ratios beyond ~10^7): a cost moves after all.
    if (Math.abs(pcfOf(q, costFn, costFp) - pcf) <= REACHED) {
      if (digits === null || q === 0 || q === 1) return [q, costFn, costFp];
      for (let d = digits; d < 17; d++) {
        const r = roundSig(q, d);
        if (r > 0 && r < 1 && Math.abs(pcfOf(r, costFn, costFp) - pcf) <= GESTURE_SLACK) {
          return [r, costFn, costFp];
        }
      }
      return [q, costFn, costFp];
    }
  }
  const p = pPos > 0 && pPos < 1 ? pPos : 0.5;
  return [p, ...costsForPcf(pcf, p, costFn, costFp)];
}

/** model/decisions/operating.py population_for: [nPos, nNeg] of `total` cases at prevalence p. */
export function populationFor(pPos, total) {
  const nPos = pPos * total;
  return [nPos, total - nPos];
}

/** model/decisions/operating.py capacity_to_cases / capacity_from_cases. */
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

/** The number fields a user types into, by the class that marks each, and what each holds. */
const TYPED_FIELDS = [[".costwidget-p-pos-value", "p(+)", "a number in [0, 1]"],
  [".costwidget-cost-fn", "C(-|+)", "a cost >= 0"], [".costwidget-cost-fp", "C(+|-)", "a cost >= 0"]];

/**
 * Typed text that is no number (the field shows it empty, or the browser marks it bad input)
 * is reverted by the field's own view with no word: say so in the banner instead.
 * @param {object} win  the window
 * @param {string} rootClass  the widget's root class
 * @param {function(string)} refuse  shows the message (bindPage's `refuse`)
 * @returns {function} removes the listener
 */
export function installTypedRefusals(win, rootClass, refuse) {
  const onChange = (event) => {
    const input = event.target;
    if (!input || input.tagName !== "INPUT" || !input.closest || !input.closest(`.${rootClass}`)) return;
    const field = TYPED_FIELDS.find(([selector]) => input.closest(selector));
    if (!field) return;
    const bad = (input.validity && input.validity.badInput) || String(input.value).trim() === "";
    if (!bad || Number.isFinite(parseFloat(input.value))) return;
    const [, name, wanted] = field;
    refuse(`${name} must be ${wanted}; what was typed is not a number (the field keeps its value).`);
  };
  win.addEventListener("change", onChange, true);
  return () => win.removeEventListener("change", onChange, true);
}

/** The state keys whose values differ between `before` and `after` (`visible` by content). */
export function changedKeys(before, after) {
  const out = {};
  for (const key of Object.keys(after)) {
    const [a, b] = [before[key], after[key]];
    const same = Array.isArray(a) && Array.isArray(b)
      ? a.length === b.length && a.every((v, i) => v === b[i]) : Object.is(a, b);
    if (!same) out[key] = Array.isArray(b) ? [...b] : b;
  }
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
 * @param {{live?: {changed: function(object, object)}}} [bindOptions]  `live`: a kernel is
 *   attached; the controls the glue sets are saved (save_changes), and each user move that is
 *   taken is passed to `live.changed(state, changes)` after it is drawn (`changes`: the keys it
 *   changed, with their new values)
 * @returns {{state: object, draw: function, set: function, fromKernel: function}}
 */
export function bindPage(OP, spec, modelOf, bindOptions = {}) {
  const { CONTROL_ROLES, OWNED_ROLES, RATIO_DECADES, RATIO_STEP, GESTURE_DIGITS, CAPACITY_LABEL } =
    OP.useContract(spec.contract);
  const live = bindOptions.live || null;
  const classifiers = OP.decodePayload(spec.payload.header, spec.payload.buffers);
  // Per-case costs (spec.per_case: the units and floor, frontend/contract.py): the classifiers
  // are the cost-weighted twins and cost_fn/cost_fp the multipliers. Under a limit the decision
  // counts cases the page does not hold: live, the kernel draws it (FrontendLink.attached is
  // false meanwhile) and the page draws nothing; in an exported page the limit's controls are
  // disabled (page_limits.py), and a limit is refused.
  const perCase = spec.per_case ?? null;
  const units = perCase ? perCase.units : [1.0, 1.0];
  const kernelDecides = (s) => perCase !== null && live !== null && s.constraint !== "none";
  const n = classifiers.length;
  const m = {};
  for (const [role, id] of Object.entries(spec.roles)) m[role] = modelOf(id);
  const state = { ...spec.state };
  // How sure the headline is: the kernel's band of the runner-up, said while it is of
  // the page's state (an exported page: the band as exported; live: the kernel's latest).
  let runnerUpBand = spec.runner_up_band ?? null;
  let good = { ...state };
  let pushing = false; // our own writes to controls fire change events: not user moves
  // Where the ratio slider was put: its view answers a set value with 10**log10(v), which can
  // differ from v in the last bits; that answer is not a user's move (sliders.py _same_position).
  let ratioShown = null;
  const samePosition = (a, b) => a > 0 && b > 0 && Math.abs(Math.log10(b / a)) < 1e-6 * RATIO_STEP;
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
    if (kernelDecides(state)) return null;
    const view = perCase ? OP.perCaseView(classifiers, state, perCase, { colors: spec.colors, runnerUpBand })
      : OP.computeView(classifiers, state, { colors: spec.colors, runnerUpBand });
    const op = view.operating;
    const con = view.constraint;
    // x and y in one set(): a view redrawn between them would join old x with new y.
    m.iso_lines.set({ x: rows2(op.isoLines.x, n), y: rows2(op.isoLines.y, n), opacities: op.isoLines.opacities });
    m.chosen.set({ x: op.chosen.x, y: op.chosen.y, opacities: op.chosen.opacities });
    m.operating_line.set({ x: op.operatingLine.x, y: op.operatingLine.y });
    m.nec_points.set({ x: op.necPoints.x, y: op.necPoints.y, opacities: op.necPoints.opacities });
    if (m.winner_dot) { // older pages have no such role
      const dot = op.winnerDot;
      m.winner_dot.set({ x: dot.x, y: dot.y, colors: dot.colors, visible: dot.visible });
    }
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
    setHtml("headline", view.headline.html);
    return view;
  }

  function pushControls() {
    if (kernelDecides(state)) return; // the kernel writes the controls meanwhile
    pushing = true;
    try {
      const s = state;
      // On the slider's grid (sliders.py shown()): a value off the grid is snapped by the
      // slider's view, which sends the snapped value back as if the user had moved it.
      const [pMin, pMax, pStep] = ["min", "max", "step"].map((k) => m.p_pos.get(k));
      const pClamped = Math.min(Math.max(s.p_pos, pMin), pMax);
      const pGrid = pStep > 0 ? pMin + Math.round((pClamped - pMin) / pStep) * pStep : pClamped;
      m.p_pos.set("value", Number(Math.min(Math.max(pGrid, pMin), pMax).toPrecision(12)));
      // Fields show the rounded number; the state keeps its own (these sets are pushes).
      m.p_pos_value.set("value", OP.readableValue(s.p_pos));
      m.cost_fn.set("value", OP.readableValue(s.cost_fn));
      m.cost_fp.set("value", OP.readableValue(s.cost_fp));
      const ratio = s.cost_fp === 0 ? Infinity : s.cost_fn / s.cost_fp;
      let lo = -RATIO_DECADES;
      let hi = RATIO_DECADES;
      if (ratio > 0 && ratio < Infinity) {
        const e = Math.log10(ratio);
        lo = Math.max(Math.min(lo, Math.floor(e)), -308);
        hi = Math.min(Math.max(hi, Math.ceil(e)), 308);
      }
      // On the slider's grid (sliders.py shown()), and not written when the slider already
      // shows it: while it is dragged, a write would pull the handle back.
      const at = ratio > 0 ? Math.log10(ratio) : lo;
      const exp = Math.min(Math.max(lo + Math.round((at - lo) / RATIO_STEP) * RATIO_STEP, lo), hi);
      const shown = 10 ** Number(exp.toFixed(12));
      // Widen the range to hold both positions, move, then narrow (operating_point.py): the
      // handle never leaves its range, where the view would clamp it and send that as a move.
      const old = m.log_ratio.get("value");
      const same = samePosition(old, shown);
      ratioShown = same ? old : shown;
      const [oldLo, oldHi] = [m.log_ratio.get("min"), m.log_ratio.get("max")];
      if (oldLo !== lo || oldHi !== hi) m.log_ratio.set({ min: Math.min(lo, oldLo), max: Math.max(hi, oldHi) });
      if (!same) m.log_ratio.set("value", shown);
      m.log_ratio.set({ min: lo, max: hi });
      setHtml("ratio_text", `= ${OP.formatRatio(s.cost_fn, s.cost_fp)}`);
      // state.py _derive_pcf: per-case multipliers times their units.
      const pcf = OP.probabilityCost(s.p_pos, s.cost_fn * units[0], s.cost_fp * units[1]);
      setHtml("pcf", OP.pcfLabel(pcf, s.cost_fn, s.cost_fp));
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
      m.n_pos.set("value", OP.readableValue(s.n_pos));
      m.n_neg.set("value", OP.readableValue(s.n_neg));
      setHtml("population_value", OP.escapeHtml(OP.populationText(s)));
    } finally {
      pushing = false;
    }
  }

  /** Apply a change to the state; on an error keep the last good state (nothing half-drawn).
   * A user's move (`fromUser`) that is taken goes to the kernel when live. */
  // With no kernel the page shows its own refusals in the widget's error banner (escaped, as
  // errors.py ErrorArea writes it); live, the kernel owns the banner and is told instead.
  function banner(message) {
    if (live || !m.errors || !m.errors_layout) return;
    m.errors.set("value", message ? `<div role="alert" class="costwidget-error-banner" style="color:var(--cw-error-fg,#000);background:var(--cw-error-bg,#fdd);border-left:4px solid var(--cw-error-edge,#d32f2f);padding:2px 6px">${OP.escapeHtml(`refused: ${message}`)}</div>` : "");
    m.errors_layout.set("display", message ? null : "none");
  }

  function apply(change, fromUser = true) {
    const before = { ...state };
    try {
      change(state);
      const view = draw();
      good = { ...state };
      pushControls();
      if (fromUser) banner("");
      if (live) {
        saveDirty();
        // The keys this move changed, not the whole state: a key the user did not touch (set
        // from Python or from another view meanwhile) is left as the kernel has it.
        const changes = changedKeys(before, state);
        if (fromUser && Object.keys(changes).length) live.changed({ ...state }, changes);
      }
      return view;
    } catch (err) {
      console.error("costwidget:", err);
      Object.assign(state, before, good);
      draw();
      pushControls();
      const message = String(err && err.message ? err.message : err);
      if (live) {
        saveDirty();
        if (fromUser && live.refused) live.refused(message);
      } else if (fromUser) {
        banner(message);
      }
      return null;
    }
  }

  // state.py _follow_population: the workforce population follows p(+) until the user sets it.
  const setP = (s, p) => {
    OP.probabilityCost(p, s.cost_fn, s.cost_fp); // refuses p outside [0, 1] before anything moves
    s.p_pos = p;
    // (A page written without the key keeps its population: as set.)
    if (s.population_set === false && p > 0 && p < 1) {
      [s.n_pos, s.n_neg] = populationFor(p, s.n_pos + s.n_neg);
    }
  };
  // A click or a drag in the cost pane (operating_point.py set_pcf): PCF(+) on the 0.001 grid,
  // then p(+) to 3 significant digits with the costs kept (a cost moves only where one is 0).
  // Per-case costs (operating_point.py for_pcf): PCF(+) is of the multipliers times their units;
  // a cost that moves is turned back into a multiplier.
  const gesture = (x) => apply((s) => {
    const [fn0, fp0] = [s.cost_fn * units[0], s.cost_fp * units[1]];
    const [p, fn, fp] = moveToPcf(snapPcf(x), s.p_pos, fn0, fp0, GESTURE_DIGITS,
      OP.roundSignificant);
    OP.probabilityCost(p, fn, fp);
    [s.cost_fn, s.cost_fp] = [fn === fn0 ? s.cost_fn : fn / units[0], fp === fp0 ? s.cost_fp : fp / units[1]];
    setP(s, p);
  });
  const moves = {
    p_pos: (v) => apply((s) => setP(s, v)),
    p_pos_value: (v) => apply((s) => setP(s, v)),
    cost_fn: (v) => apply((s) => { OP.probabilityCost(s.p_pos, v, s.cost_fp); s.cost_fn = v; }),
    cost_fp: (v) => apply((s) => { OP.probabilityCost(s.p_pos, s.cost_fn, v); s.cost_fp = v; }),
    log_ratio: (v) => samePosition(ratioShown, v) ? null : apply((s) => {
      [s.cost_fn, s.cost_fp] = costsForRatio(OP.roundSignificant(v, GESTURE_DIGITS), s.cost_fn, s.cost_fp);
    }),
    constraint: () => apply((s) => { s.constraint = valueOf("constraint"); }),
    max_fpr: (v) => apply((s) => { s.max_fpr = v; }),
    capacity: (v) => apply((s) => {
      s.capacity = capacityToCases(v, valueOf("capacity_unit"), s.n_pos, s.n_neg);
    }),
    capacity_unit: () => apply(() => {}),
    n_pos: (v) => apply((s) => { s.n_pos = v; s.population_set = true; }),
    n_neg: (v) => apply((s) => { s.n_neg = v; s.population_set = true; }),
    // The drag handle at the foot of the operating line: bqplot sets its x when a drag ends.
    handle: (x) => gesture(x[0]),
  };
  // A click in the cost pane: bqplot's bars send "element_click" to the kernel; with no kernel
  // the page takes it here (the bar's x is its PCF(+)).
  // (spec.take_clicks === false leaves clicks to a kernel, for a page bound beside one.)
  if (spec.take_clicks !== false && m.click_bars && typeof m.click_bars.send === "function") {
    const send = m.click_bars.send.bind(m.click_bars);
    m.click_bars.send = (content, ...rest) => {
      if (content && content.event === "element_click" && content.data) {
        const x = m.click_bars.get("x");
        const v = x[content.data.index];
        if (typeof v === "number") return gesture(v);
      }
      return send(content, ...rest);
    };
  }
  // A write the kernel made to a control or a mark (ipywidgets applies the kernel's updates in
  // set_state, which holds `_state_lock` meanwhile) is never a user's move: before the kernel
  // took `attached` it still wrote its own copies, and those writes reach the page after it
  // bound (a handle's x written for the kernel's state, taken as a drag and converted with the
  // page's older costs, left Run All on the tour at p(+) = 0.079). The page draws its own state
  // over such a write instead; the kernel's state reaches it as `kernel_state` only.
  const fromKernel = (model) => model._state_lock != null;
  let redrawQueued = false;
  const redrawOwnState = () => {
    if (redrawQueued) return;
    redrawQueued = true;
    queueMicrotask(() => { redrawQueued = false; apply(() => {}, false); });
  };
  for (const [role, move] of Object.entries(moves)) {
    if (!m[role]) continue;
    const event = options[role] ? "change:index" : role === "handle" ? "change:x" : "change:value";
    m[role].on(event, (_model, value) => {
      if (pushing) return;
      if (fromKernel(m[role])) {
        redrawOwnState();
        return;
      }
      // Once the control's own set() is over (a microtask: still before the next frame), so
      // that what we set is a change of its own, which every view draws (inside the control's
      // change event Backbone would merge it into that event, which its view skips).
      queueMicrotask(() => move(value));
    });
  }
  if (live) {
    // One writer per mark: a late write of the kernel's copy is drawn over at once.
    for (const role of OWNED_ROLES) {
      if (m[role] && !moves[role]) m[role].on("change", () => { if (fromKernel(m[role])) redrawOwnState(); });
    }
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
    /** The kernel's band of the runner-up (RunnerUpBand.to_dict() or null); redrawn when it
     * changed, unless `redraw` is false. Returns whether it changed. */
    setRunnerUpBand: (band, redraw = true) => {
      const next = band ?? null;
      if (JSON.stringify(next) === JSON.stringify(runnerUpBand)) return false;
      runnerUpBand = next;
      if (redraw) apply(() => {}, false);
      return true;
    },
    /** A refusal of what was typed (installTypedRefusals): to the banner, the state kept. */
    refuse: (message) => {
      if (live) {
        if (live.refused) live.refused(message);
      } else {
        banner(message);
      }
    },
  };
}
