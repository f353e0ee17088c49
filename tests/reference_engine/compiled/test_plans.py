"""The compiled path's fast plan builders (reference_engine/compiled/plans.py) give exactly the
interpreter's plan (its display details left out) on whole-table layouts and on hostile ones;
where the interpreter reports a problem, the fast builder defers to it (for its message)."""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from reference_engine import steps as st
from reference_engine.compiled import plans as fp
from reference_engine.compiled.base import gather, same_plan, strip
from reference_engine.compiled.runs import bottom_row, call_rows, meets, region_at, return_row, take_runs
from reference_engine.expressions import EvalError
from reference_engine.functions import hand_name
from reference_engine.machine.actions.layout import _discard_build, _move_build, _return_build, _take_build
from reference_engine.machine.actions.sleeving import _sleeve_build, check_kept
from reference_engine.machine.plans import landings
from reference_engine.sleeves import SleeveFrame, SleeveOp
from reference_engine.table import EMPTY, Layout

ARROW = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))
STEP = st.Note((), None, "test", None)  # what a mismatch names


def table(cols: int = 6, holes: tuple[int, ...] = (), sleeve: SleeveFrame = ARROW) -> Layout:
    """A grid of sleeves (3 rows), a set-aside region in sleeves, a hand and a loose row."""
    return Layout.make(
        [
            ("M", 3, cols, 1, None, sleeve),
            ("L", 3, 2, 1, None, sleeve),
            ("h1", 1, 3, 1, "h1", None),
            ("spare", 1, 2, 1, None, None),
        ],
        holes,
    )


def agree(fast: Any, reference: Any, layout: Layout, res: Any) -> str:
    """The fast builder's plan is the interpreter's, or both refuse (the fast one by deferring).
    Says which: "same", "refused" or "deferred" (the interpreter's plan is used)."""
    try:
        want = strip(reference(None, None, None, layout, res))
    except EvalError as exc:
        with pytest.raises((fp.Defer, EvalError)) as info:  # deferred, or the same message
            fast(layout, res)
        assert info.type is fp.Defer or str(info.value) == str(exc)
        return "refused"
    try:
        got = fast(layout, res)
    except fp.Defer:
        return "deferred"  # the interpreter's builder is used: the same plan by construction
    same_plan(STEP, got, want, layout)  # its gather and the cards slid out of a sleeve too
    cells = list(range(0, 2 * layout.size, 2))
    assert gather(cells, got, got.consts) == gather(cells, want, want.consts)
    assert landings(got, layout) == landings(want, layout)
    return "same"


SLEEVE_OPS = [
    (SleeveOp("M", side="front"),),
    (SleeveOp("M", side="back"),),
    (SleeveOp("M", out=(2,)),),
    (SleeveOp("M", out=(1, 3)),),
    (SleeveOp("M", into=(2,)),),  # already inside: refused
    (SleeveOp("M", out=(4,)),),  # not a declared row: refused
    (SleeveOp("L", out=(2,)), SleeveOp("M", side="front")),
    (SleeveOp("M", out=(2,)), SleeveOp("M", into=(2,))),  # out, then back in, in one step
    (SleeveOp("L", out=(1, 3)), SleeveOp("M", out=(2,))),  # rows of two regions slide out
    (SleeveOp("M", side="front"), SleeveOp("M", out=(3,))),  # out of sleeves lying front up
    (SleeveOp("M", out=(2,)), SleeveOp("M", out=(1,))),  # two slides out of one region, in turn
    (SleeveOp("h1", side="front"),),  # a hand, not in sleeves: refused
    (SleeveOp("spare", out=(1,)),),  # not in sleeves: refused
    (SleeveOp("nowhere", side="front"),),  # no such region: refused
    (),
]


@pytest.mark.parametrize("ops", SLEEVE_OPS, ids=[str(i) for i in range(len(SLEEVE_OPS))])
@pytest.mark.parametrize("holes", [(), (0, 1, 2, 3, 4, 5), (7, 13)])
def test_a_sleeve_plan_is_the_interpreters(ops: tuple[SleeveOp, ...], holes: tuple[int, ...]) -> None:
    agree(fp.build_sleeve, _sleeve_build, table(holes=holes), ops)


