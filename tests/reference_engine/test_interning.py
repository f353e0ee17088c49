"""Layout interning: equal contents give the very same object (layouts compare and hash by
identity, in C), and different regions whose hashes collide still give different layouts (forced
here)."""

from __future__ import annotations

import dataclasses
import gc
import pickle
import sys
from typing import Any

import pytest

from reference_engine import table
from reference_engine.sleeves import SleeveFrame
from reference_engine.table import Layout, Region


def forced(fields: tuple[Any, ...], value: int) -> Region:
    """The region of ``fields``, its stored hash forced to ``value``."""
    reg = Region(*fields)
    object.__setattr__(reg, "_hash", value)
    return reg


@pytest.fixture
def colliding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regions ``w37col_a`` and ``w37col_b`` (one row of 3) whose hashes are the same."""
    kept = dict(table._REGIONS)
    for name in ("w37col_a", "w37col_b"):
        kept[(name, 1, 3, 0, 1, None, None)] = forced((name, 1, 3, 0, 1, None, None), 12345)
    monkeypatch.setattr(table, "_REGIONS", kept)


def test_colliding_regions_give_different_layouts_each_interned(colliding: None) -> None:
    a = Layout.make([("w37col_a", 1, 3, 1, None)])
    b = Layout.make([("w37col_b", 1, 3, 1, None)])
    assert a is not b
    assert [r.name for r in a.regions] == ["w37col_a"] and [r.name for r in b.regions] == ["w37col_b"]
    assert hash(a.regions[0]) == hash(b.regions[0])  # the collision really is one
    assert Layout.make([("w37col_a", 1, 3, 1, None)]) is a
    assert Layout.make([("w37col_b", 1, 3, 1, None, None)]) is b


def test_a_colliding_layout_stays_the_one_after_the_first_dies(colliding: None) -> None:
    a = Layout.make([("w37col_a", 1, 3, 1, None)])
    b = Layout.make([("w37col_b", 1, 3, 1, None)])
    del a
    gc.collect()
    assert Layout.make([("w37col_b", 1, 3, 1, None)]) is b  # not a second b in the freed slot
    a2 = Layout.make([("w37col_a", 1, 3, 1, None)])
    assert a2.regions[0].name == "w37col_a" and a2 is not b
    assert Layout.make([("w37col_a", 1, 3, 1, None)]) is a2
    assert Layout.make([("w37col_b", 1, 3, 1, None)]) is b
    del b
    gc.collect()
    Layout.sweep()
    b2 = Layout.make([("w37col_b", 1, 3, 1, None)])
    assert b2.regions[0].name == "w37col_b" and Layout.make([("w37col_b", 1, 3, 1, None)]) is b2


def test_holes_and_labels_still_tell_layouts_apart(colliding: None) -> None:
    a = Layout.make([("w37col_a", 1, 3, 1, None)])
    holed = Layout.make([("w37col_a", 1, 3, 1, None)], holes=[1])
    labelled = Layout.make([("w37col_a", 1, 3, 1, None)], labels=[table.Label("x", (0,))])
    assert len({id(a), id(holed), id(labelled)}) == 3
    assert Layout.make([("w37col_a", 1, 3, 1, None)], holes=(1,)) is holed
    assert Layout.make([("w37col_a", 1, 3, 1, None)], labels=(table.Label("x", (0,)),)) is labelled


def test_equal_regions_that_are_other_objects_give_the_same_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    shapes = [("w37col_eq", 1, 4, 2, "P_1"), ("w37col_eq2", 2, 3, 1, None)]
    a = Layout.make(shapes)
    monkeypatch.setattr(table, "_REGIONS", {})  # the region cache started afresh: new objects
    again = Layout.make(shapes)
    assert again is a
    assert Layout.make([(*s, None) for s in shapes]) is a  # an explicit no-sleeve: the same


def test_one_and_true_are_the_same_region_field_as_before() -> None:
    assert Layout.make([("w37col_one", 1, 2, 1, None)]) is Layout.make([("w37col_one", True, 2, 1, None)])


def test_pickled_layout_keeps_its_regions_and_region_pickles_by_fields() -> None:
    a = Layout.make([("w37col_p", 1, 3, 1, None)])
    back = pickle.loads(pickle.dumps(a))
    assert back.regions == a.regions and back.holes == a.holes and back.labels == a.labels
    assert back._key == (a.regions, a.holes, a.labels)  # the whole key, never process hashes
    assert Region.__reduce__(a.regions[0]) == (Region, ("w37col_p", 1, 3, 0, 1, None, None))


def test_layouts_compare_and_hash_by_identity_with_objects_own_methods() -> None:
    a = Layout.make([("w37col_id", 1, 3, 1, None)])
    assert type(a).__eq__ is object.__eq__ and type(a).__hash__ is object.__hash__
    assert a == a and a != Layout.make([("w37col_id", 1, 4, 1, None)]) and a != "a layout"
    assert {a: 1}[Layout.make([("w37col_id", 1, 3, 1, None)])] == 1


def test_a_regions_size_is_stored_and_no_field() -> None:
    reg = Region("w37col_size", 2, 3, 5)
    assert reg.size == 6 and Region("w37col_size", 2, 3, 5, 1, None, None) == reg
    assert "size" not in [f.name for f in dataclasses.fields(Region)]
    assert "size=" not in repr(reg)
    assert pickle.loads(pickle.dumps(reg)).size == 6
    assert dataclasses.replace(reg, cols=4).size == 8
    layout = Layout.make([("w37col_size", 2, 3, 1, None), ("w37col_size2", 1, 4, 2, None)])
    assert layout.size == 10 == sum(r.size for r in layout.regions)
    assert Layout(layout.regions, frozenset(), ()).size == 10  # made without make: summed


def test_a_regions_places_by_rows_and_columns_are_its_slots_in_order() -> None:
    """``R[rows, columns]`` (RegionRef.kg_index, two indices, lists and the wildcard, in any
    order, repeated, given as true for 1): the region's ``slot(r, c)``, row by row."""
    from reference_engine.expressions import WILDCARD
    from reference_engine.table import RegionRef

    layout = Layout.make([("w51at_a", 1, 2, 1, None), ("w51at_b", 3, 4, 1, None)])
    reg = layout.by_name["w51at_b"]
    ref = RegionRef(layout, reg, None)
    picks: list[Any] = [WILDCARD, 2, [3, 1], [2, 2, 4], True, [1, 2, 3]]
    for r_idx in picks:
        for c_idx in picks:
            rows = range(1, 4) if r_idx is WILDCARD else r_idx if isinstance(r_idx, list) else [r_idx]
            cols = range(1, 5) if c_idx is WILDCARD else c_idx if isinstance(c_idx, list) else [c_idx]
            if any(r > 3 for r in rows):
                continue
            got = ref.kg_index([r_idx, c_idx])
            assert list(got.flat) == [reg.slot(int(r), int(c)) for r in rows for c in cols]
            assert all(type(f) is int for f in got.flat)


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="CPython's attribute caches")
def test_layouts_and_regions_keep_the_fast_attribute_reads() -> None:
    """Every step reads layouts' and regions' attributes. CPython 3.11 reads them fast while a
    layout's class has no ``__getattr__`` (one makes every read go through a hook: a lazy
    ``inside`` cost +88 M instructions over the bench's first 1,017 card-level turns and +71 M
    over the next 1,007, stop 58) and while a region's attributes stay in the object, its
    ``__dict__`` never read nor written (reading it moves them into a dict: a region made by
    writing its ``__dict__`` cost +83 M and +98 M)."""
    assert "__getattr__" not in vars(Layout) and Layout.__getattribute__ is object.__getattribute__
    frame = SleeveFrame((1, 2), (1, 2), frozenset({2}), side="front")
    layout = Layout.make([("w58fast", 2, 3, 1, None, frame), ("w58fast_pile", 1, 2, 1, None)], [4])
    assert layout.shown == frozenset({3, 5}) and layout.inside == frozenset(range(6))
    for reg in layout.regions:  # each attribute held by the object itself, no dict made for them
        assert not any(type(x) is dict for x in gc.get_referents(reg)), reg
