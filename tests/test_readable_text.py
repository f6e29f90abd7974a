"""Numbers a reader can read (issue 30, item 6): the headline's words and thresholds.

Every expectation is computed independently of the package: the rule a shown threshold names is
found by classifying the raw scores with the shown text parsed as a float, and the cheapest rule
by a brute force over every threshold (expected cost per case = p·C(-|+)·FNR + (1-p)·C(+|-)·FPR,
Drummond & Holte 2006, sec. 2).
"""

from __future__ import annotations

import re

import bqplot as bq
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costwidget as cw
from costwidget.model import readable
from costwidget.model.kernels.readable import selecting_threshold
from costwidget.widget.panes.threshold_choice_view import TABLE_COLUMNS

#: A "-0" anywhere in a text: a minus, zeros, and no other digit of the same number.
MINUS_ZERO = re.compile(r"(?<![\d.])[-−]0(?:\.0*)?(?![\d.e])")


def _distinct_desc(scores):
    return np.unique(np.asarray(scores, dtype=float))[::-1]


def _selects_the_same(scores, threshold, text):
    return np.array_equal(scores >= float(text), scores >= threshold)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False), min_size=2, max_size=40),
    st.integers(0, 3),
)
def test_the_shown_threshold_flags_the_same_cases(raw, grid):
    """For every distinct score t, `score >= float(shown)` flags exactly what `score >= t` does
    (the shown text between t and the next lower score), on scores close together or on grids."""
    scores = np.asarray(raw, dtype=float)
    if grid:  # scores on a decimal grid, where a 4-digit rounding lands on another score
        scores = np.round(scores / 10.0 ** (grid + 3), 8)
    distinct = _distinct_desc(scores)
    for t, lo in zip(distinct, np.append(distinct[1:], -np.inf)):
        text = selecting_threshold(t, lo)
        assert _selects_the_same(scores, t, text), (t, lo, text)
        assert not MINUS_ZERO.search(text), text
        # As short as it can be: never longer than the text that reads back as t itself.
        assert len(text.lstrip("-")) <= len(repr(float(t)).lstrip("-")) + 4


def test_four_digits_would_name_another_rule():
    """Issue 31's case: 0.3003 for 0.30027084 leaves out 0.30027084 and 0.30028 themselves."""
    scores = np.array([0.30027084, 0.30028, 0.3002, 0.1])
    t, lo = 0.30027084, 0.3002
    assert not _selects_the_same(scores, t, readable(t))  # the 4-digit rounding: wrong rule
    text = selecting_threshold(t, lo)
    assert _selects_the_same(scores, t, text) and text == "0.30027"


def test_no_minus_zero_in_shown_numbers():
    assert readable(-0.0) == "0"
    assert selecting_threshold(-0.0, -1.0) == "0"


def _brute_flags(y, scores, p, fn, fp):
    """The cases the cheapest rule `score >= t` flags, over every threshold (all ties)."""
    pos, neg = y.sum(), (~y).sum()
    costs = []
    for t in np.concatenate([np.unique(scores), [np.inf]]):
        pred = scores >= t
        costs.append(
            (p * fn * (~pred & y).sum() / pos + (1 - p) * fp * (pred & ~y).sum() / neg, pred)
        )
    low = min(c for c, _ in costs)
    return [pred for c, pred in costs if c <= low + 1e-12]


@pytest.fixture()
def grid_data():
    """Scores on a 0.0001 grid near 0.3, where a 4-digit threshold names the neighbour."""
    rng = np.random.default_rng(30)
    y = rng.random(400) < 0.4
    scores = np.round(0.3 + 0.002 * (y + rng.normal(scale=0.8, size=400)), 5)
    return y, scores


