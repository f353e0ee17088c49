"""A protocol bound to its parameters (:class:`Frame`), the names its expressions see in one
state (:class:`StateScope`), and the evaluation of public expressions (:class:`Evaluator`)."""

from __future__ import annotations

import itertools
import math
import sys
import weakref
from collections.abc import Callable
from typing import Any

from ..cards import DEALT, ROTATIONS, SYMBOLS, Symbol, code
from ..encodings import BoundEncoding, Encoding, family_symbol
from ..errors import SimulationError
from ..expressions import Call, EvalError, Expression, Name, Scope, Value, as_int, plain
from ..functions import BUILTINS
from ..kept import exact, exact_env
from ..meters import Meters
from ..spec import HAND_IS_UNORDERED, Params, Protocol
from ..table import Layout, NewCards, Reader, RegionRef, Slots, State

GameFunction = Callable[..., Any]
"""A function a game supplies to the protocols it runs, e.g. ``valid(card)``."""

_MISS = object()
_VARIES = object()  # marks an expression whose value depends on the cards or the game
_VALUE_KINDS = ("values", "onehot")  # encodings that write a value with cards; the others hold a card
_CONSTANTS_LIMIT = 50_000  # entries kept from run to run before the table starts afresh


def _context_fn(proto: Protocol, name: str, fn: GameFunction | None) -> Callable[..., Any]:
    """A function the caller (a game) supplies, e.g. ``valid(card)``."""

    def call(scope: Scope, *args: Any) -> Any:
        if fn is None:
            raise EvalError(
                f"{proto.name} needs the function {name!r} from a game: verify it with «deck» "
                "(a scenario of the spec) or run it through `kitgen play`"
            )
        return fn(*[a if type(a) is Symbol else game_argument(a) for a in args])

    call.direct = fn  # type: ignore[attr-defined]  # the game's function itself, for the compiled path
    return call


def game_argument(value: Any) -> Any:
    """What a game's function (``valid(M[1, j])``) is given for an argument, the same on both
    engines: a selection of one place on the table is the face of its card (``None`` where the
    place is empty), a selection of several places the list of their faces, a list item by item,
    any other value as it is. A card face down or hidden in a sleeve is refused (a
    :class:`~reference_engine.table.LeakError`, as a decision reading it is), before the game is
    asked. A dealt card's face may be read here in a verification by validity classes (the game
    reads it through its function)."""
    if type(value) is Symbol:
        return value
    dealt = DEALT
    dealt.depth += 1  # DEALT.through_game(), inline (no generator made per argument)
    try:
        if isinstance(value, Slots):
            faces = value.faces()
            return faces[0] if len(faces) == 1 else faces
        if isinstance(value, Value):
            value = plain(value)
            if isinstance(value, Value):
                return value
        if isinstance(value, list):
            return [game_argument(v) for v in value]
        return value
    finally:
        dealt.depth -= 1


def _family_fn(family: str) -> Callable[[Scope, Any], Symbol]:
    def make(scope: Scope, i: Any) -> Symbol:
        return family_symbol(family, as_int(i))

    return make


class _Shape:
    """What every frame of one protocol starts from, worked out once per protocol: the
    functions its expressions see but the game's and the encodings' (the built-in ones, then
    a family's per family symbol, in the order a frame adds them: the names a frame sets
    later already in place, so that its table is the same dict, order included), the game's
    functions a frame adds (those no family or encoding of the same name replaces), the
    symbols a frame names (each with its glyph and interned symbol) and the encodings."""

    __slots__ = ("contexts", "encodings", "functions", "proto", "symbols")

    def __init__(self, proto: Protocol):
        self.proto = proto
        functions: dict[str, Any] = dict(BUILTINS)
        for cname in proto.context:
            functions[cname] = None  # the game's function, set by each frame
        symbols = []
        for s in proto.symbols.values():
            if s.family:
                functions[s.name] = _family_fn(s.name)
            else:
                symbols.append((s.name, s.glyph, SYMBOLS.intern(s.name, s.glyph)))
        self.encodings = tuple(proto.encodings.values())
        for enc in self.encodings:
            functions[enc.name] = None  # the frame's encoder
        replaced = {s.name for s in proto.symbols.values() if s.family} | set(proto.encodings)
        self.contexts = tuple(c for c in proto.context if c not in replaced)
        self.functions = functions
        self.symbols = tuple(symbols)


_SHAPES: dict[int, _Shape] = {}
_SHAPES_KEPT = 64  # protocols whose frame shape is kept before the table starts afresh


