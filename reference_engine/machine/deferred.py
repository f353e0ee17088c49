"""Deferred inputs: an exact run starts from one table for all inputs, and learns an input's
cards only when a step first looks at them.

An exact verification runs every admissible input. Built eagerly, that is one table per
input from the first step (127,449 tables for a round of Gakmoro), although most steps touch
only some inputs' cards: Alice's additions never look at Bob's bundles. Here each face-down
input card starts as a *placeholder*: a code of its own (above every symbol) that stands for
"the k-th card of input x (element i)". A table with placeholders stands for one table per
input of its probability vector: the same table with each placeholder replaced by that
input's card. Every action that reads a card's face (turning it, handing it to a callee,
taking it into a hand or the supply, reading an output) first draws it, exactly like a lazily
scrambled pile (:func:`~.lazypiles.settle`): :meth:`Deferred.split` splits the vector by the
values of the inputs whose cards are needed, and fills those values in. Actions that only move
face-down cards (placing, moving, shuffling) move placeholders like any card, and a face-down
placeholder shows what any face-down card shows. So every input's tables and probabilities
are the eager run's, and the eager run (:func:`~..verify.exact.run_exact`) stays the reference
the tests compare with.

Only elements whose cards are face down for every value are deferred; placeholders are never
equal to each other, so two inputs' tables merge only once their cards are filled in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..cards import is_up
from ..errors import EvalError
from ..meters import Meters
from ..table import Layout, State
from .frame import Frame

PLACEHOLDER = 1 << 41
"""Placeholder codes start here (symbol ids stay far below 2**40); a placeholder is face down."""

Element = tuple[str, int | None]
"""An input's element: (input name, index in an array input, or None for a plain input)."""
Vec = tuple[int, dict[int, int]]