ODD_SLEEVES = [
    # A region with fewer rows than its sleeves declare (row 3 is no row of it).
    Layout.make([("M", 2, 4, 1, None, ARROW), ("L", 3, 2, 1, None, ARROW)], (1, 9)),
    # A hand in sleeves (its slots are inside, but nothing of a hand "lands"), another region.
    Layout.make([("h1", 1, 3, 1, "h1", ARROW), ("M", 3, 3, 1, None, ARROW)], (4,)),
    # A region whose row 2 is already out, beside one whose sleeves lie front up.
    Layout.make(
        [
            ("M", 3, 3, 1, None, SleeveFrame(declared=(2, 1, 3), rows=(1, 3), front=frozenset({1, 3}))),
            ("L", 3, 2, 1, None, SleeveFrame((2, 1, 3), (2, 1, 3), frozenset({1}), side="front")),
        ]
    ),
]
ODD_OPS = [
    (SleeveOp("M", out=(1,)),),
    (SleeveOp("M", out=(3,)),),
    (SleeveOp("M", out=(1, 3)), SleeveOp("L", out=(2,))),
    (SleeveOp("L", out=(3, 1)),),
    (SleeveOp("h1", out=(2,)), SleeveOp("M", out=(2,))),
    (SleeveOp("M", into=(2,)), SleeveOp("L", out=(1,))),
    (SleeveOp("L", side="back"), SleeveOp("L", out=(2,))),
]


@pytest.mark.parametrize("ops", ODD_OPS, ids=[str(i) for i in range(len(ODD_OPS))])
@pytest.mark.parametrize("index", range(len(ODD_SLEEVES)))
def test_the_cards_a_sleeve_plan_slides_out_are_the_interpreters(
    ops: tuple[SleeveOp, ...], index: int
) -> None:
    """The rows slid out, found from the sleeves before and after (no set of slots taken apart):
    the interpreter's landings on tables with rows the sleeves declare but the region lacks, a
    hand in sleeves, a row already out, sleeves lying front up."""
    agree(fp.build_sleeve, _sleeve_build, ODD_SLEEVES[index], ops)


def test_a_sleeve_slid_back_in_follows_a_slide_out() -> None:
    layout = table()
    out = fp.build_sleeve(layout, (SleeveOp("M", out=(2,)),))
    agree(fp.build_sleeve, _sleeve_build, out.layout, (SleeveOp("M", into=(2,)),))
    back = fp.build_sleeve(out.layout, (SleeveOp("M", into=(2,)),))
    assert back.layout is layout  # interned: the same sleeves, the same layout
    with pytest.raises(fp.Defer):
        fp.build_sleeve(out.layout, (SleeveOp("M", out=(2,)),))  # already out


def test_a_sleeve_plans_gather_is_kept_by_the_tables_size() -> None:
    """Plans that keep every card where it is share one gather per table size, bounded."""
    a = fp.build_sleeve(table(), (SleeveOp("M", side="front"),))
    b = fp.build_sleeve(table(), (SleeveOp("M", out=(2,)),))
    assert a.src == tuple(range(table().size)) and a.src is b.src
    assert fp.identity(7) == tuple(range(7)) and fp.identity(0) == ()
    for n in range(3 * fp.IDENTITY_KEPT):
        assert fp.identity(n) == tuple(range(n))
    assert len(fp._IDENTITY) <= fp.IDENTITY_KEPT


def test_a_sleeve_plan_moves_no_card() -> None:
    plan = fp.build_sleeve(table(), (SleeveOp("M", side="front"),))
    cells = [5, 7, EMPTY, 9] + [11] * (plan.layout.size - 4)
    moved = gather(cells, plan, ())
    assert moved == cells and moved is not cells


# --------------------------------------------------------------------------- discard, return, take


def hostile_tables() -> list[Layout]:
    """Whole-table layouts and hostile ones: empty places, one sleeve, sleeves slid out."""
    wide = table(cols=9)
    out = fp.build_sleeve(wide, (SleeveOp("M", out=(2,)),)).layout
    front = fp.build_sleeve(wide, (SleeveOp("M", side="front"),)).layout
    return [
        wide,
        table(cols=1),
        table(holes=(0, 1, 2, 3, 4, 5)),  # M's first row empty
        table(holes=(7, 13, 19)),
        out,
        front,
        Layout.make([("s", 1, 4, 1, None, None), ("h2", 1, 2, 1, "h2", None)], (1,)),
    ]


