"""What the generated functions of :mod:`.codegen` call: the run's table as they read it
(:class:`Env`), :class:`Slow` for what they cannot tell, and the helpers with the expression
language's semantics (name lookup in the scope's order, indexing, ranges, comprehension limits,
faces read from the cells, the places an expression selects)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any

from ..cards import EMPTY, SYMBOLS, Symbol, is_up
from ..expressions import (
    MAX_ITERATIONS,
    MAX_RANGE,
    WILDCARD,
    Value,
    as_int,
    equal,
    index_list,
    plain,
    truthy,
)
from ..expressions.nodes import Call, Comprehension, Name, Node, _arith, _bounded, _compare
from ..functions import BUILTINS, _slots
from ..machine.frame import game_argument
from ..machine.plans import _flats, _res
from ..table import Layout, Reader, Region, RegionRef, Slots, State


class Slow(Exception):
    """The fast function cannot tell: evaluate the expression the interpreter's way."""


class Env:
    """What a fast function reads: one run's table, its variables and the frame's names."""

    __slots__ = ("_reader", "_state", "cells", "functions", "layout", "names", "vars")

    def __init__(
        self,
        state: Callable[[], State],
        layout: Layout,
        cells: list[int],
        vars: dict[str, Any],
        names: dict[str, Any],
        functions: dict[str, Any],
    ):
        self._state = state  # makes the table as a State, for a reader of faces (made when needed)
        self.layout = layout
        self.cells = cells
        self.vars = vars
        self.names = names
        self.functions = functions
        self._reader: Reader | None = None

    def reader(self) -> Reader:
        if self._reader is None:
            self._reader = Reader(self._state(), True)
        return self._reader


Fast = Callable[[Env], Any]

_MISS = object()


def _slow() -> Any:
    raise Slow()


# --------------------------------------------------------------------------- runtime helpers
# The generated functions call these (and the expression language's own helpers).


def h_lookup(E: Env, name: str) -> Any:
    """:meth:`StateScope.lookup`, then the frame's names."""
    v = E.vars.get(name, _MISS)
    if v is not _MISS:
        return list(v) if isinstance(v, tuple) else v
    reg = E.layout.by_name.get(name)
    if reg is not None:
        if reg.hand is not None:
            raise Slow()
        return RegionRef(E.layout, reg, E.reader())
    v = E.names.get(name, _MISS)
    if v is _MISS:
        raise Slow()
    return v


def _slot(E: Env, name: str, r: Any, c: Any) -> int:
    """The slot of ``name[r, c]`` when ``name`` is a region and r, c plain numbers within it."""
    if name in E.vars:
        raise Slow()
    reg = E.layout.by_name.get(name)
    if reg is None or reg.hand is not None or type(r) is not int or type(c) is not int:
        raise Slow()
    if not (0 < r <= reg.rows and 0 < c <= reg.cols):
        raise Slow()
    return reg.offset + (r - 1) * reg.cols + c - 1


def h_face(E: Env, name: str, r: Any, c: Any) -> Symbol:
    """The face-up card at ``name[r, c]`` (what a game function reads of it)."""
    f = _slot(E, name, r, c)
    v = E.cells[f]
    if v < 0 or not v & 1 or (f in E.layout.inside and E.layout.unseen(f)):
        raise Slow()  # the reader says why a decision may not read it (face down, hidden in a sleeve)
    return SYMBOLS.by_id(v >> 1)


def h_faces(E: Env, name: str, r: Any, c: Any) -> list[Symbol]:
    """What ``name[r, c]`` reads as in a comparison: the list of its one face."""
    return [h_face(E, name, r, c)]


def h_index(target: Any, args: list[Any]) -> Any:
    if isinstance(target, Value):
        return target.kg_index(args)
    return index_list(target, args)


def h_attr(target: Any, attr: str) -> Any:
    if isinstance(target, Value):
        return target.kg_attr(attr)
    if isinstance(target, dict) and attr in target:
        return target[attr]
    raise Slow()


