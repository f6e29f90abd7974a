"""Screenshots of the widget's first screen: what a person sees at 1400×900 in JupyterLab, light and
dark, on the bundled demo data (German credit, four cross-validated models) at its costs (a missed
bad risk costs 5, a refused good one 1), with bands on.

A JupyterLab of its own (``tests/browser/lab_server.py``: own settings, token and port) runs a
one-cell notebook; Debian's chromium (never a downloaded browser) shows it with the file browser
closed and the widget scrolled to the top of the notebook, and the window is saved as
``<prefix>-light.png`` and ``<prefix>-dark.png`` (JupyterLab's "JupyterLab Dark" theme).

Run (one command, from the repository root; the kernel imports the ``costwidget`` on PYTHONPATH):

    PYTHONPATH=$PWD .venv/bin/python docs/first_screen/make_screenshots.py docs/first_screen/after

The "before" pair was made from a worktree of main at d89d17d with
``PYTHONPATH=/tmp/before python docs/first_screen/make_screenshots.py docs/first_screen/before``.
"""

from __future__ import annotations

import json
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

VIEWPORT = {"width": 1400, "height": 900}
NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "s1",
            "metadata": {},
            "outputs": [],
            "source": [
                "import costwidget as cw\n",
                "w = cw.demo(cost_fn=5.0)\n",
                "w.show_bands = True\n",
                "w.wait(timeout=300)\n",
                "w",
            ],
        }
    ],
    "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}

# The widget is drawn: both panes have their ticks, and the readout its rows.
_DRAWN = (
    "() => document.querySelectorAll('.costwidget svg .tick text').length > 20 && "
    "document.querySelectorAll('.costwidget .costwidget-readout tr').length > 2"
)


def _show_widget_on_top(page) -> None:
    """Close the left sidebar, hide the cell's input and scroll the widget to the top."""
    tab = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
    if tab.count():
        tab.first.click()  # lumino listens to the mouse, not to element.click()
    page.wait_for_timeout(300)
    page.evaluate("""() => {
      const w = document.querySelector('.costwidget');
      const panel = w.closest('.jp-WindowedPanel-outer') || w.closest('.jp-Notebook');
      const top = w.getBoundingClientRect().top - panel.getBoundingClientRect().top;
      panel.scrollTop += top - 4;
    }""")
    page.wait_for_timeout(800)


def _switch_to_dark(page, wait_for_state) -> None:
    page.get_by_role("menuitem", name="Settings", exact=True).click()
    page.locator(".lm-Menu-item", has_text="Theme").first.hover()
    page.locator(".lm-Menu-item", has_text="JupyterLab Dark").first.click()
    wait_for_state(page, "() => document.body.dataset.jpThemeLight === 'false'", timeout=30_000)
    page.wait_for_timeout(1000)


def main(prefix: str) -> list[pathlib.Path]:
    import playwright.sync_api as sync_api
    from lab_server import ARGS, CHROMIUM, run_all_cells, running_lab, wait_for_state
    from playwright.sync_api import sync_playwright

    prefix = pathlib.Path(prefix).resolve()
    prefix.parent.mkdir(parents=True, exist_ok=True)
    outs = []
    with tempfile.TemporaryDirectory() as tmp, running_lab(pathlib.Path(tmp)) as (url, token):
        (pathlib.Path(tmp) / "first_screen.ipynb").write_text(json.dumps(NOTEBOOK))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport=VIEWPORT)
            run_all_cells(page, sync_api, url, token, "first_screen.ipynb")
            page.wait_for_function(_DRAWN, timeout=300_000)
            _show_widget_on_top(page)
            for theme in ("light", "dark"):
                if theme == "dark":
                    _switch_to_dark(page, wait_for_state)
                    _show_widget_on_top(page)
                out = prefix.with_name(f"{prefix.name}-{theme}.png")
                page.screenshot(path=str(out))
                outs.append(out)
            browser.close()
    return outs


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(
            f"usage: {sys.argv[0]} OUTPUT_PREFIX   (writes OUTPUT_PREFIX-light.png and "
            "OUTPUT_PREFIX-dark.png)"
        )
    for path in main(sys.argv[1]):
        print(path)
