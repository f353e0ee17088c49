"""A layout's slots inside its sleeves (``Layout.inside``) are joined from its sleeved regions'
only when first read (sleeves.Inside); whether it has any (``Layout.sleeved``) is known without
joining them. Each answer is the plain computation's."""

from __future__ import annotations

import random

import pytest

from reference_engine import sleeves
from reference_engine.regions import Region
from reference_engine.sleeves import SleeveFrame, sleeve_slots
from reference_engine.table import Layout

FRONT = SleeveFrame((1, 2, 3), (1, 2, 3), frozenset({3}), side="front")


def _plain_inside(layout: Layout) -> set[int]:
    return {
        reg.slot(r, c)
        for reg in layout.regions
        if reg.sleeve is not None
        for r in reg.sleeve.rows
        if r <= reg.rows
        for c in range(1, reg.cols + 1)
    }


def test_several_sleeved_regions_are_joined_when_first_read_and_kept() -> None:
    shapes = [
        ("w61j_pile", 1, 2, 1, None),
        ("w61j_a", 3, 4, 1, None, FRONT.turned("back").with_rows([1, 3])),
        ("w61j_b", 2, 3, 1, None, FRONT),
    ]
    layout = Layout.make(shapes)
    assert layout.sleeved is True
    assert "inside" not in layout.__dict__  # not joined yet
    inside = layout.inside
    assert inside == _plain_inside(layout) and isinstance(inside, frozenset)
    assert layout.__dict__["inside"] is inside and layout.inside is inside  # kept
    plain = tuple(Region(r.name, r.rows, r.cols, r.offset, r.unit, r.hand, r.sleeve) for r in layout.regions)
    assert (layout.inside, layout.shown) == sleeve_slots(plain, layout.holes)


def test_a_new_regions_set_of_slots_is_made_only_when_inside_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sleeves, "_SETS", {})
    back = FRONT.turned("back")
    layout = Layout.make([("w61k_a", 2, 5, 1, None, back), ("w61k_b", 3, 2, 1, None, back.with_rows([2]))])
    assert layout.sleeved and layout.shown == frozenset()
    assert sleeves._SETS == {}  # no region's set made, no union
    assert layout.inside == set(range(10)) | {12, 13}
    assert (0, 5, (1, 2)) in sleeves._SETS and (10, 2, (2,)) in sleeves._SETS


def test_sleeved_regions_with_no_row_inside_are_not_sleeved() -> None:
    # rows 2 and 3 only are inside: a one-row region in those sleeves has nothing inside
    frame = FRONT.turned("back").with_rows([2, 3])
    layout = Layout.make([("w61j_c", 1, 4, 1, None, frame), ("w61j_d", 1, 2, 1, None, frame)])
    assert layout.sleeved is False and layout.inside == frozenset()
    assert Layout.make([("w61j_e", 1, 4, 1, None)]).sleeved is False


def test_sleeved_is_whether_inside_has_a_slot_on_random_layouts() -> None:
    rng = random.Random(61)
    for n in range(300):
        shapes: list[tuple[object, ...]] = []
        for k in range(rng.randint(1, 4)):
            rows, cols = rng.randint(1, 3), rng.randint(1, 4)
            pick = rng.random()
            if pick < 0.3:
                shapes.append((f"w61r{n}_{k}", rows, cols, 1, None))
                continue
            some = rng.sample((1, 2, 3), rng.randint(1, 2))
            frame = FRONT if pick < 0.6 else FRONT.turned("back").with_rows(some)
            shapes.append((f"w61r{n}_{k}", rows, cols, 1, None, frame))
        layout = Layout.make(shapes)
        want = _plain_inside(layout)
        assert layout.sleeved is bool(want)
        assert layout.inside == want
