"""Shared fixtures: the built-in library, helpers to write spec variants, and kits built once.

No test writes into the user's cache: :func:`pytest_configure` points ``KITGEN_CACHE_DIR`` (and
``XDG_CACHE_HOME``) at a folder of this test session before any fixture runs, module and
session fixtures included (they run before the function-scoped ``verification_cache``). The
folder is made once by the controlling process and inherited by every xdist worker, so kits
built by module fixtures in different files share their verification reports (a report is
reused only when everything that decides it is the same, see kitgen/core/verification.py). Tests use
that shared folder too (:func:`verification_cache`), unless one asks for an empty cache of its own
(it takes ``verification_cache`` as an argument, or is marked ``fresh_cache``).

A test that only reads a kit asks for it with :func:`built_kit` (``built_kit(ruleset="gakmoro")``:
the folder and the manifest of ``kitgen build`` with these options) or :func:`built_booklet`: each
distinct set of options is built once per test session, whatever the file or the xdist worker
that asks first (a lock file in the session folder makes the others wait for it and then read
it), so a kit checked in ten files costs one build. The folder is shared: a test must not write
into it (copy it with ``shutil.copytree`` first). docs/architecture.md, "The test suite".
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest


def _write_bytecode() -> None:
    """The test session writes bytecode (``__pycache__``, ignored by git) even where
    ``PYTHONDONTWRITEBYTECODE`` is set, for itself, its xdist workers and the commands it starts:
    otherwise every process compiles the project (and pytest rewrites every test file) from source
    again, about 10 s CPU per worker and 0.6 s per command started (bench: README, "Tests")."""
    if sys.dont_write_bytecode:
        sys.dont_write_bytecode = False
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_write_bytecode()  # before the project's first import below

from reference_engine.registry import Library, rulesets_dir  # noqa: E402

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
    # No small lottery's law read from disk (reference_engine/machine/lawcache.py): a test's
    # enumerations never depend on what an earlier test wrote; tests/.../test_lawcache.py turns it on.
    os.environ["KITGEN_LAW_CACHE"] = "0"


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


def shared_cache_dir() -> Path:
    """The kitgen cache every test of this session shares (verification reports, table-time
    figures, page previews): never the user's, removed at the end of the session."""
    return Path(os.environ[SESSION_CACHE_ENV]) / "verification"


@pytest.fixture(autouse=True)
def verification_cache(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The kitgen cache folder of this test (never the user's).

    By default it is the session's shared folder (:func:`shared_cache_dir`): the caches are keyed
    by everything that decides an entry (the engine's and kitgen's source, the specs, the request)
    and checked when read, so a protocol verified or a kit's games costed by one test are reused
    by the next instead of computed again in every test. A test that counts or damages cache
    entries, or depends on a first, cold computation, gets its own empty folder: it asks for this
    fixture by name (and gets the folder) or is marked ``fresh_cache``. A test that patches what a
    cached result depends on (engine or kitgen code) must be marked ``fresh_cache`` too, or a
    report made before the patch would be served."""
    function = getattr(request, "function", None)
    asked = function is not None and "verification_cache" in inspect.signature(function).parameters
    if asked or request.node.get_closest_marker("fresh_cache") is not None:
        directory = tmp_path_factory.mktemp("verification-cache")
    else:
        directory = shared_cache_dir()
    monkeypatch.setenv("KITGEN_CACHE_DIR", str(directory))
    return directory


@pytest.fixture(autouse=True)
def _unshared_programs() -> None:
    """Every test starts with no compiled program that its fresh libraries would take from an
    earlier test (reference_engine/compiled/program.py shares one program per protocol between
    libraries): a test that changes a compiler or a bound, or counts what a first run makes, gets
    a program compiled for it, whatever ran before it in the process."""
    from reference_engine.compiled.program import unshare

    unshare()


# --------------------------------------------------------------------------- kits built once


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (other xdist workers wait); no lock where fcntl is missing."""
    try:
        import fcntl
    except ImportError:  # not POSIX: each worker builds its own copy
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _key(what: str, options: dict[str, Any]) -> str:
    def plain(value: Any) -> Any:
        return sorted(value) if isinstance(value, frozenset | set) else repr(value)

    text = json.dumps([what, {k: plain(v) for k, v in sorted(options.items())}])
    return f"{what}-{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def shared_build(
    what: str, options: dict[str, Any], make: Callable[[Path], dict[str, Any]]
) -> tuple[Path, dict[str, Any]]:
    """``make(folder)`` once per session for ``(what, options)``: its folder and the JSON it returned."""
    root = Path(os.environ[SESSION_CACHE_ENV]) / "built"
    folder = root / _key(what, options)
    done = folder.parent / f"{folder.name}.json"
    with _locked(folder.parent / f"{folder.name}.lock"):
        if not done.is_file():
            if folder.exists():  # a build that failed half way in another worker
                shutil.rmtree(folder)
            before = os.environ.get("KITGEN_CACHE_DIR")
            os.environ["KITGEN_CACHE_DIR"] = str(shared_cache_dir())  # whatever the asking test uses
            try:
                result = make(folder)
            finally:
                if before is None:
                    os.environ.pop("KITGEN_CACHE_DIR", None)
                else:
                    os.environ["KITGEN_CACHE_DIR"] = before
            done.write_text(json.dumps(result), encoding="utf-8")
    return folder, json.loads(done.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def built_kit() -> Callable[..., tuple[Path, dict[str, Any]]]:
    """``built_kit(**options)``: ``kitgen build`` with these :class:`kitgen.kit.build.KitOptions` fields
    (not ``output``), built once per test session: (its folder, its manifest as JSON). Read only."""
    from kitgen.kit.build import KitOptions, build

    def get(**options: Any) -> tuple[Path, dict[str, Any]]:
        assert "output" not in options, "built_kit chooses the folder"
        return shared_build(
            "kit", options, lambda folder: build(KitOptions(**options, output=str(folder))).to_json()
        )

    return get


@pytest.fixture(scope="session")
def built_booklet() -> Callable[..., tuple[Path, dict[str, Any]]]:
    """``built_booklet(**options)``: ``kitgen booklet`` with these :class:`kitgen.kit.build.BookletOptions`
    fields (not ``output``), built once per test session: (its folder, its manifest). Read only."""
    from kitgen.kit.build import BookletOptions, build_booklet

    def get(**options: Any) -> tuple[Path, dict[str, Any]]:
        assert "output" not in options, "built_booklet chooses the folder"
        return shared_build(
            "booklet",
            options,
            lambda folder: build_booklet(BookletOptions(**options, output=str(folder))).to_json(),
        )

    return get
