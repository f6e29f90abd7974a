"""What a `CostWidget` shows, read back in Python: the readout, the range table, the rule to
deploy, the constrained points, the bands and the difference view on screen."""

from __future__ import annotations

__all__ = ["ShownResults"]


class ShownResults:
    """``w.decision``, ``w.readout``, ``w.range_table``, ``w.decision_rule()``, ..."""

    @property
    def decision(self):
        """The widget's one answer at the current state: a `costwidget.model.Decision`.

        Which visible classifier to deploy, with which rule (the cheapest the active
        constraint allows), at what cost: what the headline says, the readout shows (and
        highlights), ``decision_rule()`` returns, the constraint's marks, the winner's dot and
        the decision-curve point show, and ``snapshot()`` and the export record
        (`costwidget.model.decide` over the visible classifiers, p(+), costs and constraint).
        Read-only; it follows the state.

        Examples
        --------
        >>> import costwidget as cw
        >>> y = [0, 0, 1, 1, 0, 1, 0, 0, 0, 1]
        >>> s = [.1, .4, .35, .8, .2, .7, .55, .3, .05, .6]
        >>> w = cw.CostWidget([cw.Classifier.from_scores(y, s, name="m")], p_pos=0.4,
        ...                   cost_fn=1.0, cost_fp=4.0)
        >>> w.decision.chosen, w.decision.rule.threshold
        ('m', 0.6)
        >>> w.decision.headline == w.headline.text
        True
        >>> w.close()
        """
        return self._ctx.decision

    @property
    def readout(self):
        """DataFrame indexed by classifier name at the current operating point (visible ones).

        With bands on, ``nec_band_lo`` and ``nec_band_hi`` are each model's bootstrap band at
        PCF(+), as drawn; NaN while bands are off or still computing."""
        return self.readout_view.table().join(self.band_readout.table())

    @property
    def range_table(self):
        """Per visible classifier over the range of interest: the thesis's MTMCR, sensitivity and
        CST (grid and exact), the recommended one and the span of optimal thresholds; None when
        no range is set (see :func:`costwidget.range_summary`)."""
        return self.range_tool.table

    # --- decision rule to deploy (see decision_rule.py) ---
    def decision_rule(self, name=None):
        """The rule to deploy for classifier ``name`` (default: the one ``w.decision`` chose, the
        lowest expected cost shown under the active constraint): a frozen
        `costwidget.model.DecisionRule` whose ``to_dict()`` is JSON. On a tie (no one classifier
        is the best) it raises ``ValueError`` naming the tied classifiers: pass ``name=``. See
        :meth:`costwidget.model.Decision.rule_for`."""
        from .decision_rule import widget_decision_rule

        return widget_decision_rule(self, name)

    def to_estimator(self, name=None):
        """That rule as a ``sklearn.model_selection.FixedThresholdClassifier`` (classifiers made
        from estimators; cross-validated ones are refit on all the data, the threshold having
        been chosen on out-of-fold scores). See :func:`costwidget.model.to_estimator`."""
        from .decision_rule import widget_to_estimator

        return widget_to_estimator(self, name)

    # --- end decision rule ---

    @property
    def constrained(self):
        """``{name: ConstrainedPoint}`` of the active constraint (empty when none): the paper's
        point of each visible classifier (the largest TPR the limit allows,
        ``w.decision.of(name).constrained``); the rule to deploy is ``decision_rule(name)``."""
        d = self.decision
        return {c.name: c.constrained for c in d.classifiers if c.constrained is not None}

    @property
    def drawn_bands(self):
        """``{name: band DataFrame}`` of the bootstrap bands on screen (empty when off)."""
        return {k: v.copy() for k, v in self.band_layer.drawn.items()}

    @property
    def drawn_honest(self):
        """``{name: honest curve}`` on screen (``cw.honest_cost`` at its breakpoints, with the
        gap's edges ``lower``/``upper``), in the widget's order; empty when off."""
        drawn = self.honest_layer.drawn
        return {c.name: drawn[c.name].copy() for c in self.classifiers if c.name in drawn}

    @property
    def drawn_fold_spreads(self):
        """``{name: DataFrame}`` of the fold-spread bands on screen (empty when off)."""
        return {k: v.copy() for k, v in self.fold_spread_layer.drawn.items()}

    @property
    def difference_band(self):
        """The difference view's band (see :func:`costwidget.difference_band`), or None when off."""
        shown = self.difference_view.shown
        return None if shown is None else shown[0].copy()

    @property
    def difference_intervals(self):
        """pcf intervals where the shown difference is significant (``pcf_lo``, ``pcf_hi``,
        ``sign``: +1 where ``difference[0]`` costs more), or None when the view is off."""
        shown = self.difference_view.shown
        return None if shown is None else shown[1].copy()
