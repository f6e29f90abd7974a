"""`CostWidget`: a plain Python class that composes the widget's components over one state.

Each component owns its controls, its marks, its observers and its ``sync()``
(draw from the whole state; skip when nothing it depends on changed). The
widget builds them from one registry (``components.COMPONENTS``) on one
`WidgetState`, one error area, one `Transaction` (lock, loop guard, rollback)
and one `BackgroundWork` (the worker thread and the busy sign), and iterates
the registry to redraw, to push the controls and to close; `layout` decides
the z-order of the marks in each pane and where each component's boxes go. The public methods that only read or export the state
come from small mixins: `state_traits`, `constructors`, `shown_results`,
`export_methods`.
"""

from __future__ import annotations

import traitlets

from ..model import data_prior
from .components import COMPONENTS, build_components
from .constructors import Constructors, named_classifiers
from .controls.layout import build_widget, compose_marks
from .export_methods import ExportMethods
from .panes.drawing import PALETTE, ClassifierDrawing
from .panes.figures import Figures
from .state.background import BackgroundWork
from .state.context import Context
from .state.errors import ErrorArea
from .state.lifecycle import reachable_widgets, widgets_held_by
from .state.per_case_costs import per_case_costs
from .state.state import WidgetState
from .state.state_traits import STATE_TRAITS, StateTraits
from .state.transaction import Transaction
from .text.shown_results import ShownResults

__all__ = ["CostWidget", "STATE_TRAITS"]


class CostWidget(StateTraits, Constructors, ShownResults, ExportMethods):
    """Synchronized ROC and cost-curve panes for choosing a classifier and its threshold.

    Parameters
    ----------
    classifiers : sequence of Classifier
        Each with a distinct name (unnamed ones are shown as "classifier i").
    p_pos : float, optional
        Deployment prevalence; default the first classifier's data prevalence (else 0.5).
    cost_fn, cost_fp : float, default 1.0
        Costs of a false negative C(-|+) and a false positive C(+|-), in your units. For
        classifiers with per-case costs (``cost_fn=`` ... of ``Classifier.from_scores``; all of
        the classifiers, over the same cases and costs) they are multipliers of each case's
        ``cost_fn`` and ``cost_fp`` (1: as given), the panes show the cost-weighted ROC and
        cost curves, and costs are money per case
        (:mod:`costwidget.widget.state.per_case_costs`).

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

    def __init__(self, classifiers, *, p_pos=None, cost_fn=1.0, cost_fp=1.0):
        self.classifiers = named_classifiers(classifiers)
        names = [c.name for c in self.classifiers]
        first = self.classifiers[0]
        total = None if first.n_pos is None else first.n_pos + first.n_neg
        if p_pos is None and getattr(first, "case_costs", None) is not None:
            p_pos = data_prior(self.classifiers)  # their prevalence is the cost-weighted one
        if p_pos is None:
            p_pos = next((c.prevalence for c in self.classifiers if c.prevalence is not None), 0.5)
        self.per_case = per_case_costs(self.classifiers, p_pos, cost_fn, cost_fp)
        self.state = WidgetState(
            p_pos=p_pos, cost_fn=cost_fn, cost_fp=cost_fp, names=names, visible=names
        )
        if self.per_case is not None:
            self.state.cost_units = self.per_case.units  # the multipliers' PCF(+)
            self.state.derive()
            self.per_case.state = self.state
            self.per_case.redraw_twins = self._redraw_twins  # twins that move with the setting
        self.state.per_case = self.per_case  # what the views read of the per-case costs
        population = None if total is None else (float(first.n_pos), float(first.n_neg))
        if self.per_case is not None:  # a limit counts the cases, not their cost weights
            population = self.per_case.cases
            total = sum(population)
        if population is not None:
            self.state.n_pos, self.state.n_neg = population
            self.state.capacity = population[0]
            self.state.follow_population()  # the population follows p(+) until it is set
        self.colors = {c.name: PALETTE[i % len(PALETTE)] for i, c in enumerate(self.classifiers)}
        self._total = total
        self.errors = ErrorArea()
        if self.per_case is not None:
            self.per_case.errors = self.errors
        self._tx = Transaction(self.state, self.errors, STATE_TRAITS)
        self._background = BackgroundWork(self._tx, self._set_busy)
        drawn = self.classifiers if self.per_case is None else self.per_case.twins
        drawings = [
            ClassifierDrawing.build(c, self.colors[c.name], source=src)
            for c, src in zip(drawn, self.classifiers)
        ]
        ctx = Context(
            state=self.state,
            tx=self._tx,
            errors=self.errors,
            figures=Figures(),
            drawings=drawings,
            background=self._background,
        )
        self._ctx = ctx
        self.figures = ctx.figures
        # The components (widget/components.py), each also an attribute: w.operating_tool, ...
        self._components = build_components(ctx, self, self._entries)
        for name, component in self._components.items():
            setattr(self, name, component)
        self.show_bands_box = self.draw_controls.show_bands_box
        self.band_level_slider = self.draw_controls.band_level_slider
        self.show_fold_spread_box = self.draw_controls.show_fold_spread_box
        compose_marks(self.figures, self._components.values())
        self.widget = build_widget(self, self._components.values())
        self._tx.redraw = self._redraw
        self._tx.push_controls = self._push_controls
        self.state.observe(self._tx.on_state_change, names=list(STATE_TRAITS))
        # The page's code draws the operating point while a front end is attached.
        from .live.frontend_link import link_widget

        self.frontend_link = link_widget(self)
        with self._tx.held():
            self._redraw()
            self._push_controls()
            self._tx.good = self._tx.snapshot()

    #: The registry the widget is built from (a subclass or a test may extend it).
    _entries = COMPONENTS

    # ------------------------------------------------------------------ composition
    def _redraw(self):
        self._redrawing = True
        try:
            for component in self._components.values():
                component.sync()
        finally:
            self._redrawing = False

    def _redraw_twins(self, twins):
        """Per-case costs whose twins move: draw ``twins`` instead, inside the redraw of the
        move (the per-case component syncs first). Every drawing is made before any is
        swapped in; then each component drops what it drew from the old ones
        (`Component.drawings_changed`) and its ``sync``, next in this redraw, draws the new."""
        old = self._ctx.drawings
        new = [ClassifierDrawing.build(t, d.color, source=d.given) for t, d in zip(twins, old)]
        old[:] = new  # in place: components and hover targets hold this list
        for component in self._components.values():
            component.drawings_changed()

    def _honest_drawn(self):
        # Honest curves arriving from the background change the decision: every view redraws.
        if not getattr(self, "_redrawing", False):
            self._redraw()
        if getattr(self, "frontend_link", None) is not None:  # the page's decision reads them too
            self.frontend_link.resend()

    def _push_controls(self):
        with self._tx.pushing():
            for component in self._components.values():
                component.push_controls()

    def _set_busy(self, busy: bool):
        self.state.set_trait("busy", bool(busy))

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
        for component in self._components.values():
            component.close()
        # The figures (a figure not yet shown is in no view), the layout's own boxes, and the
        # links no view holds.
        roots = [self.widget, self._background.widget, *widgets_held_by(self.figures)]
        for w in reachable_widgets(roots):
            w.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
