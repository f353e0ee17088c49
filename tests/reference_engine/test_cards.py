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


def test_a_symbol_keeps_its_hash_when_the_registry_gives_it_its_glyph_later() -> None:
    # A card first met by its name alone (a report read back from the cache) is later declared
    # with its glyph, and a refused spec's glyph is undone: both edit the live symbol in place.
    # A dict or set (a kept table's key) holding it must still find it.
    from reference_engine.cards import Symbol, SymbolTable, undone_on_error

    table = SymbolTable()  # not the process's registry: nothing left behind
    sym = table.intern("w49_named_first")
    assert sym.glyph == "w49_named_first"
    by_symbol, members, frozen = {sym: 1}, {sym}, frozenset({sym, table.intern("w49_other")})
    before = hash(sym)
    with pytest.raises(RuntimeError), undone_on_error():
        table.declare("w49_named_first", "N2")  # declared on trial: its glyph set in place
        assert sym.glyph == "N2" and hash(sym) == before and by_symbol[sym] == 1
        raise RuntimeError("refused for its calls")
    assert sym.glyph == "w49_named_first" and hash(sym) == before  # undone in place
    assert by_symbol[sym] == 1 and sym in members
    table.intern("w49_named_first", "N1")  # declared with its glyph: upgraded in place
    assert sym.glyph == "N1" and hash(sym) == before
    assert by_symbol[sym] == 1 and sym in members
    assert frozenset({sym, table.intern("w49_other")}) in {frozen}
    # Still a card equal only to itself among the registry's: another name or id differs.
    assert sym != table.intern("w49_other") and sym != Symbol("w49_named_first", "N1", sym.id + 1)
    assert sym == Symbol("w49_named_first", "other glyph", sym.id)  # a copy (pickled) of the same card
