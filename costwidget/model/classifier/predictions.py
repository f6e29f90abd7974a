"""Several models' scores of the same cases: one classifier each, known to be paired."""

from __future__ import annotations

from ..kernels.validation import as_1d, length_of

__all__ = ["classifiers_from_predictions"]


def classifiers_from_predictions(
    y_true,
    scores,
    *,
    pos_label=None,
    sample_weight=None,
    folds=None,
    instance=None,
    cost_fn=None,
    cost_fp=None,
    cost_tp=None,
    cost_tn=None,
) -> dict:
    """One :class:`Classifier` per entry of ``scores`` (``{name: y_score}``), all on ``y_true``.

    The labels are read once into one array and every classifier is built
    over it, so the classifiers are known to score the same cases in the
    same order: :func:`difference_band` pairs them (as it pairs
    ``Classifier.from_scores(y, s)`` calls over the same numpy array ``y``),
    whatever ``y_true`` is (a list too).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    scores : dict
        ``{name: y_score}``, each an array-like of shape (n_samples,).
    pos_label : label, optional
        The positive class, as in :meth:`Classifier.from_scores`.
    sample_weight, folds, instance : array-like of shape (n_samples,), optional
        As in :meth:`Classifier.from_scores`, the same for every model.
    cost_fn, cost_fp, cost_tp, cost_tn : float or array-like of shape (n_samples,), optional
        Per-case costs, as in :meth:`Classifier.from_scores`, the same for every model.

    Returns
    -------
    dict
        Name (as given) -> :class:`Classifier` named ``str(name)``, in the
        order of ``scores``.

    Examples
    --------
    >>> import costwidget as cw
    >>> models = cw.classifiers_from_predictions([0, 1, 1, 0, 1, 0],
    ...     {"a": [.1, .8, .6, .3, .7, .2], "b": [.3, .9, .2, .4, .8, .1]})
    >>> list(models), models["a"].nec(0.5)
    (['a', 'b'], 0.0)
    >>> d = cw.difference_band(models["a"], models["b"], n_boot=50, grid=3, random_state=0)
    >>> d.attrs["paired"]
    True
    """
    from .classifier import Classifier

    if not isinstance(scores, dict) or not scores:
        raise TypeError(
            f"scores must be a non-empty dict {{name: y_score}}, got {type(scores).__name__}."
        )
    y_arr = as_1d(y_true, "y_true")  # one array: every classifier shares its case token
    _check_lengths(y_arr, scores)
    return {
        name: Classifier.from_scores(
            y_arr,
            s,
            name=str(name),
            pos_label=pos_label,
            sample_weight=sample_weight,
            folds=folds,
            instance=instance,
            cost_fn=cost_fn,
            cost_fp=cost_fp,
            cost_tp=cost_tp,
            cost_tn=cost_tn,
        )
        for name, s in scores.items()
    }


def _check_lengths(y_arr, scores) -> None:
    """Refuse, before building any classifier, a model whose scores are not one per label,
    naming every such model and both lengths."""
    wrong = [(name, length_of(s)) for name, s in scores.items()]
    wrong = [(name, n) for name, n in wrong if n != len(y_arr)]
    if wrong:
        each = "; ".join(f"{name!r} has {n} scores" for name, n in wrong)
        raise ValueError(
            f"Every model must score the {len(y_arr)} cases of y_true, one score per label in "
            f"the same order: {each}. Pass each model's scores on the same cases as y_true "
            "(e.g. predictions on the same test set), or build the classifiers one by one with "
            "Classifier.from_scores(y, s, name=...) over their own labels."
        )
