// The operating point in the browser: everything that depends only on p(+), the two costs and
// the constraint, computed from each classifier's hull and envelope (sent once, as binary
// buffers) so that a control move can be drawn in the next frame, with or without a kernel.
//
// This module mirrors the Python model *exactly*, operation for operation, so that its answers
// are the same IEEE doubles and the same words. Which export mirrors which Python function is
// listed in one table, costwidget/frontend/contract.py MIRROR (every other export is in its
// GLUE list); tests/test_frontend_parity.py keeps each pair equal on >= 1000 states, and
// tests/test_frontend_mirror.py keeps the table whole.
//
// Rules kept from the Python so that doubles agree bit for bit: the same order of operations
// (`(1 - tpr - fpr) * pcf + fpr` is `((1 - tpr) - fpr) * pcf + fpr`), no fused multiply-add (JS
// never fuses), and the same tie rules (first maximum, lowest load, ...). Numbers are formatted
// as Python's format() does (`formatPy`), with exact decimal rounding, half to even.
//
// No runtime dependencies; no DOM. Names of state keys and of readout columns are the Python
// trait and column names, so a widget model's state can be passed as it is.

// ------------------------------------------------------------------------------------ the contract

// Every fact this module shares with Python (the payload's format and arrays, the constraints,
// the state keys, the readout's columns, ...) has its one home in costwidget/frontend/contract.py.
// Python sends it with the page's spec (`spec.contract`); `useContract` takes it before anything
// is decoded or drawn, and this module declares none of it.
let CONTRACT = null;

const CONTRACT_KEYS = ["PAYLOAD_FORMAT", "PAYLOAD_VERSION", "PAYLOAD_ARRAYS", "PAYLOAD_OPTIONAL_ARRAYS",
  "SINGLE_ARRAYS", "THRESHOLD_DIGITS", "THRESHOLD_KEYS", "CONSTRAINTS", "STATE_KEYS",
  "READOUT_COLUMNS", "HONEST_COLUMNS", "CONSTRAINT_COLUMNS", "TEXT_COLUMNS",
  // read by page_bind.mjs
  "CONTROL_ROLES", "OWNED_ROLES", "RATIO_DECADES", "RATIO_STEP", "GESTURE_DIGITS", "CAPACITY_LABEL",
  "UNKNOWN_COLOR", "BEST_ROW_STYLE", "PER_CASE_NOTE", "PER_CASE_REFUSED_LIMIT",
  "PER_CASE_ONE_SIDED"];

/**
 * Take the contract Python sent (costwidget.frontend.contract.page_contract). A spec without
 * one, or without a fact this module reads, is refused here, not half-drawn later.
 * @param {object} facts
 * @returns {object} the contract, frozen
 */
export function useContract(facts) {
  if (!facts || typeof facts !== "object") {
    throw new Error("the page's spec carries no contract (costwidget.frontend.contract): " +
      "export the page again with this version of costwidget");
  }
  const missing = CONTRACT_KEYS.filter((k) => !(k in facts));
  if (missing.length) throw new Error(`the page's contract lacks ${missing.join(", ")}`);
  CONTRACT = Object.freeze({ ...facts });
  return CONTRACT;
}

/** The contract taken by `useContract`; an error when none was taken yet. */
export function contract() {
  if (CONTRACT === null) {
    throw new Error("operating_point.mjs: no contract yet (call useContract(spec.contract) first)");
  }
  return CONTRACT;
}

// ------------------------------------------------------------------------------------ decoding

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Bytes of one buffer as a Uint8Array, whatever the transport gave: an ArrayBuffer, a typed
 * array or DataView (ipywidgets hands buffers over as DataViews into a larger message), or a
 * base64 string (an exported page carries them as text).
 * @param {ArrayBuffer|ArrayBufferView|string} buf
 * @returns {Uint8Array}
 */
export function bufferBytes(buf) {
  if (typeof buf === "string") return base64ToBytes(buf);
  if (buf instanceof ArrayBuffer) return new Uint8Array(buf);
  if (ArrayBuffer.isView(buf)) return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  throw new TypeError(`a payload buffer must be an ArrayBuffer, a typed array, a DataView or ` +
    `base64 text, got ${Object.prototype.toString.call(buf)}`);
}

const B64 = (() => {
  const table = new Int16Array(128).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/**
 * Decode base64 (standard alphabet; padding and whitespace allowed) without atob, so that node
 * and browsers run the same code, and through a table, so that megabytes (a 5 x 10^5-case
 * classifier in an exported page) decode in milliseconds.
 * @param {string} text
 * @returns {Uint8Array}
 */
export function base64ToBytes(text) {
  const clean = /[^A-Za-z0-9+/]/.test(text) ? text.replace(/[\s=]/g, "") : text;
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let j = 0;
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    const v = c < 128 ? B64[c] : -1;
    if (v < 0) throw new Error(`invalid base64 character ${JSON.stringify(clean[i])}`);
    value = ((value << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (value >> bits) & 0xff;
    }
  }
  return out.subarray(0, j);
}

/**
 * `length` little-endian float64 values from `bytes` at `offset`. A view when the bytes are
 * aligned (no copy: a 5 x 10^5-point classifier costs nothing to decode), a copy otherwise:
 * a Float64Array may not start at a byte offset that is not a multiple of 8, and a DataView
 * from ipywidgets' message decoding often does. Big-endian hosts read through a DataView.
 * @param {Uint8Array} bytes
 * @param {number} offset  byte offset in `bytes`
 * @param {number} length  number of float64 values
 * @returns {Float64Array}
 */
function float64At(bytes, offset, length) {
  if (offset < 0 || offset + 8 * length > bytes.byteLength) {
    throw new RangeError(`payload array of ${length} float64 at byte ${offset} overruns its ` +
      `buffer of ${bytes.byteLength} bytes`);
  }
  const start = bytes.byteOffset + offset;
  if (LITTLE_ENDIAN && start % 8 === 0) return new Float64Array(bytes.buffer, start, length);
  const out = new Float64Array(length);
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer).set(bytes.subarray(offset, offset + 8 * length));
  } else {
    const view = new DataView(bytes.buffer, start, 8 * length);
    for (let i = 0; i < length; i++) out[i] = view.getFloat64(8 * i, true);
  }
  return out;
}

/**
 * Decode the payload written by `costwidget.widget.output.frontend_payload.pack_classifiers`: a JSON
 * header naming each classifier's arrays (buffer index, byte offset, length) and the list of
 * binary buffers (little-endian float64; a classifier's single candidates as LEB128 varints
 * when its entry has `single`, see decodeSingle). Non-finite values (thresholds ±inf, NaN where
 * a classifier has no threshold, unknown class totals) arrive as they are: binary, not JSON.
 *
 * @param {object|string} header  the header (or its JSON text)
 * @param {Array<ArrayBuffer|ArrayBufferView|string>} buffers
 * @returns {Array<Classifier>} one decoded classifier per header entry, in order
 *
 * @typedef {object} Classifier
 * @property {string} name
 * @property {{threshold: Float64Array, fpr: Float64Array, tpr: Float64Array}} hull
 *   the ROC convex hull's vertices, from (0, 0) to (1, 1)
 * @property {{lo: Float64Array, hi: Float64Array, vertex: Float64Array}} segments
 *   the envelope's pieces of positive length: hull vertex `vertex[i]` is optimal on
 *   [lo[i], hi[i]); the `lo` are the envelope's breakpoints
 * @property {{fpr: Float64Array, tpr: Float64Array, thresholdAt: function(number): number, monotone: boolean}} single
 *   the ROC points that can be the best single threshold under a constraint (the first point of
 *   each distinct TPR); `monotone` when FPR and TPR both rise along them (scored classifiers);
 *   `thresholdAt(j)` the j-th one's threshold: exact from float64 arrays, within
 *   THRESHOLD_RELATIVE_BOUND (and printing as the exact one at 6 and 4 significant digits) when
 *   the candidates came as varints (header entry `single`)
 * @property {number} nPos  class totals of the evaluation data (NaN when unknown: from_roc)
 * @property {number} nNeg
 * @property {number} rangeLo  the operating range (Classifier.operating_range)
 * @property {number} rangeHi
 * @property {Float64Array} hull.nextScore  the next lower distinct score below each hull
 *   vertex's threshold (-inf below the lowest, NaN without thresholds)
 */
export function decodePayload(header, buffers) {
  const { PAYLOAD_FORMAT, PAYLOAD_VERSION, PAYLOAD_ARRAYS, PAYLOAD_OPTIONAL_ARRAYS, SINGLE_ARRAYS } =
    contract();
  if (typeof header === "string") header = JSON.parse(header);
  if (!header || header.format !== PAYLOAD_FORMAT) {
    throw new Error(`not a ${PAYLOAD_FORMAT} payload header`);
  }
  if (header.version !== PAYLOAD_VERSION) {
    throw new Error(`payload version ${header.version}; this module reads ${PAYLOAD_VERSION}`);
  }
  if (header.dtype !== "<f8") throw new Error(`payload dtype ${header.dtype}; expected <f8`);
  const bytes = buffers.map(bufferBytes);
  return header.classifiers.map((entry) => {
    const a = {};
    for (const name of PAYLOAD_ARRAYS) {
      if (entry.single && SINGLE_ARRAYS.includes(name)) continue;
      const spec = entry.arrays[name];
      if (!spec && PAYLOAD_OPTIONAL_ARRAYS.includes(name)) continue;
      if (!spec) throw new Error(`classifier ${entry.name}: payload lacks ${name}`);
      const buf = bytes[spec.buffer];
      if (!buf) throw new Error(`classifier ${entry.name}: ${name} names missing buffer ${spec.buffer}`);
      a[name] = float64At(buf, spec.offset, spec.length);
    }
    if (entry.single) {
      const spec = entry.single;
      const buf = bytes[spec.buffer];
      if (!buf || spec.offset + spec.bytes > buf.byteLength) {
        throw new Error(`classifier ${entry.name}: single candidates overrun buffer ${spec.buffer}`);
      }
      Object.assign(a, decodeSingle(buf.subarray(spec.offset, spec.offset + spec.bytes),
        spec.length, a.scalars[0], a.scalars[1], entry.name));
    }
    return makeClassifier(entry.name, a);
  });
}

const BITS = new Float64Array(1);
const BITS_INT = new BigInt64Array(BITS.buffer);

/** The double next to `x` (finite, non-zero) towards +inf (up) or -inf. */
function nextDouble(x, up) {
  BITS[0] = x;
  BITS_INT[0] += (x > 0) === up ? 1n : -1n;
  return BITS[0];
}

/** The threshold a key and side stand for: within THRESHOLD_RELATIVE_BOUND of the exact one,
 *  and printing as it does at 6 and at 4 significant digits (single_varints.py). */
