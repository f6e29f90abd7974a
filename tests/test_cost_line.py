"""The cost line ``NEC(x) = (1 - TPR - FPR)·x + FPR`` (Drummond & Holte (2000), sec. 2, eq. 8) has
one home in Python, ``model/kernels/costs.py``, and one mirror in the page's JS: a copy that no
test reaches could carry a mutant. Code only is searched: comments, docstrings and user-facing
strings may spell the formula out."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import numpy as np
import pytest

import costwidget as cw
from costwidget.model import cost_line_value

ROOT = Path(cw.__file__).resolve().parent
JS_SRC = ROOT.parent / "js" / "src"

# Written with spaces, ``self.`` / ``rule.`` prefixes and ``[k]`` indexes removed first: the slope
# ``1 - TPR - FPR`` in either order, and the same line as ``(1 - TPR)·x + FPR·(1 - x)``.
_ONE = r"1(?:\.0)?"
_SPELLINGS = [
    re.compile(rf"{_ONE}-\w*tpr\w*-\w*fpr", re.I),
    re.compile(rf"{_ONE}-\w*fpr\w*-\w*tpr", re.I),
    re.compile(rf"\({_ONE}-\w*tpr\w*\)\*\w+\+\w*fpr\w*\*\({_ONE}-\w+\)", re.I),
]


def _normalized(line: str) -> str:
    line = re.sub(r"\b[A-Za-z_]\w*\.", "", line)
    line = re.sub(r"\s+", "", line)
    return re.sub(r"\[[^\]]*\]", "", line)


def _python_code_lines(text: str) -> list[str]:
    """The source lines with every comment and string (docstrings included) blanked out."""
    lines = text.splitlines()
    keep = [list(line) for line in lines]
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.COMMENT, tokenize.STRING):
            (r0, c0), (r1, c1) = tok.start, tok.end
            for r in range(r0, r1 + 1):
                row = keep[r - 1]
                lo = c0 if r == r0 else 0
                hi = c1 if r == r1 else len(row)
                row[lo:hi] = " " * (hi - lo)
    return ["".join(row) for row in keep]


def _js_code_lines(text: str) -> list[str]:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), text, flags=re.S)
    return [line.split("//")[0] for line in text.splitlines()]


def cost_line_sites(files) -> list[str]:
    found = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        lines = _python_code_lines(text) if path.suffix == ".py" else _js_code_lines(text)
        for i, line in enumerate(lines, 1):
            if any(p.search(_normalized(line)) for p in _SPELLINGS):
                found.append(f"{path.name}:{i}: {line.strip()}")
    return found


def test_the_cost_line_is_written_once_in_python_and_at_most_four_times_in_all():
    python = cost_line_sites(sorted(ROOT.rglob("*.py")))
    js = cost_line_sites(sorted(JS_SRC.glob("*.mjs")))
    assert len(python) == 1 and python[0].startswith("costs.py:"), python
    assert len(python) + len(js) <= 4, python + js


@pytest.mark.parametrize(
    "code",
    [
        "slope = 1.0 - self.tpr - self.fpr\n",
        "y = (1 - tpr[v] - fpr[v]) * lo + fpr[v]\n",
        "slope = 1 - part.rule.fpr - part.rule.tpr\n",
        "return (1.0 - tpr) * x + fpr * (1.0 - x)\n",
    ],
)
def test_the_search_sees_every_spelling_in_code_but_not_in_docs(tmp_path, code):
    planted = tmp_path / "planted.py"
    planted.write_text(f'"""NEC = (1 - TPR - FPR) x + FPR"""\n# 1 - tpr - fpr\n{code}')
    assert len(cost_line_sites([planted])) == 1
    js = tmp_path / "planted.mjs"
    js.write_text(f"// 1 - tpr - fpr\n/* (1 - tpr - fpr)\n */\nconst y = {code.split('= ', 1)[-1]}")
    assert len(cost_line_sites([js])) == 1


def test_every_caller_evaluates_the_line_as_the_paper_writes_it():
    # Exact rationals: the line at x is (1 - TPR - FPR)·x + FPR; every caller rounds it alike.
    from fractions import Fraction

    clf = cw.Classifier.from_scores(
        [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    )
    x = np.array([0.0, 0.1, 0.37, 0.5, 0.9, 1.0])
    best = clf.best(x)
    exact = [
        float((1 - Fraction(t) - Fraction(f)) * Fraction(p) + Fraction(f))
        for f, t, p in zip(best["fpr"], best["tpr"], x)
    ]
    np.testing.assert_allclose(best["nec"], exact, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(best["nec"], cost_line_value(best["fpr"], best["tpr"], x))
    np.testing.assert_array_equal(clf.nec(x), best["nec"])
