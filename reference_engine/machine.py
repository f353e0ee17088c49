"""The card machine: runs a protocol spec on a simulated table.

One interpreter, two modes:

* ``sample``: one run. Each shuffle draws its permutation from a seeded RNG and every
  action is recorded as a trace :class:`~reference_engine.trace.Event`.
* ``exact``: every run at once. The *frontier* maps each distinct machine state to its
  probability under each secret input (``{input index: Fraction}``); identical states
  are merged after every action, and before a shuffle whose permutations form a group
  each table is replaced by a fixed representative of its orbit (they give the same
  distribution afterwards). Sub-protocol calls are run once per distinct argument
  cards and cached; when a callee's view is provably independent of everything but
  its public outputs, that view is factored out of the caller's (see ``_factor``).

Layout-changing actions are compiled once per layout into gather plans
(:class:`~reference_engine.table.Draft`) and then applied to every state.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from . import steps as st
from .cards import EMPTY, SYMBOLS, Card, Symbol, code, is_up, symbol_of
from .encodings import BoundEncoding, DecodeError, Encoding, family_symbol
from .errors import Problem, SimulationError
from .expressions import EvalError, Expression, Index, Name, Scope, as_int, plain, truthy
from .functions import BUILTINS, hand_name
from .shuffles import Shuffle, pile_gather
from .spec import HAND_IS_UNORDERED, OutputDecl, Params, Protocol
from .table import (
    Draft,
    Layout,
    Meters,
    NewCards,
    Reader,
    RegionRef,
    Slots,
    State,
    gather,
    out_add,
    visible,
)
from .trace import Event, Snapshot

Vec = tuple[int, dict[int, int]]
"""Probabilities of a state per secret input: (denominator, {input index: numerator})."""
Frontier = dict[State, Vec]
ONE: Vec = (1, {0: 1})
K = TypeVar("K")
_BIG = 1 << 96


class Refactor(Exception):
    """A callee's view turned out not to factor; rerun without factoring it."""

    def __init__(self, protocol: str):
        self.protocol = protocol
        super().__init__(protocol)


# --------------------------------------------------------------------------- views


class ViewTable:
    """Interns views: a view is its parent view plus one observation.

    ``weight(v)`` is how many distinct views the players could tell apart that ``v`` stands
    for: 1, unless ``v`` descends from views merged by :func:`forget` (a merged view stands
    for all its members, and so does everything that follows it).
    """

    def __init__(self) -> None:
        self._index: dict[tuple[int, Any], int] = {}
        self.entries: list[tuple[int, Any]] = [(-1, None)]
        self.weights: list[int] = [1]

    def extend(self, view: int, obs: Any) -> int:
        key = (view, obs)
        vid = self._index.get(key)
        if vid is None:
            vid = len(self.entries)
            self.entries.append(key)
            self.weights.append(self.weights[view] if view >= 0 else 1)
            self._index[key] = vid
        return vid

    def merged(self, members: list[int], obs: Any) -> int:
        """A fresh view standing for all ``members`` (see :func:`forget`)."""
        vid = self.extend(0, obs)
        self.weights[vid] = sum(self.weights[v] for v in members)
        return vid

    def weight(self, view: int) -> int:
        return self.weights[view]

    def observations(self, view: int) -> list[Any]:
        out = []
        while view > 0:
            parent, obs = self.entries[view]
            out.append(obs)
            view = parent
        return out[::-1]

    def expanded(self, view: int) -> list[Any]:
        """The observations, with each inlined call's own view expanded into a list."""
        out: list[Any] = []
        for obs in self.observations(view):
            if obs[0] == "call" and isinstance(obs[2], int):
                out.append(("call", obs[1], self.expanded(obs[2])))
            else:
                out.append(obs)
        return out

    def __len__(self) -> int:
        return len(self.entries)


# --------------------------------------------------------------------------- frames


def _context_fn(proto: Protocol, name: str, fn: Any) -> Any:
    """A function the caller (a game) supplies, e.g. ``valid(card)``."""

    def call(scope: Scope, *args: Any) -> Any:
        if fn is None:
            raise EvalError(
                f"{proto.name} needs the function {name!r} from a game: verify it with --deck "
                "(a scenario of the spec) or run it through `kitgen play`"
            )
        return fn(*args)

    return call


def _family_fn(family: str) -> Any:
    def make(scope: Scope, i: Any) -> Symbol:
        return family_symbol(family, as_int(i))

    return make


class Frame:
    """A protocol bound to its parameters: the names and functions its expressions see."""

    def __init__(self, proto: Protocol, params: dict[str, Any], context: dict[str, Any] | None = None):
        self.proto = proto
        self.params = params
        self.key = (proto.name, tuple(sorted(params.items())))
        names: dict[str, Any] = dict(params)
        functions = dict(BUILTINS)
        for cname in proto.context:
            functions[cname] = _context_fn(proto, cname, (context or {}).get(cname))
        for s in proto.symbols.values():
            if s.family:
                functions[s.name] = _family_fn(s.name)
            else:
                names[s.name] = SYMBOLS.intern(s.name, s.glyph)
        for enc in proto.encodings.values():
            names[enc.name] = enc
            functions[enc.name] = self._encoder(enc)
        self.globals = Scope(names, functions=functions)
        self._bound: dict[str, BoundEncoding] = {}
        self.helpers: dict[int, int] | None = None
        if proto.helpers is not None:
            self.helpers = {
                SYMBOLS.intern(k).id: as_int(self._static(e, ("helpers", k)))
                for k, e in proto.helpers.items()
            }

    def _static(self, expr: Expression, path: tuple[Any, ...]) -> Any:
        try:
            return expr(self.globals)
        except EvalError as exc:
            raise SimulationError("", self.proto.src.problem(path, str(exc))) from None

    def _encoder(self, enc: Encoding) -> Any:
        made: dict[Any, NewCards] = {}

        def encode(scope: Scope, value: Any) -> NewCards:
            v = plain(value)
            key = (type(v), v) if isinstance(v, (int, str)) else None
            if key is not None and key in made:
                return made[key]  # new cards are never changed once made
            cards = NewCards(self.bound(enc.name).encode(v), label=str(v))
            if key is not None:
                made[key] = cards
            return cards

        return encode

    def bound(self, name: str) -> BoundEncoding:
        b = self._bound.get(name)
        if b is None:
            b = self.proto.encodings[name].bind(self.globals)
            self._bound[name] = b
        return b

    # -- inputs -----------------------------------------------------------------
    def input_count(self, name: str) -> int | None:
        decl = self.proto.inputs[name]
        if decl.count is None:
            return None
        n = as_int(self._static(decl.count, decl.path + ("count",)))
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

    def initial_state(self, values: dict[str, Any]) -> State:
        shapes = []
        cells: list[int] = []
        for name, decl in self.proto.inputs.items():
            b = self.bound(decl.encoding)
            count = self.input_count(name)
            items = values[name] if count is not None else [values[name]]
            if count is not None and len(items) != count:
                raise EvalError(f"input {name} needs {count} values, got {len(items)}")
            for v in items:
                cells.extend(code(s) for s in b.encode(v))
            shapes.append((name, 1, b.width * len(items), max(b.width, 1), None))
        layout = Layout.make(shapes)
        return State(layout, tuple(cells), (), (), Meters(), 0)

    def state_from_codes(self, codes: tuple[tuple[int, ...], ...]) -> State:
        shapes = []
        cells: list[int] = []
        for (name, decl), cs in zip(self.proto.inputs.items(), codes):
            width = self.bound(decl.encoding).width
            shapes.append((name, 1, len(cs), max(width, 1), None))
            cells.extend(cs)
        return State(Layout.make(shapes), tuple(cells), (), (), Meters(), 0)


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
            tuple[int, Layout, tuple[Any, ...], bool],
            list[tuple[tuple[int, ...], dict[tuple[int, ...], Any]]],
        ] = {}
        # Sample mode, kept from run to run by a game: results that read no card and call no
        # game function (they depend only on the layout, the variables and the parameters).
        self.constants = constants

    def value(self, expr: Expression, state: State) -> Any:
        """A public expression's plain value: selected face-up cards read as their faces (for a
        decision, a remembered value or an announced output), never a selection of places."""
        return self.public(expr, state, plain_value=True)

    def public(self, expr: Expression, state: State, plain_value: bool = False) -> Any:
        if self.single:
            return self._single(expr, state, plain_value)
        key = (id(expr), state.layout, state.env, plain_value)
        buckets = self.memo.get(key)
        cells = state.cells
        if buckets is not None:
            for flats, table in buckets:
                vis = tuple([visible(cells[f]) for f in flats])
                hit = table.get(vis, _MISS)
                if hit is not _MISS:
                    if flats:
                        self.touched = True
                    return hit
        scope = StateScope(self.frame, state, public=True, record=True)
        value = deep_plain(expr(scope)) if plain_value else detach(expr(scope))
        reads = scope.reader.reads or []
        flats = tuple(f for f, _ in reads)
        vis = tuple(v for _, v in reads)
        if flats:
            self.touched = True
        if buckets is None:
            buckets = self.memo[key] = []
        for bf, table in buckets:
            if bf == flats:
                table[vis] = value
                break
        else:
            buckets.append((flats, {vis: value}))
        return value

    def _single(self, expr: Expression, state: State, plain_value: bool) -> Any:
        finish = deep_plain if plain_value else _same
        consts = self.constants
        if consts is None:
            return finish(expr(StateScope(self.frame, state, public=True)))
        ident = id(expr)
        if consts.get(ident) is _VARIES:  # it read cards or called the game once: never reused
            return finish(expr(StateScope(self.frame, state, public=True)))
        key = (ident, self.frame.key, state.layout, state.env, plain_value)
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


_MISS = object()
_VARIES = object()  # marks an expression whose value depends on the cards or the game
_CONSTANTS_LIMIT = 50_000  # entries kept from run to run before the table starts afresh


# --------------------------------------------------------------------------- plans


