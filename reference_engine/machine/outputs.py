"""Reading a finished run's outputs: the cards each output names, and their values."""

from __future__ import annotations

import sys
from collections.abc import Collection
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any

from ..cards import EMPTY, SYMBOLS
from ..encodings import DecodeError
from ..errors import SimulationError
from ..expressions import (
    MAX_ITERATIONS,
    MAX_RANGE,
    Call,
    Comprehension,
    Const,
    EvalError,
    Index,
    Name,
    RangeNode,
)
from ..functions import BUILTINS
from ..spec import HAND_IS_UNORDERED, SHOW_IN_ORDER, SHOW_MIXED, OutputDecl
from ..table import Slots, State
from .frame import Evaluator, Frame
from .frontier import _freeze, hand_slots
from .plans import _flats, _res
from .runner import Runner
from .views import Observation

Selection = tuple[tuple[int, ...], tuple[int, int]]
"""The slots of a group of cards and its shape (rows, columns)."""

_NAME = attrgetter("name")
_FIRST = itemgetter(0)  # a variable's name (``env`` holds (name, value) pairs)
_NEVER_FAILS = ("cards", "faces")  # decodings that read any cards (see _decode)


def read_outputs(
    run: Runner, frame: Frame, state: State, only: Collection[str] | None = None, ev: Any = None
) -> dict[str, Any]:
    """Every output's value as the verifier sees it (face-down cards included).

    ``only``: the outputs the caller reads (a game's run). Every other output is still read as
    far as reading it can fail (its value, its cards' places, their decoding), but a group of
    cards read as faces (``cards``, ``faces``: it cannot fail) is left out of the result, and
    one read as a multiset whose reading provably cannot fail (:func:`_never_fails`: a region
    the spec names, every owner's hand) is not read at all.
    ``ev``: an evaluator giving the same values as ``run.evaluator(frame)`` (the compiled
    path's, see compiled/program.py's ``outputs_evaluator``), or None for that one."""
    if ev is None:
        ev = run.evaluator(frame)
    values: dict[str, Any] = {}
    unread: list[str] = []
    for out in frame.proto.outputs.values():
        if (
            only is not None
            and out.name not in only
            and (out.decode == "cards" or out.cards is None)
            and _never_fails(frame, out, state)
        ):
            if not _checked():
                continue  # left out of the result, and reading it cannot fail: not read at all
            unread.append(out.name)  # checked: read all the same (it must not fail), then dropped
        try:
            if out.cards is None:
                assert out.value is not None
                values[out.name] = _freeze(ev.value(out.value, state))
                continue
            groups, many = output_selections(run, frame, out, state, ev)
            if only is not None and out.name not in only and out.decode in _NEVER_FAILS:
                continue
            decoded = tuple(_decode(frame, out, state, flats) for flats, _ in groups)
            values[out.name] = decoded if many else decoded[0]
        except DecodeError as exc:
            values[out.name] = DecodeFailure(str(exc))
        except EvalError as exc:
            raise run.fail(frame, None, f"output {out.name}: {exc}") from None
    for name in unread:
        if isinstance(values.pop(name, None), DecodeFailure):
            raise AssertionError(f"output {name}: read as one that cannot fail, but it failed")
    return values


_PLANS: dict[tuple[int, Any], tuple[Any, Any]] = {}
_PLANS_KEPT = 64  # protocols (with the outputs their callers read) whose reading plan is kept


def read_regions(frame: Frame, state: State, only: tuple[str, ...]) -> dict[str, Any] | None:
    """:func:`read_outputs`' result with ``only`` read straight from the cells, for a protocol
    whose every output is one of two kinds: a card the caller reads (``only``) lying in a region
    the spec names (``cards: R``, ``decode: card``), or one the caller leaves out whose reading
    :func:`_never_fails` on this state. None where the protocol has another output, where such a
    region holds more than one card (the reading fails: its error is the general path's), or
    where an output left out could fail: then the caller reads them all the general way (reading
    draws nothing and makes no view, so a reading left off is no reading at all).
    The same values: a card the symbol of its one code, none for no card (an absent region has
    none); no other output is in the result (:func:`read_outputs` leaves each such one out).
    (The caller compares it with :func:`read_outputs`' under compiled.evaluate.CHECKED.)"""
    proto = frame.proto
    key = (id(proto), only)
    hit = _PLANS.get(key)
    if hit is None or hit[0] is not proto:
        if len(_PLANS) >= _PLANS_KEPT:
            _PLANS.clear()
        hit = _PLANS[key] = (proto, _plan(proto.outputs.values(), only))
    plan = hit[1]
    if plan is None:
        return None
    cards, others = plan
    if others and not _all_unfailing(frame, others, state):
        return None
    values: dict[str, Any] = {}
    by_name = state.layout.by_name
    cells = state.cells
    by_id = SYMBOLS.by_id
    for name, region in cards:
        reg = by_name.get(region)
        if reg is None:
            values[name] = None
            continue
        # A region's slots are consecutive (Region.slots): its cells are one slice of the row.
        codes = [c for c in cells[reg.offset : reg.offset + reg.size] if c != EMPTY]
        if len(codes) > 1:
            return None
        values[name] = by_id(codes[0] >> 1) if codes else None
    return values


