"""Shared fixtures: the built-in library, and helpers to write spec variants."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from reference_engine.registry import Library, rulesets_dir

PROTOCOLS = rulesets_dir() / "protocols"


@pytest.fixture
def library() -> Library:
    return Library()


def spec_text(name: str) -> str:
    return (PROTOCOLS / f"{name}.yaml").read_text(encoding="utf-8")


@pytest.fixture
def variant(tmp_path: Path) -> Callable[..., Library]:
    """Write modified copies of built-in specs to a temp folder; return a library that sees them first.

    Each change is (old, new); the test fails if ``old`` is not in the spec, so a variant
    never silently stops being broken when the real spec changes.
    """

    def make(name: str, *changes: tuple[str, str]) -> Library:
        text = spec_text(name)
        for old, new in changes:
            assert old in text, f"{old!r} not found in {name}.yaml"
            text = text.replace(old, new, 1)
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
        return Library([tmp_path, PROTOCOLS])

    return make


@pytest.fixture(autouse=True)
def verification_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test starts with its own empty verification cache (never the user's)."""
    directory = tmp_path_factory.mktemp("verification-cache")
    monkeypatch.setenv("KITGEN_CACHE_DIR", str(directory))
    return directory
