"""Two views of one widget (issue 29, item 3): the same notebook open in two browser pages of
one JupyterLab, one kernel. Moves in page A, moves in page B and sets from Python, in several
orders: each page ends at the kernel's state (its live state, its controls, and its marks and
readout as the Python model computes them for that state, `test_live_frontend_browser._check`),
and a key set from Python or moved in the other page is never undone by a page's next move.
"""

from __future__ import annotations

import json
import re

import nbformat
import pytest
from lab_server import console_errors, wait_for_state
from test_live_frontend_browser import BUILD, _check, _classifiers, _run_python
from widget_dom import bound, print_root_class, root_class_shown, with_live

_STATE = (
    "import json; from costwidget.widget.output.page_spec import state_values; "
    "print(json.dumps(state_values(w.state)))"
)
# `$LIVE`: the widget's live link in the page (widget_dom.with_live).
_PAGE_STATE = "() => ({...$LIVE.page.state})"
_TAKEN = "() => { const l = $LIVE; return l.acked() === l.sent(); }"
_HOLDS = (
    "([s]) => { const l = $LIVE; return Object.keys(s).every((k) => "
    "JSON.stringify(l.page.state[k]) === JSON.stringify(s[k])); }"
)


@pytest.fixture(scope="module")
def two_pages(lab, browser):
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
    nbformat.write(nb, lab.root / "two.ipynb")
    a = browser.new_page(viewport={"width": 1300, "height": 1600})
    errors = console_errors(a)
    lab.run_notebook(a, "two.ipynb")
    a.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=120_000)
    rc = root_class_shown(a)
    assert wait_for_state(a, bound(rc), timeout=60_000)
    a.keyboard.press("Control+s")  # the second page shows the saved outputs, the kernel's models
    assert wait_for_state(a, "() => !document.querySelector('.jp-mod-dirty')", timeout=30_000)
    b = browser.new_page(viewport={"width": 1300, "height": 1600})
    b.goto(f"{lab.url}/lab/tree/two.ipynb?token={lab.token}&reset")
    b.wait_for_selector(".costwidget-cost svg.svg-figure", timeout=120_000)
    assert wait_for_state(b, bound(rc), timeout=60_000), "the second page's live link never bound"
    clfs, colors = _classifiers()
    yield a, b, clfs, colors, errors, rc
    b.close()
    a.close()


def _kernel(a) -> dict:
    a.bring_to_front()
    text = _run_python(a, _STATE)
    return json.loads(re.search(r"\{.*\}", text).group(0))


def _converged(a, b, clfs, colors, rc) -> dict:
    """Both pages' moves taken; the kernel's state; each page holds it and draws it."""
    for page in (a, b):
        assert wait_for_state(page, with_live(_TAKEN, rc)), "a page's move was not taken"
    kernel = _kernel(a)
    for name, page in (("A", a), ("B", b)):
        held = wait_for_state(page, with_live(_HOLDS, rc), [kernel])
        shown = page.evaluate(with_live(_PAGE_STATE, rc))
        assert held, f"page {name} at {shown}, the kernel at {kernel}"
        _check(page, clfs, colors, rc)
    return kernel


def _keys(page, key: str, n: int) -> None:
    page.bring_to_front()  # a background tab's frames are throttled
    page.locator(".costwidget .costwidget-p-pos .noUi-handle").first.focus()
    for _ in range(n):
        page.keyboard.press(key)


def _type(page, field_class: str, value: str) -> None:
    page.bring_to_front()
    field = page.locator(f".costwidget {field_class} input").first
    field.fill(value)
    field.press("Enter")


def test_moves_in_both_pages_and_from_python_converge(two_pages):
    a, b, clfs, colors, errors, rc = two_pages
    _run_python(a, "w.update(p_pos=0.3, cost_fn=1.0, cost_fp=1.0, constraint='none')")
    _converged(a, b, clfs, colors, rc)
    # A moves p(+), then B types a cost: B's cost is not undone by A's next move, and A shows it.
    _keys(a, "ArrowRight", 3)
    _type(b, ".costwidget-cost-fn", "3")
    assert wait_for_state(b, with_live("() => $LIVE.page.state.cost_fn === 3", rc))
    _keys(a, "ArrowRight", 2)
    kernel = _converged(a, b, clfs, colors, rc)
    assert kernel["cost_fn"] == 3 and kernel["p_pos"] == pytest.approx(0.305, abs=1e-9)
    # Python sets the constraint, then B moves p(+) and A types the other cost.
    _run_python(a, "w.constraint = 'neyman_pearson'")
    _keys(b, "ArrowLeft", 4)
    _type(a, ".costwidget-cost-fp", "2")
    kernel = _converged(a, b, clfs, colors, rc)
    assert (kernel["constraint"], kernel["cost_fn"], kernel["cost_fp"]) == ("neyman_pearson", 3, 2)
    assert kernel["p_pos"] == pytest.approx(0.301, abs=1e-9)
    # B moves while Python sets p(+) and a cost in one cell: the kernel's order decides, and
    # both pages end where the kernel is.
    _keys(b, "ArrowRight", 5)
    _run_python(a, "w.p_pos = 0.4; w.cost_fn = 1.5")
    kernel = _converged(a, b, clfs, colors, rc)
    assert kernel["cost_fn"] == 1.5
    assert not errors, errors