def _shape(proto: Protocol) -> _Shape:
    hit = _SHAPES.get(id(proto))
    if hit is None or hit.proto is not proto:
        if len(_SHAPES) >= _SHAPES_KEPT:
            _SHAPES.clear()
        hit = _SHAPES[id(proto)] = _Shape(proto)
    return hit


_CALLS: dict[tuple[int, str, int], tuple[Protocol, GameFunction | None, Callable[..., Any]]] = {}
_CALLS_KEPT = 1024  # game functions' wrappers kept (a game's validity rules: one per public state)


def _context_call(proto: Protocol, name: str, fn: GameFunction | None) -> Callable[..., Any]:
    """:func:`_context_fn`'s wrapper of ``fn``, kept by protocol, name and function (the same
    function: it holds nothing else): a game gives one of a few dozen validity rules a turn."""
    key = (id(proto), name, id(fn))
    hit = _CALLS.get(key)
    if hit is not None and hit[0] is proto and hit[1] is fn:
        return hit[2]
    call = _context_fn(proto, name, fn)
    if len(_CALLS) >= _CALLS_KEPT:
        _CALLS.clear()
    _CALLS[key] = (proto, fn, call)
    return call


_ENCODED: dict[tuple[int, tuple[type, Any]], tuple[BoundEncoding, NewCards]] = {}
ENCODED_KEPT = 4096
"""New cards an encoder made, kept by binding (its id, the binding kept with them: the id is
never another's while the entry lives) and value (its type too: ``True`` is not ``1``), across
frames: a card-level game makes a frame at every turn, and the frames of one protocol share the
encodings bound without a parameter (:meth:`Frame.bindings`), so each turn's ``arrow(1)`` is the
same value of the same binding. The cards are a function of the two (``BoundEncoding.encode``
interns the same faces, which the symbol table never drops), never changed once made (the
frame's own ``made`` gives one object again within a frame already); an encoder still checks
that its frame is alive first, and still asks the frame for the binding, as before. Bounded: it
starts afresh beyond this many."""


