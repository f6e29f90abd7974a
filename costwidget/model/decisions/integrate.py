"""Expected cost under a density of operating points (Drummond & Holte (2000), eq. 11).

The lower envelope is linear on each piece ``[x_j, x_j+1]``, ``NEC = s_j·x + b_j``,
so ``E[NEC] = Σ_j s_j·M1_j + b_j·M0_j`` with the mass ``M0_j`` and the partial
first moment ``M1_j`` of the density on the piece. Both are computed per piece,
all pieces at once:

* scipy.stats normal, uniform, beta and truncated normal distributions (frozen,
  or ``scipy.stats.Normal``/``Uniform``): closed forms from the standard
  normal and regularized incomplete beta functions (exact to rounding);
* any other continuous scipy distribution: masses from ``cdf``/``sf``
  differences (exact to rounding), first moments as an integral of the
  quantile function, ``∫_a^b x f(x) dx = ∫_F(a)^F(b) Q(u) du``, by a
  Gauss-Kronrod rule whose Gauss estimate checks it (pieces where the two
  disagree are integrated adaptively);
* a plain callable density: adaptive quadrature on each piece (the envelope's
  breakpoints are the integration limits, so no kink falls inside).

Masses in an upper tail are differences of survival functions, so nothing
cancels however narrow the density: ``norm(0.3, 1e-9)`` is as exact as
``beta(2, 3)``. For the normal the first moment is taken about the mean,
``∫ (x - μ) f = σ (φ(α) - φ(β))``, which keeps its size (σ) where a moment
about 0 would lose it to rounding.

The result is normalized by the mass on [0, 1]: it is ``E[NEC(X) | 0 <= X <= 1]``.
"""

from __future__ import annotations

import numpy as np

from ..kernels.envelope import Envelope

__all__ = ["expected_under_density"]

# Gauss-Kronrod 15-point nodes (x >= 0) and weights on [-1, 1], and the embedded
# 7-point Gauss weights at nodes 1, 3, 5, 7 (QUADPACK's qk15).
_XGK = np.array(
    [
        0.991455371120812639206854697526329,
        0.949107912342758524526189684047851,
        0.864864423359769072789712788640926,
        0.741531185599394439863864773280788,
        0.586087235467691130294144845693013,
        0.405845151377397166906606412076961,
        0.207784955007898467600689403773245,
        0.0,
    ]
)
_WGK = np.array(
    [
        0.022935322010529224963732008058970,
        0.063092092629978553290700663189204,
        0.104790010322250183839876322541518,
        0.140653259715525918745189590510238,
        0.169004726639267902826583426598550,
        0.190350578064785409913256402421014,
        0.204432940075298892414161999234649,
        0.209482141084727828012999174891714,
    ]
)
_WG = np.array(
    [
        0.129484966168869693270611432679082,
        0.279705391489276667901467771423780,
        0.381830050505118944950369775488975,
        0.417959183673469387755102040816327,
    ]
)
_NODES = np.concatenate((-_XGK[:-1], _XGK[::-1]))  # 15 nodes, ascending
_KRONROD = np.concatenate((_WGK[:-1], _WGK[::-1]))
_GAUSS = np.zeros(15)
_GAUSS[[1, 3, 5, 7, 9, 11, 13]] = np.concatenate((_WG[:-1], _WG[::-1]))
# A piece's quantile integral is re-done adaptively when the two rules differ by
# more than this fraction of its mass M0 (NEC is at most 1, so this bounds the
# piece's share of the error of E[NEC]; rounding alone makes them differ by a
# few 1e-16·M0).
_RULE_TOL = 2e-15
_MAX_HALVINGS = 100
_MAX_INTERVALS = 1 << 20  # a bound on the work, never reached by a continuous distribution
_EPS = np.finfo(np.float64).eps


