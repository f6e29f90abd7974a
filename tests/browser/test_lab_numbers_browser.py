"""Issue 23 in JupyterLab with a kernel: the cost-ratio slider's text follows while it is
dragged, its values are 3-significant-digit numbers, and nothing drifts after the release (the
browser answers each push of a log slider with 10**log10(v); the binding must never take such an
answer, late or not, for a move); and the headline is on the first screen at 1400×900.
"""

from __future__ import annotations

import json

from lab_server import console_errors, wait_for_state

NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "r1",
            "metadata": {},
            "outputs": [],
            "source": [
                "import numpy as np, costwidget as cw\n",
                "rng = np.random.default_rng(0)\n",
                "y = rng.random(400) < 0.3\n",
                "w = cw.CostWidget.from_predictions(y, {'m': y + rng.normal(size=400)})\n",
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

_READ = r"""() => {
  const text = (css) => (document.querySelector(css) || {}).innerText || null;
  const input = (css) => (document.querySelector(`${css} input`) || {}).value || null;
  return {ratio: text('.costwidget .costwidget-ratio-value'), fn: input('.costwidget .costwidget-cost-fn'),
          fp: input('.costwidget .costwidget-cost-fp'), headline: text('.costwidget .costwidget-headline')};
}"""


def _digits(text: str) -> int:
    return len(
        text.replace("=", "").replace(",", "").replace(".", "").strip().lstrip("0").rstrip("0")
    )


def test_ratio_text_follows_the_drag_and_stays(lab, browser, artifacts):
    (lab.root / "ratio.ipynb").write_text(json.dumps(NOTEBOOK))
    page = browser.new_page(viewport={"width": 1400, "height": 1200})
    errors = console_errors(page)
    try:
        lab.run_notebook(page, "ratio.ipynb")
        assert wait_for_state(page, f"() => ({_READ})().ratio === '= 1'", timeout=120_000)
        handle = page.locator(".costwidget .costwidget-ratio .noUi-handle").first
        handle.scroll_into_view_if_needed()
        b = handle.bounding_box()
        x, y = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        seen = []
        for dx in range(10, 130, 10):  # to the right: ratios above 1, the button still held
            page.mouse.move(x + dx, y)
            wait_for_state(
                page,
                f"() => ({_READ})().ratio !== {json.dumps(seen[-1] if seen else '= 1')}",
                timeout=10_000,
            )
            seen.append(page.evaluate(_READ)["ratio"])
        during = len(set(seen))
        page.mouse.up()
        assert during >= 5, f"the ratio text did not follow the drag: {seen}"
        final = page.evaluate(_READ)
        page.wait_for_timeout(2000)  # nothing may happen now: no late echo moves the costs
        after = page.evaluate(_READ)
        assert after == final, (final, after)
        ratio = after["ratio"].removeprefix("= ")
        assert _digits(ratio) <= 3, after  # snapped to 3 significant digits
        assert float(after["fn"]) == float(ratio.replace(",", "")) and after["fp"] == "1", after
        page.locator(".costwidget").first.screenshot(path=str(artifacts / "ratio_slider.png"))
    finally:
        page.close()
    assert not errors, errors


_PLACES = r"""() => {
  const box = (css) => { const e = document.querySelector(css);
    return e ? e.getBoundingClientRect().toJSON() : null; };
  return {headline: box('.costwidget .costwidget-headline'), panes: box('.costwidget .costwidget-panes'),
          text: (document.querySelector('.costwidget .costwidget-headline') || {}).innerText || ''};
}"""


def test_headline_is_on_the_first_screen_in_jupyterlab(lab, browser, artifacts):
    """At 1400×900 in JupyterLab, with the widget in the notebook's first cell, the headline is
    above the panes and inside the first 900 px."""
    (lab.root / "first.ipynb").write_text(json.dumps(NOTEBOOK))
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors = console_errors(page)
    try:
        lab.run_notebook(page, "first.ipynb")
        assert wait_for_state(
            page, f"() => ({_PLACES})().text.startsWith('Deploy m ')", timeout=120_000
        )
        got = page.evaluate(_PLACES)
        assert 0 < got["headline"]["top"] and got["headline"]["bottom"] <= 900, got
        assert got["headline"]["bottom"] <= got["panes"]["top"] + 1, got
        page.screenshot(path=str(artifacts / "first_screen_jupyterlab_1400x900.png"))
    finally:
        page.close()
    assert not errors, errors


ZOOM_NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "z1",
            "metadata": {},
            "outputs": [],
            "source": [
                "import numpy as np, costwidget as cw\n",
                "rng = np.random.default_rng(4)\n",
                "y = rng.random(600) < 0.4\n",
                "w = cw.CostWidget.from_predictions(y, {'a': y * 3.0 + rng.normal(size=600),\n",
                "                                       'b': y * 3.4 + rng.normal(size=600)},\n",
                "                                  p_pos=0.0)\n",
                "w",
            ],
        }
    ],
    "metadata": NOTEBOOK["metadata"],
    "nbformat": 4,
    "nbformat_minor": 5,
}

_COST_TICKS = r"""() => {
  const axes = document.querySelectorAll('.costwidget .costwidget-cost svg .axis');
  const y = axes.length > 1 ? axes[1] : null;
  return {ticks: y ? Array.from(y.querySelectorAll('.tick text')).map(t => t.textContent) : [],
          headline: (document.querySelector('.costwidget .costwidget-headline') || {})
            .innerText || ''};
}"""


def test_nec_axis_zoom_and_headline_words_in_jupyterlab(lab, browser, artifacts):
    """With a kernel: "fit" zooms the NEC axis to the curves (every tick label differs), the
    slider moves it at once (linked in the browser); at p(+) = 0 the headline says that
    flagging no case costs nothing (the front end's headline while attached)."""
    (lab.root / "zoom.ipynb").write_text(json.dumps(ZOOM_NOTEBOOK))
    page = browser.new_page(viewport={"width": 1400, "height": 1400})
    errors = console_errors(page)
    try:
        lab.run_notebook(page, "zoom.ipynb")
        assert wait_for_state(
            page, f"() => ({_COST_TICKS})().ticks.includes('0.5')", timeout=120_000
        )
        got = page.evaluate(_COST_TICKS)
        assert got["headline"].startswith("Flag no case: 0 per case"), got
        page.locator(".costwidget .costwidget-nec-fit").first.click()
        # Good models: every curve under NEC 0.15, so the fitted axis ends well below 0.5.
        assert wait_for_state(
            page,
            f"() => {{ const t = ({_COST_TICKS})().ticks;"
            " return t.length > 2 && Math.max(...t.map(Number)) < 0.2; }",
            timeout=30_000,
        )
        fitted = page.evaluate(_COST_TICKS)["ticks"]
        assert len(set(fitted)) == len(fitted), fitted
        page.locator(".costwidget .costwidget-cost").first.screenshot(
            path=str(artifacts / "nec_zoom_fitted_jupyterlab.png")
        )
        handle = page.locator(".costwidget .costwidget-nec-zoom .noUi-handle").first
        handle.focus()
        for _ in range(10):
            page.keyboard.press("ArrowLeft")
        assert wait_for_state(
            page,
            f"() => {{ const t = ({_COST_TICKS})().ticks;"
            f" return t.length > 2 && Math.max(...t.map(Number)) < "
            f"{max(map(float, fitted))}; }}",
            timeout=15_000,
        )
        zoomed = page.evaluate(_COST_TICKS)["ticks"]
        assert len(set(zoomed)) == len(zoomed), zoomed
    finally:
        page.close()
    assert not errors, errors