def h_range(lo: Any, hi: Any) -> list[int]:
    a, b = as_int(lo), as_int(hi)
    if b - a + 1 > MAX_RANGE:
        raise Slow()
    return list(range(a, b + 1))


def h_seq(value: Any, count: list[int]) -> Any:
    """The items a comprehension's ``for`` goes through (counted against its limit)."""
    seq = plain(value)
    if not isinstance(seq, (list, tuple, range)):
        raise Slow()
    count[0] += len(seq)
    if count[0] > MAX_ITERATIONS:
        raise Slow()
    return seq


def h_seq_range(lo: Any, hi: Any, count: list[int]) -> range:
    """``for v in lo..hi`` without making the list."""
    a = lo if type(lo) is int else as_int(lo)  # as_int gives a plain int back as it is
    b = hi if type(hi) is int else as_int(hi)
    n = b - a + 1
    if n > MAX_RANGE:
        raise Slow()
    count[0] += max(n, 0)
    if count[0] > MAX_ITERATIONS:
        raise Slow()
    return range(a, b + 1)


def h_and(first: Any, *rest: Callable[[], Any]) -> Any:
    a = first
    for f in rest:
        if not truthy(a):
            return a
        a = f()
    return a


def h_or(first: Any, *rest: Callable[[], Any]) -> Any:
    a = first
    for f in rest:
        if truthy(a):
            return a
        a = f()
    return a


def h_neg(x: Any) -> int:
    return _bounded(-as_int(x))


def h_compare_chain(
    left: Any, rest: tuple[tuple[Callable[[Any, Any], bool], Callable[[], Any]], ...]
) -> bool:
    for fn, right_fn in rest:
        right = right_fn()
        if not fn(left, right):
            return False
        left = right
    return True


_NOT_HAND: dict[int, tuple[Any, tuple[int, ...]]] = {}


def h_orient(E: Env, want_up: bool, fn: str, *args: Any) -> Slots:
    """``up(...)`` / ``down(...)`` (:func:`reference_engine.functions._orientation`)."""
    layout = E.layout
    if args:
        base = _slots(args[0], fn)
        flats: Any = base.flat
        label = base.label
        layout = base.layout
    else:
        flats = _not_hands(layout)
        label = "the table"
    picked = _facing(E.cells, flats, want_up)
    return Slots(layout, picked, None, f"{fn}({label if args else ''})")


def _facing(cells: list[int], flats: Any, want_up: bool) -> list[int]:
    """The slots of ``flats`` whose card faces up (down), in order; empty places left out."""
    if want_up:
        return [f for f in flats if cells[f] >= 0 and cells[f] & 1]
    return [f for f in flats if cells[f] >= 0 and not cells[f] & 1]


def h_exists(E: Env, name: Any) -> bool:
    n = plain(name)
    if not isinstance(n, str):
        raise Slow()
    return n in E.layout.by_name


def h_decode(E: Env, enc: Any, x: Any) -> Any:
    from ..encodings import Encoding

    if not isinstance(enc, Encoding) or enc.kind == "onehot":
        raise Slow()  # a one-hot encoding binds its length in the scope
    return enc.bind(None).decode(_slots(x, "decode").faces())  # type: ignore[arg-type]


_FAMILY: dict[int, tuple[Symbol, int]] = {}
FAMILY_KEPT = 4096
"""family_index() of the faces met, by the face's id (bounded: it starts afresh beyond this)."""


def h_family_index(E: Env, card: Any) -> int:
    """family_index() of a face (the common case: a card read in a comprehension): the trailing
    number of its name, kept per face object."""
    kept = _FAMILY.get(id(card))
    if kept is not None and kept[0] is card:
        return kept[1]
    if isinstance(card, Symbol):
        name = card.name
        digits = len(name) - len(name.rstrip("0123456789"))
        if digits:
            if len(_FAMILY) >= FAMILY_KEPT:
                _FAMILY.clear()
            n = _FAMILY[id(card)] = (card, int(name[-digits:]))
            return n[1]
    return int(BUILTINS["family_index"](None, card))