def selections(layout: Layout, rng: random.Random) -> list[tuple[int, ...]]:
    """Whole rows and columns of every region, random picks, nothing, every card, a duplicate."""
    out: list[tuple[int, ...]] = [(), tuple(range(layout.size))]
    for reg in layout.regions:
        for r in range(1, reg.rows + 1):
            out.append(tuple(reg.slot(r, c) for c in range(1, reg.cols + 1)))
        for c in range(1, reg.cols + 1):
            out.append(tuple(reg.slot(r, c) for r in range(1, reg.rows + 1)))
    for _ in range(12):
        k = rng.randint(1, layout.size)
        out.append(tuple(rng.sample(range(layout.size), k)))
    out.append((0, 0))
    return out


@pytest.mark.parametrize("index", range(7))
def test_discards_and_their_sleeve_checks_are_the_interpreters(index: int) -> None:
    layout = hostile_tables()[index]
    rng = random.Random(index)
    seen: Counter[str] = Counter()
    for flats in selections(layout, rng):
        try:
            check_kept(layout, flats)
            whole = True
        except EvalError:
            whole = False
        assert fp.kept_whole(layout, flats) == whole, flats
        seen[agree(fp.build_discard, _discard_build, layout, flats)] += 1
    assert seen["same"] > 10 and seen["refused"] > 0, seen


BOTTOM_ROWS = [
    ((), "M", 3),  # the grid's bottom row
    ((6, 7, 8, 9, 10, 11), "M", 3),  # the empty row above goes too
    (tuple(range(12)), "M", 3),  # every row left empty: the region goes
    ((0, 1, 2, 3, 4, 5, 20), "M", 3),  # an empty first row stays (a row below it holds cards)
    ((18,), "L", 3),  # a region after an empty place
    ((), "spare", 1),  # a one-row region that is no hand goes
    ((19,), "M", 2),  # not the bottom row: the general builder (here the sleeve check refuses it)
    ((), "h1", 1),  # a hand keeps its emptied row: the general builder
    ((16,), "M", 3),  # an empty place discarded: refused
]


@pytest.mark.parametrize("holes, name, row", BOTTOM_ROWS, ids=[str(i) for i in range(len(BOTTOM_ROWS))])
def test_a_bottom_rows_discard_is_built_from_runs(holes: tuple[int, ...], name: str, row: int) -> None:
    layout = table(holes=holes)
    reg = layout.by_name[name]
    flats = tuple(reg.slot(row, c) for c in range(1, reg.cols + 1))
    fast = bottom_row(layout, flats)
    general = row < reg.rows or reg.hand is not None or not layout.holes.isdisjoint(flats)
    assert (fast is None) == general
    seen = agree(fp.build_discard, _discard_build, layout, flats)  # the interpreter's plan, or both refuse
    if fast is not None:
        assert seen == "same"
    if not layout.holes.isdisjoint(flats):
        assert seen == "refused"


@pytest.mark.parametrize("index", range(7))
def test_returns_are_the_interpreters(index: int) -> None:
    layout = hostile_tables()[index]
    rng = random.Random(100 + index)
    owners = ["h1", "h2", "h3", "M", "spare"]  # hands old and new, and regions that are no hand
    seen: Counter[str] = Counter()
    for flats in selections(layout, rng):
        for _ in range(3):
            names = tuple(rng.choice(owners[:3] if rng.random() < 0.8 else owners) for _ in flats)
            seen[agree(fp.build_return, _return_build, layout, (flats, names))] += 1
    assert seen["same"] > 10 and seen["refused"] > 0, seen


