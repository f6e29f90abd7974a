"""What a notebook output of the widget holds outside Jupyter (issue 33): with
``COSTWIDGET_NOTEBOOK_OUTPUT=page`` it is the interactive offline page in an ``<iframe srcdoc>``
and no live view, so ``jupyter nbconvert --to html --execute`` (which would render the live view
with a widget manager from a CDN, nothing offline) shows the widget working; ``image`` gives only
the picture. The browser side (the framed page renders and answers keys with no network) is in
tests/browser/test_docs_browser.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import numpy as np
import pytest

import costwidget
from costwidget.widget import CostWidget, export

VIEW = "application/vnd.jupyter.widget-view+json"
EVIL = '<img src=x onerror="window.__x=1">'


@pytest.fixture()
def w():
    rng = np.random.default_rng(3)
    y = rng.random(120) < 0.4
    widget = CostWidget.from_predictions(
        y, {EVIL: y + rng.normal(size=120), "b": 0.4 * y + rng.normal(size=120)}, p_pos=0.3
    )
    yield widget
    widget.close()


class _Frames(HTMLParser):
    """The costwidget page frames of an HTML text: their attributes, unescaped."""

    def __init__(self):
        super().__init__()
        self.frames = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "iframe" and attrs.get("class") == "costwidget-page":
            self.frames.append(attrs)


def _frames(text: str) -> list[dict]:
    parser = _Frames()
    parser.feed(text)
    return parser.frames


def test_page_mode_is_the_framed_offline_page_and_no_live_view(w, monkeypatch):
    monkeypatch.setenv(export.OUTPUT_ENV, "page")
    data = w._repr_mimebundle_()
    assert VIEW not in data
    (frame,) = _frames(data["text/html"])
    page = frame["srcdoc"]
    assert data["text/html"].startswith("<iframe ") and data["text/html"].endswith("</iframe>")
    assert page.startswith("<!DOCTYPE html>")
    # The same page as w.to_html() (its creation time aside).
    stamp = re.compile(r" on \d{4}-\d\d-\d\d \d\d:\d\d")
    assert stamp.sub("", page) == stamp.sub("", w.to_html())
    assert 'type="application/vnd.jupyter.widget-state+json"' in page
    # The name is escaped in the page, and the page once more into the attribute.
    assert EVIL not in data["text/html"] and EVIL not in page
    assert "image/png" in data  # LaTeX/PDF still get the picture


def test_image_mode_and_default(w, monkeypatch):
    monkeypatch.setenv(export.OUTPUT_ENV, "image")
    data = w._repr_mimebundle_()
    assert VIEW not in data and "image/png" in data and "<iframe" not in data["text/html"]
    monkeypatch.delenv(export.OUTPUT_ENV)
    assert VIEW in w._repr_mimebundle_()
    monkeypatch.setenv(export.OUTPUT_ENV, " LIVE ")
    assert VIEW in w._repr_mimebundle_()


def test_an_unknown_mode_says_what_to_set(w, monkeypatch):
    monkeypatch.setenv(export.OUTPUT_ENV, "frame")
    with pytest.raises(
        ValueError, match="COSTWIDGET_NOTEBOOK_OUTPUT='frame' is not one of live, page, image"
    ):
        export.output_mode()


@pytest.mark.slow  # a notebook executed by jupyter nbconvert
def test_nbconvert_html_execute_carries_the_page(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import numpy as np, costwidget as cw\n"
            "rng = np.random.default_rng(0)\n"
            "y = rng.random(200) < 0.4\n"
            "w = cw.CostWidget.from_predictions(y, {'a': y + rng.normal(size=200)})\n"
            "w"
        )
    ]
    nbformat.write(nb, tmp_path / "report.ipynb")
    # The kernel imports this costwidget, wherever the test runs from.
    root = str(Path(costwidget.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, export.OUTPUT_ENV: "page", "PYTHONPATH": path}
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute", "report.ipynb"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    (frame,) = _frames(text)
    assert "costwidget-frontend" in frame["srcdoc"]  # the interactive page, not the static one
    # No live view, which would need a widget manager from a CDN.
    assert f'<script type="{VIEW}">' not in text


def test_the_thesis_view_is_a_framed_page_too(monkeypatch):
    import costwidget as cw

    a = cw.Classifier.from_confusion(tp=9, fn=1, fp=4, tn=6, name=EVIL)
    view = cw.ThesisView([a])
    view.show([EVIL], [0.5, 0.75], p_pos=0.5)
    assert VIEW in view._repr_mimebundle_()  # live, as display(view.widget)
    monkeypatch.setenv(export.OUTPUT_ENV, "page")
    data = view._repr_mimebundle_()
    assert VIEW not in data
    (frame,) = _frames(data["text/html"])
    page = frame["srcdoc"]
    assert 'type="application/vnd.jupyter.widget-state+json"' in page
    # Every model of the charts is in the page's state (the bqplot figures among them).
    for mark in view.mtmcs_lines.values():
        assert f'"{mark.model_id}"' in page
    assert EVIL not in data["text/html"] and EVIL not in page
