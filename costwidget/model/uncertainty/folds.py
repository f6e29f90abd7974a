"""Several evaluations of one classifier (CV folds, repeated runs) and their averages.

Drummond & Holte (2000), sec. 2.2.3 and Drummond & Holte (2004), sec. 7:
averages differ in which points of the fold curves they put into correspondence.

* ``"cost"`` — cost-space vertical average: the mean NEC of the fold
  envelopes at each pcf (points correspond when they have the same operating
  conditions). A mean of piecewise-linear functions is piecewise linear with
  breakpoints at the union of the folds' breakpoints, so it is exact there.
  It is concave, so each linear piece is a cost line, i.e. an ROC point: that
  is its ROC-space form.
* ``"vertical"`` — ROC vertical average (Provost et al.): mean TPR at each
  FPR of the folds' polylines, over the union of the folds' FPR values (exact;
  linear in between). At an FPR where a fold's polyline runs vertically the
  mean has a vertical run too, given by its bottom (mean of the left limits)
  and its top (mean of the tops).
* ``"threshold"`` — threshold average (Fawcett): mean (FPR, TPR) at each
  score threshold, over the union of the folds' distinct scores.
* ``"pooled"`` — all folds' scores merged into one ROC curve.

The ROC-space averages map into cost space as the lower envelope of their
points' cost lines (the dotted line of Drummond & Holte (2000), figure 16).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..kernels.envelope import Envelope
from ..kernels.hull import upper_hull
from ..kernels.sample import split_folds  # noqa: F401 (re-exported: its home before kernels/)
from .case_folds import case_fold_average, case_fold_spread
from .fold_curves import cost_frame, cost_to_roc, polyline_at, roc_frame, vertical_runs

__all__ = ["split_folds", "fold_average", "fold_spread", "AVERAGES"]  # split_folds: from .sample

AVERAGES = ("cost", "vertical", "threshold", "pooled")


def _envelope_of_points(fpr: np.ndarray, tpr: np.ndarray) -> Envelope:
    f = np.concatenate(([0.0], fpr, [1.0]))
    t = np.concatenate(([0.0], tpr, [1.0]))
    order = np.lexsort((t, f))
    f, t = f[order], t[order]
    keep = np.concatenate(([True], (np.diff(f) != 0) | (np.diff(t) != 0)))
    f, t = f[keep], t[keep]
    h = upper_hull(f, t)
    return Envelope(f[h], t[h])


def _cost_average(folds) -> tuple[np.ndarray, np.ndarray]:
    knots = np.unique(np.concatenate([c.envelope.pcf.to_numpy() for c in folds]))
    nec = np.mean([c.nec(knots) for c in folds], axis=0)
    return knots, nec


def _vertical_average(folds, on: str) -> tuple[np.ndarray, np.ndarray]:
    curves = []
    for c in folds:
        points = c.hull if on == "hull" else c.roc
        curves.append((points.fpr.to_numpy(), points.tpr.to_numpy()))
    grid = np.unique(np.concatenate([f for f, _ in curves]))
    ends = [polyline_at(f, t, grid) for f, t in curves]
    bottom = np.mean([b for b, _ in ends], axis=0)
    top = np.mean([t for _, t in ends], axis=0)
    # Where any fold has a vertical run, the mean has one too: its bottom and top.
    run = np.any([b != t for b, t in ends], axis=0)
    return vertical_runs(grid, bottom, top, run)


def _threshold_average(folds, thresholds=None):
    rocs = [c.roc for c in folds]
    if thresholds is None:
        thresholds = np.unique(np.concatenate([r.threshold.to_numpy()[1:] for r in rocs]))[::-1]
    th = np.asarray(thresholds, dtype=np.float64)
    fpr, tpr = [], []
    for r in rocs:
        # Fold thresholds descend; the point at t is the last one with threshold >= t.
        k = np.searchsorted(-r.threshold.to_numpy(), -th, side="right") - 1
        fpr.append(r.fpr.to_numpy()[k])
        tpr.append(r.tpr.to_numpy()[k])
    return (
        np.concatenate(([np.inf], th)),
        np.concatenate(([0.0], np.mean(fpr, axis=0))),
        np.concatenate(([0.0], np.mean(tpr, axis=0))),
    )


def fold_average(
    clf,
    method: str = "cost",
    *,
    space: str = "cost",
    on: str = "hull",
    thresholds=None,
    cost_fn=1.0,
    cost_fp=1.0,
    p_pos=None,
) -> pd.DataFrame:
    """The average of a classifier's folds: the implementation of :meth:`Classifier.fold_average`.

    Parameters
    ----------
    clf : Classifier
        A classifier with folds (``from_scores(..., folds=...)``).
    method, space, on, thresholds
        As :meth:`Classifier.fold_average`, which documents each average.
    cost_fn, cost_fp, p_pos
        Per-case costs only: the multipliers of each case's ``cost_fn``, ``cost_fp`` and the
        deployment prevalence (default the data's), as :func:`~costwidget.decide` takes them.
        The folds are then priced case by case and put on the cost pane's axes of the whole
        data's cost-weighted twin: :mod:`~costwidget.model.uncertainty.case_folds` derives
        each average, its money per case and its ROC-space form.

    Returns
    -------
    DataFrame
        ``pcf``, ``nec`` (cost space) or ``threshold``, ``fpr``, ``tpr`` (ROC
        space, whatever the method; ``threshold`` is NaN for the cost and
        vertical averages, which are not made of thresholds).

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model.uncertainty.folds import fold_average
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0, 1, 1, 0, 0], [.9, .8, .7, .6, .9, .8, .2, .1],
    ...                                 folds=[0, 0, 0, 0, 1, 1, 1, 1])
    >>> fold_average(clf, "vertical", space="roc", on="hull")[["fpr", "tpr"]].to_numpy().tolist()
    [[0.0, 0.0], [0.0, 0.75], [0.5, 1.0], [1.0, 1.0]]

    With per-case costs the cost average at the twin's PCF(+) is the mean over the folds of
    each fold's cheapest money per case, on the pane's scale (``attrs["per_case"]`` maps it
    back to money):

    >>> import numpy as np
    >>> amount = [9.0, 0, 3.0, 0, 6.0, 0, 3.0, 0]
    >>> per_case = cw.Classifier.from_scores([1, 0, 1, 0, 1, 0, 1, 0], [.9, .8, .7, .1, .6, .4, .3, .2],
    ...                                      folds=[0, 0, 0, 0, 1, 1, 1, 1], cost_fn=amount,
    ...                                      cost_fp=3.0)
    >>> avg = fold_average(per_case)
    >>> m = avg.attrs["per_case"]
    >>> float(np.interp(m["pcf"], avg.pcf, avg.nec) * m["scale"] + m["offset"])   # 3 / 4 each
    0.75
    """
    if space not in ("cost", "roc"):
        raise ValueError(f"space must be 'cost' or 'roc', got {space!r}.")
    if on not in ("hull", "roc"):
        raise ValueError(f"on must be 'hull' or 'roc', got {on!r}.")
    if method not in AVERAGES:
        raise ValueError(f"method must be one of {AVERAGES}, got {method!r}.")
    setting = _setting(clf, cost_fn, cost_fp, p_pos)
    if setting is not None:
        _require_folds(clf)
        return case_fold_average(clf, method, space, on, thresholds, setting)
    folds = list(_require_folds(clf).values())
    if method == "cost":
        x, y = _cost_average(folds)
        if space == "cost":
            return pd.DataFrame({"pcf": x, "nec": y})
        return cost_to_roc(x, y, corners=True)
    if method == "pooled":
        return clf.envelope if space == "cost" else clf.roc[["threshold", "fpr", "tpr"]]
    if method == "vertical":
        fpr, tpr = _vertical_average(folds, on)
        roc = roc_frame(pd.DataFrame({"fpr": fpr, "tpr": tpr}))
    else:
        th, fpr, tpr = _threshold_average(folds, thresholds)
        roc = pd.DataFrame({"threshold": th, "fpr": fpr, "tpr": tpr})
    if space == "roc":
        return roc
    return cost_frame(_envelope_of_points(fpr, tpr))


def fold_spread(
    clf, *, grid=512, quantiles=None, cost_fn=1.0, cost_fp=1.0, p_pos=None
) -> pd.DataFrame:
    """Implementation of :meth:`Classifier.fold_spread` (see there).

    With per-case costs, ``cost_fn``, ``cost_fp`` and ``p_pos`` are the setting of
    :func:`~costwidget.decide` (multipliers and deployment prevalence); each fold's curve is
    its money per case on the cost pane's axes of the whole data's twin and ``nec`` is the
    mean money per case, scaled as the pane (:mod:`~costwidget.model.uncertainty.case_folds`).
    """
    from .bands import pcf_grid

    x = pcf_grid(grid)
    if quantiles is not None:
        q = np.asarray(quantiles, dtype=np.float64)
        if q.shape != (2,) or not (0 <= q[0] <= q[1] <= 1):
            raise ValueError(
                f"quantiles must be (lo, hi) with 0 <= lo <= hi <= 1, got {quantiles!r}."
            )
    setting = _setting(clf, cost_fn, cost_fp, p_pos)
    if setting is not None:
        _require_folds(clf)
        return case_fold_spread(clf, x, quantiles, setting)
    folds = list(_require_folds(clf).values())
    nec = np.array([c.nec(x) for c in folds])
    if quantiles is None:
        lower, upper = nec.min(axis=0), nec.max(axis=0)
    else:
        lower, upper = np.quantile(nec, q, axis=0)
    # "nec" for the centre, as in Classifier.band: one name for a band's centre everywhere
    return pd.DataFrame({"pcf": x, "nec": nec.mean(axis=0), "lower": lower, "upper": upper})


def _setting(clf, cost_fn, cost_fp, p_pos):
    """``(cost_fn, cost_fp, p_pos)`` for a classifier with per-case costs; None for per-class
    costs, which take no setting (their folds' curves cover every PCF(+))."""
    if getattr(clf, "case_costs", None) is not None:
        return (cost_fn, cost_fp, p_pos)
    if (cost_fn, cost_fp, p_pos) != (1.0, 1.0, None):
        raise ValueError(
            "cost_fn=, cost_fp= and p_pos= of the fold averages are for classifiers with "
            "per-case costs; the folds' curves of per-class costs cover every PCF(+)."
        )
    return None


def _require_folds(clf) -> dict:
    if not clf.folds:
        raise ValueError(
            "This classifier has no folds: build it with "
            "Classifier.from_scores(..., folds=fold_ids) or Classifier.from_frame(...)."
        )
    return clf.folds
