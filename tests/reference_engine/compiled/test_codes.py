"""Rows of codes turned by look-up (compiled/codes.py): the card-by-card answers exactly, for
codes met before and codes never met, empty places, other negative codes and rows of one."""

from __future__ import annotations

import random

import pytest

from reference_engine.cards import EMPTY
from reference_engine.compiled import codes


def _down(seg: list[int]) -> list[int]:
    return [v & -2 if v >= 0 else v for v in seg]


def _turned(vals: list[int]) -> list[int] | None:
    return None if min(vals) < 0 else [v ^ 1 for v in vals]


@pytest.mark.parametrize("seed", range(8))
def test_rows_turn_as_card_by_card(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        n = rng.randrange(1, 12)
        seg = [rng.choice([EMPTY, -7, *range(0, 40), 10**20 + 1]) for _ in range(n)]
        assert list(codes.face_down(seg)) == _down(seg)
        got = codes.turned(seg)
        want = _turned(seg)
        assert (got is None and want is None) or list(got or ()) == want
        # Again, every code now met: the tables' answers.
        assert list(codes.face_down(seg)) == _down(seg)
        got = codes.turned(seg)
        assert (got is None and want is None) or list(got or ()) == want


def test_a_table_started_afresh_answers_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: tables bounded to a handful of codes keep answering exactly (an empty place
    stays one), for codes met, forgotten and met again."""
    monkeypatch.setattr(codes, "KEPT", 4)
    monkeypatch.setattr(codes, "_DOWN", {EMPTY: EMPTY})
    monkeypatch.setattr(codes, "_FLIP", {})
    rng = random.Random(3)
    for _ in range(200):
        seg = [rng.choice([EMPTY, *range(0, 30)]) for _ in range(rng.randrange(1, 6))]
        assert list(codes.face_down(seg)) == _down(seg)
        got = codes.turned(seg)
        assert (got is None) == (EMPTY in seg)
        assert got is None or list(got) == [v ^ 1 for v in seg]
        assert len(codes._DOWN) <= 4 + 6 and len(codes._FLIP) <= 4 + 6
        assert codes._DOWN[EMPTY] == EMPTY and EMPTY not in codes._FLIP


def test_only_ints_are_learnt() -> None:
    """Attack: a value that is no int (a bool) is answered as the operation answers it and
    never stands for a code in a table."""
    seg = [True, 6, 9]
    assert list(codes.face_down(seg)) == _down(seg)
    got = codes.turned(seg)
    assert got is not None and list(got) == [v ^ 1 for v in seg]
    assert all(type(k) is int for k in codes._DOWN) and all(type(k) is int for k in codes._FLIP)


def test_an_empty_row_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        codes.turned([])


@pytest.mark.parametrize("seed", range(4))
def test_a_row_all_face_up_as_card_by_card(seed: int) -> None:
    """Attack: rows with an empty place, a card face down, codes never met, and the same rows
    again once their codes are met: the card-by-card answer every time."""
    rng = random.Random(seed)
    for _ in range(100):
        vals = [rng.choice([EMPTY, -3, *range(0, 24), 2**40 + 1]) for _ in range(rng.randrange(0, 7))]
        want = bool(vals) and min(vals) >= 0 and all(v & 1 for v in vals)
        assert codes.all_face_up(vals) is want
        assert codes.all_face_up(vals) is want
    assert all(k >= 0 and k & 1 for k in codes._UP)


@pytest.mark.parametrize("kept", [0, 1, 3])
def test_all_three_at_their_bound_answer_card_by_card(kept: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: the three tables bounded to almost nothing (started afresh at nearly every row),
    rows of every length from 0 to 9 mixing empty places, other negative codes, huge codes and
    codes met before, asked in turn of the three functions: each answer the card-by-card one, no
    table past its bound by more than one row, none holding a code its operation does not give."""
    monkeypatch.setattr(codes, "KEPT", kept)
    monkeypatch.setattr(codes, "_DOWN", {EMPTY: EMPTY})
    monkeypatch.setattr(codes, "_FLIP", {})
    monkeypatch.setattr(codes, "_UP", set())
    rng = random.Random(54 + kept)
    pool = [EMPTY, -2, -5, 0, 1, 2, 3, 7, 8, 2**63, 2**63 + 1, 10**30 + 7]
    for _ in range(400):
        vals = [rng.choice(pool) for _ in range(rng.randrange(0, 10))]
        want_up = bool(vals) and min(vals) >= 0 and all(v & 1 for v in vals)
        assert codes.all_face_up(vals) is want_up, vals
        if vals:
            assert list(codes.face_down(vals)) == _down(vals), vals
            got = codes.turned(vals)
            want = _turned(vals)
            assert (got is None and want is None) or list(got or ()) == want, vals
        assert len(codes._UP) <= kept + 1 + 9 and all(k >= 0 and k & 1 for k in codes._UP)
        assert len(codes._DOWN) <= kept + 1 + 9 and all(codes._DOWN[k] == _down([k])[0] for k in codes._DOWN)
        assert len(codes._FLIP) <= kept + 1 + 9
        assert all(k >= 0 and w == k ^ 1 for k, w in codes._FLIP.items())


def _odd(shown: frozenset[int], cells: list[int]) -> bool:
    return all(cells[f] & 1 for f in shown)


@pytest.mark.parametrize("seed", range(4))
def test_the_shown_cards_check_answers_slot_by_slot(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: the check after each step that every card a sleeve shows is face up, at once
    (ops.run_block): tables with cards face down, empty places, huge codes and bools, asked
    before and after the codes are learnt from tables that pass and tables that do not. It
    never says yes where a slot holds a card face down, and learns no code whose low bit is 0."""
    monkeypatch.setattr(codes, "_ODD", {EMPTY})
    monkeypatch.setattr(codes, "_SHOWN", {})
    rng = random.Random(seed)
    pool = [EMPTY, -2, 0, 1, 2, 3, 6, 7, 2**63 + 1, 2**63, True, False]
    for _ in range(300):
        cells = [rng.choice(pool) for _ in range(12)]
        shown = frozenset(rng.sample(range(12), rng.randrange(2, 8)))
        want = _odd(shown, cells)
        got = codes.shown_odd(shown, cells)
        assert not got or want, (shown, cells)  # a yes is always right
        codes.learn_odd(shown, cells)  # even from a table that does not pass: odd codes alone
        again = codes.shown_odd(shown, cells)
        assert not again or want, (shown, cells)
        if all(type(cells[f]) is int for f in shown):
            assert again is want, (shown, cells)  # every code met: the answer in C
        assert all(type(k) is int and k & 1 for k in codes._ODD)


def test_the_shown_cards_tables_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codes, "KEPT", 3)
    monkeypatch.setattr(codes, "SHOWN_KEPT", 2)
    monkeypatch.setattr(codes, "_ODD", {EMPTY})
    monkeypatch.setattr(codes, "_SHOWN", {})
    for k in range(40):
        cells = [2 * k + 1, 2 * k + 3, 2 * k + 5, 2 * k + 7, 4]
        shown = frozenset({0, 1, 2 + k % 2})
        codes.learn_odd(shown, cells)
        assert codes.shown_odd(shown, cells)
        assert not codes.shown_odd(frozenset({0, 4}), cells)  # a card face down
        assert len(codes._ODD) <= 3 + 1 + 4 and EMPTY in codes._ODD and len(codes._SHOWN) <= 2
