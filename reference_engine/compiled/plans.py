"""Plans built without the interpreter's draft: the same :class:`~reference_engine.machine.Plan`
(new layout, where each new slot's card comes from, new cards, helper cards taken and returned)
for the common cases of each layout-changing action, made with whole rows and columns at once.

The interpreter builds a plan by editing a :class:`~reference_engine.table.Draft` card by card
and reading it back (its display labels included); a game builds a new plan at nearly every
step, as the table's layout changes from turn to turn. :class:`FastDraft` keeps the same model
(regions copied when an action touches them, emptied regions dropped, empty bottom rows trimmed,
empty places kept as holes) and builds the plan from whole rows. Where a case is not one of
these (an error to report, a label, an unusual target) a builder raises :class:`Defer` and the
caller builds the plan the interpreter's way, which also gives the interpreter's message.

As it builds a plan, :meth:`FastDraft.plan` also works out what applying it needs (the gather's
index over the old cells, and the cards slid out of a sleeve onto the table, from the touched
rows alone), so that a plan met once costs little more than its new layout. A ``sleeve:`` step
(:func:`build_sleeve`) moves no card: only the layout's sleeves change. The tests compare each
builder, and what it works out ahead, with the interpreter's (``tests/reference_engine/compiled/
test_plans.py``, and ``evaluate.CHECKED`` in every differential test).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any

from ..cards import EMPTY, ROTATIONS
from ..expressions import EvalError
from ..functions import hand_name
from ..machine import Plan
from ..machine.plans import Resolved, remember_landings
from ..sleeves import SleeveFrame
from ..table import NEW, SLEEVES, Layout
from .base import _few
from .holes import Sized, discard_holes, fill_holes, move_out, new_codes
from .runs import bottom_row, call_rows, return_row, take_runs

physical = ROTATIONS.physical


class Defer(Exception):
    """Not a case of the fast builders: build the plan the interpreter's way."""


