"""A call's plan placed relative to where the caller's regions lie.

:func:`~.runs.call_rows` builds the plan of a call whose arguments are whole rows of regions
that are no hands, and whose card outputs go to new regions of their own names, for one layout
(Step 10's knockout lottery: ``L``'s rows in, ``played``/``unselected``/``found`` out). On a
card-level game's table that layout is new nearly every turn (the hands change size), so a plan
kept by layout is rarely met again. What such a call does depends only on the regions it takes
rows from (their index among the layout's regions and their fields but their offset), the rows
taken, the results' names, shapes and sleeves: every other region keeps its cards where they lie.
:class:`Rows` keeps that (the *form* of the call, :func:`form`) and places it on any layout of
that form: the other regions copied as they lie (slices of the cells), each row taken made empty
places or, at the bottom of its region, dropped (a region left empty goes), the new regions
appended with the result's cards. It gives exactly what ``call_rows`` gives for that layout (its
layout, the same interned object, and the cells its gather gives), which the differential tests
check at every call (:data:`~.evaluate.CHECKED`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import EMPTY
from ..expressions import EvalError
from ..table import SLEEVES, Layout
from .runs import call_rows

Where = tuple[int, int]
"""A whole row an argument takes: the index of its region among the layout's, the row (0-based)."""

FORMS_KEPT = 256
"""Call forms a call step keeps (a game meets a few: the number of candidates, the results' sizes)."""

PLACED_KEPT = 1024
"""Layouts a :class:`Rows` keeps what it makes of (half the caller's layouts at Step 10 of
card-level UNO are met again in the bench's first 1,017 turns, four in five in the next 1,000);
it starts afresh beyond. Measured (valgrind, hash seed 0): the first 1,017 turns 4,778.7 M
instructions before, 4,742.5 M after (-0.76 %); the next 1,007 turns 3,873.1 M before, 3,876.4 M
after (+0.09 %: no gain there, though four calls in five hit)."""


def row_of(layout: Layout, flats: Sequence[int]) -> Where | None:
    """Where ``flats`` lie when they are one whole row of a region that is no hand, in order
    (``call_rows``' argument), else None."""
    if not flats:
        return None
    first = flats[0]
    if not 0 <= first < layout.size:
        return None
    i = 0
    for reg in layout.regions:
        if first < reg.offset + reg.size:
            break
        i += 1
    else:  # pragma: no cover - a slot below the size lies in a region
        return None
    row, c = divmod(first - reg.offset, reg.cols)
    n = len(flats)
    if c or n != reg.cols or reg.hand is not None or tuple(flats) != tuple(range(first, first + n)):
        return None
    return i, row


def lands_up(layout: Layout, where: Where) -> bool:
    """Whether a card of that row, handed to a callee from its sleeve, would come out face up
    (:func:`~reference_engine.machine.actions.sleeving.check_arguments`' test: the same for every
    card of a row of one region)."""
    reg = layout.regions[where[0]]
    return reg.sleeve is not None and reg.sleeve.lands_up(where[1] + 1)


def form(
    layout: Layout, where: Sequence[Where], targets: tuple[Any, ...], counts: tuple[Any, ...]
) -> tuple[Any, ...] | None:
    """The key of a call's :class:`Rows`: everything its plan depends on but the regions it
    leaves alone; None where ``call_rows`` does not apply (empty places on the table, a row
    taken twice, a result that is not a new region of its own name)."""
    if layout.holes or not where or len(set(where)) != len(where):
        return None
    names = []
    for t in targets:
        if t[0] != "name":
            return None
        names.append(t[1])
    by_name = layout.by_name
    if len(set(names)) != len(names) or any(n in by_name for n in names):
        return None
    regions = layout.regions
    fields = tuple(
        (i, regions[i].name, regions[i].rows, regions[i].cols, regions[i].unit, regions[i].sleeve)
        for i in sorted({i for i, _ in where})
    )
    given = SLEEVES.get()
    return (tuple(where), fields, targets, counts, tuple([given.get(n) for n in names]))


