"""The contract between the Python package and the page's front end (``js/src``).

The front end computes the operating point, the constraint, the readout and the decision again
in the browser, so that a control move is drawn in the next frame with or without a kernel. Two
languages then need the same facts. Every such fact has its home here, and Python sends them to
the front end (`page_contract`, as ``spec["contract"]`` of `costwidget.widget.output.page_spec`
and the live link's ``contract`` trait); ``js/src`` declares none of them and reads them with
``useContract`` (``js/src/operating_point.mjs``). The node tests read the same dict from
``js/test/contract.json``, which ``python -m costwidget.frontend.contract`` writes and
``tests/test_frontend_mirror.py`` holds equal to this module.

`MIRROR` lists every function the front end computes again (JS name -> the Python function it
mirrors, operation for operation), and `GLUE` every other export of ``js/src`` (decoding, HTML,
binding the page's models). ``tests/test_frontend_mirror.py`` fails when a JS export is in
neither, when a mirror row has no parity case, or when either side of a row has no caller
outside the tests.

Per-case costs (:mod:`costwidget.widget.state.per_case_costs`). The page mirrors a widget whose
cases carry their own costs exactly where no case changes side as the multipliers and p(+)
move and the costs are given case by case (`mirrors_per_case`: ``multiplier_units`` is not
None and the costs are not summed by an engine). Its classifiers are then the cost-weighted
twins, whose ROC is the same at every multiplier and p(+), sent once with each hull vertex's
FPR and TPR counted on the cases (``hull_counted_fpr``/``hull_counted_tpr``); the page is told
the units ``(u_fn, u_fp)`` (the classes' mean costs) and the floor ``F / W`` of money per case
(``spec["per_case"]``, `costwidget.widget.output.page_spec.per_case_spec`), and recomputes on
every move of p(+) and the two multipliers (`PER_CASE_MIRRORED`): PCF(+) at ``C(-|+) =
m_fn·u_fn``, ``C(+|-) = m_fp·u_fp`` (as ``state.pcf``), the twins' marks, the decision (which
classifier, which threshold), its money per case (NEC times ``p·C(-|+) + (1 - p)·C(+|-)``,
plus the floor), the headline with the rates counted in cases and the savings against the best
trivial rule (`per_case_savings`, `savings_words`), and the readout. The kernel decides on twins
it weighs again from the cases at each multiplier and p(+), summed in another order: its
money per case equals the page's to rounding (within 1e-12 of ``p·C(-|+) + (1 - p)·C(+|-)``,
or 1e-10 relative), not to the last bit, while the choice, the threshold, PCF(+) and the words
are the same (``tests/test_frontend_case_costs.py``). The runner-up's band (the kernel's paired
bootstrap of the cases with their costs) is said by the page where it fits the page's own
choice, PCF(+) and rules, as for per-class widgets.

A Neyman-Pearson or workforce limit counts the cases at every threshold
(:mod:`costwidget.model.decisions.case_limits`), which the page does not hold: under a limit
the live page hands the decision to the kernel (`FrontendLink.attached` is False meanwhile, so
the kernel draws every mark and table) and draws nothing itself; an exported page disables the
limit's controls (`PER_CASE_KERNEL_ROLES`, with `PER_CASE_REFUSED_LIMIT` as their tooltip) and
is exported static when a limit is on. Widgets whose cases change sides (a ``cost_tp`` on
positives, a ``cost_tn`` on negatives, a negative error cost, fees) and costs summed by an
engine keep no live link: the kernel draws everything, and an exported page is static, with its
note.
"""

from __future__ import annotations

import json
import sys

from ..model import CONSTRAINTS, multiplier_units
from ..widget.state.state import traits_for

__all__ = [
    "CONSTRAINTS",
    "PAYLOAD_FORMAT",
    "PAYLOAD_VERSION",
    "PAYLOAD_ARRAYS",
    "PAYLOAD_OPTIONAL_ARRAYS",
    "SINGLE_ARRAYS",
    "THRESHOLD_DIGITS",
    "THRESHOLD_RELATIVE_BOUND",
    "THRESHOLD_KEYS",
    "STATE_KEYS",
    "CONTROL_ROLES",
    "OWNED_ROLES",
    "READOUT_COLUMNS",
    "HONEST_COLUMNS",
    "CONSTRAINT_COLUMNS",
    "TEXT_COLUMNS",
    "RATIO_DECADES",
    "RATIO_STEP",
    "GESTURE_DIGITS",
    "CAPACITY_LABEL",
    "UNKNOWN_COLOR",
    "BEST_ROW_STYLE",
    "PER_CASE_NOTE",
    "PER_CASE_REFUSED_LIMIT",
    "PER_CASE_KERNEL_ROLES",
    "PER_CASE_ONE_SIDED",
    "PER_CASE_MIRRORED",
    "mirrors_per_case",
    "MIRROR",
    "GLUE",
    "page_contract",
]

