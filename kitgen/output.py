"""Writing a kit: inside its own folder, atomically, and never outside it.

A kit is built in a fresh temporary folder next to its destination and renamed into place
at the end, so an interrupted or failed build leaves the previous kit untouched, and a
rebuild replaces it completely. File names inside a kit are checked to stay inside it.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reference_engine.errors import UsageError

SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(text: str) -> str:
    """A file or folder name made only of letters, digits, '.', '_' and '-'."""
    name = SAFE.sub("-", text).strip(".-")
    if not name:
        raise UsageError(f"{text!r} does not make a usable file name")
    return name


def inside(root: Path, relative: str) -> Path:
    """``root / relative``, refusing anything that would end up outside ``root``."""
    target = (root / relative).resolve()
    base = root.resolve()
    if target != base and base not in target.parents:
        raise UsageError(f"{relative!r} would be written outside the kit folder {root}")
    return target


@contextmanager
def staged(destination: Path) -> Iterator[Path]:
    """A temporary folder that replaces ``destination`` when the block ends without error."""
    parent = destination.parent
    parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{destination.name}.", dir=parent)).resolve()
    try:
        yield work
        old = None
        if destination.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{destination.name}.old.", dir=parent))
            os.rmdir(old)
            os.replace(destination, old)
        os.replace(work, destination)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()
