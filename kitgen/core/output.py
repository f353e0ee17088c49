"""Folder safety: a kit is written inside its own folder, atomically, never over anyone's files.

The one entry point is :class:`OutputFolder`: ``OutputFolder.check(destination, force)`` refuses
with the reason a destination kitgen may not write (before any slow work), and
``folder.staged(name, what)`` stages the new files and commits them in place, checking again.
Which files a folder proves are kitgen's (:func:`proven`, :func:`foreign`) is decided here too,
from the proof its marker gives (:mod:`kitgen.core.marker`).

A kit is built in a fresh temporary folder next to its destination and renamed into place
at the end, so an interrupted or failed build leaves the previous kit untouched, and a
rebuild replaces it completely. File names inside a kit are checked to stay inside it.

A folder is replaced only when it is kitgen's: it is new or empty, or every file in it is
one kitgen can prove it wrote (listed in its marker with the checksum it still has, see
:mod:`kitgen.core.marker`) and the new build writes again. A folder holding anything else is refused
(:func:`check_destination`, before any slow work, and again just before the rename). With
``force`` the new files are written beside the others instead: kitgen's proven files are
replaced one by one, anyone else's are left alone, and a file of someone else's with the name
of a new file stops the build. A proven file of an earlier build that the new build does not
write is kept (and reported), never deleted: it is linked (or, where links cannot be made,
copied) into the new folder before the rename, so the kit is still replaced in one rename and a
build killed at any moment leaves the old kit or the new one, never a mix (:func:`_carry`). Only
beside someone else's files (``force``) or in the current folder are the new files moved in one
by one. Every file written over or deleted is one :func:`kitgen.core.files.replaceable` allows.
New folders and files get the user's umask.

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
import errno
import os
import re
import shutil
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import FrameType

import click

from reference_engine.api import UsageError, file_kind

from .files import Whose, new_folder, replaceable, whose
from .marker import MARKER, Marker, Proof, digest, proof
from .marker import sha256 as sha256  # a kit's manifest checksums its files with it (kitgen.kit.artifacts)

STALE_AFTER = 6 * 3600  # seconds: a staging folder this old is stale even if its pid is alive (reused)
_HELD = {signal.SIGINT, signal.SIGTERM}
SHOWN = 5  # foreign entries named in a refusal
RACES = 20  # times a build looks again when another build renames its folder into place first

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
    """Names of the temporary folders :func:`staged` makes for ``destination``, and the empty one
    :func:`check_output_folder` makes to find out whether it can (group ``pid``)."""
    return re.compile(rf"^\.{re.escape(destination.name)}\.(?:tmp|old|probe)-(?P<pid>\d+)-[A-Za-z0-9_]+$")


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` may still be running (another user's, or when unsure: yes)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # gone, or a pid no process can have (a name
        return False  # planted or damaged: os.kill raises OverflowError past a C int)
    except (PermissionError, OSError):
        return True  # another user's process, or no way to tell: keep its folder
    return True


def remove_stale(destination: Path, now: float | None = None) -> list[Path]:
    """Remove the staging folders of ``destination`` left by builds that were killed outright:
    their process is gone, or they are older than :data:`STALE_AFTER`. Returns what was removed.
    A previous kit set aside by a build killed between its two renames (``.old-``) is put back
    when ``destination`` is missing, instead of being removed."""
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
        if process_alive(int(m.group("pid"))) and age < STALE_AFTER:
            continue  # a build running right now (perhaps this one)
        with _held():
            if ".old-" in entry.name:
                if not os.path.lexists(destination):
                    with contextlib.suppress(OSError):
                        os.replace(entry, destination)  # the previous kit, back in place
                        continue
                if discard(entry, destination) is not None:
                    continue  # kept: it holds what kitgen cannot prove it wrote
            elif ".probe-" in entry.name:
                try:
                    os.rmdir(entry)  # empty when kitgen made it
                except OSError:
                    continue  # something is in it: not kitgen's to remove
            else:
                shutil.rmtree(entry, ignore_errors=True)  # a build's own work, never anyone else's
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
                os.rmdir(new_folder(parent, f".{destination.name}.probe-{os.getpid()}-"))
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


def _real(destination: Path) -> Path:
    """``destination``, or the folder it links to when it is a symbolic link (which is kept), or
    its full path when it has no name of its own (``.``, ``..``)."""
    if destination.is_symlink():
        return destination.resolve()
    if destination.name in ("", ".", ".."):
        return Path(os.path.abspath(destination))
    return destination


def refusal(destination: Path, strangers: list[str]) -> UsageError:
    return UsageError(
        f"{destination} holds files kitgen did not write: {describe(strangers)}; "
        "choose an empty folder or --force"
    )


def _survey(destination: Path) -> tuple[Proof, frozenset[str], list[str]]:
    """What proves which files of ``destination`` are kitgen's, the files it proves (its marker
    included), and (some of) the entries it does not, each with why when a marker lists it.
    Read from one folder: when another build renames its folder into place meanwhile (the marker
    would be one kit's and the files another's), it looks again."""
    for _ in range(RACES):
        before = _identity(destination)
        if before is None:
            return Proof({}), frozenset(), []
        if not destination.is_dir():
            if _identity(destination) != before:
                continue  # set aside or replaced by another build meanwhile: look again
            raise UsageError(f"{destination} exists and is not a folder")
        found = proof(destination)
        own = proven(destination, found)
        strangers = why(foreign(destination, own), found)
        if _identity(destination) == before:
            return found, own, strangers
    raise UsageError(f"{destination} kept changing while kitgen looked at it (another build?); try again")


def _identity(path: Path) -> tuple[int, int, int] | None:
    """Which file ``path`` is, and when it last changed: (device, inode, status change time);
    None when nothing is there. The time tells apart a folder renamed into place that was given
    the inode number of one removed a moment before (unless within one tick of the file system's
    clock), and a folder whose entries changed."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino, st.st_ctime_ns


