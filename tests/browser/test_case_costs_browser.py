"""Real-browser test: the page mirrors a widget with per-case costs (no case changes side).

Per-case data with heavy-tailed amounts. In JupyterLab the widget's live link binds (found by
the widget's root class, widget_dom); typing a new multiplier of the amounts changes the
headline in the page, and it is the kernel's headline for that multiplier, word for word (money
per case, the rates counted in cases, the savings). A Neyman-Pearson limit set from Python is
handed to the kernel: the link stops drawing and the page shows the kernel's headline. In the
exported page (no kernel) the same typed multiplier shows the kernel's words, and the limit's
controls are disabled, saying why. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from lab_server import console_errors, offline_page, wait_for_state
from test_live_frontend_browser import _run_python
from widget_dom import bound, print_root_class, root_class_shown, with_live

from costwidget.frontend.contract import PER_CASE_REFUSED_LIMIT
from costwidget.widget.text.headline import headline_html

ARTIFACTS = Path(__file__).resolve().parents[2] / "tests" / "artifacts"

DATA = """\
import numpy as np
import pandas as pd
import costwidget as cw
rng = np.random.default_rng(45)
n = 800
y = (rng.random(n) < 0.3).astype(int)
amount = 20.0 * (1.0 + rng.pareto(1.1, n))
scores = {"gbm <b>": rng.normal(size=n) + y * (1.0 + 0.3 * np.log(amount)),
          "rules": np.round(rng.normal(size=n) + 0.8 * y, 1)}
df = pd.concat([pd.DataFrame({"label": y, "score": s, "model": name,
                              "<i>Amount</i>": np.where(y == 1, amount, 0.0),
                              "review": np.where(y == 0, 3.0 + 0.05 * amount, 0.0)})
                for name, s in scores.items()])
w = cw.CostWidget.from_frame(df, cost_fn="<i>Amount</i>", cost_fp="review")
"""
BUILD = DATA + "w.widget\n"
#: The multiplier's label: the column's name, shown as text (never as markup).
LABEL = "× <i>Amount</i> (false negative)"

# `$LIVE`: the widget's live link in the page (widget_dom.with_live).
_HEADLINE = r"""() => {
  const live = $LIVE;
  return live ? live.models.get(live.roles.headline).get('value') : '';
}"""
_STATE = "() => ({...$LIVE.page.state})"
# The exported page's headline model, by the id its spec gives the role.
_PAGE_HEADLINE = r"""async () => {
  const spec = JSON.parse(document.getElementById('costwidget-frontend').textContent);
  const models = await window.costwidgetModels;
  return models.find((x) => x.model_id === spec.roles.headline).get('value');
}"""


def _kernel(page) -> dict:
    text = _run_python(
        page,
        "w.wait(120); import json; print(json.dumps({'cost_fn': w.cost_fn, "
        "'headline': w.headline.text, 'attached': w.frontend_link.attached}))",
    )
    return json.loads(re.search(r"\{.*\}", text).group(0))


@pytest.fixture(scope="module")
def live_page(lab, browser):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(BUILD),
        nbformat.v4.new_code_cell(print_root_class("w")),
        nbformat.v4.new_code_cell("1"),
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, lab.root / "case_costs.ipynb")
    page = browser.new_page(viewport={"width": 1300, "height": 1600})
    errors = console_errors(page)
    lab.run_notebook(page, "case_costs.ipynb")
    page.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=120_000)
    rc = root_class_shown(page)
    assert wait_for_state(page, bound(rc), timeout=60_000)
    yield page, errors, rc
    page.close()


def test_a_multiplier_moves_the_live_headline_to_the_kernels_words(live_page):
    page, errors, rc = live_page
    headline = with_live(_HEADLINE, rc)
    before = page.evaluate(headline)
    assert "counted in cases" in before and "per case" in before
    field = page.locator(f".{rc} .costwidget-cost-fn input").first
    field.fill("7.5")
    field.press("Enter")
    changed = f"() => ({headline})() !== {json.dumps(before)}"
    assert wait_for_state(page, changed, timeout=60_000)
    assert page.evaluate(with_live(_STATE, rc))["cost_fn"] == 7.5
    moved = page.evaluate(headline)
    kernel = _kernel(page)
    assert kernel["attached"] is True and kernel["cost_fn"] == 7.5
    assert moved == headline_html(kernel["headline"])
    assert "saves" in kernel["headline"] or "more than" in kernel["headline"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator(f".{rc}").first.screenshot(path=str(ARTIFACTS / "case_costs_live.png"))
    # A limit counts cases: the kernel decides and draws it, the page draws nothing meanwhile.
    _run_python(page, "w.constraint = 'neyman_pearson'; w.max_fpr = 0.05")
    kernel = _kernel(page)
    assert kernel["attached"] is False and "the FPR limit" in kernel["headline"]
    want = json.dumps(headline_html(kernel["headline"]))
    assert wait_for_state(page, f"() => ({headline})() === {want}", timeout=60_000)
    _run_python(page, "w.constraint = 'none'")
    assert _kernel(page)["attached"] is True
    assert not [e for e in errors if "costwidget" in e.lower()], errors


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    scope: dict = {}
    exec(DATA, scope)  # the notebook's widget, built here too
    w = scope["w"]
    path = tmp_path_factory.mktemp("case_page") / "page.html"
    w.to_html(path)
    yield w, path
    w.close()


def test_a_multiplier_moves_the_exported_headline_to_the_kernels_words(browser, exported):
    w, path = exported
    with offline_page(browser, path) as (page, errors, refused):
        before = page.inner_text(".costwidget-headline")
        field = page.locator(".costwidget .costwidget-cost-fn input").first
        field.fill("7.5")
        field.press("Enter")
        assert wait_for_state(
            page,
            "() => document.querySelector('.costwidget-headline').innerText !== "
            + json.dumps(before),
            timeout=30_000,
        )
        w.cost_fn = 7.5
        # The headline's model, found by its id in the page's spec (never by position).
        html = page.evaluate(_PAGE_HEADLINE)
        assert html == headline_html(w.headline.text)
        assert "counted in cases" in page.inner_text(".costwidget-headline")
        assert "counted in cases" in w.headline.text
        # The limit's controls need the kernel (a limit counts cases): disabled, saying why.
        titles = page.evaluate(
            "() => Array.from(document.querySelectorAll('.costwidget [title]'))"
            ".map((e) => e.getAttribute('title'))"
        )
        assert any(PER_CASE_REFUSED_LIMIT in t for t in titles), titles
        # The column's name is the multiplier's label, as text.
        labels = page.evaluate(
            "() => Array.from(document.querySelectorAll('.costwidget .widget-label'))"
            ".map((e) => e.textContent)"
        )
        assert LABEL in [t.strip() for t in labels], labels
        assert (
            page.evaluate("() => document.querySelectorAll('.costwidget .widget-label i').length")
            == 0
        )
        assert not errors and not refused
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "case_costs_page.png"))
    assert np.isfinite(w.decision.rule.expected_cost)
