"""The contract between Python and the page (costwidget/frontend/contract.py) is whole.

* every fact the page needs is declared once, in Python: js/src declares none of them, and the
  node tests' js/test/contract.json is the dict Python sends;
* every export of js/src is in the mirror table (the Python function it computes again) or in
  the glue list, and nothing else is listed;
* every mirror row has a parity case (the JS export is run by the parity harness beside its
  Python twin), and both sides of every row have a caller outside the tests.

Each check is also fed a planted violation, so that it is seen to fail.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

from costwidget.frontend import contract

ROOT = Path(__file__).resolve().parents[1]
JS_SRC = ROOT / "js" / "src"
PACKAGE = ROOT / "costwidget"
PARITY = [
    ROOT / "js" / "test" / "parity_runner.mjs",
    ROOT / "tests" / "test_frontend_parity.py",
    ROOT / "tests" / "test_frontend_case_costs.py",
]


def _js_sources() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(JS_SRC.glob("*.mjs"))}


def js_exports(sources: dict[str, str]) -> dict[str, str]:
    """Export name -> the js/src file that declares it (``export default`` as "default")."""
    found = {}
    for name, text in sources.items():
        for m in re.finditer(
            r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)", text, re.M
        ):
            found[m.group(1)] = name
        if re.search(r"^export\s+default\b", text, re.M):
            found["default"] = name
    return found


def facts() -> dict:
    return contract.page_contract()


# ------------------------------------------------------------------------------ one home
def declared_in_js(sources: dict[str, str], names) -> list[str]:
    """Contract facts that js/src declares itself: a binding of the fact's name, or a string
    value of the contract (a format name, a column header, a label) written out."""
    problems = []
    for file, text in sources.items():
        for name in names:
            if re.search(rf"\b(?:const|let|var)\s+{name}\s*=", text):
                problems.append(f"{file} declares {name}")
    strings = set()

    def walk(value):
        if isinstance(value, str):
            strings.add(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    walk({k: v for k, v in facts().items() if k not in ("STATE_KEYS", "CONSTRAINTS")})
    for file, text in sources.items():
        for s in sorted(strings):
            # Names of state keys and columns are the words both sides use for one thing; a
            # sentence (a header, a tooltip, a label, the format) is a fact written twice.
            if (" " in s or "-" in s) and (json.dumps(s) in text or f'"{s}"' in text):
                problems.append(f"{file} writes out the contract's {s!r}")
    return problems


def test_no_fact_is_declared_in_js():
    problems = declared_in_js(_js_sources(), facts())
    assert not problems, "\n".join(problems)


def test_the_one_fact_check_catches_a_planted_declaration():
    planted = {"x.mjs": 'export const PAYLOAD_FORMAT = "costwidget-operating-point";'}
    assert len(declared_in_js(planted, ["PAYLOAD_FORMAT"])) == 2


def test_the_node_tests_run_under_the_contract_python_sends():
    path = ROOT / "js" / "test" / "contract.json"
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written == facts(), (
        "js/test/contract.json is not costwidget.frontend.contract.page_contract(): write it "
        "again with `python -m costwidget.frontend.contract > js/test/contract.json`"
    )


def test_constraints_are_the_models():
    from costwidget.model.decisions.decide import CONSTRAINTS

    assert contract.CONSTRAINTS is CONSTRAINTS


# ------------------------------------------------------------------------------ the mirror
def unlisted(exports, mirror, glue) -> list[str]:
    """JS exports in neither table, names listed twice, and rows naming no export."""
    problems = [
        f"{n} ({f}) is in neither MIRROR nor GLUE"
        for n, f in exports.items()
        if n not in mirror and n not in glue
    ]
    problems += [f"{n} is in both MIRROR and GLUE" for n in set(mirror) & set(glue)]
    problems += [
        f"{n} is listed but js/src exports no such name"
        for n in [*mirror, *glue]
        if n not in exports
    ]
    return problems


def test_every_js_export_is_a_mirror_or_glue():
    problems = unlisted(js_exports(_js_sources()), contract.MIRROR, contract.GLUE)
    assert not problems, "\n".join(problems)


def test_the_table_check_catches_a_planted_export():
    exports = {"f": "a.mjs", "g": "a.mjs"}
    assert unlisted(exports, {"f": "m:f"}, ()) == ["g (a.mjs) is in neither MIRROR nor GLUE"]
    assert unlisted({"f": "a.mjs"}, {"f": "m:f"}, ("f", "h")) == [
        "f is in both MIRROR and GLUE",
        "h is listed but js/src exports no such name",
    ]


def _python_twin(target: str):
    module, _, qualname = target.partition(":")
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def without_parity(mirror, harness: str) -> list[str]:
    """Mirror rows whose JS export the parity harness never runs, or whose Python twin it never
    names."""
    problems = []
    for js, target in mirror.items():
        py = target.rpartition(":")[2].rpartition(".")[2]
        if not re.search(rf"\.{js}\(", harness):
            problems.append(
                f"{js}: no parity case runs it (js/test/parity_runner.mjs or the node "
                "scripts of tests/test_frontend_parity.py)"
            )
        if not re.search(rf"\b{py}\b", harness):
            problems.append(f"{js}: the parity cases never compute its twin {target}")
    return problems


def test_every_mirror_row_has_a_parity_case():
    for target in contract.MIRROR.values():
        assert callable(_python_twin(target)), target
    harness = "\n".join(p.read_text(encoding="utf-8") for p in PARITY)
    problems = without_parity(contract.MIRROR, harness)
    assert not problems, "\n".join(problems)


def test_the_parity_check_catches_a_planted_row():
    assert without_parity({"f": "m:g"}, "op.f(x); g(x)") == []
    assert len(without_parity({"f": "m:g"}, "op.h(x)")) == 2


def _code_lines(text: str, comment: str):
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith((comment, "*", "/**", ">>>", "...")):
            continue
        yield line


def js_callers(name: str, sources: dict[str, str]) -> int:
    """Uses of a JS export in js/src other than its declaration."""
    count = 0
    for text in sources.values():
        for line in _code_lines(text, "//"):
            if re.search(rf"^export\s+(?:async\s+)?function\s+{name}\b", line):
                continue
            count += len(re.findall(rf"(?<![\w$]){name}\(|\.{name}\b", line))
    return count


def py_callers(name: str, texts: list[str]) -> int:
    """Uses of a Python function's name in costwidget/ other than its def, ``__all__`` and
    doctests."""
    count = 0
    for text in texts:
        for line in _code_lines(text, "#"):
            if re.match(rf"\s*def {name}\(", line) or re.fullmatch(rf'\s*"{name}",', line):
                continue
            count += len(re.findall(rf"\b{name}\b", line))
    return count


def test_both_sides_of_every_row_have_a_caller_outside_the_tests():
    sources = _js_sources()
    texts = [p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py")]
    problems = []
    for js, target in contract.MIRROR.items():
        if js_callers(js, sources) == 0:
            problems.append(f"{js}: no caller in js/src (dead in the page)")
        py = target.rpartition(":")[2].rpartition(".")[2]
        if py_callers(py, texts) == 0:
            problems.append(f"{target}: no caller in costwidget/ (dead in Python)")
    assert not problems, "\n".join(problems)


def test_the_caller_check_catches_a_planted_dead_twin():
    src = {"a.mjs": "export function f(x) {\n  return x;\n}\n// f(1)\n"}
    assert js_callers("f", src) == 0
    assert js_callers("f", {**src, "b.mjs": "const y = OP.f(2);"}) == 1
    py = ['__all__ = [\n    "g",\n]\n\ndef g():\n    """\n    >>> g()\n    """\n']
    assert py_callers("g", py) == 0
    assert py_callers("g", [*py, "x = g()\n"]) == 1
