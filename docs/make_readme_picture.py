"""Make the README's picture of the widget with the package's own export, so that it stays true.

The demo widget (bundled German credit, four cross-validated models) at German credit's costs
(a missed bad risk costs 5, a refused good one 1), exported with ``w.to_html`` and drawn by
Debian's chromium (never a downloaded browser), offline. The widget's part of the page is
saved as ``docs/widget.png`` (1400 px wide window).

Run: ``.venv/bin/python docs/make_readme_picture.py`` (needs the ``test`` extra for Playwright and
``apt-get install -y chromium``).
"""

from __future__ import annotations

import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]


def main(out: pathlib.Path = HERE / "widget.png") -> pathlib.Path:
    from playwright.sync_api import sync_playwright

    import costwidget as cw

    with cw.demo() as w, tempfile.TemporaryDirectory() as tmp:
        w.cost_fn = 5.0
        page_path = w.to_html(pathlib.Path(tmp) / "widget.html")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(page_path.as_uri())
            # Drawn when every pane has its axes and the readout its rows.
            page.wait_for_function(
                "() => document.querySelectorAll('#costwidget-view svg .tick text').length > 20",
                timeout=120_000,
            )
            page.wait_for_timeout(500)
            page.locator("#costwidget-view").screenshot(path=str(out))
            browser.close()
    return out


if __name__ == "__main__":
    print(main(*(pathlib.Path(a) for a in sys.argv[1:])))
