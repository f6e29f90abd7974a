"""Real-browser test of the interactive exported page (``w.to_html(path)``, no kernel).

Chromium opens the page from disk with every non-file request refused. Each control that moves
the operating point or the constraint is driven by keyboard and by mouse; after every step the
state the page *shows* is read from its controls, and the operating line, the optimal dots in
both panes, the constraint's marks and every readout row must equal what the Python model
computes for that state here, independently (``Classifier.best``, ``neyman_pearson``,
``workforce``, ``decide``; the readout's HTML by the widget's Python formatter). The SVG
operating line must move too (the marks are drawn, not only set). Screenshots go to
tests/artifacts/.
"""

from __future__ import annotations

import math
import types

import numpy as np
import pytest
from lab_server import offline_page, wait_for_state

from costwidget.model import decide, probability_cost, readable, readable_value
from costwidget.widget.text.readout import constraint_description, constraint_html, readout_html

EVIL = '<img src=x onerror="window.__x=1">'

# The page's controls and owned marks, read through the models the spec names.
_READ = r"""async () => {
  const page = await window.costwidgetPage;
  const spec = JSON.parse(document.getElementById('costwidget-frontend').textContent);
  const models = await window.costwidgetModels;
  const m = (role) => models.find((x) => x.model_id === spec.roles[role]);
  const arr = (v) => Array.isArray(v) ? v.map((r) => Array.from(r)) : Array.from(v);
  const out = {controls: {}, marks: {}, html: {}};
  for (const r of ['p_pos', 'p_pos_value', 'cost_fn', 'cost_fp', 'log_ratio', 'constraint',
                   'max_fpr', 'capacity', 'capacity_unit', 'n_pos', 'n_neg']) {
    // Selection widgets hold an index in the browser; spec.options has their values.
    out.controls[r] = spec.options[r] ? spec.options[r][m(r).get('index')] : m(r).get('value');
  }
  for (const r of ['operating_line', 'chosen', 'nec_points', 'iso_lines', 'roc_points',
                   'roc_line', 'cost_lines']) {
    out.marks[r] = {x: arr(m(r).get('x')), y: arr(m(r).get('y')), visible: m(r).get('visible'),
                    opacities: m(r).get('opacities')};
  }
  for (const r of ['readout', 'constrained_readout', 'pcf']) out.html[r] = m(r).get('value');
  out.state = page.state;
  return out;
}"""

# The x (pixels) of every vertical line in the cost pane's SVG (the operating line is one), to
# see that the mark is drawn, not only set.
_LINE_PIXEL = r"""() => {
  const svg = document.querySelector('.costwidget-cost svg.svg-figure');
  const xs = [];
  for (const p of svg.querySelectorAll('path.line')) {
    const m = /^M([\d.]+),-?[\d.]+L([\d.]+),-?[\d.]+$/.exec(p.getAttribute('d') || '');
    if (m && m[1] === m[2]) xs.push(m[1]);
  }
  return xs.join('|');
}"""


