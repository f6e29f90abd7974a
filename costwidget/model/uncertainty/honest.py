"""The honest cost: what the threshold chosen on this data costs on cases it was not chosen on.

The lower envelope is the cost of the best threshold chosen on the cases it is scored on, so it
is optimistic (Al-Saffar (2018) warns that the ROC convex hull "may lead to overfitting";
Drummond & Holte (2004), sec. 8, bound the envelope's sampling error but not this selection
bias). :func:`honest_cost` judges every case by a threshold chosen without it (the kernels are
in :mod:`costwidget.model.kernels.out_of_fold`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..base.fields import check_classifier
from ..kernels.costs import cost_scale
from ..kernels.out_of_fold import (
    FoldRows,
    PooledSteps,
    check_n_splits,
    fold_rule,
    sorted_case_rows,
    split_table,
    stratified_codes,
    table_training,
)
from ..kernels.roc import corner_counts, in_units, sorted_roc_counts
from ..kernels.validation import check_pcf, check_probability, check_random_state

__all__ = ["honest_cost", "honest_at", "honest_winners"]


def honest_cost(
    clf,
    pcf=None,
    *,
    n_splits=5,
    n_repeats=10,
    random_state=None,
    cost_fn=1.0,
    cost_fp=1.0,
    p_pos=None,
) -> pd.DataFrame:
    """The cost on new data of the threshold tuned at each PCF(+), beside the lower envelope.

    At each PCF(+) every case is classified by the threshold that is best there
    (:meth:`Classifier.best`, with its tie rule) on the *other* folds' cases pooled, applied as
    it would be deployed: positive where ``score >= threshold``. The honest NEC is the NEC of
    the pooled confusion matrix of these out-of-fold decisions (case weights included).

    * **With folds** (``clf.folds``, e.g. from ``from_estimator(cv=...)``,
      ``from_frame(fold=...)`` or ``from_counts(folds=...)``): the classifier's own folds. Exact
      and deterministic; ``n_splits``, ``n_repeats`` and ``random_state`` do not apply.
    * **Without folds**: stratified random splits (each class shuffled and dealt round-robin,
      as ``StratifiedKFold(shuffle=True)``) into ``n_splits``, repeated ``n_repeats`` times;
      the honest NEC is the mean over the repeats.

    Classifiers built from counts per score (``from_counts``, ``from_duckdb``,
    ``from_spark``) work from their counts: with folds exactly as from the cases counted (only
    sums of counts at or above a threshold are read). Without folds their whole-number counts
    are split by multivariate hypergeometric draws per class, which is the distribution of
    the counts that the random split of the cases themselves gives (see
    :func:`~costwidget.model.kernels.out_of_fold.split_table`); weighted counts without folds
    are refused. Scores grouped by the database (rounded) are split as groups.

    * **With per-case costs** (``cost_fn=`` ... of ``from_scores``/``from_frame``): the curve
      is of the cost-weighted cases at the multipliers ``cost_fn``, ``cost_fp`` and the
      prevalence ``p_pos`` of :func:`~costwidget.decide` (the twin of
      :func:`~costwidget.model.decisions.per_case.cost_weighted`, with the classifier's folds;
      random splits are stratified by the side each case counts on). Its columns are in
      that twin's NEC, and ``money`` is the money per case on new data, all four outcomes
      counted: the pooled out-of-fold errors of the thresholds tuned at the row's PCF(+),
      judged at the costs as given, ``NEC(p')·(P + N) / W + F / W`` with ``p' = P / (P + N)``.
      It is exact because the pooled matrix holds every case once per repeat with its
      weight, so its totals are ``P`` and ``N``. The decision's own PCF(+) is ``p'``
      (``attrs["per_case"]["pcf"]``): there ``money`` is ``nec·(P + N) / W + F / W``.

    Parameters
    ----------
    clf : Classifier
        Built from scores or counts per score.
    pcf : float or array-like, optional
        PCF(+) values in [0, 1]. ``None`` (default): every breakpoint of the honest curve
        (see Returns).
    n_splits : int, default=5
        Splits without folds: at least 2 and at most the number of cases of either class.
    n_repeats : int, default=10
        Repeats of the random splits, averaged.
    random_state : None, int or numpy Generator, default=None
        The random splits: an int repeats itself; ``None`` draws afresh (as ``band()``).
    cost_fn, cost_fp : float, default=1.0
        Per-case costs only: the multipliers of each case's ``cost_fn`` and ``cost_fp``.
    p_pos : float, optional
        Per-case costs only: the deployment prevalence (default the data's).

    Returns
    -------
    DataFrame
        ``pcf``, ``nec`` (the honest cost), ``envelope`` (``clf.nec(pcf)``) and ``optimism``
        (``nec - envelope``). The honest curve is linear between consecutive rows of
        ``pcf=None``: a fold's threshold changes only at a breakpoint of its training
        envelope, and there the curve may jump. At a jump there are two rows with the same
        ``pcf``: first the limit from the left, then the value at that PCF(+) (the right
        limit, as ``best`` chooses). ``attrs["folds"]`` says ``"given"`` or ``"random"``.
        With per-case costs also ``money`` (see above) and ``attrs["per_case"]``: the
        multipliers and ``p_pos`` given, and ``pcf`` (``p'``), ``scale`` (``(P + N) / W``)
        and ``offset`` (``F / W``).

    Raises
    ------
    ValueError
        Without scores (``from_confusion``, ``from_roc``); with one fold; with splits that
        leave one class outside a split; with ``n_splits`` < 2 or above a class's cases;
        with multipliers or ``p_pos`` without per-case costs, and for per-case costs summed
        in a database.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0, 1, 0, 1, 0], [.9, .8, .7, .1, .6, .4, .3, .2],
    ...                                 folds=[0, 0, 0, 0, 1, 1, 1, 1])
    >>> honest = cw.honest_cost(clf, [0.25, 0.5])
    >>> honest.round(4).to_numpy().tolist()
    [[0.25, 0.3125, 0.1875, 0.125], [0.5, 0.375, 0.25, 0.125]]
    """
    check_classifier(clf, "clf")
    n_splits = check_n_splits(n_splits)
    if isinstance(n_repeats, bool) or not isinstance(n_repeats, (int, np.integer)) or n_repeats < 1:
        raise ValueError(f"n_repeats must be an int >= 1, got {n_repeats!r}.")
    x = None if pcf is None else np.atleast_1d(check_pcf(pcf)).astype(np.float64).ravel()
    per_case = _per_case(clf, cost_fn, cost_fp, p_pos)
    target = clf if per_case is None else per_case.pop("twin")
    steps = PooledSteps.of(_repeats(target, n_splits, int(n_repeats), random_state))
    left = False
    if x is None:
        x, left = _breakpoint_rows(steps)
    nec = steps.nec(x, left=left)
    envelope = np.asarray(target.nec(x), dtype=np.float64)
    out = pd.DataFrame({"pcf": x, "nec": nec, "envelope": envelope, "optimism": nec - envelope})
    if per_case is not None:
        judged = steps.nec(x, left=left, judged_at=per_case["pcf"])
        out["money"] = judged * per_case["scale"] + per_case["offset"]
        out.attrs["per_case"] = per_case
    out.attrs["folds"] = "given" if clf.folds else "random"
    return out


def _per_case(clf, cost_fn, cost_fp, p_pos):
    """None for per-class costs; else the cost-weighted twin (with the classifier's folds) and
    the money's terms, as :func:`~costwidget.model.decisions.per_case.per_case_setting`."""
    cc = getattr(clf, "case_costs", None)
    if cc is None:
        if (cost_fn, cost_fp, p_pos) != (1.0, 1.0, None):
            raise ValueError(
                "cost_fn=, cost_fp= and p_pos= of honest_cost are for classifiers with "
                "per-case costs; the honest curve of per-class costs covers every PCF(+)."
            )
        return None
    if not hasattr(cc, "tp"):
        raise ValueError(
            f"{clf.name!r} has per-case costs summed in a database (per score, not per case): "
            "its honest cost is not supported. Load the rows with "
            "Classifier.from_frame(..., cost_fn='col')."
        )
    cost_scale(0.5, cost_fn, cost_fp)  # the multipliers: numbers >= 0, not both 0
    p_pos = None if p_pos is None else float(check_probability(p_pos, "p_pos"))
    m_fn, m_fp = float(cost_fn), float(cost_fp)
    pos, w, floor = cc.checked_roc_weights(m_fn, m_fp, p_pos)
    total = float(np.sum(cc.case_weights(p_pos)))
    folds = None
    if clf.folds:
        folds = np.asarray(list(clf.folds), dtype=object)[clf.sample.fold_codes]
    twin = type(clf).from_scores(
        pos, clf.sample.scores, pos_label=True, sample_weight=w, folds=folds, name=clf.name
    )
    n_pos, n_neg = float(np.sum(w[pos])), float(np.sum(w[~pos]))
    return {
        "twin": twin,
        "cost_fn": m_fn,
        "cost_fp": m_fp,
        "p_pos": None if p_pos is None else float(p_pos),
        "pcf": n_pos / (n_pos + n_neg),
        "scale": (n_pos + n_neg) / total,
        "offset": float(floor) / total,
    }


def honest_at(curve, pcf: float, *, left: bool = False) -> float:
    """The honest NEC at one PCF(+), read off a table of :func:`honest_cost`.

    From the breakpoint rows (``pcf=None``) it is exact: the value at a breakpoint (its last
    row; with ``left=True`` the limit from the left, its first row), else the line between the
    breakpoints around ``pcf``. From rows at other PCF(+) it is the value of a row at ``pcf``,
    else their linear interpolation (exact where the curve does not jump in between).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"pcf": [0.0, 0.5, 0.5, 1.0], "nec": [0.1, 0.3, 0.2, 0.0]})
    >>> honest_at(rows, 0.25), honest_at(rows, 0.5), honest_at(rows, 0.5, left=True)
    (0.2, 0.2, 0.3)
    """
    x = curve["pcf"].to_numpy(dtype=np.float64)
    y = curve["nec"].to_numpy(dtype=np.float64)
    x0 = float(pcf)
    if not len(x) or x0 < x[0] or x0 > x[-1]:
        return float("nan")
    first = int(np.searchsorted(x, x0, side="left"))  # the first row at or beyond pcf
    last = int(np.searchsorted(x, x0, side="right")) - 1  # the last row at or below pcf
    if x[first] == x0:
        return float(y[first] if left else y[last])
    w = (x0 - x[last]) / (x[first] - x[last])
    return float(y[last] + (y[first] - y[last]) * w)


def honest_winners(curves: dict) -> pd.DataFrame:
    """Which classifier costs least on new data at each PCF(+): the strip of the honest curves.

    The curves (tables of :func:`honest_cost` at ``pcf=None``, by name) and the trivial
    classifiers (``"all negative"``, NEC = PCF(+); ``"all positive"``, NEC = 1 - PCF(+)) are
    compared exactly: between the union of the curves' breakpoints each is a line, and the
    lowest line changes only where two cross. A tie goes to the first (the trivial ones first).

    Returns
    -------
    DataFrame
        ``pcf_lo``, ``pcf_hi``, ``classifier``: consecutive intervals covering [0, 1].

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.DataFrame({"pcf": [0.0, 1.0], "nec": [0.3, 0.3]})
    >>> honest_winners({"a": a}).round(2).to_numpy().tolist()
    [[0.0, 0.3, 'all negative'], [0.3, 0.7, 'a'], [0.7, 1.0, 'all positive']]
    """
    names = ["all negative", "all positive", *curves]
    trivial = {
        "all negative": pd.DataFrame({"pcf": [0.0, 1.0], "nec": [0.0, 1.0]}),
        "all positive": pd.DataFrame({"pcf": [0.0, 1.0], "nec": [1.0, 0.0]}),
    }
    tables = {**trivial, **curves}
    x = np.unique(np.concatenate([t["pcf"].to_numpy(dtype=np.float64) for t in tables.values()]))
    rows = []
    for a, b in zip(x[:-1], x[1:], strict=True):
        ya = np.array([honest_at(tables[n], a) for n in names])
        yb = np.array([honest_at(tables[n], b, left=True) for n in names])
        for lo, hi, k in _lowest_lines(ya, yb):
            rows.append((a + (b - a) * lo, a + (b - a) * hi, names[k]))
    merged = []
    for lo, hi, name in rows:
        if merged and merged[-1][2] == name:
            merged[-1] = (merged[-1][0], hi, name)
        elif hi > lo or not merged:
            merged.append((lo, hi, name))
    return pd.DataFrame(merged, columns=["pcf_lo", "pcf_hi", "classifier"])


def _lowest_lines(ya: np.ndarray, yb: np.ndarray) -> list:
    """(t_lo, t_hi, index) of the lowest of the lines from ``ya`` (t = 0) to ``yb`` (t = 1)."""
    slope = yb - ya
    t, out = 0.0, []
    cur = int(np.lexsort((slope, ya))[0])  # the lowest at 0, then the flattest, then the first
    while True:
        faster = slope < slope[cur]  # only a line falling faster can pass below the current one
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = np.where(faster, (ya - ya[cur]) / (slope[cur] - slope), np.inf)
        cross = np.where(cross > t, cross, np.inf)
        end = float(cross.min())
        out.append((t, min(end, 1.0), cur))
        if end >= 1.0:
            return out
        tied = np.flatnonzero(cross == end)
        t, cur = end, int(tied[np.argmin(slope[tied])])


def _breakpoint_rows(steps: PooledSteps) -> tuple[np.ndarray, np.ndarray]:
    """(pcf, left) of the rows at every knot: the left limit first (``left`` True) where the
    curve jumps."""
    x = steps.knots()
    jump = (x > 0) & (steps.nec(x, left=True) != steps.nec(x))
    at = np.cumsum(1 + jump) - 1  # row of each knot's value; its left limit is the row before
    pcf = np.repeat(x, 1 + jump)
    left = np.zeros(len(pcf), dtype=bool)
    left[at[jump] - 1] = True
    return pcf, left


def _repeats(clf, n_splits, n_repeats, random_state) -> list:
    """(rules, P, N) per repeat: the given folds once, or ``n_repeats`` random splits."""
    sample = clf.sample
    if sample is None and clf.score_counts is None:
        raise ValueError(
            "The honest cost needs each case's score: this classifier was built from a confusion "
            "matrix (from_confusion) or from ROC points (from_roc), which do not say which cases "
            "a threshold chosen on other cases would catch. Build it with from_scores, "
            "from_frame, from_estimator or from_counts."
        )
    names = list(clf.folds)
    if len(names) == 1:
        raise ValueError(
            f"This classifier has one fold ({names[0]!r}): the threshold must be "
            f"chosen on other folds. Give at least 2 folds, or build it without "
            f"folds for random splits (n_splits=)."
        )
    if sample is not None:
        # One sorted order for every split of every repeat: a split's cases, taken in this
        # order, are already sorted.
        # Weighted sums must add in the order roc_counts adds them (stable); whole counts
        # do not depend on the order within ties, and the quicksort is twice as fast.
        w = sample.weights
        order = np.argsort(-sample.scores, kind=None if w is None else "stable")
        is_pos, scores = sample.is_pos[order], sample.scores[order]
        w = None if w is None else w[order]
        # Whole counts: a held-out fold's counts are all cases' less the training ones.
        everyone = None if w is not None else sorted_case_rows(is_pos, scores, None)
        # Distinct scores stay distinct in every split: the refits then need only the
        # points that may be hull vertices.
        corners = w is None and bool(np.all(scores[1:] != scores[:-1]))
        cases = (is_pos, scores, w, everyone, corners)
        if names:
            labels = [f"fold {n!r}" for n in names]
            return [_case_rules(cases, sample.fold_codes[order], labels)]
        _check_class_sizes(
            np.count_nonzero(sample.is_pos), np.count_nonzero(~sample.is_pos), n_splits
        )
        rng, _ = check_random_state(random_state)
        labels = [f"split {k}" for k in range(n_splits)]
        return [
            _case_rules(cases, stratified_codes(sample.is_pos, n_splits, rng, order=order), labels)
            for _ in range(n_repeats)
        ]
    if names:
        return [_table_rules(_fold_tables(clf), [f"fold {n!r}" for n in names])]
    scores, pos, neg = _pooled_table(clf)
    _check_class_sizes(int(pos.sum()), int(neg.sum()), n_splits)
    rng, _ = check_random_state(random_state)
    labels = [f"split {k}" for k in range(n_splits)]
    return [
        _table_rules([(scores, p, n) for p, n in split_table(pos, neg, n_splits, rng)], labels)
        for _ in range(n_repeats)
    ]


def _check_class_sizes(n_pos: int, n_neg: int, n_splits: int) -> None:
    small = min(n_pos, n_neg)
    if n_splits > small:
        cls = "positive" if n_pos <= n_neg else "negative"
        raise ValueError(
            f"n_splits={n_splits} is more than the {small} {cls} case(s): every "
            f"split needs both classes. Use n_splits <= {small}."
        )


def _check_training(n_pos, n_neg, held_out: str) -> None:
    if n_pos > 0 and n_neg > 0:
        return
    missing = "positive" if not n_pos > 0 else "negative"
    raise ValueError(
        f"Without {held_out} there are no {missing} cases (of weight > 0): no "
        f"threshold can be chosen for it. Use fewer splits (a smaller n_splits) or "
        f"merge that fold with another."
    )


def _case_rules(cases, codes, labels) -> tuple[list, float, float]:
    """(rules, P, N) of one split of the cases in descending score order, ``codes`` saying
    each one's split. ``cases``: is_pos, scores, weights, without weights the rows of all
    cases, and whether the scores are distinct."""
    is_pos, scores, w, everyone, corners = cases
    rules, n_pos, n_neg = [], 0.0, 0.0
    for k, label in enumerate(labels):
        train = codes != k
        w_train = None if w is None else w[train]
        pos_train = is_pos[train]
        if w_train is None:
            _check_training(np.count_nonzero(pos_train), np.count_nonzero(~pos_train), label)
        else:
            _check_training(w_train[pos_train].sum(), w_train[~pos_train].sum(), label)
        if corners:
            counts = corner_counts(pos_train, scores[train])
        else:
            counts = sorted_roc_counts(pos_train, scores[train], w_train)
        if everyone is None:
            held = ~train
            rows = sorted_case_rows(is_pos[held], scores[held], w[held])
            rules.append(fold_rule(counts, rows))
            p, n = rows.totals
        else:
            rules.append(fold_rule(counts, None, everyone=everyone))
            p, n = (t - c for t, c in zip(everyone.totals, (counts.n_pos, counts.n_neg)))
        n_pos, n_neg = n_pos + p, n_neg + n
    return rules, n_pos, n_neg


def _table_rules(tables, labels) -> tuple[list, float, float]:
    rules, n_pos, n_neg = [], 0.0, 0.0
    for k, label in enumerate(labels):
        others = [t for j, t in enumerate(tables) if j != k]
        train = table_training(*(np.concatenate(col) for col in zip(*others, strict=True)))
        _check_training(train.n_pos, train.n_neg, label)
        rows = FoldRows.of(*tables[k])
        rules.append(fold_rule(train, rows))
        p, n = rows.totals
        n_pos, n_neg = n_pos + p, n_neg + n
    return rules, n_pos, n_neg


def _fold_tables(clf) -> list:
    """(scores, pos, neg) per fold of a classifier from counts, in the data's units."""
    thresholds = clf.counts.thresholds
    out = []
    for (index, pos, neg), fold in zip(clf.score_counts.folds, clf.folds.values(), strict=True):
        e = fold.counts.exponent
        out.append((thresholds[index + 1], in_units(pos, e), in_units(neg, e)))
    return out


def _pooled_table(clf):
    """(scores, pos, neg) of a classifier from whole-number counts, one row per score."""
    c = clf.counts
    pos, neg = np.diff(c.tp), np.diff(c.fp)
    if c.exponent or pos.dtype.kind not in "iu" or neg.dtype.kind not in "iu":
        raise ValueError(
            "Random splits of weighted counts are not defined (a weight is not a "
            "number of cases to deal out). Give the table folds (folds= of "
            "from_counts, or a fold column) for the honest cost."
        )
    return c.thresholds[1:], pos, neg
