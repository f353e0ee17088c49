"""Puzzles of the uno-puzzles kind: made as the rule set says, and every answer right by brute force."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from reference_engine.api import PlaySettings, SpecError, UsageError, find_kind, load_game, play
from reference_engine.hardness.puzzles import plan
from reference_engine.kinds.uno_puzzles import PuzzleKind, PuzzleRules, load_puzzle_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hardness"))
import referee


def _rules() -> PuzzleRules:
    rules = load_game("uno-puzzles")
    assert isinstance(rules, PuzzleRules)
    return rules


def _kind() -> PuzzleKind:
    kind = find_kind("uno-puzzles")
    assert isinstance(kind, PuzzleKind)
    return kind


def plain(cards: list) -> list[referee.Plain]:  # type: ignore[type-arg]
    return [(c.colour, c.number) for c in cards]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "mixed"])
def test_every_puzzle_is_answered_right(difficulty: str) -> None:
    rules = _rules()
    puzzles = _kind().puzzles(rules, 12, difficulty, 4)
    assert [p.number for p in puzzles] == list(range(1, 13))
    for p, (kind, level, target) in zip(puzzles, plan(12, difficulty, rules.spec)):
        assert (p.kind, p.level) == (kind, level)
        lv = rules.spec.levels[p.level]
        if p.kind == "chain":
            cards = plain(p.cards)
            assert p.playable == referee.solitaire(cards) == target
            if p.playable:
                assert referee.is_chain_of(plain(p.sequence or []), cards)
            else:
                assert p.reason is not None and p.reason.kind in lv.no_chain
            low, high = lv.chain_effort
            assert lv.chain_cards[0] <= len(cards) <= lv.chain_cards[1]
        else:
            starts = referee.uncooperative_winning_starts(plain(p.hand1), plain(p.hand2))
            assert p.loser == (2 if starts else 1) == target
            assert set(plain(p.winning_first_cards)) == starts
            low, high = lv.hand_effort
        assert low <= p.effort and (high is None or p.effort <= high)
        # Every card comes from the deck: at most as many copies as it has.
        deck = rules.spec.deck()
        used = p.cards or p.hand1 + p.hand2
        assert all(used.count(c) <= deck.count(c) for c in used)


def test_the_same_seed_gives_the_same_puzzles_and_another_seed_others() -> None:
    rules = _rules()
    one = [p.to_json() for p in _kind().puzzles(rules, 6, "mixed", 1)]
    assert one == [p.to_json() for p in _kind().puzzles(rules, 6, "mixed", 1)]
    assert one != [p.to_json() for p in _kind().puzzles(rules, 6, "mixed", 2)]


def test_the_plan_mixes_kinds_levels_and_answers() -> None:
    rules = _rules()
    shape = plan(12, "mixed", rules.spec)
    assert [level for _, level, _ in shape] == ["easy"] * 4 + ["medium"] * 4 + ["hard"] * 4
    assert [k for k, _, _ in shape].count("who-wins") == 4
    assert {t for k, _, t in shape if k == "who-wins"} == {1, 2}
    assert {t for k, _, t in shape if k == "chain"} == {True, False}
    with pytest.raises(UsageError, match="difficulty is one of"):
        plan(3, "brutal", rules.spec)


def test_puzzles_are_not_played() -> None:
    with pytest.raises(UsageError, match="puzzle kit, not a game to play"):
        play("uno-puzzles", settings=PlaySettings())


def test_a_bad_puzzle_rule_set_names_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "game: bad\nkind: uno-puzzles\ntitle: t\ndeck: {colours: [red], numbers: 9..1}\n"
        "puzzles:\n  difficulty: brutal\n  levels:\n    easy: {}\n"
    )
    with pytest.raises(SpecError) as info:
        load_puzzle_rules(bad)
    found = {p.path: p.message for p in info.value.problems}
    assert "write a range like 3..5" in found["deck.numbers"]
    assert "'brutal'" in found["puzzles.difficulty"]
    assert "missing" in found["puzzles.levels"] or "medium" in found["puzzles.levels"]
