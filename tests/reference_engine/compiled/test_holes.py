"""Plans that only empty places inside one region (:mod:`reference_engine.compiled.holes`): the
derived layout is the one ``Layout.make`` interns, each plan taken is the general builder's and
the interpreter's (gather and landings included), every case outside the static check is refused
(None: the general builder's turn), and a knockout lottery run with ``ev.CHECKED`` takes it."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from reference_engine import steps as st
from reference_engine.cards import SYMBOLS
from reference_engine.compiled import plans as fp
from reference_engine.compiled.base import gather, same_plan, strip
from reference_engine.compiled.holes import discard_holes, move_out, place_holes
from reference_engine.expressions import EvalError
from reference_engine.machine.actions.layout import _discard_build, _move_build
from reference_engine.machine.plans import landings
from reference_engine.sleeves import SleeveFrame
from reference_engine.table import EMPTY, SLEEVES, Layout, NewCards

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from test_pure import LOTTERY, _compare  # noqa: E402

STEP = st.Note((), None, "test", None)
# The lottery's sleeves: the card behind, its arrow in front, both kept in the sleeve.
LOTTERY_SLEEVE = SleeveFrame(declared=(1, 2), rows=(1, 2), front=frozenset({1, 2}))
# Three declared rows, only row 2 kept: a card of rows 1 or 3 slides out when it goes.
ARROW = SleeveFrame(declared=(2, 1, 3), rows=(2, 1, 3), front=frozenset({1, 3}), keeps=frozenset({2}))


def shapes(cols: int = 7) -> list[tuple[Any, ...]]:
    return [
        ("h1", 1, 3, 1, "h1", None),
        ("P", 2, cols, 1, None, LOTTERY_SLEEVE),
        ("pile", 2, 3, 1, None, None),
        ("M", 3, 2, 1, None, ARROW),
        ("h2", 1, 2, 1, "h2", None),
    ]


def general(layout: Layout, flats: tuple[int, ...]) -> Any:
    d = fp.FastDraft(layout)
    d.take(flats)
    return d.plan({}, tuple(flats))


def agree(layout: Layout, flats: tuple[int, ...]) -> bool:
    """Whether :func:`discard_holes` takes ``flats``; where it does, its plan is the general
    builder's and the interpreter's (layout by identity, sources, gather, landings)."""
    got = discard_holes(layout, flats)
    if got is None:
        return False
    for want in (general(layout, flats), strip(_discard_build(None, None, None, layout, flats))):
        same_plan(STEP, got, want, layout)
        cells = list(range(0, 2 * layout.size, 2))
        assert gather(cells, got, ()) == gather(cells, want, ())
        assert landings(got, layout) == landings(want, layout)
    return True


@pytest.mark.parametrize("holes", [(), (11,), (10, 12, 13), (0, 20), (3, 4, 5, 6, 7, 8, 9)])
def test_a_layouts_own_regions_as_first_give_the_layout_make_interns(holes: tuple[int, ...]) -> None:
    layout = Layout.make(shapes())
    more = Layout.make(shapes(), holes)
    assert Layout.make((), holes, (), layout.regions) is more
    assert Layout.make((), (), (), more.regions) is layout
    fresh = Layout.make(shapes(cols=9))  # no layout with these holes made yet
    got = Layout.make((), holes, (), fresh.regions)
    assert got is Layout.make(shapes(cols=9), holes)
    assert (got.size, got.regions) == (fresh.size, fresh.regions)


def test_first_regions_then_shapes_are_layout_makes() -> None:
    """Any prefix of a layout's regions, then the rest as shapes (one grown: every region after
    it at its new offset): the layout make interns from the shapes alone."""
    old = Layout.make(shapes(), (11,))
    grown = [tuple(s) for s in shapes()]
    grown[2] = ("pile", 3, 3, 1, None, None)
    for k in range(len(old.regions) + 1):
        assert Layout.make(shapes()[k:], (11,), (), old.regions[:k]) is old
        got = Layout.make(grown[k:], (11,), (), old.regions[:k]) if k <= 2 else None
        if got is not None:
            assert got is Layout.make(grown, (11,))
            assert [r.offset for r in got.regions] == [0, 3, 17, 26, 32]


@pytest.mark.parametrize("seed", range(6))
def test_scattered_discards_of_a_row_are_the_general_builders(seed: int) -> None:
    rng = random.Random(seed)
    taken = 0
    for _ in range(30):
        layout = Layout.make(shapes(), rng.sample(range(10, 17), rng.randint(0, 4)))
        free = [f for f in range(10, 17) if f not in layout.holes]
        flats = tuple(rng.sample(free, rng.randint(1, len(free))))
        took = agree(layout, flats)
        taken += took
        # Refused only where the arrow row would go empty (trimmed): the general builder's case.
        assert took == (len(flats) < len(free)), (layout.holes, flats)
    assert taken > 10


CASES = [
    ((), (3,)),  # P's card row: the bottom row keeps its cards
    ((), (3, 4, 12)),  # both rows of P
    ((3, 4, 5, 6, 7, 8, 9), (10,)),  # the card row all empty above: kept (not trimmed)
    ((), (17, 19)),  # a region without sleeves
    ((), (23,)),  # M's row 1: no kept row, inside a sleeve row (the card leaves the table)
]


@pytest.mark.parametrize("holes, flats", CASES, ids=[str(i) for i in range(len(CASES))])
def test_other_discards_inside_a_region_are_taken(holes: tuple[int, ...], flats: tuple[int, ...]) -> None:
    assert agree(Layout.make(shapes(), holes), flats)


MUTANTS = [
    ((), ()),  # nothing
    ((), (0,)),  # a hand: its cards close up
    ((), (0, 1)),
    ((), (10, 17)),  # two regions
    ((), (2, 3)),
    ((), (10, 10)),  # a slot twice
    ((11,), (11, 12)),  # an empty place discarded: the interpreter names it
    ((), tuple(range(10, 17))),  # the bottom row emptied: trimmed
    ((10, 11, 12), (13, 14, 15, 16)),
    ((), (20, 21, 22)),  # pile's bottom row emptied
    ((), (-1,)),  # off the table
    ((), (33,)),
]


@pytest.mark.parametrize("holes, flats", MUTANTS, ids=[str(i) for i in range(len(MUTANTS))])
def test_mutants_are_refused(holes: tuple[int, ...], flats: tuple[int, ...]) -> None:
    layout = Layout.make(shapes(), holes)
    assert discard_holes(layout, flats) is None
    try:
        want = strip(_discard_build(None, None, None, layout, flats))
    except Exception:  # the interpreter refuses: build_discard defers or gives its message
        return
    try:
        got = fp.build_discard(layout, flats)
    except fp.Defer:
        return
    same_plan(STEP, got, want, layout)


def test_a_kept_rows_card_is_refused_before_it_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """M's row 2 is kept by its sleeves: one card of it cannot go alone (the interpreter's
    check_kept); build_discard defers before the derived plan is asked."""
    layout = Layout.make(shapes())
    asked: list[Any] = []
    monkeypatch.setattr(fp, "discard_holes", lambda *a: asked.append(a))
    with pytest.raises(EvalError):
        _discard_build(None, None, None, layout, (25,))
    with pytest.raises(fp.Defer):
        fp.build_discard(layout, (25,))
    assert not asked


def test_a_discard_plan_holds_no_hole_as_a_card() -> None:
    """Applied to cells, the discarded places and the region's old empty places read EMPTY."""
    layout = Layout.make(shapes(), (11,))
    plan = discard_holes(layout, (12, 14))
    assert plan is not None
    cells = list(range(0, 2 * layout.size, 2))
    cells[11] = EMPTY
    out = gather(cells, plan, ())
    assert [out[f] for f in (11, 12, 14)] == [EMPTY] * 3
    assert plan.layout.holes == frozenset({11, 12, 14})
    assert plan.returned == (12, 14)