def _plan(outs: Any, only: tuple[str, ...]) -> tuple[Any, Any] | None:
    """:func:`read_regions`' plan: the (output, region) pairs read, in the spec's order, and the
    :func:`_shape` of each output left out that is no region (a region named in the spec never
    fails: nothing to prove on the state), each to be proven unfailing on the state by
    :func:`_all_unfailing`; None for any other output."""
    cards: list[tuple[str, str]] = []
    others: list[tuple[str, str]] = []
    for out in outs:
        if out.name in only:
            if out.cards is None or out.cards.name is None or out.decode != "card":
                return None
            cards.append((out.name, out.cards.name))
        elif (out.decode == "cards" or out.cards is None) and (shape := _shape(out)) is not None:
            if shape[0] != "region":
                others.append(shape)
        else:
            return None
    return tuple(cards), tuple(others)


_SHAPES: dict[int, tuple[OutputDecl, tuple[str, str] | None]] = {}
_SHAPES_KEPT = 256  # outputs whose shape is kept (by identity) before the table starts afresh
_PLAIN = (int, bool, str, type(None))


def _never_fails(frame: Frame, out: OutputDecl, state: State) -> bool:
    """Whether reading ``out`` on ``state`` provably cannot fail, so that a caller that leaves
    it out of the result need not read it (:func:`read_outputs`). A group of cards read as a
    multiset (``decode: cards``, never checked for hands, :func:`_check_hand_outputs`): a region
    named in the spec (``cards: D``: an absent region is no cards), or every owner's hand,
    ``[hand(i) for i in 1..len(p)]`` (or ``1..k``, or from 0) with ``p`` a parameter holding a
    list (each item a hand's name: an absent region is no cards), ``hand`` and ``len`` the
    built-in functions and ``p`` seen as nothing else there. A value: a variable the run set to
    a number, a truth value, a text or none (``value: drew``), or ``exists('R')`` with the
    built-in ``exists``. Reading any of them reads no card, draws nothing and makes no view:
    skipping it changes nothing but the time (under compiled.evaluate.CHECKED it is read all the
    same, and must not fail)."""
    kept = _SHAPES.get(id(out))
    if kept is None or kept[0] is not out:
        if len(_SHAPES) >= _SHAPES_KEPT:
            _SHAPES.clear()
        kept = _SHAPES[id(out)] = (out, _shape(out))
    shape = kept[1]
    if shape is None:
        return False
    return shape[0] == "region" or _all_unfailing(frame, (shape,), state)


def _all_unfailing(frame: Frame, shapes: tuple[tuple[str, str], ...], state: State) -> bool:
    """Whether the reading of every output of these shapes (:func:`_shape`, none a region)
    provably cannot fail on ``state`` (see :func:`_never_fails`): the frame's functions, the
    state's regions and variables looked up once for them all (a game's run asks three)."""
    functions = frame.globals.functions
    env = state.env
    names: list[str] | None = None  # the variables' names, in order (made at the first need)
    by_name = state.layout.by_name
    for kind, name in shapes:
        if kind == "variable":
            if names is None:
                names = list(map(_FIRST, env))
            try:
                # The first variable of that name (found in C, as ``var == name`` finds it one by one).
                at = names.index(name)
            except ValueError:
                return False
            if type(env[at][1]) not in _PLAIN:
                return False
            continue
        if kind == "exists":
            if functions.get("exists") is not BUILTINS["exists"] or "__state__" in by_name:
                return False
            if names is None:
                names = list(map(_FIRST, env))
            if "__state__" in names:
                return False
            continue
        if kind != "hands":
            return False
        if functions.get("hand") is not BUILTINS["hand"] or functions.get("len") is not BUILTINS["len"]:
            return False
        if name == "":
            continue  # 1..k, a whole number written in the spec
        value = frame.globals.names.get(name, _ABSENT)
        if value is not frame.params.get(name, _ABSENT) or not isinstance(value, (tuple, list)):
            return False  # not the parameter itself (a symbol or an encoding of that name), or no list
        if len(value) + 1 >= min(MAX_RANGE, MAX_ITERATIONS):  # the range 0..len(p) or 1..len(p) is allowed
            return False
        if name in ("__state__", "__reader__") or name in by_name:
            return False
        if names is None:
            names = list(map(_FIRST, env))
        if name in names:
            return False
    return True


