"""One source for every figure: the README's and docs' tables, `kitgen list --times --json` and
each kit's manifest give the same minutes and table sizes (issue 39, part 3).

The tables are generated from docs/kit-figures.json (``python bench/table_time.py --write-docs``);
these tests fail when the tables, the committed figures or the kits drift apart. The kits' own
manifests are compared with the committed figures where their test files build them
(tests/kitgen/kit/test_kit.py, kinds/test_climbing.py, kinds/test_sealed_bid.py,
kinds/test_shedding.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from kitgen.kinds import kit_kind
from kitgen.kit.figures import (
    FIGURES_FILE,
    committed,
    fill,
    game_kits,
    generated,
    summaries,
    time_lines,
    weighted_summaries,
)
from reference_engine.api import Library, load_game

ROOT = Path(__file__).resolve().parent.parent
FIELDS = (
    "turn_minutes",
    "turn_minutes_cautious",
    "first_turn_minutes",
    "first_turn_minutes_cautious",
    "game_minutes_mean",
    "game_minutes_mean_cautious",
    "virtual_draw",
    "table_width_cm",
    "table_depth_cm",
)
AGAIN = "run: python bench/table_time.py --write-docs"


def test_the_tables_are_generated_from_the_committed_figures() -> None:
    for path, text in generated(ROOT, committed(ROOT)).items():
        assert (ROOT / path).read_text(encoding="utf-8") == text, (
            f"{path} drifted from {FIGURES_FILE}: {AGAIN}"
        )


def test_every_game_kit_has_its_figures_committed() -> None:
    rows = committed(ROOT)["kits"]
    kits = [n for n in game_kits() if not kit_kind(load_game(n)).own_kit]
    assert sorted(rows) == sorted(kits), AGAIN
    for name, row in rows.items():
        missing = [f for f in FIELDS if f not in row]
        assert not missing, f"{name} lacks {missing}"
        assert row["turn_minutes_cautious"] >= row["turn_minutes"] > 0, name
    assert rows["gakmoro"]["turn"] == "round" and rows["gakmoro"]["players"] == 2
    assert rows["uno-official"]["build"] == "kitgen build uno-official --wild4 bluff"


def test_the_readme_table_says_what_the_kits_say() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, row in committed(ROOT)["kits"].items():
        (line,) = [x for x in readme.splitlines() if x.startswith(f"| `{name}`")]
        assert f"{row['table_width_cm']:.0f} × {row['table_depth_cm']:.0f} cm" in line, name
        assert f"{row['players']} players" in line, name
    assert " min (" in readme and " h / " in readme  # minutes, and hours over 90 minutes


def test_a_missing_marker_is_said() -> None:
    with pytest.raises(ValueError, match="figures:kits"):
        fill("no markers here", "kits", ["| x |"])


@pytest.mark.parametrize("name", ["gakmoro", "uno-small"])
def test_the_committed_figures_are_the_kits_own(name: str) -> None:
    """Two quick kits costed afresh (the whole catalogue: the slow test below)."""
    assert summaries(Library(), [name])[name] == committed(ROOT)["kits"][name], AGAIN


@pytest.mark.slow
def test_list_times_json_gives_the_committed_figures() -> None:
    result = CliRunner().invoke(main, ["list", "--times", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == committed(ROOT)["kits"], AGAIN


@pytest.mark.slow
def test_the_weighted_kits_figures_are_committed() -> None:
    assert weighted_summaries(Library()) == committed(ROOT)["weighted"], AGAIN


def test_list_times_writes_hours_over_90_minutes_and_each_seating() -> None:
    rows = committed(ROOT)["kits"]
    lines = time_lines(rows)
    (hearts,) = [x for x in lines if x.strip().startswith("hearts ")]
    assert re.search(r"a game [\d.]+-[\d.]+ h \(9 in 10: [\d.]+-[\d.]+ h\)", hearts), (
        hearts
    )  # never "821 min"
    for line in lines[1:]:
        minutes = [float(m) for m in re.findall(r"([\d.]+) min\b", line)]
        assert all(m <= 90 for m in minutes), line
    (small,) = [x for x in lines if x.strip().startswith("uno-small ")]
    assert "3 players, 1 virtual, 2 people working" in small


def test_json_without_times_is_refused() -> None:
    result = CliRunner().invoke(main, ["list", "--json"])
    assert result.exit_code == 2 and "--times" in result.output and "Traceback" not in result.output
