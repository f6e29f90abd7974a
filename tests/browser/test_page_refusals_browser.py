"""What is typed into the exported page's fields and refused is said in its banner, with the
reason (issue 29, item 5; the live widget's banner: test_live_frontend_browser.py). The page
(``w.to_html(path)``, no kernel) is opened from disk; p(+) = 2 and "abc", and the costs -5 and
-1, each leave the page's state as it was and show the reason; the next good value clears it.
"""

from __future__ import annotations

import numpy as np
import pytest
from lab_server import offline_page, wait_for_state
from test_live_frontend_browser import TYPED_REFUSALS

_BANNER = ".costwidget .costwidget-errors"


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    from costwidget.widget import CostWidget

    rng = np.random.default_rng(7)
    y = rng.random(300) < 0.35
    w = CostWidget.from_predictions(y, {"m": y * 0.8 + rng.normal(size=300)}, p_pos=0.3)
    path = tmp_path_factory.mktemp("page") / "page.html"
    w.to_html(path)
    w.close()
    with offline_page(browser, path) as (pg, errors, _refused):
        yield pg
        assert not errors, errors


@pytest.mark.parametrize("field_class, typed, reason", TYPED_REFUSALS)
def test_a_refused_typed_value_shows_in_the_page_banner(page, field_class, typed, reason):
    before = page.evaluate("async () => ({...(await window.costwidgetPage).state})")
    field = page.locator(f".costwidget {field_class} input").first
    if typed == "abc":  # Chrome keeps letters out of a number input: the field is left empty
        field.fill("")
        field.press_sequentially("abc")
    else:
        field.fill(typed)
    field.press("Enter")
    assert wait_for_state(
        page,
        f"([r]) => ((document.querySelector('{_BANNER}') || {{}}).innerText || '').includes(r)",
        [reason],
    ), page.evaluate(f"() => (document.querySelector('{_BANNER}') || {{}}).innerText")
    assert page.evaluate("async () => (await window.costwidgetPage).state") == before
    good = page.locator(".costwidget .costwidget-p-pos-value input").first
    p = 0.26 if before["p_pos"] == 0.25 else 0.25  # a move: the banner clears on the next move
    good.fill(str(p))
    good.press("Enter")
    assert wait_for_state(
        page,
        f"async () => (await window.costwidgetPage).state.p_pos === {p}"
        f" && !(document.querySelector('{_BANNER}') || {{}}).innerText",
    )
