"""The table: named regions of card slots, their public layout, and machine states.

A *region* is a grid of slots (``rows`` x ``cols``; a plain sequence is one row). A row region
may group its slots into *items* of ``unit`` cards (a bit is an item of two cards), so ``x[2]``
is the second pair. *Hands* are regions owned by a player whose order does not matter. The
*layout* (regions, empty slots, display labels) is public; the *cells* hold the actual cards as
int codes (see :mod:`cards`).

Actions that change the layout are compiled once per layout into a gather plan with
:class:`Draft`, then applied to every state that shares that layout.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .cards import DEALT, EMPTY, Symbol, is_up, symbol_of
from .errors import ReductionRefused
from .expressions import WILDCARD, EvalError, Value, as_int, plain
from .kept import exact_env
from .meters import Meters
from .regions import Region as Region  # its home: regions.py; imported from here too
from .sleeves import Inside, SleeveFrame, check_rows, sleeve_parts, unseen_reason

NO_SLEEVES: Mapping[str, SleeveFrame] = {}
SLEEVES: ContextVar[Mapping[str, SleeveFrame]] = ContextVar("kitgen_sleeves", default=NO_SLEEVES)
"""The sleeves the protocol being run declares, by region name (set by the runner around each
protocol's steps): a region made with one of these names lies in sleeves (see :class:`Draft`)."""


_REGIONS: dict[tuple[Any, ...], Region] = {}
REGIONS_KEPT = 16384
"""Regions :meth:`Layout.make` keeps by their fields (equal regions are interchangeable): a game's
layouts share most of theirs from step to step. Bounded: it starts afresh beyond this (~6.5 MB;
at 4,096 a card-level game's hands, of varying sizes and offsets, filled it every 1,000 turns)."""


_NO_HOLES: frozenset[int] = frozenset()
INTERN_SWEEP = 4096
"""The fewest entries :class:`Layout`'s intern table holds before it sweeps out dead ones."""


@dataclass(frozen=True)
class Label:
    """Display-only text under a group of slots (``x``, ``x AND y``)."""

    text: str
    slots: tuple[int, ...]


class Layout:
    """The public shape of the table. Interned: equal layouts are the same object.

    Weakly: the intern table keeps a layout only while something else holds it (a state, a plan,
    a frame), so a long simulation does not keep every layout it met; equal live layouts are still
    the same object, all that identity (State equality, caches keyed by layout) relies on. Dead
    entries are swept at ``_sweep_at`` entries (twice the live ones, at least INTERN_SWEEP).

    Keyed by the regions' stored hashes (ints, hashed in C; a region's hash is a Python call),
    the holes and the labels; a layout found is checked to hold the very regions (compared in
    C). Regions whose hashes collide (forced in the tests) put the second layout in ``_clashes``
    by its whole key, looked up whenever the first one's entry does not answer.
    """

    _interned: ClassVar[dict[tuple[Any, ...], weakref.ref[Layout]]] = {}
    _clashes: ClassVar[dict[tuple[Any, ...], weakref.ref[Layout]]] = {}
    _sweep_at: ClassVar[int] = 4096
    inside: frozenset[int] = Inside()  # type: ignore[assignment]  # joined when first read

    __slots__ = (
        "__dict__",
        "__weakref__",
        "_key",
        "_owner",
        "_parts",
        "_space",
        "by_name",
        "holes",
        "labels",
        "regions",
        "shown",
        "size",
        "sleeved",
    )

    def __init__(
        self,
        regions: tuple[Region, ...],
        holes: frozenset[int],
        labels: tuple[Label, ...],
        key: tuple[Any, ...] | None = None,
        size: int | None = None,
        by_name: dict[str, Region] | None = None,
    ):
        self.regions = regions
        self.holes = holes
        self.labels = labels
        # make's, filled as it found the regions (no comprehension's call per new layout).
        self.by_name = {r.name: r for r in regions} if by_name is None else by_name
        self.size = sum(r.size for r in regions) if size is None else size
        self._key = key or (regions, holes, labels)  # its intern key (make's own tuple)
        self._owner: list[Region] | None = None  # built on first use: most layouts never ask
        self._space: tuple[bool, tuple[int, int] | None, tuple[int, int]] | None = None  # run.space
        # Sleeves are public: slots inside one (joined when read), any (sleeved), those shown.
        parts, self.shown = sleeve_parts(regions, holes)
        self._parts, self.sleeved = parts, bool(parts)

    @classmethod
    def make(
        cls,
        shapes: Sequence[tuple[Any, ...]],
        holes: Iterable[int] = (),
        labels: Iterable[Label] = (),
        first: tuple[Region, ...] = (),
    ) -> Layout:
        """``shapes``: (name, rows, columns, unit, hand[, sleeves]), after a layout's ``first`` regions."""
        regions, offset = list(first), (first[-1].offset + first[-1].size if first else 0)
        by_name = {r.name: r for r in first} if first else {}
        hashes = [r._hash for r in first] if first else []
        kept = _REGIONS
        for shape in shapes:
            if len(shape) == 6:
                name, rows, cols, unit, hand, sleeve = shape
            else:  # five fields (no sleeve), or more than six
                (name, rows, cols, unit, hand), sleeve = shape[:5], shape[5] if len(shape) > 5 else None
            # The frame by identity (``sleeve and id(sleeve)``: None stays None): its hash is a
            # Python call; the region kept holds its frame, so the id is not reused while the
            # entry lives, and an equal frame that is another object only makes an equal region.
            fields = (name, rows, cols, offset, unit, hand, sleeve and id(sleeve))
            reg = kept.get(fields)
            if reg is None:
                if sleeve is not None:
                    check_rows(name, rows, sleeve)
                reg = Region(name, rows, cols, offset, unit, hand, sleeve)
                if len(kept) >= REGIONS_KEPT:
                    kept.clear()
                kept[fields] = reg
            regions.append(reg)
            hashes.append(reg._hash)
            by_name[name] = reg
            offset += rows * cols
        key_regions = tuple(regions)
        # No holes: the one empty set (most layouts have none; one object fewer each).
        key = (tuple(hashes), (frozenset(holes) or _NO_HOLES) if holes else _NO_HOLES, tuple(labels))
        interned = cls._interned
        ref = interned.get(key)
        found = None if ref is None else ref()
        if found is not None:
            if found.regions == key_regions:
                return found
        elif not cls._clashes:
            found = cls(key_regions, key[1], key[2], None, offset, by_name)
            if len(interned) >= cls._sweep_at:
                cls.sweep()
            interned[key] = weakref.ref(found)
            return found
        return cls._clash(key, key_regions, offset, by_name, found is None)

    @classmethod
    def _clash(
        cls,
        key: tuple[Any, ...],
        regions: tuple[Region, ...],
        size: int,
        by_name: dict[str, Region],
        free: bool,
    ) -> Layout:
        """make's layout when its entry holds a live layout of other regions (hashes that
        collide), or is free while some layout lives in ``_clashes``: by the whole key there;
        a new one goes to the entry if ``free``, else there."""
        whole = (regions, key[1], key[2])
        ref = cls._clashes.get(whole)
        found = None if ref is None else ref()
        if found is None:
            found = cls(regions, key[1], key[2], whole, size, by_name)
            if free:
                cls._interned[key] = weakref.ref(found)
            else:
                cls._clashes[whole] = weakref.ref(found)
        return found

    @classmethod
    def sweep(cls) -> None:
        """Drop the intern entries of layouts that died."""
        interned = cls._interned
        for key in [k for k, ref in interned.items() if ref() is None]:
            del interned[key]
        clashes = cls._clashes
        for key in [k for k, ref in clashes.items() if ref() is None]:
            del clashes[key]
        cls._sweep_at = max(INTERN_SWEEP, 2 * len(interned))

    # Equal and hashed by identity: object's own __eq__ and __hash__, in C (no Python call per
    # look-up in the many dicts keyed by a layout); interning makes identity equal contents.

    def region(self, name: str) -> Region:
        try:
            return self.by_name[name]
        except KeyError:
            have = ", ".join(r.name for r in self.regions) or "nothing"
            raise EvalError(f"there is no {name!r} on the table (the table has: {have})") from None

    def owner(self, flat: int) -> Region:
        owners = self._owner
        if owners is None:
            owners = []
            for r in self.regions:
                owners.extend([r] * r.size)
            self._owner = owners
        return owners[flat]

    def describe(self, flat: int) -> str:
        """``s[3]`` for a row region, ``M[2, 5]`` for a matrix."""
        reg = self.owner(flat)
        r, c = reg.address(flat)
        return f"{reg.name}[{c}]" if reg.rows == 1 else f"{reg.name}[{r}, {c}]"

    def unseen(self, flat: int) -> str | None:
        """Why the table cannot see the card at ``flat``, even face up (None: it can)."""
        if flat not in self.inside or flat in self.shown:
            return None
        reg = self.owner(flat)
        assert reg.sleeve is not None
        return unseen_reason(reg.sleeve, reg.address(flat)[0])


class State:
    """One configuration of the card machine, hashable so identical states merge.

    ``out`` is the net number of helper cards of each symbol taken from the supply; ``env`` holds
    public values (loop variables, public decisions), compared by type too (:func:`~.kept.exact`:
    ``str(x)`` tells true from 1); ``meters`` counts resources; ``view`` identifies what the
    observers have seen so far. ``lazy`` lists blocks of piles that were scrambled and whose order
    nobody has needed yet: the cells hold their contents in sorted order and the state stands for
    every order of them, equally likely (see :func:`reference_engine.machine.materialize`).
    """

    __slots__ = ("_hash", "cells", "env", "layout", "lazy", "meters", "out", "view")

    def __init__(
        self,
        layout: Layout,
        cells: tuple[int, ...],
        out: tuple[tuple[int, int], ...],
        env: tuple[tuple[str, Any], ...],
        meters: Meters,
        view: int,
        lazy: tuple[tuple[tuple[int, ...], ...], ...] = (),
    ):
        self.layout, self.cells, self.out = layout, cells, out
        self.env, self.meters = env, meters
        self.view, self.lazy = view, lazy
        self._hash = hash((id(layout), cells, out, env, meters, view, lazy))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self._hash == other._hash
            and self.layout is other.layout
            and self.cells == other.cells
            and self.out == other.out
            and (self.env is other.env or exact_env(self.env) == exact_env(other.env))
            and self.meters == other.meters
            and self.view == other.view
            and self.lazy == other.lazy
        )

    def replace(
        self,
        *,
        layout: Layout | None = None,
        cells: tuple[int, ...] | None = None,
        out: tuple[tuple[int, int], ...] | None = None,
        env: tuple[tuple[str, Any], ...] | None = None,
        meters: Meters | None = None,
        view: int | None = None,
        lazy: tuple[tuple[tuple[int, ...], ...], ...] | None = None,
    ) -> State:
        return State(
            self.layout if layout is None else layout,
            self.cells if cells is None else cells,
            self.out if out is None else out,
            self.env if env is None else env,
            self.meters if meters is None else meters,
            self.view if view is None else view,
            self.lazy if lazy is None else lazy,
        )


