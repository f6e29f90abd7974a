"""How the widget looks: colours from the notebook's theme, and a layout that adapts to the width.

Colours: everything that used to be black (the operating line and its drag handle, the best-of-all
line, outlines, the difference curve) and every background is a CSS variable, ``--cw-…``, set on
``.costwidget`` from JupyterLab's theme variables (``--jp-…``, which Notebook 7 and Voila share).
So a light theme draws them black on white and a dark theme white on near-black. Each ``var()``
carries a light-theme fallback for pages without JupyterLab's CSS (the exported HTML page). The
classifier colours are not themed: they are the palette of `drawing.PALETTE`.

Layout: the two panes share the width and keep their aspect from about 800 px up; below that
they wrap, one above the other, each as wide as the widget (up to 600 px). The legend is a row
of its own above the panes, never inside a plot. Tables wrap their headers, never the numbers.

The rules are delivered by :func:`style_widget`, a hidden HTML widget holding one ``<style>``
element; every selector starts with ``.costwidget``, so nothing else on the page changes.
"""

from __future__ import annotations

import re

import ipywidgets as widgets

from .steady_css import STEADY_CSS

__all__ = [
    "INK",
    "INK_SOFT",
    "NEVER_USE",
    "NEVER_USE_OPACITY",
    "RANGE_EDGE",
    "RANGE_FILL",
    "CSS",
    "style_widget",
    "swatch_class",
    "swatch_css",
    "legend_html",
    "LEGEND_KINDS",
    "ALWAYS",
    "HALF_POINT_MARKER",
    "line_swatch",
    "rect_swatch",
    "marker_swatch",
    "strip_swatch",
]

#: Lines and markers that were black: the theme's strongest text colour.
INK = "var(--cw-ink, #000)"
#: Secondary lines (band edges): the theme's secondary text colour.
INK_SOFT = "var(--cw-ink-soft, #666)"
#: The region of cost space where no classifier should be used: above either trivial line
#: (above min(x, 1 − x)), where a trivial classifier costs less.
NEVER_USE = "var(--cw-never-use, #e6e6e6)"
NEVER_USE_OPACITY = 0.8
#: The range of interest's outline and fill: olive, far from every classifier colour of the
#: palette (its orange "#e6a000" was random forest's "#E69F00").
RANGE_EDGE, RANGE_FILL = "#808000", "#e3e36b"

