"""A kit's figures: both profiles everywhere, sentences derived from the runs, build warnings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kitgen.cli.console import kit_lines
from kitgen.cli.main import main
from kitgen.core.manifest import KitManifest
from kitgen.cost.kitcost import (
    SHEETS_WARNING,
    TURN_WARNING_MINUTES,
    Costs,
    KitCost,
    build_warnings,
    kit_cost,
)
from kitgen.cost.timewords import shuffles_compared as _shuffles_compared
from reference_engine.api import Library


class FakeCosts(Costs):
    """The weighted example of docs/strategy.md as it builds today: 65 minutes a turn."""

    footprint = None
    unit = ""

    def __init__(self, cautious_turn: float) -> None:
        self.turn = cautious_turn

    def to_json(self) -> dict[str, object]:
        return {}

    def sentences(self) -> list[str]:
        return []

    def cover_sentence(self) -> str:
        return ""

    def longest_turn(self) -> tuple[str, float]:
        return "a virtual turn", self.turn

    def summary(self) -> dict[str, object]:
        return {}


def test_a_long_turn_and_many_sheets_warn() -> None:
    warnings = build_warnings(FakeCosts(65.0), 292)
    assert len(warnings) == 2
    assert "a virtual turn takes up to 65 minutes" in warnings[0] and "cautious" in warnings[0]
    assert "292 sheets of card stock" in warnings[1]
    assert build_warnings(FakeCosts(TURN_WARNING_MINUTES), SHEETS_WARNING) == []  # at the limits: quiet
    assert build_warnings(None, 12) == []  # a protocol kit with no figures
    assert "hours" in build_warnings(FakeCosts(700.0), 1)[0]  # 11.7 hours is said in hours


def _manifest(warnings: list[str] | None) -> KitManifest:
    cards = {
        "pages": 4, "sheets": 3, "per_sheet": 9, "columns": 3, "rows": 3, "rotated": False,
        "calibration_pages": 2, "front_pages": [3], "back_pages": [4],
    }  # fmt: skip
    data: dict[str, Any] = {
        "kit": "fake", "kitgen": "0", "options": {"duplex": "long", "previews": False}, "paper": "a4",
        "card": {}, "profile": {}, "bom": {"items": [], "notes": [], "printed_cards": 9},
        "sheets": {"cards": cards, "labels": {"pages": 2, "labels": 3, "sheet": "cutout-a4"}},
        "booklet": None, "verification": [], "statistical_verification": None, "folder": "out",
    }  # fmt: skip
    if warnings is not None:
        data["warnings"] = warnings
    return KitManifest.from_json(data)


def test_the_console_says_each_warning_on_one_line() -> None:
    warnings = build_warnings(FakeCosts(65.0), 292)
    manifest = _manifest(warnings)
    lines = kit_lines(manifest)
    said = [line for line in lines if line.startswith("Warning: ")]
    assert len(said) == 2 and all("\n" not in line for line in said)
    assert manifest.to_json()["warnings"] == warnings  # and the manifest keeps them
    assert not any(line.startswith("Warning") for line in kit_lines(_manifest(None)))
    assert "warnings" not in _manifest([]).to_json()


@pytest.mark.parametrize(
    ("own", "paper", "words"),
    [
        (4.0, 5.0, "does 1 shuffle fewer per run, 4 instead of 5 on average"),
        (4.0, 4.0, "does the same shuffles, 4 per run on average"),
        (4.4, 6.4, "does 2 shuffles fewer per run, 4.4 instead of 6.4 on average"),
    ],
)
def test_the_shuffles_sentence_says_what_the_runs_counted(own: float, paper: float, words: str) -> None:
    assert _shuffles_compared(own, paper) == words


@pytest.fixture(scope="module")
def small_cost() -> KitCost:
    cost = kit_cost(Library(), "uno-small", "card-selection-fast", 3, 1, (56.0, 87.0), games=4)
    assert cost is not None
    return cost


def test_every_figure_has_its_cautious_figure_beside_it(small_cost: KitCost) -> None:
    data = small_cost.to_json()
    for key in ("virtual_turn_minutes", "first_turn_minutes", "game_minutes_mean", "game_minutes_p90"):
        assert data[f"{key}_cautious"] > data[key] > 0, key  # type: ignore[operator]
    assert data["paper"]["virtual_turn_minutes_cautious"] > data["paper"]["virtual_turn_minutes"]  # type: ignore[index]
    assert data["profiles"] == ["optimistic", "cautious"]
    first = small_cost.sentences()[0]
    low, high = data["virtual_turn_minutes"], data["virtual_turn_minutes_cautious"]
    assert f"about {round(low)}-{round(high)} minutes" in first  # type: ignore[arg-type]
    assert "3 players, 1 of them virtual" in first and "4 simulated games" in first


def test_the_paper_sentence_counts_the_shuffles_of_both_protocols(small_cost: KitCost) -> None:
    own, paper = small_cost.own, next(iter(small_cost.paper.values()))  # type: ignore[union-attr]
    assert paper.shuffles_per_run > own.shuffles_per_run > 0  # the quick lottery skips a shuffle
    text = " ".join(small_cost.sentences())
    assert "same shuffles and reveals" not in text
    assert _shuffles_compared(own.shuffles_per_run, paper.shuffles_per_run) in text


def test_a_comparison_says_its_seating(tmp_path: Path) -> None:
    cost = kit_cost(Library(), "uno-small", "card-selection-fast", 3, 1, (56.0, 87.0), None, ("uno",), 2)
    assert cost is not None
    (line,) = [s for s in cost.sentences() if s.startswith("For comparison")]
    assert "with 3 players, 1 of them virtual: about" in line
    assert cost.to_json()["compared"][0]["players"] == 3  # type: ignore[index]


def test_play_gives_both_figures_and_one_sentence() -> None:
    args = ["play", "uno-small", "--level", "rule", "--seed", "2"]
    played = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)["table_time"]
    assert played["game_minutes_cautious"] > played["game_minutes"] > 0
    assert played["virtual_turn_minutes_cautious"] > played["virtual_turn_minutes"]
    out = CliRunner().invoke(main, args).stdout
    assert played["text"] in out and "minutes" in played["text"] and "-" in played["text"]
