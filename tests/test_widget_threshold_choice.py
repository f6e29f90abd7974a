"""The threshold-choice control, its curves and tables, and the decision-curve pane, against brute
force from the raw scores (never the model's own output)."""

import json

import brute
import numpy as np
import pytest
import traitlets

import costwidget as cw
from costwidget.widget.panes.threshold_choice_view import curve_points

RNG = np.random.default_rng(21)
N = 120
Y = (RNG.random(N) < 0.35).astype(int)
# Probabilities (logistic of a noisy score, rounded: ties), and a raw score that is not one.
RISK = np.round(1 / (1 + np.exp(-(1.5 * Y - 1 + RNG.normal(size=N)))), 2)
MARGIN = np.round(2 * Y - 1 + 1.5 * RNG.normal(size=N), 1)
PI1 = Y.mean()


def _rates(s, t):
    pred = s >= t
    return pred[Y == 0].mean(), pred[Y == 1].mean()


def _nec(x, fpr, tpr):
    return x * (1 - tpr) + (1 - x) * fpr


def _brute_score_nec(s, x):
    """Predict positive iff score >= c, c the Bayes threshold at PCF(+) x for scores
    calibrated at the data's prevalence: exact from the floats, rounded once."""
    return _nec(x, *_rates(s, brute.bayes_threshold(x, PI1)))


def _brute_envelope(s, x):
    ts = np.concatenate(([np.inf], np.unique(s)))
    return min(_nec(x, *_rates(s, t)) for t in ts)


@pytest.fixture
def widget():
    w = cw.CostWidget(
        [
            cw.Classifier.from_scores(Y, RISK, name="risk"),
            cw.Classifier.from_scores(Y, MARGIN, name="margin"),
        ],
        p_pos=0.3,
        cost_fn=2.0,
        cost_fp=1.0,
    )
    yield w
    w.close()


def test_drawn_score_curve_and_gap_equal_brute_force():
    clf = cw.Classifier.from_scores(Y, RISK, name="risk")
    x, y, env = curve_points(clf, "score")
    # Each drawn piece is a straight segment (x[2k], x[2k+1]); inside it, it is the brute cost.
    for k in range(0, len(x), 2):
        a, b = x[k], x[k + 1]
        for u in (0.25, 0.5, 0.75):
            m = a + u * (b - a)
            drawn = y[k] + u * (y[k + 1] - y[k])
            assert drawn == pytest.approx(_brute_score_nec(RISK, m), abs=1e-12)
    for xi, ei in zip(x[::17], env[::17]):
        assert ei == pytest.approx(_brute_envelope(RISK, xi), abs=1e-12)
    assert (y >= env - 1e-12).all()  # the gap is never negative


@pytest.mark.parametrize(
    "cost_fn, cost_fp", [(1.0, 3.0), (3.0, 1.0), (1.0, 1.0), (3.0, 7.0), (7.0, 3.0), (17.0, 83.0)]
)
def test_score_row_at_a_tie_with_the_bayes_threshold(widget, cost_fn, cost_fp):
    # RISK is on a 0.01 grid; at p(+) = the data's prevalence c = C(+|-)/(C(+|-)+C(-|+)), here
    # 0.75, 0.25, 0.5, 0.7, 0.3, 0.83: each a score. The row's threshold and NEC are one rule,
    # and that rule classifies the raw scores at c (exact, rounded once: 7/10 is the float 0.7).
    w = widget
    w.update(p_pos=PI1, cost_fn=cost_fn, cost_fp=cost_fp, threshold_choice="score")
    c = brute.bayes_threshold_from_costs(PI1, cost_fn, cost_fp, PI1)
    assert c in set(RISK.tolist())
    row = w.threshold_choice_view.choices.set_index(["classifier", "threshold_choice"])
    score = row.loc[("risk", "score")]
    assert score.threshold == RISK[RISK >= c].min() == c
    assert score.nec == pytest.approx(_nec(w.pcf, *_rates(RISK, c)), abs=1e-12)


