"""``costwidget.demo()`` (lives in ``demos.py`` so the submodule never shadows the function): the widget on bundled scores."""

from __future__ import annotations

from .datasets import load_demo_scores, positive_label

__all__ = ["demo"]


def demo(dataset: str = "german_credit", **kwargs):
    """A `CostWidget` on the 5-fold cross-validated scores of four scikit-learn models.

    The scores were computed once (``benchmarks/make_demo_scores.py``) and ship
    in ``costwidget/data/demo_scores.csv``. For German credit the positive
    class is ``"Bad"`` (a bad credit risk).

    Examples
    --------
    >>> import costwidget as cw
    >>> w = cw.demo()
    >>> sorted(w.readout.index)
    ['gradient boosting', 'logistic regression', 'naive Bayes', 'random forest']
    >>> w.difference = ["naive Bayes", "logistic regression"]
    >>> w.wait()      # the paired band is bootstrapped in the background
    >>> list(w.difference_intervals.columns)
    ['pcf_lo', 'pcf_hi', 'sign']
    """
    from .widget import CostWidget

    scores = load_demo_scores(dataset)
    # Folds give the fold-spread band; the shared instance ids make the models
    # comparable in pairs (the difference view).
    return CostWidget.from_frame(
        scores,
        y_true="label",
        y_score="score",
        model="model",
        fold="fold",
        instance="row",
        pos_label=positive_label(dataset),
        **kwargs,
    )