def expected_under_density(envelope: Envelope, density) -> float:
    """Expected NEC of the envelope when pcf has the density ``density`` on [0, 1] (eq. 11).

    Parameters
    ----------
    envelope : Envelope
        The lower envelope (see :class:`costwidget.model.kernels.envelope.Envelope`).
    density : scipy.stats distribution or callable
        A continuous scipy.stats distribution, frozen (``scipy.stats.beta(2, 3)``)
        or new-style (``scipy.stats.Normal(mu=0.3, sigma=0.1)``), or a callable
        ``pdf(x)`` (not necessarily normalized) evaluated at scalars.

    Returns
    -------
    float
        ``∫ NEC(x) p(x) dx / ∫ p(x) dx`` over [0, 1].

    Raises
    ------
    ValueError
        If the density has no mass on [0, 1], or a callable is negative or
        not finite inside (0, 1).
    TypeError
        If ``density`` is neither, or is a discrete distribution.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> from costwidget.model.kernels.envelope import Envelope
    >>> from costwidget.model.decisions.integrate import expected_under_density
    >>> env = Envelope(np.array([0.0, 0.3, 1.0]), np.array([0.0, 0.7, 1.0]))   # NEC = min(x, 0.3, 1 - x)
    >>> round(expected_under_density(env, stats.uniform()), 12)    # area: 0.3 - 0.3**2
    0.21
    >>> round(expected_under_density(env, stats.norm(0.5, 1e-9)), 15)   # all mass where NEC = 0.3
    0.3
    """
    x, _ = envelope.breakpoints()
    lo, hi = x[:-1], x[1:]
    k = envelope.vertex_at(0.5 * (lo + hi))
    slope, intercept = envelope.slope[k], envelope.intercept[k]
    kind, dist = _classify(density)
    if kind == "callable":
        num, mass = _by_quadrature(dist, lo, hi, slope, intercept)
    else:
        num, mass = _by_distribution(kind, dist, lo, hi, slope, intercept)
    if not (np.isfinite(mass) and mass > 0):
        hint = (
            ""
            if kind != "callable"
            else " Quadrature can miss a very narrow density: pass a scipy.stats distribution "
            "(e.g. scipy.stats.norm(mu, sigma)) to integrate it exactly."
        )
        raise ValueError(
            f"density has no mass on [0, 1] (it integrates to {mass!r} there), so "
            f"the expected cost given pcf in [0, 1] is undefined.{hint}"
        )
    return float(num / mass)


# ---------------------------------------------------------------------- what density is
def _classify(density):
    """("callable", pdf) or (family name, parameters) or ("generic", functions)."""
    from scipy import stats

    dist = getattr(density, "dist", None)
    if isinstance(dist, stats.rv_discrete):
        raise TypeError(
            "density must be continuous: for a discrete distribution of pcf values "
            "use sum(clf.nec(x) * p for x, p in ...) directly."
        )
    if isinstance(dist, stats.rv_continuous) and callable(getattr(density, "cdf", None)):
        family = _frozen_family(density)
        if family is not None:
            return family
        return "generic", (density.cdf, density.sf, density.ppf, density.isf)
    if dist is None and all(
        callable(getattr(density, m, None)) for m in ("cdf", "ccdf", "icdf", "iccdf")
    ):  # scipy >= 1.15 style
        family = _new_style_family(density)
        if family is not None:
            return family
        return "generic", (density.cdf, density.ccdf, density.icdf, density.iccdf)
    if getattr(density, "pmf", None) is not None and getattr(density, "pdf", None) is None:
        raise TypeError("density must be continuous, got a distribution with a pmf only.")
    pdf = getattr(density, "pdf", density)
    if not callable(pdf):
        raise TypeError(
            "density must be a callable pdf(x) or a continuous scipy.stats "
            f"distribution, got {type(density).__name__}."
        )
    return "callable", pdf


def _frozen_family(frozen):
    """(name, parameters) for the frozen distributions with closed forms, else None."""
    from scipy import stats

    dist = frozen.dist
    names = [n.strip() for n in (dist.shapes or "").split(",") if n.strip()] + ["loc", "scale"]
    if len(frozen.args) > len(names):
        return None
    params = {"loc": 0.0, "scale": 1.0, **dict(zip(names, frozen.args)), **frozen.kwds}
    if not float(params["scale"]) > 0:
        raise ValueError(f"the distribution's scale must be > 0, got {params['scale']!r}.")
    for name, gen in (
        ("norm", stats.norm),
        ("uniform", stats.uniform),
        ("beta", stats.beta),
        ("truncnorm", stats.truncnorm),
    ):
        if type(dist) is type(gen):
            return name, {k: float(v) for k, v in params.items()}
    return None


