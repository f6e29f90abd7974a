"""`WidgetState`: the widget's state as traitlets, and nothing else.

Setting a trait from Python validates it (the model's own checks) and the
widget redraws; an invalid value raises ``TraitError`` and the state is left
unchanged.

Each state trait is tagged with what it is for, and every list of state keys is read from these
tags (`traits_for`), so that a new state key is declared here and nowhere else:

``analysis=True``
    settable through ``w.<name>`` and ``w.update``, rolled back as one state
    (`costwidget.widget.state.state_traits.STATE_TRAITS` and its descriptors);
``page=True``
    sent to the page's front end, which computes the operating point from it
    (`costwidget.frontend.contract.STATE_KEYS`);
``snapshot="a.b"``
    where `costwidget.widget.output.snapshot` records it (``snap["a"]["b"]``);
    ``snapshot_optional`` when older snapshots may lack the record ``snap["a"]``: restoring one
    then leaves the trait as it is (``"keep"``) or sets its default (``"default"``); within a
    record that is there, a missing key is the trait's default (``"keep"``) or an error.
"""

from __future__ import annotations

import contextlib

import traitlets as t

from ...model import (
    CONSTRAINTS,
    check_costs,
    check_probability,
    population_for,
    probability_cost,
)

__all__ = ["WidgetState", "traits_for"]