class FastDraft:
    """A layout being edited, regions copied as rows of tokens when touched (see the module docs).

    A token is an old slot (>= 0), ``EMPTY``, or ``NEW - i`` for the i-th new card. Each region
    keeps its unit, hand and sleeves; a new region lies in sleeves as the interpreter's draft
    says (given, or declared for its name by the protocol being run)."""

    __slots__ = ("consts", "grids", "idx", "layout", "leaving", "meta", "order")

    def __init__(self, layout: Layout):
        self.layout = layout
        self.order = [r.name for r in layout.regions]
        self.meta: dict[str, tuple[int, str | None, SleeveFrame | None]] = {
            r.name: (r.unit, r.hand, r.sleeve) for r in layout.regions
        }
        self.grids: dict[str, list[list[int]]] = {}
        self.consts: list[int] = []

    def has(self, name: str) -> bool:
        return name in self.meta

    def grid(self, name: str) -> list[list[int]]:
        g = self.grids.get(name)
        if g is None:
            reg = self.layout.by_name[name]
            cols = reg.cols
            off = reg.offset
            g = [list(range(off + r * cols, off + (r + 1) * cols)) for r in range(reg.rows)]
            holes = self.layout.holes
            if holes:
                mine = holes.intersection(reg.slots)  # the region's empty places only
                for r, row in enumerate(g):
                    if not mine or mine.isdisjoint(row):
                        continue
                    if mine.issuperset(row):
                        row[:] = [EMPTY] * cols  # a whole row of empty places at once
                        continue
                    start = off + r * cols
                    for f in mine.intersection(row):
                        row[f - start] = EMPTY
            self.grids[name] = g
        return g

    def take(self, flats: Sequence[int]) -> list[int]:
        """Remove the cards at old slots ``flats`` in order (a whole stretch of a row at once)."""
        out: list[int] = []
        owner = self.layout.owner
        n = len(flats)
        i = 0
        while i < n:
            f = flats[i]
            reg = owner(f)
            k = f - reg.offset
            cols = reg.cols
            r, c = divmod(k, cols)
            m = min(n - i, cols - c)  # the longest run of slots this row allows
            if m > 1 and flats[i + m - 1] == f + m - 1 and list(flats[i : i + m]) == list(range(f, f + m)):
                j = i + m  # the slots run on to the row's end (or the list's): one comparison
            else:
                j = i + 1  # how far the slots run on along this row
                while j < n and flats[j] == f + (j - i) and c + (j - i) < cols:
                    j += 1
            row = self.grid(reg.name)[r]
            part = row[c : c + (j - i)]
            if EMPTY in part:
                raise Defer()  # an empty place: the interpreter names it
            out.extend(part)
            row[c : c + (j - i)] = [EMPTY] * (j - i)
            i = j
        return out

    def new(self, codes: Sequence[int]) -> list[int]:
        start = len(self.consts)
        self.consts.extend(codes)
        return list(range(NEW - start, NEW - start - len(codes), -1))

    def add_region(
        self, name: str, grid: list[list[int]], hand: str | None = None, sleeve: SleeveFrame | None = None
    ) -> None:
        if name in self.meta or len({len(row) for row in grid}) > 1:
            raise Defer()
        if sleeve is None and hand is None:
            sleeve = SLEEVES.get().get(name)
        self.grids[name] = grid
        self.meta[name] = (1, hand, sleeve)
        self.order.append(name)

    def remove_region(self, name: str) -> None:
        self.grids.pop(name, None)
        del self.meta[name]
        self.order.remove(name)

    def finish(self, keep_empty: Sequence[str] = ()) -> tuple[Layout, tuple[int, ...], tuple[int, ...]]:
        """What :meth:`Draft.finish` gives, without labels; keeps for :meth:`plan` the gather's index
        over the old cells and the cards that leave a sleeve but stay on the table (in touched
        rows outside a sleeve: an untouched region keeps its cards in the same sleeves' rows)."""
        grids = self.grids
        for name in list(self.order):
            grid = grids.get(name)
            if grid is None:
                continue
            while len(grid) > 1 and _row_empty(grid[-1]):  # empty bottom rows trimmed
                grid.pop()
            if self.meta[name][1] is None and name not in keep_empty and _all_empty(grid):
                self.remove_region(name)  # every row empty (what is left of it is one empty row)
        shapes: list[tuple[str, int, int, int, str | None, SleeveFrame | None]] = []
        src: list[int] = []
        odd: list[tuple[int, int]] = []  # stretches of src holding an empty place or a new card
        holes: list[int] = []
        old = self.layout
        n = old.size
        inside = old.inside if old.sleeved else frozenset()
        old_holes = old.holes
        leaving: list[tuple[int, int]] = []  # (new slot, old slot) of cards slid out of a sleeve
        for name in self.order:
            unit, hand, sleeve = self.meta[name]
            grid = grids.get(name)
            if grid is None:  # an untouched region: its slots as one run
                reg = old.by_name[name]
                shapes.append((name, reg.rows, reg.cols, unit, hand, sleeve))
                slots = reg.slots
                if old_holes and not old_holes.isdisjoint(slots):
                    shift = len(src) - reg.offset
                    holes.extend(h + shift for h in old_holes.intersection(slots))
                src.extend(slots)
                continue
            rows = len(grid)
            cols = len(grid[0]) if rows else 0
            shapes.append((name, rows, cols, unit, hand, sleeve))
            for r, row in enumerate(grid, 1):
                base = len(src)
                if EMPTY in row:
                    if row.count(EMPTY) == len(row):  # a whole row of empty places
                        holes.extend(range(base, base + len(row)))
                        odd.append((base, base + len(row)))
                        src.extend(row)
                        continue
                    holes.extend(base + i for i, t in enumerate(row) if t == EMPTY)
                if (
                    inside
                    and hand is None
                    and (sleeve is None or r not in sleeve.rows)
                    and not inside.isdisjoint(row)
                ):
                    leaving.extend((base + i, t) for i, t in enumerate(row) if t in inside)
                if row and min(row) < 0:
                    odd.append((base, base + len(row)))
                src.extend(row)
        # The gather's index over the old cells, then EMPTY (n), then the new cards: the slots
        # as they are, with the rows of empty places and new cards mapped (t < 0: n - 1 - t).
        idx = src
        if odd:
            idx = list(src)
            for start, end in odd:
                part = src[start:end]
                # A row of new cards or empty places alone (a row of arrows): mapped in C.
                idx[start:end] = (
                    map((n - 1).__sub__, part)
                    if max(part) < 0
                    else [t if t >= 0 else n - 1 - t for t in part]
                )
        self.idx = idx
        self.leaving = leaving
        return Layout.make(shapes, holes, ()), tuple(src), tuple(self.consts)

    def plan(self, delta: dict[int, int], returned: tuple[int, ...] = ()) -> Plan:
        """The plan :meth:`finish` describes, with its gather and its cards slid out of a sleeve
        worked out already (from whole rows; the tests compare them with the reference's)."""
        layout, src, consts = self.finish()
        plan = Plan(layout, src, consts, delta, returned)
        idx = self.idx
        plan.__dict__["_getter"] = itemgetter(*idx) if len(idx) > 1 else _few(tuple(idx))
        old = self.layout
        owner = old.owner
        out = []
        for new, t in self.leaving:
            reg = owner(t)
            assert reg.sleeve is not None
            out.append((new, reg.sleeve.lands_up((t - reg.offset) // reg.cols + 1), t))
        remember_landings(plan, old, tuple(out))
        return plan


def _all_empty(grid: list[list[int]]) -> bool:
    """Whether every row is empty, once empty bottom rows are trimmed (the last row is not
    empty unless it is the only one)."""
    return not grid or (len(grid) == 1 and _row_empty(grid[0]))


def _row_empty(row: list[int]) -> bool:
    return not row or (row[0] == EMPTY and row.count(EMPTY) == len(row))


# --------------------------------------------------------------------------- targets


def place_at(d: FastDraft, tres: Resolved, shape: tuple[int, int] | None, tokens: list[int]) -> None:
    """:func:`~reference_engine.machine.plans._target_coords`, for a new region, a hand's end or
    empty places of a region's rows and columns."""
    n = len(tokens)
    kind = tres[0]
    if kind == "name":
        name = tres[1]
        if d.has(name):
            if d.meta[name][1] is None:
                raise Defer()
            d.grid(name)[0].extend(tokens)
            return
        rows, cols = shape if shape is not None and shape[0] * shape[1] == n else (1, n)
        d.add_region(name, [tokens[r * cols : (r + 1) * cols] for r in range(rows)])
        return
    if kind != "grid":
        raise Defer()
    _, name, rows, cols = tres
    if not d.has(name) or not rows or not cols:
        raise Defer()
    grid = d.grid(name)
    width = len(grid[0]) if grid else 0
    top = max(rows)
    while len(grid) < top:
        grid.append([EMPTY] * width)
    if len(rows) * len(cols) != n:
        raise Defer()
    full = (
        len(cols) == width and cols[0] == 1 and cols[-1] == width and list(cols) == list(range(1, width + 1))
    )
    k = 0
    for r in rows:
        if r < 1:
            raise Defer()
        row = grid[r - 1]
        if full:
            if row.count(EMPTY) != width:
                raise Defer()
            row[:] = tokens[k : k + width]
            k += width
            continue
        for c in cols:
            if not 1 <= c <= width or row[c - 1] != EMPTY:
                raise Defer()
            row[c - 1] = tokens[k]
            k += 1


# --------------------------------------------------------------------------- builders


def _tokens(d: FastDraft, item: Resolved, up: bool, delta: dict[int, int]) -> list[int]:
    kind = item[0]
    if kind == "S":
        return d.take(item[1])
    if kind == "N":
        face = int(up or item[2])
        ids = item[1]
        turned = ROTATIONS.to
        for sid in ids:
            card = physical(sid) if sid in turned else sid  # an up-down card is one card of the supply
            delta[card] = delta.get(card, 0) + 1
        return d.new([sid << 1 | face for sid in ids])
    out: list[int] = []
    for sub in item[1]:
        out.extend(_tokens(d, sub, up, delta))
    return out


def _items(res: Resolved) -> Sequence[Resolved]:
    return res[1] if res[0] == "L" else (res,)


def build_place(layout: Layout, res: Resolved, up: bool) -> Plan:
    d = FastDraft(layout)
    delta: dict[int, int] = {}
    for tres, form, ires in res:
        if form == "row":
            line: list[int] = []
            for item in _items(ires):
                line.extend(_tokens(d, item, up, delta))
            grid = [line]
        else:
            lines = []
            for group in _items(ires):
                line = []
                for item in _items(group):
                    line.extend(_tokens(d, item, up, delta))
                lines.append(line)
            if len({len(x) for x in lines}) != 1:
                raise Defer()
            grid = [list(r) for r in zip(*lines)] if form == "columns" else lines
        if not grid or not grid[0]:
            raise Defer()
        flat = [t for row in grid for t in row] if len(grid) > 1 else grid[0]
        place_at(d, tres, (len(grid), len(grid[0])), flat)
    return d.plan(delta)


def build_move(layout: Layout, res: Resolved) -> Plan:
    if (fast := move_out(layout, res)) is not None:
        return fast  # cards of one region into a new one: the old regions as they are
    d = FastDraft(layout)
    for tres, flats, shape in res:
        place_at(d, tres, shape, d.take(flats))
    return d.plan({})


def build_take(layout: Layout, res: Resolved) -> Plan:
    source, cols, into = res
    reg = layout.by_name.get(source)
    if reg is None or len(set(cols)) != len(cols) or (cols and not 0 < min(cols) <= max(cols) <= reg.cols):
        raise Defer()
    if cols and not layout.holes and reg.sleeve is not None and reg.rows and into not in layout.by_name:
        return take_runs(layout, reg, cols, into)
    d = FastDraft(layout)
    grid = d.grid(source)
    if not cols:
        return d.plan({})  # nothing taken (the region touched, as the interpreter's draft has it)
    chosen = set(cols)
    keep = [c for c in range(1, reg.cols + 1) if c not in chosen]
    d.grids[source] = _columns(grid, keep)
    d.add_region(into, _columns(grid, cols), sleeve=reg.sleeve)  # the columns' sleeves go along
    if not keep:
        d.remove_region(source)
    return d.plan({})


def _columns(grid: list[list[int]], cols: Sequence[int]) -> list[list[int]]:
    """The columns ``cols`` (from 1) of each row, in that order: one C-level gather a row."""
    if len(cols) < 2:
        if not cols:
            return [[] for _ in grid]
        i = cols[0] - 1
        return [[row[i]] for row in grid]
    get = itemgetter(*[c - 1 for c in cols])
    return [list(get(row)) for row in grid]


def build_discard(layout: Layout, res: Resolved) -> Plan:
    if layout.sleeved and not kept_whole(layout, res):
        raise Defer()  # the interpreter's check_kept says which card stays in its sleeve
    if res and (plan := bottom_row(layout, res) or discard_holes(layout, res)) is not None:
        return plan
    d = FastDraft(layout)
    d.take(res)
    return d.plan({}, tuple(res))


def kept_whole(layout: Layout, flats: Sequence[int]) -> bool:
    """Whether :func:`~reference_engine.machine.actions.sleeving.check_kept` lets ``flats``
    go: every sleeve one of them lives in (a row its sleeves keep) goes whole. Whole rows at
    once: the sleeves (columns) touched in the kept rows, then each row inside them. A region
    none of them lies in (below the lowest or above the highest: Step 11's owner cards against
    the grid, Step 12's arrows against the regions after it) is passed over, no set made."""
    if not flats:
        return True
    going: set[int] | None = None
    holes = layout.holes
    lo, hi = min(flats), max(flats)
    for reg in layout.regions:
        sleeve = reg.sleeve
        if sleeve is None or not sleeve.keeps:
            continue
        off = reg.offset
        if hi < off or lo >= off + reg.rows * reg.cols:
            continue  # no card of it goes: every kept row disjoint, no sleeve touched
        rows = [r for r in sleeve.rows if r <= reg.rows]
        kept = [r for r in rows if r in sleeve.keeps]
        if not kept:
            continue
        if going is None:
            going = set(flats)
        cols = reg.cols
        touched: set[int] = set()  # columns (0-based) of the sleeves a card leaves from a kept row
        whole = False
        for r in kept:
            line = range(off + (r - 1) * cols, off + r * cols)
            if going.isdisjoint(line):
                continue
            if going.issuperset(line):  # a whole kept row goes (a discard of rows): every sleeve
                whole = True
                break
            start = line.start
            touched.update(f - start for f in going.intersection(line))
        if not whole:
            if not touched:
                continue
            whole = len(touched) == cols
        for r in rows:
            start = off + (r - 1) * cols
            if whole:
                line = range(start, start + cols)
                if going.issuperset(line):
                    continue  # the whole row goes too (one C-level check)
                need = set(line)
            else:
                need = {start + c for c in touched}
            need.difference_update(going)
            if holes and need:
                need.difference_update(holes)
            if need:
                return False
    return True


def build_return(layout: Layout, res: Resolved) -> Plan:
    flats, names = res
    plan = return_row(layout, flats, names)
    if plan is not None:
        return plan
    d = FastDraft(layout)
    tokens = d.take(flats)
    groups: dict[str, list[int]] = {}  # each hand's cards in order; hands in order of first card
    for tok, name in zip(tokens, names):
        got = groups.get(name)
        if got is None:
            got = groups[name] = []
        got.append(tok)
    for name, toks in groups.items():
        if not d.has(name):
            d.add_region(name, [toks], hand=name)
            continue
        if d.meta[name][1] is None:
            raise Defer()
        d.grid(name)[0].extend(toks)
    return d.plan({})


_HANDS: dict[int, str] = {}
HANDS_KEPT = 1024
"""Hand names :func:`hand_names` keeps by owner number (bounded: it starts afresh beyond this)."""


def hand_names(owners: Sequence[Any], numbers: bool = False) -> tuple[str, ...]:
    """``hand_name`` of each owner: for owner numbers alone (a return of every card to its
    owner; ``numbers``: family numbers read from the table), one C-level lookup each; anything
    else (a name, a bool, a list) the function's own way, and its message."""
    if numbers or set(map(type, owners)) == {int}:
        kept = _HANDS
        try:
            return tuple(map(kept.__getitem__, owners))
        except KeyError:
            if len(kept) >= HANDS_KEPT:
                kept.clear()
            for o in owners:
                kept[o] = hand_name(o)
            return tuple(map(kept.__getitem__, owners))
    return tuple([hand_name(o) for o in owners])


def build_call(
    layout: Layout, arg_flats: list[tuple[int, ...]], targets: tuple[Resolved, ...], shapes: list[Any]
) -> Plan:
    """:func:`~reference_engine.machine.calls._call_plan`: the arguments leave the table, each
    card output goes to its target (its cards are filled in from the result at each run)."""
    plan = call_rows(layout, arg_flats, targets, shapes)
    if plan is not None:
        return plan
    return call_draft(layout, arg_flats, targets, shapes)


def call_draft(
    layout: Layout, arg_flats: list[tuple[int, ...]], targets: tuple[Resolved, ...], shapes: list[Any]
) -> Plan:
    """:func:`build_call` the general way (a :class:`FastDraft`)."""
    d = FastDraft(layout)
    for fl in arg_flats:
        d.take(fl)
    for tres, (shape, n) in zip(targets, shapes):
        if n:
            place_at(d, tres, shape, d.new([0] * n))
    return d.plan({})


def build_sleeve(layout: Layout, res: Resolved) -> Plan:
    """:func:`~reference_engine.machine.actions.sleeving._sleeve_build` without its trace
    details (the name of every card slid, which made most of its cost): each named region's
    sleeves turned over or their rows slid out or in; the cards stay where they are. Any
    problem (a region not in sleeves, a row not declared or already there) defers to the
    interpreter's builder, for its message."""
    if layout.labels:
        raise Defer()
    names = layout.by_name
    after: dict[str, SleeveFrame] = {}  # each region named: its sleeves after its operations
    out = False
    for op in res:
        reg = names.get(op.region)
        if reg is None:
            raise Defer()
        sleeve = after.get(reg.name, reg.sleeve)
        if sleeve is None:
            raise Defer()
        after[reg.name] = _sleeved(sleeve, op)
        out = out or bool(op.out)
    # The regions before the first one named are the layout's own (``first``: not looked up).
    regions = layout.regions
    i = 0
    while i < len(regions) and regions[i].name not in after:
        i += 1
    shapes = [(r.name, r.rows, r.cols, r.unit, r.hand, after.get(r.name, r.sleeve)) for r in regions[i:]]
    plan = Plan(Layout.make(shapes, layout.holes, (), regions[:i]), identity(layout.size), (), {})
    plan.__dict__["_identity"] = True  # every card stays where it is: nothing to gather
    # The cards slid out of a sleeve (none where no row slides out).
    remember_landings(plan, layout, _slid_out(layout, plan.layout) if out else ())
    return plan


_IDENTITY: dict[int, tuple[int, ...]] = {}
IDENTITY_KEPT = 64
"""Gathers that keep every card where it is (``tuple(range(n))``), kept by the table's size:
a sleeve step's plan, made for each new layout (a turn's table shrinks by a card or two), shares
one (bounded: it starts afresh beyond this)."""


def identity(n: int) -> tuple[int, ...]:
    """``tuple(range(n))``, kept by ``n`` (see :data:`IDENTITY_KEPT`)."""
    hit = _IDENTITY.get(n)
    if hit is None:
        if len(_IDENTITY) >= IDENTITY_KEPT:
            _IDENTITY.clear()
        hit = _IDENTITY[n] = tuple(range(n))
    return hit


def _slid_out(before: Layout, after: Layout) -> tuple[tuple[int, bool, int], ...]:
    """:func:`~reference_engine.machine.plans.landings` of a plan that keeps every card where it
    is (a ``sleeve:`` step's, ``after`` the same regions as ``before`` with other sleeves): the
    slots inside a sleeve before and not after, in order, each landing as its row faces (none of
    a hand). A region's slots inside its sleeves are its whole rows the sleeves hold
    (:func:`~reference_engine.sleeves.sleeve_slots`), so those are the whole rows its sleeves held
    before and not after, found from the two frames (the general way asks the layouts for every
    slot's region; taking the two sets of slots apart goes through hundreds of slots)."""
    out: list[tuple[int, bool, int]] = []
    for reg, now in zip(before.regions, after.regions):
        sleeve = reg.sleeve
        if sleeve is None or reg.hand is not None or now.sleeve is sleeve:
            continue
        was = sleeve.rows
        held = () if now.sleeve is None else now.sleeve.rows
        cols = reg.cols
        for r in range(1, reg.rows + 1):
            if r in was and r not in held:
                start = reg.offset + (r - 1) * cols
                line = range(start, start + cols)
                out.extend(zip(line, repeat(sleeve.lands_up(r)), line))  # in C: a row of ~100
    return tuple(out)


_SLEEVED: dict[tuple[SleeveFrame, Any], SleeveFrame] = {}
SLEEVED_KEPT = 256
"""Sleeve frames kept by :func:`_sleeved` (a protocol has a few; bounded all the same)."""


def _sleeved(sleeve: SleeveFrame, op: Any) -> SleeveFrame:
    """The sleeves after ``op`` (a :class:`~reference_engine.sleeves.SleeveOp`), as the
    interpreter's builder makes them; :class:`Defer` where it reports a problem."""
    key = (sleeve, op)
    hit = _SLEEVED.get(key)
    if hit is not None:
        return hit
    if op.side is not None:
        sleeve = sleeve.turned(op.side)
    for r in op.out or op.into:
        if r not in sleeve.declared or (r in sleeve.rows) == bool(op.into):
            raise Defer()
    if op.out:
        sleeve = sleeve.with_rows(r for r in sleeve.rows if r not in op.out)
    if op.into:
        sleeve = sleeve.with_rows([*sleeve.rows, *op.into])
    if len(_SLEEVED) >= SLEEVED_KEPT:
        _SLEEVED.clear()
    _SLEEVED[key] = sleeve
    return sleeve


__all__ = [
    "Defer",
    "EvalError",
    "FastDraft",
    "build_call",
    "build_discard",
    "build_move",
    "build_place",
    "build_return",
    "build_sleeve",
    "build_take",
    "hand_name",
    "hand_names",
    "kept_whole",
]


def build_place_new(
    layout: Layout, placements: list[tuple[Resolved, str, list[list[Any]]]], up: bool
) -> Plan:
    """:func:`build_place` for new cards only (each group's, in order, the next new cards)."""
    return place_sized(layout, *new_codes(placements, up))


def place_sized(
    layout: Layout, targets: Sequence[Sized], consts: tuple[int, ...], delta: dict[int, int]
) -> Plan:
    """:func:`build_place_new` from the number of codes of each group (``consts``: every group's
    codes in order, ``delta``: the supply's count; :func:`~.holes.new_codes`): where the new
    cards go follows from those numbers alone, so a place step's kept plan
    (:class:`~.rows.NewPlace`) is made from the sizes it keeps, with whole rows of tokens, no
    card read one by one (a row of arrows or owner cards is ~100 cards, for each new layout)."""
    if (fast := fill_holes(layout, targets, consts, delta)) is not None:
        return fast  # new cards into empty places: the same layout, fewer holes
    d = FastDraft(layout)
    d.consts = list(consts)
    at = NEW  # the token of the target's first new card
    for tres, form, sizes in targets:
        if form == "row":
            if len(sizes) != 1:
                raise Defer()
            grid = [list(range(at, at - sizes[0], -1))]
        elif len(set(sizes)) != 1:
            raise Defer()
        elif form == "columns":  # group i is column i: row r holds the r-th card of each
            width, n = sizes[0], len(sizes)
            grid = [list(range(at - r, at - r - n * width, -width)) for r in range(width)]
        else:
            width, n = sizes[0], len(sizes)
            grid = [list(range(at - i * width, at - (i + 1) * width, -1)) for i in range(n)]
        at -= sum(sizes)
        if not grid or not grid[0]:
            raise Defer()
        flat = [t for row in grid for t in row] if len(grid) > 1 else grid[0]
        place_at(d, tres, (len(grid), len(grid[0])), flat)
    return d.plan(delta)
