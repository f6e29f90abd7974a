"""`snapshot` and `restore` of a `CostWidget`, and the checks that refuse a malformed snapshot
before anything is changed (the format itself is `costwidget.export.snapshot_format`).

Used from the widget: state, classifiers, colors, readout, constrained, difference_intervals,
range_table, threshold_choice_view, decision, wait() and update().
"""

from __future__ import annotations

import dataclasses
import math

import traitlets as t

from ... import __version__
from ...export import snapshot_format as fmt
from ...export.snapshot_format import SnapshotError
from ...model import probability_cost
from ..state.state import WidgetState, traits_for
from ..text.caption import range_table

__all__ = ["snapshot", "restore", "SnapshotError", "INPUTS", "OPTIONAL_INPUTS"]


def snapshot(w) -> dict:
    """The current analysis as a plain, JSON-serialisable dict (see `snapshot_format`).

    Inputs (operating point, constraint, bands, difference pair, visible classifiers, range of
    interest) are what :func:`restore` sets; results (PCF(+), the constraint's answer, the
    significant intervals, the range table, the readout rows) record what they gave.
    """
    w.wait()
    s = w.state
    colors = dict(w.colors)
    readout = w.readout
    intervals = w.difference_intervals
    snap = {
        "format": fmt.FORMAT,
        "version": fmt.VERSION,
        "costwidget": __version__,
        "classifiers": [fmt.fingerprint(c, colors.get(c.name)) for c in w.classifiers],
    }
    # Every state trait tagged ``snapshot`` at its place; the results beside them.
    for name, (path, _) in {**INPUTS, **OPTIONAL_INPUTS}.items():
        value = getattr(s, name)
        _put(snap, path, list(value) if isinstance(value, list) else value)
    snap["operating_point"]["pcf"] = s.pcf
    # Whether the population follows p(+) (False) or was set.
    snap["constraint"]["population_set"] = s.population_set
    snap["constraint"]["result"] = {
        name: dataclasses.asdict(cp) for name, cp in w.constrained.items()
    }
    snap["difference"]["significant"] = [] if intervals is None else intervals.to_dict("records")
    table = range_table(w)
    snap["range_table"] = [] if table is None else table.reset_index().to_dict("records")
    snap["readout"] = readout.reset_index().to_dict("records")
    decision = w.decision  # the one answer, as every view shows it
    snap["decision"] = decision.to_dict()
    snap["decision_rule"] = _decision_rule_record(decision)  # the rule to deploy
    if w.per_case is not None:
        snap["per_case"] = _per_case_record(w, decision)
    snap["threshold_choice"]["at_operating_point"] = w.threshold_choice_view.choices.to_dict(
        "records"
    )
    return fmt.jsonable(snap)


def _put(snap: dict, path: str, value) -> None:
    """``snap[a][b] = value`` for ``path = "a.b"``, making the dicts on the way."""
    *parents, last = path.split(".")
    for key in parents:
        snap = snap.setdefault(key, {})
    snap[last] = value


def _per_case_record(w, decision) -> dict:
    """Per-case costs: what the multipliers multiply, the headline as shown (with the savings),
    and the savings against the best trivial rule."""
    pc = w.per_case
    saved = pc.savings(decision)
    return {
        "multiplier_labels": list(pc.labels),
        "cost_units": list(pc.units),
        "pinned": None if pc.pinned is None else list(pc.pinned),
        "headline": pc.headline(decision),
        "savings": None if saved is None else dataclasses.asdict(saved),
    }