function thresholdOfKey(key, side) {
  // Keys of the encoded thresholds (single_varints._threshold_keys).
  const { THRESHOLD_DIGITS, THRESHOLD_KEYS } = contract();
  const KEY_UNIT = 9 * 10 ** (THRESHOLD_DIGITS - 1);
  if (key === THRESHOLD_KEYS.nan) return NaN;
  if (Math.abs(key) === THRESHOLD_KEYS.inf) return key > 0 ? Infinity : -Infinity;
  if (key === 0) return 0;
  const k = Math.abs(key) - 1;
  const exponent = Math.floor(k / KEY_UNIT) - THRESHOLD_KEYS.exponent_offset;
  const digits = (k % KEY_UNIT) + 10 ** (THRESHOLD_DIGITS - 1);
  const nearest = Number(`${key < 0 ? "-" : ""}${digits}e${exponent - THRESHOLD_DIGITS + 1}`);
  return side === 0 ? nearest : nextDouble(nearest, side === 2);
}

/**
 * The single candidates from their varint buffer (single_varints.encode_single): FPR and TPR
 * exact (counts over the class totals), thresholds on demand (`single_threshold_at`), only the
 * chosen one is ever needed.
 */
function decodeSingle(bytes, count, nPos, nNeg, name) {
  const fpr = new Float64Array(count);
  const tpr = new Float64Array(count);
  const keys = new Float64Array(count);
  const sides = new Uint8Array(count);
  let at = 0;
  const next = () => { // one unsigned LEB128 varint (< 2^53: arithmetic, not 32-bit bitwise)
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error(`classifier ${name}: single candidates truncated`);
      const byte = bytes[at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  const unzig = (z) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
  let tp = 0;
  let fp = 0;
  let key = 0;
  for (let i = 0; i < count; i++) {
    const first = next();
    fp += unzig(Math.floor(first / 2));
    tp += first % 2 === 1 ? unzig(next()) : 1; // most candidates: one more positive
    const v = next();
    key += unzig(Math.floor(v / 3));
    sides[i] = v % 3;
    keys[i] = key;
    tpr[i] = tp / nPos;
    fpr[i] = fp / nNeg;
  }
  if (at !== bytes.length) throw new Error(`classifier ${name}: single candidates have trailing bytes`);
  return { single_fpr: fpr, single_tpr: tpr, single_threshold_at: (j) => thresholdOfKey(keys[j], sides[j]) };
}

/**
 * A classifier from its arrays (what `decodePayload` returns; tests build them directly).
 * @param {string} name
 * @param {Object<string, ArrayLike<number>>} a  the arrays of PAYLOAD_ARRAYS
 * @returns {Classifier}
 */
export function makeClassifier(name, a) {
  const f64 = (x) => (x instanceof Float64Array ? x : Float64Array.from(x));
  const single = { fpr: f64(a.single_fpr), tpr: f64(a.single_tpr) };
  if (a.single_threshold_at) {
    single.thresholdAt = a.single_threshold_at;
  } else {
    single.threshold = f64(a.single_threshold);
    single.thresholdAt = (j) => single.threshold[j];
  }
  // Monotone single candidates (every scored classifier) let the best single threshold be found
  // by binary search: its load rises along them (float products and sums are monotone).
  let monotone = true;
  for (let i = 1; i < single.fpr.length && monotone; i++) {
    monotone = single.fpr[i] >= single.fpr[i - 1] && single.tpr[i] > single.tpr[i - 1];
  }
  single.monotone = monotone;
  const scalars = f64(a.scalars);
  const segments = { lo: f64(a.segment_lo), hi: f64(a.segment_hi), vertex: f64(a.segment_vertex) };
  if (segments.lo.length === 0) throw new Error(`classifier ${name}: no envelope segments`);
  return {
    name,
    hull: {
      threshold: f64(a.hull_threshold), fpr: f64(a.hull_fpr), tpr: f64(a.hull_tpr),
      // Not every caller has it (tests build classifiers directly): unknown is NaN.
      nextScore: a.hull_next_score ? f64(a.hull_next_score) : new Float64Array(a.hull_threshold.length).fill(NaN),
      // Per-case costs: each vertex's FPR and TPR counted on the cases (frontend_payload.py).
      countedFpr: a.hull_counted_fpr ? f64(a.hull_counted_fpr) : null,
      countedTpr: a.hull_counted_tpr ? f64(a.hull_counted_tpr) : null,
    },
    segments,
    single,
    nPos: scalars[0],
    nNeg: scalars[1],
    rangeLo: scalars[2],
    rangeHi: scalars[3],
  };
}

// ------------------------------------------------------------------------------------ checks

function isNumber(x) {
  return typeof x === "number" && !Number.isNaN(x);
}

function checkProbability(p, name) {
  if (!(typeof p === "number" && p >= 0 && p <= 1)) {
    throw new RangeError(`${name} must lie in [0, 1], got ${p}.`);
  }
  return p;
}

function checkCosts(fn, fp) {
  for (const [v, name] of [[fn, "cost_fn (the cost C(-|+) of a false negative)"],
                           [fp, "cost_fp (the cost C(+|-) of a false positive)"]]) {
    if (!(typeof v === "number" && Number.isFinite(v) && v >= 0)) {
      throw new RangeError(`${name} must be a finite number >= 0, got ${v}.`);
    }
  }
  if (fn === 0 && fp === 0) {
    throw new RangeError("cost_fn and cost_fp are both 0: with no cost for either error every " +
      "classifier is equally good and PCF(+) is undefined. Give at least one cost > 0.");
  }
}

// ------------------------------------------------------------------------------------ cost space

/**
 * PCF(+) = p·C(−|+) / (p·C(−|+) + (1−p)·C(+|−)) (Drummond & Holte 2000, eq. 6), with the
 * Python's edge rules: p = 0 gives 0 and p = 1 gives 1 (when the cost that matters is > 0); a
 * zero cost_fn gives 0, a zero cost_fp gives 1; an undefined PCF (no error costs anything) and
 * invalid inputs throw, as `probability_cost` raises.
 * @param {number} pPos  p(+) in [0, 1]
 * @param {number} costFn  C(−|+) >= 0, finite
 * @param {number} costFp  C(+|−) >= 0, finite, not both 0
 * @returns {number}
 */
export function probabilityCost(pPos, costFn, costFp) {
  checkProbability(pPos, "p_pos");
  checkCosts(costFn, costFp);
  const wPos = pPos * costFn;
  const wNeg = (1.0 - pPos) * costFp;
  const total = wPos + wNeg;
  if (total === 0) {
    if ((pPos === 1 && costFn === 0) || (pPos === 0 && costFp === 0)) {
      throw new RangeError("PCF(+) is undefined: p_pos is 1 with cost_fn = 0 (or p_pos is 0 with " +
        "cost_fp = 0), so no error has any expected cost.");
    }
    // costs.py: positive weights that round to 0 (p_pos = 1e-311, cost_fn = 1e-16, cost_fp = 0).
    throw new RangeError("PCF(+) cannot be computed: p_pos·cost_fn and (1 - p_pos)·cost_fp both " +
      "round to 0 in floating point; scale both costs up (only their ratio matters).");
  }
  return wPos / total;
}

/**
 * p·C(−|+) + (1−p)·C(+|−) (eq. 4): NEC times this is the expected cost per case.
 * @param {number} pPos @param {number} costFn @param {number} costFp
 * @returns {number}
 */
export function costScale(pPos, costFn, costFp) {
  checkProbability(pPos, "p_pos");
  checkCosts(costFn, costFp);
  return pPos * costFn + (1.0 - pPos) * costFp;
}

/**
 * Slope (1 − PCF)/PCF of the ROC iso-performance lines (eq. 1); Infinity at PCF = 0.
 * @param {number} pcf
 * @returns {number}
 */
export function isoPerformanceSlope(pcf) {
  checkProbability(pcf, "pcf");
  return (1.0 - pcf) / pcf;
}

/**
 * Index into `clf.segments` of the piece whose vertex is optimal at pcf: binary search over the
 * envelope's breakpoints. At a breakpoint two vertices tie and the one optimal just to the
 * right wins, except at pcf = 1 (just to the left), as Envelope.vertex_at does with
 * searchsorted(crossings, pcf, "right"): the pieces here are the ones of positive length, which
 * is where that searchsorted can land.
 * @param {Classifier} clf
 * @param {number} pcf  in [0, 1]
 * @returns {number}
 */
function segmentAt(clf, pcf) {
  const lo = clf.segments.lo;
  const n = lo.length;
  if (pcf >= 1.0) return n - 1;
  // The last piece with lo <= pcf; lo[0] is 0 <= pcf.
  let a = 1;
  let b = n;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (lo[m] <= pcf) a = m + 1;
    else b = m;
  }
  return a - 1;
}

/**
 * The optimal hull vertex at pcf (Classifier.best): its index, threshold, rates and NEC.
 * @param {Classifier} clf
 * @param {number} pcf
 * @returns {{pcf: number, vertex: number, threshold: number, fpr: number, tpr: number, nec: number}}
 */
export function best(clf, pcf) {
  checkProbability(pcf, "pcf");
  const k = clf.segments.vertex[segmentAt(clf, pcf)];
  const fpr = clf.hull.fpr[k];
  const tpr = clf.hull.tpr[k];
  // The vertex's cost line (eq. 8), evaluated as the Envelope does: slope * x + intercept.
  const nec = (1.0 - tpr - fpr) * pcf + fpr;
  return { pcf, vertex: k, threshold: clf.hull.threshold[k], fpr, tpr, nec };
}

// ------------------------------------------------------------------------------------ geometry

/**
 * Clip the line (x0 + u·dx, y0 + u·dy) to [0, 1]² (model/kernels/geometry.py clip_line_to_unit_square,
 * one line): [xa, ya, xb, yb], NaN where it misses the square. NaN propagates through min/max
 * as it does in numpy's minimum/maximum.
 */
function clipLineToUnitSquare(x0, y0, dx, dy) {
  let lo = -Infinity;
  let hi = Infinity;
  for (const [p, d] of [[x0, dx], [y0, dy]]) {
    const a = d !== 0 ? (0.0 - p) / d : -Infinity;
    const b = d !== 0 ? (1.0 - p) / d : Infinity;
    // A direction with no component along this axis: the line is inside iff p is.
    const outside = d === 0 && (p < 0 || p > 1);
    lo = Math.max(lo, Math.min(a, b));
    hi = Math.min(hi, Math.max(a, b));
    if (outside) hi = -Infinity;
  }
  if (hi < lo) {
    lo = NaN;
    hi = NaN;
  }
  return [x0 + lo * dx, y0 + lo * dy, x0 + hi * dx, y0 + hi * dy];
}

/**
 * The ROC iso-performance line through (fpr, tpr) at pcf, clipped to ROC space; direction
 * (pcf, 1 − pcf) has slope (1 − pcf)/pcf without dividing by zero. [xa, ya, xb, yb].
 */
export function isoPerformanceSegment(fpr, tpr, pcf) {
  checkProbability(pcf, "pcf");
  return clipLineToUnitSquare(fpr, tpr, pcf, 1.0 - pcf);
}

/** The ROC line TPR·n_pos + FPR·n_neg = capacity (eq. 12-13), clipped: [xa, ya, xb, yb]. */
export function workforceSegment(capacity, nPos, nNeg) {
  if (!(nPos > 0)) throw new RangeError(`n_pos must be > 0, got ${nPos}.`);
  return clipLineToUnitSquare(0.0, capacity / nPos, nPos, -nNeg);
}

// ------------------------------------------------------------------------------------ constraints

/** First index of the maximum (numpy argmax). */
function argmax(arr) {
  let k = 0;
  for (let i = 1; i < arr.length; i++) if (arr[i] > arr[k]) k = i;
  return k;
}

/** numpy searchsorted(sorted, value, side="right"): how many entries are <= value. */
function upperBound(sorted, value) {
  let a = 0;
  let b = sorted.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (sorted[m] <= value) a = m + 1;
    else b = m;
  }
  return a;
}

