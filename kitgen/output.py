"""Writing a kit: inside its own folder, atomically, and never outside it.

A kit is built in a fresh temporary folder next to its destination and renamed into place
at the end, so an interrupted or failed build leaves the previous kit untouched, and a
rebuild replaces it completely. File names inside a kit are checked to stay inside it.

The temporary folder is ``.<name>.tmp-<pid>-<random>`` (the previous kit, while it is being
replaced, ``.<name>.old-<pid>-<random>``). It is removed when the build fails or is
interrupted: Ctrl-C (SIGINT) and, while a build runs, SIGTERM raise an exception (SIGTERM
would otherwise end Python without cleaning up), and both are held back for the moments a
folder is created, renamed or removed. A folder left by a build that was killed outright
(SIGKILL, a power cut) is removed by the next build of the same destination once its process
is gone, or once it is older than :data:`STALE_AFTER` seconds whatever its process id says.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from reference_engine.api import UsageError

STALE_AFTER = 6 * 3600  # seconds: a staging folder this old is stale even if its pid is alive (reused)
_HELD = {signal.SIGINT, signal.SIGTERM}

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


class TerminationSignal(KeyboardInterrupt):
    """SIGTERM (or another termination signal) during a build, raised like Ctrl-C."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`TerminationSignal` instead of ending Python at once,
    so ``finally`` blocks (removing temporary folders) run. The old handler is restored after.
    Outside the main thread (where handlers cannot be set) the block runs unchanged."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        raise TerminationSignal(signum)

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@contextmanager
def _held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back (they are delivered when the block ends), so an interrupt
    cannot fall between creating a folder and remembering it, or between two renames."""
    can_hold = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if not can_hold:
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def staging_pattern(destination: Path) -> re.Pattern[str]:
    """Names of the temporary folders :func:`staged` makes for ``destination`` (group ``pid``)."""
    return re.compile(rf"^\.{re.escape(destination.name)}\.(?:tmp|old)-(?P<pid>\d+)-[A-Za-z0-9_]+$")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # another user's process, or no way to tell: keep its folder
    return True


def remove_stale(destination: Path, now: float | None = None) -> list[Path]:
    """Remove the staging folders of ``destination`` left by builds that were killed outright:
    their process is gone, or they are older than :data:`STALE_AFTER`. Returns what was removed."""
    parent = destination.parent
    pattern = staging_pattern(destination)
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(parent.iterdir())
    except OSError:
        return removed
    for entry in entries:
        m = pattern.match(entry.name)
        if m is None or entry.is_symlink() or not entry.is_dir():
            continue
        try:
            age = now - entry.stat().st_mtime
        except OSError:
            continue
        if _alive(int(m.group("pid"))) and age < STALE_AFTER:
            continue  # a build running right now (perhaps this one)
        with _held():
            shutil.rmtree(entry, ignore_errors=True)
        removed.append(entry)
    return removed


def check_output_folder(destination: Path) -> None:
    """Fail early (before any slow work) when ``destination`` cannot be created, with the reason;
    leaves nothing behind (folders made to find out are removed again)."""
    parent = destination.parent
    missing: list[Path] = []
    made: list[Path] = []
    try:
        probe = parent
        while not probe.exists() and probe != probe.parent:
            missing.append(probe)
            probe = probe.parent
        with _held():
            for folder in reversed(missing):
                folder.mkdir()
                made.append(folder)
            try:
                os.rmdir(tempfile.mkdtemp(prefix=f".{destination.name}.probe-", dir=parent))
            except OSError as exc:
                exc.filename = str(parent)  # not the probe's own name
                raise
    except OSError as exc:
        raise UsageError(f"cannot create the output folder {destination}: {_reason(exc)}") from None
    finally:
        with _held():
            for folder in reversed(made):
                with contextlib.suppress(OSError):
                    folder.rmdir()


def _reason(exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    where = exc.filename
    return f"{reason} ({where})" if where else reason


@contextmanager
def staged(destination: Path) -> Iterator[Path]:
    """A temporary folder that replaces ``destination`` when the block ends without error.

    Left-over folders of killed builds of the same destination are removed first; the new
    one is removed whatever ends the block early (an error, Ctrl-C, SIGTERM).
    """
    parent = destination.parent
    with terminate_as_interrupt():
        prefix = f".{destination.name}.tmp-{os.getpid()}-"
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot create the output folder {destination}: {_reason(exc)}") from None
        remove_stale(destination)
        work: Path | None = None
        try:
            with _held():  # an interrupt here is delivered once ``work`` is known, so it is removed
                try:
                    work = Path(tempfile.mkdtemp(prefix=prefix, dir=parent)).resolve()
                except OSError as exc:
                    exc.filename = str(parent)
                    message = f"cannot create the output folder {destination}: {_reason(exc)}"
                    raise UsageError(message) from None
            yield work
            with _held():
                old = None
                if destination.exists():
                    prefix_old = f".{destination.name}.old-{os.getpid()}-"
                    old = Path(tempfile.mkdtemp(prefix=prefix_old, dir=parent))
                    os.rmdir(old)
                    os.replace(destination, old)
                os.replace(work, destination)
                if old is not None:
                    shutil.rmtree(old, ignore_errors=True)
        except BaseException:
            if work is not None:
                with _held():
                    shutil.rmtree(work, ignore_errors=True)
            raise


@contextmanager
def staged_file(path: Path) -> Iterator[Path]:
    """A temporary file beside ``path`` that replaces it when the block ends without error
    (removed whatever ends the block early, Ctrl-C and SIGTERM included)."""
    with terminate_as_interrupt():
        tmp: Path | None = None
        try:
            with _held():
                try:
                    fd, name = tempfile.mkstemp(prefix=f".{path.name}.tmp-{os.getpid()}-", dir=path.parent)
                except OSError as exc:
                    raise UsageError(f"cannot write {path}: {_reason(exc)}") from None
                os.close(fd)
                tmp = Path(name)
            yield tmp
            with _held():
                os.replace(tmp, path)
        except BaseException:
            if tmp is not None:
                tmp.unlink(missing_ok=True)
            raise


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()
