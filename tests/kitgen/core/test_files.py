"""Careful files: only regular files are read, writes go through a temporary file, umask modes,
and the one rule of what kitgen may write over."""

from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from kitgen.core.files import (
    Refused,
    Whose,
    new_file,
    new_folder,
    read_head,
    read_regular,
    replaceable,
    whose,
    write_atomic,
    write_replacing,
)


def test_read_regular_reads_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"abc")
    assert read_regular(tmp_path / "f", 3) == b"abc"
    with pytest.raises(OSError, match="larger than 2 bytes"):
        read_regular(tmp_path / "f", 2)
    assert read_head(tmp_path / "f", 2) == b"ab" and read_head(tmp_path / "f", 10) == b"abc"


def test_read_regular_refuses_at_once_what_is_not_a_regular_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "dir")
    done = threading.Event()

    def attempt() -> None:
        for name in ("fifo", "dir", "link"):
            with pytest.raises(OSError):
                read_regular(tmp_path / name, 100)
            with pytest.raises(OSError):
                read_head(tmp_path / name, 100)
        with pytest.raises(OSError, match="not a regular file"):
            read_regular(Path("/dev/zero"), 100)
        done.set()

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert done.is_set(), "reading a FIFO blocked"


def test_write_atomic_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "entry.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two" and [p.name for p in tmp_path.iterdir()] == ["entry.json"]


def test_a_failed_write_removes_its_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError):
        write_atomic(tmp_path / "folder", b"a folder is in the way")  # the rename fails
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_new_files_and_folders_get_the_umask(tmp_path: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        folder = new_folder(tmp_path, ".x-")
        fd, path = new_file(tmp_path, ".y-")
        os.close(fd)
    finally:
        os.umask(old)
    assert folder.stat().st_mode & 0o777 == 0o777 & ~mask
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


# --------------------------------------------------------------------------- whose a path is


def starts_with_ours(fd: int) -> bool:
    return os.pread(fd, 4, 0) == b"OURS"


def test_whose_a_path_is(tmp_path: Path) -> None:
    (tmp_path / "ours").write_bytes(b"OURS and more")
    (tmp_path / "theirs").write_bytes(b"notes")
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "ours")  # a link, wherever it points
    os.mkfifo(tmp_path / "fifo")
    found = {
        name: whose(tmp_path / name, starts_with_ours)
        for name in ("ours", "theirs", "dir", "link", "fifo", "none")
    }
    assert {n: f.whose for n, f in found.items()} == {
        "ours": Whose.KITGEN,
        "theirs": Whose.OTHER,
        "dir": Whose.SPECIAL,
        "link": Whose.SPECIAL,
        "fifo": Whose.SPECIAL,
        "none": Whose.NOTHING,
    }
    assert found["fifo"].what == "a FIFO (named pipe)" and found["link"].what == "a symbolic link"
    assert [n for n, f in found.items() if replaceable(f)] == ["ours", "none"]
    assert [n for n, f in found.items() if replaceable(f, force=True)] == ["ours", "theirs", "none"]
    assert whose(Path("/dev/null"), starts_with_ours).whose is Whose.SPECIAL


def test_write_replacing_writes_only_where_the_rule_allows(tmp_path: Path) -> None:
    (tmp_path / "theirs").write_bytes(b"notes")
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(Refused) as info:
        write_replacing(tmp_path / "theirs", b"OURS new", starts_with_ours)
    assert info.value.found.whose is Whose.OTHER and (tmp_path / "theirs").read_bytes() == b"notes"
    for force in (False, True):
        with pytest.raises(Refused):
            write_replacing(tmp_path / "fifo", b"OURS new", starts_with_ours, force)
        assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)
    write_replacing(tmp_path / "new", b"OURS 1", starts_with_ours)
    (tmp_path / "new").chmod(0o600)  # a record holds what the table did not see
    write_replacing(tmp_path / "new", b"OURS 2", starts_with_ours)
    assert (tmp_path / "new").read_bytes() == b"OURS 2" and (tmp_path / "new").stat().st_mode & 0o777 == 0o600
    write_replacing(tmp_path / "theirs", b"OURS forced", starts_with_ours, force=True)
    assert (tmp_path / "theirs").read_bytes() == b"OURS forced"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "new", "theirs"]  # no temporary file


def test_a_file_that_appears_while_writing_is_not_written_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judged when the write starts and again before the rename: a user's file (or a FIFO)
    that appears in between is kept, and the new data is dropped."""
    target = tmp_path / "r.json"
    real = os.fsync

    def meanwhile(fd: int) -> None:
        real(fd)
        target.write_bytes(b"written by someone else meanwhile")

    monkeypatch.setattr(os, "fsync", meanwhile)
    with pytest.raises(Refused) as info:
        write_replacing(target, b"OURS", starts_with_ours)
    assert info.value.late and target.read_bytes() == b"written by someone else meanwhile"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_an_interrupted_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "r.json"
    target.write_bytes(b"OURS old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        write_replacing(target, b"OURS new", starts_with_ours)
    assert target.read_bytes() == b"OURS old" and sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]
