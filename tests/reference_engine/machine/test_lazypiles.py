"""Lazily scrambled piles: drawing only some rows of every pile, and leaving blocks undrawn at
the end, change nothing but the work (reference_engine/machine/lazypiles.py, outputs.py)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as hs

from reference_engine.machine import lazypiles
from reference_engine.machine.actions import shuffling
from reference_engine.meters import Meters
from reference_engine.registry import Library
from reference_engine.table import Layout, State
from reference_engine.verify import partition, verify

from ..test_fuzz import fuzz_settings
from ..verify.test_partition import same_report

LAYOUT = Layout.make([])  # materialize reads only cells and lazy blocks


def _state(cells: list[int], block: tuple[tuple[int, ...], ...]) -> State:
    return State(LAYOUT, tuple(cells), (), (), Meters(), 0, (block,))


def _fully_drawn(state: State, p: Fraction = Fraction(1)) -> dict[tuple[int, ...], Fraction]:
    """Every table the state stands for, with its probability (every lazy block drawn)."""
    out: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
    for s, (a, b) in lazypiles.materialize(state, None):
        assert not s.lazy
        out[s.cells] += p * Fraction(a, b)
    return out


@given(
    piles=hs.integers(min_value=2, max_value=5),
    size=hs.integers(min_value=2, max_value=3),
    data=hs.data(),
)
@fuzz_settings(100)
def test_drawing_some_rows_then_the_rest_is_drawing_everything(piles: int, size: int, data: Any) -> None:
    """Draw the touched rows of every pile, then everything left: the same distribution over
    tables as drawing the whole block at once (the exact law of a uniform pile order)."""
    contents = [
        tuple(data.draw(hs.integers(min_value=0, max_value=3)) * 2 for _ in range(size)) for _ in range(piles)
    ]
    block = tuple(tuple(p * size + k for k in range(size)) for p in range(piles))
    cells = [v for c in contents for v in c]
    rows = data.draw(
        hs.lists(hs.integers(min_value=0, max_value=size - 1), min_size=1, max_size=size - 1, unique=True)
    )
    needed = frozenset(block[p][k] for p in range(piles) for k in rows if data.draw(hs.booleans()) or p == 0)
    needed |= {block[p][rows[0]] for p in range(piles)}  # every pile touched
    state = _state(cells, block)
    expected = _fully_drawn(state)
    got: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
    total = Fraction(0)
    for s, (a, b) in lazypiles.materialize(state, needed):
        assert not needed & {f for blk in s.lazy for pile in blk for f in pile}, "a needed card is still lazy"
        total += Fraction(a, b)
        for cells2, q in _fully_drawn(s, Fraction(a, b)).items():
            got[cells2] += q
    assert total == 1
    assert dict(got) == dict(expected)


def test_rows_are_drawn_alone_when_every_pile_is_touched() -> None:
    """Three piles (label, bit): turning the bits of all of them draws only the bits; the
    labels stay scrambled among the piles with equal bits."""
    c1, c2, c3, a, b = 10, 12, 14, 2, 4
    state = _state([c1, a, c2, b, c3, a], ((0, 1), (2, 3), (4, 5)))  # (label, bit) piles
    drawn = lazypiles.materialize(state, frozenset({1, 3, 5}))
    assert len(drawn) == 3  # where the b lies; not the 6 orders of the labels
    for s, p in drawn:
        assert Fraction(*p) == Fraction(1, 3)
        b_at = [s.cells[1], s.cells[3], s.cells[5]].index(b)
        assert s.cells[2 * b_at] == c2
        a_tops = tuple(2 * i for i in range(3) if i != b_at)
        assert s.lazy == ((tuple((t,) for t in a_tops)),)
        assert sorted(s.cells[t] for t in a_tops) == [c1, c3]
    # Touching one pile's bit draws the bits of all three (3 orders of the bits, fewer than
    # the 6 orders of the piles): the same tables.
    one = lazypiles.materialize(state, frozenset({1}))
    assert sorted((s.cells, s.lazy, p) for s, p in one) == sorted((s.cells, s.lazy, p) for s, p in drawn)
    # With three different bottom cards the rows have as many orders as the piles: the
    # touched pile is drawn whole and the two others stay one lazy block.
    distinct = _state([c1, a, c2, b, c3, 6], ((0, 1), (2, 3), (4, 5)))
    whole = lazypiles.materialize(distinct, frozenset({1}))
    assert len(whole) == 3
    assert all(s.lazy == (((2, 3), (4, 5)),) for s, _ in whole)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("covert-lottery-modified", {"m": 3}),
        ("covert-lottery-modified", {"m": 4}),
        ("covert-lottery", {"m": 4}),
        ("card-selection", None),
        ("card-selection-original", None),
        ("five-card-trick", None),
        ("gakmoro-comparison", None),
    ],
)
def test_lazy_shortcuts_give_the_same_report(
    name: str, params: dict[str, int] | None, monkeypatch: Any
) -> None:
    """Each shortcut switched off (draw whole piles; draw whole piles before a scramble; draw
    every block at the end): the same report but for the work statistics."""
    library = Library()
    proto = library.protocol(name)
    fast = verify(library, proto, params, workers=1)
    with monkeypatch.context() as m:
        m.setattr(lazypiles, "_touched_rows", lambda block, needed: None)
        m.setattr(shuffling, "before_scramble", lambda state, piles: None)
        m.setattr(partition, "order_read", lambda run, frame, state: None)
        slow = verify(library, proto, params, workers=1)
    assert fast.ok == slow.ok
    assert same_report(fast) == same_report(slow)
    assert fast.stats["states_processed"] <= slow.stats["states_processed"]


ORDERED = """
protocol: fzmain
title: scrambled cards read in order
symbols:
  c: {family: true, glyph: "c{}"}
