"""A stateful property-based test of the widget (hypothesis ``RuleBasedStateMachine``).

Random sequences of trait sets (valid and invalid), control events (sliders, the ratio field,
cost fields, constraint buttons, picker checkboxes, clicks and drags in the cost pane) and
toggles of bands, fold spread and the difference view. After every step, once the background
work is done, the readout and the marks are checked against the model computed independently
(brute force over every ROC point's cost line, from the raw scores), and the drawn bands
against bands for the *final* state (never a stale one).
"""

from __future__ import annotations

import math
from fractions import Fraction

import brute
import numpy as np
import pytest
import traitlets
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import costwidget as cw
from costwidget.widget import CostWidget
from costwidget.widget.core import STATE_TRAITS

N = 160
RNG = np.random.default_rng(11)
Y = RNG.random(N) < 0.4
SCORES = {
    "sharp": np.round(Y * 1.4 + RNG.normal(size=N), 1),
    "blunt": np.round(Y * 0.5 + RNG.normal(size=N), 1),
    "tied": np.round(Y * 0.8 + RNG.normal(size=N), 0),
}
FOLDS = np.arange(N) % 2
NAMES = list(SCORES)
# Independent ROC points of every classifier, from the raw scores (brute.py, exact fractions).
BRUTE, HULL = {}, {}
for _name, _s in SCORES.items():
    _thr, _tp, _fp = brute.roc_points(Y, _s)
    BRUTE[_name] = (
        np.array(_thr),
        np.array(_tp, float) / Y.sum(),
        np.array(_fp, float) / (~Y).sum(),
    )
    _hull = brute.upper_hull(
        [(Fraction(f, int((~Y).sum())), Fraction(t, int(Y.sum()))) for t, f in zip(_tp, _fp)]
    )
    HULL[_name] = (np.array([float(x) for x, _ in _hull]), np.array([float(y) for _, y in _hull]))

finite = st.floats(allow_nan=False, allow_infinity=False)
any_float = st.one_of(finite, st.just(math.nan), st.just(math.inf), st.just(-math.inf))


def _brute_nec(name, pcf):
    _, tpr, fpr = BRUTE[name]
    return float(brute.envelope_min(fpr, tpr, pcf)[0])


def _state(w):
    return {
        k: (list(v) if isinstance(v, list) else v)
        for k in STATE_TRAITS
        for v in [getattr(w.state, k)]
    }


def _build():
    return CostWidget(
        [cw.Classifier.from_scores(Y, s, name=n, folds=FOLDS) for n, s in SCORES.items()]
    )


# What a user's observer may call (issue 18): never deadlocks against the worker.
USER_CALLS = {
    "wait": lambda w: w.wait(timeout=120),
    "snapshot": lambda w: w.snapshot(),
    "to_frame": lambda w: w.to_frame(),
}


class WidgetMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.w = _build()
        self.observed = []

    def teardown(self):
        self.w.close()

    # ------------------------------------------------------------------ real use
    @rule(
        call=st.sampled_from(sorted(USER_CALLS)),
        names=st.sampled_from(
            [["p_pos"], ["show_bands", "band_level"], ["busy"], ["difference", "visible"]]
        ),
    )
    def user_observer(self, call, names):
        """A user's observer that waits, snapshots or exports whenever its traits change."""
        w = self.w

        def observer(change):
            self.observed.append((call, change["name"], USER_CALLS[call](w) is not None))

        w.observe(observer, names=names)

    @rule()
    def close_and_rebuild(self):
        """close() at any step, work pending or not: busy ends and wait() returns at once."""
        state = {k: v for k, v in _state(self.w).items()}
        self.w.close()
        assert not self.w.busy
        self.w.wait(timeout=0)
        self.w = _build()
        self.w.update(**state)

    @rule()
    def display(self):
        """A display at any step draws what is drawn now and never waits."""
        bundle = self.w._repr_mimebundle_()
        assert "CostWidget" in bundle["text/plain"]
        assert "application/vnd.jupyter.widget-view+json" in bundle

    # ------------------------------------------------------------------ Python trait sets
    def _python_set(self, **values):
        before = _state(self.w)
        try:
            for name, value in values.items():
                setattr(self.w, name, value)
        except (traitlets.TraitError, ValueError, TypeError):
            # Refused: the exception is the message, and nothing changed.
            assert _state(self.w) == before
            return False
        return True

    @rule(p=any_float)
    def set_p_pos(self, p):
        self._python_set(p_pos=p)

    @rule(fn=st.one_of(st.sampled_from([0.0, 1.0, 5.0, -1.0, 1e-300, 1e300]), any_float))
    def set_cost_fn(self, fn):
        self._python_set(cost_fn=fn)

    @rule(fp=st.one_of(st.sampled_from([0.0, 1.0, 3.0, -2.0]), any_float))
    def set_cost_fp(self, fp):
        self._python_set(cost_fp=fp)

    @rule(
        c=st.sampled_from(["none", "neyman_pearson", "workforce", "bogus"]),
        max_fpr=st.floats(-0.2, 1.2),
        capacity=st.floats(-10, 300),
    )
    def set_constraint(self, c, max_fpr, capacity):
        self._python_set(constraint=c)
        self._python_set(max_fpr=max_fpr)
        self._python_set(capacity=capacity)

    @rule(level=st.floats(0.3, 1.1))
    def set_band_level(self, level):
        self._python_set(band_level=level)

    @rule(visible=st.lists(st.sampled_from(NAMES + ["nope"]), unique=True))
    def set_visible(self, visible):
        self._python_set(visible=visible)

    @rule(
        pair=st.one_of(
            st.just([]), st.lists(st.sampled_from(NAMES + ["nope"]), min_size=1, max_size=3)
        )
    )
    def set_difference(self, pair):
        self._python_set(difference=pair)

    @rule(on=st.booleans())
    def set_bands(self, on):
        self._python_set(show_bands=on)

    @rule(on=st.booleans())
    def set_fold_spread(self, on):
        self._python_set(show_fold_spread=on)

    @rule(
        values=st.fixed_dictionaries(
            {
                "p_pos": st.floats(-0.5, 1.5),
                "cost_fn": st.floats(-1, 9),
                "band_level": st.floats(0.3, 1.1),
            }
        )
    )
    def update_all_or_nothing(self, values):
        before = _state(self.w)
        try:
            self.w.update(**values)
        except (traitlets.TraitError, ValueError):
            assert _state(self.w) == before

    # ------------------------------------------------------------------ control events
    def _control(self, control, value):
        """A control moved in the browser: never raises; refused input leaves the state as it was
        and shows a message."""
        before = _state(self.w)
        control.value = value
        if _state(self.w) == before and self.w.errors.message:
            assert "refused" in self.w.errors.message

    @rule(v=st.floats(0.0, 1.0))
    def slider_p_pos(self, v):
        self._control(self.w.operating_tool.p_pos, v)

    @rule(e=st.floats(-3, 3))
    def slider_ratio(self, e):
        self._control(self.w.operating_tool.log_ratio, 10.0**e)

    @rule(
        which=st.sampled_from(["cost_fn", "cost_fp"]),
        v=st.sampled_from([-1.0, 0.0, 0.25, 1.0, 4.0, 123456.789]),
    )
    def cost_field(self, which, v):
        self._control(getattr(self.w.operating_tool, which), v)

    @rule(c=st.sampled_from(["none", "neyman_pearson", "workforce"]))
    def constraint_buttons(self, c):
        self._control(self.w.constraint_tool.constraint, c)

    @rule(name=st.sampled_from(NAMES), on=st.booleans())
    def picker(self, name, on):
        self._control(self.w.classifier_layers.picker[name], on)

    @rule(index=st.integers(0, 500))
    def click_cost_pane(self, index):
        bars = self.w.operating_tool.click_bars
        bars._handle_custom_msgs(None, {"event": "element_click", "data": {"index": index}})
        # issue 23: p(+) moves to a round number, so PCF(+) lands within half a 0.001 step
        assert self.w.pcf == pytest.approx(index / 500, abs=5e-4 + 1e-9)

    @rule(xs=st.lists(st.floats(-0.1, 1.1), min_size=1, max_size=4))
    def drag_handle(self, xs):
        h = self.w.operating_tool.handle
        h._handle_custom_msgs(None, {"event": "drag_start", "point": {"x": self.w.pcf, "y": 0}})
        for x in xs:
            h._handle_custom_msgs(None, {"event": "drag", "point": {"x": x, "y": 0}})
        h._handle_custom_msgs(None, {"event": "drag_end", "point": {"x": xs[-1], "y": 0}})
        assert self.w.pcf == pytest.approx(min(max(xs[-1], 0.0), 1.0), abs=1e-3 + 1e-9)
        assert list(h.x) == pytest.approx([self.w.pcf])

    @rule(on=st.booleans())
    def bands_box(self, on):
        self._control(self.w.show_bands_box, on)

    @rule(on=st.booleans())
    def fold_spread_box(self, on):
        self._control(self.w.show_fold_spread_box, on)

    @rule(a=st.sampled_from(NAMES), b=st.sampled_from(NAMES), on=st.booleans())
    def difference_controls(self, a, b, on):
        v = self.w.difference_view
        self._control(v.name_a, a)
        self._control(v.name_b, b)
        self._control(v.show, on)

    # --- issue 21: threshold choice and decision curve ---
    @rule(choice=st.sampled_from(["none", "score", "score+rate", "bogus"]))
    def set_threshold_choice(self, choice):
        assert self._python_set(threshold_choice=choice) == (choice != "bogus")

    @rule(choice=st.sampled_from(["none", "score", "score+rate"]), on=st.booleans())
    def threshold_choice_controls(self, choice, on):
        self._control(self.w.threshold_choice_view.control, choice)
        self._control(self.w.decision_curve_view.toggle, on)

    @invariant()
    def threshold_choice_equals_brute_force(self):
        w = self.w
        s = w.state
        assert w.threshold_choice_view.control.value == s.threshold_choice
        rows = w.threshold_choice_view.choices
        if s.threshold_choice == "none":
            assert rows.empty
        else:
            for _, row in rows[rows.threshold_choice == "optimal"].iterrows():
                assert row.nec == pytest.approx(_brute_nec(row.classifier, s.pcf), abs=1e-12)
            # These scores are not probabilities: the score method is refused, with the reason.
            score = rows[rows.threshold_choice == "score"]
            assert score.nec.isna().all() and score.note.str.contains("[0, 1]", regex=False).all()
        view = w.decision_curve_view
        if s.show_decision_curve:
            pt = s.cost_fp / (s.cost_fp + s.cost_fn)
            assert view.operating_pt == pytest.approx(pt) and list(view.point_line.x) == [pt, pt]
            refs = {"treat all", "treat none"} if s.visible else set()
            assert set(view.frame.classifier) == set(s.visible) | refs
        else:
            assert view.frame.empty

    # --- end issue 21 ---

    # ------------------------------------------------------------------ invariants
    @invariant()
    def drawn_equals_independent_model(self):
        w = self.w
        w.wait(timeout=120)
        assert not w.busy
        s = w.state
        pcf = s.pcf
        assert pcf == pytest.approx(
            s.p_pos * s.cost_fn / (s.p_pos * s.cost_fn + (1 - s.p_pos) * s.cost_fp)
        )
        op = w.operating_tool
        assert list(op.operating_line.x) == [pcf, pcf]
        for i, name in enumerate(NAMES):
            assert op.nec_points.y[i] == pytest.approx(_brute_nec(name, pcf), abs=1e-12)
        r = w.readout
        assert list(r.index) == [n for n in NAMES if n in s.visible]
        scale = s.p_pos * s.cost_fn + (1 - s.p_pos) * s.cost_fp
        for name, row in r.iterrows():
            nec = _brute_nec(name, pcf)
            assert row.nec == pytest.approx(nec, abs=1e-12)
            # The row's ROC point reaches the minimum, and its threshold gives that point.
            assert (1 - row.tpr - row.fpr) * pcf + row.fpr == pytest.approx(nec, abs=1e-12)
            tp, fp = brute.counts_at(Y, SCORES[name], row.threshold)
            assert (tp / Y.sum(), fp / (~Y).sum()) == pytest.approx((row.tpr, row.fpr))
            assert row.expected_cost == pytest.approx(nec * scale, rel=1e-12, abs=1e-300)
            if s.constraint == "neyman_pearson":
                assert row.constrained_fpr <= s.max_fpr + 1e-12
                # Issue 31: the cheapest rule the limit allows: the paper's point (the largest
                # TPR allowed) where the limit binds, the optimum (cost nec) where it does not.
                if row.constrained_binding:
                    assert row.constrained_tpr == pytest.approx(
                        brute.hull_tpr_at(*HULL[name], s.max_fpr), abs=1e-12
                    )
                else:
                    assert row.constrained_nec == pytest.approx(nec, abs=1e-12)
        con = w.constraint_tool
        assert con.roc_line.visible == (s.constraint != "none")
        if s.constraint == "neyman_pearson":
            assert list(con.roc_line.x) == [s.max_fpr, s.max_fpr]
        # Background results are for the final state, never a stale one.
        if s.show_bands:
            assert sorted(w.drawn_bands) == sorted(s.visible)
            for name, band in w.drawn_bands.items():
                clf = w.classifiers[NAMES.index(name)]
                expected = clf.band(s.band_level, interval="basic", random_state=0)
                np.testing.assert_array_equal(band.upper.to_numpy(), expected.upper.to_numpy())
        else:
            assert w.drawn_bands == {}
        assert (w.drawn_fold_spreads != {}) == (s.show_fold_spread and bool(s.visible))
        if s.difference:
            a, b = (w.classifiers[NAMES.index(n)] for n in s.difference)
            expected = cw.difference_band(a, b, s.band_level, random_state=0)
            np.testing.assert_array_equal(
                w.difference_band.upper.to_numpy(), expected.upper.to_numpy()
            )
        else:
            assert w.difference_band is None


WidgetMachine.TestCase.settings = settings(
    max_examples=12,
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
# The fast loop runs 2 of the 12 examples (tests/conftest.py); the whole run all 12.
test_widget_state_machine = pytest.mark.quick_budget(max_examples=2)(WidgetMachine.TestCase)
