"""The small lotteries' kept laws on disk, so that a new process need not enumerate them again.

A single run keeps a small callee's joint law of (view, result) up to a renaming of the cards
it only carries (:mod:`.relabel`); a fresh process used to enumerate each law again on first
meeting it (UNO's card-level game: ~30 enumerations, ~0.06 s, in its first 1,000 turns). Each
law that a first enumeration kept is written here too, one file per key, beside the
verification cache (``$KITGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/kitgen/verification``; files
``law-<engine version>-<digest>.law``), and a later process reads it back instead of
enumerating. The folder stays bounded (:func:`tidy`: a few engine versions' laws, a bounded number
each; killed writers' temporary files swept).

An entry is found only under the same key, computed from everything the law depends on:

- the engine's own source (every ``*.py`` of the engine, by content) and this format;
- the law's in-process key: the callee spec's fingerprint (its content), its frame key (name and
  parameters), the pattern of the carried cards and the other argument cards (and, for a callee
  that compared card codes, their order);
- the process's card faces: a law names faces by their ids, so the entry holds the names of
  every face the writing process had numbered (ids ``0..n-1``) and is taken only where this
  process numbers its first ``n`` faces with the same names.

An entry is trusted only once it has been read back whole: a regular file (never a FIFO or a link:
nothing blocks) under :data:`MAX_ENTRY` bytes, unpickled by an unpickler that imports no class at
all: fractions, sub-results, counters and faces are written by value (persistent ids) and built
from checked fields, so a hostile file can neither call a class on strings of its own
(``Fraction('1e999999999')`` would hang) nor set attributes on a class or a live face (BUILD); a
face an entry tried to change is put back and the entry refused. Anything else, a foreign or
corrupt file, is refused and the law enumerated as before; the key, format and faces must match. A
law is written only when it reads back equal to itself. Files are written to a fresh temporary name
(created, never opened through a link) and renamed; a file that cannot be written is skipped (the
law stays kept in the process). ``KITGEN_LAW_CACHE=0`` turns this off (the test suite does, so that
no test depends on what an earlier one wrote), and so does :func:`caching` (``kitgen build
--no-cache``, which neither reads nor writes the cache folder). What a run does is the same either
way: the law read back is the one the enumeration gave, and a kept law is used exactly as one kept
earlier in the same process would be (its cost is still spent from an exploration budget).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from math import gcd
from operator import attrgetter, is_
from pathlib import Path
from typing import Any

from ..cards import EMPTY, SYMBOLS, Symbol
from ..meters import Meters
from .plans import SubResult

FORMAT = 2  # of an entry; part of every key (2: no class imported; values by persistent id)
MAX_ENTRY = 8 << 20  # bytes: a small callee's law is a few kilobytes
ENV = "KITGEN_LAW_CACHE"  # "0", "off", "no" or "false": no law is read or written
CACHE_ENV = "KITGEN_CACHE_DIR"  # the verification cache's folder (kitgen.core.cache)
MAX_BITS = 4096  # of a probability's numerator or denominator read back (a law's are small)
MAX_LAWS = 512  # law files kept per engine version (UNO's games write ~50): the oldest go
MAX_VERSIONS = 16  # engine versions whose laws are kept (checkouts sharing the folder): others go
STALE_TEMPORARY = 3600  # seconds: a temporary file this old is removed whatever its pid says
RACY = 2_000_000_000  # ns: a source file changed this recently is hashed again (see engine_digest)
_LAW = re.compile(r"^law-(?:(?P<version>[0-9a-f]{16})-)?[0-9a-f]{40}\.law$")  # no version: stop 49's
_TEMPORARY = re.compile(r"^\.law-.+\.tmp-(?P<pid>\d+)-[0-9a-f]{8}$")

Entry = tuple[Any, tuple[int, ...], int]
"""What :data:`.relabel._KEPT` holds for a key: (the law or its marker, the faces, the cost)."""


_ON: ContextVar[bool] = ContextVar("kitgen_law_cache", default=True)


def enabled() -> bool:
    """Whether laws are read from and written to disk (``KITGEN_LAW_CACHE``, :func:`caching`)."""
    return _ON.get() and os.environ.get(ENV, "1").strip().lower() not in ("0", "off", "no", "false")


@contextmanager
def caching(on: bool) -> Iterator[None]:
    """Within the block, laws are read from and written to disk (``on``, and unless
    ``KITGEN_LAW_CACHE`` says otherwise) or neither (``kitgen build --no-cache``)."""
    token = _ON.set(on)
    try:
        yield
    finally:
        _ON.reset(token)


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
    """The engine's own source, by content (a law is the engine's to compute).

    The content's digest is kept on disk too (``law-engine.digest``) with the name, size,
    modification and change times and inode of every file it was computed from, as git's index
    keeps them: a process that finds every file as it was then takes the digest without reading
    the ~1.6 MB again; any file added, removed or rewritten, or a damaged memo, and the content is
    hashed anew. The change time cannot be set back (``touch -d``, ``cp -p``, ``rsync -t`` and
    ``tar`` set the modification time only), so a file rewritten with its size and modification
    time kept is seen. A file rewritten twice within one tick of the file system's clock (a second
    on some) with the same size keeps all of them: as git does for its "racily clean" entries, the
    memo is written only when every file is older than :data:`RACY` at the time it was looked at,
    so that a later rewrite cannot fall in the tick the memo saw."""
    root = Path(__file__).resolve().parent.parent
    looked = time.time_ns()
    files = _sources(str(root))
    seen = hashlib.sha256(repr(files).encode()).hexdigest()
    memo = directory() / "law-engine.digest"
    try:
        text = _read(memo, 1024)
        if text is not None:
            at, digest = text.decode("ascii").split()
            if at == seen and len(digest) == 64:
                return digest
    except (OSError, ValueError):
        pass
    h = hashlib.sha256(f"law format {FORMAT}".encode())
    for rel, *_ in files:
        h.update(rel.encode() + b"\0")
        h.update(hashlib.sha256((root / rel).read_bytes()).digest())
    digest = h.hexdigest()
    if all(max(mtime, ctime) < looked - RACY for _, _, mtime, ctime, _ in files):
        _write(memo, f"{seen} {digest}\n".encode())
    return digest


def _sources(root: str, below: str = "") -> list[tuple[str, int, int, int, int]]:
    """Every ``*.py`` under ``root`` (relative path, size, modification and change times in ns,
    inode), sorted."""
    out: list[tuple[str, int, int, int, int]] = []
    with os.scandir(os.path.join(root, below) if below else root) as entries:
        for e in entries:
            rel = f"{below}/{e.name}" if below else e.name
            if e.is_dir(follow_symlinks=False):
                if e.name != "__pycache__":
                    out += _sources(root, rel)
            elif e.name.endswith(".py") and e.is_file(follow_symlinks=False):
                info = e.stat(follow_symlinks=False)
                out.append((rel, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino))
    out.sort()
    return out


def _faces(n: int) -> str:
    """A digest of the names and game attributes (an UNO card's colour, kind, value: a callee
    may read them) of this process's first ``n`` faces (ids ``0..n-1``).

    Kept per ``n`` with what it was computed from (each face, its name and its attributes'
    items, in order), and given again only while every one of them is still the very object
    it was, each an immutable text, whole number, truth value or None: then the text hashed
    would be the same (a face's attributes can change: :meth:`~..cards.SymbolTable.intern`)."""
    kept = _FACES_KEPT.get(n)
    if kept is not None and _same_faces(n, kept):
        return kept[5]
    faces = [SYMBOLS.by_id(i) for i in range(n)]
    names = "\0".join(f"{s.name}\1{sorted(s.attrs.items())!r}" for s in faces)
    digest = hashlib.blake2b(names.encode(), digest_size=16).hexdigest()
    attrs = [s.attrs for s in faces]
    keys = tuple(chain.from_iterable(attrs))
    values = tuple(chain.from_iterable(map(dict.values, attrs)))
    if (
        all(type(s.name) is str for s in faces)
        and {*map(type, keys)} <= {str}
        and {*map(type, values)} <= _PLAIN
    ):
        if len(_FACES_KEPT) >= 64:
            _FACES_KEPT.clear()
        _FACES_KEPT[n] = (
            tuple(faces),
            tuple(s.name for s in faces),
            tuple(map(len, attrs)),
            keys,
            values,
            digest,
        )
    return digest


_PLAIN = frozenset((str, int, bool, type(None)))
"""The types of an attribute's value whose text cannot change while the value is the same object."""

Faces = tuple[tuple[Symbol, ...], tuple[str, ...], tuple[int, ...], tuple[str, ...], tuple[Any, ...], str]
"""What :func:`_faces` keeps for ``n``: the faces, their names, their attributes' counts, those
attributes' keys one after another, their values likewise, and the digest made of them."""

_FACES_KEPT: dict[int, Faces] = {}
""":func:`_faces`' digests by ``n``, with the faces, names and attributes they were made of."""

_NAME = attrgetter("name")
_ATTRS = attrgetter("attrs")


def _same_faces(n: int, seen: Faces) -> bool:
    """Whether the first ``n`` faces are still those of ``seen``: the same objects, each name and
    each attribute's key and value the same object, in the same order (each compared in C: it
    is asked on every law read back, ~60 faces for UNO)."""
    if _numbered() < n:
        return False
    faces = list(map(SYMBOLS.by_id, range(n)))
    syms, names, counts, keys, values, _ = seen
    if not all(map(is_, faces, syms)) or not all(map(is_, map(_NAME, faces), names)):
        return False
    attrs = list(map(_ATTRS, faces))
    if tuple(map(len, attrs)) != counts:  # then as many keys and values, each at its face
        return False
    return all(map(is_, chain.from_iterable(attrs), keys)) and all(
        map(is_, chain.from_iterable(map(dict.values, attrs)), values)
    )


def _numbered() -> int:
    """How many faces this process has numbered (ids ``0..n-1``: the table's length)."""
    return len(SYMBOLS)


def path(key: tuple[Any, ...], text: str | None = None) -> Path:
    """The file of ``key``'s law (``text``: ``repr(key)`` where the caller has it already)."""
    return Path(_file(key, text))


def _file(key: tuple[Any, ...], text: str | None = None) -> str:
    """:func:`path` as a text: a law read back on first meeting builds no ``Path`` (~15 % of a
    read's cost, UNO's ~50 reads a first 1,000 turns)."""
    engine = engine_digest()
    text = repr(key) if text is None else text
    digest = hashlib.blake2b(f"{engine}\0{text}".encode(), digest_size=20).hexdigest()
    folder = os.environ.get(CACHE_ENV) or str(directory())  # directory()'s, as it names it
    return os.path.join(folder, f"law-{engine[:16]}-{digest}.law")  # by engine version: see tidy()


@lru_cache(maxsize=1)
def _codec() -> tuple[type[Any], type[Any]]:
    """The pickler and unpickler of laws (pickle imported on first use: most processes never
    meet a small lottery)."""
    import pickle

    class Pickler(pickle.Pickler):
        """Faces by id (checked by name when read); fractions, sub-results and counters by their
        fields: no class is named in an entry. Equal tuples are written once (:meth:`shared`)."""

        def __init__(self, file: io.BytesIO) -> None:
            super().__init__(file, protocol=5)
            self.one: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # each tuple's one object
            self.done: dict[int, tuple[Any, ...]] = {}  # by the identity of a tuple written

        def shared(self, value: Any) -> Any:
            """``value`` with its equal tuples made one object, so that the pickle refers to
            each by its memo: a law's chains repeat their observations (UNO's: ~900 values in
            ~240 tuple objects, ~75 tuple values), and :func:`_walk` takes each object once when
            the law is read back. Equal as the law is: a leaf is one only with one of its own
            type (``1`` is not ``True``); a tuple, when its parts are the same objects."""
            if type(value) is not tuple:
                return value
            got = self.done.get(id(value))  # every value met is alive (in the entry) meanwhile
            if got is None:
                parts = tuple([self.shared(v) for v in value])
                key = tuple([(t, p) if (t := type(p)) in _LEAVES else id(p) for p in parts])
                got = self.done[id(value)] = self.one.setdefault(key, parts)
            return got

        def persistent_id(self, obj: Any) -> Any:
            if isinstance(obj, Symbol):
                return ("face", obj.id, obj.name)
            one = self.shared
            if isinstance(obj, Meters):
                return ("meters", obj.shuffles, obj.turns, one(obj.kinds), one(obj.peak), one(obj.calls))
            if isinstance(obj, SubResult):
                return ("sub", one(obj.cards), one(obj.values), one(obj.delta), obj.meters, one(obj.shown))
            if isinstance(obj, Fraction):
                return ("frac", obj.numerator, obj.denominator)
            return None

    class Unpickler(pickle.Unpickler):
        """Builds this process's own faces, and fractions, sub-results and counters from checked
        fields; imports nothing. ``faces`` lists each face handed out with its fields then."""

        def __init__(self, file: io.BytesIO) -> None:
            super().__init__(file)
            self.faces: dict[int, tuple[Symbol, dict[str, Any]]] = {}

        def find_class(self, module: str, name: str) -> Any:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a law")

        def persistent_load(self, pid: Any) -> Any:
            if type(pid) is not tuple or not pid:
                raise pickle.UnpicklingError("not part of a law")
            tag, args = pid[0], pid[1:]
            if tag == "face" and len(args) == 2 and type(args[0]) is int and args[0] >= 0:
                sym = SYMBOLS.by_id(args[0])
                if sym.name == args[1]:
                    if args[0] not in self.faces:  # its fields when first handed out, to put back
                        self.faces[args[0]] = (sym, dict(vars(sym)))
                    return sym
            elif tag == "frac" and len(args) == 2 and all(type(a) is int for a in args):
                n, d = args
                if d > 0 and n.bit_length() <= MAX_BITS and d.bit_length() <= MAX_BITS:
                    return Fraction(n, d)
            elif tag == "meters" and len(args) == 5 and all(type(a) is int for a in args[:2]):
                if all(type(a) is tuple for a in args[2:]):
                    return Meters(*args)
            elif (
                tag == "sub"
                and len(args) == 5
                and isinstance(args[3], Meters)
                and all(type(a) is tuple for a in (*args[:3], args[4]))
            ):
                return SubResult(*args)
            raise pickle.UnpicklingError("not part of a law")

    return Pickler, Unpickler


def _dumps(key: tuple[Any, ...], entry: Entry, n: int) -> bytes:
    buf = io.BytesIO()
    pickler = _codec()[0](buf)
    pickler.dump(pickler.shared((FORMAT, repr(key), n, _faces(n), entry)))
    return buf.getvalue()


def _loads(key: tuple[Any, ...], data: bytes, text: str | None = None) -> Entry | None:
    """The entry ``data`` holds for ``key``; None when it is not one (foreign, corrupt, stale).
    ``text``: ``repr(key)`` where the caller has it already."""
    reader = _codec()[1](io.BytesIO(data))
    try:
        got = reader.load()
    except Exception:
        got = None
    if _restored(reader.faces) or got is None:  # it tried to change a live face: refused
        return None
    try:
        fmt, at, n, faces, entry = got
        if (
            fmt != FORMAT
            or at != (repr(key) if text is None else text)
            or not isinstance(n, int)
            or _numbered() < n
            or faces != _faces(n)
        ):
            return None
        law, first, cost = entry
        if not (isinstance(first, tuple) and all(isinstance(s, int) and 0 <= s < n for s in first)):
            return None
        if not isinstance(cost, int) or not _well_formed(law, n):
            return None
    except Exception:
        return None
    return law, first, cost


_FROZEN = (int, str, bool, type(None), Symbol, Fraction)


MAX_NODES = 1 << 18
"""Values (tuples and what they hold, counted as often as they occur) a law read back may hold
in all: UNO's laws hold ~1,100. A pickle refers to a tuple it has built by a two-byte memo
reference, so a file of 300 bytes can hold a tuple of two of a tuple of two... 30 deep: 2^31
values, each walked (and later hashed) as often as it occurs (stop 50's attack: hours)."""


def _frozen(value: Any, left: list[Any], depth: int = 0) -> bool:
    """Whether ``value`` is made of the values a law holds (numbers, texts, faces, tuples), all
    hashable: never a list, dict, float or bytes a hostile entry put there; nor more values
    than ``left[0]`` (spent as they are counted, shared by every part of one law).

    Exactly the walk value by value, nested at most 32 deep, each value counted as often as
    it occurs, without walking a tuple met again twice: ``left[1]`` (where given: one law's
    check) keeps each nested tuple found frozen with its count of values and its height, so a
    tuple that occurs again spends its count at once and is frozen where it lies iff it lies
    shallow enough for its height (a tuple is the same value wherever it occurs). Only tuples
    inside ``value`` are kept (by identity: alive as long as the law that holds them), never
    ``value`` itself, which may be a tuple made for the call."""
    t = type(value)
    if t is not tuple:
        left[0] -= 1
        return left[0] >= 0 and (t in _LEAVES or isinstance(value, _FROZEN))
    got = _walk(value, depth, left[0], left[1] if len(left) > 1 else {}, False)
    if got is None:
        return False
    rest: int = left[0] - got[0]
    left[0] = rest
    return rest >= 0


_LEAVES = frozenset(_FROZEN)
"""The frozen leaves' own types, for a set look-up before ``isinstance`` (a subclass of one of
them still passes, by ``isinstance``)."""


def _walk(
    value: tuple[Any, ...], depth: int, limit: int, kept: dict[int, tuple[int, int]], keep: bool = True
) -> tuple[int, int] | None:
    """(values in ``value`` counted as often as they occur, its height in tuples) when it is
    frozen at ``depth`` (every tuple in it less than 32 deep) within ``limit`` values; None
    when it is not. ``kept``: the tuples walked already, by identity (see :func:`_frozen`)."""
    if depth >= 32:
        return None
    count = 1
    height = 0
    for v in value:
        t = type(v)
        if t is tuple:
            got = kept.get(id(v))
            if got is None:
                if depth < 31 and {*map(type, v)} <= _LEAVES:
                    got = (len(v) + 1, 1)  # only leaves (its types taken in C): _walk's answer
                else:
                    got = _walk(v, depth + 1, limit - count, kept)
                    if got is None:
                        return None
            elif depth + 1 + got[1] > 32:
                return None
            count += got[0]
            if got[1] > height:
                height = got[1]
        elif t in _LEAVES or isinstance(v, _FROZEN):
            count += 1
        else:
            return None
        if count > limit:
            return None
    got = (count, height + 1)
    if keep:
        kept[id(value)] = got
    return got


def _chain_frozen(chain: tuple[Any, ...], left: list[Any]) -> bool:
    """``all(type(obs) is tuple and _frozen(obs, left) for obs in chain)`` for one law's check
    (``left[1]`` given): the chain walked as one tuple one level up, so that its observations,
    parts of the law met again in other chains, are kept as any nested tuple is; the chain's own
    tuple is not counted (one value more allowed, then given back)."""
    if not {*map(type, chain)} <= _TUPLE:
        return False  # an observation that is not a tuple
    got = _walk(chain, -1, left[0] + 1, left[1])
    if got is None:
        return False
    rest: int = left[0] - (got[0] - 1)
    left[0] = rest
    return rest >= 0


_TUPLE = frozenset((tuple,))


def _well_formed(law: Any, faces: int | None = None) -> bool:
    """Whether ``law`` has a law's shape, so that a game can use it: the marker of a loose key
    (``"ordered"``), or (view's observations, sub-result, probability) entries whose
    observations are tuples of frozen values and whose probabilities are positive and add up
    to 1, every partial sum's denominator of at most :data:`MAX_BITS` bits, and at most
    :data:`MAX_NODES` values in all. An entry of another shape made a game die with a traceback
    (stop 50's attack), or take hours to check; it is refused like a damaged one, and the law
    enumerated again."""
    if type(law) is str:
        return law == "ordered"
    if type(law) is not tuple or not law:
        return False
    # Every value of the law counted against one budget (:data:`MAX_NODES`); the tuples walked.
    left: list[Any] = [MAX_NODES, {}]
    num, den = 0, 1  # the partial sum of the probabilities, in lowest terms (as a Fraction keeps it)
    for item in law:
        if type(item) is not tuple or len(item) != 3:
            return False
        chain, sub, p = item
        if type(chain) is not tuple or type(sub) is not SubResult or type(p) is not Fraction:
            return False
        pn, pd = p.numerator, p.denominator  # pd > 0: a Fraction's sign is its numerator's
        if pn <= 0:
            return False
        if not _chain_frozen(chain, left):
            return False
        m = sub.meters
        if not _frozen((sub.cards, sub.values, sub.delta, sub.shown, m.kinds, m.peak, m.calls), left):
            return False
        if not _sub_shaped(sub, faces):
            return False
        num, den = num * pd + pn * den, den * pd  # the sum's arithmetic in whole numbers: a
        g = gcd(num, den)  # Fraction's operators, each through its numeric tower, cost ~4x
        num, den = num // g, den // g
        if den.bit_length() > MAX_BITS:
            # No small callee's (UNO's laws: 4 bits; a partial sum's denominator divides the
            # probabilities' common one): a hostile file's 4,096-bit denominators, each new,
            # made the sum grow thousands of bits an entry (1,000 entries, 550 kB: 25 s CPU).
            return False
    # Each outcome once (as an enumeration gives them: equal outcomes merged): entries repeated
    # under one chain of observations were merged when drawn, and the draw's thresholds then
    # named an outcome past the list's end (IndexError in the call: stop 50's attack).
    return num == den == 1 and len({(item[0], item[1]) for item in law}) == len(law)


def _ints(values: Any, n: int | None = None) -> bool:
    """Whether ``values`` is a tuple of whole numbers (``n`` of them, where given)."""
    # Each value's type taken in C: every one int (a subclass, a bool, is not).
    return (
        type(values) is tuple
        and (n is None or len(values) == n)
        and (not values or {*map(type, values)} == _INT)
    )


_INT = frozenset((int,))


def _sub_shaped(sub: SubResult, faces: int | None = None) -> bool:
    """Whether a sub-result's cards are (shape, codes) pairs, a shape two whole numbers (rows,
    columns) and as many codes as it has places, its supply's change (face, count) pairs of
    whole numbers and its counters' fields of their types: as a call reads them; with ``faces``
    (how many faces the writer had numbered), every code one of those faces or an empty place.
    A law under its own key, format and faces with cards ``("x",)``, a change or peak ``(("a",
    "b"),)``, a kind of shuffle counted ``"x"`` times or a code 999999 made the game die with a
    traceback (ValueError, TypeError, IndexError) when drawn (stop 50's attack)."""
    for pair in sub.cards:
        if type(pair) is not tuple or len(pair) != 2 or not _ints(pair[0], 2):
            return False
        rows, cols = pair[0]
        if rows < 0 or cols < 0 or not _ints(pair[1], rows * cols):
            return False
        codes = pair[1]
        if faces is None or not codes or (EMPTY == -1 and min(codes) >= -1 and max(codes) < 2 * faces):
            continue  # every code an empty place (-1) or a face below ``faces`` (c >> 1 < faces)
        if not all(c == EMPTY or 0 <= c >> 1 < faces for c in codes):
            return False  # a face the writer had not numbered (IndexError when read), or -5
    m = sub.meters  # its counters as their fields are typed (kinds and calls by name)
    named = (*m.kinds, *m.calls)
    if not all(type(x) is tuple and len(x) == 2 and type(x[0]) is str and type(x[1]) is int for x in named):
        return False
    return all(_ints(change, 2) for change in (*sub.delta, *m.peak))


def _restored(faces: dict[int, tuple[Symbol, dict[str, Any]]]) -> bool:
    """Whether an entry changed any face it was handed (BUILD writes into a face's fields past the
    frozen dataclass); each such face is put back as it was before the entry was first handed it
    (a face handed out again after a BUILD is not put back as the BUILD left it)."""
    changed = False
    for sym, before in faces.values():
        now = vars(sym)
        if len(now) != len(before) or any(now.get(k) is not v for k, v in before.items()):
            now.clear()
            now.update(before)
            changed = True
    return changed


def _read(target: Path | str, limit: int) -> bytes | None:
    """The bytes of ``target`` when it is a regular file of at most ``limit`` bytes (never a
    FIFO, device or link: nothing blocks), else None.

    One ``read`` of the size ``fstat`` gave, plus one byte: a file that is not that size when
    read (changed meanwhile, or a short read) is refused like a damaged one. (A buffered
    ``read(limit + 1)`` allocated ``limit`` bytes, 8 MB, for each law of a few kilobytes.)"""
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        size = info.st_size
        if not stat.S_ISREG(info.st_mode) or size > limit:
            return None
        data = os.read(fd, size + 1)
        return data if len(data) == size else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _write(target: Path, data: bytes) -> bool:
    """Write ``data`` to ``target`` whole (a temporary file, then renamed); False when it cannot."""
    # A fresh name, created only if nothing lies there (never through a link left at that name).
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}-{os.urandom(4).hex()}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with os.fdopen(os.open(tmp, flags, 0o666), "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False
    return True


_TIDIED: set[str] = set()
"""The folders this process has tidied (:func:`tidy` runs once per folder and process)."""


def tidy(folder: Path, now: float | None = None) -> list[str]:
    """Bound the law files in ``folder`` and sweep killed writers' temporary files; returns the
    names removed.

    - a temporary file (``.law-*.tmp-<pid>-<hex>``) goes when its writer's process is gone or it
      is older than :data:`STALE_TEMPORARY` (as the verification cache sweeps its own);
    - law files are kept for the :data:`MAX_VERSIONS` engine versions (each file's name holds
      its version) with the newest files, the running engine's always among them; the others go
      (their laws are never looked up by this engine, nor by any engine the checkout had lately);
    - of each version kept, at most :data:`MAX_LAWS` files, the newest; the oldest go.

    Only regular files whose names are the cache's own are counted or removed (a link, folder or
    FIFO of such a name, or anything else in the folder, is left alone); a file that another
    process removed first, or that cannot be removed, is skipped. What a run does never depends on
    it: a law removed is enumerated again when met."""
    now = time.time() if now is None else now
    mine = engine_digest()[:16]
    removed: list[str] = []
    versions: dict[str, list[tuple[int, str]]] = {}
    found = []
    try:
        with os.scandir(folder) as entries:
            for e in entries:
                if e.name.startswith(("law-", ".law-")):
                    with contextlib.suppress(OSError):  # removed meanwhile: nothing to count
                        found.append((e.name, e.stat(follow_symlinks=False)))
    except OSError:
        return removed
    for name, info in found:
        if not stat.S_ISREG(info.st_mode):
            continue
        law = _LAW.match(name)
        if law is not None:
            versions.setdefault(law.group("version") or "", []).append((info.st_mtime_ns, name))
            continue
        temporary = _TEMPORARY.match(name)
        if temporary is not None and (
            now - info.st_mtime > STALE_TEMPORARY or not _alive(int(temporary.group("pid")))
        ):
            removed += _remove(folder, [name])
    # The running engine's version first, then the others by their newest file.
    order = sorted(versions, key=lambda v: (v != mine, -max(versions[v])[0], v))
    for i, version in enumerate(order):
        files = sorted(versions[version], reverse=True)  # the newest first
        removed += _remove(folder, [name for _, name in files[MAX_LAWS if i < MAX_VERSIONS else 0 :]])
    return removed


def _remove(folder: Path, names: list[str]) -> list[str]:
    out = []
    for name in names:
        with contextlib.suppress(OSError):
            os.unlink(folder / name)
            out.append(name)
    return out


def _alive(pid: int) -> bool:
    """Whether process ``pid`` may still be running (another user's, or when unsure: yes)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # gone, or no process could have it
        return False
    except OSError:
        return True
    return True


def load(key: tuple[Any, ...]) -> Entry | None:
    """The law kept on disk for ``key`` (None: there is none, or it is not to be trusted)."""
    text = repr(key)  # once: for the file's name and the key the entry must hold
    data = _read(_file(key, text), MAX_ENTRY)
    return None if data is None else _loads(key, data, text)


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
    written = _write(target, data)
    folder = str(target.parent)
    if written and folder not in _TIDIED:  # once per folder and process, after its first write
        if len(_TIDIED) >= 64:  # bounded: a process that wrote to many folders tidies again
            _TIDIED.clear()
        _TIDIED.add(folder)
        tidy(target.parent)
    return written