# --------------------------------------------------------------------------- selections


def visible(c: int) -> int:
    """What the table shows of a cell: the card if face-up, -2 if face-down, -1 if empty."""
    return c if c < 0 or c & 1 else -2


class Reader:
    """How expressions may read card faces: publicly (face-up only) or as the verifier.

    With ``record`` set, every cell looked at is logged with what the table showed, so
    a result can be reused for any state that shows the same at those cells.
    """

    __slots__ = ("public", "reads", "state")

    def __init__(self, state: State, public: bool, record: bool = False):
        self.state = state
        self.public = public
        self.reads: list[tuple[int, int]] | None = [] if record else None

    def look(self, flat: int) -> int:
        c = self.state.cells[flat]
        if self.reads is not None:
            self.reads.append((flat, visible(c)))
        return c

    def face(self, flat: int) -> Symbol | None:
        c = self.look(flat)
        if c == EMPTY:
            return None
        if self.public and not is_up(c):
            raise LeakError(
                f"{self.state.layout.describe(flat)} is face down: a decision may only use face-up cards"
            )
        if self.public and flat in self.state.layout.inside and (why := self.state.layout.unseen(flat)):
            raise LeakError(
                f"{self.state.layout.describe(flat)} {why}: a decision may only use cards it sees"
            )
        if DEALT.ids and self.public and DEALT.hidden(c >> 1):
            raise ReductionRefused(
                f"a decision reads the face of the dealt card at {self.state.layout.describe(flat)} "
                "other than through the game's functions (valid): the verdict would depend on more "
                "than the cards' validity classes, so the reduction by classes does not apply"
            )
        return symbol_of(c)


