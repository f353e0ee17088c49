"""Card faces and cards.

A *symbol* is what is printed on a card's face (``alpha``, ``heart``, ``theta3``). All
backs are identical, so a face-down card shows only ``?``. Internally a card on the
table is a small int: ``symbol_id << 1 | face_up`` (``EMPTY`` for an empty slot); this
module converts between that code and readable values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypedDict

from .expressions import EvalError, Value

EMPTY = -1
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Symbol(Value):
    """A card face. Compares equal only to itself; prints as its glyph.

    ``attrs`` holds a game's attributes of the face (an UNO card's colour, kind, value),
    readable in expressions as ``card.color``.

    Equality and the hash read only ``name`` and ``id``, which never change: the registry may
    give a live symbol its declared glyph later (:meth:`SymbolTable.intern`, the undo of
    :meth:`SymbolTable.declare`), and a symbol already in a dict or set (a kept table's key)
    must still be found there.
    """

    name: str
    glyph: str = field(compare=False)
    id: int
    attrs: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return self.glyph

    def __repr__(self) -> str:
        return f"Symbol({self.name!r})"

    def kg_value(self) -> Any:
        return self

    def kg_attr(self, name: str) -> Any:
        if name in self.attrs:
            return self.attrs[name]
        if name == "name":
            return self.name
        if name == "glyph":
            return self.glyph
        fields = ", ".join(["name", "glyph", *sorted(self.attrs)])
        raise EvalError(f"card {self.name} has no field {name!r} (fields: {fields})")


class SymbolTable:
    """Interns symbol names to small ids shared by every spec in a run."""

    def __init__(self) -> None:
        self._by_name: dict[str, Symbol] = {}
        self._by_id: list[Symbol] = []
        self._declared: set[str] = set()  # cards a checked spec declared (see named_only)

    def intern(self, name: str, glyph: str | None = None, attrs: dict[str, Any] | None = None) -> Symbol:
        sym = self._by_name.get(name)
        if sym is None:
            sym = Symbol(name, glyph or name, len(self._by_id))
            self._by_name[name] = sym
            self._by_id.append(sym)
        elif glyph and sym.glyph == name and glyph != name:
            # First seen by name alone (a report read back from the cache names its cards),
            # now declared with its glyph: print it as declared (θ1, not theta1).
            object.__setattr__(sym, "glyph", glyph)
        if attrs:
            sym.attrs.update(attrs)
        return sym

    def declare(self, name: str, glyph: str) -> Symbol:
        """A checked spec declares the card ``name``, printed as ``glyph`` (undone if the spec is
        refused for its calls after all, :func:`undone_on_error`)."""
        if _JOURNAL is not None:
            sym = self._by_name.get(name)
            old, was = (name if sym is None else sym.glyph), name in self._declared

            def undo() -> None:
                object.__setattr__(self._by_name[name], "glyph", old)
                if not was:
                    self._declared.discard(name)

            _JOURNAL.append(undo)
        self._declared.add(name)
        return self.intern(name, glyph)

    def named_only(self, name: str) -> bool:
        """Whether the process knows the card ``name`` by its name alone (a report read back from
        the cache, a view): no spec declared it and it has no glyph of its own, so a spec may
        still declare it with one."""
        sym = self._by_name.get(name)
        return sym is not None and sym.glyph == name and name not in self._declared

    def get(self, name: str) -> Symbol | None:
        return self._by_name.get(name)

    def by_id(self, sid: int) -> Symbol:
        return self._by_id[sid]

    def faces(self, codes: Iterable[int]) -> list[Symbol]:
        """The faces of table codes (``symbol_id << 1 | face_up``) in order, ``EMPTY`` slots left
        out: ``[by_id(c >> 1) for c in codes if c != EMPTY]`` without a call per card."""
        table = self._by_id
        return [table[c >> 1] for c in codes if c != EMPTY]

    def interned(self, sym: Symbol) -> bool:
        """Whether ``sym`` is this registry's own object for its id (then it equals only itself)."""
        i = sym.id
        return 0 <= i < len(self._by_id) and self._by_id[i] is sym

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self._by_id)


SYMBOLS = SymbolTable()


class DealtFaces:
    """The faces of dealt cards in a verification by validity classes (the data-independence
    reduction, :mod:`reference_engine.verify.classes`): a decision may read such a face only
    through one of the game's functions (``valid(card)``), and no view may show one except
    as part of a reveal of every dealt card in a scrambled row (see
    :mod:`reference_engine.verify.symmetry`). Empty outside such a verification, so the
    checks cost one test of an empty set."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self.depth = 0  # > 0 while a game function reads a card

    def hidden(self, sid: int) -> bool:
        """Whether a decision reading the face ``sid`` now breaks the reduction's precondition."""
        return sid in self.ids and not self.depth

    @contextmanager
    def through_game(self) -> Iterator[None]:
        """A game function is reading a card: its face may be read (as its class)."""
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1