class Frame:
    """A protocol bound to its parameters: the names and functions its expressions see."""

    def __init__(
        self,
        proto: Protocol,
        params: Params,
        context: dict[str, GameFunction] | None = None,
        bound: dict[str, BoundEncoding] | None = None,
        key: tuple[str, tuple[tuple[str, Any], ...]] | None = None,
    ):
        """``key``: this frame's :attr:`key` where the caller knows it already (it is
        ``(proto.name, tuple(sorted(params.items())))``; checked under ``evaluate.CHECKED``)."""
        self.proto = proto
        self.params = params
        if key is None or _checked():
            made = (proto.name, tuple(sorted(params.items())))
            if key is not None and key != made:
                raise AssertionError(f"frame key {key!r} is not {made!r}")
            key = made
        self.key = key
        shape = _shape(proto)
        names: dict[str, Any] = dict(params)
        functions = dict(shape.functions)
        given = context or {}
        for cname in shape.contexts:
            functions[cname] = _context_call(proto, cname, given.get(cname))
        for sname, glyph, sym in shape.symbols:
            # SYMBOLS.intern(sname, glyph), which returns the same symbol and changes nothing
            # where its glyph is already this one (or none is given): the symbol table drops none.
            names[sname] = sym if not glyph or sym.glyph == glyph else SYMBOLS.intern(sname, glyph)
        for enc in shape.encodings:
            names[enc.name] = enc
            functions[enc.name] = self._encoder(enc)
        self.globals = Scope(names, functions=functions)
        # ``bound``: encodings of this protocol bound by another frame of it (other parameters),
        # those bound without reading a parameter (see :meth:`bindings`): the same here.
        self._bound: dict[str, BoundEncoding] = {
            n: b for n, b in (bound or {}).items() if proto.encodings.get(n) is b.encoding and _free(b)
        }
        self._encoded: dict[tuple[str, Any], tuple[int, ...]] = {}  # (encoding, value) -> codes
        self.helpers: dict[int, int] | None = None
        if proto.helpers is not None:
            self.helpers = {}
            for k, e in proto.helpers.items():
                n = as_int(self._static(e, ("helpers", k)))
                if n < 0:  # a count from the parameters (the loader refuses a negative number)
                    message = f"a count of spare cards is at least 0, got {n} ({e.text} with {dict(params)})"
                    raise SimulationError("", proto.src.problem(("helpers", k), message))
                self.helpers[ROTATIONS.physical(SYMBOLS.intern(k).id)] = n

    def _static(self, expr: Expression, path: tuple[Any, ...]) -> Any:
        try:
            return expr(self.globals)
        except EvalError as exc:
            raise SimulationError("", self.proto.src.problem(path, str(exc))) from None

    def _encoder(self, enc: Encoding) -> Callable[[Scope, Any], NewCards]:
        made: dict[Any, NewCards] = {}
        # The frame, weakly: its scope's functions hold this function, so a strong reference
        # would make every frame a cycle that only the cyclic garbage collector frees (a
        # card-level game makes frames at every turn). It is called only while its frame is in use.
        owner = weakref.ref(self)

        def encode(scope: Scope, value: Any) -> NewCards:
            v = plain(value)
            key = (type(v), v) if isinstance(v, (int, str)) else None
            if key is not None and key in made:
                return made[key]  # new cards are never changed once made
            frame = owner()
            if frame is None:
                raise EvalError(f"encoding {enc.name}: used after its protocol's run ended")
            b = frame.bound(enc.name)
            if key is not None:
                shared = (id(b), key)
                hit = _ENCODED.get(shared)
                if hit is not None and hit[0] is b:  # the very binding: the same cards
                    if _checked() and hit[1] != NewCards(b.encode(v), label=str(v)):
                        raise AssertionError(f"encoding {enc.name}: kept cards for {v!r} are not made again")
                    made[key] = hit[1]
                    return hit[1]
            cards = NewCards(b.encode(v), label=str(v))
            if key is not None:
                made[key] = cards
                if len(_ENCODED) >= ENCODED_KEPT:
                    _ENCODED.clear()
                _ENCODED[shared] = (b, cards)
            return cards

        return encode

    def bound(self, name: str) -> BoundEncoding:
        b = self._bound.get(name)
        if b is None:
            b = self.proto.encodings[name].bind(self.globals)
            self._bound[name] = b
        return b

    def bindings(self) -> dict[str, BoundEncoding]:
        """The encodings this frame has bound, by name (the frame's own table: those it binds
        later show there too). A frame of the same protocol with other parameters given it as
        ``bound`` takes those that read no parameter."""
        return self._bound

    # -- inputs -----------------------------------------------------------------
    def input_count(self, name: str) -> int | None:
        decl = self.proto.inputs[name]
        if decl.count is None:
            return None
        n = _sum_of_param(decl.count, self.globals, self.params)
        if n is None or _checked():
            slow = as_int(self._static(decl.count, decl.path + ("count",)))
            if n is not None and (n != slow or type(n) is not type(slow)):
                raise AssertionError(f"{decl.count.text!r}: summed {n!r}, the interpreter gives {slow!r}")
            n = slow
        if n < 0:
            raise SimulationError("", self.proto.src.problem(decl.path + ("count",), f"count is {n}"))
        return n

    def input_size(self, name: str) -> int:
        width = self.bound(self.proto.inputs[name].encoding).width
        count = self.input_count(name)
        return width * (1 if count is None else count)

    def domains(self) -> dict[str, list[Any]]:
        """Every possible value of each input (arrays: every tuple of element values)."""
        return {name: self.domain(name) for name in self.proto.inputs}

    def domain_size(self, name: str) -> int:
        """How many values ``name`` can take (without listing them: an array's are many)."""
        decl = self.proto.inputs[name]
        b = self.bound(decl.encoding)
        count = self.input_count(name)
        if count is None:
            return len(b.domain())
        return math.prod(len(b.domain(i)) for i in range(1, count + 1))

    def domain(self, name: str) -> list[Any]:
        decl = self.proto.inputs[name]
        b = self.bound(decl.encoding)
        count = self.input_count(name)
        if count is None:
            return b.domain()
        return [list(t) for t in itertools.product(*(b.domain(i) for i in range(1, count + 1)))]

    def groups(self, name: str) -> list[int] | None:
        """The hand sizes an array input is split into (``groups: sizes``), if any."""
        decl = self.proto.inputs[name]
        if decl.groups is None:
            return None
        value = plain(self._static(decl.groups, decl.path + ("groups",)))
        if not isinstance(value, (list, tuple)):
            raise SimulationError(
                "", self.proto.src.problem(decl.path + ("groups",), "groups must be a list")
            )
        return [as_int(v) for v in value]

    def encoded(self, encoding: str, value: Any) -> tuple[int, ...]:
        """The face-down cards of ``value`` in ``encoding`` (memoized)."""
        try:
            key: tuple[str, Any] | None = (encoding, value)
            codes = self._encoded.get(key)  # type: ignore[arg-type]
        except TypeError:  # an unhashable value: encode it every time
            key, codes = None, None
        if codes is None:
            codes = tuple(code(s) for s in self.bound(encoding).encode(value))
            if key is not None:
                self._encoded[key] = codes
        return codes

    def initial_state(self, values: dict[str, Any]) -> State:
        shapes = []
        cells: list[int] = []
        for name, decl in self.proto.inputs.items():
            b = self.bound(decl.encoding)
            count = self.input_count(name)
            items = values[name] if count is not None else [values[name]]
            if count is not None and len(items) != count:
                raise EvalError(f"input {name} needs {count} values, got {len(items)}")
            if b.encoding.kind in _VALUE_KINDS:
                for v in items:
                    cells.extend(self.encoded(decl.encoding, v))
            else:  # a card encodes as itself, face down (BoundEncoding.encode), one card per value
                codes = [v.id << 1 for v in items if type(v) is Symbol]  # code(v)
                if len(codes) == len(items):  # cards only (a game's table): all at once
                    cells.extend(codes)
                else:
                    for v in items:
                        if type(v) is Symbol:
                            cells.append(v.id << 1)  # code(v)
                        else:
                            cells.extend(self.encoded(decl.encoding, v))
            shapes.append(
                (name, 1, b.width * len(items), max(b.width, 1), None, self.proto.sleeves.get(name))
            )
        layout = Layout.make(shapes)
        return State(layout, tuple(cells), (), (), Meters(), 0)

    def state_from_codes(self, codes: tuple[tuple[int, ...], ...]) -> State:
        shapes = []
        cells: list[int] = []
        for (name, decl), cs in zip(self.proto.inputs.items(), codes):
            width = self.bound(decl.encoding).width
            shapes.append((name, 1, len(cs), max(width, 1), None, self.proto.sleeves.get(name)))
            cells.extend(cs)
        return State(Layout.make(shapes), tuple(cells), (), (), Meters(), 0)


