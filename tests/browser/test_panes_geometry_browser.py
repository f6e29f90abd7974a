"""Nothing drawn outside its plot area, tick labels apart and axis labels whole, in the panes
(issue 23); the thesis view's own checks are in ``test_thesis_view_browser.py``.

The demo widget (German credit, four models) with a range of interest, bands and the
Neyman-Pearson constraint on, exported with ``w.to_html`` and drawn by Chromium offline at 1000
and 1400 px. For the ROC, cost and difference panes, measured on the rendered SVG:

* the title lies above the plot area (the trivial lines once crossed "Cost space");
* every mark is clipped to a rectangle the size of the plot area (bqplot's clip path), so no
  mark shows outside it, whatever its data (the never-use region and the trivial lines go up to
  NEC 1 to fill the plot to its top edge);
* the range-of-interest shade starts at NEC 0, where the envelopes start, never below it (it
  once ran ~7 px below, on a scale of its own), and lies within the plot area's width;
* no two tick labels of an axis overlap, and every tick label and axis label lies inside its
  figure.
"""

from __future__ import annotations

import pytest
from test_thesis_view_browser import _inside, _overlap

import costwidget as cw

pytestmark = pytest.mark.timeout(300)

_MEASURE = r"""
(sels) => {
  const box = el => { const r = el.getBoundingClientRect();
                      return [r.left, r.top, r.right, r.bottom]; };
  return sels.map(({fig: figSel, marks}) => {
    const fig = document.querySelector(figSel);
    if (!fig) return {sel: figSel, missing: true};
    const svg = fig.querySelector('svg.svg-figure');
    const plot = svg.querySelector('.plotarea_events');
    const clip = svg.querySelector('clipPath rect');
    const groups = Array.from(plot.nextElementSibling.children).filter(g => g.tagName === 'g');
    const markBox = i => {
      const g = groups[i];
      if (!g) return null;
      const paths = Array.from(g.querySelectorAll('path')).filter(
        p => (p.getAttribute('d') || '').length > 0 && p.getBoundingClientRect().width > 0);
      if (!paths.length) return null;
      const bs = paths.map(box);
      return [Math.min(...bs.map(b => b[0])), Math.min(...bs.map(b => b[1])),
              Math.max(...bs.map(b => b[2])), Math.max(...bs.map(b => b[3]))];
    };
    const title = svg.querySelector('text.mainheading');
    return {
      sel: figSel, fig: box(fig), plot: box(plot),
      clip: clip ? [+clip.getAttribute('width'), +clip.getAttribute('height')] : null,
      unclipped: groups.filter(g => g.children.length && !g.getAttribute('clip-path')).length,
      groups: groups.length,
      title: title && title.textContent.trim() ? box(title) : null,
      marks: Object.fromEntries(Object.entries(marks).map(([k, i]) => [k, markBox(i)])),
      axes: Array.from(svg.parentElement.querySelectorAll('g.axis')).map(g => ({
        ticks: Array.from(g.querySelectorAll('.tick text'))
          .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0).map(box),
        label: Array.from(g.querySelectorAll('text.axislabel'))
          .filter(t => t.textContent.trim()).map(box),
      })),
    };
  });
}
"""


@pytest.fixture(scope="module")
def page_and_marks(tmp_path_factory):
    w = cw.demo(cost_fn=5.0)
    try:
        w.update(
            range_of_interest=[0.3, 0.55],
            show_bands=True,
            constraint="neyman_pearson",
            difference=["gradient boosting", "naive Bayes"],
        )
        path = w.to_html(tmp_path_factory.mktemp("panes") / "panes.html")
        cost = w.figures.cost.marks
        marks = {
            "shade": cost.index(w.range_tool.shade),
            "strip": cost.index(w.classifier_layers.winner_strip),
        }
        yield path, marks
    finally:
        w.close()


@pytest.mark.parametrize("width", [1000, 1400])
def test_panes_draw_inside_their_plot_areas(browser, page_and_marks, artifacts, width):
    path, marks = page_and_marks
    page = browser.new_page(viewport={"width": width, "height": 1000})
    try:
        page.goto(path.as_uri())
        page.wait_for_function(
            "() => document.querySelectorAll('.costwidget-cost svg.svg-figure path').length > 20"
            " && document.querySelectorAll('.costwidget svg .tick text').length > 40",
            timeout=120_000,
        )
        page.wait_for_timeout(500)  # bqplot lays out axis labels after the ticks
        page.locator(".costwidget").first.screenshot(path=str(artifacts / f"panes_{width}.png"))
        sels = [
            {"fig": ".costwidget-roc", "marks": {}},
            {"fig": ".costwidget-cost", "marks": marks},
            {"fig": ".costwidget-difference", "marks": {}},
        ]
        found = page.evaluate(_MEASURE, sels)
    finally:
        page.close()
    for f in found:
        if f.get("missing"):
            assert f["sel"] == ".costwidget-difference", f"{f['sel']} is not on the page"
            continue
        where = f"{f['sel']} at {width} px"
        plot = f["plot"]
        assert f["groups"] > 0 and f["unclipped"] == 0, f"{where}: marks without a clip path"
        assert f["clip"] == pytest.approx([plot[2] - plot[0], plot[3] - plot[1]], abs=1), (
            f"{where}: the clip rectangle {f['clip']} is not the plot area {plot}"
        )
        if f["title"]:
            assert f["title"][3] <= plot[1] + 0.5, (
                f"{where}: the title {f['title']} reaches into the plot area {plot}"
            )
        if f["marks"]:
            shade, strip = f["marks"]["shade"], f["marks"]["strip"]
            assert shade is not None and strip is not None, f"{where}: {f['marks']}"
            # The strip is drawn at NEC 0 (a 10 px line): the shade ends on its centre line.
            assert abs(shade[3] - (strip[1] + strip[3]) / 2) < 1.0, (
                f"{where}: the shade's bottom {shade[3]} is not at NEC 0 {strip}"
            )
            assert shade[3] <= plot[3] and plot[0] - 1 <= shade[0] and shade[2] <= plot[2] + 1, (
                f"{where}: the shade {shade} leaves the plot area {plot}"
            )
        assert f["axes"], f"{where}: no axes"
        for axis in f["axes"]:
            ticks = axis["ticks"]
            for i in range(len(ticks)):
                for j in range(i + 1, len(ticks)):
                    assert not _overlap(ticks[i], ticks[j]), (
                        f"{where}: tick labels overlap: {ticks[i]} and {ticks[j]}"
                    )
            for t in ticks + axis["label"]:
                assert _inside(t, f["fig"]), f"{where}: {t} leaves its figure {f['fig']}"
