"""How sure the headline is: the paired band of the runner-up's cost minus the chosen one's.

"Deploy hgb …; next best forest, +0.001164" reads as a verdict even where the two models cannot
be told apart on the data. `runner_up_band` computes, for a `Decision`, the paired band of
``NEC(runner-up) − NEC(chosen)`` at the decision's PCF(+): the simultaneous paired bootstrap
band of the difference view (`difference_band`, Drummond & Holte (2004), sec. 9; the same
level, replicates and critical value), read at the operating point (`difference_at`).
`decide(..., runner_up_band=band)` then says in the headline whether the band includes 0.

What the band is of: without a constraint, and where the limit binds neither rule, both rules
are the classifiers' optimal thresholds, and the band is that of their lower envelopes (each
re-optimized in every replicate, as the difference view draws it). Where the limit binds a
rule, the band is that of the two rules' costs with their thresholds held fixed (the joint
2×2×2 table); a randomized rule (a mix of two thresholds) has no band here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..kernels.json_values import jsonable
from ..kernels.readable import lowest_names, readable, round_significant
from ..uncertainty.bands import scored_arrays
from ..uncertainty.paired import difference_at

__all__ = ["RunnerUpBand", "runner_up_band", "fitting_band", "fits", "band_words", "runner_up_name"]


@dataclass(frozen=True)
class RunnerUpBand:
    """The paired band of ``NEC(runner_up) − NEC(chosen)`` at one PCF(+).

    Attributes
    ----------
    chosen, runner_up : str
        The classifier deployed and the next best, as the decision named them.
    pcf : float
        The decision's PCF(+).
    of : {"envelopes", "rules"}
        Of the two lower envelopes (no rule bound by a constraint), or of the two rules'
        costs with their thresholds held fixed.
    threshold_chosen, threshold_runner_up : float or None
        The fixed thresholds (``of="rules"``), as the rules state them; None for envelopes.
    diff, lower, upper : float
        The difference in NEC on the data, and the band's limits (positive: the runner-up
        costs more).
    level : float
        The band's (simultaneous) confidence level.
    n_boot, grid, random_state : int
        As passed to `difference_band`.
    """

    chosen: str
    runner_up: str
    pcf: float
    of: str
    threshold_chosen: float | None
    threshold_runner_up: float | None
    diff: float
    lower: float
    upper: float
    level: float
    n_boot: int
    grid: int
    random_state: int

    @property
    def includes_zero(self) -> bool:
        """Whether the band includes 0: this data cannot tell the two apart at this PCF(+)."""
        return self.lower <= 0.0 <= self.upper

    def to_dict(self) -> dict:
        """JSON-ready plain values (the page's ``decide`` takes and returns the same)."""
        return jsonable({f: getattr(self, f) for f in self.__dataclass_fields__})


def runner_up_name(parts, chosen):
    """The next best classifier after ``chosen`` (the headline's "next best"), or None."""
    if chosen is None:
        return None
    others = [(c.name, {"cost": c.rule.expected_cost}) for c in parts if c.name != chosen]
    nxt = lowest_names(others, "cost")
    return nxt[0] if nxt else None


def _fixed(clf, threshold: float) -> float:
    """A finite threshold that selects the cases ``threshold`` selects (±inf: none / every)."""
    if math.isfinite(threshold):
        return threshold
    scores = scored_arrays(clf, "runner_up_band")[1]
    return float(np.nextafter(scores.max(), np.inf)) if threshold > 0 else float(scores.min())


def runner_up_band(
    classifiers, decision, *, level=0.90, n_boot=1000, grid=512, random_state=0
) -> RunnerUpBand | None:
    """The paired band of the runner-up's NEC minus the chosen classifier's, at the decision.

    Parameters
    ----------
    classifiers : sequence of Classifier, or dict {name: Classifier}
        The classifiers the decision was made over (at least the chosen one and the runner-up).
    decision : Decision
        From :func:`decide`.
    level : float in (0, 1), default=0.90
        The band's simultaneous level (the widget passes its ``band_level``).
    n_boot, grid, random_state : int
        As :func:`difference_band` takes them; the defaults are the difference view's, so the
        band is the one that view draws.

    Returns
    -------
    RunnerUpBand or None
        None where the headline names no runner-up: no classifier or one, a tie, PCF(+) 0 or 1
        (no case costs anything there), or no cost to compare.

    Raises
    ------
    ValueError, TypeError
        Where no paired band exists, saying why: a classifier without scores (a confusion
        matrix, ``from_roc``, counts), two classifiers not known to score the same cases,
        or a randomized rule under a binding constraint.

    Examples
    --------
    >>> import numpy as np
    >>> import costwidget as cw
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.3
    >>> s = y + rng.normal(size=400)
    >>> clfs = cw.classifiers_from_predictions(
    ...     y, {"a": s, "b": s + 0.01 * rng.normal(size=400), "weak": 0.3 * y + rng.normal(size=400)})
    >>> d = cw.decide(clfs, p_pos=0.3)
    >>> band = cw.runner_up_band(clfs, d, n_boot=200, grid=101)
    >>> (band.chosen, band.runner_up, band.of, band.includes_zero)
    ('a', 'b', 'envelopes', True)
    >>> cw.decide(clfs, p_pos=0.3, runner_up_band=band).headline
    'Deploy a at score ≥ 1.426: 0.2356 per case (FPR 5.08 %, TPR 33.3 %); next best b, +0.0004843, which this data cannot tell apart from a (simultaneous paired 90 % band of the difference: −0.007018 to +0.007987)'
    >>> two = {"a": clfs["a"], "weak": clfs["weak"]}
    >>> band = cw.runner_up_band(two, cw.decide(two, p_pos=0.3), n_boot=200, grid=101)
    >>> cw.decide(two, p_pos=0.3, runner_up_band=band).headline
    'Deploy a at score ≥ 1.426: 0.2356 per case (FPR 5.08 %, TPR 33.3 %); next best weak, +0.05772, significantly more than a (simultaneous paired 90 % band of the difference: +0.01083 to +0.1046)'
    >>> cw.decide(two, p_pos=0.4, runner_up_band=band).runner_up_band is None  # another PCF(+)
    True
    """
    pcf, chosen = decision.pcf, decision.chosen
    if chosen is None or pcf == 0.0 or (pcf == 1.0 and decision.constraint == "none"):
        return None
    runner = runner_up_name(decision.classifiers, chosen)
    if runner is None:
        return None
    by_name = (
        {str(k): c for k, c in classifiers.items()}
        if isinstance(classifiers, dict)
        else {c.name: c for c in classifiers}
    )
    missing = [n for n in (chosen, runner) if n not in by_name]
    if missing:
        raise ValueError(
            f"the decision's {missing} are not among the classifiers given "
            f"({sorted(by_name)}); pass the classifiers the decision was made over."
        )
    rules = [decision.of(chosen).rule, decision.of(runner).rule]
    if any(r.randomized for r in rules if r.binding):
        raise ValueError(
            "a rule the constraint binds mixes two thresholds at random; the paired "
            "band holds each classifier at one threshold, so no band is given here."
        )
    of = "rules" if any(r.binding for r in rules) else "envelopes"
    ths = (
        [None, None]
        if of == "envelopes"
        else [_fixed(by_name[n], r.threshold) for n, r in zip((chosen, runner), rules)]
    )
    diff, lo, hi = difference_at(
        by_name[chosen],
        by_name[runner],
        pcf,
        level,
        threshold_a=ths[0],
        threshold_b=ths[1],
        n_boot=n_boot,
        grid=grid,
        random_state=random_state,
    )
    fixed = [None, None] if of == "envelopes" else [r.threshold for r in rules]
    return RunnerUpBand(
        chosen=chosen,
        runner_up=runner,
        pcf=pcf,
        of=of,
        threshold_chosen=fixed[0],
        threshold_runner_up=fixed[1],
        diff=-diff,
        lower=-hi,
        upper=-lo,
        level=float(level),
        n_boot=int(n_boot),
        grid=int(grid),
        random_state=int(random_state),
    )


def fitting_band(band, parts, chosen, pcf, constraint):
    """``band`` if it is of this decision (its pair, its PCF(+), its rules), else None: a band
    of an older state, or of another pair, is not said. Checks that it is a `RunnerUpBand`."""
    if band is None:
        return None
    if not isinstance(band, RunnerUpBand):
        raise TypeError(
            f"runner_up_band must be a RunnerUpBand (from cw.runner_up_band(...)) "
            f"or None, got {type(band).__name__}."
        )
    if pcf == 0.0 or (pcf == 1.0 and constraint == "none"):
        return None  # the headline names no runner-up there
    return band if fits(band, parts, chosen, runner_up_name(parts, chosen), pcf) else None


def fits(band, parts, chosen, runner_up, pcf) -> bool:
    """Whether ``band`` is of the pair ``chosen``, ``runner_up`` at ``pcf`` with their rules."""
    if band.chosen != chosen or band.runner_up != runner_up or band.pcf != pcf:
        return False
    rules = [c.rule for n in (chosen, runner_up) for c in parts if c.name == n]
    if band.of == "envelopes":
        return not any(r.binding for r in rules)
    return (
        any(r.binding for r in rules)
        and not any(r.randomized for r in rules)
        and [band.threshold_chosen, band.threshold_runner_up] == [r.threshold for r in rules]
    )


def _signed(x: float) -> str:
    x = float(x) + 0.0
    return "0" if x == 0.0 else ("+" if x > 0 else "−") + readable(abs(x))


def band_words(band, chosen: str, scale: float) -> str:
    """The headline's clause for a fitting band, in cost per case (``scale``: NEC to cost)."""
    what = (
        "the difference"
        if band.of == "envelopes"
        else "the two rules' difference, thresholds held fixed"
    )
    said = (
        f"simultaneous paired {readable(round_significant(100.0 * band.level, 3))} % band "
        f"of {what}: {_signed(band.lower * scale)} to {_signed(band.upper * scale)}"
    )
    if band.includes_zero:
        return f", which this data cannot tell apart from {chosen} ({said})"
    return f", significantly more than {chosen} ({said})"
