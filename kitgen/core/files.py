"""Files read and written carefully: the one place that decides whether kitgen may write over a path.

- Only a regular file is read (:func:`read_regular`, from the engine's
  :mod:`reference_engine.files`): a FIFO, a device, a folder or, here, a symbolic link is
  refused at once, before it is opened, and so is a file past a size limit. Nothing read can hang.
- Whose a path is (:func:`whose`): nothing there; a regular file whose content proves kitgen
  wrote it (a :data:`Proof` reads it: a game record's header, a checksum a folder's marker
  keeps); a regular file of anyone else's; or something that is not a regular file (a folder, a
  link, a FIFO, a device, a socket). :func:`replaceable` is the rule: kitgen writes over or
  deletes only what is nothing or its own, with ``force`` also someone else's regular file;
  never what is not a regular file. Every writer and every deletion asks it (a game record,
  :mod:`kitgen.core.output`'s kit folders).
- A file is written to a fresh temporary name beside it and renamed over it
  (:func:`write_atomic`, :func:`write_replacing`), so a reader sees the old file or the new one,
  never half of one; the temporary file is removed whatever stops the write. A file written
  over keeps its permission bits (a record may hold cards the table did not see).
- New files and folders get the user's umask, as any other tool's output does
  (:func:`new_file`, :func:`new_folder`): ``tempfile`` would make them 0600 / 0700.
"""

from __future__ import annotations

import enum
import errno
import os
import secrets
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reference_engine.api import file_kind, open_regular
from reference_engine.api import read_head as _read_head
from reference_engine.api import read_regular as _read_regular

_ATTEMPTS = 100

Proof = Callable[[int], bool]
"""Whether the open regular file (a read-only descriptor) is one kitgen wrote."""


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
    file (``.<name>.tmp-<pid>-<random>``) is removed whatever ends the write early. For kitgen's
    own files (a cache entry, a marker); a file a user names goes through :func:`write_replacing`."""
    fd, tmp = new_file(path.parent, f".{path.name}.tmp-{os.getpid()}-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` when it is a regular file (not a link) of at most ``limit`` bytes;
    otherwise an :class:`OSError` saying why, without blocking."""
    return _read_regular(path, limit, follow_links=False)


def read_head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes (or fewer) of ``path`` when it is a regular file (as :func:`read_regular`)."""
    return _read_head(path, size, follow_links=False)


# --------------------------------------------------------------------------- whose a path is


class Whose(enum.Enum):
    NOTHING = "nothing there"
    KITGEN = "a file kitgen wrote"
    OTHER = "a file kitgen did not write"
    SPECIAL = "not a regular file"


@dataclass(frozen=True)
class Found:
    """What is at a path: :class:`Whose` it is, what it is in words (``a FIFO (named pipe)``),
    and which file (device and inode; None when nothing is there)."""

    whose: Whose
    what: str = "nothing"
    identity: tuple[int, int] | None = None


def whose(path: Path, proof: Proof) -> Found:
    """Whose ``path`` is (the path itself: a symbolic link is a link, wherever it points). A
    regular file is opened without blocking and ``proof`` reads it; a file that cannot be read
    proves nothing."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return Found(Whose.NOTHING)
    if not stat.S_ISREG(st.st_mode):
        return Found(Whose.SPECIAL, file_kind(st.st_mode), (st.st_dev, st.st_ino))
    identity = (st.st_dev, st.st_ino)
    try:
        fd = open_regular(path, follow_links=False)
    except FileNotFoundError:
        return Found(Whose.NOTHING)
    except OSError:
        return Found(Whose.OTHER, "a regular file kitgen cannot read", identity)
    try:
        after = os.fstat(fd)
        ours = proof(fd)
    except OSError:
        ours = False
    finally:
        os.close(fd)
    return Found(Whose.KITGEN if ours else Whose.OTHER, "a regular file", (after.st_dev, after.st_ino))


def replaceable(found: Found, force: bool = False) -> bool:
    """The rule: kitgen writes over (or deletes) a path only when nothing is there or the file
    is its own; ``force`` adds a regular file of someone else's; a folder, a link, a FIFO, a
    device or a socket never."""
    return found.whose in (Whose.NOTHING, Whose.KITGEN) or (force and found.whose is Whose.OTHER)


class Refused(Exception):
    """:func:`write_replacing` found at ``path`` what it may not write over (see ``found``)."""

    def __init__(self, path: Path, found: Found, late: bool = False):
        super().__init__(f"{path}: {found.what} ({found.whose.value})")
        self.path = path
        self.found = found
        self.late = late  # it came while the new file was being written


def write_replacing(path: Path, data: bytes, proof: Proof, force: bool = False) -> None:
    """Write ``data`` to ``path`` when :func:`replaceable` allows it, else raise :class:`Refused`
    and change nothing. The data goes to a temporary file beside ``path`` (flushed to disk), and
    that takes ``path``'s place only if ``path`` is still the file judged at first: a new path
    is linked (which fails if anything has appeared there), an old one renamed over."""
    found = whose(path, proof)
    if not replaceable(found, force):
        raise Refused(path, found)
    fd, tmp = new_file(path.parent, f".{path.name}.tmp-{os.getpid()}-")
    try:
        with os.fdopen(fd, "wb") as fh:
            if found.whose is not Whose.NOTHING:
                os.fchmod(fh.fileno(), _mode(path))
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        now = whose(path, proof)
        if now.identity != found.identity or not replaceable(now, force):
            raise Refused(path, now, late=True)
        if found.whose is Whose.NOTHING:
            _link_new(tmp, path, proof)
        else:
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _mode(path: Path) -> int:
    try:
        return stat.S_IMODE(os.lstat(path).st_mode)
    except OSError:
        return 0o644


def _link_new(tmp: Path, path: Path, proof: Proof) -> None:
    """Put ``tmp`` at ``path``, where there was nothing: a hard link fails if something has
    appeared there since; where links cannot be made (some file systems), a rename."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise Refused(path, whose(path, proof), late=True) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if os.path.lexists(path):
            raise Refused(path, whose(path, proof), late=True) from None
        os.replace(tmp, path)


def probe_writable(folder: Path) -> None:
    """Raise :class:`OSError` (with ``folder`` as its file name) unless a file can be created
    in ``folder``; leaves nothing behind."""
    try:
        fd, tmp = new_file(folder, ".kitgen-probe-")
    except OSError as exc:
        exc.filename = str(folder)
        raise
    os.close(fd)
    tmp.unlink(missing_ok=True)


__all__ = [
    "Found",
    "Proof",
    "Refused",
    "Whose",
    "new_file",
    "new_folder",
    "probe_writable",
    "read_head",
    "read_regular",
    "replaceable",
    "whose",
    "write_atomic",
    "write_replacing",
]
