"""`CostWidget`: a plain Python class that composes the widget's components over one state.

Each component owns its controls, its marks, its observers and its ``sync()``
(draw from the whole state; skip when nothing it depends on changed). The
widget wires them to one `WidgetState`, one error area, one `Transaction`
(lock, loop guard, rollback) and one `BackgroundWork` (the worker thread and
the busy sign), and decides the z-order of the marks in each pane.
"""

from __future__ import annotations


import ipywidgets as widgets
import traitlets

from ..model import Classifier, classifiers_from_predictions
from .background import BackgroundWork
from .classifier_layers import ClassifierLayers
from .constraint import ConstraintTool
from .context import Context
from .difference import DifferenceView
from .drawing import PALETTE, ClassifierDrawing
from .errors import ErrorArea
from .figures import Figures
from .fill_layer import FillBetweenLayer
from .hover import HoverTool
from .operating_point import OperatingPointTool
from .range_of_interest import RangeOfInterest
from .headline import Headline
from .readout import Readout
from .state import WidgetState
from .lifecycle import reachable_widgets, widgets_held_by
from .transaction import Transaction

__all__ = ["CostWidget", "STATE_TRAITS"]

#: The settable state traits: the analysis a snapshot records and a rollback restores.
STATE_TRAITS = ("p_pos", "cost_fn", "cost_fp", "constraint", "max_fpr", "capacity", "n_pos",
                "n_neg", "show_cost_lines", "show_bands", "band_level", "show_fold_spread", "difference", "visible",
                "range_of_interest")
STATE_TRAITS += ("threshold_choice", "show_decision_curve")  # issue 21


class _StateTrait:
    """``w.p_pos`` etc.: read and set a trait of ``w.state`` (read-only traits raise TraitError)."""

    def __set_name__(self, owner, name):
        self.name = name
        self.__doc__ = f"State trait ``{name}`` (see `WidgetState`)."

    def __get__(self, obj, owner=None):
        return self if obj is None else getattr(obj.state, self.name)

    def __set__(self, obj, value):
        setattr(obj.state, self.name, value)


def _named(classifiers):
    """The classifiers with distinct names; unnamed ones get "classifier i" on a *copy*, so the
    user's objects are never changed."""
    classifiers = list(classifiers)
    if not classifiers:
        raise ValueError("CostWidget needs at least one classifier.")
    out = []
    for i, clf in enumerate(classifiers):
        if not isinstance(clf, Classifier):
            raise TypeError(f"classifiers[{i}] is a {type(clf).__name__}, not a costwidget "
                            "Classifier; build one with Classifier.from_scores(...).")
        if clf.name is None:
            clf = clf.renamed(f"classifier {i}")
        out.append(clf)
    names = [c.name for c in out]
    if len(set(names)) != len(names):
        dupes = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"Classifier names must be distinct, got {names} ({dupes} repeated); "
                         "give each a name= when you build it.")
    return out


