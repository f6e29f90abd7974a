"""ROC space and cost space drawn with matplotlib, with the widget panes' marks, colours and labels.

Each function draws one kind of mark on a given ``Axes`` and returns the artists it made, so that
:class:`costwidget.CostCurveDisplay` can keep them as fitted attributes and ``CostWidget.to_figure``
can draw the widget's current state. All numbers come from the model; nothing here computes
costs. Importing this module imports matplotlib (never pyplot).
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D

from ..model import (
    combined_envelope,
    iso_performance_segment,
    roc_point_to_cost_line,
    thin_indices,
    workforce_segment,
)

__all__ = [
    "PALETTE",
    "TRIVIAL_COLOR",
    "MAX_CURVE_POINTS",
    "text",
    "setup_roc",
    "draw_roc",
    "draw_iso_lines",
    "draw_roc_constraint",
    "setup_cost",
    "draw_envelope",
    "draw_band",
    "draw_cost_lines",
    "draw_combined",
    "draw_operating_line",
    "draw_constrained_lines",
    "setup_difference",
    "draw_difference",
    "classifier_colors",
    "legend_handles",
    "default_figsize",
    "place_panes",
    "wrap",
    "draw_range",
    "despine",
    "TRIVIAL_STYLE",
    "ENVELOPE_STYLE",
]

#: The widget's palette (matplotlib's tab10, in the same order) and the trivial classifiers' grey.
from ..palette import PALETTE  # noqa: E402 - one palette for widget and figures

TRIVIAL_COLOR = "#999999"
#: ROC curves are thinned to this many points, as in the widget (hulls and envelopes never are).
MAX_CURVE_POINTS = 2000

ROC_TITLE, COST_TITLE = "ROC space", "Cost space"
FPR_LABEL, TPR_LABEL = "false-positive rate (FPR)", "true-positive rate (TPR)"
PCF_LABEL, NEC_LABEL = "probability cost PCF(+)", "normalized expected cost"
_GRID = dict(linestyle="--", linewidth=0.5, color="#cccccc")


# Layout, in inches: panes side by side, the caption above, the legend below.
_PANE, _LEFT, _RIGHT, _GAP = 4.2, 0.75, 0.25, 0.9
_TOP, _CAPTION_LINE, _BOTTOM, _LEGEND_ROW = 0.45, 0.24, 0.62, 0.27


def default_figsize(ncols: int, *, legend_rows: int = 1, caption_lines: int = 1):
    """A figure size where ``ncols`` square panes fit with the margins of :func:`place_panes`."""
    width = _LEFT + _RIGHT + ncols * _PANE + (ncols - 1) * _GAP
    height = _TOP + _CAPTION_LINE * caption_lines + _PANE + _BOTTOM + _LEGEND_ROW * legend_rows
    return (width, height)


def place_panes(fig, ncols: int, *, caption_lines: int = 0, legend_rows: int = 0):
    """Fixed margins, in inches, around a row of ``ncols`` subplots."""
    width, height = fig.get_size_inches()
    pane = (width - _LEFT - _RIGHT - (ncols - 1) * _GAP) / ncols
    top = _TOP + _CAPTION_LINE * caption_lines
    bottom = _BOTTOM + _LEGEND_ROW * legend_rows
    fig.subplots_adjust(
        left=_LEFT / width,
        right=1.0 - _RIGHT / width,
        top=1.0 - top / height,
        bottom=bottom / height,
        wspace=_GAP / pane if pane > 0 else 0.2,
    )


#: Characters of 10 pt DejaVu Sans in an inch of figure, on the safe side (15 let a caption with
#: the headline run past both edges of a 10.3 inch figure).
_CHARS_PER_INCH = 12


def wrap(line: str, width_in: float) -> str:
    """Wrap a caption to a figure's width (at the default 10 pt)."""
    import textwrap

    return "\n".join(textwrap.wrap(line, max(int(width_in * _CHARS_PER_INCH), 20)))