def check_destination(destination: Path, force: bool = False) -> None:
    """Refuse early (before any slow work) a destination that cannot be created, is not a
    folder, or (without ``force``) holds files kitgen cannot prove it wrote."""
    destination = _real(destination)
    check_output_folder(destination)
    _, _, strangers = _survey(destination)
    if strangers and not force:
        raise refusal(destination, strangers)


@contextmanager
def staged(
    destination: Path, name: str | None = None, what: str = "kit", force: bool = False
) -> Iterator[Path]:
    """A temporary folder that replaces ``destination`` when the block ends without error.

    Left-over folders of killed builds of the same destination are removed first; the new
    one is removed whatever ends the block early (an error, Ctrl-C, SIGTERM). At the end the
    folder's marker (``what``, ``name``: default the folder's name, and every file written)
    is added, and ``destination`` is checked again: it is replaced only while it holds
    nothing kitgen did not write; with ``force`` the new files go beside such files.
    """
    destination = _real(destination)
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
                    work = new_folder(parent, prefix).resolve()
                except OSError as exc:
                    exc.filename = str(parent)
                    message = f"cannot create the output folder {destination}: {_reason(exc)}"
                    raise UsageError(message) from None
            yield work
            marker = Marker.of(work, what, name or destination.name)
            marker.write(work)
            with _held():
                _commit(work, destination, marker, force)
        except BaseException as exc:
            if work is not None:
                if isinstance(exc, OSError):
                    _as_destination(exc, work, destination)
                with _held():
                    shutil.rmtree(work, ignore_errors=True)
            raise


def _as_destination(exc: OSError, work: Path, destination: Path) -> None:
    """An error about a file of the temporary folder names that file in ``destination``."""
    for attr in ("filename", "filename2"):
        name = getattr(exc, attr, None)
        if isinstance(name, str) and Path(name).is_relative_to(work):
            setattr(exc, attr, str(destination / Path(name).relative_to(work)))


