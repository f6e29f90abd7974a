"""`to_figure`: a `CostWidget`'s current state drawn with matplotlib (imported only when a figure
is drawn), and the PNG bytes of that figure.

Used from the widget: state, colors, decision, drawn_bands, drawn_fold_spreads,
difference_band/_intervals, threshold_choice_view, decision_curve_view, wait() and its lock.
"""

from __future__ import annotations

import io

from ...model import honest_winners, roc_point_to_cost_line
from ..text.caption import caption, cost_lines_shown, visible_classifiers

__all__ = ["to_figure", "figure_png"]


def to_figure(
    w,
    *,
    figure=None,
    roc=True,
    difference=None,
    show_caption=True,
    legend=True,
    figsize=None,
    wait=True,
):
    """The widget's current state drawn with matplotlib: ROC space and cost space side by side
    (and the difference view when it is on), the same marks, colours and labels, and a caption
    line with the operating point.

    Parameters
    ----------
    figure : matplotlib Figure, optional
        Where to draw (e.g. ``plt.figure(figsize=(12, 6))``). Default: a new ``Figure`` not
        managed by pyplot, so it never shows up twice in a notebook and needs no GUI.
    roc : bool, default True
        Draw the ROC pane.
    difference : bool, optional
        Draw the difference view; default when it is on in the widget.
    show_caption, legend : bool, default True
    figsize : (float, float), optional
        Size of the new figure, in inches.
    wait : bool, default True
        Wait for the background work (bands, fold spread, difference) first. False draws what
        is drawn now, without waiting (the widget's display does so).

    Returns
    -------
    matplotlib.figure.Figure
    """
    if wait:
        w.wait()
    # Read what is drawn as one whole: a script's worker draws its results under this lock.
    with w._tx.held():
        return _draw_figure(
            w,
            figure=figure,
            roc=roc,
            difference=difference,
            show_caption=show_caption,
            legend=legend,
            figsize=figsize,
        )


