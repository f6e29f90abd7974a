"""The package's architecture is its tree (issues 20 and 31): layers, namespace, names, sizes.

Every module under ``costwidget/`` is parsed with :mod:`ast`; an edge ``a -> b`` is any import of
``b`` in ``a``, at module level or inside a function (a lazy import is still an import). Imports
under ``if TYPE_CHECKING:`` do not run and are left out, and so is a package ``__init__``
importing its own submodules (that re-export is what a namespace is for).

The rules: a module's folder gives its layer (``LAYERS``) and imports go down the layers; no
cycle; the other packages use the model only through ``costwidget.model``, taking names from
``__all__`` or ``FOR_CLIENTS`` only, and every ``FOR_CLIENTS`` name is taken; no module takes
another module's private name; no folder over 15 modules; no module over 800 lines
and no function over 80 lines of code. Each rule's checker is
also fed a planted violation, so that it is seen to fail.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import costwidget

ROOT = Path(costwidget.__file__).resolve().parent
PACKAGE = "costwidget"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


@functools.lru_cache(maxsize=None)
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


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
    return {
        alias.asname or alias.name
        for node in _import_nodes(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def _stem(package: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` statement reads from."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _owner(target: str, known: set[str]) -> str:
    """The costwidget module that holds ``target`` (``a.b.f`` -> ``a.b``), or ""."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target if target.startswith(PACKAGE) else ""


def resolved_imports(name: str, path: Path, known: set[str], *, type_checking: bool = False):
    """Yield ``(stem, alias, target)`` for every name ``name`` imports from a costwidget module.

    ``target`` is the module the name comes from, or the module it *is*: ``from pkg import mod``
    imports the module ``pkg.mod``; ``from mod import f`` imports from ``mod``. A name the
    package's ``__init__`` binds itself (``from .decision_curve import decision_curve``) is that
    object, not the submodule of the same name. ``import a.b`` yields ``("", alias, "a.b")``.
    """
    package = name if is_package(path) else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = (
        (node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)))
        if type_checking
        else _import_nodes(tree)
    )
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _owner(alias.name, known):
                    yield "", alias, _owner(alias.name, known)
            continue
        stem = _stem(package, node)
        bound = _bound_in_init(stem, known)
        for alias in node.names:
            full = f"{stem}.{alias.name}"
            target = _owner(full if full in known and alias.name not in bound else stem, known)
            if target:
                yield stem, alias, target


def imported_names(name: str, path: Path, known: set[str]) -> set[str]:
    """The costwidget modules ``name`` imports (resolving relative imports and ``from p import m``)."""
    return {target for _, _, target in resolved_imports(name, path, known) if target != name}


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
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n"
        "def f():\n    from .c import g\n    return g\n"
    )
    path = tmp_path / "a.py"
    path.write_text(source)
    known = {"costwidget.model.a", "costwidget.model.b", "costwidget.model.c"}
    assert imported_names("costwidget.model.a", path, known) == {"costwidget.model.c"}


def test_no_import_cycle():
    cycles = strongly_connected(import_graph())
    assert not cycles, "import cycles among costwidget modules: " + "; ".join(
        " <-> ".join(cycle) for cycle in cycles
    )


