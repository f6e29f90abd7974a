"""A fill-between layer: one band per classifier around its envelope, computed in the background.

Used twice: the bootstrap confidence bands (Drummond & Holte (2004), sec. 8)
and the spread of the fold envelopes (sec. 7). The layer asks the model for a
band per visible classifier, keeps the answers, and draws only answers for
the current state: a change of state while a job runs starts a new job, and
the old job's result is never drawn.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed

import bqplot as bq
import numpy as np

from ..controls.marks import hold
from ..state.component import Component
from ..state.worker_pool import threads_available

__all__ = ["FillBetweenLayer", "band_xy", "OUTLINE_ABOVE"]

#: With more bands than this on screen, each is drawn as its outline (see `FillBetweenLayer`).
OUTLINE_ABOVE = 2


def band_xy(band):
    """(pcf, [lower, upper]) of a band DataFrame: the x and y of a fill-between mark."""
    return band["pcf"].to_numpy(), np.vstack([band["lower"].to_numpy(), band["upper"].to_numpy()])


class FillBetweenLayer(Component):
    """Fill-between marks, one per classifier, drawn from bands the model computes.

    Parameters
    ----------
    ctx : Context
    slot, label : str
        The background slot, and the words the busy sign shows ("bands").
    enabled : str
        The state trait that switches the layer on.
    request : callable(state) -> hashable
        What the bands depend on besides the classifier (e.g. the level).
    compute : callable(clf, request) -> DataFrame
        The model call giving ``pcf, lower, upper`` (and the centre).
    check : callable(clf), optional
        Raises when a classifier cannot have this band (run at once, not in the
        background, so that a refused setting is refused synchronously).
    applies : callable(clf) -> bool, optional
        Classifiers the layer draws at all (e.g. those with folds).
    none_message : str, optional
        Refuses switching the layer on when no visible classifier applies.
    outline_above : int, default 2
        With more bands than this on screen, each is drawn as its outline only (no fill):
        several translucent fills over each other turn muddy and hide which edge is whose.
    threads : int, default 1
        Classifiers computed at once, each on its own thread (``compute`` must then be safe to
        run for several classifiers together).

    Attributes
    ----------
    on_drawn : list of callables
        Called after each redraw of the marks (e.g. the band readout, which shows the drawn
        bands' limits): a band arriving from the background redraws only this layer.
    """

    def __init__(
        self,
        ctx,
        *,
        slot,
        label,
        enabled,
        request,
        compute,
        check=None,
        applies=None,
        none_message=None,
        opacity=0.18,
        line_style="solid",
        stroke_width=0.5,
        outline_above=OUTLINE_ABOVE,
        threads=1,
    ):
        self.ctx = ctx
        self.slot, self.label, self.enabled = slot, label, enabled
        self.request, self.compute = request, compute
        self.check = check or (lambda clf: None)
        self.applies = applies or (lambda clf: True)
        self.none_message = none_message
        cs = ctx.figures.cost_scales
        self.opacity, self.stroke_width, self.outline_above = opacity, stroke_width, outline_above
        self.threads = threads
        self.on_drawn = []
        self.marks = [
            bq.Lines(
                x=[0.0, 1.0],
                y=[[0.0, 0.0], [0.0, 0.0]],
                scales=cs,
                fill="between",
                colors=[d.color, d.color],
                fill_colors=[d.color],
                fill_opacities=[opacity],
                stroke_width=stroke_width,
                line_style=line_style,
                visible=False,
            )
            for d in ctx.drawings
        ]
        self._results = {}  # (name, request) -> band DataFrame
        self.drawn = {}  # name -> band DataFrame on screen
        self._drawn_key = None
        self._pending = None  # (request, names) of the job running for this layer

    def _wanted(self):
        s = self.ctx.state
        if not getattr(s, self.enabled):
            return None, []
        req = self.request(s)
        return req, [d for d in self.ctx.visible() if self.applies(d.clf)]

    def sync(self) -> None:
        req, wanted = self._wanted()
        if req is None:
            self._cancel()
            self._draw(("off",), {})
            return
        if not wanted and self.none_message and self.ctx.visible():
            raise ValueError(self.none_message)
        for d in wanted:
            self.check(d.clf)
        names = tuple(d.name for d in wanted)
        ready = {
            d.name: self._results[(d.name, req)] for d in wanted if (d.name, req) in self._results
        }
        missing = [d for d in wanted if d.name not in ready]
        if not missing:
            self._cancel()
            self._draw(("all", req, names), ready)
            return
        # Draw what is ready now (never a band for another request); the rest follows from
        # the background. A job already running for exactly this request is left to finish.
        self._draw(("some", req, tuple(ready)), ready)
        pending = (req, tuple(d.name for d in missing))
        if pending == self._pending:
            return
        self._pending = pending
        clfs = [(d.name, d.clf) for d in missing]

        def compute(progress):
            return self._compute_all(clfs, req, progress)

        self.ctx.background.submit(self.slot, self.label, compute, self._arrived, self._failed)

    def _compute_all(self, clfs, req, progress) -> dict:
        """``{(name, req): band}`` of every classifier; on ``threads`` threads at once where
        asked (numpy's sorts and sums release the GIL, so two classifiers take about the time of
        one on two cores). ``progress`` counts the classifiers done, and raises once a newer
        request supersedes this one: the classifiers not started are then dropped."""
        n = len(clfs)
        progress(0, n)
        if self.threads > 1 and n > 1 and threads_available():
            try:
                pool = ThreadPoolExecutor(
                    min(self.threads, n), thread_name_prefix="costwidget-layer"
                )
            except RuntimeError:  # no thread can be started: one after another, below
                pool = None
            if pool is not None:
                with pool:
                    futures = [pool.submit(self.compute, clf, req) for _, clf in clfs]
                    try:
                        for done, _ in enumerate(as_completed(futures), 1):
                            progress(done, n)
                    except BaseException:
                        pool.shutdown(wait=False, cancel_futures=True)
                        raise
                    # In the classifiers' order, whichever finished first.
                    return {(name, req): f.result() for (name, _), f in zip(clfs, futures)}
        out = {}
        for i, (name, clf) in enumerate(clfs):
            progress(i, n)
            out[(name, req)] = self.compute(clf, req)
        progress(n, n)
        return out

    def drawings_changed(self) -> None:
        """The classifiers drawn are new (per-case twins at a new setting): every band computed
        for the old ones is dropped, a job running for them is cancelled (its result is never
        drawn), and nothing is on screen until the `sync` that follows asks for the new ones.
        ``drawn`` is emptied at once: a reader before that sync (the decision reads the honest
        curves) sees no band of the old setting."""
        self._cancel()
        self._results.clear()
        self.drawn = {}
        self._drawn_key = None

    def _cancel(self) -> None:
        if self._pending is not None:
            self._pending = None
            self.ctx.background.cancel(self.slot)

    def _arrived(self, results) -> None:
        self._pending = None
        self._results.update(results)
        self.sync()  # draws for the state as it is now, not as it was when the job started

    def _failed(self, exc) -> None:
        self._pending = None
        self._draw(("off",), {})
        self.ctx.errors.show(exc, context=f"{self.label} failed")
        self.ctx.turn_off(self.enabled, False)

    def _draw(self, key, bands) -> None:
        if key == self._drawn_key:
            return
        outline = len(bands) > self.outline_above
        with hold(*self.marks):
            for d, mark in zip(self.ctx.drawings, self.marks):
                band = bands.get(d.name)
                if band is not None:
                    mark.x, mark.y = band_xy(band)
                    mark.fill_opacities = [0.0 if outline else self.opacity]
                    mark.stroke_width = (
                        max(self.stroke_width, 1.25) if outline else self.stroke_width
                    )
                mark.visible = band is not None
        self.drawn = dict(bands)
        self._drawn_key = key
        for callback in self.on_drawn:
            callback()

    def pane_marks(self) -> dict:
        # Its background slot ("bands", "fold spread", "honest") names its layer in the pane too.
        return {"cost": {self.slot: self.marks}}
