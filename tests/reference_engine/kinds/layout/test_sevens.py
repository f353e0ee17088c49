"""Sevens (UNO paper, Section 5.1): the layout rule, the protocol finding the holder of 7♦, whole
games at card level with every check, and the protocol verified on a reduced table."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from reference_engine.kinds import PlaySettings, find_kind, load_game
from reference_engine.kinds.layout import LayoutRules, SevensGame
from reference_engine.registry import Library
from reference_engine.statistics import binned, goodness_of_fit, two_sample, uniform_transform
from reference_engine.verify import verify


@pytest.fixture(scope="module")
def rules() -> LayoutRules:
    loaded = load_game("sevens")
    assert isinstance(loaded, LayoutRules)
    return loaded


def test_sevens_opens_with_the_seven_of_diamonds_as_the_paper_says(rules: LayoutRules) -> None:
    """UNO paper, Section 5.1 (v2 text and its example): "A player who has a 7♢ starts the game
    by playing the 7♢"; the next player plays 6♢, 8♢ or a 7 of another suit. (One lossy
    rendering of the paper shows ♥ there: the engine had followed it.)"""
    assert rules.first == "diamonds7" and rules.symbol(rules.first).glyph == "7♦"
    valid = rules.validity({"diamonds": (7, 7)})
    after = sorted(c.glyph for c in rules.deck() if valid(c))
    assert after == sorted(["6♦", "8♦", "7♣", "7♥", "7♠"])
    for seed in range(5):
        game = SevensGame(rules, Library(), players=4, virtual=0, level="rule", seed=seed)
        assert game.play().to_json()["log"][0]["card"] == "7♦"


def test_the_layout_rule(rules: LayoutRules) -> None:
    card = rules.symbol
    assert [c.name for c in rules.deck() if rules.validity({})(c)] == ["diamonds7"]
    valid = rules.validity({"hearts": (5, 8), "spades": (7, 7)})
    assert valid(card("hearts4")) and valid(card("hearts9")) and valid(card("clubs7"))
    assert valid(card("spades6")) and valid(card("spades_eight"))
    assert not valid(card("hearts3")) and not valid(card("hearts10")) and not valid(card("diamonds_king"))
    # Aces are low: a run down to 2 may end with the ace; the king ends it upwards.
    low = rules.validity({"clubs": (2, 13)})
    assert low(card("clubs_ace")) and not low(card("diamonds_ace"))


def test_a_virtual_holder_of_the_first_card_is_found_by_the_protocol(
    library: Library, rules: LayoutRules
) -> None:
    """No person holds 7♦: the table runs the protocol for the virtual players in turn, with only
    7♦ valid; a run that finds nothing says only that."""
    for seed in range(60):
        game = SevensGame(rules, library, players=4, virtual=2, level="card", seed=seed)
        game.deal()
        holder = next(s for s, h in enumerate(game.hands) if rules.symbol("diamonds7") in h)
        if holder != 1:
            continue
        opener = game.open()
        assert opener == 1
        first, second = game.log[0], game.log[1]
        assert first.seat == 1 and first.action == "pass" and first.runs == 1 and "7♦" in first.note
        assert second.seat == 2 and second.action == "open" and second.card == "7♦" and second.runs == 1
        assert game.virtual.stats.protocol_runs == 2
        return
    pytest.fail("no seed puts 7♦ with the second virtual player")


def test_card_level_game_passes_every_check_and_is_reproducible(library: Library, rules: LayoutRules) -> None:
    kind = find_kind("layout")
    settings = PlaySettings(players=4, virtual=2, level="card", seed=1)
    first = kind.play(rules, library, settings).to_json()
    assert first == kind.play(rules, library, settings).to_json()
    assert first["all_checks_passed"] and first["protocol_runs"] > 0
    assert first["checks_passed"] == 6 * first["protocol_runs"]
    assert sorted(first["ranking"]) == [1, 2, 3, 4] and first["winner"] == first["ranking"][0]
    played = [t["card"] for t in first["log"] if t.get("card")]
    assert len(played) == len(set(played)) and played[0] == "7♦"
    # Virtual players pass only when the protocol found nothing; a pass costs one run.
    assert all(
        t["runs"] == 1 for t in first["log"] if t["seat"] in (1, 2) and t["action"] in ("play", "pass")
    )


def test_card_level_and_rule_level_choose_alike(library: Library, rules: LayoutRules) -> None:
    rng = random.Random(3)
    samples = {}
    for level in ("card", "rule"):
        choices: list[tuple[tuple[str, ...], str]] = []
        seed = 0
        while len(choices) < 200:
            game = SevensGame(rules, library, players=4, virtual=2, level=level, seed=7000 + seed)
            game.play()
            choices += game.virtual.stats.choices
            seed += 1
        samples[level] = binned(uniform_transform(choices, rng))
    uniform = {i: 0.1 for i in range(10)}
    assert goodness_of_fit("card level", samples["card"], uniform).p > 0.001
    assert two_sample("card vs rule", samples["card"], samples["rule"]).p > 0.001


def test_the_protocol_verifies_on_a_reduced_table(library: Library) -> None:
    report = verify(library, library.protocol("card-selection"), scenario="sevens-mini")
    assert report.ok and report.inputs == 30
    assert report.scenario is not None and "hearts 5..8" in report.scenario["state"]


@pytest.mark.parametrize(
    ("change", "check"),
    [
        (("bit(1) if valid(M[1, j]) else bit(0)", "bit(0) if valid(M[1, j]) else bit(1)"), "correct"),
        (
            (
                '    shuffle:\n      scramble: "columns(M)"\n'
                "      how: Put each column of four cards in an envelope, "
                "mix all envelopes thoroughly, and lay them out in a row again.\n",
                "    note: the shuffle is left out\n",
            ),
            "secure",
        ),
    ],
)
def test_a_broken_protocol_fails_on_the_sevens_table(
    variant: Callable[..., Library], change: tuple[str, str], check: str
) -> None:
    lib = variant("card-selection", change)
    report = verify(lib, lib.protocol("card-selection"), scenario="sevens-mini")
    assert check in report.failed()