# --------------------------------------------------------------------------------------- layers
# Where a module lives says its layer (issue 31): one table, from a path under costwidget/ (a
# folder ends in "/") to a layer number; the longest key a module's path starts with wins. An
# import may go to the same or a lower layer only. A module no key covers has no layer: put it
# in a folder (model/README.md says which), or add its folder here.
LAYERS = {
    # The model: numpy/pandas only (model/README.md).
    "model/kernels/": 0,  # array kernels; nothing knows Classifier
    "model/resampling/": 1,  # the stratified bootstrap on arrays, the replicate cache
    "model/base/": 2,  # what free functions know of a classifier; result types
    "model/uncertainty/": 3,  # bands, paired difference, folds
    "model/decisions/": 3,  # operating point, constraints, deploy, threshold choice
    "model/comparison/": 4,  # compare, selection, the thesis's range measures, ROC summary
    "model/classifier/": 5,  # the class (delegating to 3-4), its constructors, its builders
    "model/__init__.py": 6,  # the model's namespace: what everything else imports
    # Above the model, beside each other.
    "__init__.py": 7,  # costwidget's namespace (the widget is loaded lazily)
    "palette.py": 7,
    "datasets.py": 7,
    "export/": 7,  # matplotlib panes, the page runtime, the snapshot format
    "sources/": 7,  # DuckDB and Spark
    "display.py": 8,
    # The widget, by role.
    "widget/state/": 10,  # state, transaction, context, background work, lifecycle
    # What Python and the page's front end (js/src) share: the state keys come from the state's tags.
    "frontend/": 11,
    "widget/controls/": 12,  # slider binding, batched marks, theme and CSS, layout
    "widget/text/": 12,  # headline, readout, caption, band readout, shown results
    "widget/panes/": 13,  # the figures and what is drawn in them
    "widget/tools/": 14,  # what the user moves: operating point, constraint, range, ...
    "widget/output/": 15,  # snapshots, the HTML page, the front end's payload, figures
    "widget/live/": 16,  # the live link to the front end
    "widget/": 17,  # CostWidget (core.py), its constructors and export methods
    "demos.py": 18,
    "__main__.py": 18,
}
FOLDER_LIMIT = 15  # modules per folder, __init__.py not counted


def layer_of(path: Path, root: Path = ROOT, table: dict = LAYERS) -> int | None:
    rel = path.relative_to(root).as_posix()
    keys = [key for key in table if rel == key or (key.endswith("/") and rel.startswith(key))]
    return table[max(keys, key=len)] if keys else None


def upward_imports(graph: dict[str, set[str]], layers: dict[str, int]) -> list[str]:
    """Every edge that goes to a higher layer."""
    return sorted(
        f"{name} (layer {layers[name]}) imports {target} (layer {layers[target]})"
        for name, targets in graph.items()
        for target in targets
        if target in layers and layers[target] > layers[name]
    )


def module_layers() -> dict[str, int | None]:
    return {name: layer_of(path) for name, path in modules().items()}


def test_layer_table_gives_every_module_a_layer():
    missing = sorted(name for name, layer in module_layers().items() if layer is None)
    assert not missing, (
        "modules outside every folder of LAYERS (put them in a layer folder, "
        "model/README.md):\n" + "\n".join(missing)
    )


def test_imports_go_down_the_layers():
    found = upward_imports(import_graph(), module_layers())
    assert not found, "imports that go up a layer (LAYERS):\n" + "\n".join(found)


def test_layer_checks_catch_a_planted_violation(tmp_path):
    # The table and the edge check must be able to fail: a kernel importing the class, a module
    # dropped in the model's root.
    for rel in ("model/kernels/k.py", "model/classifier/c.py", "model/stray.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    layers = {
        rel: layer_of(tmp_path / rel, tmp_path)
        for rel in ("model/kernels/k.py", "model/classifier/c.py", "model/stray.py")
    }
    assert layers == {"model/kernels/k.py": 0, "model/classifier/c.py": 5, "model/stray.py": None}
    graph = {"k": {"c"}, "c": {"k"}}
    assert upward_imports(graph, {"k": 0, "c": 5}) == ["k (layer 0) imports c (layer 5)"]


# ---------------------------------------------------------------------------- the model's namespace
def _is_client(name: str) -> bool:
    """Every module outside the model but costwidget's own namespace, which re-exports it."""
    return (
        name != PACKAGE and name != "costwidget.model" and not name.startswith("costwidget.model.")
    )


def namespace_bypasses(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{name} imports {target}"
        for name, targets in graph.items()
        if _is_client(name)
        for target in targets
        if target.startswith("costwidget.model.")
    )


def test_clients_import_only_the_model_namespace():
    reaching_in = namespace_bypasses(import_graph())
    assert not reaching_in, "use `from costwidget.model import ...`:\n" + "\n".join(reaching_in)


def test_namespace_check_catches_a_planted_bypass():
    graph = {
        "costwidget.widget.panes.x": {"costwidget.model.kernels.costs", "costwidget.model"},
        "costwidget.model.decisions.y": {"costwidget.model.kernels.costs"},
    }
    assert namespace_bypasses(graph) == [
        "costwidget.widget.panes.x imports costwidget.model.kernels.costs"
    ]


