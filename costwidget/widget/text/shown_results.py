"""What a `CostWidget` shows, read back in Python: the readout, the range table, the rule to
deploy, the constrained points, the bands and the difference view on screen."""

from __future__ import annotations

__all__ = ["ShownResults"]


class ShownResults:
    """``w.readout``, ``w.range_table``, ``w.decision_rule()``, ``w.drawn_bands``, ..."""

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

    # --- decision rule to deploy (issue 21; see decision_rule.py) ---
    def decision_rule(self, name=None):
        """The rule to deploy for classifier ``name`` (default: the lowest expected cost shown,
        under the active constraint): a frozen `costwidget.model.DecisionRule` whose
        ``to_dict()`` is JSON. See :func:`costwidget.model.decision_rule`."""
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
        """``{name: ConstrainedPoint}`` of the active constraint (empty when none)."""
        return dict(self.constraint_tool.constrained)

    @property
    def drawn_bands(self):
        """``{name: band DataFrame}`` of the bootstrap bands on screen (empty when off)."""
        return {k: v.copy() for k, v in self.band_layer.drawn.items()}

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