# ------------------------------------------------------------------------------------ the payload
#: The payload format the front end reads (`costwidget.widget.output.frontend_payload`).
PAYLOAD_FORMAT = "costwidget-operating-point"
PAYLOAD_VERSION = 2
#: The float64 arrays of each classifier, in the order they are packed.
PAYLOAD_ARRAYS = (
    "hull_threshold",
    "hull_fpr",
    "hull_tpr",
    "segment_lo",
    "segment_hi",
    "segment_vertex",
    "single_threshold",
    "single_fpr",
    "single_tpr",
    "scalars",
    "hull_next_score",
    "hull_counted_fpr",
    "hull_counted_tpr",
)
#: Those of PAYLOAD_ARRAYS the front end decodes only when the header names them (Python always
#: sends ``hull_next_score``; a payload made by hand in a node test may lack it), and the hull
#: vertices' rates counted on the cases, sent for per-case costs only.
PAYLOAD_OPTIONAL_ARRAYS = ("hull_next_score", "hull_counted_fpr", "hull_counted_tpr")
#: The arrays that may instead travel as one varint buffer
#: (`costwidget.widget.output.single_varints.encode_single`).
SINGLE_ARRAYS = ("single_threshold", "single_fpr", "single_tpr")
#: Significant digits an encoded single candidate's threshold keeps.
THRESHOLD_DIGITS = 6
#: |decoded - exact| <= THRESHOLD_RELATIVE_BOUND * |exact| for an encoded threshold: half a unit
#: in the 6th significant digit (5e-6 of a number whose leading digit is 1) plus two units in
#: the last place of a double.
THRESHOLD_RELATIVE_BOUND = 5e-6 + 2 * 2.0**-52
#: The order-preserving keys of encoded thresholds: the keys of ±inf and NaN lie beyond every
#: finite threshold's key; decimal exponents of doubles lie in [-324, 308], shifted by
#: ``exponent_offset`` to be >= 0.
THRESHOLD_KEYS = {"inf": 1 << 40, "nan": 1 << 41, "exponent_offset": 400}

# ------------------------------------------------------------------------------------ the state
#: The state keys the front end reads and sends back: the `WidgetState` traits tagged
#: ``page=True``, and whether the workforce population was set (a plain attribute of the
#: state: n_pos and n_neg mean "set" or "following p(+)" only with it).
STATE_KEYS = (*traits_for("page"), "population_set")

# ------------------------------------------------------------------------------------ the roles
#: The controls the page binds, by role (`page_spec` maps each role to its model's id): every
#: other control needs Python, and an exported page shows it disabled (`page_limits`).
CONTROL_ROLES = (
    "p_pos",
    "p_pos_value",
    "cost_fn",
    "cost_fp",
    "log_ratio",
    "constraint",
    "max_fpr",
    "capacity",
    "capacity_unit",
    "n_pos",
    "n_neg",
)
#: What the front end writes, one writer each: the kernel writes none of them while it is
#: attached, and an exported page has no kernel.
OWNED_ROLES = (
    "iso_lines",
    "chosen",
    "operating_line",
    "nec_points",
    "winner_dot",
    "handle",
    "roc_line",
    "roc_points",
    "cost_lines",
    "readout",
    "constrained_readout",
    "pcf",
    "ratio_text",
    "capacity_value",
    "message",
    "neyman_pearson_layout",
    "workforce_layout",
    "headline",
    "population_value",
)

# ------------------------------------------------------------------------------------ the readout
#: (header in words, its tooltip, the ``w.readout`` column) of the main table.
READOUT_COLUMNS = (
    ("threshold", "deploy: positive when score ≥ threshold", "threshold"),
    ("false-pos. rate", "false-positive rate, FPR", "fpr"),
    ("true-pos. rate", "true-positive rate, TPR", "tpr"),
    ("norm. expected cost", "normalized expected cost (NEC), the cost pane's y axis", "nec"),
    ("expected cost per case", "in the units of C(−|+) and C(+|−)", "expected_cost"),
    ("operating range, PCF(+)", "where it beats both trivial classifiers", "range_lo"),
)
#: With the honest curves shown, the cost on new data of the same threshold.
HONEST_COLUMNS = (
    (
        "norm. cost on new data",
        "NEC of this threshold's tuning on cases it was not tuned on (cw.honest_cost)",
        "nec_honest",
    ),
    ("cost per case on new data", "in the units of C(−|+) and C(+|−)", "expected_cost_honest"),
)
#: The same for the table of an active constraint.
CONSTRAINT_COLUMNS = (
    ("false-pos. rate", "false-positive rate under the constraint", "constrained_fpr"),
    ("true-pos. rate", "true-positive rate under the constraint", "constrained_tpr"),
    (
        "norm. expected cost",
        "normalized expected cost (NEC) under the constraint",
        "constrained_nec",
    ),
    ("expected cost per case", "in the units of C(−|+) and C(+|−)", "constrained_expected_cost"),
    (
        "rule to deploy",
        "randomized between two thresholds when the limit falls between ROC points",
        "constrained_rule",
    ),
    ("best single threshold", "the best rule without randomizing", "best_single_threshold"),
)
#: Columns of words (left-aligned, wrapping), not numbers.
TEXT_COLUMNS = ("constrained_rule",)

