"""The two figures and what is drawn in them: per-classifier layers, bands, the difference
view, the decision-curve, threshold-choice and thesis views."""
