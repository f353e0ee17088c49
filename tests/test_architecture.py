"""The shape issue 11 promised, kept by tests: one door into the engine, kinds only in their packages."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from reference_engine.api import kinds

ROOT = Path(__file__).resolve().parent.parent


def _modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def parsed(path: Path) -> ast.Module:
    """The syntax tree of the file at ``path`` as it is now. The checks of this file (and
    test_kitgen_layers.py's) read every module of the engine and kitgen, most of them several
    times: a text is parsed once per process (parsing is most of these tests' CPU), and a file
    written again with other text is parsed again. The checks only read the trees."""
    return _parse(path.read_text(encoding="utf-8"))


@cache
def _parse(text: str) -> ast.Module:
    return ast.parse(text)


def forget_trees() -> None:
    """Drop the kept trees: a file's tests keep them, not the rest of the worker's session (half
    a million nodes the cyclic collector would walk at every full collection)."""
    _parse.cache_clear()


@pytest.fixture(scope="module", autouse=True)
def _trees_for_this_file_only() -> Iterator[None]:
    yield
    forget_trees()


def test_kitgen_uses_the_engine_only_through_its_api() -> None:
    for path in _modules("kitgen"):
        tree = parsed(path)
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.startswith("reference_engine"):
                    assert name == "reference_engine.api", f"{path.relative_to(ROOT)} imports {name}"


def test_no_module_outside_a_kinds_package_names_a_kind() -> None:
    """A kind's name (as a string) appears only in its own packages (engine and kitgen) and in
    the registries that list what is registered."""
    names = set(kinds())
    assert len(names) >= 6
    for folder in ("kitgen", "reference_engine"):
        for path in _modules(folder):
            rel = path.relative_to(ROOT).as_posix()
            if "/kinds/" in rel:
                continue  # a kind's own package, or the registry that imports them all
            tree = parsed(path)
            exported = {  # ``__all__`` and ``__slots__`` list names ("layout" is also an action family)
                id(c)
                for n in ast.walk(tree)
                if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id in ("__all__", "__slots__") for t in n.targets)
                for c in ast.walk(n.value)
            }
            for node in ast.walk(tree):
                if id(node) in exported:
                    continue
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                    raise AssertionError(f"{rel}:{node.lineno} names the kind {node.value!r}")


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports, read statically (ast): every import
    counts, type-only (``if TYPE_CHECKING:``) and inside a function included. ``from X import
    name`` names the submodule ``X.name`` when there is one, else the module ``X``."""
    files: dict[str, tuple[Path, bool]] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            files[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in files.items():
        here = name.split(".") if is_package else name.split(".")[:-1]
        deps: set[str] = set()
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name in files)
            elif isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in files:
                        deps.add(sub)
                    elif target in files:
                        deps.add(target)
        graph[name] = deps - {name}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a loop (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def test_no_import_cycles() -> None:
    """No two modules of the engine or of kitgen import each other, directly or round a loop, not
    even for a type or inside a function: a type lives next to its data, not in its orchestrator."""
    graph = import_graph(ROOT, ("reference_engine", "kitgen"))
    assert len(graph) > 150
    assert import_cycles(graph) == []


def test_the_import_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The cycle check is not blind: a loop through a type-only import, one through an import
    inside a function and a package importing a module that imports the package are all found."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n")
    (pkg / "b.py").write_text("def f() -> None:\n    from .a import f\n")
    (pkg / "c.py").write_text("import pkg.d\n")
    (pkg / "d.py").write_text("x = 1\n")
    (pkg / "sub" / "__init__.py").write_text("from .e import E\n")
    (pkg / "sub" / "e.py").write_text("from .. import sub\nE = 1\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.c"] == {"pkg.d"}
    assert import_cycles(graph) == [["pkg.a", "pkg.b"], ["pkg.sub", "pkg.sub.e"]]


# The engine's layers, lowest first, written once: a module may import its own layer and the
# layers below it, never one above (not for a type, not inside a function). Each entry names
# the top-level modules and packages of reference_engine/ in it ("__init__" is the package's own
# file). docs/architecture.md draws the same order.
ENGINE_LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "foundation",
        (
            "errors",
            "files",
            "jsontypes",
            "progress",
            "source",
            "randomness",
            "statistics",
            "collector",
            "kept",
            "meters",
            "report",
        ),
    ),
    (
        "cards and tables",
        (
            "expressions",
            "cards",
            "schema",
            "sleeves",
            "encodings",
            "shuffles",
            "regions",
            "table",
            "tablecodes",
            "trace",
        ),
    ),
    (
        "specs",
        (
            "steps",
            "stepparser",
            "declarations",
            "functions",
            "names",
            "seating",
            "spec",
            "registry",
            "canonical",
            "paramreads",
        ),
    ),
    ("machine", ("machine",)),
    ("compiled", ("compiled",)),
    ("selection", ("selection",)),
    ("records", ("records", "hardness")),
    ("kinds", ("kinds",)),
    ("games", ("games", "replay")),
    ("verify", ("verify",)),
    ("budget", ("budget",)),
    ("runs", ("exploration", "simulate", "reveals")),
    ("api", ("api", "__init__")),
)


