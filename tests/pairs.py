"""Simulated pairs of scorers for the paired-band tests (test_paired, test_bands_simultaneous)."""

import numpy as np

import costwidget as cw


def correlated_pair(rng, n_pos, n_neg, *, shift_a, shift_b, rho):
    """Two scorers sharing a latent score; rho is the correlation of their noise."""
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    common = rng.normal(size=n_pos + n_neg)
    own_a, own_b = rng.normal(size=(2, n_pos + n_neg))
    noise_a = np.sqrt(rho) * common + np.sqrt(1 - rho) * own_a
    noise_b = np.sqrt(rho) * common + np.sqrt(1 - rho) * own_b
    a = cw.Classifier.from_scores(y, np.where(y, shift_a, 0.0) + noise_a, name="a")
    b = cw.Classifier.from_scores(y, np.where(y, shift_b, 0.0) + noise_b, name="b")
    return a, b