def names_from_the_model(items) -> dict[str, set[str]]:
    """``{name: {client, ...}}``: what each client takes from ``costwidget.model``'s namespace.

    ``items`` are ``(module name, path)`` pairs. Binding the model package itself (``from .. import
    model``) is recorded as the name ``"<the package>"``: its attributes would escape the check.
    """
    known = set(modules())
    used: dict[str, set[str]] = {}
    for name, path in items:
        for stem, alias, target in resolved_imports(name, path, known, type_checking=True):
            if target != "costwidget.model":
                continue
            taken = "<the package>" if stem != "costwidget.model" else alias.name
            used.setdefault(taken, set()).add(name)
    return used


def client_name_problems(used: dict[str, set[str]], public, for_clients) -> list[str]:
    """Names a client takes that are neither public nor listed, and listed names nobody takes."""
    public, for_clients = set(public), list(for_clients)
    problems = [
        f"{name} (taken by {', '.join(sorted(who))}) is neither in __all__ nor in FOR_CLIENTS"
        for name, who in sorted(used.items())
        if name not in public and name not in for_clients
    ]
    problems += [
        f"{name} is in FOR_CLIENTS but no client takes it"
        for name in dict.fromkeys(for_clients)
        if name not in used
    ]
    problems += [
        f"{name} is listed twice"
        for name in sorted(set(for_clients))
        if for_clients.count(name) > 1
    ]
    problems += [
        f"{name} is public, not for clients only" for name in for_clients if name in public
    ]
    return problems


def test_clients_take_public_names_or_listed_ones():
    import costwidget.model as model

    clients = [(name, path) for name, path in modules().items() if _is_client(name)]
    problems = client_name_problems(names_from_the_model(clients), model.__all__, model.FOR_CLIENTS)
    assert not problems, "costwidget.model's namespace and FOR_CLIENTS disagree:\n" + "\n".join(
        problems
    )


