"""The return check of a card-level run on whole numbers (``selection._codes_back``): an owner's
cells at the end against its codes at the start, proven there where they hold the same cards,
else left to the check by faces, which decides (and which ``evaluate.CHECKED`` runs as well)."""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine import selection
from reference_engine.cards import EMPTY, Symbol, code
from reference_engine.compiled import evaluate
from reference_engine.errors import CheckFailure
from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.machine import ViewTable
from reference_engine.registry import Library

RULES = load_rules("uno")
CARD = RULES.symbol
valid = RULES.validity(CARD("red5"), "red")  # a red card, a 5 or a wild card


def codes(cards: list[Symbol]) -> tuple[int, ...]:
    return tuple(code(c) for c in cards)


def test_the_same_codes_in_any_order_are_the_same_cards() -> None:
    start = codes([CARD("red1"), CARD("green2"), CARD("red1")])
    assert selection._codes_back(start, start, [])
    assert selection._codes_back(start[::-1], start, [])
    assert selection._codes_back(start[1:], start, [code(CARD("red1"))])
    assert selection._codes_back(start[:2], start, [code(CARD("red1"))])


@pytest.mark.parametrize(
    ("got", "lost"),
    [
        pytest.param((code(CARD("red1")), code(CARD("green2"))), [], id="a card too few"),
        pytest.param((code(CARD("red1")),) * 3, [], id="one card twice for another"),
        pytest.param((code(CARD("red1"), True), code(CARD("green2")), code(CARD("red1"))), [], id="face up"),
        pytest.param((EMPTY, code(CARD("green2")), code(CARD("red1"))), [], id="an empty slot"),
        pytest.param(
            (code(CARD("green2")), code(CARD("red1"))), [code(CARD("blue5"))], id="the wrong card lost"
        ),
        pytest.param((), [], id="nothing back"),
    ],
)
def test_codes_that_differ_prove_nothing(got: tuple[int, ...], lost: list[int]) -> None:
    assert not selection._codes_back(got, codes([CARD("red1"), CARD("green2"), CARD("red1")]), lost)


def table() -> list[list[Symbol]]:
    """P_1 (red1 valid, green2 not), P_2, the draw pile."""
    return [[CARD("red1"), CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]]


def check(
    returned: list[list[Symbol]],
    played: Symbol | None,
    got: list[tuple[int, ...]] | None,
    owners: list[list[Symbol]] | None = None,
    pile: int | None = None,
    kept: Symbol | None = None,
) -> Any:
    owners = table() if owners is None else owners
    start = tuple(code(c) for owner in owners for c in owner)
    return selection._checked(
        Library().protocol("card-selection-arrow"),
        owners,
        valid,
        "turn 7",
        True,
        False,
        played,
        returned,
        (4, 10),
        (ViewTable(), 0),
        {"shuffles": 4, "helper_cards": 10}.get,
        True,
        pile=pile,
        kept=kept,
        codes=None if got is None else (start, got),
    )


def outcome(*args: Any, **kw: Any) -> Any:
    try:
        run = check(*args, **kw)
    except CheckFailure as exc:
        return exc.format_message()
    return (run.played, run.returned, run.drawn)


CASES = [
    pytest.param(
        [[CARD("green2")], [CARD("yellow3")], [CARD("green3"), CARD("blue5")]], CARD("red1"), {}, id="played"
    ),
    pytest.param(
        [[CARD("green2")], [CARD("green3")], [CARD("blue5"), CARD("yellow3")]], CARD("red1"), {}, id="swapped"
    ),
    pytest.param([[CARD("green2")], [CARD("yellow3")], [CARD("green3")]], CARD("red1"), {}, id="one lost"),
    pytest.param(
        [[CARD("green2"), CARD("green3")], [CARD("yellow3")], [CARD("blue5")]],
        None,
        {"owners": [[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]], "pile": 2},
        id="kept",
    ),
    pytest.param(
        [[CARD("green2")], [CARD("yellow3")], [CARD("green3")]],
        CARD("blue5"),
        {"owners": [[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]], "pile": 2},
        id="drawn and played",
    ),
]