def h_region_shape(E: Env, name: str, cols: int, fn: Callable[..., Any]) -> Any:
    """``ncols(name)`` (``cols`` 1) or ``nrows(name)`` (0) of a region, from the layout; of
    anything else (a variable, a hand, a name of the spec) the built-in ``fn`` on its value."""
    if name not in E.vars:
        reg = E.layout.by_name.get(name)
        if reg is not None and reg.hand is None:
            return reg.cols if cols else reg.rows
    return fn(None, h_lookup(E, name))


_FAMILY_OF_CODE: list[int | None] = []
"""family_index() of each card by its code (a face's id times two, plus one face up): None for
a card face down and for a face whose name ends in no number (both left to the general path);
one entry per code of the symbol table's faces, which only grows."""


def h_family_row(E: Env, name: str, r: Any, c: Any) -> list[int]:
    """``[family_index(t) for t in name[r, c]]`` (the owners of a row of owner cards): a whole
    row read at once (:func:`family_numbers`); anything else as the comprehension goes
    (:func:`h_row_faces`, then :func:`h_family_index` per face)."""
    slots: Sequence[int] = s_cells(E, name, r, c)
    if len(slots) > MAX_ITERATIONS:
        raise Slow()  # the comprehension's count (h_seq's)
    if isinstance(slots, range) and slots:
        out = family_numbers(E.cells, E.layout, slots)
        if out is not None:
            return out
    return [h_family_index(E, t) for t in h_row_faces(E, name, r, c)]


def family_source(node: Node, kind_of: Callable[[str], str]) -> Node | None:
    """The iterable of ``[family_index(t) for t in SOURCE]`` (one clause; the built-in
    ``family_index``, as ``kind_of`` resolves it, of the loop's own variable); None otherwise."""
    if not isinstance(node, Comprehension) or len(node.clauses) != 1 or len(node.variables) != 1:
        return None
    kind, source = node.clauses[0]
    element = node.element
    if kind != "for" or not isinstance(element, Call) or element.func != "family_index":
        return None
    if len(element.args) != 1 or not isinstance(element.args[0], Name):
        return None
    if element.args[0].name != node.variables[0] or kind_of("family_index") != "builtin":
        return None
    return source


def family_numbers(cells: Sequence[int], layout: Layout, slots: range) -> list[int] | None:
    """family_index() of the cards in ``slots`` (a non-empty run of places), each face's number
    from :data:`_FAMILY_OF_CODE`, where a comprehension would read them all at once: every card
    face up and seen (none empty, face down, or hidden in a sleeve), every face's name ending
    in a number; None otherwise (the caller reads them one by one, with their messages). The
    codes go through the table in C: a card face down reads None there, as a face without a
    number does."""
    vals = cells[slots.start : slots.stop]
    if min(vals) < 0:
        return None
    inside = layout.inside
    if inside and not inside.isdisjoint(slots) and not layout.shown.issuperset(inside.intersection(slots)):
        return None
    return family_codes(vals)


def family_codes(vals: Sequence[int]) -> list[int] | None:
    """:func:`family_numbers` of the codes ``vals`` of places known to hold cards that are
    seen (none empty nor in a sleeve: the caller knows): each face's number, or None where a
    card is face down or a face has no number."""
    table = _FAMILY_OF_CODE
    top = max(vals)
    if top >= len(table):
        _family_table(top >> 1)
    out = list(map(table.__getitem__, vals))
    return None if None in out else out  # type: ignore[return-value]  # no None in it


