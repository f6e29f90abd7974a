"""Real-browser test (issue 32, item 5): the exported page's headline says how sure it is.

A widget with the difference view on exports its runner-up band with the page. Chromium opens
the page from disk (no kernel): its headline is the kernel's, clause included; a move of p(+)
drops the clause (the band is of the exported PCF(+) only), and the way back says it again.
Each headline must be what Python's ``decide`` says for the page's state, with the exported
band. A screenshot goes to tests/artifacts/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lab_server import offline_page, wait_for_state

import costwidget as cw
from costwidget.datasets import load_demo_scores
from costwidget.widget.text.headline import headline_html

ARTIFACTS = Path(__file__).resolve().parents[2] / "tests" / "artifacts"

_HEADLINE = r"""async () => {
  const spec = JSON.parse(document.getElementById('costwidget-frontend').textContent);
  const models = await window.costwidgetModels;
  return models.find((x) => x.model_id === spec.roles.headline).get('value');
}"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    m = cw.Classifier.from_frame(load_demo_scores("german_credit"), instance="row", pos_label="Bad")
    clfs = {name: m[name] for name in ("gradient boosting", "random forest")}
    w = cw.CostWidget(list(clfs.values()), p_pos=0.3)
    w.difference = ["gradient boosting", "random forest"]
    w.wait(120)
    band = w.decision.runner_up_band
    assert band is not None and "cannot tell apart" in w.headline.text
    path = tmp_path_factory.mktemp("page") / "sure.html"
    w.to_html(path)
    w.close()
    return clfs, band, path


def _said(clfs, band, p_pos) -> str:
    return headline_html(cw.decide(clfs, p_pos=p_pos, runner_up_band=band).headline)


def test_the_page_says_the_exported_band_at_its_state_only(browser, exported):
    clfs, band, path = exported
    with offline_page(browser, path) as (pg, errors, refused):
        first = pg.evaluate(_HEADLINE)
        assert _said(clfs, band, 0.3) in first and "cannot tell apart" in first
        pg.evaluate("async () => (await window.costwidgetPage).set({p_pos: 0.35})")
        assert wait_for_state(
            pg, f"async () => !(await ({_HEADLINE})()).includes('tell apart')", timeout=5_000
        )
        moved = pg.evaluate(_HEADLINE)
        assert _said(clfs, band, 0.35) in moved
        pg.evaluate("async () => (await window.costwidgetPage).set({p_pos: 0.3})")
        assert wait_for_state(
            pg, f"async () => (await ({_HEADLINE})()).includes('tell apart')", timeout=5_000
        )
        assert _said(clfs, band, 0.3) in pg.evaluate(_HEADLINE)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pg.locator(".costwidget-headline").first.screenshot(
            path=str(ARTIFACTS / "runner_up_headline.png")
        )
        assert not refused and not errors, (refused, errors)
