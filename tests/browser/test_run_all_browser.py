"""Run All on each notebook that shows a live `CostWidget`, in JupyterLab, Notebook 7 and
Voila (issue 29, item 1): the page ends at the state the cells set, and so does the kernel.

The cells set p(+), costs and constraints in quick succession while the page is still binding
(a state set from Python must never be taken by the page for a user's move: Run All on the tour
once ended at p(+) = 0.079, which no cell set). The reference is independent of any front end:
the same cells executed here in plain Python. A cell appended to a copy of the notebook prints
the kernel's state once all cells ran; the page's live state, its controls, its marks and its
readout must then equal both (the marks and the readout as the Python model computes them for
that state, `test_live_frontend_browser._check`).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import nbformat
import pytest
from lab_server import (
    ROOT_FLAGS,
    open_in_notebook7,
    run_all_open_cells,
    running_server,
    wait_for_state,
)
from test_live_frontend_browser import _check
from widget_dom import bound, live, print_root_class, root_class_shown

from costwidget.model import readable_value

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
MARK = "KERNEL-STATE:"


@dataclass(frozen=True)
class Notebook:
    """A notebook of ``notebooks/`` that shows a live widget, and how a copy of it runs here."""

    name: str  # its file's stem
    widget: str  # the variable holding the widget it shows
    first_cell: str = ""  # run before its cells (small data where the notebook reads the size)

    @property
    def path(self) -> Path:
        return NOTEBOOKS / f"{self.name}.ipynb"

    def copy(self):
        """The notebook as run here: ``first_cell``, then its cells but those that only close
        widgets (a closed widget has no page left to compare)."""
        nb = nbformat.read(self.path, as_version=4)
        nb.cells = [c for c in nb.cells if c.cell_type != "code" or not _only_closes(c.source)]
        if self.first_cell:
            nb.cells.insert(0, nbformat.v4.new_code_cell(self.first_cell))
        return nb

    def code(self) -> list[str]:
        return [c.source for c in self.copy().cells if c.cell_type == "code"]

    def print_state(self) -> str:
        """The kernel's state of the widget compared, and its root class (a notebook may show
        more than one widget: the page's registry holds their links in no fixed order)."""
        # (The mark is split in the cell's source: the source is on the page too.)
        return (
            "import json\nfrom costwidget.widget.output.page_spec import state_values\n"
            f"print({MARK[:6]!r} + {MARK[6:]!r} + json.dumps(state_values({self.widget}.state)))\n"
            + print_root_class(self.widget)
        )


def _only_closes(source: str) -> bool:
    lines = [
        ln.strip() for ln in source.splitlines() if ln.strip() and not ln.strip().startswith("#")
    ]
    return bool(lines) and all(re.fullmatch(r"\w+\.close\(\)", ln) for ln in lines)


SHOWN = [
    Notebook("tour", "w"),
    # Sets the costs and the decision curve from Python after the widget is shown.
    Notebook("threshold_choice", "w"),
    # Reads its size from the environment: 20,000 rows, not the notebook's 10^8.
    Notebook("scale", "widget", 'import os\nos.environ["COSTWIDGET_SCALE_ROWS"] = "20000"'),
]
# Notebooks that show no live CostWidget (nothing of the live link to check), and why.
NOT_SHOWN = {
    "new_data": "builds a widget for its headline and readout, never shows it",
    "thesis": "shows ThesisView, a static figure with no live link",
    "uncertainty": "tables and matplotlib figures only",
    "case_costs": "its widget has per-case costs, which the kernel draws: no live link on the page",
}


def test_every_notebook_is_run_all_or_said_why_not():
    """A new notebook must join SHOWN (and so the Run All tests) or say here why not."""
    stems = {p.stem for p in NOTEBOOKS.glob("*.ipynb")}
    assert stems == {n.name for n in SHOWN} | set(NOT_SHOWN)


@pytest.fixture(scope="module", params=SHOWN, ids=lambda n: n.name)
def notebook(request):
    return request.param


