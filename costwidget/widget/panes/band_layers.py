"""The widget's two fill-between layers: the bootstrap bands and the fold spread."""

from __future__ import annotations

from .fill_layer import FillBetweenLayer

__all__ = ["bootstrap_band_layer", "fold_spread_layer"]


def bootstrap_band_layer(ctx):
    """The bootstrap band of each visible classifier's envelope (``show_bands``, ``band_level``)."""
    return FillBetweenLayer(
        ctx,
        slot="bands",
        label="bands",
        enabled="show_bands",
        request=lambda s: s.band_level,
        # The envelope band (threshold re-optimized in every replicate, Drummond & Holte
        # (2004), sec. 8) as a basic bootstrap interval: the percentile one covers the best
        # achievable cost too rarely, the minimum being biased low (see Classifier.band). A
        # fixed rule (from_confusion) gets its exact percentile band whatever interval= says.
        compute=lambda clf, level: clf.band(level, interval="basic", random_state=0),
        check=_check_resamplable,
    )


def fold_spread_layer(ctx):
    """The min-max spread of each visible classifier's fold envelopes (``show_fold_spread``).

    With per-case costs the drawn classifier is a cost-weighted twin (no folds of its own):
    the spread is of its classifier's folds priced case by case at the state's p(+) and
    multipliers (each fold's money per case, scaled as the cost pane: ``cw.fold_spread``
    with ``cost_fn=``, ``cost_fp=``, ``p_pos=``), made again when they move."""
    from ...model import fold_spread

    def given(clf):
        return next((d.given for d in ctx.drawings if d.clf is clf), clf)

    def per_case(clf):
        return getattr(given(clf), "case_costs", None) is not None

    def request(s):
        if getattr(s, "per_case", None) is None:
            return "min-max"
        return ("min-max", float(s.p_pos), float(s.cost_fn), float(s.cost_fp))

    def compute(clf, req):
        if not per_case(clf):
            return clf.fold_spread()
        _, p_pos, m_fn, m_fp = req
        return fold_spread(given(clf), cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos)

    def check(clf):
        cc = getattr(given(clf), "case_costs", None)
        if cc is not None and not hasattr(cc, "tp"):
            raise ValueError(
                "The fold spread of per-case costs summed in the database is not shown: the "
                "sums have no single cases to price fold by fold. Load the rows with "
                "CostWidget.from_frame(..., cost_fn='col', fold='fold')."
            )

    return FillBetweenLayer(
        ctx,
        slot="fold spread",
        label="fold spread",
        enabled="show_fold_spread",
        request=request,
        compute=compute,
        check=check,
        applies=lambda clf: bool(given(clf).folds),
        opacity=0.10,
        line_style="dotted",
        stroke_width=1,
        none_message="no visible classifier has folds: build them with folds= (or "
        "CostWidget.from_frame(..., fold='fold')) to see the fold spread.",
    )


def _check_resamplable(clf):
    """Bands resample the cases: refuse at once what cannot be resampled (weights, rates only)."""
    from ...model import scored_arrays

    if clf.sample is not None:
        scored_arrays(clf, "bands")
