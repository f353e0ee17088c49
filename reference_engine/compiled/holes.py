"""Plans whose new layout is derived from the old one, not made again region by region through
a :class:`~.plans.FastDraft`: places emptied inside one region (:func:`discard_holes`), new
cards into empty places (:func:`fill_holes`), cards out into a new region laid after the others
(:func:`move_out`).

A knockout lottery's round discards its losers' arrows (``[P[2, j] for j in out]``): a few
places of the sleeves' arrow row go empty, every region keeps its size and place. The rounds of
a game meet a new layout at nearly every turn (the hands change size), so that discard's plan is
built again and again; here it costs a list of the slots and one intern look-up
(``Layout.make`` given the old layout's regions as its ``first``: equal regions, the same key).

:func:`discard_holes` applies where a static check on the layout proves the general builder
gives the same plan: every slot in one region that is no hand, each once, none an empty place
already (the interpreter names it), the region's bottom row keeps a card (no row trimmed, the
region not dropped) and no card of the region lies in a sleeve row the region's sleeves do not
keep (no card leaves a sleeve onto the table). Anything else gives None: the general builder's
turn. ``ev.CHECKED`` compares every plan with the interpreter's, its gather and landings
included (``base.same_plan``); ``tests/reference_engine/compiled/test_holes.py`` compares it
with the general builder's on hostile tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from ..cards import EMPTY, ROTATIONS
from ..machine import Plan
from ..machine.plans import remember_landings
from ..table import NEW, SLEEVES, Layout
from .base import _few
from .runs import region_at


def _emptied(layout: Layout, flats: Sequence[int]) -> tuple[frozenset[int], list[int], list[int]] | None:
    """The holes, the sources (``EMPTY`` at the region's empty places) and those places once
    ``flats`` leave their region, or None where the general builder must say (see
    :func:`discard_holes`)."""
    if not flats:
        return None
    n = layout.size
    lo, hi = min(flats), max(flats)
    if lo < 0 or hi >= n:
        return None
    reg = region_at(layout, flats[0])
    off = reg.offset
    end = off + reg.rows * reg.cols
    if reg.hand is not None or lo < off or hi >= end:
        return None
    going = frozenset(flats)
    if len(going) != len(flats):
        return None  # a slot twice: the interpreter names the empty place
    holes = layout.holes
    if holes and not holes.isdisjoint(going):
        return None  # an empty place taken: the interpreter names it
    if layout.sleeved and not layout.inside.isdisjoint(range(off, end)):
        sleeve = reg.sleeve
        if sleeve is None or any(r not in sleeve.rows for r in range(1, reg.rows + 1)):
            return None  # a row outside the region's sleeves holds a sleeved card
    after = holes | going if holes else going
    if after.issuperset(range(end - reg.cols, end)):
        return None  # the bottom row goes empty: trimmed (or the region dropped)
    src = list(range(n))
    empty = list(going)
    if holes:
        empty += holes.intersection(range(off, end))  # the region's own empty places
    for f in empty:
        src[f] = EMPTY
    return after, src, empty


def _gathered(plan: Plan, src: Sequence[int], n: int, empty: list[int]) -> Plan:
    """``plan`` with its gather (``EMPTY`` read at ``n``, after the old cells) and no landings:
    ``src`` with ``n`` at the places ``empty`` (those of its ``EMPTY``, no other)."""
    idx = list(src)
    for f in empty:
        idx[f] = n
    plan.__dict__["_getter"] = itemgetter(*idx) if len(idx) > 1 else _few(tuple(idx))
    return plan


def discard_holes(layout: Layout, flats: Sequence[int]) -> Plan | None:
    """The discard of ``flats`` (slots of one region, in order) as empty places of the same
    layout, or None where that is not the general builder's plan (see the module docs)."""
    emptied = _emptied(layout, flats)
    if emptied is None:
        return None
    after, src, empty = emptied
    plan = Plan(Layout.make((), after, (), layout.regions), tuple(src), (), {}, tuple(flats))
    remember_landings(plan, layout, ())
    return _gathered(plan, src, layout.size, empty)


Sized = tuple[Any, str, list[int]]
"""A target of new cards: its resolved target, its form (``row``, ``rows``, ``columns``) and the
number of codes of each group laid out there, in order."""


def new_codes(
    placements: Sequence[tuple[Any, str, list[list[Any]]]], up: bool
) -> tuple[list[Sized], tuple[int, ...], dict[int, int]]:
    """The groups of new cards of each target as :func:`~.plans.place_sized` lays them out: each
    target with the number of codes of each group, every group's codes in order, and the cards
    taken from the supply (each object counted as often as it is laid out, the objects in the
    order first laid out; an up-down card is one card of the supply)."""
    targets: list[Sized] = []
    consts: list[int] = []
    codes: dict[int, list[int]] = {}  # id of a NewCards -> its codes
    counts: dict[int, int] = {}  # id of a NewCards -> how often it is laid out
    objects: dict[int, Any] = {}
    for tres, form, groups in placements:
        sizes = []
        for group in groups:
            start = len(consts)
            for nc in group:
                key = id(nc)
                cs = codes.get(key)
                if cs is None:
                    face = int(up or nc.up)
                    cs = codes[key] = [s.id << 1 | face for s in nc.symbols]
                    objects[key] = nc
                    counts[key] = 0
                counts[key] += 1
                consts.extend(cs)
            sizes.append(len(consts) - start)
        targets.append((tres, form, sizes))
    delta: dict[int, int] = {}
    turned = ROTATIONS.to
    for key, times in counts.items():
        for s in objects[key].symbols:
            card = ROTATIONS.physical(s.id) if s.id in turned else s.id
            delta[card] = delta.get(card, 0) + times
    return targets, tuple(consts), delta


def place_holes(
    layout: Layout, placements: Sequence[tuple[Any, str, list[list[Any]]]], up: bool
) -> Plan | None:
    """:func:`fill_holes` of these new cards (``placements``: each target, its form and its
    groups of new cards)."""
    if len(placements) != 1:
        return None
    return fill_holes(layout, *new_codes(placements, up))


def fill_holes(
    layout: Layout, targets: Sequence[Sized], consts: tuple[int, ...], delta: dict[int, int]
) -> Plan | None:
    """:func:`~.plans.place_sized` of one row of new cards (``consts``, ``delta``: their codes and
    the supply's count) into empty places of a region (a knockout round's fresh arrows, ``P[2,
    alive[2 * i - 1]]``) as the same layout with fewer holes, or None where that is not the
    general builder's plan: one target ``R[rows, columns]`` of a region that is no hand, every
    place in range, each once and empty, as many cards as places, the region's bottom row left
    with a card and no sleeved card in a row the region's sleeves do not keep (the same checks
    as :func:`discard_holes`)."""
    if len(targets) != 1:
        return None
    tres, form, sizes = targets[0]
    if form != "row" or len(sizes) != 1 or tres[0] != "grid":
        return None
    _, name, rows, cols = tres
    reg = layout.by_name.get(name)
    if reg is None or reg.hand is not None or not rows or not cols:
        return None
    width, off = reg.cols, reg.offset
    end = off + reg.rows * width
    if min(rows) < 1 or max(rows) > reg.rows or min(cols) < 1 or max(cols) > width:
        return None
    slots = [off + (r - 1) * width + c - 1 for r in rows for c in cols]
    filled = frozenset(slots)
    holes = layout.holes
    if len(filled) != len(slots) or not holes.issuperset(filled):
        return None  # a place taken, or twice: the general builder (and its message)
    if len(consts) != len(slots):
        return None
    after = holes - filled
    if reg.rows > 1 and after.issuperset(range(end - width, end)):
        return None  # the bottom row stays empty: trimmed
    if layout.sleeved and not layout.inside.isdisjoint(range(off, end)):
        sleeve = reg.sleeve
        if sleeve is None or any(r not in sleeve.rows for r in range(1, reg.rows + 1)):
            return None
    n = layout.size
    src = list(range(n))
    idx = list(src)
    for f in holes.intersection(range(off, end)):  # the region's empty places (those filled too)
        src[f] = EMPTY
        idx[f] = n
    for i, f in enumerate(slots):  # the i-th new card: token NEW - i, gathered after EMPTY
        src[f] = NEW - i
        idx[f] = n + 1 + i
    plan = Plan(Layout.make((), after, (), layout.regions), tuple(src), consts, delta)
    plan.__dict__["_getter"] = itemgetter(*idx) if len(idx) > 1 else _few(tuple(idx))
    remember_landings(plan, layout, ())
    return plan


def move_out(layout: Layout, res: Any) -> Plan | None:
    """:func:`~.plans.build_move` of cards of one region into a new region laid after the others
    (a knockout round's left arrows out of their sleeves, ``U``, 4(a)): the old regions as they
    are, their places emptied, the new region appended; or None where that is not the general
    builder's plan: one move, the cards of one region that is no hand, each once, none an empty
    place, its bottom row left with a card, no sleeved card of it in a row its sleeves do not
    keep, and the new region's name neither on the table nor declared in sleeves."""
    if len(res) != 1:
        return None
    tres, flats, shape = res[0]
    if tres[0] != "name" or not flats:
        return None
    into = tres[1]
    if into in layout.by_name or SLEEVES.get().get(into) is not None:
        return None
    emptied = _emptied(layout, flats)
    if emptied is None:
        return None
    holes, src, empty = emptied
    k = len(flats)
    rows, cols = shape if shape is not None and shape[0] * shape[1] == k else (1, k)
    src.extend(flats)
    n = layout.size
    after = Layout.make([(into, rows, cols, 1, None, None)], holes, (), layout.regions)
    plan = _gathered(Plan(after, tuple(src), (), {}), src, n, empty)
    inside = layout.inside
    out = []
    if inside:
        owner = layout.owner
        for i, t in enumerate(flats):  # the new region lies in no sleeve: a sleeved card lands
            if t in inside:
                reg = owner(t)
                assert reg.sleeve is not None
                out.append((n + i, reg.sleeve.lands_up((t - reg.offset) // reg.cols + 1), t))
    remember_landings(plan, layout, tuple(out))
    return plan
