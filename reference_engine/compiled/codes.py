"""Rows of table codes turned over by look-up: one C call a row instead of an operation a card.

A card on the table is a code (``symbol_id << 1 | face_up``; :data:`~reference_engine.cards.EMPTY`
for an empty place). Turning a row over card by card in Python makes a new int for each card
(``v ^ 1``, ``v & -2``), and finding an empty place first (``min``) compares every card once
more. Here each row is turned by one ``itemgetter`` over a table from each code met so far to
the code turned: the same ints, found in C. A code the table does not hold yet (met for the
first time, or no card at all) raises ``KeyError`` inside that call; the row is then worked out
card by card, as before, and its codes learnt. So each answer is the card-by-card one exactly:
the table holds, for every int code it has met, exactly what the operation gives for it.

Only ints are learnt (a table's cells are ints: :class:`~.run.Run`); the tables start afresh
beyond :data:`KEPT` codes (a game meets a few hundred).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from ..cards import EMPTY

KEPT = 1 << 16
"""Codes a table holds before it starts afresh."""

_DOWN: dict[int, int] = {EMPTY: EMPTY}
"""Each code met face down (``v & -2``); an empty place (a negative code) left as it is."""

_FLIP: dict[int, int] = {}
"""Each card's code met (never a negative one, an empty place) turned over (``v ^ 1``)."""


def face_down(seg: list[int]) -> Sequence[int]:
    """``[v & -2 if v >= 0 else v for v in seg]``: every card of ``seg`` face down, an empty
    place left empty."""
    if len(seg) > 1:
        try:
            got: tuple[int, ...] = itemgetter(*seg)(_DOWN)
            return got
        except KeyError:
            pass
    down = [v & -2 if v >= 0 else v for v in seg]
    _learn(_DOWN, seg, down)
    return down


def turned(vals: list[int]) -> Sequence[int] | None:
    """``[v ^ 1 for v in vals]``: every card of ``vals`` turned over; None where a place is
    empty (a negative code: nothing turned)."""
    if len(vals) > 1:
        try:
            new: tuple[int, ...] = itemgetter(*vals)(_FLIP)
            return new
        except KeyError:
            pass
    if min(vals) < 0:  # no row: ValueError, as before
        return None
    flipped = [v ^ 1 for v in vals]
    _learn(_FLIP, vals, flipped)
    return flipped


_UP: set[int] = set()
"""Codes met of cards face up (odd, never negative)."""


def all_face_up(vals: list[int]) -> bool:
    """``bool(vals) and min(vals) >= 0 and all(v & 1 for v in vals)``: a card in every place of
    ``vals``, each face up (one set test in C where every code is one met before)."""
    if not vals:
        return False
    if _UP.issuperset(vals):
        return True
    if min(vals) < 0 or not all([v & 1 for v in vals]):
        return False
    if len(_UP) > KEPT:
        _UP.clear()
    _UP.update(v for v in vals if type(v) is int)
    return True


_ODD: set[int] = {EMPTY}
"""Codes met whose low bit is set (``v & 1``): cards face up, and an empty place (``EMPTY``
is odd: the check after each step passes it over, as it always did)."""

_SHOWN: dict[frozenset[int], Callable[[list[int]], Sequence[int]]] = {}
SHOWN_KEPT = 1024
"""Gathers of the slots a sleeve shows, by the set of those slots (a layout's ``shown``: one
object for the many layouts that share their sleeved regions, its hash kept by the set)."""


def shown_odd(shown: frozenset[int], cells: list[int]) -> bool:
    """Whether ``cells[f] & 1`` for every slot ``f`` of ``shown`` (two or more slots), in C:
    one gather and one set test where every code is one met before. False where a code is not
    known yet (or is not odd): the caller then checks slot by slot (its message where a card
    is face down), and teaches the codes of a table that passes (:func:`learn_odd`)."""
    get = _SHOWN.get(shown)
    if get is None:
        if len(_SHOWN) >= SHOWN_KEPT:
            _SHOWN.clear()
        get = _SHOWN[shown] = itemgetter(*shown)
    return _ODD.issuperset(get(cells))


def learn_odd(shown: frozenset[int], cells: list[int]) -> None:
    """The codes at ``shown`` whose low bit is set into :data:`_ODD` (ints only; afresh beyond
    :data:`KEPT`)."""
    if len(_ODD) > KEPT:
        _ODD.clear()
        _ODD.add(EMPTY)
    _ODD.update([v for v in map(cells.__getitem__, shown) if type(v) is int and v & 1])


def _learn(table: dict[int, int], codes: list[int], out: list[int]) -> None:
    """Each int code of ``codes`` with its answer in ``out`` into ``table`` (afresh beyond
    :data:`KEPT`)."""
    if len(table) > KEPT:
        keep = table.get(EMPTY)
        table.clear()
        if keep is not None:
            table[EMPTY] = keep
    for v, w in zip(codes, out):
        if type(v) is int:
            table[v] = w
