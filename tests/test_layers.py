"""The package's import graph has no cycle, and its layers keep their sizes (issue 20).

Every module under ``costwidget/`` is parsed with :mod:`ast`; an edge ``a -> b`` is any import of
``b`` in ``a``, at module level or inside a function (a lazy import is still an import). Imports
under ``if TYPE_CHECKING:`` do not run and are left out, and so is a package ``__init__``
importing its own submodules (that re-export is what a namespace is for).
"""

from __future__ import annotations

import ast
from pathlib import Path

import costwidget

ROOT = Path(costwidget.__file__).resolve().parent
PACKAGE = "costwidget"
# Packages that use the model only through what ``costwidget.model`` exports.
CLIENTS = ("costwidget.widget", "costwidget.export", "costwidget.sources", "costwidget.display")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree: ast.AST):
    """Yield every Import/ImportFrom node, skipping the bodies of ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _bound_in_init(package: str, known: set[str]) -> set[str]:
    """Names a package's ``__init__`` binds with ``from ... import name`` (empty for a module)."""
    path = modules().get(package)
    if path is None or not is_package(path):
        return set()
    return {alias.asname or alias.name for node in _import_nodes(ast.parse(path.read_text("utf-8")))
            if isinstance(node, ast.ImportFrom) for alias in node.names}


def imported_names(name: str, path: Path, known: set[str]) -> set[str]:
    """The costwidget modules ``name`` imports (resolving relative imports and ``from p import m``)."""
    package = name if is_package(path) else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # ``from pkg import mod`` imports the module ``pkg.mod``; ``from mod import f`` imports mod.
            # A name the package's ``__init__`` binds itself (``from .decision_curve import
            # decision_curve``) is that object, not the submodule of the same name.
            bound = _bound_in_init(stem, known)
            targets = [f"{stem}.{alias.name}"
                       if f"{stem}.{alias.name}" in known and alias.name not in bound else stem
                       for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target.startswith(PACKAGE) and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    graph = {}
    for name, path in found.items():
        edges = imported_names(name, path, known)
        if is_package(path):
            # A package re-exporting its own modules is not a dependency of those modules on it.
            edges = {target for target in edges if not target.startswith(name + ".")}
        # Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` too, but those edges belong to
        # the packages; counting them would make every module depend on the package that holds it.
        graph[name] = edges
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; returns the components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def test_strongly_connected_finds_a_planted_cycle():
    # The detector itself must be able to fail: a three-module ring and a self-contained tail.
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a"}}
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_graph_sees_lazy_imports_and_skips_type_checking(tmp_path):
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n"
              "def f():\n    from .c import g\n    return g\n")
    path = tmp_path / "a.py"
    path.write_text(source)
    known = {"costwidget.model.a", "costwidget.model.b", "costwidget.model.c"}
    assert imported_names("costwidget.model.a", path, known) == {"costwidget.model.c"}


def test_no_import_cycle():
    cycles = strongly_connected(import_graph())
    assert not cycles, "import cycles among costwidget modules: " + "; ".join(
        " <-> ".join(cycle) for cycle in cycles)


def test_clients_import_only_the_model_namespace():
    graph = import_graph()
    reaching_in = sorted(
        f"{name} imports {target}"
        for name, targets in graph.items()
        if name.startswith(CLIENTS)
        for target in targets
        if target.startswith("costwidget.model.")
    )
    assert not reaching_in, "use `from costwidget.model import ...`:\n" + "\n".join(reaching_in)


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_classifier_module_is_small():
    from costwidget.model import Classifier

    path = ROOT.parent / (Classifier.__module__.replace(".", "/") + ".py")
    assert _lines(path) <= 450, f"{path.name} has {_lines(path)} lines (limit 450)"


def test_no_model_module_over_600_lines():
    big = {path.name: _lines(path) for path in (ROOT / "model").rglob("*.py") if _lines(path) > 600}
    assert not big, f"model modules over 600 lines: {big}"


# Layer 1: the class and what builds it. Everything else in the model must not import these,
# so that the class's methods may delegate to any free function (model/README.md).
CLASS_MODULES = {name for name in modules() if name.startswith("costwidget.model.classifier.")}
# Layer 0: array kernels; they import nothing from layers 1 and 2.
KERNELS = {name for name in modules() if name.startswith("costwidget.model.kernels.")}


def test_free_functions_do_not_import_the_class():
    graph = import_graph()
    found = sorted(f"{name} imports {target}" for name, targets in graph.items()
                   if name.startswith("costwidget.model.") and name not in CLASS_MODULES
                   for target in targets & CLASS_MODULES)
    assert not found, "layer 2 must take the classifier as an argument:\n" + "\n".join(found)


def test_kernels_import_only_kernels():
    graph = import_graph()
    assert KERNELS <= set(graph), sorted(KERNELS - set(graph))
    found = sorted(f"{name} imports {target}" for name in KERNELS
                   for target in graph[name] if target not in KERNELS)
    assert not found, "layer-0 modules reach up:\n" + "\n".join(found)


# The widget layer stays in small modules named for what they hold (issue 19): the core only
# composes, so it is held tighter than the rest.
WIDGET_MODULE_LIMIT = 350
CORE_LIMIT = 300


def _oversized(paths, limit):
    return {path.name: _lines(path) for path in paths if _lines(path) > limit}


def test_oversized_finds_a_planted_long_module(tmp_path):
    # The size check itself must be able to fail.
    long, short = tmp_path / "long.py", tmp_path / "short.py"
    long.write_text("x = 1\n" * (WIDGET_MODULE_LIMIT + 1))
    short.write_text("x = 1\n" * WIDGET_MODULE_LIMIT)
    assert _oversized([long, short], WIDGET_MODULE_LIMIT) == {"long.py": WIDGET_MODULE_LIMIT + 1}


def test_no_widget_module_over_350_lines():
    paths = [*(ROOT / "widget").rglob("*.py"), ROOT / "display.py"]
    big = _oversized(paths, WIDGET_MODULE_LIMIT)
    assert not big, f"widget modules over {WIDGET_MODULE_LIMIT} lines (split by what they hold): {big}"


def test_widget_core_is_at_most_300_lines():
    core = ROOT / "widget" / "core.py"
    assert _lines(core) <= CORE_LIMIT, (
        f"widget/core.py has {_lines(core)} lines (limit {CORE_LIMIT}): move what it holds into "
        "a component, `layout`, or a mixin module")
