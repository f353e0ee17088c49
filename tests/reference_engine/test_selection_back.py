"""The owners a card-level run proves back by their codes (``run_selection``'s ``same``: every
owner but P_1 whose region ends holding its starting codes, the cards all the symbol table's
own): their comparison in ``selection._checked`` is skipped (the draw pile's only when no card
was drawn from it), with the same result and the same errors as the general comparison;
anything it cannot prove takes the general way."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference_engine import selection
from reference_engine.cards import SYMBOLS, Symbol
from reference_engine.compiled import evaluate
from reference_engine.errors import CheckFailure
from reference_engine.kinds.shedding import load_rules
from reference_engine.machine import ViewTable
from reference_engine.registry import Library

RULES = load_rules("uno")
CARD = RULES.symbol
valid = RULES.validity(CARD("red5"), "red")


def full_table(seed: int) -> list[list[Symbol]]:
    deck = RULES.deck()
    random.Random(seed).shuffle(deck)
    return [deck[0:7], deck[7:14], deck[14:21], deck[21:28], deck[28:107]]


def test_own_is_equality_with_the_tables_card_of_each_id() -> None:
    red1, green2 = CARD("red1"), CARD("green2")
    twin = Symbol(red1.name, "R1", red1.id)  # equal to red1, not the table's object
    impostor = Symbol("not-red1", "R1", red1.id)  # red1's id, another name
    past = Symbol("past", "P", len(SYMBOLS) + 5)  # an id the table does not have
    below = Symbol("below", "B", -1)  # reads the table's last card, another id
    assert SYMBOLS.own([red1, green2, red1]) and SYMBOLS.own([]) and SYMBOLS.own([twin, green2])
    for hostile in (impostor, past, below):
        assert not SYMBOLS.own([red1, hostile, green2])


def _spied(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The ``same`` every run hands to _checked, in a list."""
    seen: list[Any] = []
    checked = selection._checked

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(set(kw["same"]))
        return checked(*args, **kw)

    monkeypatch.setattr(selection, "_checked", spy)
    return seen


@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
def test_a_run_proves_every_owner_but_p1_back(monkeypatch: pytest.MonkeyPatch, engine: str) -> None:
    library = Library()
    seen = _spied(monkeypatch)
    proto = library.protocol("card-selection-arrow")
    for seed in range(3):
        cache = selection.CallCache(engine=engine)
        run = selection.run_selection(
            library, proto, full_table(seed), valid, random.Random(seed), cache, "t"
        )
        assert run.played is not None
    assert seen == [{1, 2, 3, 4}] * 3


def test_a_drawn_card_leaves_the_pile_to_the_general_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that draws for P_1 (no valid card in its hand): the pile is not what it was, so not
    proven; a drawn card wrongly left in the pile is caught as before."""
    owners = [[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]]

    def check(returned: list[list[Symbol]], same: set[int]) -> Any:
        return selection._checked(
            Library().protocol("card-selection-arrow"),
            owners,
            valid,
            "turn 7",
            False,
            False,
            CARD("blue5"),
            returned,
            (4, 10),
            (ViewTable(), 0),
            {}.get,
            True,
            pile=2,
            same=same,
        )

    monkeypatch.setattr(evaluate, "CHECKED", False)
    assert check([[CARD("green2")], [CARD("yellow3")], [CARD("green3")]], {1}).drawn == CARD("blue5")
    with pytest.raises(CheckFailure, match="owner 3 got back"):
        check([[CARD("green2")], [CARD("yellow3")], [CARD("blue5"), CARD("green3")]], {1, 2})


def _broken(monkeypatch: pytest.MonkeyPatch, change: Any) -> None:
    """Runs end with ``change`` applied to their final cells (a list, changed in place)."""
    single = selection._single

    def broken(*args: Any) -> Any:
        state, engine, reason = single(*args)
        cells = list(state.cells)
        change(state, cells)
        return state.replace(cells=tuple(cells)), engine, reason

    monkeypatch.setattr(selection, "_single", broken)


def _outcome(library: Library, table: list[list[Symbol]]) -> Any:
    """A run's result: its played card and hands, or its error's message."""
    proto = library.protocol("card-selection-arrow")
    try:
        run = selection.run_selection(
            library, proto, table, valid, random.Random(4), selection.CallCache(), "turn 3"
        )
    except CheckFailure as exc:
        return exc.format_message()
    return run.played, run.returned


@pytest.mark.parametrize(
    "hostile",
    ["face up", "empty slot", "swapped between owners", "impostor in a hand"],
)
def test_what_cannot_be_proven_takes_the_general_way(monkeypatch: pytest.MonkeyPatch, hostile: str) -> None:
    """A card face up, an empty slot, two owners' cards swapped, a card that is not the table's:
    not proven, compared as before; the result (or the error) is the same as without the proof."""
    library = Library()
    table = full_table(4)
    if hostile == "impostor in a hand":
        first = table[2][0]
        table[2][0] = Symbol("not-" + first.name, "X", first.id)

    def change(state: Any, cells: list[int]) -> None:
        by_name = state.layout.by_name
        two, three = by_name["hand2"], by_name["hand3"]
        if hostile == "face up":
            cells[two.offset] |= 1
        elif hostile == "empty slot":
            cells[three.offset] = -1
        elif hostile == "swapped between owners":
            cells[two.offset], cells[three.offset] = cells[three.offset], cells[two.offset]

    _broken(monkeypatch, change)
    seen = _spied(monkeypatch)
    fast = _outcome(library, table)
    proven = seen[-1] if seen else set()
    monkeypatch.setattr(selection, "_back_start", lambda codes, row: False)  # the general way alone
    seen.clear()
    slow = _outcome(library, table)
    assert fast == slow and (not seen or seen[-1] == set())
    if hostile == "face up":
        assert 1 not in proven and {2, 3, 4} <= proven and isinstance(fast, tuple)
    elif hostile == "empty slot":
        assert 2 not in proven and "owner 3 got back" in fast
    elif hostile == "swapped between owners":
        assert not {1, 2} & proven and "owner 2 got back" in fast
    else:
        assert proven == set() and "owner 3 got back" in fast


def test_a_wrong_proof_is_caught_when_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    owners = [[CARD("red1")], [CARD("yellow3")], [CARD("green3")]]
    returned = [[], [CARD("blue5")], [CARD("green3")]]  # owner 2 did not get its card back

    def check(same: set[int]) -> Any:
        return selection._checked(
            Library().protocol("card-selection-arrow"),
            owners,
            valid,
            "turn 7",
            False,
            False,
            CARD("red1"),
            returned,
            (4, 10),
            (ViewTable(), 0),
            {}.get,
            True,
            same=same,
        )

    monkeypatch.setattr(evaluate, "CHECKED", False)
    with pytest.raises(CheckFailure, match="owner 2 got back"):
        check(set())
    with pytest.raises(CheckFailure, match="owner 2 got back"):
        check({0})  # P_1 is never skipped
    assert check({1}).played == CARD("red1")  # the caller's proof is trusted
    monkeypatch.setattr(evaluate, "CHECKED", True)
    with pytest.raises(evaluate.Mismatch, match="owner 2's cards, proven back by their codes, differ"):
        check({1})
