"""The cost on new data: each visible classifier's honest curve beside its envelope.

One `FillBetweenLayer` owns the marks: per classifier, the region between its envelope and its
honest curve (``cw.honest_cost``: every case judged by a threshold tuned without it), dashed
edges, the gap shaded. It is computed in the background with the busy sign, as the bands are;
the widget's `Decision` reads the curves on screen (``ctx.honest_curves``), so the readout,
the headline and the rule give the cost on new data of the threshold they name.
"""

from __future__ import annotations

from ...model import honest_cost
from ..state.worker_pool import MAX_WORKERS
from .fill_layer import FillBetweenLayer

__all__ = ["honest_layer", "honest_curve", "has_scores"]


def has_scores(clf) -> bool:
    """Whether the honest cost applies: the classifier knows its cases' scores (or counts)."""
    return clf.sample is not None or clf.score_counts is not None


def honest_curve(clf, per_case=None):
    """The honest curve as the layer draws it: ``cw.honest_cost`` at its breakpoints, with the
    gap's edges ``lower`` (the envelope) and ``upper`` (the honest cost). Without folds the
    random splits are seeded (``random_state=0``), as the bands are: the same widget state
    draws the same curve. With per-case costs (``per_case``, `PerCaseCosts`) ``clf`` is a
    drawn twin and the curve is its classifier's at the twins' multipliers and p(+)."""
    if per_case is not None:
        curve = per_case.honest_curve(clf)
    else:
        curve = honest_cost(clf, random_state=0)
    return curve.assign(lower=curve["envelope"], upper=curve["nec"])


def honest_layer(ctx):
    """The honest curves of the visible classifiers with scores (``show_honest``)."""
    return FillBetweenLayer(
        ctx,
        slot="honest",
        label="cost on new data",
        enabled="show_honest",
        request=lambda s: "honest",
        compute=lambda clf, _req: honest_curve(clf, getattr(ctx.state, "per_case", None)),
        applies=has_scores,
        opacity=0.14,
        line_style="dashed",
        stroke_width=1.5,
        # One honest curve is 50 refits of its classifier, none shared with another's: the
        # classifiers run on the worker pool's number of threads at once.
        threads=MAX_WORKERS,
        none_message="no visible classifier has scores: the cost on new data needs each "
        "case's score (from_scores, from_frame, from_estimator or from_counts), "
        "not a confusion matrix or ROC points.",
    )
