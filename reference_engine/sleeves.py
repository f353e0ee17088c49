"""Sleeves and envelopes: what holds the cards at the table, public like the layout.

A spec declares which regions lie in sleeves (top-level ``sleeves:``): every column of such a
region is one sleeve, its rows lie inside from the sleeve's solid back to its clear front, each
card facing the front or the back, and the sleeves lie front up or back up. A step's ``sleeve:``
action turns sleeves over or slides rows out of them and back in.

The cards stay where they are on the table (cells of the region, as every action knows them);
the sleeves are *frame data*: public, deterministic, and a function of the layout. What a sleeve
shows is the view's business: a sleeve lying front up shows its frontmost card's face when that
card faces the front, and nothing else; lying back up, or an envelope, shows nothing. The engine
checks that the table never shows more than the protocol's cards do (a card the sleeves show is
face up in the protocol), that a decision reads only cards the table can see, and that a card slid
out lands the way the protocol has it; then every verdict on the protocol holds for the sleeved
table, whose view is a function of the protocol's (docs/specs.md, "Sleeves and envelopes").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .expressions import EvalError
from .schema import Checker, unknown_key_message
from .source import KeyPath

Region = Any  # a reference_engine.regions.Region (that module imports this one)

SIDES = ("front", "back")
KINDS = ("sleeve", "envelope")
DECLARED_KEYS = ("rows", "front", "keeps", "side", "kind")
OPS = ("side", "out", "in")


@dataclass(frozen=True)
class SleeveFrame:
    """How the cards of one region lie in sleeves (or envelopes).

    Every column of the region is one sleeve. ``rows`` are the rows inside it, from its solid
    back to its clear front (a declared row not listed lies loose just below its sleeve: an
    owner card slid out); ``declared`` is every row the spec gives, in that order, so a row slid
    back in goes to its place. ``front`` are the rows whose card faces the clear front (the
    others face the solid back), ``keeps`` the rows whose card lives in the sleeve between runs
    (an owner card), ``side`` which side of the sleeves lies up, ``kind`` ``sleeve`` or
    ``envelope`` (opaque on both sides: nothing inside ever shows).
    """

    declared: tuple[int, ...]
    rows: tuple[int, ...]
    front: frozenset[int]
    keeps: frozenset[int] = frozenset()
    side: str = "back"
    kind: str = "sleeve"

    def __post_init__(self) -> None:
        # Hashed once (the dataclass's own value): every Layout.make hashes the frames of its
        # sleeved regions to find the regions it keeps.
        fields = (self.declared, self.rows, self.front, self.keeps, self.side, self.kind)
        object.__setattr__(self, "_hash", hash(fields))
        # The most rows a region lying in these sleeves may have (rows 1..span all declared),
        # for check_rows on every new region: one comparison, no row by row look-up.
        span = 0
        while span + 1 in self.declared:
            span += 1
        object.__setattr__(self, "_span", span)

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt by its fields, never with the stored hash (a string's hash is per process).
        return SleeveFrame, (self.declared, self.rows, self.front, self.keeps, self.side, self.kind)

    def lands_up(self, row: int) -> bool:
        """Whether the card of ``row``, slid out of a sleeve lying as this one lies, lands face
        up: it faced the side that lies up."""
        return (row in self.front) == (self.side == "front")

    def turned(self, side: str) -> SleeveFrame:
        return replace(self, side=side)

    def with_rows(self, rows: Iterable[int]) -> SleeveFrame:
        wanted = set(rows)
        return replace(self, rows=tuple(r for r in self.declared if r in wanted))

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side,
            "rows": list(self.rows),
            "declared": list(self.declared),
            "front": sorted(self.front),
            "keeps": sorted(self.keeps),
        }


def check_rows(name: str, rows: int, frame: SleeveFrame) -> None:
    """A sleeved region holds only rows its sleeves declare."""
    if rows > frame._span:  # type: ignore[attr-defined]  # some row 1..rows is not declared
        listed = ", ".join(str(r) for r in frame.declared)
        raise EvalError(
            f"{name} has {rows} rows, but its sleeves (sleeves: {name}) declare only rows {listed}"
        )


NONE: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
"""No slot inside a sleeve, none shown (a table without sleeves)."""


def sleeve_slots(regions: Sequence[Region], holes: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
    """(slots inside a sleeve or envelope, slots whose card the table sees through a sleeve)."""
    parts, shown = sleeve_parts(regions, holes)
    return joined(parts), shown


def joined(parts: tuple[tuple[int, int, tuple[int, ...]], ...]) -> frozenset[int]:
    """The slots inside of a table whose sleeved regions hold ``parts`` (see :func:`sleeve_parts`)."""
    if len(parts) > 1:
        return _union(tuple([_rows_slots(*part) for part in parts]))
    return _rows_slots(*parts[0]) if parts else NONE[0]


class Inside:
    """A layout's ``inside``: its slots inside a sleeve or envelope, the union of its sleeved
    regions' (its ``_parts``, see :func:`sleeve_parts`), made when first read and then kept in the
    layout's ``__dict__`` (no ``__set__`` here, so the kept set is what later reads find). A
    card-level game's new layout mostly holds several sleeved regions and is only asked whether
    it has slots inside (its ``sleeved``): ~82 % of UNO's never read which, and their union
    (~160 slots copied, ~20k instructions) is never made."""

    def __get__(self, layout: Any, owner: type | None = None) -> Any:
        if layout is None:
            return self
        inside = layout.__dict__["inside"] = joined(layout._parts)
        return inside


def sleeve_parts(
    regions: Sequence[Region], holes: frozenset[int]
) -> tuple[tuple[tuple[int, int, tuple[int, ...]], ...], frozenset[int]]:
    """(each sleeved region's slots inside a sleeve or envelope, as :func:`_rows_slots`' key, the
    empty ones left out; the slots whose card the table sees through a sleeve). The slots inside
    are their union (:func:`joined`): a table asks whether there are any far more often than
    which (a card-level game's layout, of several sleeved regions, mostly never asks which), so
    :class:`~reference_engine.table.Layout` makes the regions' sets and joins them when first
    asked (a new region's set, ~25 slots each made from a range, mostly never made either)."""
    insides: list[tuple[int, int, tuple[int, ...]]] = []
    showns: list[frozenset[int]] = []
    for reg in regions:
        if reg.sleeve is None:
            continue
        # A function of the region alone, kept on it (a C-level look-up; no hash of the region).
        hit = reg.sleeve_slots or _region_slots(reg)
        if hit[0]:
            insides.append(hit[0])
        shown = hit[1]
        if holes and hit[2]:
            empty = holes & hit[3]  # sleeves whose frontmost place is empty
            if empty:
                shown = _shown_behind(reg, hit[2], shown, holes, empty)
        if shown:
            showns.append(shown)
    # An empty union is the shared empty set: one object fewer per layout for the collector.
    if showns:
        return tuple(insides), showns[0] if len(showns) == 1 else _union(tuple(showns))
    return tuple(insides), NONE[1]


_SETS: dict[tuple[Any, ...], frozenset[int]] = {}
SETS_KEPT = 4096
"""Sets of slots :func:`sleeve_slots` keeps: a region's rows inside its sleeves (by offset,
width and rows: regions whose sleeves lie otherwise share them), and unions of such sets (by
the sets: a table's layouts share most of their sleeved regions from step to step). Bounded: it
starts afresh beyond this. The sets are keys too: a set's hash is computed once and kept by the
set, and a set met again is the very object kept (found by identity, no element compared)."""


def _union(parts: tuple[frozenset[int], ...]) -> frozenset[int]:
    """The union of ``parts`` (two or more sets), kept."""
    kept = _SETS
    hit = kept.get(parts)
    if hit is None:
        hit = parts[0].union(*parts[1:])
        if len(kept) >= SETS_KEPT:
            kept.clear()
        kept[parts] = hit
    return hit


def _rows_slots(offset: int, cols: int, rows: tuple[int, ...]) -> frozenset[int]:
    """The slots of ``rows`` (from 1) of a region at ``offset`` of ``cols`` columns, kept."""
    key = (offset, cols, rows)
    kept = _SETS
    hit = kept.get(key)
    if hit is None:
        inside: set[int] = set()
        for r in rows:  # whole rows at once
            start = offset + (r - 1) * cols
            inside.update(range(start, start + cols))
        hit = frozenset(inside)
        if len(kept) >= SETS_KEPT:
            kept.clear()
        kept[key] = hit
    return hit


def _region_slots(
    reg: Region,
) -> tuple[tuple[int, int, tuple[int, ...]] | None, frozenset[int], tuple[int, ...], frozenset[int]]:
    """A sleeved region's (slots inside as :func:`_rows_slots`' key, None if none: the set is made
    when a layout's ``inside`` is read; slots shown with no empty place, the rows inside when
    its sleeves can show anything (else ()), the slots of their frontmost row): a function of
    the region alone, kept on the region (as long as it lives: regions are kept by
    :meth:`~reference_engine.table.Layout.make`'s bounded table and by the layouts that hold
    them)."""
    frame = reg.sleeve
    cols = reg.cols
    rows = tuple(filter(reg.rows.__ge__, frame.rows))  # the rows r <= reg.rows, in order, in C
    inside = (reg.offset, cols, rows) if rows and cols else None
    shown: frozenset[int] = NONE[1]
    frontmost: frozenset[int] = NONE[1]
    if not (rows and frame.kind == "sleeve" and frame.side == "front"):
        rows = ()  # nothing shows
    else:
        frontmost = _rows_slots(reg.offset, cols, rows[-1:])
        if rows[-1] in frame.front:  # no empty place: every sleeve shows its frontmost row
            shown = frontmost
    hit = (inside, shown, rows, frontmost)
    object.__setattr__(reg, "sleeve_slots", hit)  # a frozen region: no field (see Region)
    return hit


def _shown_behind(
    reg: Region, rows: tuple[int, ...], shown: frozenset[int], holes: frozenset[int], empty: frozenset[int]
) -> frozenset[int]:
    """``shown`` where the sleeves of ``empty`` (slots of their frontmost row) have lost their
    frontmost card: each shows the card nearest its front, if that card faces the front."""
    cols = reg.cols
    lo = reg.offset + (rows[-1] - 1) * cols
    front = reg.sleeve.front
    out = set(shown)
    out.difference_update(empty)
    for h in empty:
        c = h - lo + 1
        for r in reversed(rows[:-1]):
            f = reg.slot(r, c)
            if f not in holes:
                if r in front:
                    out.add(f)
                break
    return frozenset(out)


def unseen_reason(frame: SleeveFrame, row: int) -> str:
    """Why a card inside a sleeve does not show (it is not the one the sleeve shows)."""
    if frame.kind == "envelope":
        return "is in an envelope"
    if frame.side == "back":
        return "is in a sleeve lying back up"
    if row not in frame.front:
        return "faces the solid back of its sleeve"
    return "is behind another card in its sleeve"


def sleeve_cards(reg: Region, col: int, holes: frozenset[int]) -> list[int]:
    """The slots of the cards inside the sleeve of column ``col`` (back to front)."""
    assert reg.sleeve is not None
    return [reg.slot(r, col) for r in reg.sleeve.rows if r <= reg.rows and reg.slot(r, col) not in holes]


# --------------------------------------------------------------------------- parsing


def parse_declared(ck: Checker, raw: Any) -> dict[str, SleeveFrame]:
    """The top-level ``sleeves:``: region name -> how its cards lie in sleeves."""
    out: dict[str, SleeveFrame] = {}
    for name, spec in ck.table(raw, ("sleeves",)).items():
        path: KeyPath = ("sleeves", name)
        doc = ck.mapping(spec, path, required=("rows",), optional=DECLARED_KEYS[1:])
        if doc is None or "rows" not in doc:
            continue
        rows = _rows(ck, doc["rows"], path + ("rows",))
        front = _rows(ck, doc.get("front", []), path + ("front",))
        keeps = _rows(ck, doc.get("keeps", []), path + ("keeps",))
        if rows is None or front is None or keeps is None:
            continue
        if not rows:
            ck.error(path + ("rows",), "a sleeve holds at least one row")
            continue
        if len(set(rows)) != len(rows):
            ck.error(path + ("rows",), f"{rows}: a row lies in its sleeve once")
            continue
        for key, listed in (("front", front), ("keeps", keeps)):
            stray = [r for r in listed if r not in rows]
            if stray:
                ck.error(path + (key,), f"row {stray[0]} is not one of the sleeve's rows {rows}")
        side = doc.get("side", "back")
        if side not in SIDES:
            ck.error(
                path + ("side",), f"how the sleeves lie when the region is made: front or back, got {side!r}"
            )
            side = "back"
        kind = doc.get("kind", "sleeve")
        if kind not in KINDS:
            ck.error(path + ("kind",), f"sleeve or envelope, got {kind!r}")
            kind = "sleeve"
        out[str(name)] = SleeveFrame(tuple(rows), tuple(rows), frozenset(front), frozenset(keeps), side, kind)
    return out


def _rows(ck: Checker, raw: Any, path: KeyPath) -> list[int] | None:
    if not isinstance(raw, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in raw
    ):
        ck.error(path, f"a list of row numbers (1 is the top row), got {raw!r}")
        return None
    return list(raw)


@dataclass(frozen=True)
class SleeveOp:
    """What a ``sleeve:`` action does to the sleeves of one region: turn them over so that
    ``side`` lies up, slide the cards of rows ``out`` out (each laid just below its sleeve, the
    way it faced), or slide the cards of rows ``into`` back to their place."""

    region: str
    side: str | None = None
    out: tuple[int, ...] = ()
    into: tuple[int, ...] = field(default=())


def parse_op(ck: Checker, raw: Any, path: KeyPath) -> list[SleeveOp]:
    """``sleeve: {M: front}``, ``{M: back}``, ``{M: {out: [2]}}``, ``{M: {in: [2]}}``."""
    ops: list[SleeveOp] = []
    for name, spec in ck.table(raw, path).items():
        p = path + (name,)
        if isinstance(spec, str):
            spec = {"side": spec}
        if not isinstance(spec, dict):
            ck.error(p, "front, back, or one of {side: ...}, {out: [rows]}, {in: [rows]}")
            continue
        for key in spec:
            if key not in OPS:
                ck.error(p + (key,), unknown_key_message(str(key), list(OPS)))
        given = [k for k in OPS if k in spec]
        if len(given) != 1:
            ck.error(p, "one thing per sleeve action: side, out or in (list several under 'do')")
            continue
        key = given[0]
        if key == "side":
            if spec["side"] not in SIDES:
                ck.error(p + ("side",), f"front or back, got {spec['side']!r}")
                continue
            ops.append(SleeveOp(str(name), side=str(spec["side"])))
            continue
        rows = _rows(ck, spec[key], p + (key,))
        if rows:
            ops.append(
                SleeveOp(str(name), out=tuple(rows))
                if key == "out"
                else SleeveOp(str(name), into=tuple(rows))
            )
        elif rows is not None:
            ck.error(p + (key,), "name at least one row")
    return ops
