"""Snapshots: every field round-trips through JSON exactly; restore refuses, changing nothing,
what is malformed or made over other classifiers; recorded results match the model."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import math

import numpy as np
import pytest

import costwidget as cw
from costwidget.export import snapshot_format as fmt
from costwidget.widget import CostWidget, export
from costwidget.widget.state.state import WidgetState

# Inputs a snapshot records and restore sets (pcf, names and busy are derived or fixed).
INPUTS = (
    "p_pos",
    "cost_fn",
    "cost_fp",
    "constraint",
    "max_fpr",
    "capacity",
    "n_pos",
    "n_neg",
    "show_cost_lines",
    "show_bands",
    "band_level",
    "show_fold_spread",
    "difference",
    "visible",
    "range_of_interest",
)
INPUTS += ("threshold_choice", "show_decision_curve")  # issue 21: an optional record
INPUTS += ("show_honest", "honest_strip")  # issue 32: an optional record
NON_DEFAULT = dict(
    p_pos=0.23,
    cost_fn=4.5,
    cost_fp=1.25,
    constraint="workforce",
    max_fpr=0.07,
    capacity=55.0,
    n_pos=120.0,
    n_neg=180.0,
    show_bands=True,
    band_level=0.8,
    show_fold_spread=True,
    difference=["weak", "good"],
    visible=["good", "weak"],
    range_of_interest=[0.2, 0.45],
    show_cost_lines=True,
    threshold_choice="score+rate",
    show_decision_curve=True,
    show_honest=True,
    honest_strip=True,
)


def _classifiers(seed=7, n=240):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    folds = np.arange(n) % 3
    scores = {
        "good": y * 1.3 + rng.normal(size=n),
        "weak": y * 0.5 + rng.normal(size=n),
        "mid": y * 0.9 + rng.normal(size=n),
    }
    return [
        cw.Classifier.from_scores(y, np.round(s, 2), name=name, folds=folds)
        for name, s in scores.items()
    ]


@pytest.fixture(scope="module")
def classifiers():
    return _classifiers()


@pytest.fixture()
def widget(classifiers):
    w = CostWidget(classifiers)
    yield w
    w.close()


@pytest.fixture(scope="module")
def analysed(classifiers):
    """A widget with every input away from its default, and its snapshot."""
    w = CostWidget(classifiers)
    w.update(**NON_DEFAULT)
    w.wait(timeout=300)
    yield w, export.snapshot(w)
    w.close()


def _inputs(w):
    return {t: copy.deepcopy(getattr(w.state, t)) for t in INPUTS}


def test_every_state_trait_is_recorded():
    # A trait added to the state later must be added to the snapshot (or listed as derived).
    traits = set(WidgetState.class_trait_names()) - {"pcf", "names", "busy"}
    assert traits == set(INPUTS)


def test_snapshot_is_plain_json_and_round_trips_exactly(analysed):
    _, snap = analysed
    text = json.dumps(snap, allow_nan=False)  # strict JSON: no NaN, no Infinity
    assert json.loads(text) == snap
    assert snap["format"] == "costwidget.snapshot" and snap["version"] == 1
    assert set(snap) == {
        "format",
        "version",
        "costwidget",
        "classifiers",
        "operating_point",
        "constraint",
        "visible",
        "bands",
        "display",
        "difference",
        "range_of_interest",
        "range_table",
        "readout",
        "decision_rule",
        "threshold_choice",
        "decision",  # issue 31: the one answer, Decision.to_dict()
        "honest",
    }  # issue 32
    assert snap["range_of_interest"] == [0.2, 0.45]
    assert [r["classifier"] for r in snap["range_table"]] == NON_DEFAULT["visible"]


def test_restore_brings_back_every_field(analysed, classifiers):
    a, snap = analysed
    b = CostWidget(classifiers)
    try:
        before = _inputs(b)
        # Every input starts elsewhere, so each one must really be restored.
        b.range_of_interest = [0.5, 0.7]
        assert all(before[t] != NON_DEFAULT[t] for t in INPUTS), before
        export.restore(b, json.loads(json.dumps(snap)))
        b.wait(timeout=300)
        assert _inputs(b) == _inputs(a) == {t: NON_DEFAULT[t] for t in INPUTS}
        assert b.pcf == a.pcf
        assert export.snapshot(b) == snap
    finally:
        b.close()


def test_recorded_results_match_the_model(analysed, classifiers):
    w, snap = analysed
    by_name = {c.name: c for c in classifiers}
    p, cfn, cfp = NON_DEFAULT["p_pos"], NON_DEFAULT["cost_fn"], NON_DEFAULT["cost_fp"]
    pcf = p * cfn / (p * cfn + (1 - p) * cfp)  # eq. 6, independently
    assert snap["operating_point"]["pcf"] == pytest.approx(pcf, rel=1e-15)
    rows = {r["classifier"]: r for r in snap["readout"]}
    assert list(rows) == NON_DEFAULT["visible"]
    for name, row in rows.items():
        roc = by_name[name].roc
        nec = ((1 - roc.tpr - roc.fpr) * pcf + roc.fpr).min()  # every ROC point's cost line
        assert row["nec"] == pytest.approx(nec, abs=1e-12)
        assert row["expected_cost"] == pytest.approx(nec * (p * cfn + (1 - p) * cfp), abs=1e-12)
        cp = by_name[name].workforce(55.0, n_pos=120.0, n_neg=180.0)
        recorded = snap["constraint"]["result"][name]
        for key, value in dataclasses.asdict(cp).items():
            assert recorded[key] == fmt.jsonable(value), key
    pair = snap["difference"]
    assert pair["pair"] == ["weak", "good"]
    band = cw.difference_band(by_name["weak"], by_name["good"], 0.8, random_state=0)
    expected = cw.significant_intervals(band)
    assert [(r["pcf_lo"], r["pcf_hi"], r["sign"]) for r in pair["significant"]] == list(
        expected[["pcf_lo", "pcf_hi", "sign"]].itertuples(index=False, name=None)
    )


def test_fingerprint_is_the_hull_hash(classifiers):
    clf = classifiers[0]
    hull = clf.hull
    digest = hashlib.sha256(
        b"".join(np.asarray(hull[c], dtype="<f8").tobytes() for c in ("threshold", "fpr", "tpr"))
    ).hexdigest()
    fp = fmt.fingerprint(clf)
    assert fp["hull_sha256"] == digest
    assert (fp["name"], fp["n_pos"], fp["n_neg"]) == (clf.name, clf.n_pos, clf.n_neg)


def test_non_finite_numbers_are_encoded():
    # The first ROC point's threshold is inf; a classifier from a confusion matrix has none.
    a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    w = CostWidget([a], p_pos=0.5, cost_fn=1.0, cost_fp=100.0)
    try:
        snap = export.snapshot(w)
        row = snap["readout"][0]
        assert row["fpr"] == 0.0 and row["tpr"] == 0.0
        assert row["threshold"] == "inf" and fmt.from_json_number(row["threshold"]) == math.inf
        w.cost_fp = 1.0
        assert export.snapshot(w)["readout"][0]["threshold"] is None  # NaN: no threshold
        json.dumps(export.snapshot(w), allow_nan=False)
    finally:
        w.close()


def _tampered(snap, path, value):
    out = copy.deepcopy(snap)
    node = out
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[k]
    if value is KeyError:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return out


REFUSALS = [
    ("format", "something.else", "not a costwidget snapshot"),
    ("version", 2, "version 2"),
    ("operating_point.p_pos", "0.3", "must be a number"),
    ("operating_point.p_pos", True, "must be a number"),
    ("operating_point.cost_fn", KeyError, "is missing"),
    ("operating_point.pcf", 0.5, "does not follow"),
    ("operating_point.p_pos", 1.5, "invalid"),
    ("constraint.kind", "knapsack", "nothing was changed"),
    ("constraint.max_fpr", 1.5, "max_fpr"),
    ("bands.band_level", 1.0, "band_level"),
    ("bands.show_bands", "yes", "true/false"),
    ("visible", ["good", "nobody"], "unknown"),
    ("difference.pair", ["good", "good"], "two different"),
    ("difference.pair", [1, 2], "list of names"),
    ("classifiers", "all", "list of fingerprints"),
    ("range_of_interest", None, "list of numbers"),
    ("range_of_interest", [0.2], "nothing was changed"),
]


@pytest.mark.parametrize(
    "path, value, message", REFUSALS, ids=[f"{p}={v!r}" for p, v, _ in REFUSALS]
)
def test_malformed_snapshots_are_refused_and_change_nothing(analysed, widget, path, value, message):
    _, snap = analysed
    bad = _tampered(snap, path, value)
    # pcf follows the operating point; keep it consistent unless it is what is tested.
    if (
        path.startswith("operating_point.")
        and path != "operating_point.pcf"
        and isinstance(value, float)
        and 0 < value < 1
    ):
        op = bad["operating_point"]
        op["pcf"] = float(cw.probability_cost(op["p_pos"], op["cost_fn"], op["cost_fp"]))
    before, snap_before = _inputs(widget), export.snapshot(widget)
    with pytest.raises(export.SnapshotError, match=message):
        export.restore(widget, bad)
    assert _inputs(widget) == before
    assert export.snapshot(widget) == snap_before


@pytest.mark.parametrize("what", ["not a dict", "list"])
def test_non_dicts_are_refused(widget, what):
    with pytest.raises(export.SnapshotError, match="a snapshot is a dict"):
        export.restore(widget, what if what == "not a dict" else [1, 2])


def test_other_classifiers_are_refused(analysed, classifiers):
    _, snap = analysed
    # Same names, other data: the hulls differ.
    others = _classifiers(seed=8)
    w = CostWidget(others)
    try:
        before = _inputs(w)
        with pytest.raises(export.SnapshotError, match="other classifiers.*'good' differs.*hull"):
            export.restore(w, snap)
        assert _inputs(w) == before
    finally:
        w.close()
    # A missing and an extra classifier are both named.
    renamed = _classifiers()
    renamed[2] = renamed[2].renamed("other")
    w = CostWidget(renamed)
    try:
        with pytest.raises(
            export.SnapshotError,
            match=r"not in this widget: \['mid'\].*"
            r"not in the snapshot: \['other'\]",
        ):
            export.restore(w, snap)
    finally:
        w.close()


def test_classifier_order_does_not_matter(analysed, classifiers):
    _, snap = analysed
    w = CostWidget(list(reversed(classifiers)))
    try:
        export.restore(w, snap)
        assert w.visible == NON_DEFAULT["visible"] and w.difference == NON_DEFAULT["difference"]
    finally:
        w.close()


def test_range_table_is_the_models(analysed, classifiers):
    _, snap = analysed
    by_name = {c.name: c for c in classifiers}
    summary = cw.range_summary(
        {n: by_name[n] for n in NON_DEFAULT["visible"]}, 0.2, 0.45, axis="pcf"
    )
    rows = {r["classifier"]: r for r in snap["range_table"]}
    assert list(rows) == list(summary.index)
    for name, value in summary["mtmcr"].items():
        assert rows[name]["mtmcr"] == pytest.approx(value, rel=1e-12)
