"""Files read and written carefully: what kitgen keeps on disk besides the kits themselves.

- Only a regular file is read (:func:`read_regular`): a FIFO, a device, a folder or a
  symbolic link is refused at once (opened with ``O_NONBLOCK | O_NOFOLLOW`` and checked with
  ``fstat`` before a byte is read), and so is a file past a size limit. Nothing read can hang.
- A file is written to a fresh temporary name beside it and renamed over it
  (:func:`write_atomic`), so a reader sees the old file or the new one, never half of one;
  the temporary file is removed whatever stops the write.
- New files and folders get the user's umask, as any other tool's output does
  (:func:`new_file`, :func:`new_folder`): ``tempfile`` would make them 0600 / 0700.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

_ATTEMPTS = 100


def new_folder(parent: Path, prefix: str) -> Path:
    """A new empty folder ``parent/<prefix><random>``, mode 0777 less the umask."""
    for _ in range(_ATTEMPTS):
        path = parent / f"{prefix}{secrets.token_hex(6)}"
        try:
            os.mkdir(path, 0o777)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(parent))


def new_file(parent: Path, prefix: str) -> tuple[int, Path]:
    """A new empty file ``parent/<prefix><random>`` open for writing (its descriptor and path),
    mode 0666 less the umask."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(_ATTEMPTS):
        path = parent / f"{prefix}{secrets.token_hex(6)}"
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(parent))


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it and a rename. The temporary
    file (``.<name>.tmp-<pid>-<random>``) is removed whatever ends the write early."""
    fd, tmp = new_file(path.parent, f".{path.name}.tmp-{os.getpid()}-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _open_regular(path: Path) -> int:
    """A descriptor of ``path`` open for reading, when it is a regular file (not a link)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    return fd


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` when it is a regular file of at most ``limit`` bytes; otherwise an
    :class:`OSError` saying why (not a regular file, a symbolic link, too big), without blocking."""
    fd = _open_regular(path)
    try:
        if os.fstat(fd).st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", str(path))
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", str(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes (or fewer) of ``path`` when it is a regular file (as :func:`read_regular`)."""
    fd = _open_regular(path)
    try:
        return os.read(fd, size)
    finally:
        os.close(fd)


__all__ = ["new_file", "new_folder", "read_head", "read_regular", "write_atomic"]
