"""A virtual player's strategy: weights parsed and checked, the weighted choice itself."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from reference_engine.errors import UsageError
from reference_engine.kinds.shedding import load_rules
from reference_engine.kinds.strategy import (
    MAX_WEIGHT,
    Strategy,
    Weights,
    strategy_from_options,
    weighted_pick,
)
from reference_engine.statistics import goodness_of_fit


def test_weights_parse_and_print() -> None:
    w = Weights.parse(" action=3, number=1 ,wild=2")
    assert dict(w.by_name) == {"action": 3, "number": 1, "wild": 2}
    assert w.text() == "action=3,number=1,wild=2" and w.largest == 3
    assert Weights.parse(w.text()) == w


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty entry"),
        ("action=3,,wild=1", "empty entry"),
        ("action", "is not name=weight"),
        ("=3", "is not name=weight"),
        ("action=x", "whole number"),
        ("action=2.5", "whole number"),
        ("action=0", "from 1 to 9"),
        ("action=-1", "from 1 to 9"),
        (f"action={MAX_WEIGHT + 1}", "from 1 to 9"),
        ("action=99999999999999999999", "from 1 to 9"),
    ],
)
def test_bad_weights_are_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(UsageError) as info:
        Weights.parse(text)
    assert says in info.value.format_message()


def test_strategy_needs_weights_exactly_when_weighted() -> None:
    assert strategy_from_options({}) == Strategy()
    assert strategy_from_options({"strategy": "weighted", "weights": "wild=2"}).weighted
    with pytest.raises(UsageError, match="needs weights"):
        strategy_from_options({"strategy": "weighted"})
    with pytest.raises(UsageError, match="needs strategy weighted"):
        strategy_from_options({"weights": "wild=2"})
    with pytest.raises(UsageError, match="uniform or weighted"):
        strategy_from_options({"strategy": "greedy"})


def test_classes_come_from_the_rules_effects() -> None:
    uno = load_rules("uno")
    cards = {c.name: c for c in uno.deck()}
    assert uno.classify(cards["red7"]) == ("number", "number")
    assert uno.classify(cards["red_skip"]) == ("skip", "action")
    assert uno.classify(cards["blue_draw2"]) == ("draw2", "action")
    assert uno.classify(cards["wild4"]) == ("wild4", "wild")  # it names the colour: a wild card
    eights = load_rules("crazy-eights")
    deck = {c.name: c for c in eights.deck()}
    assert eights.classify(deck["clubs_eight"])[1] == "wild"
    assert eights.classify(deck["spades_king"])[1] == "number"  # no effect
    weight = Weights.parse("action=3,wild=2,wild4=5").function(uno.classify)
    assert [weight(cards[n]) for n in ("red7", "red_skip", "wild", "wild4")] == [1, 3, 2, 5]
    with pytest.raises(UsageError, match="no class or card kind 'acton'"):
        Weights.parse("acton=3").check_names(uno.weight_names(), "uno")


def test_weighted_pick_follows_the_weights() -> None:
    uno = load_rules("uno")
    cards = {c.name: c for c in uno.deck()}
    weight = Weights.parse("action=3,number=1,wild=2").function(uno.classify)
    hand = [cards["red1"], cards["red_skip"], cards["wild"]]
    rng = random.Random(3)
    counts = Counter(weighted_pick(hand, weight, rng).name for _ in range(6000))
    assert goodness_of_fit("pick", counts, {"red1": 1 / 6, "red_skip": 3 / 6, "wild": 2 / 6}).p > 0.001
    biased = goodness_of_fit("pick", counts, {"red1": 1 / 3, "red_skip": 1 / 3, "wild": 1 / 3})
    assert biased.p < 1e-6  # the test can tell weights from uniform
