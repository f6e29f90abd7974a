"""The widget's two fill-between layers: the bootstrap bands and the fold spread."""

from __future__ import annotations

from .fill_layer import FillBetweenLayer

__all__ = ["bootstrap_band_layer", "case_band_setting", "fold_spread_layer"]


def bootstrap_band_layer(ctx):
    """The bootstrap band of each visible classifier's envelope (``show_bands``, ``band_level``).

    With per-case costs the panes draw the cost-weighted twins, and each twin's band is its
    classifier's band of money per case (:meth:`Classifier.band` with the multipliers and
    p(+) of :func:`case_band_setting`), on the twin's axes."""
    return FillBetweenLayer(
        ctx,
        slot="bands",
        label="bands",
        enabled="show_bands",
        request=lambda s: (s.band_level, case_band_setting(s)),
        # The envelope band (threshold re-optimized in every replicate, Drummond & Holte
        # (2004), sec. 8) as a basic bootstrap interval: the percentile one covers the best
        # achievable cost too rarely, the minimum being biased low (see Classifier.band). A
        # fixed rule (from_confusion) gets its exact percentile band whatever interval= says.
        compute=lambda clf, req: _band(ctx, clf, *req),
        check=lambda clf: _check_resamplable(ctx, clf),
    )


def case_band_setting(state):
    """``(p_pos, m_fn, m_fp)`` a per-case widget's bands are computed at, None for per-class.

    The twins' own setting: where they hold at every multiplier and p(+) (no case changes
    side) the band's NEC is the same at every multiplier (each side's costs scale as one) and,
    without ``sample_weight``, every p(+) (the stratified replicates keep the class totals),
    so only a weighted widget's band follows p(+). Where cases change sides (``moves``), the
    setting the twins are drawn at, which follows every move. Where the twins are pinned (costs
    summed by an engine), at their multipliers, and at p(+) as it moves where that is free.

    Examples
    --------
    >>> import numpy as np, costwidget as cw
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [.9, .4, .6, .2], cost_fn=[30.0, 0, 5.0, 0],
    ...                                 cost_fp=2.0, cost_tp=6.0, name="m")
    >>> w = cw.CostWidget([clf], p_pos=0.4)
    >>> case_band_setting(w.state)   # a fee: the twins' setting
    (0.4, 1.0, 1.0)
    >>> w.cost_fn = 1.5
    >>> case_band_setting(w.state)
    (0.4, 1.5, 1.0)
    >>> w.close()
    """
    per_case = getattr(state, "per_case", None)
    if per_case is None:
        return None
    if per_case.moves:  # the twins follow every move: the band is priced where they are drawn
        # (between a failed redraw and its rollback no twins are drawn: the state's setting)
        drawn = per_case.drawn_at or (state.p_pos, state.cost_fn, state.cost_fp)
        p, m_fn, m_fp = drawn
        return (float(state.p_pos) if p is None else p), m_fn, m_fp
    p, m_fn, m_fp = per_case.pinned if per_case.pinned is not None else (None, 1.0, 1.0)
    weighted = getattr(per_case.given[0].case_costs, "weights", None) is not None
    if p is None and (per_case.pinned is not None or weighted):
        p = float(state.p_pos)
    return p, m_fn, m_fp


def _given(per_case, twin):
    """The classifier with per-case costs drawn as ``twin``."""
    return next(g for g, t in zip(per_case.given, per_case.twins) if t is twin)


def _band(ctx, clf, level, setting):
    if setting is None:
        return clf.band(level, interval="basic", random_state=0)
    p, m_fn, m_fp = setting
    given = _given(ctx.state.per_case, clf)
    return given.band(level, interval="basic", random_state=0, cost_fn=m_fn, cost_fp=m_fp, p_pos=p)


def fold_spread_layer(ctx):
    """The min-max spread of each visible classifier's fold envelopes (``show_fold_spread``).

    With per-case costs the drawn classifier is a cost-weighted twin (no folds of its own):
    the spread is of its classifier's folds priced case by case at the state's p(+) and
    multipliers (each fold's money per case, scaled as the cost pane: ``cw.fold_spread``
    with ``cost_fn=``, ``cost_fp=``, ``p_pos=``), made again when they move."""
    from ...model import fold_spread

    def given(clf):
        return next((d.given for d in ctx.drawings if d.clf is clf), clf)

    def per_case(clf):
        return getattr(given(clf), "case_costs", None) is not None

    def request(s):
        if getattr(s, "per_case", None) is None:
            return "min-max"
        return ("min-max", float(s.p_pos), float(s.cost_fn), float(s.cost_fp))

    def compute(clf, req):
        if not per_case(clf):
            return clf.fold_spread()
        _, p_pos, m_fn, m_fp = req
        return fold_spread(given(clf), cost_fn=m_fn, cost_fp=m_fp, p_pos=p_pos)

    def check(clf):
        cc = getattr(given(clf), "case_costs", None)
        if cc is not None and not hasattr(cc, "tp"):
            raise ValueError(
                "The fold spread of per-case costs summed in the database is not shown: the "
                "sums have no single cases to price fold by fold. Load the rows with "
                "CostWidget.from_frame(..., cost_fn='col', fold='fold')."
            )

    return FillBetweenLayer(
        ctx,
        slot="fold spread",
        label="fold spread",
        enabled="show_fold_spread",
        request=request,
        compute=compute,
        check=check,
        applies=lambda clf: bool(given(clf).folds),
        opacity=0.10,
        line_style="dotted",
        stroke_width=1,
        none_message="no visible classifier has folds: build them with folds= (or "
        "CostWidget.from_frame(..., fold='fold')) to see the fold spread.",
    )


def _check_resamplable(ctx, clf):
    """Bands resample the cases: refuse at once what cannot be resampled (weights, rates only,
    per-case costs summed by an engine)."""
    from ...model import check_case_resamplable, scored_arrays

    per_case = getattr(ctx.state, "per_case", None)
    if per_case is not None:
        check_case_resamplable(_given(per_case, clf))
    elif clf.sample is not None:
        scored_arrays(clf, "bands")
