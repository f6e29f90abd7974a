"""What an interactive exported page needs to move the operating point with no kernel.

``js/src/page_bind.mjs`` binds the widget's controls to the marks and tables that depend only on
the operating point and the constraint. It finds them by *role*: this module maps each role to
the id of the widget model that plays it, and adds the contract (`costwidget.frontend.contract`:
every fact the front end shares with Python), the state the controls start from, the
classifiers' colours and the classifiers themselves as a base64 binary payload
(`frontend_payload`). Everything here is data (numbers, names, model ids); the page never
evaluates any of it as code.

A widget with per-case costs the page mirrors (`costwidget.frontend.contract.mirrors_per_case`)
sends its cost-weighted twins, with their hull vertices' rates counted on the cases, and
``spec["per_case"]`` (`per_case_spec`): the units and the floor of money per case.
"""

from __future__ import annotations

import base64

from ...frontend.contract import STATE_KEYS, mirrors_per_case, page_contract
from ...model import cost_weighted
from .frontend_payload import hull_counted_rates, pack_classifiers

__all__ = [
    "page_spec",
    "live_spec",
    "state_values",
    "honest_values",
    "front_end_state",
    "per_case_spec",
    "page_mirrors",
]


def _roles(w) -> dict:
    op, con, rd = w.operating_tool, w.constraint_tool, w.readout_view
    models = {
        # controls
        "p_pos": op.p_pos,
        "p_pos_value": op.p_pos_value,
        "cost_fn": op.cost_fn,
        "cost_fp": op.cost_fp,
        "log_ratio": op.log_ratio,
        "constraint": con.constraint,
        "max_fpr": con.max_fpr,
        "capacity": con.capacity,
        "capacity_unit": con.capacity_unit,
        "n_pos": con.n_pos,
        "n_neg": con.n_neg,
        # what the page draws
        "iso_lines": op.iso_lines,
        "chosen": op.chosen,
        "operating_line": op.operating_line,
        "nec_points": op.nec_points,
        "winner_dot": op.winner_dot,
        "handle": op.handle,
        "pcf": op.pcf,
        "ratio_text": op.ratio_text,
        "roc_line": con.roc_line,
        "roc_points": con.roc_points,
        "cost_lines": con.cost_lines,
        "capacity_value": con.capacity_value,
        "message": con.message,
        "neyman_pearson_layout": con.neyman_pearson_box.layout,
        "workforce_layout": con.workforce_box.layout,
        "readout": rd.widget,
        "constrained_readout": rd.constrained_widget,
        "headline": w.headline.widget,
        "click_bars": op.click_bars,
        # the error banner: written by the page only when no kernel is attached
        "errors": w.errors.widget,
        "errors_layout": w.errors.widget.layout,
        "population_value": con.population_value,
    }
    return {role: model.model_id for role, model in models.items()}


def _option_values(selection) -> list:
    return [o[1] if isinstance(o, tuple) else o for o in selection.options]


def state_values(state) -> dict:
    """The front end's state keys of a `WidgetState`, as JSON-able values."""
    values = {k: getattr(state, k) for k in STATE_KEYS}
    values["visible"] = list(values["visible"])
    return values


def honest_values(w) -> dict:
    """The honest curves on screen as ``{name: {"pcf": [...], "nec": [...]}}``: the
    front end's ``decide`` reads them (operating_point.mjs ``withHonest``), as the kernel's
    decision does."""
    return {
        n: {"pcf": c["pcf"].tolist(), "nec": c["nec"].tolist()}
        for n, c in w.honest_layer.drawn.items()
    }


def front_end_state(w) -> dict:
    """What the front end draws from: the state keys and the honest curves on screen."""
    return {**state_values(w.state), "honest": honest_values(w)}


def page_mirrors(w) -> bool:
    """Whether the page recomputes ``w``: per-class costs always, per-case costs where
    `mirrors_per_case` says so (the kernel draws the others)."""
    return getattr(w, "per_case", None) is None or mirrors_per_case(w.classifiers)


def per_case_spec(w) -> dict | None:
    """What the page needs of a per-case widget it mirrors, None for per-class costs:
    ``{"units": [u_fn, u_fp], "floor": F / W}``, the multipliers' per-class costs
    (`multiplier_units`, as ``state.cost_units``) and what every rule costs per case beyond
    NEC times ``p·C(-|+) + (1 - p)·C(+|-)`` (``CostSetting.offset``: 0 where no case changes
    side, sent all the same, as the kernel adds it)."""
    pc = getattr(w, "per_case", None)
    if pc is None:
        return None
    _p, _n, floor, total = cost_weighted(w.classifiers[0])[1]
    return {"units": [float(u) for u in pc.units], "floor": float(floor) / float(total)}


def _payload(w):
    """The classifiers the page draws: the twins (with their hull's rates counted on the cases)
    for per-case costs."""
    pc = getattr(w, "per_case", None)
    if pc is None:
        return pack_classifiers([(c.name, c) for c in w.classifiers])
    extra = {t.name: hull_counted_rates(t, g) for t, g in zip(pc.twins, pc.given)}
    return pack_classifiers([(t.name, t) for t in pc.twins], extra)


def live_spec(w) -> dict:
    """What the live link (`frontend_link`) sends once: the spec with the classifiers as raw
    ``bytes`` buffers (ipywidgets carries them as binary, not JSON)."""
    header, buffers = _payload(w)
    return {
        "per_case": per_case_spec(w),
        "contract": page_contract(),
        "roles": _roles(w),
        "state": front_end_state(w),
        "colors": dict(w.colors),
        # Selection widgets hold an index in the browser: their values, in order.
        "options": {
            "constraint": _option_values(w.constraint_tool.constraint),
            "capacity_unit": _option_values(w.constraint_tool.capacity_unit),
        },
        "header": header,
        "buffers": buffers,
    }


def page_spec(w) -> dict:
    """The JSON-able spec `page_bind.mjs` reads: roles, state, colours and the payload."""
    spec = live_spec(w)
    header, buffers = spec.pop("header"), spec.pop("buffers")
    spec["payload"] = {
        "header": header,
        "buffers": [base64.b64encode(b).decode("ascii") for b in buffers],
    }
    # The runner-up's band as exported: the page says it while its state is this one.
    band = w.decision.runner_up_band
    spec["runner_up_band"] = None if band is None else band.to_dict()
    return spec