class CostWidget:
    """Synchronized ROC and cost-curve panes for choosing a classifier and its threshold.

    Parameters
    ----------
    classifiers : sequence of Classifier
        Each with a distinct name (unnamed ones are shown as "classifier i").
    p_pos : float, optional
        Deployment prevalence; default the first classifier's data prevalence (else 0.5).
    cost_fn, cost_fp : float, default 1.0
        Costs of a false negative C(-|+) and a false positive C(+|-), in your units.

    Notes
    -----
    The state lives in ``w.state`` (traitlets); ``w.p_pos`` etc. read and set
    it, and the panes follow. An invalid value raises (``TraitError`` or
    ``ValueError``) and leaves the state as it was; in the browser the same
    refusal is shown in the widget's error banner. Bands, the fold spread and
    the difference view are computed on a worker thread: ``w.busy`` is True
    while one runs, and ``w.wait()`` returns when all are drawn.

    Examples
    --------
    >>> import costwidget as cw
    >>> a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    >>> w = cw.CostWidget([a], p_pos=0.5)
    >>> w.cost_fn = 3.0
    >>> w.pcf
    0.75
    >>> w.readout.loc["A", ["fpr", "tpr"]].tolist()
    [1.0, 1.0]
    >>> w.close()
    """

    p_pos = _StateTrait()
    cost_fn = _StateTrait()
    cost_fp = _StateTrait()
    @property
    def pcf(self):
        """PCF(+). Setting it moves p(+) and keeps the costs, as a click in the cost pane does
        (exactly here, to 1e-12 for cost ratios up to 10^4); where a cost is 0, p(+) cannot
        move PCF(+) and a cost changes instead (`costwidget.model.move_to_pcf`)."""
        return self.state.pcf

    @pcf.setter
    def pcf(self, value):
        self.operating_tool.set_pcf_exactly(value)

    constraint = _StateTrait()
    max_fpr = _StateTrait()
    capacity = _StateTrait()
    n_pos = _StateTrait()
    n_neg = _StateTrait()
    show_cost_lines = _StateTrait()
    show_bands = _StateTrait()
    band_level = _StateTrait()
    show_fold_spread = _StateTrait()
    difference = _StateTrait()
    visible = _StateTrait()
    range_of_interest = _StateTrait()
    threshold_choice = _StateTrait()  # issue 21
    show_decision_curve = _StateTrait()  # issue 21
    busy = _StateTrait()  # read-only: setting raises TraitError

    def __init__(self, classifiers, *, p_pos=None, cost_fn=1.0, cost_fp=1.0):
        self.classifiers = _named(classifiers)
        names = [c.name for c in self.classifiers]
        first = self.classifiers[0]
        total = None if first.n_pos is None else first.n_pos + first.n_neg
        if p_pos is None:
            p_pos = next((c.prevalence for c in self.classifiers if c.prevalence is not None), 0.5)
        self.state = WidgetState(p_pos=p_pos, cost_fn=cost_fn, cost_fp=cost_fp, names=names,
                                 visible=names)
        if total is not None:
            self.state.n_pos, self.state.n_neg = float(first.n_pos), float(first.n_neg)
            self.state.capacity = float(first.n_pos)
            self.state.follow_population()  # issue 23: the population follows p(+) until set
        self.colors = {c.name: PALETTE[i % len(PALETTE)] for i, c in enumerate(self.classifiers)}
        self.errors = ErrorArea()
        self._tx = Transaction(self.state, self.errors, STATE_TRAITS)
        self._background = BackgroundWork(self._tx, self._set_busy)
        drawings = [ClassifierDrawing.build(c, self.colors[c.name]) for c in self.classifiers]
        ctx = Context(state=self.state, tx=self._tx, errors=self.errors, figures=Figures(),
                      drawings=drawings, background=self._background)
        self._ctx = ctx
        self.figures = ctx.figures
        # ------------------------------------------------------------- components
        self.hover_tool = HoverTool(ctx)
        self.classifier_layers = ClassifierLayers(ctx, tooltip=self.hover_tool.info)
        self.hover_tool.connect(self.classifier_layers)
        self.operating_tool = OperatingPointTool(ctx)
        self.constraint_tool = ConstraintTool(ctx, total_cases=total)
        self.band_layer = FillBetweenLayer(
            ctx, slot="bands", label="bands", enabled="show_bands",
            request=lambda s: s.band_level,
            # The envelope band (threshold re-optimized in every replicate, Drummond & Holte
            # (2004), sec. 8) as a basic bootstrap interval: the percentile one covers the best
            # achievable cost too rarely, the minimum being biased low (see Classifier.band).
            compute=lambda clf, level: clf.band(level, interval="basic", random_state=0),
            check=_check_resamplable)
        self.fold_spread_layer = FillBetweenLayer(
            ctx, slot="fold spread", label="fold spread", enabled="show_fold_spread",
            request=lambda s: "min-max", compute=lambda clf, _req: clf.fold_spread(),
            applies=lambda clf: bool(clf.folds), opacity=0.10, line_style="dotted",
            stroke_width=1,
            none_message="no visible classifier has folds: build them with folds= (or "
                         "CostWidget.from_frame(..., fold='fold')) to see the fold spread.")
        self.difference_view = DifferenceView(ctx)
        self.readout_view = Readout(ctx, self.operating_tool, self.constraint_tool)
        self.headline = Headline(ctx, self.readout_view)  # issue 23
        self.range_tool = RangeOfInterest(ctx)
        self._components = [self.classifier_layers, self.constraint_tool, self.operating_tool,
                            self.readout_view, self.headline, self.band_layer,
                            self.fold_spread_layer, self.difference_view, self.range_tool]
        # issue 21: threshold choice (cost-pane curves, tables) and the decision-curve pane
        from .decision_curve_view import DecisionCurveView
        from .threshold_choice_view import ThresholdChoiceView
        self.threshold_choice_view = ThresholdChoiceView(ctx)
        self.decision_curve_view = DecisionCurveView(ctx)
        self._components += [self.threshold_choice_view, self.decision_curve_view]
        self._compose()
        self._tx.redraw = self._redraw
        self._tx.push_controls = self._push_controls
        self.state.observe(self._tx.on_state_change, names=list(STATE_TRAITS))
        with self._tx.held():
            self._redraw()
            self._push_controls()
            self._tx.good = self._tx.snapshot()

    # ------------------------------------------------------------------ composition
    def _compose(self):
        layers, op, con, hov = (self.classifier_layers, self.operating_tool, self.constraint_tool,
                                self.hover_tool)
        # Later marks are drawn on top. In the cost pane the click bars lie above the filled
        # areas (which would take the click) and below the hover dots and the drag handle.
        self.figures.compose(
            roc_marks=[*layers.roc_curves, *layers.hull_lines, con.roc_line, op.iso_lines,
                       *layers.hull_vertices, con.roc_points, op.chosen, hov.roc_highlight],
            cost_marks=[*self.range_tool.marks, *self.fold_spread_layer.marks, *self.band_layer.marks,
                        *self.threshold_choice_view.marks, *layers.cost_lines,
                        con.cost_lines, *layers.envelopes, layers.combined, layers.winner_strip,
                        op.operating_line, op.click_bars, *layers.segment_hover, op.nec_points,
                        hov.cost_highlight, op.handle])
        self.show_bands_box = widgets.Checkbox(
            description="bands", style={"description_width": "initial"},
            tooltip="pointwise bootstrap band of the best achievable cost at each PCF(+)")
        self.band_level_slider = widgets.FloatSlider(description="level", min=0.5, max=0.99,
                                                     step=0.01, readout_format=".0%",
                                                     style={"description_width": "initial"},
                                                     tooltip="confidence level of the bands")
        self.show_fold_spread_box = (widgets.Checkbox(description="fold spread (min–max)",
                                                      style={"description_width": "initial"})
                                     if any(c.folds for c in self.classifiers) else None)
        from .sliders import SliderBinding
        s, tx = self.state, self._tx
        self._display_bindings = [
            SliderBinding(self.show_bands_box, tx, lambda v: setattr(s, "show_bands", v), "bands"),
            SliderBinding(self.band_level_slider, tx, lambda v: setattr(s, "band_level", v),
                          "band level"),
        ]
        if self.show_fold_spread_box is not None:
            self._display_bindings.append(SliderBinding(
                self.show_fold_spread_box, tx, lambda v: setattr(s, "show_fold_spread", v),
                "fold spread"))
        from .theme import style_widget

        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        draw = [widgets.HTML("<b>draw:</b>"), self.classifier_layers.show_cost_lines,
                self.show_bands_box, self.band_level_slider]
        if self.show_fold_spread_box is not None:
            draw.append(self.show_fold_spread_box)
        draw += [self.threshold_choice_view.control, self.decision_curve_view.toggle]  # issue 21
        rows = [widgets.HBox(draw, layout=wrap)]
        if self.difference_view.controls is not None:
            rows.append(self.difference_view.controls)
        # The panes share the width, or stack when it is narrow (theme.CSS). The legend row is
        # above them; the readout comes right under the constraint that shapes it.
        panes = widgets.HBox([self.figures.roc, self.figures.cost])
        panes.add_class("costwidget-panes")
        self.widget = widgets.VBox([
            style_widget(), self.errors.widget, self._background.widget,
            self.headline.widget,  # issue 23: the answer, above the controls and panes
            self.operating_tool.widget, self.classifier_layers.picker_row, panes,
            self.decision_curve_view.widget,  # issue 21: the decision-curve pane, under the panes
            widgets.VBox(rows), self.constraint_tool.widget, self.readout_view.widget,
            self.readout_view.constrained_widget, self.threshold_choice_view.widget,
            self.difference_view.widget,
            self.range_tool.widget, self.hover_tool.info,
        ])
        self.widget.add_class("costwidget")

    def _redraw(self):
        for component in self._components:
            component.sync()

    def _push_controls(self):
        with self._tx.pushing():
            self.operating_tool.push_controls()
            self.constraint_tool.push_controls()
            self.classifier_layers.push_controls()
            self.difference_view.push_controls()
            self.range_tool.push_controls()
            self.threshold_choice_view.push_controls()  # issue 21
            self.decision_curve_view.push_controls()
            s = self.state
            self.show_bands_box.value = s.show_bands
            self._display_bindings[1].push(s.band_level)
            if self.show_fold_spread_box is not None:
                self.show_fold_spread_box.value = s.show_fold_spread

    def _set_busy(self, busy: bool):
        self.state.set_trait("busy", bool(busy))

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_predictions(cls, y_true, scores, *, pos_label=None, sample_weight=None, **kwargs):
        """One classifier per entry of ``scores`` (``{"name": y_score}``) on the same ``y_true``.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        scores : dict
            ``{name: y_score}``, each an array-like of shape (n_samples,).
        pos_label : int, float, bool or str, optional
            The positive class (as in ``sklearn.metrics.roc_curve``).
        sample_weight : array-like of shape (n_samples,), optional
        **kwargs
            ``p_pos``, ``cost_fn``, ``cost_fp`` of :class:`CostWidget`.

        Returns
        -------
        CostWidget

        Examples
        --------
        >>> import costwidget as cw
        >>> w = cw.CostWidget.from_predictions([0, 1, 1, 0], {"m": [0.1, 0.8, 0.6, 0.3]})
        >>> float(w.readout.loc["m", "tpr"])
        1.0
        """
        if not isinstance(scores, dict) or not scores:
            raise TypeError("scores must be a non-empty dict {name: y_score}.")
        # One reading of the labels: the classifiers are known to score the same cases, so
        # the difference view can pair them (even when y_true is a list).
        clfs = list(classifiers_from_predictions(
            y_true, {str(n): s for n, s in scores.items()}, pos_label=pos_label,
            sample_weight=sample_weight).values())
        return cls(clfs, **kwargs)

    @classmethod
    def from_frame(cls, df, *, y_true="label", y_score="score", model="model", fold=None,
                   instance=None, pos_label=None, **kwargs):
        """Long-format scores: one row per (model, case) with a label and a score column.

        Delegates to :meth:`Classifier.from_frame`: with ``fold=`` (a column name)
        each classifier keeps its folds; ``instance=`` checks that every model
        scores the same cases. Other keywords go to :class:`CostWidget`.

        Examples
        --------
        >>> import pandas as pd, costwidget as cw
        >>> df = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "label": [0, 1, 1, 0] * 2,
        ...                    "score": [.1, .8, .6, .3, .5, .4, .9, .2]})
        >>> w = cw.CostWidget.from_frame(df)
        >>> list(w.readout.index)
        ['a', 'b']
        """
        clfs = Classifier.from_frame(df, y_true=y_true, y_score=y_score, model=model, fold=fold,
                                     instance=instance, pos_label=pos_label)
        return cls(list(clfs.values()), **kwargs)

    @classmethod
    def from_estimators(cls, estimators, X, y, *, cv=5, pos_label=None, response_method="auto",
                        **kwargs):
        """Cross-validated scores of scikit-learn estimators, one classifier each (extra ``sklearn``).

        Delegates to :func:`costwidget.model.estimators.classifiers_from_estimators`: the
        splits are drawn once, so every estimator is scored on the same folds (the difference
        view can pair them); ``decision_function`` scores follow ``pos_label``.

        Parameters
        ----------
        estimators : dict or list
            ``{"name": estimator}``, or a list of estimators (named by class; a repeated
            class name gets " (2)", " (3)", ...) or ``(name, estimator)`` pairs.
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        cv : int, CV splitter, iterable or None, default=5
            None scores already fitted estimators on ``(X, y)``.
        pos_label : optional
            The positive class; default the larger label.
        response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
        **kwargs
            ``p_pos``, ``cost_fn``, ``cost_fp`` of :class:`CostWidget`.

        Returns
        -------
        CostWidget

        Examples
        --------
        >>> import numpy as np, costwidget as cw
        >>> from sklearn.linear_model import LogisticRegression
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 3))
        >>> y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
        >>> w = cw.CostWidget.from_estimators([LogisticRegression(), LogisticRegression(C=0.01)], X, y)
        >>> list(w.readout.index)
        ['LogisticRegression', 'LogisticRegression (2)']
        """
        from ..model import classifiers_from_estimators

        clfs = classifiers_from_estimators(estimators, X, y, cv=cv, pos_label=pos_label,
                                           response_method=response_method)
        return cls(list(clfs.values()), **kwargs)

    # ------------------------------------------------------------------ state API
    def observe(self, handler, names=traitlets.All):
        """Observe state traits (as ``HasTraits.observe``). The handler never runs while the
        widget holds its lock (it is called once the change is drawn), so it may call
        ``wait()``, ``snapshot()``, ``to_figure()``, ``to_html()``..."""
        self._tx.observe_user(handler, names)

    def unobserve(self, handler, names=traitlets.All):
        """Remove a handler added with :meth:`observe` (the same ``names``)."""
        self._tx.unobserve_user(handler, names)

    def update(self, **traits):
        """Set several state traits at once, all or nothing.

        The first refusal raises and leaves every trait as it was.

        Examples
        --------
        >>> import costwidget as cw
        >>> w = cw.CostWidget([cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")])
        >>> w.update(p_pos=0.2, cost_fn=4.0)
        >>> round(w.pcf, 3)
        0.5
        >>> try:
        ...     w.update(p_pos=0.9, band_level=2.0)
        ... except ValueError as exc:
        ...     print(exc)
        band_level must lie strictly between 0 and 1, got 2.0.
        >>> w.p_pos
        0.2
        """
        self._tx.update(**traits)

    def wait(self, timeout=None):
        """Block until no background computation is pending (bands, fold spread, difference).

        Called on the kernel's thread (a cell) it draws the results as they arrive, so it
        never waits on the loop it blocks.

        Parameters
        ----------
        timeout : float, optional
            Seconds; raise ``TimeoutError`` if work is still pending then.

        Examples
        --------
        >>> import costwidget as cw
        >>> w = cw.demo()
        >>> w.show_bands = True    # returns at once; the bands compute in the background
        >>> w.wait(timeout=120)
        >>> w.busy, sorted(w.drawn_bands) == sorted(w.visible)
        (False, True)
        >>> w.close()
        """
        self._background.wait(timeout)

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """The live view, plus a static PNG (and an <img>) for wherever the widget cannot render
        (nbconvert without widget state, LaTeX/PDF, GitHub's viewer).

        Displaying never waits for background work: the image shows what is drawn now (bands
        still computing are left out of it, as they are from the live panes at that moment)."""
        return _export().mimebundle(self, include=include, exclude=exclude, **kwargs)

    # ------------------------------------------------------------------ export (export.py)
    def snapshot(self) -> dict:
        """The current analysis as a plain, JSON-serialisable dict (see :meth:`restore`).

        It holds the operating point (p(+), both costs, PCF(+)), the constraint and its
        result, the visible classifiers, the band settings, the difference pair, the range of
        interest and the readout rows, with a fingerprint of every classifier.

        Examples
        --------
        >>> import json, costwidget as cw
        >>> w = cw.demo()
        >>> w.cost_fn = 5.0
        >>> snap = json.loads(json.dumps(w.snapshot()))
        >>> w.cost_fn = 1.0
        >>> w.restore(snap)
        >>> w.cost_fn
        5.0
        """
        return _export().snapshot(self)

    def restore(self, snapshot) -> None:
        """Bring this widget back to a :meth:`snapshot` of a widget over the same classifiers.

        A snapshot of other classifiers, or a malformed one, is refused with a message saying
        what is wrong; nothing changes then.
        """
        _export().restore(self, snapshot)

    def to_figure(self, **kwargs):
        """The current state drawn with matplotlib: both panes side by side, the same marks,
        colours and labels, and a caption with the operating point. Returns the Figure."""
        return _export().to_figure(self, **kwargs)

    def save(self, path, **kwargs):
        """Write the current state to ``path``: ``.png``, ``.svg``, ``.pdf`` (vector) or
        ``.html`` (:meth:`to_html`), chosen by the suffix. Returns the path."""
        return _export().save(self, path, **kwargs)

    def to_html(self, path=None, *, cdn=False, interactive=True):
        """A standalone HTML page of the current state (offline by default; ``cdn=True`` loads
        the scripts from a CDN for a smaller page). With ``path``, writes the page there and
        returns the path; without, returns the page's text. ``interactive=False``: a page
        whose operating point is not recomputed."""
        return _export().to_html(self, path, cdn=cdn, interactive=interactive)

    def to_frame(self) -> dict:
        """Tidy DataFrames of every visible classifier: envelope, hull, bands and readout."""
        return _export().to_frame(self)

    def snapshot_cell(self, **kwargs) -> None:
        """Display a static image of the current state as a normal cell output (it survives
        nbconvert and GitHub's viewer, where the live widget does not)."""
        _export().snapshot_cell(self, **kwargs)

    # ------------------------------------------------------------------ what is shown
    @property
    def readout(self):
        """DataFrame indexed by classifier name at the current operating point (visible ones)."""
        return self.readout_view.table()

    @property
    def range_table(self):
        """Per visible classifier over the range of interest: the thesis's MTMCR, sensitivity and
        CST (grid and exact), the recommended one and the span of optimal thresholds; None when
        no range is set (see :func:`costwidget.range_summary`)."""
        return self.range_tool.table

    # --- decision rule to deploy (issue 21; see decision_rule.py) ---
    def decision_rule(self, name=None):
        """The rule to deploy for classifier ``name`` (default: the lowest expected cost shown,
        under the active constraint): a frozen `costwidget.model.DecisionRule` whose
        ``to_dict()`` is JSON. See :func:`costwidget.model.decision_rule`."""
        from .decision_rule import widget_decision_rule
        return widget_decision_rule(self, name)

    def to_estimator(self, name=None):
        """That rule as a ``sklearn.model_selection.FixedThresholdClassifier`` (classifiers made
        from estimators; cross-validated ones are refit on all the data, the threshold having
        been chosen on out-of-fold scores). See :func:`costwidget.model.to_estimator`."""
        from .decision_rule import widget_to_estimator
        return widget_to_estimator(self, name)
    # --- end decision rule ---

    @property
    def constrained(self):
        """``{name: ConstrainedPoint}`` of the active constraint (empty when none)."""
        return dict(self.constraint_tool.constrained)

    @property
    def drawn_bands(self):
        """``{name: band DataFrame}`` of the bootstrap bands on screen (empty when off)."""
        return {k: v.copy() for k, v in self.band_layer.drawn.items()}

    @property
    def drawn_fold_spreads(self):
        """``{name: DataFrame}`` of the fold-spread bands on screen (empty when off)."""
        return {k: v.copy() for k, v in self.fold_spread_layer.drawn.items()}

    @property
    def difference_band(self):
        """The difference view's band (see :func:`costwidget.difference_band`), or None when off."""
        shown = self.difference_view.shown
        return None if shown is None else shown[0].copy()

    @property
    def difference_intervals(self):
        """pcf intervals where the shown difference is significant (``pcf_lo``, ``pcf_hi``,
        ``sign``: +1 where ``difference[0]`` costs more), or None when the view is off."""
        shown = self.difference_view.shown
        return None if shown is None else shown[1].copy()

    # ------------------------------------------------------------------ lifecycle
    def close(self):
        """Close every widget this `CostWidget` created (and stop its background work).

        Examples
        --------
        >>> import costwidget as cw
        >>> with cw.CostWidget([cw.Classifier.from_confusion(tp=1, fn=1, fp=1, tn=1, name="A")]) as w:
        ...     w.p_pos = 0.3
        """
        self._background.close()
        roots = [self.widget, self._background.widget]
        for component in [*self._components, self.hover_tool, self.figures]:
            roots += widgets_held_by(component)
        for w in reachable_widgets(roots):
            w.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _export():
    from . import export

    return export


def _check_resamplable(clf):
    """Bands resample the cases: refuse at once what cannot be resampled (weights, rates only)."""
    from ..model import scored_arrays

    if clf.sample is not None:
        scored_arrays(clf, "bands")
