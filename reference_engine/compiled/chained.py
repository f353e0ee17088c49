"""A straight block whose kept values follow from where it starts (:class:`Chained`).

A knockout lottery's match decision (``4(c)``): ``turn U``, ``rotate [P[2, alive[2 * i - 1]]
for i in 1..h if U[i] == up]``, ``let out``, ``let alive``, ``discard [P[2, j] for j in out]``,
``discard U``. Each step's value (the places it turns, rotates or discards, a let's value) is
kept by :class:`~.steady.Steady`, each looking up its own key (the layout, the variables it
names, the cards it reads) at every run: five look-ups a round. Here the block looks up one key
at its start and each step then takes its value from what that key kept.

Why one key is enough: only ``turn``, ``rotate``, ``let``, ``discard`` and ``note`` steps
qualify (:func:`entry_names`). None draws, calls, moves cards between regions or makes one; a
turn and a rotation change a card's code by the card alone, a let sets a variable from its kept
value, a discard empties places by a plan of the layout and the places. So the layout a step
meets, the variables it reads and the cards of a region it reads all follow from the layout at
the start, the variables read before any let of the block sets them, and the cards at the start
of the regions some step's value reads (a name a value only selects places of, ``P`` in a
rotation's ``[P[2, j] ...]``, is left out as :class:`~.steady.Steady` leaves it out); the
frame is the same object (its names, ``up``). That is the key (:meth:`Chained.key`). The first
run of a key carries the steps out as they are, each value noted; a later one gives each step
its noted value; a step whose value was not noted (none was asked, or its expression calls a
function that is not one of :data:`~.steady.PURE_CALLS`) works it out as before. The steps
themselves still run: every move, view, counter, check and error is theirs. With
``ev.CHECKED`` each value given is worked out again and must be the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import steps as st
from ..functions import BUILTINS
from ..kept import exact
from . import evaluate as ev
from .run import Run

KEPT = 1024
"""Keys one block keeps (the layout at its start among them); it starts afresh beyond."""

TRIAL = 128
"""Runs after which a block that met its key again in fewer than one in eight stops keeping."""

_NO: Any = object()
_UNSET: Any = object()

_COLLECT: list[list[Any]] = []
"""While a block is compiled for :class:`Chained`: the :class:`~.steady.Steady` values made
for its steps, in order (see :func:`collecting`)."""


def entry_names(steps: list[st.Step]) -> frozenset[str] | None:
    """The names a block's steps read before a ``let`` of it sets them, or None where a step is
    not a ``turn``, ``rotate``, ``let``, ``discard`` or ``note`` (or carries labels)."""
    bound: set[str] = set()
    read: set[str] = set()
    for step in steps:
        if step.labels:
            return None
        if isinstance(step, st.Note):
            continue
        if isinstance(step, (st.Turn, st.Rotate, st.Discard)):
            if step.what is None:
                return None
            read |= step.what.names() - bound
        elif isinstance(step, st.Let):
            for e in step.values.values():
                read |= e.names() - bound
            bound |= set(step.values)
        else:
            return None
    return frozenset(read)


class collecting:
    """``with collecting() as made:`` the Steady values made meanwhile, listed in ``made``."""

    def __enter__(self) -> list[Any]:
        made: list[Any] = []
        _COLLECT.append(made)
        return made

    def __exit__(self, *exc: object) -> None:
        _COLLECT.pop()


def made(value: Any) -> None:
    """Called by every new :class:`~.steady.Steady`: listed for the block being compiled."""
    if _COLLECT:
        _COLLECT[-1].append(value)


class Chained:
    """A block of steps (see the module docs): ``run(run)`` does what ``run_block(run, block)``
    does. Its members are the Steady values of its steps; ``state`` is None between runs, the
    values being noted (a list) while a key is met first, the noted ones (a tuple) after."""

    __slots__ = ("block", "calls", "cards", "hits", "kept", "members", "read", "run_block", "state", "tries")

    def __init__(self, block: Any, read: frozenset[str], members: list[Any], run_block: Callable[..., None]):
        self.block = block
        self.run_block = run_block
        self.members = tuple(members)
        self.read = tuple(sorted(read))
        cards: set[str] = set()
        calls: set[str] = set()
        for slot, m in enumerate(self.members):
            m.chain = self
            m.slot = slot
            if not m.structural:  # a region it names, not only selects, has its cards read
                cards |= set(m.names) - m.selected
            calls |= m.expr.expr.calls()
        self.cards = frozenset(cards)
        self.calls = tuple(sorted(calls))
        self.kept: dict[tuple[Any, ...], tuple[Any, tuple[Any, ...]]] = {}
        self.state: Any = None
        self.tries = 0
        self.hits = 0

    def key(self, run: Run) -> tuple[Any, ...]:
        env = run.vars()
        regions = run.layout.by_name
        cells = run.cells
        key: list[Any] = [run.layout]
        cards = self.cards
        for n in self.read:
            v = env.get(n, _NO)
            if v is _NO:
                if n in cards:
                    reg = regions.get(n)
                    if reg is not None:  # a region a value reads a card of: its cards as they lie
                        v = (_NO, *cells[reg.offset : reg.offset + reg.size])
            elif type(v) is not int:  # by its types too (exact)
                v = exact(v)
            key.append(v)
        return tuple(key)

    def run(self, run: Run) -> None:
        if self.state is not None or (self.tries >= TRIAL and self.hits * 8 < self.tries):
            if self.kept:
                self.kept.clear()
            self.run_block(run, self.block)
            return
        key = self.key(run)
        self.tries += 1
        hit = self.kept.get(key)
        if hit is not None and hit[0] is run.frame:
            self.hits += 1
            self.state = hit[1]
            try:
                self.run_block(run, self.block)
            finally:
                self.state = None
            return
        noted = [_UNSET] * len(self.members)
        self.state = noted
        try:
            self.run_block(run, self.block)
        finally:
            self.state = None
        functions = run.frame.globals.functions
        if any(functions.get(n) is not BUILTINS.get(n) for n in self.calls):
            return
        if len(self.kept) >= KEPT:
            self.kept.clear()
        self.kept[key] = (run.frame, tuple(noted))

    def value(self, member: Any, run: Run) -> Any:
        """A member's value while the block runs."""
        state = self.state
        v = _UNSET if type(state) is list else state[member.slot]
        if v is _UNSET or v is _NO:  # worked out its own way (the block left aside meanwhile)
            self.state = None
            try:
                v = member.value(run)
            finally:
                self.state = state
            if type(state) is list:  # met first: noted (asked twice: not one value a run)
                state[member.slot] = v if state[member.slot] is _UNSET else _NO
            return v
        member.tries += 1  # a value given counts as the member's own hit
        member.hits += 1
        if ev.CHECKED:
            got = member._compute(run)
            if exact(_plain(got)) != exact(_plain(v)):
                raise ev.Mismatch(f"a chained value of {member.expr.expr} is {v!r}, not {got!r}")
        return v


def _plain(v: Any) -> Any:
    return tuple(_plain(x) for x in v) if isinstance(v, (list, tuple)) else v
