"""Regions made cheaply (regions.py: written as plain slots, then given their class), layouts
interned by their regions' hashes (a collision still tells layouts apart: test_interning.py),
and regions kept by their frame's identity. Each fast path gives what the plain one gave."""

from __future__ import annotations

import dataclasses
import gc
import pickle

import pytest

from reference_engine import table
from reference_engine.regions import Region
from reference_engine.sleeves import SleeveFrame, sleeve_slots
from reference_engine.table import Layout

FRAME = SleeveFrame((2, 1, 3), (2, 1, 3), frozenset({1, 3}), frozenset({2}))


def test_a_region_is_frozen_slotted_and_equal_hashed_and_pickled_as_the_dataclass() -> None:
    reg = Region("w60reg", 3, 4, 7, 1, "P_1", FRAME)
    assert type(reg) is Region and isinstance(reg, Region)
    assert (reg.name, reg.rows, reg.cols, reg.offset, reg.unit, reg.hand, reg.sleeve) == (
        "w60reg",
        3,
        4,
        7,
        1,
        "P_1",
        FRAME,
    )
    assert reg.size == 12 and reg.sleeve_slots is None
    assert hash(reg) == hash(("w60reg", 3, 4, 7, 1, "P_1", FRAME))
    assert not hasattr(reg, "__dict__")  # slots: no dict to read attributes through
    with pytest.raises(dataclasses.FrozenInstanceError):
        reg.rows = 2  # type: ignore[misc]
    assert Region("w60reg", 1, 2, 0) == Region("w60reg", 1, 2, 0, 1, None, None)  # the defaults
    assert Region("w60reg", 1, 2, 0) != Region("w60reg", 1, 2, 1)
    back = pickle.loads(pickle.dumps(reg))
    assert back == reg and type(back) is Region and back.size == 12 and hash(back) == hash(reg)
    wider = dataclasses.replace(reg, cols=5)
    assert wider.size == 15 and wider.sleeve is FRAME and type(wider) is Region
    assert [f.name for f in dataclasses.fields(Region)] == [
        "name",
        "rows",
        "cols",
        "offset",
        "unit",
        "hand",
        "sleeve",
    ]
    assert repr(Region("w60reg", 1, 2, 0)) == (
        "Region(name='w60reg', rows=1, cols=2, offset=0, unit=1, hand=None, sleeve=None)"
    )


def test_a_layout_found_by_its_regions_hashes_is_one_with_the_very_regions() -> None:
    shapes = [("w60lay", 1, 3, 1, None), ("w60lay_b", 2, 2, 1, "P_1")]
    a = Layout.make(shapes)
    assert Layout.make(list(shapes)) is a and a.by_name == {r.name: r for r in a.regions}
    key = (tuple(hash(r) for r in a.regions), a.holes, a.labels)
    assert Layout._interned[key]() is a
    other = Layout.make([("w60lay", 1, 3, 1, None)], first=())
    assert other is not a and other.regions == a.regions[:1]
    # made after the first regions, the same layout: by_name holds those too
    assert Layout.make([("w60lay_b", 2, 2, 1, "P_1")], first=other.regions) is a


def test_a_collision_goes_to_the_clashes_and_is_swept_there(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = dict(table._REGIONS)
    for name in ("w60clash_a", "w60clash_b"):
        reg = Region(name, 1, 2, 0)
        object.__setattr__(reg, "_hash", 60)
        kept[(name, 1, 2, 0, 1, None, None)] = reg
    monkeypatch.setattr(table, "_REGIONS", kept)
    a = Layout.make([("w60clash_a", 1, 2, 1, None)])
    b = Layout.make([("w60clash_b", 1, 2, 1, None)])
    assert a is not b and b.regions[0].name == "w60clash_b"
    assert any(ref() is b for ref in Layout._clashes.values())
    assert Layout.make([("w60clash_b", 1, 2, 1, None)]) is b
    del b
    gc.collect()
    Layout.sweep()
    assert all(ref() is not None for ref in Layout._clashes.values())
    assert Layout.make([("w60clash_a", 1, 2, 1, None)]) is a


def test_equal_frames_that_are_other_objects_make_equal_regions_and_the_same_layout() -> None:
    twin = SleeveFrame((2, 1, 3), (2, 1, 3), frozenset({1, 3}), frozenset({2}))
    assert twin == FRAME and twin is not FRAME
    a = Layout.make([("w60twin", 3, 4, 1, None, FRAME)])
    b = Layout.make([("w60twin", 3, 4, 1, None, twin)])
    assert b is a
    assert Layout.make([("w60twin", 3, 4, 1, None, FRAME)]).regions[0] is a.regions[0]


def test_the_sleeve_slots_of_many_layouts_are_those_of_the_plain_computation() -> None:
    frames = [
        FRAME,
        FRAME.turned("front"),
        FRAME.turned("front").with_rows([1, 3]),
        SleeveFrame((1,), (1,), frozenset({1}), side="front"),
        SleeveFrame((1, 2), (1, 2), frozenset({2}), side="front", kind="envelope"),
    ]
    for i, frame in enumerate(frames):
        for rows in (1, 2, 3):
            if rows > frame._span:  # type: ignore[attr-defined]
                continue
            shapes = [("w60pile", 1, 2, 1, None), (f"w60s{i}", rows, 4, 1, None, frame)]
            for holes in ((), (2,), (2 + (rows - 1) * 4, 3 + (rows - 1) * 4)):
                layout = Layout.make(shapes, holes)
                reg = layout.by_name[f"w60s{i}"]
                inside = {reg.slot(r, c) for r in frame.rows if r <= rows for c in range(1, 5)}
                assert layout.inside == inside
                plain = Region(reg.name, reg.rows, reg.cols, reg.offset, reg.unit, reg.hand, reg.sleeve)
                assert (layout.inside, layout.shown) == sleeve_slots((plain,), layout.holes)
