"""Crazy Eights, a shedding game written in YAML alone: it loads, plays at card level with
virtual players, and its protocol verifies on its own reduced deck and on its full deck."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from reference_engine.kinds import PlaySettings, find_kind, load_game
from reference_engine.kinds.shedding import RuleSet
from reference_engine.registry import Library
from reference_engine.verify import verify, verify_runs

ROOT = Path(__file__).resolve().parents[4]


def test_the_deck_is_the_standard_52_cards() -> None:
    rules = load_game("crazy-eights")
    assert isinstance(rules, RuleSet) and rules.kind == "shedding"
    deck = rules.deck()
    assert len(deck) == 52 and len({c.name for c in deck}) == 52
    assert Counter(str(c.attrs["color"]) for c in deck) == {
        s: 13 for s in ("clubs", "diamonds", "hearts", "spades")
    }
    assert {c.glyph for c in deck if c.attrs["kind"] == "eight"} == {"8♣", "8♦", "8♥", "8♠"}
    assert rules.hand_size_for(2) == 7 and rules.hand_size_for(4) == 5
    valid = rules.validity(rules.symbol("hearts5"), "hearts")
    assert (
        valid(rules.symbol("hearts2"))
        and valid(rules.symbol("clubs_eight"))
        and valid(rules.symbol("diamonds5"))
    )
    assert not valid(rules.symbol("spades9")) and not valid(rules.symbol("spades_king"))


def test_no_python_names_the_game() -> None:
    """The proof that the registry and the rule-set language are general (issue 11)."""
    for folder in ("reference_engine", "kitgen"):
        for path in (ROOT / folder).rglob("*.py"):
            assert "crazy" not in path.read_text(encoding="utf-8").lower(), path


def test_card_level_game_with_virtual_players(library: Library) -> None:
    kind = find_kind("shedding")
    settings = PlaySettings(players=4, virtual=2, level="card", seed=1)
    first = kind.play(load_game("crazy-eights"), library, settings).to_json()
    again = kind.play(load_game("crazy-eights"), library, settings).to_json()
    assert first == again and first["all_checks_passed"]
    assert first["checks_passed"] == 6 * first["protocol_runs"] > 0
    turns = [t for hand in first["log"] for t in hand if t["seat"] in (1, 2)]
    assert len(turns) == first["virtual_turns"]
    # A virtual player draws one card at a time (at most three) and the table runs the
    # protocol after every card drawn.
    assert all(t["runs"] == 1 + t.get("drew", 0) for t in turns)
    assert max(t.get("drew", 0) for t in turns) <= 3
    assert first["protocol_runs"] == sum(t["runs"] for t in turns)


def test_the_protocol_verifies_on_the_games_own_reduced_deck(library: Library) -> None:
    report = verify(library, library.protocol("card-selection"), scenario="crazy-eights-mini")
    assert report.ok, report.checks
    assert report.scenario is not None and report.scenario["game"] == "crazy-eights"
    assert report.inputs == 30
    assert "top card 5♥, suit hearts" in report.scenario["state"]


def test_the_protocol_checks_statistically_on_the_full_deck(library: Library) -> None:
    report = verify_runs(library, library.protocol("card-selection"), 30, 2, "crazy-eights")
    assert report.ok and report.method == "statistical"
    assert report.resources["cards"] == 51  # every card but the top of the discard pile
