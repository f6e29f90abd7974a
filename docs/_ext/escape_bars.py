"""Sphinx extension: escape the bars of C(-|+) and |x| in docstrings.

The docstrings write costs as the papers do, C(-|+) and C(+|-), and an absolute value as |x|;
reStructuredText would read the bars as substitution references. They are escaped in prose,
never inside ``literals`` or doctest lines, which are shown as written.
"""

from __future__ import annotations

import re

_COST_BAR = re.compile(r"C\(([^|()\s]{1,2})\|([^|()\s]{1,2})\)")
_ABS_BARS = re.compile(r"(?<![\\\w])\|(\w[^|]*?\w)\|(?!\w)")


def escape_bars(line: str) -> str:
    """``line`` with the bars of its prose escaped for reStructuredText."""
    if line.lstrip().startswith((">>>", "...")):
        return line
    parts = line.split("``")
    for i in range(0, len(parts), 2):  # even parts lie outside ``literals``
        text = _COST_BAR.sub(r"C(\1\\|\2)", parts[i])
        parts[i] = _ABS_BARS.sub(r"\\|\1\\|", text)
    return "``".join(parts)


def _escape_docstring(app, what, name, obj, options, lines):
    lines[:] = [escape_bars(line) for line in lines]


def setup(app):
    app.connect("autodoc-process-docstring", _escape_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