def _new_style_family(d):
    from scipy import stats

    if type(d) is getattr(stats, "Normal", None):
        return "norm", {"loc": float(d.mu), "scale": float(d.sigma)}
    if type(d) is getattr(stats, "Uniform", None):
        return "uniform", {"loc": float(d.a), "scale": float(d.b) - float(d.a)}
    return None


# ---------------------------------------------------------------------- closed forms
def _by_distribution(kind, params, lo, hi, slope, intercept):
    """(Σ ∫ NEC·f, Σ ∫ f) over the pieces, for a scipy distribution."""
    if kind == "generic":
        return _generic(params, lo, hi, slope, intercept)
    with np.errstate(over="ignore"):
        # Standardized piece ends: a scale of 1e-300 sends them to ±inf, which is right
        # (and φ(±inf) = 0 after an overflowing square).
        return _closed_form(kind, params, lo, hi, slope, intercept)


def _closed_form(kind, params, lo, hi, slope, intercept):
    loc, scale = params["loc"], params["scale"]
    a = (lo - loc) / scale
    b = (hi - loc) / scale
    if kind == "norm":
        mass, moment = _normal_mass(a, b), _phi(a) - _phi(b)
    elif kind == "uniform":
        a, b = np.clip(a, 0.0, 1.0), np.clip(b, 0.0, 1.0)
        mass, moment = b - a, (b - a) * (b + a) / 2.0
    elif kind == "beta":
        p, q = params["a"], params["b"]
        a, b = np.clip(a, 0.0, 1.0), np.clip(b, 0.0, 1.0)
        mass = _beta_mass(p, q, a, b)
        moment = p / (p + q) * _beta_mass(p + 1.0, q, a, b)
    else:  # truncnorm: the standard normal restricted to [ta, tb]
        ta, tb = params["a"], params["b"]
        total = float(_normal_mass(np.array(ta), np.array(tb)))
        if not total > 0:
            return _generic(_truncnorm_functions(params), lo, hi, slope, intercept)
        a, b = np.clip(a, ta, tb), np.clip(b, ta, tb)
        mass, moment = _normal_mass(a, b) / total, (_phi(a) - _phi(b)) / total
    # ∫ (s x + c) f dx = (s·loc + c)·M0 + s·scale·∫ z g(z) dz, with z = (x - loc)/scale.
    num = np.sum((slope * loc + intercept) * mass + slope * scale * moment)
    return float(num), float(np.sum(mass))


def _phi(z):
    return np.exp(-0.5 * np.square(z)) / np.sqrt(2.0 * np.pi)


def _normal_mass(a, b):
    """Φ(b) - Φ(a) for a <= b, in the upper tail as Φ(-a) - Φ(-b) so that nothing cancels."""
    from scipy.special import ndtr

    return np.where(a > 0, ndtr(-a) - ndtr(-b), ndtr(b) - ndtr(a))


def _beta_mass(p, q, a, b):
    """I_b(p, q) - I_a(p, q) for 0 <= a <= b <= 1, from the complements past the median."""
    from scipy.special import betainc, betaincc

    low = betainc(p, q, a)
    return np.where(low < 0.5, betainc(p, q, b) - low, betaincc(p, q, a) - betaincc(p, q, b))


def _truncnorm_functions(params):
    from scipy import stats

    d = stats.truncnorm(params["a"], params["b"], loc=params["loc"], scale=params["scale"])
    return d.cdf, d.sf, d.ppf, d.isf