encodings:
  card: {label: c}
inputs:
  c: {encoding: card, count: 3}
steps:
  - step: 1
    say: Lay the three cards in a row.
    place:
      P: {columns: "[[c[i]] for i in 1..3]"}
  - step: 2
    say: Scramble the three piles.
    shuffle: {scramble: "columns(P)"}
outputs:
  row:
    cards: "P[1, *]"
    encoding: {READ}
    {CHECK}
"""


@pytest.mark.parametrize(
    ("read", "check"),
    [
        ("faces", 'uniform: "[[a, b, d] for a in c for b in c for d in c if a != b and b != d and a != d]"'),
        ("cards", 'equals: "c"'),
    ],
)
def test_a_block_left_at_the_end_is_drawn_when_its_order_is_read(
    tmp_path: Any, read: str, check: str
) -> None:
    """The row is still lazily scrambled when the protocol ends: read in order ('faces') every
    order must come out equally likely; read as a multiset it is one value."""
    (tmp_path / "fzmain.yaml").write_text(ORDERED.replace("{READ}", read).replace("{CHECK}", check))
    library = Library([tmp_path])
    report = verify(library, library.protocol("fzmain"), workers=1)
    assert report.ok, report.failed()
    assert report.stats["final_states"] == (6 if read == "faces" else 1)


def _pile_multisets(pairs: Any, piles: tuple[tuple[int, ...], ...]) -> dict[tuple[Any, ...], Fraction]:
    """state/probability pairs -> the distribution of the multiset of the piles' contents."""
    out: dict[tuple[Any, ...], Fraction] = defaultdict(Fraction)
    for s, p in pairs:
        for cells, q in _fully_drawn(s, Fraction(*p)).items():
            out[tuple(sorted(tuple(cells[f] for f in pile) for pile in piles))] += q
    return dict(out)