def test_headline_threshold_flags_what_the_brute_force_flags(grid_data):
    y, scores = grid_data
    w = cw.CostWidget([cw.Classifier.from_scores(y, scores, name="m")])
    try:
        for p in (0.2, 0.4, 0.6):
            w.update(p_pos=p, cost_fn=1.0, cost_fp=1.0)
            m = re.search(r"at score ≥ (\S+): ", w.headline.text)
            assert m, w.headline.text
            flagged = scores >= float(m.group(1))
            assert any(np.array_equal(flagged, b) for b in _brute_flags(y, scores, p, 1.0, 1.0)), (
                p,
                w.headline.text,
            )
    finally:
        w.close()


def test_flagging_nothing_and_everything_are_said_in_words(grid_data):
    y, scores = grid_data
    w = cw.CostWidget(
        [
            cw.Classifier.from_scores(y, scores, name="m"),
            cw.Classifier.from_scores(y, -scores, name="n"),
        ]
    )
    try:
        w.p_pos = 0.0  # nothing is positive: flagging no case costs nothing
        assert w.headline.text.startswith("Flag no case: 0 per case"), w.headline.text
        assert "score ≥" not in w.headline.text
        w.p_pos = 1.0  # everything is positive: flagging every case costs nothing
        assert w.headline.text.startswith("Flag every case: 0 per case"), w.headline.text
        w.update(p_pos=0.5, cost_fn=1.0, cost_fp=0.0)  # a false positive costs nothing
        assert w.headline.text.startswith("Flag every case: 0 per case"), w.headline.text
    finally:
        w.close()


def test_a_constrained_rule_at_score_zero_reads_0_not_minus_0():
    """Scores with -0.0 (a decision function's): the randomized rule's threshold reads 0."""
    y = np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 1], dtype=bool)
    s = np.array([-0.0, 0.5, -0.5, 0.7, -0.0, -0.2, 0.1, 0.3, -0.9, 0.9])
    w = cw.CostWidget([cw.Classifier.from_scores(y, s, name="m")], p_pos=0.5)
    try:
        for limit in (0.2, 0.3, 0.5, 0.7, 0.9):
            w.update(constraint="neyman_pearson", max_fpr=limit)
            assert not MINUS_ZERO.search(w.headline.text), w.headline.text
            assert not MINUS_ZERO.search(w.readout_view.constrained_widget.value)
    finally:
        w.close()


def test_difference_axis_labels_tell_every_tick_apart():
    """Two nearly equal models: the NEC difference spans about ±0.02; every tick label differs
    from the others, reads back as its tick, and all ticks lie inside the drawn range."""
    rng = np.random.default_rng(4)
    y = rng.random(600) < 0.4
    base = y * 3.0 + rng.normal(size=600)
    w = cw.CostWidget.from_predictions(
        y, {"a": np.round(base, 3), "b": np.round(base + 0.15 * rng.normal(size=600), 3)}
    )
    try:
        w.difference = ["a", "b"]
        w.wait(timeout=300)
        view = w.difference_view
        lo, hi = view.y_scale.min, view.y_scale.max
        assert hi - lo < 0.2  # a small difference: the case a fixed ".2f" got wrong
        ticks, fmt = np.asarray(view.y_axis.tick_values, dtype=float), view.y_axis.tick_format
        labels = [format(t, fmt) for t in ticks]
        assert len(ticks) >= 3 and len(set(labels)) == len(labels), labels
        assert all(lo <= t <= hi for t in ticks), (lo, hi, ticks)
        step = np.diff(ticks).min()
        assert all(abs(float(text) - t) < step / 10 for text, t in zip(labels, ticks)), labels
        assert not any(MINUS_ZERO.search(text) for text in labels), labels
    finally:
        w.close()


