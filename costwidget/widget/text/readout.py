"""The readout: one row per visible classifier at the current operating point, as HTML tables.

The rows and the highlighted row come from the widget's one `Decision` (``ctx.decision``,
`costwidget.model.decide`); this module only lays them out, with column names in words, escaping every
name. An active constraint gets a compact table of its own, under the first,
so neither is wider than the widget.
"""

from __future__ import annotations

import html
import math

import ipywidgets as widgets
import pandas as pd

from ...frontend.contract import (
    BEST_ROW_STYLE,
    CONSTRAINT_COLUMNS,
    HONEST_COLUMNS,
    PER_CASE_NOTE,
    READOUT_COLUMNS,
    TEXT_COLUMNS,
    UNKNOWN_COLOR,
)
from ...model import lowest_names, readable, threshold_text
from ..state.component import Component

__all__ = [
    "Readout",
    "readout_html",
    "constraint_html",
    "constraint_description",
    "population_text",
    "READOUT_COLUMNS",
    "CONSTRAINT_COLUMNS",
    "HONEST_COLUMNS",
]

# The columns are facts the page shares (costwidget.frontend.contract).
_TEXT_COLUMNS = set(TEXT_COLUMNS)
_TEXT = " class='costwidget-text'"
# The highlighted row: theme colours, with light-theme fallbacks for pages without the CSS.


def _number(value) -> str:
    return readable(value)


def _range(lo, hi) -> str:
    if any(v is None or math.isnan(v) for v in (lo, hi)) or lo > hi:
        return "never"
    return f"{lo:.3g}–{hi:.3g}"


def _cell(row, column) -> str:
    if column == "range_lo":
        return f"<td>{_range(row.get('range_lo'), row.get('range_hi'))}</td>"
    value = row.get(column)
    if isinstance(value, str):
        return f"<td{_TEXT}>{html.escape(value)}</td>"
    if column == "threshold":  # in full: the number shown is the number deployed
        return f"<td>{threshold_text(value)}</td>"
    return f"<td>{_number(value)}</td>"


def _lowest(rows, column):
    """The one row of lowest ``column``, None at a tie (`lowest_names`, the decision's rule)."""
    low = lowest_names(rows, column)
    return low[0] if len(low) == 1 else None


def _table(rows, colors, columns, best, caption, note, css_class) -> str:
    head = "<th>classifier</th>" + "".join(
        f"<th{_TEXT if column in _TEXT_COLUMNS else ''} title='{html.escape(tip)}'>"
        f"{html.escape(text)}</th>"
        for text, tip, column in columns
    )
    # ``best`` is highlighted: the one lowest; a tie highlights none (the headline's rule).
    body = []
    for name, row in rows:
        attrs = f" class='costwidget-best' style='{BEST_ROW_STYLE}'" if name == best else ""
        swatch = (
            f"<span style='color:{html.escape(colors.get(name, UNKNOWN_COLOR))}'>&#9632;</span> "
        )
        cells = "".join(_cell(row, column) for _, _, column in columns)
        body.append(f"<tr{attrs}><td>{swatch}{html.escape(str(name))}</td>{cells}</tr>")
    return (
        f"<table class='{css_class} costwidget-table'><caption>{caption}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f"<div class='costwidget-table-note'>{note}</div>"
    )


def readout_html(rows, colors: dict, best=_lowest, note=None) -> str:
    """An HTML table of ``(name, {column: value})`` rows (names escaped), the row ``best``
    highlighted (default: the one lowest expected cost, none at a tie); plain text copies
    cleanly. ``note`` replaces the note under the table (per-case costs)."""
    if not rows:
        return "<i>No classifier shown.</i>"
    if best is _lowest:
        best = _lowest(rows, "expected_cost")
    columns = READOUT_COLUMNS + (HONEST_COLUMNS if any("nec_honest" in r for _, r in rows) else ())
    return _table(
        rows,
        colors,
        columns,
        best,
        "<b>At the operating point</b> (each classifier at its best threshold)",
        note
        or "Highlighted: the lowest expected cost (none when several tie). Expected cost "
        "per case is in the units "
        "of the costs C(−|+) and C(+|−); the same numbers are in <code>w.readout</code>.",
        "costwidget-readout",
    )


