"""Shared fixtures: the built-in library, and helpers to write spec variants.

No test writes into the user's cache: :func:`pytest_configure` points ``KITGEN_CACHE_DIR`` (and
``XDG_CACHE_HOME``) at a folder of this test session before any fixture runs, module and
session fixtures included (they run before the function-scoped ``verification_cache``). The
folder is made once by the controlling process and inherited by every xdist worker, so kits
built by module fixtures in different files share their verification reports (a report is
reused only when everything that decides it is the same, see kitgen/verification.py).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from reference_engine.registry import Library, rulesets_dir

PROTOCOLS = rulesets_dir() / "protocols"
SESSION_CACHE_ENV = "KITGEN_TEST_SESSION_CACHE"  # set by the controlling process, read by workers


def pytest_configure(config: pytest.Config) -> None:
    folder = os.environ.get(SESSION_CACHE_ENV)
    if folder is None:  # the controlling process (or a run without xdist)
        folder = tempfile.mkdtemp(prefix="kitgen-test-cache-")
        os.environ[SESSION_CACHE_ENV] = folder
        config.stash[_OWNED] = folder
    os.environ["KITGEN_CACHE_DIR"] = str(Path(folder) / "verification")
    os.environ["XDG_CACHE_HOME"] = str(Path(folder) / "xdg")


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_OWNED, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(SESSION_CACHE_ENV, None)


_OWNED = pytest.StashKey[str]()


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