_ABSENT = object()


def _shape(out: OutputDecl) -> tuple[str, str] | None:
    """What :func:`_never_fails` recognises of ``out``: ("region", R) for ``cards: R``, ("hands",
    p) for every owner's hand (p "" for ``1..k``), ("variable", v) for ``value: v``, ("exists",
    R) for ``value: "exists('R')"``; None for anything else."""
    if out.cards is not None:
        if out.decode != "cards":
            return None
        if out.cards.name is not None:
            return ("region", out.cards.name)
        param = _every_hand(out.cards.expr.node) if out.cards.expr is not None else None
        return None if param is None else ("hands", param)
    node = out.value.node if out.value is not None else None
    if isinstance(node, Name):
        return ("variable", node.name)
    if (
        isinstance(node, Call)
        and node.func == "exists"
        and len(node.args) == 1
        and isinstance(node.args[0], Const)
        and type(node.args[0].value) is str
    ):
        return ("exists", node.args[0].value)
    return None


def _checked() -> bool:
    """Whether the compiled path's checks are on (compiled/evaluate.py's ``CHECKED``)."""
    evaluate = sys.modules.get("reference_engine.compiled.evaluate")
    return bool(getattr(evaluate, "CHECKED", False))


def _every_hand(node: Any) -> str | None:
    """The parameter ``p`` of ``[hand(i) for i in 1..len(p)]`` ("" for ``1..k``, ``k`` a whole
    number), or None for any other expression (see :func:`_never_fails`)."""
    if not (isinstance(node, Comprehension) and len(node.clauses) == 1 and len(node.variables) == 1):
        return None
    (kind, seq), var = node.clauses[0], node.variables[0]
    elem = node.element
    if not (
        kind == "for"
        and isinstance(elem, Call)
        and elem.func == "hand"
        and len(elem.args) == 1
        and isinstance(elem.args[0], Name)
        and elem.args[0].name == var
        and isinstance(seq, RangeNode)
        and isinstance(seq.lo, Const)
        and seq.lo.value in (0, 1)
        and type(seq.lo.value) is int
    ):
        return None
    hi = seq.hi
    if isinstance(hi, Const) and type(hi.value) is int and 0 <= hi.value - seq.lo.value < 16:
        return ""
    if (
        isinstance(hi, Call)
        and hi.func == "len"
        and len(hi.args) == 1
        and isinstance(hi.args[0], Name)
        and hi.args[0].name != var
    ):
        return hi.args[0].name
    return None


def output_selections(
    run: Runner, frame: Frame, out: OutputDecl, state: State, ev: Evaluator
) -> tuple[list[Selection], bool]:
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


def _check_hand_outputs(out: OutputDecl, state: State, groups: list[Selection]) -> None:
    """A hand is unordered (the engine keeps it sorted): only an unordered output may read it."""
    if out.decode in ("cards", "card") or not hand_slots(state.layout):
        return
    for flats, _ in groups:
        for f in flats:
            reg = state.layout.owner(f)
            if reg.hand is not None:
                raise EvalError(HAND_IS_UNORDERED.format(name=reg.name))


def _region_slots(state: State, name: str) -> Selection:
    reg = state.layout.by_name.get(name)
    if reg is None:
        return (), (1, 0)
    return tuple(reg.slots), (reg.rows, reg.cols)


def _one_selection(state: State, value: Any, what: str) -> Selection:
    if isinstance(value, str):
        return _region_slots(state, value)
    shape = value.shape if isinstance(value, Slots) and value.shape else None
    flats = _flats(_res(value, what), what)
    return flats, shape or (1, len(flats))


