"""Daifugō (President): the rules, whole games at rule and card level, and virtual players that
pick uniformly among their distinct plays (issue 28)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from reference_engine.cards import Symbol
from reference_engine.errors import CheckFailure, SpecError, UsageError
from reference_engine.kinds import load_game
from reference_engine.kinds.climbing import (
    ClimbingRules,
    DaifugoGame,
    Play,
    expected_shuffles,
    run_play_selection,
)
from reference_engine.kinds.climbing.rules import load_climbing
from reference_engine.registry import Library
from reference_engine.selection import CallCache
from reference_engine.statistics import binned, goodness_of_fit, two_sample, uniform_transform
from reference_engine.verify import verify_runs

RULES = load_game("daifugo")
assert isinstance(RULES, ClimbingRules)
CARDS = RULES.cards_by_name()


def hand(*names: str) -> list[Symbol]:
    return [CARDS[n] for n in names]


def test_the_order_and_the_plays() -> None:
    assert [RULES.rank_name(i) for i in range(13)] == [
        "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2",
    ]  # fmt: skip
    h = hand("clubs5", "diamonds5", "hearts5", "clubs9", "spades2")
    five, nine, two = RULES.strength(CARDS["clubs5"]), RULES.strength(CARDS["clubs9"]), 12
    # Leading: every distinct play, a size and a rank (three 5s give three plays, not seven sets).
    assert RULES.plays(h, None) == [Play(1, five), Play(2, five), Play(3, five), Play(1, nine), Play(1, two)]
    assert RULES.plays(h, Play(1, five)) == [Play(1, nine), Play(1, two)]
    assert RULES.plays(h, Play(2, RULES.strength(CARDS["clubs4"]))) == [Play(2, five)]
    assert RULES.plays(h, Play(2, five)) == []  # a pair must be beaten by a higher pair
    assert RULES.plays(h, Play(1, two)) == []  # nothing beats a 2
    assert RULES.describe(Play(2, five)) == "a pair of 5s"
    with pytest.raises(ValueError):
        RULES.play_of(hand("clubs5", "clubs9"))


def test_a_bad_rule_set_names_every_problem(tmp_path: Path) -> None:
    text = (Path(RULES.file)).read_text(encoding="utf-8")
    text = text.replace("order: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2]", "order: [3, 4, 4, 6]")
    text = text.replace("max_play: 4", "max_play: 0")
    path = tmp_path / "daifugo.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_climbing(path, "daifugo")
    messages = " ".join(p.message for p in info.value.problems)
    assert "listed twice" in messages and "missing" in messages and "at least 1" in messages


def test_rule_level_games_follow_the_rules(library: Library) -> None:
    for seed in range(30):
        game = DaifugoGame(RULES, library, players=4, virtual=2, level="rule", seed=seed)
        result = game.play().to_json()
        assert sorted(result["ranking"]) == [1, 2, 3, 4]
        last: Play | None = None
        for t in result["log"]:
            if t["action"] == "trick":
                last = None
            elif t["action"] == "play":
                play = RULES.play_of([CARDS[_name(g)] for g in t["cards"].split()])
                assert play.beats(last), (seed, t)
                last = play
        # Every card is played once, but the last player's.
        played = [g for t in result["log"] if t["action"] == "play" for g in t["cards"].split()]
        assert len(played) == len(set(played)) <= 52


def _name(glyph: str) -> str:
    return next(n for n, c in CARDS.items() if c.glyph == glyph)


def test_the_seeded_card_level_game_of_the_issue(library: Library) -> None:
    first = DaifugoGame(RULES, library, players=4, virtual=2, level="card", seed=1).play().to_json()
    again = DaifugoGame(RULES, library, players=4, virtual=2, level="card", seed=1).play().to_json()
    assert first == again and first["all_checks_passed"]
    assert first["protocol"] == "play-selection-fast"
    assert first["protocol_runs"] == first["virtual_turns"] > 0
    assert first["checks_passed"] == 6 * first["protocol_runs"]
    virtual = [t for t in first["log"] if t["seat"] in (1, 2) and t["action"] in ("play", "pass")]
    assert all(t["runs"] == 1 for t in virtual)
    assert any(len(t["cards"].split()) > 1 for t in virtual if t["action"] == "play")  # several cards at once


def test_virtual_players_choose_uniformly_among_distinct_plays(library: Library) -> None:
    """At both levels over whole games: a virtual player picks each of its distinct plays with
    equal chance (not each card, nor each set of cards), so the levels agree."""
    rng = random.Random(4)
    samples = {}
    for level in ("card", "rule"):
        choices: list[tuple[tuple[str, ...], str]] = []
        seed = 0
        while len(choices) < (120 if level == "card" else 300):
            game = DaifugoGame(RULES, library, players=4, virtual=2, level=level, seed=900 + seed)
            game.play()
            choices += [c for c in game.choices if len(c[0]) > 1]
            seed += 1
        samples[level] = binned(uniform_transform(choices, rng))
    uniform = {i: 0.1 for i in range(10)}
    assert goodness_of_fit("card level", samples["card"], uniform).p > 0.001
    assert goodness_of_fit("rule level", samples["rule"], uniform).p > 0.001
    assert two_sample("card vs rule", samples["card"], samples["rule"]).p > 0.001


def test_a_fixed_table_at_card_level(library: Library) -> None:
    """Following a single 3, P_1 holds three 7s and one 9: a 7 and a 9 are one play each, so a
    9 comes half of the time (a card-by-card choice would play it a quarter of the time), and
    the 7 played is uniform among its three."""
    owners = [
        hand("clubs7", "diamonds7", "hearts7", "clubs9"),
        hand("spades7", "clubs4", "diamonds9"),
        hand("hearts9", "spades3", "clubs6"),
    ]
    protocol = library.protocol("play-selection")
    cache, rng = CallCache(), random.Random(2)
    played: Counter[str] = Counter()
    for i in range(240):
        run = run_play_selection(
            library, RULES, protocol, [list(o) for o in owners], Play(1, 0), rng, cache, f"{i}"
        )
        assert run.played is not None and len(run.played) == 1
        played[run.played[0].name] += 1
    want = {"clubs7": 1 / 6, "diamonds7": 1 / 6, "hearts7": 1 / 6, "clubs9": 1 / 2}
    assert goodness_of_fit("fixed table", played, want).p > 0.001
    assert goodness_of_fit("per card", played, {n: 1 / 4 for n in want}).p < 0.001


def test_leading_plays_every_size_equally(library: Library) -> None:
    owners = [hand("clubs7", "diamonds7", "hearts7", "clubs9"), hand("spades7", "clubs4"), hand("spades3")]
    protocol = library.protocol("play-selection")
    cache, rng = CallCache(), random.Random(3)
    plays: Counter[str] = Counter()
    for i in range(240):
        run = run_play_selection(
            library, RULES, protocol, [list(o) for o in owners], None, rng, cache, f"{i}"
        )
        assert run.played is not None
        plays[RULES.describe(RULES.play_of(run.played))] += 1
    assert set(plays) == {"a single 7", "a pair of 7s", "three 7s", "a single 9"}
    assert goodness_of_fit("lead", plays, {p: 1 / 4 for p in plays}).p > 0.001


def test_the_shuffle_count_formula() -> None:
    owners = [hand("clubs7", "diamonds7", "clubs9"), hand("hearts7", "spades7"), hand("clubs4")]
    # Following a single 3: ranks 4 (1 ticket), 7 (4), 9 (1): 1 + 0 + one rank shuffle + 6 chain
    # ANDs + lottery (6 + 2) + the final shuffle.
    assert expected_shuffles(RULES, owners, Play(1, 0), hand("clubs9")) == 1 + 1 + 6 + 8 + 1
    # Following a pair of 3s: C(4, 2) = 6 tickets of 7s: 6 liveness ANDs, a shuffle, 6 chain ANDs, lottery.
    assert expected_shuffles(RULES, owners, Play(2, 0), hand("clubs7", "diamonds7")) == 1 + 6 + 1 + 6 + 8 + 1
    # Leading with a 7 and stopping: P_1's row, the columns, one lottery on 3 other 7s and stop.
    assert expected_shuffles(RULES, owners, None, hand("clubs7")) == 2 + (3 + 1 + 2) + 1


def test_a_broken_protocol_stops_the_game(variant: Callable[..., Library]) -> None:
    # Ownership pairs that say "P_1's" under every card: the virtual player plays others' cards.
    lib = variant(RULES.protocol, ("bit(1 if i == 1 else 0)", "bit(1)"))
    with pytest.raises(CheckFailure, match="turn"):
        for seed in range(2, 12):
            DaifugoGame(RULES, lib, players=4, virtual=2, level="card", seed=seed).play().to_json()


def test_seating_and_levels_are_checked(library: Library) -> None:
    with pytest.raises(UsageError, match="played by 3 to 6 players"):
        DaifugoGame(RULES, library, players=2)
    with pytest.raises(UsageError, match="virtual must be between 0 and 4"):
        DaifugoGame(RULES, library, players=4, virtual=5)
    with pytest.raises(SpecError, match="the game's order of ranks"):
        DaifugoGame(RULES, library, players=4, virtual=1, protocol="card-selection")


def test_a_play_selection_spec_without_a_card_output_played_is_refused(
    variant: Callable[..., Library],
) -> None:
    """Refused at the spec's protocol line by a game and by the statistical verifier (an output
    'played' that is not cards was a TypeError traceback in a game or in verify --runs)."""
    change = ("    cards: played\n    encoding: cards\n", "    value: \"exists('played')\"\n")
    needs = "an output 'played'"
    lib = variant(RULES.protocol, change)
    proto = lib.protocol(RULES.protocol)
    for attempt in (
        lambda: DaifugoGame(RULES, lib, players=4, virtual=1, level="card"),
        lambda: verify_runs(lib, proto, runs=2, seed=1),
    ):
        with pytest.raises(SpecError, match=needs) as info:
            attempt()
        assert f"{RULES.protocol}.yaml" in str(info.value)
