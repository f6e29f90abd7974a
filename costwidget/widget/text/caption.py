"""The one-line caption of a `CostWidget`'s state, and the reads of the widget that every export
shares (which classifiers are shown, whether cost lines are drawn, the range table).

Used from the widget: state, classifiers and readout, range_table.
"""

from __future__ import annotations

__all__ = ["caption", "visible_classifiers", "cost_lines_shown", "range_table"]


def visible_classifiers(w):
    shown = set(w.state.visible)
    return [c for c in w.classifiers if c.name in shown]


def cost_lines_shown(w) -> bool:
    """Whether every hull vertex's cost line is drawn (a state trait)."""
    return bool(w.state.show_cost_lines)


def range_table(w):
    """The range table (per visible classifier over the range of interest), or None."""
    return w.range_table


def caption(w) -> str:
    """One line saying where the analysis stands: operating point, constraint, the headline."""
    s = w.state
    per_case = getattr(w, "per_case", None)
    fn, fp = ("C(−|+)", "C(+|−)") if per_case is None else per_case.labels
    parts = [
        f"p(+) = {s.p_pos:.4g}",
        f"{fn} = {s.cost_fn:.4g}",
        f"{fp} = {s.cost_fp:.4g}",
        f"PCF(+) = {s.pcf:.4f}",
    ]
    if per_case is not None:
        parts.append("costs per case: money per case, curves of the cost-weighted cases")
    if s.constraint == "neyman_pearson":
        parts.append(f"Neyman-Pearson: FPR ≤ {s.max_fpr:.4g}")
    elif s.constraint == "workforce":
        parts.append(f"workforce: {s.capacity:.6g} of {s.n_pos + s.n_neg:.6g} cases flagged")
    if s.show_bands:
        parts.append(f"nominal {s.band_level:.0%} bootstrap bands")
    if s.show_honest:
        parts.append("dashed: cost on new data" + (" (strip too)" if s.honest_strip else ""))
    roi = s.range_of_interest
    if roi:
        parts.append(f"range of interest PCF(+) {roi[0]:.2f}–{roi[1]:.2f}")
    parts.append(w.headline.text)  # the widget's headline, ties and constraint included
    return " · ".join(parts)
