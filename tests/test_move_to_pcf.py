"""A click or drag in the cost pane reaches the PCF(+) it points at, whatever the state.

At p(+) = 0 every cost gives PCF(+) = 0, so the old click (keep p(+), change a cost) was
refused there and the widget's stateful test found the click landing at 0 instead of 0.36.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import costwidget as cw
from costwidget.model import move_to_pcf

cost = st.one_of(st.just(0.0), st.floats(1e-6, 1e6))


@given(x=st.floats(0, 1), p=st.sampled_from([0.0, 1.0]) | st.floats(0.001, 0.999),
       fn=cost, fp=cost)
def test_every_pcf_is_reached(x, p, fn, fp):
    if fn == fp == 0.0:
        fp = 1.0  # both costs zero is refused before any click
    p2, fn2, fp2 = move_to_pcf(x, p_pos=p, cost_fn=fn, cost_fp=fp)
    # eq. 6, computed here: PCF(+) = p·C(-|+) / (p·C(-|+) + (1 - p)·C(+|-))
    num = p2 * fn2
    assert num / (num + (1 - p2) * fp2) == pytest.approx(x, abs=1e-9)
    if 0 < p < 1:
        assert p2 == p  # the prevalence stays where it can
    elif fn > 0 and fp > 0:
        assert (fn2, fp2) == (fn, fp)  # at p(+) = 0 or 1 the costs stay as typed


def test_a_click_at_prevalence_zero_lands_where_it_points():
    rng = np.random.default_rng(0)
    y = rng.random(60) < 0.4
    w = cw.CostWidget([cw.Classifier.from_scores(y, y + rng.normal(size=60), name="a")])
    w.update(p_pos=0.0, cost_fn=0.0)
    w.operating_tool.click_bars._handle_custom_msgs(
        None, {"event": "element_click", "data": {"index": 180}})
    assert w.errors.message == ""
    assert w.pcf == pytest.approx(0.36, abs=1e-9)
    w.update(p_pos=1.0, cost_fn=5.0, cost_fp=2.0)
    w.operating_tool.set_pcf(0.25)
    assert w.pcf == pytest.approx(0.25, abs=1e-12) and (w.cost_fn, w.cost_fp) == (5.0, 2.0)