def _cells(table_html):
    import html as _html

    head = [_html.unescape(h) for h in re.findall(r"<th(?:\s[^>]*)?>(.*?)</th>", table_html)]
    rows = [
        [_html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", r)]
        for r in re.findall(r"<tr>(.*?)</tr>", table_html.split("<tbody>")[1])
    ]
    return head, rows


def test_threshold_choice_tables_read_as_the_readout():
    """Headers are words, numbers follow the readout's rule: up to 5 digits in full, grouped
    with commas (29,926, not 2.993e+04), else 4 significant digits."""
    rng = np.random.default_rng(1)
    y = rng.random(300) < 0.4
    p = 1 / (1 + np.exp(-(2 * y - 1 + rng.normal(size=300))))
    w = cw.CostWidget.from_predictions(y, {"a": p}, p_pos=0.5, cost_fn=59852.0, cost_fp=59852.0)
    try:
        w.threshold_choice = "score+rate"
        view = w.threshold_choice_view
        for table_html, frame in (
            (view.choices_html.value, view.choices.reset_index(drop=True)),
            (view.table_html.value, view.table.reindex(columns=TABLE_COLUMNS).reset_index()),
        ):
            head, rows = _cells(table_html)
            assert head and not any("_" in h for h in head), head
            assert len(rows) == len(frame)
            for cells, (_, row) in zip(rows, frame.iterrows()):
                numbers = [v for v in row if isinstance(v, float) and np.isfinite(v)]
                shown = [c for c in cells if re.fullmatch(r"-?[\d,]+(\.\d+)?(e[-+]\d+)?", c)]
                assert len(shown) == len(numbers), (cells, list(row))
                for text, v in zip(shown, numbers):
                    assert float(text.replace(",", "")) == pytest.approx(v, rel=5e-4, abs=1e-12)
                    if 1e3 <= abs(v) < 1e5:
                        assert "e" not in text and "," in text, text
        # The expected cost per case at this scale is in the thousands: shown with commas.
        assert any("," in c for r in _cells(view.choices_html.value)[1] for c in r)
    finally:
        w.close()


def test_the_cheapest_classifiers_dot_is_drawn_on_top():
    """The dot of the classifier with the lowest expected cost (brute force over thresholds) is
    drawn again over every other dot (bqplot draws later marks on top), in its colour, at its
    NEC; at a tie none is singled out. The drag handle stays at the foot, whatever the zoom."""
    rng = np.random.default_rng(7)
    n = 400
    y = rng.random(n) < 0.4
    # "first" finds most positives with few false alarms, "second" all of them less sharply:
    # the first is the cheaper at low p(+), the second at high p(+).
    models = {
        "first": np.where(
            y,
            np.where(rng.random(n) < 0.35, rng.normal(0, 1, n), rng.normal(3, 1, n)),
            rng.normal(0, 1, n),
        ),
        "second": np.where(y, rng.normal(1.3, 1, n), rng.normal(0, 1, n)),
    }
    w = cw.CostWidget.from_predictions(y, models, p_pos=0.4)
    try:
        op, marks = w.operating_tool, list(w.figures.cost.marks)
        winners = set()
        for p in (0.2, 0.4, 0.7, 0.9):
            w.p_pos = p
            costs = {
                n: min(_cost(y, s, p, t) for t in np.append(np.unique(s), np.inf))
                for n, s in models.items()
            }
            best = min(costs, key=costs.get)
            winners.add(best)
            assert op.winner_dot.visible and list(op.winner_dot.colors) == [w.colors[best]]
            assert op.winner_dot.y[0] == pytest.approx(costs[best] / _scale(p), abs=1e-12)
            assert op.winner_dot.x[0] == w.pcf
        assert winners == set(models)  # each model wins somewhere: the dot follows
        others = [
            m
            for m in marks
            if isinstance(m, bq.Scatter)
            and m not in (op.winner_dot, op.handle, w.hover_tool.cost_highlight)
        ]
        assert all(marks.index(m) < marks.index(op.winner_dot) for m in others)
        assert op.handle.scales["y"] is not w.figures.cost_y  # at the foot whatever the zoom
        w.p_pos = 1.0  # every classifier costs 0: a tie
        assert not op.winner_dot.visible
    finally:
        w.close()


def _scale(p, fn=1.0, fp=1.0):
    """Expected cost per case over NEC (eq. 4 of Drummond & Holte 2006)."""
    return p * fn + (1 - p) * fp


def _cost(y, s, p, t):
    pred = s >= t
    return p * (~pred & y).sum() / y.sum() + (1 - p) * (pred & ~y).sum() / (~y).sum()
