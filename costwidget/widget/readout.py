"""The readout table: one row per visible classifier at the current operating point."""

from __future__ import annotations

import html
import math

import pandas as pd

from ..model.costs import expected_cost
from ..model.geometry import cost_line_value

__all__ = ["readout_frame", "readout_html", "mix_rule"]


def mix_rule(cp) -> str:
    """The constrained classifier as a rule a user can deploy (randomized when needed)."""
    if cp.randomized:
        return (f"threshold {cp.threshold_low:.6g} with prob. {cp.prob_low:.4g}, "
                f"else {cp.threshold_high:.6g}")
    return f"threshold {cp.threshold_high:.6g}"


def readout_frame(drawings, state, constrained, best=None) -> pd.DataFrame:
    """DataFrame indexed by classifier name: the model's numbers at the state's operating point.

    ``best`` maps names to ``clf.best(state.pcf)`` when the caller has them already.
    """
    rows = []
    for d in drawings:
        op = best[d.name] if best is not None else d.clf.best(state.pcf)
        row = {
            "threshold": op.threshold, "fpr": op.fpr, "tpr": op.tpr, "nec": op.nec,
            "expected_cost": expected_cost(op.nec, state.p_pos, state.cost_fn, state.cost_fp),
            "range_lo": d.operating_range[0], "range_hi": d.operating_range[1],
        }
        cp = constrained.get(d.name)
        if cp is not None:
            nec = cost_line_value(cp.fpr, cp.tpr, state.pcf)
            row.update({
                "constrained_fpr": cp.fpr, "constrained_tpr": cp.tpr, "constrained_nec": nec,
                "constrained_expected_cost": expected_cost(nec, state.p_pos, state.cost_fn,
                                                           state.cost_fp),
                "constrained_rule": mix_rule(cp),
                "best_single_threshold": cp.single_threshold,
            })
        rows.append((d.name, row))
    frame = pd.DataFrame([r for _, r in rows], index=pd.Index([n for n, _ in rows], name="classifier"))
    return frame


def _fmt(value) -> str:
    if isinstance(value, str):
        return html.escape(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{value:.4g}"


def readout_html(frame: pd.DataFrame, colors: dict) -> str:
    """An HTML table (names escaped), best expected cost highlighted; plain text copies cleanly."""
    if frame.empty:
        return "<i>No classifier shown.</i>"
    best = frame["expected_cost"].idxmin()
    cols = list(frame.columns)
    head = "".join(f"<th style='padding:0 6px'>{html.escape(c)}</th>" for c in ["classifier", *cols])
    body = []
    for name, row in frame.iterrows():
        style = " style='background:#fff3b0;font-weight:bold'" if name == best else ""
        swatch = f"<span style='color:{colors.get(name, '#000')}'>&#9632;</span> "
        cells = "".join(f"<td style='padding:0 6px;text-align:right'>{_fmt(row[c])}</td>" for c in cols)
        body.append(f"<tr{style}><td>{swatch}{html.escape(str(name))}</td>{cells}</tr>")
    return (f"<table class='costwidget-readout' style='border-collapse:collapse;font-size:12px'>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")
