"""Exports of a `CostWidget`'s current state: snapshot/restore, matplotlib figures, files, an
offline HTML page, tidy DataFrames, and the static fallback of its Jupyter display.

Every function takes the widget ``w``; `CostWidget` exposes them as methods (``w.snapshot()``,
``w.to_figure()``, ...). matplotlib is imported only when a figure is drawn.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import importlib.util
import io
import math
import pathlib
import time
import warnings
import weakref

import numpy as np
import pandas as pd

from .. import __version__
from ..export import snapshot_format as fmt
from ..export.snapshot_format import SnapshotError
from ..model import probability_cost

__all__ = ["snapshot", "restore", "to_figure", "save", "to_html", "to_frame", "snapshot_cell",
           "snapshot_button", "mimebundle", "caption", "SnapshotError", "SAVE_FORMATS"]

#: File suffixes :func:`save` writes.
SAVE_FORMATS = (".png", ".svg", ".pdf", ".html")
#: Whether the widget's display bundle carries a static image of its state (set False to skip
#: drawing it, ~0.3 s a display, when notebooks are never saved or converted).
FALLBACK_IMAGE = True
#: Resolution of the PNG inside the widget's display bundle (kept low: it is made at every display).
FALLBACK_DPI = 72
#: Resolution of :func:`snapshot_cell`'s image and of ``save(".png")``.
REPORT_DPI = 150


# ---------------------------------------------------------------------------- the widget's interface
# Used from the widget: state, classifiers, colors, readout, constrained, drawn_bands,
# drawn_fold_spreads, difference_band/_intervals, range_table, wait() and update(), widget.
def _visible(w):
    shown = set(w.state.visible)
    return [c for c in w.classifiers if c.name in shown]


def _cost_lines_shown(w) -> bool:
    """Whether every hull vertex's cost line is drawn (a state trait)."""
    return bool(w.state.show_cost_lines)


def _range_table(w):
    """The range table (per visible classifier over the range of interest), or None."""
    return w.range_table


# ---------------------------------------------------------------------------- snapshot / restore
def snapshot(w) -> dict:
    """The current analysis as a plain, JSON-serialisable dict (see `snapshot_format`).

    Inputs (operating point, constraint, bands, difference pair, visible classifiers, range of
    interest) are what :func:`restore` sets; results (PCF(+), the constraint's answer, the
    significant intervals, the range table, the readout rows) record what they gave.
    """
    w.wait()
    s = w.state
    colors = dict(w.colors)
    readout = w.readout
    intervals = w.difference_intervals
    snap = {
        "format": fmt.FORMAT,
        "version": fmt.VERSION,
        "costwidget": __version__,
        "classifiers": [fmt.fingerprint(c, colors.get(c.name)) for c in w.classifiers],
        "operating_point": {"p_pos": s.p_pos, "cost_fn": s.cost_fn, "cost_fp": s.cost_fp,
                            "pcf": s.pcf},
        "constraint": {"kind": s.constraint, "max_fpr": s.max_fpr, "capacity": s.capacity,
                       "n_pos": s.n_pos, "n_neg": s.n_neg,
                       "result": {name: dataclasses.asdict(cp)
                                  for name, cp in w.constrained.items()}},
        "visible": list(s.visible),
        "bands": {"show_bands": s.show_bands, "band_level": s.band_level,
                  "show_fold_spread": s.show_fold_spread},
        "display": {"show_cost_lines": s.show_cost_lines},
        "difference": {"pair": list(s.difference),
                       "significant": [] if intervals is None else intervals.to_dict("records")},
        "range_of_interest": list(s.range_of_interest),
        "range_table": [] if _range_table(w) is None else
        _range_table(w).reset_index().to_dict("records"),
        "readout": readout.reset_index().to_dict("records"),
    }
    snap["decision_rule"] = _decision_rule_record(w)  # issue 21: the rule to deploy
    snap["threshold_choice"] = {"method": s.threshold_choice,  # issue 21
                                "show_decision_curve": s.show_decision_curve,
                                "at_operating_point":
                                    w.threshold_choice_view.choices.to_dict("records")}
    return fmt.jsonable(snap)


