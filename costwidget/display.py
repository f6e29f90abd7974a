"""`CostCurveDisplay`: static cost-curve figures with matplotlib, following scikit-learn's Display API.

Model side: imports neither ipywidgets nor bqplot, and matplotlib only when a figure is drawn.
"""

from __future__ import annotations

from .model import Classifier, check_pcf, probability_cost, roc_auc

__all__ = ["CostCurveDisplay"]


class CostCurveDisplay:
    """Cost curves (Drummond & Holte): lower envelopes in cost space, optionally beside ROC space.

    Build one with :meth:`from_predictions`, :meth:`from_estimator` or
    :meth:`from_cv_results`, or from :class:`~costwidget.Classifier` objects,
    then call :meth:`plot`. The marks, colours and labels are the widget's:
    each classifier's envelope, the trivial classifiers ``y = x`` ("all
    negative") and ``y = 1 - x`` ("all positive") with the never-use region
    above them, the "best of all" envelope and a strip coloured by who is best
    where, an operating line with each classifier's NEC, bootstrap bands, and
    with ``roc=True`` the ROC pane (curves, hulls, and the iso-performance
    lines at the operating point). As scikit-learn's ``RocCurveDisplay``, the
    legend names each curve with its ROC AUC: ``"name (AUC = 0.xx)"``.

    Parameters
    ----------
    classifiers : Classifier or list of Classifier
    name : str or list of str, optional
        Legend names. Default: each classifier's ``name`` (``"classifier i"``
        for an unnamed one); with ``folds=True``, none, as scikit-learn's
        folds (the legend then shows the AUC only).
    pos_label : label, optional
        The positive class, shown in the x-axis label.
    folds : bool, default False
        The classifiers are the cross-validation folds of one model (as
        :meth:`from_cv_results` builds them), drawn as scikit-learn draws
        folds: alike, and with one legend entry for all, the mean AUC +/- its
        standard deviation, unless ``curve_kwargs`` is a list. Otherwise each
        classifier has a colour of its own and a legend entry.

    Attributes
    ----------
    name : str, list of str or None
        As given (:meth:`from_predictions`: ``"Classifier"`` by default;
        :meth:`from_estimator`: the estimator's class name).
    roc_auc : float or list of float
        Each classifier's area under the ROC curve (a list when there are several).
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
    roc_line_ : matplotlib Line2D or list of Line2D or None
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
    'model (AUC = 0.89)'
    >>> disp.line_.get_xydata().tolist()         # the envelope's exact breakpoints
    [[0.0, 0.0], [0.6, 0.2], [1.0, 0.0]]
    >>> disp.operating_line_.get_xdata()[0]
    0.68
    >>> disp.figure_.savefig("cost_curve.svg")    # doctest: +SKIP
    """

    def __init__(self, *, classifiers, name=None, pos_label=None, folds=False):
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
        self.folds = bool(folds)
        aucs = [roc_auc(clf) for clf in clfs]
        self.roc_auc = aucs[0] if len(clfs) == 1 else aucs

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
            Legend name of a single classifier; default ``"Classifier"``, as
            scikit-learn's. With a dict of scores the keys are the names.
        ax : matplotlib Axes, optional
            Cost-space axes to draw on; default a new figure.
        **kwargs
            Keyword arguments of :meth:`plot` (``pcf``, ``p_pos``, ``cost_fn``,
            ``cost_fp``, ``curve_kwargs``, ``trivial_kw``, ``despine``,
            ``show_bands``, ``roc``, ...).

        Returns
        -------
        CostCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import costwidget as cw
        >>> y = [0, 0, 1, 1, 0, 1]
        >>> disp = cw.CostCurveDisplay.from_predictions(
        ...     y, {"a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.7], "b": [0.3, 0.2, 0.6, 0.5, 0.4, 0.9]},
        ...     curve_kwargs=[{"lw": 1}, {"c": "black", "linestyle": ":"}])
        >>> disp.name, [line.get_label() for line in disp.line_]
        (['a', 'b'], ['a (AUC = 0.89)', 'b (AUC = 1.00)'])
        >>> disp.line_[1].get_color(), disp.line_[0].get_linewidth()
        ('black', 1.0)
        """
        if isinstance(y_score, dict):
            if name is not None:
                raise ValueError("name= names one classifier; with a dict of scores the keys "
                                 "are the names.")
            from .model import classifiers_from_predictions

            # One label array for all: the classifiers are known to score the same cases.
            clfs = list(classifiers_from_predictions(y_true, y_score, pos_label=pos_label,
                                                     sample_weight=sample_weight).values())
            name = [clf.name for clf in clfs]
        else:
            name = "Classifier" if name is None else name
            clfs = [Classifier.from_scores(y_true, y_score, name=name, pos_label=pos_label,
                                           sample_weight=sample_weight)]
        shown_label = clfs[0].pos_label if pos_label is None else pos_label
        return cls(classifiers=clfs, name=name, pos_label=shown_label).plot(ax=ax, **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, sample_weight=None, response_method="auto",
                       pos_label=None, name=None, ax=None, **kwargs):
        """Plot the cost curve of a fitted scikit-learn binary classifier on ``(X, y)``.

        The scores are scikit-learn's own (``_get_response_values_binary``,
        as its ``RocCurveDisplay`` gets them), and so are the errors: an
        unfitted estimator raises ``NotFittedError``, a missing response
        method ``AttributeError``, a regressor or a multiclass classifier
        ``ValueError``.

        Parameters
        ----------
        estimator : fitted classifier
            A binary classifier, or a pipeline ending in one.
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
        >>> disp.name, disp.line_.get_label(), disp.roc_ax_.get_title()
        ('LogisticRegression', 'LogisticRegression (AUC = 0.98)', 'ROC space')
        """
        name = type(estimator).__name__ if name is None else name
        y_score, pos_label = _response_values(estimator, X, response_method, pos_label)
        clf = Classifier.from_scores(y, y_score, name=name, pos_label=pos_label,
                                     sample_weight=sample_weight)
        return cls(classifiers=[clf], name=name, pos_label=pos_label).plot(ax=ax, **kwargs)

    @classmethod
    def from_cv_results(cls, cv_results, X, y, *, sample_weight=None, response_method="auto",
                        pos_label=None, name=None, ax=None, **kwargs):
        """Plot one cost curve per cross-validation fold, as ``RocCurveDisplay.from_cv_results``.

        Each fold's estimator scores its own test samples. scikit-learn has
        ``RocCurveDisplay.from_cv_results`` from 1.7; this one needs only
        ``cross_validate(..., return_indices=True)`` (scikit-learn >= 1.3).

        Parameters
        ----------
        cv_results : dict
            As returned by ``sklearn.model_selection.cross_validate`` with
            ``return_estimator=True`` and ``return_indices=True``.
        X : array-like of shape (n_samples, n_features)
            The data that was cross-validated.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
        response_method : {"auto", "predict_proba", "decision_function"}, default "auto"
        pos_label : label, optional
            Default ``classes_[1]`` of the folds' estimators.
        name : str or list of str, optional
            One name for all folds, or one per fold (then ``curve_kwargs`` must
            be a list, so that the curves told apart by name look different,
            as scikit-learn requires). Default none: the legend shows the AUC.
        ax : matplotlib Axes, optional
        **kwargs
            Keyword arguments of :meth:`plot`. ``curve_kwargs`` as one dict
            styles every fold, with one legend entry for all (the mean AUC +/-
            its standard deviation); as a list of one dict per fold, each fold
            has a legend entry.

        Returns
        -------
        CostCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import cross_validate
        >>> import costwidget as cw
        >>> X, y = make_classification(n_samples=200, random_state=0)
        >>> cv = cross_validate(LogisticRegression(), X, y, cv=3, return_estimator=True,
        ...                     return_indices=True)
        >>> disp = cw.CostCurveDisplay.from_cv_results(cv, X, y)
        >>> disp.line_[0].get_label(), len(disp.line_)
        ('AUC = 0.96 +/- 0.02', 3)
        >>> disp = cw.CostCurveDisplay.from_cv_results(cv, X, y, name="LR",
        ...                                            curve_kwargs=[{}, {"c": "red"}, {}])
        >>> [line.get_label() for line in disp.line_]
        ['LR (AUC = 0.98)', 'LR (AUC = 0.93)', 'LR (AUC = 0.96)']
        """
        from sklearn.utils import _safe_indexing

        _check_cv_results(cv_results, X, y, sample_weight)
        clfs = []
        for estimator, test in zip(cv_results["estimator"], cv_results["indices"]["test"]):
            y_score, fold_pos_label = _response_values(estimator, _safe_indexing(X, test),
                                                       response_method, pos_label)
            weight = None if sample_weight is None else _safe_indexing(sample_weight, test)
            clfs.append(Classifier.from_scores(_safe_indexing(y, test), y_score,
                                               pos_label=fold_pos_label, sample_weight=weight))
        return cls(classifiers=clfs, name=name, pos_label=fold_pos_label,
                   folds=True).plot(ax=ax, **kwargs)

    # ------------------------------------------------------------------ drawing
    def plot(self, ax=None, *, name=None, pcf=None, p_pos=None, cost_fn=1.0, cost_fp=1.0,
             show_bands=False, band_level=0.9, random_state=0, cost_lines=False,
             plot_trivial=True, trivial_kw=None, plot_best=None, roc=False, roc_ax=None,
             colors=None, curve_kwargs=None, despine=False):
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
        trivial_kw : dict, optional
            Keyword arguments of matplotlib's ``plot`` for both trivial lines
            (as scikit-learn's ``chance_level_kw``); aliases such as ``c``,
            ``lw``, ``ls`` replace the defaults. A ``label`` gives the pair one
            legend entry (``trivial_[0]`` carries it).
        plot_best : bool, optional
            The "best of all" envelope and who-wins strip; default when there are
            several classifiers that are not folds.
        roc : bool, default False
            Also draw ROC space.
        roc_ax : matplotlib Axes, optional
            Where to draw ROC space when ``ax`` is given.
        colors : list of str, optional
            One colour per classifier; default the widget's palette (folds: its
            first colour).
        curve_kwargs : dict or list of dict, optional
            Keyword arguments of matplotlib's ``plot`` for the envelopes, as
            scikit-learn's: one dict for all, or one per classifier. Aliases
            (``c``, ``lw``, ...) replace the defaults; a ``label`` replaces the
            legend label (``None``: no legend entry). The bands, cost lines,
            operating points take each envelope's colour, and the ROC hulls its
            colour, line style and alpha.
        despine : bool, default False
            Hide the top and right spines, as scikit-learn's ``despine``.

        Returns
        -------
        CostCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="m")
        >>> disp = cw.CostCurveDisplay(classifiers=clf).plot(
        ...     curve_kwargs={"c": "red", "lw": 1}, trivial_kw={"ls": ":", "label": "trivial"},
        ...     despine=True)
        >>> disp.line_.get_color(), disp.trivial_[0].get_linestyle()
        ('red', ':')
        >>> [t.get_text() for t in disp.ax_.get_legend().get_texts()]
        ['m (AUC = 0.75)', 'trivial']
        """
        from .export import curve_styles, matplotlib_panes as mp

        clfs = self.classifiers
        n = len(clfs)
        names = self._curve_names(name if name is not None else self.name, curve_kwargs)
        aucs = [roc_auc(clf) for clf in clfs]
        styles = curve_styles.curve_styles(
            aucs, [None if nm is None else mp.text(nm) for nm in names], curve_kwargs,
            self._default_colors(colors, mp), mp.ENVELOPE_STYLE, folds=self.folds)
        trivial_style = curve_styles.style_kwargs(mp.TRIVIAL_STYLE, trivial_kw)
        pcf = _operating_pcf(pcf, p_pos, cost_fn, cost_fp)
        ax, roc_ax = _axes(ax, roc_ax, roc)
        import matplotlib.colors as mcolors

        colors = [mcolors.to_hex(s["color"]) for s in styles]

        self.trivial_ = mp.setup_cost(ax, ymax=1.0 if cost_lines else 0.5, trivial=plot_trivial,
                                      trivial_style=trivial_style)
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
        lines = [mp.draw_envelope(ax, clf, **style) for clf, style in zip(clfs, styles)]
        self.line_ = lines[0] if n == 1 else lines
        self.combined_ = None
        if (n > 1 and not self.folds) if plot_best is None else plot_best:
            owners = [c.name if c.name is not None else f"classifier {i}"
                      for i, c in enumerate(clfs)]
            self.combined_, _ = mp.draw_combined(ax, clfs, dict(zip(owners, colors)))
        self.operating_line_ = self.operating_points_ = None
        if pcf is not None:
            self.operating_line_, self.operating_points_ = mp.draw_operating_line(
                ax, pcf, [(clf.nec(pcf), c) for clf, c in zip(clfs, colors)])
        self._legend(ax, lines, styles, trivial_style)

        self.roc_ax_ = self.roc_line_ = None
        if roc:
            mp.setup_roc(roc_ax)
            # Each hull looks like its envelope (the folds' dashes too), in its colour.
            hulls = [mp.draw_roc(roc_ax, clf, c, label=nm,
                                 **{k: s[k] for k in ("linestyle", "alpha") if k in s})
                     for clf, c, nm, s in zip(clfs, colors, names, styles)]
            if pcf is not None:
                best = [clf.best(pcf) for clf in clfs]
                mp.draw_iso_lines(roc_ax, [(b.fpr, b.tpr, c) for b, c in zip(best, colors)], pcf)
            self.roc_ax_ = roc_ax
            self.roc_line_ = hulls[0] if n == 1 else hulls
        if despine:
            for axes in (ax, roc_ax) if roc else (ax,):
                mp.despine(axes)
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    def _curve_names(self, name, curve_kwargs) -> list:
        """One legend name (or None) per curve, by scikit-learn's rules for folds."""
        clfs = self.classifiers
        n = len(clfs)
        if name is None:
            if self.folds:
                return [None] * n
            return [c.name if c.name is not None else f"classifier {i}" for i, c in enumerate(clfs)]
        if isinstance(name, str):
            if n != 1 and not self.folds:
                raise ValueError(f"name is one string for {n} classifiers; give a list.")
            return [name] * n
        names = [str(nm) for nm in name]
        if self.folds and len(names) == 1:
            return names * n
        if len(names) != n:
            raise ValueError(f"name has {len(names)} entries for {n} classifiers.")
        if self.folds and n > 1 and (curve_kwargs is None or isinstance(curve_kwargs, dict)):
            raise ValueError("To avoid labeling individual curves that have the same appearance, "
                             f"`curve_kwargs` should be a list of {n} dictionaries. Alternatively,"
                             " set `name` to `None` or a single string to label a single legend "
                             "entry for all curves.")
        return names

    def _default_colors(self, colors, mp) -> list:
        n = len(self.classifiers)
        if colors is None:
            return [mp.PALETTE[0]] * n if self.folds else mp.classifier_colors(n)
        colors = list(colors)
        if len(colors) != n:
            raise ValueError(f"colors has {len(colors)} entries for {n} classifiers.")
        return colors

    def _legend(self, ax, lines, styles, trivial_style):
        """Every labelled mark, with its label as given (matplotlib would drop a label starting
        with "_" if it collected them itself)."""
        entries = [(line, s["label"]) for line, s in zip(lines, styles) if s["label"] is not None]
        if self.trivial_ is not None and trivial_style.get("label") is not None:
            entries.append((self.trivial_[0], trivial_style["label"]))
        if self.combined_ is not None:
            entries.append((self.combined_, "best of all"))
        if entries:
            ax.legend([h for h, _ in entries], [lab for _, lab in entries], loc="upper right",
                      fontsize="small")