class LeakError(EvalError):
    """A public decision tried to read a face-down card."""


class Slots(Value):
    """An ordered selection of table slots (``s[1..2]``, ``M[*, 3]``)."""

    __slots__ = ("flat", "label", "layout", "reader", "shape")

    def __init__(
        self,
        layout: Layout,
        flat: Sequence[int],
        reader: Reader | None,
        label: str,
        shape: tuple[int, int] | None = None,
    ):
        self.layout = layout
        # A whole region passes its range of slots as it is: no copy for a name lookup.
        self.flat: Sequence[int] = flat if isinstance(flat, (tuple, range)) else tuple(flat)
        self.reader = reader
        self.label = label
        self.shape = shape  # (rows, cols) when the selection is a rectangle

    def __repr__(self) -> str:
        return self.label

    def __len__(self) -> int:
        return len(self.flat)

    def faces(self) -> list[Symbol | None]:
        if self.reader is None:
            raise EvalError(f"{self.label}: the faces of cards are not available here")
        return [self.reader.face(f) for f in self.flat]

    def kg_value(self) -> Any:
        return self.faces()

    def kg_index(self, args: list[Any]) -> Any:
        if len(args) != 1:
            raise EvalError(f"{self.label} takes one index")
        idx = plain(args[0])
        picks = list(range(1, len(self.flat) + 1)) if idx is WILDCARD else idx
        if not isinstance(picks, list):
            picks = [picks]
        out = []
        for p in picks:
            i = as_int(p)
            if not 1 <= i <= len(self.flat):
                raise EvalError(f"{self.label}[{i}] is outside 1..{len(self.flat)}")
            out.append(self.flat[i - 1])
        return Slots(self.layout, out, self.reader, f"{self.label}[{_fmt(idx)}]")


