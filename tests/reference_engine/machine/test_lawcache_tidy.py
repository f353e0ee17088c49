"""The law cache keeps a bounded number of files and sweeps killed writers' temporary files
(reference_engine/machine/lawcache.py ``tidy``), and its memo of the engine's digest notices a
source file rewritten with its size and modification time kept (``engine_digest``).

Stop 49 left law files unpruned (about 50 files a version, a new version at every edit of the
engine) and a killed writer's ``.law-*.tmp-*`` file in place for ever.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from reference_engine.machine import lawcache

MINE = lawcache.engine_digest()[:16]
OTHER = ("a" * 16, "b" * 16, "c" * 16)


@pytest.fixture(autouse=True)
def _on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv(lawcache.ENV, "1")
    monkeypatch.setenv(lawcache.CACHE_ENV, str(tmp_path))
    return tmp_path


def _law(folder: Path, version: str, n: int, age: float) -> str:
    """A law file of ``version`` ("" : stop 49's names), written ``age`` seconds ago."""
    name = f"law-{version}-{n:040x}.law" if version else f"law-{n:040x}.law"
    (folder / name).write_bytes(b"law")
    at = time.time() - age
    os.utime(folder / name, (at, at))
    return name


def _names(folder: Path) -> list[str]:
    """What ``folder`` holds but the digest's memo (written there whenever the digest is computed
    afresh: an earlier test may have cleared it)."""
    return sorted(p.name for p in folder.iterdir() if p.name != "law-engine.digest")


def _dead_pid() -> int:
    """The pid of a process that has ended (and been waited for)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _temporary(folder: Path, pid: int, age: float = 0) -> str:
    name = f".law-{MINE}-{0:040x}.law.tmp-{pid}-0123abcd"
    (folder / name).write_bytes(b"half a law")
    at = time.time() - age
    os.utime(folder / name, (at, at))
    return name


def test_a_killed_writer_s_temporary_file_is_swept_a_live_one_s_kept(_on: Path) -> None:
    dead = _temporary(_on, _dead_pid())
    live = _temporary(_on, os.getpid())
    old = _temporary(_on, os.getppid(), age=lawcache.STALE_TEMPORARY + 60)  # alive, but stale
    impossible = _temporary(_on, 10**20)  # no process can have it (os.kill overflows): dead
    memo = f".law-engine.digest.tmp-{_dead_pid()}-89abcdef"
    (_on / memo).write_bytes(b"")
    foreign = [".x.json.tmp-1-ab", ".law-notes.txt", "law-notes.txt", f".law-{MINE}.law.tmp-1-xyz"]
    for name in foreign:
        (_on / name).write_bytes(b"not ours")
    removed = lawcache.tidy(_on)
    assert sorted(removed) == sorted([dead, old, impossible, memo])
    assert _names(_on) == sorted([live, *foreign])


def test_law_files_are_bounded_per_engine_version_and_in_versions(
    _on: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lawcache, "MAX_LAWS", 3)
    monkeypatch.setattr(lawcache, "MAX_VERSIONS", 3)
    # The running engine's files are the oldest here: its version is kept all the same.
    mine = [_law(_on, MINE, n, age=1000 - n) for n in range(5)]
    newest = [_law(_on, OTHER[0], n, age=10 + n) for n in range(2)]
    second = [_law(_on, OTHER[1], n, age=100 + n) for n in range(4)]
    third = [_law(_on, OTHER[2], n, age=200 + n) for n in range(2)]
    legacy = [_law(_on, "", n, age=300 + n) for n in range(2)]
    removed = lawcache.tidy(_on)
    kept = _names(_on)
    # The 3 newest of mine, both of the newest other version, the 3 newest of the second; the
    # third version and stop 49's unversioned names are past MAX_VERSIONS: gone.
    assert kept == sorted([*mine[2:], *newest, *second[:3]])
    assert sorted(removed) == sorted([*mine[:2], second[3], *third, *legacy])
    assert lawcache.tidy(_on) == []  # within the bounds: nothing more to do


def test_only_the_cache_s_own_regular_files_are_counted_or_removed(
    _on: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lawcache, "MAX_LAWS", 1)
    monkeypatch.setattr(lawcache, "MAX_VERSIONS", 1)
    outside = tmp_path_factory.mktemp("outside") / "precious"
    outside.write_bytes(b"precious")
    kept = _law(_on, MINE, 9, age=0)
    link = _on / f"law-{OTHER[0]}-{1:040x}.law"
    link.symlink_to(outside)  # a link with a law's name, of a version past the bound
    folder = _on / f"law-{OTHER[0]}-{2:040x}.law"
    folder.mkdir()
    fifo = _on / f"law-{MINE}-{3:040x}.law"
    os.mkfifo(fifo)
    tmp_link = _on / f".law-{MINE}-{4:040x}.law.tmp-{_dead_pid()}-0123abcd"
    tmp_link.symlink_to(outside)
    assert lawcache.tidy(_on) == []
    assert outside.read_bytes() == b"precious"
    assert link.is_symlink() and folder.is_dir() and fifo.exists() and tmp_link.is_symlink()
    assert (_on / kept).exists()


def test_tidying_a_missing_or_unreadable_folder_or_racing_another_tidier_is_harmless(
    _on: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert lawcache.tidy(_on / "no-such-folder") == []
    plain = _on / "a-file"
    plain.write_bytes(b"")
    assert lawcache.tidy(plain) == []
    monkeypatch.setattr(lawcache, "MAX_LAWS", 1)
    names = [_law(_on, MINE, n, age=10 - n) for n in range(3)]
    real_unlink = os.unlink

    def raced(path: Any) -> None:  # another process removed it first
        real_unlink(path)
        raise FileNotFoundError(path)

    monkeypatch.setattr(os, "unlink", raced)
    assert lawcache.tidy(_on) == []  # it removed nothing itself: the other did
    assert [n for n in _names(_on) if n.startswith("law-")] == [names[2]]


def test_a_save_tidies_its_folder_once(_on: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lawcache, "_TIDIED", set())
    dead = _temporary(_on, _dead_pid())
    assert lawcache.save(("tidy", 1), ("ordered", (), 0))
    assert not (_on / dead).exists()
    again = _temporary(_on, _dead_pid())
    assert lawcache.save(("tidy", 2), ("ordered", (), 0))
    assert (_on / again).exists()  # once per folder and process: the next process sweeps it
    assert lawcache.load(("tidy", 1)) == ("ordered", (), 0)
    assert lawcache.path(("tidy", 1)).name.startswith(f"law-{MINE}-")


def test_a_file_rewritten_with_its_size_and_modification_time_kept_is_seen(tmp_path: Path) -> None:
    """The memo's stat of a file holds its change time and inode too: ``cp -p``, ``rsync -t``,
    ``tar`` and ``touch -d`` can set a modification time back, not a change time."""
    src = tmp_path / "src"
    src.mkdir()
    f = src / "module.py"
    f.write_text("x = 1\n")
    before = lawcache._sources(str(src))
    info = f.stat()
    time.sleep(0.05)  # past the file system's clock tick
    f.write_text("x = 2\n")  # the same size
    os.utime(f, ns=(info.st_atime_ns, info.st_mtime_ns))  # and its modification time put back
    after = lawcache._sources(str(src))
    assert [e[:3] for e in after] == [e[:3] for e in before]  # name, size, mtime: all alike
    assert after != before


def test_the_digest_s_memo_is_not_written_while_a_source_file_is_racy(
    _on: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file changed within :data:`RACY` of the moment it was looked at may change again in
    the same tick of the file system's clock, with its size: its stat would then be the memo's
    but not its content. The memo is written only once every file is older (git's racily clean
    entries)."""
    sources = lawcache._sources
    memo = _on / "law-engine.digest"

    def fresh(root: str, below: str = "") -> list[tuple[str, int, int, int, int]]:
        now = time.time_ns()
        return [
            (rel, size, mtime, now if rel == "api.py" else ctime, ino)
            for rel, size, mtime, ctime, ino in sources(root, below)
        ]

    lawcache.engine_digest.cache_clear()
    try:
        monkeypatch.setattr(lawcache, "_sources", fresh)
        racy = lawcache.engine_digest()
        assert not memo.exists()
        monkeypatch.setattr(lawcache, "_sources", sources)
        lawcache.engine_digest.cache_clear()
        monkeypatch.setattr(lawcache, "RACY", 0)
        assert lawcache.engine_digest() == racy  # the same content, the same digest
        assert memo.read_text().split()[1] == racy
    finally:
        lawcache.engine_digest.cache_clear()
