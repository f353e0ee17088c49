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