@pytest.mark.parametrize(("returned", "played", "options"), CASES)
@pytest.mark.parametrize("checked", [False, True])
def test_the_check_on_codes_decides_as_the_check_on_faces(
    returned: list[list[Symbol]],
    played: Symbol | None,
    options: dict[str, Any],
    checked: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cells the faces were read from (the card kept is P_1's beyond its cells): with and
    without codes, the same result or the same failure."""
    monkeypatch.setattr(evaluate, "CHECKED", checked)
    kept = returned[0][-1] if "pile" in options and played is None else None
    got = [codes(cards[:-1] if i == 0 and kept is not None else cards) for i, cards in enumerate(returned)]
    assert outcome(returned, played, got, kept=kept, **options) == outcome(
        returned, played, None, kept=kept, **options
    )


def test_codes_that_prove_what_the_faces_deny_are_caught_under_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hostile: cells that hold P_2's card while its faces say otherwise. Under CHECKED the check
    by faces runs as well and the disagreement is an error of the engine, not of the run."""
    returned = [[CARD("green2")], [CARD("green3")], [CARD("green3"), CARD("blue5")]]
    got = [codes([CARD("green2")]), codes([CARD("yellow3")]), codes([CARD("green3"), CARD("blue5")])]
    monkeypatch.setattr(evaluate, "CHECKED", True)
    with pytest.raises(evaluate.Mismatch, match="owner 2's return was proven by codes"):
        check(returned, CARD("red1"), got)
    monkeypatch.setattr(evaluate, "CHECKED", False)
    assert check(returned, CARD("red1"), got).returned == returned  # the codes are trusted


def test_codes_that_prove_nothing_leave_it_to_the_faces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile: cells face up or empty fall back to the faces, which decide either way."""
    monkeypatch.setattr(evaluate, "CHECKED", False)
    good = [[CARD("green2")], [CARD("yellow3")], [CARD("green3"), CARD("blue5")]]
    up = [(code(CARD("green2"), True),), (EMPTY,), ()]
    assert check(good, CARD("red1"), up).returned == good
    bad = [[CARD("green2")], [CARD("green3")], [CARD("yellow3"), CARD("blue5")]]
    with pytest.raises(CheckFailure, match="owner 2 got back"):
        check(bad, CARD("red1"), up)


@pytest.mark.parametrize("seed", [0, 3])
def test_a_game_checked_both_ways_is_the_game_checked_by_faces(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole games under CHECKED (both checks on every owner of every run) and with the codes
    ignored (the faces alone): the same record."""
    monkeypatch.setattr(evaluate, "CHECKED", True)
    first = Game(RULES, Library(), players=4, virtual=4, level="card", seed=seed).play()
    monkeypatch.setattr(evaluate, "CHECKED", False)
    real = selection._codes_back
    monkeypatch.setattr(selection, "_codes_back", lambda *a: False)
    second = Game(RULES, Library(), players=4, virtual=4, level="card", seed=seed).play()
    monkeypatch.setattr(selection, "_codes_back", real)
    third = Game(RULES, Library(), players=4, virtual=4, level="card", seed=seed).play()
    assert first is not None and second is not None and third is not None
    assert first.to_json() == second.to_json() == third.to_json()


def test_outputs_read_from_the_cells_are_compared_under_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile: a reading from the cells that differs from the general reading is caught under
    CHECKED (machine/outputs.py's read_regions, as run_selection uses it)."""
    monkeypatch.setattr(evaluate, "CHECKED", True)
    monkeypatch.setattr(selection, "read_regions", lambda *a: {"played": CARD("red1"), "kept": CARD("red1")})
    with pytest.raises(evaluate.Mismatch, match="the outputs read from the cells"):
        Game(RULES, Library(), players=4, virtual=4, level="card", seed=1).play()