function where(threshold, fpr, tpr) {
  if (Number.isNaN(threshold)) {
    return `the ROC point (FPR ${formatPy(fpr, ".4g")}, TPR ${formatPy(tpr, ".4g")})`;
  }
  return `threshold ${formatPy(threshold, ".6g")}`;
}

/**
 * The best single (non-randomized) ROC point within the limit: the largest TPR, among equal
 * TPRs the lowest load, among equal loads the first (constraints.py _best_single). The
 * candidates are the first ROC point of each distinct TPR, which holds every possible answer for
 * any n_pos > 0, n_neg >= 0 (another point of the same TPR has no lower FPR, so no lower load).
 */
function bestSingle(single, loadOf, limit) {
  const { fpr, tpr } = single;
  let j;
  if (single.monotone) {
    // Loads rise along the candidates and TPR strictly: the answer is the last one within.
    let a = 0;
    let b = fpr.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (loadOf(tpr[m], fpr[m]) <= limit) a = m + 1;
      else b = m;
    }
    j = a - 1;
  } else {
    let bestTpr = -Infinity;
    for (let i = 0; i < fpr.length; i++) {
      if (loadOf(tpr[i], fpr[i]) <= limit && tpr[i] > bestTpr) bestTpr = tpr[i];
    }
    let bestLoad = Infinity;
    for (let i = 0; i < fpr.length; i++) {
      const load = loadOf(tpr[i], fpr[i]);
      if (load <= limit && tpr[i] === bestTpr && (j === undefined || load < bestLoad)) {
        j = i;
        bestLoad = load;
      }
    }
  }
  // (0, 0) is always a candidate and within any limit >= 0.
  return [single.thresholdAt(j), fpr[j], tpr[j]];
}

/**
 * Maximize TPR subject to load <= limit over the hull, load non-decreasing along it
 * (constraints.py solve_linear_constraint): a vertex, or a randomized mix of the two vertices
 * of the edge the constraint line crosses.
 * @returns {ConstrainedPoint}
 *
 * @typedef {object} ConstrainedPoint
 * @property {string} kind  "neyman_pearson" or "workforce"
 * @property {number} fpr @property {number} tpr  the (possibly randomized) optimum
 * @property {boolean} binding @property {boolean} randomized
 * @property {number} threshold_low  the higher-FPR vertex's threshold, used with prob_low
 * @property {number} threshold_high
 * @property {number} prob_low
 * @property {number} single_threshold @property {number} single_fpr @property {number} single_tpr
 * @property {number} slope @property {number} intercept  its cost line (eq. 8)
 * @property {string} message  one sentence, as the Python's
 */
function solveLinearConstraint(kind, clf, loadOf, limit, describe) {
  const { fpr: hf, tpr: ht, threshold: hth } = clf.hull;
  const n = hf.length;
  const loadHull = new Float64Array(n);
  for (let i = 0; i < n; i++) loadHull[i] = loadOf(ht[i], hf[i]);
  const single = bestSingle(clf.single, loadOf, limit);
  const atVertex = (k, binding, message) => finish({
    kind, fpr: hf[k], tpr: ht[k], binding, randomized: false, threshold_low: hth[k],
    threshold_high: hth[k], prob_low: 0.0, single, message,
  });
  // The first vertex reaching the top TPR is the unconstrained best; beyond it TPR cannot grow.
  const top = argmax(ht);
  if (loadHull[top] <= limit) {
    return atVertex(top, false, `The ${describe} does not bind: the classifier at ` +
      `${where(hth[top], hf[top], ht[top])} already reaches TPR = 1 within it.`);
  }
  let k = upperBound(loadHull, limit) - 1; // the last vertex within the limit (k < top)
  if (loadHull[k] === limit) {
    return atVertex(k, true, `The ${describe} is met exactly by the hull vertex at ` +
      `${where(hth[k], hf[k], ht[k])}.`);
  }
  const q = (limit - loadHull[k]) / (loadHull[k + 1] - loadHull[k]); // weight on vertex k + 1
  if (!(0.0 < q && q < 1.0)) { // the mix rounds to a vertex: no coin to toss
    k = q <= 0.0 ? k : k + 1;
    return atVertex(k, true, `The ${describe} is met by the hull vertex at ` +
      `${where(hth[k], hf[k], ht[k])}.`);
  }
  let fpr = (1 - q) * hf[k] + q * hf[k + 1];
  const tpr = (1 - q) * ht[k] + q * ht[k + 1];
  if (kind === "neyman_pearson") fpr = limit; // exact: the formula may round 1 ulp over it
  return finish({
    kind, fpr, tpr, binding: true, randomized: true, threshold_low: hth[k + 1],
    threshold_high: hth[k], prob_low: q, single,
    message: `The ${describe} falls between two hull vertices: use ` +
      `${where(hth[k + 1], hf[k + 1], ht[k + 1])} with probability ${formatPy(q, ".4g")} and ` +
      `${where(hth[k], hf[k], ht[k])} otherwise (TPR ${formatPy(tpr, ".4g")}). The best single ` +
      `choice is ${where(...single)} (TPR ${formatPy(single[2], ".4g")}).`,
  });
}

function finish({ single, ...cp }) {
  return {
    ...cp,
    single_threshold: single[0],
    single_fpr: single[1],
    single_tpr: single[2],
    slope: 1.0 - cp.tpr - cp.fpr,
    intercept: cp.fpr,
  };
}

/**
 * Largest TPR with FPR <= maxFpr (Classifier.neyman_pearson; Drummond & Holte 2000, 2.2.2).
 * @param {Classifier} clf
 * @param {number} maxFpr  in [0, 1]
 * @returns {ConstrainedPoint}
 */
export function neymanPearson(clf, maxFpr) {
  if (!(typeof maxFpr === "number" && Number.isFinite(maxFpr))) {
    throw new RangeError(`max_fpr must be a finite number, got ${maxFpr}.`);
  }
  if (!(maxFpr >= 0 && maxFpr <= 1)) throw new RangeError(`max_fpr must lie in [0, 1], got ${maxFpr}.`);
  return solveLinearConstraint("neyman_pearson", clf, (_tpr, fpr) => fpr, maxFpr,
    `limit FPR <= ${formatPy(maxFpr, ".4g")}`);
}

/**
 * Largest TPR with TPR·n_pos + FPR·n_neg <= capacity (Classifier.workforce; eq. 12-13). The
 * population defaults to the classifier's class totals.
 * @param {Classifier} clf
 * @param {number} capacity  cases, >= 0 (Infinity allowed)
 * @param {number} [nPos] @param {number} [nNeg]
 * @returns {ConstrainedPoint}
 */
export function workforce(clf, capacity, nPos, nNeg) {
  if (!isNumber(capacity)) throw new RangeError(`capacity must be a number, got ${capacity}.`);
  if (capacity < 0) throw new RangeError(`capacity must be >= 0 (a number of cases), got ${capacity}.`);
  const P = nPos ?? clf.nPos;
  const N = nNeg ?? clf.nNeg;
  if (!isNumber(P) || !isNumber(N)) {
    throw new RangeError("n_pos and n_neg are required: this classifier was built from rates only.");
  }
  if (!Number.isFinite(P) || !Number.isFinite(N)) {
    throw new RangeError(`n_pos and n_neg must be finite numbers, got ${P}, ${N}.`);
  }
  if (!(P > 0) || !(N >= 0)) {
    throw new RangeError(`n_pos must be > 0 and n_neg >= 0, got n_pos=${P}, n_neg=${N}.`);
  }
  return solveLinearConstraint("workforce", clf, (tpr, fpr) => tpr * P + fpr * N, capacity,
    `capacity of ${formatPy(capacity, ".6g")} cases`);
}

/**
 * The constrained rule of each classifier under the state's constraint (null for none).
 * @param {Array<Classifier>} classifiers
 * @param {object} state  constraint, max_fpr, capacity, n_pos, n_neg
 * @returns {Array<ConstrainedPoint|null>}
 */
function constrainedPoints(classifiers, state) {
  const { CONSTRAINTS } = contract();
  if (!CONSTRAINTS.includes(state.constraint)) {
    throw new RangeError(`constraint must be one of ${CONSTRAINTS.join(", ")}, got ${state.constraint}.`);
  }
  return classifiers.map((clf) => {
    if (state.constraint === "neyman_pearson") return neymanPearson(clf, state.max_fpr);
    if (state.constraint === "workforce") return workforce(clf, state.capacity, state.n_pos, state.n_neg);
    return null;
  });
}

// ------------------------------------------------------------------------------------ the view

function visibleMask(classifiers, visible) {
  if (visible == null) return classifiers.map(() => true);
  const shown = new Set(visible);
  return classifiers.map((c) => shown.has(c.name));
}

/**
 * widget/tools/operating_point.py _winner_values: the decision's chosen classifier (`decisionOf`), one
 * dot at its rule's NEC (under a constraint, the cheapest rule it allows), in its colour; hidden
 * at a tie or with none shown.
 */
function winnerDot(classifiers, decision, colors) {
  const pcf = decision.pcf;
  if (decision.chosen === null) {
    return { x: Float64Array.of(pcf), y: Float64Array.of(0), colors: [INK], visible: false };
  }
  const name = decision.chosen;
  const color = Object.prototype.hasOwnProperty.call(colors, name) ? colors[name] : contract().UNKNOWN_COLOR;
  return { x: Float64Array.of(pcf), y: Float64Array.of(decision.rule.nec), colors: [color], visible: true };
}

