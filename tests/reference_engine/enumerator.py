"""A deliberately naive reference enumerator for protocol specs (for differential testing).

It shares no code with the engine's exact mode: it imports only the spec loader's model
(:class:`~reference_engine.spec.Protocol`, the step dataclasses) and walks the parsed
expression trees (the node classes of :mod:`reference_engine.expressions`) with its own
evaluator over its own table. Nothing here merges states, canonicalises tables, caches a
sub-protocol or factors a view: every run is a separate path.

* The table is a dict of named regions, each a grid of cards ``(symbol name, face_up)`` or
  ``None`` for an empty place.
* For every admissible input assignment the steps run on a list of paths. At a shuffle
  every path branches over every permutation of the shuffle's set, each with its exact
  probability (a ``set:`` list is a multiset: an entry listed twice is twice as likely).
* A call runs the callee's own steps on the argument cards, path by path; the callee's
  whole view becomes one observation of the caller's view.
* A path's view is the tuple of everything the table saw: cards turned face up, ``if``
  outcomes, ``let`` values, ``for`` value lists, ``shift ... until`` amounts, discards
  that include face-down cards (as a sorted multiset), shuffles of piles holding face-up
  cards (the visible sequence afterwards), each call's whole view, the public card outputs
  as shown at the end (faces in table order; a hand's or a ``show: mixed`` output's sorted),
  and the cards that came into each hand a person holds (``players``).
* Hands are regions of one row that only grow at their end (``return``, ``move`` or a call's
  results onto them); nothing may read them. A callee's output that is a hand comes back in
  every order of its cards, each with probability 1/k!.
* Security is checked for the table (hands' contents left out of the view) and for each
  person of ``players`` (their own hands in, classes of inputs by what they ``know``).

:func:`enumerate_protocol` returns the three verdicts (correct, secure, tidy), every
input's exact output distribution and the number of distinct views; it raises
:class:`RunError` when some run cannot be carried out (the engine's "some run cannot be
carried out") and :class:`Unsupported` for what it does not implement.

Supported: every action; inputs with ``values``, ``onehot``, ``label`` and ``card: [...]``
encodings (arrays too), dealt cards (``groups``: every way to deal a :class:`Game`'s cards into
the hands, each hand in name order), ``params``,
``admissible`` and ``helpers`` limits (the top protocol's, sub-protocols included); output
encodings (declared, ``card``, ``cards``, ``faces``; lists of groups) and public values.
Expressions: numbers, strings, true/false/none, names, lists, comprehensions, ranges
``a..b``, indexing ``R[i]`` (items), ``R[i..j]``, ``R[r, c]``, ``R[2, *]``, ``R[*, j]``,
indexing plain lists, ``.name``, arithmetic, comparisons, ``in``, and/or/not,
``x if c else y``, and the functions len, ncols, nrows, columns, rows, cards, items, piles,
faces, decode, new, up, down, exists, reversed, sorted, sum, min, max, any, all, abs, count,
index, family_index, part, without, hand, each encoding (``bit(1)``) and each symbol family
(``c(2)``), ``symbol()`` (any name is a card) and a :class:`Game`'s functions (``valid``,
given as plain functions of a card's name). Not: game functions without a :class:`Game`,
``str()``. An ``admissible`` that admits no input raises :class:`Refused`.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from reference_engine import expressions as ex
from reference_engine import steps as st
from reference_engine.source import format_path
from reference_engine.spec import OutputDecl, Protocol

# --------------------------------------------------------------------------- errors


class RunError(Exception):
    """Some run of the spec cannot be carried out to the end.

    ``locations`` holds every place where some run fails: (protocol, key path of the step,
    ``""`` for the outputs), as the engine's error names its place.
    """

    def __init__(self, message: str, locations: frozenset[tuple[str, str]] = frozenset()):
        super().__init__(message)
        self.locations = locations


class Unsupported(Exception):
    """The spec uses something this enumerator does not implement."""


class Refused(Exception):
    """The spec is refused before anything runs (no admissible input: nothing to check)."""


class EvalErr(Exception):
    """An expression or an action failed (becomes a RunError at the step)."""


class DecodeErr(EvalErr):
    """Cards that encode no value."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Sym:
    """A card face (compares equal only to the same face, never to a string)."""

    name: str

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DecodeFailure:
    """An output whose cards encode no value (the reason text mirrors the engine's)."""

    reason: str


Coord = tuple[str, int, int]  # region, row, column (1-based)
Card = tuple[str, bool]  # symbol name, face up


@dataclass(frozen=True)
class Sel:
    """An ordered selection of places on the table."""

    coords: tuple[Coord, ...]
    shape: tuple[int, int] | None
    readable: bool = True  # False for up()/down(): their faces cannot be read
    region: str | None = None  # set for a whole region (indexable by item or [row, column])


@dataclass(frozen=True)
class New:
    """Cards to take from the supply."""

    syms: tuple[Sym, ...]


@dataclass(frozen=True)
class EncRef:
    name: str


class _Wild:
    def __repr__(self) -> str:
        return "*"


WILD = _Wild()


@dataclass
class Region:
    grid: list[list[Card | None]]
    unit: int = 1
    hand: bool = False  # a player's hand: one row, cards added at its end, nobody reads its order

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    def items(self) -> int:
        return self.cols // self.unit if self.rows == 1 else self.cols

    def coords(self, name: str) -> tuple[Coord, ...]:
        return tuple((name, r, c) for r in range(1, self.rows + 1) for c in range(1, self.cols + 1))


Table = dict[str, Region]
CardOutputs = list[tuple[tuple[int, int], list[Card]]]  # a callee's card outputs: (shape, cards)


def copy_table(table: Table) -> Table:
    return {k: Region([list(row) for row in reg.grid], reg.unit, reg.hand) for k, reg in table.items()}


@dataclass(frozen=True)
class Game:
    """What a game gives a game protocol: the cards to deal (by name, repeats for copies) and its
    functions, each a plain function of a card's name (``valid``)."""

    deal: tuple[str, ...]
    functions: dict[str, Callable[[str], Any]]


def game_deals(cards: Sequence[str], sizes: Sequence[int]) -> list[tuple[Sym, ...]]:
    """Every way to deal ``cards`` into hands of ``sizes`` (a hand's order does not count: each
    hand in name order), P_1's hand first."""
    if sum(sizes) != len(cards):
        raise EvalErr(f"cannot deal {len(cards)} cards into hands of sizes {list(sizes)}")
    out: set[tuple[str, ...]] = set()
    for perm in itertools.permutations(cards):
        hands: list[str] = []
        i = 0
        for n in sizes:
            hands += sorted(perm[i : i + n])
            i += n
        out.add(tuple(hands))
    return [tuple(Sym(n) for n in deal) for deal in sorted(out)]


def cell(table: Table, co: Coord) -> Card | None:
    name, r, c = co
    reg = table.get(name)
    if reg is None or not (1 <= r <= reg.rows and 1 <= c <= reg.cols):
        raise EvalErr(f"{name}[{r}, {c}] is not on the table")
    return reg.grid[r - 1][c - 1]


def set_cell(table: Table, co: Coord, value: Card | None) -> None:
    name, r, c = co
    reg = table.get(name)
    if reg is None or not (1 <= r <= reg.rows and 1 <= c <= reg.cols):
        raise EvalErr(f"{name}[{r}, {c}] is not on the table")
    reg.grid[r - 1][c - 1] = value


def normalize(table: Table, keep: Sequence[str] = ()) -> None:
    """Regions left without any card disappear (hands stay); a matrix loses its empty bottom rows."""
    for name in list(table):
        reg = table[name]
        if reg.hand:
            continue
        if name not in keep and all(x is None for row in reg.grid for x in row):
            del table[name]
            continue
        while len(reg.grid) > 1 and all(x is None for x in reg.grid[-1]):
            reg.grid.pop()


# --------------------------------------------------------------------------- plain values


