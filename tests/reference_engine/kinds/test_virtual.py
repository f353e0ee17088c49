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


def test_a_listener_hears_every_protocol_run_and_a_game_plays_alike_without_one() -> None:
    """w48-attack2: note_run makes its progress detail only for a listener. With one, every
    protocol run of a card-level game is reported, in order, with the virtual turns so far; the
    game's record is the same with and without the listener."""
    from reference_engine import progress
    from reference_engine.kinds.shedding import Game, load_rules
    from reference_engine.registry import Library

    rules = load_rules("uno-small")
    library = Library()

    def play() -> object:
        game = Game(rules, library, players=2, virtual=2, level="card", seed=3)
        return game, game.play()

    heard: list[tuple[str, int, int | None, str]] = []
    with progress.reporting(lambda *report: heard.append(report)):
        _, loud = play()
    _, quiet = play()
    runs = [r for r in heard if r[0] == "playing"]
    assert runs and [r[1] for r in runs] == list(range(1, len(runs) + 1))
    assert all(r[2] is None and r[3].endswith(" virtual turns, protocol runs") for r in runs)
    turns = [int(r[3].split()[0]) for r in runs]
    assert turns == sorted(turns) and turns[-1] <= loud.work.virtual_turns  # type: ignore[attr-defined]
    assert repr(loud) == repr(quiet)
