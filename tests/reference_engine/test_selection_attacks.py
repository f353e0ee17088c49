"""Hostile tables for a card-level selection run (:func:`reference_engine.selection.run_selection`)
and the fast paths it meets (the start made from the cards' codes, the proof that owners got
their cards back by their codes, the compiled tails that start at the drawn sleeve's owner
card): one to four players, a discard pile as the last owner, hands of no card or one, a
draw pile of none to five, a card that is not the symbol table's own (equal to it), a card on
the table twice. Each run on the
compiled engine (unchecked and under ``evaluate.CHECKED``) gives the interpreter's result: the
card played, the hands returned, the counts, the card drawn and the generator's state, or the
same error with the same message."""

from __future__ import annotations

import random
from typing import Any

import pytest

from reference_engine import selection
from reference_engine.cards import Symbol
from reference_engine.compiled import evaluate
from reference_engine.errors import KitgenError
from reference_engine.kinds.shedding import load_rules
from reference_engine.registry import Library

RULES = load_rules("uno")


def _table(seed: int, discard: int) -> tuple[list[list[Symbol]], str]:
    """A small random table (P_1 first, the draw pile last, or the discard pile after it) and
    the colour to follow."""
    gen = random.Random(seed)
    deck = RULES.deck()
    gen.shuffle(deck)
    sizes = [gen.choice([0, 1, 1, 2, 3]) for _ in range(gen.choice([1, 2, 3, 4]) + discard)]
    sizes.append(gen.choice([0, 1, 2, 5]))
    table, at = [], 0
    for s in sizes:
        table.append(deck[at : at + s])
        at += s
    if gen.random() < 0.2 and len(table) > 1 and table[1]:
        card = table[1][0]
        table[1][0] = Symbol(card.name, card.glyph, card.id)  # equal to the table's card, not it
    if gen.random() < 0.1 and table[0]:
        table[-1] = [*table[-1], table[0][0]]  # P_1's first card in the pile too
    return table, gen.choice(["red", "blue", "green", "yellow"])


def _outcome(library: Library, name: str, seed: int, engine: str, checked: bool, discard: int) -> Any:
    table, colour = _table(seed, discard)
    valid = RULES.validity(RULES.symbol("red5"), colour)
    rng = random.Random(seed)
    before = evaluate.CHECKED
    evaluate.CHECKED = checked
    try:
        cache = selection.CallCache(engine=engine)
        proto = library.protocol(name)
        params = {"discard": discard} if discard else None
        run = selection.run_selection(library, proto, table, valid, rng, cache, "t", params=params)
    except KitgenError as exc:
        return "error", type(exc).__name__, str(exc), rng.getstate()
    finally:
        evaluate.CHECKED = before
    return run.played, run.returned, run.shuffles, run.helper_cards, run.drawn, rng.getstate()


@pytest.mark.parametrize(
    "name,discard", [("card-selection-arrow", 0), ("card-selection-arrow", 1), ("card-selection-draw", 0)]
)
def test_small_and_odd_tables_run_as_the_interpreter(name: str, discard: int) -> None:
    """``discard``: 1 where the last owner is the discard pile (the draw pile the one before)."""
    library = Library()
    ended = set()
    for seed in range(30):
        want = _outcome(library, name, seed, "interpreter", False, discard)
        for checked in (False, True):
            got = _outcome(library, name, seed, "compiled", checked, discard)
            assert got == want, (seed, checked)
        ended.add(want[0] == "error")
    assert ended == {True, False}  # some runs end, some fail (an empty pile, an empty hand)