def _kind(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "number"
    return type(v).__name__


def as_int(v: Any) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    raise EvalErr(f"expected a number, got {_kind(v)} {v!r}")


def equal(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (list, tuple)) and len(a) == 1:
        return equal(a[0], b)
    if isinstance(b, (list, tuple)) and len(b) == 1:
        return equal(a, b[0])
    if (isinstance(a, bool) or isinstance(b, bool)) and isinstance(a, int) and isinstance(b, int):
        return int(a) == int(b)
    return bool(a == b)


def truthy_plain(v: Any) -> bool:
    if isinstance(v, (list, tuple, str)):
        return len(v) > 0
    return bool(v)


# --------------------------------------------------------------------------- encodings


@dataclass
class BoundEnc:
    name: str
    kind: str
    width: int
    first: int
    table: dict[Any, tuple[str, ...]]
    hot: str
    cold: str
    family: str
    choices: tuple[str, ...]

    def domain(self, index: int | None = None) -> list[Any]:
        if self.kind == "values":
            return list(self.table)
        if self.kind == "onehot":
            return list(range(self.first, self.first + self.width))
        if self.kind == "label":
            if index is None:
                raise EvalErr(f"encoding {self.name} labels the cards of an array input")
            return [Sym(f"{self.family}{index}")]
        if not self.choices:
            raise EvalErr(f"encoding {self.name} holds any card")
        return [Sym(s) for s in self.choices]

    def encode(self, value: Any) -> list[Sym]:
        if self.kind == "values":
            for key, faces in self.table.items():
                if _same(key, value):
                    return [Sym(s) for s in faces]
            raise EvalErr(f"{self.name} has no value {value!r}")
        if self.kind == "onehot":
            v = as_int(value)
            if not self.first <= v < self.first + self.width:
                raise EvalErr(f"{self.name} holds {self.first}..{self.first + self.width - 1}, not {v}")
            return [Sym(self.hot if i == v - self.first else self.cold) for i in range(self.width)]
        if isinstance(value, Sym):
            return [value]
        raise EvalErr(f"{self.name} encodes a card, not {value!r}")

    def decode(self, faces: list[Sym | None], glyph: Callable[[str], str]) -> Any:
        if any(f is None for f in faces):
            raise DecodeErr(f"{self.name}: a slot is empty")
        if len(faces) != self.width:
            raise DecodeErr(f"{self.name} needs {self.width} cards, got {len(faces)}")
        names = tuple(f.name for f in faces if f is not None)
        if self.kind == "values":
            for key, pattern in self.table.items():
                if pattern == names:
                    return key
            raise DecodeErr(f"{' '.join(glyph(n) for n in names)} is not a valid {self.name}")
        if self.kind == "onehot":
            hots = [i for i, n in enumerate(names) if n == self.hot]
            if len(hots) != 1 or any(n not in (self.hot, self.cold) for n in names):
                raise DecodeErr(f"{' '.join(glyph(n) for n in names)} is not a valid {self.name}")
            return self.first + hots[0]
        return faces[0]


def _same(key: Any, value: Any) -> bool:
    if isinstance(key, bool) or isinstance(value, bool):
        if isinstance(key, (int, bool)) and isinstance(value, (int, bool)):
            return int(key) == int(value)
        return False
    return bool(key == value)


# --------------------------------------------------------------------------- evaluator


class World:
    """A protocol bound to its parameters: global names, functions, encodings."""

    def __init__(self, proto: Protocol, params: dict[str, Any], game: Game | None = None):
        self.proto = proto
        self.game = game
        self.params = dict(params)
        self.names: dict[str, Any] = dict(params)
        self.families = {s.name for s in proto.symbols.values() if s.family}
        self.glyphs = {s.name: s.glyph for s in proto.symbols.values() if not s.family}
        for s in proto.symbols.values():
            if not s.family:
                self.names[s.name] = Sym(s.name)
        for name in proto.encodings:
            self.names[name] = EncRef(name)
        self._bound: dict[str, BoundEnc] = {}
        self.context: set[str] = set(proto.context)

    def glyph(self, name: str) -> str:
        if name in self.glyphs:
            return self.glyphs[name]
        for fam in self.families:
            decl = self.proto.symbols[fam]
            if name.startswith(fam) and name[len(fam) :].isdigit():
                template = decl.glyph
                idx = name[len(fam) :]
                return template.replace("{}", idx) if "{}" in template else f"{template}{idx}"
        return name

    def bound(self, name: str) -> BoundEnc:
        b = self._bound.get(name)
        if b is None:
            enc = self.proto.encodings[name]
            ev = Evaluator(self, None, {})
            width, first = 1, 0
            if enc.kind == "onehot":
                assert enc.length is not None
                width = as_int(ev.eval(enc.length.node))
                first = as_int(ev.eval(enc.first.node)) if enc.first is not None else 0
                if width < 1:
                    raise EvalErr(f"encoding {name}: length must be at least 1")
            elif enc.kind == "values":
                widths = {len(v) for v in enc.table.values()}
                width = widths.pop() if widths else 0
            b = BoundEnc(
                name, enc.kind, width, first, dict(enc.table), enc.hot, enc.cold, enc.family, enc.choices
            )
            self._bound[name] = b
        return b

    def static(self, expr: ex.Expression) -> Any:
        return Evaluator(self, None, {}).eval(expr.node)


_MISSING = object()


class Evaluator:
    """Walks an expression tree. ``table`` is None where no table is in scope (equals, counts)."""

    def __init__(
        self, world: World, table: Table | None, env: dict[str, Any], extra: dict[str, Any] | None = None
    ):
        self.world = world
        self.table = table
        self.env = env
        self.extra = extra or {}  # input values (value scope)
        self.locals: list[dict[str, Any]] = []

    # -- names -------------------------------------------------------------------
    def lookup(self, name: str) -> Any:
        for frame in reversed(self.locals):
            if name in frame:
                return frame[name]
        if name in self.extra:
            return self.extra[name]
        if name in self.env:
            v = self.env[name]
            return list(v) if isinstance(v, tuple) else v
        if self.table is not None and name in self.table:
            reg = self.table[name]
            if reg.hand:
                raise EvalErr(f"{name} is a hand: nobody may read or move its cards but its holder")
            return Sel(reg.coords(name), (reg.rows, reg.cols), True, name)
        if name in self.world.names:
            return self.world.names[name]
        raise EvalErr(f"unknown name {name!r}")

    # -- faces ---------------------------------------------------------------------
    def faces(self, s: Sel) -> list[Sym | None]:
        if not s.readable:
            raise EvalErr("the faces of cards are not available here")
        if self.table is None:
            raise EvalErr("no table here")
        out: list[Sym | None] = []
        for co in s.coords:
            c = cell(self.table, co)
            if c is None:
                out.append(None)
            elif not c[1]:
                raise EvalErr(f"{co} is face down: a decision may only use face-up cards")
            else:
                out.append(Sym(c[0]))
        return out

    def plain(self, v: Any) -> Any:
        if isinstance(v, Sel):
            return self.faces(v)
        if isinstance(v, New):
            return list(v.syms)
        return v

    def truthy(self, v: Any) -> bool:
        return truthy_plain(self.plain(v))

    def as_int(self, v: Any) -> int:
        return as_int(self.plain(v))

    def equal(self, a: Any, b: Any) -> bool:
        return equal(self.plain(a), self.plain(b))

    def as_list(self, v: Any, fn: str) -> list[Any]:
        v = self.plain(v) if not isinstance(v, list) else v
        if isinstance(v, (list, tuple)):
            return list(v)
        raise EvalErr(f"{fn}() needs a list")

    # -- tree ------------------------------------------------------------------------
    def eval(self, node: ex.Node) -> Any:
        if isinstance(node, ex.Const):
            return node.value
        if isinstance(node, ex.Name):
            return self.lookup(node.name)
        if isinstance(node, ex.Star):
            return WILD
        if isinstance(node, ex.ListLit):
            return [self.eval(i) for i in node.items]
        if isinstance(node, ex.Comprehension):
            out: list[Any] = []
            self._comp(node, 0, 0, out)
            return out
        if isinstance(node, ex.RangeNode):
            lo, hi = self.as_int(self.eval(node.lo)), self.as_int(self.eval(node.hi))
            return list(range(lo, hi + 1))
        if isinstance(node, ex.Call):
            args = [self.eval(a) for a in node.args]
            return self.call(node.func, args)
        if isinstance(node, ex.Index):
            target = self.eval(node.obj)
            args = [self.eval(a) for a in node.args]
            return self.index(target, args)
        if isinstance(node, ex.Attr):
            target = self.eval(node.obj)
            if isinstance(target, Sym):
                if node.attr in ("name", "glyph"):
                    return target.name if node.attr == "name" else self.world.glyph(target.name)
                raise EvalErr(f"card {target.name} has no field {node.attr!r}")
            if isinstance(target, dict):
                if node.attr not in target:
                    raise EvalErr(f"no field {node.attr!r}")
                return target[node.attr]
            raise EvalErr(f"{_kind(target)} has no field {node.attr!r}")
        if isinstance(node, ex.Unary):
            v = self.eval(node.operand)
            if node.op == "not":
                return not self.truthy(v)
            return -self.as_int(v)
        if type(node).__name__ == "Chain":  # a op b op c ..., left to right (one operator level)
            acc = self.eval(node.first)  # type: ignore[attr-defined]
            for op, rnode in node.rest:  # type: ignore[attr-defined]
                acc = self.binary(op, acc, rnode)
            return acc
        if type(node).__name__ == "Binary":  # the older parser's two-operand node
            return self.binary(node.op, self.eval(node.left), node.right)  # type: ignore[attr-defined]
        if isinstance(node, ex.Compare):
            left = self.eval(node.first)
            for op, rnode in node.rest:
                right = self.eval(rnode)
                if not self.compare(op, left, right):
                    return False
                left = right
            return True
        if isinstance(node, ex.Conditional):
            return self.eval(node.then) if self.truthy(self.eval(node.cond)) else self.eval(node.other)
        raise Unsupported(f"expression node {type(node).__name__}")

    def binary(self, op: str, left: Any, rnode: ex.Node) -> Any:
        if op == "and":
            return self.eval(rnode) if self.truthy(left) else left
        if op == "or":
            return left if self.truthy(left) else self.eval(rnode)
        return self.arith(op, left, self.eval(rnode))

    def _comp(self, node: ex.Comprehension, ci: int, vi: int, out: list[Any]) -> None:
        if ci == len(node.clauses):
            out.append(self.eval(node.element))
            return
        kind, clause = node.clauses[ci]
        if kind == "if":
            if self.truthy(self.eval(clause)):
                self._comp(node, ci + 1, vi, out)
            return
        seq = self.plain(self.eval(clause))
        if not isinstance(seq, (list, tuple, range)):
            raise EvalErr(f"cannot iterate over {_kind(seq)}")
        frame: dict[str, Any] = {}
        self.locals.append(frame)
        try:
            for item in seq:
                frame[node.variables[vi]] = item
                self._comp(node, ci + 1, vi + 1, out)
        finally:
            self.locals.pop()

    def arith(self, op: str, a: Any, b: Any) -> Any:
        a, b = self.plain(a), self.plain(b)
        if op == "+":
            if isinstance(a, list) and isinstance(b, list):
                return a + b
            if isinstance(a, str) and isinstance(b, str):
                return a + b
            return as_int(a) + as_int(b)
        x, y = as_int(a), as_int(b)
        if op == "-":
            return x - y
        if op == "*":
            return x * y
        if y == 0:
            raise EvalErr("division by zero")
        if op == "/":
            if x % y:
                raise EvalErr("not a whole number")
            return x // y
        if op == "//":
            return x // y
        if op == "%":
            return x % y
        raise Unsupported(f"operator {op}")

    def compare(self, op: str, a: Any, b: Any) -> bool:
        if op == "==":
            return self.equal(a, b)
        if op == "!=":
            return not self.equal(a, b)
        if op in ("in", "not in"):
            container = self.plain(b)
            if isinstance(container, (list, tuple)):
                found = any(self.equal(a, c) for c in container)
            elif isinstance(container, str):
                item = self.plain(a)
                found = isinstance(item, str) and item in container
            else:
                raise EvalErr("'in' needs a list")
            return found if op == "in" else not found
        x, y = self.plain(a), self.plain(b)
        try:
            if op == "<":
                return bool(x < y)
            if op == "<=":
                return bool(x <= y)
            if op == ">":
                return bool(x > y)
            return bool(x >= y)
        except TypeError:
            raise EvalErr(f"cannot compare {_kind(x)} and {_kind(y)}") from None

    # -- indexing --------------------------------------------------------------------
    def index(self, target: Any, args: list[Any]) -> Any:
        if isinstance(target, Sel):
            return self.index_sel(target, args)
        if isinstance(target, (Sym, New, EncRef)):
            raise EvalErr(f"{target!r} cannot be indexed")
        return self.index_list(target, args)

    def index_list(self, target: Any, args: list[Any]) -> Any:
        target = self.plain(target)
        if len(args) != 1:
            raise EvalErr("a list takes one index")
        if not isinstance(target, (list, tuple, str)):
            raise EvalErr(f"{_kind(target)} cannot be indexed")
        idx = self.plain(args[0])
        if isinstance(idx, list):
            return [self.index_list(target, [i]) for i in idx]
        i = as_int(idx)
        if not 1 <= i <= len(target):
            raise EvalErr(f"index {i} is outside 1..{len(target)}")
        return target[i - 1]

    def _picks(self, idx: Any, n: int) -> list[int]:
        if idx is WILD:
            return list(range(1, n + 1))
        values = idx if isinstance(idx, list) else [idx]
        out = []
        for v in values:
            i = as_int(self.plain(v))
            if not 1 <= i <= n:
                raise EvalErr(f"index {i} is out of range 1..{n}")
            out.append(i)
        return out

    def index_sel(self, s: Sel, args: list[Any]) -> Sel:
        if s.region is not None:
            assert self.table is not None
            reg = self.table[s.region]
            name = s.region
            if len(args) == 1:
                if reg.rows != 1:
                    raise EvalErr(f"{name} has {reg.rows} rows: write {name}[row, column]")
                idx = self.plain(args[0])
                items = self._picks(idx, reg.items())
                coords = tuple(
                    (name, 1, (i - 1) * reg.unit + k) for i in items for k in range(1, reg.unit + 1)
                )
                return Sel(coords, (1, len(coords)), s.readable)
            if len(args) == 2:
                rows = self._picks(self.plain(args[0]), reg.rows)
                cols = self._picks(self.plain(args[1]), reg.cols)
                coords = tuple((name, r, c) for r in rows for c in cols)
                return Sel(coords, (len(rows), len(cols)), s.readable)
            raise EvalErr(f"{name} takes one or two indices")
        if len(args) != 1:
            raise EvalErr("a selection takes one index")
        idx = self.plain(args[0])
        picks = list(range(1, len(s.coords) + 1)) if idx is WILD else idx
        if not isinstance(picks, list):
            picks = [picks]
        out = []
        for p in picks:
            i = as_int(self.plain(p))
            if not 1 <= i <= len(s.coords):
                raise EvalErr(f"index {i} is outside 1..{len(s.coords)}")
            out.append(s.coords[i - 1])
        return Sel(tuple(out), None, s.readable)

    # -- functions ---------------------------------------------------------------------
    def call(self, fn: str, args: list[Any]) -> Any:
        world = self.world
        if fn in world.proto.encodings:
            (value,) = args
            return New(tuple(world.bound(fn).encode(self.plain(value))))
        if fn in world.families:
            (i,) = args
            return Sym(f"{fn}{self.as_int(i)}")
        if fn in world.context:
            if world.game is None or fn not in world.game.functions:
                raise Unsupported(f"game function {fn}")
            (card,) = args
            faces = self.plain(card)
            if isinstance(faces, list):
                if len(faces) != 1:
                    raise EvalErr(f"{fn}() takes one card")
                faces = faces[0]
            if not isinstance(faces, Sym):
                raise EvalErr(f"{fn}() takes a card, got {faces!r}")
            return world.game.functions[fn](faces.name)
        method = getattr(self, f"f_{fn}", None)
        if method is None:
            raise Unsupported(f"function {fn}")
        return method(*args)

    def _sel(self, v: Any, fn: str) -> Sel:
        if isinstance(v, Sel):
            return v
        raise EvalErr(f"{fn}() needs cards on the table")

    def _shape(self, v: Any, fn: str) -> tuple[int, int]:
        s = self._sel(v, fn)
        if s.shape is None:
            raise EvalErr(f"{fn}(): not a rectangle of cards")
        return s.shape

    def f_len(self, x: Any) -> int:
        if isinstance(x, Sel):
            assert self.table is not None
            return sum(1 for co in x.coords if cell(self.table, co) is not None)
        if isinstance(x, New):
            return len(x.syms)
        return len(self.as_list(x, "len"))

    def f_ncols(self, x: Any) -> int:
        return self._shape(x, "ncols")[1]

    def f_nrows(self, x: Any) -> int:
        return self._shape(x, "nrows")[0]

    def f_columns(self, x: Any) -> list[Sel]:
        s = self._sel(x, "columns")
        rows, cols = self._shape(x, "columns")
        return [
            Sel(tuple(s.coords[r * cols + c] for r in range(rows)), (rows, 1), s.readable)
            for c in range(cols)
        ]

    def f_rows(self, x: Any) -> list[Sel]:
        s = self._sel(x, "rows")
        rows, cols = self._shape(x, "rows")
        return [Sel(tuple(s.coords[r * cols : (r + 1) * cols]), (1, cols), s.readable) for r in range(rows)]

    def f_cards(self, x: Any) -> list[Sel]:
        s = self._sel(x, "cards")
        return [Sel((co,), (1, 1), s.readable) for co in s.coords]

    def f_items(self, x: Any) -> list[Sel]:
        s = self._sel(x, "items")
        if s.region is None:
            raise EvalErr("items() needs a whole region")
        assert self.table is not None
        return [self.index_sel(s, [i]) for i in range(1, self.table[s.region].items() + 1)]

    def f_piles(self, x: Any, size: Any) -> list[Sel]:
        s = self._sel(x, "piles")
        n = self.as_int(size)
        if n < 1 or len(s.coords) % n:
            raise EvalErr("piles(): the cards do not split evenly")
        return [Sel(s.coords[i : i + n], (1, n), s.readable) for i in range(0, len(s.coords), n)]

    def f_faces(self, x: Any) -> list[Sym | None]:
        return self.faces(self._sel(x, "faces"))

    def f_decode(self, enc: Any, x: Any) -> Any:
        if not isinstance(enc, EncRef):
            raise EvalErr("decode() needs an encoding name first")
        faces = self.faces(self._sel(x, "decode"))
        return self.world.bound(enc.name).decode(faces, self.world.glyph)

    def f_new(self, *symbols: Any) -> New:
        syms: list[Any] = []
        for s in symbols:
            s = self.plain(s)
            if isinstance(s, list):
                syms.extend(self.plain(x) for x in s)
            else:
                syms.append(s)
        for s in syms:
            if not isinstance(s, Sym):
                raise EvalErr(f"new() takes card names, got {s!r}")
        return New(tuple(syms))

    def _orientation(self, args: tuple[Any, ...], want_up: bool, fn: str) -> Sel:
        if self.table is None:
            raise EvalErr(f"{fn}() needs the table")
        if args:
            coords = self._sel(args[0], fn).coords
        else:  # the cards on the table: not those in hands
            coords = tuple(co for name, reg in self.table.items() if not reg.hand for co in reg.coords(name))
        picked = []
        for co in coords:
            c = cell(self.table, co)
            if c is not None and c[1] == want_up:
                picked.append(co)
        return Sel(tuple(picked), None, readable=False)

    def f_up(self, *args: Any) -> Sel:
        return self._orientation(args, True, "up")

    def f_down(self, *args: Any) -> Sel:
        return self._orientation(args, False, "down")

    def f_exists(self, name: Any) -> bool:
        n = self.plain(name)
        if not isinstance(n, str):
            raise EvalErr("exists() takes a region name in quotes")
        if self.table is None:
            raise EvalErr("exists() needs the table")
        return n in self.table

    def f_hand(self, owner: Any) -> str:
        return hand_of(self.plain(owner))

    def f_reversed(self, x: Any) -> list[Any]:
        return list(reversed(self.as_list(x, "reversed")))

    def f_sorted(self, x: Any) -> list[Any]:
        items = self.as_list(x, "sorted")
        try:
            return sorted(items, key=lambda v: (isinstance(v, Sym), v.name if isinstance(v, Sym) else v))
        except TypeError:
            raise EvalErr("sorted(): cannot order these values") from None

    def f_sum(self, x: Any) -> int:
        return sum(self.as_int(v) for v in self.as_list(x, "sum"))

    def f_min(self, *xs: Any) -> int:
        items = self.as_list(xs[0], "min") if len(xs) == 1 else list(xs)
        if not items:
            raise EvalErr("min() of an empty list")
        return min(self.as_int(v) for v in items)

    def f_max(self, *xs: Any) -> int:
        items = self.as_list(xs[0], "max") if len(xs) == 1 else list(xs)
        if not items:
            raise EvalErr("max() of an empty list")
        return max(self.as_int(v) for v in items)

    def f_any(self, x: Any) -> bool:
        return any(self.truthy(v) for v in self.as_list(x, "any"))

    def f_all(self, x: Any) -> bool:
        return all(self.truthy(v) for v in self.as_list(x, "all"))

    def f_abs(self, x: Any) -> int:
        return abs(self.as_int(x))

    def f_count(self, xs: Any, value: Any) -> int:
        return sum(1 for v in self.as_list(xs, "count") if self.equal(v, value))

    def f_index(self, xs: Any, value: Any) -> int:
        for i, v in enumerate(self.as_list(xs, "index"), 1):
            if self.equal(v, value):
                return i
        raise EvalErr(f"index(): {value!r} is not in the list")

    def f_family_index(self, card: Any) -> int:
        faces = self.faces(card) if isinstance(card, Sel) else [self.plain(card)]
        if len(faces) != 1 or not isinstance(faces[0], Sym):
            raise EvalErr("family_index() takes one card")
        name = faces[0].name
        digits = len(name) - len(name.rstrip("0123456789"))
        if not digits:
            raise EvalErr(f"{name} is not a numbered card of a family")
        return int(name[-digits:])

    def f_part(self, xs: Any, sizes: Any, i: Any) -> list[Any]:
        items = self.as_list(xs, "part")
        lengths = [self.as_int(n) for n in self.as_list(sizes, "part")]
        k = self.as_int(i)
        if not 1 <= k <= len(lengths) or sum(lengths) != len(items):
            raise EvalErr("part(): bad sizes")
        start = sum(lengths[: k - 1])
        return items[start : start + lengths[k - 1]]

    def f_symbol(self, name: Any) -> Sym:
        n = self.plain(name)
        if not isinstance(n, str):
            raise EvalErr(f"no card named {n!r}")
        return Sym(n)

    def f_without(self, xs: Any, value: Any) -> list[Any]:
        items = self.as_list(xs, "without")
        v = self.plain(value)
        for i, x in enumerate(items):
            if v is not None and self.equal(x, v):
                return items[:i] + items[i + 1 :]
        return items


def freeze(ev: Evaluator, v: Any) -> Any:
    """A public value as it is remembered (lists become tuples; cards are read face up)."""
    v = ev.plain(v)
    if isinstance(v, list):
        return tuple(freeze(ev, x) for x in v)
    if isinstance(v, (int, str, bool, Sym, tuple)) or v is None:
        return v
    raise EvalErr(f"a public value must be a number, card, text or list, not {_kind(v)}")


# --------------------------------------------------------------------------- cards in actions


def cards_of(v: Any, what: str) -> tuple[Any, ...]:
    """("S", coords) for places on the table, ("N", syms) for new cards, ("L", items) for lists."""
    if isinstance(v, Sel):
        return ("S", v.coords)
    if isinstance(v, New):
        return ("N", v.syms)
    if isinstance(v, Sym):
        return ("N", (v,))
    if isinstance(v, list):
        return ("L", tuple(cards_of(x, what) for x in v))
    raise EvalErr(f"{what}: expected cards, got {_kind(v)} {v!r}")


def flats_of(r: tuple[Any, ...], what: str) -> list[Coord]:
    if r[0] == "S":
        return list(r[1])
    if r[0] == "L":
        out: list[Coord] = []
        for x in r[1]:
            out.extend(flats_of(x, what))
        return out
    raise EvalErr(f"{what}: expected cards on the table, not new cards")


def hand_of(owner: Any) -> str:
    """P_i's hand is the region ``hand<i>``; a name names a hand of its own."""
    if isinstance(owner, bool) or not isinstance(owner, (int, str)):
        raise EvalErr(f"a hand is an owner number or a name, not {owner!r}")
    return f"hand{owner}" if isinstance(owner, int) else owner


def _ints(v: Any) -> list[int]:
    return [as_int(i) for i in (v if isinstance(v, list) else [v])]


def items_of(r: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    return list(r[1]) if r[0] == "L" else [r]


# --------------------------------------------------------------------------- runs


@dataclass
class Path:
    """One run so far: the table, public variables, what was seen, its probability."""

    table: Table
    env: dict[str, Any]
    view: tuple[Any, ...]
    prob: Fraction
    out: dict[str, int] = field(default_factory=dict)  # helper cards taken, net, per symbol
    peak: dict[str, int] = field(default_factory=dict)  # most helper cards out at once

    def fork(self) -> Path:
        return Path(
            copy_table(self.table), dict(self.env), self.view, self.prob, dict(self.out), dict(self.peak)
        )

    def take_helpers(self, delta: dict[str, int]) -> None:
        for s, n in delta.items():
            self.out[s] = self.out.get(s, 0) + n
        for s, n in self.out.items():
            if n > self.peak.get(s, 0):
                self.peak[s] = n


class Runner:
    """Runs the steps of one protocol on lists of paths.

    A path that fails is dropped and its failure recorded in ``errors`` (shared with the
    sub-protocols' runners), so that every place where some run fails is known at the end.
    """

    def __init__(
        self,
        library: Any,
        world: World,
        limits: dict[str, int] | None,
        errors: dict[tuple[str, str], str] | None = None,
    ):
        self.library = library
        self.world = world
        self.limits = limits  # the top-level protocol's helpers, None when unlimited
        self.errors: dict[tuple[str, str], str] = errors if errors is not None else {}
        # Hand -> the person who holds it (at the top, from ``players``; in a callee, from the
        # call's ``hands:``/``players:``): what comes into it is seen by that person. ``persons``:
        # a player of this protocol -> the person at the top; ``given``: the hands the call gave
        # a holder (None: no mapping, so none is checked).
        self.watched: dict[str, str] = {}
        self.persons: dict[str, str] = {}
        self.given: set[str] | None = None

    def hands_now(self, path: Path) -> dict[str, int]:
        return {name: reg.cols for name, reg in path.table.items() if reg.hand}

    def seen_in_hands(self, before: dict[str, int], p: Path) -> None:
        """Add to ``p``'s view what came into each watched hand since ``before`` (in order),
        marked with the person who holds it."""
        for name in sorted(self.watched):
            reg = p.table.get(name)
            if reg is not None and reg.hand and reg.cols > before.get(name, 0):
                came = tuple(c[0] for c in reg.grid[0][before.get(name, 0) :] if c is not None)
                p.view = p.view + (("hand", self.watched[name], came),)

    def fail(self, step: st.Step | None, message: str) -> RunError:
        where = format_path(step.path) if step is not None else ""
        name = self.world.proto.name
        number = f"step {step.number}: " if step is not None and step.number else ""
        return RunError(f"{name}: {where}: {number}{message}", frozenset({(name, where)}))

    def record(self, exc: RunError) -> None:
        for loc in exc.locations:
            self.errors.setdefault(loc, str(exc))

    def ev(self, path: Path) -> Evaluator:
        return Evaluator(self.world, path.table, path.env)

    def check_limits(self, step: st.Step, path: Path) -> None:
        if self.limits is None:
            return
        for s, n in path.peak.items():
            if n > self.limits.get(s, 0):
                raise self.fail(step, f"the supply has no more {s}: {n} are needed at once")

    def block(self, steps: list[st.Step], paths: list[Path]) -> list[Path]:
        for step in steps:
            if not paths:
                break
            nxt: list[Path] = []
            for path in paths:
                try:
                    done = self.step(step, path)
                    if step.labels:
                        for q in done:
                            for e, _ in step.labels:
                                flats_of(cards_of(self.ev(q).eval(e.node), "labels"), "labels")
                    nxt.extend(done)
                except EvalErr as exc:
                    self.record(self.fail(step, str(exc)))
                except RunError as exc:  # a helper limit, or a callee that cannot finish
                    self.record(exc)
            paths = nxt
        return paths

    def step(self, step: st.Step, path: Path) -> list[Path]:
        handler = getattr(self, f"h_{type(step).__name__.lower()}", None)
        if handler is None:
            raise Unsupported(f"action {type(step).__name__}")
        result: list[Path] = handler(step, path)
        return result

    # -- placing cards ---------------------------------------------------------------
    def resolve_target(self, target: st.Target, path: Path) -> tuple[Any, ...]:
        if target.name is not None:
            return ("name", target.name)
        assert target.expr is not None
        node = target.expr.node
        ev = self.ev(path)
        if (
            isinstance(node, ex.Index)
            and isinstance(node.obj, ex.Name)
            and len(node.args) == 2
            and node.obj.name in path.table
        ):
            reg = path.table[node.obj.name]
            rv = ev.plain(ev.eval(node.args[0]))
            cv = ev.plain(ev.eval(node.args[1]))
            rows = (
                list(range(1, reg.rows + 1))
                if rv is WILD
                else [as_int(i) for i in (rv if isinstance(rv, list) else [rv])]
            )
            cols = (
                list(range(1, reg.cols + 1))
                if cv is WILD
                else [as_int(i) for i in (cv if isinstance(cv, list) else [cv])]
            )
            return ("grid", node.obj.name, tuple(rows), tuple(cols))
        value = ev.eval(node)
        if isinstance(value, str):
            return ("name", value)
        return ("S", tuple(flats_of(cards_of(value, target.text), target.text)))

    def put(
        self, table: Table, tres: tuple[Any, ...], cards: list[Card], shape: tuple[int, int] | None, what: str
    ) -> None:
        n = len(cards)
        if tres[0] == "name":
            name = tres[1]
            if name in table and table[name].hand:
                table[name].grid[0].extend(cards)  # onto the end of a hand
                return
            if name in table:
                raise EvalErr(f"{what}: there is already a {name!r} on the table")
            rows, cols = shape if shape is not None and shape[0] * shape[1] == n else (1, n)
            grid: list[list[Card | None]] = [list(cards[r * cols : (r + 1) * cols]) for r in range(rows)]
            table[name] = Region(grid, 1)
            return
        if tres[0] == "grid":
            _, name, rows, cols = tres
            reg = table[name]
            if not rows or min(rows) < 1 or any(not 1 <= c <= reg.cols for c in cols):
                raise Unsupported(f"{what}: a place outside the region (the engine does not check this)")
            width = reg.cols
            while reg.rows < max(rows):
                reg.grid.append([None] * width)
            coords = [(name, r, c) for r in rows for c in cols]
        else:
            coords = list(tres[1])
        if len(coords) != n:
            raise EvalErr(f"{what}: {n} cards do not fit {len(coords)} places")
        for co, card in zip(coords, cards):
            if cell(table, co) is not None:
                raise EvalErr(f"{what}: {co} is not empty")
            set_cell(table, co, card)

    def take(self, table: Table, coords: Sequence[Coord]) -> list[Card]:
        out = []
        for co in coords:
            c = cell(table, co)
            if c is None:
                raise EvalErr(f"{co} is empty")
            out.append(c)
            set_cell(table, co, None)
        return out

    def item_cards(self, table: Table, item: tuple[Any, ...], up: bool, delta: dict[str, int]) -> list[Card]:
        if item[0] == "S":
            return self.take(table, item[1])
        if item[0] == "N":
            for s in item[1]:
                delta[s.name] = delta.get(s.name, 0) + 1
            return [(s.name, up) for s in item[1]]
        out: list[Card] = []
        for sub in item[1]:
            out.extend(self.item_cards(table, sub, up, delta))
        return out

    def after_helpers(self, step: st.Step, path: Path, delta: dict[str, int]) -> None:
        if delta:
            path.take_helpers(delta)
            self.check_limits(step, path)

    def h_place(self, step: st.Place, path: Path) -> list[Path]:
        ev = self.ev(path)
        resolved = []
        for target, form, items in step.targets:
            tres = self.resolve_target(target, path)
            resolved.append((tres, form, cards_of(ev.eval(items.node), target.text)))
        p = path.fork()
        delta: dict[str, int] = {}
        for tres, form, ires in resolved:
            what = "place"
            groups = [items_of(ires)] if form == "row" else [items_of(x) for x in items_of(ires)]
            lines = []
            for group in groups:
                line: list[Card] = []
                for item in group:
                    line.extend(self.item_cards(p.table, item, step.up, delta))
                lines.append(line)
            if form == "columns":
                heights = {len(c) for c in lines}
                if len(heights) != 1:
                    raise EvalErr(f"{what}: columns of different heights")
                h = heights.pop()
                grid = [[lines[c][r] for c in range(len(lines))] for r in range(h)]
            else:
                if len({len(r) for r in lines}) != 1:
                    raise EvalErr(f"{what}: rows of different lengths")
                grid = lines
            if not grid or not grid[0]:
                raise EvalErr(f"{what}: nothing to place")
            flat = [c for row in grid for c in row]
            self.put(p.table, tres, flat, (len(grid), len(grid[0])), what)
        normalize(p.table)
        self.seen_in_hands(self.hands_now(path), p)
        self.after_helpers(step, p, delta)
        return [p]

    def h_move(self, step: st.Move, path: Path) -> list[Path]:
        ev = self.ev(path)
        resolved = []
        for target, src in step.pairs:
            value = ev.eval(src.node)
            shape = value.shape if isinstance(value, Sel) else None
            tres = self.resolve_target(target, path)
            resolved.append((tres, flats_of(cards_of(value, target.text), target.text), shape))
        p = path.fork()
        for tres, flats, shape in resolved:
            cards = self.take(p.table, flats)
            self.put(p.table, tres, cards, shape, "move")
        normalize(p.table)
        self.seen_in_hands(self.hands_now(path), p)
        return [p]

    def h_rearrange(self, step: st.Rearrange, path: Path) -> list[Path]:
        assert step.order is not None
        ev = self.ev(path)
        order = ev.plain(ev.eval(step.order.node))
        if not isinstance(order, list):
            raise EvalErr("the new order must be a list of positions")
        order = [as_int(ev.plain(v)) for v in order]
        if step.region not in path.table:
            raise EvalErr(f"there is no {step.region!r} on the table")
        p = path.fork()
        reg = p.table[step.region]
        if step.axis == "cards":
            if reg.rows != 1:
                raise EvalErr(f"{step.region} has {reg.rows} rows")
            n = reg.cols
        else:
            n = reg.cols if step.axis == "columns" else reg.rows
        if sorted(order) != list(range(1, n + 1)):
            raise EvalErr(f"{order} is not a permutation of 1..{n}")
        if step.axis == "rows":
            reg.grid = [list(reg.grid[i - 1]) for i in order]
        else:
            reg.grid = [[row[i - 1] for i in order] for row in reg.grid]
        normalize(p.table, keep=[step.region])
        return [p]

    def h_swap(self, step: st.Swap, path: Path) -> list[Path]:
        assert step.a is not None and step.b is not None
        ev = self.ev(path)
        a = flats_of(cards_of(ev.eval(step.a.node), "swap"), "swap")
        b = flats_of(cards_of(ev.eval(step.b.node), "swap"), "swap")
        if len(a) != len(b):
            raise EvalErr("swap needs two groups of the same size")
        if set(a) & set(b):
            raise EvalErr("swap: the two groups overlap")
        p = path.fork()
        for x, y in zip(a, b):
            cx, cy = cell(p.table, x), cell(p.table, y)
            set_cell(p.table, x, cy)
            set_cell(p.table, y, cx)
        normalize(p.table)  # a region that a swap left without cards disappears, as after a move
        return [p]

    def h_take(self, step: st.Take, path: Path) -> list[Path]:
        assert step.columns is not None
        ev = self.ev(path)
        cols = ev.plain(ev.eval(step.columns.node))
        cols = [as_int(ev.plain(c)) for c in (cols if isinstance(cols, list) else [cols])]
        if step.source not in path.table:
            raise EvalErr(f"there is no {step.source!r} on the table")
        p = path.fork()
        reg = p.table[step.source]
        if any(not 1 <= c <= reg.cols for c in cols) or len(set(cols)) != len(cols):
            raise EvalErr("take: bad columns")
        taken = [[row[c - 1] for c in cols] for row in reg.grid]
        keep = [c for c in range(1, reg.cols + 1) if c not in cols]
        reg.grid = [[row[c - 1] for c in keep] for row in reg.grid]
        if cols:
            if step.into in p.table:
                raise EvalErr(f"there is already a {step.into!r} on the table")
            p.table[step.into] = Region(taken, 1)
        if not keep:
            del p.table[step.source]
        normalize(p.table)
        return [p]

    def h_discard(self, step: st.Discard, path: Path) -> list[Path]:
        assert step.what is not None
        ev = self.ev(path)
        flats = flats_of(cards_of(ev.eval(step.what.node), "discard"), "discard")
        p = path.fork()
        cards = self.take(p.table, flats)
        normalize(p.table)
        delta: dict[str, int] = {}
        for name, _ in cards:
            delta[name] = delta.get(name, 0) - 1
        p.take_helpers(delta)
        if any(not up for _, up in cards):
            p.view = p.view + (("discard", tuple(sorted(name for name, _ in cards))),)
        self.check_limits(step, p)
        return [p]

    def h_turn(self, step: st.Turn, path: Path) -> list[Path]:
        assert step.what is not None
        ev = self.ev(path)
        flats = flats_of(cards_of(ev.eval(step.what.node), "turn"), "turn")
        p = path.fork()
        revealed = []
        for co in flats:
            c = cell(p.table, co)
            if c is None:
                raise EvalErr(f"turn: {co} is empty")
            c = (c[0], not c[1])
            set_cell(p.table, co, c)
            if c[1]:
                revealed.append(c[0])
        if revealed:
            p.view = p.view + (("turn", tuple(revealed)),)
        return [p]

    # -- shuffles ----------------------------------------------------------------------
    def shuffle_piles(self, step: st.Shuffle, path: Path) -> tuple[list[list[Coord]], list[tuple[int, ...]]]:
        """The piles and the list of permutations (a multiset: each entry equally likely)."""
        assert step.piles is not None
        value = self.ev(path).eval(step.piles.node)
        how = step.how
        if how in ("cut", "bisect"):
            flats = flats_of(cards_of(value, how), how)
            if how == "cut":
                piles = [[f] for f in flats]
                k = len(piles)
                perms = [tuple((i + s) % k for i in range(k)) for s in range(k)]
            else:
                if len(flats) % 2:
                    raise EvalErr("a bisection cut needs an even number of cards")
                h = len(flats) // 2
                piles = [flats[:h], flats[h:]]
                perms = [(0, 1), (1, 0)]
        else:
            items = value if isinstance(value, list) else [value]
            piles = [flats_of(cards_of(v, "shuffle"), "shuffle") for v in items]
            k = len(piles)
            if how == "scramble":
                perms = list(itertools.permutations(range(k)))
            elif how == "shift":
                perms = [tuple((i + s) % k for i in range(k)) for s in range(k)]
            else:
                perms = list(step.perms)
                if perms and len(perms[0]) != k:
                    raise EvalErr(f"the permutations act on {len(perms[0])} piles, but there are {k}")
        if not piles:
            raise EvalErr("nothing to shuffle")
        if len({len(p) for p in piles}) != 1:
            raise EvalErr("piles must have the same number of cards")
        every = [f for p in piles for f in p]
        if len(set(every)) != len(every):
            raise EvalErr("the piles overlap")
        for f in every:
            if cell(path.table, f) is None:
                raise EvalErr(f"{f} is empty")
        return piles, perms

    def h_shuffle(self, step: st.Shuffle, path: Path) -> list[Path]:
        piles, perms = self.shuffle_piles(step, path)
        every = [f for p in piles for f in p]
        observe = any(cell(path.table, f)[1] for f in every)  # type: ignore[index]
        out = []
        for perm in perms:
            p = path.fork()
            p.prob = path.prob / len(perms)
            for i, src in enumerate(perm):
                for dst, s in zip(piles[i], piles[src]):
                    set_cell(p.table, dst, cell(path.table, s))
            if observe:
                seen = []
                for f in every:
                    c = cell(p.table, f)
                    assert c is not None
                    seen.append(c[0] if c[1] else "?")
                p.view = p.view + (("shuffle", tuple(seen)),)
            out.append(p)
        return out

    def h_shift(self, step: st.Shift, path: Path) -> list[Path]:
        assert step.piles is not None and step.until is not None
        ev = self.ev(path)
        value = ev.eval(step.piles.node)
        items = value if isinstance(value, list) else [value]
        piles = [flats_of(cards_of(v, "shift"), "shift") for v in items]
        if len({len(p) for p in piles}) != 1:
            raise EvalErr("piles must have the same number of cards")
        k = len(piles)
        for s in range(k):
            p = path.fork()
            for i in range(k):
                src = (i + s) % k
                for dst, f in zip(piles[i], piles[src]):
                    set_cell(p.table, dst, cell(path.table, f))
            if self.ev(p).truthy(self.ev(p).eval(step.until.node)):
                p.view = p.view + (("shift", s),)
                return [p]
        raise EvalErr(f"no shift of the {k} piles makes {step.until.text!r} true")

    # -- decisions -----------------------------------------------------------------------
    def h_if(self, step: st.If, path: Path) -> list[Path]:
        assert step.cond is not None
        ev = self.ev(path)
        result = ev.truthy(ev.eval(step.cond.node))
        p = path.fork()
        p.view = p.view + (("if", result),)
        return self.block(step.then if result else step.other, [p])

    def h_let(self, step: st.Let, path: Path) -> list[Path]:
        ev = self.ev(path)
        values = {name: freeze(ev, ev.eval(e.node)) for name, e in step.values.items()}
        p = path.fork()
        p.env.update(values)
        p.view = p.view + (("let", tuple(values.items())),)
        return [p]

    def h_for(self, step: st.For, path: Path) -> list[Path]:
        assert step.values is not None
        ev = self.ev(path)
        values = ev.plain(ev.eval(step.values.node))
        if not isinstance(values, list):
            raise EvalErr(f"'for' needs a list of values, got {values!r}")
        frozen = tuple(freeze(ev, v) for v in values)
        p = path.fork()
        p.view = p.view + (("for", frozen),)
        current = [p]
        for v in frozen:
            for q in current:
                q.env[step.var] = v
            current = self.block(step.body, current)
        for q in current:
            q.env.pop(step.var, None)
        return current

    def h_do(self, step: st.Do, path: Path) -> list[Path]:
        return self.block(step.body, [path])

    def h_note(self, step: st.Note, path: Path) -> list[Path]:
        return [path]

    def h_return(self, step: st.Return, path: Path) -> list[Path]:
        assert step.cards is not None and step.to is not None
        ev = self.ev(path)
        flats = flats_of(cards_of(ev.eval(step.cards.node), "return"), "return")
        to = ev.plain(ev.eval(step.to.node))
        owners = list(to) if isinstance(to, (list, tuple)) else [to] * len(flats)
        if len(owners) != len(flats):
            raise EvalErr(f"return: {len(flats)} cards but {len(owners)} owners")
        names = [hand_of(ev.plain(o)) for o in owners]
        for name in names:
            if self.given is not None and name not in self.given:
                raise EvalErr(f"{name} is a hand, and the call does not say who holds it")
        p = path.fork()
        cards = self.take(p.table, flats)
        for card, name in zip(cards, names):
            reg = p.table.get(name)
            if reg is None:
                reg = p.table[name] = Region([[]], 1, hand=True)
            elif not reg.hand:
                raise EvalErr(f"return: {name!r} is on the table but is not a hand")
            reg.grid[0].append(card)
        normalize(p.table)
        self.seen_in_hands(self.hands_now(path), p)
        return [p]

    # -- calls ---------------------------------------------------------------------------
    def h_call(self, step: st.Call, path: Path) -> list[Path]:
        callee: Protocol = load(self.library, step.protocol)
        ev = self.ev(path)
        given = {k: as_int(ev.plain(ev.eval(e.node))) for k, e in step.params.items()}
        try:
            sub_params = callee.resolve_params(given)
        except Exception as exc:  # the engine reports a bad parameter as a run error too
            raise EvalErr(str(exc)) from None
        world = World(callee, sub_params, self.world.game if callee.context else None)
        arg_flats: list[list[Coord]] = []
        for name in callee.inputs:
            flats = flats_of(cards_of(ev.eval(step.args[name].node), f"argument {name}"), f"argument {name}")
            count = input_count(world, name)
            need = input_width(world, name) * (1 if count is None else count)
            if len(flats) != need:
                raise EvalErr(f"{callee.name} needs {need} cards for {name}, the call gives {len(flats)}")
            for f in flats:
                if cell(path.table, f) is None:
                    raise EvalErr(f"argument slot {f} is empty")
            arg_flats.append(flats)
        card_outputs = [o for o in callee.outputs.values() if o.cards is not None]
        value_outputs = [o for o in callee.outputs.values() if o.cards is None]
        targets = [self.resolve_target(step.results[o.name], path) for o in card_outputs]
        # The callee's own table: one row per input, holding the argument cards as they are.
        table: Table = {}
        for (name, _), flats in zip(callee.inputs.items(), arg_flats):
            cards = [cell(path.table, f) for f in flats]
            table[name] = Region([list(cards)], max(input_width(world, name), 1))
        sub = Runner(self.library, world, None, self.errors)
        sub.watched, sub.persons, sub.given = self.seats_of(step, callee)
        finals = sub.block(callee.steps, [Path(table, {}, (), Fraction(1))])
        out = []
        hands_before = self.hands_now(path)
        for fin, (q, results, values, shown) in (
            (fin, alt) for fin, alts in ((f, self._collected(sub, f)) for f in finals) for alt in alts
        ):
            p = path.fork()
            p.prob = path.prob * fin.prob * q
            for flats in arg_flats:
                self.take(p.table, flats)
            for tres, (shape, cards) in zip(targets, results):
                if cards:
                    self.put(p.table, tres, cards, shape, f"result of {callee.name}")
            normalize(p.table)
            for o, v in zip(value_outputs, values):
                t = step.results.get(o.name)
                if t is not None and t.name is not None:
                    p.env[t.name] = v
            before = dict(p.out)
            for s, n in fin.out.items():
                p.out[s] = p.out.get(s, 0) + n
            for s, n in fin.peak.items():
                p.peak[s] = max(p.peak.get(s, 0), before.get(s, 0) + n)
            for s, n in p.out.items():
                if n > p.peak.get(s, 0):
                    p.peak[s] = n
            # The callee's whole view, and its public card outputs as everyone saw them shown.
            p.view = p.view + (("call", callee.name, fin.view + shown),)
            self.seen_in_hands(hands_before, p)
            self.check_limits(step, p)
            out.append(p)
        return out

    def seats_of(
        self, step: st.Call, callee: Protocol
    ) -> tuple[dict[str, str], dict[str, str], set[str] | None]:
        """Who holds the callee's hands: hand -> person, player -> person, and the hands the call
        names (None when it names none)."""
        watched: dict[str, str] = {}
        persons: dict[str, str] = {}
        given: set[str] = set()
        for theirs, mine in step.players.items():
            decl = callee.players[theirs]
            given.update(decl.hands)
            if mine in self.persons and not decl.virtual:
                persons[theirs] = self.persons[mine]
                for h in decl.hands:
                    watched[h] = self.persons[mine]
        for theirs, mine in step.hands.items():
            given.add(theirs)
            watched.pop(theirs, None)
            if mine in self.watched:
                watched[theirs] = self.watched[mine]
        return watched, persons, given if (step.hands or step.players) else None

    def _collected(self, sub: Runner, fin: Path) -> list[tuple[Fraction, Any, list[Any], tuple[Any, ...]]]:
        try:
            return sub.collect(fin)
        except RunError as exc:
            self.record(exc)
            return []

    def collect(
        self, fin: Path
    ) -> list[tuple[Fraction, list[tuple[tuple[int, int], list[Card]]], list[Any], tuple[Any, ...]]]:
        """A finished callee run: its card outputs (shape, cards in table order), public values and
        public card outputs as shown to everyone (``("shown", name, faces)``: in table order, or
        by name when mixed first or a hand), as alternatives with their probabilities: a hand's
        cards, and an output shown ``mixed``, come out in every order, each with probability 1/k!
        (its holder, or the table, mixes them face down)."""
        used: set[Coord] = set()
        cards_out = []
        hands: list[bool] = []
        values = []
        shown: list[tuple[Any, ...]] = []
        for o in self.world.proto.outputs.values():
            try:
                if o.cards is not None:
                    groups, many = self.output_selections(o, fin)
                    if many:
                        raise EvalErr(f"output {o.name} is a list of groups; a call cannot place it")
                    coords, shape = groups[0]
                    used |= set(coords)
                    self._hands_whole(o, fin, coords)
                    cards = [c for c in (cell(fin.table, co) for co in coords) if c is not None]
                    if o.decode == "cards" or len(cards) != len(coords):
                        shape = (1, len(cards))
                    cards_out.append((shape, cards))
                    in_hand = any(fin.table[co[0]].hand for co in coords)
                    mixed = in_hand or (o.public and o.show == "mixed")
                    hands.append(mixed)
                    if o.public:
                        names = [c[0] for c in cards]
                        shown.append(("shown", o.name, tuple(sorted(names) if mixed else names)))
                else:
                    assert o.value is not None
                    ev = self.ev(fin)
                    values.append(freeze(ev, ev.eval(o.value.node)))
            except EvalErr as exc:
                raise self.fail(None, f"output {o.name}: {exc}") from None
        left = [
            co
            for name, reg in fin.table.items()
            for co in reg.coords(name)
            if cell(fin.table, co) is not None and co not in used
        ]
        if left:
            raise self.fail(None, f"cards are left on the table that are not outputs: {left}")
        orders = [
            list(itertools.permutations(cards)) if hand else [tuple(cards)]
            for hand, (_, cards) in zip(hands, cards_out)
        ]
        alternatives = []
        for combo in itertools.product(*orders):
            q = Fraction(1)
            for each in orders:
                q /= len(each)
            outs = [(shape, list(cards)) for (shape, _), cards in zip(cards_out, combo)]
            alternatives.append((q, outs, values, tuple(shown)))
        return alternatives

    def _hands_whole(self, o: OutputDecl, fin: Path, coords: Sequence[Coord]) -> None:
        """Only an unordered output (``cards``, ``card``) may read a hand."""
        if o.decode in ("cards", "card"):
            return
        for co in coords:
            if fin.table[co[0]].hand:
                raise EvalErr(f"{co[0]} is a hand: an output reads it whole with encoding: cards")

    # -- outputs -------------------------------------------------------------------------
    def output_selections(
        self, o: OutputDecl, fin: Path
    ) -> tuple[list[tuple[tuple[Coord, ...], tuple[int, int]]], bool]:
        assert o.cards is not None
        target = o.cards
        if target.name is not None:
            return [self._region(fin, target.name)], False
        assert target.expr is not None
        node = target.expr.node
        if (
            isinstance(node, ex.Index)
            and isinstance(node.obj, ex.Name)
            and node.obj.name not in fin.table
            and node.obj.name not in self.world.names
        ):
            return [((), (1, 0))], False
        value = self.ev(fin).eval(node)
        if isinstance(value, list):
            return [self._one(fin, v, o.name) for v in value], True
        return [self._one(fin, value, o.name)], False

    def _region(self, fin: Path, name: str) -> tuple[tuple[Coord, ...], tuple[int, int]]:
        reg = fin.table.get(name)
        if reg is None:
            return (), (1, 0)
        return reg.coords(name), (reg.rows, reg.cols)

    def _one(self, fin: Path, value: Any, what: str) -> tuple[tuple[Coord, ...], tuple[int, int]]:
        if isinstance(value, str):
            return self._region(fin, value)
        shape = value.shape if isinstance(value, Sel) and value.shape else None
        flats = tuple(flats_of(cards_of(value, what), what))
        return flats, shape or (1, len(flats))

    def read_outputs(self, fin: Path) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for o in self.world.proto.outputs.values():
            try:
                if o.cards is None:
                    assert o.value is not None
                    ev = self.ev(fin)
                    values[o.name] = freeze(ev, ev.eval(o.value.node))
                    continue
                groups, many = self.output_selections(o, fin)
                for coords, _ in groups:
                    self._hands_whole(o, fin, coords)
                decoded = tuple(self._decode(o, fin, coords) for coords, _ in groups)
                values[o.name] = decoded if many else decoded[0]
            except DecodeErr as exc:
                values[o.name] = DecodeFailure(str(exc))
            except EvalErr as exc:
                raise self.fail(None, f"output {o.name}: {exc}") from None
        return values

    def _decode(self, o: OutputDecl, fin: Path, coords: tuple[Coord, ...]) -> Any:
        syms = [Sym(c[0]) for c in (cell(fin.table, co) for co in coords) if c is not None]
        if o.decode == "card":
            if len(syms) > 1:
                raise EvalErr(f"expected one card, found {len(syms)}")
            return syms[0] if syms else None
        if o.decode == "cards":
            return tuple(sorted(syms, key=lambda s: s.name))
        if o.decode == "faces":
            return tuple(syms)
        assert o.decode is not None
        return self.world.bound(o.decode).decode(list(syms), self.world.glyph)

    def shown(self, fin: Path) -> tuple[Any, ...]:
        """What the table sees when the public card outputs are shown at the end: their faces in
        the order they lie; a hand, or an output shown ``mixed``, comes out in a uniformly random
        order, which tells only which cards they are (their names, sorted)."""
        seen: list[Any] = []
        for o in self.world.proto.outputs.values():
            if not o.public or o.cards is None:
                continue
            try:
                groups, many = self.output_selections(o, fin)
            except EvalErr as exc:
                raise self.fail(None, f"output {o.name}: {exc}") from None
            for i, (coords, _) in enumerate(groups):
                names = [c[0] for c in (cell(fin.table, co) for co in coords) if c is not None]
                if o.show == "mixed" or any(fin.table[co[0]].hand for co in coords):
                    names.sort()
                seen.append(("shown", f"{o.name}[{i + 1}]" if many else o.name, tuple(names)))
        return tuple(seen)

    def leftovers(self, fin: Path) -> list[Coord]:
        used: set[Coord] = set()
        for o in self.world.proto.outputs.values():
            if o.cards is not None:
                try:
                    groups, _ = self.output_selections(o, fin)
                except EvalErr as exc:
                    raise self.fail(None, f"output {o.name}: {exc}") from None
                for coords, _ in groups:
                    used |= set(coords)
        return [
            co
            for name, reg in fin.table.items()
            for co in reg.coords(name)
            if cell(fin.table, co) is not None and co not in used
        ]


def input_width(world: World, name: str) -> int:
    return world.bound(world.proto.inputs[name].encoding).width


def input_count(world: World, name: str) -> int | None:
    decl = world.proto.inputs[name]
    if decl.count is None:
        return None
    n = as_int(world.static(decl.count))
    if n < 0:
        raise EvalErr(f"count is {n}")
    return n


def input_domain(world: World, name: str) -> list[Any]:
    decl = world.proto.inputs[name]
    if decl.groups is not None:
        if world.game is None:
            raise Unsupported("inputs dealt into hands (groups) without a game")
        sizes = [as_int(v) for v in world.static(decl.groups)]
        return game_deals(world.game.deal, sizes)
    b = world.bound(decl.encoding)
    count = input_count(world, name)
    if count is None:
        return b.domain()
    return [tuple(t) for t in itertools.product(*(b.domain(i) for i in range(1, count + 1)))]


def as_value(v: Any) -> Any:
    """An input value as expressions see it (arrays are lists)."""
    return list(v) if isinstance(v, tuple) else v


# --------------------------------------------------------------------------- verdicts


@dataclass
class Result:
    correct: bool
    secure: bool
    tidy: bool
    assignments: list[dict[str, Any]]  # input values (arrays as tuples, cards as Sym)
    distributions: list[dict[tuple[Any, ...], Fraction]]  # per input: outputs (in order) -> probability
    views: int  # distinct views over every input and run
    runs: int  # paths enumerated, over every input
    wrong: list[str] = field(default_factory=list)
    insecure: str = ""
    insecure_for: str | None = None  # the person who can tell inputs apart (None: the table, or nobody)
    left: list[str] = field(default_factory=list)


@dataclass
class RunRecord:
    prob: Fraction
    view: tuple[Any, ...]
    outputs: dict[str, Any]
    left: list[Coord]


def enumerate_runs(
    library: Any, proto: Protocol, params: dict[str, Any] | None = None, game: Game | None = None
) -> tuple[World, list[dict[str, Any]], list[list[RunRecord]]]:
    """Every admissible input and, for each, every run with its probability, view and outputs."""
    try:
        resolved = proto.resolve_params(params or {})
    except Exception as exc:
        raise RunError(str(exc)) from None
    world = World(proto, resolved, game)
    try:
        limits = None
        if proto.helpers is not None:
            limits = {k: as_int(world.static(e)) for k, e in proto.helpers.items()}
        domains = {name: input_domain(world, name) for name in proto.inputs}
    except EvalErr as exc:
        raise RunError(f"{proto.name}: {exc}") from None
    names = list(domains)
    assignments = []
    for combo in itertools.product(*(domains[n] for n in names)):
        values = dict(zip(names, combo))
        if proto.admissible is not None:
            scope = Evaluator(world, None, {}, {k: as_value(v) for k, v in values.items()})
            try:
                ok = scope.plain(scope.eval(proto.admissible.node))
            except EvalErr as exc:
                raise RunError(f"admissible: {exc}", frozenset({(proto.name, "admissible")})) from None
            if not ok:
                continue
        assignments.append(values)
    if not assignments:
        raise Refused("no input is admissible: nothing to verify")
    unsaid = unseated_call(library, proto)
    if unsaid:
        raise Refused(unsaid)
    runner = Runner(library, world, limits)
    runner.watched = {h: p.name for p in proto.players.values() if not p.virtual for h in p.hands}
    runner.persons = {p.name: p.name for p in proto.players.values() if not p.virtual}
    records: list[list[RunRecord]] = []
    paths: list[list[Path]] = []
    for values in assignments:
        table: Table = {}
        try:
            for name, decl in proto.inputs.items():
                b = world.bound(decl.encoding)
                items = list(values[name]) if decl.count is not None else [values[name]]
                cards: list[Card | None] = [(s.name, False) for v in items for s in b.encode(v)]
                table[name] = Region([cards], max(b.width, 1))
        except EvalErr as exc:
            raise RunError(f"inputs: {exc}", frozenset({(proto.name, "inputs")})) from None
        finals = runner.block(proto.steps, [Path(table, {}, (), Fraction(1))])
        records.append([RunRecord(fin.prob, fin.view, {}, []) for fin in finals])
        paths.append(finals)
    raise_errors(runner.errors)
    # Every run finished: read the outputs (the engine reads them only then, too).
    for recs, finals in zip(records, paths):
        for rec, fin in zip(recs, finals):
            try:
                rec.outputs = runner.read_outputs(fin)
                rec.left = runner.leftovers(fin)
                rec.view = rec.view + runner.shown(fin)
            except RunError as exc:
                runner.record(exc)
    raise_errors(runner.errors)
    return world, assignments, records


def _steps_of(steps: list[st.Step]) -> list[st.Step]:
    out: list[st.Step] = []
    for step in steps:
        out.append(step)
        for block in step.children():
            out += _steps_of(block)
    return out


def load(library: Any, name: str) -> Protocol:
    """A protocol as its file says, whether or not the engine's linker accepts its calls (this
    referee judges who holds a callee's hands itself, see :func:`unseated_call`)."""
    try:
        proto: Protocol = library.protocol(name)
    except Exception:
        proto = library._load(name)
    return proto


def unseated_call(library: Any, proto: Protocol) -> str:
    """A protocol that seats people (``players`` not all virtual) must say, in every call it
    reaches, who holds the hands of a callee that puts cards into hands (``hands:`` or
    ``players:``); this holds for ``proto`` and for every protocol it calls that seats people of
    its own. The first call that does not, in words, or ""."""
    reach, todo = [], [proto]
    while todo:
        p = todo.pop()
        if p.name not in {q.name for q in reach}:
            reach.append(p)
            todo += [load(library, x.protocol) for x in _steps_of(p.steps) if isinstance(x, st.Call)]
    for top in reach:
        if all(p.virtual for p in top.players.values()):
            continue
        todo, seen = [top], set()
        while todo:
            caller = todo.pop()
            if caller.name in seen:
                continue
            seen.add(caller.name)
            for step in _steps_of(caller.steps):
                if isinstance(step, st.Call):
                    callee = load(library, step.protocol)
                    fills = any(isinstance(x, st.Return) for x in _steps_of(callee.steps))
                    if fills and not step.hands and not step.players:
                        return f"{caller.name} calls {callee.name}, which fills hands, without saying who holds them"  # noqa: E501
                    todo.append(callee)
    return ""


def raise_errors(errors: dict[tuple[str, str], str]) -> None:
    if errors:
        first = next(iter(errors.values()))
        more = f" (and {len(errors) - 1} more places)" if len(errors) > 1 else ""
        raise RunError(first + more, frozenset(errors))


def value_key(v: Any) -> Any:
    """A hashable form of a value (lists become tuples)."""
    if isinstance(v, (list, tuple)):
        return tuple(value_key(x) for x in v)
    return v


def enumerate_protocol(
    library: Any, proto: Protocol, params: dict[str, Any] | None = None, game: Game | None = None
) -> Result:
    """Verdicts, output distributions and view count of ``proto``, by brute force (a game
    protocol with the ``game`` giving its cards and functions)."""
    world, assignments, records = enumerate_runs(library, proto, params, game)
    names = list(proto.outputs)
    uniform_names = {
        o.name for o in proto.outputs.values() if o.uniform is not None or o.weighted is not None
    }
    public_outputs = [o for o in proto.outputs.values() if o.public]
    value_outputs = [o for o in public_outputs if o.cards is None]
    shown_outputs = [o for o in public_outputs if o.cards is not None]

    def expected(u: int, o: OutputDecl, outs: dict[str, Any]) -> Any:
        expr = o.equals if o.equals is not None else (o.uniform if o.uniform is not None else o.weighted)
        assert expr is not None
        scope = {k: as_value(v) for k, v in assignments[u].items()}
        for d in expr.names() & uniform_names:
            scope[d] = value_key(
                outs[d]
            )  # a random choice named by 'equals' (loader: no input shares its name)
        ev = Evaluator(world, None, {}, scope)
        try:
            return ev.plain(ev.eval(expr.node))
        except EvalErr as exc:
            where = format_path(o.path)
            raise RunError(f"{where}: {exc}", frozenset({(proto.name, where)})) from None

    wrong: list[str] = []
    left: list[str] = []
    distributions: list[dict[tuple[Any, ...], Fraction]] = []
    all_views: set[tuple[Any, ...]] = set()
    announced: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    mismatch = False
    # p_view[u][(view, shown outputs)] and the public outputs of each such key
    p_view: list[dict[tuple[Any, ...], Fraction]] = []
    public_of: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    runs = 0
    for u, recs in enumerate(records):
        dist: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
        pv: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
        marg: dict[str, dict[Any, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        for rec in recs:
            runs += 1
            outs = rec.outputs
            dist[tuple(value_key(outs[n]) for n in names)] += rec.prob
            all_views.add(rec.view)
            if rec.left and len(left) < 5:
                left.append(", ".join(f"{n}[{r}, {c}]" for n, r, c in rec.left))
            said = tuple(value_key(outs[o.name]) for o in value_outputs)
            if announced.setdefault(seen_by(rec.view, None), said) != said:
                mismatch = True
            key = (rec.view, tuple(value_key(outs[o.name]) for o in shown_outputs))
            public_of[key] = tuple(value_key(outs[o.name]) for o in public_outputs)
            pv[key] += rec.prob
            for o in proto.outputs.values():
                value = outs[o.name]
                if o.uniform is not None or o.weighted is not None:
                    marg[o.name][value_key(value)] += rec.prob
                elif o.equals is not None:
                    exp = expected(u, o, outs)
                    if isinstance(value, DecodeFailure) or not same_output(o, value_key(value), exp):
                        wrong.append(f"input {u}: {o.name} = {value!r}, expected {exp!r}")
        for o in proto.outputs.values():
            if o.uniform is None and o.weighted is None:
                continue
            pool = expected(u, o, {})
            pool = list(pool) if isinstance(pool, (list, tuple)) else [pool]
            # uniform: equal weights; weighted: [value, weight] pairs (here read by this referee alone)
            pairs = [(v, 1) for v in pool] if o.uniform is not None else [(v[0], int(v[1])) for v in pool]
            total = sum(w for _, w in pairs)
            want: dict[Any, Fraction] = defaultdict(Fraction)
            if total:
                for v, w in pairs:
                    if w:
                        want[as_read(o, value_key(v))] += Fraction(w, total)
            else:
                want[value_key([] if o.decode in ("cards", "faces") else None)] = Fraction(1)
            got = {k: v for k, v in marg[o.name].items() if v}
            if got != dict(want):
                wrong.append(f"input {u}: {o.name} has distribution {got}, expected uniform over {pool}")
        assert sum(dist.values()) == 1, f"the runs of input {u} have total probability {sum(dist.values())}"
        distributions.append(dict(dist))
        p_view.append(dict(pv))
    secure, why = _security(proto, assignments, *_as_seen(p_view, public_of, None), lambda u: ())
    insecure_for = None
    for player in [p for p in proto.players.values() if not p.virtual]:
        if not secure:
            break

        def knows(u: int, player: Any = player) -> tuple[Any, ...]:
            ev = Evaluator(world, None, {}, {k: as_value(v) for k, v in assignments[u].items()})
            return tuple(value_key(ev.plain(ev.eval(e.node))) for e in player.knows)

        mine = _as_seen(p_view, public_of, player.name)
        secure, why = _security(proto, assignments, *mine, knows)
        if not secure:
            why, insecure_for = f"{player.name}: {why}", player.name
    if mismatch:
        secure, why = False, "a public output is not determined by the view"
    return Result(
        correct=not wrong,
        secure=secure,
        tidy=not left,
        assignments=assignments,
        distributions=distributions,
        views=len(all_views),
        runs=runs,
        wrong=wrong,
        insecure=why,
        insecure_for=insecure_for,
        left=left,
    )


def same_output(o: OutputDecl, got: Any, want: Any) -> bool:
    """``got`` is what ``equals`` says: an unordered output (``cards``) as a multiset of
    cards (one per group when the output is a list of groups), anything else as written."""
    if o.decode != "cards" or not isinstance(want, (list, tuple)) or not isinstance(got, tuple):
        return equal(got, want)
    groups = bool(got) and all(isinstance(g, tuple) for g in got)
    if not groups:
        return Counter(got) == Counter(want) if all(isinstance(w, Sym) for w in want) else equal(got, want)
    if len(got) != len(want):
        return False
    return all(
        Counter(g) == Counter(w) if isinstance(w, (list, tuple)) else equal(g, w) for g, w in zip(got, want)
    )


def as_read(o: OutputDecl, value: Any) -> Any:
    """A value a random choice may take, as an unordered output reads it (its cards by name)."""
    if o.decode != "cards" or not isinstance(value, tuple):
        return value
    if all(isinstance(v, Sym) for v in value):
        return tuple(sorted(value, key=lambda c: c.name))
    if value and all(isinstance(v, tuple) for v in value):
        return tuple(as_read(o, v) for v in value)
    return value


def seen_by(view: tuple[Any, ...], person: str | None) -> tuple[Any, ...]:
    """A view as ``person`` (None: the table) sees it: what came into hands somebody else holds
    left out, in called protocols' views too."""
    out = []
    for obs in view:
        if obs[0] == "hand" and obs[1] != person:
            continue
        if obs[0] == "call":
            obs = (obs[0], obs[1], seen_by(obs[2], person))
        out.append(obs)
    return tuple(out)


def _as_seen(
    p_view: list[dict[tuple[Any, ...], Fraction]],
    public_of: dict[tuple[Any, ...], tuple[Any, ...]],
    person: str | None,
) -> tuple[list[dict[tuple[Any, ...], Fraction]], dict[tuple[Any, ...], tuple[Any, ...]]]:
    """The per-input view distributions as ``person`` (None: the table) sees them."""
    seen: list[dict[tuple[Any, ...], Fraction]] = []
    public: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for pv in p_view:
        d: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
        for (view, shown), prob in pv.items():
            key = (seen_by(view, person), shown)
            d[key] += prob
            public[key] = public_of[(view, shown)]
        seen.append(dict(d))
    return seen, public


def _security(
    proto: Protocol,
    assignments: list[dict[str, Any]],
    p_view: list[dict[tuple[Any, ...], Fraction]],
    public_of: dict[tuple[Any, ...], tuple[Any, ...]],
    knows: Callable[[int], tuple[Any, ...]],
) -> tuple[bool, str]:
    """P(view | u, o) must not depend on u among inputs with the same public inputs and the same
    things the observer knows (``knows``)."""
    public_inputs = [n for n, d in proto.inputs.items() if d.public]
    classes: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    for u, values in enumerate(assignments):
        classes[(tuple(value_key(values[n]) for n in public_inputs), knows(u))].append(u)
    for members in classes.values():
        by_output: dict[tuple[Any, ...], dict[int, dict[tuple[Any, ...], Fraction]]] = defaultdict(dict)
        for u in members:
            totals: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
            for key, p in p_view[u].items():
                totals[public_of[key]] += p
            for o, total in totals.items():
                by_output[o][u] = {k: p / total for k, p in p_view[u].items() if public_of[k] == o}
        for o, conds in by_output.items():
            (u0, ref), *rest = conds.items()
            for u, dist in rest:
                if dist != ref:
                    return False, f"inputs {u0} and {u} give different views given public outputs {o}"
    return True, ""
