"""A call's plan placed by rows (reference_engine/compiled/callrows.py) is ``call_rows``' plan on
every layout of its form: built on one table, placed on tables whose other regions differ in size,
number and order before and after; refused (None) wherever ``call_rows`` refuses."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from reference_engine.compiled.base import gather
from reference_engine.compiled.callrows import Rows, form, lands_up, row_of
from reference_engine.compiled.runs import call_rows
from reference_engine.sleeves import SleeveFrame
from reference_engine.table import SLEEVES, Layout

ARROW = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
OUTS: list[tuple[Any, tuple[Any, ...]]] = [
    ((("name", "played"), ("name", "unselected")), (((1, 1), 1), ((1, 2), 2))),
    ((("name", "played"), ("name", "unselected")), (((1, 0), 0), ((2, 2), 4))),
    ((("name", "played"),), ((None, 3),)),
    ((("name", "T"), ("name", "T")), (((1, 1), 1), ((1, 1), 1))),  # one name twice
    ((("name", "M"),), (((1, 2), 2),)),  # a region on the table
    ((("slots", (0,)),), (((1, 1), 1),)),  # a target that is no new region
]


def table(m: int, d: int, extra: bool = False, holes: tuple[int, ...] = ()) -> Layout:
    """Step 10's table (the pile ``M`` of ``m`` columns, the set-aside ``L``, ``D``), with a hand
    and a loose row after it when ``extra``."""
    shapes: list[tuple[Any, ...]] = [
        ("M", 3, m, 1, None, ARROW),
        ("L", 3, 3, 1, None, ARROW),
        ("D", 3, d, 1, None, ARROW),
    ]
    if extra:
        shapes += [("h1", 1, m + 1, 1, "h1", None), ("spare", 1, 2, 1, None, None)]
    return Layout.make(shapes, holes)


def whole_rows(layout: Layout) -> list[tuple[int, ...]]:
    return [
        tuple(reg.slot(r, c) for c in range(1, reg.cols + 1))
        for reg in layout.regions
        for r in range(1, reg.rows + 1)
    ]


def picks(layout: Layout) -> list[list[tuple[int, ...]]]:
    rows = whole_rows(layout)
    out: list[list[tuple[int, ...]]] = [[f] for f in rows]
    out += [[a, b] for a, b in itertools.combinations(rows, 2)]
    out += [[rows[0], rows[0]], [rows[0][1:]], [rows[0][::-1]], [], [(layout.size,)]]
    return out


def placed(rows: Rows, layout: Layout, consts: tuple[int, ...]) -> tuple[Layout, list[int]]:
    return rows.apply(layout, list(range(0, 2 * layout.size, 2)), consts)


def reference(layout: Layout, flats: Any, targets: Any, counts: Any) -> tuple[Layout, list[int]] | None:
    plan = call_rows(layout, flats, targets, list(counts))
    if plan is None:
        return None
    consts = tuple(range(1, 2 * len(plan.consts) + 1, 2))
    return plan.layout, gather(list(range(0, 2 * layout.size, 2)), plan, consts)


@pytest.mark.parametrize("extra", [False, True])
def test_a_form_is_call_rows_on_every_layout_of_it(extra: bool) -> None:
    first = table(4, 1, extra)
    others = [table(m, d, extra) for m in (1, 2, 7, 30) for d in (1, 2)]
    built = refused = placed_elsewhere = 0
    for flats in picks(first):
        where = [row_of(first, f) for f in flats]
        for targets, counts in OUTS:
            want = reference(first, flats, targets, counts)
            key = form(first, where, targets, counts) if where and None not in where else None  # type: ignore[arg-type]
            if key is None:
                assert want is None, (flats, targets)
                refused += 1
                continue
            assert want is not None, (flats, targets)
            rows = Rows(first, where, targets, counts)  # type: ignore[arg-type]
            n = sum(c for _, c in counts)
            assert placed(rows, first, tuple(range(1, 2 * n + 1, 2))) == want
            built += 1
            if any(first.regions[i].name != "L" for i, _ in where):  # type: ignore[misc]
                continue  # M's and D's sizes differ among the others: another form
            for other in others:  # the same rows of L, the other regions resized
                moved = [
                    tuple(other.regions[i].slot(r + 1, c) for c in range(1, other.regions[i].cols + 1))
                    for i, r in where  # type: ignore[misc]
                ]
                assert form(other, [row_of(other, f) for f in moved], targets, counts) == key  # type: ignore[misc]
                assert placed(rows, other, tuple(range(1, 2 * n + 1, 2))) == reference(
                    other, moved, targets, counts
                )
                placed_elsewhere += 1
    assert built > 20 and refused > 20 and placed_elsewhere > 20


def test_a_form_keys_everything_its_plan_reads() -> None:
    layout = table(4, 1)
    where = [row_of(layout, f) for f in whole_rows(layout)[3:4]]  # L's first row
    targets, counts = OUTS[0]
    key = form(layout, where, targets, counts)  # type: ignore[arg-type]
    assert key is not None
    assert form(layout, where, targets, (((1, 1), 1), ((2, 1), 2))) != key  # the results' shapes
    assert form(table(4, 1, holes=(0,)), where, targets, counts) is None  # an empty place
    narrow = Layout.make(
        [("M", 3, 4, 1, None, ARROW), ("L", 3, 2, 1, None, ARROW), ("D", 3, 1, 1, None, ARROW)]
    )
    assert form(narrow, [row_of(narrow, narrow.by_name["L"].slots[:2])], targets, counts) != key  # L's size
    token = SLEEVES.set({"played": ARROW})
    try:
        assert form(layout, where, targets, counts) != key  # the new region lies in a sleeve
    finally:
        SLEEVES.reset(token)


def test_row_of_refuses_what_is_not_one_whole_row_of_a_region_that_is_no_hand() -> None:
    layout = table(4, 1, extra=True)
    m = layout.by_name["M"]
    row = tuple(m.slot(2, c) for c in range(1, 5))
    assert row_of(layout, row) == (0, 1)
    assert row_of(layout, list(row)) == (0, 1)
    assert row_of(layout, row[1:]) is None
    assert row_of(layout, row[::-1]) is None
    assert row_of(layout, (*row[:3], row[3] + 1)) is None  # into the next row
    assert row_of(layout, ()) is None
    assert row_of(layout, (-1,)) is None
    assert row_of(layout, (layout.size,)) is None
    hand = layout.by_name["h1"]
    assert row_of(layout, tuple(hand.slots)) is None


def test_lands_up_is_the_sleeves_answer_for_the_row() -> None:
    layout = table(4, 1)
    for r in range(3):
        assert lands_up(layout, (1, r)) == ARROW.lands_up(r + 1)
    loose = Layout.make([("s", 2, 2, 1, None, None)])
    assert not lands_up(loose, (0, 0))


def test_a_layout_met_again_is_placed_from_what_was_kept() -> None:
    """The layout after and the pieces of the cells are kept per layout (Rows.placed): met
    again, with other cards, the call places them as call_rows does; another layout of the form
    is kept apart."""
    first = table(4, 1)
    flats = [whole_rows(first)[3], whole_rows(first)[5]]  # L's first and last rows
    where = [row_of(first, f) for f in flats]
    targets, counts = OUTS[0]
    rows = Rows(first, where, targets, counts)  # type: ignore[arg-type]
    consts = (1, 3, 5)
    want = reference(first, flats, targets, counts)
    assert want is not None
    assert placed(rows, first, consts) == want
    assert first in rows.placed
    kept = rows.placed[first]
    cells = list(range(100, 100 + first.size))  # other cards, the same layout
    after, out = rows.apply(first, cells, consts)
    plan = call_rows(first, flats, targets, list(counts))
    assert plan is not None and after is plan.layout and out == gather(cells, plan, consts)
    assert rows.placed[first] is kept  # met again: nothing made afresh
    other = table(7, 2, True)  # another layout of the form: kept too, each its own
    moved = [
        tuple(other.regions[i].slot(r + 1, c) for c in range(1, other.regions[i].cols + 1))
        for i, r in where  # type: ignore[misc]
    ]
    assert placed(rows, other, consts) == reference(other, moved, targets, counts)
    assert set(rows.placed) == {first, other}