@pytest.mark.parametrize("index", range(7))
def test_a_whole_rows_return_is_built_from_runs(index: int) -> None:
    """Every whole row of every region (top, middle, bottom, a one-row region, a hand's row) to
    hands old and new (the hand that holds the row too), in random orders, and to a region that
    is no hand: built from runs exactly where the case applies, and the interpreter's plan."""
    layout = hostile_tables()[index]
    rng = random.Random(400 + index)
    built = 0
    for reg in layout.regions:
        for r in range(1, reg.rows + 1):
            flats = tuple(reg.slot(r, c) for c in range(1, reg.cols + 1))
            for owners in (["h1"], ["h2", "h3"], ["h3", "h1", "h2"], ["h1", "M"], ["spare"], ["h1", "s"]):
                names = tuple(rng.choice(owners) for _ in flats)
                fast = return_row(layout, flats, names)
                tables = {x.name for x in layout.regions if x.hand is None}  # regions that are no hand
                holes = layout.holes
                hands = [x for x in layout.regions if x.name in names]  # the old hands named
                applies = (
                    reg.hand is None
                    and tables.isdisjoint(names)
                    and holes.isdisjoint(reg.slots)
                    and all(holes.isdisjoint(x.slots) for x in hands)
                )
                assert (fast is not None) == applies, (reg.name, r, names)
                seen = agree(fp.build_return, _return_build, layout, (flats, names))
                if fast is not None:
                    assert seen == "same"
                    built += 1
    # Empty places elsewhere (another region's row, Step 11's set-aside sleeves) stay put.
    assert built > 10 or (layout.holes and (built > 0 or index == 6))


@pytest.mark.parametrize("index", range(7))
def test_a_return_rows_gather_by_stretches_is_its_index(index: int) -> None:
    """A whole row back to its owners whose cards lie together for each hand (one owner, or
    owners in blocks: Step 11's one drawn card, its unselected row) and no row left as empty
    places gathers by a few slices of the cells (``_slices``, no index per slot); the same
    cells as the plan's own index (``src``, EMPTY from the cells' end) on cells that tell every
    slot apart, empty places included; owners that alternate (Step 12's) keep an index."""
    layout = hostile_tables()[index]
    n = layout.size
    cells = [EMPTY if i in layout.holes else 2 * i + 1 for i in range(n)]
    sliced = indexed = 0
    for reg in layout.regions:
        for r in range(1, reg.rows + 1):
            flats = tuple(reg.slot(r, c) for c in range(1, reg.cols + 1))
            half = len(flats) // 2
            for names in (
                ("h1",) * len(flats),
                ("h2",) * len(flats),
                ("h1",) * half + ("h3",) * (len(flats) - half),
                tuple("h1" if c % 2 else "h3" for c in range(len(flats))),
            ):
                for drop in ((), tuple(reg.slot(reg.rows, c) for c in range(1, reg.cols + 1))):
                    plan = return_row(layout, flats, names, drop)
                    if plan is None:
                        continue
                    want = [([*cells, EMPTY])[t if t >= 0 else n] for t in plan.src]
                    assert gather(cells, plan, ()) == want
                    blocks = all(
                        names[i] == names[i + 1] or names[i + 1] not in names[: i + 1]
                        for i in range(len(names) - 1)
                    )
                    if "_slices" in plan.__dict__:
                        sliced += 1
                        assert blocks and EMPTY not in plan.src
                    else:
                        indexed += 1
                        assert not blocks or EMPTY in plan.src
    # Table 3's grid has empty places (its rows refused: only two-card rows return); table 6
    # has no whole row without one.
    assert (sliced > 0 or index == 6) and (indexed > 0 or index in (1, 3, 6)), (sliced, indexed)


def test_a_return_row_refuses_what_is_not_one_row() -> None:
    layout = table()
    m = layout.by_name["M"]
    row = tuple(m.slot(1, c) for c in range(1, m.cols + 1))
    assert return_row(layout, row[1:], ("h1",) * (len(row) - 1)) is None  # part of a row
    assert return_row(layout, row[::-1], ("h1",) * len(row)) is None  # reversed
    assert return_row(layout, row, ("h1",) * (len(row) - 1)) is None  # an owner missing
    assert return_row(layout, (), ()) is None
    assert return_row(layout, (layout.size,), ("h1",)) is None  # off the table
    two = (*row[1:], m.slot(2, 1))  # across two rows
    assert return_row(layout, two, ("h1",) * len(two)) is None


