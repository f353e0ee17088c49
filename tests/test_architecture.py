"""The shape issue 11 promised, kept by tests: one door into the engine, kinds only in their packages."""

from __future__ import annotations

import ast
from pathlib import Path

from reference_engine.api import kinds

ROOT = Path(__file__).resolve().parent.parent


def _modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def test_kitgen_uses_the_engine_only_through_its_api() -> None:
    for path in _modules("kitgen"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
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
            tree = ast.parse(path.read_text(encoding="utf-8"))
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
