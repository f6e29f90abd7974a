"""What a band covers, measured: the figures the widget and the docs state next to a band.

A band's level is its nominal one; what it covers is measured, and said where it falls short
(a level printed is a level measured). Two kinds of figure:

* a fixed rule's score band (MOVER–Wilson, :mod:`.score_band`): exact coverage by enumeration
  of both binomials, n = 20-100 cases × TPR {0.6, 0.8, 0.95} × FPR {0.1, 0.2, 0.3} × PCF(+)
  {0.2, 0.5, 0.8} (``benchmarks/coverage_fixed_band.py``);
* the envelope's band (the basic bootstrap interval of the best cost, re-optimized in every
  replicate): coverage of the true best cost in simulation, binormal scores with d′ 0.8, 1.2
  and 1.6, 40 % positives, PCF(+) 0.1-0.9, B = 1000, 200 samples per d′ (100 at n = 1000)
  (``benchmarks/coverage_band.py``). It falls short of its nominal level: a minimum over
  thresholds is biased down, and neither the bias-corrected, the m-out-of-n nor the double
  (calibrated) bootstrap brought it to the level at these sizes
  (``benchmarks/coverage_envelope_methods.py``, docs/user_guide/uncertainty.md).

* the envelope's band of money per case, for per-case costs (:mod:`.case_bands`): coverage
  of the population's best money per case in simulation (``benchmarks/coverage_case_band.py``);
  its own table, never the per-class figures (heavy-tailed amounts are another population).

Only level 0.9 was measured; at another level a band says its nominal level and that its
coverage was not measured.
"""

from __future__ import annotations

import math

__all__ = [
    "CASE_ENVELOPE_COVERAGE",
    "ENVELOPE_COVERAGE",
    "FIXED_COVERAGE",
    "envelope_coverage",
    "coverage_words",
]

#: level -> ((cases, lowest coverage, highest coverage), ...) of the envelope's default band,
#: lowest and highest over d′ {0.8, 1.2, 1.6} × PCF(+) 0.1-0.9 (benchmarks/coverage_band.py).
ENVELOPE_COVERAGE = {0.9: ((50, 0.56, 0.80), (200, 0.66, 0.84), (1000, 0.76, 0.89))}

#: level -> (lowest, mean) exact coverage of a fixed rule's score band over the grid above, n =
#: 20-100 cases split evenly (benchmarks/coverage_fixed_band.py).
FIXED_COVERAGE = {0.9: (0.876, 0.908)}

#: level -> ((cases, lowest coverage, highest coverage), ...) of the per-case envelope band
#: (basic interval, B = 1000) of the population's best money per case, at the setting's own
#: PCF(+): binormal scores d' 1.2, 30 % positives, lognormal(3, 1.2) amounts missed, with and
#: without a fee of 10 on flagged cases; 200 samples (s.e. 0.035), 100 at n = 1000 (s.e.
#: 0.05) (benchmarks/coverage_case_band.py). Far below the level: the best of the sample's
#: thresholds is biased low by about 1.5 of its standard errors (at n = 1000), and the
#: bootstrap sees a third of that bias.
CASE_ENVELOPE_COVERAGE = {0.9: ((50, 0.500, 0.525), (200, 0.580, 0.600), (1000, 0.580, 0.720))}


def envelope_coverage(level: float, n: int, table=None):
    """``(cases, lowest, highest)`` measured for the envelope band at ``level`` with the size
    nearest ``n`` (on a log scale), or None where ``level`` was not measured; ``table`` is
    :data:`ENVELOPE_COVERAGE` (the default) or :data:`CASE_ENVELOPE_COVERAGE`.

    Examples
    --------
    >>> envelope_coverage(0.9, 70)[0], envelope_coverage(0.9, 150)[0], envelope_coverage(0.8, 200)
    (50, 200, None)
    """
    table = ENVELOPE_COVERAGE if table is None else table
    rows = table.get(round(float(level), 6))
    if not rows or not n or n <= 0:
        return None
    return min(rows, key=lambda row: abs(math.log(row[0] / n)))


def _pct(v: float, *, down: bool = False) -> str:
    """A coverage in percent; a lowest one rounded down, so that "at least" stays true."""
    return f"{math.floor(100 * v + 1e-9) if down else round(100 * v)} %"


def coverage_words(attrs, n=None) -> str:
    """A band's level in words, with what it covers where that was measured.

    Parameters
    ----------
    attrs : dict
        A band's ``attrs`` (:meth:`Classifier.band`): ``level``, ``threshold`` and
        ``interval``.
    n : int, optional
        The classifier's number of cases (for the envelope band's nearest measured size).

    Examples
    --------
    >>> coverage_words({"level": 0.9, "threshold": "envelope", "interval": "basic"}, 180)
    'nominal 90 %; covers 66–84 % at n = 200 (simulated)'
    >>> coverage_words({"level": 0.9, "threshold": 0.5, "interval": "score"})
    '90 %; covers ≥ 87 % (exact, n = 20–100)'
    >>> coverage_words({"level": 0.8, "threshold": "envelope", "interval": "basic"}, 180)
    'nominal 80 %; coverage not measured'
    >>> coverage_words({"level": 0.8, "threshold": "envelope", "interval": "basic",
    ...                 "costs": "per case"}, 180)
    'nominal 80 %; coverage not measured'
    """
    level = float(attrs["level"])
    nominal = _pct(level)
    if attrs.get("costs") == "per case":
        return _case_words(attrs, n, nominal)
    if attrs.get("interval") == "score":
        known = FIXED_COVERAGE.get(round(level, 6))
        if known is None:
            return f"{nominal}; coverage not measured"
        return f"{nominal}; covers ≥ {_pct(known[0], down=True)} (exact, n = 20–100)"
    if attrs.get("threshold") == "envelope" and attrs.get("interval") == "basic":
        measured = envelope_coverage(level, n)
        if measured is None:
            return f"nominal {nominal}; coverage not measured"
        cases, lo, hi = measured
        lowest = _pct(lo, down=True).removesuffix(" %")
        return f"nominal {nominal}; covers {lowest}–{_pct(hi)} at n = {cases} (simulated)"
    return f"nominal {nominal}; coverage not measured"


def _case_words(attrs, n, nominal: str) -> str:
    """:func:`coverage_words` of a band of money per case: its own measured figures only."""
    measured = None
    if attrs.get("threshold") == "envelope" and attrs.get("interval") == "basic":
        measured = envelope_coverage(float(attrs["level"]), n, CASE_ENVELOPE_COVERAGE)
    if measured is None:
        return f"nominal {nominal}; coverage not measured"
    cases, lo, hi = measured
    lowest = _pct(lo, down=True).removesuffix(" %")
    return (
        f"nominal {nominal}; covers {lowest}–{_pct(hi)} of the best money per case at "
        f"n = {cases} (simulated)"
    )
