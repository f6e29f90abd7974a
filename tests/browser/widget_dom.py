"""JavaScript that reads the widget's controls off the page, shared by the browser tests.

Controls are found by what identifies them to a user (the p(+) slider's class, a cost box's
label), never by their position among the page's inputs, which changes with the layout; and a
widget's live link by the widget's root class, never by its position in the page's registry.
"""

import json
import re

# The body of a function returning the operating-point controls as the page shows them: p(+)
# (the value of the slider's handle), both costs (the boxes labelled C(-|+) and C(+|-), read in
# full precision), the PCF(+) readout, and `expected`, the PCF(+) those controls make.
CONTROLS = r"""
  const handle = document.querySelector('.costwidget .costwidget-p-pos .noUi-handle');
  const p = handle ? parseFloat(handle.getAttribute('aria-valuetext')) : NaN;
  const costBox = start => {
    const label = Array.from(document.querySelectorAll('.costwidget .widget-label')).find(l => {
      const t = l.innerText.trim(); return t.startsWith(start) && !t.includes('/'); });
    const input = label && label.parentElement.querySelector('input');
    return input ? input.value : null;
  };
  const fnText = costBox('C(-|+)'), fpText = costBox('C(+|-)');
  const fn = parseFloat(fnText), fp = parseFloat(fpText);
  const pcfEl = document.querySelector('.costwidget .costwidget-pcf');
  const pcf = pcfEl ? parseFloat(pcfEl.innerText.replace(/^[^0-9.-]*/, '')) : NaN;
  return {p, fn, fp, fnText, fpText, pcf, expected: p * fn / (p * fn + (1 - p) * fp)};
"""


# ---------------------------------------------------------------------------- the widget's link
# Each live link is in the page's registry, window.costwidgetLive, under its widget's root class
# (`costwidget-link-<the root's model id>`, FrontendLink's `model.root_class`). The links bind in
# whatever order their models resolve (on a loaded machine a second widget's link was first), so
# a test finds its widget's link by that class, never by its position in the registry.
ROOT_MARK = "COSTWIDGET-ROOT"


def print_root_class(name: str = "w") -> str:
    """Code of a cell that prints the root class of the `CostWidget` held by ``name``, for
    `root_class_shown` to read off the page. (The mark is split in the source, which is on the
    page too.)"""
    return (
        f"print({ROOT_MARK[:6]!r} + {ROOT_MARK[6:]!r}, {name!r}, "
        f"{name}.frontend_link.model.root_class)"
    )


def root_class_shown(page, name: str = "w", *, timeout: float = 120_000) -> str:
    """The root class that a `print_root_class(name)` cell printed on the page."""
    found = re.compile(rf"{ROOT_MARK} {re.escape(name)} (costwidget-link-[0-9a-f]+)")
    page.wait_for_function(
        "([p]) => new RegExp(p).test(document.body.textContent)",
        arg=[found.pattern],
        timeout=timeout,
    )
    return found.search(page.evaluate("() => document.body.textContent")).group(1)


def live(root_class: str) -> str:
    """A JavaScript expression: the live link of the widget whose root has ``root_class``
    (undefined until it is bound)."""
    return f"(window.costwidgetLive || []).find((l) => l.rootClass === {json.dumps(root_class)})"


def with_live(js: str, root_class: str) -> str:
    """``js`` with each ``$LIVE`` in it replaced by `live(root_class)`."""
    return js.replace("$LIVE", live(root_class))


def bound(root_class: str) -> str:
    """A predicate for `wait_for_state`: the widget's live link is bound."""
    return f"() => {live(root_class)} !== undefined"
