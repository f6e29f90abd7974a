"""The widget's Jupyter display bundle (live view + static fallback), snapshot_cell and the
Snapshot button, without a front end."""

from __future__ import annotations

import base64
import importlib.util
import io

import numpy as np
import pytest
from PIL import Image

import costwidget as cw
from costwidget.widget import CostWidget, export

VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture()
def w():
    rng = np.random.default_rng(9)
    y = rng.random(150) < 0.5
    widget = CostWidget.from_predictions(
        y,
        {
            "<i>a</i>": np.round(y + rng.normal(size=150), 2),
            "b": np.round(0.4 * y + rng.normal(size=150), 2),
        },
        p_pos=0.25,
    )
    yield widget
    widget.close()


def test_bundle_has_view_png_html_and_plain_text(w):
    data = export.mimebundle(w)
    assert data[VIEW] == {"version_major": 2, "version_minor": 0, "model_id": w.widget.model_id}
    png = base64.b64decode(data["image/png"])
    with Image.open(io.BytesIO(png)) as im:
        fig = export.to_figure(w)
        expected = (
            fig.get_figwidth() * export.FALLBACK_DPI,
            fig.get_figheight() * export.FALLBACK_DPI,
        )
        assert all(abs(got - want) <= 1 for got, want in zip(im.size, expected)), im.size
    assert f"data:image/png;base64,{data['image/png']}" in data["text/html"]
    assert "<i>a</i>" not in data["text/html"] and "&lt;i&gt;a&lt;/i&gt;" in data["text/html"]
    assert data["text/plain"].startswith("CostWidget (<i>a</i>, b): p(+) = 0.25")


def test_a_closed_widget_shows_only_its_image(w):
    w.close()
    assert set(export.mimebundle(w)) == {"image/png", "text/html", "text/plain"}


def test_unchanged_state_reuses_the_image(w, monkeypatch):
    calls = []
    real = export._image_bundle
    monkeypatch.setattr(export, "_image_bundle", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = export.mimebundle(w)
    assert export.mimebundle(w)["image/png"] == first["image/png"] and len(calls) == 1
    w.p_pos = 0.5
    assert export.mimebundle(w)["image/png"] != first["image/png"] and len(calls) == 2


def test_include_exclude_and_failures(w, monkeypatch):
    def broken(*a, **k):
        raise RuntimeError("no canvas")

    monkeypatch.setattr(export, "_image_bundle", broken)
    assert set(export.mimebundle(w, exclude=["image/png", "text/html"])) == {VIEW, "text/plain"}
    assert set(export.mimebundle(w, include=[VIEW, "text/plain"])) == {VIEW, "text/plain"}
    with pytest.warns(RuntimeWarning, match="no canvas"):
        data = export.mimebundle(w)
    assert set(data) == {VIEW, "text/plain"}  # the live widget still displays


def test_fallback_can_be_switched_off(w, monkeypatch):
    monkeypatch.setattr(export, "FALLBACK_IMAGE", False)
    assert set(export.mimebundle(w)) == {VIEW, "text/plain"}


def test_no_matplotlib_no_image_no_warning(w, monkeypatch, recwarn):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "matplotlib" else real(name, *a),
    )
    assert set(export.mimebundle(w)) == {VIEW, "text/plain"}
    assert not [r for r in recwarn if issubclass(r.category, RuntimeWarning)]


def test_snapshot_cell_displays_a_plain_image(w, monkeypatch):
    shown = []
    monkeypatch.setattr(
        "IPython.display.display",
        lambda obj, raw=False, metadata=None: shown.append((obj, raw, metadata)),
    )
    assert export.snapshot_cell(w) is None
    ((bundle, raw, metadata),) = shown
    assert raw and VIEW not in bundle and set(bundle) == {"image/png", "text/html", "text/plain"}
    with Image.open(io.BytesIO(base64.b64decode(bundle["image/png"]))) as im:
        assert abs(im.size[0] - export.to_figure(w).get_figwidth() * export.REPORT_DPI) <= 1
    assert metadata["image/png"]["width"] == round(export.to_figure(w).get_figwidth() * 100)


def test_snapshot_button(w):
    box = export.snapshot_button(w)
    button, status, image = box.children
    assert button.description == "Snapshot" and image.value == b""
    w.p_pos = 0.4
    button.click()
    with Image.open(io.BytesIO(image.value)) as im:
        assert im.format == "PNG" and im.size[0] > 500
    assert "PCF(+) = 0.4000" in status.value and "&lt;i&gt;" in status.value
    box.close()


def test_costwidget_methods_delegate(w):
    """These CostWidget methods are costwidget.widget.export's; one that disappears fails here."""
    missing = [
        m
        for m in (
            "snapshot",
            "restore",
            "to_figure",
            "save",
            "to_html",
            "to_frame",
            "snapshot_cell",
        )
        if not callable(getattr(w, m, None))
    ]
    assert not missing, f"CostWidget lost {missing} (they call costwidget.widget.export)"
    assert w.snapshot() == export.snapshot(w)
    assert set(w.to_frame()) == set(export.to_frame(w))
    data = w._repr_mimebundle_()
    assert {"image/png", "text/html", VIEW} <= set(data)


def test_display_is_exported_lazily():
    assert cw.CostCurveDisplay.__module__ == "costwidget.display"
    assert "CostCurveDisplay" in cw.__all__