def _decision_rule_record(w):
    """The rule to deploy (``w.decision_rule().to_dict()``), None when nothing is shown."""
    return w.decision_rule().to_dict() if len(w.readout) else None


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# What each kind of snapshot value must be: (check, words for the message).
_KINDS = {
    "number": (_is_number, "a number"),
    "bool": (lambda v: isinstance(v, bool), "true/false"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "names": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
              "a list of names"),
    "numbers": (lambda v: isinstance(v, list) and all(_is_number(x) for x in v),
                "a list of numbers"),
}


def _get(snap, path, kind):
    """``snap[a][b]`` for ``path = "a.b"``, checked to be of ``kind``; else a SnapshotError."""
    value = snap
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            raise SnapshotError(f"malformed snapshot: {path!r} is missing.")
        value = value[key]
    check, words = _KINDS[kind]
    if not check(value):
        raise SnapshotError(f"malformed snapshot: {path!r} must be {words}, got {value!r}.")
    return value


# State trait -> (where the snapshot keeps it, what it must be).
_INPUTS = {
    "p_pos": ("operating_point.p_pos", "number"),
    "cost_fn": ("operating_point.cost_fn", "number"),
    "cost_fp": ("operating_point.cost_fp", "number"),
    "constraint": ("constraint.kind", "str"),
    "max_fpr": ("constraint.max_fpr", "number"),
    "capacity": ("constraint.capacity", "number"),
    "n_pos": ("constraint.n_pos", "number"),
    "n_neg": ("constraint.n_neg", "number"),
    "visible": ("visible", "names"),
    "show_bands": ("bands.show_bands", "bool"),
    "band_level": ("bands.band_level", "number"),
    "show_fold_spread": ("bands.show_fold_spread", "bool"),
    "show_cost_lines": ("display.show_cost_lines", "bool"),
    "difference": ("difference.pair", "names"),
    "range_of_interest": ("range_of_interest", "numbers"),
}


def _traits_from(snap) -> dict:
    """The state traits a snapshot sets, checked for presence and type."""
    if not isinstance(snap, dict):
        raise SnapshotError(f"a snapshot is a dict (from w.snapshot() or json.load), got a "
                            f"{type(snap).__name__}.")
    if snap.get("format") != fmt.FORMAT:
        raise SnapshotError(f"not a costwidget snapshot: 'format' is {snap.get('format')!r}, "
                            f"expected {fmt.FORMAT!r}.")
    version = snap.get("version")
    if version != fmt.VERSION:
        raise SnapshotError(f"snapshot format version {version!r} is not readable by costwidget "
                            f"{__version__}, which reads version {fmt.VERSION}.")
    traits = {trait: _get(snap, path, kind) for trait, (path, kind) in _INPUTS.items()}
    pcf = _get(snap, "operating_point.pcf", "number")
    try:
        expected = float(probability_cost(traits["p_pos"], traits["cost_fn"], traits["cost_fp"]))
    except ValueError as exc:
        raise SnapshotError(f"malformed snapshot: its operating point is invalid: {exc}") from None
    if not math.isclose(pcf, expected, rel_tol=1e-12, abs_tol=1e-15):
        raise SnapshotError(f"malformed snapshot: pcf {pcf!r} does not follow from p_pos, cost_fn "
                            f"and cost_fp (which give {expected!r}).")
    return {k: (float(v) if _is_number(v) else v) for k, v in traits.items()}


def _check_on_scratch_state(w, traits):
    """Run every trait's own validation on a throw-away state, so nothing is set unless all pass."""
    from .state import WidgetState

    scratch = WidgetState(names=list(w.state.names))
    try:
        with scratch.hold_trait_notifications():
            for name, value in traits.items():
                setattr(scratch, name, value)
    except Exception as exc:  # noqa: BLE001 - the trait's message says what is wrong
        raise SnapshotError(f"snapshot refused, nothing was changed: {exc}") from None