@pytest.mark.parametrize("index", range(7))
def test_a_calls_plan_from_whole_rows_is_the_general_builders(index: int) -> None:
    """A call's plan (Step 10's lottery: whole rows in, new regions out) from runs is the general
    builder's (a FastDraft, itself checked against the interpreter's in every differential test):
    rows top, middle, bottom, every row of a region, two regions, a hand's row, a repeated row,
    part of a row; outputs empty, shaped, to a region on the table, twice to one name."""
    layout = hostile_tables()[index]
    rows = [
        (reg, tuple(reg.slot(r, c) for c in range(1, reg.cols + 1)))
        for reg in layout.regions
        for r in range(1, reg.rows + 1)
    ]
    picks: list[list[tuple[int, ...]]] = [[f] for _, f in rows]
    picks += [[a, b] for (_, a), (_, b) in itertools.pairwise(rows)]  # neighbours, across regions too
    picks += [[f for reg, f in rows if reg.name == "M"][::-1], [rows[0][1], rows[0][1]], [rows[0][1][1:]]]
    outs: list[tuple[Any, list[Any]]] = [
        ((("name", "played"), ("name", "unselected")), [((1, 1), 1), ((1, 4), 4)]),
        ((("name", "played"), ("name", "unselected")), [((1, 0), 0), ((2, 3), 6)]),
        ((("name", "played"),), [(None, 3)]),
        ((("name", "T"), ("name", "T")), [((1, 1), 1), ((1, 1), 1)]),  # one name twice
        ((("name", "spare"),), [((1, 2), 2)]),  # a region on the table
    ]
    built = 0
    for flats in picks:
        for targets, shapes in outs:
            fast = call_rows(layout, flats, targets, shapes)
            try:
                want = fp.call_draft(layout, flats, targets, shapes)
            except fp.Defer:
                assert fast is None
                continue
            if fast is None:
                continue
            built += 1
            same_plan(STEP, fast, want, layout)
            cells = list(range(0, 2 * layout.size, 2))
            assert gather(cells, fast, fast.consts) == gather(cells, want, want.consts)
            assert landings(fast, layout) == landings(want, layout)
    assert built > 10 or layout.holes


@pytest.mark.parametrize("index", range(7))
def test_takes_are_the_interpreters(index: int) -> None:
    layout = hostile_tables()[index]
    rng = random.Random(200 + index)
    seen: Counter[str] = Counter()
    for reg in layout.regions:
        picks: list[tuple[int, ...]] = [(), tuple(range(1, reg.cols + 1)), (1, 1), (0,), (reg.cols + 1,)]
        picks += [tuple(rng.sample(range(1, reg.cols + 1), rng.randint(1, reg.cols))) for _ in range(6)]
        for cols in picks:
            for into in ("T", "L", "h1"):  # a new region, one on the table, a hand
                seen[agree(fp.build_take, _take_build, layout, (reg.name, cols, into))] += 1
    assert seen["same"] > 5 and seen["refused"] > 0, seen


@pytest.mark.parametrize("index", [0, 1, 4, 5])  # the tables without empty places
def test_a_take_into_a_new_region_is_built_from_runs(index: int) -> None:
    layout = hostile_tables()[index]
    rng = random.Random(300 + index)
    reg = layout.by_name["M"]
    picks = [(1,), (reg.cols,), tuple(range(1, reg.cols + 1)), tuple(range(reg.cols, 0, -1))]
    picks += [tuple(rng.sample(range(1, reg.cols + 1), rng.randint(1, reg.cols))) for _ in range(8)]
    for cols in picks:
        runs = lambda layout, res: take_runs(layout, layout.by_name["M"], res[1], res[2])  # noqa: E731
        assert agree(runs, _take_build, layout, ("M", cols, "T")) == "same", cols


