"""to_frame: tidy DataFrames of the visible classifiers, equal to the model's own tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costwidget as cw
from costwidget.widget import CostWidget, export


@pytest.fixture(scope="module")
def widget():
    rng = np.random.default_rng(5)
    n = 240
    y = rng.random(n) < 0.4
    folds = np.arange(n) % 4
    clfs = [
        cw.Classifier.from_scores(
            y, np.round(y * k + rng.normal(size=n), 2), name=name, folds=folds
        )
        for name, k in (("a", 1.4), ("b", 0.6), ("c", 1.0))
    ]
    w = CostWidget(clfs, p_pos=0.35)
    w.update(
        visible=["a", "c"],
        show_bands=True,
        show_fold_spread=True,
        band_level=0.85,
        difference=["a", "c"],
        constraint="neyman_pearson",
        max_fpr=0.2,
    )
    w.range_of_interest = [0.3, 0.5]
    w.wait(timeout=300)
    yield w
    w.close()


def test_keys_and_classifier_column(widget):
    frames = export.to_frame(widget)
    assert set(frames) == {
        "roc",
        "hull",
        "envelope",
        "bands",
        "readout",
        "difference",
        "range",
        "decision_curve",
        "threshold_choice",
        "honest",
    }  # issue 32: empty while the honest curves are off
    for key in ("roc", "hull", "envelope", "bands", "readout"):
        assert frames[key].columns[0] == "classifier", key
        assert list(pd.unique(frames[key]["classifier"])) == ["a", "c"], key


def test_tables_equal_the_model(widget):
    frames = export.to_frame(widget)
    by_name = {c.name: c for c in widget.classifiers}
    for key, cols in (
        ("roc", ["threshold", "fpr", "tpr"]),
        ("hull", ["threshold", "fpr", "tpr"]),
        ("envelope", ["pcf", "nec"]),
    ):
        for name in ("a", "c"):
            got = frames[key][frames[key]["classifier"] == name][cols].reset_index(drop=True)
            pd.testing.assert_frame_equal(got, getattr(by_name[name], key)[cols])
    bands = frames["bands"]
    assert set(bands["kind"]) == {"bootstrap", "fold_spread"}
    for name in ("a", "c"):
        boot = bands[(bands["classifier"] == name) & (bands["kind"] == "bootstrap")]
        expected = by_name[name].band(0.85, interval="basic", random_state=0)
        assert np.array_equal(boot["lower"], expected["lower"])
        assert np.array_equal(boot["upper"], expected["upper"])
        assert (boot["level"] == 0.85).all()
        spread = bands[(bands["classifier"] == name) & (bands["kind"] == "fold_spread")]
        assert np.array_equal(spread["upper"], by_name[name].fold_spread()["upper"])
        assert spread["level"].isna().all()
    # The readout against the model computed afresh (not the widget's own table again).
    readout = frames["readout"].set_index("classifier")
    s = widget.state
    scale = s.p_pos * s.cost_fn + (1 - s.p_pos) * s.cost_fp
    for name in ("a", "c"):
        best = by_name[name].best(s.pcf)
        row = readout.loc[name]
        assert (row.fpr, row.tpr) == (best.fpr, best.tpr)
        # The readout shows the threshold deployed: on the classifier's scores it flags exactly
        # the cases the optimal vertex's score flags (none between it and the next lower score).
        scores = np.unique(by_name[name].roc["threshold"].to_numpy())
        scores = scores[np.isfinite(scores)]
        assert set(scores[scores >= row.threshold]) == set(scores[scores >= best.threshold])
        assert row.nec == pytest.approx(best.nec, abs=1e-15)
        assert row.expected_cost == pytest.approx(best.nec * scale, rel=1e-12)
        assert row.constrained_fpr <= 0.2 + 1e-12
    diff = frames["difference"]
    assert (diff["a"] == "a").all() and (diff["b"] == "c").all()
    band = cw.difference_band(by_name["a"], by_name["c"], 0.85, random_state=0)
    assert np.array_equal(diff["diff"], band["diff"])
    expected = cw.range_summary(
        {n: by_name[n] for n in ("a", "c")}, 0.3, 0.5, step=0.05, axis="pcf"
    )
    pd.testing.assert_frame_equal(
        frames["range"].set_index("classifier"), expected, check_names=False
    )
    assert list(frames["range"]["classifier"]) == ["a", "c"]


def test_empty_parts_keep_their_columns(widget):
    w = CostWidget(widget.classifiers)
    try:
        frames = export.to_frame(w)
        assert frames["bands"].empty and list(frames["bands"].columns) == [
            "classifier",
            "kind",
            "level",
            "pcf",
            "lower",
            "upper",
        ]
        assert frames["difference"].empty
        w.visible = []
        assert export.to_frame(w)["envelope"].empty
    finally:
        w.close()
