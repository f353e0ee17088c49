"""Whole games at rule level and card level."""

from __future__ import annotations

import random

import pytest

from reference_engine.cards import Symbol
from reference_engine.errors import UsageError
from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.registry import Library
from reference_engine.statistics import binned, goodness_of_fit, two_sample, uniform_transform


def test_card_level_game_passes_every_check_and_is_reproducible(library: Library) -> None:
    rules = load_rules("uno")
    # The paper's protocol (card-selection-fast draws no card in its run): a second run after a draw.
    quick = "card-selection-fast"
    first = Game(rules, library, players=4, virtual=2, level="card", seed=1, protocol=quick).play().to_json()
    again = Game(rules, library, players=4, virtual=2, level="card", seed=1, protocol=quick).play().to_json()
    assert first == again
    assert first["all_checks_passed"] and first["virtual_turns"] > 0
    # The table runs the protocol once per virtual turn, and once more after every draw
    # (UNO paper 3.2), whether or not the drawn card turns out to be valid.
    virtual_seats = {1, 2}
    turns = [t for hand in first["log"] for t in hand if t["seat"] in virtual_seats]
    assert len(turns) == first["virtual_turns"]
    draws = [t for t in turns if t.get("drew")]
    assert draws and {"draw", "draw-play"} <= {t["action"] for t in draws}
    assert all(t["runs"] == (2 if t.get("drew") else 1) for t in turns)
    assert first["protocol_runs"] == first["virtual_turns"] + len(draws)
    assert first["checks_passed"] == 6 * first["protocol_runs"]
    for key in ("winner", "turns", "protocol_runs", "checks_passed", "shuffles", "max_helper_cards"):
        assert key in first
    # The largest table has all 107 cards not on the discard pile: 3k + 4 helper cards.
    assert first["max_helper_cards"] <= 3 * 107 + 4


def test_a_virtual_player_that_keeps_drawn_cards_runs_the_protocol_once_per_turn(library: Library) -> None:
    # virtual_draw keep (the uno rule set's default is the paper's, play): the rules let a player
    # play a card just drawn but do not make it, and a virtual player keeps it: one run per turn.
    rules = load_rules("uno")
    result = (
        Game(rules, library, players=4, virtual=2, level="card", seed=1, virtual_draw="keep").play().to_json()
    )
    assert result["all_checks_passed"]
    turns = [t for hand in result["log"] for t in hand if t["seat"] in (1, 2)]
    draws = [t for t in turns if t.get("drew")]
    assert draws and all(t["action"] == "draw" for t in draws)
    assert all(t["runs"] == 1 for t in turns)
    assert result["protocol_runs"] == result["virtual_turns"]
    # A person still plays a drawn card when it is valid.
    people = [t for hand in result["log"] for t in hand if t["seat"] not in (1, 2)]
    assert any(t["action"] == "draw-play" for t in people)


def test_keeping_a_drawn_card_needs_rules_that_allow_playing_it(library: Library) -> None:
    eights = load_rules("crazy-eights")  # draw until playable: a virtual player cannot keep
    with pytest.raises(UsageError, match="cannot keep"):
        Game(eights, library, players=4, virtual=1, level="rule", seed=1, virtual_draw="keep")


def test_rule_level_game(library: Library) -> None:
    result = Game(load_rules("uno"), library, players=3, virtual=3, level="rule", seed=9).play().to_json()
    assert result["hand_results"][0]["reason"] in ("went out", "nobody could play or draw")
    assert result["protocol_runs"] == 0


def test_official_rules_refuse_virtual_players_without_bluff(library: Library) -> None:
    with pytest.raises(UsageError) as info:
        Game(load_rules("uno-official"), library, virtual=1)
    message = info.value.format_message()
    assert "depends on the rest of the player's hand" in message
    assert "'uno'" in message and "wild4 bluff" in message


