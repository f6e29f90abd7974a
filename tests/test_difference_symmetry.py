"""Swapping the two classifiers of a difference band negates it exactly.

With one seed, the band of NEC_a − NEC_b used to draw other resamples than the band of
NEC_b − NEC_a (the paired resampling enumerated the cases' units a-major), so whether a
difference was significant could depend on which model was called "a". On the bundled German
credit demo, random forest − naive Bayes was significant on two PCF(+) intervals and naive
Bayes − random forest nowhere. The check is exact: the bands are built from the same draws.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costwidget as cw


def _pair(seed, n, shuffled, ties):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    s1 = y * 0.8 + rng.normal(size=n)
    s2 = 0.5 * s1 + y * 0.5 + rng.normal(size=n)
    if ties:
        s1, s2 = np.round(s1, 1), np.round(s2, 1)
    ids = np.arange(n)
    if not shuffled:
        return (
            cw.Classifier.from_scores(y, s1, name="a"),
            cw.Classifier.from_scores(y, s2, name="b"),
        )
    order = rng.permutation(n)
    a = cw.Classifier.from_scores(y, s1, name="a", instance=ids)
    b = cw.Classifier.from_scores(y[order], s2[order], name="b", instance=ids[order])
    return a, b


def _assert_negated(d_ab, d_ba):
    np.testing.assert_array_equal(d_ab["diff"].to_numpy(), -d_ba["diff"].to_numpy())
    np.testing.assert_allclose(
        d_ab["lower"].to_numpy(), -d_ba["upper"].to_numpy(), rtol=0, atol=1e-15
    )
    np.testing.assert_allclose(
        d_ab["upper"].to_numpy(), -d_ba["lower"].to_numpy(), rtol=0, atol=1e-15
    )
    np.testing.assert_array_equal(d_ab["significant"].to_numpy(), d_ba["significant"].to_numpy())


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(20, 200),
    shuffled=st.booleans(),
    ties=st.booleans(),
    paired=st.booleans(),
    simultaneous=st.booleans(),
)
def test_swapping_the_pair_negates_the_band(seed, n, shuffled, ties, paired, simultaneous):
    a, b = _pair(seed, n, shuffled, ties)
    kw = dict(n_boot=60, grid=33, random_state=seed, paired=paired, simultaneous=simultaneous)
    _assert_negated(cw.difference_band(a, b, 0.9, **kw), cw.difference_band(b, a, 0.9, **kw))


@pytest.mark.parametrize("shuffled", [False, True])
def test_swapping_a_fixed_threshold_pair_negates_the_band(shuffled):
    a, b = _pair(3, 150, shuffled, ties=True)
    kw = dict(n_boot=80, grid=21, random_state=1)
    _assert_negated(
        cw.difference_band(a, b, 0.9, threshold_a=0.3, threshold_b=0.1, **kw),
        cw.difference_band(b, a, 0.9, threshold_a=0.1, threshold_b=0.3, **kw),
    )


def test_on_the_demo_the_order_of_the_pair_does_not_decide_significance():
    from costwidget.datasets import load_demo_scores, positive_label

    models = cw.Classifier.from_frame(
        load_demo_scores("german_credit"),
        y_true="label",
        y_score="score",
        model="model",
        fold="fold",
        instance="row",
        pos_label=positive_label("german_credit"),
    )
    a, b = models["random forest"], models["naive Bayes"]
    _assert_negated(
        cw.difference_band(a, b, 0.9, random_state=0), cw.difference_band(b, a, 0.9, random_state=0)
    )