def _commit(work: Path, destination: Path, marker: Marker, force: bool) -> None:
    """Put the finished ``work`` folder in place of ``destination`` (see :func:`staged`). When
    another build puts its folder there at the same moment, look again and replace that one."""
    for _ in range(RACES):
        found, own, strangers = _survey(destination)
        if strangers and not force:
            raise refusal(destination, strangers)
        stale = sorted(own - set(marker.files) - {MARKER})
        carried: list[Path] | None = []
        if strangers or _holds_cwd(destination):
            _merge(work, destination, found, own, marker, stale)
        elif stale and (carried := _carry(work, destination, stale, found, marker)) is None:
            _merge(work, destination, found, own, marker, stale)  # a new file where a kept one's folder is
        elif not _swap(work, destination):
            if carried:  # another build's rename came in between: look again from the start
                _uncarry(work, carried, marker)
            continue
        if stale:
            note(
                f"kept {len(stale)} file{'s' if len(stale) != 1 else ''} in {destination} that its "
                f"{MARKER} lists but this build does not write: {describe(stale)} (kitgen deletes no "
                "file it does not write again; remove them yourself if you no longer need them)"
            )
        return
    raise UsageError(f"{destination} kept changing while kitgen wrote it (another build?); try again")


def _carry(
    work: Path, destination: Path, stale: list[str], found: Proof, marker: Marker
) -> list[Path] | None:
    """Put into ``work`` the ``stale`` files of ``destination`` (proven files of an earlier build
    that this build does not write), each as a hard link to the same file (a copy where links
    cannot be made), and list them in ``work``'s marker with their checksums: the new folder then
    replaces the old one in one rename and keeps them. Nothing in ``destination`` changes, so a
    build killed here leaves the old kit. The files and folders it made in ``work``; None, with
    ``work`` as it was, when a kept file cannot go there (a new file stands where its folder
    would be, or it is no longer a plain file reached through real folders)."""
    made: list[Path] = []
    try:
        for relative in stale:
            target = work / relative
            if not _plain(destination, relative) or os.path.lexists(target):
                raise FileExistsError(relative)
            folders = [p for p in reversed(target.relative_to(work).parents) if p != Path(".")]
            for folder in folders:
                path = work / folder
                if not os.path.lexists(path):
                    path.mkdir()
                    made.append(path)
                elif path.is_symlink() or not path.is_dir():
                    raise FileExistsError(relative)
            try:
                os.link(destination / relative, target, follow_symlinks=False)
            except OSError as exc:
                if exc.errno in (errno.EEXIST, errno.ENOENT):
                    raise
                shutil.copy2(destination / relative, target, follow_symlinks=False)
            made.append(target)
    except OSError:
        _uncarry(work, made, marker)
        return None
    files = tuple(sorted(set(marker.files) | set(stale)))
    Marker(marker.what, marker.name, files, {**{f: found.sums[f] for f in stale}, **marker.sums}).write(work)
    return made


def _uncarry(work: Path, made: list[Path], marker: Marker) -> None:
    """Undo :func:`_carry`: remove what it made in ``work`` (files first, then the folders it made,
    deepest first) and write ``work``'s own marker again."""
    for path in sorted(made, key=lambda p: (p.is_dir(), -len(p.parts))):
        with contextlib.suppress(OSError):
            path.rmdir() if path.is_dir() and not path.is_symlink() else path.unlink()
    marker.write(work)


def note(message: str) -> None:
    """Tell the user something they should know (on standard error, so ``--json`` stays JSON)."""
    click.echo(f"kitgen: {message}", err=True)


def _holds_cwd(destination: Path) -> bool:
    """Whether ``destination`` is the current folder or one above it: it is then updated file by
    file, not replaced, so that a shell in it is not left in a removed folder."""
    try:
        here = Path.cwd().resolve()
        there = destination.resolve()
    except OSError:
        return False
    return here == there or there in here.parents


def _swap(work: Path, destination: Path) -> bool:
    """Rename ``work`` to ``destination``, setting aside and then removing what was there;
    False (and nothing changed) when another build's rename came in between."""
    old = None
    if os.path.lexists(destination):
        old = new_folder(destination.parent, f".{destination.name}.old-{os.getpid()}-")
        os.rmdir(old)
        try:
            os.replace(destination, old)
        except FileNotFoundError:
            return False  # another build has just set it aside
    try:
        os.replace(work, destination)
    except BaseException as exc:
        if old is not None and not _put_back(old, destination):
            discard(old, destination)  # another build has just put its own in place
        if isinstance(exc, OSError) and exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
            return False
        raise
    if old is not None:
        discard(old, destination)
    return True


