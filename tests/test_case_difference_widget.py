"""A widget with per-case costs shows the difference view in money per case, scaled as the cost
pane, around the twins' curves (the brute force of tests/brute_case_money.py), and makes it again
when p(+) moves; costs summed by an engine are refused with the fix."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from brute_case_money import pane_best
from brute_case_money import widget_data as _data
from brute_case_money import widget_setting as _setting

import costwidget as cw


def _widget(y, scores, folds, costs, **kw):
    clfs = [
        cw.Classifier.from_scores(y, s, name=name, folds=folds, **costs)
        for name, s in scores.items()
    ]
    return cw.CostWidget(clfs, **kw)


def test_the_difference_view_shows_money_per_case_of_the_pair():
    y, scores, folds, costs = _data(3, fee=True)
    p = float(np.mean(y))
    w = _widget(y, scores, folds, costs, cost_fn=1.0, cost_fp=1.0, p_pos=p)
    w.difference = ["a", "b"]
    w.wait(timeout=300)
    band = w.difference_band
    assert band is not None and w.difference == ["a", "b"]
    flag, keep, omega, whole = _setting(y, costs, 1.0, 1.0, p)
    pick = np.arange(0, len(band), 64)
    x = band["pcf"].to_numpy()[pick]
    want = pane_best(x, scores["a"], omega, flag, keep, whole) - pane_best(
        x, scores["b"], omega, flag, keep, whole
    )
    np.testing.assert_allclose(band["diff"].to_numpy()[pick], want, atol=1e-12)
    np.testing.assert_allclose(np.asarray(w.difference_view.line.y), band["diff"], atol=0)
    # ... around the twins' curves: the drawn difference is the cost pane's twins' difference.
    twins = w.per_case.twins
    np.testing.assert_allclose(
        band["diff"], twins[0].nec(band["pcf"]) - twins[1].nec(band["pcf"]), atol=1e-12
    )
    assert "money per case, scaled as the cost pane" in w.difference_view.caption.value
    assert "money per case" in w.difference_view.y_axis.label


def test_the_difference_view_is_made_again_when_p_pos_moves():
    y, scores, folds, costs = _data(4)
    w = _widget(y, scores, folds, costs)
    w.difference = ["a", "b"]
    w.wait(timeout=300)
    w.p_pos = 0.3
    w.wait(timeout=300)
    band = w.difference_band
    flag, keep, omega, whole = _setting(y, costs, 1.0, 1.0, 0.3)
    pick = np.arange(0, len(band), 64)
    x = band["pcf"].to_numpy()[pick]
    want = pane_best(x, scores["a"], omega, flag, keep, whole) - pane_best(
        x, scores["b"], omega, flag, keep, whole
    )
    np.testing.assert_allclose(band["diff"].to_numpy()[pick], want, atol=1e-12)
    assert band.attrs["per_case"]["p_pos"] == 0.3


def test_costs_summed_by_an_engine_refuse_the_difference_naming_from_frame():
    duckdb = pytest.importorskip("duckdb")
    y, scores, _, costs = _data(5)
    frame = pd.concat(
        [
            pd.DataFrame({"model": m, "label": y, "score": s, "loss": costs["cost_fn"], "fee": 8.0})
            for m, s in scores.items()
        ]
    )
    w = cw.CostWidget.from_duckdb(duckdb.connect().from_df(frame), cost_fn="loss", cost_fp="fee")
    with pytest.raises(ValueError, match="from_frame"):
        w.difference = ["a", "b"]
    assert w.difference == [] and "from_frame" in w.errors.message
