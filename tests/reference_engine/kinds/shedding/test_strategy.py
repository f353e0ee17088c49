"""A weighted virtual player in shedding games, at card level and rule level (issue 28).

The choices must follow the weights: from fixed tables (the same state many times) and over
the varied states of whole games (pooled with the weighted probability integral transform)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from reference_engine.cards import Symbol
from reference_engine.errors import UsageError
from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.kinds.strategy import Strategy, Weights
from reference_engine.registry import Library
from reference_engine.selection import CallCache, run_selection
from reference_engine.statistics import binned, goodness_of_fit, two_sample, weighted_transform

WEIGHTS = Weights.parse("action=3,number=1,wild=1")
WEIGHTED = Strategy("weighted", WEIGHTS)


CARDS = {c.name: c for c in load_rules("uno").deck()}


def table(names: list[list[str]]) -> list[list[Symbol]]:
    return [[CARDS[n] for n in owner] for owner in names]


def heaviest_z(choices: list[tuple[tuple[str, ...], str]], weight: dict[str, int], uniform: bool) -> float:
    """How far the number of choices that took a heaviest option is from what the weights (or,
    with ``uniform``, equal chances) predict, in standard deviations."""
    mean = var = 0.0
    seen = 0
    for options, chosen in choices:
        top = max(weight[o] for o in options)
        heavy = [o for o in options if weight[o] == top]
        p = (
            len(heavy) / len(options)
            if uniform
            else sum(weight[o] for o in heavy) / sum(weight[o] for o in options)
        )
        mean, var = mean + p, var + p * (1 - p)
        seen += chosen in heavy
    return (seen - mean) / var**0.5


# P_1 holds a red skip (action: 3), a wild (1), a red 1 (1) and a green 2 (not valid on red 5).
FIXED = [["red_skip", "wild", "red1", "green2"], ["blue3", "yellow7"], ["green9", "blue0", "red_draw2"]]
EXPECTED = {"red_skip": 3 / 5, "wild": 1 / 5, "red1": 1 / 5}


def test_card_level_runs_from_a_fixed_table_follow_the_weights(library: Library) -> None:
    rules = load_rules("uno")
    weight = WEIGHTS.function(rules.classify)
    valid = rules.validity(table([["red5"]])[0][0], "red")
    protocol = library.protocol("weighted-selection")
    cache, rng = CallCache(), random.Random(7)
    played: Counter[str] = Counter()
    for i in range(400):
        run = run_selection(
            library,
            protocol,
            table(FIXED),
            valid,
            rng,
            cache,
            f"run {i}",
            context={"weight": weight},
            params={"w": 3},
        )
        assert run.played is not None
        played[run.played.name] += 1
    assert goodness_of_fit("card level", played, EXPECTED).p > 0.001
    assert goodness_of_fit("not uniform", played, {n: 1 / 3 for n in EXPECTED}).p < 0.001


def test_rule_level_choices_from_a_fixed_state_follow_the_weights(library: Library) -> None:
    rules = load_rules("uno")
    game = Game(rules, library, players=3, virtual=1, level="rule", seed=4, strategy=WEIGHTED)
    played: Counter[str] = Counter()
    for _ in range(3000):
        game.hands = table(FIXED)[:3]
        game.draw_pile = table([["yellow4", "blue8"]])[0]  # the table use is noted with it
        game.discard, game.color = table([["red5"]])[0], "red"
        card = game.choose(0, game.validity(0), _record())
        assert card is not None
        played[card.name] += 1
    assert goodness_of_fit("rule level", played, EXPECTED).p > 0.001
    assert goodness_of_fit("not uniform", played, {n: 1 / 3 for n in EXPECTED}).p < 0.001


def _record() -> object:
    from reference_engine.kinds.shedding.play import Turn

    return Turn(1, 1, "play")


def test_the_seeded_game_of_the_issue_plays_to_the_end(library: Library) -> None:
    rules = load_rules("uno")
    result = (
        Game(rules, library, players=4, virtual=2, level="card", seed=1, strategy=WEIGHTED).play().to_json()
    )
    again = (
        Game(rules, library, players=4, virtual=2, level="card", seed=1, strategy=WEIGHTED).play().to_json()
    )
    assert result == again and result["all_checks_passed"]
    assert result["protocol"] == "weighted-selection"
    assert result["strategy"] == {"name": "weighted", "weights": {"action": 3, "number": 1, "wild": 1}}
    assert result["checks_passed"] == 6 * result["protocol_runs"] > 0
    # Every run of the weighted protocol on k cards in play, P_1 holding k1: 3k tickets laid.
    assert result["max_helper_cards"] > 3 * 50


def test_choices_over_whole_games_follow_the_weights_at_both_levels(library: Library) -> None:
    rules = load_rules("uno")
    weight_of = WEIGHTS.function(rules.classify)
    by_name = {c.name: weight_of(c) for c in rules.deck()}
    rng = random.Random(12)
    samples = {}
    for level, wanted in (("card", 250), ("rule", 800)):
        choices: list[tuple[tuple[str, ...], str]] = []
        seed = 0
        while len(choices) < wanted:
            game = Game(
                rules, library, players=4, virtual=2, level=level, seed=7000 + seed, strategy=WEIGHTED
            )
            game.play()
            choices += game.stats.choices
            seed += 1
        samples[level] = binned(weighted_transform(choices, by_name.__getitem__, rng))
        if level == "rule":
            # Only choices between cards of different weights say anything about the weights: the
            # heaviest cards are taken as often as the weights say, far more than by chance.
            telling = [c for c in choices if len({by_name[n] for n in c[0]}) > 1]
            assert len(telling) > 120
            assert abs(heaviest_z(telling, by_name, uniform=False)) < 3.5
            assert heaviest_z(telling, by_name, uniform=True) > 4
    uniform = {i: 0.1 for i in range(10)}
    assert goodness_of_fit("card level", samples["card"], uniform).p > 0.001
    assert goodness_of_fit("rule level", samples["rule"], uniform).p > 0.001
    assert two_sample("card vs rule", samples["card"], samples["rule"]).p > 0.001


def test_crazy_eights_plays_weighted_at_card_level(library: Library) -> None:
    strategy = Strategy("weighted", Weights.parse("wild=2"))
    result = (
        Game(load_rules("crazy-eights"), library, players=3, virtual=2, seed=3, strategy=strategy)
        .play()
        .to_json()
    )
    assert result["all_checks_passed"] and result["protocol_runs"] > 0


def test_uniform_play_is_unchanged_by_the_strategy_code(library: Library) -> None:
    """The default strategy draws exactly what it drew before weights existed (seeded games and
    kits stay the same)."""
    rules = load_rules("uno")
    plain = Game(rules, library, players=4, virtual=2, level="rule", seed=3).play().to_json()
    uniform = (
        Game(rules, library, players=4, virtual=2, level="rule", seed=3, strategy=Strategy()).play().to_json()
    )
    assert plain == uniform and "strategy" not in plain


@pytest.mark.parametrize(
    ("protocol", "strategy", "says"),
    [
        ("card-selection", WEIGHTED, "strategy weighted needs a protocol that takes the weights"),
        ("weighted-selection", Strategy(), "needs weights"),
    ],
)
def test_protocol_and_strategy_must_agree(
    library: Library, protocol: str, strategy: Strategy, says: str
) -> None:
    with pytest.raises(UsageError, match=says):
        Game(load_rules("uno"), library, virtual=1, level="card", protocol=protocol, strategy=strategy)


def test_unknown_weight_names_are_refused(library: Library) -> None:
    with pytest.raises(UsageError, match="crazy-eights has no class or card kind 'draw2'"):
        Game(load_rules("crazy-eights"), library, strategy=Strategy("weighted", Weights.parse("draw2=3")))


def test_only_the_weighted_seats_follow_the_weights(library: Library) -> None:
    rules = load_rules("uno")

    def log(seed: int, **kw: Any) -> Any:
        return (
            Game(rules, library, players=2, virtual=2, level="rule", seed=seed, **kw).play().to_json()["log"]
        )

    seeds = range(8, 20)
    assert all(log(s, strategy=WEIGHTED, weighted_seats=set()) == log(s) for s in seeds)
    assert any(log(s, strategy=WEIGHTED, weighted_seats={1}) != log(s) for s in seeds)
    with pytest.raises(UsageError, match="at card level every virtual player follows the same strategy"):
        Game(rules, library, players=2, virtual=2, level="card", strategy=WEIGHTED, weighted_seats={1})


def test_the_benchmark_prints_its_figures() -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[4] / "bench" / "strategy.py"
    out = subprocess.run(
        [sys.executable, str(bench), "--games", "4", "--json"], capture_output=True, text=True, check=True
    ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    assert data["settings"]["games"] == 4 and len(data["rows"]) == 14
    for row in data["rows"]:
        assert row["games"] == 4 and row["weighted_wins"] + row["uniform_wins"] <= 4
        assert 0 <= row["p"] <= 1 and row["weighted_ci"][0] <= row["weighted_rate"] <= row["weighted_ci"][1]