def constraint_html(rows, colors: dict, description: str, best=_lowest) -> str:
    """The constrained columns of ``rows`` as their own table, or "" when no row has them; the
    row ``best`` highlighted (default: the one lowest constrained cost, none at a tie)."""
    rows = [(name, row) for name, row in rows if "constrained_nec" in row]
    if not rows:
        return ""
    if best is _lowest:
        best = _lowest(rows, "constrained_expected_cost")
    return _table(
        rows,
        colors,
        CONSTRAINT_COLUMNS,
        best,
        f"<b>Under the constraint</b>: {html.escape(description)}",
        "Highlighted: the lowest expected cost under the constraint (none when several tie).",
        "costwidget-constraint-table",
    )


def population_text(state) -> str:
    """Which population the workforce constraint uses: following p(+), or set by the user.

    Examples
    --------
    >>> from types import SimpleNamespace as S
    >>> from costwidget.widget.text.readout import population_text
    >>> population_text(S(n_pos=300.0, n_neg=700.0, p_pos=0.3, population_set=False))
    'population: 1,000 cases at p(+) = 0.3'
    >>> population_text(S(n_pos=300.0, n_neg=700.0, p_pos=0.5, population_set=True))
    'population set: 300 positives, 700 negatives'
    """
    if getattr(state, "population_set", True):
        return (
            f"population set: {readable(state.n_pos)} positives, {readable(state.n_neg)} negatives"
        )
    return (
        f"population: {readable(state.n_pos + state.n_neg)} cases at p(+) = {readable(state.p_pos)}"
    )


def constraint_description(state) -> str:
    """The active constraint in words, e.g. "false-positive rate ≤ 0.1"."""
    if state.constraint == "neyman_pearson":
        return f"Neyman-Pearson, false-positive rate ≤ {readable(state.max_fpr)}"
    if state.constraint == "workforce":
        total = state.n_pos + state.n_neg
        share = (
            f" ({readable(100 * state.capacity / total)} % of {readable(total)})"
            if total > 0
            else ""
        )
        return (
            f"workforce, at most {readable(state.capacity)} cases flagged{share}; "
            f"{population_text(state)}"
        )
    return ""


class Readout(Component):
    """Owns the readout's HTML widgets (the table at the operating point, and the constrained
    table under it); lays out the rows of the widget's `Decision`."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.widget = widgets.HTML()
        self.widget.add_class("costwidget-readout")
        self.constrained_widget = widgets.HTML()
        self.constrained_widget.add_class("costwidget-constraint-readout")

    def rows(self):
        """The readout's ``(name, {column: value})`` rows: the `Decision`'s."""
        return list(self.ctx.decision.rows)

    def table(self) -> pd.DataFrame:
        """The readout as a DataFrame indexed by classifier name (``Decision.table()``)."""
        return self.ctx.decision.table()

    def html_values(self) -> dict:
        """``{widget: {"value": html}}`` of both tables at the current state.

        The table that shows the decision's rules highlights the classifier the decision
        chose (none at a tie): the main table without a constraint, the constrained table
        with one. Under a constraint the main table shows each classifier's unconstrained
        optimum, and highlights the one lowest of those (none at a tie)."""
        decision = self.ctx.decision
        rows = list(decision.rows)
        colors = {d.name: d.color for d in self.ctx.drawings}
        constrained = decision.constraint != "none"
        per_case = getattr(self.ctx.state, "per_case", None) is not None
        note = PER_CASE_NOTE if per_case else None
        described = constraint_description(self.ctx.state)
        if per_case and described:  # the limit's units are not the table's
            described += " (the limit counts cases; the table's rates are cost-weighted)"
        return {
            self.widget: {
                "value": readout_html(
                    rows, colors, **({} if constrained else {"best": decision.chosen}), note=note
                )
            },
            self.constrained_widget: {
                "value": constraint_html(rows, colors, described, best=decision.chosen)
            },
        }

    def sync(self) -> None:
        if self.ctx.frontend_draws:  # the front end writes both tables while attached
            return
        values = self.html_values()
        value = values[self.widget]["value"]
        constrained = values[self.constrained_widget]["value"]
        if value != self.widget.value:
            self.widget.value = value
        if constrained != self.constrained_widget.value:
            self.constrained_widget.value = constrained

    def boxes(self) -> dict:
        return {"readout": [self.widget], "constrained_readout": [self.constrained_widget]}
