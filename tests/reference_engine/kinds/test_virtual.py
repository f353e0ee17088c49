"""The virtual players' shared helpers (reference_engine.kinds.virtual)."""

from __future__ import annotations

import json
import random

import pytest

from reference_engine.api import load_game, record_text
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


@pytest.mark.parametrize(("name", "seed"), [("sevens", 3), ("dominoes", 3), ("dominoes", 5)])
def test_a_run_never_draws_for_a_virtual_player_in_a_game_that_does_not(name: str, seed: int) -> None:
    """card-selection-arrow (and card-selection-draw) draw for P_1 in their own run, from the last
    owner, when their parameter ``draw`` is 1, its default. Sevens has no draw pile: its last owner
    is a player's hand, so a virtual player with no valid card took that player's first card
    ([13, 13, 13, 12] -> [14, 13, 13, 11]), the referee found the hands diverged, and the run
    failed once that hand held the only other card. Dominoes draws from the boneyard between
    runs, like a person, and counts the draws: the run's own draw was not counted. Every kind but
    the shedding games (which give the parameter per rule set) now runs them with ``draw: 0``."""
    from reference_engine.api import Library, PlaySettings, record_game, replay_record

    settings = PlaySettings(virtual=2, level="card", seed=seed, protocol="card-selection-arrow")
    _, record = record_game(name, Library(), settings)
    report = replay_record(json.loads(record_text(record)), Library(), rerun=True)
    assert report.ok, [str(f) for f in report.findings]
    runs = [r for e in record["events"] for r in e["runs"]]
    assert runs and all(r["protocol"] == "card-selection-arrow" for r in runs)


def test_only_a_protocol_that_can_draw_is_told_not_to() -> None:
    from reference_engine.kinds.virtual import VirtualPlayers
    from reference_engine.registry import Library

    library = Library()
    arrow = VirtualPlayers(library, "card", random.Random(1), "card-selection-arrow", 1)
    fast = VirtualPlayers(library, "card", random.Random(1), "card-selection-fast", 1)
    assert arrow.params == {"draw": 0} and fast.params is None
    # Rule level runs no protocol: nothing to tell.
    assert VirtualPlayers(library, "rule", random.Random(1), "card-selection-arrow", 1).params is None


def test_the_table_time_of_a_game_without_a_draw_pile_runs_no_draw() -> None:
    """The table-time tracer ran the same specs with ``draw`` 1: for Sevens at its last turns (P_1
    holding one card, one other card on the table) the run took that card as the draw pile's and
    failed (``unknown name 'M'``)."""
    from kitgen.cost.kitcost import run_timer
    from kitgen.cost.timemodel import time_models
    from reference_engine.registry import Library

    library = Library()
    rules = load_game("sevens")
    proto = library.protocol("card-selection-arrow")
    timer = run_timer(library, rules, proto, 4, 2, 2, {}, time_models())
    assert timer.params == {"draw": 0}
    assert all(s > 0 for s in timer.seconds(1, 2, False))
    uno = run_timer(library, load_game("uno"), proto, 4, 1, 3, {}, time_models())
    assert uno.params["draw"] == 1  # UNO's run draws for the virtual player (the paper's rule)


def test_the_table_time_draws_in_the_run_only_where_the_game_does() -> None:
    """The tracer gave a shedding game's runs the spec's default ``draw`` 1 whatever its rules:
    Crazy Eights (draw up to 3 cards) and UNO with ``virtual_draw: keep`` draw like a person,
    between runs, and were timed with a draw in every run that found no valid card."""
    from kitgen.cost.kitcost import run_timer
    from kitgen.cost.timemodel import time_models
    from reference_engine.kinds.shedding.play import Game
    from reference_engine.registry import Library

    library = Library()
    proto = library.protocol("card-selection-arrow")
    eights = load_game("crazy-eights")
    timer = run_timer(library, eights, proto, 4, 2, 2, {}, time_models())
    assert timer.params["draw"] == 0
    game = Game(eights, library, players=4, virtual=2, level="card", seed=1, protocol="card-selection-arrow")
    assert game.draw_in_run is False and game.protocol_params["draw"] == 0  # the same answer
    uno = load_game("uno")
    keep = run_timer(library, uno, proto, 4, 2, 2, {"virtual_draw": "keep"}, time_models())
    play = run_timer(library, uno, proto, 4, 2, 2, {}, time_models())
    assert (keep.params["draw"], play.params["draw"]) == (0, 1)
    # A run that finds no valid card: the in-run draw is table work, so it takes longer.
    assert all(d > k for d, k in zip(play.seconds(5, 40, False), keep.seconds(5, 40, False)))