class RegionRef(Slots):
    """A whole region, indexable by item (row regions) or by ``[row, column]``."""

    __slots__ = ("region",)

    def __init__(self, layout: Layout, region: Region, reader: Reader | None):
        super().__init__(layout, region.slots, reader, region.name, (region.rows, region.cols))
        self.region = region

    def kg_index(self, args: list[Any]) -> Any:
        reg = self.region
        if len(args) == 1:
            if reg.rows != 1:
                raise EvalError(f"{reg.name} has {reg.rows} rows: write {reg.name}[row, column]")
            idx = args[0]
            if type(idx) is int and 1 <= idx <= reg.cols // reg.unit:  # the common x[i]
                first = reg.offset + (idx - 1) * reg.unit
                flat = list(range(first, first + reg.unit))
                return Slots(self.layout, flat, self.reader, f"{reg.name}[{idx}]", (1, reg.unit))
            idx = plain(idx)
            items = _picks(idx, reg.items(), f"{reg.name} has {reg.items()} items")
            flat = [reg.slot(1, (i - 1) * reg.unit + k) for i in items for k in range(1, reg.unit + 1)]
            shape = (1, len(flat))
            return Slots(self.layout, flat, self.reader, f"{reg.name}[{_fmt(idx)}]", shape)
        if len(args) == 2:
            r_idx, c_idx = args
            if (
                type(r_idx) is int
                and type(c_idx) is int
                and 1 <= r_idx <= reg.rows
                and 1 <= c_idx <= reg.cols
            ):
                flat1 = reg.offset + (r_idx - 1) * reg.cols + (c_idx - 1)  # the common M[r, c]
                return Slots(self.layout, (flat1,), self.reader, f"{reg.name}[{r_idx}, {c_idx}]", (1, 1))
            r_idx, c_idx = plain(r_idx), plain(c_idx)
            rows = _picks(r_idx, reg.rows, f"{reg.name} has {reg.rows} rows")
            cols = _picks(c_idx, reg.cols, f"{reg.name} has {reg.cols} columns")
            flat = [f for r in rows for f in map((reg.offset + (r - 1) * reg.cols - 1).__add__, cols)]
            label = f"{reg.name}[{_fmt(r_idx)}, {_fmt(c_idx)}]"
            return Slots(self.layout, flat, self.reader, label, (len(rows), len(cols)))
        raise EvalError(f"{reg.name} takes one or two indices")


def _picks(idx: Any, n: int, what: str) -> list[int]:
    if idx is WILDCARD:
        return list(range(1, n + 1))
    values = idx if isinstance(idx, list) else [idx]
    out = []
    for v in values:
        i = as_int(v)
        if not 1 <= i <= n:
            raise EvalError(f"index {i} is out of range: {what}")
        out.append(i)
    return out