def restore(w, snap) -> None:
    """Bring the widget back to a snapshot taken over the same classifiers.

    Refuses (``SnapshotError``, a ``ValueError``, with what is wrong) a malformed snapshot, one of
    another format version, or one of other classifiers; the widget is then left unchanged.
    """
    traits = _traits_from(snap)
    theirs = snap.get("classifiers")
    if not isinstance(theirs, list) or not all(isinstance(c, dict) for c in theirs):
        raise SnapshotError("malformed snapshot: 'classifiers' must be a list of fingerprints.")
    problems = fmt.compare_fingerprints(theirs, [fmt.fingerprint(c) for c in w.classifiers])
    if problems:
        raise SnapshotError("this snapshot is for other classifiers, nothing was changed: "
                            + "; ".join(problems) + ".")
    traits.update(_threshold_choice_inputs(snap))  # issue 21 (optional: older snapshots lack it)
    _check_on_scratch_state(w, traits)
    w.update(**traits)  # all or nothing, like the scratch check
    w.wait()


def _threshold_choice_inputs(snap) -> dict:
    """``threshold_choice`` and ``show_decision_curve`` from a snapshot's optional record."""
    rec = snap.get("threshold_choice")
    if rec is None:
        return {}
    if not isinstance(rec, dict):
        raise SnapshotError("malformed snapshot: 'threshold_choice' must be a dict.")
    return {"threshold_choice": rec.get("method", "none"),
            "show_decision_curve": rec.get("show_decision_curve", False)}


# ---------------------------------------------------------------------------- captions
def caption(w) -> str:
    """One line saying where the analysis stands: operating point, constraint, the cheapest."""
    s = w.state
    parts = [f"p(+) = {s.p_pos:.4g}", f"C(−|+) = {s.cost_fn:.4g}", f"C(+|−) = {s.cost_fp:.4g}",
             f"PCF(+) = {s.pcf:.4f}"]
    if s.constraint == "neyman_pearson":
        parts.append(f"Neyman-Pearson: FPR ≤ {s.max_fpr:.4g}")
    elif s.constraint == "workforce":
        parts.append(f"workforce: {s.capacity:.6g} of {s.n_pos + s.n_neg:.6g} cases flagged")
    if s.show_bands:
        parts.append(f"{s.band_level:.0%} bootstrap bands")
    roi = s.range_of_interest
    if roi:
        parts.append(f"range of interest PCF(+) {roi[0]:.2f}–{roi[1]:.2f}")
    parts.append(w.headline.text)  # issue 23: the widget's headline, ties and constraint included
    return " · ".join(parts)


# ---------------------------------------------------------------------------- matplotlib
def to_figure(w, *, figure=None, roc=True, difference=None, show_caption=True, legend=True,
              figsize=None, wait=True):
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
        return _draw_figure(w, figure=figure, roc=roc, difference=difference,
                            show_caption=show_caption, legend=legend, figsize=figsize)


