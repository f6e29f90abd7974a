"""How sure the headline is: a paired interval of the runner-up's cost minus the chosen one's.

"Deploy hgb …; next best forest, +0.001164" reads as a verdict even where the two models cannot
be told apart on the data. `runner_up_band` computes, for a `Decision`, the pointwise paired
bootstrap interval of ``NEC(runner-up) − NEC(chosen)`` at the decision's own PCF(+)
(`paired_interval_at`, Drummond & Holte (2004), sec. 9: the instances resampled, both
classifiers redrawn together, the percentile interval of the replicates). The verdict is about
one PCF(+) fixed before looking, so the interval is pointwise: the difference view's
simultaneous band covers the whole axis at once, and its critical value read at one point
almost never tells two classifiers apart (at level 0.9, n = 200: 12 % of samples where one
is truly better, against 56 % for this interval, whose false-alarm rate on equal classifiers
is 5–6 %; ``benchmarks/bench_runner_up_rates.py``). `decide(..., runner_up_band=band)` then says in the
headline whether the interval includes 0.

What the interval is of: without a constraint, and where the limit binds neither rule, both
rules are the classifiers' optimal thresholds, and the interval is that of their lower
envelopes (each re-optimized in every replicate). Where the limit binds a rule, it is that of
the two rules' costs with their thresholds held fixed (the joint 2×2×2 table); a randomized
rule (a mix of two thresholds) has no interval here. With per-case costs the cases are resampled
with their costs and the interval is of the two rules' money per case
(:mod:`costwidget.model.uncertainty.case_paired`), read in the decision's NEC scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..kernels.json_values import jsonable
from ..kernels.readable import readable, round_significant
from ..uncertainty.bands import scored_arrays
from ..uncertainty.case_paired import case_paired_interval
from ..uncertainty.paired import check_interval_args, paired_interval_at
from .per_case import cost_weighted

__all__ = ["RunnerUpBand", "runner_up_band", "fitting_band", "fits", "band_words"]


@dataclass(frozen=True)
class RunnerUpBand:
    """The pointwise paired interval of ``NEC(runner_up) − NEC(chosen)`` at one PCF(+).

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
        The difference in NEC on the data, and the interval's limits (positive: the runner-up
        costs more).
    level : float
        The interval's (pointwise) confidence level.
    n_boot : int
        The bootstrap replicates drawn.
    random_state : int or None
        The seed of the replicates; None where they were drawn afresh (or from a Generator).
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
    random_state: int | None

    @property
    def includes_zero(self) -> bool:
        """Whether the interval includes 0: this data cannot tell the two apart at this PCF(+)."""
        return self.lower <= 0.0 <= self.upper

    def to_dict(self) -> dict:
        """JSON-ready plain values (the page's ``decide`` takes and returns the same)."""
        return jsonable({f: getattr(self, f) for f in self.__dataclass_fields__})


def _fixed(clf, threshold: float) -> float:
    """A finite threshold that selects the cases ``threshold`` selects (±inf: none / every)."""
    if math.isfinite(threshold):
        return threshold
    scores = scored_arrays(clf, "runner_up_band")[1]
    return float(np.nextafter(scores.max(), np.inf)) if threshold > 0 else float(scores.min())


def _per_case_interval(a, b, rules, of, decision, level, n_boot, random_state):
    """`paired_interval_at` for classifiers with per-case costs: the cases resampled with their
    costs (`case_paired_interval`), the money per case difference divided by the decision's
    ``(P + N) / W`` (what the headline multiplies NEC by), so that the band reads in money."""
    if getattr(b, "case_costs", None) is None or not hasattr(a.case_costs, "tp"):
        raise ValueError(
            "runner_up_band with per-case costs needs the costs of every case of both "
            "classifiers (from_scores, from_frame); costs summed in a database have none."
        )
    ths = [None, None] if of == "envelopes" else [r.threshold for r in rules]
    m_fn, m_fp, p = decision.cost_fn, decision.cost_fp, decision.p_pos
    diff, lo, hi = case_paired_interval(
        a,
        b,
        m_fn=m_fn,
        m_fp=m_fp,
        p_pos=p,
        threshold_a=ths[0],
        threshold_b=ths[1],
        level=level,
        n_boot=n_boot,
        random_state=random_state,
    )
    _, (big_p, big_n, _, total) = cost_weighted(a, m_fn, m_fp, p)
    scale = (big_p + big_n) / total
    return diff / scale, lo / scale, hi / scale


