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
from .ranges import cost_sensitivity_table, range_summary
from .thesis_search import thesis_optimized_search
from .sample import ScoredSample
from .threshold_choice import (THRESHOLD_CHOICES, brier_score, cost_curve, expected_loss, h_measure,
                               nec_by_threshold_choice)
from .threshold_choice_table import threshold_choice_table
from .deploy import DecisionRule, decision_rule, to_estimator
from .decide import Decision, decide
from .estimator_scoring import EstimatorSource
from .decision_curve import decision_curve, net_benefit_from_nec, pcf_from_threshold_probability
from .selection import SelectionComparison, parameter_selection, ratio_to_pcf
from .roc_summary import roc_auc, roc_point_at_threshold, scores_are_probabilities

# For the package's other layers (widget, export, sources, display), which use the model only
# through this namespace; not part of the documented API (not in __all__).
from .bands import scored_arrays
from .band_limits import band_limits_at
from .counts import counts_classifier
from .json_values import jsonable
from .estimator_scoring import fitted_scores
from .geometry import cost_line_value, iso_performance_segment, thin_indices, workforce_segment
from .headline import headline_text
from .operating import (capacity_from_cases, capacity_to_cases, costs_for_pcf, costs_for_ratio,
                        move_to_pcf, operating_rows, population_for, prevalence_for_pcf,
                        snap_pcf, zero_cost_note)
from .readable import (axis_ticks, lowest_names, next_lower_scores, readable, readable_value,
                       round_significant, selecting_threshold)
from .paired import check_pair
from .range_checks import check_range, range_grid, snap_range
from .ranges import mtmcs_curve, optimal_thresholds, threshold_segments
from .threshold_choice import score_rule_at_costs
from .validation import check_costs, check_pcf, check_probability, missing_columns, renamed_keyword

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
    "Decision",
    "DecisionRule",
    "decide",
    "EstimatorSource",
    "decision_rule",
    "to_estimator",
    "roc_auc",
    "roc_point_at_threshold",
    "scores_are_probabilities",
]