def _decision_rule_record(decision):
    """The rule to deploy (``w.decision_rule().to_dict()``); None when nothing is shown or on a
    tie (``snap["decision"]`` names the tied classifiers in ``lowest``, with ``tie`` true)."""
    return None if decision.rule is None else decision.rule.to_dict()


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# What each kind of snapshot value must be: (check, words for the message).
_KINDS = {
    "number": (_is_number, "a number"),
    "bool": (lambda v: isinstance(v, bool), "true/false"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "names": (
        lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
        "a list of names",
    ),
    "numbers": (
        lambda v: isinstance(v, list) and all(_is_number(x) for x in v),
        "a list of numbers",
    ),
}


def _get(snap, path, kind):
    """``snap[a][b]`` for ``path = "a.b"``, checked to be of ``kind``; else a SnapshotError."""
    value = snap
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            raise SnapshotError(f"malformed snapshot: {path!r} is missing.")
        value = value[key]
    check, words = _KINDS[kind]
    if not check(value):
        raise SnapshotError(f"malformed snapshot: {path!r} must be {words}, got {value!r}.")
    return value


def _kind(trait) -> str:
    """What a state trait's snapshot value must be (a key of `_KINDS`)."""
    if isinstance(trait, t.Bool):
        return "bool"
    if isinstance(trait, t.Float):
        return "number"
    if isinstance(trait, t.List):
        return "numbers" if isinstance(trait._trait, t.Float) else "names"
    return "str"


def _inputs(optional: bool) -> dict:
    """State trait -> (where the snapshot keeps it, what it must be), from the `WidgetState`
    tags ``snapshot`` and ``snapshot_optional``."""
    traits = WidgetState.class_traits()
    return {
        name: (traits[name].metadata["snapshot"], _kind(traits[name]))
        for name in traits_for("snapshot")
        if bool(traits[name].metadata.get("snapshot_optional")) == optional
    }


#: The state traits every snapshot records, and those older snapshots may lack (their record
#: missing, the trait takes its default).
INPUTS = _inputs(optional=False)
OPTIONAL_INPUTS = _inputs(optional=True)


def _traits_from(snap, units=(1.0, 1.0)) -> dict:
    """The state traits a snapshot sets, checked for presence and type; ``units`` are the
    costs of multiplier 1 (per-case costs, ``state.cost_units``), or ``units(p_pos, cost_fn,
    cost_fp)`` where they move with the setting (`PerCaseCosts.units_at`)."""
    if not isinstance(snap, dict):
        raise SnapshotError(
            f"a snapshot is a dict (from w.snapshot() or json.load), got a {type(snap).__name__}."
        )
    if snap.get("format") != fmt.FORMAT:
        raise SnapshotError(
            f"not a costwidget snapshot: 'format' is {snap.get('format')!r}, "
            f"expected {fmt.FORMAT!r}."
        )
    version = snap.get("version")
    if version != fmt.VERSION:
        raise SnapshotError(
            f"snapshot format version {version!r} is not readable by costwidget "
            f"{__version__}, which reads version {fmt.VERSION}."
        )
    traits = {trait: _get(snap, path, kind) for trait, (path, kind) in INPUTS.items()}
    pcf = _get(snap, "operating_point.pcf", "number")
    try:
        if callable(units):
            units = units(traits["p_pos"], traits["cost_fn"], traits["cost_fp"])
        fn, fp = traits["cost_fn"] * units[0], traits["cost_fp"] * units[1]
        expected = float(probability_cost(traits["p_pos"], fn, fp))
    except ValueError as exc:
        raise SnapshotError(f"malformed snapshot: its operating point is invalid: {exc}") from None
    if not math.isclose(pcf, expected, rel_tol=1e-12, abs_tol=1e-15):
        raise SnapshotError(
            f"malformed snapshot: pcf {pcf!r} does not follow from p_pos, cost_fn "
            f"and cost_fp (which give {expected!r})."
        )
    return {k: (float(v) if _is_number(v) else v) for k, v in traits.items()}


def _check_on_scratch_state(w, traits):
    """Run every trait's own validation on a throw-away state, so nothing is set unless all pass."""
    from ..state.state import WidgetState

    scratch = WidgetState(names=list(w.state.names))
    try:
        with scratch.hold_trait_notifications():
            for name, value in traits.items():
                setattr(scratch, name, value)
    except Exception as exc:  # noqa: BLE001 - the trait's message says what is wrong
        raise SnapshotError(f"snapshot refused, nothing was changed: {exc}") from None


def restore(w, snap) -> None:
    """Bring the widget back to a snapshot taken over the same classifiers.

    Refuses (``SnapshotError``, a ``ValueError``, with what is wrong) a malformed snapshot, one of
    another format version, or one of other classifiers; the widget is then left unchanged.
    """
    per_case = getattr(w, "per_case", None)
    moves = per_case is not None and per_case.moves
    traits = _traits_from(snap, per_case.units_at if moves else w.state.cost_units)
    theirs = snap.get("classifiers")
    if not isinstance(theirs, list) or not all(isinstance(c, dict) for c in theirs):
        raise SnapshotError("malformed snapshot: 'classifiers' must be a list of fingerprints.")
    problems = fmt.compare_fingerprints(theirs, [fmt.fingerprint(c) for c in w.classifiers])
    if problems:
        raise SnapshotError(
            "this snapshot is for other classifiers, nothing was changed: "
            + "; ".join(problems)
            + "."
        )
    traits.update(_optional_inputs(snap))
    following = _population_follows(snap)
    _check_on_scratch_state(w, traits)
    w.update(**traits)  # all or nothing, like the scratch check
    if following:  # setting n_pos/n_neg marked the population as set; it was following p(+)
        w.state.follow_population()
    else:
        w.state.population_set = True
    w.wait()


def _population_follows(snap) -> bool:
    """Whether the snapshot's workforce population follows p(+). Older snapshots have
    no flag: their population was set, as every population was then."""
    flag = snap["constraint"].get("population_set", True)
    if not isinstance(flag, bool):
        raise SnapshotError(
            f"malformed snapshot: 'constraint.population_set' must be true/false, got {flag!r}."
        )
    return not flag


def _optional_inputs(snap) -> dict:
    """The traits of `OPTIONAL_INPUTS` from a snapshot, by their tag ``snapshot_optional``: a
    record older snapshots lack leaves the trait as it is ("keep") or sets its default
    ("default"); in a record that is there, a missing key is the default ("keep") or an error."""
    out = {}
    traits = WidgetState.class_traits()
    for name, (path, kind) in OPTIONAL_INPUTS.items():
        record, _, key = path.partition(".")
        policy = traits[name].metadata["snapshot_optional"]
        if record not in snap:
            if policy == "default":
                out[name] = traits[name].default()
            continue
        if policy == "keep" and isinstance(snap[record], dict) and key not in snap[record]:
            out[name] = traits[name].default()
            continue
        out[name] = _get(snap, path, kind)
    return out
