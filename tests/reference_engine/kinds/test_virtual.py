"""The virtual players' shared helpers (reference_engine.kinds.virtual)."""

from __future__ import annotations

import pytest

from reference_engine.api import load_game
from reference_engine.cards import Symbol
from reference_engine.errors import EvalError
from reference_engine.kinds.virtual import one_card


def test_one_card_gives_the_card_a_rule_is_asked_about() -> None:
    """A card itself (the fast path every game rule's call takes) is that same card; a selection of
    one card is its card; anything else is the evaluation error a spec's expression reports."""
    rules = load_game("daifugo")
    a, b = rules.deck()[:2]
    assert type(a) is Symbol
    assert one_card(a) is a and one_card([b]) is b
    with pytest.raises(EvalError, match="valid\\(\\) takes one card"):
        one_card([a, b])
    with pytest.raises(EvalError, match="valid\\(\\) takes a card, got 3"):
        one_card(3)
    with pytest.raises(EvalError, match="valid\\(\\) takes one card"):
        one_card([])
    assert rules.strength(a) == rules.strength([a]) == rules.order.index(int(a.attrs["rank"]))
