"""A widget over classifiers with per-case costs: what it draws, how its costs read, what it refuses.

The model decides with per-case costs exactly (:mod:`costwidget.model.decisions.per_case`): at
multipliers ``m_fn``, ``m_fp`` of each case's ``cost_fn`` and ``cost_fp`` and a prevalence
``p_pos``, every classifier is replaced by its cost-weighted twin (Fawcett (2006), "ROC graphs
with instance-varying costs", sec. 3) and the per-class rule runs on the twins. The widget shows
those twins: its ROC pane is the cost-weighted ROC, its cost pane the twins' cost curves, PCF(+)
the twins' ``P / (P + N)``, and its ``cost_fn``/``cost_fp`` are the multipliers.

Where no case changes side as the multipliers and p(+) move (no ``cost_tp`` on positives, no
``cost_tn`` on negatives, no negative error cost: `multiplier_units`), the twins' ROC never
changes and PCF(+) and the money per case are the per-class formulas at costs ``m_fn·u_fn`` and
``m_fp·u_fp`` (the classes' mean costs): the widget draws the twins once and ``state.cost_units``
turns the multipliers into PCF(+).

Otherwise (a fee on flagged cases, any ``cost_tp``/``cost_tn``, a negative cost) the twins' ROC
moves with every multiplier and p(+): a fraud below the fee is cheaper missed than reviewed and
counts as a negative, more or fewer of them as ``m_fn`` moves, and p(+) reweights such a case
unlike the rest of its side. There (``moves``) every move of p(+), ``cost_fn`` or ``cost_fp``
makes the twins again, in the redraw of that move: `PerCaseCosts.sync` runs first, takes the
twins from the model (`per_case_setting`: the decision reads the same objects, each classifier's
scores sorted once), and ``redraw_twins`` (the widget's) makes the drawings and calls every
component's ``drawings_changed`` before their ``sync``: the ROC and cost panes, the operating
point, the decision, the headline in money per case, the savings, a limit, the threshold-choice
pane and the readout all show the new setting after one redraw and one decision. PCF(+) is
then the new twins' own (``state.pcf`` set as the decision computes it, ``state.cost_units``
those of the setting), so the cost pane's x is the one the decision reads its rule at; setting
``w.pcf`` or clicking in the cost pane solves for the p(+) whose twins have that PCF(+)
(`p_pos_for_pcf`). Views computed in the background drop what they computed for the old twins
and cancel its job (``drawings_changed``; the honest curves are recomputed at the new setting,
the layers of `FillBetweenLayer` do the same), so no view shows another setting. A p(+)
outside (0, 1) or a multiplier <= 0 or NaN is refused before anything moves, by a message
naming the control and the fix (`check_setting`, called by the state's validators), and so is
a setting that leaves the cost-weighted cases with one side only.

Costs summed by an engine (``from_duckdb``, ``from_spark``: no single cases to move across
sides) are exact at multipliers 1 only: the multipliers stay there (``pinned``), and where their
cases change sides p(+) stays too.

Bands, the fold spread and the difference view price each case at the state's p(+) and
multipliers, on the cost pane's axes (:mod:`costwidget.model.uncertainty.case_bands`,
:mod:`~costwidget.model.uncertainty.case_folds`, `difference_band`); the decision curve has no
per-case form and is refused (`_REFUSED`). The honest curves are the
twins' (:func:`~costwidget.honest_cost` at the twins' multipliers and p(+), with the
classifiers' folds), in the cost pane's NEC; the decision reads them in money per case on new
data (refused for costs summed in a database, which have no single cases to split). A
Neyman-Pearson or workforce limit counts the cases (:mod:`costwidget.model.decisions.case_limits`):
the decision follows `decide`, and the panes draw no line for the limit (it is no cut of the
cost-weighted ROC; the constraint tool says so).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from ...model import (
    check_pcf,
    cost_weighted,
    data_prior,
    honest_cost,
    multiplier_units,
    p_pos_for_pcf,
    per_case_savings,
    per_case_setting,
    probability_cost,
    round_significant,
    savings_words,
)
from .background import Superseded
from .component import Component

__all__ = ["PerCaseCosts", "per_case_costs"]

#: State traits whose views have no per-case form, with why: the widget says both.
_REFUSED = {
    "show_decision_curve": (
        "the decision curve (its threshold probability pt prices each class: one cost per "
        "class, not one per case)"
    ),
}


@dataclass
class PerCaseCosts(Component):
    """The per-case costs of a widget's classifiers, as the widget shows them.

    Attributes
    ----------
    units : tuple of float
        ``(u_fn, u_fp)``: the per-class costs of multiplier 1 (`multiplier_units`); where the
        twins move, those of the setting drawn (``state.cost_units`` follows them).
    pinned : tuple or None
        ``(p_pos, m_fn, m_fp)`` the twins stay at, for costs summed by an engine (``p_pos``
        None: p(+) moves; the multipliers stay at 1); None otherwise.
    labels : tuple of str
        The multipliers' labels: what each multiplies (the column's name, or "cost_fn per case").
    twins : list
        The cost-weighted classifier of each classifier, in order: what the panes draw.
    state : object
        The widget's state (set by the component's builder).
    given : list
        The classifiers as given, with their per-case costs.
    moves : bool
        True where the twins are made again at every p(+) and multipliers (cases change sides,
        costs given case by case): `sync` rebuilds them, and ``redraw_twins`` draws them.
    drawn_at : tuple or None
        ``(p_pos, m_fn, m_fp)`` the twins are made at (``p_pos`` None: the data's).
    pcf : float or None
        Where the twins move: PCF(+) of the twins drawn, ``P / (P + N)``, the decision's.
    redraw_twins : callable or None
        ``redraw_twins(twins)``, set by the widget: draws new twins in every pane (it makes the
        drawings and calls each component's ``drawings_changed``).
    errors : object or None
        The widget's error banner (set by the widget): a refused setting is shown there.
    """

    units: tuple
    pinned: tuple | None
    labels: tuple
    twins: list
    state: object = None
    given: list = None
    moves: bool = False
    drawn_at: tuple | None = None
    pcf: float | None = None
    redraw_twins: object = None
    errors: object = None
    _origin: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self._remember(self.twins, self.drawn_at)

    def _remember(self, twins, setting) -> None:
        """Which classifier and setting each twin is of (the honest curves are computed from
        them, maybe on a worker thread while a newer move draws other twins)."""
        self._origin = {id(t): (t, c, setting) for t, c in zip(twins, self.given)}

    def label_figures(self, figures) -> None:
        """Say on the panes that they show the cost-weighted cases: each case counts by what
        deciding it wrongly costs (Fawcett (2006), sec. 3)."""
        roc_x, roc_y = figures.roc.axes
        roc_x.label, roc_y.label = "cost-weighted FPR", "cost-weighted TPR"
        figures.roc.title = "ROC space, cases weighted by cost"
        cost_x, cost_y = figures.cost.axes
        cost_x.label = "PCF(+) of the cost-weighted cases"
        cost_y.label = "normalized expected cost (cost-weighted)"
        figures.cost.title = "Cost space, cases weighted by cost"

    @property
    def cases(self) -> tuple:
        """``(n_pos, n_neg)``: the positive and negative cases, with ``sample_weight``, the
        population a workforce limit counts (the classifiers' own ``n_pos``/``n_neg`` are of the
        cost-weighted cases)."""
        cc = self.given[0].case_costs
        if hasattr(cc, "tp"):
            w = np.ones(cc.n_samples) if cc.weights is None else np.asarray(cc.weights, float)
        else:  # summed by an engine: each row's weight is its cases'
            w = np.asarray(cc.weight, float)
        return float(w[cc.is_pos].sum()), float(w[~cc.is_pos].sum())

    def savings(self, decision):
        """The decision's rule against the best trivial rule (`per_case_savings`), or None when
        no classifier is chosen (a tie or none shown)."""
        if decision.rule is None:
            return None
        cost = decision.rule.expected_cost
        if decision.on_new_data:  # the headline's cost is on new data: save against that one
            cost = dict(decision.rows)[decision.chosen]["expected_cost_honest"]
        return per_case_savings(
            self.given[0],
            cost,
            p_pos=decision.p_pos,
            cost_fn=decision.cost_fn,
            cost_fp=decision.cost_fp,
        )

    def headline(self, decision) -> str:
        """The decision's headline with its savings and what its rates are."""
        saved = self.savings(decision)
        return decision.headline + ("" if saved is None else savings_words(saved))

    def honest_curve(self, twin):
        """The honest curve of the classifier drawn as ``twin``, at the setting the twin was
        made at (where no case changes side, at 1: its NEC curve is the same at every one).
        Without folds the random splits are seeded (``random_state=0``), as the bands are.

        Raises `Superseded` for a twin no longer drawn (a move made new ones while this was
        asked on a worker thread): its curve would never be drawn."""
        entry = self._origin.get(id(twin))
        if entry is None or entry[0] is not twin:
            raise Superseded("honest")
        _, clf, setting = entry
        p, m_fn, m_fp = setting if setting is not None else (None, 1.0, 1.0)
        return honest_cost(clf, random_state=0, cost_fn=m_fn, cost_fp=m_fp, p_pos=p)

    def sync(self) -> None:
        """Refuse a state the widget cannot show truthfully (the transaction keeps the last
        good one and shows this message in the banner); where the twins move, make and draw
        them at the state's p(+) and multipliers."""
        s = self.state
        if s.show_honest and not hasattr(self.given[0].case_costs, "tp"):
            raise ValueError(
                "honest curves of per-case costs summed in the database are not shown: the "
                "sums have no single cases to split into folds. Load the rows with "
                "CostWidget.from_frame(..., cost_fn='col')."
            )
        for trait, what in _REFUSED.items():
            if getattr(s, trait):
                raise ValueError(
                    f"Not shown with per-case costs: {what}. Use it on a widget built "
                    "without per-case costs."
                )
        if self.pinned is not None:
            now = (s.p_pos, s.cost_fn, s.cost_fp)
            if any(
                b is not None and abs(a - b) > 1e-12 * max(1.0, abs(b))
                for a, b in zip(now, self.pinned)
            ):
                raise ValueError(self._pinned_words())
        if self.moves:
            self._follow((float(s.p_pos), float(s.cost_fn), float(s.cost_fp)))

    def _follow(self, setting) -> None:
        """Make and draw the twins at ``setting`` (p(+), m_fn, m_fp) when they are of another:
        all of them first, then every pane at once (``redraw_twins``), in this redraw."""
        s = self.state
        if setting != self.drawn_at:
            self.check_setting(*setting, show=False)
            try:
                twins, units, pcf = twins_at(self.given, *setting)
            except ValueError as exc:  # no case worth flagging, or none worth passing
                p, fn, fp = setting
                raise ValueError(
                    f"At p(+) = {p:.6g}, {self.labels[0]} = {fn:.6g} and {self.labels[1]} = "
                    f"{fp:.6g} the cost-weighted cases have one side only: {exc} Move the "
                    "multipliers back toward 1."
                ) from None
            old = (self.twins, self.units, self.pcf, self.drawn_at, self._origin)
            self.twins, self.units, self.pcf, self.drawn_at = twins, units, pcf, setting
            self._remember(twins, setting)
            try:
                if self.redraw_twins is not None:
                    self.redraw_twins(twins)
            except BaseException:
                # Some panes may hold the new drawings: the next sync (the rollback's) draws
                # the twins of the good setting again, whatever the setting drawn was.
                self.twins, self.units, self.pcf, _, self._origin = old
                self.drawn_at = None
                raise
        # PCF(+) is the twins' own P / (P + N), to the bit the decision's: the state derived it
        # from the units of the setting before (they move with the twins).
        s.cost_units = self.units
        if s.pcf != self.pcf:
            s.set_trait("pcf", self.pcf)

    def p_for_pcf(self, pcf, *, digits=None) -> float:
        """The p(+) whose twins, at the state's multipliers, have PCF(+) ``pcf``
        (`p_pos_for_pcf`, exact); ``digits``: rounded to that many significant digits, as a
        gesture in the cost pane is."""
        s = self.state
        p = p_pos_for_pcf(self.given[0], float(check_pcf(pcf)), s.cost_fn, s.cost_fp)
        return p if digits is None else round_significant(p, digits)

    def units_at(self, p_pos, cost_fn, cost_fp) -> tuple:
        """``(u_fn, u_fp)`` at this setting (a snapshot's PCF(+) is checked with them)."""
        if not self.moves:
            return self.units
        self.check_setting(p_pos, cost_fn, cost_fp, show=False)
        return twins_at(self.given, float(p_pos), float(cost_fn), float(cost_fp))[1]

    def check_setting(self, p_pos=None, cost_fn=None, cost_fp=None, *, show=True) -> None:
        """Refuse a p(+) or multiplier the moving twins cannot be made at, naming the control
        and the fix (the state's validators call it first, so the state keeps its last good
        value; ``show``: also in the banner, as a trait set from Python shows nothing else)."""
        if not self.moves:
            return
        problem = None  # (the control, what is wrong and the fix)
        for value, label, arg in (
            (cost_fn, self.labels[0], "cost_fn"),
            (cost_fp, self.labels[1], "cost_fp"),
        ):
            if problem is None and _real(value) and not (math.isfinite(value) and value > 0):
                problem = (
                    label,
                    (
                        f"The multiplier {label} must be a finite number > 0 (it multiplies each "
                        f"case's {arg}; 1 is as given), got {value!r}: type a positive number in "
                        f"the field, e.g. 1 (w.{arg} = 1.0)."
                    ),
                )
        if problem is None and _real(p_pos) and not 0.0 < p_pos < 1.0:
            problem = (
                "p(+)",
                (
                    f"p(+) must lie strictly between 0 and 1 here, got {p_pos!r}: the cost-weighted "
                    "cases are weighted by p(+), and at 0 or 1 a class has no weight. Move the p(+) "
                    "slider inside (0, 1), e.g. w.p_pos = 0.1."
                ),
            )
        if problem is None:
            return
        exc = ValueError(problem[1])
        if show and self.errors is not None:
            self.errors.show(exc, context=f"{problem[0]} refused")
        raise exc

    def _pinned_words(self) -> str:
        p, _fn, _fp = self.pinned
        if p is None:
            return (
                "Costs summed in the database give the exact curve at the costs as given "
                "only: the multipliers stay at 1 (p(+) moves). To explore multipliers, load "
                "the rows with CostWidget.from_frame(..., cost_fn='col')."
            )
        return (
            "Costs summed in the database, with a cost_tp or cost_tn (or a negative cost), "
            f"give the exact curve at p(+) = {p:.6g} and the costs as given only. To "
            "explore p(+) and the multipliers, load the rows with "
            "CostWidget.from_frame(..., cost_fn='col')."
        )


def _real(value) -> bool:
    """A number to check here (other types are the state's own checks to refuse)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def twins_at(classifiers, p_pos, m_fn, m_fp):
    """``(twins, units, pcf)`` at p(+) ``p_pos`` and multipliers ``m_fn``, ``m_fp``: the
    classifiers' cost-weighted twins as :func:`~costwidget.decide` makes them
    (`per_case_setting`: the same objects, from one cache), the per-class costs
    ``(u_fn, u_fp)`` of multiplier 1 that give the twins' PCF(+) and ``(P + N) / W`` there,
    and PCF(+) computed as the decision computes it (so the cost pane's x is, to the bit, the
    one the decision reads its rule at)."""
    setting = per_case_setting(classifiers, p_pos=p_pos, cost_fn=m_fn, cost_fp=m_fp)
    big_p, big_n, _floor, total = cost_weighted(classifiers[0], m_fn, m_fp, p_pos)[1]
    units = (big_p / (total * p_pos) / m_fn, big_n / (total * (1.0 - p_pos)) / m_fp)
    pcf = float(probability_cost(setting.p_pos, setting.cost_fn, setting.cost_fp))
    return list(setting.classifiers), units, pcf


def per_case_costs(classifiers, p_pos, m_fn, m_fp):
    """The `PerCaseCosts` of ``classifiers`` (all per-case, checked by the constructor), or None
    when none has per-case costs. ``p_pos`` None is the data's prevalence."""
    if getattr(classifiers[0], "case_costs", None) is None:
        return None
    p = data_prior(classifiers) if p_pos is None else float(p_pos)
    units = multiplier_units(classifiers[0])
    summed = not hasattr(classifiers[0].case_costs, "tp")  # summed by an engine
    names = classifiers[0].case_costs.names
    labels = tuple(
        f"× {name} ({what})" if name else f"× {arg} per case ({what})"
        for name, arg, what in zip(
            names[:2], ("cost_fn", "cost_fp"), ("false negative", "false positive")
        )
    )
    made = dict(labels=labels, given=list(classifiers))
    if units is not None:
        twins = [cost_weighted(c)[0] for c in classifiers]
        # Costs summed in the database are exact at multipliers 1 only (the model's rule).
        pinned = (None, 1.0, 1.0) if summed else None
        if summed and (m_fn, m_fp) != (1.0, 1.0):
            cost_weighted(classifiers[0], m_fn, m_fp, p)  # the model's error, naming the fix
        return PerCaseCosts(units=units, pinned=pinned, twins=twins, drawn_at=pinned, **made)
    if not summed:  # cases change sides: the twins are made again at every move
        out = PerCaseCosts(units=(1.0, 1.0), pinned=None, twins=[], moves=True, **made)
        out.check_setting(p, float(m_fn), float(m_fp), show=False)
        out.twins, out.units, out.pcf = twins_at(classifiers, p, float(m_fn), float(m_fp))
        out.drawn_at = (p, float(m_fn), float(m_fp))
        out._remember(out.twins, out.drawn_at)
        return out
    if not (m_fn > 0 and m_fp > 0 and 0.0 < p < 1.0):
        raise ValueError(
            "With a cost_tp or cost_tn (or a negative cost) the widget is drawn at the "
            f"p(+) and multipliers it is built with, which must be in (0, 1) and > 0; got "
            f"p_pos={p!r}, cost_fn={m_fn!r}, cost_fp={m_fp!r}."
        )
    twins, units, _pcf = twins_at(classifiers, p, m_fn, m_fp)
    pinned = (p, float(m_fn), float(m_fp))
    return PerCaseCosts(units=units, pinned=pinned, twins=twins, drawn_at=pinned, **made)