class Deferred:
    """The placeholders of one exact run over ``assignments`` (the admissible inputs)."""

    def __init__(self, frame: Frame, assignments: list[dict[str, Any]]):
        self.frame = frame
        self.assignments = assignments
        self.slots: list[tuple[Element, int]] = []  # placeholder number -> (element, card k)
        self._first: dict[Element, int] = {}  # element -> its first placeholder number
        self.deferred: set[Element] = set()
        for name, decl in frame.proto.inputs.items():
            if frame.groups(name) is not None:
                continue  # dealt hands: built as they are
            bound = frame.bound(decl.encoding)
            count = frame.input_count(name)
            for i in _indices(count):
                try:
                    values = bound.domain(i) if i is not None else bound.domain()
                    codes = [self.codes(decl.encoding, v) for v in values]
                except Exception:
                    continue
                if codes and all(len(c) == bound.width and not any(is_up(x) for x in c) for c in codes):
                    self.deferred.add((name, i))

    def codes(self, encoding: str, value: Any) -> tuple[int, ...]:
        """The face-down cards encoding ``value`` (the frame's memo)."""
        return self.frame.encoded(encoding, value)

    def value(self, u: int, element: Element) -> Any:
        name, i = element
        v = self.assignments[u][name]
        return v if i is None else v[i - 1]

    def initial(self, indices: Iterable[int]) -> dict[State, Vec]:
        """The first frontier: inputs that differ only in deferred elements share one table."""
        inputs = []  # (name, encoding, count, width)
        for name, decl in self.frame.proto.inputs.items():
            inputs.append(
                (name, decl.encoding, self.frame.input_count(name), self.frame.bound(decl.encoding).width)
            )
        eager = [(name, i) for name, _, count, _ in inputs for i in _indices(count)]
        eager = [e for e in eager if e not in self.deferred]
        shared: dict[tuple[Any, ...], dict[int, int]] = {}
        for u in indices:
            values = self.assignments[u]
            for name, _, count, _ in inputs:
                if count is not None and len(values[name]) != count:
                    raise EvalError(f"input {name} needs {count} values, got {len(values[name])}")
            key = tuple(_hashable(self.value(u, e)) for e in eager)
            nums = shared.get(key)
            if nums is None:
                shared[key] = {u: 1}
            else:
                nums[u] = 1
        layout = Layout.make(
            [
                (name, 1, width * (count or 1), max(width, 1), None, self.frame.proto.sleeves.get(name))
                for name, _, count, width in inputs
            ]
        )
        frontier: dict[State, Vec] = {}
        for nums in shared.values():
            u = next(iter(nums))
            cells: list[int] = []
            for name, encoding, count, width in inputs:
                for i in _indices(count):
                    element = (name, i)
                    if element in self.deferred:
                        cells.extend(self._placeholders(element, width))
                    else:
                        cells.extend(self.codes(encoding, self.value(u, element)))
            frontier[State(layout, tuple(cells), (), (), Meters(), 0)] = (1, nums)
        return frontier

    def most_cards(self, indices: Iterable[int]) -> dict[int, int]:
        """Symbol id -> the most input cards of that symbol any of these inputs puts down.

        Each element value's cards are tallied once; inputs whose elements have the same
        tallies (every Gakmoro bundle has one heart and seven clubs) are added up once."""
        elements = [
            (name, decl.encoding, i)
            for name, decl in self.frame.proto.inputs.items()
            for i in _indices(self.frame.input_count(name))
        ]
        tallies: dict[tuple[str, Any], tuple[tuple[int, int], ...]] = {}
        seen: set[tuple[tuple[tuple[int, int], ...], ...]] = set()
        most: dict[int, int] = {}
        for u in indices:
            signature = []
            for name, encoding, i in elements:
                v = self.value(u, (name, i))
                key = (encoding, _hashable(v))
                tally = tallies.get(key)
                if tally is None:
                    counts: dict[int, int] = {}
                    for c in self.codes(encoding, v):
                        counts[c >> 1] = counts.get(c >> 1, 0) + 1
                    tally = tallies[key] = tuple(sorted(counts.items()))
                signature.append(tally)
            sig = tuple(signature)
            if sig in seen:
                continue
            seen.add(sig)
            total: dict[int, int] = {}
            for tally in sig:
                for sid, k in tally:
                    total[sid] = total.get(sid, 0) + k
            for sid, k in total.items():
                if k > most.get(sid, 0):
                    most[sid] = k
        return most

    def _placeholders(self, element: Element, width: int) -> list[int]:
        start = self._first.get(element)
        if start is None:
            start = self._first[element] = len(self.slots)
            self.slots += [(element, k) for k in range(width)]
        return [(PLACEHOLDER + start + k) << 1 for k in range(width)]

    def split(self, state: State, vec: Vec, flats: Iterable[int] | None) -> list[tuple[State, Vec]] | None:
        """Fill in the inputs whose placeholders lie at ``flats`` (None: all of them), one table
        per combination of their values; None when there is nothing to fill in there."""
        cells = state.cells
        limit = PLACEHOLDER << 1
        where = range(len(cells)) if flats is None else flats
        elements = {self.slots[(cells[f] >> 1) - PLACEHOLDER][0] for f in where if cells[f] >= limit}
        if not elements:
            return None
        spots = [
            (f, self.slots[(c >> 1) - PLACEHOLDER])
            for f, c in enumerate(cells)
            if c >= limit and self.slots[(c >> 1) - PLACEHOLDER][0] in elements
        ]
        order = sorted(elements, key=lambda e: (e[0], e[1] or 0))
        den, nums = vec
        groups: dict[tuple[Any, ...], dict[int, int]] = {}
        for u, num in nums.items():
            key = tuple(_hashable(self.value(u, e)) for e in order)
            g = groups.get(key)
            if g is None:
                groups[key] = {u: num}
            else:
                g[u] = num
        encoding = {name: decl.encoding for name, decl in self.frame.proto.inputs.items()}
        out = []
        for key, part in groups.items():
            chosen = dict(zip(order, key))
            c2 = list(cells)
            for f, (element, k) in spots:
                c2[f] = self.codes(encoding[element[0]], chosen[element])[k]
            _resort(c2, state.lazy)
            out.append((state.replace(cells=tuple(c2)), (den, part)))
        return out


def _indices(count: int | None) -> list[int | None]:
    """An input's element indices: 1..count for an array, [None] for a plain input."""
    return list(range(1, count + 1)) if count is not None else [None]


def _hashable(v: Any) -> Any:
    return tuple(_hashable(x) for x in v) if isinstance(v, list) else v


def _resort(cells: list[int], lazy: tuple[tuple[tuple[int, ...], ...], ...]) -> None:
    """Lazy blocks hold their contents in sorted order (so equal situations merge): filled-in
    cards may break that order, so each block is laid out sorted again (``cells`` in place)."""
    for block in lazy:
        contents = sorted(tuple(cells[f] for f in pile) for pile in block)
        for pile, content in zip(block, contents):
            for f, v in zip(pile, content):
                cells[f] = v


def has_placeholders(state: State) -> bool:
    return bool(state.cells) and max(state.cells) >= PLACEHOLDER << 1
