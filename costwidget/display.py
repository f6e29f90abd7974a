"""`CostCurveDisplay`: static cost-curve figures with matplotlib, following scikit-learn's Display API.

Model side: imports neither ipywidgets nor bqplot, and matplotlib only when a figure is drawn.
"""

from __future__ import annotations

from .model import Classifier, check_pcf, fitted_scores, probability_cost

__all__ = ["CostCurveDisplay"]


class CostCurveDisplay:
    """Cost curves (Drummond & Holte): lower envelopes in cost space, optionally beside ROC space.

    Build one with :meth:`from_predictions` or :meth:`from_estimator`, or from
    :class:`~costwidget.Classifier` objects, then call :meth:`plot`. The marks,
    colours and labels are the widget's: each classifier's envelope, the trivial
    classifiers ``y = x`` ("all negative") and ``y = 1 - x`` ("all positive")
    with the never-use region above them, the "best of all" envelope and a strip
    coloured by who is best where, an operating line with each classifier's NEC,
    bootstrap bands, and with ``roc=True`` the ROC pane (curves, hulls, and the
    iso-performance lines at the operating point).

    Parameters
    ----------
    classifiers : Classifier or list of Classifier
    name : str or list of str, optional
        Legend names; default each classifier's ``name``.
    pos_label : label, optional
        The positive class, shown in the x-axis label.

    Attributes
    ----------
    line_ : matplotlib Line2D or list of Line2D
        The envelopes (a list when there are several classifiers).
    trivial_ : list of Line2D or None
        The two trivial classifiers' lines.
    combined_ : Line2D or None
        The "best of all" envelope (several classifiers only).
    operating_line_ : Line2D or None
        The vertical line at the operating point's PCF(+).
    operating_points_ : PathCollection or None
        Each envelope's NEC at the operating point.
    bands_ : list of PolyCollection or None
        Bootstrap bands, one per classifier.
    roc_line_ : Line2D or list of Line2D or None
        The ROC convex hulls, when ``roc=True``.
    ax_ : matplotlib Axes
        The cost-space axes.
    roc_ax_ : matplotlib Axes or None
        The ROC-space axes.
    figure_ : matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import costwidget as cw
    >>> y_true = [0, 0, 1, 1, 0, 1]
    >>> y_score = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    >>> disp = cw.CostCurveDisplay.from_predictions(y_true, y_score, name="model", pcf=0.68)
    >>> disp.line_.get_label()
    'model'
    >>> disp.line_.get_xydata().tolist()         # the envelope's exact breakpoints
    [[0.0, 0.0], [0.6, 0.2], [1.0, 0.0]]
    >>> disp.operating_line_.get_xdata()[0]
    0.68
    >>> disp.figure_.savefig("cost_curve.svg")    # doctest: +SKIP
    """

    def __init__(self, *, classifiers, name=None, pos_label=None):
        clfs = [classifiers] if isinstance(classifiers, Classifier) else list(classifiers)
        if not clfs:
            raise ValueError("CostCurveDisplay needs at least one classifier.")
        for i, clf in enumerate(clfs):
            if not isinstance(clf, Classifier):
                raise TypeError(f"classifiers[{i}] is a {type(clf).__name__}, not a costwidget "
                                "Classifier; build one with Classifier.from_scores(...).")
        self.classifiers = clfs
        self.name = name
        self.pos_label = pos_label

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_predictions(cls, y_true, y_score, *, sample_weight=None, pos_label=None, name=None,
                         ax=None, **kwargs):
        """Plot cost curves from true labels and scores.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples,), or dict
            Scores (higher means more positive), or ``{name: y_score}`` for several
            classifiers scored on the same ``y_true``.
        sample_weight : array-like of shape (n_samples,), optional
        pos_label : label, optional
            The positive class; may be omitted for labels {0, 1}, {-1, 1}, {False, True}.
        name : str, optional
            Legend name of a single classifier.
        ax : matplotlib Axes, optional
            Cost-space axes to draw on; default a new figure.
        **kwargs
            Keyword arguments of :meth:`plot` (``pcf``, ``p_pos``, ``cost_fn``,
            ``cost_fp``, ``show_bands``, ``roc``, ...).

        Returns
        -------
        CostCurveDisplay
        """
        if isinstance(y_score, dict):
            if name is not None:
                raise ValueError("name= names one classifier; with a dict of scores the keys "
                                 "are the names.")
            from .model import classifiers_from_predictions

            # One label array for all: the classifiers are known to score the same cases.
            clfs = list(classifiers_from_predictions(y_true, y_score, pos_label=pos_label,
                                                     sample_weight=sample_weight).values())
        else:
            clfs = [Classifier.from_scores(y_true, y_score, name=name, pos_label=pos_label,
                                           sample_weight=sample_weight)]
        shown_label = clfs[0].pos_label if pos_label is None else pos_label
        return cls(classifiers=clfs, pos_label=shown_label).plot(ax=ax, **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, sample_weight=None, response_method="auto",
                       pos_label=None, name=None, ax=None, **kwargs):
        """Plot the cost curve of a fitted scikit-learn binary classifier on ``(X, y)``.

        Parameters
        ----------
        estimator : fitted classifier
            With ``predict_proba`` or ``decision_function`` and two ``classes_``.
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
        response_method : {"auto", "predict_proba", "decision_function"}, default "auto"
            ``"auto"`` tries ``predict_proba`` first, as scikit-learn does.
        pos_label : label, optional
            Default ``estimator.classes_[1]``.
        name : str, optional
            Default the estimator's class name.
        ax : matplotlib Axes, optional
        **kwargs
            Keyword arguments of :meth:`plot`.

        Returns
        -------
        CostCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.linear_model import LogisticRegression
        >>> import costwidget as cw
        >>> X, y = make_classification(n_samples=200, random_state=0)
        >>> clf = LogisticRegression().fit(X, y)
        >>> disp = cw.CostCurveDisplay.from_estimator(clf, X, y, roc=True)
        >>> disp.line_.get_label(), disp.roc_ax_.get_title()
        ('LogisticRegression', 'ROC space')
        """
        if name is None:
            name = type(estimator).__name__
        scores, pos_label = fitted_scores(estimator, X, pos_label=pos_label, label=name,
                                          response_method=response_method, cv_hint=False)
        clf = Classifier.from_scores(y, scores, name=name, pos_label=pos_label,
                                     sample_weight=sample_weight)
        return cls(classifiers=[clf], pos_label=pos_label).plot(ax=ax, **kwargs)

    # ------------------------------------------------------------------ drawing
    def plot(self, ax=None, *, name=None, pcf=None, p_pos=None, cost_fn=1.0, cost_fp=1.0,
             show_bands=False, band_level=0.9, random_state=0, cost_lines=False,
             plot_trivial=True, plot_best=None, roc=False, roc_ax=None, colors=None,
             curve_kwargs=None):
        """Draw the cost curves.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Cost-space axes. Default: a new figure (with ``roc=True``, two panes side by
            side, ROC space on the left, as in the widget).
        name : str or list of str, optional
            Legend names, overriding those given at construction.
        pcf : float, optional
            Operating point as PCF(+): draws the operating line, each classifier's NEC on
            it and, with ``roc=True``, the iso-performance lines.
        p_pos, cost_fn, cost_fp : float, optional
            Operating point as prevalence and costs (PCF(+) is computed, eq. 6); give
            either ``pcf`` or ``p_pos``.
        show_bands : bool, default False
            Pointwise bootstrap bands around the envelopes at ``band_level``
            (:meth:`Classifier.band`, with ``random_state``).
        cost_lines : bool, default False
            Every hull vertex's cost line (the y axis then runs to 1, else to 0.5).
        plot_trivial : bool, default True
            The trivial classifiers and the never-use region above them.
        plot_best : bool, optional
            The "best of all" envelope and who-wins strip; default when there are
            several classifiers.
        roc : bool, default False
            Also draw ROC space.
        roc_ax : matplotlib Axes, optional
            Where to draw ROC space when ``ax`` is given.
        colors : list of str, optional
            One colour per classifier; default the widget's palette.
        curve_kwargs : dict or list of dict, optional
            Keyword arguments of matplotlib's ``plot`` for the envelopes (one dict for all,
            or one per classifier).

        Returns
        -------
        CostCurveDisplay
        """
        from .export import matplotlib_panes as mp

        clfs = self.classifiers
        n = len(clfs)
        names = _names(name if name is not None else self.name, clfs)
        colors = list(colors) if colors is not None else mp.classifier_colors(n)
        if len(colors) != n:
            raise ValueError(f"colors has {len(colors)} entries for {n} classifiers.")
        kwargs_list = _curve_kwargs(curve_kwargs, n)
        pcf = _operating_pcf(pcf, p_pos, cost_fn, cost_fp)
        if roc and ax is not None and roc_ax is None:
            raise ValueError("with ax= and roc=True, pass roc_ax= as well (the ROC-space axes).")
        if ax is None:
            import matplotlib.pyplot as plt

            if roc:
                fig, (roc_ax, ax) = plt.subplots(1, 2, figsize=(10.5, 5.0), layout="constrained")
            else:
                fig, ax = plt.subplots(figsize=(5.5, 5.0), layout="constrained")

        self.trivial_ = mp.setup_cost(ax, ymax=1.0 if cost_lines else 0.5, trivial=plot_trivial)
        if self.pos_label is not None:
            ax.set_xlabel(f"{mp.PCF_LABEL}  (positive label: {mp.text(self.pos_label)})")
        self.bands_ = None
        if show_bands:
            # The band of the best achievable cost, as the widget draws it (Classifier.band).
            self.bands_ = [mp.draw_band(ax, clf.band(band_level, interval="basic",
                                                     random_state=random_state), c)
                           for clf, c in zip(clfs, colors)]
        if cost_lines:
            for clf, c in zip(clfs, colors):
                mp.draw_cost_lines(ax, clf, c)
        lines = [mp.draw_envelope(ax, clf, c, label=nm, **kw)
                 for clf, c, nm, kw in zip(clfs, colors, names, kwargs_list)]
        self.line_ = lines[0] if n == 1 else lines
        self.combined_ = None
        if (n > 1) if plot_best is None else plot_best:
            self.combined_, _ = mp.draw_combined(ax, clfs, dict(zip(names, colors)))
        self.operating_line_ = self.operating_points_ = None
        if pcf is not None:
            self.operating_line_, self.operating_points_ = mp.draw_operating_line(
                ax, pcf, [(clf.nec(pcf), c) for clf, c in zip(clfs, colors)])
        entries = [(nm, c, "-") for nm, c in zip(names, colors)]
        if self.combined_ is not None:
            entries.append(("best of all", "black", "--"))
        handles, labels = mp.legend_handles(entries)
        ax.legend(handles, labels, loc="upper right", fontsize="small")

        self.roc_ax_ = self.roc_line_ = None
        if roc:
            mp.setup_roc(roc_ax)
            hulls = [mp.draw_roc(roc_ax, clf, c, label=nm) for clf, c, nm in zip(clfs, colors, names)]
            if pcf is not None:
                best = [clf.best(pcf) for clf in clfs]
                mp.draw_iso_lines(roc_ax, [(b.fpr, b.tpr, c) for b, c in zip(best, colors)], pcf)
            self.roc_ax_ = roc_ax
            self.roc_line_ = hulls[0] if n == 1 else hulls
        self.ax_ = ax
        self.figure_ = ax.figure
        return self


def _names(name, clfs):
    if name is None:
        return [c.name if c.name is not None else f"classifier {i}" for i, c in enumerate(clfs)]
    if isinstance(name, str):
        if len(clfs) != 1:
            raise ValueError(f"name is one string for {len(clfs)} classifiers; give a list.")
        return [name]
    names = [str(n) for n in name]
    if len(names) != len(clfs):
        raise ValueError(f"name has {len(names)} entries for {len(clfs)} classifiers.")
    return names


def _curve_kwargs(curve_kwargs, n):
    if curve_kwargs is None:
        return [{}] * n
    if isinstance(curve_kwargs, dict):
        return [dict(curve_kwargs)] * n
    out = [dict(k) for k in curve_kwargs]
    if len(out) != n:
        raise ValueError(f"curve_kwargs has {len(out)} entries for {n} classifiers.")
    return out


def _operating_pcf(pcf, p_pos, cost_fn, cost_fp):
    if pcf is not None and p_pos is not None:
        raise ValueError("give the operating point as pcf= or as p_pos= (with cost_fn=, "
                         "cost_fp=), not both.")
    if p_pos is not None:
        return float(probability_cost(p_pos, cost_fn, cost_fp))
    if pcf is None:
        return None
    return float(check_pcf(pcf))
