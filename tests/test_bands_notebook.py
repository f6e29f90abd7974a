"""notebooks/uncertainty.ipynb runs top to bottom (ROCAI figures 12-15 with real models), and its
figures are in the outputs (matplotlib is in the test extra)."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "uncertainty.ipynb"


def test_uncertainty_notebook_executes():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    ).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "high correlation (fig. 13)" in text and "significant for PCF(+) in" in text
    # One figure per section: averaging, the bands, the three difference bands.
    figures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(figures) == 3, f"{len(figures)} figures in the outputs"
    # Numbers are in tables (never a long printed line that wraps in the middle of a number).
    assert all(len(line) <= 100 for o in outputs for line in o.get("text", "").splitlines())