/** widget/controls/theme.py INK: the widget's ink colour, a CSS variable with its fallback. */
const INK = "var(--cw-ink, #000)";

/**
 * Everything the operating-point tool draws (widget/tools/operating_point.py sync), as typed arrays
 * ready for bqplot marks. Every classifier keeps its point in every mark (hidden ones at
 * opacity 0), so the marks' point counts never change.
 *
 * Two-column marks (the iso-performance lines) are flat row-major arrays with `shape: [n, 2]`.
 * @param {Array<Classifier>} classifiers
 * @param {object} state  p_pos, cost_fn, cost_fp, visible (names; all when absent)
 */
function operatingMarks(classifiers, state) {
  const pcf = probabilityCost(state.p_pos, state.cost_fn, state.cost_fp);
  const n = classifiers.length;
  const ops = classifiers.map((c) => best(c, pcf));
  const opacities = visibleMask(classifiers, state.visible).map((v) => (v ? 1.0 : 0.0));
  const isoX = new Float64Array(2 * n);
  const isoY = new Float64Array(2 * n);
  const fpr = new Float64Array(n);
  const tpr = new Float64Array(n);
  const necs = new Float64Array(n);
  ops.forEach((op, i) => {
    const [xa, ya, xb, yb] = isoPerformanceSegment(op.fpr, op.tpr, pcf);
    isoX[2 * i] = xa;
    isoX[2 * i + 1] = xb;
    isoY[2 * i] = ya;
    isoY[2 * i + 1] = yb;
    fpr[i] = op.fpr;
    tpr[i] = op.tpr;
    necs[i] = op.nec;
  });
  return {
    pcf,
    slope: isoPerformanceSlope(pcf),
    best: ops,
    isoLines: { x: isoX, y: isoY, shape: [n, 2], opacities },
    chosen: { x: fpr, y: tpr, opacities },
    operatingLine: { x: Float64Array.of(pcf, pcf), y: Float64Array.of(0.0, 1.0) },
    necPoints: { x: new Float64Array(n).fill(pcf), y: necs, opacities },
    handle: { x: Float64Array.of(pcf) },
  };
}

/**
 * The paper's constrained point of each visible classifier (`constrainedPoints`), null for the
 * hidden ones and without a constraint; index-aligned with `classifiers`.
 */
function shownConstrained(classifiers, state) {
  const shown = visibleMask(classifiers, state.visible);
  const all = constrainedPoints(classifiers.filter((_, i) => shown[i]), state);
  let j = 0;
  return classifiers.map((_, i) => (shown[i] ? all[j++] : null));
}

/**
 * How a classifier's rule under the constraint is made (widget/tools/constraint.py _made): the
 * paper's point where the limit binds; its optimum, and that it does not bind, elsewhere.
 * @param {object} part  one of `decisionOf(...).classifiers`
 */
function madeText(part) {
  if (part.rule.binding) return part.constrained.message;
  return "the limit does not bind at this operating point: its cheapest rule, " +
    `FPR ${readable(part.rule.fpr)}, TPR ${readable(part.rule.tpr)}, is allowed and deployed ` +
    `(the largest TPR the limit allows: ${part.constrained.message})`;
}

/**
 * What the constraint tool draws (widget/tools/constraint.py sync): the constraint's line in ROC
 * space, each visible classifier's rule under the constraint (the decision's: the cheapest rule
 * the limit allows, its optimum where the limit does not bind) and its cost line, and the
 * message of how each rule is made. The others keep a zero point at opacity 0.
 * `constrained` keeps the paper's points (the largest TPR allowed), index-aligned.
 * @param {Array<Classifier>} classifiers
 * @param {object} state  constraint, max_fpr, capacity, n_pos, n_neg, visible (and p_pos,
 *   cost_fn, cost_fp when no decision is given)
 * @param {object} [decision]  `decisionOf(classifiers, state)`, made here when absent
 */
function constraintMarks(classifiers, state, decision = null, constrained = null) {
  const shown = visibleMask(classifiers, state.visible);
  const n = classifiers.length;
  if (constrained === null) constrained = shownConstrained(classifiers, state);
  const d = decision ?? decisionOf(classifiers, state, { constrained });
  const on = state.constraint !== "none";
  const parts = new Map(on ? d.classifiers.map((c) => [c.name, c]) : []);
  const fpr = new Float64Array(n);
  const tpr = new Float64Array(n);
  const costX = new Float64Array(2 * n);
  const costY = new Float64Array(2 * n);
  const opacities = new Array(n).fill(0.0);
  classifiers.forEach((clf, i) => {
    costX[2 * i + 1] = 1.0;
    const part = shown[i] ? parts.get(clf.name) : undefined;
    if (part) {
      // The rule's cost line, NEC = (1 - TPR)·PCF + FPR·(1 - PCF) (eq. 8).
      fpr[i] = part.rule.fpr;
      tpr[i] = part.rule.tpr;
      costY[2 * i] = part.rule.fpr;
      costY[2 * i + 1] = part.rule.fpr + (1.0 - part.rule.tpr - part.rule.fpr);
      opacities[i] = 1.0;
    }
  });
  let lineX = [0.0, 0.0];
  let lineY = [0.0, 1.0];
  if (state.constraint === "neyman_pearson") {
    lineX = [state.max_fpr, state.max_fpr];
  } else if (state.constraint === "workforce") {
    const [xa, ya, xb, yb] = workforceSegment(state.capacity, state.n_pos, state.n_neg);
    [lineX, lineY] = Number.isNaN(xa) ? [[1.0, 1.0], [1.0, 1.0]] : [[xa, xb], [ya, yb]];
  }
  let message = "";
  for (const part of parts.values()) {
    message += `<li><b>${escapeHtml(part.name)}</b>: ${escapeHtml(madeText(part))}</li>`;
  }
  if (message) {
    message = `<details><summary>how each constrained rule is made</summary><ul>${message}</ul></details>`;
  }
  return {
    on,
    constrained,
    rocLine: { x: Float64Array.from(lineX), y: Float64Array.from(lineY), visible: on },
    rocPoints: { x: fpr, y: tpr, opacities, visible: on },
    costLines: { x: costX, y: costY, shape: [n, 2], opacities, visible: on },
    messageHtml: message,
  };
}

/** The rule as a user deploys it (model/decisions/decide.py _mix_rule): randomized when needed. */
function mixRule(rule) {
  if (rule.randomized) {
    return `threshold ${thresholdText(rule.threshold_low)} with prob. ` +
      `${readable(rule.prob_low)}, else ${thresholdText(rule.threshold_high)}`;
  }
  return `threshold ${thresholdText(rule.threshold)}`;
}

// ------------------------------------------------------------------------------------ the readout's HTML

const TEXT = " class='costwidget-text'";

