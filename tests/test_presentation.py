"""The widget as a person sees it, checked in Python (the browser test checks the page itself).

Words instead of variable names, colours from the theme (nothing hard-coded black), the legend
out of the plots, controls that show the state (and send the browser one consistent message),
only the active constraint's controls, the significance strip clear of the band, and the tour
notebook leaving the widget as it found it.
"""

from __future__ import annotations

import html
import json
import math
import re
import threading
from pathlib import Path

import ipywidgets as widgets
import numpy as np
import pytest

import costwidget as cw
from costwidget.widget import CostWidget
from costwidget.widget.controls.theme import CSS, INK, legend_html, swatch_class, swatch_css
from costwidget.widget.text.readout import CONSTRAINT_COLUMNS, READOUT_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    y = rng.random(1500) < 0.4
    return y, {"sharp": y + rng.normal(0, 0.6, y.size), "blunt": y + rng.normal(0, 1.2, y.size)}


@pytest.fixture
def w(data):
    y, scores = data
    widget = CostWidget.from_predictions(y, scores, p_pos=0.3)
    yield widget
    widget.close()


def _headers(table_html: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r"<th(?:\s[^>]*)?>(.*?)</th>", table_html)]


def _marks(w):
    figures = [w.figures.roc, w.figures.cost, w.difference_view.figure]
    return [m for f in figures for m in f.marks], figures


# ---------------------------------------------------------------------------- words
# What a reader sees above each column, written out here (not read from the code's constants),
# with the concept each column must show (issue 30: the old test compared the constant with
# itself, so a header in code words or a column under the wrong header passed).
MAIN_HEADERS = [
    "classifier",
    "threshold",
    "false-pos. rate",
    "true-pos. rate",
    "norm. expected cost",
    "expected cost per case",
    "operating range, PCF(+)",
]
CONSTRAINT_HEADERS = [
    "classifier",
    "false-pos. rate",
    "true-pos. rate",
    "norm. expected cost",
    "expected cost per case",
    "rule to deploy",
    "best single threshold",
]


