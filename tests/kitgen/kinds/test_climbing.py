"""The Daifugō kit: cards, labels and a booklet for virtual players who play several cards."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from reference_engine.api import Library, load_game
from tests.kitgen.pdftext import page_texts


@pytest.fixture(scope="module")
def daifugo_kit(built_kit: Callable[..., tuple[Path, dict[str, Any]]]) -> tuple[Path, dict[str, Any]]:
    """`kitgen build daifugo --players 4 --virtual 1 --runs 20 --no-previews`, built once per session:
    the legend and checklist tests read its booklet too (tests/kitgen/conftest.py, KIT_BOOKLETS)."""
    return built_kit(ruleset="daifugo", players=4, virtual=1, previews=False, runs=20)


@pytest.fixture(scope="module")
def booklet_pages(daifugo_kit: tuple[Path, dict[str, Any]]) -> list[str]:
    """The text of each page of the kit's booklet, its white space made single spaces: extracted
    once for the file's tests (each extraction of the whole booklet is ~4 s of CPU)."""
    return [" ".join(text.split()) for text in page_texts(daifugo_kit[0] / "booklet.pdf")]


def test_the_kit_holds_what_a_virtual_turn_needs(daifugo_kit: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = daifugo_kit
    assert [v["protocol"] for v in manifest["verification"]] == [
        "play-selection-fast",
        "knockout-lottery",
        "covert-lottery-modified",
        "six-card-and",
    ]
    assert all(v["verified"] for v in manifest["verification"])
    assert manifest["statistical_verification"]["verified"]
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    assert items["deck"]["count"] == 52
    # Three ownership pairs per card, two tokens, and one pair per ticket for the quick version's
    # six-card ANDs done at once (one per λ label the kit needs).
    assert items["alpha"]["needed"] == items["beta"]["needed"] == 3 * 52 + 2 + items["label"]["needed"]
    assert items["label"]["needed"] >= manifest["bom"]["worst_case"]["tickets"]
    assert items["stop"]["needed"] == 1
    # What card-level games actually took out of the supply fits in the kit.
    from reference_engine.kinds.climbing import DaifugoGame

    rules = load_game("daifugo")
    most: dict[str, int] = {}
    for seed in range(3):
        game = DaifugoGame(rules, Library(), players=4, virtual=1, level="card", seed=seed)  # type: ignore[arg-type]
        game.play()
        for name, n in game.largest.helpers.items():
            most[name] = max(most.get(name, 0), n)
    assert most["alpha"] <= items["alpha"]["count"] and most["beta"] <= items["beta"]["count"]
    labels = [n for n in most if n.startswith("label")]
    assert max(int(n[5:]) for n in labels) <= items["label"]["count"]
    # The quick version's arrow cards (one card, either way round): the most out at once fit.
    assert max(most.get("up", 0), most.get("down", 0)) <= items["arrow"]["count"]


def test_the_booklet_states_the_rules_and_their_differences(
    daifugo_kit: tuple[Path, dict[str, Any]], booklet_pages: list[str]
) -> None:
    folder, _ = daifugo_kit
    text = " ".join(p for p in booklet_pages if p)
    assert "The rules: Daifugō (President)" in text
    assert "Where these rules differ from popular house rules" in text and "revolution" in text
    assert "Play selection, quick version (a virtual player's turn in Daifugō)" in text
    assert "What a virtual turn costs." in text
    assert (folder / "view" / "play-selection-fast.html").is_file()


def test_the_rules_page_says_each_rule_once() -> None:
    """The rules page prints the rule set's how-to-play paragraphs, its exact rule ("Playing a
    card.") and its notes: Daifugō's said how a trick ends, how the deck is dealt and what the
    ranking is twice, and what a play is three times. No run of six words is in two of them."""
    import re

    rules = load_game("daifugo")
    paragraphs = [*rules.booklet_texts["how_to_play"], rules.doc, rules.notes]  # type: ignore[attr-defined]

    def runs(text: str) -> set[tuple[str, ...]]:
        words = re.findall(r"\w+", text.lower())
        return {tuple(words[i : i + 6]) for i in range(len(words) - 5)}

    for i, one in enumerate(paragraphs):
        for other in paragraphs[i + 1 :]:
            assert not runs(one) & runs(other), (one, other)


def test_the_knockout_lottery_speaks_of_tickets(booklet_pages: list[str]) -> None:
    """The knockout lottery's section is written for sleeves (its "At the table." box: "Each
    candidate is a card sleeve lying back up"); a Daifugō table holds no sleeve for its candidates,
    its tickets (a λ label with its arrow card on top): the box says what a sleeve is here."""
    page = next(
        p for p in booklet_pages if "At the table." in p and "Knockout lottery on up-down cards A " in p
    )
    assert "At the table. In this kit each candidate is a ticket, not a sleeve" in page
    assert "Each candidate is a card sleeve" not in " ".join(booklet_pages)
    quick = [p for p in booklet_pages if "Quick reference: Knockout lottery on up-down cards" in p][-1]
    assert "How the cards show it. A sleeve: in this kit, a ticket" in quick


def test_the_booklet_is_at_unos_level(
    daifugo_kit: tuple[Path, dict[str, Any]], booklet_pages: list[str]
) -> None:
    """Issue 39: the whole-table picture and the card-code legend; the set-up names the play
    selection protocol (not the card selection's "plays one of its valid cards"); no engine
    notation ("k = 28") in the worked example or the turn's cost."""
    folder, _ = daifugo_kit
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    assert data["table_plan"]["boxes"] and data["card_codes"]
    chapters = [c["title"] for c in data["front"]]
    assert "The table at a virtual turn" in chapters
    pages = booklet_pages
    text = " ".join(p for p in pages if p)
    assert "run the play selection protocol for it, which plays one to four cards of one rank" in text
    assert "which plays one of its valid cards" not in text
    # Everything before the Validation's lead (it may open below the last protocol's end, not at
    # the top of a page).
    flat = [" ".join(p.split()) for p in pages]
    lead = "Before this booklet was made, the reference engine verified"
    end = next(i for i, p in enumerate(flat) if lead in p)
    for page in [*flat[:end], flat[end].split(lead)[0]]:
        assert "k = " not in page, page[:80]


@pytest.mark.slow  # reads every page of a whole kit; the fast tier checks uno's, gakmoro's and two games'
def test_the_kit_speaks_plain_words(daifugo_kit: tuple[Path, dict[str, Any]], plain_words: Any) -> None:
    """Every page for players (booklet but its Validation pages, card and label sheets, index,
    viewer) in a player's words: the play selection's places, variables and the paper's notation
    never printed (a king's K is a card, not the spec's place)."""
    folder, _ = daifugo_kit
    assert plain_words(folder) == []


def test_play_prints_the_game_and_its_ranking() -> None:
    result = CliRunner().invoke(
        main, ["play", "daifugo", "--players", "4", "--virtual", "2", "--level", "rule"]
    )
    assert result.exit_code == 0, result.output
    assert (
        "Ranking: 1." in result.output and "plays" in result.output and "leads a new trick" in result.output
    )


def test_the_kit_states_its_turns_and_games_as_the_readme_does(
    daifugo_kit: tuple[Path, dict[str, Any]], committed_figures: Any
) -> None:
    """Daifugō is costed like every kit: each virtual decision's run traced (issue 36, part 6)."""
    folder, manifest = daifugo_kit
    cost = manifest["table_time"]
    assert cost is not None and cost["protocol"] == "play-selection-fast"
    assert cost["virtual_turn_minutes_cautious"] > cost["virtual_turn_minutes"] > 0
    assert cost["first_turn_minutes"] > cost["virtual_turn_minutes"]  # the whole deck on the table
    assert cost["game_minutes_mean_cautious"] > cost["game_minutes_mean"] > cost["first_turn_minutes"]
    assert committed_figures(manifest, "daifugo") == []
    booklet = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    assert booklet["table_time"] == cost
