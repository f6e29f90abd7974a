"""A widget with per-case costs shows the fold spread, drawn on the twins' cost pane in money
per case (each fold's brute force of tests/brute_case_money.py), and makes it again when p(+)
moves."""

from __future__ import annotations

import numpy as np
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


def _check_spread(w, y, scores, folds, costs, p_pos):
    flag, keep, omega, whole = _setting(y, costs, w.cost_fn, w.cost_fp, p_pos)
    for name, band in w.drawn_fold_spreads.items():
        pick = np.arange(0, len(band), 51)
        x = band["pcf"].to_numpy()[pick]
        per_fold = np.array(
            [pane_best(x, scores[name], omega * (folds == k), flag, keep, whole) for k in range(4)]
        )
        np.testing.assert_allclose(band["lower"].to_numpy()[pick], per_fold.min(axis=0), atol=1e-12)
        np.testing.assert_allclose(band["upper"].to_numpy()[pick], per_fold.max(axis=0), atol=1e-12)


@pytest.mark.parametrize("fee", [False, True])
def test_the_fold_spread_shows_each_folds_money_on_the_twins_pane(fee):
    y, scores, folds, costs = _data(1, fee=fee)
    kw = {"cost_fn": 1.0, "cost_fp": 1.0, "p_pos": float(np.mean(y))} if fee else {}
    w = _widget(y, scores, folds, costs, **kw)
    w.show_fold_spread = True
    w.wait(timeout=120)
    assert w.show_fold_spread and sorted(w.drawn_fold_spreads) == ["a", "b"]
    assert all(m.visible for m in w.fold_spread_layer.marks)
    _check_spread(w, y, scores, folds, costs, float(np.mean(y)))
    mark = w.fold_spread_layer.marks[0]
    band = w.drawn_fold_spreads["a"]
    np.testing.assert_array_equal(np.asarray(mark.y)[0], band["lower"])
    assert band.attrs["per_case"]["units"] == "money per case, scaled as the cost pane"
    # The legend names the drawn spread (the twins have no folds of their own: the classifiers'
    # folds say it may be drawn).
    legend = w.classifier_layers.legend.value
    assert "costwidget-legend-item costwidget-legend-fold_spread" in legend


def test_the_fold_spread_is_made_again_when_p_pos_moves():
    y, scores, folds, costs = _data(2)
    w = _widget(y, scores, folds, costs)
    w.show_fold_spread = True
    w.wait(timeout=120)
    before = w.drawn_fold_spreads["a"]["upper"].to_numpy().copy()
    w.p_pos = 0.25
    w.wait(timeout=120)
    _check_spread(w, y, scores, folds, costs, 0.25)
    assert not np.array_equal(before, w.drawn_fold_spreads["a"]["upper"].to_numpy())


def test_costs_summed_by_an_engine_refuse_the_fold_spread_naming_from_frame():
    duckdb = pytest.importorskip("duckdb")
    import pandas as pd

    y, scores, folds, costs = _data(6)
    frame = pd.concat(
        [
            pd.DataFrame(
                {"model": m, "label": y, "score": s, "fold": folds, "loss": costs["cost_fn"]}
            )
            for m, s in scores.items()
        ]
    )
    w = cw.CostWidget.from_duckdb(
        duckdb.connect().from_df(frame), fold="fold", cost_fn="loss", cost_fp=8.0
    )
    with pytest.raises(ValueError, match=r"from_frame\(\.\.\., cost_fn='col', fold='fold'\)"):
        w.show_fold_spread = True
    assert not w.show_fold_spread and "from_frame" in w.errors.message


def test_the_legend_keeps_room_for_the_fold_spread_and_the_honest_curves():
    # The panes draw per-case twins, which keep neither folds nor cases: the legend's reserved
    # entries must be read from the classifiers as given (before, both were missing).
    from costwidget.widget.panes.classifier_layers import possible_legend_kinds

    y, scores, folds, costs = _data(2)
    w = _widget(y, scores, folds, costs)
    try:
        kinds = possible_legend_kinds(w._ctx.drawings)
        assert "fold_spread" in kinds and "honest" in kinds
    finally:
        w.close()