def _family_table(sid: int) -> None:
    """:data:`_FAMILY_OF_CODE` up to the face ``sid`` at least (both its codes)."""
    table = _FAMILY_OF_CODE
    while len(table) <= 2 * sid + 1:
        face = SYMBOLS.by_id(len(table) >> 1)
        digits = len(face.name) - len(face.name.rstrip("0123456789"))
        table += [None, int(face.name[-digits:]) if digits else None]  # face down, face up


# -- selections: the places an expression names, without making selection objects -----------


def _region(E: Env, name: str) -> Region:
    """The region ``name`` names here (as StateScope finds it), or Slow."""
    if name in E.vars:
        raise Slow()
    reg = E.layout.by_name.get(name)
    if reg is None or reg.hand is not None:
        raise Slow()
    return reg


def _picks(idx: Any, n: int) -> Any:
    """:func:`reference_engine.table._picks` for plain numbers, lists of them and ``*``."""
    if idx is WILDCARD:
        return range(1, n + 1)
    if type(idx) is int:
        if not 0 < idx <= n:
            raise Slow()
        return (idx,)
    if type(idx) is list:
        for i in idx:
            if type(i) is not int or not 0 < i <= n:
                raise Slow()
        return idx
    raise Slow()


def s_region(E: Env, name: str) -> range:
    reg = _region(E, name)
    return reg.slots


def s_cells(E: Env, name: str, r: Any, c: Any) -> list[int]:
    """The slots of ``name[r, c]`` (rows by columns, as ``RegionRef.kg_index`` lists them)."""
    reg = _region(E, name)
    cols = reg.cols
    if c is WILDCARD and type(r) is int and 0 < r <= reg.rows:  # a whole row: its slots in order
        start = reg.offset + (r - 1) * cols
        return range(start, start + cols)  # type: ignore[return-value]  # read as the list is
    base = reg.offset - cols - 1
    cs = _picks(c, cols)
    return [base + i * cols + j for i in _picks(r, reg.rows) for j in cs]


def s_items(E: Env, name: str, i: Any) -> list[int]:
    """The slots of item(s) ``name[i]`` of a row region."""
    reg = _region(E, name)
    if reg.rows != 1:
        raise Slow()
    unit = reg.unit
    base = reg.offset - unit
    return [base + k * unit + u for k in _picks(i, reg.items()) for u in range(unit)]


def s_shape(E: Env, name: str) -> tuple[int, int]:
    reg = _region(E, name)
    return reg.rows, reg.cols


_COLUMNS: dict[tuple[range, int, int], tuple[tuple[int, ...], ...]] = {}


def s_columns(flats: list[int] | range, rows: int, cols: int) -> Sequence[tuple[int, ...]]:
    """The columns of a rectangle of slots listed row by row (a region's: one tuple kept per
    shape, so that a shuffle meets the same object again)."""
    if type(flats) is range:
        key = (flats, rows, cols)
        hit = _COLUMNS.get(key)
        if hit is None:
            if len(_COLUMNS) > 4096:
                _COLUMNS.clear()
            hit = _COLUMNS[key] = tuple(_columns(flats, rows, cols))
        return hit
    return _columns(flats, rows, cols)


def _columns(flats: list[int] | range, rows: int, cols: int) -> list[tuple[int, ...]]:
    if rows <= 1:
        return list(zip(flats))  # each slot its own column: ``[(f,) for f in flats]``, in C
    if len(flats) == rows * cols:
        # The rows side by side: zip makes each column's tuple in C (a new shape's ~100 columns,
        # each a slice of a range and a tuple from it, cost ~6 times as much).
        return list(zip(*[flats[r * cols : (r + 1) * cols] for r in range(rows)]))
    return [tuple(flats[c::cols]) for c in range(cols)]


def s_value(value: Any) -> tuple[int, ...]:
    """The places of a value that is not one of the shapes above (``_flats(_res(...))``)."""
    return _flats(_res(value, ""), "")


def s_up(E: Env, want_up: bool, flats: Any = None) -> list[int]:
    return _facing(E.cells, _not_hands(E.layout) if flats is None else flats, want_up)


