"""Expected NEC under a density of pcf (Drummond & Holte (2000), eq. 11) against closed forms.

Independent references: exact Fraction integrals of piecewise-polynomial
densities over the brute-force envelope (uniform, beta, triangular), the
closed form ``NEC(c) - σ·|Δslope|/sqrt(2π)`` for a narrow normal centred on a
kink, partial expectations of the gamma and lognormal distributions, and
adaptive quadrature for wide smooth densities. No RuntimeWarning may escape.
"""

import math
from fractions import Fraction

import brute
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, special, stats
from test_model_roc import scored_data

import costwidget as cw

# New-style distributions (stats.Normal, stats.Uniform) exist from SciPy 1.15; older SciPys (the
# floor is 1.12) test the classic ones only.
NEW_STYLE = hasattr(stats, "Normal")

pytestmark = pytest.mark.filterwarnings("error")

ATOL = 1e-14


def _exact_rates(labels, scores):
    _, tp, fp = brute.roc_points(labels, scores)
    return [Fraction(f, fp[-1]) for f in fp], [Fraction(t, tp[-1]) for t in tp]


# ---------------------------------------------------------------- polynomial densities, exactly
@settings(max_examples=40)
@given(
    data=scored_data(max_n=12),
    shape=st.sampled_from([(1, 1), (2, 3), (3, 2), (2, 5), (5, 5), (1, 4)]),
)
def test_beta_equals_exact_fraction_integral(data, shape):
    labels, scores, _ = data
    clf = cw.Classifier.from_scores(labels, scores)
    f, t = _exact_rates(labels, scores)
    exact = brute.exact_expected_nec(f, t, brute.beta_density_pieces(*shape))
    assert clf.total_expected_cost(stats.beta(*shape)) == pytest.approx(float(exact), abs=ATOL)
    # shapes given by keyword, and a beta on a sub-interval (loc/scale), are parsed the same way
    a, b = shape
    assert clf.total_expected_cost(stats.beta(a=a, b=b)) == pytest.approx(float(exact), abs=ATOL)


@settings(max_examples=40)
@given(
    data=scored_data(max_n=12),
    support=st.sampled_from([(0.0, 1.0), (0.25, 0.5), (0.125, 0.0625), (-0.5, 1.0), (0.5, 2.0)]),
)
def test_uniform_equals_exact_fraction_integral(data, support):
    labels, scores, _ = data
    loc, scale = support
    clf = cw.Classifier.from_scores(labels, scores)
    f, t = _exact_rates(labels, scores)
    pieces = [(Fraction(loc), Fraction(loc) + Fraction(scale), [1 / Fraction(scale)])]
    exact = brute.exact_expected_nec(f, t, pieces)
    got = clf.total_expected_cost(stats.uniform(loc=loc, scale=scale))
    assert got == pytest.approx(float(exact), abs=ATOL)
    if support == (0.0, 1.0):
        assert got == pytest.approx(clf.area(), abs=ATOL)
        if NEW_STYLE:
            assert clf.total_expected_cost(stats.Uniform(a=0.0, b=1.0)) == pytest.approx(
                got, abs=ATOL
            )


@settings(max_examples=30)
@given(data=scored_data(max_n=12))
def test_triangular_through_the_generic_quantile_path(data):
    # No closed form in the code for triang: masses from cdf/sf, moments from the
    # quantile function. The density has a kink at its mode and sqrt quantiles at its ends.
    labels, scores, _ = data
    clf = cw.Classifier.from_scores(labels, scores)
    f, t = _exact_rates(labels, scores)
    half = Fraction(1, 2)
    pieces = [
        (Fraction(0), half, [Fraction(0), Fraction(4)]),
        (half, Fraction(1), [Fraction(4), Fraction(-4)]),
    ]
    exact = brute.exact_expected_nec(f, t, pieces)
    assert clf.total_expected_cost(stats.triang(0.5)) == pytest.approx(float(exact), abs=ATOL)


# ---------------------------------------------------------------- narrow and point-like densities
KINKED = dict(tp=7, fn=3, fp=3, tn=7)  # NEC = min(x, 0.3, 1 - x): kinks at 0.3 (Δslope 1) and 0.7