def test_control_draws_curves_tables_and_refuses_bad_values(widget):
    w = widget
    view = w.threshold_choice_view
    assert not view.curves["risk"].visible and view.choices.empty
    view.control.value = "score+rate"  # a user's move
    assert w.threshold_choice == "score+rate"
    assert view.curves["risk"].visible and view.gaps["risk"].visible
    # Raw margins are not probabilities: only the rate-driven curve, and the row says why.
    assert np.ndim(view.curves["margin"].y) == 1  # one row (bqplot flattens it)
    assert np.asarray(view.curves["risk"].y).shape[0] == 2
    row = view.choices.set_index(["classifier", "threshold_choice"])
    assert "[0, 1]" in row.loc[("margin", "score"), "note"]
    # At the operating point: the score method's NEC and threshold are brute force.
    pcf = w.pcf
    score = row.loc[("risk", "score")]
    assert score.nec == pytest.approx(_brute_score_nec(RISK, pcf), abs=1e-12)
    assert _nec(pcf, *_rates(RISK, score.threshold)) == pytest.approx(score.nec, abs=1e-12)
    assert row.loc[("risk", "optimal"), "nec"] == pytest.approx(
        _brute_envelope(RISK, pcf), abs=1e-12
    )
    scale = w.p_pos * w.cost_fn + (1 - w.p_pos) * w.cost_fp
    assert score.expected_cost == pytest.approx(score.nec * scale, rel=1e-12)
    # The table: Brier from its definition, AUC from sklearn.
    from sklearn.metrics import roc_auc_score

    t = view.table
    assert t.loc["risk", "brier"] == pytest.approx(np.mean((RISK - Y) ** 2), abs=1e-12)
    assert t.loc["risk", "auc"] == pytest.approx(roc_auc_score(Y, RISK), abs=1e-12)
    assert np.isnan(t.loc["margin", "brier"])
    assert "Threshold-choice table" in view.table_html.value
    # Bad input from Python raises and keeps the state.
    with pytest.raises(traitlets.TraitError):
        w.threshold_choice = "bogus"
    assert w.threshold_choice == "score+rate"
    # Moving the operating point moves the readout of the method.
    w.cost_fn = 0.5
    row = w.threshold_choice_view.choices.set_index(["classifier", "threshold_choice"])
    assert row.loc[("risk", "score"), "nec"] == pytest.approx(
        _brute_score_nec(RISK, w.pcf), abs=1e-12
    )
    view.control.value = "none"
    assert not view.curves["risk"].visible and view.choices.empty


def _brute_nb(s, t, p, pt):
    f, tt = _rates(s, t)
    return p * tt - (1 - p) * f * pt / (1 - pt)


def test_decision_curve_pane_equals_brute_net_benefit(widget):
    w = widget
    w.threshold_choice = "score"
    w.decision_curve_view.toggle.value = True
    assert w.show_decision_curve
    # Net benefit at the operating point's prevalence p(+), which differs from the data's.
    for p in (0.05, 0.3, PI1, 0.7):
        w.p_pos = p
        f = w.decision_curve_view.frame
        pt = f.threshold_probability.unique()
        assert pt[0] == 0 and pt[-1] == pytest.approx(0.99)
        for q in pt[::9]:
            part = f[f.threshold_probability == q].set_index(["classifier", "threshold_choice"])
            # dcurves' rule: risk >= pt, a risk of 0 never
            t0 = q if q > 0 else np.nextafter(0.0, 1.0)
            assert part.loc[("risk", "score"), "net_benefit"] == pytest.approx(
                _brute_nb(RISK, t0, p, q), abs=1e-12
            )
            ts = np.concatenate(([np.inf], np.unique(MARGIN)))
            best = max(_brute_nb(MARGIN, t, p, q) for t in ts)
            assert part.loc[("margin", "optimal"), "net_benefit"] == pytest.approx(best, abs=1e-12)
            assert part.loc[("treat all", "optimal"), "net_benefit"] == pytest.approx(
                p - (1 - p) * q / (1 - q), abs=1e-12
            )
        # The operating point: the best threshold's net benefit at pt = C(+|-)/(C(+|-)+C(-|+))
        # = 1/3, at prevalence p (p = 0.05 showed 0.30 on the old code, the data's prevalence).
        pt0 = 1.0 / 3.0
        for i, d in enumerate(w._ctx.drawings):
            s = {"risk": RISK, "margin": MARGIN}[d.name]
            best = max(_brute_nb(s, t, p, pt0) for t in np.concatenate(([np.inf], np.unique(s))))
            assert w.decision_curve_view.points.y[i] == pytest.approx(best, abs=1e-12)
    w.p_pos = 0.3
    # The operating point is the pt the costs imply, and moves with them.
    assert w.decision_curve_view.operating_pt == pytest.approx(1.0 / 3.0)
    w.cost_fp = 3.0
    assert w.decision_curve_view.operating_pt == pytest.approx(0.6)
    assert list(w.decision_curve_view.point_line.x) == pytest.approx([0.6, 0.6])
    view = w.decision_curve_view
    assert view.widget.children == (view.figure, view.caption)
    w.show_decision_curve = False
    # Taken out of the page, not hidden: a hidden bqplot figure logs negative sizes.
    assert view.widget.children == ()