class Rows:
    """The plan of one call form (see :func:`form`), for any layout of that form."""

    __slots__ = ("edits", "new", "placed")

    def __init__(self, layout: Layout, where: Sequence[Where], targets: tuple[Any, ...], counts: Any):
        taken: dict[int, set[int]] = {}
        for i, row in where:
            taken.setdefault(i, set()).add(row)
        # region index -> (its shape after, None when it goes; whether each row it keeps keeps
        # its cards: False, the row was taken and is now empty places)
        self.edits: dict[int, tuple[tuple[Any, ...] | None, tuple[bool, ...]]] = {}
        for i, gone in taken.items():
            reg = layout.regions[i]
            keep = reg.rows
            while keep and keep - 1 in gone:  # taken bottom rows go
                keep -= 1
            shape = (reg.name, keep, reg.cols, reg.unit, reg.hand, reg.sleeve) if keep else None
            self.edits[i] = (shape, tuple(r not in gone for r in range(keep)))
        given = SLEEVES.get()
        self.new: list[tuple[Any, ...]] = []
        for t, (shape, n) in zip(targets, counts):
            if n:
                high, wide = shape if shape is not None and shape[0] * shape[1] == n else (1, n)
                self.new.append((t[1], high, wide, 1, None, given.get(t[1])))
        # By layout met: the layout after and the pieces of the cells (see apply); each kept
        # layout held, so the same layout met again is the same object (Layout's interning).
        self.placed: dict[Layout, tuple[Layout, tuple[tuple[int, int], ...]]] = {}

    def apply(self, layout: Layout, cells: list[int], consts: tuple[int, ...]) -> tuple[Layout, list[int]]:
        """The layout after the call and its cells (the result's cards ``consts`` last): the
        layout and the pieces of the cells it keeps worked out once per layout met
        (:meth:`_placed`), then the cells copied piece by piece."""
        hit = self.placed.get(layout)
        if hit is None:
            hit = self._placed(layout)
            if len(self.placed) >= PLACED_KEPT:
                self.placed.clear()
            self.placed[layout] = hit
        after, pieces = hit
        out: list[int] = []
        for a, b in pieces:
            out += cells[a:b] if a >= 0 else [EMPTY] * b
        out += consts
        return after, out

    def _placed(self, layout: Layout) -> tuple[Layout, tuple[tuple[int, int], ...]]:
        """The layout after the call on ``layout`` (the results' shapes are the form's), and
        the pieces its cells are made of, in order: ``(a, b)`` the slice ``cells[a:b]`` of the layout before,
        ``(-1, k)`` ``k`` empty places."""
        shapes: list[tuple[Any, ...]] = []
        holes: list[int] = []
        pieces: list[tuple[int, int]] = []
        size = 0  # the cells the pieces so far make
        edits = self.edits
        kept = 0  # the start of the slots that keep their cards since the last region taken from
        i = -1
        for reg in layout.regions:
            i += 1
            edit = edits.get(i)
            if edit is None:
                shapes.append((reg.name, reg.rows, reg.cols, reg.unit, reg.hand, reg.sleeve))
                continue
            at = reg.offset
            if at > kept:  # the regions left alone before this one, as they lie
                pieces.append((kept, at))
                size += at - kept
            kept = at + reg.size
            shape, rows = edit
            if shape is None:
                continue
            shapes.append(shape)
            cols = reg.cols
            for keeps in rows:
                if keeps:
                    pieces.append((at, at + cols))
                else:
                    holes.extend(range(size, size + cols))
                    pieces.append((-1, cols))
                size += cols
                at += cols
        if layout.size > kept:
            pieces.append((kept, layout.size))
        shapes += self.new
        return Layout.make(shapes, holes, ()), tuple(pieces)


def kept_rows(
    forms: dict[tuple[Any, ...], Rows | None],
    layout: Layout,
    where: list[Where],
    arg_flats: list[tuple[int, ...]],
    resolved: tuple[Any, ...],
    res: Any,
) -> Rows | None:
    """A call's :class:`Rows` for its form, kept in ``forms`` (a call step's; at most
    :data:`FORMS_KEPT`); None where it does not apply."""
    counts = tuple([(shape, len(cs)) for shape, cs in res.cards])
    key = form(layout, where, resolved, counts)
    if key is None:
        return None
    try:
        return forms[key]
    except KeyError:
        pass
    got = None
    try:
        made = call_rows(layout, arg_flats, resolved, counts)
    except EvalError:  # a result's region its sleeves refuse: the general plan names the step
        return None
    if made is not None:  # what form() admits, always
        got = Rows(layout, where, resolved, counts)
    if len(forms) >= FORMS_KEPT:
        forms.clear()
    forms[key] = got
    return got