def _axes(ax, roc_ax, roc):
    """The cost-space and ROC-space axes: those given, or a new figure's."""
    if roc and ax is not None and roc_ax is None:
        raise ValueError("with ax= and roc=True, pass roc_ax= as well (the ROC-space axes).")
    if ax is None:
        import matplotlib.pyplot as plt

        if roc:
            _, (roc_ax, ax) = plt.subplots(1, 2, figsize=(10.5, 5.0), layout="constrained")
        else:
            _, ax = plt.subplots(figsize=(5.5, 5.0), layout="constrained")
    return ax, roc_ax


def _response_values(estimator, X, response_method, pos_label):
    """(scores of the positive class, pos_label), and the errors, as scikit-learn's displays get
    them: NotFittedError, AttributeError for a missing method, ValueError for a regressor or
    more than two classes or an unknown pos_label."""
    from sklearn.utils._response import _get_response_values_binary

    return _get_response_values_binary(estimator, X, response_method=response_method,
                                       pos_label=pos_label)


def _check_cv_results(cv_results, X, y, sample_weight):
    """scikit-learn's checks of ``from_cv_results``' input (its messages, but for the keys
    missing, which are named)."""
    from sklearn.utils import check_consistent_length
    from sklearn.utils.multiclass import type_of_target
    from sklearn.utils.validation import _num_samples

    missing = [key for key in ("estimator", "indices") if key not in cv_results]
    if missing:
        raise ValueError(f"`cv_results` does not contain the required keys {missing}: pass "
                         "return_estimator=True and return_indices=True to cross_validate.")
    n_samples = len(cv_results["indices"]["train"][0]) + len(cv_results["indices"]["test"][0])
    if _num_samples(X) != n_samples:
        raise ValueError("`X` does not contain the correct number of samples. "
                         f"Expected {n_samples}, got {_num_samples(X)}.")
    if type_of_target(y) != "binary":
        raise ValueError(f"The target `y` is not binary. Got {type_of_target(y)} type of target.")
    check_consistent_length(X, y, sample_weight)


def _operating_pcf(pcf, p_pos, cost_fn, cost_fp):
    if pcf is not None and p_pos is not None:
        raise ValueError("give the operating point as pcf= or as p_pos= (with cost_fn=, "
                         "cost_fp=), not both.")
    if p_pos is not None:
        return float(probability_cost(p_pos, cost_fn, cost_fp))
    if pcf is None:
        return None
    return float(check_pcf(pcf))
