"""Every notebook in notebooks/ runs top to bottom without error (nbclient, a real kernel)."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert any(p.name == "tour.ipynb" for p in NOTEBOOKS)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, executed_notebook):
    # Executed once per run (tests/conftest.py), in a scratch directory so files written by a
    # notebook stay out of the repo, with a temporary directory of its own.
    run = executed_notebook(path.name)
    errors = run.errors(run.nb.cells)
    assert not errors, errors[0]
    # A notebook removes what it wrote (scale.ipynb writes a Parquet data set of its own).
    assert not run.leftovers