def test_the_lottery_takes_it_and_runs_as_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The knockout lottery's losers' arrows go through it, compared with the interpreter's plan
    at every step (``ev.CHECKED``) and run for run with the interpreter."""
    from reference_engine.compiled import holes

    calls = {"taken": 0}
    real = holes.discard_holes

    def counted(layout: Layout, flats: Any) -> Any:
        got = real(layout, flats)
        calls["taken"] += got is not None
        return got

    monkeypatch.setattr(fp, "discard_holes", counted)
    text = LOTTERY.read_text().replace("title: Knockout lottery", "title: Knockout lottery (holes)")
    ended, _ = _compare(text, 40, 3, 9, checked=True)
    assert ended == {"ran"}
    assert calls["taken"] > 10, calls


# --------------------------------------------------------------------------- new cards into holes

UP, DOWN = SYMBOLS.intern("up"), SYMBOLS.intern("down")


def general_place(monkeypatch: pytest.MonkeyPatch, layout: Layout, placements: Any, up: bool) -> Any:
    """build_place_new the FastDraft's way (the derived path switched off)."""
    with monkeypatch.context() as m:
        m.setattr(fp, "fill_holes", lambda *a: None)
        return fp.build_place_new(layout, placements, up)


def placed(monkeypatch: pytest.MonkeyPatch, layout: Layout, placements: Any, up: bool = False) -> bool:
    """Whether place_holes takes it; where it does, its plan is the general builder's (layout by
    identity, sources, new cards, supply count, gather, landings), where it does not the general
    builder is asked (or refuses)."""
    got = place_holes(layout, placements, up)
    try:
        want = general_place(monkeypatch, layout, placements, up)
    except (fp.Defer, EvalError):
        assert got is None
        return False
    if got is None:
        return False
    same_plan(STEP, got, want, layout)
    assert list(got.delta.items()) == list(want.delta.items())  # the same order too
    cells = list(range(0, 2 * layout.size, 2))
    consts = tuple(range(1, 2 * len(got.consts) + 1, 2))
    assert gather(cells, got, consts) == gather(cells, want, consts)
    assert landings(got, layout) == landings(want, layout)
    assert fp.build_place_new(layout, placements, up) is not None
    return True


