"""Reading a finished run's outputs: the cards each output names, and their values."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from ..cards import EMPTY, SYMBOLS
from ..encodings import DecodeError
from ..errors import SimulationError
from ..expressions import EvalError, Index, Name
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
_NEVER_FAILS = ("cards", "faces")  # decodings that read any cards (see _decode)


def read_outputs(
    run: Runner, frame: Frame, state: State, only: Collection[str] | None = None, ev: Any = None
) -> dict[str, Any]:
    """Every output's value as the verifier sees it (face-down cards included).

    ``only``: the outputs the caller reads (a game's run). Every other output is still read as
    far as reading it can fail (its value, its cards' places, their decoding), but a group of
    cards read as faces (``cards``, ``faces``: it cannot fail) is left out of the result.
    ``ev``: an evaluator giving the same values as ``run.evaluator(frame)`` (the compiled
    path's, see compiled/program.py's ``outputs_evaluator``), or None for that one."""
    if ev is None:
        ev = run.evaluator(frame)
    values: dict[str, Any] = {}
    for out in frame.proto.outputs.values():
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
    return values


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