def test_namespace_binds_only_public_and_listed_names():
    # FOR_CLIENTS is the one place: costwidget.model's __init__ binds nothing else.
    import costwidget.model as model

    path = modules()["costwidget.model"]
    bound = {
        alias.asname or alias.name
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert bound == set(model.__all__) | set(model.FOR_CLIENTS)


def test_client_name_check_catches_planted_names(tmp_path):
    path = tmp_path / "x.py"
    path.write_text(
        "from ...model import Classifier, readable, _secret, unlisted\nfrom ... import model\n"
    )
    used = names_from_the_model([("costwidget.widget.panes.x", path)])
    assert set(used) == {"Classifier", "readable", "_secret", "unlisted", "<the package>"}
    problems = client_name_problems(used, ["Classifier"], ["readable", "jsonable"])
    unlisted = "(taken by costwidget.widget.panes.x) is neither in __all__ nor in FOR_CLIENTS"
    assert problems == [
        f"<the package> {unlisted}",
        f"_secret {unlisted}",
        f"unlisted {unlisted}",
        "jsonable is in FOR_CLIENTS but no client takes it",
    ]
    assert client_name_problems({"a": {"m"}}, ["a"], ["a", "b", "b"]) == [
        "b is in FOR_CLIENTS but no client takes it",
        "b is listed twice",
        "a is public, not for clients only",
    ]


# Public names, pinned: moving modules must not change what users import (issue 31).
MODEL_PUBLIC = [
    "CaseBayesClassifier",
    "CaseBayesRule",
    "case_bayes_rule",
    "per_case_rule_table",
    # what the widget shows of per-case costs
    "cost_weighted",
    "counted_rates",
    "data_prior",
    "multiplier_units",
    "sides_are_classes",
    "per_case_savings",
    "per_case_setting",
    "savings_words",
    "Classifier",
    "Comparison",
    "ConstrainedPoint",
    "Decision",
    "DecisionRule",
    "EstimatorSource",
    "OperatingPoint",
    "OperatingRange",
    "ScoredSample",
    "SelectionComparison",
    "THRESHOLD_CHOICES",
    "brier_score",
    "classifiers_from_estimators",
    "classifiers_from_predictions",
    "combined_envelope",
    "compare",
    "cost_curve",
    "cost_line_to_roc_point",
    "cost_point_to_roc_line",
    "cost_scale",
    "cost_sensitivity_table",
    "decision_curve",
    "decide",
    "decision_rule",
    "difference_band",
    "expected_cost",
    "expected_loss",
    "h_measure",
    "honest_cost",
    "iso_performance_slope",
    "nec_by_threshold_choice",
    "net_benefit_from_nec",
    "parameter_selection",
    "pcf_from_threshold_probability",
    "probability_cost",
    "range_summary",
    "ratio_to_pcf",
    "roc_auc",
    "roc_line_to_cost_point",
    "roc_point_at_threshold",
    "roc_point_to_cost_line",
    "RunnerUpBand",
    "runner_up_band",
    "scores_are_probabilities",
    "significant_intervals",
    "thesis_optimized_search",
    "threshold_choice_table",
    "to_estimator",
]
LAZY_PUBLIC = ["CostWidget", "demo", "from_duckdb", "from_spark", "CostCurveDisplay", "ThesisView"]


def test_public_names_are_pinned():
    import costwidget
    import costwidget.model as model

    assert sorted(model.__all__) == sorted(MODEL_PUBLIC)
    assert sorted(costwidget.__all__) == sorted(MODEL_PUBLIC + LAZY_PUBLIC)
    for name in costwidget.__all__:
        assert getattr(costwidget, name) is not None, name


# ------------------------------------------------------------------------------ private names
def private_imports(name: str, path: Path, known: set[str]) -> list[str]:
    """Names starting with ``_`` that ``name`` takes from another costwidget module.

    Counted: ``from m import _f`` and ``mod._f`` on a module bound by an import, ``if
    TYPE_CHECKING:`` included. Dunders (``__version__``) are not private; a package ``__init__``
    re-exporting its own submodule's name is what a namespace is for.
    """

    def private(attr: str) -> bool:
        return attr.startswith("_") and not (attr.startswith("__") and attr.endswith("__"))

    found, module_aliases = [], {}
    for stem, alias, target in resolved_imports(name, path, known, type_checking=True):
        bound = alias.asname or (alias.name if stem else alias.name.partition(".")[0])
        if stem and target == f"{stem}.{alias.name}" and target in known:
            module_aliases[bound] = target  # ``from pkg import mod``: a module
        elif not stem:
            module_aliases[bound] = alias.name
        if (
            stem
            and private(alias.name)
            and target != name
            and not (is_package(path) and target.startswith(name + "."))
        ):
            found.append(f"{name} imports {alias.name} from {target}")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Attribute)
            and private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in module_aliases
        ):
            found.append(
                f"{name} reads {node.value.id}.{node.attr} of {module_aliases[node.value.id]}"
            )
    return found


def test_no_module_takes_another_modules_private_name():
    known = set(modules())
    found = [
        problem
        for name, path in modules().items()
        for problem in private_imports(name, path, known)
    ]
    assert not found, (
        "make the helper public in its own module, or move it where it is used:\n"
        + "\n".join(found)
    )


def test_private_name_check_catches_a_planted_import(tmp_path):
    known = {"costwidget.model.kernels", "costwidget.model.kernels.a", "costwidget.model.kernels.b"}
    module = tmp_path / "a.py"
    module.write_text(
        "from .b import _helper, public\nfrom . import b\n"
        "from .. import __version__\ndef f():\n    return b._other(), b.public\n"
    )
    assert private_imports("costwidget.model.kernels.a", module, known) == [
        "costwidget.model.kernels.a imports _helper from costwidget.model.kernels.b",
        "costwidget.model.kernels.a reads b._other of costwidget.model.kernels.b",
    ]
    package = tmp_path / "__init__.py"
    package.write_text("from .b import _helper\n")
    assert private_imports("costwidget.model.kernels", package, known) == []


# ------------------------------------------------------------------------------------ folders
def crowded_folders(paths, limit: int = FOLDER_LIMIT) -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in paths:
        if path.name != "__init__.py":
            counts[path.parent.as_posix()] = counts.get(path.parent.as_posix(), 0) + 1
    return {folder: n for folder, n in sorted(counts.items()) if n > limit}


