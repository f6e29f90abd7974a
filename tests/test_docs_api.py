"""Every public name has an entry in the API reference (docs/api.md), and no entry names
something that is not public: the reference is driven by ``costwidget.__all__``, so a new
public name without an entry fails here (issue 33)."""

from __future__ import annotations

import re
from pathlib import Path

import costwidget

API = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def autosummary_entries(text: str) -> list[str]:
    """The names listed under every ``.. autosummary::`` directive of a MyST page."""
    names = []
    for block in re.findall(r"\.\. autosummary::\n((?:[ \t]+.*\n|\n)*)", text):
        for line in block.splitlines():
            item = line.strip()
            if item and not item.startswith(":"):
                names.append(item)
    return names


def test_every_public_name_has_one_api_entry():
    entries = autosummary_entries(API.read_text(encoding="utf-8"))
    missing = sorted(set(costwidget.__all__) - set(entries))
    assert not missing, f"add these public names to docs/api.md (an autosummary group): {missing}"
    assert sorted(set(entries) - set(costwidget.__all__)) == [], "entries that are not public"
    twice = sorted({n for n in entries if entries.count(n) > 1})
    assert twice == [], f"listed twice in docs/api.md: {twice}"


def test_entry_reader_sees_a_planted_gap():
    text = API.read_text(encoding="utf-8").replace("   decide\n", "")
    assert "decide" in costwidget.__all__ and "decide" not in autosummary_entries(text)
    assert "Classifier" in autosummary_entries(text)


def test_docstring_bars_are_escaped_outside_literals():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "escape_bars", API.parent / "_ext" / "escape_bars.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    escape = module.escape_bars
    assert escape("cost C(-|+) of a miss") == r"cost C(-\|+) of a miss"
    assert escape("max |nec_a - nec_b| over") == r"max \|nec_a - nec_b\| over"
    assert escape("``p·C(-|+)``") == "``p·C(-|+)``"
    assert escape(">>> x = C(-|+)") == ">>> x = C(-|+)"
    assert escape("| a | b |") == "| a | b |"
