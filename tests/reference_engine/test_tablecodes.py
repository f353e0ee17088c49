"""The table's codes kept from one card-level run to the next (``reference_engine/tablecodes.py``):
the same codes and faces as worked out card by card, and a card that is no longer the one kept
(another card, a card of another type) worked out again."""

from __future__ import annotations

import random
from dataclasses import dataclass

from reference_engine.cards import EMPTY, SYMBOLS, Symbol
from reference_engine.kinds.shedding import load_rules
from reference_engine.tablecodes import Returns, codes_back, faces

RULES = load_rules("uno")


def plain(owners: list[list[Symbol]]) -> tuple[int, ...]:
    return tuple(c.id << 1 for owner in owners for c in owner)


def kept_table(seed: int) -> tuple[Returns, list[list[Symbol]]]:
    """A Returns that kept the lists of a run that gave back three owners' cards as dealt."""
    deck = RULES.deck()
    random.Random(seed).shuffle(deck)
    owners = [deck[:7], deck[7:12], deck[12:40]]
    returns = Returns()
    made = returns.codes(owners)
    assert made is not None and made[0] == plain(owners)
    got = [tuple(c.id << 1 for c in o) for o in owners]
    returned = [faces(g) for g in got]
    for i, g in enumerate(got):
        assert returns.back(i, g, g, [])
    returns.keep(returned, got)
    return returns, returned


def test_kept_codes_are_the_cards_codes_as_the_lists_change() -> None:
    for seed in range(5):
        returns, owners = kept_table(seed)
        owners[0].pop(3)  # a card played from the middle of the hand
        owners[1].append(owners[2].pop())  # drawn off the pile's end onto a hand's
        made = returns.codes(owners)
        assert made is not None
        assert made[0] == plain(owners)
        assert made[1][0] is None and made[1][1] is None and made[1][2] is not None


def test_a_card_not_the_kept_one_is_worked_out_again() -> None:
    @dataclass(frozen=True)
    class Marked(Symbol):
        pass

    returns, owners = kept_table(1)
    other = next(c for c in RULES.deck() if c != owners[2][0])
    owners[2][0] = other
    made = returns.codes(owners)
    assert made is not None and made[0] == plain(owners)
    c = owners[1][0]
    owners[1][0] = Marked(c.name, c.glyph, c.id, c.attrs)  # equal fields, another type
    assert returns.codes(owners) is None  # the frame's way


def test_faces_are_the_symbol_tables_and_codes_back_proves_only_the_same_cards() -> None:
    red = RULES.symbol("red5")
    codes = (red.id << 1, red.id << 1 | 1, EMPTY, red.id << 1)
    assert faces(codes) == SYMBOLS.faces(codes) == [red, red, red]
    start = (2, 4, 4, 6)
    assert codes_back((4, 6, 2, 4), start, [], sorted(start)) == (True, [2, 4, 4, 6])
    assert not codes_back((4, 6, 2, 2), start, [], sorted(start))[0]
    assert not codes_back((4, 6, 2), start, [], sorted(start))[0]
    assert codes_back((4, 6, 2), start, [4])[0]
