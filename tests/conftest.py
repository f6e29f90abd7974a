"""What the whole suite shares: the hypothesis profiles, the fast loop's example budgets, and each
notebook of ``notebooks/`` executed once per pytest-xdist worker for every test that reads it.

Two ways to run the suite (``docs/contributing.md``, "Tests"): the README's command runs
everything; ``pytest -m "not slow" --ignore=tests/browser`` is the fast loop. ``slow`` marks what
is slow by nature (a notebook or a Spark session started, simulations of coverage, the benchmark
smoke tests); every slow test still runs in the README's command, so in CI.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))  # so tests can `import brute`

# Modest example counts: the whole model suite should run in well under a minute.
settings.register_profile(
    "costwidget",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci-long", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "costwidget"))

# Both conftest.py files (here and in browser/) are plugins, not test modules: with
# --doctest-modules pytest would also import each as a module named "conftest" and stop on
# the clash ("import file mismatch").
collect_ignore = ["conftest.py", "browser/conftest.py"]

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
# The most examples a hypothesis test runs in the fast loop (its own count in the full run).
QUICK_EXAMPLES = 20


# ------------------------------------------------------------------ the fast loop's budgets
def _slow_left_out(item: pytest.Item) -> bool:
    """Whether the run's ``-m`` expression would leave ``item`` out, were it marked slow."""
    expr = item.config.getoption("markexpr", "")
    if not expr:
        return False
    names = {m.name for m in item.iter_markers()} | {"slow"}
    return not Expression.compile(expr).evaluate(lambda name, **kwargs: name in names)


def _quick(own: settings, quick: dict) -> settings | None:
    """The settings a long hypothesis test runs with in the fast loop (None: its own)."""
    quick = {"max_examples": min(own.max_examples, QUICK_EXAMPLES), **quick}
    if all(getattr(own, k) <= v for k, v in quick.items()):
        return None
    return settings(own, **quick)


@pytest.fixture(autouse=True)
def _fast_loop_budget(request):
    """A hypothesis test's long budget is the slow part of it, not the property: where the run
    leaves out ``slow`` (the fast loop), the test runs with at most ``QUICK_EXAMPLES`` examples
    (or what its ``quick_budget`` marker says); everywhere else, with its own settings. The
    settings are read when the test is called, so they are swapped for the call and put back."""
    fn = getattr(request.node, "obj", None)
    if not getattr(fn, "is_hypothesis_test", False) or not _slow_left_out(request.node):
        yield
        return
    marker = request.node.get_closest_marker("quick_budget")
    quick = marker.kwargs if marker else {}
    # A hypothesis.stateful TestCase reads its class's settings; a @given test its function's.
    owner, attr = (
        (request.node.cls, "settings")
        if request.node.cls is not None
        else (
            fn,
            "_hypothesis_internal_use_settings",
        )
    )
    own = getattr(owner, attr)
    small = _quick(own, quick)
    if small is None:
        yield
        return
    setattr(owner, attr, small)
    try:
        yield
    finally:
        setattr(owner, attr, own)


def pytest_report_header(config):
    if config.getoption("markexpr", ""):
        return [
            f"costwidget: where -m leaves out slow, hypothesis tests run at most "
            f"{QUICK_EXAMPLES} examples (or their quick_budget marker's settings)"
        ]
    return []


# --------------------------------------------------------------- notebooks, executed once
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclasses.dataclass
class ExecutedNotebook:
    """One notebook of ``notebooks/`` as a real kernel ran it, top to bottom.

    ``nb`` holds the notebook's own cells with their outputs; ``probe`` the outputs of the cells
    test modules appended (their ``NOTEBOOK_PROBES``), which ran after the last cell in the same
    kernel, on the notebook's own variables; ``leftovers`` the names of ``costwidget*`` files the
    kernel left in its temporary directory (a notebook removes what it wrote).
    """

    nb: object
    probe: list
    leftovers: list

    @staticmethod
    def errors(cells) -> list[str]:
        """Each error output of ``cells``: its cell, exception and traceback, readable."""
        return [
            f"cell {i}: {o['ename']}: {o['evalue']}\n" + ANSI.sub("", "\n".join(o["traceback"]))
            for i, c in enumerate(cells)
            if c.cell_type == "code"
            for o in c.get("outputs", [])
            if o.get("output_type") == "error"
        ]

    @staticmethod
    def outputs(cells) -> list:
        return [o for c in cells if c.cell_type == "code" for o in c.get("outputs", [])]


def _probes(session) -> dict[str, list[str]]:
    """The probe cells the selected test modules ask for, by notebook name."""
    probes: dict[str, list[str]] = {}
    for module in {item.module for item in session.items if getattr(item, "module", None)}:
        for name, code in getattr(module, "NOTEBOOK_PROBES", {}).items():
            probes.setdefault(name, []).append(code)
    return probes


def _execute(path: Path, probes: list[str], root: Path) -> ExecutedNotebook:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    own = len(nb.cells)
    nb.cells += [nbformat.v4.new_code_cell(code) for code in probes]
    # A scratch directory to run in (files a notebook writes stay out of the repository) and a
    # temporary directory of its own (to see what it leaves behind).
    temp = root / "temp"
    temp.mkdir(parents=True)
    NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        allow_errors=True,  # every test reads the errors of its own cells
        resources={"metadata": {"path": str(root)}},
    ).execute(env={**os.environ, "TMPDIR": str(temp)})
    probe = nb.cells[own:]
    del nb.cells[own:]
    leftovers = sorted(p.name for p in temp.iterdir() if p.name.startswith("costwidget"))
    return ExecutedNotebook(nb=nb, probe=probe, leftovers=leftovers)


@pytest.fixture(scope="session")
def executed_notebook(request, tmp_path_factory):
    """``executed_notebook("tour.ipynb")``: that notebook executed by a real kernel (nbclient),
    once per test process (each pytest-xdist worker) however many of its tests read it; a notebook
    no selected test reads is not run.
    A kernel that dies or a cell that times out fails every test of that notebook, with the
    first error, without running it again."""
    for name in ("nbformat", "nbclient", "ipykernel"):
        pytest.importorskip(name)
    runs: dict[str, ExecutedNotebook | Exception] = {}
    probes = _probes(request.session)

    def get(name: str) -> ExecutedNotebook:
        if name not in runs:
            root = tmp_path_factory.mktemp(Path(name).stem)
            try:
                runs[name] = _execute(NOTEBOOKS / name, probes.get(name, []), root)
            except Exception as exc:  # kept and raised again for each reader
                runs[name] = exc
        run = runs[name]
        if isinstance(run, Exception):
            raise run
        return run

    return get