def _put_back(old: Path, destination: Path) -> bool:
    """Rename the previous kit ``old`` back to ``destination``; False when another build's kit
    is there (before the rename or arriving just before it: a concurrent build's race)."""
    if os.path.lexists(destination):
        return False
    try:
        os.replace(old, destination)
    except OSError as exc:
        if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
            return False
        raise
    return True


def discard(old: Path, destination: Path) -> Path | None:
    """Remove a previous kit that a new one has replaced (``.<name>.old-...``) file by file:
    only the files kitgen can prove it wrote (and its marker), then the folders left empty.
    Anything else (it came while the kit was replaced) is kept: the folder is renamed
    ``<name>.kept-<random>`` beside ``destination`` and reported; that name is returned."""
    found = proof(old)
    own = proven(old, found)
    for relative in sorted(own, key=lambda f: f == MARKER):  # the marker last
        target = old / relative
        sums = found.sums.get(relative)
        if relative == MARKER or (sums is not None and replaceable(whose(target, matches(sums)))):
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
    for root, _dirs, _files in os.walk(old, topdown=False):
        with contextlib.suppress(OSError):
            os.rmdir(root)  # only when empty
    if not os.path.lexists(old):
        return None
    kept = new_folder(destination.parent, f"{destination.name}.kept-")
    os.rmdir(kept)
    os.replace(old, kept)
    note(f"kept {kept}: it holds files kitgen did not write that were in {destination} when it was replaced")
    return kept


def _plain(destination: Path, relative: str) -> bool:
    """Whether ``destination/relative`` is a regular file reached through real folders only."""
    target = destination / relative
    return plain_parents(destination, relative) and target.is_file() and not target.is_symlink()


def _clash(destination: Path, relative: str, own: frozenset[str]) -> str | None:
    """What writing ``relative`` into ``destination`` would touch that is not kitgen's: a file of
    the same name, or a file or link where a folder on the way should be (``previews (a
    symbolic link)``); None when nothing."""
    path = destination
    for part in PurePosixPath(relative).parts[:-1]:
        path = path / part
        if os.path.lexists(path) and (path.is_symlink() or not path.is_dir()):
            what = file_kind(os.lstat(path).st_mode)
            return f"{path.relative_to(destination).as_posix()} ({what} where kitgen needs a folder)"
    target = path / PurePosixPath(relative).name
    if os.path.lexists(target) and not (relative in own and _plain(destination, relative)):
        return relative
    return None


def _merge(
    work: Path, destination: Path, found: Proof, own: frozenset[str], marker: Marker, stale: list[str]
) -> None:
    """Move the new files in beside what else ``destination`` holds (someone else's files, with
    ``force``; the current folder; or proven files of an earlier build, ``stale``, that this
    build does not write and :func:`_carry` could not take along), replacing only kitgen's
    proven files. The marker lists the old and the new files (each with
    the old and the new checksum) while this runs, so a build killed half-way leaves nothing
    unaccounted for; at the end it lists the new files and the ``stale`` ones it kept."""
    clashes = list(dict.fromkeys(c for f in (*marker.files, MARKER) if (c := _clash(destination, f, own))))
    if clashes:
        raise UsageError(
            f"{destination} holds files kitgen did not write where it would write its own: "
            f"{describe(why(clashes, found))}; --force never replaces them, choose another folder"
        )
    kept = {f: found.sums[f] for f in stale}
    files = tuple(sorted(set(marker.files) | set(stale)))
    either = {
        f: marker.sums[f] | (found.sums.get(f, frozenset()) if f in own else frozenset())
        for f in marker.files
    }
    Marker(marker.what, marker.name, files, {**kept, **either}).write(destination)
    for relative in marker.files:
        target = destination / relative
        if relative in own and not replaceable(whose(target, matches(found.sums[relative]))):
            raise UsageError(f"{target} changed while kitgen wrote {destination}; it is kept, try again")
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(work / relative, target)
    Marker(marker.what, marker.name, files, {**kept, **marker.sums}).write(destination)
    shutil.rmtree(work, ignore_errors=True)