def _checked() -> bool:
    """Whether the compiled path's checks are on (compiled/evaluate.py's ``CHECKED``: every fast
    result compared with the interpreter's); read without importing the compiled package here."""
    evaluate = sys.modules.get("reference_engine.compiled.evaluate")
    return bool(getattr(evaluate, "CHECKED", False))


def _free(b: BoundEncoding) -> bool:
    """Whether binding ``b``'s encoding read no parameter (Encoding.bind: onehot alone does)."""
    return b.encoding.kind != "onehot"


def _sum_of_param(expr: Expression, scope: Scope, params: Params) -> int | None:
    """``expr``'s value on the frame's names where it is ``sum(p)``, ``p`` a parameter holding a
    list of whole numbers and ``sum`` the built-in function (what the interpreter gives, without
    it: a card selection's ``count: sum(sizes)`` at every turn of a game), else None (evaluate
    it)."""
    node = expr.node
    if not (type(node) is Call and node.func == "sum" and len(node.args) == 1 and type(node.args[0]) is Name):
        return None
    p = node.args[0].name
    value = scope.names.get(p)
    if value is None or value is not params.get(p) or type(value) is not tuple:
        return None  # a symbol or an encoding of that name, or not a list
    if scope.functions.get("sum") is not BUILTINS["sum"] or not all(type(v) is int for v in value):
        return None
    return sum(value)


class StateScope(Scope):
    """Names as seen from one state: loop variables, regions on the table, then globals."""

    __slots__ = ("_env", "_refs", "reader", "state")

    def __init__(self, frame: Frame, state: State, public: bool, record: bool = False):
        Scope.__init__(self, {}, frame.globals, frame.globals.functions)
        self.state = state
        self.reader = Reader(state, public, record)
        self._env = dict(state.env)
        self._refs: dict[str, RegionRef] = {}

    def lookup(self, name: str) -> Any:
        if name in self._env:
            v = self._env[name]
            return list(v) if isinstance(v, tuple) else v
        ref = self._refs.get(name)
        if ref is not None:
            return ref
        reg = self.state.layout.by_name.get(name)
        if reg is not None:
            if reg.hand is not None:
                raise EvalError(HAND_IS_UNORDERED.format(name=name))
            ref = self._refs[name] = RegionRef(self.state.layout, reg, self.reader)
            return ref
        if name == "__state__":
            return self.state
        if name == "__reader__":
            return self.reader
        assert self.parent is not None
        return self.parent.lookup(name)


def _same(value: Any) -> Any:
    return value


def deep_plain(value: Any) -> Any:
    """``plain`` all the way down: cards on the table become their faces, lists stay lists."""
    value = plain(value)
    if isinstance(value, list):
        return [deep_plain(v) for v in value]
    return value


