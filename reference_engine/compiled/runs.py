"""Plans built from whole runs of slots: the common whole-table cases of
:mod:`~reference_engine.compiled.plans`' builders where no region need be copied row by row.
A plan's source slots are ranges (the stretches that keep their cards, in order) and the few
cells moved; its gather index is that list. Each builder here gives exactly what the general
builder gives (``tests/reference_engine/compiled/test_plans.py`` checks both against the
interpreter's, on hostile tables); :func:`bottom_row` says None where its case does not apply,
:func:`take_runs` is called by :func:`~.plans.build_take` only in its case; :func:`return_row`
(a whole row back to its owners' hands) and :func:`call_rows` (a call's whole rows in, new
regions out) say None outside theirs."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from ..cards import EMPTY
from ..machine import Plan
from ..machine.plans import remember_landings
from ..table import NEW, SLEEVES, Layout
from .base import _few


def region_at(layout: Layout, flat: int) -> Any:
    """``layout.owner(flat)`` (``flat`` on the table), without building the layout's
    slot-to-region list for one look-up: a new layout (each turn's) is asked once, here, and
    has a dozen regions against hundreds of slots."""
    for reg in layout.regions:
        if flat < reg.offset + reg.rows * reg.cols:
            return reg
    return layout.owner(flat)  # off the table: the layout's own answer (its error)


def bottom_row(layout: Layout, flats: Sequence[int]) -> Plan | None:
    """The discard of a region's whole bottom row (Step 11's and 12's arrows and owner cards, a
    lottery's used row), from whole runs: the region loses that row and the empty rows just
    above it (a region left empty that is no hand goes), the rest keeps its slots in order (the
    region's empty places as ``EMPTY``), nothing leaves a sleeve (the rows left keep their
    sleeves). None: any other discard (the general builder)."""
    first = flats[0]
    if not 0 <= first < layout.size:
        return None
    reg = region_at(layout, first)
    cols = reg.cols
    off = reg.offset
    end = off + reg.rows * cols
    start = end - cols
    if first != start or len(flats) != cols or flats[-1] != end - 1 or list(flats) != list(range(start, end)):
        return None
    holes = layout.holes
    if holes and meets(holes, start, end):
        return None  # an empty place discarded: the interpreter names it
    left = reg.rows - 1  # rows the region keeps: empty bottom rows go too
    mine: list[int] = []
    if holes:
        while left and holes.issuperset(range(off + (left - 1) * cols, off + left * cols)):
            left -= 1
        if left:
            mine = sorted(holes.intersection(range(off, off + left * cols)))
    if not left and reg.hand is not None:
        return None  # a hand keeps an emptied row
    cut = off + left * cols  # slots cut..end leave the layout
    shapes = []
    for r in layout.regions:
        if r is not reg:
            shapes.append((r.name, r.rows, r.cols, r.unit, r.hand, r.sleeve))
        elif left:
            shapes.append((r.name, left, cols, r.unit, r.hand, r.sleeve))
    src = [*range(cut), *range(end, layout.size)]
    idx = src
    new_holes: list[int] = []
    if holes:
        shift = end - cut
        ordered = sorted(holes)  # those before the cut stay, those after it shift, in C
        new_holes = ordered[: bisect_left(ordered, cut)]
        after = ordered[bisect_left(ordered, end) :]
        if after:
            new_holes.extend(map((-shift).__add__, after))
        if mine:
            idx = list(src)
            n = layout.size
            for h in mine:  # the region's own empty places: EMPTY in the plan, gathered as such
                src[h] = EMPTY
                idx[h] = n
    plan = Plan(Layout.make(shapes, new_holes, ()), tuple(src), (), {}, tuple(flats))
    if mine:
        plan.__dict__["_getter"] = itemgetter(*idx) if len(idx) > 1 else _few(tuple(idx))
    else:
        plan.__dict__["_cut"] = (cut, end)  # the gather: two slices (base.gather)
    remember_landings(plan, layout, ())
    return plan


def taken_layout(layout: Layout, reg: Any, n: int, into: str) -> Layout:
    """The layout :func:`take_runs` makes: ``n`` columns of ``reg`` taken into ``into``."""
    rows, width = reg.rows, reg.cols
    shapes = []
    for other in layout.regions:
        if other is not reg:
            shapes.append((other.name, other.rows, other.cols, other.unit, other.hand, other.sleeve))
        elif n < width:
            shapes.append((reg.name, rows, width - n, reg.unit, reg.hand, reg.sleeve))
    shapes.append((into, rows, n, 1, None, reg.sleeve))
    return Layout.make(shapes, (), ())


def take_runs(layout: Layout, reg: Any, cols: Sequence[int], into: str, after: Layout | None = None) -> Plan:
    """:func:`~.plans.build_take` on a table without empty places, of a region in sleeves (the columns
    take their sleeves along), into a new region: from whole runs. Each row of the region keeps
    the stretches between the columns taken (ranges), the new region gets the columns taken, in
    order, row by row; the other regions keep their slots (ranges); nothing leaves a sleeve.
    ``after``: the layout it makes, when known (it depends on how many columns are taken alone)."""
    rows, width, off = reg.rows, reg.cols, reg.offset
    end = off + rows * width
    runs = []  # the stretches of columns (0-based, end excluded) the region keeps
    a = 0
    for c in sorted(cols):
        if c - 1 > a:
            runs.append((a, c - 1))
        a = c
    if a < width:
        runs.append((a, width))
    src = [*range(off)]
    for r in range(rows):
        base = off + r * width
        for a, b in runs:
            src.extend(range(base + a, base + b))
    src.extend(range(end, layout.size))
    moved = [c - 1 for c in cols]
    for r in range(rows):
        base = off + r * width
        src.extend([base + c for c in moved])
    if after is None:
        after = taken_layout(layout, reg, len(cols), into)
    plan = Plan(after, tuple(src), (), {})
    plan.__dict__["_getter"] = itemgetter(*src) if len(src) > 1 else _few(tuple(src))
    remember_landings(plan, layout, ())
    return plan


def return_row(
    layout: Layout,
    flats: Sequence[int],
    names: Sequence[str],
    drop: Sequence[int] = (),
    then: Sequence[int] = (),
    gone: Sequence[int] = (),
) -> Plan | None:
    """:func:`~.plans.build_return` of one whole row of a region that is no hand (Step 12's
    sleeves, a set-aside row, Step 11's unselected sleeves), without empty places in that region
    or in the hands named (elsewhere they stay where they are), to hands of one row: from whole
    runs. The region keeps its other rows (the row returned becomes empty places; a bottom row
    goes, a region left empty goes), each hand named keeps its slots and gets its cards at its
    end in order, a new hand comes after the other regions (in the order of its first card);
    nothing leaves a sleeve. None: any other return (the general builder, and its messages).

    ``drop``: the region's whole bottom row, discarded just before (Step 12's arrows, then its
    cards back: :func:`~.fused.discard_return`): the plan of the two steps, from the table
    before both, the dropped cards back to the supply (its ``returned``); the row returned is
    then one of the rows above it. ``then`` (with ``drop``, the row returned the first of three):
    the second row, discarded after the return (Step 12(a)), so that the region goes; the plan
    does not count its cards back (its caller does, after the dropped ones).

    ``gone``: the whole bottom row of another region that is no hand, all of whose other rows
    are empty places, discarded just before (Step 11's owner cards ``L[2, *]``, then the
    unselected sleeves back: :mod:`~.deferred`): that region goes too; the plan does not count
    its cards back (its caller does)."""
    n = len(flats)
    if not n or n != len(names):
        return None
    first = flats[0]
    if not 0 <= first < layout.size:
        return None
    reg = region_at(layout, first)
    cols, off = reg.cols, reg.offset
    row, c = divmod(first - off, cols)
    if c or n != cols or reg.hand is not None or flats[-1] != first + n - 1:
        return None
    if n > 1 and list(flats) != list(range(first, first + n)):
        return None
    rows = reg.rows
    holes = layout.holes
    if holes and meets(holes, off, off + rows * cols):
        return None  # an empty place in the region (the general builder trims and names them)
    away = _gone(layout, gone, reg) if gone else None
    if gone and away is None:
        return None
    if drop:
        bottom = off + (rows - 1) * cols
        if len(drop) != cols or drop[0] != bottom or list(drop) != list(range(bottom, bottom + cols)):
            return None
        rows -= 1  # the region as the discard leaves it: its slots before, the same
        if row >= rows:
            return None
    if then:  # the one row left below the row returned goes after it: the region goes
        if not drop or rows != 2 or row or list(then) != list(range(off + cols, off + 2 * cols)):
            return None
        rows = 1
    groups = _grouped(flats, names)
    by_name = layout.by_name
    for name in groups:
        hand = by_name.get(name)
        if hand is not None and (hand.hand is None or hand.rows != 1):
            return None  # no hand (the general builder defers, for the message), or an odd one
        if hand is not None and holes and meets(holes, hand.offset, hand.offset + hand.cols):
            return None  # a hand with an empty place (the general builder keeps it there)
    shapes: list[tuple[str, int, int, int, str | None, Any]] = []
    src: list[int] = []
    new_holes: list[int] = []
    # The gather as stretches of slots, [start, stop) each (adjacent ones joined), where every
    # slot after keeps a card and each hand's returned cards lie together (Step 11's: one card,
    # or the unselected row): a few slices of the cells (base.gather), not one index per slot.
    # None: an index per slot (Step 12's cards to four or five owners, an emptied row).
    pieces: list[list[int]] | None = []
    emptied = range(0)  # the new slots of the row returned, where it stays as empty places
    end = first + n
    for other in layout.regions:
        if other is away:
            continue  # discarded just before: its last row, the rest empty places
        if other is reg:
            if rows == 1:
                continue  # emptied: a region that is no hand goes
            if row == rows - 1:  # the bottom row goes (the rows above it hold cards)
                shapes.append((reg.name, rows - 1, cols, reg.unit, reg.hand, reg.sleeve))
                src.extend(range(off, first))
                _piece(pieces, off, first)
                continue
            shapes.append((reg.name, rows, cols, reg.unit, reg.hand, reg.sleeve))
            src.extend(range(off, first))
            emptied = range(len(src), len(src) + n)
            new_holes.extend(emptied)
            src.extend([EMPTY] * n)
            src.extend(range(end, off + rows * cols))
            pieces = None
            continue
        got = groups.pop(other.name, None) if other.hand is not None else None
        if got is None:
            shapes.append((other.name, other.rows, other.cols, other.unit, other.hand, other.sleeve))
            there = range(other.offset, other.offset + other.rows * other.cols)
            if holes and meets(holes, there.start, there.stop):  # its empty places stay, at its new slots
                new_holes.extend(map((len(src) - other.offset).__add__, sorted(holes.intersection(there))))
            src.extend(there)
            _piece(pieces, there.start, there.stop)
            continue
        shapes.append((other.name, 1, other.cols + len(got), other.unit, other.hand, other.sleeve))
        src.extend(range(other.offset, other.offset + other.cols))
        src.extend(got)
        _piece(pieces, other.offset, other.offset + other.cols)
        pieces = _pieces_of(pieces, got)
    for name, got in groups.items():  # new hands, in the order of their first card
        shapes.append((name, 1, len(got), 1, name, None))
        src.extend(got)
        pieces = _pieces_of(pieces, got)
    plan = Plan(Layout.make(shapes, new_holes, ()), tuple(src), (), {}, tuple(drop))
    if pieces is not None:
        plan.__dict__["_slices"] = tuple([slice(a, b) for a, b in pieces])
    else:
        idx = src
        if emptied:
            idx = list(src)
            idx[emptied.start : emptied.stop] = [layout.size] * n  # EMPTY: gathered from the cells' end
        plan.__dict__["_getter"] = itemgetter(*idx) if len(idx) > 1 else _few(tuple(idx))
    remember_landings(plan, layout, ())
    return plan


def _piece(pieces: list[list[int]] | None, a: int, b: int) -> None:
    """Slots ``a`` to ``b - 1`` gathered next: joined to the stretch before where it ends at
    ``a``."""
    if pieces is None or a >= b:
        return
    if pieces and pieces[-1][1] == a:
        pieces[-1][1] = b
    else:
        pieces.append([a, b])


def _pieces_of(pieces: list[list[int]] | None, got: list[int]) -> list[list[int]] | None:
    """``pieces`` with a hand's returned cards ``got`` (increasing slots) gathered next: one
    stretch where they lie together, else None (the gather goes slot by slot)."""
    if pieces is None or not got:
        return pieces
    if got[-1] - got[0] != len(got) - 1:
        return None
    _piece(pieces, got[0], got[-1] + 1)
    return pieces


def _grouped(flats: Sequence[int], names: Sequence[str]) -> dict[str, list[int]]:
    """Each name's slots, in order; the names in order of their first slot. One name (a row
    back to one hand: Step 11's): the slots as they are; several (Step 12's, a hundred cards to
    four or five owners): each slot appended to its name's list."""
    first = names[0]
    if names.count(first) == len(names):
        return {first: list(flats)}
    groups: dict[str, list[int]] = {name: [] for name in dict.fromkeys(names)}
    for f, name in zip(flats, names):
        groups[name].append(f)
    return groups