def test_decision_curve_refused_in_the_banner_keeps_the_last_good_state():
    # Net benefit is at p(+); at p(+) = 0 it is undefined and the data's prevalence is used,
    # which differs between these two: "treat all" is not one curve, so the pane is refused.
    a = cw.Classifier.from_scores(Y, RISK, name="a")
    b = cw.Classifier.from_scores(1 - Y, RISK, name="b")
    w = cw.CostWidget([a, b], p_pos=0.0)
    try:
        w.decision_curve_view.toggle.value = True
        assert not w.show_decision_curve
        assert "refused" in w.errors.message and "prevalence" in w.errors.message
        assert w.decision_curve_view.toggle.value is False
        w.p_pos = 0.3  # one prevalence for both: one "treat all"
        w.decision_curve_view.toggle.value = True
        assert w.show_decision_curve
        treat_all = w.decision_curve_view.frame.query("classifier == 'treat all'")
        np.testing.assert_allclose(
            treat_all.net_benefit,
            0.3 - 0.7 * treat_all.threshold_probability / (1 - treat_all.threshold_probability),
            atol=1e-12,
        )
    finally:
        w.close()


def test_frames_and_snapshot_record_it(widget, tmp_path):
    w = widget
    w.update(threshold_choice="score", show_decision_curve=True)
    frames = w.to_frame()
    assert set(frames["decision_curve"].classifier) == {"risk", "margin", "treat all", "treat none"}
    assert set(frames["threshold_choice"].threshold_choice) == {"optimal", "score"}
    snap = json.loads(json.dumps(w.snapshot(), allow_nan=False))
    assert snap["threshold_choice"]["method"] == "score"
    assert snap["threshold_choice"]["show_decision_curve"] is True
    w.update(threshold_choice="none", show_decision_curve=False)
    w.restore(snap)
    assert w.threshold_choice == "score" and w.show_decision_curve
    path = w.to_html(tmp_path / "page.html")
    assert "Decision curve" in path.read_text(encoding="utf-8")


def test_snapshot_without_the_record_still_restores(widget):
    w = widget
    snap = w.snapshot()
    del snap["threshold_choice"]  # a snapshot from before issue 21
    w.threshold_choice = "score"
    w.restore(snap)
    assert w.threshold_choice == "score"  # not in the record: left as it is
    snap["threshold_choice"] = {"method": "bogus"}
    with pytest.raises(ValueError, match="nothing was changed"):
        w.restore(snap)
    assert w.threshold_choice == "score"


def test_figure_draws_what_is_shown(widget, tmp_path):
    w = widget
    w.update(threshold_choice="score+rate", show_decision_curve=True, p_pos=0.2)
    fig = w.to_figure()
    assert len(fig.axes) == 3 and fig.axes[2].get_title() == "Decision curve"
    # Every decision curve drawn is one of the pane's, point for point (net benefit at the
    # operating point's p(+) = 0.2, from the raw scores), and the operating pt is marked.
    lines = [
        (np.asarray(ln.get_xdata(), float), np.asarray(ln.get_ydata(), float))
        for ln in fig.axes[2].lines
    ]
    pt = np.arange(100) / 100
    for name, s in (("risk", RISK), ("margin", MARGIN)):
        cuts = np.concatenate(([np.inf], np.unique(s)))
        best = [
            max(0.2 * t - 0.8 * f * q / (1 - q) for f, t in (_rates(s, c) for c in cuts))
            for q in pt
        ]
        assert any(len(x) == 100 and np.allclose(y, best, atol=1e-12) for x, y in lines), name
    risk_score = [
        0.2 * t - 0.8 * f * q / (1 - q)
        for q in pt
        for f, t in [_rates(RISK, q if q > 0 else np.nextafter(0.0, 1.0))]
    ]
    assert any(len(x) == 100 and np.allclose(y, risk_score, atol=1e-12) for x, y in lines)
    assert any(np.allclose(x, 1 / 3) for x, _ in lines)  # pt = C(+|-)/(C(+|-)+C(-|+))
    assert len(fig.axes[1].collections) >= 2  # the shaded gaps of the cost pane
    path = w.save(tmp_path / "fig.png")
    assert path.stat().st_size > 1000
