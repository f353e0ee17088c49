"""Cards are value objects that print and parse themselves."""

from __future__ import annotations

import pytest

from reference_engine.cards import SYMBOLS, Card, code, flip, is_up


@pytest.mark.parametrize("text", ["alpha", "alpha^", "theta3", "c12^"])
def test_round_trip(text: str) -> None:
    assert str(Card.parse(text)) == text


def test_codes_and_orientation() -> None:
    sym = SYMBOLS.intern("alpha", "α")
    c = code(sym)
    assert not is_up(c) and is_up(flip(c)) and flip(flip(c)) == c
    card = Card.from_code(flip(c))
    assert card == Card("alpha", True)
    assert card.visible() == "α" and Card("alpha").visible() == "?"


def test_bad_card_text() -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse("al pha")


def test_faces_decodes_a_row_of_codes_as_by_id_does_leaving_empty_slots_out() -> None:
    from reference_engine.cards import EMPTY

    a, b = SYMBOLS.intern("faces_a"), SYMBOLS.intern("faces_b")
    row = [code(a), EMPTY, flip(code(b)), code(a), EMPTY]
    assert SYMBOLS.faces(row) == [SYMBOLS.by_id(c >> 1) for c in row if c != EMPTY] == [a, b, a]
    assert SYMBOLS.faces(()) == [] and SYMBOLS.faces([EMPTY]) == []
