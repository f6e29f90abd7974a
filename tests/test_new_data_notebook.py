"""notebooks/new_data.ipynb (issue 32) runs top to bottom on German credit, and says where the
winner changes: its table and figures are in the outputs, and the widget's headline gives the
cost on new data."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "new_data.ipynb"


def test_new_data_notebook_executes_and_says_where_the_winner_changes(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "the winner changes on" in text and "winner on new data" in text
    assert "all negative" in text  # low PCF(+): flagging no case beats the tuned models
    assert " per case on new data" in text  # the widget's headline: chosen on new data
    figures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(figures) == 2, f"{len(figures)} figures in the outputs"