_NOT_HAND_RUNS: dict[int, tuple[Any, tuple[tuple[int, int], ...]]] = {}


def not_hand_runs(layout: Any) -> tuple[tuple[int, int], ...]:
    """:func:`_not_hands` as stretches of consecutive slots ``(start, end)``, in order: made
    region by region (a region's slots run on from its offset; a region that starts where the
    last stretch ends extends it, one without slots adds none), as slot by slot."""
    hit = _NOT_HAND_RUNS.get(id(layout))
    if hit is None or hit[0] is not layout:
        runs: list[tuple[int, int]] = []
        for r in layout.regions:
            if r.hand is not None or not r.size:
                continue
            start = r.offset
            if runs and runs[-1][1] == start:
                start = runs.pop()[0]
            runs.append((start, r.offset + r.size))
        hit = (layout, tuple(runs))
        if len(_NOT_HAND_RUNS) > 4096:
            _NOT_HAND_RUNS.clear()
        _NOT_HAND_RUNS[id(layout)] = hit
    return hit[1]


def _not_hands(layout: Any) -> tuple[int, ...]:
    """The slots of the layout not in a hand, in order (its regions lie in the order of their
    slots)."""
    hit = _NOT_HAND.get(id(layout))
    if hit is None or hit[0] is not layout:
        hit = (layout, tuple(chain.from_iterable(r.slots for r in layout.regions if r.hand is None)))
        if len(_NOT_HAND) > 4096:
            _NOT_HAND.clear()
        _NOT_HAND[id(layout)] = hit
    return hit[1]


def h_face_eq(E: Env, name: str, r: Any, c: Any, other: Any) -> bool:
    """``name[r, c] == other``: its face compared as ``equal`` compares a list of one face."""
    face = h_face(E, name, r, c)
    if type(other) is Symbol:
        if face is other:
            return True
        if SYMBOLS.interned(other):
            return False  # faces read from the cells are the interned ones: equal only to themselves
        return face == other
    return equal([face], other)


def h_direct(wrapper: Any) -> Callable[..., Any]:
    """A context function of the frame (:func:`~reference_engine.machine.frame._context_fn`) as
    the game's function it calls, or the wrapper itself given its scope argument."""
    fn = getattr(wrapper, "direct", None)
    return fn if fn is not None else functools.partial(wrapper, None)


def h_eq_face(face: Symbol, other: Any) -> bool:
    """``face == other`` as :func:`h_face_eq` compares a face read from the cells."""
    if type(other) is Symbol:
        if face is other:
            return True
        if SYMBOLS.interned(other):
            return False
        return face == other
    return equal([face], other)


def h_face_row(E: Env, name: str, r: int) -> list[Any]:
    """The faces of row ``r`` of region ``name``, for ``row[c]`` to be what :func:`h_face`
    reads at ``name[r, c]`` (item 0 unused); an empty list when any card of the row is not one
    it would read (face down, empty, hidden in a sleeve) or ``name`` is not such a region: the
    cells are then read one by one, with their checks."""
    if name in E.vars:
        return []
    layout = E.layout
    reg = layout.by_name.get(name)
    if reg is None or reg.hand is not None or not 0 < r <= reg.rows:
        return []
    cols = reg.cols
    a = reg.offset + (r - 1) * cols
    vals = E.cells[a : a + cols]
    if not vals or min(vals) < 0 or not all([v & 1 for v in vals]):
        return []
    inside = layout.inside
    if inside:
        # Layout.unseen: a card is unseen when inside a sleeve and not the one the sleeve shows.
        row = range(a, a + cols)
        if not inside.isdisjoint(row) and not layout.shown.issuperset(inside.intersection(row)):
            return []
    by_id = SYMBOLS.by_id
    return [None, *[by_id(v >> 1) for v in vals]]


