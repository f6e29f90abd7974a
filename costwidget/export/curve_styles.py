"""Line styles and legend labels of :class:`costwidget.CostCurveDisplay`, by scikit-learn's rules.

scikit-learn's curve displays (``RocCurveDisplay``) label a curve ``"name (AUC = 0.xx)"``, take
matplotlib keywords per curve (``curve_kwargs``: one dict for all, or a list of one per curve)
and let a user's alias (``c``, ``lw``, ``ls``, ...) replace the default it stands for. Several
folds of one model are drawn alike, with one legend entry for all (the mean AUC +/- its standard
deviation) unless ``curve_kwargs`` is a list. The helpers of scikit-learn that do this are
private and only in recent releases (``sklearn.utils._plotting``, 1.5 and 1.7), so the rules are
restated here and tested against scikit-learn's own where it has them. Plain Python: no
matplotlib import.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

__all__ = ["style_kwargs", "curve_styles", "legend_label", "ALIASES"]

#: matplotlib's short names and the keyword each stands for (scikit-learn's table).
ALIASES = {
    "ls": "linestyle",
    "c": "color",
    "ec": "edgecolor",
    "fc": "facecolor",
    "lw": "linewidth",
    "mec": "markeredgecolor",
    "mfcalt": "markerfacecoloralt",
    "ms": "markersize",
    "mew": "markeredgewidth",
    "mfc": "markerfacecolor",
    "aa": "antialiased",
    "ds": "drawstyle",
    "font": "fontproperties",
    "family": "fontfamily",
    "name": "fontname",
    "size": "fontsize",
    "stretch": "fontstretch",
    "style": "fontstyle",
    "variant": "fontvariant",
    "weight": "fontweight",
    "ha": "horizontalalignment",
    "va": "verticalalignment",
    "ma": "multialignment",
}

#: Several folds of one model, as scikit-learn draws them (its colour "blue" is the palette's).
FOLD_STYLE = {"alpha": 0.5, "linestyle": "--", "linewidth": 1.5}


def style_kwargs(default: dict, user: Mapping | None) -> dict:
    """``default`` updated with ``user``'s matplotlib keywords, each alias under its full name.

    matplotlib refuses ``color`` and ``c`` together; a user's ``c`` must therefore replace the
    default ``color``, not sit beside it. Giving both spellings is refused, as scikit-learn does.

    Examples
    --------
    >>> style_kwargs({"color": "grey", "linewidth": 1.0}, {"c": "red", "alpha": 0.5})
    {'color': 'red', 'linewidth': 1.0, 'alpha': 0.5}
    """
    user = {} if user is None else user
    if not isinstance(user, Mapping):
        raise TypeError(
            f"style keywords must be a dict of matplotlib keywords, got {type(user).__name__}."
        )
    for short, full in ALIASES.items():
        if short in user and full in user:
            raise TypeError(f"Got both {short} and {full}, which are aliases of one another")
    out = dict(default)
    for key, value in user.items():
        out[ALIASES.get(key, key)] = value
    return out


def legend_label(auc, name) -> str:
    """scikit-learn's legend label: ``"name (AUC = 0.xx)"``, or ``"AUC = 0.xx"`` without a name.

    ``auc`` is a number, or ``(mean, std)`` over folds: ``"name (AUC = 0.85 +/- 0.05)"``.

    Examples
    --------
    >>> legend_label(0.8125, "model"), legend_label((0.85, 0.05), None)
    ('model (AUC = 0.81)', 'AUC = 0.85 +/- 0.05')
    """
    value = f"{auc[0]:0.2f} +/- {auc[1]:0.2f}" if isinstance(auc, tuple) else f"{auc:0.2f}"
    return f"AUC = {value}" if name is None else f"{name} (AUC = {value})"


def curve_styles(aucs, names, curve_kwargs, colors, base: dict, *, folds: bool) -> list[dict]:
    """The matplotlib keywords of each curve, its ``label`` included.

    Parameters
    ----------
    aucs : list of float
        Each curve's AUC.
    names : list of str or None
        Each curve's name, already escaped for matplotlib (``None``: the label is the AUC only).
    curve_kwargs : dict, list of dict or None
        The user's keywords: one dict for every curve, or one per curve.
    colors : list of str
        Each curve's default colour.
    base : dict
        Default keywords of every curve (width, z-order).
    folds : bool
        The curves are the folds of one model: drawn alike (``FOLD_STYLE``) and, unless
        ``curve_kwargs`` is a list, with one legend entry for all, on the first curve.

    Returns
    -------
    list of dict
    """
    n = len(aucs)
    per_curve = not isinstance(curve_kwargs, Mapping) and curve_kwargs is not None
    if per_curve:
        curve_kwargs = list(curve_kwargs)
        if len(curve_kwargs) != n:
            raise ValueError(
                f"`curve_kwargs` must be None, a dictionary or a list of length "
                f"{n}. Got: {curve_kwargs}."
            )
    else:
        curve_kwargs = [curve_kwargs] * n
    default = dict(base, **FOLD_STYLE) if folds and n > 1 else dict(base)
    if folds and n > 1 and not per_curve:
        # One entry for all folds: scikit-learn's mean and (population) standard deviation.
        labels = [legend_label((float(np.mean(aucs)), float(np.std(aucs))), names[0])]
        labels += [None] * (n - 1)
    else:
        labels = [legend_label(a, nm) for a, nm in zip(aucs, names)]
    return [
        style_kwargs({"label": label, **default, "color": color}, user)
        for label, color, user in zip(labels, colors, curve_kwargs)
    ]
