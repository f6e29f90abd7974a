// The node side of tests/test_frontend_case_costs.py's page test: an exported page's glue
// (page_bind.mjs bindPage, no kernel) over stand-in models that start from the widget's embedded
// state, fed control moves as a user makes them; after each move, what the page shows.
//
//   node js/test/page_moves_runner.mjs < {"spec", "models": {id: attrs}, "moves": [[role, value]]}
//
// Answers one JSON line: [{headline, pcf, readout, banner, state}] after each move.

import { readFileSync } from "node:fs";
import * as OP from "../src/operating_point.mjs";
import { bindPage } from "../src/page_bind.mjs";

function model(attrs) {
  const handlers = {};
  const fire = (event, ...args) => { for (const h of handlers[event] || []) h(...args); };
  return {
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
    save_changes() {},
  };
}

const input = JSON.parse(readFileSync(0, "utf-8"));
const models = Object.fromEntries(Object.entries(input.models).map(([id, a]) => [id, model(a)]));
const page = bindPage(OP, input.spec, (id) => models[id]);
const m = (role) => models[input.spec.roles[role]];
const tick = () => new Promise((r) => setTimeout(r, 0));
const out = [];
for (const [role, value] of input.moves) {
  if (role === "constraint") m(role).set("index", input.spec.options.constraint.indexOf(value));
  else if (role === "handle") m(role).set("x", [value]); // a drag of the handle ends there
  else m(role).set("value", value);
  await tick();
  out.push({ headline: m("headline").get("value"), pcf: m("pcf").get("value"),
    readout: m("readout").get("value"), banner: m("errors").get("value"),
    state: { p_pos: page.state.p_pos, cost_fn: page.state.cost_fn, cost_fp: page.state.cost_fp,
      constraint: page.state.constraint } });
}
process.stdout.write(`${JSON.stringify(out)}\n`);
