"""What layout-changing actions compile to: a :class:`Plan` per layout, built from the action's
resolved arguments (a hashable description of the cards it names, see :func:`_res`) with a
:class:`~reference_engine.table.Draft`, then applied to every state with that layout."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter, not_
from typing import Any

from .. import steps as st
from ..cards import EMPTY, ROTATIONS, Symbol, is_up
from ..expressions import WILDCARD, EvalError, Expression, Index, as_int, plain
from ..meters import Meters, out_add
from ..table import NEW, Draft, Layout, NewCards, Slots, State, gather
from .views import ViewTable

Resolved = tuple[Any, ...]
"""A hashable description of cards or of a target: ``("S", slots, label, shape)`` for cards on
the table, ``("N", symbol ids, up, label)`` for new cards, ``("L", items)`` for a list,
``("name", region)`` or ``("grid", region, rows, columns)`` for a target."""


@dataclass
class Plan:
    """What an action does to any state with a given layout."""

    layout: Layout
    src: tuple[int, ...]
    consts: tuple[int, ...]
    delta: dict[int, int]
    returned: tuple[int, ...] = ()
    describe: Callable[[], dict[str, Any]] | None = None  # trace details, built only when recorded

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
        into a hand: lazily scrambled piles there must be drawn first (see
        :func:`~.lazypiles.settle`); every other card keeps its place in a pile, so a lazy block
        is carried along."""
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

    def entered(self, before: Layout) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Per hand of the new layout, the new slots of the cards that came into it (from the
        table of ``before``, or new), in the order they came: what its holder sees come in."""
        key = f"_entered{id(before)}"
        cached: tuple[tuple[str, tuple[int, ...]], ...] | None = self.__dict__.get(key)
        if cached is None:
            out = []
            for reg in self.layout.regions:
                if reg.hand is None:
                    continue
                came = tuple(
                    g
                    for g in reg.slots
                    if self.src[g] != EMPTY
                    and (self.src[g] < 0 or before.owner(self.src[g]).name != reg.name)
                )
                if came:
                    out.append((reg.name, came))
            cached = tuple(out)
            self.__dict__[key] = cached
            self.__dict__[f"_before{id(before)}"] = before  # keeps the id from being reused
        return cached

    def apply(self, state: State, views: ViewTable, watched: Watched | None = None) -> State:
        cells = state.cells
        fast = self.__dict__.get("_gather")  # gatherer(): the cells picked in C
        if fast is None or fast[0] != len(cells):
            fast = self.__dict__["_gather"] = (*gatherer(self.src, self.consts, len(cells)), _checked())
        get = fast[1]
        if get is None:
            cells = gather(cells, self.src, self.consts)
        else:
            picked = get(cells + fast[2] if fast[2] else cells)
            if fast[3]:  # compiled.evaluate.CHECKED: the general function's cells, exactly
                assert picked == gather(cells, self.src, self.consts), (self.src, cells)
            cells = picked
        delta = self.delta
        view = state.view
        if watched:
            view = seen_in_hands(views, view, watched, self.entered(state.layout), cells)
        if self.returned:
            delta = dict(delta)
            # What the table sees go back: the cards as pieces of the supply (an up-down card
            # does not show which way it pointed).
            returned = sorted(ROTATIONS.physical(state.cells[f] >> 1) for f in self.returned)
            for sid in returned:
                delta[sid] = delta.get(sid, 0) - 1
            if any(not is_up(state.cells[f]) for f in self.returned):
                view = views.extend(view, ("discard", tuple(returned)))
        out = out_add(state.out, delta)
        meters = state.meters.note_out(out) if delta else state.meters
        return State(self.layout, cells, out, state.env, meters, view, self.carry(state.lazy))


Gatherer = tuple[int, Callable[[tuple[int, ...]], tuple[int, ...]] | None, tuple[int, ...]]
"""What :func:`gatherer` makes: the number of cells it is for, the getter (None: use
:func:`gather`) and the cells it reads after the state's (EMPTY, then the plan's constants)."""


def gatherer(src: tuple[int, ...], consts: tuple[int, ...], n: int) -> Gatherer:
    """:func:`gather` for cells of length ``n`` as one ``itemgetter`` over the cells followed by
    EMPTY and the constants (picked in C, not item by item in Python): ``getter(cells + tail)``
    is ``gather(cells, src, consts)`` exactly, since each token ``t`` reads the same item there
    (``cells[t]`` for ``t >= 0``, EMPTY at ``n``, ``consts[NEW - t]`` at ``n + 1 + NEW - t``).
    No getter (None) where the general function does anything else: fewer than two tokens (a
    getter of one index gives the item, not a tuple), a token past the cells or past the
    constants (gather's IndexError, as it was)."""
    idx = []
    for t in src:
        if t >= 0:
            if t >= n:
                return (n, None, ())
            idx.append(t)
        elif t == EMPTY:
            idx.append(n)
        else:
            k = NEW - t
            if not 0 <= k < len(consts):
                return (n, None, ())
            idx.append(n + 1 + k)
    if len(idx) < 2:
        return (n, None, ())
    tail = (EMPTY, *consts) if any(i >= n for i in idx) else ()
    return (n, itemgetter(*idx), tail)


def _checked() -> bool:
    """Whether the compiled path's checks are on (compiled/evaluate.py's ``CHECKED``); read once
    per plan and cell count, without importing the compiled package here."""
    evaluate = sys.modules.get("reference_engine.compiled.evaluate")
    return bool(getattr(evaluate, "CHECKED", False))


Watched = dict[str, str]
"""Hand region -> the person who holds it (who sees every card that comes into it)."""


def seen_in_hands(
    views: ViewTable,
    view: int,
    watched: Watched,
    entered: tuple[tuple[str, tuple[int, ...]], ...],
    cells: tuple[int, ...],
) -> int:
    """``view`` extended with what the holders of watched hands saw come in: one observation
    ``("hand", hand, symbol ids in the order they came)`` per hand (the public's view and the
    other players' views leave it out, see :meth:`ViewTable.project`)."""
    for hand, slots in entered:
        if hand in watched:
            view = views.extend(view, ("hand", hand, tuple(cells[g] >> 1 for g in slots)))
    return view


def _res(value: Any, what: str) -> Resolved:
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


def _flats(r: Resolved, what: str) -> tuple[int, ...]:
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
    # The public card outputs, as everyone saw them shown when the callee ended: ("shown",
    # output, cards in the order they lay, or by name when mixed first or a hand).
    shown: tuple[tuple[str, str, tuple[Symbol, ...]], ...] = ()

    @property
    def public(self) -> tuple[Any, ...]:
        """Everything the callee made public at its end: its public values and shown cards."""
        return self.values + self.shown if self.shown else self.values


# --------------------------------------------------------------------------- sleeves


def check_shown(state: State) -> None:
    """Every card a sleeve shows is face up in the protocol: else the table would see more than
    the protocol's view, and no verdict would hold for it (see actions/sleeving.py)."""
    cells = state.cells
    for f in state.layout.shown:
        if not cells[f] & 1:
            raise EvalError(
                f"the sleeve of {state.layout.describe(f)} lies front up with that card at its front, "
                "facing the clear front, so the table sees it, but the protocol has it face down "
                "(turn it face up before the sleeve shows it, or turn the sleeves back up first)"
            )


Landings = tuple[tuple[int, bool, int], ...]
"""(new slot, lands face up, old slot) of every card a plan slides out of a sleeve."""


def landings(plan: Plan, before: Layout) -> Landings:
    """(new slot, lands face up, old slot) of every card the plan slides out of a sleeve onto
    the table (not into a hand, not back to the spares). Kept on the plan: the answer for the
    layout it was last asked about in one slot (``_land``: that layout and the answer; a plan
    is kept per layout, so it meets that one again and again: one identity test, no key made),
    any other in the plan's dict by the layout's id."""
    last: tuple[Layout, Landings] | None = plan.__dict__.get("_land")
    if last is not None and last[0] is before:
        return last[1]
    key = f"_landings{id(before)}"
    hit: Landings | None = plan.__dict__.get(key)
    if hit is None:
        out = []
        after = plan.layout
        inside, still, src = before.inside, after.inside, plan.src
        # The cards that were inside a sleeve, are still on the table and are not inside now
        # (set operations first: most plans slide nothing out).
        kept = [src[g] for g in still] if len(still) < 2 else itemgetter(*still)(src)
        leaving = inside.difference(kept).intersection(src)
        # In the order of the new slots, as moved_to's.
        for new, old in [(g, t) for g, t in enumerate(src) if t in leaving] if leaving else ():
            if after.owner(new).hand is not None:
                continue
            reg = before.owner(old)
            assert reg.sleeve is not None
            out.append((new, reg.sleeve.lands_up(reg.address(old)[0]), old))
        hit = tuple(out)
        plan.__dict__[key] = hit
        plan.__dict__[f"_before{id(before)}"] = before  # keeps the id from being reused
    plan.__dict__["_land"] = (before, hit)  # holds ``before``: the identity test cannot be fooled
    return hit


def remember_landings(plan: Plan, before: Layout, hit: Landings) -> None:
    """Give :func:`landings` its answer for ``plan`` applied to ``before``, worked out by a
    builder that knows it (the compiled path's, from whole rows)."""
    plan.__dict__[f"_landings{id(before)}"] = hit
    plan.__dict__[f"_before{id(before)}"] = before  # keeps the id from being reused
    plan.__dict__["_land"] = (before, hit)


def check_landings(plan: Plan, before: State, after: State) -> None:
    """A card slid out of a sleeve lands as it faced: the protocol must have it that way."""
    check_landed(plan, before.layout, after.cells)


def check_landed(plan: Plan, before: Layout, cells: Sequence[int]) -> None:
    """:func:`check_landings` from the layout before and the cells after (a compiled run's)."""
    kept = plan.__dict__
    last: tuple[Layout, Landings] | None = kept.get("_land")
    hit = last[1] if last is not None and last[0] is before else landings(plan, before)
    if len(hit) > 1:  # a row slid out (step 9's owner cards): first checked in C, card by card
        fast = kept.get("_landed")
        if fast is None or fast[0] is not hit:
            fast = kept["_landed"] = (hit, _landed_check(hit))
        if fast[1](cells):
            return
    for new, up, old in hit:  # the first card that lands the wrong way, and its message
        if bool(cells[new] & 1) != up:
            reg = before.owner(old)
            assert reg.sleeve is not None
            faced = "front" if reg.address(old)[0] in reg.sleeve.front else "back"
            raise EvalError(
                f"{before.describe(old)} slides out of a sleeve lying {reg.sleeve.side} up, "
                f"facing its {faced}, so it lands {'face up' if up else 'face down'}, but the protocol "
                f"has it {'face down' if up else 'face up'} there"
            )


_ONE = 1
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def _landed_check(hit: Landings) -> Callable[[Sequence[int]], bool]:
    """Whether every card of ``hit`` (:func:`landings`' answer) lands as it must in ``cells``:
    what :func:`check_landed`'s loop tests card by card (``bool(cells[new] & 1) == up``), by
    two C-level gathers (the cards that must land face up, those that must land face down) and
    a C-level test of their faces."""
    # The slots split by face in C (a row slid out is ~100 cards, for each new layout).
    slots, faces = tuple(map(_FIRST, hit)), tuple(map(_SECOND, hit))
    ups = tuple(compress(slots, faces))
    downs = tuple(compress(slots, map(not_, faces)))
    get_up = _getter(ups)
    get_down = _getter(downs)
    odd = _ONE.__and__

    def check(cells: Sequence[int]) -> bool:
        return all(map(odd, get_up(cells))) and not any(map(odd, get_down(cells)))

    return check


def _getter(slots: tuple[int, ...]) -> Callable[[Sequence[int]], Sequence[int]]:
    """The cards at ``slots``, in order (``itemgetter``'s, a tuple whatever their number)."""
    if len(slots) > 1:
        return itemgetter(*slots)
    return lambda cells: tuple([cells[f] for f in slots])


# --------------------------------------------------------------------------- targets


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
    if value is WILDCARD:
        return None if n is None else list(range(1, n + 1))
    v = plain(value)
    items = v if isinstance(v, list) else [v]
    return [as_int(i) for i in items]


def _target_coords(
    d: Draft, tres: Resolved, n: int, shape: tuple[int, int] | None, tokens: list[int], what: str
) -> list[tuple[str, int, int]]:
    """Put ``tokens`` at a resolved target; return the coordinates used."""
    kind = tres[0]
    if kind == "name":
        name = tres[1]
        if name in d.grids:
            _unit, hand, _sleeve = d.meta[name]
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