class WidgetState(t.HasTraits):
    """Operating point, constraint, bands and visibility of a `CostWidget`."""

    p_pos = t.Float(0.5, help="deployment prevalence p(+), in (0, 1)").tag(
        analysis=True, page=True, snapshot="operating_point.p_pos"
    )
    cost_fn = t.Float(1.0, help="cost C(-|+) of a false negative, >= 0, in the user's units").tag(
        analysis=True, page=True, snapshot="operating_point.cost_fn"
    )
    cost_fp = t.Float(1.0, help="cost C(+|-) of a false positive, >= 0, in the user's units").tag(
        analysis=True, page=True, snapshot="operating_point.cost_fp"
    )
    pcf = t.Float(0.5, read_only=True, help="PCF(+), derived from p_pos, cost_fn, cost_fp")
    constraint = t.Enum(CONSTRAINTS, default_value="none").tag(
        analysis=True, page=True, snapshot="constraint.kind"
    )
    max_fpr = t.Float(0.1, help="Neyman-Pearson limit on the false-positive rate").tag(
        analysis=True, page=True, snapshot="constraint.max_fpr"
    )
    capacity = t.Float(0.0, help="workforce capacity, in cases").tag(
        analysis=True, page=True, snapshot="constraint.capacity"
    )
    n_pos = t.Float(1.0, help="positives in the population the workforce draws from").tag(
        analysis=True, page=True, snapshot="constraint.n_pos"
    )
    n_neg = t.Float(1.0, help="negatives in the population the workforce draws from").tag(
        analysis=True, page=True, snapshot="constraint.n_neg"
    )
    show_cost_lines = t.Bool(
        False,
        help="every hull vertex's full cost line (eq. 8) in the cost "
        "pane, faint and clipped at the axis top",
    ).tag(analysis=True, snapshot="display.show_cost_lines")
    show_bands = t.Bool(False, help="bootstrap confidence bands around the visible envelopes").tag(
        analysis=True, snapshot="bands.show_bands"
    )
    band_level = t.Float(0.9, help="confidence level of the bands and of the difference view").tag(
        analysis=True, snapshot="bands.band_level"
    )
    show_fold_spread = t.Bool(
        False, help="min-max band of the fold envelopes (classifiers with folds)"
    ).tag(analysis=True, snapshot="bands.show_fold_spread")
    # The cost on new data of the threshold tuned at each PCF(+) (cw.honest_cost).
    show_honest = t.Bool(
        False,
        help="each visible classifier's honest cost on new data beside "
        "its envelope, the gap shaded",
    ).tag(analysis=True, snapshot="honest.show_honest", snapshot_optional="default")
    honest_strip = t.Bool(
        False,
        help="the winner strip compares the honest curves (when shown) instead of the envelopes",
    ).tag(analysis=True, snapshot="honest.honest_strip", snapshot_optional="default")
    difference = t.List(
        t.Unicode(),
        help="[a, b]: show NEC_a - NEC_b with its paired band and "
        "where it is significant; [] hides the view",
    ).tag(analysis=True, snapshot="difference.pair")
    visible = t.List(t.Unicode(), help="names of the classifiers shown").tag(
        analysis=True, page=True, snapshot="visible"
    )
    range_of_interest = t.List(
        t.Float(),
        help="[lo, hi]: a range of PCF(+) to choose over "
        "(Al-Saffar (2018), ch. 5), on the 0.05 grid; [] for none",
    ).tag(analysis=True, snapshot="range_of_interest")
    # How the threshold will really be chosen (threshold_choice_view, decision_curve_view).
    threshold_choice = t.Enum(
        ("none", "score", "score+rate"),
        default_value="none",
        help="draw the score-driven (and rate-driven) cost curves beside "
        "the envelopes, with the gap shaded",
    ).tag(analysis=True, snapshot="threshold_choice.method", snapshot_optional="keep")
    show_decision_curve = t.Bool(
        False, help="the decision-curve pane: net benefit against threshold probability"
    ).tag(
        analysis=True,
        snapshot="threshold_choice.show_decision_curve",
        snapshot_optional="keep",
    )
    names = t.List(t.Unicode(), read_only=True, help="all classifier names, in order")
    busy = t.Bool(
        False,
        read_only=True,
        help="True while bands, fold spread or the difference view are computed in the background",
    )

    def __init__(self, *, names=(), **kwargs):
        super().__init__()
        self._following = False  # n_pos/n_neg written by the population following p(+)
        # True while that write happens inside a p(+) change: the p(+) change's own redraw
        # (after this observer) draws n_pos/n_neg too, so they need no redraw of their own.
        self.deriving = False
        self._restoring = False  # traits written back by a rollback, not by a user
        # C(-|+), C(+|-) of cost_fn = cost_fp = 1: (1, 1), or for per-case costs the classes'
        # mean costs, the costs then being multipliers (widget/state/per_case_costs.py).
        self.cost_units = (1.0, 1.0)
        # True once n_pos or n_neg is set: until then the workforce population follows p(+) at
        # a fixed total. A plain attribute (not a trait: a snapshot records n_pos and n_neg,
        # and restoring them sets it).
        self.population_set = False
        self.set_trait("names", list(names))
        for key, value in kwargs.items():
            setattr(self, key, value)

    @t.validate("visible")
    def _check_visible(self, proposal):
        unknown = [n for n in proposal["value"] if n not in self.names]
        if unknown:
            raise ValueError(
                f"visible names unknown classifiers {unknown}; choose from {self.names}."
            )
        return list(proposal["value"])

    @t.validate("range_of_interest")
    def _check_range_of_interest(self, proposal):
        from ...model import check_range

        return list(check_range(proposal["value"]))

    @t.validate("difference")
    def _check_difference(self, proposal):
        pair = list(proposal["value"])
        if not pair:
            return pair
        if len(pair) != 2 or pair[0] == pair[1]:
            raise ValueError(
                f"difference needs two different classifier names (or [] for none), got {pair}."
            )
        unknown = [n for n in pair if n not in self.names]
        if unknown:
            raise ValueError(
                f"difference names unknown classifiers {unknown}; choose from {self.names}."
            )
        return pair

    def _check_per_case(self, **setting) -> None:
        """Per-case costs whose twins move with p(+) and the multipliers refuse first what they
        cannot be made at, naming the control (`PerCaseCosts.check_setting`)."""
        per_case = getattr(self, "per_case", None)
        if per_case is not None:
            per_case.check_setting(**setting)

    @t.validate("p_pos")
    def _check_p_pos(self, proposal):
        self._check_per_case(p_pos=proposal["value"])
        value = float(check_probability(proposal["value"], "p_pos"))
        probability_cost(value, self.cost_fn, self.cost_fp)  # refuses an undefined PCF
        return value

    @t.validate("cost_fn")
    def _check_cost_fn(self, proposal):
        self._check_per_case(cost_fn=proposal["value"])
        check_costs(proposal["value"], self.cost_fp)
        probability_cost(self.p_pos, proposal["value"], self.cost_fp)
        return float(proposal["value"])

    @t.validate("cost_fp")
    def _check_cost_fp(self, proposal):
        self._check_per_case(cost_fp=proposal["value"])
        check_costs(self.cost_fn, proposal["value"])
        probability_cost(self.p_pos, self.cost_fn, proposal["value"])
        return float(proposal["value"])

    @t.validate("max_fpr")
    def _check_max_fpr(self, proposal):
        value = float(proposal["value"])
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"max_fpr must lie in [0, 1], got {value!r}.")
        return value

    @t.validate("capacity")
    def _check_capacity(self, proposal):
        value = float(proposal["value"])
        if not value >= 0.0:
            raise ValueError(f"capacity must be a number of cases >= 0, got {value!r}.")
        return value

    @t.validate("n_pos", "n_neg")
    def _check_population(self, proposal):
        value = float(proposal["value"])
        if not value >= 0.0:
            raise ValueError(f"{proposal['trait'].name} must be >= 0, got {value!r}.")
        if proposal["trait"].name == "n_pos" and value == 0:
            raise ValueError("n_pos must be > 0: the workforce line needs some positives.")
        if not (self._following or self._restoring):
            self.population_set = True  # the user's population: it stops following p(+)
        return value

    @contextlib.contextmanager
    def restoring(self):
        """Traits written back by a rollback (`Transaction`), not set by a user: a restored n_pos
        does not mark the population as set, and a restored p_pos does not move it.

        (This was an override of ``set_trait``, which traitlets also calls for the deferred
        validation at the end of ``hold_trait_notifications``: ``w.update(n_pos=...)`` then
        left the population marked as following, though it no longer followed.)"""
        self._restoring = True
        try:
            yield
        finally:
            self._restoring = False

    @t.observe("p_pos")
    def _follow_population(self, change):
        """The workforce population follows p(+) at a fixed total until the user sets it
        (not at p(+) = 0 or 1, where it would have no positives or no negatives)."""
        if self.population_set or self._restoring or not 0.0 < self.p_pos < 1.0:
            return
        self._following = True
        self.deriving = change is not None
        try:
            self.n_pos, self.n_neg = population_for(self.p_pos, self.n_pos + self.n_neg)
        finally:
            self._following = self.deriving = False

    def follow_population(self) -> None:
        """Let the workforce population follow p(+) again, from now, at its present total."""
        self.population_set = False
        self._follow_population(None)

    @t.validate("band_level")
    def _check_band_level(self, proposal):
        value = float(proposal["value"])
        if not 0.0 < value < 1.0:
            raise ValueError(f"band_level must lie strictly between 0 and 1, got {value!r}.")
        return value

    @t.observe("p_pos", "cost_fn", "cost_fp")
    def _derive_pcf(self, change):
        u_fn, u_fp = getattr(self, "cost_units", (1.0, 1.0))
        pcf = probability_cost(self.p_pos, self.cost_fn * u_fn, self.cost_fp * u_fp)
        self.set_trait("pcf", float(pcf))

    def derive(self) -> None:
        """Recompute the derived trait ``pcf`` from p_pos and the costs (the transaction calls
        it after restoring or updating traits: the end of a restore)."""
        self._derive_pcf(None)

    def set_costs(self, cost_fn: float, cost_fp: float) -> None:
        """Set both costs at once (one check, one redraw)."""
        self._check_per_case(cost_fn=cost_fn, cost_fp=cost_fp)
        check_costs(cost_fn, cost_fp)
        probability_cost(self.p_pos, cost_fn, cost_fp)
        with self.hold_trait_notifications():
            self.cost_fn = float(cost_fn)
            self.cost_fp = float(cost_fp)


def traits_for(purpose: str) -> tuple[str, ...]:
    """The names of the `WidgetState` traits tagged ``purpose`` ("analysis", "page" or
    "snapshot"), in the order they are declared.

    Examples
    --------
    >>> from costwidget.widget.state.state import traits_for
    >>> traits_for("page")[:3]
    ('p_pos', 'cost_fn', 'cost_fp')
    """
    return tuple(
        name
        for name, trait in vars(WidgetState).items()
        if isinstance(trait, t.TraitType) and trait.metadata.get(purpose)
    )
