"""Where ``kitgen play --record FILE`` may write a game record, and writing it there.

A record goes to a new file, an empty one or over an earlier record kitgen wrote (its first
lines say so: :func:`reference_engine.api.is_record`); over any other regular file only with
``--force``;
never over a folder, a symbolic link, a FIFO, a device or a socket (as root, ``--record
/dev/null`` would otherwise replace the device with a file). The decision is
:func:`kitgen.core.files.replaceable`'s, made before the game (so a refusal costs nothing) and again
when the record is written. The record is written beside FILE and renamed over it, so an
earlier record is never half overwritten, and it keeps FILE's permissions.
"""

from __future__ import annotations

import os
from pathlib import Path

from reference_engine.api import RECORD_HEADER, UsageError, is_record

from ..core.files import Found, Refused, Whose, probe_writable, replaceable, whose, write_replacing


def written_by_kitgen(fd: int) -> bool:
    """Whether the open file may take a record: a game record kitgen wrote (by its first lines),
    or an empty file (``mktemp``'s: nothing in it is lost)."""
    head = os.pread(fd, len(RECORD_HEADER), 0)
    return is_record(head) or (not head and os.fstat(fd).st_size == 0)


def refusal(path: Path, found: Found, late: bool = False) -> UsageError:
    """The one line for a record path kitgen may not write over."""
    head = f"--record {path}:"
    if late:
        return UsageError(f"{head} {found.what} appeared there during the game; the record is not written")
    if found.whose is Whose.SPECIAL:
        if found.what == "a folder":
            return UsageError(f"{head} a folder, not a file")
        return UsageError(
            f"{head} {found.what}, not a regular file; a record is never written over it, even with --force"
        )
    return UsageError(
        f"{head} a file that is not a kitgen game record; kitgen does not write over it "
        "(choose another name, or --force to replace it)"
    )


def check_record_path(path: Path, force: bool) -> None:
    """Before the game: ``path`` may take a record (see the module), and its folder exists and
    can be written in; otherwise the reason in one line (exit code 2)."""
    if str(path) == "-":
        raise UsageError(
            "--record -: a record is written to a file, not to standard output (the game is shown "
            "there); give a file name (./- for a file named -)"
        )
    found = whose(path, written_by_kitgen)
    if not replaceable(found, force):
        raise refusal(path, found)
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"--record {path}: no folder {folder}")
    try:
        probe_writable(folder)
    except OSError as exc:
        raise UsageError(f"--record {path}: cannot write in {folder}: {exc.strerror or exc}") from None


def write_record(path: Path, data: bytes, force: bool) -> None:
    """Write the record ``data`` to ``path`` (checked again, see the module)."""
    try:
        write_replacing(path, data, written_by_kitgen, force)
    except Refused as exc:
        raise refusal(path, exc.found, exc.late) from None
    except OSError as exc:
        raise UsageError(f"--record {path}: cannot write it: {exc.strerror or exc}") from None


__all__ = ["check_record_path", "refusal", "write_record", "written_by_kitgen"]