CSS = (
    """
.costwidget {
  --cw-ink: var(--jp-content-font-color0, #000);
  --cw-ink-soft: var(--jp-content-font-color2, rgba(0, 0, 0, 0.54));
  --cw-text: var(--jp-content-font-color1, rgba(0, 0, 0, 0.87));
  --cw-paper: var(--jp-layout-color0, #fff);
  --cw-never-use: var(--jp-layout-color2, #eee);
  --cw-best-bg: var(--jp-layout-color2, #eee);
  --cw-best-fg: var(--jp-content-font-color0, #000);
  --cw-accent: var(--jp-brand-color1, #1976d2);
  --cw-rule: var(--jp-border-color2, #e0e0e0);
  --cw-error-fg: var(--jp-content-font-color0, #000);
  --cw-error-bg: var(--jp-rendermime-error-background, #fdd);
  --cw-error-edge: var(--jp-error-color1, #d32f2f);
  /* bqplot colours titles and axis labels orange in dark themes: use the theme's text colour. */
  --bq-content-font-color: var(--cw-text);
  --bq-mainheading-fill: var(--cw-text);
  --bq-axislabel-fill: var(--cw-text);
  max-width: 100%;
  box-sizing: border-box;
  color: var(--cw-text);
}
/* Dark themes: the never-use region a shade above the background, not a bright patch. */
[data-jp-theme-light='false'] .costwidget {
  --cw-never-use: var(--jp-layout-color1, #212121);
}
.costwidget .costwidget-row {
  flex-flow: row wrap;
  align-items: center;
  column-gap: 12px;
}
/* Panes: side by side from ~800 px, stacked below; square plot areas. */
.costwidget .costwidget-panes {
  flex-flow: row wrap;
  align-items: flex-start;
  gap: 0 8px;
}
.costwidget .costwidget-pane,
.costwidget .costwidget-wide-pane {
  flex: 1 1 390px;
  min-width: 0;
  max-width: 600px;
  height: auto;
  aspect-ratio: 1 / 1;
  min-height: 0;
  overflow: hidden;
}
.costwidget .costwidget-wide-pane {
  aspect-ratio: 16 / 10;
}
.costwidget .costwidget-side-text {
  flex: 1 1 260px;
  min-width: 0;
}
/* Controls: sliders take the room there is; number fields show a whole number. */
.costwidget .costwidget-wide-slider {
  flex: 1 1 300px;
  min-width: 220px;
  max-width: 620px;
  width: auto;
}
.costwidget .costwidget-wide-slider .slider-container { flex: 1 1 auto; }
.costwidget .costwidget-number {
  width: auto;
  flex: 0 1 auto;
}
.costwidget .costwidget-number input {
  width: 13ch;
  flex: 0 0 auto;
}
.costwidget .widget-checkbox { width: auto; margin-right: 8px; }
.costwidget .widget-toggle-buttons {
  display: flex;
  flex-flow: row wrap;
  align-items: center;
  column-gap: 6px;
}
.costwidget .widget-toggle-buttons .widget-label { width: auto; }
/* Legend: a row above the panes; the classifier checkboxes carry their colour. */
.costwidget .costwidget-legend-item {
  display: inline-flex;
  align-items: center;
  gap: 4px;
  margin-right: 12px;
  white-space: nowrap;
  font-size: 12px;
}
.costwidget .costwidget-legend-item svg { flex: none; }
/* The constraint's entries are long: in a narrow widget they wrap rather than stick out. */
.costwidget .costwidget-legend-item { max-width: 100%; }
.costwidget .costwidget-legend-neyman_pearson,
.costwidget .costwidget-legend-honest,
.costwidget .costwidget-legend-threshold_choice,
.costwidget .costwidget-legend-workforce { white-space: normal; }
/* Tables: headers in words wrap; numbers never do; the widest is the widget. */
.costwidget .costwidget-table {
  border-collapse: collapse;
  font-size: 12px;
  max-width: 100%;
  color: var(--cw-text);
}
.costwidget .costwidget-table th {
  font-weight: 600;
  font-size: 11px;
  line-height: 1.25;
  text-align: right;
  vertical-align: bottom;
  padding: 2px 4px;
  white-space: normal;
  border-bottom: 1px solid var(--cw-rule);
}
.costwidget .costwidget-table td {
  text-align: right;
  padding: 2px 4px;
  white-space: nowrap;
  font-variant-numeric: tabular-nums;
}
.costwidget .costwidget-table th:first-child,
.costwidget .costwidget-table td:first-child {
  text-align: left;
  white-space: normal;
  min-width: 6em;
}
.costwidget .costwidget-table th.costwidget-text,
.costwidget .costwidget-table td.costwidget-text {
  text-align: left;
  white-space: normal;
  min-width: 10em;
}
/* A readout in a narrow widget (a window of ~900 px with the file browser open): smaller. */
.costwidget .widget-html.costwidget-readout,
.costwidget .widget-html.costwidget-band-readout,
.costwidget .widget-html.costwidget-constraint-readout {
  container-type: inline-size;
}
@container (max-width: 560px) {
  .costwidget .costwidget-table { font-size: 11px; }
  .costwidget .costwidget-table th { font-size: 10.5px; }
  .costwidget .costwidget-table th, .costwidget .costwidget-table td { padding: 2px 3px; }
  .costwidget .costwidget-table th:first-child,
  .costwidget .costwidget-table td:first-child { min-width: 5.5em; }
  /* the constrained rule's words wrap sooner: at 468 px the workforce table stuck out by 3 px */
  .costwidget .costwidget-table th.costwidget-text,
  .costwidget .costwidget-table td.costwidget-text { min-width: 8em; }
}
.costwidget .costwidget-table caption {
  caption-side: top;
  text-align: left;
  padding: 4px 0 2px 0;
}
.costwidget .costwidget-table tr.costwidget-best {
  background: var(--cw-best-bg);
  color: var(--cw-best-fg);
  font-weight: bold;
  box-shadow: inset 3px 0 0 var(--cw-accent);
}
.costwidget .costwidget-table-note {
  font-size: 11px;
  color: var(--cw-ink-soft);
  padding: 2px 0 6px 0;
}
.costwidget .costwidget-error-banner {
  color: var(--cw-error-fg);
  background: var(--cw-error-bg);
  border-left: 4px solid var(--cw-error-edge);
  padding: 2px 6px;
}
.costwidget .widget-html-content { max-width: 100%; }
/* Text blocks read as text: ipywidgets gives HTML the line height of a control row (28 px). */
.costwidget .costwidget-readout .widget-html-content,
.costwidget .costwidget-band-readout .widget-html-content,
.costwidget .costwidget-constraint-readout .widget-html-content,
.costwidget .costwidget-constraint-message .widget-html-content,
.costwidget .costwidget-difference-caption .widget-html-content,
.costwidget .costwidget-hover .widget-html-content,
.costwidget .costwidget-range-table .widget-html-content,
.costwidget .costwidget-thesis-caption .widget-html-content {
  line-height: 1.45;
}
.costwidget .costwidget-constraint-message ul { margin: 2px 0; padding-left: 1.4em; }
.costwidget .costwidget-constraint-message summary { cursor: pointer; color: var(--cw-ink-soft); }
"""
    + STEADY_CSS
)

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def style_widget() -> widgets.HTML:
    """The widget's ``<style>``, in a hidden HTML widget (a style element applies while hidden)."""
    w = widgets.HTML(value=f"<style>{CSS}</style>", layout=widgets.Layout(display="none"))
    w.add_class("costwidget-style")
    return w


