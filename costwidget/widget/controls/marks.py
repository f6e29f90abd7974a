"""Small helpers shared by the components: batched mark updates."""

from __future__ import annotations

import contextlib

__all__ = ["hold"]


@contextlib.contextmanager
def hold(*widgets_):
    """Batch every trait change of ``widgets_`` into one message each (``hold_sync``).

    The messages go out in the order the widgets are given, so a caller can
    make sure that, e.g., a highlight ring moves before the text that names it.
    """
    with contextlib.ExitStack() as stack:
        # ExitStack exits in reverse order: enter in reverse so the first widget sends first.
        for w in reversed(widgets_):
            stack.enter_context(w.hold_sync())
        yield
