"""Careful files: only regular files are read, writes go through a temporary file, umask modes."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from kitgen.files import new_file, new_folder, read_head, read_regular, write_atomic


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