def _add(out: dict[K, Vec], state: K, vec: Vec, owned: set[int] | None = None) -> None:
    """Add ``vec`` to the probabilities of ``state`` in ``out``, merging identical states.

    Numerator dicts may be shared between states; a merge copies one unless its id is in
    ``owned`` (dicts this frontier created itself), which it then updates in place.
    """
    old = out.get(state)
    if old is None:
        out[state] = vec
        return
    d1, n1 = old
    d2, n2 = vec
    if d1 != d2:
        lcm = d1 * d2 // math.gcd(d1, d2)
        a, b = lcm // d1, lcm // d2
        merged = {k: v * a for k, v in n1.items()} if a != 1 else dict(n1)
        for k, v in n2.items():
            merged[k] = merged.get(k, 0) + v * b
        d1 = lcm
    else:
        merged = n1 if owned is not None and id(n1) in owned else dict(n1)
        for k, v in n2.items():
            merged[k] = merged.get(k, 0) + v
    if d1 > _BIG:
        g = d1
        for v in merged.values():
            g = math.gcd(g, v)
            if g == 1:
                break
        if g > 1:
            d1 //= g
            merged = {k: v // g for k, v in merged.items()}
    if owned is not None:
        owned.add(id(merged))
    out[state] = (d1, merged)


def _scale(vec: Vec, p: Fraction) -> Vec:
    if p == 1:
        return vec
    a, b = p.numerator, p.denominator
    if a == 1:
        return (vec[0] * b, vec[1])
    return (vec[0] * b, {k: v * a for k, v in vec[1].items()})


def vec_prob(vec: Vec, key: int) -> Fraction:
    return Fraction(vec[1].get(key, 0), vec[0])


def _groups(frontier: Frontier) -> list[list[tuple[State, Vec]]]:
    """States that share a layout and variables (public selectors resolve alike for them)."""
    groups: dict[tuple[Layout, tuple[Any, ...]], list[tuple[State, Vec]]] = {}
    for state, vec in frontier.items():
        key = (state.layout, state.env)
        g = groups.get(key)
        if g is None:
            groups[key] = [(state, vec)]
        else:
            g.append((state, vec))
    return list(groups.values())


_DRAWS: dict[tuple[Any, ...], list[tuple[tuple[tuple[int, ...], ...], Fraction]]] = {}


def forget(run: Runner, frontier: Frontier, step: st.Step) -> Frontier:
    """Merge views that make no difference: a pure speed-up with the same verdicts.

    Let D_v(S, u) be the probability of reaching table S with view v under input u. When
    D_v = c * D_w for all S and u (one constant c), everything that can follow v is c times
    as likely as what follows w, under every input. Then for every continuation x,
    P(vx | u) = c * P(wx | u), so the security condition holds for vx exactly when it holds
    for wx, and merging v and w into one view changes no verdict. Only top-level exact runs
    do this: the frontier must hold every input of the verification.
    """
    if len({s.view for s in frontier}) < 2:
        return frontier
    views: dict[int, dict[tuple[Any, ...], Vec]] = {}
    for state, vec in frontier.items():
        key = (id(state.layout), state.cells, state.out, state.env, state.meters, state.lazy)
        views.setdefault(state.view, {})[key] = vec
    classes: dict[frozenset[tuple[Any, ...]], list[int]] = defaultdict(list)
    for view, dist in views.items():
        pivot_key = min(dist, key=hash)
        pden, pnums = dist[pivot_key]
        pu = min(pnums)
        pivot = Fraction(pnums[pu], pden)
        signature = frozenset(
            (key, u, Fraction(num, den) / pivot)
            for key, (den, nums) in dist.items()
            for u, num in nums.items()
        )
        classes[signature].append(view)
    renamed: dict[int, int] = {}
    for members in classes.values():
        if len(members) > 1:
            fresh = run.views.merged(members, ("merged", step.number, len(run.views)))
            renamed.update((v, fresh) for v in members)
    if not renamed:
        return frontier
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        new_view = renamed.get(state.view)
        _add(out, state if new_view is None else state.replace(view=new_view), vec, owned)
    left = len(views) - len(renamed) + len(set(renamed.values()))
    run.shared.forgotten.append(f"{step.number or '?'} ({len(views)} views into {left})")
    return out


def _draws(contents: list[tuple[int, ...]], n: int) -> list[tuple[tuple[tuple[int, ...], ...], Fraction]]:
    """Ordered draws of ``n`` piles without replacement from a multiset, with probabilities."""
    key = (tuple(contents), n)
    hit = _DRAWS.get(key)
    if hit is None:
        hit = _DRAWS[key] = _draws_uncached(contents, n)
        if len(_DRAWS) > 200_000:
            _DRAWS.clear()
    return hit


def _draws_uncached(
    contents: list[tuple[int, ...]], n: int
) -> list[tuple[tuple[tuple[int, ...], ...], Fraction]]:
    counts: dict[tuple[int, ...], int] = {}
    for c in contents:
        counts[c] = counts.get(c, 0) + 1
    keys = sorted(counts)
    out: list[tuple[tuple[tuple[int, ...], ...], Fraction]] = []
    seq: list[tuple[int, ...]] = []

    def rec(left: int, prob: Fraction) -> None:
        if len(seq) == n:
            out.append((tuple(seq), prob))
            return
        for k in keys:
            c = counts[k]
            if c:
                counts[k] = c - 1
                seq.append(k)
                rec(left - 1, prob * Fraction(c, left))
                seq.pop()
                counts[k] = c

    rec(len(contents), Fraction(1))
    return out


def materialize(state: State, needed: frozenset[int] | set[int] | None) -> list[tuple[State, Fraction]]:
    """Fix the order of the lazily scrambled piles that touch ``needed`` (None: all piles).

    A lazy block stands for every order of its piles, equally likely. Fixing the piles
    at some positions means drawing their contents without replacement; the remaining
    piles stay lazy, in sorted order, so equal situations keep merging.
    """
    if not state.lazy:
        return [(state, Fraction(1))]
    partial: list[tuple[list[int], tuple[tuple[tuple[int, ...], ...], ...], Fraction]] = [
        (list(state.cells), (), Fraction(1))
    ]
    for block in state.lazy:
        idx = [i for i, pile in enumerate(block) if needed is None or not needed.isdisjoint(pile)]
        if not idx:
            partial = [(c, kept + (block,), p) for c, kept, p in partial]
            continue
        rest = [i for i in range(len(block)) if i not in idx]
        nxt = []
        for cells, kept, prob in partial:
            contents = [tuple(cells[f] for f in pile) for pile in block]
            for seq, q in _draws(contents, len(idx)):
                remaining = list(contents)
                for c in seq:
                    remaining.remove(c)
                remaining.sort()
                c2 = list(cells)
                for i, content in zip(idx, seq):
                    for f, v in zip(block[i], content):
                        c2[f] = v
                for i, content in zip(rest, remaining):
                    for f, v in zip(block[i], content):
                        c2[f] = v
                keep = kept + ((tuple(block[i] for i in rest),) if len(rest) > 1 else ())
                nxt.append((c2, keep, prob * q))
        partial = nxt
    return [(state.replace(cells=tuple(c), lazy=k), p) for c, k, p in partial]


def _lazy_flats(state: State) -> set[int]:
    return {f for block in state.lazy for pile in block for f in pile}


def settle(frontier: Frontier, needed: Any) -> Frontier:
    """Materialize, in every state, the lazy piles that ``needed(state)`` touches."""
    if not any(s.lazy for s in frontier):
        return frontier
    out: Frontier = {}
    owned: set[int] = set()
    for state, vec in frontier.items():
        if not state.lazy:
            _add(out, state, vec, owned)
            continue
        want = needed(state)
        if want is not None and _lazy_flats(state).isdisjoint(want):
            _add(out, state, vec, owned)
            continue
        for s2, p in materialize(state, want):
            _add(out, s2, _scale(vec, p), owned)
    return out


_ENV: dict[tuple[Any, ...], tuple[tuple[str, Any], ...]] = {}


def env_set(env: tuple[tuple[str, Any], ...], name: str, value: Any) -> tuple[tuple[str, Any], ...]:
    value = _freeze(value)
    key = (env, name, value)
    hit = _ENV.get(key)
    if hit is None:
        d = dict(env)
        d[name] = value
        hit = tuple(sorted(d.items()))
        if len(_ENV) > 100_000:
            _ENV.clear()
        _ENV[key] = hit
    return hit


def env_drop(env: tuple[tuple[str, Any], ...], name: str, old: Any = _MISS) -> tuple[tuple[str, Any], ...]:
    d = dict(env)
    if old is _MISS:
        d.pop(name, None)
    else:
        d[name] = old
    return tuple(sorted(d.items()))


def _freeze(v: Any) -> Any:
    v = plain(v)
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, (int, str, bool, Symbol, tuple)) or v is None:
        return v
    raise EvalError(f"a public value must be a number, card, text or list, not {type(v).__name__}")