@pytest.mark.parametrize("index", range(7))
def test_moves_are_the_interpreters(index: int) -> None:
    """Moves to a new region, to a hand's end, to empty places; cards slid out of a sleeve onto
    the table (a new region not in sleeves) included."""
    layout = hostile_tables()[index]
    rng = random.Random(300 + index)
    seen: Counter[str] = Counter()
    slid = 0
    for flats in selections(layout, rng):
        shape = (1, len(flats))
        targets: list[Any] = [("name", "P"), ("name", "h1"), ("name", "M")]
        for reg in layout.regions:  # a new row below, or a row with empty places
            if reg.hand is None:
                cols = tuple(range(1, min(len(flats), reg.cols) + 1))
                targets += [("grid", reg.name, (reg.rows + 1,), cols), ("grid", reg.name, (1,), cols)]
        for tres in targets:
            res = ((tres, flats, shape),)
            seen[agree(fp.build_move, _move_build, layout, res)] += 1
            with contextlib.suppress(fp.Defer, EvalError):  # refused: compared above
                slid += bool(landings(fp.build_move(layout, res), layout))
    assert seen["same"] > 5 and seen["refused"] > 0, seen
    if layout.inside:
        assert slid  # some moves slide a card out of its sleeve: those are compared too


@pytest.mark.parametrize(
    "owners",
    [[1, 2, 1, 3], [], ["hand2", 1], [True, 1], [1, False], [1.5], [[1]], [None], list(range(1, 2000))],
)
def test_hand_names_are_hand_name_of_each_owner(owners: list[Any]) -> None:
    try:
        want: Any = tuple(hand_name(o) for o in owners)
    except EvalError as exc:
        want = str(exc)
    try:
        got: Any = fp.hand_names(owners)
    except EvalError as exc:
        got = str(exc)
    assert got == want
    assert fp.hand_names([3, 1]) == ("hand3", "hand1")  # after many owners too (the table starts afresh)
    if all(type(o) is int for o in owners):  # family numbers: the caller vouches for their type
        assert fp.hand_names(owners, numbers=True) == want


def test_the_region_at_a_slot_is_the_layouts_owner() -> None:
    """Every slot of the hostile tables, and of tables with empty regions (a hand of no card
    first, between and last)."""
    empty = Layout.make(
        [
            ("h0", 1, 0, 1, "h0", None),
            ("M", 2, 3, 1, None, ARROW),
            ("h1", 1, 0, 1, "h1", None),
            ("s", 1, 2, 1, None, None),
            ("h2", 1, 0, 1, "h2", None),
        ]
    )
    for layout in [*hostile_tables(), empty]:
        for flat in range(layout.size):
            assert region_at(layout, flat) is layout.owner(flat)


@pytest.mark.parametrize("index", range(9))
def test_a_bottom_rows_discard_then_a_rows_return_is_the_two_plans(index: int) -> None:
    """return_row with ``drop`` (compiled/fused.py's discard of a region's bottom row, then the
    return of a row above it): the interpreter's discard plan, then its return plan on the
    layout that leaves, as one plan (its layout, its gather, the cards back to the supply); None
    wherever the drop is not the bottom row of the returned row's region, or the row returned is
    not above it. Every region and row pair of the hostile tables (and two with empty places in
    another region only: they shift, or stay), to hands old and new."""
    layout = [*hostile_tables(), table(holes=(19,)), table(cols=2, holes=(6, 12, 13))][index]
    rng = random.Random(700 + index)
    built = 0
    for reg in layout.regions:
        for d in range(1, reg.rows + 1):
            drop = tuple(reg.slot(d, c) for c in range(1, reg.cols + 1))
            if layout.inside and not fp.kept_whole(layout, drop):
                continue  # fused.py runs the steps one by one (the discard's message)
            for r in range(1, reg.rows + 1):
                flats = tuple(reg.slot(r, c) for c in range(1, reg.cols + 1))
                for owners in (["h1"], ["h2", "h3"], ["h3", "h1", "h2"], ["h1", "M"]):
                    names = tuple(rng.choice(owners) for _ in flats)
                    fast = return_row(layout, flats, names, drop)
                    if d != reg.rows or r >= d:
                        assert fast is None, (reg.name, d, r)
                    if fast is None:
                        continue
                    first = strip(_discard_build(None, None, None, layout, drop))
                    second = strip(_return_build(None, None, None, first.layout, (flats, names)))
                    assert (first.delta, second.delta, second.returned, second.consts) == ({}, {}, (), ())
                    assert fast.layout == second.layout and fast.returned == first.returned == drop
                    assert (fast.delta, fast.consts) == ({}, ())
                    cells = list(range(0, 2 * layout.size, 2))
                    assert gather(cells, fast, ()) == gather(gather(cells, first, ()), second, ())
                    assert not landings(fast, layout) and not landings(first, layout)
                    assert return_row(first.layout, flats, names) is not None or index > 0
                    built += 1
    assert built > 0 or index in (2, 3, 6), built
    if index in (7, 8):
        assert layout.holes and built > 0  # M's rows from whole runs, the empty places elsewhere