def output_flats(run: Runner, frame: Frame, out: OutputDecl, state: State, ev: Evaluator) -> Selection:
    """The slots of an output that is one group of cards (as sub-protocol results are)."""
    groups, many = output_selections(run, frame, out, state, ev)
    if many:
        raise run.fail(frame, None, f"output {out.name} is a list of groups; a call cannot place it")
    return groups[0]


def _decode(frame: Frame, out: OutputDecl, state: State, flats: tuple[int, ...]) -> Any:
    by_id = SYMBOLS.by_id  # symbol_of, without a call per card
    syms = [by_id(c >> 1) for c in map(state.cells.__getitem__, flats) if c != EMPTY]
    if out.decode == "card":
        if len(syms) > 1:
            raise EvalError(f"expected one card, found {len(syms)}")
        return syms[0] if syms else None
    if out.decode == "cards":
        return tuple(sorted(syms, key=_NAME))
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


def shown(run: Runner, frame: Frame, state: State, values: dict[str, Any]) -> list[Observation]:
    """What the table sees when the public card outputs are shown at the end, beyond their
    values: ``("shown", output, symbol ids)`` for a group of several cards shown in table order
    and read as a multiset (``cards``), or one that decodes to no value. Every other shown
    group is a function of its value (a declared encoding, ``card``, ``faces``), and a hand, or
    an output shown ``mixed``, comes out in a uniformly random order, which tells nothing but
    which cards they are (its value)."""
    out: list[Observation] = []
    ev = run.evaluator(frame)
    for o in frame.proto.outputs.values():
        if not o.public or o.cards is None:
            continue
        failed = isinstance(values.get(o.name), DecodeFailure)
        if not failed and (o.decode != "cards" or o.show == SHOW_MIXED):
            continue
        groups, many = output_selections(run, frame, o, state, ev)
        for i, (flats, _) in enumerate(groups):
            codes = [state.cells[f] for f in flats if state.cells[f] != EMPTY]
            if not failed and (len(codes) < 2 or any(state.layout.owner(f).hand for f in flats)):
                continue
            name = f"{o.name}[{i + 1}]" if many else o.name
            out.append(("shown", name, tuple(c >> 1 for c in codes)))
    return out


def handling(run: Runner, frame: Frame, state: State) -> dict[str, str]:
    """How the table handles each card output of several cards at the end, for a booklet to say:
    ``in-order`` (shown where the cards lie), ``mixed`` (shown after mixing them face down:
    ``show: mixed``, or a hand), ``hand`` (not shown, but a hand: laid out for a caller only
    after its holder mixes it)."""
    out: dict[str, str] = {}
    ev = run.evaluator(frame)
    for o in frame.proto.outputs.values():
        if o.cards is None:
            continue
        groups, _ = output_selections(run, frame, o, state, ev)
        several = [fl for fl, _ in groups if sum(1 for f in fl if state.cells[f] != EMPTY) > 1]
        if not several:
            continue
        in_hand = any(state.layout.owner(f).hand for fl in several for f in fl)
        if o.public:
            out[o.name] = SHOW_MIXED if in_hand or o.show == SHOW_MIXED else SHOW_IN_ORDER
        elif in_hand:
            out[o.name] = "hand"
    return out


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


def order_read(run: Runner, frame: Frame, state: State) -> frozenset[int] | None:
    """The lazily scrambled cards whose order the outputs read, to be drawn before reading them.

    A lazy block is face down, so public values and selections read the same in every order of
    it; a card output reads its order unless it decodes as an unordered multiset (``cards``) and
    holds all of the block or none of it, and is not shown in table order at the end (see
    :func:`shown`). Such blocks can stay lazy to the end: every order
    gives the same outputs, so drawing them would only multiply identical readings.
    """
    if not state.lazy:
        return frozenset()
    ev = run.evaluator(frame)
    try:
        groups = [
            (frozenset(flats), out.decode == "cards" and out.show != SHOW_IN_ORDER)
            for out in frame.proto.outputs.values()
            if out.cards is not None
            for flats, _ in output_selections(run, frame, out, state, ev)[0]
        ]
    except SimulationError:
        return None  # the outputs cannot be read here: draw everything, and reading reports it
    need: set[int] = set()
    for block in state.lazy:
        cards = {f for pile in block for f in pile}
        for flats, unordered in groups:
            common = cards & flats
            if common and (not unordered or common != cards):
                need |= cards
                break
    return frozenset(need)
