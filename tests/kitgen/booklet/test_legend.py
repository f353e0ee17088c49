"""The legend of card codes (kitgen.booklet.legend): every code a game booklet's pictures print is in it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kitgen.booklet.legend import card_words, game_card_legend
from reference_engine.api import Library, Symbol, glyph, load_game
from tests.kitgen.pdftext import page_texts

# One game of each kind in the fast tier (UNO for the shedding games); the other shedding games'
# booklets (a build each, 10-16 s of CPU, read by no other fast test) are the slow tier's.
# Daifugō last: its kit (about 35 s of CPU) is the session's one build for three files
# (kinds/test_climbing.py and booklet/test_tableplan.py read it too): when another xdist worker
# is building it, this file's other games run first rather than after a wait for its lock
# (at 703a834 this case took 19.4 s of wall time with two workers, the build being the other's).
GAMES = [
    "uno",
    *(pytest.param(g, marks=pytest.mark.slow) for g in ("uno-small", "uno-official", "crazy-eights")),
    "sevens",
    "hearts",
    "dominoes",
    "gakmoro",
    "daifugo",
]


def _pictured(data: dict[str, Any]) -> list[str]:
    """Every card name the booklet's pictures show (face up, or as the grey code of a face-down
    card), the spares' cards, and the worked example's cards."""
    out = []
    for sec in data["sections"]:
        for step in sec["steps"]:
            for d in step["diagrams"]:
                for reg in d["regions"]:
                    out += [c["symbol"] for row in reg["cells"] for c in row if c and c["symbol"]]
                out += list(d["taken"]) + list(d["returned"])
    out += [str(c) for c in data["game_example"].get("inputs", {}).get("cards", [])]
    return list(dict.fromkeys(out))


@pytest.mark.parametrize("ruleset", GAMES)
def test_every_code_in_the_pictures_is_in_the_legend(
    ruleset: str, game_booklet: Callable[[str], Path]
) -> None:
    folder = game_booklet(ruleset)
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    codes = data["card_codes"]["codes"]
    rules = load_game(ruleset)
    deck = {s.name: s for s in (rules.deck() if callable(getattr(rules, "deck", None)) else [])}
    pictured = _pictured(data)
    assert pictured
    library = Library()  # a family's glyph (Daifugō's λ1) is known once its protocol is loaded:
    for section in data["sections"]:  # the kit may have been built by another worker
        library.protocol(section["protocol"])
    for name in pictured:
        code = glyph(name)
        assert code in codes, (ruleset, name, code)
        if name in deck:  # a game card: the legend's words are the deck's
            assert codes[code] == card_words(rules, deck[name])
    # The legend is printed near the first picture and on the first quick reference page.
    pages = [" ".join(text.split()) for text in page_texts(folder / "booklet.pdf")]
    lines = data["card_codes"]["lines"]
    title = " ".join(data["sections"][0]["title"].split())
    at = next(
        i for i, p in enumerate(pages) if i > 1 and title in p and "Step 1." in p and "checklist" not in p
    )  # its first steps
    for line in lines:
        words = " ".join(line.split()[:6])
        assert words in pages[at], (line, at)  # on the page of the first steps, before their pictures
        assert any(words in p for p in pages if "Quick reference" in p), line


def test_the_legend_says_the_cards_in_the_games_words() -> None:
    uno = load_game("uno")
    legend = game_card_legend(uno, ["red8", "green_draw2"])
    assert legend.key == "The first letter is the colour: R red, Y yellow, G green, B blue."
    assert "R8 = red 8" in legend.cards and "G+2 = green draw two" in legend.cards
    assert {legend.explains(c) for c in ("RS", "RR", "W", "W+4", "B+2")} == {
        "red skip",
        "red reverse",
        "wild",
        "wild draw four",
        "blue draw two",
    }
    hearts = game_card_legend(load_game("hearts"))
    assert hearts.key.startswith("The sign at the end is the suit: ♣ clubs, ♦ diamonds, ♥ hearts, ♠ spades")
    assert hearts.explains("J♠") == "jack of spades" and hearts.explains("7♥") == "7 of hearts"
    dominoes = game_card_legend(load_game("dominoes"))
    assert dominoes.explains("3|5") == "the tile with 3 and 5 pips"
    assert dominoes.explains("4|4") == "the double 4 (4 pips on both halves)"


def _rules(colours: dict[str, dict[str, str]], cards: list[Symbol], names: dict[str, str]) -> Any:
    return SimpleNamespace(colors=colours, word="colour", card_names=names, deck=lambda: cards)


def test_a_new_deck_gets_a_legend_from_its_data() -> None:
    """A deck kitgen has never seen: its colours' letters and its kinds' names make the legend."""
    colours = {"purple": {"letter": "P", "name": "purple"}, "orange": {"letter": "O", "name": "orange"}}
    cards = [
        Symbol("purple3", "P3", 9001, {"color": "purple", "kind": "number", "face": "3", "value": 3}),
        Symbol("orange_flip", "OF", 9002, {"color": "orange", "kind": "flip", "face": "F", "value": None}),
        Symbol("purple_flip", "PF", 9003, {"color": "purple", "kind": "flip", "face": "F", "value": None}),
        Symbol("joker", "JK", 9004, {"color": "none", "kind": "joker", "face": "JK", "value": None}),
    ]
    legend = game_card_legend(_rules(colours, cards, {"flip": "flip (↻)"}), ["orange_flip"])
    assert legend.key == "The first letter is the colour: P purple, O orange."
    assert legend.cards == ["P3 = purple 3", "OF = orange flip", "JK = joker"]
    assert legend.explains("PF") == "purple flip" and legend.explains("JK") == "joker"


def test_codes_that_follow_no_pattern_are_explained_one_by_one() -> None:
    """Without a colour key, only the printed examples are explained: a code the legend does not
    print is not claimed (the pictures' test would fail on it)."""
    colours = {"purple": {"letter": "P", "name": "purple"}}
    cards = [
        Symbol("purple3", "X3", 9005, {"color": "purple", "kind": "number", "face": "3", "value": 3}),
        Symbol("purple4", "Y4", 9006, {"color": "purple", "kind": "number", "face": "4", "value": 4}),
    ]
    legend = game_card_legend(_rules(colours, cards, {}), [])
    assert legend.key == ""
    assert legend.explains("X3") == "purple 3" and legend.explains("Y4") is None


def test_a_table_kit_refuses_a_rule_set_without_a_deck_naming_it() -> None:
    """A kit's deck faces need a rule set with cards and colours (kitgen.kinds.virtual.WithDeck);
    another kind's rules are refused with the game's name, not an AttributeError."""
    import pytest

    from kitgen.kinds.table import _deck
    from reference_engine.api import UsageError, load_game

    assert _deck(load_game("uno")).cards
    with pytest.raises(UsageError, match="gakmoro has no deck of cards to print"):
        _deck(load_game("gakmoro"))
