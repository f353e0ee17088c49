"""The checks of a card-level run find a card in a list by identity first (``selection._holds``,
``selection._remove``, ``kinds.shedding.play._remove``: the ids compared in C, no dataclass
``__eq__`` per card of a draw pile before it), and still by equality where no card is the same
object: the same answers as ``in`` and ``list.remove``, on lists with repeated cards."""

from __future__ import annotations

from dataclasses import replace

from reference_engine import selection
from reference_engine.cards import SYMBOLS
from reference_engine.kinds.shedding import play


def _cards() -> tuple[object, object, object]:
    a = SYMBOLS.intern("w49id_a")
    b = SYMBOLS.intern("w49id_b")
    return a, b, replace(a)  # an equal card that is another object (a card not interned)


def test_holds_answers_as_in_does() -> None:
    a, b, a2 = _cards()
    assert a2 == a and a2 is not a
    for cards, card in [([b, a, b], a), ([b, a2], a), ([b], a), ([], a), ([a, a], a2), ([b, b], b)]:
        assert selection._holds(cards, card) == (card in cards), (cards, card)  # type: ignore[arg-type]


def test_remove_takes_the_identical_card_first_else_an_equal_one() -> None:
    a, b, a2 = _cards()
    for remove in (selection._remove, play._remove):
        cards = [b, a2, a, b, a]
        remove(cards, a)  # type: ignore[arg-type]
        assert cards == [b, a2, b, a] and cards[1] is a2, cards  # the first identical one went
        cards = [b, a2, b]
        remove(cards, a)  # type: ignore[arg-type]
        assert cards == [b, b]  # none identical: the first equal one, as list.remove
        cards = [b]
        try:
            remove(cards, a)  # type: ignore[arg-type]
        except ValueError:
            pass
        else:
            raise AssertionError("removing a card that is not there must fail as list.remove does")