def _fmt(idx: Any) -> str:
    if idx is WILDCARD:
        return "*"
    if isinstance(idx, list):
        if idx and idx == list(range(idx[0], idx[0] + len(idx))) and len(idx) > 1:
            return f"{idx[0]}..{idx[-1]}"
        return "[" + ", ".join(str(i) for i in idx) + "]"
    return str(idx)


@dataclass
class NewCards(Value):
    """Cards to take from the supply (``bit(1)``, ``new(heart)``)."""

    symbols: list[Symbol]
    up: bool = False
    label: str = ""

    def __len__(self) -> int:
        return len(self.symbols)

    def kg_value(self) -> Any:
        return list(self.symbols)


# --------------------------------------------------------------------------- drafts


NEW = -2  # tokens <= NEW index the constants of a draft


class _Grids(dict[str, list[list[int]]]):
    """Region grids of a draft, copied from the layout only when an action touches them.

    It holds the draft's layout and pending set, not the draft: a draft and its grids would
    otherwise be a reference cycle, freed only by the cyclic garbage collector (issue 37)."""

    def __init__(self, draft: Draft):
        super().__init__()
        self.layout = draft.layout
        self.pending = draft.pending

    def __missing__(self, name: str) -> list[list[int]]:
        if name not in self.pending:
            raise KeyError(name)
        grid = _grid(self.layout, name)
        self[name] = grid
        self.pending.discard(name)
        return grid

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in self.pending