def legend_columns(labels, width_in: float) -> int:
    """How many legend entries fit side by side in ``width_in`` (up to 5): each takes its
    label and about 6 characters for its line handle and the gap."""
    per_entry = max(len(label) for label in labels) + 6
    return max(1, min(len(labels), 5, int(width_in * _CHARS_PER_INCH // per_entry)))


def text(label) -> str:
    """A user's string as literal matplotlib text: ``$`` would start mathtext (and can fail to
    parse when the figure is drawn)."""
    out = str(label).replace("$", r"\$")
    # Before matplotlib 3.10 a legend drops labels that start with "_" even when passed
    # explicitly: a zero-width space in front keeps the name, drawn the same.
    return "\u200b" + out if out.startswith("_") else out


def classifier_colors(n: int) -> list[str]:
    """The widget's colours of ``n`` classifiers, in order."""
    return [PALETTE[i % len(PALETTE)] for i in range(n)]


# ---------------------------------------------------------------------------- ROC space
def setup_roc(ax, *, title: str = ROC_TITLE):
    """Axes, labels, grid and the chance diagonal of the ROC pane.

    Ticks are matplotlib's (every 0.2 here): tick labels are most of the drawing time, and the
    static image is drawn at every display of the widget.
    """
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.0)
    ax.set_aspect("equal")
    ax.set_xlabel(FPR_LABEL)
    ax.set_ylabel(TPR_LABEL)
    ax.set_title(title)
    ax.grid(True, **_GRID)
    (diagonal,) = ax.plot(
        [0.0, 1.0], [0.0, 1.0], color=TRIVIAL_COLOR, linestyle="--", linewidth=1.0, zorder=1
    )
    return diagonal


def draw_roc(
    ax, clf, color: str, *, label=None, curve: bool = True, vertices: bool = True, **hull_style
):
    """The ROC curve (thin, faint), its convex hull (the classifier's line) and the hull vertices.

    ``hull_style``: matplotlib ``plot`` keywords of the hull over the defaults (e.g. the
    ``linestyle`` and ``alpha`` of the classifier's envelope). Returns the hull's ``Line2D``.
    """
    if curve:
        roc = clf.roc
        fpr, tpr = roc["fpr"].to_numpy(), roc["tpr"].to_numpy()
        idx = thin_indices(fpr, tpr, MAX_CURVE_POINTS)
        ax.plot(fpr[idx], tpr[idx], color=color, alpha=0.45, linewidth=1.0, zorder=2)
    hull = clf.hull
    style = {"color": color, "linewidth": 2.0, "zorder": 3, **hull_style}
    (line,) = ax.plot(
        hull["fpr"], hull["tpr"], label=None if label is None else text(label), **style
    )
    if vertices:
        ax.scatter(hull["fpr"], hull["tpr"], s=14, color=color, zorder=4, linewidths=0)
    return line


def draw_iso_lines(ax, points, pcf: float):
    """At each classifier's optimal ROC point: its iso-performance line (dash-dot, clipped to
    ROC space) and the point itself, outlined in black. ``points`` is ``[(fpr, tpr, color)]``."""
    if not points:
        return None
    fpr = np.array([p[0] for p in points])
    tpr = np.array([p[1] for p in points])
    colors = [p[2] for p in points]
    xa, ya, xb, yb = iso_performance_segment(fpr, tpr, pcf)
    segments = [[(a, b), (c, d)] for a, b, c, d in zip(xa, ya, xb, yb)]
    ax.add_collection(
        LineCollection(segments, colors=colors, linestyles="dashdot", linewidths=1.5, zorder=5)
    )
    return ax.scatter(fpr, tpr, s=60, c=colors, edgecolors="black", linewidths=1.0, zorder=7)


def draw_roc_constraint(
    ax, kind: str, *, max_fpr=None, capacity=None, n_pos=None, n_neg=None, points=()
):
    """The constraint line in ROC space (dashed black) and each constrained optimum (diamond).

    ``kind`` is ``"neyman_pearson"`` (the line FPR = max_fpr) or ``"workforce"`` (eq. 12-13);
    ``points`` is ``[(fpr, tpr, color)]``.
    """
    if kind == "neyman_pearson":
        ax.plot(
            [max_fpr, max_fpr], [0.0, 1.0], color="black", linestyle="--", linewidth=1.0, zorder=5
        )
    elif kind == "workforce":
        xa, ya, xb, yb = workforce_segment(capacity, n_pos, n_neg)
        if not np.isnan(xa):  # else the line misses ROC space (capacity beyond all cases)
            ax.plot([xa, xb], [ya, yb], color="black", linestyle="--", linewidth=1.0, zorder=5)
    else:
        raise ValueError(f"unknown constraint kind {kind!r}")
    if points:
        ax.scatter(
            [p[0] for p in points],
            [p[1] for p in points],
            marker="D",
            s=55,
            c=[p[2] for p in points],
            edgecolors="black",
            linewidths=1.0,
            zorder=8,
        )


# ---------------------------------------------------------------------------- cost space
#: The trivial classifiers' lines, as the widget draws them.
TRIVIAL_STYLE = {"color": TRIVIAL_COLOR, "linewidth": 1.0, "zorder": 1}
#: Each classifier's envelope (the cost curve), above the bands and the cost lines.
ENVELOPE_STYLE = {"linewidth": 2.5, "zorder": 6}


def setup_cost(
    ax, *, ymax: float = 0.5, trivial: bool = True, title: str = COST_TITLE, trivial_style=None
):
    """Axes, labels, grid, the never-use region and the trivial classifiers of the cost pane.

    ``trivial_style``: matplotlib ``plot`` keywords of both trivial lines (default
    ``TRIVIAL_STYLE``); a ``label`` goes on the first line only, so that the pair has one
    legend entry. Returns the two trivial lines (``y = x``, "all negative", and ``y = 1 - x``,
    "all positive"), or None.
    """
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, ymax)
    ax.set_xlabel(PCF_LABEL)
    ax.set_ylabel(NEC_LABEL)
    ax.set_title(title)
    ax.grid(True, **_GRID)
    if not trivial:
        return None
    # Above both trivial lines' lower envelope min(x, 1 - x) no classifier should be used.
    ax.fill(
        [0.0, 0.5, 1.0, 1.0, 0.0],
        [0.0, 0.5, 0.0, 1.0, 1.0],
        color="#dddddd",
        alpha=0.5,
        linewidth=0,
        zorder=0,
    )
    style = dict(TRIVIAL_STYLE if trivial_style is None else trivial_style)
    (neg,) = ax.plot([0.0, 1.0], [0.0, 1.0], **style)
    (pos,) = ax.plot([0.0, 1.0], [1.0, 0.0], **dict(style, label=None))
    return [neg, pos]


def draw_envelope(ax, clf, color=None, **style):
    """The lower envelope (the cost curve), exactly: a line through its breakpoints.

    ``style``: matplotlib ``plot`` keywords over ``ENVELOPE_STYLE`` (full names, no aliases;
    a ``label`` is drawn as given).
    """
    env = clf.envelope
    (line,) = ax.plot(env["pcf"], env["nec"], **{"color": color, **ENVELOPE_STYLE, **style})
    return line


def draw_band(ax, band, color: str, *, alpha: float = 0.18, dotted: bool = False):
    """A band DataFrame (``pcf``, ``lower``, ``upper``) filled between its bounds."""
    return ax.fill_between(
        band["pcf"],
        band["lower"],
        band["upper"],
        color=color,
        alpha=alpha,
        linewidth=1.0 if dotted else 0.5,
        linestyle=":" if dotted else "-",
        edgecolor=color,
        zorder=2,
    )


def draw_cost_lines(ax, clf, color: str, *, alpha: float = 0.3, linewidth: float = 1.0):
    """Every hull vertex's cost line over [0, 1] (eq. 8), faint."""
    hull = clf.hull
    slope, intercept = roc_point_to_cost_line(hull["fpr"].to_numpy(), hull["tpr"].to_numpy())
    segments = [[(0.0, b), (1.0, b + m)] for m, b in zip(slope, intercept)]
    return ax.add_collection(
        LineCollection(segments, colors=color, alpha=alpha, linewidths=linewidth, zorder=3)
    )


def draw_honest(ax, curve, color: str, *, alpha: float = 0.14):
    """An honest curve (``cw.honest_cost`` at its breakpoints): the cost on new data
    dashed, its gap to the envelope (``envelope``) shaded."""
    ax.fill_between(
        curve["pcf"],
        curve["envelope"],
        curve["nec"],
        color=color,
        alpha=alpha,
        linewidth=0,
        zorder=2,
    )
    (line,) = ax.plot(
        curve["pcf"], curve["nec"], color=color, linestyle="--", linewidth=1.5, zorder=4
    )
    return line


def draw_combined(ax, classifiers, colors: dict, *, winners=None, best=None):
    """The "best of all" envelope (dashed black) and, along y = 0, a strip coloured by the
    classifier that is best there (grey where a trivial classifier is). ``winners``
    (``pcf_lo``, ``pcf_hi``, ``classifier``) colours the strip instead, e.g. the honest
    curves'. ``best``: ``combined_envelope(classifiers)`` when the caller computed it."""
    best = combined_envelope(classifiers) if best is None else best
    x = np.concatenate([best["pcf_lo"].to_numpy(), best["pcf_hi"].to_numpy()[-1:]])
    y = np.concatenate([best["nec_lo"].to_numpy(), best["nec_hi"].to_numpy()[-1:]])
    (line,) = ax.plot(
        x, y, color="black", linestyle="--", linewidth=1.5, zorder=7, label="best of all"
    )
    wins = best if winners is None else winners
    segments = [[(lo, 0.0), (hi, 0.0)] for lo, hi in zip(wins["pcf_lo"], wins["pcf_hi"])]
    # Not antialiased: neighbouring pieces would show hairline seams.
    strip = LineCollection(
        segments,
        colors=[colors.get(n, TRIVIAL_COLOR) for n in wins["classifier"]],
        linewidths=7,
        zorder=8,
        capstyle="butt",
        antialiaseds=False,
    )
    strip.set_clip_on(False)  # half of it lies below y = 0
    ax.add_collection(strip)
    return line, strip


def draw_operating_line(ax, pcf: float, points=()):
    """The operating point's vertical line and each classifier's NEC on it.

    ``points`` is ``[(nec, color)]``.
    """
    line = ax.axvline(pcf, color="black", linewidth=1.5, zorder=9)
    dots = None
    if points:
        dots = ax.scatter(
            np.full(len(points), pcf),
            [p[0] for p in points],
            s=40,
            c=[p[1] for p in points],
            edgecolors="black",
            linewidths=1.0,
            zorder=10,
        )
    return line, dots


def draw_range(ax, lo: float, hi: float, *, edge: str, fill: str):
    """The range of interest: a full-height shaded span over [lo, hi] in PCF(+)."""
    return ax.axvspan(lo, hi, facecolor=fill, alpha=0.25, edgecolor=edge, linewidth=0.5, zorder=1)


def draw_constrained_lines(ax, lines):
    """The constrained classifiers' cost lines (dashed), ``lines`` as ``[(slope, intercept, color)]``."""
    segments = [[(0.0, b), (1.0, b + m)] for m, b, _ in lines]
    return ax.add_collection(
        LineCollection(
            segments, colors=[c for _, _, c in lines], linestyles="dashed", linewidths=2.0, zorder=7
        )
    )


# ---------------------------------------------------------------------------- difference view
def setup_difference(ax, name_a: str, name_b: str):
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel(PCF_LABEL)
    ax.set_ylabel("NEC difference")
    ax.set_title(text(f"NEC({name_a}) − NEC({name_b})"))
    ax.grid(True, **_GRID)
    ax.axhline(0.0, color=TRIVIAL_COLOR, linestyle="--", linewidth=1.0, zorder=1)


def draw_difference(
    ax, band, intervals, *, color_a: str, color_b: str, pcf=None, strip_room: float = 0.0
):
    """NEC_a − NEC_b with its paired band, and where the band excludes 0: thick segments
    coloured by the classifier that costs less there. ``strip_room`` (a share of the band's
    reach) puts them in a strip of their own under the band, as the widget does; 0 draws them
    on the zero line."""
    x = band["pcf"].to_numpy()
    lower, upper, diff = (band[c].to_numpy() for c in ("lower", "upper", "diff"))
    reach = max(np.abs(lower).max(), np.abs(upper).max(), np.abs(diff).max(), 1e-3) * 1.1
    ax.set_ylim(-reach * (1.0 + strip_room), reach)
    strip_y = -reach * (1.0 + strip_room / 2) if strip_room else 0.0
    ax.fill_between(
        x, lower, upper, color="#888888", alpha=0.25, edgecolor="#555555", linewidth=0.5, zorder=2
    )
    ax.plot(x, diff, color="black", linewidth=2.0, zorder=3)
    # A run of significant grid points is drawn half a grid step wider on each side, so that a
    # single significant point still shows.
    half = 0.5 * (x[1] - x[0]) if len(x) > 1 else 0.0
    segments, colors = [], []
    for lo, hi, sign in intervals[["pcf_lo", "pcf_hi", "sign"]].itertuples(index=False):
        segments.append([(max(lo - half, 0.0), strip_y), (min(hi + half, 1.0), strip_y)])
        colors.append(color_b if sign > 0 else color_a)  # sign +1: a costs more, b is better
    if segments:
        ax.add_collection(
            LineCollection(segments, colors=colors, linewidths=6, zorder=4, capstyle="butt")
        )
    if pcf is not None:
        ax.axvline(pcf, color="black", linewidth=1.5, zorder=5)


def despine(ax):
    """Hide the top and right spines and end the others at the axes' limits, as scikit-learn's
    displays do with ``despine=True`` (its ROC axes end at 1; the cost axis ends at its NEC
    limit)."""
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.spines["bottom"].set_bounds(*ax.get_xlim())
    ax.spines["left"].set_bounds(*ax.get_ylim())


def legend_handles(entries):
    """Proxy artists for a legend, ``entries`` as ``[(label, color, linestyle)]``.

    Explicit labels, so that a classifier whose name starts with "_" is still listed
    (matplotlib skips such labels when it collects them itself).
    """
    handles = [
        Line2D([], [], color=c, linestyle=ls, linewidth=2.5 if ls == "-" else 1.5)
        for _, c, ls in entries
    ]
    return handles, [text(label) for label, _, _ in entries]
