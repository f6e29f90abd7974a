// The contract the node tests run under: the dict Python sends with every page's spec
// (costwidget.frontend.contract.page_contract), as `python -m costwidget.frontend.contract`
// wrote it to contract.json (tests/test_frontend_mirror.py holds the file equal to Python's).
// Importing this module gives it to operating_point.mjs, as bindPage does with spec.contract.

import { readFileSync } from "node:fs";

import * as OP from "../src/operating_point.mjs";

export const CONTRACT = OP.useContract(
  JSON.parse(readFileSync(new URL("./contract.json", import.meta.url), "utf8")));

/** The payload arrays a hand-made test payload must carry (the optional ones left out). */
export const REQUIRED_ARRAYS = CONTRACT.PAYLOAD_ARRAYS.filter(
  (k) => !CONTRACT.PAYLOAD_OPTIONAL_ARRAYS.includes(k));

/** The decision as JSON values, as Python's `decide(...).to_dict()` gives it. */
export const decide = (classifiers, state, known = {}) =>
  OP.jsonable(OP.decisionOf(classifiers, state, known));