def test_no_folder_over_15_modules():
    crowded = crowded_folders(path.relative_to(ROOT.parent) for path in modules().values())
    assert not crowded, f"folders over {FOLDER_LIMIT} modules (split by layer or role): {crowded}"


def test_folder_check_catches_a_planted_crowd():
    paths = (
        [Path(f"pkg/big/m{i}.py") for i in range(FOLDER_LIMIT + 1)]
        + [Path("pkg/big/__init__.py")]
        + [Path(f"pkg/small/m{i}.py") for i in range(FOLDER_LIMIT)]
    )
    assert crowded_folders(paths) == {"pkg/big": FOLDER_LIMIT + 1}


# -------------------------------------------------------------------------------------- sizes
# Size rules stand for readability, not for a layout: a module holds one subject (800 lines is
# far past any one subject here) and a function does one thing (about a screenful of code).
# Docstrings, comments and blank lines do not count against a function: explaining is cheap.
MODULE_LIMIT = 800
FUNCTION_CODE_LIMIT = 80


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _long_modules(paths) -> dict[str, int]:
    return {str(path): _lines(path) for path in paths if _lines(path) > MODULE_LIMIT}


def _code_lines(node: ast.AST, source_lines: list[str]) -> int:
    """Lines of code in a function: neither blank, nor comment-only, nor its docstring."""
    skip: set[int] = set()
    body = getattr(node, "body", [])
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        if isinstance(body[0].value.value, str):
            skip.update(range(body[0].lineno, body[0].end_lineno + 1))
    count = 0
    for number in range(node.lineno, node.end_lineno + 1):
        text = source_lines[number - 1].strip()
        if number in skip or not text or text.startswith("#"):
            continue
        count += 1
    return count


def _long_functions(paths) -> dict[str, int]:
    long = {}
    for path in paths:
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                code = _code_lines(node, lines)
                if code > FUNCTION_CODE_LIMIT:
                    long[f"{path.name}:{node.name}"] = code
    return long


def _package_files():
    return sorted(ROOT.rglob("*.py"))


def test_no_module_over_800_lines():
    long = _long_modules(_package_files())
    assert not long, f"modules over {MODULE_LIMIT} lines (split by meaning): {long}"


# Functions still over the limit, to be split by what they do. The list may only shrink: a name
# that is no longer long fails the test until it is taken off.
STILL_LONG: set = set()


def test_no_function_over_80_lines_of_code():
    long = _long_functions(_package_files())
    new = sorted(set(long) - STILL_LONG)
    assert not new, (
        f"functions over {FUNCTION_CODE_LIMIT} lines of code: { {k: long[k] for k in new} }"
    )
    split = sorted(STILL_LONG - set(long))
    assert not split, f"no longer long, take them off STILL_LONG: {split}"


def test_size_checks_catch_a_planted_long_module_and_function(tmp_path):
    long, short = tmp_path / "long.py", tmp_path / "short.py"
    long.write_text("x = 1\n" * (MODULE_LIMIT + 1))
    short.write_text("x = 1\n" * MODULE_LIMIT)
    assert _long_modules([long, short]) == {str(long): MODULE_LIMIT + 1}
    # The ``def`` line counts as code; the docstring, the comment and blank lines do not.
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_CODE_LIMIT - 1))
    doc = '    """A docstring\n\n    over lines.\n    """\n    # a comment\n\n'
    fits = tmp_path / "fits.py"
    fits.write_text(f"def f():\n{doc}{body}")
    over = tmp_path / "over.py"
    over.write_text(f"def g():\n{doc}{body}    return x0\n")
    assert _long_functions([fits]) == {}
    assert _long_functions([over]) == {"over.py:g": FUNCTION_CODE_LIMIT + 1}


def test_paths_from_module_files_still_reach_the_static_folder():
    # A module that finds a file from its own ``__file__`` breaks when it moves (issue 31).
    from costwidget.export.page import STATIC
    from costwidget.widget.live.frontend_link import BUNDLE

    assert STATIC == ROOT / "static"
    assert BUNDLE.parent == ROOT / "static"