def _draw_figure(w, *, figure, roc, difference, show_caption, legend, figsize):
    from matplotlib.figure import Figure

    from ..export import matplotlib_panes as mp

    s = w.state
    colors = dict(w.colors)
    shown = _visible(w)
    diff_band, diff_intervals = w.difference_band, w.difference_intervals
    if difference is None:
        difference = diff_band is not None
    elif difference and diff_band is None:
        raise ValueError("the difference view is off: set w.difference = [a, b] first.")
    ncols = int(roc) + 1 + int(difference)
    ncols += int(s.show_decision_curve)  # issue 21: the decision-curve pane, last
    text_caption = mp.text(caption(w)) if show_caption else ""
    n_entries = len(shown) + 1 if legend and shown else 0
    legend_cols = min(n_entries, 5)
    legend_rows = -(-n_entries // legend_cols) if n_entries else 0
    if figure is None:
        size = figsize or mp.default_figsize(ncols, legend_rows=legend_rows)
        figure = Figure(figsize=size)
    fig = figure
    axes = list(fig.subplots(1, ncols, squeeze=False)[0])
    if text_caption:
        text_caption = mp.wrap(text_caption, fig.get_figwidth())
    # Fixed margins unless the caller's figure has a layout engine: constrained layout would
    # triple the time of the small PNG drawn at every display of the widget.
    manual = fig.get_layout_engine() is None
    if manual:
        mp.place_panes(fig, ncols, caption_lines=text_caption.count("\n") + 1 if text_caption
                       else 0, legend_rows=legend_rows)
    roc_ax = axes.pop(0) if roc else None
    cost_ax = axes.pop(0)
    pcf = s.pcf
    best = {c.name: c.best(pcf) for c in shown}
    constrained = w.constrained

    if roc_ax is not None:
        mp.setup_roc(roc_ax)
        for c in shown:
            mp.draw_roc(roc_ax, c, colors[c.name])
        if s.constraint != "none":
            mp.draw_roc_constraint(roc_ax, s.constraint, max_fpr=s.max_fpr, capacity=s.capacity,
                                   n_pos=s.n_pos, n_neg=s.n_neg,
                                   points=[(cp.fpr, cp.tpr, colors[n]) for n, cp in constrained.items()])
        mp.draw_iso_lines(roc_ax, [(best[c.name].fpr, best[c.name].tpr, colors[c.name])
                                   for c in shown], pcf)

    cost_lines = _cost_lines_shown(w)
    # As the widget: NEC up to 0.5 (what any classifier worth using costs), cost lines clipped.
    mp.setup_cost(cost_ax, ymax=0.5)
    for name, band in w.drawn_fold_spreads.items():
        mp.draw_band(cost_ax, band, colors[name], alpha=0.10, dotted=True)
    for name, band in w.drawn_bands.items():
        mp.draw_band(cost_ax, band, colors[name])
    for c in shown:
        if cost_lines:
            mp.draw_cost_lines(cost_ax, c, colors[c.name], alpha=0.25, linewidth=0.75)
        mp.draw_envelope(cost_ax, c, colors[c.name])
    from .threshold_choice_view import draw_on_matplotlib as draw_threshold_choice  # issue 21
    draw_threshold_choice(cost_ax, w.threshold_choice_view, [c.name for c in shown])
    if constrained:
        mp.draw_constrained_lines(cost_ax, [(cp.slope, cp.intercept, colors[n])
                                            for n, cp in constrained.items()])
    roi = s.range_of_interest
    if roi:
        from .range_of_interest import SHADE_COLOR, SHADE_FILL

        mp.draw_range(cost_ax, roi[0], roi[1], edge=SHADE_COLOR, fill=SHADE_FILL)
    if shown:
        mp.draw_combined(cost_ax, shown, colors)
    mp.draw_operating_line(cost_ax, pcf, [(best[c.name].nec, colors[c.name]) for c in shown])

    if difference:
        a, b = s.difference
        mp.setup_difference(axes[0], a, b)
        from .difference import STRIP_ROOM

        mp.draw_difference(axes[0], diff_band, diff_intervals, color_a=colors[a],
                           color_b=colors[b], pcf=pcf, strip_room=STRIP_ROOM)
    if s.show_decision_curve:  # issue 21
        from .decision_curve_view import draw_on_matplotlib as draw_decision_curve
        draw_decision_curve(axes[-1], w.decision_curve_view, colors)
    if n_entries:
        entries = [(c.name, colors[c.name], "-") for c in shown] + [("best of all", "black", "--")]
        handles, labels = mp.legend_handles(entries)
        if manual:
            fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.0),
                       ncols=legend_cols, frameon=False)
        else:
            fig.legend(handles, labels, loc="outside lower center", ncols=legend_cols,
                       frameon=False)
    if text_caption:
        fig.suptitle(text_caption, fontsize="medium", y=1.0 - 0.1 / fig.get_figheight(),
                     va="top")
    return fig


def _png(w, dpi, *, wait=True) -> tuple[bytes, float]:
    """PNG bytes of :func:`to_figure` and the figure's width in inches."""
    fig = to_figure(w, wait=wait)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue(), fig.get_figwidth()