DEALT = DealtFaces()


class CodeOrder:
    """Counts the steps of exact runs whose result depends on how card codes compare (a sort
    of cards, the representative of a shuffle's orbit, a hand kept sorted): a run that made
    none treats its cards alike whatever their faces' order (see
    :mod:`reference_engine.machine.relabel`)."""

    __slots__ = ("reads",)

    def __init__(self) -> None:
        self.reads = 0


CODE_ORDER = CodeOrder()


def code(symbol: Symbol, up: bool = False) -> int:
    return symbol.id << 1 | int(up)


def symbol_of(c: int) -> Symbol:
    return SYMBOLS.by_id(c >> 1)


def is_up(c: int) -> bool:
    return c >= 0 and bool(c & 1)


def flip(c: int) -> int:
    return c ^ 1


def face_down(c: int) -> int:
    return c & ~1


class Rotations:
    """Up-down cards: the symbol each face shows after a half turn (every other face looks the
    same either way up). A half turn is public; face down, the backs (all alike, and the same
    either way up) hide which way a card points."""

    def __init__(self) -> None:
        self.to: dict[int, int] = {}

    def pair(self, a: Symbol, b: Symbol) -> None:
        if _JOURNAL is not None:
            before = {i: self.to.get(i) for i in (a.id, b.id)}

            def undo() -> None:
                for i, j in before.items():
                    if j is None:
                        self.to.pop(i, None)
                    else:
                        self.to[i] = j

            _JOURNAL.append(undo)
        self.to[a.id] = b.id
        self.to[b.id] = a.id

    def physical(self, sid: int) -> int:
        """The symbol id that stands for the physical card: an up-down card's two faces are one
        card in the supply (the smaller id of the pair); every other card is itself."""
        other = self.to.get(sid)
        return sid if other is None else min(sid, other)

    def rotate(self, c: int) -> int:
        """The code of card ``c`` after a half turn (face up or down kept; an empty place stays)."""
        if c < 0:
            return c
        sid = self.to.get(c >> 1)
        return c if sid is None else sid << 1 | (c & 1)


ROTATIONS = Rotations()

# What to undo, newest last, while a spec's cards are declared on trial (undone_on_error).
_JOURNAL: list[Callable[[], None]] | None = None


@contextmanager
def undone_on_error() -> Iterator[None]:
    """Cards declared (:meth:`SymbolTable.declare`) and up-down pairs made (:meth:`Rotations.pair`)
    inside are undone if it raises: a spec refused for its calls (an unknown callee, a call's
    arguments) leaves no card printed behind. A callee checked inside inherits its caller's
    glyphs as before; a new card stays known, by its name alone (its id kept)."""
    global _JOURNAL
    outer = _JOURNAL is None
    if outer:
        _JOURNAL = []
    journal = _JOURNAL
    assert journal is not None
    mark = len(journal)
    try:
        yield
    except BaseException:
        while len(journal) > mark:
            journal.pop()()
        raise
    finally:
        if outer:
            _JOURNAL = None


class CardJSON(TypedDict):
    """A card on the table as a trace shows it: its face, its glyph, whether it lies face up."""

    symbol: str
    glyph: str
    up: bool


@dataclass(frozen=True)
class Card:
    """A card with a face and an orientation, for traces and messages.

    Round-trips through text: ``Card.parse("alpha")`` is face-down, ``Card.parse("alpha^")``
    is face-up, and ``str()`` gives the same text back.
    """

    symbol: str
    up: bool = False

    @classmethod
    def parse(cls, text: str) -> Card:
        up = text.endswith("^")
        name = text[:-1] if up else text
        if not NAME_RE.match(name):
            raise ValueError(f"not a card: {text!r}")
        return cls(name, up)

    @classmethod
    def from_code(cls, c: int) -> Card:
        return cls(symbol_of(c).name, is_up(c))

    def __str__(self) -> str:
        return self.symbol + ("^" if self.up else "")

    def glyph(self) -> str:
        sym = SYMBOLS.get(self.symbol)
        return sym.glyph if sym is not None else self.symbol

    def visible(self) -> str:
        """What a player at the table sees: the face if face-up, ``?`` otherwise."""
        return self.glyph() if self.up else "?"

    def to_json(self) -> CardJSON:
        return {"symbol": self.symbol, "glyph": self.glyph(), "up": self.up}
