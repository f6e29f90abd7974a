"""How the threshold will really be chosen: score- and rate-driven cost curves beside the envelopes.

A component of `CostWidget`. The state's ``threshold_choice`` is ``"none"``,
``"score"`` (threshold ``predict_proba`` at the Bayes threshold of the
operating point) or ``"score+rate"`` (also: flag the top share of cases). For
each visible classifier it draws that method's exact cost curve in the cost
pane, and shades the gap to the envelope: what trusting the scores costs
(Hernández-Orallo, Flach & Ferri (2011), "Brier curves"; (2012), JMLR 13). Under the
readout it shows each method's threshold and cost at the operating point, and
the threshold-choice table (Brier, calibration loss, H, AUC). All numbers come
from `costwidget.model`.
"""

from __future__ import annotations

import html
import math

import bqplot as bq
import ipywidgets as widgets
import numpy as np
import pandas as pd

from ...model import cost_curve, expected_cost, nec_by_threshold_choice, readable
from ..state.component import Component

# isort: split
from ...model import data_prior, per_case_rule_table, score_rule_at_costs, threshold_choice_table

__all__ = ["ThresholdChoiceView", "THRESHOLD_CHOICE_OPTIONS", "operating_choices"]

#: (label, state value) of the control.
THRESHOLD_CHOICE_OPTIONS = [
    ("envelope only", "none"),
    ("+ score-driven", "score"),
    ("+ score- and rate-driven", "score+rate"),
]
TABLE_COLUMNS = ["brier", "calibration_loss", "loss_optimal", "h_measure", "auc"]
# The rate-driven curve is curved between its pieces' ends; drawn at these PCF(+) too.
_RATE_GRID = np.linspace(0.0, 1.0, 401)


def _methods(choice: str) -> list[str]:
    return {"none": [], "score": ["score"], "score+rate": ["score", "rate"]}[choice]


def _score_problem(clf) -> str | None:
    """Why the score-driven curve cannot be drawn for ``clf`` (None when it can)."""
    try:
        nec_by_threshold_choice(clf, 0.5, "score")
    except (ValueError, TypeError) as exc:
        return str(exc)
    return None


def curve_points(clf, method: str):
    """(x, nec, envelope nec) to draw ``method``'s exact cost curve and the gap to the envelope.

    The score-driven curve is linear on each piece and jumps between them: each piece is drawn
    by its two ends (the left one taken at the piece's start, the right one its limit), so the
    jumps are vertical. The envelope is evaluated at the same x, with its breakpoints added.
    """
    if method == "rate":
        pieces = cost_curve(clf, "rate")
        x = np.union1d(_RATE_GRID, np.concatenate([pieces.pcf_lo, pieces.pcf_hi]))
        return x, nec_by_threshold_choice(clf, x, "rate"), clf.nec(x)
    pieces = cost_curve(clf, method)
    lo, hi = pieces.pcf_lo.to_numpy(), pieces.pcf_hi.to_numpy()
    nec_lo, nec_hi = pieces.nec_lo.to_numpy(), pieces.nec_hi.to_numpy()
    cuts = np.union1d(np.concatenate([lo, hi]), clf.envelope.pcf.to_numpy())
    a, b = cuts[:-1], cuts[1:]
    # Each [a, b] lies in one piece, where NEC is linear between the piece's exact end values
    # (not re-evaluated at a: the pcf of a jump, computed back from its score, may round to
    # the piece before).
    k = np.clip(np.searchsorted(lo, (a + b) / 2, side="right") - 1, 0, len(lo) - 1)
    slope = np.where(
        hi[k] > lo[k], (nec_hi[k] - nec_lo[k]) / np.where(hi[k] > lo[k], hi[k] - lo[k], 1.0), 0.0
    )
    left = nec_lo[k] + slope * (a - lo[k])
    right = nec_lo[k] + slope * (b - lo[k])
    x, y = np.column_stack([a, b]).ravel(), np.column_stack([left, right]).ravel()
    return x, y, clf.nec(x)


