"""Tests never write into the user's cache, not even from module-scoped fixtures."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import os
from pathlib import Path

import pytest

from kitgen.core.verification import VerificationCache, default_cache_dir, verify_protocols
from reference_engine.api import Library

SEEN = {}


@pytest.fixture(scope="module")
def built() -> Path:
    # A module fixture runs before the autouse function fixture of its first test.
    SEEN["dir"] = default_cache_dir()
    # As kit builds do: a cache in the default folder.
    verify_protocols(Library(), ["six-card-and"], cache=VerificationCache())
    return default_cache_dir()


def test_probe(built: Path) -> None:
    assert any(built.glob("*.json")), "the verification report was not cached"
    Path(os.environ["PROBE_OUT"]).write_text(str(SEEN["dir"]))
"""


def test_module_fixtures_never_write_into_the_users_cache(tmp_path: Path) -> None:
    """Runs a module-scoped fixture that verifies a protocol, under this suite's conftest, in
    a fresh pytest with a fake HOME and no cache variables: nothing may land in HOME/.cache."""
    home = tmp_path / "home"
    home.mkdir()
    tests = tmp_path / "tests"
    tests.mkdir()
    shutil.copy(ROOT / "tests" / "conftest.py", tests / "conftest.py")
    (tests / "test_probe.py").write_text(PROBE, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KITGEN_", "XDG_", "PYTEST_"))}
    env.update(HOME=str(home), PROBE_OUT=str(tmp_path / "seen.txt"))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", str(tests)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    seen = Path((tmp_path / "seen.txt").read_text())
    assert not seen.is_relative_to(home), seen
    assert not (home / ".cache").exists(), sorted(str(p) for p in home.rglob("*"))
    assert not seen.exists()  # the session's folder is removed at the end
