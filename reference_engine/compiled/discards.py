"""A knockout round's two discards carried out without a plan: the losers' arrows (empty places
of ``P``'s arrow row) and the middle arrows (``U``, the last region, cut off the table).

The discard step builds a plan per layout and places (:func:`~.plans.build_discard`: the check
that no sleeve is split, :func:`~.runs.bottom_row`, :func:`~.holes.discard_holes`) and applies
it with one gather of every cell (:func:`~.base.apply_plan`). A round meets a new layout at
nearly every turn, so most of those plans are built for one use. Here (:func:`after`) the new
layout alone is worked out, by the very calls those builders make (``Layout.make`` with the same
arguments), where a static look at the layout shows that the builder's plan is one of these two
forms; the cells then change in place (the places emptied, or the last region cut off), and the
rest is :func:`~.base.apply_plan`'s: the cards returned to the supply counted in order, a
discard of face-down cards seen, the supply and its limits. Neither form slides a card out of a
sleeve (both builders note that none lands), so no landing is checked. Anything else gives None:
the step's own plan (see :class:`~.knockround.Round`). ``ev.CHECKED`` compares each round with
its steps; ``tests/reference_engine/compiled/test_discards.py`` compares the layouts with the
builders' on hostile tables.
"""

from __future__ import annotations

from ..cards import EMPTY
from ..table import Layout
from .base import _out_added, discarded, spelled
from .plans import kept_whole
from .run import Run

HOLES = 0
"""The places go empty (the layout keeps its regions)."""

CUT = 1
"""The places are the last region, one row: it leaves the table."""


def after(layout: Layout, flats: tuple[int, ...]) -> tuple[int, Layout, tuple[int, ...]] | None:
    """How the discard of ``flats`` goes (:data:`HOLES` or :data:`CUT`), the layout after it and
    the places emptied besides (the region's own empty places, as the builder's gather reads
    them), or None where the builder's plan may be another (see the module docs)."""
    n = layout.size
    if not flats or min(flats) < 0 or max(flats) >= n:
        return None
    if layout.sleeved and not kept_whole(layout, flats):
        return None  # a sleeve split: the builder defers to the interpreter's message
    reg = None
    for r in layout.regions:
        if flats[0] < r.offset + r.rows * r.cols:
            reg = r
            break
    if reg is None or reg.hand is not None:
        return None
    off, cols = reg.offset, reg.cols
    end = off + reg.rows * cols
    holes = layout.holes
    if flats == tuple(range(end - cols, end)):  # the region's whole bottom row (runs.bottom_row)
        if reg.rows != 1 or end != n or (holes and not holes.isdisjoint(flats)):
            return None
        shapes = [(r.name, r.rows, r.cols, r.unit, r.hand, r.sleeve) for r in layout.regions if r is not reg]
        return CUT, Layout.make(shapes, sorted(holes), ()), ()
    # Empty places of the same layout (holes.discard_holes).
    if min(flats) < off or max(flats) >= end:
        return None
    going = frozenset(flats)
    if len(going) != len(flats) or (holes and not holes.isdisjoint(going)):
        return None
    inside = layout.inside
    if inside and not inside.isdisjoint(range(off, end)):
        sleeve = reg.sleeve
        if sleeve is None or any(r not in sleeve.rows for r in range(1, reg.rows + 1)):
            return None
    gone = holes | going if holes else going
    if gone.issuperset(range(end - cols, end)):
        return None
    own = tuple(sorted(holes.intersection(range(off, end)))) if holes else ()
    return HOLES, Layout.make((), gone, (), layout.regions), own


def change(cells: list[int], how: tuple[int, Layout, tuple[int, ...]], flats: tuple[int, ...]) -> list[int]:
    """The cells after the discard (changed in place: the gather of the builder's plan), and
    the cards it returns to the supply, in order."""
    form, _, own = how
    codes = [cells[f] for f in flats]
    if form == CUT:
        del cells[flats[0] :]
    else:
        for f in flats:
            cells[f] = EMPTY
        for f in own:
            cells[f] = EMPTY
    return codes


def apply(run: Run, how: tuple[int, Layout, tuple[int, ...]], flats: tuple[int, ...]) -> None:
    """The discard of ``flats`` as :func:`after` worked it out (its step's checks and count are
    the caller's)."""
    counts, hidden = discarded(change(run.cells, how, flats))
    delta: dict[int, int] = {}
    for sid, k in counts:
        delta[sid] = delta.get(sid, 0) - k
    if hidden:  # an empty place or a face-down card
        run.view = run.views.extend(run.view, ("discard", spelled(counts)))
    run.layout = how[1]
    if delta:
        run.out = _out_added(run.out, delta)
        run.meters = run.meters.note_out(run.out)
