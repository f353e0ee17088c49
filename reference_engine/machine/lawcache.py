"""The small lotteries' kept laws on disk, so that a new process need not enumerate them again.

A single run keeps a small callee's joint law of (view, result) up to a renaming of the cards
it only carries (:mod:`.relabel`); a fresh process used to enumerate each law again on first
meeting it (UNO's card-level game: ~30 enumerations, ~0.06 s, in its first 1,000 turns). Each
law that a first enumeration kept is written here too, one file per key, beside the
verification cache (``$KITGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/kitgen/verification``; files
``law-<digest>.law``), and a later process reads it back instead of enumerating.

An entry is found only under the same key, computed from everything the law depends on:

- the engine's own source (every ``*.py`` of the engine, by content) and this format;
- the law's in-process key: the callee spec's fingerprint (its content), its frame key (name and
  parameters), the pattern of the carried cards and the other argument cards (and, for a callee
  that compared card codes, their order);
- the process's card faces: a law names faces by their ids, so the entry holds the names of
  every face the writing process had numbered (ids ``0..n-1``) and is taken only where this
  process numbers its first ``n`` faces with the same names.

An entry is trusted only once it has been read back whole: a regular file (never a FIFO or a
link: nothing blocks) under :data:`MAX_ENTRY` bytes, unpickled by an unpickler that builds only
fractions and :class:`~.plans.SubResult` (anything else, a foreign or corrupt file, is refused
and the law enumerated as before), whose key, format and faces match. A law is written only
when it reads back equal to itself. Files are written to a temporary name and renamed; a file
that cannot be written is skipped (the law stays kept in the process). ``KITGEN_LAW_CACHE=0``
turns this off (the test suite does, so that no test depends on what an earlier one wrote).
What a run does is the same either way: the law read back is the one the enumeration gave, and
a kept law is used exactly as one kept earlier in the same process would be (its cost is still
spent from an exploration budget).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import stat
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..cards import SYMBOLS, Symbol
from ..meters import Meters
from .plans import SubResult

FORMAT = 1  # of an entry; part of every key
MAX_ENTRY = 8 << 20  # bytes: a small callee's law is a few kilobytes
ENV = "KITGEN_LAW_CACHE"  # "0", "off", "no" or "false": no law is read or written
CACHE_ENV = "KITGEN_CACHE_DIR"  # the verification cache's folder (kitgen.core.cache)
_ALLOWED = {("fractions", "Fraction"): Fraction, ("reference_engine.machine.plans", "SubResult"): SubResult}

Entry = tuple[Any, tuple[int, ...], int]
"""What :data:`.relabel._KEPT` holds for a key: (the law or its marker, the faces, the cost)."""


def enabled() -> bool:
    """Whether laws are read from and written to disk (``KITGEN_LAW_CACHE``)."""
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "off", "no", "false")


def directory() -> Path:
    """The verification cache's folder (kitgen's ``default_cache_dir``, whose entries these live
    beside): ``$KITGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/kitgen/verification``."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kitgen" / "verification"


@lru_cache(maxsize=1)
def engine_digest() -> str:
    """The engine's own source, by content (a law is the engine's to compute)."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(f"law format {FORMAT}".encode())
    for p in sorted(root.rglob("*.py")):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def _faces(n: int) -> str:
    """A digest of the names of this process's first ``n`` faces (ids ``0..n-1``)."""
    names = "\0".join(SYMBOLS.by_id(i).name for i in range(n))
    return hashlib.blake2b(names.encode(), digest_size=16).hexdigest()


def _numbered() -> int:
    """How many faces this process has numbered."""
    n = 0
    while True:  # the table has no length of its own; by_id raises past its end
        try:
            SYMBOLS.by_id(n)
        except IndexError:
            return n
        n += 1


def path(key: tuple[Any, ...]) -> Path:
    """The file of ``key``'s law."""
    digest = hashlib.blake2b(f"{engine_digest()}\0{key!r}".encode(), digest_size=20).hexdigest()
    return directory() / f"law-{digest}.law"


class _Pickler(pickle.Pickler):
    """Faces by id (checked by name when read), counters by their fields."""

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, Symbol):
            return ("face", obj.id, obj.name)
        if isinstance(obj, Meters):
            return ("meters", obj.shuffles, obj.turns, obj.kinds, obj.peak, obj.calls)
        return None


class _Unpickler(pickle.Unpickler):
    """Builds fractions and sub-results, this process's own faces, counters; nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        got = _ALLOWED.get((module, name))
        if got is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a law")
        return got

    def persistent_load(self, pid: Any) -> Any:
        if isinstance(pid, tuple) and pid and pid[0] == "face" and len(pid) == 3:
            sym = SYMBOLS.by_id(pid[1])
            if sym.name != pid[2]:
                raise pickle.UnpicklingError("a face numbered otherwise")
            return sym
        if isinstance(pid, tuple) and pid and pid[0] == "meters" and len(pid) == 6:
            return Meters(*pid[1:])
        raise pickle.UnpicklingError("not part of a law")


def _dumps(key: tuple[Any, ...], entry: Entry, n: int) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump((FORMAT, repr(key), n, _faces(n), entry))
    return buf.getvalue()


def _loads(key: tuple[Any, ...], data: bytes) -> Entry | None:
    """The entry ``data`` holds for ``key``; None when it is not one (foreign, corrupt, stale)."""
    try:
        got = _Unpickler(io.BytesIO(data)).load()
        fmt, at, n, faces, entry = got
        if (
            fmt != FORMAT
            or at != repr(key)
            or not isinstance(n, int)
            or _numbered() < n
            or faces != _faces(n)
        ):
            return None
        law, first, cost = entry
        if not (isinstance(first, tuple) and all(isinstance(s, int) and 0 <= s < n for s in first)):
            return None
        if not isinstance(cost, int) or not isinstance(law, (tuple, str)):
            return None
    except Exception:
        return None
    return law, first, cost


def load(key: tuple[Any, ...]) -> Entry | None:
    """The law kept on disk for ``key`` (None: there is none, or it is not to be trusted)."""
    try:
        fd = os.open(path(key), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_ENTRY + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return _loads(key, data)


def save(key: tuple[Any, ...], entry: Entry) -> bool:
    """Keep ``entry`` on disk for ``key`` (written whole, then renamed); False when it was not
    (it does not read back equal to itself, or the folder cannot be written)."""
    try:
        data = _dumps(key, entry, _numbered())
    except Exception:
        return False
    if len(data) > MAX_ENTRY or _loads(key, data) != entry:
        return False
    target = path(key)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False
    return True
