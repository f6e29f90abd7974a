"""The widget's bands with per-case costs (issue 45): shown around the twins' curves, each the
band of money per case of the classifier drawn (at the twins' multipliers and p(+)), with its
coverage said; costs summed by an engine are refused with the fix."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costwidget as cw


def _data(seed, n=90):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    amount = np.round(rng.lognormal(3.0, 1.2, n), 2)
    scores = {
        "a": np.round(rng.random(n) + 0.5 * y, 3),
        "b": np.round(rng.random(n) + 0.7 * y * (amount > 10), 3),
    }
    return y, amount, scores


def _drawn(w):
    out = {}
    for d, mark in zip(w._ctx.drawings, w.band_layer.marks):
        if mark.visible:
            out[d.name] = (np.asarray(mark.x, float), np.asarray(mark.y, float))
    return out


@pytest.mark.parametrize(
    "costs, given",
    [
        ({"cost_fp": 4.0}, {}),  # no case changes side: the band holds at every multiplier
        ({"cost_fp": 12.0, "cost_tp": 12.0}, {"p_pos": 0.3, "cost_fn": 1.5}),  # a fee
    ],
)
def test_the_bands_show_each_classifiers_band_of_money_per_case(costs, given):
    y, amount, scores = _data(1)
    clfs = [
        cw.Classifier.from_scores(y, s, name=name, cost_fn=amount, **costs)
        for name, s in scores.items()
    ]
    w = cw.CostWidget(clfs, **given)
    try:
        w.show_bands = True
        w.wait(timeout=300)
        assert w.show_bands and "Not shown yet" not in w.errors.widget.value
        drawn = _drawn(w)
        assert set(drawn) == set(w.visible) == {"a", "b"}
        p = given.get("p_pos")
        for clf in w.classifiers:
            band = clf.band(
                w.band_level,
                random_state=0,
                cost_fn=given.get("cost_fn", 1.0),
                p_pos=p,
            )
            x, (lower, upper) = drawn[clf.name]
            np.testing.assert_array_equal(x, band["pcf"])
            np.testing.assert_array_equal(lower, band["lower"])
            np.testing.assert_array_equal(upper, band["upper"])
            # drawn around the twin's curve (what the cost pane draws for the classifier)
            twin = next(t for g, t in zip(w.per_case.given, w.per_case.twins) if g is clf)
            np.testing.assert_allclose(band["nec"], twin.nec(band["pcf"]), rtol=0, atol=1e-12)
        text = w.band_readout.widget.value
        assert "coverage not measured" in text or "best money per case" in text, text
    finally:
        w.close()


def test_bands_of_costs_summed_by_an_engine_are_refused_with_the_fix():
    duckdb = pytest.importorskip("duckdb")
    y, amount, scores = _data(2)
    df = pd.concat(
        [
            pd.DataFrame({"model": m, "label": y, "score": s, "Amount": amount})
            for m, s in scores.items()
        ]
    )
    w = cw.CostWidget.from_duckdb(duckdb.connect().from_df(df), cost_fn="Amount", cost_fp=4.0)
    try:
        with pytest.raises(ValueError, match=r"summed in a database.*from_frame"):
            w.show_bands = True
        assert not w.show_bands
        assert "from_frame" in w.errors.widget.value
    finally:
        w.close()


def test_a_fee_widgets_bands_follow_a_multiplier_move():
    # Where cases change sides the twins are made again at every move: the band drawn must be
    # the one priced at the new multipliers, never the old setting's.
    y, amount, scores = _data(3)
    clfs = [
        cw.Classifier.from_scores(y, s, name=name, cost_fn=amount, cost_fp=12.0, cost_tp=12.0)
        for name, s in scores.items()
    ]
    w = cw.CostWidget(clfs, p_pos=0.3)
    try:
        w.show_bands = True
        w.wait(timeout=300)
        w.cost_fn = 2.0
        w.wait(timeout=300)
        drawn = _drawn(w)
        for clf in w.classifiers:
            band = clf.band(w.band_level, random_state=0, cost_fn=2.0, p_pos=0.3)
            x, (lower, upper) = drawn[clf.name]
            np.testing.assert_array_equal(lower, band["lower"])
            np.testing.assert_array_equal(upper, band["upper"])
    finally:
        w.close()