def matches(sums: frozenset[str]) -> Callable[[int], bool]:
    """A proof for :func:`kitgen.core.files.whose`: the file's SHA-256 is one of ``sums``."""

    def check(fd: int) -> bool:
        return digest(fd) in sums

    return check


def proven(folder: Path, found: Proof) -> frozenset[str]:
    """The paths of ``folder`` that are kitgen's: regular files reached through real folders
    whose checksum is one the proof gives, and the marker when it is one."""
    own = {MARKER} if found.marker else set()
    for relative, sums in found.sums.items():
        if plain_parents(folder, relative) and whose(folder / relative, matches(sums)).whose is Whose.KITGEN:
            own.add(relative)
    return frozenset(own)


def plain_parents(folder: Path, relative: str) -> bool:
    """Whether every folder on the way from ``folder`` to ``relative`` is a real folder (not a link)."""
    path = folder
    for part in PurePosixPath(relative).parts[:-1]:
        path = path / part
        if path.is_symlink() or not path.is_dir():
            return False
    return True


def claimed(folder: Path) -> frozenset[str]:
    """The files in ``folder`` kitgen can prove it wrote, its marker included (see :func:`proof`)."""
    return proven(folder, proof(folder))


def foreign(folder: Path, own: frozenset[str], limit: int = SHOWN + 1) -> list[str]:
    """Up to ``limit`` entries under ``folder`` that are not in ``own`` (folders end in ``/``):
    anything not a regular file or a folder on the way to one, symbolic links included. Only
    the folders on the way to kitgen's files are entered, so a big folder costs one listing."""
    on_the_way = {str(a) for p in own for a in PurePosixPath(p).parents}
    found: list[str] = []

    def scan(path: Path, rel: str) -> None:
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except FileNotFoundError:
            if not rel:
                return  # the folder itself has just gone (another build set it aside): nothing there
            found.append(f"{rel}/ (unreadable: gone while it was read)")
            return
        except OSError as exc:
            found.append(f"{rel or '.'}/ (unreadable: {exc.strerror or exc})")
            return
        for entry in entries:
            if len(found) >= limit:
                return
            name = f"{rel}/{entry.name}" if rel else entry.name
            if entry.is_symlink():
                found.append(name)
            elif entry.is_dir(follow_symlinks=False):
                if name in on_the_way:
                    scan(Path(entry.path), name)
                else:
                    found.append(f"{name}/")
            elif not (entry.is_file(follow_symlinks=False) and name in own):
                found.append(name)

    scan(folder, "")
    return found


def why(entries: list[str], found: Proof) -> list[str]:
    """``entries`` (from :func:`foreign`), each a file the proof covers or a marker lists said
    to be so: ``cards.pdf (changed since kitgen wrote it)``."""
    out = []
    for entry in entries:
        if entry in found.sums:
            out.append(f"{entry} (changed since kitgen wrote it)")
        elif entry in found.unproven:
            out.append(f"{entry} (listed in {MARKER} without a checksum)")
        else:
            out.append(entry)
    return out


def describe(entries: list[str], limit: int = SHOWN) -> str:
    """``a, b, c`` (and ``and N more`` past ``limit``; ``N`` is a lower bound when cut short)."""
    shown = ", ".join(entries[:limit])
    more = len(entries) - limit
    return f"{shown} and more" if more > 0 else shown


@dataclass(frozen=True)
class OutputFolder:
    """The one entry point of folder safety: :meth:`check` refuses, with the reason, a
    destination kitgen may not write; :meth:`staged` stages the new files and commits them."""

    destination: Path
    force: bool = False

    @classmethod
    def check(cls, destination: Path, force: bool = False) -> OutputFolder:
        """``destination``, checked before any slow work (:func:`check_destination`)."""
        check_destination(destination, force)
        return cls(destination, force)

    def staged(self, name: str | None = None, what: str = "kit") -> AbstractContextManager[Path]:
        """A temporary folder committed in place of the destination (:func:`staged`)."""
        return staged(self.destination, name, what, self.force)