def _draw_figure(w, *, figure, roc, difference, show_caption, legend, figsize):
    from matplotlib.figure import Figure

    from ...export import matplotlib_panes as mp

    s = w.state
    colors = dict(w.colors)
    # What the panes draw: for per-case costs, the cost-weighted twins.
    shown = [w._ctx.drawing(c.name).clf for c in visible_classifiers(w)]
    diff_band, diff_intervals = w.difference_band, w.difference_intervals
    if difference is None:
        difference = diff_band is not None
    elif difference and diff_band is None:
        raise ValueError("the difference view is off: set w.difference = [a, b] first.")
    ncols = int(roc) + 1 + int(difference)
    ncols += int(s.show_decision_curve)  # the decision-curve pane, last
    # Each name with its AUC, as the widget's legend and scikit-learn's RocCurveDisplay.
    honest_shown = bool(w.drawn_honest)  # the cost on new data's legend entry
    labels = (
        [w._ctx.drawing(c.name).label for c in shown]
        + ["best of all"]
        + (["cost on new data"] if honest_shown else [])
        if legend and shown
        else []
    )
    n_entries = len(labels)
    # The caption and the legend are laid out for the figure's width: as many legend columns
    # as the longest label allows (up to 5), the caption wrapped, and the height to hold both.
    width_in = (
        figure.get_figwidth() if figure is not None else (figsize or mp.default_figsize(ncols))[0]
    )
    legend_cols = mp.legend_columns(labels, width_in) if n_entries else 0
    legend_rows = -(-n_entries // legend_cols) if n_entries else 0
    text_caption = mp.wrap(mp.text(caption(w)), width_in) if show_caption else ""
    caption_lines = text_caption.count("\n") + 1 if text_caption else 0
    if figure is None:
        size = figsize or mp.default_figsize(
            ncols, legend_rows=legend_rows, caption_lines=max(caption_lines, 1)
        )
        figure = Figure(figsize=size)
    fig = figure
    axes = list(fig.subplots(1, ncols, squeeze=False)[0])
    # Fixed margins unless the caller's figure has a layout engine: constrained layout would
    # triple the time of the small PNG drawn at every display of the widget.
    manual = fig.get_layout_engine() is None
    if manual:
        mp.place_panes(
            fig,
            ncols,
            caption_lines=text_caption.count("\n") + 1 if text_caption else 0,
            legend_rows=legend_rows,
        )
    roc_ax = axes.pop(0) if roc else None
    cost_ax = axes.pop(0)
    pcf = s.pcf
    best = {c.name: c.best(pcf) for c in shown}
    # Under a constraint each classifier's rule from the one decision: the paper's
    # point where the limit binds, its optimum where it does not (as the live marks draw it).
    decision = w.decision
    rules = {c.name: c.rule for c in decision.classifiers} if decision.constraint != "none" else {}

    if roc_ax is not None:
        _draw_roc_pane(w, roc_ax, mp, shown, colors, best, rules)
    _draw_cost_pane(w, cost_ax, mp, shown, colors, best, rules)

    if difference:
        a, b = s.difference
        mp.setup_difference(axes[0], a, b)
        from ..panes.difference import STRIP_ROOM

        mp.draw_difference(
            axes[0],
            diff_band,
            diff_intervals,
            color_a=colors[a],
            color_b=colors[b],
            pcf=pcf,
            strip_room=STRIP_ROOM,
        )
    if s.show_decision_curve:
        from ..panes.decision_curve_view import draw_on_matplotlib as draw_decision_curve

        draw_decision_curve(axes[-1], w.decision_curve_view, colors)
    if n_entries:
        _draw_legend(fig, mp, labels, shown, colors, honest_shown, legend_cols, manual)
    if text_caption:
        fig.suptitle(text_caption, fontsize="medium", y=1.0 - 0.1 / fig.get_figheight(), va="top")
    return fig


def _draw_roc_pane(w, roc_ax, mp, shown, colors, best, rules):
    """ROC space as the widget draws it: curves and hulls, the constraint and each rule's point,
    the iso-performance lines at the operating point."""
    s = w.state
    pcf = s.pcf
    mp.setup_roc(roc_ax)
    _same_words(roc_ax, w.figures.roc)
    for c in shown:
        mp.draw_roc(roc_ax, c, colors[c.name])
    if s.constraint != "none":
        mp.draw_roc_constraint(
            roc_ax,
            s.constraint,
            max_fpr=s.max_fpr,
            capacity=s.capacity,
            n_pos=s.n_pos,
            n_neg=s.n_neg,
            points=[(r.fpr, r.tpr, colors[n]) for n, r in rules.items()],
        )
    mp.draw_iso_lines(
        roc_ax, [(best[c.name].fpr, best[c.name].tpr, colors[c.name]) for c in shown], pcf
    )


def _same_words(ax, pane) -> None:
    """The live pane's title and axis labels (per-case costs say the cases are cost-weighted)."""
    x_axis, y_axis = pane.axes
    ax.set_title(pane.title)
    ax.set_xlabel(x_axis.label)
    ax.set_ylabel(y_axis.label)


def _draw_cost_pane(w, cost_ax, mp, shown, colors, best, rules):
    """Cost space as the widget draws it, bottom first: fold spreads, bands, the cost on new
    data, cost lines and envelopes, threshold choice, the rules' lines, the range, the best of
    all with its strip, the operating line."""
    s = w.state
    pcf = s.pcf
    cost_lines = cost_lines_shown(w)
    # As the widget: NEC up to its axis's reach (0.5, what any classifier worth using costs,
    # unless zoomed: NecZoom), cost lines clipped.
    mp.setup_cost(cost_ax, ymax=w.draw_controls.nec_zoom.top)
    _same_words(cost_ax, w.figures.cost)
    for name, band in w.drawn_fold_spreads.items():
        mp.draw_band(cost_ax, band, colors[name], alpha=0.10, dotted=True)
    for name, band in w.drawn_bands.items():
        mp.draw_band(cost_ax, band, colors[name])
    for name, curve in w.drawn_honest.items():  # the cost on new data
        mp.draw_honest(cost_ax, curve, colors[name])
    for c in shown:
        if cost_lines:
            mp.draw_cost_lines(cost_ax, c, colors[c.name], alpha=0.25, linewidth=0.75)
        mp.draw_envelope(cost_ax, c, colors[c.name])
    from ..panes.threshold_choice_view import draw_on_matplotlib as draw_threshold_choice

    draw_threshold_choice(cost_ax, w.threshold_choice_view, [c.name for c in shown])
    if rules:  # each rule's cost line (eq. 8)
        mp.draw_constrained_lines(
            cost_ax,
            [(*roc_point_to_cost_line(r.fpr, r.tpr), colors[n]) for n, r in rules.items()],
        )
    roi = s.range_of_interest
    if roi:
        from ..tools.range_of_interest import SHADE_COLOR, SHADE_FILL

        mp.draw_range(cost_ax, roi[0], roi[1], edge=SHADE_COLOR, fill=SHADE_FILL)
    if shown:
        strip = w.classifier_layers.honest_for_strip()  # the strip on new data
        mp.draw_combined(
            cost_ax, shown, colors, winners=None if strip is None else honest_winners(strip)
        )
    mp.draw_operating_line(cost_ax, pcf, [(best[c.name].nec, colors[c.name]) for c in shown])


def _draw_legend(fig, mp, labels, shown, colors, honest_shown, legend_cols, manual):
    """One legend for the figure, under the panes: each classifier (its AUC), the best of all,
    the cost on new data when drawn."""
    entries = (
        [(label, colors[c.name], "-") for label, c in zip(labels, shown)]
        + [("best of all", "black", "--")]
        + ([("cost on new data", "#666666", (0, (4, 2)))] if honest_shown else [])
    )
    handles, labels = mp.legend_handles(entries)
    if manual:
        fig.legend(
            handles,
            labels,
            loc="lower center",
            bbox_to_anchor=(0.5, 0.0),
            ncols=legend_cols,
            frameon=False,
        )
    else:
        fig.legend(handles, labels, loc="outside lower center", ncols=legend_cols, frameon=False)


def figure_png(w, dpi, *, wait=True) -> tuple[bytes, float]:
    """PNG bytes of :func:`to_figure` and the figure's width in inches."""
    fig = to_figure(w, wait=wait)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue(), fig.get_figwidth()