def test_official_rules_with_bluff_and_scoring(library: Library) -> None:
    result = (
        Game(
            load_rules("uno-official"),
            library,
            players=3,
            virtual=1,
            level="card",
            seed=2,
            wild4="bluff",
            hands=2,
        )
        .play()
        .to_json()
    )
    assert result["hands"] <= 2 and result["scores"] is not None
    assert sum(result["scores"]) == sum(h["points"] for h in result["hand_results"])


def test_an_unsuccessful_challenge_stays_in_the_log(library: Library) -> None:
    """The referee's finding (uno-official, 3 people, seed 3): Human 3 plays W+4 holding no
    card of the colour in force, Human 1 challenges and draws 6; the note said only "Human 1
    misses a turn"."""
    game = Game(load_rules("uno-official"), library, players=3, virtual=0, level="rule", seed=3, hands=1)
    log = game.play().to_json()["log"][0]
    (i, turn) = next((i, t) for i, t in enumerate(log) if "challenged" in t.get("note", ""))
    assert (turn["index"], turn["seat"], turn["card"]) == (13, 3, "W+4")
    assert turn["note"] == "challenged without reason: Human 1 draws 6 and misses a turn"
    assert log[i + 1]["seat"] == 2  # the challenger missed the turn


def test_a_reverse_turned_up_first_lets_the_dealer_go_first_with_two_players_too(library: Library) -> None:
    """Found by the record's referee (uno-official, two people, seed 2): Y⇄ is turned up first;
    the player after the dealer (seat 2) was to start, so the dealer (seat 1) goes first, "then
    play moves to the right". The engine had kept seat 2 when two play."""
    game = Game(load_rules("uno-official"), library, players=2, virtual=0, level="rule", seed=2, hands=1)
    log = game.play().to_json()["log"][0]
    assert game.results and log[0]["seat"] == 1  # the dealer; before the fix, seat 2


def test_two_player_reverse_acts_as_skip(library: Library) -> None:
    rules = load_rules("uno-official")
    game = Game(rules, library, players=2, virtual=0, seed=0)
    game.hands = [[rules.symbol("red_reverse"), rules.symbol("red3")], [rules.symbol("blue1")]]
    game.draw_pile, game.discard, game.color, game.direction, game.log = (
        [],
        [rules.symbol("red5")],
        "red",
        1,
        [],
    )
    game.take_turn(1, 0)
    assert game.after_play == 0  # the same player plays again


def test_empty_piles_end_the_hand(library: Library) -> None:
    """Nobody can play and nothing can be drawn: everybody passes and the lowest hand wins."""
    rules = load_rules("uno")
    game = Game(rules, library, players=2, virtual=0, seed=0)
    game.hands = [[rules.symbol("blue9")], [rules.symbol("green1")]]
    game.draw_pile, game.discard, game.color, game.direction, game.log = (
        [],
        [rules.symbol("red5")],
        "red",
        1,
        [],
    )
    assert game.take_turn(1, 0) == "pass" and game.take_turn(2, 1) == "pass"


def test_card_level_and_rule_level_choose_alike(library: Library) -> None:
    """The protocol is a faithful uniform choice: both levels pick cards with the same distribution."""
    rules = load_rules("uno")
    rng = random.Random(11)
    samples = {}
    for level in ("card", "rule"):
        choices: list[tuple[tuple[str, ...], str]] = []
        seed = 0
        while len(choices) < 400:
            game = Game(rules, library, players=4, virtual=2, level=level, seed=5000 + seed)
            game.play()
            choices += game.stats.choices
            seed += 1
        samples[level] = binned(uniform_transform(choices, rng))
    uniform = {i: 0.1 for i in range(10)}
    assert goodness_of_fit("card level", samples["card"], uniform).p > 0.001
    assert goodness_of_fit("rule level", samples["rule"], uniform).p > 0.001
    assert two_sample("card vs rule", samples["card"], samples["rule"]).p > 0.001


