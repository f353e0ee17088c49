"""A region of the table: a named grid of card slots at an offset (see :mod:`.table`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .sleeves import SleeveFrame

_PUT = object.__setattr__


class _Fields:
    """A region's attributes, written once: a :class:`Region` is made as one of these (plain
    stores, specialised by CPython), then given its class (``__class__``: the same slots, so
    CPython allows it and nothing moves). A frozen dataclass's own __init__ stores each field
    with ``object.__setattr__`` past its __setattr__ and calls __post_init__ for the rest:
    ~14.7k instructions a region against ~6k here, and a card-level game makes ~5 new regions
    a turn. Slots, not a dict: a region's attributes are read on every step (a dict written
    whole, stop 58, made those reads slower)."""

    __slots__ = ("_hash", "cols", "hand", "name", "offset", "rows", "size", "sleeve", "sleeve_slots", "unit")


_new = object.__new__


@dataclass(frozen=True, init=False)
class Region(_Fields):
    __slots__ = ()
    # No defaults here (a class attribute would hide its slot): __new__ has them.
    name: str
    rows: int
    cols: int
    offset: int
    unit: int
    hand: str | None
    sleeve: SleeveFrame | None
    size: ClassVar[int]  # rows * cols: stored by __new__ (no field: equality, hash, pickle)
    # sleeves.sleeve_slots' answer, kept when first asked (no field); None from __new__.
    sleeve_slots: ClassVar[Any]
    _hash: ClassVar[int]  # the hash, stored by __new__ (Layout.make's intern key holds it)

    def __new__(
        cls,
        name: str,
        rows: int,
        cols: int,
        offset: int,
        unit: int = 1,
        hand: str | None = None,
        sleeve: SleeveFrame | None = None,
    ) -> Region:
        self: Any = _new(_Fields)  # a Region once given its class below
        self.name = name
        self.rows = rows
        self.cols = cols
        self.offset = offset
        self.unit = unit
        self.hand = hand
        self.sleeve = sleeve
        self.size = rows * cols
        self.sleeve_slots = None
        # Hashed once: a layout's intern key holds its regions' hashes (the same value the
        # dataclass's own hash gives, so equal regions still hash equal).
        self._hash = hash((name, rows, cols, offset, unit, hand, sleeve))
        _PUT(self, "__class__", cls)
        return self  # type: ignore[no-any-return]

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt by its fields, never with the stored hash: a string's hash differs between
        # processes (machine/store.py pickles outcomes to disk; workers receive them).
        return Region, (self.name, self.rows, self.cols, self.offset, self.unit, self.hand, self.sleeve)

    def slot(self, r: int, c: int) -> int:
        return self.offset + (r - 1) * self.cols + (c - 1)

    def address(self, flat: int) -> tuple[int, int]:
        k = flat - self.offset
        return k // self.cols + 1, k % self.cols + 1

    @property
    def slots(self) -> range:
        return range(self.offset, self.offset + self.size)

    def items(self) -> int:
        return self.cols // self.unit if self.rows == 1 else self.cols