/** Python's html.escape(s, quote=True). */
export function escapeHtml(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

/** A number cell's text (readout.py _number): the one rule (`readable`), ∞, blank for NaN/null. */
function numberText(value) {
  return readable(value);
}

/** The operating range's text (readout.py _range). */
function rangeText(lo, hi) {
  if ([lo, hi].some((v) => v == null || Number.isNaN(v)) || lo > hi) return "never";
  return `${formatPy(lo, ".3g")}–${formatPy(hi, ".3g")}`;
}

function cell(row, column) {
  if (column === "range_lo") return `<td>${rangeText(row.range_lo, row.range_hi)}</td>`;
  const value = row[column];
  if (typeof value === "string") return `<td${TEXT}>${escapeHtml(value)}</td>`;
  if (column === "threshold") return `<td>${thresholdText(value)}</td>`; // the one deployed
  return `<td>${numberText(value)}</td>`;
}

function table(rows, colors, columns, bestBy, caption, note, cssClass, highlight) {
  const head = "<th>classifier</th>" + columns.map(([text, tip, column]) =>
    `<th${contract().TEXT_COLUMNS.includes(column) ? TEXT : ""} title='${escapeHtml(tip)}'>${escapeHtml(text)}</th>`).join("");
  // The one lowest is highlighted; a tie highlights none (the headline's rule).
  // `highlight`, when given, is the decision's chosen classifier (the same by construction).
  let bestName = highlight;
  if (bestName === undefined) {
    const low = lowestNames(rows, bestBy);
    bestName = low.length === 1 ? low[0] : null;
  }
  const body = rows.map(([name, row]) => {
    const attrs = name === bestName ? ` class='costwidget-best' style='${contract().BEST_ROW_STYLE}'` : "";
    const color = colors && Object.prototype.hasOwnProperty.call(colors, name) ? colors[name] : contract().UNKNOWN_COLOR;
    const swatch = `<span style='color:${escapeHtml(color)}'>&#9632;</span> `;
    const cells = columns.map(([, , column]) => cell(row, column)).join("");
    return `<tr${attrs}><td>${swatch}${escapeHtml(String(name))}</td>${cells}</tr>`;
  }).join("");
  return `<table class='${cssClass} costwidget-table'><caption>${caption}</caption>` +
    `<thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>` +
    `<div class='costwidget-table-note'>${note}</div>`;
}

/**
 * The readout table (widget/text/readout.py readout_html), the lowest expected cost highlighted.
 * @param {Array<[string, object]>} rows  the decision's rows (decisionOf)
 * @param {Object<string, string>} colors  classifier name -> CSS colour
 * @returns {string}
 */
export function readoutHtml(rows, colors, highlight = undefined, note = null) {
  if (!rows.length) return "<i>No classifier shown.</i>";
  const { READOUT_COLUMNS, HONEST_COLUMNS } = contract();
  const columns = rows.some(([, r]) => "nec_honest" in r)
    ? READOUT_COLUMNS.concat(HONEST_COLUMNS) : READOUT_COLUMNS;
  return table(rows, colors, columns, "expected_cost",
    "<b>At the operating point</b> (each classifier at its best threshold)",
    note || "Highlighted: the lowest expected cost (none when several tie). Expected cost " +
    "per case is in the units " +
    "of the costs C(−|+) and C(+|−); the same numbers are in <code>w.readout</code>.",
    "costwidget-readout", highlight);
}

/** Which population the workforce uses (widget/text/readout.py population_text). */
export function populationText(state) {
  if (state.population_set === undefined || state.population_set) {
    return `population set: ${readable(state.n_pos)} positives, ${readable(state.n_neg)} negatives`;
  }
  return `population: ${readable(state.n_pos + state.n_neg)} cases at p(+) = ${readable(state.p_pos)}`;
}

/** The active constraint in words (widget/text/readout.py constraint_description). */
export function constraintDescription(state) {
  if (state.constraint === "neyman_pearson") {
    return `Neyman-Pearson, false-positive rate ≤ ${readable(state.max_fpr)}`;
  }
  if (state.constraint === "workforce") {
    const total = state.n_pos + state.n_neg;
    const share = total > 0
      ? ` (${readable((100 * state.capacity) / total)} % of ${readable(total)})` : "";
    return `workforce, at most ${readable(state.capacity)} cases flagged${share}; ` +
      populationText(state);
  }
  return "";
}

/**
 * The constraint's table (widget/text/readout.py constraint_html), "" when no row is constrained.
 * @param {Array<[string, object]>} rows @param {Object<string, string>} colors
 * @param {string} description  from constraintDescription
 */
export function constraintHtml(rows, colors, description, highlight = undefined) {
  const kept = rows.filter(([, row]) => "constrained_nec" in row);
  if (!kept.length) return "";
  return table(kept, colors, contract().CONSTRAINT_COLUMNS, "constrained_expected_cost",
    `<b>Under the constraint</b>: ${escapeHtml(description)}`,
    "Highlighted: the lowest expected cost under the constraint (none when " +
    "several tie).",
    "costwidget-constraint-table", highlight);
}

/** One line when a cost is 0 (model/decisions/operating.py zero_cost_note): a click changes a cost. */
function zeroCostNote(costFn, costFp) {
  const zero = [["C(−|+)", costFn], ["C(+|−)", costFp]].filter(([, c]) => c === 0);
  if (!zero.length) return "";
  return `${zero[0][0]} is 0, so p(+) cannot move PCF(+): a click or drag changes a cost instead`;
}

/** The PCF(+) label beside the p(+) slider (operating_point.py pcf_label). */
export function pcfLabel(pcf, costFn, costFp) {
  const note = costFn === undefined ? "" : zeroCostNote(costFn, costFp);
  return `PCF(+) = <b>${readable(pcf)}</b>${note ? ` <i class='costwidget-note'>${note}</i>` : ""}`;
}

/** C(−|+)/C(+|−) in words (operating_point.py format_ratio): "∞" when C(+|−) is 0. */
export function formatRatio(costFn, costFp) {
  if (costFp === 0) return "∞";
  return readable(costFn / costFp);
}

/** The capacity in both units (constraint.py capacity_text). */
export function capacityText(cases, nPos, nNeg) {
  const total = nPos + nNeg;
  const share = total > 0 ? `, ${readable((100.0 * cases) / total)} % of ${readable(total)}` : "";
  return `= ${readable(cases)} cases${share}`;
}

// ------------------------------------------------------------------------------------ readable numbers

/** model/kernels/readable.py round_significant: `digits` significant digits, exact decimal rounding. */
export function roundSignificant(x, digits) {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(formatPy(x, `.${digits}g`));
}

/** model/kernels/readable.py readable_value: 4 significant digits, whole numbers below 10^5 kept. */
export function readableValue(x) {
  if (Number.isFinite(x) && Number.isInteger(x) && Math.abs(x) < 1e5) return x;
  return roundSignificant(x, 4);
}

/** model/kernels/readable.py readable: the one rule as text; "" for NaN/null, "∞" for infinity. */
export function readable(x) {
  if (x == null || Number.isNaN(x)) return "";
  if (x === Infinity) return "∞";
  if (x === -Infinity) return "−∞";
  const v = readableValue(x) + 0.0; // -0 + 0 is 0: never "-0"
  if (Number.isInteger(v) && Math.abs(v) >= 1e3 && Math.abs(v) < 1e15) return formatPy(v, ",.0f");
  return formatPy(v, ".4g");
}

/** `x` (finite, not 0) rounded down to `digits` significant digits, exactly, as a double. */
function floorSignificant(x, digits) {
  const { n, e } = exactDecimal(x);
  const drop = Math.max(0, n.toString().length - digits);
  const p = 10n ** BigInt(drop);
  let q = n / p;
  if (x < 0 && n % p !== 0n) q += 1n; // toward -inf: a larger magnitude
  return Number(`${x < 0 ? "-" : ""}${q}e${e + drop}`); // parsed with correct rounding
}

/**
 * model/kernels/readable.py selecting_threshold: the shortest decimal text d with
 * nextLower < Number(d) <= threshold, so `score >= d` flags the cases `score >= threshold` does.
 * @param {number} threshold @param {number|null} nextLower  the next lower distinct score
 * @returns {string}
 */
export function selectingThreshold(threshold, nextLower = null) {
  const t = threshold;
  if (!Number.isFinite(t)) return readable(t);
  let lo = nextLower == null ? NaN : nextLower;
  if (Number.isNaN(lo)) lo = nextDown(t);
  if (lo < 0 && 0 <= t) return "0";
  for (let digits = 1; digits < 18; digits++) {
    const text = formatPy(floorSignificant(t, digits), `.${digits}g`);
    const v = Number(text);
    if (lo < v && v <= t) return thresholdText(v);
  }
  return thresholdText(t);
}

/**
 * model/kernels/readable.py threshold_text: `x` in full, the shortest decimal that reads back as
 * `x`; whole numbers without an exponent, never "-0"; "∞"/"−∞", "" for NaN.
 * @param {number} x @returns {string}
 */
export function thresholdText(x) {
  if (x == null || !Number.isFinite(x)) return readable(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return formatPy(x + 0.0, ".0f");
  for (let digits = 1; digits < 18; digits++) {
    const text = formatPy(x, `.${digits}g`);
    if (Number(text) === x) return text;
  }
  return formatPy(x, ".17g");
}

/**
 * model/kernels/readable.py deployed_threshold: the threshold a rule deploys for its lowest
 * flagged score `threshold`, given the next lower distinct score (-inf below the lowest: every
 * case, new ones too, is flagged; NaN unknown: the score itself).
 * @param {number} threshold @param {number} nextLower @returns {number}
 */
export function deployedThreshold(threshold, nextLower) {
  const t = threshold;
  const lo = nextLower == null ? NaN : nextLower;
  if (Number.isNaN(t) || !Number.isFinite(t)) return t;
  if (lo === -Infinity) return -Infinity;
  if (Number.isNaN(lo)) return t;
  return Number(selectingThreshold(t, lo));
}

/** math.nextafter(x, -inf) for finite x. */
function nextDown(x) {
  if (x === 0) return -Number.MIN_VALUE;
  const f = new Float64Array([x]);
  const bits = new BigInt64Array(f.buffer);
  bits[0] += x > 0 ? -1n : 1n;
  return f[0];
}

/** model/kernels/readable.py lowest_names: the rows with the lowest `column`, ties included. */
function lowestNames(rows, column) {
  const values = rows.filter(([, r]) => r[column] != null && !Number.isNaN(r[column]))
    .map(([name, r]) => [name, r[column]]);
  if (!values.length) return [];
  let low = values[0][1];
  for (const [, v] of values) if (v < low) low = v;
  const tol = 1e-12 * Math.abs(low);
  return values.filter(([, v]) => v - low <= tol).map(([name]) => name);
}

// ------------------------------------------------------------------------------------ the headline

function percentText(rate) {
  return readable(roundSignificant(100.0 * rate, 3));
}

/** widget/text/headline.py headline_html: the text, escaped (names are user text). */
export function headlineHtml(text) {
  const at = text.indexOf("; ");
  const main = at < 0 ? text : text.slice(0, at);
  const notes = at < 0 ? "" : text.slice(at + 2);
  return `<div class='costwidget-headline-main' style='font-size:1.15em;font-weight:600;line-height:1.3'>` +
    `${escapeHtml(main)}</div><div class='costwidget-headline-notes' style='font-size:0.92em;` +
    `line-height:1.3'>${escapeHtml(notes)}</div>`;
}

// ------------------------------------------------------------------------------------ the decision

/** model/decisions/operating.py _NEC_SLACK: a constrained rule this close to the optimum costs the same. */
const NEC_SLACK = 1e-12;

/** The next lower distinct score below a hull vertex's threshold (NaN when none matches). */
function nextScoreOf(clf, threshold) {
  const th = clf.hull.threshold;
  for (let i = 0; i < th.length; i++) if (th[i] === threshold) return clf.hull.nextScore[i];
  return NaN;
}

/**
 * model/decisions/operating.py cheapest_allowed (DecisionRule): the cheapest rule the constraint allows (cp null: none), with
 * the PCF(+) interval where it stays so and whether the limit binds.
 */
function decisionRuleOf(clf, op, cp, pcf, costs) {
  const rule = rawRuleOf(clf, op, cp, pcf, costs);
  // model/decisions/deploy.py rule_and_next_scores: each threshold as deployed; a randomized
  // rule's best single threshold is a suggestion and stays the score.
  const lower = [nextScoreOf(clf, rule.threshold_high), nextScoreOf(clf, rule.threshold_low)];
  const deployed = {
    threshold_high: deployedThreshold(rule.threshold_high, lower[0]),
    threshold_low: deployedThreshold(rule.threshold_low, lower[1]),
  };
  if (!rule.randomized) deployed.threshold = deployedThreshold(rule.threshold, nextScoreOf(clf, rule.threshold));
  return { rule: { ...rule, ...deployed }, lower };
}

function rawRuleOf(clf, op, cp, pcf, costs) {
  const { p_pos, cost_fn, cost_fp } = costs;
  const base = { classifier: clf.name, pcf, p_pos, cost_fn, cost_fp };
  const free = () => {
    // The vertex's own piece of the envelope (model: segments with its rates).
    let lo = Infinity;
    let hi = -Infinity;
    const seg = clf.segments;
    for (let i = 0; i < seg.vertex.length; i++) {
      if (seg.vertex[i] === op.vertex) {
        lo = Math.min(lo, seg.lo[i]);
        hi = Math.max(hi, seg.hi[i]);
      }
    }
    if (lo === Infinity) [lo, hi] = [pcf, pcf];
    return {
      ...base, threshold: op.threshold, randomized: false, threshold_low: op.threshold,
      threshold_high: op.threshold, prob_low: 0.0, constraint: null, fpr: op.fpr, tpr: op.tpr,
      nec: op.nec, expected_cost: op.nec * costScale(p_pos, cost_fn, cost_fp),
      pcf_lo: lo, pcf_hi: hi, binding: false,
    };
  };
  if (!cp) return free();
  const before = op.fpr < cp.fpr || (op.fpr === cp.fpr && op.tpr < cp.tpr);
  const same = op.fpr === cp.fpr && op.tpr === cp.tpr;
  if (before || same) {
    const rule = free();
    return { ...rule, constraint: cp.kind, pcf_hi: same ? 1.0 : rule.pcf_hi, binding: false };
  }
  const { fpr: f, tpr: t } = clf.hull;
  let j = -1; // the last hull vertex strictly before the constrained point
  for (let i = 0; i < f.length; i++) {
    if (f[i] < cp.fpr || (f[i] === cp.fpr && t[i] < cp.tpr)) j = i;
  }
  let lo = 0.0;
  if (j >= 0) {
    const df = f[j + 1] - f[j];
    const dt = t[j + 1] - t[j];
    lo = df + dt > 0 ? df / (df + dt) : 0.0;
  }
  const nec = cp.slope * pcf + cp.intercept;
  return {
    ...base, threshold: cp.randomized ? cp.single_threshold : cp.threshold_high,
    randomized: cp.randomized, threshold_low: cp.threshold_low, threshold_high: cp.threshold_high,
    prob_low: cp.randomized ? cp.prob_low : 0.0, constraint: cp.kind, fpr: cp.fpr, tpr: cp.tpr,
    nec, expected_cost: nec * costScale(p_pos, cost_fn, cost_fp), pcf_lo: Math.min(lo, pcf),
    pcf_hi: 1.0, binding: nec - op.nec > NEC_SLACK,
  };
}

/** model/decisions/operating.py readout_row: one readout row. */
function decisionRow(clf, op, rule, scale) {
  const row = {
    threshold: op.threshold, fpr: op.fpr, tpr: op.tpr, nec: op.nec,
    expected_cost: op.nec * scale, range_lo: clf.rangeLo, range_hi: clf.rangeHi,
  };
  if (rule && rule.constraint !== null) {
    Object.assign(row, {
      constrained_fpr: rule.fpr, constrained_tpr: rule.tpr, constrained_nec: rule.nec,
      constrained_expected_cost: rule.expected_cost, constrained_rule: mixRule(rule),
      best_single_threshold: rule.threshold, constrained_binding: rule.binding,
    });
  }
  return row;
}

/** model/decisions/decision_words.py _at: one threshold in words, null without a threshold. */
function atWords(threshold) {
  if (threshold === Infinity) return "flagging no case";
  if (threshold === -Infinity) return "flagging every case";
  if (Number.isNaN(threshold)) return null;
  return `at score ≥ ${thresholdText(threshold)}`;
}

/** model/decisions/decision_words.py _point_words: a single-threshold rule in words. */
function pointWords(threshold, fpr, tpr) {
  if (threshold === Infinity || (fpr === 0 && tpr === 0)) return "flagging no case";
  if (threshold === -Infinity || (fpr === 1 && tpr === 1)) return "flagging every case";
  return atWords(threshold);
}

/** model/decisions/decision_words.py _rule_words; `rates`: the [fpr, tpr] printed (`ratesOf`). */
function ruleWords(rule, rates = [rule.fpr, rule.tpr]) {
  if (!rule.randomized) {
    const words = pointWords(rule.threshold, rates[0], rates[1]);
    return words === null ? "" : ` ${words}`;
  }
  const low = atWords(rule.threshold_low) ?? "at one ROC point";
  const high = atWords(rule.threshold_high) ?? "at the other";
  return ` ${low} with probability ${readable(rule.prob_low)}, else ${high}`;
}

/** model/decisions/decision_words.py _moved_words: what a binding limit changed. */
function movedWords(limit, chosen, free, delta, counted = null) {
  const cost = `+${readable(delta)} per case`;
  if (free === null) return `${limit} binds: ${cost}`;
  if (free.name !== chosen.name) return `${limit} moves the choice from ${free.name} to ${chosen.name}: ${cost}`;
  const b = free.best;
  const rates = (counted === null ? null : counted(free.name, b.threshold)) ?? [b.fpr, b.tpr];
  let was = pointWords(b.threshold, rates[0], rates[1]) ?? "its optimum";
  if (was.startsWith("at ")) was = was.slice(3);
  return `${limit} moves the rule of ${chosen.name} from ${was}: ${cost}`;
}

// ------------------------------------------------------------------ how sure

/** model/kernels/json_values.py's "inf"/"-inf"/null, back to numbers. */
function numberOf(v) {
  if (v === "inf") return Infinity;
  if (v === "-inf") return -Infinity;
  return v == null ? NaN : v;
}

/**
 * model/decisions/runner_up.py fitting_band: the kernel's band (RunnerUpBand.to_dict()) if it is
 * of this decision (its pair chosen, runner, its PCF(+), its rules), else null: a band of another
 * state or pair is not said.
 */
function fittingBand(band, parts, chosen, runner, pcf, constraint) {
  if (!band) return null;
  if (pcf === 0 || (pcf === 1 && constraint === "none")) return null;
  if (chosen === null || band.chosen !== chosen || band.runner_up !== runner || band.pcf !== pcf) return null;
  const rules = [chosen, runner].map((n) => parts.find((c) => c.name === n).rule);
  if (band.of === "envelopes") return rules.some((r) => r.binding) ? null : band;
  if (!rules.some((r) => r.binding) || rules.some((r) => r.randomized)) return null;
  return numberOf(band.threshold_chosen) === rules[0].threshold &&
    numberOf(band.threshold_runner_up) === rules[1].threshold ? band : null;
}

/** model/decisions/runner_up.py _signed: "+x", "−x" or "0". */
function signedText(x) {
  const v = x + 0.0;
  if (v === 0) return "0";
  return (v > 0 ? "+" : "−") + readable(Math.abs(v));
}

/** model/decisions/runner_up.py band_words: the headline's clause, in cost per case: the verdict,
 * then which interval it reads (pointwise, paired, at this PCF(+)). */
function bandWords(band, chosen, scale) {
  const fixed = band.of === "envelopes" ? "" : ", thresholds fixed";
  const said = `paired ${percentText(band.level)} % interval at this PCF(+)${fixed}: ` +
    `${signedText(band.lower * scale)} to ${signedText(band.upper * scale)}`;
  if (band.lower <= 0 && 0 <= band.upper) return `, which this data cannot tell apart from ${chosen} (${said})`;
  return `, significantly more than ${chosen} (${said})`;
}

/**
 * model/decisions/decision_words.py _rates: the rule's [fpr, tpr] to print and how to say them.
 * `counted` (per-case costs): (name, threshold) -> [fpr, tpr] counted on the cases, or null.
 */
function ratesOf(c, counted) {
  const rule = c.rule;
  if (counted === null) return [[rule.fpr, rule.tpr], ""];
  let rates;
  if (rule.randomized) {
    const low = counted(c.name, rule.threshold_low);
    const high = counted(c.name, rule.threshold_high);
    const q = rule.prob_low;
    rates = low == null ? null : [q * low[0] + (1 - q) * high[0], q * low[1] + (1 - q) * high[1]];
  } else {
    rates = counted(c.name, rule.threshold);
  }
  if (rates == null) return [[rule.fpr, rule.tpr], ", cost-weighted"];
  return [rates, ", counted in cases"];
}

/**
 * model/decisions/decision_words.py headline: the main sentence, then short qualifiers after the
 * first "; ". `costs`: each name's cost per case on the decision's scale; `free`: [part or null,
 * cost], the decision without the limit; `counted`: per-case costs' rates counted in cases
 * (`ratesOf`), null for per-class costs.
 */
function decisionHeadline(d, costs, band = null, scale = 1.0, free = null, counted = null) {
  const parts = d.classifiers;
  if (!parts.length) return "No classifier shown.";
  if (d.pcf === 0) return "Flag no case: 0 per case (at PCF(+) = 0 only false positives cost)";
  if (d.pcf === 1 && d.constraint === "none") {
    return "Flag every case: 0 per case (at PCF(+) = 1 only missed positives cost)";
  }
  const lowest = d.lowest;
  if (!lowest.length) return "No cost to compare.";
  const cost = costs.get(lowest[0]);
  if (lowest.length > 1) {
    return `Tie: ${lowest.length} classifiers share the lowest cost, ${readable(cost)} per ` +
      "case; none is the best here";
  }
  const c = parts.find((p) => p.name === lowest[0]);
  const rule = c.rule;
  const [[fpr, tpr], unit] = ratesOf(c, counted);
  const fresh = d.on_new_data;
  const lead = d.binding ? "Under the constraint, deploy" : "Deploy";
  let text = `${lead} ${c.name}${ruleWords(rule, [fpr, tpr])}: ${readable(cost)} per case` +
    `${fresh ? " on new data" : ""} (FPR ${percentText(fpr)} %, TPR ${percentText(tpr)} %` +
    `${unit}${fresh ? " on this data" : ""})`;
  if (d.runner_up !== null) {
    text += `; next best ${d.runner_up}, +${readable(costs.get(d.runner_up) - cost)}`;
    if (fresh) text += " on new data";
    if (band !== null) text += bandWords(band, c.name, scale); // how sure
  }
  if (d.constraint !== "none") {
    const limit = d.constraint === "neyman_pearson" ? `the FPR limit ${percentText(d.max_fpr)} %`
      : `the capacity of ${readable(d.capacity)} cases`;
    text += d.binding ? `; ${movedWords(limit, c, free[0], cost - free[1], counted)}`
      : `; ${limit} does not bind`;
  }
  return text;
}

/** model/decisions/decide.py _runner_up: the cheapest after `chosen` on the decision's scale. */
function runnerUpOf(costs, chosen) {
  if (chosen === null) return null;
  const nxt = lowestNames([...costs].filter(([n]) => n !== chosen).map(([n, c]) => [n, { c }]), "c");
  return nxt.length ? nxt[0] : null;
}

/** model/decisions/decide.py _binding: [binding, [free part or null, its cost]] or [null, null]. */
function bindingOf(rows, constraint, parts) {
  if (constraint === "none") return [null, null];
  const free = lowestNames(rows, "expected_cost");
  const held = lowestNames(rows, "constrained_expected_cost");
  if (!free.length || !held.length) return [null, null];
  const table = new Map(rows);
  const cFree = table.get(free[0]).expected_cost;
  const cHeld = table.get(held[0]).constrained_expected_cost;
  const same = lowestNames([["free", { c: cFree }], ["held", { c: cHeld }]], "c");
  const part = free.length === 1 ? parts.find((p) => p.name === free[0]) : null;
  return [!same.includes("held"), [part, cFree]];
}

/** model/decisions/decide.py _on_new_data: choose on the cost on new data when it is known. */
function onNewData(parts, rows) {
  if (!parts.length || parts.some((c) => c.rule.binding)) return false;
  return rows.every(([, row]) => row.nec_honest !== undefined && !Number.isNaN(row.nec_honest));
}

/** decision_curve.py _net_benefit at pt and prevalence p; NaN at pt = 1. */
function netBenefit(rule, pt, p) {
  if (!(pt < 1.0)) return NaN;
  return rule.tpr * p - (pt / (1.0 - pt)) * (rule.fpr * (1.0 - p));
}

/** model/decisions/decide.py _check_constraint: the constraint's inputs, checked. */
function checkedConstraint(state) {
  const c = state.constraint ?? "none";
  const { CONSTRAINTS } = contract();
  if (!CONSTRAINTS.includes(c)) {
    throw new RangeError(`constraint must be one of ${CONSTRAINTS.join(", ")}, got ${c}.`);
  }
  const out = { max_fpr: null, capacity: null, n_pos: null, n_neg: null };
  if (c === "neyman_pearson") {
    if (!(typeof state.max_fpr === "number" && state.max_fpr >= 0 && state.max_fpr <= 1)) {
      throw new RangeError(`max_fpr must lie in [0, 1], got ${state.max_fpr}.`);
    }
    out.max_fpr = state.max_fpr;
  } else if (c === "workforce") {
    if (!(typeof state.capacity === "number" && state.capacity >= 0)) {
      throw new RangeError(`capacity must be a number of cases >= 0, got ${state.capacity}.`);
    }
    out.capacity = state.capacity;
    out.n_pos = state.n_pos ?? null;
    out.n_neg = state.n_neg ?? null;
  }
  return [c, out];
}

/**
 * The one answer (model/decisions/decide.py decide) with numbers as numbers: what `decide` returns before
 * its JSON form. The shown classifiers are those of `state.visible`.
 * @param {Array<Classifier>} classifiers
 * @param {object} state  p_pos, cost_fn, cost_fp, constraint, max_fpr, capacity, n_pos, n_neg, visible
 * @param {{best?: Array, constrained?: Array, runnerUpBand?: object, money?: object}} [known]
 *   look-ups already made (index-aligned); runnerUpBand: the kernel's RunnerUpBand.to_dict(),
 *   said when it fits; money (per-case costs, `perCaseDecision`): {offset, given, counted}, as
 *   model/decisions/per_case.py CostSetting turns the twins' costs into money per case
 */
export function decisionOf(classifiers, state, known = {}) {
  const money = known.money ?? null;
  const offset = money ? money.offset : 0.0;
  const [constraint, limits] = checkedConstraint(state);
  const pcf = probabilityCost(state.p_pos, state.cost_fn, state.cost_fp);
  const costs = { p_pos: state.p_pos, cost_fn: state.cost_fn, cost_fp: state.cost_fp };
  const scale = costScale(state.p_pos, state.cost_fn, state.cost_fp);
  const shown = visibleMask(classifiers, state.visible);
  const parts = [];
  const rows = [];
  classifiers.forEach((clf, i) => {
    if (!shown[i]) return;
    const op = known.best ? known.best[i] : best(clf, pcf);
    let cp = null;
    if (known.constrained) cp = known.constrained[i];
    else if (constraint === "neyman_pearson") cp = neymanPearson(clf, limits.max_fpr);
    else if (constraint === "workforce") {
      cp = workforce(clf, limits.capacity, limits.n_pos ?? undefined, limits.n_neg ?? undefined);
    }
    const made = decisionRuleOf(clf, op, cp, pcf, costs);
    const lower = made.lower;
    // CostSetting.money: the rule's cost in money per case, at the operating point as given.
    const rule = money ? { ...made.rule, expected_cost: made.rule.expected_cost + offset,
      p_pos: money.given[0], cost_fn: money.given[1], cost_fp: money.given[2] } : made.rule;
    // The optimum as deployed (the readout's threshold): the rule itself without a limit.
    const free = cp ? decisionRuleOf(clf, op, null, pcf, costs).rule : rule;
    const deployedBest = { ...op, threshold: free.threshold };
    parts.push({
      name: clf.name,
      best: { pcf: op.pcf, threshold: free.threshold, fpr: op.fpr, tpr: op.tpr, nec: op.nec },
      constrained: cp ? Object.fromEntries(CP_FIELDS.map((f) => [f, cp[f]])) : null,
      rule, next_score_high: lower[0], next_score_low: lower[1],
      shown_high: thresholdText(rule.threshold_high),
      shown_low: thresholdText(rule.threshold_low),
    });
    rows.push([clf.name, moneyRow(decisionRow(clf, deployedBest, cp ? rule : null, scale), money)]);
  });
  withHonest(parts, rows, state.honest, shown, classifiers, pcf, scale, offset);
  const fresh = onNewData(parts, rows);
  const column = fresh ? "expected_cost_honest"
    : (constraint === "none" ? "expected_cost" : "constrained_expected_cost");
  const lowest = lowestNames(rows, column);
  const chosen = lowest.length === 1 ? lowest[0] : null;
  const chosenPart = parts.find((c) => c.name === chosen);
  const rule = chosenPart ? chosenPart.rule : null;
  const costsOf = new Map(rows.map(([n, r]) => [n, r[column]]));
  const runner = runnerUpOf(costsOf, chosen);
  const [binding, free] = bindingOf(rows, constraint, parts);
  const pt = state.cost_fp / (state.cost_fp + state.cost_fn);
  const nbs = parts.map((c) => [c.name, netBenefit(c.rule, pt, state.p_pos)]);
  const chosenNb = chosen === null ? NaN : nbs.find(([n]) => n === chosen)[1];
  // The paired interval is of in-sample costs: it says nothing of a choice made on new data.
  const band = fresh ? null : fittingBand(known.runnerUpBand ?? null, parts, chosen, runner, pcf, constraint);
  const d = {
    p_pos: state.p_pos, cost_fn: state.cost_fn, cost_fp: state.cost_fp, pcf, constraint,
    ...limits,
    classifiers: parts,
    rows,
    lowest,
    chosen,
    tie: lowest.length > 1,
    rule,
    binding,
    headline: "",
    decision_curve: { threshold_probability: pt, prevalence: state.p_pos, net_benefit: nbs, chosen: chosenNb },
    runner_up_band: band,
    runner_up: runner,
    on_new_data: fresh,
  };
  d.headline = decisionHeadline(d, costsOf, band, scale, free, money ? money.counted : null) +
    (fresh ? "" : honestWords(rule, scale, pcf, constraint, offset));
  if (money) {
    // CostSetting.decision: the operating point as the user gave it; the decision curve's point
    // was made on the twins, not at the user's costs.
    [d.p_pos, d.cost_fn, d.cost_fp] = money.given;
    d.decision_curve = null;
  }
  return d;
}

/** model/decisions/per_case.py CostSetting.money_row: a row's expected costs in money per case. */
function moneyRow(row, money) {
  if (!money) return row;
  const out = { ...row };
  for (const key of ["expected_cost", "constrained_expected_cost", "expected_cost_honest"]) {
    if (key in out) out[key] = out[key] + money.offset;
  }
  return out;
}

/**
 * model/uncertainty/honest.py honest_at: the honest NEC at `x` off a curve's breakpoint rows
 * (`{pcf, nec}` arrays; at a jump the left limit comes first); NaN outside [first, last].
 */
function honestAt(curve, x, left = false) {
  const p = curve.pcf;
  const y = curve.nec;
  if (!p.length || x < p[0] || x > p[p.length - 1]) return NaN;
  let first = 0;  // the first row at or beyond x
  while (first < p.length && p[first] < x) first += 1;
  let last = first;  // the last row at or below x
  while (last + 1 < p.length && p[last + 1] <= x) last += 1;
  if (first < p.length && p[first] === x) return left ? y[first] : y[last];
  last = first - 1;
  const w = (x - p[last]) / (p[first] - p[last]);
  return y[last] + (y[first] - y[last]) * w;
}

/** model/decisions/decide.py _with_honest: the honest curves' cost at pcf in rules and rows. */
function withHonest(parts, rows, honest, shown, classifiers, pcf, scale, offset = 0.0) {
  if (!honest) return;
  const names = classifiers.filter((_, i) => shown[i]).map((c) => c.name)
    .filter((n) => honest[n]);
  if (!names.length) return;
  const nec = new Map(names.map((n) => [n, honestAt(honest[n], pcf)]));
  for (const c of parts) {
    if (nec.has(c.name)) c.rule = { ...c.rule, nec_honest: nec.get(c.name) };
  }
  for (const row of rows) {
    const v = nec.has(row[0]) ? nec.get(row[0]) : NaN;
    row[1] = { ...row[1], nec_honest: v, expected_cost_honest: v * scale + offset };
  }
}

/** model/decisions/decide.py _honest_words: the chosen rule's cost on new data. */
function honestWords(rule, scale, pcf, constraint, offset = 0.0) {
  if (!rule || rule.nec_honest === undefined || Number.isNaN(rule.nec_honest) || rule.binding) {
    return "";
  }
  if (pcf === 0 || (pcf === 1 && constraint === "none")) return "";  // "Flag no/every case"
  return `; on new data ${readable(rule.nec_honest * scale + offset)} per case`;
}

/** The fields of a constrained point the decision keeps (model/decisions/decide.py _CP_FIELDS). */
const CP_FIELDS = ["kind", "fpr", "tpr", "binding", "randomized", "threshold_low", "threshold_high",
  "prob_low", "single_threshold", "single_fpr", "single_tpr", "message"];

/** model/kernels/json_values.py jsonable: ±Infinity as "inf"/"-inf", NaN as null, recursively. */
export function jsonable(value) {
  if (typeof value === "number") {
    if (Number.isNaN(value)) return null;
    if (value === Infinity) return "inf";
    if (value === -Infinity) return "-inf";
    return value;
  }
  if (Array.isArray(value)) return value.map(jsonable);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonable(v)]));
  }
  return value;
}

