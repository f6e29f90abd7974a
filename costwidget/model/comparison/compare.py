"""Comparing classifiers in cost space: crossovers, who wins where, and the combined envelope."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..base.fields import check_classifier
from ..kernels.costs import cost_line_value
from ..kernels.envelope import Envelope
from ..kernels.hull import upper_hull

__all__ = ["Comparison", "compare", "combined_envelope"]


@dataclass(frozen=True)
class Comparison:
    """How two classifiers' lower envelopes compare over pcf in [0, 1].

    Attributes
    ----------
    crossovers : ndarray
        Every interior pcf where the envelopes cross (change sign of
        ``nec_a - nec_b``), sorted. When the sign changes across an interval
        where the two tie, the crossover is the start of that interval.
    intervals : DataFrame
        ``pcf_lo``, ``pcf_hi``, ``classifier`` (the winner's name, or ``"tie"``): the whole of
        [0, 1] split by who has the lower NEC.
    max_difference : float
        max |nec_a - nec_b| over [0, 1], and ``max_difference_at``, where.
    a_better_by, a_better_at, b_better_by, b_better_at : float
        Largest advantage of each (``nec_b - nec_a`` resp. ``nec_a - nec_b``)
        and where; 0 and NaN when a classifier is never strictly better.

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    >>> c = cw.compare(a, cw.Classifier.from_roc([0.5], [0.5], name="coin"))
    >>> c.crossovers.tolist(), round(c.a_better_by, 6), c.b_better_by
    ([], 0.2, 0.0)
    """

    name_a: str
    name_b: str
    crossovers: np.ndarray
    intervals: pd.DataFrame
    max_difference: float
    max_difference_at: float
    a_better_by: float
    a_better_at: float
    b_better_by: float
    b_better_at: float


def _difference_knots(a, b):
    # Both envelopes are linear between their breakpoints, so the difference is too.
    x = np.union1d(a.envelope.pcf.to_numpy(), b.envelope.pcf.to_numpy())
    return x, a.nec(x) - b.nec(x)


def compare(a, b, *, atol: float = 1e-12) -> Comparison:
    """Compare two classifiers' lower envelopes exactly.

    The difference of two piecewise-linear envelopes is piecewise linear on
    the union of their breakpoints, so its sign changes and extremes are found
    exactly from its values there. Differences within ``atol`` count as ties.

    Parameters
    ----------
    a, b : Classifier
    atol : float, default=1e-12
        NEC differences within this count as ties.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    >>> b = cw.Classifier.from_confusion(tp=9, fn=1, fp=5, tn=5, name="B")
    >>> c = cw.compare(a, b)
    >>> c.crossovers.round(6).tolist()
    [0.5]
    >>> c.intervals.classifier.tolist()
    ['tie', 'A', 'B', 'tie']
    """
    check_classifier(a, "a")
    check_classifier(b, "b")
    name_a = a.name if a.name is not None else "a"
    name_b = b.name if b.name is not None else "b"
    if name_a == name_b:
        name_a, name_b = f"{name_a} (a)", f"{name_b} (b)"
    x, d = _difference_knots(a, b)
    sign = np.where(d > atol, 1, np.where(d < -atol, -1, 0))
    # Split every knot interval at an interior root of the linear difference.
    cuts = [x[0]]
    labels = []
    crossovers = []
    for i in range(len(x) - 1):
        s0, s1 = sign[i], sign[i + 1]
        if s0 * s1 < 0:
            root = x[i] + (x[i + 1] - x[i]) * d[i] / (d[i] - d[i + 1])
            crossovers.append(root)
            cuts.append(root)
            labels.append(s0)
            cuts.append(x[i + 1])
            labels.append(s1)
        else:
            cuts.append(x[i + 1])
            labels.append(s0 if s0 != 0 else s1)
    crossovers += _crossovers_through_ties(x, sign)
    names = {1: name_b, -1: name_a, 0: "tie"}
    frame = _merge_runs(np.asarray(cuts), [names[s] for s in labels])
    pos = np.argmax(d)
    neg = np.argmin(d)
    absmax = np.argmax(np.abs(d))
    return Comparison(
        name_a=name_a,
        name_b=name_b,
        crossovers=np.sort(np.asarray(crossovers, dtype=np.float64)),
        intervals=frame,
        max_difference=float(abs(d[absmax])),
        max_difference_at=float(x[absmax]),
        a_better_by=float(max(-d[neg], 0.0)),
        a_better_at=float(x[neg]) if d[neg] < -atol else np.nan,
        b_better_by=float(max(d[pos], 0.0)),
        b_better_at=float(x[pos]) if d[pos] > atol else np.nan,
    )


def _crossovers_through_ties(x: np.ndarray, sign: np.ndarray) -> list[float]:
    """Sign changes across a tie: + before, 0 on one knot or a run of knots, - after.

    Reported where the tie starts, so a leader change is never missed even when
    the envelopes share a segment between the two sides.
    """
    out = []
    i = 1
    while i < len(x) - 1:
        if sign[i] == 0 and sign[i - 1] != 0:
            j = i
            while j < len(x) - 1 and sign[j] == 0:
                j += 1
            if sign[i - 1] * sign[j] < 0:
                out.append(float(x[i]))
            i = j
        else:
            i += 1
    return out


def _merge_runs(cuts: np.ndarray, labels: list[str]) -> pd.DataFrame:
    lo, hi, who = [], [], []
    for i, label in enumerate(labels):
        if cuts[i + 1] <= cuts[i]:
            continue
        if who and who[-1] == label and hi[-1] == cuts[i]:
            hi[-1] = cuts[i + 1]
        else:
            lo.append(cuts[i])
            hi.append(cuts[i + 1])
            who.append(label)
    return pd.DataFrame({"pcf_lo": lo, "pcf_hi": hi, "classifier": who})


def combined_envelope(classifiers) -> pd.DataFrame:
    """The "best of all" lower envelope of several classifiers, and who wins where.

    It is the envelope of the convex hull of all their hull vertices. Where
    two classifiers share a vertex, the first in the list is named.

    Parameters
    ----------
    classifiers : iterable of Classifier
        Unnamed ones are called ``"classifier i"`` by their place in the list.

    Returns
    -------
    DataFrame
        One row per pcf interval: ``pcf_lo``, ``pcf_hi``, ``classifier``,
        ``threshold``, ``fpr``, ``tpr``, and ``nec_lo``/``nec_hi``, the
        combined envelope at both ends.

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    >>> b = cw.Classifier.from_confusion(tp=9, fn=1, fp=5, tn=5, name="B")
    >>> cw.combined_envelope([a, b])[["pcf_lo", "pcf_hi", "classifier"]].round(4)
       pcf_lo  pcf_hi    classifier
    0  0.0000  0.3000  all negative
    1  0.3000  0.5000             A
    2  0.5000  0.8333             B
    3  0.8333  1.0000  all positive
    """
    classifiers = list(classifiers)
    if not classifiers:
        raise ValueError("combined_envelope needs at least one classifier.")
    for i, clf in enumerate(classifiers):
        check_classifier(clf, f"classifiers[{i}]")
    fpr, tpr, thr, owner = [], [], [], []
    for i, clf in enumerate(classifiers):
        hull = clf.hull
        fpr.append(hull.fpr.to_numpy())
        tpr.append(hull.tpr.to_numpy())
        thr.append(hull.threshold.to_numpy())
        owner.append(np.full(len(hull), i))
    fpr, tpr, thr, owner = map(np.concatenate, (fpr, tpr, thr, owner))
    order = np.lexsort((owner, tpr, fpr))
    fpr, tpr, thr, owner = fpr[order], tpr[order], thr[order], owner[order]
    first = np.concatenate(([True], (fpr[1:] != fpr[:-1]) | (tpr[1:] != tpr[:-1])))
    fpr, tpr, thr, owner = fpr[first], tpr[first], thr[first], owner[first]
    hull = upper_hull(fpr, tpr)
    env = Envelope(fpr[hull], tpr[hull])
    lo, hi, k = env.segments()
    names = []
    for vertex in hull[k]:
        if fpr[vertex] == 0 and tpr[vertex] == 0:
            names.append("all negative")
        elif fpr[vertex] == 1 and tpr[vertex] == 1:
            names.append("all positive")
        else:
            clf = classifiers[owner[vertex]]
            names.append(clf.name if clf.name is not None else f"classifier {owner[vertex]}")
    v = hull[k]
    return pd.DataFrame(
        {
            "pcf_lo": lo,
            "pcf_hi": hi,
            "classifier": names,
            "threshold": thr[v],
            "fpr": fpr[v],
            "tpr": tpr[v],
            "nec_lo": cost_line_value(fpr[v], tpr[v], lo),
            "nec_hi": cost_line_value(fpr[v], tpr[v], hi),
        }
    )
