"""What every compiled plan step shares (reference_engine/compiled/base.py): the cards a discard
returns to the supply and how they are counted, the helper usage kept per change, and the
gathers a plan builder leaves on its plan (slices where a stretch of slots leaves), each against
the plain formula the engine used before (the interpreter's :meth:`Plan.apply`)."""

from __future__ import annotations

import random
from collections import Counter
from operator import itemgetter

import pytest

from reference_engine.cards import EMPTY, ROTATIONS
from reference_engine.compiled import base
from reference_engine.compiled.runs import bottom_row
from reference_engine.machine import Plan
from reference_engine.meters import out_add
from reference_engine.table import Layout


def plain_returned(codes: list[int]) -> list[int]:
    """The formula :func:`base.returned_symbols` replaces (one Python step per card)."""
    sids = [c >> 1 for c in codes]
    to = ROTATIONS.to
    if to and not to.keys().isdisjoint(sids):
        sids = [min(s, to[s]) if s in to else s for s in sids]
    return sorted(sids)


def plain_less(delta: dict[int, int], returned: list[int]) -> dict[int, int]:
    out = dict(delta)
    for sid, k in Counter(returned).items():
        out[sid] = out.get(sid, 0) - k
    return out


@pytest.mark.parametrize("seed", range(6))
def test_a_discards_symbols_and_counts_are_the_plain_ones(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Up-down cards (either face, face up or down), plain cards, few and many symbols (either
    side of the count's switch at 8), one card and a whole row."""
    monkeypatch.setattr(ROTATIONS, "to", {40: 41, 41: 40, 7: 90, 90: 7})
    rng = random.Random(seed)
    for n in (1, 2, 9, 99):
        for kinds in ([40, 41], [40, 41, 3], list(range(2, 14)), [7, 90, 40, 5], [60]):
            codes = [rng.choice(kinds) << 1 | rng.randint(0, 1) for _ in range(n)]
            want = plain_returned(codes)
            assert base.returned_symbols(codes) == want
            assert base.returned_symbols(tuple(codes)) == want
            delta = {40: 3, 5: -1} if seed % 2 else {}
            got = dict(delta)
            base.less(got, want)
            assert got == plain_less(delta, want)
            assert list(got) == list(plain_less(delta, want))  # the same order of symbols too


@pytest.mark.parametrize("seed", range(6))
def test_a_discards_counts_by_kind_are_the_plain_ones(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`base.discarded`: each symbol with its count in the order :func:`base.less` takes
    them off (sorted), the symbols spelled out as the plain formula lists them, and whether an
    empty place or a face-down card is among them, on either side of the switch at
    ``FEW_KINDS`` kinds: up-down cards (either face, either side up), plain cards, empty places,
    one card, a whole row, a list and a tuple."""
    monkeypatch.setattr(ROTATIONS, "to", {40: 41, 41: 40, 7: 90, 90: 7})
    rng = random.Random(100 + seed)
    seen = set()
    for n in (1, 2, 9, 99):
        for kinds in ([40, 41], [40, 41, 3], list(range(2, 14)), [7, 90, 40, 5], [60]):
            for up in ((1,), (0, 1), (0,)):
                codes = [rng.choice(kinds) << 1 | rng.choice(up) for _ in range(n)]
                if seed % 3 == 0 and n > 1:
                    codes[rng.randrange(n)] = EMPTY
                want = plain_returned(codes)
                counts, hidden = base.discarded(codes)
                assert base.discarded(tuple(codes)) == (counts, hidden)
                assert [sid for sid, _ in counts] == sorted(set(want))
                assert counts == sorted(Counter(want).items())
                assert base.spelled(counts) == tuple(want)
                assert hidden is (min(codes) < 0 or not all(c & 1 for c in codes))
                got = {40: 3, 5: -1} if seed % 2 else {}
                plain = plain_less(got, want)
                base.less(got, want)
                assert got == plain
                seen.add((len(set(codes)) > base.FEW_KINDS, hidden))
    assert {(False, False), (False, True), (True, True)} <= seen, seen  # both ways, seen or not


@pytest.mark.parametrize("to", [{}, {40: 41, 41: 40, 7: 90, 90: 7}])
def test_a_one_card_discard_is_counted_as_any_other(
    to: dict[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One card (half a game's discards, counted without a set): an up-down card either side up
    (the lower of its two symbols), a plain card, face up or down, an empty place, a list or a
    tuple: the symbols, counts and seen flag of the plain formula."""
    monkeypatch.setattr(ROTATIONS, "to", to)
    for code in [40 << 1, 41 << 1 | 1, 7 << 1 | 1, 90 << 1, 5 << 1, 5 << 1 | 1, 0, 1, EMPTY]:
        want = plain_returned([code])
        for codes in ([code], (code,)):
            counts, hidden = base.discarded(codes)
            assert counts == sorted(Counter(want).items()) and base.spelled(counts) == tuple(want)
            assert hidden is (code < 0 or not code & 1)


def test_no_up_down_cards_leaves_the_symbols_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ROTATIONS, "to", {})
    assert base.returned_symbols([9, 4, 2 << 1]) == [2, 2, 4]


def test_the_helper_usage_kept_is_out_add(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    monkeypatch.setattr(base, "ADDED_KEPT", 16)
    monkeypatch.setattr(base, "_ADDED", {})
    out: tuple[tuple[int, int], ...] = ()
    for _ in range(400):
        delta = {rng.randint(1, 6): rng.randint(-3, 3) for _ in range(rng.randint(1, 3))}
        got = base._out_added(out, delta)
        assert got == out_add(out, delta)
        assert base._out_added(out, delta) == got  # kept: the same answer again
        assert len(base._ADDED) <= 16  # bounded: it starts afresh
        out = got if rng.random() < 0.8 else ()


def test_only_a_change_of_one_symbol_to_at_most_one_out_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn's owner cards out (several symbols) or a change of several symbols: worked out,
    nothing kept (nearly every one is new); one symbol to none or one out: kept."""
    monkeypatch.setattr(base, "_ADDED", {})
    many = ((3, 1), (5, 2), (7, 4), (9, 1), (11, 6))
    assert base._out_added(many, {5: -2}) == out_add(many, {5: -2}) == ((3, 1), (7, 4), (9, 1), (11, 6))
    assert base._out_added((), {3: 1, 5: 2}) == ((3, 1), (5, 2))
    assert base._out_added(((3, 1), (5, 1)), {5: 1}) == ((3, 1), (5, 2))
    assert base._ADDED == {}
    assert base._out_added(((3, 1),), {3: -1}) == () and base._out_added((), {4: 2}) == ((4, 2),)
    assert base._ADDED == {(((3, 1),), (3, -1)): (), ((), (4, 2)): ((4, 2),)}


def test_a_discards_returned_cards_are_read_as_the_plan_lists_them() -> None:
    """A whole row (one slice), scattered slots, one slot, a reversed run: what the plan's
    ``returned`` names, in its order."""
    layout = Layout.make([("s", 1, 8, 1, None, None)])
    cells = list(range(100, 108))
    for returned in ((2, 3, 4, 5), (5, 1, 6), (4,), (5, 4, 3), (0, 1, 2, 3, 4, 5, 6, 7), (1, 3)):
        plan = Plan(layout, (), (), {}, returned)
        assert list(base._returned(plan)(cells)) == [cells[i] for i in returned]


@pytest.mark.parametrize("holes", [(), (20,), (0, 1, 2), (3, 4, 5, 6, 7, 8)])
def test_a_bottom_rows_gather_by_slices_is_the_plans_index(holes: tuple[int, ...]) -> None:
    """The slices :func:`bottom_row` leaves on its plan (where the region keeps no empty place
    of its own) gather what the plan's own index gathers, on cells that tell every slot apart."""
    layout = Layout.make(
        [("A", 3, 3, 1, None, None), ("M", 3, 2, 1, None, None), ("h", 1, 3, 1, "h", None)], holes
    )
    cells = [EMPTY if i in holes else 2 * i for i in range(layout.size)]
    sliced = 0
    for name in ("A", "M"):
        reg = layout.by_name[name]
        flats = tuple(reg.slot(reg.rows, c) for c in range(1, reg.cols + 1))
        plan = bottom_row(layout, flats)
        if plan is None:
            continue
        n = layout.size
        idx = [t if t >= 0 else n for t in plan.src]
        want = list(itemgetter(*idx)([*cells, EMPTY]))
        assert base.gather(cells, plan, ()) == want
        sliced += "_cut" in plan.__dict__
    assert sliced or holes


def test_discards_returns_sleeves_takes_and_moves_make_no_state_in_a_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Their resolvers read the run alone (:class:`base.RunResolve`): in whole card-level UNO
    games no ``State`` is made for them (a take or a move makes one only for the interpreter's
    resolver, where its scan cannot tell or its answer is not kept), while a place, whose
    resolver is the interpreter's, still gets its own where its answer is not kept
    (placeargs' ``fresh``); and the games end as they did."""
    import sys

    from reference_engine.compiled.program import unshare
    from reference_engine.compiled.run import Run
    from reference_engine.kinds.shedding import Game, load_rules
    from reference_engine.registry import Library
    from reference_engine.selection import ENGINE

    kinds: Counter[str] = Counter()
    made = Run.state

    def state(self: Run) -> object:
        caller = sys._getframe(1)
        if caller.f_code.co_name in ("op", "fixed", "fresh") and "step" in caller.f_locals:
            kinds[caller.f_locals["step"].kind] += 1
        return made(self)

    rules = load_rules("uno")
    token = ENGINE.set("compiled")
    try:
        before = Game(rules, Library(), players=4, virtual=4, level="card", seed=5).play()
        unshare()  # the second game compiles its own program: nothing of the first is kept
        monkeypatch.setattr(Run, "state", state)
        after = Game(rules, Library(), players=4, virtual=4, level="card", seed=5).play()
    finally:
        ENGINE.reset(token)
    assert after == before
    assert kinds["place"] > 0  # the watch sees the steps that still make one
    assert not {"discard", "return", "swap", "sleeve", "take", "move"} & set(kinds), kinds


@pytest.mark.parametrize("seed", range(6))
def test_a_gather_without_empty_places_or_new_cards_reads_the_cells_as_they_are(seed: int) -> None:
    """A plan whose every slot keeps a card of the table before (its ``src`` all slots), its
    gather made from its index, gathers from the cells themselves, not a copy with the empty
    place after them: the same cells as the plain formula, as a builder's gather left on the
    plan (its index not read again: the copy) gives; a plan
    with an empty place or new cards still gathers them (EMPTY, then the new cards in order)."""
    rng = random.Random(seed)
    layout = Layout.make([("A", 2, 5, 1, None, None), ("h", 1, 4, 1, "h", None)])
    n = layout.size
    cells = [2 * i + 1 for i in range(n)]
    for _ in range(20):
        k = rng.randint(1, n)
        src = tuple(rng.sample(range(n), k))
        holes = rng.sample(range(k), rng.randint(0, min(2, k)))
        mixed = tuple(EMPTY if i in holes else t for i, t in enumerate(src))
        for s in (src, mixed):
            n_new = rng.randint(0, 2)
            consts = tuple(range(1001, 1001 + 2 * n_new, 2))
            full = s + tuple(range(-2, -2 - n_new, -1))  # NEW is -2: the i-th new card is NEW - i
            plan = Plan(layout, full, consts, {})
            idx = [t if t >= 0 else (n if t == EMPTY else n + 1 + (-2 - t)) for t in full]
            want = [([*cells, EMPTY, *consts])[j] for j in idx]
            assert base.gather(cells, plan, consts) == want
            assert base.gather(cells, plan, consts) == want  # its kept gather, again
            assert plan.__dict__.get("_bare", False) is (min(full) >= 0)  # known from its index
            left = Plan(layout, full, consts, {})  # a builder's gather left on the plan
            left.__dict__["_getter"] = itemgetter(*idx) if len(idx) > 1 else base._few(tuple(idx))
            assert base.gather(cells, left, consts) == want