# ---------------------------------------------------------------------- any distribution
def _generic(functions, lo, hi, slope, intercept):
    """Masses from cdf/sf differences; ∫ (x - a) f over [a, b] as a quantile integral."""
    cdf, sf, ppf, isf = functions
    lo_cdf, hi_cdf = np.asarray(cdf(lo), float), np.asarray(cdf(hi), float)
    upper = lo_cdf >= 0.5  # pieces in the upper half: work with the survival function
    lo_sf, hi_sf = np.asarray(sf(lo), float), np.asarray(sf(hi), float)
    mass = np.where(upper, lo_sf - hi_sf, hi_cdf - lo_cdf)
    mass = np.maximum(mass, 0.0)
    # ∫_a^b (x - a) f(x) dx = ∫ (Q(u) - a) du over u in [F(a), F(b)], or over the
    # survival probabilities v in [S(b), S(a)] with Q = isf(v) in the upper half.
    rest = np.zeros_like(mass)
    live = np.flatnonzero(mass > 0)
    if len(live):
        u0 = np.where(upper, hi_sf, lo_cdf)[live]
        u1 = np.where(upper, lo_sf, hi_cdf)[live]
        rest[live] = _quantile_integrals(ppf, isf, lo[live], hi[live], u0, u1, upper[live])
    num = np.sum((slope * lo + intercept) * mass + slope * rest)
    return float(num), float(np.sum(mass))


def _quantile_integrals(ppf, isf, a, b, u0, u1, upper):
    """∫ (Q(u) - a) du over [u0, u1] per piece, by vectorized adaptive Gauss-Kronrod.

    An interval is accepted when its Kronrod and Gauss estimates differ by at
    most ``_RULE_TOL`` times its probability ``u1 - u0``, so the accepted error
    of a piece is at most about ``_RULE_TOL·M0``; the others are halved, all
    at once. Q is monotone and clipped to [a, b], so the integrand is bounded
    and an interval at a kink or an endpoint singularity (Q ~ sqrt(u)) shrinks
    fast; after ``_MAX_HALVINGS`` an interval is taken as it is. Differences
    that rounding alone explains are accepted (see ``noise``).
    """
    out = np.zeros(len(a))
    piece = np.arange(len(a))
    for level in range(_MAX_HALVINGS + 1):
        half = 0.5 * (u1 - u0)
        u = (u0 + half)[:, None] + half[:, None] * _NODES[None, :]
        q = np.where(upper[piece][:, None], isf(u), ppf(u))
        q = np.clip(q, a[piece][:, None], b[piece][:, None]) - a[piece][:, None]
        kronrod = half * (q @ _KRONROD)
        gauss = half * (q @ _GAUSS)
        # Rounding bounds what any rule can do: a quantile function may be computed
        # from 1 - u (scipy's isf often is), so Q(u) is known to about eps·ΔQ/Δu, and
        # x - a to eps·|b|. Over the accepted intervals of a piece these add up to a
        # few eps·(M0·|b| + (b - a)), whatever the halving.
        noise = 16 * _EPS * ((u1 - u0) * np.abs(b[piece]) + (q.max(axis=1) - q.min(axis=1)))
        done = np.abs(kronrod - gauss) <= _RULE_TOL * (u1 - u0) + noise
        if level == _MAX_HALVINGS or len(piece) > _MAX_INTERVALS:
            done[:] = True
        np.add.at(out, piece[done], kronrod[done])
        if done.all():
            break
        keep = ~done
        mid = (u0 + half)[keep]
        piece = np.repeat(piece[keep], 2)
        u0, u1 = np.stack((u0[keep], mid), 1).ravel(), np.stack((mid, u1[keep]), 1).ravel()
    return out


# ---------------------------------------------------------------------- plain callables
def _by_quadrature(pdf, lo, hi, slope, intercept):
    """Adaptive quadrature of p and (x - a)·p on each piece [a, b] (no kink inside one)."""
    from scipy.integrate import quad

    p = lambda t: float(pdf(t))  # noqa: E731 - quad wants a scalar function
    # Interior probes only: integrable densities such as Beta(0.5, 0.5) are infinite
    # at 0 and 1, and quadrature never evaluates the end points.
    probe = np.asarray([p(t) for t in np.linspace(0.0, 1.0, 33)[1:-1]])
    if np.any(probe < 0) or not np.all(np.isfinite(probe)):
        raise ValueError("density must be finite and >= 0 inside (0, 1).")
    num = mass = 0.0
    for a, b, s, c in zip(lo.tolist(), hi.tolist(), slope.tolist(), intercept.tolist()):
        piece_mass, _ = quad(p, a, b, limit=200)
        piece_rest, _ = quad(lambda t, a=a: (t - a) * p(t), a, b, limit=200)
        num += (s * a + c) * piece_mass + s * piece_rest
        mass += piece_mass
    return num, mass
