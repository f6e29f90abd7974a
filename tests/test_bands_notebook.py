"""notebooks/uncertainty.ipynb runs top to bottom (ROCAI figures 12-15 with real models), and its
figures are in the outputs (matplotlib is in the test extra)."""

import pytest

pytestmark = pytest.mark.slow  # a notebook executed (once per run: tests/conftest.py)


def test_uncertainty_notebook_executes(executed_notebook):
    run = executed_notebook("uncertainty.ipynb")
    outputs = run.outputs(run.nb.cells)
    errors = run.errors(run.nb.cells)
    assert not errors, errors[0]
    text = "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "high correlation (fig. 13)" in text and "significant for PCF(+) in" in text
    # One figure per section: averaging, the bands, the three difference bands.
    figures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(figures) == 3, f"{len(figures)} figures in the outputs"
    # Numbers are in tables (never a long printed line that wraps in the middle of a number).
    assert all(len(line) <= 100 for o in outputs for line in o.get("text", "").splitlines())