def save(w, path, **kwargs) -> pathlib.Path:
    """Write the current state to ``path``; the suffix chooses the format.

    ``.png`` (raster, ``dpi=150`` unless given), ``.svg`` and ``.pdf`` (vector, from
    :func:`to_figure`, whose keywords are accepted), or ``.html`` (the standalone page of
    :func:`to_html`; keyword ``cdn``).
    """
    path = pathlib.Path(path)
    suffix = path.suffix.lower()
    if suffix not in SAVE_FORMATS:
        raise ValueError(f"cannot save {str(path)!r}: the suffix chooses the format, one of "
                         f"{', '.join(SAVE_FORMATS)}.")
    if suffix == ".html":
        to_html(w, path, **kwargs)
        return path
    dpi = kwargs.pop("dpi", REPORT_DPI)
    fig = to_figure(w, **kwargs)
    # No creation date and fixed SVG ids, so the same state writes the same bytes.
    metadata = {"Date": None} if suffix == ".svg" else {"CreationDate": None} \
        if suffix == ".pdf" else None
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "costwidget"}):
        fig.savefig(path, dpi=dpi, metadata=metadata)
    return path


# ---------------------------------------------------------------------------- tidy data
def to_frame(w) -> dict:
    """The numbers behind the panes, as tidy DataFrames, one per kind, for your own charts.

    Returns a dict of DataFrames; each has a ``classifier`` column (visible classifiers only,
    in the widget's order) and one row per observation:

    * ``"roc"``: ``threshold``, ``fpr``, ``tpr`` of every ROC point;
    * ``"hull"``: the ROC convex hull's vertices (``threshold``, ``fpr``, ``tpr``);
    * ``"envelope"``: the lower envelope's breakpoints (``pcf``, ``nec``), exact;
    * ``"bands"``: the bands drawn: ``kind`` (``"bootstrap"`` or ``"fold_spread"``),
      ``level`` (NaN for the fold spread), ``pcf``, ``lower``, ``upper``;
    * ``"readout"``: the readout table at the operating point (``w.readout`` as columns);
    * ``"difference"``: ``pcf``, ``diff``, ``lower``, ``upper`` of the difference view, with
      ``a`` and ``b`` naming the pair (empty when the view is off);
    * ``"range"``: the range table over the range of interest (``w.range_table`` as columns;
      empty when no range is set).
    * ``"decision_curve"``: ``threshold_choice``, ``threshold_probability``, ``net_benefit`` of
      the decision-curve pane, with "treat all" and "treat none" (empty when it is off);
    * ``"threshold_choice"``: each threshold choice method's ``threshold``, ``nec``,
      ``expected_cost`` and ``gap`` to the envelope at the operating point (empty when off).
    """
    w.wait()
    shown = _visible(w)

    def stack(frames, columns):
        parts = [f.assign(classifier=name)[["classifier", *columns]] for name, f in frames]
        if not parts:
            return pd.DataFrame(columns=["classifier", *columns])
        return pd.concat(parts, ignore_index=True)

    level = w.state.band_level
    bands = [(n, b.assign(kind="bootstrap", level=level)) for n, b in w.drawn_bands.items()]
    bands += [(n, b.assign(kind="fold_spread", level=np.nan))
              for n, b in w.drawn_fold_spreads.items()]
    order = {c.name: i for i, c in enumerate(w.classifiers)}
    bands.sort(key=lambda nb: (order[nb[0]], nb[1]["kind"].iloc[0]))
    diff = w.difference_band
    if diff is None:
        difference = pd.DataFrame(columns=["a", "b", "pcf", "diff", "lower", "upper"])
    else:
        a, b = w.state.difference
        difference = diff.assign(a=a, b=b)[["a", "b", "pcf", "diff", "lower", "upper"]]
    return {
        "roc": stack([(c.name, c.roc) for c in shown], ["threshold", "fpr", "tpr"]),
        "hull": stack([(c.name, c.hull) for c in shown], ["threshold", "fpr", "tpr"]),
        "envelope": stack([(c.name, c.envelope) for c in shown], ["pcf", "nec"]),
        "bands": stack(bands, ["kind", "level", "pcf", "lower", "upper"]),
        "readout": w.readout.reset_index(),
        "difference": difference.reset_index(drop=True),
        "range": (pd.DataFrame(columns=["classifier"]) if _range_table(w) is None
                  else _range_table(w).reset_index()),
        # issue 21: the decision curve drawn, and each threshold choice at the operating point
        "decision_curve": w.decision_curve_view.frame.reset_index(drop=True),
        "threshold_choice": w.threshold_choice_view.choices.reset_index(drop=True),
    }