def meets(holes: frozenset[int], a: int, b: int) -> bool:
    """Whether an empty place lies in slots ``a`` to ``b - 1``: ``not holes.isdisjoint(range(a,
    b))``, which goes through the range (hundreds of slots of the grid) where the table has a
    few empty places (the virtual player's cards gone to the lottery): the places are tested."""
    if b - a <= len(holes):
        return not holes.isdisjoint(range(a, b))
    return any([a <= h < b for h in holes])


def _gone(layout: Layout, gone: Sequence[int], reg: Any) -> Any:
    """The region ``gone`` (a discard just before a return of ``reg``'s row) takes off the table
    whole: its whole bottom row, its other rows all empty places, no hand, not ``reg``; else
    None."""
    first = gone[0]
    if not 0 <= first < layout.size:
        return None
    away = region_at(layout, first)
    if away is reg or away.hand is not None:
        return None
    cols, off = away.cols, away.offset
    bottom = off + (away.rows - 1) * cols
    if len(gone) != cols or first != bottom or list(gone) != list(range(bottom, bottom + cols)):
        return None
    holes = layout.holes
    if holes and not holes.isdisjoint(gone):
        return None  # an empty place discarded: the interpreter names it
    if bottom > off and not (holes and holes.issuperset(range(off, bottom))):
        return None  # a card left in a row above: the region stays
    return away


