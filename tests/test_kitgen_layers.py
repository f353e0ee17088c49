"""kitgen's rooms (issue 40): a few subpackages by concern, imported one way only.

The allowed direction is written once, in :data:`LAYERS`: a subpackage may import itself and
the ones listed before it, never one listed after it. Every import counts, type-only
(``if TYPE_CHECKING:``) and inside a function included (the import graph of
tests/test_architecture.py). docs/architecture.md draws the same order.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_architecture import forget_trees, import_graph

ROOT = Path(__file__).resolve().parent.parent

#: kitgen's subpackages, lowest first. ``lang`` (the message catalogue) is below everything.
LAYERS = ("lang", "core", "paper", "cost", "booklet", "kinds", "web", "kit", "cli")
MAX_ENTRIES = 12  # kitgen/'s top level: modules plus subpackages


@pytest.fixture(scope="module", autouse=True)
def _trees_for_this_file_only() -> Iterator[None]:
    """The import graph's parsed modules (tests/test_architecture.py) are not kept past this file."""
    yield
    forget_trees()


def layer_of(module: str, graph: dict[str, set[str]]) -> int:
    """The index of ``module``'s subpackage in :data:`LAYERS`: a module at kitgen's top
    (``__init__``, ``__main__``) is above every layer; a subpackage not in the order is -1."""
    parts = module.split(".")
    if len(parts) == 1:
        return len(LAYERS)
    if parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    is_package = any(name.startswith(module + ".") for name in graph)
    return len(LAYERS) if len(parts) == 2 and not is_package else -1


def against_the_direction(graph: dict[str, set[str]]) -> list[str]:
    """Every import of ``graph`` that runs from a lower subpackage up to a higher one."""
    bad = []
    for module in sorted(graph):
        here = layer_of(module, graph)
        for dep in sorted(graph[module]):
            there = layer_of(dep, graph)
            if here < 0 or there < 0:
                bad.append(f"{module} -> {dep}: a subpackage not in LAYERS")
            elif there > here:
                bad.append(f"{module} -> {dep}")
    return bad


def test_kitgen_imports_run_one_way() -> None:
    graph = import_graph(ROOT, ("kitgen",))
    assert len(graph) > 100
    assert against_the_direction(graph) == []


def test_every_subpackage_is_placed_in_the_order() -> None:
    rooms = sorted(p.name for p in (ROOT / "kitgen").iterdir() if (p / "__init__.py").is_file())
    assert set(rooms) <= set(LAYERS), f"place {sorted(set(rooms) - set(LAYERS))} in LAYERS"
    assert {"core", "paper", "booklet", "kit", "cli"} <= set(rooms)


def test_kitgen_has_at_most_twelve_entries() -> None:
    entries = sorted(p.name for p in (ROOT / "kitgen").iterdir() if p.name != "__pycache__")
    assert len(entries) <= MAX_ENTRIES, entries


def test_no_kitgen_module_is_over_700_lines() -> None:
    """The split modules stay split (faces by card family, typesetting by page element, the
    booklet by responsibility); the engine's half is in tests/test_architecture.py."""
    long = {
        str(p.relative_to(ROOT)): n
        for p in sorted((ROOT / "kitgen").rglob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 700
    }
    assert long == {}


def test_each_subpackage_says_what_it_owns_and_may_import() -> None:
    for name in LAYERS:
        init = ROOT / "kitgen" / name / "__init__.py"
        if not init.is_file():
            continue  # lang/ arrives with its own lane
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert len(doc.split()) >= 10, f"kitgen/{name}/__init__.py: a paragraph saying what it owns"
        if name not in ("kinds", "lang"):
            assert "import" in doc, f"kitgen/{name}/__init__.py: say what it may import"


def test_the_direction_check_sees_type_only_and_function_level_imports(tmp_path: Path) -> None:
    """Not blind: an import up from inside a function or under TYPE_CHECKING is found, an
    import down is allowed, and a subpackage missing from the order is named."""
    pkg = tmp_path / "kitgen"
    for room in ("core", "paper", "cli", "attic"):
        (pkg / room).mkdir(parents=True)
        (pkg / room / "__init__.py").write_text('"""A room."""\n')
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..paper.b import B\n"
    )
    (pkg / "paper" / "b.py").write_text("def f() -> None:\n    from kitgen.cli.c import f\nB = 1\n")
    (pkg / "paper" / "d.py").write_text("from ..core import a\n")
    (pkg / "cli" / "c.py").write_text("from ..paper.b import B\nfrom ..attic import x\n")
    (pkg / "attic" / "x.py").write_text("x = 1\n")
    bad = against_the_direction(import_graph(tmp_path, ("kitgen",)))
    assert bad == [
        "kitgen.cli.c -> kitgen.attic.x: a subpackage not in LAYERS",
        "kitgen.core.a -> kitgen.paper.b",
        "kitgen.paper.b -> kitgen.cli.c",
    ]