@pytest.mark.parametrize("sd", [1e-4, 1e-5, 1e-9, 1e-12])
def test_narrow_normal_on_a_kink(sd):
    # E[min(s1 (X - c), s2 (X - c))] = -σ |s1 - s2| φ(0) for X ~ N(c, σ²): exact, the
    # mass outside [0, 1] being < 1e-1000.
    clf = cw.Classifier.from_confusion(**KINKED)
    c = clf.operating_range.lo  # 0.3 as the classifier has it
    expected = float(clf.nec(c)) - sd / math.sqrt(2 * math.pi)
    assert clf.total_expected_cost(stats.norm(c, sd)) == pytest.approx(expected, abs=1e-16)
    if NEW_STYLE:
        assert clf.total_expected_cost(stats.Normal(mu=c, sigma=sd)) == pytest.approx(
            expected, abs=1e-16
        )


@pytest.mark.parametrize("sd", [1e-4, 1e-5, 1e-9, 1e-300])
@pytest.mark.parametrize("mean", [0.2, 0.5, 0.85])
def test_narrow_normal_inside_a_linear_piece_is_the_line_at_its_mean(sd, mean):
    clf = cw.Classifier.from_confusion(**KINKED)
    assert clf.total_expected_cost(stats.norm(mean, sd)) == pytest.approx(clf.nec(mean), abs=1e-16)


@pytest.mark.parametrize("c", [0.2, 0.3, 0.5, 1 - 2**-40])
def test_point_like_uniform_is_the_envelope_at_its_point(c):
    clf = cw.Classifier.from_confusion(**KINKED)
    width = 2.0**-45
    got = clf.total_expected_cost(stats.uniform(loc=c, scale=width))
    # linear across the tiny support except at a kink, where the mean of two lines is within width
    assert got == pytest.approx(clf.nec(c + width / 2), abs=width)


@settings(max_examples=30)
@given(
    data=scored_data(max_n=12), mean=st.floats(0.05, 0.95), sd=st.sampled_from([1e-4, 1e-5, 1e-9])
)
def test_narrow_normal_equals_the_envelope_locally(data, mean, sd):
    # Within 40 sd of the mean the envelope is at most two lines (or one): the exact local
    # expectation is the line at the mean, minus σ|Δs|φ(z)-terms only near a kink.
    labels, scores, _ = data
    clf = cw.Classifier.from_scores(labels, scores)
    pieces = brute.exact_envelope_pieces(*_exact_rates(labels, scores))
    near = [p for p in pieces if float(p[1]) > mean - 40 * sd and float(p[0]) < mean + 40 * sd]
    expected = 0.0
    for lo, hi, s, c in near:
        a, b = (float(lo) - mean) / sd, (float(hi) - mean) / sd
        mass = special.ndtr(b) - special.ndtr(a)
        phi = lambda z: math.exp(-z * z / 2) / math.sqrt(2 * math.pi) if abs(z) < 40 else 0.0  # noqa: E731
        expected += (float(s) * mean + float(c)) * mass + float(s) * sd * (phi(a) - phi(b))
    assert clf.total_expected_cost(stats.norm(mean, sd)) == pytest.approx(expected, abs=1e-15)


# ---------------------------------------------------------------- other families, normalization
def _pieces_of(clf):
    seg = clf.segments
    return list(zip(seg.pcf_lo, seg.pcf_hi, 1 - seg.tpr - seg.fpr, seg.fpr))


@pytest.mark.parametrize("k,theta", [(2.0, 0.1), (0.7, 0.5), (5.0, 0.05)])
def test_gamma_against_its_partial_expectation(k, theta):
    # ∫_a^b x f_k(x/θ)/θ dx = kθ (F_{k+1}(b/θ) - F_{k+1}(a/θ)): the code never uses this.
    rng = np.random.default_rng(int(k * 10))
    y = rng.integers(0, 2, 400)
    clf = cw.Classifier.from_scores(y, rng.normal(size=400) + y)
    num = mass = 0.0
    for lo, hi, s, c in _pieces_of(clf):
        m0 = stats.gamma(k).cdf(hi / theta) - stats.gamma(k).cdf(lo / theta)
        m1 = k * theta * (stats.gamma(k + 1).cdf(hi / theta) - stats.gamma(k + 1).cdf(lo / theta))
        num += s * m1 + c * m0
        mass += m0
    assert clf.total_expected_cost(stats.gamma(k, scale=theta)) == pytest.approx(
        num / mass, abs=1e-13
    )


