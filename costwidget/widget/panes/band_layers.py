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
    """The min-max spread of each visible classifier's fold envelopes (``show_fold_spread``)."""
    return FillBetweenLayer(
        ctx,
        slot="fold spread",
        label="fold spread",
        enabled="show_fold_spread",
        request=lambda s: "min-max",
        compute=lambda clf, _req: clf.fold_spread(),
        applies=lambda clf: bool(clf.folds),
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
