"""The static fallback in saved notebooks, through the real tools: ``jupyter nbconvert --execute``,
then HTML without the widget state (the fallback image shows), HTML with it (the widget view),
and LaTeX (the PNG is the figure)."""

from __future__ import annotations

import base64
import copy
import io
import re
import subprocess
import sys

import nbformat
import pytest
from PIL import Image

CELLS = [
    "import numpy as np, costwidget as cw\n"
    "rng = np.random.default_rng(0)\n"
    "y = rng.random(200) < 0.4\n"
    "w = cw.CostWidget.from_predictions(y, {'<b>bold</b>': y + rng.normal(size=200),\n"
    "                                       'weak': 0.3 * y + rng.normal(size=200)})\n"
    "w.p_pos = 0.3",
    "w",
    "w.snapshot_cell()",
]


pytestmark = pytest.mark.slow  # a notebook executed by jupyter nbconvert


def _run(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    )


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    root = tmp_path_factory.mktemp("nb")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in CELLS]
    nbformat.write(nb, root / "report.ipynb")
    _run("--to", "notebook", "--execute", "--output", "executed.ipynb", "report.ipynb", cwd=root)
    return root, nbformat.read(root / "executed.ipynb", as_version=4)


def _outputs(nb, cell):
    return [
        o for o in nb.cells[cell].outputs if o.output_type in ("display_data", "execute_result")
    ]


def test_bundle_carries_view_png_and_html(executed):
    _, nb = executed
    (out,) = _outputs(nb, 1)
    data = out.data
    assert set(data) >= {
        "application/vnd.jupyter.widget-view+json",
        "image/png",
        "text/html",
        "text/plain",
    }
    with Image.open(io.BytesIO(base64.b64decode(data["image/png"]))) as im:
        assert im.size[0] > 500 and im.size[1] > 250
    assert data["image/png"] in data["text/html"]
    assert "<b>bold</b>" not in data["text/html"] and "VBox(" not in data["text/plain"]
    assert "PCF(+) = 0.3000" in data["text/plain"]
    (snap,) = _outputs(nb, 2)
    assert "image/png" in snap.data and "application/vnd.jupyter.widget-view+json" not in snap.data
    assert snap.metadata["image/png"]["width"] > 500


def test_html_without_widget_state_shows_the_images(executed):
    root, nb = executed
    nb = copy.deepcopy(nb)
    assert nb.metadata.pop("widgets", None) is not None
    nbformat.write(nb, root / "nostate.ipynb")
    _run("--to", "html", "nostate.ipynb", cwd=root)
    text = (root / "nostate.html").read_text()
    images = re.findall(r"<img [^>]*src=[\"']data:image/png;base64,([A-Za-z0-9+/=]+)", text)
    assert len(images) == 2  # the widget's fallback and the snapshot cell
    for b64 in images:
        with Image.open(io.BytesIO(base64.b64decode(b64))) as im:
            assert im.size[0] > 500
    assert "application/vnd.jupyter.widget-view+json" not in text
    # The classifier name only ever appears escaped (the alt text and the caption).
    assert "<b>bold</b>" not in text and "&lt;b&gt;bold&lt;/b&gt;" in text


def test_html_with_widget_state_renders_the_widget(executed):
    root, nb = executed
    assert "application/vnd.jupyter.widget-state+json" in nb.metadata.get("widgets", {})
    _run("--to", "html", "executed.ipynb", cwd=root)
    text = (root / "executed.html").read_text()
    assert "application/vnd.jupyter.widget-view+json" in text
    assert text.count("data:image/png;base64,") >= 1  # the snapshot cell stays a plain image


def test_latex_uses_the_png(executed):
    root, _ = executed
    try:
        _run("--to", "latex", "executed.ipynb", cwd=root)
    except subprocess.CalledProcessError as exc:  # pragma: no cover - depends on pandoc
        if "pandoc" in (exc.stderr or "").lower():
            pytest.skip("nbconvert's LaTeX exporter needs pandoc here")
        raise
    tex = (root / "executed.tex").read_text()
    pngs = sorted((root / "executed_files").glob("*.png"))
    assert len(pngs) >= 2
    assert "\\includegraphics" in tex and all(p.name in tex for p in pngs)