/**
 * One frame's worth: the operating-point marks, the constraint marks, the decision (`decisionOf`)
 * and the readout (its rows and both tables) and headline made from it, each classifier looked
 * up once.
 * @param {Array<Classifier>} classifiers
 * @param {object} state  p_pos, cost_fn, cost_fp, constraint, max_fpr, capacity, n_pos, n_neg, visible
 * @param {{colors?: Object<string, string>, runnerUpBand?: object}} [options]  runnerUpBand: the
 *   kernel's band of the runner-up (decisionOf says it when it is of this state)
 */
export function computeView(classifiers, state, { colors = {}, runnerUpBand = null, decide = null,
  note = null } = {}) {
  const operating = operatingMarks(classifiers, state);
  // The one answer: the readout's rows, the headline, the highlighted row, the winner's dot and
  // the constraint's marks all come from it (as widget/state/decision.py's Decision in the kernel).
  const paperPoints = shownConstrained(classifiers, state);
  const decision = (decide ?? decisionOf)(classifiers, state, { best: operating.best,
    constrained: paperPoints, runnerUpBand });
  operating.winnerDot = winnerDot(classifiers, decision, colors);
  const constraint = constraintMarks(classifiers, state, decision, paperPoints);
  const rows = decision.rows;
  const headline = decision.headline;
  const constrained = decision.constraint !== "none";
  return {
    decision,
    headline: { text: headline, html: headlineHtml(headline) },
    operating,
    constraint,
    readout: {
      rows,
      html: constrained ? readoutHtml(rows, colors, undefined, note)
        : readoutHtml(rows, colors, decision.chosen, note),
      constraintHtml: constraintHtml(rows, colors, constraintDescription(state),
        constrained ? decision.chosen : undefined),
    },
    pcfLabel: pcfLabel(operating.pcf, state.cost_fn, state.cost_fp),
  };
}

