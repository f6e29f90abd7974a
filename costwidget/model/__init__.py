"""The numpy/pandas model of cost curves. Imports neither ipywidgets nor bqplot.

Its modules sit in layer folders (README.md): kernels, resampling, base, uncertainty, decisions,
comparison, classifier. This namespace is what the rest of the package imports: ``__all__`` is the
public API, and ``FOR_CLIENTS`` lists what the widget, export, sources and display need beyond it.
"""

from .classifier.classifier import Classifier, OperatingPoint, OperatingRange
from .classifier.estimators import classifiers_from_estimators
from .classifier.predictions import classifiers_from_predictions
from .comparison.compare import Comparison, combined_envelope, compare
from .comparison.ranges import (
    cost_sensitivity_table,
    mtmcs_curve,
    range_summary,
    threshold_segments,
)
from .comparison.roc_summary import roc_auc, roc_point_at_threshold, scores_are_probabilities
from .comparison.selection import SelectionComparison, parameter_selection, ratio_to_pcf
from .comparison.thesis_search import thesis_optimized_search
from .decisions.case_bayes import CaseBayesClassifier, CaseBayesRule, case_bayes_rule
from .decisions.constraints import ConstrainedPoint
from .decisions.decide import CONSTRAINTS, Decision, decide
from .decisions.decision_curve import (
    decision_curve,
    net_benefit_from_nec,
    pcf_from_threshold_probability,
)
from .decisions.decision_words import savings_words
from .decisions.deploy import DecisionRule, decision_rule, to_estimator
from .decisions.operating import (
    capacity_from_cases,
    capacity_to_cases,
    costs_for_ratio,
    move_to_pcf,
    population_for,
    snap_pcf,
    zero_cost_note,
)
from .decisions.per_case import (
    cost_weighted,
    counted_rates,
    data_prior,
    multiplier_units,
    per_case_savings,
    per_case_setting,
    sides_are_classes,
)
from .decisions.per_case_table import per_case_rule_table
from .decisions.runner_up import RunnerUpBand, runner_up_band
from .decisions.threshold_choice import (
    THRESHOLD_CHOICES,
    brier_score,
    cost_curve,
    expected_loss,
    h_measure,
    nec_by_threshold_choice,
    score_rule_at_costs,
)
from .decisions.threshold_choice_table import threshold_choice_table
from .kernels.costs import (
    cost_line_to_roc_point,
    cost_line_value,
    cost_point_to_roc_line,
    cost_scale,
    expected_cost,
    iso_performance_slope,
    probability_cost,
    roc_line_to_cost_point,
    roc_point_to_cost_line,
)

# isort: split
# ----------------------------------------------------------------------------- FOR_CLIENTS
# What the package's other layers (widget, export, sources, display) need beyond the public API.
# They use the model only through this namespace; these names are not documented API (not in
# __all__). tests/test_layers.py checks that clients take nothing else from the model and that
# every name here is taken by some client. Grouped by the layer folder that defines it.
from .base.case_costs import COST_ARGUMENTS, SummedCosts, with_case_costs
from .decisions.per_case import p_pos_for_pcf
from .kernels.counts import counts_classifier
from .kernels.estimator_scoring import EstimatorSource
from .kernels.geometry import (
    iso_performance_segment,
    thin_indices,
    workforce_segment,
)
from .kernels.json_values import jsonable
from .kernels.range_checks import check_range, range_grid, snap_range
from .kernels.readable import (
    axis_ticks,
    lowest_names,
    next_lower_scores,
    readable,
    readable_value,
    round_significant,
    threshold_text,
)
from .kernels.sample import ScoredSample
from .kernels.validation import (
    check_costs,
    check_pcf,
    check_probability,
    missing_columns,
)
from .uncertainty.band_limits import band_limits_at
from .uncertainty.bands import scored_arrays
from .uncertainty.case_bands import check_case_resamplable
from .uncertainty.folds import fold_spread
from .uncertainty.honest import honest_cost, honest_winners
from .uncertainty.paired import check_pair, difference_band, significant_intervals

FOR_CLIENTS = (
    # base
    "COST_ARGUMENTS",
    "SummedCosts",
    "with_case_costs",
    # kernels
    "counts_classifier",
    "cost_line_value",
    "iso_performance_segment",
    "thin_indices",
    "workforce_segment",
    "jsonable",
    "check_range",
    "range_grid",
    "snap_range",
    "axis_ticks",
    "lowest_names",
    "next_lower_scores",
    "readable",
    "readable_value",
    "round_significant",
    "threshold_text",
    "check_costs",
    "check_pcf",
    "check_probability",
    "missing_columns",
    # decisions
    "p_pos_for_pcf",
    # uncertainty
    "scored_arrays",
    "check_case_resamplable",
    "band_limits_at",
    "check_pair",
    "fold_spread",
    "honest_winners",
    # decisions
    "CONSTRAINTS",
    "capacity_from_cases",
    "capacity_to_cases",
    "costs_for_ratio",
    "move_to_pcf",
    "population_for",
    "snap_pcf",
    "zero_cost_note",
    "score_rule_at_costs",
    # comparison
    "mtmcs_curve",
    "threshold_segments",
)

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
    "honest_cost",
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
    "RunnerUpBand",
    "runner_up_band",
    "EstimatorSource",
    "decision_rule",
    "to_estimator",
    "roc_auc",
    "roc_point_at_threshold",
    "scores_are_probabilities",
    "CaseBayesClassifier",
    "CaseBayesRule",
    "case_bayes_rule",
    "per_case_rule_table",
    "cost_weighted",
    "counted_rates",
    "data_prior",
    "multiplier_units",
    "sides_are_classes",
    "per_case_savings",
    "per_case_setting",
    "savings_words",
]
