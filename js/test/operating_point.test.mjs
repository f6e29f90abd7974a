// Closed forms of the front-end operating-point module (node --test; `npm test` in js/).
// tests/test_frontend_parity.py checks the same module against the Python model at random.

import assert from "node:assert/strict";
import { test } from "node:test";

import { CONTRACT, REQUIRED_ARRAYS, decide } from "./contract.mjs";
import * as op from "../src/operating_point.mjs";

const close = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} != ${b}`);

// The trivial classifiers only: hull (0, 0) -> (1, 1), cost lines y = x and y = 1 - x.
const diagonal = op.makeClassifier("diagonal", {
  hull_threshold: [Infinity, -Infinity], hull_fpr: [0, 1], hull_tpr: [0, 1],
  segment_lo: [0, 0.5], segment_hi: [0.5, 1], segment_vertex: [0, 1],
  single_threshold: [Infinity, -Infinity], single_fpr: [0, 1], single_tpr: [0, 1],
  scalars: [10, 10, 0.5, 0.5],
});
// Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7): one point (0.3, 0.7), no threshold.
const confusion = op.makeClassifier("confusion", {
  hull_threshold: [Infinity, NaN, -Infinity], hull_fpr: [0, 0.3, 1], hull_tpr: [0, 0.7, 1],
  segment_lo: [0, 0.3, 0.7], segment_hi: [0.3, 0.7, 1], segment_vertex: [0, 1, 2],
  single_threshold: [Infinity, NaN, -Infinity], single_fpr: [0, 0.3, 1], single_tpr: [0, 0.7, 1],
  scalars: [10, 10, 0.3, 0.7],
});
// Classifier.from_roc([0.2, 0.5], [0.6, 0.9], thresholds=[0.8, 0.5]) (its docstring example).
const twoPoint = op.makeClassifier("two point", {
  hull_threshold: [Infinity, 0.8, 0.5, -Infinity], hull_fpr: [0, 0.2, 0.5, 1],
  hull_tpr: [0, 0.6, 0.9, 1],
  segment_lo: [0, 0.25, 0.5, 0.5 / 0.6], segment_hi: [0.25, 0.5, 0.5 / 0.6, 1],
  segment_vertex: [0, 1, 2, 3],
  single_threshold: [Infinity, 0.8, 0.5, -Infinity], single_fpr: [0, 0.2, 0.5, 1],
  single_tpr: [0, 0.6, 0.9, 1], scalars: [NaN, NaN, 0.25, 0.5 / 0.6],
});

test("PCF(+) at known inputs (eq. 6) and its edge rules", () => {
  assert.equal(op.probabilityCost(0.5, 1, 1), 0.5);
  assert.equal(op.probabilityCost(0.1, 9, 1), 0.5);
  close(op.probabilityCost(0.2, 1, 4), 0.2 / 3.4);
  assert.equal(op.probabilityCost(0, 5, 2), 0); // p(+) = 0
  assert.equal(op.probabilityCost(1, 5, 2), 1); // p(+) = 1
  assert.equal(op.probabilityCost(0.3, 0, 2), 0); // a free false negative
  assert.equal(op.probabilityCost(0.3, 2, 0), 1); // a free false positive
  assert.throws(() => op.probabilityCost(1, 0, 2), /undefined/);
  assert.throws(() => op.probabilityCost(0, 2, 0), /undefined/);
  assert.throws(() => op.probabilityCost(0.5, 0, 0), /both 0/);
  assert.throws(() => op.probabilityCost(0.5, -1, 1), /finite number >= 0/);
  assert.throws(() => op.probabilityCost(1.5, 1, 1), /\[0, 1\]/);
  assert.throws(() => op.probabilityCost(NaN, 1, 1), /\[0, 1\]/);
  assert.equal(op.costScale(0.2, 5, 2), 0.2 * 5 + 0.8 * 2);
});

test("iso-performance slope (1 - PCF)/PCF (eq. 1)", () => {
  assert.equal(op.isoPerformanceSlope(0.25), 3);
  assert.equal(op.isoPerformanceSlope(0), Infinity);
  assert.equal(op.isoPerformanceSlope(1), 0);
});

test("trivial classifiers: y = x, then y = 1 - x; ties go right, except at PCF 1", () => {
  let b = op.best(diagonal, 0.3);
  assert.deepEqual([b.fpr, b.tpr, b.nec, b.threshold], [0, 0, 0.3, Infinity]);
  b = op.best(diagonal, 0.7);
  assert.deepEqual([b.fpr, b.tpr, b.threshold], [1, 1, -Infinity]);
  close(b.nec, 0.3);
  b = op.best(diagonal, 0.5); // the crossing: the vertex optimal just to the right
  assert.deepEqual([b.fpr, b.tpr, b.nec], [1, 1, 0.5]);
  assert.equal(op.best(diagonal, 0).vertex, 0);
  assert.equal(op.best(diagonal, 1).vertex, 1);
  assert.equal(op.best(diagonal, 1).nec, 0);
});

test("a one-point hull: NEC = min(x, 0.3, 1 - x) and the expected cost per case", () => {
  assert.equal(op.best(confusion, 0.5).vertex, 1);
  close(op.best(confusion, 0.5).nec, 0.3);
  assert.equal(op.best(confusion, 0.3).vertex, 1); // at the breakpoint: the right-hand vertex
  assert.equal(op.best(confusion, 0.7).vertex, 2);
  assert.ok(Number.isNaN(op.best(confusion, 0.5).threshold));
  close(op.best(confusion, 0.5).nec * op.costScale(0.5, 10, 10), 3);
});

test("two-point hull: the vertex optimal on each envelope piece", () => {
  const at = (x) => op.best(twoPoint, x).threshold;
  assert.deepEqual([0.1, 0.25, 0.3, 0.5, 0.7, 0.84, 1].map(at),
    [Infinity, 0.8, 0.8, 0.5, 0.5, -Infinity, -Infinity]);
});

test("Neyman-Pearson: randomized between two vertices, at a vertex, not binding", () => {
  let r = op.neymanPearson(twoPoint, 0.35);
  close(r.tpr, 0.75);
  assert.equal(r.fpr, 0.35);
  assert.equal(r.randomized, true);
  close(r.prob_low, 0.5);
  assert.deepEqual([r.threshold_low, r.threshold_high, r.single_threshold], [0.5, 0.8, 0.8]);
  assert.match(r.message, /^The limit FPR <= 0\.35 falls between two hull vertices: use threshold 0\.5/);
  r = op.neymanPearson(confusion, 0.15);
  assert.equal(r.fpr, 0.15);
  close(r.tpr, 0.35);
  close(r.prob_low, 0.5);
  r = op.neymanPearson(twoPoint, 0.2);
  assert.deepEqual([r.randomized, r.binding, r.fpr, r.tpr, r.prob_low], [false, true, 0.2, 0.6, 0]);
  r = op.neymanPearson(twoPoint, 1);
  assert.equal(r.binding, false);
  assert.throws(() => op.neymanPearson(twoPoint, 1.5), /\[0, 1\]/);
});

test("workforce: met exactly at (0.3, 0.7); the class totals as default population", () => {
  const r = op.workforce(confusion, 10);
  assert.deepEqual([r.fpr, r.tpr, r.randomized], [0.3, 0.7, false]);
  assert.match(r.message, /the ROC point \(FPR 0\.3, TPR 0\.7\)/);
  assert.equal(op.workforce(confusion, Infinity).binding, false);
  assert.throws(() => op.workforce(twoPoint, 5), /rates only/);
  assert.equal(op.workforce(twoPoint, 50, 100, 0).tpr, 0.5);
});

test("marks: clipped lines, constant point counts, hidden classifiers at opacity 0", () => {
  assert.deepEqual(op.isoPerformanceSegment(0.2, 0.6, 0.5).map((v) => Math.round(v * 1e6) / 1e6),
    [0, 0.4, 0.6, 1]);
  assert.deepEqual(op.workforceSegment(50, 100, 100), [0, 0.5, 0.5, 0]);
  assert.ok(op.workforceSegment(500, 100, 100).every(Number.isNaN)); // beyond all cases
  const state = { p_pos: 0.5, cost_fn: 1, cost_fp: 1, constraint: "neyman_pearson", max_fpr: 0.1,
    capacity: 0, n_pos: 1, n_neg: 1, visible: ["confusion"] };
  const v = op.computeView([diagonal, confusion], state, { colors: { confusion: "red" } });
  assert.ok(v.operating.chosen.x instanceof Float64Array);
  assert.deepEqual(Array.from(v.operating.operatingLine.x), [0.5, 0.5]);
  assert.deepEqual(v.operating.chosen.opacities, [0, 1]);
  assert.equal(v.operating.isoLines.x.length, 4);
  assert.deepEqual(v.constraint.constrained.map((c) => c && c.kind), [null, "neyman_pearson"]);
  assert.deepEqual(Array.from(v.constraint.rocLine.x), [0.1, 0.1]);
  assert.equal(v.readout.rows.length, 1);
  assert.match(v.readout.html, /^<table class='costwidget-readout costwidget-table'>/);
  assert.match(v.readout.constraintHtml, /Neyman-Pearson, false-positive rate ≤ 0\.1/);
  assert.equal(v.pcfLabel, "PCF(+) = <b>0.5</b>");
  const none = op.computeView([diagonal, confusion], { ...state, visible: [] });
  assert.equal(none.readout.html, "<i>No classifier shown.</i>");
  assert.equal(none.operating.chosen.x.length, 2);
});

test("payload decoding: aligned views, unaligned copies, base64, non-finite values survive", () => {
  const values = [Infinity, -Infinity, NaN, 0.1, -0];
  const bytes = new Uint8Array(8 * values.length + 3);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setFloat64(3 + 8 * i, v, true));
  const arrays = {};
  REQUIRED_ARRAYS.forEach((name) => { arrays[name] = { buffer: 0, offset: 3, length: values.length }; });
  const header = { format: CONTRACT.PAYLOAD_FORMAT, version: CONTRACT.PAYLOAD_VERSION, dtype: "<f8",
    classifiers: [{ name: "x", arrays }] };
  const [clf] = op.decodePayload(JSON.stringify(header), [new DataView(bytes.buffer)]);
  assert.ok(clf.hull.threshold instanceof Float64Array);
  assert.deepEqual(Array.from(clf.hull.threshold), values);
  assert.ok(Object.is(clf.hull.threshold[4], -0));
  const b64 = Buffer.from(bytes.subarray(3)).toString("base64");
  const arrays0 = Object.fromEntries(REQUIRED_ARRAYS.map((n) => [n, { buffer: 0, offset: 0, length: 5 }]));
  const [again] = op.decodePayload({ ...header, classifiers: [{ name: "x", arrays: arrays0 }] }, [b64]);
  assert.deepEqual(Array.from(again.hull.fpr), values);
  assert.throws(() => op.decodePayload({ ...header, version: 99 }, []), /version/);
  const short = { ...header, classifiers: [{ name: "x", arrays: { ...arrays, hull_fpr: { buffer: 0, offset: 0, length: 9 } } }] };
  assert.throws(() => op.decodePayload(short, [bytes]), /overruns/);
});

// Unsigned LEB128, written here independently of the module (frontend_payload.encode_single).
function leb128(values) {
  const out = [];
  for (let v of values) {
    do {
      const low = v % 128;
      v = Math.floor(v / 128);
      out.push(v > 0 ? low | 0x80 : low);
    } while (v > 0);
  }
  return new Uint8Array(out);
}

test("single candidates as varints: exact counts, thresholds to 6 digits on the exact one's side", () => {
  // Candidates (tp, fp, threshold): (0, 0, inf), (1, 0, 0.9), (3, 2, 0.1234567) of n_pos 4, n_neg 5.
  // Keys: (decimal exponent + 400) * 900000 + (6 digits - 100000) + 1; zigzag deltas.
  const key09 = 399 * 900000 + (900000 - 100000) + 1; // 9.00000e-01, exactly 0.9's double: side 0
  const key0123457 = 399 * 900000 + (123457 - 100000) + 1; // 1.23457e-01, the exact one below: side 1
  const zz = (d) => (d >= 0 ? 2 * d : -2 * d - 1);
  const varints = [
    zz(0) * 2 + 1, zz(0), zz(2 ** 40) * 3 + 0, // tp does not rise by one: its change follows
    zz(0) * 2 + 0, zz(key09 - 2 ** 40) * 3 + 0, // tp rises by one: no varint
    zz(2) * 2 + 1, zz(2), zz(key0123457 - key09) * 3 + 1,
  ];
  const f64 = (v) => new Float64Array(v);
  const arrays = { hull_threshold: f64([Infinity, -Infinity]), hull_fpr: f64([0, 1]), hull_tpr: f64([0, 1]),
    segment_lo: f64([0, 0.5]), segment_hi: f64([0.5, 1]), segment_vertex: f64([0, 1]), scalars: f64([4, 5, 0.5, 0.5]) };
  const names = Object.keys(arrays);
  const header = { format: CONTRACT.PAYLOAD_FORMAT, version: CONTRACT.PAYLOAD_VERSION, dtype: "<f8", classifiers: [{
    name: "v", arrays: Object.fromEntries(names.map((n, i) => [n, { buffer: i, offset: 0, length: arrays[n].length }])),
    single: { encoding: "leb128-counts-6g", buffer: names.length, offset: 0, bytes: leb128(varints).length, length: 3 },
  }] };
  const buffers = [...names.map((n) => arrays[n]), leb128(varints)];
  const [clf] = op.decodePayload(header, buffers);
  assert.deepEqual(Array.from(clf.single.tpr), [0, 1 / 4, 3 / 4]);
  assert.deepEqual(Array.from(clf.single.fpr), [0, 0, 2 / 5]);
  assert.equal(clf.single.thresholdAt(0), Infinity);
  assert.equal(clf.single.thresholdAt(1), 0.9);
  const t = clf.single.thresholdAt(2);
  assert.ok(t < 0.123457 && 0.123457 - t < 1e-16, `${t}`); // the double next below 0.123457
  assert.equal(op.formatPy(t, ".6g"), "0.123457");
  assert.ok(Math.abs(t - 0.1234567) <= CONTRACT.THRESHOLD_RELATIVE_BOUND * 0.1234567);
  // A cut buffer or a trailing byte is refused, not read short.
  const cut = { ...header, classifiers: [{ ...header.classifiers[0], single: { ...header.classifiers[0].single, length: 4 } }] };
  assert.throws(() => op.decodePayload(cut, buffers), /truncated/);
  const two = { ...header, classifiers: [{ ...header.classifiers[0], single: { ...header.classifiers[0].single, length: 2 } }] };
  assert.throws(() => op.decodePayload(two, buffers), /trailing/);
});

test("Python's format(): half to even on the exact value, exponents, grouping", () => {
  assert.equal(op.formatPy(0.125, ".2g"), "0.12"); // toPrecision would say 0.13
  assert.equal(op.formatPy(2.5, ".1g"), "2");
  assert.equal(op.formatPy(1e6, ".6g"), "1e+06");
  assert.equal(op.formatPy(123456.789, ",.6g"), "123,457");
  assert.equal(op.formatPy(0.0001234, ".4g"), "0.0001234");
  assert.equal(op.formatPy(0.00001234, ".4g"), "1.234e-05");
  assert.equal(op.formatPy(Infinity, ".6g"), "inf");
  assert.equal(op.formatPy(NaN, ".4g"), "nan");
  assert.equal(op.formatPy(0.5, ".4f"), "0.5000");
  assert.equal(op.formatPy(-0, "g"), "-0");
  assert.equal(op.capacityText(29926, 29926, 70074), "= 29,926 cases, 29.93 % of 100,000");
  assert.equal(op.formatRatio(123456.789, 1), "123,500");
  assert.equal(op.formatRatio(1, 0), "∞");
});

test("readable numbers: the docstring examples of model/kernels/readable.py", () => {
  assert.deepEqual([0.29995937, 57.543993733715666, 29926.0, 123456.0, 1e-7, -1.5].map(op.readable),
    ["0.3", "57.54", "29,926", "123,500", "1e-07", "-1.5"]);
  assert.equal(op.readable(-0), "0");
  assert.deepEqual([[0.30027084, 0.3001], [0.30027084, 0.1], [2.5, -1], [-0, -1], [0.1 + 0.2, null]]
    .map(([t, lo]) => op.selectingThreshold(t, lo)), ["0.3002", "0.3", "0", "0", "0.30000000000000004"]);
  assert.deepEqual([3.1879154963398624, 29926.0, 0.8250000000000001].map(op.readableValue),
    [3.188, 29926, 0.825]);
  assert.equal(op.roundSignificant(57.543993733715666, 3), 57.5);
});

test("the headline's HTML: the text escaped (names are user text), the qualifiers on a line of their own", () => {
  assert.equal(op.headlineHtml("a <b>; next"),
    "<div class='costwidget-headline-main' style='font-size:1.15em;font-weight:600;line-height:1.3'>" +
    "a &lt;b&gt;</div><div class='costwidget-headline-notes' style='font-size:0.92em;line-height:1.3'>" +
    "next</div>");
});

// Issue 31's classifier: y = [0,0,1,1,0,1,0,0,0,1], s = [.1,.4,.35,.8,.2,.7,.55,.3,.05,.6]
// (Classifier.from_scores(...) packed by frontend_payload.classifier_arrays).
const issue31 = op.makeClassifier("m", issue31Arrays());

test("decide: a limit that allows the cheapest rule does not change the answer (issue 31)", () => {
  const state = { p_pos: 0.4, cost_fn: 1, cost_fp: 4, constraint: "none" };
  const free = decide([issue31], state);
  assert.equal(free.headline, "Deploy m at score ≥ 0.59: 0.1 per case (FPR 0 %, TPR 75 %)");
  assert.equal(free.chosen, "m");
  for (const [extra, limit] of [[{ constraint: "neyman_pearson", max_fpr: 1 }, "the FPR limit 100 %"],
    [{ constraint: "neyman_pearson", max_fpr: 0.2 }, "the FPR limit 20 %"],
    [{ constraint: "workforce", capacity: 5, n_pos: 4, n_neg: 6 }, "the capacity of 5 cases"]]) {
    const d = decide([issue31], { ...state, ...extra });
    assert.equal(d.headline, `${free.headline}; ${limit} does not bind`);
    assert.equal(d.binding, false);
    close(d.rule.expected_cost, 0.1);
    assert.equal(d.rows[0][1].constrained_binding, false);
  }
  // A binding limit inside a hull edge: a mix, both thresholds with the digits that select.
  const mix = decide([issue31], { ...state, cost_fn: 40, constraint: "neyman_pearson", max_fpr: 0.25 });
  assert.equal(mix.headline, "Under the constraint, deploy m at score ≥ 0.34 with probability 0.75, " +
    "else at score ≥ 0.59: 1.6 per case (FPR 25 %, TPR 93.8 %); the FPR limit 25 % moves the rule " +
    "of m from score ≥ 0.34: +0.8 per case");
  // Two identical models: a tie, nothing chosen.
  const twin = op.makeClassifier("twin", issue31Arrays());
  const tie = decide([issue31, twin], state);
  assert.equal(tie.tie, true);
  assert.equal(tie.chosen, null);
  assert.deepEqual(tie.lowest, ["m", "twin"]);
  assert.equal(tie.headline, "Tie: 2 classifiers share the lowest cost, 0.1 per case; none is the best here");
  // The decision curve at the current p(+): 0.75 · 0.05 (not the data's prevalence).
  close(decide([issue31], { ...state, p_pos: 0.05 }).decision_curve.chosen, 0.0375);
});

function issue31Arrays() {
  return {
    hull_threshold: [Infinity, 0.6, 0.35, 0.05], hull_fpr: [0, 0, 1 / 3, 1], hull_tpr: [0, 0.75, 1, 1],
    segment_lo: [0, 4 / 7], segment_hi: [4 / 7, 1], segment_vertex: [1, 2],
    single_threshold: [Infinity, 0.8, 0.7, 0.6, 0.35], single_fpr: [0, 0, 0, 0, 1 / 3],
    single_tpr: [0, 0.25, 0.5, 0.75, 1], scalars: [4, 6, 0, 1],
    hull_next_score: [0.8, 0.55, 0.3, -Infinity],
  };
}