// ------------------------------------------------------------------------------------ per-case costs
//
// A widget whose cases carry their own costs, where no case changes side as the multipliers and
// p(+) move (costwidget/widget/state/per_case_costs.py; the contract's PER_CASE_MIRRORED): its
// classifiers are the cost-weighted twins, whose ROC is the same at every multiplier and p(+),
// and the state's cost_fn/cost_fp are multipliers of the classes' mean costs `units`. Then the
// twins' decision is the per-class one at C(-|+) = m_fn·u_fn, C(+|-) = m_fp·u_fp, and its costs
// plus the floor F/W are money per case (model/decisions/per_case.py multiplier_units). Every
// constant comes from Python (`spec.per_case`, frontend/contract.py per_case_spec).

/** widget/state/state.py _derive_pcf: the per-class state of the multipliers (its PCF(+) is the
 * kernel's state.pcf, operation for operation). */
function perClassState(state, perCase) {
  const [uFn, uFp] = perCase.units;
  return { ...state, cost_fn: state.cost_fn * uFn, cost_fp: state.cost_fp * uFp };
}

/** model/decisions/per_case.py counted_rates, read off the hull's case counts (the payload's
 * hull_counted_fpr/tpr, made by counted_rates at each hull vertex): a deployed threshold selects
 * the cases of its vertex. null where none is known. */
