"""A shedding game's kit from YAML alone: Crazy Eights' cards, labels and booklet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from tests.kitgen.conftest import CRAZY_EIGHTS_KIT
from tests.kitgen.pdftext import page_text, page_texts


@pytest.fixture(scope="module")
def crazy_eights_kit(built_kit: Any) -> tuple[Path, dict[str, Any]]:
    """``kitgen build crazy-eights --players 4 --virtual 2 --no-previews --runs 20 --exact-hands 1``,
    built once per test session (tests/conftest.py's built_kit): kit/test_kit.py reads its claim
    on the whole deck."""
    return built_kit(**CRAZY_EIGHTS_KIT)


def test_the_kit_has_cards_labels_and_booklet(crazy_eights_kit: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = crazy_eights_kit
    assert {f["path"] for f in manifest["files"]} == {
        "cards.pdf",
        "labels.pdf",
        "booklet.pdf",
        "booklet.json",
        "printing-guide.txt",
        "shopping-list.txt",
        "index.html",
    } | {f"view/{p}.html" for p in ("card-selection-fast", "covert-lottery-fast", "six-card-and-direct")}
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    assert items["deck"]["count"] == 52
    assert items["choice"]["name"] == "suit choice cards" and items["choice"]["count"] == 4
    assert "plays an eight" in items["choice"]["why"]
    assert [v["protocol"] for v in manifest["verification"]] == [
        "card-selection-fast",
        "covert-lottery-fast",
        "six-card-and-direct",
    ]
    assert manifest["verification"][0]["scenario"]["name"] == "crazy-eights-mini"
    assert manifest["statistical_verification"]["verified"]


def test_the_deck_and_booklet_read_as_the_game(crazy_eights_kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = crazy_eights_kit
    # The card types' front pages (the backs and calibration pages name no suit).
    fronts = sorted({n for p in manifest["card_pages"] for n in p["fronts"]})
    pages = PdfReader(str(folder / "cards.pdf")).pages
    cards = " ".join(page_text(pages[n - 1]) for n in fronts)
    for suit in ("Clubs", "Diamonds", "Hearts", "Spades"):
        assert suit in cards
    booklet = " ".join(page_texts(folder / "booklet.pdf"))
    text = " ".join(booklet.split())
    assert "The rules: Crazy Eights" in text
    assert "If it is an eight, shuffle the suit choice cards" in text
    assert "up to 3 cards in all" in text