_SHOWN = r"""() => {
  const val = (css) => document.querySelector(`${css} input`).value;
  return {p_pos_value: val('.costwidget-p-pos-value'), cost_fn: val('.costwidget-cost-fn'),
          cost_fp: val('.costwidget-cost-fp'),
          constraint: Array.from(document.querySelectorAll(
            '.costwidget-constraint > .widget-toggle-buttons .mod-active')).map((b) => b.textContent)};
}"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    from costwidget.widget import CostWidget

    rng = np.random.default_rng(7)
    n = 400
    y = rng.random(n) < 0.35
    scores = {
        "logistic": np.round(y * 1.3 + rng.normal(size=n), 1),  # tied scores
        EVIL: y * 0.7 + rng.normal(size=n),
    }
    w = CostWidget.from_predictions(y, scores, p_pos=0.3)
    path = tmp_path_factory.mktemp("page") / "page.html"
    w.to_html(path)
    yield w, path
    w.close()


def _expected_state(c, state):
    """The state the page holds; its controls must show it, fields as readable numbers (the
    one rule, issue 23: a field shows 0.3 for p(+) = 0.29995937)."""
    for key in ("p_pos", "cost_fn", "cost_fp", "n_pos", "n_neg"):
        assert c[key if key != "p_pos" else "p_pos_value"] == readable_value(state[key]), key
    assert c["constraint"] == state["constraint"] and c["max_fpr"] == state["max_fpr"]
    return types.SimpleNamespace(
        **{
            k: state[k]
            for k in (
                "p_pos",
                "cost_fn",
                "cost_fp",
                "constraint",
                "max_fpr",
                "capacity",
                "n_pos",
                "n_neg",
                "population_set",
            )
        }
    )


def _check(page, w, *, capacity_exact=True):
    got = page.evaluate(_READ)
    s = _expected_state(got["controls"], got["state"])
    clfs = w.classifiers
    colors = dict(w.colors)
    pcf = probability_cost(s.p_pos, s.cost_fn, s.cost_fp)
    ops = [c.best(pcf) for c in clfs]
    marks = got["marks"]
    assert marks["operating_line"]["x"] == [pcf, pcf]
    assert marks["chosen"]["x"] == [op.fpr for op in ops]
    assert marks["chosen"]["y"] == [op.tpr for op in ops]
    assert marks["nec_points"]["x"] == [pcf] * len(clfs)
    np.testing.assert_allclose(marks["nec_points"]["y"], [op.nec for op in ops], rtol=0, atol=1e-12)
    for (xa, xb), op in zip(marks["iso_lines"]["x"], ops):
        assert xa <= op.fpr <= xb
    # The page's answer is the model's one decision (issue 31): each classifier's rule under the
    # constraint (its optimum where the limit does not bind), the readout's rows and highlight.
    limits = {
        "none": {},
        "neyman_pearson": {"max_fpr": s.max_fpr},
        "workforce": {"capacity": s.capacity, "n_pos": s.n_pos, "n_neg": s.n_neg},
    }
    decision = decide(
        clfs,
        p_pos=s.p_pos,
        cost_fn=s.cost_fn,
        cost_fp=s.cost_fp,
        constraint=s.constraint,
        **limits[s.constraint],
    )
    assert marks["roc_points"]["visible"] is (s.constraint != "none")
    if s.constraint != "none":
        rules = [decision.of(c.name).rule for c in clfs]
        np.testing.assert_allclose(
            marks["roc_points"]["x"], [r.fpr for r in rules], rtol=1e-12, atol=1e-15
        )
        np.testing.assert_allclose(
            marks["roc_points"]["y"], [r.tpr for r in rules], rtol=1e-12, atol=1e-15
        )
    rows = list(decision.rows)
    constrained = s.constraint != "none"
    assert got["html"]["readout"] == readout_html(
        rows, colors, **({} if constrained else {"best": decision.chosen})
    )
    if capacity_exact or s.constraint != "workforce":
        assert got["html"]["constrained_readout"] == constraint_html(
            rows, colors, constraint_description(s), best=decision.chosen
        )
    assert got["html"]["pcf"].startswith(f"PCF(+) = <b>{readable(pcf)}</b>")
    # What the views show agrees with the models (a view can miss an update its models got).
    shown = page.evaluate(_SHOWN)
    assert [float(shown[k]) for k in ("p_pos_value", "cost_fn", "cost_fp")] == [
        readable_value(v) for v in (s.p_pos, s.cost_fn, s.cost_fp)
    ]
    labels = {"none": "none", "neyman_pearson": "Neyman-Pearson", "workforce": "workforce"}
    assert shown["constraint"] == [labels[s.constraint]]
    return got


@pytest.fixture(scope="module")
def page(browser, exported):
    _, path = exported
    with offline_page(browser, path) as (pg, errors, refused):
        yield pg
        assert not refused, refused
        assert not errors, errors
        assert pg.evaluate("window.__x") is None


def _handle(page, css):
    return page.locator(f"{css} .noUi-handle, {css} [role=slider]").first


def _moved(page, before):
    assert wait_for_state(page, f"() => ({_LINE_PIXEL})() !== {before!r}", timeout=5_000)


def test_p_pos_by_keyboard_and_mouse(page, exported, artifacts):
    w, _ = exported
    first = _check(page, w)
    assert first["controls"]["p_pos_value"] == pytest.approx(w.p_pos)
    line = page.evaluate(_LINE_PIXEL)
    h = _handle(page, ".costwidget-p-pos")
    h.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        _check(page, w)
    _moved(page, line)
    assert page.evaluate(_READ)["controls"]["p_pos_value"] == pytest.approx(w.p_pos + 0.003)
    # The mouse: a click on the slider's track, three quarters along.
    box = page.locator(
        ".costwidget-p-pos .noUi-target, .costwidget-p-pos .slider"
    ).first.bounding_box()
    line = page.evaluate(_LINE_PIXEL)
    page.mouse.click(box["x"] + 0.75 * box["width"], box["y"] + box["height"] / 2)
    _moved(page, line)
    got = _check(page, w)
    assert got["controls"]["p_pos_value"] > 0.6
    # The number field: typed, then Enter; p(+) at 0 and at 1 (the slider stops at 0.001 and
    # 0.999; the field and the state do not).
    field = page.locator(".costwidget-p-pos-value input")
    for text in ("0", "1", "0.125"):
        field.fill(text)
        field.press("Enter")
        assert wait_for_state(
            page, "async () => (await window.costwidgetPage).state.p_pos === " + str(float(text))
        )
        _check(page, w)
    # The drag handle at the foot of the operating line: dropped ~60 px to the right, PCF(+)
    # follows (p(+) moves to 3 significant digits, the costs stay) and everything is drawn there.
    before = page.evaluate(_READ)["marks"]["operating_line"]["x"][0]
    dots = page.locator(".costwidget-cost svg.svg-figure .dot")
    bb = dots.nth(dots.count() - 1).bounding_box()  # the handle is the pane's last mark
    page.mouse.move(bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2)
    page.mouse.down()
    page.mouse.move(bb["x"] + 60, bb["y"] + bb["height"] / 2, steps=5)
    page.mouse.up()
    assert wait_for_state(page, "async () => (await window.costwidgetPage).state.p_pos !== 0.125")
    got = _check(page, w)
    assert (got["state"]["cost_fn"], got["state"]["cost_fp"]) == (1, 1)
    assert float(f"{got['state']['p_pos']:.3g}") == got["state"]["p_pos"]
    assert got["marks"]["operating_line"]["x"][0] > before + 0.05
    page.screenshot(path=str(artifacts / "interactive_page_p_pos.png"), full_page=True)


def test_costs_and_ratio(page, exported):
    w, _ = exported
    field = page.locator(".costwidget-cost-fn input")
    field.fill("5")
    field.press("Enter")
    assert wait_for_state(page, "async () => (await window.costwidgetPage).state.cost_fn === 5")
    _check(page, w)
    field = page.locator(".costwidget-cost-fp input")
    field.fill("2.5")
    field.press("Enter")
    assert wait_for_state(page, "async () => (await window.costwidgetPage).state.cost_fp === 2.5")
    got = _check(page, w)
    assert page.inner_text(".costwidget-ratio-value") == "= 2"
    # A cost that Python refuses (both zero) keeps the last good state.
    field.fill("0")
    field.press("Enter")
    page.locator(".costwidget-cost-fn input").fill("0")
    page.locator(".costwidget-cost-fn input").press("Enter")
    page.wait_for_timeout(100)  # nothing must happen: no state with both costs zero
    assert (
        page.evaluate("async () => (await window.costwidgetPage).state.cost_fn") != 0
        or page.evaluate("async () => (await window.costwidgetPage).state.cost_fp") != 0
    )
    _check(page, w)
    # ... and says so in the widget's error banner (escaped text), as the live widget does.
    banner = ".costwidget .costwidget-errors"
    assert wait_for_state(
        page, f"() => (document.querySelector('{banner}') || {{}}).innerText?.includes('refused')"
    ), "no banner"
    field.fill("1")
    field.press("Enter")
    assert wait_for_state(page, "async () => (await window.costwidgetPage).state.cost_fp === 1")
    assert wait_for_state(page, f"() => !(document.querySelector('{banner}') || {{}}).innerText")
    _check(page, w)
    # The ratio slider, by keyboard and by a click on its track: C(+|-) = 1 stays and C(-|+)
    # becomes the ratio (costs_for_ratio), snapped to 3 significant digits.
    for move in ("key", "mouse"):
        before = page.evaluate(_READ)["state"]
        if move == "key":
            _handle(page, ".costwidget-ratio").focus()
            page.keyboard.press("ArrowLeft")
        else:
            box = page.locator(".costwidget-ratio .noUi-target").first.bounding_box()
            page.mouse.click(box["x"] + 0.25 * box["width"], box["y"] + box["height"] / 2)
        assert wait_for_state(
            page,
            f"async () => (await window.costwidgetPage).state.cost_fn !== {before['cost_fn']!r}",
        )
        got = _check(page, w)
        assert got["state"]["cost_fp"] == 1
        assert got["state"]["cost_fn"] == float(f"{got['controls']['log_ratio']:.3g}")


def test_constraints(page, exported, artifacts):
    w, _ = exported
    page.get_by_role("button", name="Neyman-Pearson").click()
    assert wait_for_state(
        page, "async () => (await window.costwidgetPage).state.constraint === 'neyman_pearson'"
    )
    _check(page, w)
    assert page.locator(".costwidget-constraint-table").count() == 1
    h = _handle(page, ".costwidget-constraint .widget-hslider")
    h.focus()
    for key in ["ArrowRight", "ArrowRight", "ArrowLeft", "PageUp"]:
        page.keyboard.press(key)
        _check(page, w)
    # The mouse: drag the max-FPR handle to the right.
    b = h.bounding_box()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + 120, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()
    got = _check(page, w)
    assert got["controls"]["max_fpr"] > 0.1
    # The buttons by keyboard: workforce focused, then Enter.
    page.get_by_role("button", name="workforce").focus()
    page.keyboard.press("Enter")
    assert wait_for_state(
        page, "async () => (await window.costwidgetPage).state.constraint === 'workforce'"
    )
    _check(page, w)
    box = page.locator(".costwidget-capacity .noUi-target").first.bounding_box()
    page.mouse.click(box["x"] + 0.4 * box["width"], box["y"] + box["height"] / 2)
    assert wait_for_state(
        page,
        "async () => { const s = (await window.costwidgetPage).state; "
        "return s.capacity > 0.3 * (s.n_pos + s.n_neg) && "
        "s.capacity < 0.5 * (s.n_pos + s.n_neg); }",
    )
    _check(page, w)
    cap = _handle(page, ".costwidget-capacity")
    cap.focus()
    for key in ["ArrowLeft"] * 3 + ["End"]:  # End: a capacity of every case (above the positives)
        page.keyboard.press(key)
        page.wait_for_function("() => true")
        _check(page, w)
    page.get_by_role("button", name="% flagged").click()
    _check(page, w)
    page.screenshot(path=str(artifacts / "interactive_page_workforce.png"), full_page=True)
    page.get_by_role("button", name="none").click()
    assert wait_for_state(
        page, "async () => (await window.costwidgetPage).state.constraint === 'none'"
    )
    got = _check(page, w)
    assert got["html"]["constrained_readout"] == ""
    assert not math.isnan(got["state"]["p_pos"])


def test_static_page_has_no_binding(exported, tmp_path):
    w, _ = exported
    text = w.to_html(interactive=False)
    assert "costwidget-frontend" not in text and "nothing is recomputed" in text
    assert '<script type="module">' not in text


# ---------------------------------------------------------------------------- what is live
# Issue 29: the page says what is live. The controls that need Python, as a reader sees them.
_DEAD = r"""() => {
  const root = document.querySelector('.costwidget');
  const out = [];
  for (const box of root.querySelectorAll('.widget-checkbox')) {
    const input = box.querySelector('input'), span = box.querySelector('.widget-label-basic span');
    out.push({name: span.textContent.trim(), disabled: input.disabled, checked: input.checked,
              title: input.title, labelTitle: span.title});
  }
  for (const el of root.querySelectorAll('.widget-dropdown, .widget-slider, .widget-text, button')) {
    if (!el.getClientRects().length) continue;
    const label = el.querySelector('.widget-label');
    const control = el.matches('button') ? el : el.querySelector('select, input, .noUi-target');
    if (!control) continue;
    out.push({name: (label && label.textContent.trim()) || el.textContent.trim(),
              disabled: control.disabled === true || control.hasAttribute('disabled'),
              title: [el, label, control].map((e) => (e && e.title) || '').join(' ')});
  }
  return out;
}"""


@pytest.fixture(scope="module")
def demo_page(browser, tmp_path_factory):
    import costwidget as cw

    w = cw.demo(cost_fn=5.0)
    try:
        w.update(
            show_bands=True,
            threshold_choice="score+rate",
            show_decision_curve=True,
            difference=["gradient boosting", "naive Bayes"],
        )
        path = w.to_html(tmp_path_factory.mktemp("live") / "report.html")
        pcf = probability_cost(w.p_pos, w.cost_fn, w.cost_fp)
    finally:
        w.close()
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.route(
        "**/*",
        lambda r: r.continue_() if r.request.url.startswith(("file:", "data:")) else r.abort(),
    )
    pg = ctx.new_page()
    pg.goto(path.as_uri())
    assert wait_for_state(pg, "() => window.costwidgetPage !== undefined", timeout=60_000)
    pg.evaluate("window.costwidgetPage")
    # The checkboxes are drawn, and say why they are disabled (the page's observer).
    assert wait_for_state(
        pg,
        "() => { const b = document.querySelectorAll("
        "'.costwidget .widget-checkbox input:disabled'); return b.length > 5"
        " && Array.from(b).every(i => i.title.includes('needs Python')); }",
    )
    yield pg, pcf
    ctx.close()


def test_the_page_says_what_is_live(demo_page, artifacts):
    page, pcf = demo_page
    controls = page.evaluate(_DEAD)
    by_name = {c["name"]: c for c in controls}
    live = {
        "p(+)",
        "C(-|+) false negative",
        "C(+|-) false positive",
        "C(-|+)/C(+|-)",
        "none",
        "Neyman-Pearson",
        "workforce",
    }
    need_python = {
        "bands",
        "level",
        "decision curve",
        "difference",
        "threshold choice",
        "cost lines of all hull points",
        "fold spread (min–max)",
        "brush range",
        "clear",
        "thesis view",
        "range PCF(+)",
        "random forest (AUC = 0.79)",
    }
    assert live | need_python <= set(by_name), sorted(by_name)
    for name in live:
        assert not by_name[name]["disabled"], by_name[name]
    for name in need_python:
        c = by_name[name]
        assert c["disabled"] and "needs Python" in c["title"], c
        if "labelTitle" in c:
            assert "needs Python" in c["labelTitle"], c
    # A click on the bands box changes nothing: it stays checked, as the bands are drawn.
    assert by_name["bands"]["checked"]
    page.locator(".costwidget .widget-checkbox", has_text="bands").first.locator("span").click(
        force=True
    )
    assert {c["name"]: c for c in page.evaluate(_DEAD)}["bands"]["checked"]
    # The band table says it is frozen, at the exported PCF(+); p(+) moves, the caption stays.
    caption = ".costwidget-band-readout caption"
    exported = page.inner_text(caption)
    assert f"as exported at PCF(+) = {pcf:.4g}" in exported, exported
    headline = page.inner_text(".costwidget-headline")
    _handle(page, ".costwidget-p-pos").focus()
    page.keyboard.press("PageUp")
    assert wait_for_state(
        page, f"() => document.querySelector('.costwidget-headline').innerText !== {headline!r}"
    )
    assert page.inner_text(caption) == exported
    # The note on what is live is right under the page's headline, above the widget.
    boxes = page.evaluate("""() => ['p.caption', '.costwidget-page-note', '.costwidget'].map(
        s => { const r = document.querySelector(s).getBoundingClientRect();
               return [r.top, r.bottom]; })""")
    (_, caption_bottom), (note_top, note_bottom), (widget_top, _) = boxes
    assert 0 <= note_top - caption_bottom <= 12 and note_bottom <= widget_top, boxes
    page.screenshot(
        path=str(artifacts / "interactive_page_what_is_live.png"),
        clip={"x": 0, "y": 0, "width": 1400, "height": 1000},
    )