@dataclass
class Draft:
    """A mutable copy of a layout whose slots refer to old cells, new cards or nothing.

    Actions edit a draft; :meth:`finish` turns it into a gather plan that maps any
    state with the old layout to the new layout in one tuple comprehension. Regions no
    action touches are never copied: they pass through as ranges of slots.
    """

    layout: Layout
    # unit, hand, sleeves
    meta: dict[str, tuple[int, str | None, SleeveFrame | None]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    consts: list[int] = field(default_factory=list)
    labels: list[tuple[str, list[tuple[str, int, int]], list[int] | None]] = field(default_factory=list)
    pending: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.grids = _Grids(self)
        self.declared = SLEEVES.get()  # the sleeves of a region made here, by name

    @classmethod
    def of(cls, layout: Layout) -> Draft:
        d = cls(layout)
        for reg in layout.regions:
            d.meta[reg.name] = (reg.unit, reg.hand, reg.sleeve)
            d.order.append(reg.name)
            d.pending.add(reg.name)
        for lab in layout.labels:
            where = []
            for f in lab.slots:
                reg = layout.owner(f)
                r, c = reg.address(f)
                where.append((reg.name, r, c))
            d.labels.append((lab.text, where, list(lab.slots)))
        return d

    # -- addressing ------------------------------------------------------------
    def locate(self, flat: int) -> tuple[str, int, int]:
        """Where old slot ``flat`` is in the draft (it may have moved)."""
        reg = self.layout.owner(flat)
        r, c = reg.address(flat)
        return reg.name, r, c

    def token_at(self, name: str, r: int, c: int) -> int:
        return self.grids[name][r - 1][c - 1]

    def set_token(self, name: str, r: int, c: int, token: int) -> None:
        self.grids[name][r - 1][c - 1] = token

    def new_token(self, card_code: int) -> int:
        self.consts.append(card_code)
        return NEW - (len(self.consts) - 1)

    # -- editing ---------------------------------------------------------------
    def take_tokens(self, flats: Sequence[int]) -> list[int]:
        """Remove the cards at old slots ``flats`` (in order), leaving empty slots."""
        out = []
        layout = self.layout
        for f in flats:
            reg = layout.owner(f)
            k = f - reg.offset
            row = self.grids[reg.name][k // reg.cols]
            tok = row[k % reg.cols]
            if tok == EMPTY:
                raise EvalError(f"{layout.describe(f)} is empty")
            out.append(tok)
            row[k % reg.cols] = EMPTY
        return out

    def add_region(
        self,
        name: str,
        grid: list[list[int]],
        unit: int = 1,
        hand: str | None = None,
        before: str | None = None,
        sleeve: SleeveFrame | None = None,
    ) -> None:
        """A new region, in sleeves if ``sleeve`` is given or the protocol declares its name."""
        if name in self.grids:
            raise EvalError(f"there is already a {name!r} on the table")
        widths = {len(row) for row in grid}
        if len(widths) > 1:
            raise EvalError(f"{name}: rows of different lengths {sorted(widths)}")
        self.grids[name] = grid
        if sleeve is None and hand is None:
            sleeve = self.declared.get(name)
        self.meta[name] = (unit, hand, sleeve)
        if before is not None and before in self.order:
            self.order.insert(self.order.index(before), name)
        else:
            self.order.append(name)

    def remove_region(self, name: str) -> None:
        if name in self.pending:
            self.pending.discard(name)
        else:
            del self.grids[name]
        del self.meta[name]
        self.order.remove(name)

    def ensure_rows(self, name: str, rows: int) -> None:
        grid = self.grids[name]
        width = len(grid[0]) if grid else 0
        while len(grid) < rows:
            grid.append([EMPTY] * width)

    def label(self, text: str, where: list[tuple[str, int, int]]) -> None:
        """Add a display label; a label with the same text elsewhere is replaced."""
        self.labels = [lab for lab in self.labels if lab[0] != text or lab[2] is None]
        self.labels.append((text, where, None))

    def finish(self, keep_empty: Iterable[str] = ()) -> tuple[Layout, tuple[int, ...], tuple[int, ...]]:
        """Drop regions that became empty (hands stay), trim empty bottom rows, build the plan."""
        keep = set(keep_empty)
        for name in list(self.order):
            if name in self.pending:
                continue  # untouched: still as it was in a valid layout
            _, hand, _ = self.meta[name]
            grid = dict.__getitem__(self.grids, name)
            if hand is None and name not in keep and all(t == EMPTY for row in grid for t in row):
                self.remove_region(name)
                continue
            while len(grid) > 1 and all(t == EMPTY for t in grid[-1]):
                grid.pop()  # a matrix whose bottom rows were cleared has fewer rows
        shapes = []
        src: list[int] = []
        holes: list[int] = []
        offsets: dict[str, tuple[int, int]] = {}  # name -> (new offset, cols)
        old = self.layout
        for name in self.order:
            unit, hand, sleeve = self.meta[name]
            start = len(src)
            if name in self.pending:
                reg = old.by_name[name]
                shapes.append((name, reg.rows, reg.cols, unit, hand, sleeve))
                offsets[name] = (start, reg.cols)
                src.extend(reg.slots)
                if old.holes:
                    holes.extend(h - reg.offset + start for h in reg.slots if h in old.holes)
                continue
            grid = dict.__getitem__(self.grids, name)
            rows = len(grid)
            cols = len(grid[0]) if rows else 0
            shapes.append((name, rows, cols, unit, hand, sleeve))
            offsets[name] = (start, cols)
            for row in grid:
                for tok in row:
                    if tok == EMPTY:
                        holes.append(len(src))
                    src.append(tok)
        labels = []
        for text, where, tokens in self.labels:
            flats = []
            for name, r, c in where:
                if name in offsets:
                    off, cols = offsets[name]
                    flats.append(off + (r - 1) * cols + (c - 1))
                else:
                    flats.append(-1)
            # An old label stays only while its cards stay where they were.
            if tokens is not None and any(
                f < 0 or f >= len(src) or src[f] != t for f, t in zip(flats, tokens)
            ):
                continue
            kept = tuple(f for f in flats if 0 <= f < len(src))
            if kept:
                labels.append(Label(text, kept))
        layout = Layout.make(shapes, holes, labels)
        return layout, tuple(src), tuple(self.consts)


def _grid(layout: Layout, name: str) -> list[list[int]]:
    """Region ``name`` of ``layout`` as a draft's grid of old slots (EMPTY for a hole)."""
    reg = layout.by_name[name]
    holes = layout.holes
    cols = reg.cols
    grid = []
    for r in range(reg.rows):
        start = reg.offset + r * cols
        row = list(range(start, start + cols))
        if holes:
            row = [EMPTY if f in holes else f for f in row]
        grid.append(row)
    return grid


def gather(cells: tuple[int, ...], src: tuple[int, ...], consts: tuple[int, ...]) -> tuple[int, ...]:
    """Apply a draft's plan to one state's cells."""
    return tuple([cells[t] if t >= 0 else (EMPTY if t == EMPTY else consts[NEW - t]) for t in src])