def upward_imports(
    graph: dict[str, set[str]], package: str, layers: tuple[tuple[str, tuple[str, ...]], ...]
) -> list[str]:
    """Every import in ``graph`` from a module of ``package`` to one of a higher layer, as
    "importer -> imported (layer -> layer)"; a module of a top-level name no layer lists is
    reported too (a new module must be given its place)."""
    rank = {name: i for i, (_, names) in enumerate(layers) for name in names}

    def unit(module: str) -> str:
        parts = module.split(".")
        return parts[1] if len(parts) > 1 else "__init__"

    found = sorted(
        {f"{m}: not in any layer" for m in graph if m.split(".")[0] == package and unit(m) not in rank}
    )
    for module, deps in sorted(graph.items()):
        if module.split(".")[0] != package or unit(module) not in rank:
            continue
        for dep in sorted(deps):
            if unit(dep) in rank and rank[unit(dep)] > rank[unit(module)]:
                here, there = layers[rank[unit(module)]][0], layers[rank[unit(dep)]][0]
                found.append(f"{module} -> {dep} ({here} -> {there})")
    return found


def test_no_engine_import_runs_back_up_its_layers() -> None:
    """Issue 40: a lower layer never imports a higher one, counting type-only imports and
    imports inside functions (the graph sees both)."""
    graph = import_graph(ROOT, ("reference_engine",))
    assert len(graph) > 100
    assert upward_imports(graph, "reference_engine", ENGINE_LAYERS) == []


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The layer check is not blind: an import up inside a function and one under
    TYPE_CHECKING are found, a module no layer lists is named, imports down pass."""
    pkg = tmp_path / "pkg"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low" / "__init__.py").write_text("")
    (pkg / "low" / "a.py").write_text("def f() -> None:\n    from ..high import g\n")
    (pkg / "low" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.high import g\n"
    )
    (pkg / "high.py").write_text("from .low import a\ng = 1\n")
    (pkg / "stray.py").write_text("")
    layers = (("low", ("low",)), ("high", ("high", "__init__")))
    assert upward_imports(import_graph(tmp_path, ("pkg",)), "pkg", layers) == [
        "pkg.stray: not in any layer",
        "pkg.low.a -> pkg.high (low -> high)",
        "pkg.low.b -> pkg.high (low -> high)",
    ]


MAX_LINES = 700


def long_modules(folder: Path) -> list[str]:
    """The .py files under ``folder`` over :data:`MAX_LINES` lines, with their length."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out.append(f"{path.relative_to(ROOT).as_posix()}: {n} lines")
    return out


def test_no_engine_module_is_over_700_lines() -> None:
    """Issue 11's rule, kept again (issue 40): split by responsibility, not by cutting in half."""
    assert long_modules(ROOT / "reference_engine") == []


# kitgen's half of the rule is in tests/test_kitgen_layers.py, beside its rooms' order.


FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def flag_strings(folder: Path) -> list[str]:
    """Every string of the code under ``folder`` (docstrings and other bare string statements
    left out) that names a command-line flag (``--virtual``)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = parsed(path)
        prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) and id(node) not in prose else None
            if isinstance(text, str) and FLAG.search(text):
                found.append(f"{path.relative_to(folder.parent)}:{node.lineno}: {text!r}")
    return found


def test_no_engine_string_names_a_cli_flag() -> None:
    """The engine knows nothing of flags: its messages name a setting by its field in guillemets
    («virtual»), and the command line names it as its flag when it reports the error."""
    assert flag_strings(ROOT / "reference_engine") == []


def test_the_flag_scan_sees_a_flag_in_a_message(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(
        '"""Docstrings may say --virtual."""\n'
        "x = 3 -- 1\n"
        'def f(n: int) -> str:\n    return f"--level is card or rule, not {n}"\n'
    )
    assert flag_strings(tmp_path / "pkg") == ["pkg/m.py:4: '--level is card or rule, not '"]
