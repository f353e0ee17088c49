"""A kit for a stronger virtual player: ``kitgen build uno --strategy weighted --weights ...``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from kitgen.core.optionspec import KindValues
from kitgen.kit.build import KitOptions, build
from tests.kitgen.pdftext import page_texts

WEIGHTS = "action=3,number=1,wild=1"


@pytest.fixture(scope="module")
def weighted_kit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("kits") / "uno-weighted"
    options = KitOptions(
        ruleset="uno",
        players=4,
        virtual=1,
        output=str(folder),
        previews=False,
        runs=40,
        own=KindValues.of(strategy="weighted", weights=WEIGHTS),
    )
    return folder, build(options).to_json()


def test_the_kit_verifies_and_counts_the_weighted_protocol(weighted_kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = weighted_kit
    assert folder.name == "uno-weighted" and manifest["options"]["extra"] == {
        "strategy": "weighted",
        "weights": WEIGHTS,
    }
    assert [v["protocol"] for v in manifest["verification"]] == [
        "weighted-selection",
        "covert-lottery-modified",
        "six-card-and",
    ]
    assert all(v["verified"] for v in manifest["verification"])
    statistical = manifest["statistical_verification"]
    assert statistical["verified"] and "weighted (" in statistical["checks"][0]["figure"]
    items = {i["key"]: i for i in manifest["bom"]["items"]}
    k = manifest["bom"]["worst_case"]["table"]
    hand = manifest["bom"]["worst_case"]["hands"][0]
    w = 3
    assert items["alpha"]["needed"] == items["beta"]["needed"] == w * k + 2
    assert items["ticket"]["needed"] == w * hand and "λ1 to λ" in items["ticket"]["name"]
    # The paper's count (2w + 1)k + w k1 + 4, said as a number and in words.
    assert f"needs {(2 * w + 1) * k + w * hand + 4} helper cards" in " ".join(manifest["bom"]["notes"])


def test_the_booklet_teaches_a_stronger_virtual_player(
    weighted_kit: tuple[Path, dict[str, Any]], built_kit: Callable[..., tuple[Path, dict[str, Any]]]
) -> None:
    folder, manifest = weighted_kit
    text = " ".join(" ".join(page_texts(folder / "booklet.pdf")).split())
    assert "A stronger virtual player." in text
    assert "action cards 3, number cards 1, wild cards 1" in text
    assert "Weighted card selection" in text and "λ" in text
    data = json.loads((folder / "booklet.json").read_text(encoding="utf-8"))
    assert data["game_example"]["weights"] == {"action": 3, "number": 1, "wild": 1}
    assert data["game_example"]["params"]["w"] == 3
    # The weighted turn costs more at the table than the paper's: w tickets per card, w k1 lottery piles.
    # The same seating with the rule set's own protocol, costed by the same model and games: the
    # default kit's figures (the session's default kit, tests/conftest.py's built_kit, which other
    # files read too: not costed again here).
    from reference_engine.api import load_game

    _, default = built_kit()
    seating = ("ruleset", "players", "virtual", "card_size")
    assert {k: default["options"][k] for k in seating} == {k: manifest["options"][k] for k in seating}
    uniform = default["table_time"]
    assert uniform["protocol"] == load_game("uno").virtual_protocol
    weighted = manifest["table_time"]
    assert weighted["protocol"] == "weighted-selection"
    assert weighted["virtual_turn_minutes"] > 2 * uniform["virtual_turn_minutes"] > 0


@pytest.mark.slow  # reads every page of a whole kit; the fast tier checks uno's, gakmoro's and two games'
def test_the_kit_speaks_plain_words(weighted_kit: tuple[Path, dict[str, Any]], plain_words: Any) -> None:
    """The weighted kit's pages in a player's words: the weights as "action 3", not the option's
    "action=3"; the ticket cards named, not the paper's λ_j."""
    folder, _ = weighted_kit
    assert plain_words(folder) == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["build", "uno", "--weights", "action=2"], "--weights needs --strategy weighted"),
        (["build", "uno", "--strategy", "weighted"], "needs --weights"),
        (["build", "uno", "--strategy", "weighted", "--weights", "acton=2"], "no class or card kind 'acton'"),
        (
            ["build", "uno", "--strategy", "weighted", "--weights", "wild=2", "--virtual", "0"],
            "for virtual players",
        ),
        (["build", "sevens", "--strategy", "weighted", "--weights", "wild=2"], "--strategy"),
        (["build", "gakmoro", "--strategy", "weighted"], "--strategy"),
    ],
)
def test_bad_strategy_options_are_refused(tmp_path: Path, args: list[str], says: str) -> None:
    result = CliRunner().invoke(main, [*args, "-o", str(tmp_path / "kit"), "--no-previews"])
    assert result.exit_code == 2, result.output
    assert says in result.output
    assert not (tmp_path / "kit").exists()
