"""Expected cost under a density of operating points (000_… eq. 11)."""

from __future__ import annotations

import numpy as np

from .envelope import Envelope

__all__ = ["expected_under_density"]


def _as_pdf(density):
    pdf = getattr(density, "pdf", density)
    if not callable(pdf):
        raise TypeError(
            "density must be a callable pdf(x) or a scipy.stats frozen distribution, "
            f"got {type(density).__name__}."
        )
    return pdf


def expected_under_density(envelope: Envelope, density) -> float:
    """∫ NEC(x) p(x) dx / ∫ p(x) dx over [0, 1], piece by linear piece of the envelope.

    Quadrature runs on each piece separately so that the envelope's kinks never
    fall inside an integration interval; the integrand is then as smooth as the
    density itself.
    """
    from scipy.integrate import quad

    pdf = _as_pdf(density)
    # Interior probes only: integrable densities such as Beta(0.5, 0.5) are infinite
    # at 0 and 1, and quadrature never evaluates the end points.
    probe = np.asarray([float(pdf(t)) for t in np.linspace(0.0, 1.0, 33)[1:-1]])
    if np.any(probe < 0) or not np.all(np.isfinite(probe)):
        raise ValueError("density must be finite and >= 0 inside (0, 1).")
    x, _ = envelope.breakpoints()
    num = mass = 0.0
    for lo, hi in zip(x[:-1], x[1:]):
        k = int(envelope.vertex_at(0.5 * (lo + hi)))
        a, b = envelope.slope[k], envelope.intercept[k]
        p = lambda t: float(pdf(t))  # noqa: E731 - quad wants a scalar function
        piece_mass, _ = quad(p, lo, hi, limit=200)
        piece_first, _ = quad(lambda t: t * p(t), lo, hi, limit=200)
        num += a * piece_first + b * piece_mass
        mass += piece_mass
    if not np.isfinite(mass) or mass <= 0:
        raise ValueError("density integrates to 0 (or not to a finite number) over [0, 1].")
    return float(num / mass)