def test_a_return_row_refuses_a_drop_that_is_no_bottom_row() -> None:
    layout = table()
    m = layout.by_name["M"]
    row = [tuple(m.slot(r, c) for c in range(1, m.cols + 1)) for r in (1, 2, 3)]
    names = ("h1",) * m.cols
    assert return_row(layout, row[0], names, row[2]) is not None
    assert return_row(layout, row[0], names, row[1]) is None  # a middle row
    assert return_row(layout, row[0], names, row[2][1:]) is None  # part of the bottom row
    assert return_row(layout, row[0], names, row[2][::-1]) is None  # reversed
    assert return_row(layout, row[2], names, row[2]) is None  # the row dropped itself
    spare = layout.by_name["L"]
    other = tuple(spare.slot(3, c) for c in range(1, spare.cols + 1))
    assert return_row(layout, row[0], names, other) is None  # another region's bottom row


@pytest.mark.parametrize("holes", [(), (19,), (27, 28)])
def test_a_discard_a_return_and_the_last_rows_discard_are_the_three_plans(holes: tuple[int, ...]) -> None:
    """return_row with ``drop`` and ``then`` (Step 12 with 12(a), compiled/fused.py): the
    interpreter's discard of the bottom row, its return of the first row, and its discard of
    the row left (the region goes), as one plan; None for any other row or region."""
    layout = table(holes=holes)
    m = layout.by_name["M"]
    row = [tuple(m.slot(r, c) for c in range(1, m.cols + 1)) for r in (1, 2, 3)]
    rng = random.Random(len(holes))
    for owners in (["h1"], ["h2", "h3"], ["h3", "h1", "h2"]):
        names = tuple(rng.choice(owners) for _ in row[0])
        fast = return_row(layout, row[0], names, row[2], row[1])
        assert fast is not None
        first = strip(_discard_build(None, None, None, layout, row[2]))
        second = strip(_return_build(None, None, None, first.layout, (row[0], names)))
        third = strip(_discard_build(None, None, None, second.layout, row[1]))
        assert "M" not in fast.layout.by_name and fast.layout == third.layout
        assert fast.returned == row[2] and third.returned == row[1] and (fast.delta, fast.consts) == ({}, ())
        cells = list(range(0, 2 * layout.size, 2))
        steps = gather(gather(gather(cells, first, ()), second, ()), third, ())
        assert gather(cells, fast, ()) == steps
    names = ("h1",) * m.cols
    assert return_row(layout, row[0], names, (), row[1]) is None  # no row dropped before
    assert return_row(layout, row[1], names, row[2], row[0]) is None  # the second row returned
    assert return_row(layout, row[0], names, row[2], row[2]) is None  # the row dropped again
    l_reg = layout.by_name["L"]
    other = tuple(l_reg.slot(2, c) for c in range(1, l_reg.cols + 1))
    assert return_row(layout, row[0], names, row[2], other) is None  # another region's row
    four = Layout.make([("M", 4, 2, 1, None, None), ("h1", 1, 1, 1, "h1", None)])
    rows4 = [tuple(four.by_name["M"].slot(r, c) for c in (1, 2)) for r in (1, 2, 3, 4)]
    assert return_row(four, rows4[0], ("h1", "h1"), rows4[3], rows4[1]) is None  # two rows would stay


# --------------------------------------------------------------------------- landings kept


def fresh(plan: Any) -> Any:
    """The same plan with nothing kept on it (every answer worked out again)."""
    return type(plan)(plan.layout, plan.src, plan.consts, plan.delta, plan.returned)


