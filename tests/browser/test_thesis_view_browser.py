"""The thesis view fits where it is shown (issue "The first screen answers the question").

Drawn by Chromium from its ipywidgets state, offline: on its own (``cw.ThesisView`` as
``thesis.ipynb`` shows it) at 1000 and 700 px, and inside the widget (``w.to_html``) at 1000 px.
In every case, measured on the rendered SVG:

* each chart is at least 400 px wide; at 700 px the two stack;
* no two tick labels of an axis overlap, and no axis label leaves its figure;
* the legend is clear of the charts (above them).

On the old view the charts were about 300 px wide on their own, the x label was cut off and the
"0.05/0.95" and "0.25/0.75" tick labels touched; its legend sat inside the MTMCS chart.
"""

from __future__ import annotations

import numpy as np
import pytest

import costwidget as cw
from costwidget.export import page as export_page

pytestmark = pytest.mark.timeout(300)

# Geometry of every thesis chart on the page: its box, each axis's tick label boxes and label
# box, and the legend's box.
_MEASURE = r"""
() => {
  const box = el => { const r = el.getBoundingClientRect();
                      return [r.left, r.top, r.right, r.bottom]; };
  const charts = ['.costwidget-mtmcs', '.costwidget-thresholds'].map(sel => {
    const fig = document.querySelector(sel);
    if (!fig) return null;
    const svg = fig.querySelector('svg.svg-figure');
    const axes = Array.from(fig.querySelectorAll('g.axis')).map(g => ({
      ticks: Array.from(g.querySelectorAll('.tick text'))
        .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0).map(box),
      label: Array.from(g.querySelectorAll('text.axislabel')).map(box),
    }));
    // The range shade is each chart's first mark: its drawn box, and the plot area's.
    const plot = svg && svg.querySelector('.plotarea_events');
    const first = plot && Array.from(plot.nextElementSibling.children).find(g => g.tagName === 'g');
    const shadePath = first && first.querySelector('path.line');
    const shade = shadePath && (shadePath.getAttribute('d') || '').length &&
                  shadePath.getBoundingClientRect().width > 0 ? box(shadePath) : null;
    return {sel, fig: box(fig), svg: svg ? box(svg) : null, axes, shade,
            plot: plot ? box(plot) : null};
  });
  const legend = document.querySelector('.costwidget-thesis-legend');
  return {charts, legend: legend ? box(legend) : null};
}
"""


def _overlap(a, b, slack=0.5):
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _inside(inner, outer, slack=1.0):
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _check_fits(geometry, *, stacked):
    charts = geometry["charts"]
    assert all(charts), f"a thesis chart is missing from the page: {geometry}"
    for chart in charts:
        left, top, right, bottom = chart["fig"]
        assert right - left >= 400 - 0.5, f"{chart['sel']} is {right - left:.0f} px wide"
        assert chart["axes"], f"{chart['sel']} has no axes drawn"
        for axis in chart["axes"]:
            ticks = axis["ticks"]
            for i in range(len(ticks)):
                for j in range(i + 1, len(ticks)):
                    assert not _overlap(ticks[i], ticks[j]), (
                        f"{chart['sel']}: tick labels overlap: {ticks[i]} and {ticks[j]}"
                    )
            for label in axis["label"]:
                assert _inside(label, chart["fig"]), (
                    f"{chart['sel']}: axis label {label} leaves its figure {chart['fig']}"
                )
            for tick in ticks:
                assert _inside(tick, chart["fig"]), (
                    f"{chart['sel']}: tick label {tick} leaves its figure {chart['fig']}"
                )
        if chart["shade"] is not None:  # the range shade stays in the plot area
            assert _inside(chart["shade"], chart["plot"], slack=1.5), (
                f"{chart['sel']}: the range shade {chart['shade']} leaves {chart['plot']}"
            )
    a, b = (c["fig"] for c in charts)
    if stacked:
        assert b[1] >= a[3] - 0.5, f"at this width the charts should stack: {a} {b}"
    else:
        assert abs(a[1] - b[1]) < 1 and b[0] >= a[2] - 0.5, f"side by side expected: {a} {b}"
    legend = geometry["legend"]
    assert legend is not None, "the view has no legend"
    for chart in charts:
        assert not _overlap(legend, chart["fig"]), f"the legend {legend} covers {chart['sel']}"


def _classifiers():
    rng = np.random.default_rng(0)
    y = rng.random(400) < 0.4
    return [
        cw.Classifier.from_scores(y, y * shift + rng.normal(size=400), name=name)
        for name, shift in [
            ("random forest", 1.2),
            ("naive Bayes", 0.8),
            ("AdaBoost", 1.0),
            ("<b>k-NN</b>", 0.5),
        ]
    ]


def _standalone_page(view) -> str:
    """The view's widgets drawn by the package's offline widget manager, as an exported page is."""
    from ipywidgets.embed import embed_data

    data = embed_data(views=[view.widget], drop_defaults=False)
    return export_page.widget_page(
        manager_state=data["manager_state"], view_specs=data["view_specs"], title="thesis view"
    )


def _measure(browser, path, width, artifacts, name):
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.goto(path.as_uri())
        page.wait_for_function(
            "() => document.querySelectorAll('.costwidget-thesis .tick text').length >= 20",
            timeout=60_000,
        )
        page.wait_for_timeout(300)  # bqplot lays out its axis labels after the ticks
        page.locator(".costwidget-thesis").first.screenshot(path=str(artifacts / name))
        return page.evaluate(_MEASURE)
    finally:
        page.close()


@pytest.mark.parametrize("width, stacked", [(1000, False), (700, True)])
def test_the_view_on_its_own_fits(browser, tmp_path, artifacts, width, stacked):
    view = cw.ThesisView(_classifiers())
    view.show(view.names, [0.45, 0.65], p_pos=0.5)
    path = tmp_path / "thesis.html"
    path.write_text(_standalone_page(view), encoding="utf-8")
    _check_fits(
        _measure(browser, path, width, artifacts, f"thesis_view_alone_{width}.png"), stacked=stacked
    )


def test_the_view_in_the_widget_fits(browser, tmp_path, artifacts):
    w = cw.CostWidget(_classifiers())
    w.range_of_interest = [0.45, 0.65]
    w.range_tool.thesis_toggle.value = True
    path = w.to_html(tmp_path / "widget.html")
    _check_fits(
        _measure(browser, path, 1000, artifacts, "thesis_view_in_widget_1000.png"), stacked=False
    )