# ------------------------------------------------------------------------------------ the controls
#: The cost-ratio slider spans 10^-2 .. 10^2 (it grows to hold any finite ratio the costs make),
#: in steps of RATIO_STEP decades.
RATIO_DECADES = 2.0
RATIO_STEP = 0.01
#: Significant digits of a value that comes from a gesture: p(+) after a click or drag in the
#: cost pane, and the cost ratio from its slider.
GESTURE_DIGITS = 3
#: The capacity slider's description in each unit (the unit is part of what the number means).
CAPACITY_LABEL = {
    "cases": "capacity (cases flagged)",
    "% flagged": "capacity (% of cases flagged)",
}

# ------------------------------------------------------------------------------- the tables' look
#: The swatch of a classifier the widget gave no colour.
UNKNOWN_COLOR = "#999999"
#: The style of the readout's highlighted row (the cheapest classifier); the CSS variables let a
#: dark theme recolour it.
BEST_ROW_STYLE = "background:var(--cw-best-bg,#eee);color:var(--cw-best-fg,#000);font-weight:bold"

# ------------------------------------------------------------------------------------ per-case costs
#: The readout's note for per-case costs (the kernel's table and the page's).
PER_CASE_NOTE = (
    "Highlighted: the lowest expected cost (none when several tie). Costs per case: expected "
    "cost per case is money, every outcome counted, each case's costs times the multipliers; "
    "the rates and the normalized expected cost are of the cost-weighted cases. The same "
    "numbers are in <code>w.readout</code>."
)
#: Why the page does not decide under a limit with per-case costs (the refusal and the tooltip
#: of the limit's controls in an exported page).
PER_CASE_REFUSED_LIMIT = (
    "with per-case costs a limit counts the cases at every threshold, which this page does "
    "not hold: the kernel decides under a limit (an exported page has none)"
)


def _one_sided_words() -> dict:
    """The model's refusal of multipliers and a p(+) that leave one side of the cost-weighted
    ROC without weight (a multiplier 0, p(+) 0 or 1), by the side that has none: what
    `cost_weighted` says of a multiplier 0."""
    from ..model import Classifier, cost_weighted

    clf = Classifier.from_scores([1, 0], [1.0, 0.0], cost_fn=1.0, cost_fp=1.0)
    words = {}
    for side, multipliers in (("flagged", (0.0, 1.0)), ("passed", (1.0, 0.0))):
        try:
            cost_weighted(clf, *multipliers)
        except ValueError as exc:
            words[side] = str(exc)
    # The page throws these words: a model that stopped refusing would leave it none to say.
    missing = {"flagged", "passed"} - set(words)
    if missing:
        raise RuntimeError(f"cost_weighted no longer refuses a one-sided setting: {missing}")
    return words


#: Where no case changes side, a multiplier 0 (or p(+) 0, 1) leaves no case cheaper flagged
#: ("flagged": m_fn or p(+) is 0) or none cheaper passed ("passed": m_fp is 0 or p(+) 1): the
#: kernel refuses the move, and so does the page, in the model's words.
PER_CASE_ONE_SIDED = _one_sided_words()
#: The controls of a limit: the kernel's with per-case costs (disabled in an exported page).
PER_CASE_KERNEL_ROLES = ("constraint", "max_fpr", "capacity", "capacity_unit", "n_pos", "n_neg")
#: What the page recomputes for a per-case widget it mirrors, on moves of p(+) and the two
#: multipliers (the module's docstring).
PER_CASE_MIRRORED = (
    "pcf",
    "marks",
    "decision",
    "money per case",
    "headline",
    "savings",
    "counted rates",
    "readout",
)


def mirrors_per_case(classifiers) -> bool:
    """Whether the page mirrors a widget over these classifiers with per-case costs: no case
    changes side as the multipliers and p(+) move (`multiplier_units`), and the costs are given
    case by case (not summed by an engine). False for per-class classifiers.

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_scores([1, 0, 1, 0], [.9, .2, .6, .4], cost_fn=[10.0, 0, 30.0, 0],
    ...                               cost_fp=2.0)
    >>> fee = cw.Classifier.from_scores([1, 0], [.9, .2], cost_fn=5.0, cost_fp=1.0, cost_tp=1.0)
    >>> mirrors_per_case([a]), mirrors_per_case([fee])
    (True, False)
    """
    first = classifiers[0] if classifiers else None
    cc = getattr(first, "case_costs", None)
    if cc is None or not hasattr(cc, "tp"):
        return False
    return all(multiplier_units(c) is not None for c in classifiers)


