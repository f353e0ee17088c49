"""Reading a file a user names: a regular file only, of a bounded size, and never waiting.

Every loader and every file option reads through :func:`read_regular` (a spec, a rule set, a
table-time model, a template, a game record, a kit folder's marker...). The file's type is
looked at before it is opened (``stat``) and again on the open descriptor (``fstat``, the same
file), so a FIFO is never opened (opening one for reading waits for a writer), a device never
read (``/dev/zero`` never ends, ``/dev/watchdog`` acts when opened), and a folder is named as
one. The descriptor is opened ``O_NONBLOCK | O_NOCTTY``, so a file swapped for a FIFO or a
terminal between the two looks cannot block or take over the terminal either; past ``limit``
bytes nothing more is read. ``follow_links=False`` refuses a symbolic link too (the marker of
an output folder must be the folder's own file).

Problems are :class:`OSError` with a reason a person can read (``strerror``) and the path
(``filename``); each caller turns it into its own one-line error.
"""

from __future__ import annotations

import errno
import os
import stat

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)

KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISREG, "a regular file"),
)


def file_kind(mode: int) -> str:
    """What a file of mode ``mode`` is, in words (``a FIFO (named pipe)``, ``a folder``...)."""
    for test, words in KINDS:
        if test(mode):
            return words
    return "not a regular file"


def not_regular(path: str | os.PathLike[str], mode: int) -> OSError:
    """The error for ``path``, which is not a regular file but ``mode`` says what."""
    code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
    return OSError(code, f"{file_kind(mode)}, not a regular file", os.fspath(path))


def too_big(path: str | os.PathLike[str], limit: int) -> OSError:
    return OSError(errno.EFBIG, f"larger than {limit:,} bytes", os.fspath(path))


def open_regular(path: str | os.PathLike[str], follow_links: bool = True) -> int:
    """A descriptor of ``path`` open for reading, when it is a regular file (with
    ``follow_links=False``: not a symbolic link either); otherwise :class:`OSError` saying what it
    is, raised before anything is opened. ``FileNotFoundError`` when there is nothing there."""
    before = os.stat(path) if follow_links else os.lstat(path)
    if not stat.S_ISREG(before.st_mode):
        raise not_regular(path, before.st_mode)
    flags = _FLAGS | (0 if follow_links else getattr(os, "O_NOFOLLOW", 0))
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW: it became a link after the look
            raise not_regular(path, stat.S_IFLNK) from None
        raise
    after = os.fstat(fd)
    if not stat.S_ISREG(after.st_mode) or (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
        os.close(fd)
        if not stat.S_ISREG(after.st_mode):
            raise not_regular(path, after.st_mode)
        raise OSError(errno.EAGAIN, "replaced by another file while it was opened", os.fspath(path))
    return fd


def read_descriptor(fd: int, limit: int, path: str | os.PathLike[str]) -> bytes:
    """At most ``limit`` bytes from the start of open regular file ``fd``; :class:`OSError` when
    it holds more (its size says so, or it grew while being read)."""
    if os.fstat(fd).st_size > limit:
        raise too_big(path, limit)
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = os.pread(fd, min(1 << 20, limit + 1 - size), size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise too_big(path, limit)
    return b"".join(chunks)


def read_regular(path: str | os.PathLike[str], limit: int, follow_links: bool = True) -> bytes:
    """The bytes of ``path`` when it is a regular file of at most ``limit`` bytes; otherwise an
    :class:`OSError` saying why (a FIFO, a device, a folder, a link with ``follow_links=False``,
    too big), at once: nothing here waits."""
    fd = open_regular(path, follow_links)
    try:
        return read_descriptor(fd, limit, path)
    finally:
        os.close(fd)


def read_head(path: str | os.PathLike[str], size: int, follow_links: bool = True) -> bytes:
    """The first ``size`` bytes (or fewer) of ``path`` when it is a regular file (as
    :func:`read_regular`, whatever its length)."""
    fd = open_regular(path, follow_links)
    try:
        return os.pread(fd, size, 0)
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int, follow_links: bool = True) -> str:
    """:func:`read_regular` as UTF-8 text (:class:`UnicodeDecodeError` when it is not)."""
    return read_regular(path, limit, follow_links).decode("utf-8")


def reason(exc: OSError) -> str:
    """Why ``exc`` happened, in words (its ``strerror``, else its text)."""
    return exc.strerror or str(exc)


def not_a_file(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be read as a file (``a FIFO (named pipe), not a regular file``); None
    when it is a regular file or nothing is there (the caller says "no such file")."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else f"{file_kind(mode)}, not a regular file"


__all__ = [
    "file_kind",
    "not_a_file",
    "not_regular",
    "open_regular",
    "read_descriptor",
    "read_head",
    "read_regular",
    "read_text",
    "reason",
    "too_big",
]