def h_row_faces(E: Env, name: str, r: Any, c: Any) -> list[Symbol]:
    """What ``name[r, c]`` reads as when gone through: the faces of its cards (face up)."""
    cells = E.cells
    inside = E.layout.inside
    slots: Sequence[int] = s_cells(E, name, r, c)
    if isinstance(slots, range) and slots:  # a whole row: read at once when every card of it may be
        vals = cells[slots.start : slots.stop]
        if (
            min(vals) >= 0
            and all([v & 1 for v in vals])
            and (
                not inside
                or inside.isdisjoint(slots)
                or E.layout.shown.issuperset(inside.intersection(slots))
            )
        ):
            by_id = SYMBOLS.by_id
            return [by_id(v >> 1) for v in vals]
    out = []
    for f in slots:
        v = cells[f]
        if v < 0 or not v & 1 or (f in inside and E.layout.unseen(f)):
            raise Slow()
        out.append(SYMBOLS.by_id(v >> 1))
    return out


_NEVER = MAX_RANGE + 1


def h_any_range(
    memo: dict[int, list[Any]], lo: Any, hi: Any, item: Callable[[int], Any], want_any: bool
) -> bool:
    """``any(item(i) for i in lo..hi)`` (``all`` when not ``want_any``) with the truth values
    of ``item`` from ``lo`` on kept in ``memo`` (see ``_Gen._memo_any``): each item is computed
    once, every one of the range computed before the answer is given."""
    a = lo if type(lo) is int else as_int(lo)  # as_int gives a plain int back as it is
    b = hi if type(hi) is int else as_int(hi)
    n = b - a + 1
    if n > MAX_RANGE:
        raise Slow()  # the interpreter says so
    if n <= 0:
        return not want_any
    kept = memo.get(a)
    if kept is None:
        kept = memo[a] = [0, _NEVER, _NEVER]  # how many computed; the first true; the first false
    done = kept[0]
    while done < n:
        if truthy(item(a + done)):
            if kept[1] > done:
                kept[1] = done
        elif kept[2] > done:
            kept[2] = done
        done += 1
    kept[0] = done
    return bool(kept[1] < n) if want_any else bool(kept[2] >= n)


_CMP = {op: _compare(op) for op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in")}
_ARITH = {op: _arith(op) for op in ("+", "-", "*", "/", "//", "%")}

HELPERS: dict[str, Any] = {
    "WILDCARD": WILDCARD,
    "_slow": _slow,
    "_truthy": truthy,
    "_lk": h_lookup,
    "_face": h_face,
    "_faces": h_faces,
    "_ix": h_index,
    "_attr": h_attr,
    "_range": h_range,
    "_seq": h_seq,
    "_seqr": h_seq_range,
    "_and": h_and,
    "_or": h_or,
    "_neg": h_neg,
    "_cmpc": h_compare_chain,
    "_cmp": _CMP,
    "_ar": _ARITH,
    "_orient": h_orient,
    "_exists": h_exists,
    "_decode": h_decode,
    "_famidx": h_family_index,
    "_famrow": h_family_row,
    "_rshape": h_region_shape,
    "EMPTY": EMPTY,
    "is_up": is_up,
    "_s_region": s_region,
    "_s_cells": s_cells,
    "_s_items": s_items,
    "_s_shape": s_shape,
    "_s_columns": s_columns,
    "_s_value": s_value,
    "_s_up": s_up,
    "_face_eq": h_face_eq,
    "_row_faces": h_row_faces,
    "_anyr": h_any_range,
    "_face_row": h_face_row,
    "_direct": h_direct,
    "_garg": game_argument,
    "_Sym": Symbol,
    "_eq_face": h_eq_face,
}


def h_piles_of(value: Any) -> tuple[bool, list[tuple[int, ...]]]:
    items = value if isinstance(value, list) else [value]
    return isinstance(value, list), [_flats(_res(v, ""), "") for v in items]


HELPERS["_piles_of"] = h_piles_of
