"""Game rule sets: the deck, validity as data, hand-dependent rules, clear errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from reference_engine.errors import SpecError
from reference_engine.kinds import games_dir, load_game
from reference_engine.kinds.shedding import load_rules


def test_uno_deck_has_108_cards_of_the_official_mix() -> None:
    rules = load_rules("uno")
    deck = rules.deck()
    assert len(deck) == 108
    kinds = Counter(str(c.attrs["kind"]) for c in deck)
    # Independent count from the official rules (UNO is hard, Appendix A): 19 numbers per colour,
    # 8 each of draw two, reverse and skip, 4 wild and 4 wild draw four.
    assert kinds == {"number": 76, "draw2": 8, "reverse": 8, "skip": 8, "wild": 4, "wild4": 4}
    assert Counter(c.name for c in deck)["red0"] == 1 and Counter(c.name for c in deck)["red7"] == 2
    assert {c.glyph for c in deck} >= {"R7", "Y+2", "GS", "BR", "W", "W+4"}


def test_validity_matches_the_papers_step6_example() -> None:
    """UNO paper, Section 4, Step 6: with 2R on top, 7R, W, 2Y and +R are valid; 4G, 6B, SY, 1B are not."""
    rules = load_rules("uno")
    valid = rules.validity(rules.symbol("red2"), "red")
    ok = ["red7", "wild", "yellow2", "red_draw2"]
    bad = ["green4", "blue6", "yellow_skip", "blue1"]
    assert [valid(rules.symbol(n)) for n in ok] == [True] * 4
    assert [valid(rules.symbol(n)) for n in bad] == [False] * 4


def test_named_colour_after_a_wild() -> None:
    rules = load_rules("uno")
    valid = rules.validity(rules.symbol("wild"), "green")
    assert valid(rules.symbol("green9")) and not valid(rules.symbol("red9"))


def test_official_wild_draw_four_depends_on_the_hand() -> None:
    official = load_rules("uno-official")
    assert official.hand_dependent and not load_rules("uno").hand_dependent
    w4, red1, blue1 = (official.symbol(n) for n in ("wild4", "red1", "blue1"))
    top = official.symbol("red5")
    assert not official.validity(top, "red", [red1, w4])(w4)
    assert official.validity(top, "red", [blue1, w4])(w4)
    assert official.validity(top, "red", [red1, w4], bluff=True)(w4)


BAD = """\
game: broken
title: t
deck:
  colors: {red: {letter: R}}
  types:
    - {kind: number, per_color: true, values: "0..1", copies: 1, points: value}
rules:
  valid: "card.color == colour"
  effects:
    number: [explode]
    jump: [skip]
  draw: {count: 1, play_drawn: sometimes}
"""


def test_rule_set_errors_name_file_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(BAD)
    with pytest.raises(SpecError) as info:
        load_rules(str(path))
    found = {(p.line, p.path): p.message for p in info.value.problems}
    assert "unknown name 'colour'" in found[(8, "rules.valid")]
    assert "unknown effect 'explode'" in found[(10, "rules.effects.number[0]")]
    assert "no card of kind 'jump'" in found[(11, "rules.effects.jump")]
    assert "expected one of if_valid, never" in found[(12, "rules.draw.play_drawn")]


def test_every_rule_set_loads() -> None:
    for path in games_dir().glob("*.yaml"):
        assert load_game(path.stem).name == path.stem


def test_official_wild_draw_four_on_a_wild_draw_four_needs_the_hand_clause_too() -> None:
    """The referee's finding: with W+4 on top, colour in force green, a hand holding a green card
    and a W+4 may not play the W+4 (the face-equality clause W+4 = W+4 had let it through)."""
    official = load_rules("uno-official")
    w4, green3, red1 = (official.symbol(n) for n in ("wild4", "green3", "red1"))
    valid = official.validity(w4, "green", [green3, w4])
    assert not valid(w4) and valid(green3)
    assert official.validity(w4, "green", [red1, w4])(w4)  # no green card: allowed
    assert official.validity(official.symbol("wild"), "green", [green3, w4])(w4) is False
    assert official.validity(w4, "green", [green3, w4], bluff=True)(w4)  # a bluff, challengeable
    # The plain rule set of the paper keeps wild draw four always playable.
    plain = load_rules("uno")
    assert plain.validity(w4, "green")(w4)