def operating_choices(
    classifiers, *, pcf: float, p_pos: float, cost_fn: float, cost_fp: float, methods, cache=None
) -> pd.DataFrame:
    """Each method's threshold and cost at one operating point, one row per (classifier, method).

    Columns: ``classifier``, ``threshold_choice``, ``threshold`` (score-driven: the Bayes
    threshold on the score; rate-driven: the score whose tie group is split), ``nec``,
    ``expected_cost`` per case, ``gap`` (NEC above the envelope), ``note`` (why a row is empty).
    ``cache``, a dict, keeps each (classifier, method)'s pieces between calls (slider moves).
    """
    cache = {} if cache is None else cache
    rows = []
    for clf in classifiers:
        env = float(clf.nec(pcf))
        for method in ["optimal", *methods]:
            row = {
                "classifier": clf.name,
                "threshold_choice": method,
                "threshold": math.nan,
                "nec": math.nan,
                "expected_cost": math.nan,
                "gap": math.nan,
                "note": "",
            }
            key = (id(clf), method)
            if key not in cache:
                problem = _score_problem(clf) if method == "score" else None
                cache[key] = (problem, None if problem else cost_curve(clf, method))
            problem, pieces = cache[key]
            if problem:
                row["note"] = problem
            else:
                if method == "score":
                    # From the costs, exactly: the shown threshold and NEC are one rule, and a
                    # score equal to the Bayes threshold counts as positive.
                    rule = score_rule_at_costs(clf, p_pos, cost_fn, cost_fp)
                    threshold, nec = rule["threshold"], rule["nec"]
                else:
                    k = int(np.searchsorted(pieces.pcf_hi.to_numpy(), pcf, side="right"))
                    threshold = float(pieces.threshold.iloc[min(k, len(pieces) - 1)])
                    nec = float(nec_by_threshold_choice(clf, pcf, method))
                row.update(
                    threshold=threshold,
                    nec=nec,
                    gap=nec - env,
                    expected_cost=float(expected_cost(nec, p_pos, cost_fn, cost_fp)),
                )
            rows.append(row)
    return pd.DataFrame(
        rows,
        columns=[
            "classifier",
            "threshold_choice",
            "threshold",
            "nec",
            "expected_cost",
            "gap",
            "note",
        ],
    )


#: (header, tooltip, column) of the table at the operating point, in the readout's words.
CHOICE_COLUMNS = [
    ("classifier", "", "classifier"),
    (
        "threshold chosen",
        "tuned on this data (the envelope), from the score (predict_proba at "
        "the Bayes threshold) or by rate (flag the top share)",
        "threshold_choice",
    ),
    ("threshold", "deploy: positive when score ≥ threshold", "threshold"),
    ("norm. expected cost", "normalized expected cost (NEC), the cost pane's y axis", "nec"),
    ("expected cost per case", "in the units of C(−|+) and C(+|−)", "expected_cost"),
    ("gap to the envelope", "NEC above the envelope: what this way of choosing costs", "gap"),
    ("note", "", "note"),
]
#: The same for the threshold-choice table (Hernández-Orallo, Flach & Ferri 2012).
TABLE_HEADERS = [
    ("classifier", "", "classifier"),
    ("Brier score", "expected loss of the score-driven choice, c uniform", "brier"),
    ("calibration loss", "Brier score − loss of the envelope", "calibration_loss"),
    (
        "loss of the envelope",
        "expected loss with the threshold tuned on this data, c uniform",
        "loss_optimal",
    ),
    ("H measure", "Hand (2009)", "h_measure"),
    ("AUC", "area under the ROC curve", "auc"),
]
#: Per-case costs: the best single threshold beside the per-case Bayes rule (per_case_rule_table).
PER_CASE_COLUMNS = [
    ("classifier", "", "classifier"),
    ("best single threshold", "deploy: positive when score ≥ threshold", "threshold"),
    ("its cost per case", "money per case, all four outcomes counted", "cost_single_threshold"),
    (
        "savings",
        "1 − cost / best trivial rule (empulse's savings_score)",
        "savings_single_threshold",
    ),
    (
        "per-case Bayes rule, cost per case",
        "flag when p·(cost_fn − cost_tp) > (1 − p)·(cost_fp − cost_tn), p the score "
        "read as a calibrated probability; empty when the scores are not probabilities",
        "cost_case_bayes",
    ),
    ("its savings", "1 − cost / best trivial rule", "savings_case_bayes"),
    ("best trivial rule", "flag every case or none, the cheaper", "cost_trivial"),
]
#: How each way of choosing the threshold is named in the table.
_CHOICE_WORDS = {"optimal": "tuned (envelope)", "score": "score-driven", "rate": "rate-driven"}


