"""Per-classifier drawing data, computed once from the model (never per operating-point change)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...model import (
    next_lower_scores,
    roc_auc,
    roc_point_at_threshold,
    roc_point_to_cost_line,
    thin_indices,
)

__all__ = ["ClassifierDrawing", "MAX_CURVE_POINTS", "PALETTE"]

MAX_CURVE_POINTS = 2000
from ...palette import PALETTE  # noqa: E402 - one palette for widget and figures


@dataclass(frozen=True)
class ClassifierDrawing:
    """What the panes draw for one classifier; everything but the ROC curve is exact."""

    name: str
    color: str
    clf: object
    roc_x: np.ndarray  # ROC curve, thinned to <= MAX_CURVE_POINTS
    roc_y: np.ndarray
    hull_fpr: np.ndarray  # hull vertices, exact
    hull_tpr: np.ndarray
    hull_threshold: np.ndarray
    hull_next_score: np.ndarray  # the next lower distinct score below each vertex's threshold
    env_x: np.ndarray  # lower envelope breakpoints, exact
    env_y: np.ndarray
    segment_mid: np.ndarray  # pcf at the middle of each vertex's optimal interval
    segment_vertex: np.ndarray  # which hull vertex is optimal there
    operating_range: tuple
    auc: float  # area under the ROC curve, exact
    half_point: tuple | None  # (fpr, tpr) at score >= 0.5 where the scores are probabilities
    # The classifier as given where ``clf`` is its cost-weighted twin (per-case costs): the
    # decision is made on it. None when ``clf`` is the classifier as given.
    source: object = None

    @property
    def given(self):
        """The classifier as given (with its per-case costs): what the decision is made on."""
        return self.clf if self.source is None else self.source

    @classmethod
    def build(cls, clf, color: str, source=None) -> "ClassifierDrawing":
        roc = clf.roc
        idx = thin_indices(roc["fpr"].to_numpy(), roc["tpr"].to_numpy(), MAX_CURVE_POINTS)
        hull = clf.hull
        env = clf.envelope
        seg = clf.segments
        # Map each segment back to its hull vertex by its ROC point (exact equality:
        # both tables come from the same arrays).
        key = {(f, t): i for i, (f, t) in enumerate(zip(hull["fpr"], hull["tpr"]))}
        vertex = np.array([key[(f, t)] for f, t in zip(seg["fpr"], seg["tpr"])], dtype=int)
        return cls(
            name=clf.name,
            color=color,
            clf=clf,
            roc_x=roc["fpr"].to_numpy()[idx],
            roc_y=roc["tpr"].to_numpy()[idx],
            hull_fpr=hull["fpr"].to_numpy(),
            hull_tpr=hull["tpr"].to_numpy(),
            hull_threshold=hull["threshold"].to_numpy(),
            hull_next_score=next_lower_scores(
                roc["threshold"].to_numpy(), hull["threshold"].to_numpy()
            ),
            env_x=env["pcf"].to_numpy(),
            env_y=env["nec"].to_numpy(),
            segment_mid=((seg["pcf_lo"] + seg["pcf_hi"]) / 2).to_numpy(),
            segment_vertex=vertex,
            operating_range=tuple(clf.operating_range),
            auc=roc_auc(clf),
            half_point=roc_point_at_threshold(clf, 0.5),
            source=None if source is clf else source,
        )

    @property
    def label(self) -> str:
        """The name and the AUC, as scikit-learn's ``RocCurveDisplay`` labels a curve."""
        return f"{self.name} (AUC = {self.auc:.2f})"

    def cost_lines(self):
        """Every hull vertex's cost line over [0, 1] (eq. 8): x and y of shape (n_vertices, 2)."""
        slope, intercept = roc_point_to_cost_line(self.hull_fpr, self.hull_tpr)
        x = np.tile([0.0, 1.0], (len(slope), 1))
        y = np.column_stack([intercept, intercept + slope])
        return x, y