# ---------------------------------------------------------------------------- Jupyter display
def _plain(w) -> str:
    names = ", ".join(c.name for c in _visible(w))
    return f"CostWidget ({names}): {caption(w)}"


def _image_bundle(w, dpi, *, shown_dpi=None, wait=True):
    """image/png and text/html (an escaped <img>) of the current state, and PNG metadata.

    ``shown_dpi`` sets the displayed width (a higher ``dpi`` then only adds sharpness).
    """
    png, width_in = _png(w, dpi, wait=wait)
    b64 = base64.b64encode(png).decode("ascii")
    alt = html.escape(f"Cost curves: {caption(w)}", quote=True)
    width = int(round(width_in * shown_dpi)) if shown_dpi else None
    size = f" width='{width}'" if width else ""
    text = (f"<div class='costwidget-static'><img src='data:image/png;base64,{b64}' alt='{alt}'"
            f"{size}/></div>")
    metadata = {"image/png": {"width": width}} if width else {}
    return {"image/png": b64, "text/html": text}, metadata


_FALLBACK_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
def _state_key(w):
    """Everything the static image depends on."""
    s = w.state
    # What is drawn now, too: the image shows the bands on screen, never ones still computing.
    drawn = (tuple(w.band_layer.drawn), tuple(w.fold_spread_layer.drawn),
             w.difference_view.shown is not None)
    return (tuple(repr(getattr(s, t)) for t in _INPUTS), _cost_lines_shown(w),
            tuple(dict(w.colors).items()), drawn)


def mimebundle(w, include=None, exclude=None, **kwargs) -> dict:
    """``_repr_mimebundle_`` of a CostWidget: the live widget view, and a static PNG (and an
    ``<img>`` as HTML) of the current state for wherever the widget cannot render: nbconvert
    without saved widget state, LaTeX/PDF, GitHub's notebook viewer.

    Displaying never waits for background work: the PNG shows what is drawn now (bands,
    fold spread or a difference still computing are not in it, as they are not yet in the
    live panes). It is drawn at 72 dpi to keep every display cheap, and reused while the
    state and what is drawn are unchanged; without matplotlib there is none, and a failure
    to draw it never stops the widget from displaying (a warning says why).
    """
    # The view spec is what ipywidgets' own _repr_mimebundle_ returns; that one also builds a
    # text/plain repr of every trait of every child (all the marks' arrays), ~0.2 s thrown away.
    data = {"text/plain": _plain(w)}
    if w.widget.comm is not None:  # a closed widget has no view to show, only its image
        data["application/vnd.jupyter.widget-view+json"] = w.widget.get_view_spec()
    wanted = [m for m in ("image/png", "text/html")
              if (include is None or m in include) and (exclude is None or m not in exclude)]
    # Without matplotlib (the `export` extra) there is simply no static image.
    if wanted and FALLBACK_IMAGE and importlib.util.find_spec("matplotlib") is not None:
        try:
            # Displaying the same, unchanged widget again reuses its image.
            key = _state_key(w)
            cached = _FALLBACK_CACHE.get(w)
            if cached is None or cached[0] != key:
                cached = (key, _image_bundle(w, FALLBACK_DPI, wait=False)[0])
                _FALLBACK_CACHE[w] = cached
            data.update({k: v for k, v in cached[1].items() if k in wanted})
        except Exception as exc:  # noqa: BLE001 - the live widget must still display
            warnings.warn(f"costwidget: no static image in this output ({type(exc).__name__}: "
                          f"{exc}); the live widget is unaffected.", RuntimeWarning, stacklevel=2)
    return data