function countedRates(classifiers) {
  const byName = new Map(classifiers.map((c) => [c.name, c]));
  return (name, threshold) => {
    const clf = byName.get(name);
    if (!clf || !clf.hull.countedFpr) return null;
    const h = clf.hull;
    for (let i = 0; i < h.threshold.length; i++) {
      if (h.threshold[i] === threshold || deployedThreshold(h.threshold[i], h.nextScore[i]) === threshold) {
        return [h.countedFpr[i], h.countedTpr[i]];
      }
    }
    return null;
  };
}

/**
 * model/decisions/per_case.py per_case_savings where no case changes side: flagging every case
 * costs (1 − p)·m_fp·u_fp per case beyond the floor, flagging none p·m_fn·u_fn.
 * @returns {{cost: number, trivial: string, trivial_cost: number, savings: number}}
 */
export function perCaseSavings(perCase, cost, pPos, mFn, mFp) {
  const [uFn, uFp] = perCase.units;
  const every = (1.0 - pPos) * (mFp * uFp) + perCase.floor;
  const none = pPos * (mFn * uFn) + perCase.floor;
  const [trivial, trivialCost] = every <= none ? ["flagging every case", every] : ["flagging no case", none];
  let saved = trivialCost !== 0 ? 1.0 - cost / trivialCost : NaN;
  // math.isclose(cost, trivial, rel_tol=1e-12): the rule is the trivial one, summed in another order
  if (Math.abs(cost - trivialCost) <= 1e-12 * Math.max(Math.abs(cost), Math.abs(trivialCost))) saved = 0.0;
  return { cost, trivial, trivial_cost: trivialCost, savings: saved };
}

/** model/decisions/decision_words.py savings_words: the headline's last qualifier. */
export function savingsWords(s) {
  let saved;
  if (Number.isNaN(s.savings)) saved = "the trivial rules cost nothing";
  else if (s.savings < 0) {
    saved = `costs ${percentText(-s.savings)} % more than ${s.trivial} (${readable(s.trivial_cost)} per case)`;
  } else {
    saved = `saves ${percentText(s.savings)} % against ${s.trivial} (${readable(s.trivial_cost)} per case)`;
  }
  return `; ${saved}`;
}

/**
 * widget/state/per_case_costs.py PerCaseCosts.headline of decide(): the decision of a per-case
 * widget at its multipliers and p(+), in money per case, its headline with the rates counted in
 * cases and the savings against the best trivial rule. A limit counts cases at every threshold,
 * which the page does not hold: refused (the kernel decides under a limit).
 * @param {Array<Classifier>} classifiers  the twins (with hull case counts)
 * @param {object} state  the widget's state (cost_fn, cost_fp: the multipliers)
 * @param {{units: number[], floor: number}} perCase  spec.per_case
 */
export function perCaseDecision(classifiers, state, perCase, known = {}) {
  const { money, twin } = perCaseSetting(classifiers, state, perCase);
  const d = decisionOf(classifiers, twin, { ...known, money });
  d.headline += perCaseSavingsWords(d, perCase);
  return d;
}

function perCaseSetting(classifiers, state, perCase) {
  const { PER_CASE_REFUSED_LIMIT, PER_CASE_ONE_SIDED } = contract();
  if ((state.constraint ?? "none") !== "none") throw new RangeError(PER_CASE_REFUSED_LIMIT);
  // model/base/case_costs.py checked_roc_weights: each side of the twins needs weight (decide
  // weighs the twins of the shown classifiers only: with none shown there is nothing to weigh).
  if (visibleMask(classifiers, state.visible).some((v) => v)) {
    if (!(state.cost_fn > 0 && state.p_pos > 0)) throw new RangeError(PER_CASE_ONE_SIDED.flagged);
    if (!(state.cost_fp > 0 && state.p_pos < 1)) throw new RangeError(PER_CASE_ONE_SIDED.passed);
  }
  const twin = perClassState(state, perCase);
  const money = { offset: perCase.floor, given: [state.p_pos, state.cost_fn, state.cost_fp],
    counted: countedRates(classifiers) };
  return { money, twin };
}

/** widget/state/per_case_costs.py PerCaseCosts.savings and headline: "" when nothing is chosen. */
function perCaseSavingsWords(d, perCase) {
  if (d.rule === null) return "";
  let cost = d.rule.expected_cost;
  if (d.on_new_data) cost = new Map(d.rows).get(d.chosen).expected_cost_honest;
  return savingsWords(perCaseSavings(perCase, cost, d.p_pos, d.cost_fn, d.cost_fp));
}

/**
 * `computeView` of a per-case widget (`perCaseDecision`): the twins' marks at the per-class
 * costs of the multipliers, the readout in money per case with the per-case note, the headline
 * with its savings.
 */
export function perCaseView(classifiers, state, perCase, { colors = {}, runnerUpBand = null } = {}) {
  const twin = perClassState(state, perCase);
  // The runner-up's band is the kernel's (a paired bootstrap of the cases with their costs): the
  // page says it where it fits the page's own choice, PCF(+) and rules (fittingBand), as for
  // per-class widgets.
  const decide = (c, _twin, known) => perCaseDecision(c, state, perCase, { ...known, runnerUpBand });
  const view = computeView(classifiers, twin, { colors, decide, note: contract().PER_CASE_NOTE });
  view.pcfLabel = pcfLabel(view.operating.pcf, state.cost_fn, state.cost_fp);
  return view;
}

// ------------------------------------------------------------------------------------ Python's format()

const POW5 = [1n];
function pow5(k) {
  while (POW5.length <= k) POW5.push(POW5[POW5.length - 1] * 5n);
  return POW5[k];
}

/** A finite double as exactly N·10^e (N a non-negative BigInt): every double is a finite decimal. */
function exactDecimal(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  let m = bits & ((1n << 52n) - 1n);
  let e;
  if (biased === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  if (m === 0n) return { n: 0n, e: 0 };
  while (e < 0 && (m & 1n) === 0n) {
    m >>= 1n;
    e += 1;
  }
  return e >= 0 ? { n: m << BigInt(e), e: 0 } : { n: m * pow5(-e), e };
}

/** Drop `drop` low decimal digits of n, rounding half to even on the exact value. */
function roundOff(n, drop) {
  if (drop <= 0) return n;
  const p = 10n ** BigInt(drop);
  let q = n / p;
  const twice = 2n * (n % p);
  if (twice > p || (twice === p && (q & 1n) === 1n)) q += 1n;
  return q;
}

/** n·10^e as plain decimal text. */
function plain(n, e) {
  const s = n.toString();
  if (e >= 0) return s + "0".repeat(e);
  const padded = s.padStart(-e + 1, "0");
  return `${padded.slice(0, padded.length + e)}.${padded.slice(padded.length + e)}`;
}

function group(intPart) {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Python's format(x, spec) for the specs the widget uses: "[,][.P](g|f)". Exact: the double's
 * decimal value is rounded half to even, as CPython does (JS's toPrecision rounds ties up).
 * @param {number} x
 * @param {string} spec  e.g. ".4g", ",.6g", "g", ".4f"
 * @returns {string}
 */
export function formatPy(x, spec) {
  const m = /^(,)?(?:\.(\d+))?([gf])$/.exec(spec);
  if (!m) throw new Error(`unsupported format spec ${spec}`);
  const comma = Boolean(m[1]);
  const type = m[3];
  let prec = m[2] === undefined ? 6 : Number(m[2]);
  if (Number.isNaN(x)) return "nan";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (!Number.isFinite(x)) return `${sign}inf`;
  const { n, e } = exactDecimal(x);
  const withGroups = (text) => {
    if (!comma) return text;
    const [i, f] = text.split(".");
    return f === undefined ? group(i) : `${group(i)}.${f}`;
  };
  if (type === "f") {
    // n·10^e as a whole number of 10^-prec: exact when e >= -prec, else rounded.
    const q = e >= -prec ? n * 10n ** BigInt(e + prec) : roundOff(n, -prec - e);
    return sign + withGroups(plain(q, -prec));
  }
  // "g"
  if (prec === 0) prec = 1;
  if (n === 0n) return `${sign}0`;
  const digits = n.toString().length;
  const drop = Math.max(0, digits - prec);
  const q = roundOff(n, drop);
  const qe = e + drop;
  const exp = q.toString().length - 1 + qe; // decimal exponent of the rounded value
  if (exp >= -4 && exp < prec) {
    let text = plain(q, qe);
    if (text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
    return sign + withGroups(text);
  }
  const s = q.toString().replace(/0+$/, "") || "0";
  const mant = s.length > 1 ? `${s[0]}.${s.slice(1)}` : s;
  const absExp = Math.abs(exp);
  return `${sign}${mant}e${exp < 0 ? "-" : "+"}${absExp < 10 ? "0" : ""}${absExp}`;
}
