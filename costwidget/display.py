"""`CostCurveDisplay`: static cost-curve figures with matplotlib, following scikit-learn's Display API.

Model side: imports neither ipywidgets nor bqplot, and matplotlib only when a figure is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping

from .export.display_constructors import DisplayConstructors
from .model import Classifier, check_pcf, combined_envelope, roc_auc

__all__ = ["CostCurveDisplay"]


class CostCurveDisplay(DisplayConstructors):
    """Cost curves (Drummond & Holte): lower envelopes in cost space, optionally beside ROC space.

    Build one with :meth:`from_predictions`, :meth:`from_estimator` or
    :meth:`from_cv_results` (they compute what is shown, bands included, and
    draw it), or from :class:`~costwidget.Classifier` objects, then call
    :meth:`plot`, which only draws. The marks, colours and labels are the widget's:
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
    pcf : float, optional
        The operating point's PCF(+): the operating line, each classifier's
        optimal NEC on it (:meth:`Classifier.best`) and, in ROC space, the
        iso-performance lines.
    bands : list of DataFrame, optional
        One band per classifier (``pcf``, ``lower``, ``upper``, as
        :meth:`Classifier.band` returns it), drawn around the envelopes.
    band_level : float, optional
        The bands' level, kept for the record.

    Attributes
    ----------
    name : str, list of str or None
        As given (:meth:`from_predictions`: ``"Classifier"`` by default;
        :meth:`from_estimator`: the estimator's class name).
    roc_auc : float or list of float
        Each classifier's area under the ROC curve (a list when there are several).
    pcf : float or None
        The operating point's PCF(+).
    operating_points : list of OperatingPoint or None
        Each classifier's optimal hull vertex at ``pcf`` (:meth:`Classifier.best`).
    best_of_all : DataFrame
        The lower envelope of all the classifiers (:func:`combined_envelope`).
    bands : list of DataFrame or None
        The bootstrap bands, one per classifier.
    band_level : float or None
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

    def __init__(
        self,
        *,
        classifiers,
        name=None,
        pos_label=None,
        folds=False,
        pcf=None,
        bands=None,
        band_level=None,
    ):
        clfs = [classifiers] if isinstance(classifiers, Classifier) else list(classifiers)
        if not clfs:
            raise ValueError("CostCurveDisplay needs at least one classifier.")
        for i, clf in enumerate(clfs):
            if not isinstance(clf, Classifier):
                raise TypeError(
                    f"classifiers[{i}] is a {type(clf).__name__}, not a costwidget "
                    "Classifier; build one with Classifier.from_scores(...)."
                )
        if bands is not None and len(bands) != len(clfs):
            raise ValueError(f"bands has {len(bands)} entries for {len(clfs)} classifiers.")
        self.classifiers = clfs
        self.name = name
        self.pos_label = pos_label
        self.folds = bool(folds)
        aucs = [roc_auc(clf) for clf in clfs]
        self.roc_auc = aucs[0] if len(clfs) == 1 else aucs
        # What plot() shows, computed here once: plot() only draws it.
        self.pcf = None if pcf is None else float(check_pcf(pcf))
        self.operating_points = None if pcf is None else [clf.best(self.pcf) for clf in clfs]
        self.best_of_all = combined_envelope(clfs)
        self.bands = None if bands is None else list(bands)
        self.band_level = band_level

    # ------------------------------------------------------------------ drawing
    def plot(
        self,
        ax=None,
        *,
        name=None,
        curve_kwargs=None,
        despine=False,
        roc=False,
        roc_ax=None,
        cost_lines=False,
        plot_trivial=True,
        trivial_kw=None,
        plot_best=None,
        colors=None,
        **kwargs,
    ):
        """Draw the cost curves: only draw, what the constructor (or ``from_*``) computed.

        The operating point and the bands are computed when the display is built
        (``pcf=``, ``show_bands=``, ``band_level=``, ``random_state=`` of the
        ``from_*`` constructors), as scikit-learn's ``RocCurveDisplay`` computes
        its curve in ``from_*`` and its ``plot`` draws it; ``plot`` can be called
        again on other axes at no cost.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Cost-space axes. Default: a new figure (with ``roc=True``, two panes side by
            side, ROC space on the left, as in the widget).
        name : str or list of str, optional
            Legend names, overriding those given at construction.
        curve_kwargs : dict or list of dict, optional
            Keyword arguments of matplotlib's ``plot`` for the envelopes, as
            scikit-learn's: one dict for all, or one per classifier. Aliases
            (``c``, ``lw``, ...) replace the defaults; a ``label`` replaces the
            legend label (``None``: no legend entry). The bands, cost lines,
            operating points take each envelope's colour, and the ROC hulls its
            colour, line style and alpha.
        despine : bool, default False
            Hide the top and right spines, as scikit-learn's ``despine``.
        roc : bool, default False
            Also draw ROC space (with the iso-performance lines at the operating point).
        roc_ax : matplotlib Axes, optional
            Where to draw ROC space when ``ax`` is given.
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
        colors : list of str, optional
            One colour per classifier; default the widget's palette (folds: its
            first colour).
        **kwargs
            None are accepted: a keyword that computes (``pcf``, ``p_pos``,
            ``cost_fn``, ``cost_fp``, ``show_bands``, ``band_level``,
            ``random_state``) belongs to the constructor that builds the display.

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
        import matplotlib.colors as mcolors

        from .export import curve_styles
        from .export import matplotlib_panes as mp

        _refuse_computing_keywords(kwargs)
        # Everything is checked before a figure is made: a refusal leaves none half drawn.
        names = self._curve_names(name if name is not None else self.name, curve_kwargs)
        aucs = self.roc_auc if isinstance(self.roc_auc, list) else [self.roc_auc]
        styles = curve_styles.curve_styles(
            aucs,
            [None if nm is None else mp.text(nm) for nm in names],
            curve_kwargs,
            self._default_colors(colors, mp),
            mp.ENVELOPE_STYLE,
            folds=self.folds,
        )
        colors = [mcolors.to_hex(s["color"]) for s in styles]  # the marks' colour, one spelling
        trivial_style = curve_styles.style_kwargs(mp.TRIVIAL_STYLE, trivial_kw)
        ax, roc_ax = _axes(ax, roc_ax, roc)
        self._draw_cost(ax, mp, styles, colors, trivial_style, cost_lines, plot_trivial, plot_best)
        self.roc_ax_ = self.roc_line_ = None
        if roc:
            self._draw_roc(roc_ax, mp, names, styles, colors)
        if despine:
            for axes in (ax, roc_ax) if roc else (ax,):
                mp.despine(axes)
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    def _draw_cost(self, ax, mp, styles, colors, trivial_style, cost_lines, plot_trivial, best):
        """Cost space, bottom first: trivial lines, bands, cost lines, envelopes, the best of
        all and its strip, the operating line, the legend."""
        clfs = self.classifiers
        self.trivial_ = mp.setup_cost(
            ax, ymax=1.0 if cost_lines else 0.5, trivial=plot_trivial, trivial_style=trivial_style
        )
        if self.pos_label is not None:
            ax.set_xlabel(f"{mp.PCF_LABEL}  (positive label: {mp.text(self.pos_label)})")
        self.bands_ = None
        if self.bands is not None:
            self.bands_ = [mp.draw_band(ax, band, c) for band, c in zip(self.bands, colors)]
        if cost_lines:
            for clf, c in zip(clfs, colors):
                mp.draw_cost_lines(ax, clf, c)
        lines = [mp.draw_envelope(ax, clf, **style) for clf, style in zip(clfs, styles)]
        self.line_ = lines[0] if len(clfs) == 1 else lines
        self.combined_ = None
        if (len(clfs) > 1 and not self.folds) if best is None else best:
            owners = [
                c.name if c.name is not None else f"classifier {i}" for i, c in enumerate(clfs)
            ]
            self.combined_, _ = mp.draw_combined(
                ax, clfs, dict(zip(owners, colors)), best=self.best_of_all
            )
        self.operating_line_ = self.operating_points_ = None
        if self.pcf is not None:
            self.operating_line_, self.operating_points_ = mp.draw_operating_line(
                ax, self.pcf, [(op.nec, c) for op, c in zip(self.operating_points, colors)]
            )
        self._legend(ax, lines, styles, trivial_style)

    def _draw_roc(self, roc_ax, mp, names, styles, colors):
        """ROC space: each hull looks like its envelope (the folds' dashes too), in its colour;
        the iso-performance lines through the operating points."""
        mp.setup_roc(roc_ax)
        hulls = [
            mp.draw_roc(
                roc_ax, clf, c, label=nm, **{k: s[k] for k in ("linestyle", "alpha") if k in s}
            )
            for clf, c, nm, s in zip(self.classifiers, colors, names, styles)
        ]
        if self.pcf is not None:
            points = [(op.fpr, op.tpr, c) for op, c in zip(self.operating_points, colors)]
            mp.draw_iso_lines(roc_ax, points, self.pcf)
        self.roc_ax_ = roc_ax
        self.roc_line_ = hulls[0] if len(hulls) == 1 else hulls

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
        if self.folds and n > 1 and (curve_kwargs is None or isinstance(curve_kwargs, Mapping)):
            raise ValueError(
                "To avoid labeling individual curves that have the same appearance, "
                f"`curve_kwargs` should be a list of {n} dictionaries. Alternatively,"
                " set `name` to `None` or a single string to label a single legend "
                "entry for all curves."
            )
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
            ax.legend(
                [h for h, _ in entries],
                [lab for _, lab in entries],
                loc="upper right",
                fontsize="small",
            )


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


_COMPUTING = ("pcf", "p_pos", "cost_fn", "cost_fp", "show_bands", "band_level", "random_state")


def _refuse_computing_keywords(kwargs):
    if not kwargs:
        return
    moved = [k for k in kwargs if k in _COMPUTING]
    if moved:
        raise TypeError(
            f"plot() only draws; {', '.join(k + '=' for k in moved)} "
            f"{'is' if len(moved) == 1 else 'are'} computed when the display is built: pass "
            f"{'it' if len(moved) == 1 else 'them'} to CostCurveDisplay.from_predictions, "
            "from_estimator or from_cv_results (or pcf= and bands= to CostCurveDisplay(...))."
        )
    raise TypeError(f"plot() got unexpected keyword arguments: {sorted(kwargs)}.")