def swatch_class(color: str) -> str | None:
    """The class that puts a ``color`` line before a checkbox's label, or None for a colour that
    is not ``#rrggbb`` (then no swatch: nothing but a hex digit string reaches the CSS)."""
    return f"costwidget-swatch-{color[1:].lower()}" if _HEX.match(color) else None


def swatch_css(colors) -> str:
    """``<style>`` rules for :func:`swatch_class` of each colour."""
    rules = []
    for color in dict.fromkeys(colors):
        cls = swatch_class(color)
        if cls is not None:
            rules.append(
                f".costwidget .{cls} label span::before {{ content: ''; display: "
                f"inline-block; width: 18px; border-top: 3px solid {color}; "
                "vertical-align: middle; margin-right: 5px; }"
            )
    return "<style>" + "\n".join(rules) + "</style>"


def line_swatch(color: str, dash: str = "", width: float = 2.0) -> str:
    """A 22 px legend line in ``color`` (a fixed colour or a ``var(...)``, never user text)."""
    dash = f" stroke-dasharray='{dash}'" if dash else ""
    return (
        f"<svg width='22' height='10' aria-hidden='true'><line x1='1' y1='5' x2='21' y2='5' "
        f"style='stroke:{color}' stroke-width='{width}'{dash}/></svg>"
    )


def rect_swatch(fill: str, edge: str, *, opacity: float = 1.0, dash: str = "") -> str:
    """A small filled box: a shaded region or a band."""
    dash = f" stroke-dasharray='{dash}'" if dash else ""
    return (
        "<svg width='16' height='12' aria-hidden='true'><rect x='1' y='1' width='14' "
        f"height='10' style='fill:{fill};fill-opacity:{opacity};stroke:{edge}' "
        f"stroke-width='1'{dash}/></svg>"
    )


def marker_swatch(shape: str, fill: str, stroke: str = INK) -> str:
    """A marker as the panes draw it: ``"diamond"``, ``"square"`` or ``"circle"``."""
    body = {
        "diamond": "<polygon points='7,1 13,7 7,13 1,7'",
        "square": "<rect x='2.5' y='2.5' width='9' height='9'",
        "circle": "<circle cx='7' cy='7' r='4.5'",
    }[shape]
    return (
        f"<svg width='14' height='14' aria-hidden='true'>{body} "
        f"style='fill:{fill};stroke:{stroke}' stroke-width='1.2'/></svg>"
    )


def strip_swatch(colors) -> str:
    """The winner strip: a thick bar in the winners' colours, side by side."""
    colors = [c for c in colors if _HEX.match(c)] or ["#999999"]
    w = 22 / len(colors)
    bars = "".join(
        f"<rect x='{i * w:.2f}' y='2' width='{w + 0.05:.2f}' height='6' style='fill:{c}'/>"
        for i, c in enumerate(colors)
    )
    return f"<svg width='22' height='10' aria-hidden='true'>{bars}</svg>"


