"""Hostile files in the verification cache's folder (kitgen/core/cache.py) and beside a build's
output (kitgen/core/output.py), stop 50's round: names that claim a pid no process can have,
folders and links with a temporary file's name, an entry past the size limit, and writers of
one entry at once.

A temporary file named ``.<key>.json.tmp-99999999999999999999-<hex>`` made every build that
stored a report die with ``OverflowError`` (``os.kill`` takes a C int): ``process_alive`` now
answers that no process has such a pid.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from kitgen.core.cache import MAX_ENTRY, VerificationCache
from kitgen.core.output import process_alive, remove_stale
from kitgen.core.verification import verify_protocols
from reference_engine.registry import Library

pytestmark = pytest.mark.fresh_cache  # it counts or damages cold cache entries

HUGE = 10**20  # past any C int: os.kill raises OverflowError, not an OSError


def _cached(folder: Path) -> Path:
    verify_protocols(Library(), ["five-card-trick"], cache=VerificationCache(folder))
    (entry,) = (p for p in folder.glob("*.json") if len(p.stem) == 64)
    return entry


def test_no_process_has_a_pid_past_a_c_int() -> None:
    assert process_alive(HUGE) is False
    assert process_alive(2**31) is False
    assert process_alive(os.getpid()) is True


def test_a_temporary_file_claiming_an_impossible_pid_is_swept_not_a_crash(tmp_path: Path) -> None:
    planted = tmp_path / f".{'a' * 64}.json.tmp-{HUGE}-0123abcd"
    planted.write_text("{half an entry")
    entry = _cached(tmp_path)  # stores, so sweeps: it died with OverflowError before
    assert sorted(p.name for p in tmp_path.iterdir()) == [entry.name]


def test_folders_and_links_with_a_temporary_file_s_name_are_left_alone(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    outside = tmp_path_factory.mktemp("outside") / "precious"
    outside.write_text("precious")
    folder = cache / f".{'b' * 64}.json.tmp-{HUGE}-0123abcd"
    folder.mkdir()
    (folder / "inside").write_text("x")
    link = cache / f".{'c' * 64}.json.tmp-{HUGE}-4567cdef"
    link.symlink_to(outside)
    entry = _cached(cache)
    assert sorted(p.name for p in cache.iterdir()) == sorted([entry.name, folder.name, link.name])
    assert (folder / "inside").read_text() == "x" and outside.read_text() == "precious"


def test_an_entry_past_the_size_limit_is_discarded_unread(tmp_path: Path) -> None:
    entry = _cached(tmp_path)
    with entry.open("r+b") as f:  # sparse: no disk spent, and never read
        f.truncate(MAX_ENTRY + 1)
    said: list[str] = []
    cache = VerificationCache(tmp_path, warn=said.append)
    verify_protocols(Library(), ["five-card-trick"], cache=cache)
    assert cache.discarded == 1 and len(said) == 1
    assert entry.stat().st_size < MAX_ENTRY  # written again, whole
    assert json.loads(entry.read_text(encoding="utf-8"))["key"] == entry.stem


def test_writers_of_one_entry_at_once_leave_one_whole_entry(tmp_path: Path) -> None:
    entry = _cached(tmp_path)
    data = json.loads(entry.read_text(encoding="utf-8"))
    key, rec = data["key"], data["record"]
    entry.unlink()
    start = threading.Barrier(8)
    read: list[object] = []

    def write() -> None:
        cache = VerificationCache(tmp_path)
        start.wait()
        for _ in range(20):
            cache.store(key, rec)  # then the entry is there, renamed in whole, whoever wrote last
            read.append(json.loads(entry.read_text(encoding="utf-8"))["key"])

    workers = [threading.Thread(target=write) for _ in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert read and set(read) == {key}  # every read saw a whole entry, never half of one
    assert sorted(p.name for p in tmp_path.iterdir()) == [entry.name]  # no temporary file left
    assert json.loads(entry.read_text(encoding="utf-8")) == data


def test_a_staging_folder_claiming_an_impossible_pid_is_stale(tmp_path: Path) -> None:
    """The same pid in a build's staging folder beside its output: removed as a dead build's,
    where a build died with OverflowError before."""
    destination = tmp_path / "kit"
    destination.mkdir()
    planted = tmp_path / f".kit.tmp-{HUGE}-abc123"
    planted.mkdir()
    assert remove_stale(destination) == [planted]
    assert not planted.exists() and destination.is_dir()
