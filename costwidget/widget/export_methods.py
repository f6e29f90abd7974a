"""A `CostWidget`'s export methods (``w.snapshot()``, ``w.to_html()``, ...), each calling
`costwidget.widget.export` (imported when first used)."""

from __future__ import annotations

__all__ = ["ExportMethods"]


class ExportMethods:
    """The Jupyter display and the exports of a `CostWidget`."""

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """The live view, plus a static PNG (and an <img>) for wherever the widget cannot render
        (nbconvert without widget state, LaTeX/PDF, GitHub's viewer).

        Displaying never waits for background work: the image shows what is drawn now (bands
        still computing are left out of it, as they are from the live panes at that moment)."""
        return _export().mimebundle(self, include=include, exclude=exclude, **kwargs)

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


def _export():
    from . import export

    return export