def test_landings_kept_for_one_layout_are_not_another_layouts() -> None:
    """:func:`landings` keeps its last answer in one slot by the layout's identity: asked about
    another layout, it works that one out (a slot read without the identity test would hand
    back the first layout's cards), and the first is still answered as it was."""
    wide = table(cols=4)
    plan = _sleeve_build(None, None, None, wide, (SleeveOp("M", out=(2,)),))  # type: ignore[arg-type]
    slid = plan.layout  # row 2 already out: nothing slides out of it
    hostile = [wide, slid, table(cols=4, holes=(4, 5)), wide, slid, wide]
    for before in hostile:
        assert landings(plan, before) == landings(fresh(plan), before)
    assert not landings(plan, slid) and landings(plan, wide)
    assert plan.__dict__["_land"][0] is wide  # the last asked about


def test_a_kept_landing_is_still_checked_every_time() -> None:
    """The kept answer is the cards to check, not a verdict: a card that lands the wrong way
    is refused on every application, with the interpreter's message, and the right way passes."""
    from reference_engine.machine.plans import check_landed

    wide = table(cols=4)
    plan = _sleeve_build(None, None, None, wide, (SleeveOp("M", out=(2,)),))  # type: ignore[arg-type]
    (new, up, _old), *_ = landings(plan, wide)
    right = [1] * plan.layout.size if up else [0] * plan.layout.size
    wrong = list(right)
    wrong[new] ^= 1
    for _ in range(3):
        check_landed(plan, wide, right)
        with pytest.raises(EvalError, match="slides out of a sleeve"):
            check_landed(plan, wide, wrong)
    with pytest.raises(EvalError) as info:
        check_landed(fresh(plan), wide, wrong)
    with pytest.raises(EvalError) as kept:
        check_landed(plan, wide, wrong)
    assert str(kept.value) == str(info.value)


def test_an_empty_place_in_a_stretch_of_slots_is_found_either_way() -> None:
    """``meets`` (the few empty places tested, or the few slots) is ``not isdisjoint``."""
    rng = random.Random(49)
    for _ in range(400):
        holes = frozenset(rng.sample(range(60), rng.randint(1, 12)))
        a = rng.randint(0, 60)
        b = rng.randint(a, 64)
        assert meets(holes, a, b) == (not holes.isdisjoint(range(a, b))), (sorted(holes), a, b)


def _first_wrong(hit: Any, cells: list[int]) -> int | None:
    """The referee: the old slot of the first card of ``hit`` that lands the wrong way, card by card."""
    for new, up, old in hit:
        if bool(cells[new] & 1) != up:
            return int(old)
    return None


@pytest.mark.parametrize("rows", [(2,), (1, 2), (2, 3), (1, 3)])
def test_a_row_slid_out_is_checked_at_once_as_card_by_card(rows: tuple[int, ...]) -> None:
    """Attack: :func:`check_landed` tests many cards slid out in C first (every card that must
    land face up odd, every other even) and goes card by card only where one lands the wrong
    way. Rows that land up, down or both, cells at random (empty places, odd and even codes,
    one card turned the wrong way at each place in turn): it passes exactly where the card-by-card
    referee does, and otherwise names the referee's first card, as the plan with nothing kept does."""
    from reference_engine.machine.plans import check_landed

    rng = random.Random(sum(rows))
    wide = table(cols=5)
    plan = _sleeve_build(None, None, None, wide, (SleeveOp("M", out=rows),))  # type: ignore[arg-type]
    hit = landings(plan, wide)
    assert len(hit) > 1
    size = plan.layout.size
    right = [0] * size
    for new, up, _ in hit:
        right[new] = 2 * rng.randrange(1, 40) + int(up)
    tries = [right]
    for k in range(len(hit)):
        wrong = list(right)
        wrong[hit[k][0]] ^= 1
        tries.append(wrong)
    tries += [
        [rng.choice((EMPTY, 2 * rng.randrange(40), 2 * rng.randrange(40) + 1)) for _ in range(size)]
        for _ in range(60)
    ]
    for cells in tries:
        first = _first_wrong(hit, cells)
        if first is None:
            check_landed(plan, wide, cells)
            continue
        with pytest.raises(EvalError) as kept:
            check_landed(plan, wide, cells)
        with pytest.raises(EvalError) as plain:
            check_landed(fresh(plan), wide, cells)
        assert str(kept.value) == str(plain.value)
        assert str(kept.value).startswith(wide.describe(first) + " slides out of a sleeve")
