"""A closed widget's live link leaves the page (issue 47), in JupyterLab.

A notebook shows two live widgets, ``w`` and ``w2``; both links bind and each is in the page's
registry (``window.costwidgetLive``) under its widget's root class, which the notebook prints.
Then ``w2.close()``: the registry holds exactly one entry, ``w``'s, and ``w``'s link still
draws what Python sets. (Before, a closed widget's entry stayed for as long as the page lived,
holding its models and its page state, and a test that read the registry's first entry could
get the closed widget's: Run All of notebooks/threshold_choice.ipynb in Voila, under load.)
"""

from __future__ import annotations

import nbformat
from lab_server import console_errors, wait_for_state
from test_live_frontend_browser import BUILD, _run_python
from widget_dom import bound, live, print_root_class, root_class_shown

SECOND = """\
w2 = CostWidget.from_predictions(y, scores, p_pos=0.6)
w2.widget
"""

_ENTRIES = "() => (window.costwidgetLive || []).map((l) => l.rootClass)"


def test_a_closed_widget_leaves_the_registry(lab, browser):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(BUILD),
        nbformat.v4.new_code_cell(SECOND),
        nbformat.v4.new_code_cell(print_root_class("w") + "\n" + print_root_class("w2")),
        nbformat.v4.new_code_cell("1"),
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, lab.root / "two_widgets.ipynb")
    page = browser.new_page(viewport={"width": 1300, "height": 1600})
    errors = console_errors(page)
    try:
        lab.run_notebook(page, "two_widgets.ipynb")
        rc, rc2 = root_class_shown(page, "w"), root_class_shown(page, "w2")
        assert rc != rc2
        for name, root in (("w", rc), ("w2", rc2)):
            assert wait_for_state(page, bound(root), timeout=120_000), f"{name}'s link never bound"
        assert sorted(page.evaluate(_ENTRIES)) == sorted([rc, rc2])

        _run_python(page, "w2.close()")
        one_left = (
            f"() => {{ const e = ({_ENTRIES})(); return e.length === 1 && e[0] === {rc!r}; }}"
        )
        left = wait_for_state(page, one_left, timeout=60_000)
        assert left, f"after w2.close() the registry holds {page.evaluate(_ENTRIES)}, not [{rc!r}]"

        # The open widget's link is the one left, and it still draws what Python sets.
        _run_python(page, "w.p_pos = 0.4321")
        drawn = f"() => {live(rc)}.page.state.p_pos === 0.4321"
        assert wait_for_state(page, drawn, timeout=60_000), "w's link no longer draws"
        assert not [e for e in errors if "costwidget" in e.lower()], errors
    finally:
        page.close()