#: Every kind of mark the legend can name, in the order it names them.
LEGEND_KINDS = (
    "best",
    "strip",
    "trivial",
    "never",
    "operating",
    "iso",
    "half",
    "cost_lines",
    "bands",
    "fold_spread",
    "honest",
    "threshold_choice",
    "neyman_pearson",
    "workforce",
    "range",
)
ALWAYS = ("best", "strip", "trivial", "never", "operating", "iso")

#: The 0.5 point's marker (`classifier_layers`), named here so the legend draws the same one.
HALF_POINT_MARKER = "square"


def legend_html(kinds=ALWAYS, *, colors=(), band_level=None, bands_outlined=False) -> str:
    """Legend entries of the marks that are the same for every classifier (the classifiers'
    own colours are on their checkboxes), one per kind of mark in ``kinds`` (see
    `LEGEND_KINDS`): the caller passes the kinds shown now, so an entry appears only while its
    mark is on screen. ``colors``: the shown classifiers' colours (the winner strip's and the
    bands' swatches); ``bands_outlined``: the bands are drawn as outlines (more than two on
    screen, see `FillBetweenLayer`). Fixed text: nothing from the data."""
    colors = [c for c in colors if _HEX.match(c)] or ["#999999"]
    first = colors[0]
    entries = {
        "best": (line_swatch(INK, "6 3", 1.5), "best of all"),
        "strip": (strip_swatch(colors), "strip: the cheapest at each PCF(+)"),
        "trivial": (
            line_swatch("#999999", "", 1.5),
            "trivial: all negative (y = x), all positive (y = 1 − x)",
        ),
        "never": (
            rect_swatch(NEVER_USE, "#999999"),
            "never worth using (above y = x or y = 1 − x)",
        ),
        "operating": (
            "<svg width='10' height='14' aria-hidden='true'><line x1='5' y1='1' x2='5' "
            f"y2='13' style='stroke:{INK}' stroke-width='1.5'/></svg>"
            + marker_swatch("circle", first),
            "operating point",
        ),
        "iso": (line_swatch(first, "6 2 1 2", 1.5), "iso-performance line"),
        "half": (marker_swatch(HALF_POINT_MARKER, first), "threshold 0.5 (score ≥ 0.5)"),
        "cost_lines": (line_swatch(first, "", 0.75), "cost line of each hull point"),
        "bands": (
            rect_swatch(first, first, opacity=0.0 if bands_outlined else 0.18),
            # the nominal level: what a band covers, measured, is in the band table
            "bootstrap band" + (f" (nominal {band_level:.0%})" if band_level else ""),
        ),
        "fold_spread": (
            rect_swatch(first, first, opacity=0.10, dash="1.5 1.5"),
            "fold spread (min–max)",
        ),
        "honest": (
            line_swatch(first, "5 3", 1.5) + rect_swatch(first, "none", opacity=0.14),
            "cost on new data (threshold tuned without the case); shaded: its gap to the envelope",
        ),
        "threshold_choice": (
            line_swatch(first, "6 2 1 2", 1.5) + rect_swatch(first, "none", opacity=0.18),
            "threshold chosen from the score or by rate; shaded: its gap to the envelope",
        ),
        "neyman_pearson": (
            line_swatch(INK, "5 3", 1.5) + marker_swatch("diamond", first),
            "Neyman-Pearson: FPR limit, constrained point, its cost line (dashed)",
        ),
        "workforce": (
            line_swatch(INK, "5 3", 1.5) + marker_swatch("diamond", first),
            "workforce line (cases flagged = capacity), constrained point, its cost line (dashed)",
        ),
        "range": (rect_swatch(RANGE_FILL, RANGE_EDGE, opacity=0.5), "range of interest"),
    }
    shown = [k for k in LEGEND_KINDS if k in set(kinds)]
    return "".join(
        f"<span class='costwidget-legend-item costwidget-legend-{k}'>{entries[k][0]}"
        f"{entries[k][1]}</span>"
        for k in shown
    )