@pytest.mark.parametrize("sigma,scale", [(0.5, 0.3), (1.5, 0.2), (0.01, 0.6)])
def test_lognormal_against_its_partial_expectation(sigma, scale):
    # ∫_a^b x f dx = m e^{σ²/2} (Φ((ln(b/m) - σ²)/σ) - Φ((ln(a/m) - σ²)/σ)), m = scale.
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    clf = cw.Classifier.from_scores(y, rng.normal(size=300) + y)
    num = mass = 0.0
    with np.errstate(divide="ignore"):
        for lo, hi, s, c in _pieces_of(clf):
            za, zb = np.log(lo / scale) / sigma, np.log(hi / scale) / sigma
            m0 = special.ndtr(zb) - special.ndtr(za)
            m1 = (
                scale
                * math.exp(sigma**2 / 2)
                * (special.ndtr(zb - sigma) - special.ndtr(za - sigma))
            )
            num += s * m1 + c * m0
            mass += m0
    got = clf.total_expected_cost(stats.lognorm(sigma, scale=scale))
    assert got == pytest.approx(num / mass, abs=1e-13)


@pytest.mark.parametrize(
    "dist",
    [
        stats.norm(0.0, 0.1),
        stats.norm(0.9, 0.3),
        stats.norm(0.3, 0.05),
        stats.truncnorm(-1, 2, loc=0.4, scale=0.2),
        stats.truncnorm(0.5, 3, loc=0.1, scale=0.3),
    ],
)
def test_wide_densities_are_normalized_by_their_mass_on_the_unit_interval(dist):
    clf = cw.Classifier.from_confusion(tp=16, fn=4, fp=4, tn=6)
    pts = clf.envelope.pcf.to_numpy()
    f = lambda x: clf.nec(x) * dist.pdf(x)  # noqa: E731
    num = sum(
        integrate.quad(f, a, b, epsabs=1e-16, epsrel=1e-13, limit=200, full_output=1)[0]
        for a, b in zip(pts[:-1], pts[1:])
    )
    mass = dist.cdf(1.0) - dist.cdf(0.0)
    assert clf.total_expected_cost(dist) == pytest.approx(num / mass, abs=1e-13)


def test_no_mass_on_the_unit_interval_is_refused():
    clf = cw.Classifier.from_confusion(**KINKED)
    for dist in (stats.norm(5.0, 0.01), stats.uniform(loc=2.0, scale=1.0)):
        with pytest.raises(ValueError, match="no mass on \\[0, 1\\]"):
            clf.total_expected_cost(dist)
    with pytest.raises(ValueError, match="scipy.stats distribution"):  # a callable: a hint
        clf.total_expected_cost(stats.norm(0.3, 1e-9).pdf)


def test_discrete_and_non_densities_are_refused():
    clf = cw.Classifier.from_confusion(**KINKED)
    with pytest.raises(TypeError, match="continuous"):
        clf.total_expected_cost(stats.binom(10, 0.3))
    with pytest.raises(TypeError, match="density"):
        clf.total_expected_cost("uniform")
    with pytest.raises(ValueError, match="scale"):
        clf.total_expected_cost(stats.norm(0.3, 0.0))


def test_plain_callables_still_use_quadrature():
    clf = cw.Classifier.from_confusion(**KINKED)
    assert clf.total_expected_cost(lambda x: 1.0) == pytest.approx(clf.area(), abs=1e-14)
    assert clf.total_expected_cost(lambda x: 12 * x * (1 - x) ** 2) == pytest.approx(
        clf.total_expected_cost(stats.beta(2, 3)), abs=1e-12
    )


def test_gauss_kronrod_rule_is_exact_on_polynomials():
    from costwidget.model.decisions import integrate as integ

    for k in range(23):  # Kronrod 15: degree 22; Gauss 7: degree 13
        exact = (1 - (-1) ** (k + 1)) / (k + 1)
        assert integ._NODES**k @ integ._KRONROD == pytest.approx(exact, abs=1e-15)
        if k <= 13:
            assert integ._NODES**k @ integ._GAUSS == pytest.approx(exact, abs=1e-15)


def test_many_pieces_are_integrated_at_once():
    # 10^5 envelope pieces: each path agrees with the uniform closed form (the area).
    u = np.linspace(0, 1, 100_001)[1:-1]
    clf = cw.Classifier.from_roc(u, np.sqrt(1 - (1 - u) ** 2))
    assert len(clf.envelope) > 100_000
    area = clf.area()
    assert clf.total_expected_cost(stats.uniform()) == pytest.approx(area, abs=ATOL)
    assert clf.total_expected_cost(stats.beta(1, 1)) == pytest.approx(area, abs=ATOL)
    # the generic quantile path: a trapezoid with c = 0, d = 1 is the uniform density
    assert clf.total_expected_cost(stats.trapezoid(0.0, 1.0)) == pytest.approx(area, abs=ATOL)
