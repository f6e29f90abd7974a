"""The numpy/pandas model of cost curves. Imports neither ipywidgets nor bqplot."""

from .classifier import Classifier, OperatingPoint, OperatingRange
from .compare import Comparison, combined_envelope, compare
from .constraints import ConstrainedPoint
from .costs import (
    cost_line_to_roc_point,
    cost_point_to_roc_line,
    cost_scale,
    expected_cost,
    iso_performance_slope,
    probability_cost,
    roc_line_to_cost_point,
    roc_point_to_cost_line,
)
from .estimators import classifiers_from_estimators
from .paired import difference_band, significant_intervals
from .predictions import classifiers_from_predictions
from .ranges import cost_sensitivity_table, range_summary, thesis_optimized_search
from .sample import ScoredSample
from .threshold_choice import (THRESHOLD_CHOICES, brier_score, cost_curve, expected_loss, h_measure,
                               nec_by_threshold_choice, threshold_choice_table)
from .deploy import DecisionRule, EstimatorSource, decision_rule, to_estimator
from .decision_curve import decision_curve, net_benefit_from_nec, pcf_from_threshold_probability
from .selection import SelectionComparison, parameter_selection, ratio_to_pcf

__all__ = [
    "Classifier",
    "Comparison",
    "ConstrainedPoint",
    "OperatingPoint",
    "OperatingRange",
    "ScoredSample",
    "SelectionComparison",
    "classifiers_from_estimators",
    "classifiers_from_predictions",
    "combined_envelope",
    "compare",
    "cost_sensitivity_table",
    "cost_line_to_roc_point",
    "cost_point_to_roc_line",
    "cost_scale",
    "difference_band",
    "expected_cost",
    "iso_performance_slope",
    "parameter_selection",
    "probability_cost",
    "range_summary",
    "ratio_to_pcf",
    "roc_line_to_cost_point",
    "roc_point_to_cost_line",
    "significant_intervals",
    "thesis_optimized_search",
    "THRESHOLD_CHOICES",
    "brier_score",
    "cost_curve",
    "decision_curve",
    "expected_loss",
    "h_measure",
    "nec_by_threshold_choice",
    "net_benefit_from_nec",
    "pcf_from_threshold_probability",
    "threshold_choice_table",
    "DecisionRule",
    "EstimatorSource",
    "decision_rule",
    "to_estimator",
]