@dataclass
class Plan:
    """What an action does to any state with a given layout."""

    layout: Layout
    src: tuple[int, ...]
    consts: tuple[int, ...]
    delta: dict[int, int]
    returned: tuple[int, ...] = ()
    describe: Any = None  # () -> dict of trace details; built only when a trace is recorded

    def detail(self) -> dict[str, Any]:
        return dict(self.describe()) if self.describe is not None else {}

    @property
    def moved_to(self) -> dict[int, int]:
        """Old slot -> new slot, for every card the action keeps on the table."""
        cached: dict[int, int] | None = self.__dict__.get("_moved_to")
        if cached is None:
            cached = {t: g for g, t in enumerate(self.src) if t >= 0}
            self.__dict__["_moved_to"] = cached
        return cached

    def lost(self, size_before: int) -> frozenset[int]:
        """Old slots (of a layout with ``size_before`` slots) whose card leaves the table or goes
        into a hand: lazily scrambled piles there must be drawn first (see :func:`settle`);
        every other card keeps its place in a pile, so a lazy block is carried along."""
        key = f"_lost{size_before}"
        cached: frozenset[int] | None = self.__dict__.get(key)
        if cached is None:
            to = self.moved_to
            layout = self.layout
            cached = frozenset(
                f for f in range(size_before) if f not in to or layout.owner(to[f]).hand is not None
            )
            self.__dict__[key] = cached
        return cached

    def carry(self, lazy: tuple[tuple[tuple[int, ...], ...], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The lazy blocks at the cards' new places (every card of them stays on the table)."""
        if not lazy:
            return lazy
        to = self.moved_to
        return tuple(tuple(tuple(to[f] for f in pile) for pile in block) for block in lazy)

    def apply(self, state: State, views: ViewTable) -> State:
        cells = gather(state.cells, self.src, self.consts)
        delta = self.delta
        view = state.view
        if self.returned:
            delta = dict(delta)
            returned = sorted(state.cells[f] >> 1 for f in self.returned)
            for sid in returned:
                delta[sid] = delta.get(sid, 0) - 1
            if any(not is_up(state.cells[f]) for f in self.returned):
                view = views.extend(view, ("discard", tuple(returned)))
        out = out_add(state.out, delta)
        meters = state.meters.note_out(out) if delta else state.meters
        return State(self.layout, cells, out, state.env, meters, view, self.carry(state.lazy))


def _res(value: Any, what: str) -> tuple[Any, ...]:
    """A hashable description of cards (on the table, or new from the supply)."""
    if isinstance(value, Slots):
        return ("S", tuple(value.flat), value.label, value.shape)
    if isinstance(value, NewCards):
        return ("N", tuple(s.id for s in value.symbols), value.up, value.label)
    if isinstance(value, Symbol):
        return ("N", (value.id,), False, "")
    if isinstance(value, list):
        return ("L", tuple(_res(v, what) for v in value))
    raise EvalError(f"{what}: expected cards, got {type(plain(value)).__name__} {plain(value)!r}")


def _flats(r: tuple[Any, ...], what: str) -> tuple[int, ...]:
    """The table slots of a resolved selection (lists are concatenated)."""
    if r[0] == "S":
        return tuple(r[1])
    if r[0] == "L":
        out: list[int] = []
        for x in r[1]:
            out.extend(_flats(x, what))
        return tuple(out)
    raise EvalError(f"{what}: expected cards on the table, not new cards")


@dataclass(frozen=True)
class SubResult:
    """What a sub-protocol run hands back: its output cards, public values and counts."""

    cards: tuple[tuple[tuple[int, int], tuple[int, ...]], ...]  # per card output: shape, codes
    values: tuple[Any, ...]  # public outputs
    delta: tuple[tuple[int, int], ...]
    meters: Meters


# --------------------------------------------------------------------------- runner


@dataclass
class Shared:
    """State shared by a run and all its sub-runs."""

    frames: dict[tuple[Any, ...], Frame] = field(default_factory=dict)
    evaluators: dict[tuple[Any, ...], Evaluator] = field(default_factory=dict)
    plans: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    # Sample mode only: a game's table of layout-only expression values (see Evaluator).
    constants: dict[Any, Any] | None = None
    subruns: dict[tuple[Any, ...], list[tuple[Fraction, Any, SubResult]]] = field(default_factory=dict)
    factor_refs: dict[tuple[Any, ...], dict[Any, dict[int, Fraction]]] = field(default_factory=dict)
    no_factor: set[str] = field(default_factory=set)
    factored: dict[str, str] = field(default_factory=dict)
    states_processed: int = 0
    peak_frontier: int = 0
    forgotten: list[str] = field(default_factory=list)
    # When set, every reveal is recorded: (protocol, step) -> the possible observations, each a
    # tuple of (region, row, column, symbol name) for the cards turned face up.
    reveals: dict[tuple[str, str], set[tuple[tuple[str, int, int, str], ...]]] | None = None
    # The largest region any table of the run held, as (rows, columns), sub-protocols included.
    extent: tuple[int, int] = (0, 0)
    layouts_seen: dict[int, Any] = field(default_factory=dict)


@dataclass
class Ctx:
    """Where the interpreter is: the numbered step and sentence being carried out."""

    number: str | None
    say: st.Template | None
    step: st.Step | None


class Runner:
    """Executes steps over a frontier of states (see module docs for the two modes)."""

    def __init__(
        self,
        library: Any,
        mode: str,
        *,
        rng: random.Random | None = None,
        events: list[Event] | None = None,
        views: ViewTable | None = None,
        shared: Shared | None = None,
        call_path: list[str] | None = None,
        limits: dict[int, int] | None = None,
        context: dict[str, Any] | None = None,
    ):
        assert mode in ("sample", "exact")
        self.library = library
        self.mode = mode
        self.rng = rng or random.Random(0)
        self.events = events
        self.views = views if views is not None else ViewTable()
        self.shared = shared if shared is not None else Shared()
        self.call_path = call_path or []
        self.limits = limits
        self.loop_vars: list[str] = []  # names of the loop variables in force (for traces)
        self.context = context or {}  # functions a game supplies to the protocols it runs
        # Forget view prefixes that provably carry no information (top-level exact runs only:
        # the check needs every input of the verification in the frontier).
        self.forget_views = False

    # -- entry points ---------------------------------------------------------------
    def frame(self, proto: Protocol, params: dict[str, Any]) -> Frame:
        key = (proto.name, tuple(sorted(params.items())))
        f = self.shared.frames.get(key)
        if f is None:
            f = Frame(proto, params, self.context)
            self.shared.frames[key] = f
        return f

    def frame_for(self, callee: Protocol, given: dict[str, int], ctx: Ctx) -> Frame:
        """The callee bound to the parameters a call gives (defaults for the rest)."""
        key = ("frame-for", callee.name, tuple(sorted(given.items())))
        f = self.shared.frames.get(key)
        if f is None:
            f = self.frame(callee, callee.resolve_params(given, where=f" (called at step {ctx.number})"))
            self.shared.frames[key] = f
        return f

    def evaluator(self, frame: Frame) -> Evaluator:
        ev = self.shared.evaluators.get(frame.key)
        if ev is None:
            ev = Evaluator(frame, single=self.mode == "sample", constants=self.shared.constants)
            self.shared.evaluators[frame.key] = ev
        return ev

    def run(self, frame: Frame, frontier: Frontier) -> Frontier:
        final = self.block(frame, frame.proto.steps, frontier, Ctx(None, None, None), top=True)
        return settle(final, lambda state: None)

    def block(
        self, frame: Frame, steps: list[st.Step], frontier: Frontier, ctx: Ctx, top: bool = False
    ) -> Frontier:
        for step in steps:
            if not frontier:
                break
            inner = ctx
            if step.number is not None or step.say is not None:
                inner = Ctx(step.number or ctx.number, step.say or ctx.say, step)
            elif ctx.step is None:
                inner = Ctx(ctx.number, ctx.say, step)
            handler = _HANDLERS[type(step)]
            frontier = handler(self, frame, step, frontier, inner)
            _note_extent(self.shared, frontier)
            if step.labels:
                frontier = _apply_labels(self, frame, step, frontier, inner)
            self.shared.states_processed += len(frontier)
            self.shared.peak_frontier = max(self.shared.peak_frontier, len(frontier))
            if top and self.forget_views and self.mode == "exact":
                frontier = forget(self, frontier, step)
        return frontier

    # -- errors and trace -----------------------------------------------------------
    def fail(self, frame: Frame, step: st.Step | None, message: str) -> SimulationError:
        proto = frame.proto
        where = f"step {step.number}: " if step is not None and step.number else ""
        path = step.path if step is not None else ()
        problem = Problem(proto.file, proto.src.line(path), _fmt_path(path), f"{where}{message}")
        return SimulationError(message, problem)

    def say(self, frame: Frame, ctx: Ctx, state: State) -> str:
        if ctx.say is None:
            return ""
        out = []
        scope = StateScope(frame, state, public=True)
        for part in ctx.say.parts:
            if isinstance(part, str):
                out.append(part)
            else:
                try:
                    v = plain(part(scope))
                except EvalError as exc:
                    raise self.fail(frame, ctx.step, f"in the sentence: {exc}") from None
                out.append(v.glyph if isinstance(v, Symbol) else str(v))
        return "".join(out)

    def record(
        self, frame: Frame, ctx: Ctx, action: str, detail: dict[str, Any], before: State, after: State
    ) -> None:
        if self.events is None:
            return
        env = dict(before.env)
        loop = {k: _jsonable(env[k]) for k in self.loop_vars if k in env}
        self.events.append(
            Event(
                index=len(self.events),
                protocol=frame.proto.name,
                call_path=list(self.call_path),
                step=ctx.number,
                say=self.say(frame, ctx, before),
                action=action,
                detail=detail,
                before=Snapshot.of(before),
                after=Snapshot.of(after),
                loop=loop,
            )
        )

    def check_limits(self, frame: Frame, step: st.Step, state: State) -> None:
        if self.limits is None:
            return
        for sid, n in state.meters.peak:
            limit = self.limits.get(sid, 0)
            if n > limit:
                name = SYMBOLS.by_id(sid).name
                raise self.fail(
                    frame,
                    step,
                    f"the supply has no more {SYMBOLS.by_id(sid).glyph}: {n} are needed at once but "
                    f"'helpers' declares {name}: {limit}",
                )

    # -- generic draft-based action ------------------------------------------------
    def _planned(
        self, frame: Frame, step: st.Step, frontier: Frontier, ctx: Ctx, resolve: Any, build: Any, action: str
    ) -> Frontier:
        ev = self.evaluator(frame)
        out: Frontier = {}
        owned: set[int] = set()
        for group in _groups(frontier):
            shared_plan = None
            if self.events is None:
                ev.touched = False
                plan = self._plan(frame, step, group[0][0], ev, resolve, build)
                if not ev.touched:
                    shared_plan = plan
            if any(s.lazy for s, _ in group):
                group = list(
                    settle(
                        dict(group),
                        lambda state, plan=shared_plan: (
                            (plan or self._plan(frame, step, state, ev, resolve, build)).lost(
                                state.layout.size
                            )
                        ),
                    ).items()
                )
            for state, vec in group:
                plan = shared_plan or self._plan(frame, step, state, ev, resolve, build)
                new = plan.apply(state, self.views)
                if plan.delta or plan.returned:
                    self.check_limits(frame, step, new)
                if self.events is not None:
                    self.record(frame, ctx, action, plan.detail(), state, new)
                _add(out, new, vec, owned)
        return out

    def _plan(
        self, frame: Frame, step: st.Step, state: State, ev: Evaluator, resolve: Any, build: Any
    ) -> Plan:
        try:
            res = resolve(self, frame, step, state, ev)
            key = (id(step), state.layout, res)
            plan = self.shared.plans.get(key)
            if plan is None:
                plan = build(self, frame, step, state.layout, res)
                self.shared.plans[key] = plan
            return plan  # type: ignore[no-any-return]
        except EvalError as exc:
            raise self.fail(frame, step, str(exc)) from None

    # -- targets --------------------------------------------------------------------
    def resolve_target(self, frame: Frame, target: st.Target, state: State, ev: Evaluator) -> tuple[Any, ...]:
        if target.name is not None:
            return ("name", target.name)
        assert target.expr is not None
        node = target.expr.node
        if (
            isinstance(node, Index)
            and isinstance(node.obj, Name)
            and len(node.args) == 2
            and node.obj.name in state.layout.by_name
        ):
            args = _target_args(target)
            reg = state.layout.by_name[node.obj.name]
            rows = _index_list(ev.public(args[0], state), None)
            cols = _index_list(ev.public(args[1], state), reg.cols) or []
            if rows is None:
                rows = list(range(1, reg.rows + 1))
            return ("grid", reg.name, tuple(rows), tuple(cols))
        value = ev.public(target.expr, state)
        if isinstance(value, str):
            return ("name", value)
        return ("S", _flats(_res(value, target.text), target.text))


def _target_args(target: st.Target) -> list[Expression]:
    """The index expressions of a target like ``M[3..4, j]``, compiled once per target."""
    if target.index_args is None:
        node = target.expr.node if target.expr is not None else None
        assert isinstance(node, Index)
        target.index_args = [
            Expression(f"{target.text}[{i + 1}]", a, a.compile()) for i, a in enumerate(node.args)
        ]
    return target.index_args


def _index_list(value: Any, n: int | None) -> list[int] | None:
    from .expressions import WILDCARD

    if value is WILDCARD:
        return None if n is None else list(range(1, n + 1))
    v = plain(value)
    items = v if isinstance(v, list) else [v]
    return [as_int(i) for i in items]


def _fmt_path(path: tuple[Any, ...]) -> str:
    from .source import format_path

    return format_path(path)


def _target_coords(
    d: Draft, tres: tuple[Any, ...], n: int, shape: tuple[int, int] | None, tokens: list[int], what: str
) -> list[tuple[str, int, int]]:
    """Put ``tokens`` at a resolved target; return the coordinates used."""
    kind = tres[0]
    if kind == "name":
        name = tres[1]
        if name in d.grids:
            _unit, hand = d.meta[name]
            if hand is None:
                raise EvalError(f"{what}: there is already a {name!r} on the table")
            row = d.grids[name][0]
            start = len(row)
            row.extend(tokens)
            return [(name, 1, start + i + 1) for i in range(len(tokens))]
        rows, cols = shape if shape is not None and shape[0] * shape[1] == n else (1, n)
        grid = [tokens[r * cols : (r + 1) * cols] for r in range(rows)]
        d.add_region(name, grid)
        return [(name, r + 1, c + 1) for r in range(rows) for c in range(cols)]
    if kind == "grid":
        _, name, rows, cols = tres
        d.ensure_rows(name, max(rows))
        coords = [(name, r, c) for r in rows for c in cols]
    else:
        coords = [d.locate(f) for f in tres[1]]
    if len(coords) != len(tokens):
        raise EvalError(f"{what}: {len(tokens)} cards do not fit {len(coords)} places")
    for (name, r, c), tok in zip(coords, tokens):
        if d.token_at(name, r, c) != EMPTY:
            raise EvalError(f"{what}: {name}[{r}, {c}] is not empty")
        d.set_token(name, r, c, tok)
    return coords


# --------------------------------------------------------------------------- handlers


def _item_tokens(
    d: Draft, item: tuple[Any, ...], up: bool, delta: dict[int, int], what: str
) -> tuple[list[int], str]:
    if item[0] == "S":
        label = item[2] if item[2] and item[2].isidentifier() else ""
        return d.take_tokens(item[1]), label
    if item[0] == "N":
        toks = []
        face = up or item[2]
        for sid in item[1]:
            toks.append(d.new_token(sid << 1 | int(face)))
            delta[sid] = delta.get(sid, 0) + 1
        return toks, item[3]
    toks = []
    for sub in item[1]:
        t, _ = _item_tokens(d, sub, up, delta, what)
        toks.extend(t)
    return toks, ""


def _items(res: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    return list(res[1]) if res[0] == "L" else [res]


def _place_resolve(run: Runner, frame: Frame, step: st.Place, state: State, ev: Evaluator) -> Any:
    out = []
    for target, form, items in step.targets:
        tres = run.resolve_target(frame, target, state, ev)
        out.append((tres, form, _res(ev.public(items, state), target.text)))
    return tuple(out)


def _place_build(run: Runner, frame: Frame, step: st.Place, layout: Layout, res: Any) -> Plan:
    d = Draft.of(layout)
    delta: dict[int, int] = {}
    moves = []
    for tres, form, ires in res:
        what = f"place {tres[1] if tres[0] == 'name' else 'cards'}"
        lines: list[list[int]] = []
        spans: list[tuple[str, list[tuple[int, int]]]] = []
        groups = [_items(ires)] if form == "row" else [_items(x) for x in _items(ires)]
        for gi, group in enumerate(groups):
            line: list[int] = []
            for item in group:
                toks, label = _item_tokens(d, item, step.up, delta, what)
                if label:
                    pos = [(gi, len(line) + k) for k in range(len(toks))]
                    spans.append((label, pos))
                line.extend(toks)
            lines.append(line)
        if form == "columns":
            heights = {len(c) for c in lines}
            if len(heights) != 1:
                raise EvalError(f"{what}: columns of different heights {sorted(heights)}")
            h = heights.pop()
            grid = [[lines[c][r] for c in range(len(lines))] for r in range(h)]
            spans = [(t, [(r, c) for c, r in pos]) for t, pos in spans]
        else:
            widths = {len(r) for r in lines}
            if len(widths) != 1:
                raise EvalError(f"{what}: rows of different lengths {sorted(widths)}")
            grid = lines
        if not grid or not grid[0]:
            raise EvalError(f"{what}: nothing to place")
        flat_tokens = [t for row in grid for t in row]
        shape = (len(grid), len(grid[0]))
        coords = _target_coords(d, tres, len(flat_tokens), shape, flat_tokens, what)
        width = shape[1]
        for text, pos in spans:
            d.label(text, [coords[r * width + c] for r, c in pos])
        moves.append({"to": [f"{n}[{r}, {c}]" for n, r, c in coords]})
    layout2, src, consts = d.finish()
    return Plan(layout2, src, consts, delta, describe=lambda: {"targets": moves, "new": _delta_names(delta)})


def _delta_names(delta: dict[int, int]) -> Params:
    return {SYMBOLS.by_id(s).name: n for s, n in sorted(delta.items()) if n}


def _rearrange_resolve(run: Runner, frame: Frame, step: st.Rearrange, state: State, ev: Evaluator) -> Any:
    assert step.order is not None
    order = ev.value(step.order, state)
    if not isinstance(order, list):
        raise EvalError(f"the new order must be a list of positions, got {order!r}")
    return (step.region, step.axis, tuple(as_int(v) for v in order))


def _rearrange_build(run: Runner, frame: Frame, step: st.Rearrange, layout: Layout, res: Any) -> Plan:
    name, axis, order = res
    reg = layout.region(name)
    d = Draft.of(layout)
    grid = d.grids[name]
    if axis == "cards":
        if reg.rows != 1:
            raise EvalError(f"{name} has {reg.rows} rows: rearrange its columns or rows")
        n = reg.cols
    else:
        n = reg.cols if axis == "columns" else reg.rows
    if sorted(order) != list(range(1, n + 1)):
        raise EvalError(f"{list(order)} is not a permutation of 1..{n} (the {axis} of {name})")
    if axis == "rows":
        d.grids[name] = [list(grid[i - 1]) for i in order]
    else:
        d.grids[name] = [[row[i - 1] for i in order] for row in grid]
    layout2, src, consts = d.finish(keep_empty=[name])
    moves = [[i, k + 1] for k, i in enumerate(order) if i != k + 1]
    return Plan(
        layout2,
        src,
        consts,
        {},
        describe=lambda: {"region": name, "axis": axis, "order": list(order), "moves": moves},
    )


def _swap_resolve(run: Runner, frame: Frame, step: st.Swap, state: State, ev: Evaluator) -> Any:
    assert step.a is not None and step.b is not None
    a = _flats(_res(ev.public(step.a, state), "swap"), "swap")
    b = _flats(_res(ev.public(step.b, state), "swap"), "swap")
    return (a, b)


def _swap_build(run: Runner, frame: Frame, step: st.Swap, layout: Layout, res: Any) -> Plan:
    a, b = res
    if len(a) != len(b):
        raise EvalError(f"swap needs two groups of the same size, got {len(a)} and {len(b)}")
    if set(a) & set(b):
        raise EvalError("swap: the two groups overlap")
    if layout.holes & (set(a) | set(b)):
        return _swap_with_holes(layout, a, b)
    src = list(range(layout.size))
    for x, y in zip(a, b):
        src[x], src[y] = y, x
    return Plan(
        layout,
        tuple(src),
        (),
        {},
        describe=lambda: {"a": [layout.describe(f) for f in a], "b": [layout.describe(f) for f in b]},
    )


def _swap_with_holes(layout: Layout, a: tuple[int, ...], b: tuple[int, ...]) -> Plan:
    """A swap that exchanges empty places too: the layout changes (a region may empty out)."""
    d = Draft.of(layout)
    where_a = [d.locate(f) for f in a]
    where_b = [d.locate(f) for f in b]
    tokens_a = [d.token_at(*w) for w in where_a]
    tokens_b = [d.token_at(*w) for w in where_b]
    for w, tok in zip(where_a, tokens_b):
        d.set_token(*w, tok)
    for w, tok in zip(where_b, tokens_a):
        d.set_token(*w, tok)
    layout2, src, consts = d.finish()
    return Plan(
        layout2,
        src,
        consts,
        {},
        describe=lambda: {"a": [layout.describe(f) for f in a], "b": [layout.describe(f) for f in b]},
    )


def _move_resolve(run: Runner, frame: Frame, step: st.Move, state: State, ev: Evaluator) -> Any:
    out = []
    for target, src in step.pairs:
        value = ev.public(src, state)
        shape = value.shape if isinstance(value, Slots) else None
        out.append(
            (
                run.resolve_target(frame, target, state, ev),
                _flats(_res(value, target.text), target.text),
                shape,
            )
        )
    return tuple(out)


def _move_build(run: Runner, frame: Frame, step: st.Move, layout: Layout, res: Any) -> Plan:
    d = Draft.of(layout)
    moves = []
    for tres, flats, shape in res:
        what = f"move to {tres[1] if tres[0] == 'name' else 'places'}"
        tokens = d.take_tokens(flats)
        coords = _target_coords(d, tres, len(tokens), shape, tokens, what)
        moves.append(
            {"from": [layout.describe(f) for f in flats], "to": [f"{n}[{r}, {c}]" for n, r, c in coords]}
        )
    layout2, src, consts = d.finish()
    return Plan(layout2, src, consts, {}, describe=lambda: {"moves": moves})


def _take_resolve(run: Runner, frame: Frame, step: st.Take, state: State, ev: Evaluator) -> Any:
    assert step.columns is not None
    cols = ev.value(step.columns, state)
    cols = cols if isinstance(cols, list) else [cols]
    return (step.source, tuple(as_int(c) for c in cols), step.into)


def _take_build(run: Runner, frame: Frame, step: st.Take, layout: Layout, res: Any) -> Plan:
    source, cols, into = res
    reg = layout.region(source)
    bad = [c for c in cols if not 1 <= c <= reg.cols]
    if bad or len(set(cols)) != len(cols):
        raise EvalError(f"take: columns {list(cols)} are not distinct columns of {source} (1..{reg.cols})")
    d = Draft.of(layout)
    grid = d.grids[source]
    taken = [[row[c - 1] for c in cols] for row in grid]
    keep = [c for c in range(1, reg.cols + 1) if c not in cols]
    d.grids[source] = [[row[c - 1] for c in keep] for row in grid]
    if cols:
        d.add_region(into, taken, before=None)
    if not keep:
        d.remove_region(source)
    layout2, src, consts = d.finish()
    return Plan(
        layout2, src, consts, {}, describe=lambda: {"from": source, "columns": list(cols), "into": into}
    )


def _discard_resolve(run: Runner, frame: Frame, step: st.Discard, state: State, ev: Evaluator) -> Any:
    assert step.what is not None
    return _flats(_res(ev.public(step.what, state), "discard"), "discard")


def _discard_build(run: Runner, frame: Frame, step: st.Discard, layout: Layout, res: Any) -> Plan:
    d = Draft.of(layout)
    d.take_tokens(res)
    layout2, src, consts = d.finish()
    return Plan(
        layout2,
        src,
        consts,
        {},
        returned=tuple(res),
        describe=lambda: {"cards": [layout.describe(f) for f in res]},
    )


def _labels_resolve(run: Runner, frame: Frame, step: st.Step, state: State, ev: Evaluator) -> Any:
    return tuple((_flats(_res(ev.public(e, state), "labels"), "labels"), text) for e, text in step.labels)


def _labels_build(run: Runner, frame: Frame, step: st.Step, layout: Layout, res: Any) -> Plan:
    d = Draft.of(layout)
    for flats, text in res:
        d.label(text, [d.locate(f) for f in flats])
    layout2, src, consts = d.finish(keep_empty=[r.name for r in layout.regions])
    return Plan(
        layout2,
        src,
        consts,
        {},
        describe=lambda: {"labels": [[t, [layout.describe(f) for f in fl]] for fl, t in res]},
    )


def _return_resolve(run: Runner, frame: Frame, step: st.Return, state: State, ev: Evaluator) -> Any:
    assert step.cards is not None and step.to is not None
    flats = _flats(_res(ev.public(step.cards, state), "return"), "return")
    to = ev.value(step.to, state)
    owners = list(to) if isinstance(to, (list, tuple)) else [to] * len(flats)
    if len(owners) != len(flats):
        raise EvalError(f"return: {len(flats)} cards but {len(owners)} owners")
    return (flats, tuple(hand_name(o) for o in owners))


def _return_build(run: Runner, frame: Frame, step: st.Return, layout: Layout, res: Any) -> Plan:
    flats, names = res
    d = Draft.of(layout)
    tokens = d.take_tokens(flats)
    for tok, name in zip(tokens, names):
        if name not in d.grids:
            d.add_region(name, [[]], hand=name)
        elif d.meta[name][1] is None:
            raise EvalError(f"return: {name!r} is on the table but is not a hand")
        d.grids[name][0].append(tok)
    layout2, src, consts = d.finish()
    return Plan(
        layout2,
        src,
        consts,
        {},
        describe=lambda: {"moves": [{"from": [layout.describe(f)], "to": [n]} for f, n in zip(flats, names)]},
    )


def h_return(run: Runner, frame: Frame, step: st.Return, frontier: Frontier, ctx: Ctx) -> Frontier:
    out = run._planned(frame, step, frontier, ctx, _return_resolve, _return_build, "return")
    if run.mode != "exact":
        return out
    # A hand is unordered: keep its cards sorted so equal hands merge.
    sorted_out: Frontier = {}
    owned: set[int] = set()
    for state, vec in out.items():
        cells = list(state.cells)
        for reg in state.layout.regions:
            if reg.hand is not None:
                cells[reg.offset : reg.offset + reg.size] = sorted(cells[reg.offset : reg.offset + reg.size])
        _add(sorted_out, state.replace(cells=tuple(cells)), vec, owned)
    return sorted_out


def h_place(run: Runner, frame: Frame, step: st.Place, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _place_resolve, _place_build, "place")


def h_rearrange(run: Runner, frame: Frame, step: st.Rearrange, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _rearrange_resolve, _rearrange_build, "rearrange")


def h_swap(run: Runner, frame: Frame, step: st.Swap, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _swap_resolve, _swap_build, "swap")


def h_move(run: Runner, frame: Frame, step: st.Move, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _move_resolve, _move_build, "move")


def h_take(run: Runner, frame: Frame, step: st.Take, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _take_resolve, _take_build, "take")


def h_discard(run: Runner, frame: Frame, step: st.Discard, frontier: Frontier, ctx: Ctx) -> Frontier:
    return run._planned(frame, step, frontier, ctx, _discard_resolve, _discard_build, "discard")


def _apply_labels(run: Runner, frame: Frame, step: st.Step, frontier: Frontier, ctx: Ctx) -> Frontier:
    """Add a step's display labels (no event: they belong to the step's own action)."""
    saved, run.events = run.events, None
    try:
        out = run._planned(frame, step, frontier, ctx, _labels_resolve, _labels_build, "labels")
    finally:
        run.events = saved
    if saved and len(out) == 1:
        saved[-1].after = Snapshot.of(next(iter(out)))
    return out


def h_note(run: Runner, frame: Frame, step: st.Note, frontier: Frontier, ctx: Ctx) -> Frontier:
    if run.events is not None:
        for state in frontier:
            run.record(frame, ctx, "note", {}, state, state)
    return frontier


def _touching(run: Runner, frame: Frame, step: st.Step, *exprs: Expression | None) -> Any:
    """state -> the slots that ``exprs`` select there (to settle lazy piles first)."""
    ev = run.evaluator(frame)

    def needed(state: State) -> frozenset[int]:
        out: set[int] = set()
        try:
            for e in exprs:
                if e is not None:
                    out.update(_flats(_res(ev.public(e, state), step.kind), step.kind))
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        return frozenset(out)

    return needed


def h_turn(run: Runner, frame: Frame, step: st.Turn, frontier: Frontier, ctx: Ctx) -> Frontier:
    assert step.what is not None
    ev = run.evaluator(frame)
    out: Frontier = {}
    frontier = settle(frontier, _touching(run, frame, step, step.what))
    for state, vec in frontier.items():
        try:
            flats = _flats(_res(ev.public(step.what, state), "turn"), "turn")
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        cells = list(state.cells)
        revealed = []
        where = []
        for f in flats:
            if cells[f] == EMPTY:
                raise run.fail(frame, step, f"turn: {state.layout.describe(f)} is empty")
            cells[f] ^= 1
            if cells[f] & 1:
                revealed.append(cells[f])
                where.append(f)
        if run.shared.reveals is not None and revealed:
            _note_reveal(run, frame, ctx, state, where, revealed)
        view = run.views.extend(state.view, ("turn", tuple(revealed))) if revealed else state.view
        new = state.replace(cells=tuple(cells), meters=state.meters.add_turn(), view=view)
        if run.events is not None:
            run.record(
                frame,
                ctx,
                "turn",
                {
                    "cards": [state.layout.describe(f) for f in flats],
                    "revealed": [Card.from_code(c).symbol for c in revealed],
                },
                state,
                new,
            )
        _add(out, new, vec)
    return out


def _note_extent(shared: Shared, frontier: Frontier) -> None:
    """Keep in ``shared.extent`` the largest region any table of the run has held (most cards,
    then widest): every state the run reaches is reachable, so this is the table space needed."""
    seen = shared.layouts_seen
    for state in frontier:
        layout = state.layout
        if id(layout) in seen:
            continue
        seen[id(layout)] = layout  # keep it alive so its id stays unique
        for reg in layout.regions:
            e = (reg.rows, reg.cols)
            if (e[0] * e[1], e[1]) > (shared.extent[0] * shared.extent[1], shared.extent[1]):
                shared.extent = e


def _note_reveal(
    run: Runner, frame: Frame, ctx: Ctx, state: State, flats: list[int], codes: list[int]
) -> None:
    assert run.shared.reveals is not None
    obs = []
    for f, card in zip(flats, codes):
        reg = state.layout.owner(f)
        r, c = reg.address(f)
        obs.append((reg.name, r, c, Card.from_code(card).symbol))
    run.shared.reveals.setdefault((frame.proto.name, ctx.number or "?"), set()).add(tuple(obs))


def _piles(
    run: Runner, frame: Frame, step: st.Shuffle, state: State, ev: Evaluator
) -> tuple[Shuffle, tuple[tuple[int, ...], ...], str]:
    assert step.piles is not None
    value = ev.public(step.piles, state)
    how = step.how
    piles: tuple[tuple[int, ...], ...]
    if how in ("cut", "bisect"):
        flats = _flats(_res(value, how), how)
        if how == "cut":
            piles = tuple((f,) for f in flats)
            shuffle = Shuffle("shift", len(piles))
        else:
            if len(flats) % 2:
                raise EvalError(f"a bisection cut needs an even number of cards, got {len(flats)}")
            h = len(flats) // 2
            piles = (flats[:h], flats[h:])
            shuffle = Shuffle("scramble", 2)
    else:
        items = value if isinstance(value, list) else [value]
        piles = tuple(_flats(_res(v, "shuffle"), "shuffle") for v in items)
        if how == "set":
            if step.perms and len(step.perms[0]) != len(piles):
                raise EvalError(
                    f"the permutations act on {len(step.perms[0])} piles, but there are {len(piles)}"
                )
            shuffle = Shuffle("set", len(piles), tuple(step.perms))
        else:
            shuffle = Shuffle(how, len(piles))
    if not piles:
        raise EvalError("nothing to shuffle")
    sizes = {len(p) for p in piles}
    if len(sizes) != 1:
        raise EvalError(f"piles must have the same number of cards, got sizes {sorted(sizes)}")
    every = [f for p in piles for f in p]
    if len(set(every)) != len(every):
        raise EvalError("the piles overlap")
    for f in every:
        if f in state.layout.holes:
            raise EvalError(f"{state.layout.describe(f)} is empty")
    return shuffle, piles, how


def h_shuffle(run: Runner, frame: Frame, step: st.Shuffle, frontier: Frontier, ctx: Ctx) -> Frontier:
    ev = run.evaluator(frame)
    plans = run.shared.plans

    def resolve(state: State) -> tuple[Shuffle, tuple[tuple[int, ...], ...], str]:
        try:
            return _piles(run, frame, step, state, ev)
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None

    out: Frontier = {}
    if run.mode == "sample":
        for state, vec in frontier.items():
            shuffle, piles, how = resolve(state)
            perm = shuffle.sample(run.rng)
            g = _gather_map(plans, state.layout.size, piles, perm)
            cells = tuple([state.cells[i] for i in g])
            new = State(
                _unlabel(plans, state.layout, piles),
                cells,
                state.out,
                state.env,
                state.meters.add_shuffle(how),
                state.view,
            )
            if run.events is not None:
                run.record(
                    frame,
                    ctx,
                    "shuffle",
                    {
                        "kind": how,
                        "size": shuffle.size,
                        "piles": [[state.layout.describe(f) for f in p] for p in piles],
                        "perm": [i + 1 for i in perm],
                        "how": step.text,
                        **({} if shuffle.is_uniform else {"weighted": True}),
                    },
                    state,
                    new,
                )
            _add(out, new, vec)
        return out

    # Exact: a scramble of face-down piles that are already lazily scrambled changes nothing.
    def needed(state: State) -> frozenset[int] | None:
        shuffle, piles, _ = resolve(state)
        if shuffle.kind == "scramble" and frozenset(piles) in {frozenset(b) for b in state.lazy}:
            return frozenset()
        return frozenset(f for p in piles for f in p)

    frontier = settle(frontier, needed)
    # Replace each table by the representative of its orbit, merge, then expand or stay lazy.
    canon: Frontier = {}
    owned: set[int] = set()
    owned_canon: set[int] = set()
    info: dict[State, tuple[Shuffle, tuple[tuple[int, ...], ...], str]] = {}
    for state, vec in frontier.items():
        shuffle, piles, how = resolve(state)
        layout2 = _unlabel(plans, state.layout, piles)
        meters = state.meters.add_shuffle(how)
        if shuffle.kind == "scramble" and frozenset(piles) in {frozenset(b) for b in state.lazy}:
            _add(out, state.replace(layout=layout2, meters=meters), vec, owned)
            continue
        contents = [tuple(state.cells[f] for f in p) for p in piles]
        rep = shuffle.canonical(contents)
        if rep is not None:
            g = _gather_map(plans, state.layout.size, piles, rep)
            state = state.replace(cells=tuple([state.cells[i] for i in g]))
        observe = any(is_up(state.cells[f]) for p in piles for f in p)
        if shuffle.kind == "scramble" and not observe and len(piles) > 1:
            lazy = state.lazy + (piles,)
            _add(out, state.replace(layout=layout2, meters=meters, lazy=lazy), vec, owned)
            continue
        _add(canon, state, vec, owned_canon)
        info[state] = (shuffle, piles, how)
    for state, vec in canon.items():
        shuffle, piles, how = info[state]
        layout2 = _unlabel(plans, state.layout, piles)
        meters = state.meters.add_shuffle(how)
        contents = [tuple(state.cells[f] for f in p) for p in piles]
        observe = any(is_up(state.cells[f]) for p in piles for f in p)
        for perm, prob in shuffle.outcomes(contents):
            g = _gather_map(plans, state.layout.size, piles, perm)
            cells = tuple([state.cells[i] for i in g])
            view = state.view
            if observe:
                view = run.views.extend(view, ("shuffle", tuple(visible(cells[f]) for p in piles for f in p)))
            _add(
                out,
                State(layout2, cells, state.out, state.env, meters, view, state.lazy),
                _scale(vec, prob),
                owned,
            )
    return out


def _gather_map(
    plans: dict[tuple[Any, ...], Any], n: int, piles: tuple[tuple[int, ...], ...], perm: tuple[int, ...]
) -> tuple[int, ...]:
    key = ("gather", n, piles, perm)
    g = plans.get(key)
    if g is None:
        g = pile_gather(n, piles, perm)
        plans[key] = g
    return g


def _unlabel(plans: dict[tuple[Any, ...], Any], layout: Layout, piles: tuple[tuple[int, ...], ...]) -> Layout:
    """A shuffle makes labels on the shuffled cards meaningless: drop them."""
    if not layout.labels:
        return layout
    key = ("unlabel", layout, piles)
    hit = plans.get(key)
    if hit is None:
        touched = {f for p in piles for f in p}
        labels = [lab for lab in layout.labels if not touched & set(lab.slots)]
        shapes = [(r.name, r.rows, r.cols, r.unit, r.hand) for r in layout.regions]
        hit = Layout.make(shapes, layout.holes, labels)
        plans[key] = hit
    return hit


def h_shift(run: Runner, frame: Frame, step: st.Shift, frontier: Frontier, ctx: Ctx) -> Frontier:
    assert step.piles is not None and step.until is not None
    ev = run.evaluator(frame)
    out: Frontier = {}
    frontier = settle(frontier, _touching(run, frame, step, step.piles))
    for state, vec in frontier.items():
        try:
            value = ev.public(step.piles, state)
            items = value if isinstance(value, list) else [value]
            piles = tuple(_flats(_res(v, "shift"), "shift") for v in items)
            if len({len(p) for p in piles}) != 1:
                raise EvalError("piles must have the same number of cards")
            k = len(piles)
            chosen = None
            for s in range(k):
                perm = tuple((i + s) % k for i in range(k))
                g = _gather_map(run.shared.plans, state.layout.size, piles, perm)
                trial = state.replace(cells=tuple([state.cells[i] for i in g]))
                if truthy(ev.value(step.until, trial)):
                    chosen = (s, trial)
                    break
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        if chosen is None:
            raise run.fail(frame, step, f"no shift of the {k} piles makes {step.until.text!r} true")
        s, trial = chosen
        layout2 = _unlabel(run.shared.plans, state.layout, piles) if s else state.layout
        new = trial.replace(layout=layout2, view=run.views.extend(state.view, ("shift", s)))
        if run.events is not None:
            run.record(
                frame,
                ctx,
                "shift",
                {
                    "piles": [[state.layout.describe(f) for f in p] for p in piles],
                    "by": s,
                    "until": step.until.text,
                },
                state,
                new,
            )
        _add(out, new, vec)
    return out


def h_if(run: Runner, frame: Frame, step: st.If, frontier: Frontier, ctx: Ctx) -> Frontier:
    assert step.cond is not None
    ev = run.evaluator(frame)
    yes: Frontier = {}
    no: Frontier = {}
    for state, vec in frontier.items():
        try:
            result = truthy(ev.value(step.cond, state))
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        new = state.replace(view=run.views.extend(state.view, ("if", result)))
        if run.events is not None:
            run.record(frame, ctx, "if", {"condition": step.cond.text, "result": result}, state, new)
        _add(yes if result else no, new, vec)
    out: Frontier = {}
    for branch, steps in ((yes, step.then), (no, step.other)):
        if branch:
            for s, v in run.block(frame, steps, branch, ctx).items():
                _add(out, s, v)
    return out


def h_for(run: Runner, frame: Frame, step: st.For, frontier: Frontier, ctx: Ctx) -> Frontier:
    values_expr = step.values
    assert values_expr is not None
    ev = run.evaluator(frame)
    groups: dict[tuple[Any, ...], Frontier] = defaultdict(dict)

    def values_of(state: State) -> tuple[Any, ...]:
        try:
            values = ev.value(values_expr, state)
            if not isinstance(values, list):
                raise EvalError(f"'for' needs a list of values, got {values!r}")
            return tuple(_freeze(v) for v in values)
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None

    for group in _groups(frontier):
        ev.touched = False
        shared: tuple[Any, ...] | None = values_of(group[0][0])
        if ev.touched:
            shared = None
        for state, vec in group:
            values = shared if shared is not None else values_of(state)
            new = state.replace(view=run.views.extend(state.view, ("for", values)))
            if run.events is not None:
                run.record(
                    frame, ctx, "for", {"var": step.var, "values": [_jsonable(v) for v in values]}, state, new
                )
            _add(groups[values], new, vec)
    out: Frontier = {}
    run.loop_vars.append(step.var)
    try:
        for values, members in groups.items():
            current = members
            for v in values:
                current = {s.replace(env=env_set(s.env, step.var, v)): vec for s, vec in current.items()}
                current = run.block(frame, step.body, current, Ctx(ctx.number, ctx.say, step))
            for s, vec in current.items():
                _add(out, s.replace(env=env_drop(s.env, step.var)), vec)
    finally:
        run.loop_vars.pop()
    return out


def _jsonable(v: Any) -> Any:
    if isinstance(v, Symbol):
        return v.name
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def h_let(run: Runner, frame: Frame, step: st.Let, frontier: Frontier, ctx: Ctx) -> Frontier:
    ev = run.evaluator(frame)
    out: Frontier = {}
    for state, vec in frontier.items():
        env = state.env
        values = {}
        try:
            for name, expr in step.values.items():
                v = _freeze(ev.value(expr, state))
                values[name] = v
                env = env_set(env, name, v)
        except EvalError as exc:
            raise run.fail(frame, step, str(exc)) from None
        new = state.replace(env=env, view=run.views.extend(state.view, ("let", tuple(values.items()))))
        if run.events is not None:
            run.record(frame, ctx, "let", {k: _jsonable(v) for k, v in values.items()}, state, new)
        _add(out, new, vec)
    return out


def h_do(run: Runner, frame: Frame, step: st.Do, frontier: Frontier, ctx: Ctx) -> Frontier:
    if run.events is not None and step.number is not None:
        for state in frontier:
            run.record(frame, ctx, "note", {}, state, state)
    return run.block(frame, step.body, frontier, ctx)


# --------------------------------------------------------------------------- calls


def collect(run: Runner, frame: Frame, state: State) -> SubResult:
    """Read a finished sub-run: its card outputs, public values and resource counts."""
    proto = frame.proto
    ev = run.evaluator(frame)
    used: set[int] = set()
    cards = []
    values = []
    for out in proto.outputs.values():
        if out.cards is not None:
            flats, shape = output_flats(run, frame, out, state, ev)
            used |= set(flats)
            # The cards go back to the caller in the order they lie on the table, whatever the
            # output's encoding: an unordered output ('cards') is compared as a multiset, but
            # the caller can still see or use the order the callee left them in.
            codes = tuple(state.cells[f] for f in flats if state.cells[f] != EMPTY)
            if out.decode == "cards" or len(codes) != len(flats):
                shape = (1, len(codes))
            cards.append((shape, codes))
        else:
            assert out.value is not None
            try:
                values.append(_freeze(ev.value(out.value, state)))
            except EvalError as exc:
                raise run.fail(frame, None, f"output {out.name}: {exc}") from None
    left = [f for f in range(len(state.cells)) if state.cells[f] != EMPTY and f not in used]
    if left:
        raise run.fail(
            frame,
            None,
            "cards are left on the table that are not outputs: "
            + ", ".join(state.layout.describe(f) for f in left[:8])
            + " (put them back with 'discard' or declare them as outputs)",
        )
    return SubResult(tuple(cards), tuple(values), state.out, state.meters)


def output_selections(
    run: Runner, frame: Frame, out: OutputDecl, state: State, ev: Evaluator
) -> tuple[list[tuple[tuple[int, ...], tuple[int, int]]], bool]:
    """The slots (and shape) of an output's cards; several groups when ``cards`` is a list."""
    assert out.cards is not None
    target = out.cards
    node = target.expr.node if target.expr is not None else None
    try:
        if target.name is not None:
            groups, many = [_region_slots(state, target.name)], False
        elif (
            isinstance(node, Index)
            and isinstance(node.obj, Name)
            and node.obj.name not in state.layout.by_name
            and node.obj.name not in frame.globals.names
        ):
            return [((), (1, 0))], False  # the region was emptied and removed: no cards
        else:
            value = ev.public(target.expr, state)  # type: ignore[arg-type]
            if isinstance(value, list):
                groups, many = [_one_selection(state, v, out.name) for v in value], True
            else:
                groups, many = [_one_selection(state, value, out.name)], False
        _check_hand_outputs(out, state, groups)
    except EvalError as exc:
        raise run.fail(frame, None, f"output {out.name}: {exc}") from None
    return groups, many


def _check_hand_outputs(out: OutputDecl, state: State, groups: list[tuple[tuple[int, ...], Any]]) -> None:
    """A hand is unordered (the engine keeps it sorted): only an unordered output may read it."""
    if out.decode in ("cards", "card"):
        return
    for flats, _ in groups:
        for f in flats:
            reg = state.layout.owner(f)
            if reg.hand is not None:
                raise EvalError(HAND_IS_UNORDERED.format(name=reg.name))


def _region_slots(state: State, name: str) -> tuple[tuple[int, ...], tuple[int, int]]:
    reg = state.layout.by_name.get(name)
    if reg is None:
        return (), (1, 0)
    return tuple(reg.slots), (reg.rows, reg.cols)


def _one_selection(state: State, value: Any, what: str) -> tuple[tuple[int, ...], tuple[int, int]]:
    if isinstance(value, str):
        return _region_slots(state, value)
    shape = value.shape if isinstance(value, Slots) and value.shape else None
    flats = _flats(_res(value, what), what)
    return flats, shape or (1, len(flats))


def output_flats(
    run: Runner, frame: Frame, out: OutputDecl, state: State, ev: Evaluator
) -> tuple[tuple[int, ...], tuple[int, int]]:
    """The slots of an output that is one group of cards (as sub-protocol results are)."""
    groups, many = output_selections(run, frame, out, state, ev)
    if many:
        raise run.fail(frame, None, f"output {out.name} is a list of groups; a call cannot place it")
    return groups[0]


def _call_setup(
    run: Runner, frame: Frame, step: st.Call, state: State, ev: Evaluator, ctx: Ctx
) -> tuple[Frame, dict[str, int], list[tuple[int, ...]], tuple[Any, ...]]:
    callee = run.library.protocol(step.protocol)
    card_outputs = [o for o in callee.outputs.values() if o.cards is not None]
    try:
        params = {k: as_int(ev.value(e, state)) for k, e in step.params.items()}
        sub = run.frame_for(callee, params, ctx)
        arg_flats = []
        for name in callee.inputs:
            flats = _flats(_res(ev.public(step.args[name], state), f"argument {name}"), f"argument {name}")
            need = sub.input_size(name)
            if len(flats) != need:
                raise EvalError(f"{callee.name} needs {need} cards for {name}, the call gives {len(flats)}")
            for f in flats:
                if f in state.layout.holes:
                    raise EvalError(f"argument slot {state.layout.describe(f)} is empty")
            arg_flats.append(flats)
        targets = tuple(run.resolve_target(frame, step.results[o.name], state, ev) for o in card_outputs)
    except EvalError as exc:
        raise run.fail(frame, step, str(exc)) from None
    return sub, params, arg_flats, targets


def h_call(run: Runner, frame: Frame, step: st.Call, frontier: Frontier, ctx: Ctx) -> Frontier:
    callee = run.library.protocol(step.protocol)
    ev = run.evaluator(frame)
    out: Frontier = {}
    card_outputs = [o for o in callee.outputs.values() if o.cards is not None]
    value_outputs = [o for o in callee.outputs.values() if o.cards is None]
    plans = run.shared.plans

    def touched(setup: tuple[Any, ...], state: State) -> frozenset[int]:
        _, _, arg_flats, targets = setup
        out = {f for fl in arg_flats for f in fl}
        for t in targets:
            if t[0] == "S":
                out.update(t[1])
            elif t[0] == "grid":
                reg = state.layout.by_name[t[1]]
                out.update(reg.slot(r, c) for r in t[2] for c in t[3] if r <= reg.rows)
        return frozenset(out)

    owned: set[int] = set()
    for group in _groups(frontier):
        shared_setup = None
        if run.events is None:
            ev.touched = False
            setup = _call_setup(run, frame, step, group[0][0], ev, ctx)
            if not ev.touched:
                shared_setup = setup
        if any(st_.lazy for st_, _ in group):
            if shared_setup is not None:
                need = touched(shared_setup, group[0][0])
                group = list(settle(dict(group), lambda state, need=need: need).items())
            else:
                group = list(
                    settle(
                        dict(group),
                        lambda state: touched(_call_setup(run, frame, step, state, ev, ctx), state),
                    ).items()
                )
        for state, vec in group:
            sub, params, arg_flats, targets = shared_setup or _call_setup(run, frame, step, state, ev, ctx)
            cells0 = state.cells
            codes = tuple(tuple([cells0[f] for f in fl]) for fl in arg_flats)
            if run.events is not None:
                run.record(
                    frame,
                    ctx,
                    "call",
                    {
                        "protocol": callee.name,
                        "params": params,
                        "args": {
                            n: [state.layout.describe(f) for f in fl]
                            for n, fl in zip(callee.inputs, arg_flats)
                        },
                    },
                    state,
                    state,
                )
            if run.mode == "exact":
                outcomes = _sub_outcomes(run, sub, codes)
            elif run.events is None and sum(len(c) for c in codes) <= SMALL_CALL:
                outcomes = [_draw(run, _sub_outcomes(run, sub, codes))]
            else:
                outcomes = _inline(run, sub, codes)
            for prob, obs, res in outcomes:
                key = (
                    "call",
                    id(step),
                    state.layout,
                    tuple(arg_flats),
                    targets,
                    tuple(shape for shape, _ in res.cards),
                )
                plan = plans.get(key)
                if plan is None:
                    try:
                        plan = _call_plan(state.layout, arg_flats, targets, res, callee.name)
                    except EvalError as exc:
                        raise run.fail(frame, step, str(exc)) from None
                    plans[key] = plan
                consts = tuple(c for _, cs in res.cards for c in cs)
                cells = gather(cells0, plan.src, consts)
                env = state.env
                for o, v in zip(value_outputs, res.values):
                    t = step.results.get(o.name)
                    if t is not None and t.name is not None:
                        env = env_set(env, t.name, v)
                handed = sum(len(fl) for fl in arg_flats)
                o_out, meters = _absorb(plans, state.out, state.meters, res, callee.name, handed)
                view = run.views.extend(state.view, obs) if obs is not None else state.view
                new = State(plan.layout, cells, o_out, env, meters, view, plan.carry(state.lazy))
                run.check_limits(frame, step, new)
                if run.events is not None:
                    run.record(
                        frame,
                        ctx,
                        "return",
                        {
                            "protocol": callee.name,
                            "results": {o.name: step.results[o.name].text for o in card_outputs},
                            "values": {o.name: _jsonable(v) for o, v in zip(value_outputs, res.values)},
                        },
                        state,
                        new,
                    )
                _add(out, new, _scale(vec, prob), owned)
    return out


def _absorb(
    cache: dict[Any, Any],
    out: tuple[tuple[int, int], ...],
    meters: Meters,
    res: SubResult,
    callee: str,
    handed: int,
) -> tuple[tuple[tuple[int, int], ...], Meters]:
    """Helper usage and counters after a call (memoized: the same few combinations recur)."""
    key = ("absorb", out, meters, res.delta, res.meters, callee, handed)
    hit = cache.get(key)
    if hit is None:
        o_out = out_add(out, dict(res.delta))
        hit = (o_out, meters.absorb(res.meters, out, callee, handed).note_out(o_out))
        cache[key] = hit
    return hit


def _call_plan(
    layout: Layout, arg_flats: list[tuple[int, ...]], targets: tuple[Any, ...], res: SubResult, callee: str
) -> Plan:
    d = Draft.of(layout)
    for fl in arg_flats:
        d.take_tokens(fl)
    for tres, (shape, codes) in zip(targets, res.cards):
        toks = [d.new_token(0) for _ in codes]
        if toks:
            _target_coords(d, tres, len(toks), shape, toks, f"result of {callee}")
    layout2, src, consts = d.finish()
    return Plan(layout2, src, consts, {})


SMALL_CALL = 8  # callees on at most this many cards are run exactly once per argument, then sampled


def _draw(run: Runner, outcomes: list[tuple[Fraction, Any, SubResult]]) -> tuple[Fraction, Any, SubResult]:
    """One outcome of a callee, drawn from its exact distribution (same law as running it)."""
    lcm = math.lcm(*(p.denominator for p, _, _ in outcomes))
    pick = run.rng.randrange(lcm)
    for p, obs, res in outcomes:
        pick -= int(p * lcm)
        if pick < 0:
            return Fraction(1), obs, res
    raise AssertionError("probabilities do not add up to 1")


def _inline(
    run: Runner, sub: Frame, codes: tuple[tuple[int, ...], ...]
) -> list[tuple[Fraction, Any, SubResult]]:
    child = Runner(
        run.library,
        "sample",
        context=run.context,
        rng=run.rng,
        events=run.events,
        views=run.views,
        shared=run.shared,
        call_path=run.call_path + [sub.proto.name],
    )
    final = child.run(sub, {sub.state_from_codes(codes): ONE})
    (state,) = final
    # In a single run the callee's whole view is kept, so statistics can look inside it.
    return [(Fraction(1), ("call", sub.proto.name, state.view), collect(child, sub, state))]


def _sub_outcomes(
    run: Runner, sub: Frame, codes: tuple[tuple[int, ...], ...]
) -> list[tuple[Fraction, Any, SubResult]]:
    key: tuple[Any, ...] = (sub.key, codes)
    if sub.proto.context:
        key = key + (id(run.context),)  # its outcomes depend on this run's game functions
    hit = run.shared.subruns.get(key)
    if hit is not None:
        return hit
    child = Runner(
        run.library,
        "exact",
        views=run.views,
        shared=run.shared,
        call_path=run.call_path + [sub.proto.name],
        context=run.context,
    )
    final = child.run(sub, {sub.state_from_codes(codes): ONE})
    joint: dict[tuple[int, SubResult], Fraction] = defaultdict(Fraction)
    for state, vec in final.items():
        joint[(state.view, collect(child, sub, state))] += vec_prob(vec, 0)
    hit = _factor(run, sub, joint)
    run.shared.subruns[key] = hit
    return hit


def _factor(
    run: Runner, sub: Frame, joint: dict[tuple[int, SubResult], Fraction]
) -> list[tuple[Fraction, Any, SubResult]]:
    """Drop a callee's view from the caller's when that is provably lossless.

    If, for every argument the callee is ever run on, P(view, result | args) equals
    Q(view | public outputs) * P(result | args) with one Q for all arguments, the
    callee's view is independent of everything else given its public outputs; keeping
    only the public outputs in the caller's view changes P(view | input) by the same
    factor for every input, so security and correctness are decided the same way.
    Otherwise the callee's whole view becomes one observation of the caller's.
    """
    name = sub.proto.name
    if name in run.shared.no_factor:
        return [(p, ("call", name, v), res) for (v, res), p in joint.items()]
    p_res: dict[SubResult, Fraction] = defaultdict(Fraction)
    p_o: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
    q: dict[tuple[Any, ...], dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    for (v, res), p in joint.items():
        p_res[res] += p
        p_o[res.values] += p
        q[res.values][v] += p
    cond = {o: {v: p / p_o[o] for v, p in dist.items()} for o, dist in q.items()}
    ok = all(p == cond[res.values].get(v, 0) * p_res[res] for (v, res), p in joint.items())
    ok = ok and all(sum(1 for (v, r) in joint if r == res) == len(cond[res.values]) for res in p_res)
    ref = run.shared.factor_refs.setdefault(sub.key, {})
    for o, dist in cond.items():
        if o in ref and ref[o] != dist:
            ok = False
        ref.setdefault(o, dist)
    if not ok:
        raise Refactor(name)
    run.shared.factored[name] = (
        f"{name}: its view depends only on its public outputs "
        f"({', '.join(o.name for o in sub.proto.outputs.values() if o.cards is None) or 'none'})"
    )
    return [(p, ("call", name, res.values) if res.values else None, res) for res, p in p_res.items()]


# --------------------------------------------------------------------------- outputs


def read_outputs(run: Runner, frame: Frame, state: State) -> dict[str, Any]:
    """Every output's value as the verifier sees it (face-down cards included)."""
    ev = run.evaluator(frame)
    values: dict[str, Any] = {}
    for out in frame.proto.outputs.values():
        try:
            if out.cards is None:
                assert out.value is not None
                values[out.name] = _freeze(ev.value(out.value, state))
                continue
            groups, many = output_selections(run, frame, out, state, ev)
            decoded = tuple(_decode(frame, out, state, flats) for flats, _ in groups)
            values[out.name] = decoded if many else decoded[0]
        except DecodeError as exc:
            values[out.name] = DecodeFailure(str(exc))
        except EvalError as exc:
            raise run.fail(frame, None, f"output {out.name}: {exc}") from None
    return values


def _decode(frame: Frame, out: OutputDecl, state: State, flats: tuple[int, ...]) -> Any:
    syms = [symbol_of(state.cells[f]) for f in flats if state.cells[f] != EMPTY]
    if out.decode == "card":
        if len(syms) > 1:
            raise EvalError(f"expected one card, found {len(syms)}")
        return syms[0] if syms else None
    if out.decode == "cards":
        return tuple(sorted(syms, key=lambda s: s.name))
    if out.decode == "faces":
        return tuple(syms)
    assert out.decode is not None
    return frame.bound(out.decode).decode(list(syms))


@dataclass(frozen=True)
class DecodeFailure:
    """An output whose cards do not encode any value (a broken protocol)."""

    reason: str

    def __str__(self) -> str:
        return f"<not a valid encoding: {self.reason}>"


def leftovers(run: Runner, frame: Frame, state: State) -> list[str]:
    """Cards on the table that are not part of any output."""
    ev = run.evaluator(frame)
    used: set[int] = set()
    for out in frame.proto.outputs.values():
        if out.cards is not None:
            for flats, _ in output_selections(run, frame, out, state, ev)[0]:
                used |= set(flats)
    return [
        state.layout.describe(f) for f in range(len(state.cells)) if state.cells[f] != EMPTY and f not in used
    ]


_HANDLERS: dict[type, Any] = {
    st.Note: h_note,
    st.Place: h_place,
    st.Rearrange: h_rearrange,
    st.Swap: h_swap,
    st.Move: h_move,
    st.Take: h_take,
    st.Shuffle: h_shuffle,
    st.Turn: h_turn,
    st.Discard: h_discard,
    st.Return: h_return,
    st.Shift: h_shift,
    st.If: h_if,
    st.For: h_for,
    st.Call: h_call,
    st.Let: h_let,
    st.Do: h_do,
}
