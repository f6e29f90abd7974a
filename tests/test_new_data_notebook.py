"""notebooks/new_data.ipynb runs top to bottom on German credit, and says where the winner
changes: its table and figures are in the outputs, and the widget's headline gives the cost on
new data."""

import pytest

pytestmark = pytest.mark.slow  # a notebook executed (once per run: tests/conftest.py)


def test_new_data_notebook_executes_and_says_where_the_winner_changes(executed_notebook):
    run = executed_notebook("new_data.ipynb")
    outputs = run.outputs(run.nb.cells)
    errors = run.errors(run.nb.cells)
    assert not errors, errors[0]
    text = "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "the winner changes on" in text and "winner on new data" in text
    assert "all negative" in text  # low PCF(+): flagging no case beats the tuned models
    assert " per case on new data" in text  # the widget's headline: chosen on new data
    figures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(figures) == 2, f"{len(figures)} figures in the outputs"