def _fmt(v) -> str:
    """A cell: text escaped, numbers by the one rule for shown numbers (as the readout)."""
    if isinstance(v, str):
        return html.escape(v)
    return readable(v)


def _html_table(frame: pd.DataFrame, columns, caption: str) -> str:
    def th(text, tip):
        title = f" title='{html.escape(tip)}'" if tip else ""
        return f"<th{title}>{html.escape(text)}</th>"

    head = "".join(th(text, tip) for text, tip, _ in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_fmt(row[c])}</td>" for _, _, c in columns) + "</tr>"
        for _, row in frame.iterrows()
    )
    return (
        f"<table class='costwidget-table costwidget-threshold-choice'><caption>{caption}"
        f"</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


class ThresholdChoiceView(Component):
    """The threshold-choice control, its curves and shaded gaps in the cost pane, and its tables.

    Parameters
    ----------
    ctx : Context
        Reads ``threshold_choice``, ``visible`` and the operating point of the state.

    Attributes
    ----------
    control : ipywidgets.Dropdown
        Sets ``threshold_choice`` through the transaction.
    marks : list of bqplot marks
        Per classifier: the shaded gap (below) and the curve(s); first under the envelopes.
    widget : ipywidgets.VBox
        The tables, to place under the readout (the control goes in the "draw:" row).
    choices : DataFrame
        :func:`operating_choices` at the operating point (empty when off).
    table : DataFrame
        The threshold-choice table of the visible classifiers (NaN where undefined).

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="a")
    >>> w = cw.CostWidget([a], p_pos=0.5, cost_fn=0.62, cost_fp=0.38)   # PCF(+) = 0.62
    >>> w.threshold_choice = "score"    # Bayes threshold c = 0.38: 0.4 and 0.8 are positive
    >>> w.threshold_choice_view.choices[["threshold_choice", "threshold", "nec", "gap"]].round(3)
      threshold_choice  threshold   nec   gap
    0          optimal       0.35  0.19  0.00
    1            score       0.40  0.50  0.31
    >>> w.close()
    """

    def __init__(self, ctx):
        from ..controls.sliders import SliderBinding

        self.ctx = ctx
        cs = ctx.figures.cost_scales
        self.gaps, self.curves = {}, {}
        for d in ctx.drawings:
            self.gaps[d.name] = bq.Lines(
                x=[0.0, 1.0],
                y=[[0.0, 0.0], [0.0, 0.0]],
                scales=cs,
                fill="between",
                colors=[d.color, d.color],
                fill_colors=[d.color],
                fill_opacities=[0.18],
                stroke_width=0,
                visible=False,
            )
            self.curves[d.name] = bq.Lines(
                x=[0.0, 1.0],
                y=[[0.0, 0.0], [0.0, 0.0]],
                scales=cs,
                colors=[d.color, d.color],
                stroke_width=1.5,
                line_style="dash_dotted",
                visible=False,
                labels=[f"{d.name} score-driven", f"{d.name} rate-driven"],
            )
        self.marks = [*self.gaps.values(), *self.curves.values()]
        self.control = widgets.Dropdown(
            options=THRESHOLD_CHOICE_OPTIONS,
            value="none",
            description="threshold choice",
            tooltip="how the threshold will be chosen: the envelope "
            "tunes it on this data; score- and rate-driven "
            "curves show what predict_proba or a fixed share "
            "of flagged cases would cost",
            style={"description_width": "initial"},
        )
        self.binding = SliderBinding(
            self.control,
            ctx.tx,
            lambda v: setattr(ctx.state, "threshold_choice", v),
            "threshold choice",
        )
        self.note = widgets.HTML(
            "<span class='costwidget-table-note'>Dash-dotted: the cost when the threshold is "
            "chosen from the score (positive iff score ≥ the Bayes threshold of the operating "
            "point) or by rate (flag the top share); shaded: the gap to the envelope, what "
            "trusting <code>predict_proba</code> costs.</span>"
        )
        self.choices_html = widgets.HTML("")
        self.table_html = widgets.HTML("")
        # The control sits in the widget's "draw:" row; the tables go under the readout.
        self.widget = widgets.VBox([self.choices_html, self.table_html])
        self.widget.add_class("costwidget-threshold-choice")
        self.choices = operating_choices(
            [], pcf=0.5, p_pos=0.5, cost_fn=1.0, cost_fp=1.0, methods=[]
        )
        self.table = pd.DataFrame()
        self._drawn_curves = None
        self._drawn_point = None
        self._tables = {}
        self._pieces = {}  # (id(clf), method) -> (problem, pieces): the classifiers never change

    def push_controls(self) -> None:
        self.binding.push(self.ctx.state.threshold_choice)

    def _table_of(self, shown):
        key = tuple(d.name for d in shown)
        if key not in self._tables:
            import warnings

            with warnings.catch_warnings():
                # Scores outside [0, 1]: the score columns are NaN, and the notes say why.
                warnings.simplefilter("ignore")
                self._tables[key] = (
                    threshold_choice_table({d.name: d.clf for d in shown})
                    if shown
                    else pd.DataFrame(columns=TABLE_COLUMNS)
                )
        return self._tables[key]

    def sync(self) -> None:
        s = self.ctx.state
        methods = _methods(s.threshold_choice)
        shown = self.ctx.visible()
        if getattr(s, "per_case", None) is not None:
            self._draw_per_case(methods, shown)
            return
        key = (tuple(methods), tuple(s.visible))
        if key != self._drawn_curves:
            self._draw_curves(methods, shown)
            self._drawn_curves = key
        # With no method shown the tables are empty whatever the operating point: drawn once.
        point = (key, s.pcf, s.p_pos, s.cost_fn, s.cost_fp) if methods else key
        if point != self._drawn_point:
            self._draw_tables(methods, shown)
            self._drawn_point = point

    def _draw_curves(self, methods, shown) -> None:
        names = {d.name for d in shown}
        drawn = {}
        for d in self.ctx.drawings:
            on = d.name in names and "score" in methods and _score_problem(d.clf) is None
            ys, xs, gap = [], [], None
            if d.name in names:
                for m in methods:
                    if m == "score" and not on:
                        continue
                    x, y, env = curve_points(d.clf, m)
                    xs.append(x)
                    ys.append(y)
                    if gap is None:
                        gap = (x, y, env)
            drawn[d.name] = (xs, ys, gap)
        with self.ctx.figures.cost.hold_sync():
            for name, (xs, ys, gap) in drawn.items():
                curve, shade = self.curves[name], self.gaps[name]
                if xs:
                    n = max(len(x) for x in xs)
                    # bqplot needs rows of one length: pad a shorter row with its last point.
                    pad = [np.concatenate([v, np.full(n - len(v), v[-1])]) for v in xs]
                    pady = [np.concatenate([v, np.full(n - len(v), v[-1])]) for v in ys]
                    curve.x, curve.y = np.array(pad), np.array(pady)
                    curve.visible = True
                else:
                    curve.visible = False
                if gap is not None:
                    x, y, env = gap
                    shade.x, shade.y = x, np.vstack([env, y])
                    shade.visible = True
                else:
                    shade.visible = False

    def _draw_tables(self, methods, shown) -> None:
        s = self.ctx.state
        if not methods:
            self.choices = operating_choices(
                [], pcf=s.pcf, p_pos=s.p_pos, cost_fn=s.cost_fn, cost_fp=s.cost_fp, methods=[]
            )
            self.table = pd.DataFrame()
            self.choices_html.value = ""
            self.table_html.value = ""
            return
        self.choices = operating_choices(
            [d.clf for d in shown],
            pcf=s.pcf,
            p_pos=s.p_pos,
            cost_fn=s.cost_fn,
            cost_fp=s.cost_fp,
            methods=methods,
            cache=self._pieces,
        )
        self.table = self._table_of(shown)
        shown_choices = self.choices.copy()
        # The full reason is in ``choices``; the table says it in a few words.
        shown_choices["note"] = np.where(
            shown_choices["note"].str.contains("[0, 1]", regex=False),
            "scores are not probabilities: calibrate first",
            shown_choices["note"].str.slice(0, 80),
        )
        shown_choices["threshold_choice"] = shown_choices["threshold_choice"].map(_CHOICE_WORDS)
        self.choices_html.value = (
            _html_table(
                shown_choices,
                CHOICE_COLUMNS,
                "<b>Threshold choice at the operating point</b> (gap: NEC above the envelope)",
            )
            + self.note.value
        )
        table = self.table.reindex(columns=TABLE_COLUMNS)
        table = table.rename_axis("classifier").reset_index()
        self.table_html.value = _html_table(
            table,
            TABLE_HEADERS,
            "<b>Threshold-choice table</b>: expected losses over cost proportion c "
            "uniform (calibration loss = Brier − loss of the envelope); H measure "
            "(Hand 2009); empty where the scores are not probabilities",
        )

    def _draw_per_case(self, methods, shown) -> None:
        """Per-case costs: no score-driven curves (their Bayes threshold prices each class);
        the best single threshold beside the per-case Bayes rule, each with its money per case
        and savings, at the data's p(+) (where the per-case rule is defined)."""
        s = self.ctx.state
        point = (tuple(methods), tuple(s.visible), s.p_pos, s.cost_fn, s.cost_fp)
        if point == self._drawn_point:
            return
        self._drawn_point = point
        self.table = pd.DataFrame()
        self.choices_html.value = self.table_html.value = ""
        self.choices = operating_choices(
            [], pcf=s.pcf, p_pos=s.p_pos, cost_fn=s.cost_fn, cost_fp=s.cost_fp, methods=[]
        )
        if not methods or not shown:
            return
        prior = data_prior([d.given for d in shown])
        if abs(s.p_pos - prior) > 1e-12:
            self.choices_html.value = (
                "<span class='costwidget-table-note'>The per-case Bayes rule is computed at the "
                f"data's p(+) = {readable(prior)}: set p(+) to it (where p(+) is fixed, build "
                f"the widget with p_pos={readable(prior)}) to compare it with the best single "
                "threshold.</span>"
            )
            return
        self.table = per_case_rule_table(
            {d.name: d.given for d in shown}, cost_fn=s.cost_fn, cost_fp=s.cost_fp
        )
        self.choices_html.value = _html_table(
            self.table.reset_index(),
            PER_CASE_COLUMNS,
            "<b>Best single threshold and the per-case Bayes rule</b> (money per case)",
        )

    def pane_marks(self) -> dict:
        return {"cost": {"views": self.marks}}

    def boxes(self) -> dict:
        return {"draw": [self.control], "threshold_choice": [self.widget]}


def draw_on_matplotlib(ax, view, names) -> None:
    """Draw what the cost pane shows of ``view`` (curves, shaded gaps) on a matplotlib axis."""
    for name in names:
        shade, curve = view.gaps[name], view.curves[name]
        color = curve.colors[0]
        if shade.visible:
            x, y = np.asarray(shade.x, float), np.asarray(shade.y, float)
            ax.fill_between(x, y[0], y[1], color=color, alpha=0.18, linewidth=0)
        if curve.visible:
            xs = np.atleast_2d(np.asarray(curve.x, float))
            ys = np.atleast_2d(np.asarray(curve.y, float))
            for x, y in zip(xs, ys):
                ax.plot(x, y, color=color, linestyle="-.", linewidth=1.2)
