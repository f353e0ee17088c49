"""Helpers of the compiled expressions against the per-card way they replace: a whole row's
faces read at once (``h_row_faces``: the same faces, or Slow for the same rows: a card face
down, an empty place, a card a sleeve hides) and ``family_index`` kept per face."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference_engine.cards import EMPTY, SYMBOLS, Symbol
from reference_engine.compiled import helpers
from reference_engine.compiled.helpers import Env, Slow, h_family_index, h_row_faces, s_cells
from reference_engine.expressions import WILDCARD, EvalError
from reference_engine.sleeves import SleeveFrame
from reference_engine.table import Layout


def _env(cells: list[int], layout: Layout) -> Env:
    return Env(lambda: None, layout, cells, {}, {}, {})  # type: ignore[arg-type,return-value]


def _one_by_one(E: Env, name: str, r: Any, c: Any) -> list[Symbol]:
    """What h_row_faces gave before (a card at a time, with its checks)."""
    out = []
    for f in s_cells(E, name, r, c):
        v = E.cells[f]
        if v < 0 or not v & 1 or (f in E.layout.inside and E.layout.unseen(f)):
            raise Slow()
        out.append(SYMBOLS.by_id(v >> 1))
    return out


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Slow:
        return "slow"


SLEEVED = SleeveFrame(declared=(1, 2, 3), rows=(1, 3), front=frozenset({3}), side="front")
BACK_UP = SleeveFrame(declared=(1, 2, 3), rows=(1, 2, 3), front=frozenset({3}), side="back")


@pytest.mark.parametrize("sleeve", [None, SLEEVED, BACK_UP])
@pytest.mark.parametrize("r", [1, 2, 3])
@pytest.mark.parametrize("broken", ["none", "face down", "hole"])
def test_a_row_read_at_once_is_read_as_card_by_card(sleeve: SleeveFrame | None, r: int, broken: str) -> None:
    a, b, c = (SYMBOLS.intern(n) for n in ("helpertest-a", "helpertest-b", "helpertest-c"))
    layout = Layout.make([("M", 3, 3, 1, None, sleeve), ("h", 1, 2, 1, "hand1")])
    row = [a.id << 1 | 1, b.id << 1 | 1, c.id << 1 | 1]
    cells = row * 3 + [0, 0]
    if broken == "face down":
        cells[(r - 1) * 3 + 1] &= ~1
    elif broken == "hole":
        cells[(r - 1) * 3 + 2] = EMPTY
    env = _env(cells, layout)
    want = _outcome(_one_by_one, env, "M", r, WILDCARD)
    assert _outcome(h_row_faces, env, "M", r, WILDCARD) == want
    assert _outcome(h_row_faces, env, "M", r, 2) == _outcome(_one_by_one, env, "M", r, 2)  # not a whole row
    if broken == "none" and sleeve is None:
        assert want == [a, b, c]


def test_family_index_is_kept_per_face_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(helpers, "_FAMILY", {})
    monkeypatch.setattr(helpers, "FAMILY_KEPT", 3)
    env = _env([], Layout.make([]))
    faces = [SYMBOLS.intern(f"helpertheta{i}") for i in range(1, 8)]
    for _ in range(2):
        assert [h_family_index(env, s) for s in faces] == list(range(1, 8))
        assert len(helpers._FAMILY) <= 3
    with pytest.raises(EvalError, match="family_index"):
        h_family_index(env, 12)  # not a face: the function's own way, and its message


def test_the_stretches_of_slots_outside_hands_are_those_slot_by_slot() -> None:
    """not_hand_runs, made region by region, on random layouts (hands first, last, between and
    side by side, regions of no slots between two stretches): the stretches of consecutive slots
    that _not_hands lists, merged slot by slot."""
    rng = random.Random(51)
    for n in range(300):
        shapes = [
            (
                f"w51runs{n}_{i}",
                rng.randrange(3),
                rng.randrange(4),
                1,
                rng.choice([None, None, f"w51h{n}_{i}"]),
            )
            for i in range(rng.randrange(1, 7))
        ]
        layout = Layout.make(shapes, (), ())
        want: list[tuple[int, int]] = []
        for f in helpers._not_hands(layout):
            if want and want[-1][1] == f:
                want[-1] = (want[-1][0], f + 1)
            else:
                want.append((f, f + 1))
        assert helpers.not_hand_runs(layout) == tuple(want), shapes


@pytest.mark.parametrize("rows", range(5))
def test_the_columns_of_a_rectangle_are_those_slot_by_slot(rows: int) -> None:
    """``columns(M)``'s slots (made at once by rows side by side): each column the slots
    ``c, c + cols, ...`` of the listing, for ranges and lists, the listing as long as the
    rectangle or not (a row short, a slot over: the slot-by-slot way)."""
    for cols in range(6):
        for n in {rows * cols, max(0, rows * cols - 1), rows * cols + 1}:
            for flats in (range(7, 7 + n), list(range(3, 3 + n)), range(50, 50 + 2 * n, 2)):
                want = [tuple(flats[c::cols]) for c in range(cols)] if rows > 1 else [(f,) for f in flats]
                assert helpers._columns(flats, rows, cols) == want, (rows, cols, n)
                if type(flats) is range:
                    assert list(helpers.s_columns(flats, rows, cols)) == want