# ------------------------------------------------------------------------------------ the mirror
#: Every function the front end computes again: JS export -> the Python function it mirrors
#: (``module:qualified name``), operation for operation, so that both give the same doubles and
#: the same words. tests/test_frontend_parity.py holds each pair equal.
MIRROR = {
    # operating_point.mjs
    "probabilityCost": "costwidget.model.kernels.costs:probability_cost",
    "costScale": "costwidget.model.kernels.costs:cost_scale",
    "isoPerformanceSlope": "costwidget.model.kernels.costs:iso_performance_slope",
    "best": "costwidget.model.classifier.classifier:Classifier.best",
    "neymanPearson": "costwidget.model.classifier.classifier:Classifier.neyman_pearson",
    "workforce": "costwidget.model.classifier.classifier:Classifier.workforce",
    "isoPerformanceSegment": "costwidget.model.kernels.geometry:iso_performance_segment",
    "workforceSegment": "costwidget.model.kernels.geometry:workforce_segment",
    "decisionOf": "costwidget.model.decisions.decide:decide",
    "readoutHtml": "costwidget.widget.text.readout:readout_html",
    "constraintHtml": "costwidget.widget.text.readout:constraint_html",
    "constraintDescription": "costwidget.widget.text.readout:constraint_description",
    "populationText": "costwidget.widget.text.readout:population_text",
    "headlineHtml": "costwidget.widget.text.headline:headline_html",
    "pcfLabel": "costwidget.widget.tools.operating_point:pcf_label",
    "formatRatio": "costwidget.widget.tools.operating_point:format_ratio",
    "capacityText": "costwidget.widget.tools.constraint:capacity_text",
    "readable": "costwidget.model.kernels.readable:readable",
    "readableValue": "costwidget.model.kernels.readable:readable_value",
    "roundSignificant": "costwidget.model.kernels.readable:round_significant",
    "selectingThreshold": "costwidget.model.kernels.readable:selecting_threshold",
    "deployedThreshold": "costwidget.model.kernels.readable:deployed_threshold",
    "thresholdText": "costwidget.model.kernels.readable:threshold_text",
    # page_bind.mjs
    "costsForRatio": "costwidget.model.decisions.operating:costs_for_ratio",
    "costsForPcf": "costwidget.model.decisions.operating:costs_for_pcf",
    "prevalenceForPcf": "costwidget.model.decisions.operating:prevalence_for_pcf",
    "snapPcf": "costwidget.model.decisions.operating:snap_pcf",
    "moveToPcf": "costwidget.model.decisions.operating:move_to_pcf",
    "populationFor": "costwidget.model.decisions.operating:population_for",
    "capacityToCases": "costwidget.model.decisions.operating:capacity_to_cases",
    "capacityFromCases": "costwidget.model.decisions.operating:capacity_from_cases",
    # operating_point.mjs, per-case costs
    "perCaseDecision": "costwidget.widget.state.per_case_costs:PerCaseCosts.headline",
    "perCaseSavings": "costwidget.model.decisions.per_case:per_case_savings",
    "savingsWords": "costwidget.model.decisions.decision_words:savings_words",
}
#: Every other export of js/src: reading what Python sent, drawing, binding the page's models,
#: and Python's own formatting, none of which has a Python twin to keep equal.
GLUE = (
    # operating_point.mjs
    "useContract",
    "contract",
    "bufferBytes",
    "base64ToBytes",
    "decodePayload",
    "makeClassifier",
    "computeView",
    "formatPy",
    "jsonable",
    "escapeHtml",
    "perCaseView",
    # page_bind.mjs
    "bindPage",
    "installTypedRefusals",
    "changedKeys",
    # live_link.mjs
    "bindLive",
    "steppedValue",
    "installArrowKeys",
    "register",
    "bindFrontEnd",
    "default",
)


def page_contract() -> dict:
    """The contract as the front end reads it: a JSON-able dict of the facts above.

    Examples
    --------
    >>> from costwidget.frontend.contract import page_contract
    >>> page_contract()["CONSTRAINTS"]
    ['none', 'neyman_pearson', 'workforce']
    """
    facts = {name: globals()[name] for name in __all__ if name not in ("MIRROR", "GLUE")}
    facts.pop("page_contract")
    facts.pop("mirrors_per_case")
    return json.loads(json.dumps(facts))


if __name__ == "__main__":  # python -m costwidget.frontend.contract > js/test/contract.json
    json.dump(page_contract(), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
