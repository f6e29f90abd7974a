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
turns the multipliers into PCF(+). Otherwise the twins' ROC moves with every multiplier and
p(+), and the widget is drawn at the multipliers it was built with: moving them is refused with
a message (build another widget at other multipliers). p(+) still moves where, at those
multipliers, every case counts on its own class's side (a fee below every positive's loss): a
p(+) move then rescales each side as one, which leaves the twins' ROC and the units as they are.

The views that do not price each case yet are refused: bands, the fold spread and the difference
view (in NEC of the twins' cases, not in money per case). The honest curves are the twins'
(:func:`~costwidget.honest_cost` at the twins' multipliers and p(+), with the classifiers' folds),
in the cost pane's NEC; the decision reads them in money per case on new data (refused for costs
summed in a database, which have no single cases to split). A
Neyman-Pearson or workforce limit counts the cases (:mod:`costwidget.model.decisions.case_limits`):
the decision follows `decide`, and the panes draw no line for the limit (it is no cut of the
cost-weighted ROC; the constraint tool says so).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...model import (
    cost_weighted,
    data_prior,
    honest_cost,
    multiplier_units,
    per_case_savings,
    savings_words,
    sides_are_classes,
)
from .component import Component

__all__ = ["PerCaseCosts", "per_case_costs"]

#: State traits whose views are not priced per case, with what the widget says of them.
_REFUSED = {
    "show_fold_spread": "the fold spread",
    "difference": "the difference view",
    "show_decision_curve": "the decision curve",
}


@dataclass
class PerCaseCosts(Component):
    """The per-case costs of a widget's classifiers, as the widget shows them.

    Attributes
    ----------
    units : tuple of float
        ``(u_fn, u_fp)``: the per-class costs of multiplier 1 (`multiplier_units`).
    pinned : tuple or None
        ``(p_pos, m_fn, m_fp)`` the twins are drawn at, when moving them moves the twins' ROC
        (``p_pos`` None: p(+) may move, as where every case counts on its own class's side;
        costs summed by an engine keep multipliers 1); None
        when the twins hold at every multiplier and p(+).
    labels : tuple of str
        The multipliers' labels: what each multiplies (the column's name, or "cost_fn per case").
    twins : list
        The cost-weighted classifier of each classifier, in order: what the panes draw.
    state : object
        The widget's state (set by the component's builder).
    """

    units: tuple
    pinned: tuple | None
    labels: tuple
    twins: list
    state: object = None
    given: list = None

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
        """The honest curve of the classifier drawn as ``twin``, at the twins' multipliers and
        p(+) (where no case changes side, at 1: its NEC curve is the same at every one).
        Without folds the random splits are seeded (``random_state=0``), as the bands are."""
        clf = next(g for g, t in zip(self.given, self.twins) if t is twin)
        p, m_fn, m_fp = self.pinned if self.pinned is not None else (None, 1.0, 1.0)
        return honest_cost(clf, random_state=0, cost_fn=m_fn, cost_fp=m_fp, p_pos=p)

    def sync(self) -> None:
        """Refuse a state the widget cannot show truthfully (the transaction keeps the last
        good one and shows this message in the banner)."""
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
                    f"Not shown yet with per-case costs: {what} (it is computed on the "
                    "cost-weighted cases or per class, not in money per case). Use it on a "
                    "widget built without per-case costs."
                )
        if self.pinned is not None:
            now = (s.p_pos, s.cost_fn, s.cost_fp)
            if any(
                b is not None and abs(a - b) > 1e-12 * max(1.0, abs(b))
                for a, b in zip(now, self.pinned)
            ):
                raise ValueError(self._pinned_words())

    def _pinned_words(self) -> str:
        p, fn, fp = self.pinned
        if p is None and hasattr(self.given[0].case_costs, "tp"):
            return (
                "With a cost_tp or cost_tn (or a negative cost) the cost-weighted ROC changes "
                f"with the multipliers, so this widget is drawn at × {fn:.6g}, × {fp:.6g} "
                "only (p(+) moves: at these multipliers every case counts on its own class's "
                "side): build another with CostWidget(classifiers, cost_fn=..., cost_fp=...)."
            )
        if p is None:
            return (
                "Costs summed in the database give the exact curve at the costs as given "
                "only: the multipliers stay at 1 (p(+) moves). To explore multipliers, load "
                "the rows with CostWidget.from_frame(..., cost_fn='col')."
            )
        if not hasattr(self.given[0].case_costs, "tp"):  # summed, and cases change sides
            return (
                "Costs summed in the database, with a cost_tp or cost_tn (or a negative cost), "
                f"give the exact curve at p(+) = {p:.6g} and the costs as given only. To "
                "explore p(+) and the multipliers, load the rows with "
                "CostWidget.from_frame(..., cost_fn='col')."
            )
        return (
            "With a cost_tp or cost_tn (or a negative cost) the cost-weighted ROC changes "
            "with the multipliers and p(+), so this widget is drawn at p(+) = "
            f"{p:.6g}, × {fn:.6g}, × {fp:.6g} only: build another with "
            "CostWidget(classifiers, p_pos=..., cost_fn=..., cost_fp=...)."
        )


def per_case_costs(classifiers, p_pos, m_fn, m_fp):
    """The `PerCaseCosts` of ``classifiers`` (all per-case, checked by the constructor), or None
    when none has per-case costs. ``p_pos`` None is the data's prevalence."""
    if getattr(classifiers[0], "case_costs", None) is None:
        return None
    p = data_prior(classifiers) if p_pos is None else float(p_pos)
    units = multiplier_units(classifiers[0])
    summed = not hasattr(classifiers[0].case_costs, "tp")  # summed by an engine
    if units is not None:
        twins = [cost_weighted(c)[0] for c in classifiers]
        # Costs summed in the database are exact at multipliers 1 only (the model's rule).
        pinned = (None, 1.0, 1.0) if summed else None
        if summed and (m_fn, m_fp) != (1.0, 1.0):
            cost_weighted(classifiers[0], m_fn, m_fp, p)  # the model's error, naming the fix
    else:
        if not (m_fn > 0 and m_fp > 0 and 0.0 < p < 1.0):
            raise ValueError(
                "With a cost_tp or cost_tn (or a negative cost) the widget is drawn at the "
                f"p(+) and multipliers it is built with, which must be in (0, 1) and > 0; got "
                f"p_pos={p!r}, cost_fn={m_fn!r}, cost_fp={m_fp!r}."
            )
        pairs = [cost_weighted(c, m_fn, m_fp, p) for c in classifiers]
        twins = [t for t, _ in pairs]
        big_p, big_n, _floor, total = pairs[0][1]
        # C(-|+), C(+|-) that give the twins' PCF(+) and (P + N) / W at this point.
        units = (big_p / (total * p) / m_fn, big_n / (total * (1.0 - p)) / m_fp)
        # Where every case counts on its own class's side at these multipliers, a p(+) move
        # rescales each side as one (and keeps W): the same ROC and units, so p(+) may move.
        free_p = sides_are_classes(classifiers[0], m_fn, m_fp)
        pinned = (None if free_p else p, float(m_fn), float(m_fp))
    names = classifiers[0].case_costs.names
    labels = tuple(
        f"× {name} ({what})" if name else f"× {arg} per case ({what})"
        for name, arg, what in zip(
            names[:2], ("cost_fn", "cost_fp"), ("false negative", "false positive")
        )
    )
    return PerCaseCosts(
        units=units, pinned=pinned, labels=labels, twins=twins, given=list(classifiers)
    )
