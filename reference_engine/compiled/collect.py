"""A compiled callee's results read back, what depends on its final layout worked out once.

:func:`~reference_engine.machine.subruns.collect` reads a finished callee: each card output's
places (an expression such as ``P[1, *]`` or a region's name), whether it is in a hand, each
value output (``exists('sel')``), and which places no output takes. On a card-level game the
knockout lottery ends on a few layouts only, so most of that is the same from call to call;
the interpreter's evaluator keeps such values by the final variables too, which differ nearly
every time (``alive``, loop counters). :func:`collect_single` keeps them per callee frame by
the final layout and the values of the variables the outputs' expressions name (by their
types too: :func:`~reference_engine.kept.exact`), when those expressions call only functions
of their arguments and the layout (:data:`.steady.PURE_CALLS`) and read no card. What is
worked out at each call is what depends on the cards: their codes, the mixed outputs' draw
(the same random numbers, in the same order), the shown cards and the check that no card is
left over. Anything else (an output that reads a card, another function, an error, a left-over
card) reads the state as :func:`collect` does, which gives its errors.
"""

from __future__ import annotations

from typing import Any

from ..cards import EMPTY, symbol_of
from ..errors import KitgenError
from ..kept import KEPT_PLANS, exact
from ..machine import Frame, Runner, collect
from ..machine.frame import StateScope, deep_plain, detach
from ..machine.frontier import _freeze, hand_slots
from ..machine.outputs import output_flats
from ..machine.plans import SubResult
from ..spec import SHOW_MIXED
from ..table import State
from .steady import PURE_CALLS

CardOut = tuple[tuple[int, ...], tuple[int, int], bool, bool, bool, bool, str]
"""A card output's places, its shape, whether it is in a hand, is public, is shown mixed, is
read as unordered cards, and its name."""

Reading = tuple[tuple[Any, ...], tuple[int, ...]]
"""Per output in order, ``(True, CardOut)`` or ``(False, value)``; the places no output takes."""

READERS_KEPT = 256
"""Callee frames whose readings are kept (a game meets a few)."""

_READERS: dict[int, _Reader] = {}


class _Reader:
    """The readings of one callee frame's finished states (None: this callee is read plainly)."""

    __slots__ = ("frame", "kept", "names")

    def __init__(self, frame: Frame):
        self.frame = frame
        # A plain bounded dict (KEPT_PLANS readings), not a Kept: over 90 % of its look-ups hit.
        self.kept: dict[Any, Reading] = {}
        names: set[str] = set()
        plain = True
        for out in frame.proto.outputs.values():
            expr = out.cards.expr if out.cards is not None else out.value
            if expr is None:
                continue
            if not expr.calls() <= PURE_CALLS:
                plain = False
            names |= expr.names()
        self.names: tuple[str, ...] | None = tuple(sorted(names)) if plain else None

    def read(self, run: Runner, state: State) -> Reading | None:
        """What :func:`collect` reads from ``state`` but its cards (None: read it plainly)."""
        names = self.names
        if names is None:
            return None
        env = dict(state.env)
        key = (state.layout, len(state.cells), exact(tuple([env.get(n, _ABSENT) for n in names])))
        hit = self.kept.get(key)
        if hit is not None:
            return hit
        got = self._reading(run, state)
        if got is None:
            return None
        kept = self.kept
        if len(kept) >= KEPT_PLANS:
            kept.clear()
        kept[key] = got
        return got

    def _reading(self, run: Runner, state: State) -> Reading | None:
        frame = self.frame
        ev = run.evaluator(frame)
        try:
            for out in frame.proto.outputs.values():  # none may read a card (then: plainly)
                expr = out.cards.expr if out.cards is not None else out.value
                if expr is not None:  # as the evaluator finishes it: a value's cards read
                    scope = StateScope(frame, state, public=True, record=True)
                    finish = detach if out.cards is not None else deep_plain
                    finish(expr(scope))
                    if scope.reader.reads:
                        self.names = None
                        return None
            outs: list[Any] = []
            used: set[int] = set()
            in_hands = hand_slots(state.layout)
            for out in frame.proto.outputs.values():
                if out.cards is not None:
                    flats, shape = output_flats(run, frame, out, state, ev)
                    used |= set(flats)
                    hand = bool(in_hands) and not in_hands.isdisjoint(flats)
                    mixed = out.public and out.show == SHOW_MIXED
                    unordered = out.decode == "cards"
                    outs.append((True, (flats, shape, hand, out.public, mixed, unordered, out.name)))
                else:
                    assert out.value is not None
                    outs.append((False, _freeze(ev.value(out.value, state))))
        except (KitgenError, ArithmeticError, LookupError, TypeError, ValueError):
            return None  # collect gives the error
        unused = tuple(f for f in range(len(state.cells)) if f not in used)
        return tuple(outs), unused


_ABSENT: Any = object()
"""A name that is no variable (a region, a parameter: the frame's and the layout's, or none: an
error) in a reading's key: equal to no variable's value (a list ``['absent']`` is one)."""


def collect_single(run: Runner, frame: Frame, state: State) -> SubResult:
    """The one result :func:`collect` gives for a callee's single run (``run.mode`` "sample")."""
    reader = _READERS.get(id(frame))
    if reader is None or reader.frame is not frame:
        if len(_READERS) >= READERS_KEPT:
            _READERS.clear()
        reader = _READERS[id(frame)] = _Reader(frame)
    got = reader.read(run, state) if run.mode == "sample" else None
    cells = state.cells
    if got is None or any(cells[f] != EMPTY for f in got[1]):
        ((_, res),) = collect(run, frame, state)
        return res
    cards: list[tuple[tuple[int, int], tuple[int, ...]]] = []
    values = []
    shown: list[tuple[str, str, tuple[Any, ...]]] = []
    for is_cards, what in got[0]:
        if not is_cards:
            values.append(what)
            continue
        flats, shape, hand, public, mixed, unordered, name = what
        codes = tuple([c for c in map(cells.__getitem__, flats) if c != EMPTY])
        if unordered or len(codes) != len(flats):
            shape = (1, len(codes))
        mix = len(codes) > 1 and (hand or mixed)
        if public:
            syms = [symbol_of(c) for c in codes]
            shown.append(("shown", name, tuple(sorted(syms, key=lambda x: x.name) if mix else syms)))
        if mix:
            shuffled = list(codes)
            run.rng.shuffle(shuffled)
            codes = tuple(shuffled)
        cards.append((shape, codes))
    return SubResult(tuple(cards), tuple(values), state.out, state.meters, tuple(shown))
