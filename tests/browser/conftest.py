"""Fixtures of the real-browser tests: the one gate that decides whether they run, Debian's
chromium driven by Playwright, and a JupyterLab (``lab_server.running_lab``) per test module.

The tests are skipped only when /usr/bin/chromium is absent and CI is not set; under CI
(``CI=true``) a missing browser or a missing Playwright is a failure of every browser test.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lab_server import ARGS, CHROMIUM, run_all_cells, running_lab

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
ARTIFACTS = Path(__file__).resolve().parents[2] / "tests" / "artifacts"


def pytest_collection_modifyitems(session, config, items):
    """The browser tests run after every other test of the run. Playwright's sync API, alive for
    the whole session (the `browser` fixture), leaves its event loop marked running in the main
    thread between calls; a CostWidget built after it took that loop for a kernel's and drew its
    results only in wait(), so the tests of a script's background work ran the wrong path (one
    failed in CI: no result was drawn by the worker)."""
    here = Path(__file__).parent
    items.sort(key=lambda item: here in Path(str(item.path)).parents)  # stable: order kept


@pytest.fixture(scope="session", autouse=True)
def sync_api():
    """``playwright.sync_api``, once the browser gate let the tests through."""
    if not Path(CHROMIUM).exists():
        why = f"{CHROMIUM} is absent (install Debian's chromium: apt-get install -y chromium)"
        if IN_CI:
            pytest.fail(f"{why}; CI is set, so the browser tests must run", pytrace=False)
        pytest.skip(f"{why}; these tests run whenever CI is set")
    if IN_CI:
        import playwright.sync_api

        return playwright.sync_api
    return pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="session")
def browser(sync_api):
    """Debian's chromium (never a downloaded browser), headless, for the whole session."""
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


class Lab:
    """A running JupyterLab: ``root`` is the folder it serves (write notebooks there)."""

    def __init__(self, url, token, root, sync_api):
        self.url, self.token, self.root, self._api = url, token, root, sync_api

    def run_notebook(self, page, notebook: str) -> None:
        """Open ``notebook`` (a path under ``root``), run all its cells, wait until all ran."""
        run_all_cells(page, self._api, self.url, self.token, notebook)


@pytest.fixture(scope="module")
def lab(tmp_path_factory, sync_api):
    """A JupyterLab of the test module's own (its own server, kernels, settings)."""
    root = tmp_path_factory.mktemp("lab")
    with running_lab(root) as (url, token):
        yield Lab(url, token, root, sync_api)


@pytest.fixture
def artifacts():
    """tests/artifacts/ (gitignored): screenshots to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