@pytest.fixture(scope="module")
def reference(notebook):
    """The cells run in plain Python (no front end): the state they set, the classifiers and
    their colours."""
    from costwidget.widget import CostWidget
    from costwidget.widget.output.page_spec import state_values

    scope = {"display": lambda *a, **k: None}
    with mock.patch.dict(os.environ):  # (a first cell may set the size in the environment)
        for source in notebook.code():
            exec(compile(source, notebook.path.name, "exec"), scope)  # noqa: S102 - the repo's notebook
    w = scope[notebook.widget]
    out = state_values(w.state), list(w.classifiers), dict(w.colors)
    for value in list(scope.values()):
        if isinstance(value, CostWidget):
            value.close()
    if "matplotlib.pyplot" in sys.modules:  # the figures the cells drew
        sys.modules["matplotlib.pyplot"].close("all")
    return out


def _write_copy(notebook: Notebook, folder: Path) -> str:
    nb = notebook.copy()
    nb.cells.append(nbformat.v4.new_code_cell(notebook.print_state()))
    name = f"{notebook.name}_run_all.ipynb"
    nbformat.write(nb, folder / name)
    return name


def _page_equals_kernel_equals_cells(page, reference, notebook: Notebook) -> None:
    expected, clfs, colors = reference
    assert wait_for_state(
        page, f"() => document.body.innerText.includes({MARK!r})", timeout=300_000
    ), "the last cell printed nothing"
    text = page.evaluate("() => document.body.innerText")
    kernel = json.loads(text.split(MARK, 1)[1].splitlines()[0])
    assert kernel == expected, "the kernel's state is not what the cells set"
    rc = root_class_shown(page, notebook.widget)
    assert wait_for_state(page, bound(rc), timeout=120_000), "the widget's live link never bound"
    # The page has drawn the kernel's last state once it holds it and every move it sent (none
    # is expected) was taken.
    held = wait_for_state(
        page,
        f"([s]) => {{ const l = {live(rc)}; return "
        "l.acked && l.acked() === l.sent() && Object.keys(s).every((k) => "
        "JSON.stringify(l.page.state[k]) === JSON.stringify(s[k])); }",
        [expected],
        timeout=60_000,
    )
    shown = page.evaluate(
        f"() => {{ const l = {live(rc)}; return {{state: l.page.state, sent: l.sent()}}; }}"
    )
    assert held, f"the page ended at {shown['state']}, the cells set {expected}"
    assert shown["sent"] == 0, "the page sent a move though nobody touched it"
    got = _check(page, clfs, colors, rc)
    controls = page.evaluate(f"""() => {{ const l = {live(rc)};
      const m = (r) => l.models.get(l.roles[r]);
      return {{fn: m('cost_fn').get('value'), fp: m('cost_fp').get('value'),
              p: m('p_pos').get('value'), constraint: m('constraint').get('index')}}; }}""")
    assert (controls["fn"], controls["fp"]) == (
        readable_value(expected["cost_fn"]),
        readable_value(expected["cost_fp"]),
    )
    assert controls["p"] == pytest.approx(expected["p_pos"], abs=5e-4)  # on the slider's grid
    assert controls["constraint"] == ["none", "neyman_pearson", "workforce"].index(
        expected["constraint"]
    )
    assert got["state"]["p_pos"] == expected["p_pos"]


def test_run_all_in_jupyterlab(lab, browser, notebook, reference):
    name = _write_copy(notebook, lab.root)
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    try:
        lab.run_notebook(page, name)
        _page_equals_kernel_equals_cells(page, reference, notebook)
    finally:
        page.close()


def test_run_all_in_notebook7(browser, sync_api, tmp_path, notebook, reference):
    name = _write_copy(notebook, tmp_path)
    token = secrets.token_hex(16)
    cmd = [
        "jupyter",
        "notebook",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={tmp_path}",
        *ROOT_FLAGS,
    ]
    with running_server(tmp_path, cmd, f"/api/status?token={token}") as url:
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        try:
            open_in_notebook7(page, url, token, name)
            run_all_open_cells(page, sync_api)
            _page_equals_kernel_equals_cells(page, reference, notebook)
        finally:
            page.close()


def test_run_all_in_voila(browser, tmp_path, notebook, reference):
    name = _write_copy(notebook, tmp_path)
    token = secrets.token_hex(16)
    cmd = ["voila", name, "--no-browser", "--Voila.ip=127.0.0.1", f"--token={token}"]
    with running_server(tmp_path, cmd, f"/api/status?token={token}") as url:
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        try:
            page.goto(f"{url}/?token={token}", timeout=300_000)
            _page_equals_kernel_equals_cells(page, reference, notebook)
        finally:
            page.close()