def snapshot_cell(w, *, dpi=REPORT_DPI):
    """Display a static image of the current state as a normal cell output.

    JupyterLab shows the live widget, never the static fallback (ipympl#473), and a widget's
    state is saved only on request; this output is stored in the notebook like any figure, so it
    survives nbconvert (HTML, LaTeX/PDF) and GitHub's viewer. Returns None.
    """
    from IPython.display import display

    bundle, metadata = _image_bundle(w, dpi, shown_dpi=100)
    bundle["text/plain"] = _plain(w)
    display(bundle, raw=True, metadata=metadata)


def snapshot_button(w):
    """A "Snapshot" button (an ipywidgets widget to place anywhere) and, below it, the static
    image of the state at the last click. The image lives in widget state; for a record that
    survives any export, call ``w.snapshot_cell()`` in a cell. A click never waits for
    background work: the image shows what is drawn at that moment."""
    import ipywidgets as widgets

    button = widgets.Button(description="Snapshot", icon="camera",
                            tooltip="Draw a static image of the current state below")
    image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
    status = widgets.HTML()

    def on_click(_):
        try:
            image.value, _ = _png(w, 100, wait=False)
            status.value = f"<small>{html.escape(caption(w))}</small>"
        except Exception as exc:  # noqa: BLE001 - a click must never raise into the front end
            status.value = f"<span style='color:#a40000'>{html.escape(str(exc))}</span>"

    button.on_click(on_click)
    box = widgets.VBox([button, status, image])
    box.add_class("costwidget-snapshot-button")
    return box


# ---------------------------------------------------------------------------- HTML page
def to_html(w, path=None, *, cdn=False, interactive=True):
    """A standalone HTML page of the current state: the panes rendered from the embedded widget
    state, the caption, the readout as an HTML table and the snapshot record.

    The default page needs no network at all: require.js, the widget manager, bqplot and
    bqscales (from the installed bqplot, so they match the state) and the fonts are inlined.
    ``cdn=True`` loads them from jsDelivr instead (pinned versions, subresource integrity for
    the widget manager), for a much smaller page that needs the internet to render.
    With ``path``, writes the page there (UTF-8) and returns the path as a ``pathlib.Path``
    (as lonboard's ``to_html`` does: a notebook then echoes a short path, not 3.7 MB of text);
    without, returns the page's text.

    ``interactive=True`` (offline pages only): with no kernel, p(+), the costs, the ratio and
    the constraint's controls move the operating line, the dots, the constraint's marks and the
    readout, computed in the page by ``static/operating-point.js`` (`page_spec` says which
    models those are). ``interactive=False`` (or ``cdn=True``): the controls move, nothing is
    recomputed.
    """
    from ipywidgets.embed import dependency_state, embed_data

    from ..export import page
    from .page_spec import page_spec

    w.wait()
    # drop_defaults=False: with defaults dropped, a slider shows the wrong value (ipywidgets#2440).
    state = dependency_state(w.widget, drop_defaults=False)
    # Python fills the marks' tooltips on hover; with no Python behind the page they would pop
    # up empty, so the page has none.
    for model in state.values():
        if model.get("model_module") == "bqplot" and model["state"].get("tooltip"):
            model["state"]["tooltip"] = None
    data = embed_data(views=[w.widget], drop_defaults=False, state=state)
    snap = snapshot(w)
    text = page.standalone_page(
        manager_state=data["manager_state"], view_specs=data["view_specs"],
        title="Cost curves: " + ", ".join(c.name for c in _visible(w)),
        caption=caption(w), readout=w.readout, range_table=_range_table(w), colors=dict(w.colors),
        snapshot=snap, cdn=cdn, frontend=page_spec(w) if interactive and not cdn else None,
        decision_rule=snap["decision_rule"],
        generator=f"costwidget {__version__}", created=time.strftime("%Y-%m-%d %H:%M"))
    if path is None:
        return text
    path = pathlib.Path(path)
    path.write_text(text, encoding="utf-8")
    return path
