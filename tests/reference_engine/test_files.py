"""Reading a file a user names: only a regular file, bounded, and never waiting (each attack runs
in a thread with a timeout, so a regression fails instead of hanging the suite)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from reference_engine.files import file_kind, not_a_file, read_head, read_regular, read_text
from reference_engine.source import MAX_FILE_BYTES, load_file

WAIT = 10  # seconds: far more than a refusal takes


def at_once(attempt: Callable[[], object]) -> object:
    """``attempt()``'s result or exception, failing the test when it has not ended in WAIT s."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(attempt())
        except BaseException as exc:  # (handed to the test)
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(WAIT)
    assert outcome, f"still waiting after {WAIT} s: it blocked"
    return outcome[0]


def test_a_regular_file_is_read_within_its_limit(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"abc")
    assert read_regular(tmp_path / "f", 3) == b"abc"
    assert read_head(tmp_path / "f", 2) == b"ab" and read_text(tmp_path / "f", 10) == "abc"
    with pytest.raises(OSError, match="larger than 2 bytes"):
        read_regular(tmp_path / "f", 2)


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (lambda p: os.mkfifo(p), "a FIFO (named pipe), not a regular file"),
        (lambda p: p.mkdir(), "a folder, not a regular file"),
    ],
    ids=["fifo", "folder"],
)
def test_what_is_not_a_regular_file_is_refused_at_once(
    tmp_path: Path, make: Callable[[Path], None], what: str
) -> None:
    path = tmp_path / "x.yaml"
    make(path)
    for reader in (
        lambda: read_regular(path, 100),
        lambda: read_head(path, 100),
        lambda: read_regular(path, 100, follow_links=False),
    ):
        exc = at_once(reader)
        assert isinstance(exc, OSError) and exc.strerror == what and exc.filename == str(path)
    assert not_a_file(path) == what


def test_a_device_is_never_read() -> None:
    exc = at_once(lambda: read_regular(Path("/dev/zero"), 100))
    assert isinstance(exc, OSError) and exc.strerror == "a character device, not a regular file"


def test_a_link_is_followed_unless_told_not_to(tmp_path: Path) -> None:
    (tmp_path / "real").write_text("data")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert read_regular(tmp_path / "link", 10) == b"data"
    with pytest.raises(OSError, match="a symbolic link, not a regular file"):
        read_regular(tmp_path / "link", 10, follow_links=False)
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "to-pipe").symlink_to(tmp_path / "pipe")  # a link to a FIFO is a FIFO
    exc = at_once(lambda: read_regular(tmp_path / "to-pipe", 10))
    assert isinstance(exc, OSError) and "FIFO" in str(exc.strerror)


def test_a_file_that_grows_past_its_limit_while_read_is_refused(tmp_path: Path) -> None:
    """/proc files say size 0 and hold more: the limit is on what is read, not on the size said."""
    status = Path("/proc/self/status")
    if not status.is_file():
        pytest.skip("no /proc here")
    assert os.stat(status).st_size == 0
    with pytest.raises(OSError, match="larger than 10 bytes"):
        read_regular(status, 10)


def test_file_kind_names_every_kind() -> None:
    assert file_kind(os.stat("/dev/null").st_mode) == "a character device"
    assert file_kind(os.stat("/").st_mode) == "a folder"


def test_every_loader_refuses_a_fifo_in_one_line(tmp_path: Path) -> None:
    """load_file reads every spec, rule set, table-time model and template."""
    os.mkfifo(tmp_path / "spec.yaml")
    exc = at_once(lambda: load_file(tmp_path / "spec.yaml"))
    assert str(exc) == f"{tmp_path / 'spec.yaml'}: cannot read file: a FIFO (named pipe), not a regular file"
    (tmp_path / "big.yaml").write_bytes(b"a: 1\n" * (MAX_FILE_BYTES // 5 + 1))
    exc = at_once(lambda: load_file(tmp_path / "big.yaml"))
    assert "file is larger than 1,000,000 bytes" in str(exc)
