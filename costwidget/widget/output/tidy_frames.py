"""`to_frame`: the numbers behind a `CostWidget`'s panes as tidy DataFrames, for your own charts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..text.caption import range_table, visible_classifiers

__all__ = ["to_frame"]


def to_frame(w) -> dict:
    """The numbers behind the panes, as tidy DataFrames, one per kind, for your own charts.

    Returns a dict of DataFrames; each has a ``classifier`` column (visible classifiers only,
    in the widget's order) and one row per observation:

    * ``"roc"``: ``threshold``, ``fpr``, ``tpr`` of every ROC point;
    * ``"hull"``: the ROC convex hull's vertices (``threshold``, ``fpr``, ``tpr``);
    * ``"envelope"``: the lower envelope's breakpoints (``pcf``, ``nec``), exact;
    * ``"bands"``: the bands drawn: ``kind`` (``"bootstrap"`` or ``"fold_spread"``),
      ``level`` (NaN for the fold spread), ``pcf``, ``lower``, ``upper``;
    * ``"readout"``: the readout table at the operating point (``w.readout`` as columns);
    * ``"difference"``: ``pcf``, ``diff``, ``lower``, ``upper`` of the difference view, with
      ``a`` and ``b`` naming the pair (empty when the view is off);
    * ``"range"``: the range table over the range of interest (``w.range_table`` as columns;
      empty when no range is set).
    * ``"decision_curve"``: ``threshold_choice``, ``threshold_probability``, ``net_benefit`` of
      the decision-curve pane, with "treat all" and "treat none" (empty when it is off);
    * ``"threshold_choice"``: each threshold choice method's ``threshold``, ``nec``,
      ``expected_cost`` and ``gap`` to the envelope at the operating point (empty when off).
    * ``"honest"``: the honest curves drawn (``cw.honest_cost`` at its breakpoints): ``pcf``,
      ``nec`` (the cost on new data), ``envelope`` and ``optimism`` (empty when off).
    """
    w.wait()
    shown = visible_classifiers(w)

    def stack(frames, columns):
        parts = [f.assign(classifier=name)[["classifier", *columns]] for name, f in frames]
        if not parts:
            return pd.DataFrame(columns=["classifier", *columns])
        return pd.concat(parts, ignore_index=True)

    level = w.state.band_level
    bands = [(n, b.assign(kind="bootstrap", level=level)) for n, b in w.drawn_bands.items()]
    bands += [
        (n, b.assign(kind="fold_spread", level=np.nan)) for n, b in w.drawn_fold_spreads.items()
    ]
    order = {c.name: i for i, c in enumerate(w.classifiers)}
    bands.sort(key=lambda nb: (order[nb[0]], nb[1]["kind"].iloc[0]))
    diff = w.difference_band
    if diff is None:
        difference = pd.DataFrame(columns=["a", "b", "pcf", "diff", "lower", "upper"])
    else:
        a, b = w.state.difference
        difference = diff.assign(a=a, b=b)[["a", "b", "pcf", "diff", "lower", "upper"]]
    return {
        "roc": stack([(c.name, c.roc) for c in shown], ["threshold", "fpr", "tpr"]),
        "hull": stack([(c.name, c.hull) for c in shown], ["threshold", "fpr", "tpr"]),
        "envelope": stack([(c.name, c.envelope) for c in shown], ["pcf", "nec"]),
        "bands": stack(bands, ["kind", "level", "pcf", "lower", "upper"]),
        "readout": w.readout.reset_index(),
        "difference": difference.reset_index(drop=True),
        "range": (
            pd.DataFrame(columns=["classifier"])
            if range_table(w) is None
            else range_table(w).reset_index()
        ),
        # the decision curve drawn, and each threshold choice at the operating point
        "decision_curve": w.decision_curve_view.frame.reset_index(drop=True),
        "threshold_choice": w.threshold_choice_view.choices.reset_index(drop=True),
        # the cost on new data, as drawn
        "honest": stack(
            [(n, c) for n, c in w.drawn_honest.items()], ["pcf", "nec", "envelope", "optimism"]
        ),
    }