@given(data=hs.data())
@fuzz_settings(150)
def test_before_a_scramble_blocks_are_split_by_kind_of_place(data: Any) -> None:
    """Lazy pieces (the top card of some piles, in one or two blocks) under a scramble of the
    piles: splitting each block over the kinds of places gives the same distribution of the
    multiset of piles (all a uniform scramble keeps) as drawing everything."""
    n = data.draw(hs.integers(min_value=2, max_value=5))
    piles = tuple((2 * i, 2 * i + 1) for i in range(n))
    card = hs.integers(min_value=0, max_value=5)
    cells = [data.draw(card) for _ in range(2 * n)]  # odd codes are face up
    lazy_piles = sorted(set(data.draw(hs.lists(hs.integers(0, n - 1), min_size=2, max_size=n))))
    assume(len(lazy_piles) >= 2)
    for i in lazy_piles:
        cells[2 * i] &= ~1  # lazy cards are face down
    cut = data.draw(hs.integers(min_value=0, max_value=len(lazy_piles)))
    parts = [lazy_piles[:cut], lazy_piles[cut:]]
    blocks = tuple(tuple((2 * i,) for i in part) for part in parts if len(part) >= 2)
    assume(blocks)
    state = State(LAYOUT, tuple(cells), (), (), Meters(), 0, blocks)
    got = lazypiles.before_scramble(state, piles)
    assert got is not None
    assert sum(Fraction(*p) for _, p in got) == 1
    assert all(not s.lazy for s, _ in got)
    assert _pile_multisets(got, piles) == _pile_multisets([(state, (1, 1))], piles)


def test_before_a_scramble_gives_up_when_pieces_are_not_one_per_pile() -> None:
    cells = (2, 4, 6, 8, 10, 12)
    piles = ((0, 1), (2, 3), (4, 5))
    two_in_a_pile = State(LAYOUT, cells, (), (), Meters(), 0, (((0,), (1,)),))
    across_piles = State(LAYOUT, cells, (), (), Meters(), 0, (((1, 2), (3, 4)),))
    outside = State(LAYOUT, cells, (), (), Meters(), 0, (((0,), (2,)),))
    assert lazypiles.before_scramble(two_in_a_pile, piles) is None
    assert lazypiles.before_scramble(across_piles, piles) is None
    assert lazypiles.before_scramble(outside, piles[1:]) is None
    split = lazypiles.before_scramble(outside, piles)
    assert split is not None and len(split) == 2  # which of the two cards goes with 8, which with 12


def _draw_rows_by_index(
    cells: list[int], block: tuple[tuple[int, ...], ...], rows: list[int]
) -> list[tuple[list[int], tuple[tuple[tuple[int, ...], ...], ...], tuple[int, int]]]:
    """_draw_rows as it was before each pile's slots were looked up once: ``block[i][k]`` for
    every card of every sequence."""
    other = [k for k in range(len(block[0])) if k not in rows]
    contents = [tuple(cells[f] for f in pile) for pile in block]
    drawn = [tuple(c[k] for k in rows) for c in contents]
    rest: dict[tuple[int, ...], list[tuple[int, ...]]] = defaultdict(list)
    for d, c in zip(drawn, contents):
        rest[d].append(tuple(c[k] for k in other))
    for parts in rest.values():
        parts.sort()
    out = []
    for seq, p in lazypiles._draws(drawn, len(block)):
        c2 = list(cells)
        places: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for i, d in enumerate(seq):
            places[d].append(i)
            for k, v in zip(rows, d):
                c2[block[i][k]] = v
        blocks = []
        for d, where in places.items():
            for i, part in zip(where, rest[d]):
                for k, v in zip(other, part):
                    c2[block[i][k]] = v
            if len(where) > 1:
                blocks.append(tuple(tuple(block[i][k] for k in other) for i in where))
        blocks.sort()
        out.append((c2, tuple(blocks), p))
    return out


@given(
    piles=hs.integers(min_value=2, max_value=5),
    size=hs.integers(min_value=2, max_value=4),
    data=hs.data(),
)
@fuzz_settings(100)
def test_rows_drawn_with_slots_looked_up_once_are_the_same_draws(piles: int, size: int, data: Any) -> None:
    """The same sequences, cells, blocks and probabilities, in the same order, as looking each
    slot up in the block: for piles whose slots lie in any order on the table (not row by row),
    rows given in any order, repeated contents and other cards around the block."""
    slots = data.draw(hs.permutations(range(piles * size + 3)))
    block = tuple(tuple(slots[p * size + k] for k in range(size)) for p in range(piles))
    cells = [data.draw(hs.integers(min_value=-1, max_value=3)) * 2 for _ in range(piles * size + 3)]
    rows = data.draw(
        hs.lists(hs.integers(min_value=0, max_value=size - 1), min_size=1, max_size=size - 1, unique=True)
    )
    assert lazypiles._draw_rows(list(cells), block, rows) == _draw_rows_by_index(list(cells), block, rows)