def arrows(k: int) -> list[list[Any]]:
    return [[NewCards([DOWN]) for _ in range(k)]]


@pytest.mark.parametrize("seed", range(4))
def test_fresh_arrows_into_a_rows_empty_places_are_the_general_builders(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    taken = 0
    for _ in range(25):
        layout = Layout.make(shapes(), rng.sample(range(10, 17), rng.randint(1, 6)))
        empty = sorted(c - 9 for c in layout.holes)  # P's row-2 columns that are empty
        cols = tuple(rng.sample(empty, rng.randint(1, len(empty))))
        taken += placed(monkeypatch, layout, [(("grid", "P", (2,), cols), "row", arrows(len(cols)))])
    assert taken == 25


def test_one_object_laid_out_twice_and_turned_cards_count_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    layout = Layout.make(shapes(), (10, 11, 12, 13, 4))
    one, pair = NewCards([UP]), NewCards([DOWN, UP], up=True)
    assert placed(monkeypatch, layout, [(("grid", "P", (2,), (1, 3, 4)), "row", [[one, one, one]])], up=True)
    assert placed(monkeypatch, layout, [(("grid", "P", (2,), (4, 1)), "row", [[pair]])])
    assert placed(monkeypatch, layout, [(("grid", "P", (1, 2), (2,)), "row", [[pair]])])  # rows 1 and 2


def _as_resolved(groups: list[list[Any]]) -> tuple[Any, ...]:
    """A target's groups of new cards as the general place builder reads them (``N`` items)."""
    return (
        "L",
        tuple(("L", tuple(("N", tuple(s.id for s in nc.symbols), nc.up, "") for nc in g)) for g in groups),
    )


@pytest.mark.parametrize("seed", range(8))
def test_a_new_cards_plan_from_group_sizes_is_the_general_builders(seed: int) -> None:
    """:func:`~reference_engine.compiled.plans.place_sized` lays out tokens from the groups'
    sizes alone: rows, columns and a row, several targets, groups of one size and of two (the
    general builder refuses those), new regions and a region's new row. Its plan (gather,
    landings and supply count included) is :func:`build_place`'s (the interpreter's: see
    test_plans.py), or both refuse."""
    rng = random.Random(seed)
    one, pair = NewCards([UP]), NewCards([DOWN, UP], up=True)
    for _ in range(30):
        layout = Layout.make(shapes(rng.randrange(2, 8)), rng.sample(range(0, 4), rng.randint(0, 2)))
        up = rng.random() < 0.5
        placements: list[Any] = []
        for t in range(rng.randint(1, 3)):
            form = rng.choice(("row", "rows", "columns"))
            k = rng.randint(1, 5)
            groups = [[rng.choice((one, one, pair)) for _ in range(rng.randint(1, 2))] for _ in range(k)]
            if form == "row":
                groups = groups[:1]
            width = layout.by_name["M"].cols
            target = rng.choice(
                [("name", f"N{t}"), ("name", f"N{t}"), ("grid", "M", (4,), tuple(range(1, width + 1)))]
            )
            placements.append((target, form, groups))
        try:
            got = fp.build_place_new(layout, placements, up)
        except (fp.Defer, EvalError):
            got = None
        res = [
            (tres, form, _as_resolved(groups)[1][0] if form == "row" else _as_resolved(groups))
            for tres, form, groups in placements
        ]
        try:
            want = fp.build_place(layout, res, up)
        except (fp.Defer, EvalError):
            assert got is None
            continue
        assert got is not None
        same_plan(STEP, got, want, layout)
        assert got.delta == want.delta


PLACE_MUTANTS = [
    ((10,), [(("grid", "P", (2,), (2,)), "row", arrows(1))]),  # not an empty place
    ((10,), [(("grid", "P", (2,), (1, 1)), "row", arrows(2))]),  # twice
    ((10, 11), [(("grid", "P", (2,), (1, 2)), "row", arrows(1))]),  # fewer cards than places
    ((10,), [(("grid", "P", (3,), (1,)), "row", arrows(1))]),  # a row below: the region grows
    ((10,), [(("grid", "P", (2,), (0,)), "row", arrows(1))]),  # out of range
    ((10,), [(("grid", "P", (2,), (8,)), "row", arrows(1))]),
    ((10,), [(("grid", "Q", (2,), (1,)), "row", arrows(1))]),  # no such region
    ((0,), [(("grid", "h1", (1,), (1,)), "row", arrows(1))]),  # a hand
    ((10,), [(("name", "P"), "row", arrows(1))]),  # another target
    ((10, 11), [(("grid", "P", (2,), (1,)), "row", arrows(1))] * 2),  # two targets
    ((10,), [(("grid", "P", (2,), (1,)), "columns", arrows(1))]),  # another form
    ((10, 11), [(("grid", "P", (2,), (1, 2)), "row", arrows(1) * 2)]),  # two groups
    ((23, 24, 25, 26, 27, 28), [(("grid", "M", (1,), (1,)), "row", arrows(1))]),  # bottom rows stay empty
]


@pytest.mark.parametrize("holes, placements", PLACE_MUTANTS, ids=[str(i) for i in range(len(PLACE_MUTANTS))])
def test_place_mutants_are_refused(
    monkeypatch: pytest.MonkeyPatch, holes: tuple[int, ...], placements: Any
) -> None:
    layout = Layout.make(shapes(), holes)
    assert place_holes(layout, placements, False) is None
    assert not placed(monkeypatch, layout, placements)


def test_the_lottery_places_its_fresh_arrows_through_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """4(a)'s fresh arrows go through it, compared with the interpreter's plan (``ev.CHECKED``:
    rows.NewPlace's _apply) and run for run with the interpreter."""
    from reference_engine.compiled import holes

    calls = {"taken": 0}
    real = holes.fill_holes

    def counted(*args: Any) -> Any:
        got = real(*args)
        calls["taken"] += got is not None
        return got

    monkeypatch.setattr(fp, "fill_holes", counted)
    text = LOTTERY.read_text().replace("title: Knockout lottery", "title: Knockout lottery (fresh arrows)")
    ended, _ = _compare(text, 40, 3, 9, checked=True)
    assert ended == {"ran"}
    assert calls["taken"] > 10, calls


# --------------------------------------------------------------------------- cards out into a new region


def general_move(monkeypatch: pytest.MonkeyPatch, layout: Layout, res: Any) -> Any:
    with monkeypatch.context() as m:
        m.setattr(fp, "move_out", lambda *a: None)
        return fp.build_move(layout, res)


def moved(monkeypatch: pytest.MonkeyPatch, layout: Layout, res: Any) -> bool:
    """Whether move_out takes it; where it does, its plan is the general builder's and the
    interpreter's (layout by identity, sources, gather, the cards slid out of a sleeve)."""
    got = move_out(layout, res)
    if got is None:
        return False
    for want in (general_move(monkeypatch, layout, res), strip(_move_build(None, None, None, layout, res))):
        same_plan(STEP, got, want, layout)
        cells = list(range(0, 2 * layout.size, 2))
        assert gather(cells, got, ()) == gather(cells, want, ())
        assert landings(got, layout) == landings(want, layout)
    return True


@pytest.mark.parametrize("seed", range(4))
def test_left_arrows_out_into_a_new_row_are_the_general_builders(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        layout = Layout.make(shapes(), rng.sample(range(10, 17), rng.randint(0, 4)))
        full = [f for f in range(10, 17) if f not in layout.holes]
        flats = tuple(rng.sample(full, rng.randint(1, len(full) - 1)))
        shape = rng.choice([None, (1, len(flats)), (len(flats), 1)])
        assert moved(monkeypatch, layout, ((("name", "U"), flats, shape),))
    # From P's card row and from a region without sleeves: taken too.
    layout = Layout.make(shapes())
    assert moved(monkeypatch, layout, ((("name", "U"), (3, 5), None),))
    assert moved(monkeypatch, layout, ((("name", "U"), (17, 18, 19), (1, 3)),))


MOVE_MUTANTS = [
    ((), ((("name", "pile"), (10,), None),)),  # onto a region on the table
    ((), ((("name", "h2"), (10,), None),)),  # into a hand
    ((), ((("name", "U"), (0,), None),)),  # out of a hand
    ((), ((("name", "U"), (10,), None), (("name", "V"), (11,), None))),  # two moves
    ((), ((("grid", "pile", (1,), (1,)), (10,), None),)),  # into places
    ((11,), ((("name", "U"), (11,), None),)),  # an empty place
    ((), ((("name", "U"), (10, 10), None),)),  # twice
    ((), ((("name", "U"), (9, 10), None),)),  # two rows... of one region: taken below
    ((), ((("name", "U"), tuple(range(10, 17)), None),)),  # the bottom row emptied
    ((), ((("name", "U"), (2, 3), None),)),  # two regions
    ((), ((("name", "U"), (), None),)),  # nothing
]


@pytest.mark.parametrize("holes, res", MOVE_MUTANTS, ids=[str(i) for i in range(len(MOVE_MUTANTS))])
def test_move_mutants_are_refused(monkeypatch: pytest.MonkeyPatch, holes: tuple[int, ...], res: Any) -> None:
    layout = Layout.make(shapes(), holes)
    if res[0][1] == (9, 10):  # one region, both rows: the general builder's plan
        assert moved(monkeypatch, layout, res)
        return
    assert move_out(layout, res) is None


def test_a_new_region_declared_in_sleeves_is_refused() -> None:
    token = SLEEVES.set({"U": LOTTERY_SLEEVE})
    try:
        assert move_out(Layout.make(shapes()), ((("name", "U"), (10,), None),)) is None
    finally:
        SLEEVES.reset(token)
    assert move_out(Layout.make(shapes()), ((("name", "U"), (10,), None),)) is not None


def test_the_lottery_moves_its_left_arrows_through_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """4(a)'s left arrows out (``U``) go through it, compared with the interpreter's plan
    (``ev.CHECKED``) and run for run with the interpreter."""
    from reference_engine.compiled import holes

    calls = {"taken": 0}
    real = holes.move_out

    def counted(*args: Any) -> Any:
        got = real(*args)
        calls["taken"] += got is not None
        return got

    monkeypatch.setattr(fp, "move_out", counted)
    text = LOTTERY.read_text().replace("title: Knockout lottery", "title: Knockout lottery (left arrows)")
    ended, _ = _compare(text, 40, 3, 9, checked=True)
    assert ended == {"ran"}
    assert calls["taken"] > 10, calls