def _cells(table_html: str) -> dict:
    """Each body row's cells as text, by the row's classifier name."""
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table_html, re.S):
        cells = [
            html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        if cells:  # the name follows its colour swatch, "■"
            rows[cells[0].lstrip("■").strip()] = cells
    return rows


def _number(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def test_readout_columns_are_words_not_variable_names(w, data):
    main = w.readout_view.widget.value
    assert _headers(main) == MAIN_HEADERS
    w.update(constraint="neyman_pearson", max_fpr=0.1)
    assert _headers(w.readout_view.constrained_widget.value) == CONSTRAINT_HEADERS
    # No header is a name from the code: none is a column of w.readout ("threshold" is also a
    # word) and none is written with underscores.
    code_names = set(w.readout.columns) - {"threshold"}
    for header in MAIN_HEADERS + CONSTRAINT_HEADERS:
        assert header not in code_names and "_" not in header, header
    # Each column shows what its header says, for each classifier: the rates of the rule
    # "score >= threshold" counted on the data here (as sklearn's roc_curve counts them), and
    # the costs from those rates (Drummond & Holte 2006: NEC = (1 - TPR - FPR) PCF(+) + FPR).
    y, scores = data
    pcf = w.pcf
    for name, cells in _cells(main).items():
        got = dict(zip(MAIN_HEADERS, cells))
        threshold = float(w.readout.loc[name, "threshold"])
        flagged = scores[name] >= threshold
        fpr, tpr = flagged[~y].mean(), flagged[y].mean()
        nec = (1 - tpr - fpr) * pcf + fpr
        cost = w.p_pos * (1 - tpr) * w.cost_fn + (1 - w.p_pos) * fpr * w.cost_fp
        for header, value in (
            ("threshold", threshold),
            ("false-pos. rate", fpr),
            ("true-pos. rate", tpr),
            ("norm. expected cost", nec),
            ("expected cost per case", cost),
        ):
            # Shown to 4 significant digits.
            assert _number(got[header]) == pytest.approx(value, rel=1e-3, abs=1e-12), (
                name,
                header,
                got[header],
                value,
            )


def test_operating_range_and_numbers_in_the_readout(w):
    row = w.readout.iloc[0]
    text = html.unescape(w.readout_view.widget.value)
    assert f"{row.range_lo:.3g}–{row.range_hi:.3g}" in text
    assert f"{row.expected_cost:.4g}" in text


def test_constraint_gets_a_table_of_its_own_in_words(w):
    assert w.readout_view.constrained_widget.value == ""
    w.update(constraint="neyman_pearson", max_fpr=0.1)
    main, extra = w.readout_view.widget.value, w.readout_view.constrained_widget.value
    # The main table keeps its columns; the constrained ones are in the second table.
    assert _headers(main) == ["classifier", *[text for text, _, _ in READOUT_COLUMNS]]
    assert _headers(extra) == ["classifier", *[text for text, _, _ in CONSTRAINT_COLUMNS]]
    assert "false-positive rate ≤ 0.1" in html.unescape(extra)
    for rule in w.readout.constrained_rule:
        assert html.escape(rule) in extra
    # The lowest constrained expected cost is the highlighted row.
    best = w.readout.constrained_expected_cost.idxmin()
    row = re.search(r"<tr([^>]*)><td>.*?" + re.escape(html.escape(best)) + "</td>", extra).group(1)
    assert "costwidget-best" in row
    w.update(constraint="workforce", capacity=200.0)
    assert "at most 200 cases flagged" in html.unescape(w.readout_view.constrained_widget.value)
    w.constraint = "none"
    assert w.readout_view.constrained_widget.value == ""


def test_names_are_escaped_in_both_tables(data):
    y, scores = data
    v = CostWidget.from_predictions(y, {XSS: scores["sharp"], "ok": scores["blunt"]})
    v.constraint = "neyman_pearson"
    for value in (v.readout_view.widget.value, v.readout_view.constrained_widget.value):
        assert "<img" not in value and html.escape(XSS) in value
    v.close()


def test_highlighted_row_uses_theme_colours(w):
    best = w.readout.expected_cost.idxmin()
    row = re.search(
        r"<tr([^>]*)><td>.*?" + re.escape(best) + "</td>", w.readout_view.widget.value
    ).group(1)
    assert "costwidget-best" in row
    # Theme variables with light fallbacks; never the old white-on-pale-yellow.
    assert "var(--cw-best-bg" in row and "var(--cw-best-fg" in row and "#fff3b0" not in row
    assert "--cw-best-bg: var(--jp-layout-color2" in CSS
    assert "--cw-best-fg: var(--jp-content-font-color0" in CSS


def test_capacity_and_ratio_say_their_units(w):
    c = w.constraint_tool
    w.constraint = "workforce"
    assert "cases" in c.capacity.description
    c.capacity_unit.value = "% flagged"
    assert "%" in c.capacity.description
    assert c.capacity_value.value.startswith("= ") and "cases" in c.capacity_value.value


# ---------------------------------------------------------------------------- colours
def test_no_mark_is_hard_coded_black(w):
    marks, _ = _marks(w)
    black = {"black", "#000", "#000000", "rgb(0, 0, 0)"}
    for m in marks:
        colors = list(getattr(m, "colors", None) or [])
        colors += [c for c in [getattr(m, "stroke", None)] if c]
        colors += list(getattr(m, "fill_colors", None) or [])
        assert not black & {str(c).lower() for c in colors}, f"{type(m).__name__} {colors}"
    op = w.operating_tool
    for mark in (
        op.operating_line,
        op.handle,
        w.classifier_layers.combined,
        w.difference_view.line,
        w.difference_view.operating_line,
        w.hover_tool.roc_highlight,
    ):
        assert list(mark.colors) == [INK]
    assert INK.startswith("var(--cw-ink,")


def test_every_theme_variable_has_a_fallback():
    # Outside JupyterLab (the exported page) a var() without a fallback would draw nothing.
    for ref in re.findall(r"var\((--jp-[^)]*)\)", CSS):
        assert "," in ref, ref
    for ref in re.findall(r"var\((--cw-[^)]*)\)", INK + legend_html()):
        assert "," in ref, ref
    # bqplot turns titles and axis labels orange in dark themes: the widget sets them back.
    assert "--bq-content-font-color: var(--cw-text)" in CSS
    assert "[data-jp-theme-light='false'] .costwidget" in CSS


def test_legend_is_a_row_outside_the_plots(w):
    marks, figures = _marks(w)
    assert not any(getattr(m, "display_legend", False) for m in marks)
    assert all(not f.display_toolbar for f in figures)  # its hover toolbar covered the titles
    row = w.classifier_layers.picker_row
    assert "costwidget-legend" in row._dom_classes
    text = w.classifier_layers.legend.value
    for words in ("best of all", "trivial", "never worth using", "operating point"):
        assert words in text
    # Each classifier's checkbox carries its colour: a hex class and a rule for it.
    for name, box in w.classifier_layers.picker.items():
        color = w.colors[name]
        assert swatch_class(color) in box._dom_classes
        assert f"border-top: 3px solid {color}" in text


def test_swatch_css_takes_only_hex_colours():
    assert swatch_class("#1F77b4") == "costwidget-swatch-1f77b4"
    assert swatch_class("red;} body {display:none") is None
    assert "display:none" not in swatch_css(["#123456", "red;} body {display:none"])


def test_panes_are_sized_by_the_css_not_fixed_pixels(w):
    _, figures = _marks(w)
    for fig in figures:
        assert fig.layout.width is None and fig.layout.height is None
        assert {"costwidget-pane", "costwidget-wide-pane"} & set(fig._dom_classes)
    panes = [c for c in w.widget.children if "costwidget-panes" in c._dom_classes]
    assert len(panes) == 1 and list(panes[0].children) == [w.figures.roc, w.figures.cost]
    style = w.widget.children[0]
    assert isinstance(style, widgets.HTML) and style.value == f"<style>{CSS}</style>"
    assert style.layout.display == "none"


# ---------------------------------------------------------------------------- controls
def _recording(widget):
    """Record the keys of every state message ``widget`` sends to the browser."""
    sent, send = [], widget.send_state

    def record(key=None):
        sent.append(set([key] if isinstance(key, str) else key or []))
        return send(key)

    widget.send_state = record
    return sent


def test_capacity_moves_in_one_message_and_keeps_the_state(data):
    # 10^5 cases: the case the capacity slider once showed 29900 for 29926 positives.
    a = cw.Classifier.from_confusion(tp=20000, fn=9926, fp=20000, tn=50074, name="A")
    v = CostWidget([a])
    c = v.constraint_tool
    sent = _recording(c.capacity)
    v.constraint = "workforce"
    assert v.capacity == 29926.0 and c.capacity.value == 29926.0
    assert c.capacity.readout_format == ",.0f"  # "29,926"
    assert c.capacity_value.value == "= 29,926 cases, 29.93 % of 100,000"
    for unit in ("% flagged", "cases", "% flagged", "cases"):
        sent.clear()
        c.capacity_unit.value = unit
        # Range, step and value reach the browser together: never a value it must clamp.
        moved = [keys for keys in sent if keys & {"max", "step", "value"}]
        assert moved and all({"max", "step", "value"} <= keys for keys in moved), sent
        # The readout's format travels before the value, never with it.
        formats = [i for i, keys in enumerate(sent) if "readout_format" in keys]
        assert formats and all(
            not sent[i] & {"value"} and i < sent.index(moved[0]) for i in formats
        ), sent
        assert c.capacity.readout_format == (".2f" if unit == "% flagged" else ",.0f")
        assert v.capacity == 29926.0
    assert c.capacity.value == 29926.0
    v.close()


def _browser_view(widget):
    """What the browser holds after each state message ``widget`` sends: (min, max, value)."""
    seen, send = [(widget.min, widget.max, widget.value)], widget.send_state

    def record(key=None):
        seen.append((widget.min, widget.max, widget.value))
        return send(key)

    widget.send_state = record
    return seen


def test_cost_ratio_slider_grows_and_the_text_shows_the_exact_ratio(w):
    op = w.operating_tool
    seen = _browser_view(op.log_ratio)
    w.update(cost_fn=123456.789, cost_fp=1.0)
    assert op.ratio_text.value == "= 123,500"  # issue 23: readable numbers
    assert op.log_ratio.max == 6 and op.log_ratio.min == -2
    assert op.log_ratio.value == pytest.approx(123456.789, rel=np.log(10) * 0.006)
    # The field is wide enough for the number (13 characters, theme.CSS).
    assert "costwidget-number" in op.cost_fn._dom_classes and "width: 13ch" in CSS
    w.update(cost_fn=1.0, cost_fp=2.0)
    assert op.ratio_text.value == "= 0.5" and (op.log_ratio.min, op.log_ratio.max) == (-2, 2)

    # Whatever order the browser applies a message's attributes in, its handle stays in its
    # range: the old value lies in the new range and the new value in the old one. (A clamped
    # handle is sent back as a move with continuous updates: a typed 1 once became 100.)
    def inside(v, lo, hi):
        return 10.0**lo * (1 - 1e-12) <= v <= 10.0**hi * (1 + 1e-12)

    assert len(seen) > 3
    for (lo0, hi0, v0), (lo1, hi1, v1) in zip(seen, seen[1:]):
        assert inside(v0, lo1, hi1) and inside(v1, lo0, hi0), seen
    w.cost_fp = 0.0
    assert op.ratio_text.value == "= ∞" and op.log_ratio.value == 10.0**op.log_ratio.max


def test_sliders_whose_grid_changes_send_only_when_let_go(w):
    # With continuous updates the browser sends back what it shows after a kernel's push: the
    # capacity snapped to its old step when the unit changes (it drifted to 0 in the browser).
    assert w.constraint_tool.capacity.continuous_update is False


def test_the_ratio_slider_sends_while_dragged_and_ignores_late_echoes(w):
    # The ratio as 10**log10(v) != v: a late echo once overwrote the tour's last cost (5.0118
    # for 1). Issue 23: the slider sends while dragged (its text follows), so the binding
    # ignores an echo of an older push and shows the current one again.
    op = w.operating_tool
    assert op.log_ratio.continuous_update is True
    w.update(cost_fn=5.0, cost_fp=1.0)
    pushed_5 = op.log_ratio.value
    w.update(cost_fn=1.0, cost_fp=1.0)
    op.log_ratio.value = pushed_5 * (1 + 1e-15)  # the browser's late answer to the first push
    assert (w.cost_fn, w.cost_fp) == (1.0, 1.0) and op.log_ratio.value == 1.0
    op.log_ratio.value = 10**0.37  # a user's move: snapped to 3 significant digits
    assert w.cost_fn == 2.34 and op.ratio_text.value == "= 2.34"
    assert op.log_ratio.value == 10**0.37  # not written back: the slider shows that position


def test_p_pos_field_takes_keys_and_follows_the_state(w):
    op = w.operating_tool
    field = op.p_pos_value
    # issue 23: not bounded (a BoundedFloatText clamped 2 to 1 silently: now refused)
    assert isinstance(field, widgets.FloatText) and field.step == 0.001
    w.p_pos = 0.123456
    assert field.value == 0.1235  # the readable state; the state keeps 0.123456
    assert w.p_pos == 0.123456
    field.value = 0.25  # an arrow key or a typed value in the browser
    assert w.p_pos == 0.25 and op.p_pos.value == 0.25
    field.value = 0.9995  # beyond the slider's range: the slider shows its end, the field the state
    assert w.p_pos == 0.9995 and op.p_pos.value == op.p_pos.max
    assert "costwidget-wide-slider" in op.p_pos._dom_classes  # long: ~0.002 per pixel


def test_only_the_active_constraints_controls_are_shown(w):
    c = w.constraint_tool
    shown = lambda box: box.layout.display != "none"  # noqa: E731
    assert not shown(c.neyman_pearson_box) and not shown(c.workforce_box)
    w.constraint = "neyman_pearson"
    assert shown(c.neyman_pearson_box) and not shown(c.workforce_box)
    w.constraint = "workforce"
    assert shown(c.workforce_box) and not shown(c.neyman_pearson_box)
    # Hiding one box never hides another (they do not share a Layout).
    layouts = [id(b.layout) for b in (c.neyman_pearson_box, *c.workforce_box.children)]
    assert len(set(layouts)) == len(layouts)


# ---------------------------------------------------------------------------- drawings
def test_significance_strip_lies_under_the_band(w):
    w.update(difference=["sharp", "blunt"], band_level=0.9)
    w.wait(timeout=300)
    view = w.difference_view
    intervals = w.difference_intervals
    assert len(intervals), "the test pair should differ somewhere"
    band = w.difference_band
    strip = np.asarray(view.significant.y, dtype=float)
    # Below the band's lower edge everywhere (it used to hide it on the zero line) and inside
    # the axis.
    assert strip.max() < band["lower"].min() and strip.min() > view.y_scale.min
    assert np.asarray(view.operating_line.y).min() == view.y_scale.min


def test_full_cost_lines_keep_the_axis_and_are_faint(w):
    w.show_cost_lines = True
    assert w.figures.cost_y.max == 0.5
    assert all(m.stroke_width < 1 and m.opacities[0] <= 0.3 for m in w.classifier_layers.cost_lines)


# ---------------------------------------------------------------------------- notebooks
# Run after the tour's last cell, in its kernel (tests/conftest.py, ``executed_notebook``).
NOTEBOOK_PROBES = {
    "tour.ipynb": "w.wait(timeout=300)\n"
    "state = (w.constraint, w.cost_fn, w.show_bands, w.show_fold_spread, w.difference)\n"
    "assert state == ('none', 1.0, False, False, []), state"
}


@pytest.mark.slow  # a notebook executed (once per run: tests/conftest.py)
def test_tour_leaves_the_widget_as_it_started(executed_notebook):
    run = executed_notebook("tour.ipynb")
    errors = run.errors(run.nb.cells + run.probe)
    assert not errors, errors[0]
    assert run.probe  # the check ran


@pytest.mark.parametrize(
    "cost_fn, cost_fp",
    [(1.7976931348623157e308, 1.0), (1.0, 1.7976931348623157e308), (5e-324, 1.0), (1.0, 5e-324)],
)
def test_extreme_cost_ratios_are_taken_and_the_ratio_slider_stays_finite(w, cost_fn, cost_fp):
    # A typed cost of 1.8e308 made the slider compute 10 ** 309 (OverflowError, found by the
    # stateful test): the slider stops at the decades a float holds, the text keeps the ratio.
    w.update(cost_fn=cost_fn, cost_fp=cost_fp)
    slider = w.operating_tool.log_ratio
    assert (w.cost_fn, w.cost_fp) == (cost_fn, cost_fp)
    assert -308 <= slider.min < slider.max <= 308
    assert math.isfinite(10.0**slider.max) and slider.min <= math.log10(slider.value) <= slider.max


def test_no_visible_label_has_a_null_tooltip(w):
    """A description label whose widget has no tooltip gets the title "null" in the browser
    (ipywidgets sets it from the model's None): every visible label has a tooltip of its own."""
    from ipywidgets.widgets.widget_description import DescriptionWidget

    from costwidget.widget.state.lifecycle import reachable_widgets

    labelled = [
        x
        for x in reachable_widgets([w.widget])
        if isinstance(x, DescriptionWidget) and x.description
    ]
    assert labelled
    missing = sorted({x.description for x in labelled if not isinstance(x.tooltip, str)})
    assert not missing, f"labels without a tooltip (shown as 'null'): {missing}"


def test_the_range_of_interest_has_no_classifiers_colour_and_the_grey_region_is_named_right():
    from costwidget.palette import PALETTE
    from costwidget.widget.controls.theme import legend_html
    from costwidget.widget.tools.range_of_interest import SHADE_COLOR, SHADE_FILL

    def rgb(c):
        return np.array([int(c[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)

    for colour in (SHADE_COLOR, SHADE_FILL):
        nearest = min(np.linalg.norm(rgb(colour) - rgb(p)) for p in PALETTE)
        assert nearest > 80, (colour, nearest)  # the old "#e6a000" was 1.0 from "#E69F00"
    # The grey region is above *either* trivial line (above min(x, 1 - x)), as it is drawn.
    text = legend_html()
    assert "y = x or y = 1 − x" in text and "above both" not in text


def test_the_tours_difference_step_says_what_the_data_say():
    """The tour's text: no pair of the demo's models differs anywhere by the simultaneous band,
    and at C(−|+) = 5 (PCF(+) = 0.68) the pointwise band finds random forest cheaper than naive
    Bayes. Checked here on the bundled data, so the text cannot silently go stale."""
    import itertools

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
    for a, b in itertools.combinations(models, 2):
        band = cw.difference_band(models[a], models[b], 0.9, random_state=0)
        assert not band["significant"].any(), (a, b)
    text = "".join(
        c
        for cell in json.loads((ROOT / "notebooks" / "tour.ipynb").read_text())["cells"]
        for c in cell["source"]
    )
    assert "no pair of the four models differs significantly anywhere" in text
    pcf = cw.probability_cost(0.3, 5.0, 1.0)
    point = cw.difference_band(
        models["naive Bayes"],
        models["random forest"],
        0.9,
        grid=[pcf],
        random_state=0,
        simultaneous=False,
    )
    assert bool(point["significant"].iloc[0]) and point["lower"].iloc[0] > 0  # RF cheaper
    assert "random forest is the cheaper model at that operating point" in text


def test_uncertainty_notebook_names_an_extra_that_exists():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    text = (ROOT / "notebooks" / "uncertainty.ipynb").read_text()
    named = set(re.findall(r"costwidget\[(\w+)\]", text))
    assert named and named <= set(extras) and "matplotlib>=3.7" in extras["export"][0]


def test_browser_test_frontends_are_in_the_test_extra():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    # `test` is `test-core` and empulse (which the oldest-supported job leaves out).
    assert "costwidget[test-core]" in extras["test"]
    test = extras["test-core"]
    assert {re.split(r"[<>=]", d)[0] for d in test} >= {
        "notebook",
        "voila",
        "jupyterlab",
        "matplotlib",
    }


def test_the_readme_shows_a_picture_of_the_widget():
    """A PNG at least 800 px wide, in the repository, made by docs/make_readme_picture.py."""
    import struct

    text = (ROOT / "README.md").read_text()
    assert "](docs/widget.png)" in text
    png = (ROOT / "docs" / "widget.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width >= 800 and height >= 600, (width, height)


def _css_rule(selector: str) -> str:
    match = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    assert match, f"no rule for {selector}"
    return match.group(1)


def test_no_empty_space_above_the_controls_when_all_is_well(w, monkeypatch):
    """The error banner and the busy sign take no line of their own: they lie over the headline,
    in one box with it, out of the flow (issue 29: showing them once pushed every control
    down). Each shows exactly while it has something to say: the bands are held computing
    until the test lets them go (issue 30: the old test skipped the busy sign whenever the
    bands finished first)."""
    errors, busy = w.errors.widget, w._background.widget
    top = w.widget.children[1]
    assert "costwidget-top" in top._dom_classes
    headline, status = top.children
    assert headline is w.headline.widget and "costwidget-status" in status._dom_classes
    assert list(status.children) == [errors, busy]
    assert w.widget.children[2] is w.operating_tool.widget  # the controls come next
    assert "position: relative" in _css_rule(".costwidget .costwidget-top")
    layer = _css_rule(".costwidget .costwidget-status")
    assert "position: absolute" in layer and "inset: 0" in layer
    w.wait(timeout=120)
    assert errors.layout.display == "none" and busy.layout.display == "none"
    w.operating_tool.cost_fn.value = -1.0  # typed into the field: refused in the banner
    assert errors.layout.display is None and "cost" in w.errors.message
    w.operating_tool.cost_fn.value = 2.0  # a good change clears the banner
    assert errors.layout.display == "none" and w.errors.message == ""
    release, compute = threading.Event(), w.band_layer.compute

    def held(clf, request):
        assert release.wait(timeout=120), "the test never let the bands go"
        return compute(clf, request)

    monkeypatch.setattr(w.band_layer, "compute", held)
    try:
        w.show_bands = True
        assert w.busy and busy.layout.display is None
        assert "computing bands" in w._background.label.value
    finally:
        release.set()
    w.wait(timeout=300)
    assert not w.busy and busy.layout.display == "none" and w._background.label.value == ""
    assert sorted(w.drawn_bands) == sorted(w.visible)