def detach(value: Any) -> Any:
    """A copy of an evaluation result that no longer refers to the state it came from."""
    if isinstance(value, RegionRef):
        return RegionRef(value.layout, value.region, None)
    if isinstance(value, Slots):
        return Slots(value.layout, value.flat, None, value.label, value.shape)
    if isinstance(value, list):
        return [detach(v) for v in value]
    return value


class Evaluator:
    """Evaluates public expressions, reusing results for states that look the same.

    A result is reused for another state with the same layout and variables when the
    table shows the same at every cell the first evaluation looked at.
    """

    def __init__(self, frame: Frame, single: bool = False, constants: dict[Any, Any] | None = None):
        self.frame = frame
        self.single = single  # sample mode: one state at a time, no reuse of table reads
        self.touched = False  # set when a result depended on the cards on the table
        self.memo: dict[
            tuple[int, Layout, Any, bool],  # the variables as kept.exact keys them
            list[tuple[tuple[int, ...], dict[tuple[int, ...], Any]]],
        ] = {}
        # Sample mode, kept from run to run by a game: results that read no card and call no
        # game function (they depend only on the layout, the variables and the parameters).
        self.constants = constants
        self._env: Any = None  # the last state's variables, and their key (kept.exact)
        self._env_key: Any = None

    def value(self, expr: Expression, state: State) -> Any:
        """A public expression's plain value: selected face-up cards read as their faces (for a
        decision, a remembered value or an announced output), never a selection of places."""
        return self.public(expr, state, plain_value=True)

    def public(self, expr: Expression, state: State, plain_value: bool = False) -> Any:
        if self.single:
            return self._single(expr, state, plain_value)
        env = state.env
        if env is not self._env:  # by the variables' types too (kept.exact): 1 is not true
            self._env, self._env_key = env, exact_env(env)
        key = (id(expr), state.layout, self._env_key, plain_value)
        buckets = self.memo.get(key)
        cells = state.cells
        if buckets is not None:
            for flats, table in buckets:
                vis = tuple([c if (c := cells[f]) < 0 or c & 1 else -2 for f in flats])  # visible(), inline
                hit = table.get(vis, _MISS)
                if hit is not _MISS:
                    if flats:
                        self.touched = True
                    return hit
        value, flats, vis = self._recorded(expr, state, plain_value)
        self._remember(key, flats, vis, value)
        return value

    def _recorded(
        self, expr: Expression, state: State, plain_value: bool
    ) -> tuple[Any, tuple[int, ...], tuple[int, ...]]:
        """``expr``'s public value on ``state``, with the slots it read and what was visible in
        them (what its memo entry is filed under)."""
        scope = StateScope(self.frame, state, public=True, record=True)
        value = deep_plain(expr(scope)) if plain_value else detach(expr(scope))
        reads = scope.reader.reads or []
        flats = tuple(f for f, _ in reads)
        if flats:
            self.touched = True
        return value, flats, tuple(v for _, v in reads)

    def _remember(self, key: Any, flats: tuple[int, ...], vis: tuple[int, ...], entry: Any) -> None:
        """File ``entry`` in the memo under ``key``, the slots read and what they showed."""
        buckets = self.memo.setdefault(key, [])
        for bf, table in buckets:
            if bf == flats:
                table[vis] = entry
                return
        buckets.append((flats, {vis: entry}))

    def _single(self, expr: Expression, state: State, plain_value: bool) -> Any:
        finish = deep_plain if plain_value else _same
        consts = self.constants
        if consts is None:
            return finish(expr(StateScope(self.frame, state, public=True)))
        ident = id(expr)
        if consts.get(ident) is _VARIES:  # it read cards or called the game once: never reused
            return finish(expr(StateScope(self.frame, state, public=True)))
        # The variables by their types too (kept.exact): 1 and true are equal keys, not the same
        # value. Worked out once per variables' tuple (a step's expressions share it).
        env = state.env
        if env is not self._env:
            self._env, self._env_key = env, exact(env)
        key = (ident, self.frame.key, state.layout, self._env_key, plain_value)
        hit = consts.get(key, _MISS)
        if hit is not _MISS:
            return hit
        if len(consts) > _CONSTANTS_LIMIT:
            consts.clear()
        if expr.calls() & self.frame.proto.context.keys():
            consts[ident] = _VARIES
            return finish(expr(StateScope(self.frame, state, public=True)))
        scope = StateScope(self.frame, state, public=True, record=True)
        value = deep_plain(expr(scope)) if plain_value else detach(expr(scope))
        if scope.reader.reads:
            consts[ident] = _VARIES
        else:
            consts[key] = value
        return value

    def truth(self, expr: Expression, state: State) -> Any:
        return expr(StateScope(self.frame, state, public=False))