def runner_up_band(
    classifiers, decision, *, level=0.90, n_boot=1000, random_state=None
) -> RunnerUpBand | None:
    """The paired interval of the runner-up's NEC minus the chosen classifier's, at the decision.

    A pointwise paired bootstrap interval at the decision's PCF(+) (:func:`paired_interval_at
    <costwidget.model.uncertainty.paired.paired_interval_at>`), not the difference view's
    simultaneous band: the verdict is about this one PCF(+). Measured at level 0.9 (n = 200,
    binormal scores, 120 samples each; ``benchmarks/bench_runner_up_rates.py``), it says
    "significantly more" for 5–6 % of pairs of equal classifiers and tells d′ 1.4 from 1.0 in
    56 % of samples.

    Parameters
    ----------
    classifiers : sequence of Classifier, or dict {name: Classifier}
        The classifiers the decision was made over (at least the chosen one and the runner-up).
    decision : Decision
        From :func:`decide`.
    level : float in (0, 1), default=0.90
        The interval's level (the widget passes its ``band_level``).
    n_boot : int >= 2, default=1000
        Bootstrap replicates.
    random_state : None, int or numpy Generator, default=None
        None draws afresh on every call (as :meth:`Classifier.band`); an int repeats the draws.

    Returns
    -------
    RunnerUpBand or None
        None where the headline names no runner-up: no classifier or one, a tie, PCF(+) 0 or 1
        (no case costs anything there), or no cost to compare.

    Raises
    ------
    ValueError, TypeError
        Where the arguments are wrong (a level outside (0, 1), ``n_boot`` < 2, a
        ``random_state`` that is not None, an int or a Generator), or where no paired
        interval exists, saying why: a classifier without scores (a confusion
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
    >>> band = cw.runner_up_band(clfs, d, n_boot=200, random_state=0)
    >>> (band.chosen, band.runner_up, band.of, band.includes_zero)
    ('a', 'b', 'envelopes', True)
    >>> cw.decide(clfs, p_pos=0.3, runner_up_band=band).headline
    'Deploy a at score ≥ 1.426: 0.2356 per case (FPR 5.08 %, TPR 33.3 %); next best b, +0.0004843, which this data cannot tell apart from a (paired 90 % interval at this PCF(+): 0 to +0.002857)'
    >>> two = {"a": clfs["a"], "weak": clfs["weak"]}
    >>> band = cw.runner_up_band(two, cw.decide(two, p_pos=0.3), n_boot=200, random_state=0)
    >>> cw.decide(two, p_pos=0.3, runner_up_band=band).headline
    'Deploy a at score ≥ 1.426: 0.2356 per case (FPR 5.08 %, TPR 33.3 %); next best weak, +0.05772, significantly more than a (paired 90 % interval at this PCF(+): +0.02959 to +0.08673)'
    >>> cw.decide(two, p_pos=0.4, runner_up_band=band).runner_up_band is None  # another PCF(+)
    True
    """
    level, n_boot = check_interval_args(level, n_boot, random_state)
    pcf, chosen = decision.pcf, decision.chosen
    if chosen is None or pcf == 0.0 or (pcf == 1.0 and decision.constraint == "none"):
        return None
    runner = decision.runner_up  # on the decision's scale: in-sample, or on new data
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
    if getattr(by_name[chosen], "case_costs", None) is not None:
        diff, lo, hi = _per_case_interval(
            by_name[chosen], by_name[runner], rules, of, decision, level, n_boot, random_state
        )
    else:
        ths = (
            [None, None]
            if of == "envelopes"
            else [_fixed(by_name[n], r.threshold) for n, r in zip((chosen, runner), rules)]
        )
        diff, lo, hi = paired_interval_at(
            by_name[chosen],
            by_name[runner],
            pcf,
            level,
            threshold_a=ths[0],
            threshold_b=ths[1],
            n_boot=n_boot,
            random_state=random_state,
        )
    # Only an int seed repeats the draws; a Generator's state is not recorded.
    seed = random_state if isinstance(random_state, (int, np.integer)) else None
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
        level=level,
        n_boot=n_boot,
        random_state=None if seed is None else int(seed),
    )


def fitting_band(band, parts, chosen, runner_up, pcf, constraint):
    """``band`` if it is of this decision (its pair ``chosen``, ``runner_up``, its PCF(+), its
    rules), else None: a band of an older state, or of another pair, is not said. Checks that it
    is a `RunnerUpBand`."""
    if band is None:
        return None
    if not isinstance(band, RunnerUpBand):
        raise TypeError(
            f"runner_up_band must be a RunnerUpBand (from cw.runner_up_band(...)) "
            f"or None, got {type(band).__name__}."
        )
    if pcf == 0.0 or (pcf == 1.0 and constraint == "none"):
        return None  # the headline names no runner-up there
    return band if fits(band, parts, chosen, runner_up, pcf) else None


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
    """The headline's clause for a fitting interval, in cost per case (``scale``: NEC to cost):
    the verdict, then which interval it reads (pointwise, paired, at this PCF(+))."""
    fixed = "" if band.of == "envelopes" else ", thresholds fixed"
    said = (
        f"paired {readable(round_significant(100.0 * band.level, 3))} % interval at this "
        f"PCF(+){fixed}: {_signed(band.lower * scale)} to {_signed(band.upper * scale)}"
    )
    if band.includes_zero:
        return f", which this data cannot tell apart from {chosen} ({said})"
    return f", significantly more than {chosen} ({said})"
