"""The kits of the UNO paper's other games: Sevens, Hearts and Dominoes (issue 12)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.kitgen.conftest import GAME_KIT_OPTIONS
from tests.kitgen.pdftext import page_texts

GAMES = {
    "sevens": ("card-selection-fast", "sevens-mini", 52),
    "hearts": ("card-selection-original-fast", "hearts-mini", 52),
    "dominoes": ("card-selection-fast", "dominoes-mini", 28),
}


@pytest.fixture(scope="module", params=sorted(GAMES))
def kit(
    request: pytest.FixtureRequest, built_kit: Callable[..., tuple[Path, dict[str, Any]]]
) -> tuple[str, Path, dict[str, Any]]:
    """The game's kit for 4 players, 2 of them virtual, built once per session: the table-picture,
    checklist and legend tests read its booklet too (tests/kitgen/conftest.py, KIT_BOOKLETS)."""
    game = str(request.param)
    folder, manifest = built_kit(ruleset=game, **GAME_KIT_OPTIONS)
    return game, folder, manifest


def text(path: Path) -> str:
    return " ".join(" ".join(page_texts(path)).split())


def test_cards_labels_and_booklet(kit: tuple[str, Path, dict[str, Any]]) -> None:
    game, folder, manifest = kit
    protocol, scenario, deck = GAMES[game]
    assert {f["path"] for f in manifest["files"]} == {
        "cards.pdf",
        "labels.pdf",
        "booklet.pdf",
        "booklet.json",
        "printing-guide.txt",
        "shopping-list.txt",
        "index.html",
    } | {f"view/{v['protocol']}.html" for v in manifest["verification"]}  # a page per protocol taught
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    assert items["deck"]["count"] == deck
    k = manifest["bom"]["worst_case"]["table"]
    assert items["alpha"]["needed"] == items["beta"]["needed"] == k + 2
    owners = manifest["bom"]["owners"]
    assert owners[:2] == ["Virtual 1", "Virtual 2"] and [
        f"theta{i}" in items for i in range(1, len(owners) + 1)
    ]
    first = manifest["verification"][0]
    assert first["protocol"] == protocol and first["scenario"]["name"] == scenario and first["verified"]
    assert manifest["statistical_verification"]["verified"]
    booklet = text(folder / "booklet.pdf")
    assert "A virtual player's turn" in booklet and "What a virtual turn costs." in booklet
    assert f"The rules: {manifest['game']['title']}" in booklet


def test_tiles_are_printed_as_tiles(kit: tuple[str, Path, dict[str, Any]]) -> None:
    game, folder, manifest = kit
    if game != "dominoes":
        pytest.skip("only the tile game prints tiles")
    assert manifest["card"]["name"].startswith("Domino")
    cards = text(folder / "cards.pdf")
    assert "6|6" in cards and "0|0" in cards
    assert "Boneyard" in manifest["bom"]["owners"]
