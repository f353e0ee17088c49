"""Hearts (UNO paper, Section 5.2): points, following suit, the original covert lottery (a random
card when none follows suit), the common options, and the protocol verified exactly."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from reference_engine.kinds import PlaySettings, find_kind, load_game
from reference_engine.kinds.trick import HeartsGame, TrickRules
from reference_engine.registry import Library
from reference_engine.verify import verify

HEARTS = Path(__file__).resolve().parents[4] / "rulesets" / "games" / "hearts.yaml"


@pytest.fixture(scope="module")
def rules() -> TrickRules:
    loaded = load_game("hearts")
    assert isinstance(loaded, TrickRules)
    return loaded


def test_points_and_following_suit(rules: TrickRules) -> None:
    deck = rules.deck()
    assert len(deck) == 52 and sum(rules.points(c) for c in deck) == 26
    assert rules.points(rules.symbol("spades_queen")) == 13 and rules.points(rules.symbol("hearts2")) == 1
    follow = rules.validity("clubs")
    assert follow(rules.symbol("clubs9")) and not follow(rules.symbol("hearts9"))
    assert all(rules.validity(None)(c) for c in deck)  # the leader plays any card
    unbroken = rules.validity(None, broken=False)
    assert not unbroken(rules.symbol("hearts9")) and unbroken(rules.symbol("spades_queen"))


def test_a_round_at_card_level_passes_every_check(library: Library, rules: TrickRules) -> None:
    kind = find_kind("trick")
    settings = PlaySettings(players=4, virtual=2, level="card", seed=4, options={"rounds": 1})
    first = kind.play(rules, library, settings).to_json()
    assert first == kind.play(rules, library, settings).to_json()
    assert first["all_checks_passed"] and first["protocol_runs"] == 26 == first["virtual_turns"]
    assert sum(first["scores"]) == 26  # every point is taken by somebody
    (log,) = first["log"]
    assert len(log) == 52 and len({t["card"] for t in log}) == 52


def test_the_original_lottery_plays_any_card_when_none_follows_suit(
    library: Library, rules: TrickRules
) -> None:
    """At card level, a virtual player without the led suit still plays (a random card), and the
    after-run checks accept it; with a card of the suit it must follow."""
    game = HeartsGame(rules, library, players=4, virtual=1, level="card", seed=1)
    game.deal(1)
    hand = game.hands[0]
    suits = {rules.suit(c) for c in hand}
    missing = (
        next(s for s in ("clubs", "diamonds", "spades", "hearts") if s not in suits)
        if len(suits) < 4
        else None
    )
    led = missing or rules.suit(hand[0])
    card, runs = game.choose(0, rules.validity(led))
    assert runs == 1 and card in game.hands[0]
    if missing is None:
        assert rules.suit(card) == led
    assert game.virtual.stats.protocol_runs == 1 and game.virtual.stats.checks == 6


def test_the_common_options(library: Library, tmp_path: Path) -> None:
    text = HEARTS.read_text(encoding="utf-8")
    for option in ("pass_three", "hearts_broken", "shoot_the_moon"):
        text = text.replace(f"{option}: false", f"{option}: true")
    path = tmp_path / "hearts.yaml"
    path.write_text(text, encoding="utf-8")
    options = load_game(str(path))
    assert isinstance(options, TrickRules) and all(options.options.values())
    game = HeartsGame(options, library, players=4, virtual=2, level="card", seed=2, max_rounds=2)
    result = game.play().to_json()
    assert result["all_checks_passed"]
    first = result["log"][0]
    passes = [t for t in first if t["action"] == "pass"]
    assert len(passes) == 12 and sum(t.get("runs", 0) for t in passes) == 6  # 3 cards per virtual player
    # Hearts broken: the engine checks every card (a ♥ led before one was played only when the
    # leader held nothing else); the rule itself is tested in test_points_and_following_suit.
    # Shooting the moon: a player who takes all 26 points gives 26 to everyone else.
    assert all(sum(r["points"]) in (26, 78) for r in result["round_results"])


def test_the_protocol_verifies_on_a_reduced_trick(library: Library) -> None:
    report = verify(library, library.protocol("card-selection-original"), scenario="hearts-mini")
    assert report.ok and report.inputs == 60
    # The original lottery: P_1 always plays; with no heart, either of its cards uniformly.
    played = report.check("correct")
    assert played is not None and "or part(cards, sizes, 1)" in played.figure


def test_a_broken_protocol_fails_on_the_hearts_table(variant: Callable[..., Library]) -> None:
    lib = variant(
        "card-selection-original",
        ("bit(1) if valid(M[1, j]) else bit(0)", "bit(0) if valid(M[1, j]) else bit(1)"),
    )
    report = verify(lib, lib.protocol("card-selection-original"), scenario="hearts-mini")
    assert "correct" in report.failed()