def call_rows(
    layout: Layout, arg_flats: Sequence[Sequence[int]], targets: Sequence[Any], counts: Sequence[Any]
) -> Plan | None:
    """:func:`~.plans.build_call` where each argument is a whole row of a region that is no hand
    (rows all different) and each card output goes to a new region of its own name, on a table
    without empty places (Step 10's knockout lottery: the set-aside rows in, the played card and
    the unselected ones out): from whole runs. A region keeps its other rows as ranges (a row
    taken becomes empty places, taken bottom rows go, a region left empty goes); the new regions
    come after, in order, their cards new; nothing leaves a sleeve. None: any other call."""
    if layout.holes or not arg_flats:
        return None
    owner = layout.owner
    size = layout.size
    taken: dict[str, set[int]] = {}  # region -> the rows (0-based) taken
    for flats in arg_flats:
        if not flats:
            return None
        first = flats[0]
        if not 0 <= first < size:
            return None
        reg = owner(first)
        row, c = divmod(first - reg.offset, reg.cols)
        n = len(flats)
        if c or n != reg.cols or reg.hand is not None or flats[-1] != first + n - 1:
            return None
        if list(flats) != list(range(first, first + n)):
            return None
        rows = taken.setdefault(reg.name, set())
        if row in rows:
            return None
        rows.add(row)
    names = [t[1] for t in targets]
    if any(t[0] != "name" for t in targets) or len(set(names)) != len(names):
        return None
    if not set(names).isdisjoint(layout.by_name):
        return None
    shapes: list[tuple[str, int, int, int, str | None, Any]] = []
    src: list[int] = []
    holes: list[int] = []
    for reg in layout.regions:
        gone = taken.get(reg.name)
        off, cols = reg.offset, reg.cols
        if gone is None:
            shapes.append((reg.name, reg.rows, cols, reg.unit, reg.hand, reg.sleeve))
            src.extend(range(off, off + reg.rows * cols))
            continue
        keep = reg.rows
        while keep and keep - 1 in gone:  # taken bottom rows go
            keep -= 1
        if not keep:
            continue  # emptied: a region that is no hand goes
        shapes.append((reg.name, keep, cols, reg.unit, reg.hand, reg.sleeve))
        for r in range(keep):
            if r in gone:
                holes.extend(range(len(src), len(src) + cols))
                src.extend([EMPTY] * cols)
            else:
                src.extend(range(off + r * cols, off + (r + 1) * cols))
    given = SLEEVES.get()
    new = 0
    first_new = len(src)  # the new cards come last, in order
    for name, (shape, n) in zip(names, counts):
        if not n:
            continue
        high, wide = shape if shape is not None and shape[0] * shape[1] == n else (1, n)
        shapes.append((name, high, wide, 1, None, given.get(name)))
        src.extend(range(NEW - new, NEW - new - n, -1))
        new += n
    idx = src  # the gather's index: the slots, EMPTY as size, the i-th new card as size + 1 + i
    if holes or new:
        idx = list(src)
        for h in holes:  # the rows taken that stay: a few cells
            idx[h] = size
        idx[first_new:] = range(size - 1 - NEW, size - 1 - NEW + new)
    plan = Plan(Layout.make(shapes, holes, ()), tuple(src), (0,) * new, {})
    plan.__dict__["_getter"] = itemgetter(*idx) if len(idx) > 1 else _few(tuple(idx))
    remember_landings(plan, layout, ())
    return plan
