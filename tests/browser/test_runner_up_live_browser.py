"""Real-browser test: the live widget's headline says how sure it is.

In JupyterLab a widget over two models scored on the same cases shows its difference view, so
the kernel computes the runner-up's paired band in the background. While the live link is
attached the front end writes the headline: it must say the kernel's band, exactly as the
kernel's own headline does; a slider step drops the clause in the same frame (the band is of
the old PCF(+)), and the band of the new state, once the kernel computed it, is said again,
the page's headline equal to the kernel's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from lab_server import console_errors, wait_for_state
from test_live_frontend_browser import _run_python
from widget_dom import bound, print_root_class, root_class_shown, with_live

from costwidget.widget.text.headline import headline_html

BUILD = """\
import numpy as np
from costwidget.widget import CostWidget
rng = np.random.default_rng(11)
y = rng.random(600) < 0.35
s = y * 1.0 + rng.normal(size=600)
w = CostWidget.from_predictions(y, {"first": s, "twin": s + 0.3 * rng.normal(size=600)}, p_pos=0.3)
w.difference = ["first", "twin"]
w.widget
"""

ARTIFACTS = Path(__file__).resolve().parents[2] / "tests" / "artifacts"

# `$LIVE`: the widget's live link in the page (widget_dom.with_live).
_HEADLINE = r"""() => {
  const live = $LIVE;
  return live ? live.models.get(live.roles.headline).get('value') : '';
}"""
_P_POS = "() => $LIVE.page.state.p_pos"


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
    nbformat.write(nb, lab.root / "sure.ipynb")
    page = browser.new_page(viewport={"width": 1300, "height": 1600})
    errors = console_errors(page)
    lab.run_notebook(page, "sure.ipynb")
    page.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=120_000)
    rc = root_class_shown(page)
    assert wait_for_state(page, bound(rc), timeout=60_000)
    yield page, errors, rc
    page.close()


def _kernel(page) -> dict:
    text = _run_python(
        page,
        "w.wait(120); import json; print(json.dumps({'p_pos': w.p_pos, "
        "'headline': w.headline.text, 'attached': w.frontend_link.attached}))",
    )
    return json.loads(re.search(r"\{.*\}", text).group(0))


def test_the_live_headline_says_the_kernels_band(live_page):
    page, errors, rc = live_page
    headline, p_pos = with_live(_HEADLINE, rc), with_live(_P_POS, rc)
    said = "() => /tell apart|significantly more/.test((" + headline + ")())"
    assert wait_for_state(page, said, timeout=120_000), page.evaluate(headline)
    kernel = _kernel(page)
    assert kernel["attached"] is True
    assert page.evaluate(headline).endswith(headline_html(kernel["headline"]))
    handle = page.locator(".costwidget .costwidget-p-pos .noUi-handle").first
    handle.focus()
    before = page.evaluate(p_pos)
    page.keyboard.press("ArrowRight")
    # Drawn in the same frame: the page moved, and the old PCF(+)'s band is not said.
    assert page.evaluate(p_pos) != before
    assert not page.evaluate(said)
    # The kernel computes the new state's band; the page says it, as the kernel does.
    assert wait_for_state(page, said, timeout=120_000), page.evaluate(headline)
    kernel = _kernel(page)
    assert kernel["p_pos"] == page.evaluate(p_pos)
    assert page.evaluate(headline).endswith(headline_html(kernel["headline"]))
    assert "tell apart" in kernel["headline"] or "significantly more" in kernel["headline"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator(".costwidget").first.screenshot(path=str(ARTIFACTS / "runner_up_live.png"))
    assert not [e for e in errors if "costwidget" in e.lower()], errors
