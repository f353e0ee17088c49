"""The verification cache: reports of identical specs, kept on disk, that cannot lie.

An entry is found only when the engine's source, every spec and rule set file, the Python
version, this cache's format and the request (protocol, method, runs, seed) are byte for byte
the same, so a reused report is the report a fresh run would make.

An entry is trusted only after it has been checked, every time it is read:

- it is read only when it is a regular file (never a FIFO, device or link: nothing blocks),
  of at most :data:`MAX_ENTRY` bytes;
- it is JSON without NaN or infinities, and not nested past what Python can parse;
- it names its own key, and its SHA-256 over the format, the key and the report matches (a
  number changed by hand or by a bad disk is caught);
- the report keeps the report's own invariants: it is the report of the protocol and method
  asked for, it passed (only passing reports are kept), its derived verdicts agree with its
  checks, it reads back to exactly the same JSON, and its recorded reveals have their shape.

An entry that fails is removed and the report made again, with one line on stderr saying so.
Entries are written to a temporary file and renamed; temporary files of writers that were
killed are removed by the next writer.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import NoReturn, Protocol, TypedDict, cast

import click

from reference_engine.api import JSONObject, Library, Report, ReportJSON, engine_dir, rulesets_dir

from .files import read_regular, write_atomic
from .output import process_alive

FORMAT = 2  # of an entry; part of every key, so entries of another format are never looked up
MAX_ENTRY = 64 << 20  # bytes: a report with every reveal of a large protocol is well below
STALE_TEMPORARY = 3600  # seconds: a temporary file this old is removed whatever its pid says
CACHE_ENV = "KITGEN_CACHE_DIR"
_TEMPORARY = re.compile(r"^\..+\.json\.tmp-(?P<pid>\d+)-[0-9a-f]+$")


def default_cache_dir() -> Path:
    """``$KITGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/kitgen/verification`` (``~/.cache`` by default)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kitgen" / "verification"


def digest_files(h: _Digest, root: Path, patterns: tuple[str, ...], recursive: bool = True) -> None:
    if not root.is_dir():
        return
    found = (root.rglob(pat) if recursive else root.glob(pat) for pat in patterns)
    files = sorted({p for matches in found for p in matches if p.is_file()})
    for p in files:
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())


@lru_cache(maxsize=1)
def engine_digest() -> str:
    """The reference engine's own source and the built-in rule sets and specs."""
    h = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode())
    digest_files(h, engine_dir(), ("*.py",))
    digest_files(h, rulesets_dir(), ("*.yaml", "*.yml"))
    return h.hexdigest()


# --------------------------------------------------------------------------- entries


class Request(TypedDict, total=False):
    """What a report was asked for (part of its key): the method, the protocol and how."""

    method: str
    protocol: str
    reveals: bool
    scenario: str | None
    params: dict[str, int | list[int]]
    runs: int
    seed: int
    game: str | None
    weights: str
    players: int | None
    hand: int
    state: JSONObject | None


# One recorded reveal: protocol, step and every observation (each a list of cells of card
# names and numbers). Written as a tuple; a list once read back from the entry (same items).
RecordedReveal = tuple[str, str, list[list[list[str | int]]]]


class Record(TypedDict):
    """A report and its recorded reveals, as an entry keeps them."""

    report: ReportJSON
    reveals: list[RecordedReveal] | None


class _Digest(Protocol):
    def update(self, data: bytes, /) -> None: ...


class DamagedEntry(ValueError):
    """A cache entry that cannot be trusted (the message says why)."""


def record(report: Report) -> Record:
    """A report (and its recorded reveals) as an entry keeps it."""
    reveals = None
    if report.reveals is not None:
        reveals = [
            (name, step, sorted([list(map(list, obs)) for obs in observations]))
            for (name, step), observations in sorted(report.reveals.items())
        ]
    return {"report": report.to_json(), "reveals": reveals}


def from_record(data: Record) -> Report:
    """The report an entry keeps (see :func:`record`)."""
    reveals = None
    if data["reveals"] is not None:
        reveals = {
            (name, step): {tuple(tuple(cell) for cell in obs) for obs in observations}
            for name, step, observations in data["reveals"]
        }
    return Report.from_json(data["report"], reveals)


def _canonical(data: object) -> bytes:
    return json.dumps(
        data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    ).encode()


def checksum(key: str, rec: Record) -> str:
    """SHA-256 over the entry format, its key and its report."""
    return hashlib.sha256(
        f"kitgen verification cache {FORMAT}\0{key}\0".encode() + _canonical(rec)
    ).hexdigest()


def _no_constant(name: str) -> NoReturn:
    raise DamagedEntry(f"it holds {name}")


