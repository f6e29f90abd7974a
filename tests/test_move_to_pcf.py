"""A click, a drag or ``w.pcf = x`` moves p(+) and keeps the typed costs (issue 23).

For two positive costs every PCF(+) in [0, 1] is reached by exactly one p(+) (eq. 6 of
Drummond & Holte (2000), sec. 3: PCF(+) = p·C(-|+) / (p·C(-|+) + (1 - p)·C(+|-)) rises with
p). Where a cost is 0, PCF(+) is 0 or 1 at every p(+), so a cost changes instead. The PCF
here is computed from eq. 6 in this file, not with the package.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import costwidget as cw
from costwidget.model.decisions.operating import move_to_pcf, prevalence_for_pcf, snap_pcf

cost = st.one_of(st.just(0.0), st.floats(1e-6, 1e6))


def eq6(p, fn, fp):
    num = p * fn
    return num / (num + (1 - p) * fp)


@given(x=st.floats(0, 1), p=st.sampled_from([0.0, 1.0]) | st.floats(0.001, 0.999), fn=cost, fp=cost)
def test_every_pcf_is_reached(x, p, fn, fp):
    if fn == fp == 0.0:
        fp = 1.0  # both costs zero is refused before any click
    p2, fn2, fp2 = move_to_pcf(x, p_pos=p, cost_fn=fn, cost_fp=fp)
    assert eq6(p2, fn2, fp2) == pytest.approx(x, abs=1e-9)
    if fn > 0 and fp > 0 and max(fn / fp, fp / fn) <= 1e6:
        assert (fn2, fp2) == (fn, fp)  # the costs stay as typed (p(+) reaches every PCF(+))
    if (fn2, fp2) != (fn, fp) and 0 < p < 1:
        assert p2 == p  # p(+) could not reach PCF(+) (a cost is 0): a cost moved, p(+) stayed


@given(x=st.floats(0, 1), fn=st.floats(1e-2, 1e2), fp=st.floats(1e-2, 1e2))
def test_prevalence_round_trips_to_1e_12(x, fn, fp):
    """With cost ratios up to 10^4 either way the solved p(+) gives PCF(+) back to 1e-12 (an
    ulp of p(+) near 1 moves PCF(+) by about ratio·1e-16, so wider ratios get less)."""
    p = prevalence_for_pcf(x, cost_fn=fn, cost_fp=fp)
    assert 0.0 <= p <= 1.0
    assert abs(eq6(p, fn, fp) - x) <= 1e-12


@given(x=st.floats(0.001, 0.999), fn=st.floats(1e-2, 1e2), fp=st.floats(1e-2, 1e2))
def test_a_gesture_gives_a_round_p(x, fn, fp):
    p, fn2, fp2 = move_to_pcf(snap_pcf(x), p_pos=0.5, cost_fn=fn, cost_fp=fp, digits=3)
    assert (fn2, fp2) == (fn, fp)
    x = snap_pcf(x)
    exact = x * fp / (x * fp + (1 - x) * fn)
    three = float(f"{exact:.3g}")
    assert abs(eq6(p, fn, fp) - x) <= 5e-4  # near the click: within half a grid step
    if 0 < three < 1 and abs(eq6(three, fn, fp) - x) <= 5e-4:
        assert p == three  # 3 significant digits wherever they keep PCF(+) that near


def test_snap_pcf_is_on_the_0001_grid():
    for x in np.random.default_rng(0).random(200):
        s = snap_pcf(x)
        assert abs(s - x) <= 0.0005 + 1e-12 and s == round(s, 3)


def _widget():
    rng = np.random.default_rng(0)
    y = rng.random(80) < 0.4
    return cw.CostWidget([cw.Classifier.from_scores(y, y + rng.normal(size=80), name="a")])


@pytest.mark.parametrize("x", [0.0, 0.05, 0.3, 0.7, 0.123456789, 0.999, 1.0])
def test_setting_pcf_keeps_the_costs(x):
    w = _widget()
    w.update(cost_fn=5.0, cost_fp=1.0)
    w.pcf = x
    assert (w.cost_fn, w.cost_fp) == (5.0, 1.0)
    assert abs(w.pcf - x) <= 1e-12 and abs(eq6(w.p_pos, 5.0, 1.0) - x) <= 1e-12
    w.close()


def test_setting_pcf_at_a_zero_cost_changes_a_cost_like_a_click():
    w = _widget()
    w.update(p_pos=0.4, cost_fn=0.0, cost_fp=2.0)
    w.pcf = 0.25
    assert w.p_pos == 0.4 and w.cost_fp == 2.0 and abs(w.pcf - 0.25) <= 1e-12
    w.close()


def test_a_click_keeps_typed_costs_and_gives_a_round_p():
    w = _widget()
    w.update(cost_fn=5.0, cost_fp=1.0)
    w.operating_tool.click_bars._handle_custom_msgs(
        None, {"event": "element_click", "data": {"index": 350}}
    )  # 350/500 = 0.7
    assert w.errors.message == ""
    assert (w.cost_fn, w.cost_fp) == (5.0, 1.0)
    assert w.p_pos == 0.318  # 0.7·1 / (0.7·1 + 0.3·5) = 0.31818..., to 3 significant digits
    assert abs(w.pcf - 0.7) < 0.001
    w.close()


def test_a_click_at_prevalence_zero_lands_where_it_points():
    w = _widget()
    w.update(p_pos=0.0, cost_fn=0.0)
    w.operating_tool.click_bars._handle_custom_msgs(
        None, {"event": "element_click", "data": {"index": 180}}
    )
    assert w.errors.message == ""
    assert w.pcf == pytest.approx(0.36, abs=1e-9)
    assert "C(−|+) is 0" not in w.operating_tool.pcf.value  # the click set a positive C(-|+)
    w.update(p_pos=1.0, cost_fn=5.0, cost_fp=2.0)
    w.operating_tool.set_pcf(0.25)
    assert w.pcf == pytest.approx(0.25, abs=2e-3) and (w.cost_fn, w.cost_fp) == (5.0, 2.0)
    w.close()


def test_a_zero_cost_is_said_in_one_line():
    w = _widget()
    w.update(cost_fp=0.0)
    assert "C(+|−) is 0, so p(+) cannot move PCF(+)" in w.operating_tool.pcf.value
    w.close()


def test_ratio_slider_snaps_to_3_digits_and_spans_two_decades():
    w = _widget()
    op = w.operating_tool
    assert (op.log_ratio.min, op.log_ratio.max) == (-2.0, 2.0)
    op.log_ratio.value = 10**1.76  # 57.54...
    assert w.cost_fn / w.cost_fp == 57.5 and w.cost_fp == 1.0
    assert op.ratio_text.value == "= 57.5"
    w.cost_fn = 1e5  # a typed ratio grows the slider
    assert op.log_ratio.max == 5.0
    w.close()


def test_out_of_range_p_in_the_field_is_refused_in_the_banner():
    w = _widget()
    w.p_pos = 0.3
    for bad in (2.0, -0.1):
        w.operating_tool.p_pos_value.value = bad
        assert "p(+) refused" in w.errors.message and w.p_pos == 0.3
        assert w.operating_tool.p_pos_value.value == 0.3  # back to the last good value
    w.close()


def test_fields_show_rounded_numbers_and_the_state_keeps_its_own():
    w = _widget()
    w.update(p_pos=0.29995937, cost_fn=3.1879154963398624)
    op = w.operating_tool
    assert (op.p_pos_value.value, op.cost_fn.value) == (0.3, 3.188)
    assert (w.p_pos, w.cost_fn) == (0.29995937, 3.1879154963398624)
    op.cost_fn.value = 2.5  # typing a number sets exactly that number
    assert w.cost_fn == 2.5 and w.p_pos == 0.29995937
    assert not math.isnan(w.pcf)
    w.close()


def test_an_invalid_pcf_is_refused_in_the_banner_and_raised():
    w = _widget()
    before = (w.p_pos, w.cost_fn, w.cost_fp)
    with pytest.raises(ValueError, match="pcf must lie in"):
        w.pcf = 1.5
    assert "pcf refused" in w.errors.message and (w.p_pos, w.cost_fn, w.cost_fp) == before
    w.close()


def test_a_late_echo_of_the_p_slider_during_a_drag_is_no_move():
    """While the handle is dragged, p(+) is pushed to its slider at every step; the browser's
    answer to an older push can arrive after a newer one. It must not pull p(+) back (the
    tour's drag once ended at PCF(+) 0.439 instead of 0.3)."""
    w = _widget()
    h, op = w.operating_tool.handle, w.operating_tool
    h._handle_custom_msgs(None, {"event": "drag_start", "point": {"x": w.pcf, "y": 0}})
    h._handle_custom_msgs(None, {"event": "drag", "point": {"x": 0.4, "y": 0}})
    h._handle_custom_msgs(None, {"event": "drag", "point": {"x": 0.5, "y": 0}})
    assert w.p_pos == 0.5 and op.p_pos.value == 0.5
    op.p_pos.value = 0.4 + 5e-17  # the browser's answer to the push of 0.4, arriving late
    assert w.p_pos == 0.5 and op.p_pos.value == 0.5
    h._handle_custom_msgs(None, {"event": "drag_end", "point": {"x": 0.3, "y": 0}})
    assert w.p_pos == 0.3
    op.p_pos.value = 0.31  # a user's move: taken
    assert w.p_pos == 0.31
    w.close()
