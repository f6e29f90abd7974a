"""`CostWidget`: a plain Python class owning the state, the controls and the two panes."""

from __future__ import annotations

import collections
import contextlib
import html
import math

import ipywidgets as widgets
import numpy as np
import traitlets

from ..model import (Classifier, combined_envelope, difference_band, probability_cost,
                     significant_intervals)
from ..model.geometry import (cost_line_value, cost_ratio_for_pcf, iso_performance_segment,
                              workforce_segment)
from .controls import Controls
from .drawing import PALETTE, ClassifierDrawing
from .errors import ErrorArea
from .panes import TRIVIAL_COLOR, Panes
from .readout import readout_frame, readout_html
from .state import WidgetState

__all__ = ["CostWidget"]

STATE_TRAITS = ("p_pos", "cost_fn", "cost_fp", "pcf", "constraint", "max_fpr", "capacity",
                "n_pos", "n_neg", "show_bands", "band_level", "show_fold_spread", "difference",
                "visible")


def _state_property(name):
    def get(self):
        return getattr(self.state, name)

    def set(self, value):
        setattr(self.state, name, value)

    return property(get, set, doc=f"State trait ``{name}`` (see `WidgetState`).")


class CostWidget:
    """Synchronized ROC and cost-curve panes for choosing a classifier and its threshold.

    Parameters
    ----------
    classifiers : sequence of Classifier
        Each with a distinct name.
    p_pos : float, optional
        Deployment prevalence; default the first classifier's data prevalence (else 0.5).
    cost_fn, cost_fp : float, default 1.0
        Costs of a false negative C(-|+) and a false positive C(+|-), in your units.

    The state lives in ``w.state`` (traitlets); ``w.p_pos`` etc. read and set it.
    Display ``w`` (or ``w.widget``) in Jupyter.

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
    """

    def __init__(self, classifiers, *, p_pos=None, cost_fn=1.0, cost_fp=1.0):
        classifiers = list(classifiers)
        if not classifiers:
            raise ValueError("CostWidget needs at least one classifier.")
        for i, clf in enumerate(classifiers):
            if not isinstance(clf, Classifier):
                raise TypeError(f"classifiers[{i}] is a {type(clf).__name__}, not a costwidget "
                                "Classifier; build one with Classifier.from_scores(...).")
        names = [c.name if c.name is not None else f"classifier {i}" for i, c in enumerate(classifiers)]
        if len(set(names)) != len(names):
            raise ValueError(f"Classifier names must be distinct, got {names}.")
        for clf, name in zip(classifiers, names):
            if clf.name is None:
                clf.name = name
        self.classifiers = classifiers
        self.drawings = [ClassifierDrawing.build(c, PALETTE[i % len(PALETTE)])
                         for i, c in enumerate(classifiers)]
        self._by_name = {d.name: d for d in self.drawings}
        self.errors = ErrorArea()
        self.panes = Panes(self.drawings)
        first = classifiers[0]
        total = None if first.n_pos is None else first.n_pos + first.n_neg
        self.controls = Controls(names, total_cases=total,
                                 has_folds=any(c.folds for c in classifiers))
        if p_pos is None:
            p_pos = next((c.prevalence for c in classifiers if c.prevalence is not None), 0.5)
        state = WidgetState(p_pos=p_pos, cost_fn=cost_fn, cost_fp=cost_fp, names=names, visible=names)
        state.set_trait("pcf", float(probability_cost(p_pos, cost_fn, cost_fp)))
        if total is not None:
            state.n_pos, state.n_neg = float(first.n_pos), float(first.n_neg)
            state.capacity = float(first.n_pos)
        self.state = state
        self._syncing = False
        self._pushed = {}
        self._constrained = {}
        self._placing_handle = False
        self._fold_spread_cache = {}
        self._difference = None  # (band, intervals) of the pair shown, or None
        self._build_layout()
        self._wire()
        self._redraw_visibility()
        self._redraw_constraint()
        self._redraw_operating_point()
        self._sync_controls()

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_predictions(cls, y_true, scores, *, pos_label=None, sample_weight=None, **kwargs):
        """One classifier per entry of ``scores`` (``{"name": y_score}``) on the same ``y_true``.

        Examples
        --------
        >>> import costwidget as cw
        >>> w = cw.CostWidget.from_predictions([0, 1, 1, 0], {"m": [0.1, 0.8, 0.6, 0.3]})
        >>> float(w.readout.loc["m", "tpr"])
        1.0
        """
        if not isinstance(scores, dict) or not scores:
            raise TypeError("scores must be a non-empty dict {name: y_score}.")
        clfs = [Classifier.from_scores(y_true, s, name=str(n), pos_label=pos_label,
                                       sample_weight=sample_weight) for n, s in scores.items()]
        return cls(clfs, **kwargs)

    @classmethod
    def from_frame(cls, df, *, y_true="label", y_score="score", model="model", fold=None,
                   instance=None, pos_label=None, **kwargs):
        """Long-format scores: one row per (model, case) with a label and a score column.

        Delegates to :meth:`Classifier.from_frame`: with ``fold=`` (a column name)
        each classifier keeps its folds; ``instance=`` checks that every model
        scores the same cases. Other keywords go to :class:`CostWidget`.
        """
        clfs = Classifier.from_frame(df, label=y_true, score=y_score, model=model, fold=fold,
                                     instance=instance, pos_label=pos_label)
        return cls(list(clfs.values()), **kwargs)

    @classmethod
    def from_estimators(cls, estimators, X, y, *, cv=5, pos_label=None, **kwargs):
        """Cross-validated scores of scikit-learn estimators (``{"name": estimator}`` or a list)."""
        try:
            from sklearn.model_selection import cross_val_predict
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("from_estimators needs scikit-learn: pip install 'costwidget[sklearn]'."
                              ) from exc
        if not isinstance(estimators, dict):
            estimators = {type(e).__name__: e for e in estimators}
        y_arr = np.asarray(y)
        scores = {}
        for name, est in estimators.items():
            method = "predict_proba" if hasattr(est, "predict_proba") else "decision_function"
            out = cross_val_predict(est, X, y_arr, cv=cv, method=method)
            if out.ndim == 2:
                classes = np.unique(y_arr)
                pos = pos_label if pos_label is not None else classes[-1]
                out = out[:, int(np.flatnonzero(classes == pos)[0])]
            scores[name] = out
        return cls.from_predictions(y_arr, scores, pos_label=pos_label, **kwargs)

    # ------------------------------------------------------------------ display / API
    for _name in STATE_TRAITS:
        locals()[_name] = _state_property(_name)
    del _name

    def observe(self, handler, names=traitlets.All):
        """Observe state traits (as ``HasTraits.observe``)."""
        self.state.observe(handler, names=names)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    @property
    def readout(self):
        """DataFrame indexed by classifier name at the current operating point (visible ones)."""
        return readout_frame(self._visible_drawings(), self.state, self._constrained)

    @property
    def difference_band(self):
        """The difference view's band (see :func:`costwidget.difference_band`), or None when off."""
        return None if self._difference is None else self._difference[0].copy()

    @property
    def difference_intervals(self):
        """pcf intervals where the shown difference is significant (``pcf_lo``, ``pcf_hi``,
        ``sign``: +1 where ``difference[0]`` costs more), or None when the view is off."""
        return None if self._difference is None else self._difference[1].copy()

    # ------------------------------------------------------------------ layout and wiring
    def _build_layout(self):
        c = self.controls
        operating, constraint, picker = c.layout()
        self.readout_widget = widgets.HTML()
        self.readout_widget.add_class("costwidget-readout")
        self.constraint_message = widgets.HTML()
        panes = widgets.HBox([self.panes.roc_figure, self.panes.cost_figure])
        # Empty until the difference view is first shown: a bqplot figure drawn while
        # hidden has no size and makes the browser log errors about negative sizes.
        self.difference_row = widgets.HBox([], layout=widgets.Layout(align_items="center"))
        difference = self.difference_row
        self.widget = widgets.VBox([
            self.errors.widget, operating, panes, picker, difference, self.readout_widget,
            widgets.HTML("<b>Constraint</b>"), constraint, self.constraint_message,
            self.panes.hover_info,
        ])
        self.widget.add_class("costwidget")

    def _wire(self):
        s, c, g = self.state, self.controls, self.errors.guard
        s.observe(g("redraw")(self._on_operating_point), names=["p_pos", "cost_fn", "cost_fp"])
        s.observe(g("constraint")(self._on_constraint),
                  names=["constraint", "max_fpr", "capacity", "n_pos", "n_neg"])
        s.observe(g("classifier picker")(self._on_visible), names=["visible"])
        s.observe(g("bands")(self._on_bands), names=["show_bands", "band_level"])
        s.observe(g("fold spread")(self._on_fold_spread), names=["show_fold_spread"])
        s.observe(g("difference")(self._on_difference), names=["difference"])
        self._link(c.show_bands, lambda v: setattr(s, "show_bands", v), "bands")
        self._link(c.band_level, lambda v: setattr(s, "band_level", v), "band level")
        # Controls -> state, refused with a message when invalid (state unchanged).
        self._link(c.p_pos, lambda v: None if self._is_echo(c.p_pos, v)
                   else setattr(s, "p_pos", v), "p(+)")
        self._link(c.cost_fn, lambda v: s.set_costs(v, s.cost_fp), "C(-|+)")
        self._link(c.cost_fp, lambda v: s.set_costs(s.cost_fn, v), "C(+|-)")
        self._link(c.log_ratio, self._set_ratio, "cost ratio")
        self._link(c.constraint, lambda v: setattr(s, "constraint", v), "constraint")
        self._link(c.max_fpr, lambda v: setattr(s, "max_fpr", v), "max FPR")
        self._link(c.capacity, self._set_capacity_from_control, "capacity")
        self._link(c.capacity_unit, lambda v: self._sync_controls(), "capacity unit")
        self._link(c.n_pos, lambda v: setattr(s, "n_pos", v), "population positives")
        self._link(c.n_neg, lambda v: setattr(s, "n_neg", v), "negatives")
        self._link(c.show_cost_lines, lambda v: self._redraw_visibility(), "cost lines")
        if c.show_fold_spread is not None:
            self._link(c.show_fold_spread, lambda v: setattr(s, "show_fold_spread", v), "fold spread")
        if c.show_difference is not None:
            for control in (c.show_difference, c.difference_a, c.difference_b):
                self._link(control, lambda v: self._set_difference_from_controls(), "difference")
        for name, box in c.picker.items():
            self._link(box, lambda v, name=name: self._toggle(name, v), "classifier picker")
        self.panes.click_bars.on_element_click(
            g("click in cost pane")(lambda _m, ev: self._set_pcf_from_pane(
                self.panes.click_pcf[ev["data"]["index"]])))
        self.panes.operating_handle.observe(g("drag in cost pane")(self._on_drag), names=["x"])
        for d, scatter in zip(self.drawings, self.panes.hull_vertices):
            scatter.on_hover(g("hover")(lambda _m, ev, d=d: self._hover(d, ev["data"]["index"])))
        for d, scatter in zip(self.drawings, self.panes.segment_hover):
            scatter.on_hover(g("hover")(
                lambda _m, ev, d=d: self._hover(d, int(d.segment_vertex[ev["data"]["index"]]))))

    def _link(self, control, apply, label):
        def on_change(change):
            if self._syncing:
                return
            try:
                apply(change["new"])
                self.errors.clear()
            except Exception as exc:  # noqa: BLE001 - refused input: message, state unchanged
                self.errors.show(exc, context=f"{label} refused")
            self._sync_controls()  # show the state (the old one if refused)

        control.observe(on_change, names=["value"])

    @staticmethod
    def _snap(slider, value) -> float:
        """The value the browser's slider shows for ``value``: snapped to its step grid."""
        if isinstance(slider, widgets.FloatLogSlider):
            exp = slider.min + round((math.log(value, slider.base) - slider.min) / slider.step) \
                * slider.step
            return slider.base ** exp
        return slider.min + round((value - slider.min) / slider.step) * slider.step

    def _is_echo(self, slider, value) -> bool:
        """Sliders snap a value set from Python to their step in the browser and send the
        snapped value back, possibly after later state changes. Such an echo is not a user
        move: ignoring it (once) prevents update loops."""
        pending = self._pushed.get(id(slider), [])
        for i, snapped in enumerate(pending):
            if abs(value - snapped) <= 1e-6 * max(abs(snapped), slider.step):
                del pending[i]
                return True
        return False

    def _push(self, slider, value):
        if value > 0 or not isinstance(slider, widgets.FloatLogSlider):
            snapped = self._snap(slider, value)
            if snapped != value:
                pending = self._pushed.setdefault(id(slider), [])
                pending.append(snapped)
                del pending[:-8]
        slider.value = value

    def _set_ratio(self, ratio):
        if self._is_echo(self.controls.log_ratio, ratio):
            return
        self.state.set_costs(float(ratio) * self.state.cost_fp, self.state.cost_fp)

    def _set_capacity_from_control(self, value):
        if self.controls.capacity_unit.value == "cases":
            self.state.capacity = value
        else:
            self.state.capacity = value / 100.0 * (self.state.n_pos + self.state.n_neg)

    def _set_difference_from_controls(self):
        c = self.controls
        on = c.show_difference.value
        self.state.difference = [c.difference_a.value, c.difference_b.value] if on else []

    def _toggle(self, name, shown):
        order = [d.name for d in self.drawings]
        current = set(self.state.visible)
        current = current | {name} if shown else current - {name}
        self.state.visible = [n for n in order if n in current]

    def _set_pcf_from_pane(self, x):
        """A click or drag in the cost pane: keep p(+), change the cost ratio to give pcf = x."""
        x = float(np.clip(x, 0.0, 1.0 - 1e-9))
        ratio = cost_ratio_for_pcf(x, self.state.p_pos)
        self.state.set_costs(ratio * self.state.cost_fp, self.state.cost_fp)

    def _on_drag(self, change):
        if self._placing_handle or change["new"] is None or len(change["new"]) == 0:
            return  # our own redraw moved the handle, not the user
        self._set_pcf_from_pane(np.asarray(change["new"], dtype=float).ravel()[0])

    def _sync_controls(self):
        """State -> controls, without echoing back into the state (no update loops)."""
        s, c = self.state, self.controls
        self._syncing = True
        try:
            self._push(c.p_pos, min(max(s.p_pos, c.p_pos.min), c.p_pos.max))
            c.cost_fn.value = s.cost_fn
            c.cost_fp.value = s.cost_fp
            if s.cost_fp > 0 and s.cost_fn > 0:
                self._push(c.log_ratio, s.cost_fn / s.cost_fp)
            c.pcf.value = f"PCF(+) = <b>{s.pcf:.4f}</b>"
            c.constraint.value = s.constraint
            c.max_fpr.value = s.max_fpr
            total = s.n_pos + s.n_neg
            if c.capacity_unit.value == "cases":
                c.capacity.max = max(total, 1e-9)
                c.capacity.value = s.capacity
            else:
                c.capacity.max = 100.0
                c.capacity.value = 100.0 * s.capacity / total if total else 0.0
            c.n_pos.value = s.n_pos
            c.n_neg.value = s.n_neg
            for name, box in c.picker.items():
                box.value = name in s.visible
            c.show_bands.value = s.show_bands
            c.band_level.value = s.band_level
            if c.show_fold_spread is not None:
                c.show_fold_spread.value = s.show_fold_spread
            if c.show_difference is not None:
                c.show_difference.value = bool(s.difference)
                if s.difference:
                    c.difference_a.value, c.difference_b.value = s.difference
        finally:
            self._syncing = False

    # ------------------------------------------------------------------ redraws
    def _visible_drawings(self):
        shown = set(self.state.visible)
        return [d for d in self.drawings if d.name in shown]

    def _guarded_redraw(self, change, redraw):
        try:
            redraw()
        except Exception:
            # Keep the last good state: the marks were not touched (all numbers are
            # computed before any mark is set), so put the trait back as well.
            if not self._syncing:
                self._syncing = True
                try:
                    self.state.set_trait(change["name"], change["old"])
                    self.state.set_trait("pcf", probability_cost(
                        self.state.p_pos, self.state.cost_fn, self.state.cost_fp))
                finally:
                    self._syncing = False
            raise
        finally:
            self._sync_controls()

    def _on_operating_point(self, change):
        self._guarded_redraw(change, self._redraw_operating_point)
        self.errors.clear()

    def _on_constraint(self, change):
        self._guarded_redraw(change, lambda: (self._redraw_constraint(),
                                              self._redraw_operating_point()))
        self.errors.clear()

    def _on_visible(self, change):
        self._guarded_redraw(change, lambda: (self._redraw_visibility(), self._redraw_constraint(),
                                              self._redraw_operating_point(),
                                              self._redraw_bands(), self._redraw_fold_spread()))
        self.errors.clear()

    def _on_bands(self, change):
        redraws = [self._redraw_bands]
        if change["name"] == "band_level" and self.state.difference:
            redraws.append(self._redraw_difference)
        self._guarded_redraw(change, lambda: [redraw() for redraw in redraws])
        self.errors.clear()

    def _on_fold_spread(self, change):
        self._guarded_redraw(change, self._redraw_fold_spread)
        self.errors.clear()

    def _on_difference(self, change):
        self._guarded_redraw(change, self._redraw_difference)
        self.errors.clear()

    def _fold_spread(self, d):
        """(x, [lower, upper]) of the min-max band of a classifier's fold envelopes, computed once."""
        if d.name not in self._fold_spread_cache:
            self._fold_spread_cache[d.name] = _band_xy(d.clf.fold_spread())
        return self._fold_spread_cache[d.name]

    def _redraw_fold_spread(self):
        """The spread of each visible classifier's fold envelopes (004_… section 7)."""
        s, p = self.state, self.panes
        visible = self._visible_drawings()
        if s.show_fold_spread and not any(d.clf.folds for d in visible):
            raise ValueError("no visible classifier has folds: build them with folds= (or "
                             "CostWidget.from_frame(..., fold='fold')) to see the fold spread.")
        self._draw_bands(p.fold_spreads, {d.name: self._fold_spread(d) for d in visible
                                          if s.show_fold_spread and d.clf.folds})

    def _redraw_difference(self):
        """NEC_a − NEC_b with its paired band, and where the band excludes 0 (004_… section 9)."""
        s, p = self.state, self.panes
        if not s.difference:
            self._difference = None
            self.difference_row.children = ()
            p.difference_caption.value = ""
            return
        name_a, name_b = s.difference
        a, b = self._by_name[name_a], self._by_name[name_b]
        # Replicates are cached by the model for a fixed random_state: a new level is cheap.
        band = difference_band(a.clf, b.clf, s.band_level, random_state=0)
        intervals = significant_intervals(band)
        x, (lower, upper) = _band_xy(band)
        diff = band["diff"].to_numpy()
        reach = max(np.abs(lower).max(), np.abs(upper).max(), np.abs(diff).max(), 1e-3) * 1.1
        # A run of significant grid points is drawn half a grid step wider on each side,
        # so that a single significant point still shows.
        half = 0.5 * (x[1] - x[0]) if len(x) > 1 else 0.0
        seg_x = np.clip(np.column_stack([intervals["pcf_lo"] - half, intervals["pcf_hi"] + half]),
                        0.0, 1.0)
        # sign +1: a costs more, so b is the better one there.
        seg_colors = [b.color if sign > 0 else a.color for sign in intervals["sign"]]
        caption = _difference_caption(name_a, name_b, s.band_level, intervals,
                                      band.attrs.get("coarsening_bound"))
        with self._hold(p.difference_band, p.difference_line, p.difference_significant,
                        p.difference_operating_line):
            p.difference_y.min, p.difference_y.max = -reach, reach
            p.difference_band.x, p.difference_band.y = x, np.vstack([lower, upper])
            p.difference_line.x, p.difference_line.y = x, diff
            if len(seg_x):
                p.difference_significant.x = seg_x
                p.difference_significant.y = np.zeros_like(seg_x)
                p.difference_significant.colors = seg_colors
            p.difference_significant.visible = bool(len(seg_x))
            p.difference_operating_line.x = [s.pcf, s.pcf]
            p.difference_operating_line.y = [-reach, reach]
        # A bqplot title is SVG text (never parsed as HTML).
        p.difference_figure.title = f"NEC({name_a}) − NEC({name_b})"
        p.difference_caption.value = caption
        if not self.difference_row.children:
            self.difference_row.children = (p.difference_figure, p.difference_caption)
        self._difference = (band, intervals)

    def _redraw_bands(self):
        """Pointwise bootstrap bands around each visible envelope (004_… section 8)."""
        s, p = self.state, self.panes
        shown = self._visible_drawings() if s.show_bands else []
        # Replicates are cached by the model for a fixed random_state, so a new level
        # costs only look-ups.
        self._draw_bands(p.bands, {d.name: _band_xy(d.clf.band(s.band_level, random_state=0))
                                   for d in shown})

    def _draw_bands(self, marks, data):
        """Fill-between marks, one per classifier: drawn from ``data[name]``, hidden without."""
        with self._hold(*marks):
            for d, mark in zip(self.drawings, marks):
                if d.name in data:
                    mark.x, mark.y = data[d.name]
                mark.visible = d.name in data

    def _redraw_operating_point(self):
        """The cheap per-change update: lookups in the model, then one batched mark update."""
        s, p = self.state, self.panes
        pcf = s.pcf
        ops = [d.clf.best(pcf) for d in self.drawings]
        fpr = np.array([op.fpr for op in ops])
        tpr = np.array([op.tpr for op in ops])
        nec = np.array([op.nec for op in ops])
        xa, ya, xb, yb = iso_performance_segment(fpr, tpr, pcf)
        frame = readout_frame(self._visible_drawings(), s, self._constrained,
                              best={d.name: op for d, op in zip(self.drawings, ops)})
        table = readout_html(frame, {d.name: d.color for d in self.drawings})
        with self._hold(p.iso_lines, p.chosen, p.operating_line, p.nec_points,
                        p.difference_operating_line, p.operating_handle):
            p.iso_lines.x = np.column_stack([xa, xb])
            p.iso_lines.y = np.column_stack([ya, yb])
            p.chosen.x, p.chosen.y = fpr, tpr
            p.operating_line.x = [pcf, pcf]
            p.nec_points.x, p.nec_points.y = np.full(len(nec), pcf), nec
            p.difference_operating_line.x = [pcf, pcf]
            self._placing_handle = True
            try:
                p.operating_handle.x = [pcf]
            finally:
                self._placing_handle = False
        self.readout_widget.value = table

    def _redraw_constraint(self):
        s, p = self.state, self.panes
        shown = self._visible_drawings()
        if s.constraint == "none":
            constrained = {}
        elif s.constraint == "neyman_pearson":
            constrained = {d.name: d.clf.neyman_pearson(s.max_fpr) for d in shown}
        else:
            constrained = {d.name: d.clf.workforce(s.capacity, n_pos=s.n_pos, n_neg=s.n_neg)
                           for d in shown}
        n = len(self.drawings)
        fpr, tpr = np.zeros(n), np.zeros(n)
        slope, intercept = np.zeros(n), np.zeros(n)
        opacity = np.zeros(n)
        for i, d in enumerate(self.drawings):
            cp = constrained.get(d.name)
            if cp is not None:
                fpr[i], tpr[i], slope[i], intercept[i], opacity[i] = (cp.fpr, cp.tpr, cp.slope,
                                                                      cp.intercept, 1.0)
        if s.constraint == "neyman_pearson":
            line_x, line_y = [s.max_fpr, s.max_fpr], [0.0, 1.0]
        elif s.constraint == "workforce":
            xa, ya, xb, yb = workforce_segment(s.capacity, s.n_pos, s.n_neg)
            line_x, line_y = [xa, xb], [ya, yb]
            if math.isnan(xa):  # the line misses ROC space (capacity beyond all cases)
                line_x, line_y = [1.0, 1.0], [1.0, 1.0]
        else:
            line_x, line_y = [0.0, 0.0], [0.0, 1.0]
        on = s.constraint != "none"
        message = " ".join(f"<b>{html.escape(name)}</b>: {html.escape(cp.message)}<br>"
                           for name, cp in constrained.items())
        with self._hold(p.roc_constraint_line, p.roc_constrained, p.cost_constrained):
            p.roc_constraint_line.x, p.roc_constraint_line.y = line_x, line_y
            p.roc_constraint_line.visible = on
            p.roc_constrained.x, p.roc_constrained.y = fpr, tpr
            p.roc_constrained.opacities = list(opacity)
            p.roc_constrained.visible = on
            # The constrained classifier's cost line (eq. 14 for workforce, eq. 8 at its ROC point).
            p.cost_constrained.x = np.tile([0.0, 1.0], (n, 1))
            p.cost_constrained.y = np.column_stack([intercept, intercept + slope])
            p.cost_constrained.opacities = list(opacity)
            p.cost_constrained.visible = on
        self._constrained = constrained
        self.constraint_message.value = message

    def _redraw_visibility(self):
        p = self.panes
        shown = set(self.state.visible)
        per_vertex = self.controls.show_cost_lines.value
        visible = self._visible_drawings()
        if visible:
            best = combined_envelope([d.clf for d in visible])
            comb_x = np.concatenate([best["pcf_lo"].to_numpy(), best["pcf_hi"].to_numpy()[-1:]])
            comb_y = np.concatenate([best["nec_lo"].to_numpy(), best["nec_hi"].to_numpy()[-1:]])
            colors = {d.name: d.color for d in visible}
            strip_x = np.column_stack([best["pcf_lo"], best["pcf_hi"]])
            strip_colors = [colors.get(n, TRIVIAL_COLOR) for n in best["classifier"]]
        else:
            comb_x, comb_y = np.array([0.0, 0.5, 1.0]), np.array([0.0, 0.5, 0.0])
            strip_x, strip_colors = np.array([[0.0, 1.0]]), [TRIVIAL_COLOR]
        marks = [*p.roc_curves, *p.hull_lines, *p.hull_vertices, *p.envelopes, *p.cost_lines,
                 *p.segment_hover, p.combined, p.winner_strip, p.iso_lines, p.chosen, p.nec_points]
        opac = [1.0 if d.name in shown else 0.0 for d in self.drawings]
        with self._hold(*marks):
            p.cost_y.max = 1.0 if per_vertex else 0.5
            for i, d in enumerate(self.drawings):
                on = d.name in shown
                for group in (p.roc_curves, p.hull_lines, p.hull_vertices, p.envelopes,
                              p.segment_hover):
                    group[i].visible = on
                p.cost_lines[i].visible = on and per_vertex
            p.combined.x, p.combined.y = comb_x, comb_y
            p.winner_strip.x = strip_x
            p.winner_strip.y = np.zeros_like(strip_x)
            p.winner_strip.colors = strip_colors
            p.iso_lines.opacities = opac
            p.chosen.opacities = opac
            p.nec_points.opacities = opac

    def _hover(self, d, vertex):
        """Hovering a hull vertex or its envelope piece: tooltip and both highlights."""
        s, p = self.state, self.panes
        f, t, thr = d.hull_fpr[vertex], d.hull_tpr[vertex], d.hull_threshold[vertex]
        x, y = d.cost_lines()
        nec = cost_line_value(f, t, s.pcf)
        p.hover_info.value = (f"<b>{html.escape(d.name)}</b><br>threshold {thr:.6g}<br>"
                              f"FPR {f:.4f}<br>TPR {t:.4f}<br>NEC at PCF {s.pcf:.3f}: {nec:.4f}")
        with self._hold(p.roc_highlight, p.cost_highlight):
            p.roc_highlight.x, p.roc_highlight.y = [f], [t]
            p.roc_highlight.visible = True
            p.cost_highlight.x, p.cost_highlight.y = x[vertex], y[vertex]
            p.cost_highlight.colors = [d.color]
            p.cost_highlight.visible = True

    @staticmethod
    @contextlib.contextmanager
    def _hold(*marks):
        with contextlib.ExitStack() as stack:
            for m in marks:
                stack.enter_context(m.hold_sync())
            yield


def _difference_caption(name_a, name_b, level, intervals, bound) -> str:
    """Plain words for the difference view; every name is escaped."""
    a, b = html.escape(name_a), html.escape(name_b)
    lines = [f"<b>{a}</b> − <b>{b}</b>, paired bootstrap band at {level:.0%}:"]
    if len(intervals) == 0:
        lines.append("the difference is not significant at any PCF(+).")
    for lo, hi, sign in intervals[["pcf_lo", "pcf_hi", "sign"]].itertuples(index=False):
        cheaper = b if sign > 0 else a
        where = f"PCF(+) = {lo:.3f}" if lo == hi else f"PCF(+) in [{lo:.3f}, {hi:.3f}]"
        lines.append(f"<b>{cheaper}</b> costs less at {where}")
    if bound:
        lines.append(f"<small>(score binning changes a bound by at most {bound:.2g})</small>")
    return "<br>".join(lines)


def _band_xy(band):
    """(pcf, [lower, upper]) of a band DataFrame: the x and y of a fill-between mark."""
    return band["pcf"].to_numpy(), np.vstack([band["lower"].to_numpy(), band["upper"].to_numpy()])
