"""The widget's rules that keep every control and pane where it is (nothing moves
under the pointer), part of `theme.CSS`.

The error banner and the busy sign lie over the headline (`layout.status_layer`), out of the
flow, so showing them moves nothing; the legend keeps the room of every entry it can show (a
hidden copy of all of them, `ClassifierLayers.legend_room`, in the same grid cell).
"""

from __future__ import annotations

__all__ = ["STEADY_CSS"]

STEADY_CSS = """
/* Nothing moves under the pointer. The error banner and the busy sign lie over the
   headline (layout.status_layer), out of the flow; the legend keeps the room of every entry it
   can show (a hidden copy of all of them in the same grid cell). */
.costwidget .costwidget-top {
  position: relative;
  /* The headline's room, always: two lines of its main sentence (1.15em, line-height 1.3) and
     two of its qualifiers (0.92em), so that the clauses that come and go (the runner-up's
     interval when it arrives, a limit's words, the cost on new data) move no control; a text
     longer still scrolls inside, never cut without a sign. */
  height: calc(2 * 1.15 * 1.3 * var(--jp-widgets-font-size, 13px)
               + 2 * 0.92 * 1.3 * var(--jp-widgets-font-size, 13px) + 6px);
  min-height: 28px;
  overflow: visible;
}
.costwidget .costwidget-top > .costwidget-headline {
  height: 100%;
  margin-top: 0;
  margin-bottom: 0;
  overflow-y: auto;
}
.costwidget .costwidget-status {
  position: absolute;
  inset: 0;
  z-index: 10;
  overflow: visible;
  pointer-events: none;
}
.costwidget .costwidget-status > .costwidget-errors {
  position: absolute;
  inset: 0;
  margin: 0;
  height: auto;
  overflow-y: auto;
  background: var(--cw-paper);
  pointer-events: auto;
}
.costwidget .costwidget-status > .costwidget-errors .costwidget-error-banner {
  min-height: 100%;
  box-sizing: border-box;
}
.costwidget .costwidget-status > .costwidget-busy-sign {
  position: absolute;
  top: 0;
  right: 0;
  margin: 0;
  padding: 0 8px;
  gap: 6px;
  background: var(--cw-paper);
  border: 1px solid var(--cw-rule);
  border-radius: 4px;
  overflow: visible;
}
.costwidget .costwidget-legend-stack {
  display: grid;
  overflow: visible;
  max-width: 100%;
}
.costwidget .costwidget-legend-stack > * {
  grid-area: 1 / 1;
  min-width: 0;
  margin: 0;
}
.costwidget .costwidget-legend-room { visibility: hidden; }
"""
