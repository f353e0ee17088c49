"""The checks of a card-level run find a card in a list by identity first (``selection._holds``,
``selection._remove``, ``kinds.shedding.play._remove``: the ids compared in C, no dataclass
``__eq__`` per card of a draw pile before it), and still by equality where no card is the same
object: the same answers as ``in`` and ``list.remove``, on lists with repeated cards."""

from __future__ import annotations

import gc
import random
from dataclasses import replace
from typing import Any

from reference_engine import selection
from reference_engine.cards import SYMBOLS
from reference_engine.kinds.shedding import load_rules, play
from reference_engine.registry import Library


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


def test_a_run_pauses_the_collector_unless_the_game_has_paused_it(monkeypatch: Any) -> None:
    """run_selection pauses the cyclic collector for its run where it is running (and switches
    it back on after); where the caller has paused it (a card-level game, for the whole game) it
    leaves it off, as its own pause did, without a pause of its own. The same run either way."""
    library = Library()
    proto = library.protocol("card-selection-arrow")
    rules = load_rules("uno")
    deck = rules.deck()
    random.Random(3).shuffle(deck)
    table = [deck[0:7], deck[7:14], deck[14:21], deck[21:28], deck[28:107]]
    top = deck[107]
    valid = rules.validity(top, top.attrs.get("color"), None)
    seen: list[bool] = []
    real = selection.run_single

    def spy(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args)

    monkeypatch.setattr(selection, "run_single", spy)
    was = gc.isenabled()
    results = []
    try:
        for enabled in (True, False):
            gc.enable() if enabled else gc.disable()
            cache = selection.CallCache(engine="compiled")
            run = selection.run_selection(library, proto, table, valid, random.Random(9), cache, "turn 1")
            results.append((run.played, run.returned, run.shuffles, run.observations))
            assert gc.isenabled() == enabled  # as the caller left it
    finally:
        gc.enable() if was else gc.disable()
    assert seen == [False, False]  # paused during the run both times
    assert results[0] == results[1]