@pytest.mark.parametrize("engine", ["interpreter", "compiled"])
def test_runs_of_one_game_share_caches_but_not_the_rules_in_force(library: Library, engine: str) -> None:
    """Plans and layout-only values (the interpreter), the six-card AND's outcomes (both) are
    kept from run to run; the game's validity is not."""
    from reference_engine.selection import CallCache, run_selection

    rules = load_rules("uno")
    deck = {c.name: c for c in rules.deck()}
    hand = [deck["red1"], deck["green2"], deck["blue7"]]
    others = [[deck["yellow5"]], [deck["red9"], deck["green0"]]]
    protocol = library.protocol("card-selection")
    cache = CallCache(engine=engine)
    rng = random.Random(5)

    def table() -> list[list[Symbol]]:
        return [list(hand)] + [list(o) for o in others]

    green = rules.validity(deck["green5"], "green")
    blue = rules.validity(deck["blue5"], "blue")
    seen = set()
    for i in range(12):
        valid, want = (green, "green2") if i % 2 == 0 else (blue, "blue7")
        run = run_selection(library, protocol, table(), valid, rng, cache, f"run {i}")
        assert run.played is not None and run.played.name == want
        seen.add(run.played.name)
    assert seen == {"green2", "blue7"}
    if engine == "interpreter":
        assert cache.plans and cache.constants  # the caches were used
    else:
        assert cache.compiled_runs == 12 and not cache.interpreter_runs
    assert cache.subruns

    nothing = rules.validity(deck["yellow3"], "yellow")
    assert run_selection(library, protocol, table(), nothing, rng, cache, "none").played is None


@pytest.mark.parametrize(
    ("size", "players", "cards"), [(7, 4, 108), (5, 2, 10), (3, 3, 8), (0, 3, 5), (2, 1, 0)]
)
def test_a_deal_takes_the_cards_pop_would_take(size: int, players: int, cards: int) -> None:
    """play._deal slices what popping one card at a time from the deck's end gives, and a deck too
    short fails as popping does."""
    from reference_engine.kinds.shedding.play import _deal

    deck = list(load_rules("uno").deck())[:cards]
    random.Random(cards).shuffle(deck)
    ours, theirs = list(deck), list(deck)
    try:
        expected = [[theirs.pop() for _ in range(size)] for _ in range(players)]
    except IndexError:
        with pytest.raises(IndexError):
            _deal(ours, size, players)
        return
    assert _deal(ours, size, players) == expected and ours == theirs


def test_the_cyclic_collector_waits_for_the_end_of_a_card_level_game(library: Library) -> None:
    """A card-level game leaves no reference cycle (test_selection_checks.py): the collector is
    paused for the whole game, between runs too, and switched back on when it ends, or raises,
    what outlives the game promoted to the oldest generation; a rule-level game leaves it alone."""
    import gc

    rules = load_rules("uno")
    seen: list[bool] = []

    def watch(game: Game, seat: int, valid: object) -> bool:
        seen.append(gc.isenabled())
        return len(seen) >= 6  # stop at the sixth virtual decision

    assert gc.isenabled()
    game = Game(rules, library, players=3, virtual=3, level="card", seed=2)
    game.run_until(watch)
    assert seen == [False] * 6 and gc.isenabled()
    # What outlives the game went to the oldest generation unwalked (collector.py's promotion):
    # the game itself, its result and the runs' kept plans; nothing is left frozen.
    assert id(game) in {id(o) for o in gc.get_objects(2)} and gc.get_freeze_count() == 0

    def broken(game: Game, seat: int, valid: object) -> bool:
        seen.append(gc.isenabled())
        raise RuntimeError("an observer fails")

    seen.clear()
    with pytest.raises(RuntimeError, match="an observer fails"):
        Game(rules, library, players=3, virtual=3, level="card", seed=2).run_until(broken)
    assert seen == [False] and gc.isenabled()
    seen.clear()
    Game(rules, library, players=3, virtual=3, level="rule", seed=2).run_until(watch)
    assert seen and seen[0] is True and gc.isenabled()