def _finite(data: object) -> None:
    """No NaN or infinity anywhere (a float that overflowed, such as 1e999)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise DamagedEntry("it holds a number that is not finite")
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _check_reveals(reveals: object) -> None:
    if reveals is None:
        return
    if not isinstance(reveals, list):
        raise DamagedEntry("its reveals are not a list")
    for entry in reveals:
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], list)):
            raise DamagedEntry("a reveal is not [protocol, step, observations]")
        if not (isinstance(entry[0], str) and isinstance(entry[1], str)):
            raise DamagedEntry("a reveal's protocol or step is not text")
        for obs in entry[2]:
            if not isinstance(obs, list) or not all(
                isinstance(cell, list)
                and all(isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)) for v in cell)
                for cell in obs
            ):
                raise DamagedEntry("a reveal's observation is not a list of cells")


def check_entry(key: str, request: Request, data: object) -> Report:
    """The report of a parsed entry, once it has passed every check (else :class:`DamagedEntry`)."""
    if not isinstance(data, dict) or set(data) != {"format", "key", "sha256", "record"}:
        raise DamagedEntry("it is not a cache entry")
    if data["format"] != FORMAT or data["key"] != key:
        raise DamagedEntry("it is filed under another key")
    raw = data["record"]
    if not isinstance(raw, dict) or set(raw) != {"report", "reveals"} or not isinstance(raw["report"], dict):
        raise DamagedEntry("it holds no report")
    # A record by its keys; the rest is checked below: its reveals' shape here, its report by
    # reading it and writing it back to the same JSON.
    rec = cast(Record, raw)
    _finite(rec)
    if data["sha256"] != checksum(key, rec):
        raise DamagedEntry("its checksum does not match its contents")
    _check_reveals(rec["reveals"])
    try:
        report = from_record(rec)
        again = report.to_json()
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DamagedEntry(f"its report is incomplete ({type(exc).__name__}: {exc})") from None
    if again != rec["report"]:
        raise DamagedEntry("its report does not read back the same (verdicts that disagree with its checks?)")
    if not isinstance(report.inputs, int) or isinstance(report.inputs, bool) or report.inputs < 0:
        raise DamagedEntry("its count of inputs is not a whole number")
    if not all(isinstance(c.name, str) and isinstance(c.figure, str) for c in report.checks):
        raise DamagedEntry("a check's name or figure is not text")
    if not all(type(c["ok"]) is bool for c in rec["report"]["checks"]):
        raise DamagedEntry("a check's verdict is not true or false")
    if report.protocol != request.get("protocol") or report.method != request.get("method"):
        raise DamagedEntry("it is the report of another protocol or method")
    if not report.ok or not report.checks:
        raise DamagedEntry("its report did not pass, and only passing reports are kept")
    return report


def parse_entry(key: str, request: Request, raw: bytes) -> Report:
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        return check_entry(key, request, data)
    except RecursionError:
        raise DamagedEntry("it is nested too deeply") from None
    except UnicodeDecodeError:
        raise DamagedEntry("it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise DamagedEntry(f"it is not JSON ({exc.msg} at character {exc.pos})") from None
    except DamagedEntry:
        raise
    except ValueError as exc:  # e.g. text that cannot be encoded again (a lone surrogate)
        raise DamagedEntry(f"it cannot be read ({exc})") from None


# --------------------------------------------------------------------------- the cache


def _stderr(message: str) -> None:
    click.echo(f"kitgen: {message}", err=True)


WARN_DISCARDED: ContextVar[Callable[[str], None]] = ContextVar("cache_warnings", default=_stderr)


@contextmanager
def warnings_to(sink: Callable[[str], None]) -> Iterator[None]:
    """While the block runs, caches without their own ``warn`` say what they discard to ``sink``
    (a command's progress line ends its line first)."""
    token = WARN_DISCARDED.set(sink)
    try:
        yield
    finally:
        WARN_DISCARDED.reset(token)


class VerificationCache:
    """Verification reports kept on disk as checked JSON entries, keyed by everything that
    decides them. ``warn`` gets the line said about an entry that was discarded (default: stderr)."""

    def __init__(self, directory: Path | None = None, warn: Callable[[str], None] | None = None):
        self.directory = directory if directory is not None else default_cache_dir()
        self.warn = warn
        self.hits = 0
        self.misses = 0
        self.discarded = 0
        self._swept = False

    def key(self, library: Library, request: Request) -> str:
        h = hashlib.sha256(f"{engine_digest()} format {FORMAT}".encode())
        for root in library.roots:
            digest_files(h, root, ("*.yaml", "*.yml"), recursive=False)  # where specs are looked up
        h.update(json.dumps(request, sort_keys=True).encode())
        return h.hexdigest()

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def load(self, key: str, request: Request) -> Report | None:
        """The checked report filed under ``key``; None when there is none or it was discarded."""
        path = self.path(key)
        try:
            raw = read_regular(path, MAX_ENTRY)
            report = parse_entry(key, request, raw)
        except FileNotFoundError:
            self.misses += 1
            return None
        except (OSError, DamagedEntry) as exc:
            self.misses += 1
            self._discard(path, exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc))
            return None
        self.hits += 1
        return report

    def _discard(self, path: Path, reason: str) -> None:
        self.discarded += 1
        try:
            if not path.is_dir() or path.is_symlink():
                path.unlink()
        except OSError:
            pass  # it is replaced when the new report is stored, or simply not used
        warn = self.warn if self.warn is not None else WARN_DISCARDED.get()
        warn(f"discarded the cached verification report {path}: {reason}; verifying again")

    def store(self, key: str, rec: Record) -> None:
        """Write the entry atomically; a cache that cannot be written is simply not used."""
        entry = {"format": FORMAT, "key": key, "sha256": checksum(key, rec), "record": rec}
        try:
            # In the report's own key order (a kit shows it in that order, cached or not).
            data = json.dumps(entry, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except ValueError:
            return
        if len(data) > MAX_ENTRY:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._sweep()
            write_atomic(self.path(key), data)
        except (OSError, ValueError):
            pass

    def _sweep(self, now: float | None = None) -> None:
        """Remove the temporary files of writers that were killed (once per cache object)."""
        if self._swept:
            return
        self._swept = True
        now = time.time() if now is None else now
        for entry in os.scandir(self.directory):
            m = _TEMPORARY.match(entry.name)
            if m is None or not entry.is_file(follow_symlinks=False):
                continue
            try:
                old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMPORARY
                if old or not process_alive(int(m.group("pid"))):
                    os.unlink(entry.path)
            except OSError:
                continue


__all__ = [
    "CACHE_ENV",
    "DamagedEntry",
    "VerificationCache",
    "check_entry",
    "checksum",
    "default_cache_dir",
    "from_record",
    "record",
    "warnings_to",
]
