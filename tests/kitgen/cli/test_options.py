"""Options are checked before any work starts: a refused option exits 2 with one line that says
why in the user's words; an accepted spelling is accepted everywhere."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from kitgen.kinds.kind import _KIT_KINDS

INTERNAL = [k.kind for k in _KIT_KINDS.values() if k.kind != "uno-puzzles"] + ["kit kind", " kind "]


def refused(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    out = result.output.strip()
    assert len(out.splitlines()) == 1, out
    for word in INTERNAL:
        assert word not in out, (word, out)
    return out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["build", "uno", "--card-size", "10x10mm"], "too small for the card faces: the smallest is 41x62mm"),
        (["build", "uno", "--card-size", "62x30mm"], "the smallest is 41x62mm (either way round)"),
        (["build", "gakmoro", "--virtual", "2"], "it has no virtual players"),
        (["build", "gakmoro", "--virtual", "0"], "--virtual does not apply to gakmoro"),
        (["build", "gakmoro", "--runs", "5"], "--runs does not apply to gakmoro"),
        (["build", "sevens", "--wild4", "bluff"], "it has no wild draw four"),
        (["build", "hearts", "--discard-owner"], "it has no discard pile"),
        (["build", "uno", "--count", "3"], "--count does not apply to uno: it is a card game with virtual"),
        (["build", "uno-puzzles", "--virtual", "1"], "--virtual does not apply to uno-puzzles"),
        # A kit needs at least one person at the table (issue 39): all virtual only with --operator.
        (["build", "uno", "--virtual", "4"], "--virtual 4 equals --players 4: a kit needs at least"),
        (["build", "daifugo", "--players", "3", "--virtual", "3"], "give --operator for one person"),
        (["build", "uno", "--virtual", "2", "--operator"], "--operator is for a table of virtual players"),
        (["build", "gakmoro", "--operator"], "--operator does not apply to gakmoro"),
        (["booklet", "sevens", "--players", "3", "--virtual", "3"], "a kit needs at least one person"),
    ],
)
def test_refused_with_one_line(args: list[str], says: str, tmp_path: Path) -> None:
    out = refused(*args, "-o", str(tmp_path / "k"))
    assert says in out
    assert not (tmp_path / "k").exists()


def test_an_unknown_paper_names_the_choices(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "uno", "--paper", "A5", "-o", str(tmp_path / "k")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error") and "Invalid value for '--paper': 'A5' is not one of" in last
    assert "'a4', 'letter', 'a3', 'tabloid'" in last


def test_oversized_cards_are_refused_before_verification(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kitgen.kit.build as kit

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("verification ran before the card size was checked")

    monkeypatch.setattr(kit, "verify_protocols", never)
    out = refused("build", "uno", "--card-size", "300x400mm", "-o", str(tmp_path / "k"))
    assert "does not fit on a 210x297mm page" in out
    assert not (tmp_path / "k").exists()


def test_the_smallest_card_is_accepted_and_passes_the_page_check(tmp_path: Path) -> None:
    from kitgen.paper.pagecheck import check_kit

    out = tmp_path / "k"
    result = CliRunner().invoke(
        main, ["build", "uno", "--virtual", "0", "--card-size", "41x62mm", "--no-previews", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert [str(f) for f in check_kit(out) if f.file == "cards.pdf"] == []


@pytest.mark.parametrize("spelling", ["A4", "a4", "Letter"])
def test_paper_names_ignore_case(spelling: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "build",
            "uno",
            "--virtual",
            "0",
            "--no-previews",
            "--paper",
            spelling,
            "-o",
            str(tmp_path / "k"),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.output)
    assert manifest["options"]["paper"] == spelling.lower()


def test_booklet_paper_ignores_case(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "booklet",
            "six-card-and",
            "--paper",
            "LETTER",
            "--no-previews",
            "-o",
            str(tmp_path / "b"),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["paper"] == "US Letter"


def test_no_virtual_players_no_viewer_announced(tmp_path: Path, built_kit: Callable[..., Any]) -> None:
    """No viewer, and none announced, without virtual players; with one (the session's default kit,
    tests/conftest.py) the viewer is written and `kitgen build`'s summary (kit_lines, what the
    command prints) announces it. A uno-small kit built for the contrast cost 9.8 s of CPU."""
    from kitgen.cli.console import kit_lines
    from kitgen.core.manifest import from_json

    out = tmp_path / "k"
    result = CliRunner().invoke(main, ["build", "uno", "--virtual", "0", "--no-previews", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert not (out / "view").exists()
    assert "view/" not in result.output
    assert "1 label on" in result.output
    folder, _ = built_kit()
    summary = "\n".join(
        kit_lines(from_json(json.loads((folder / "manifest.json").read_text(encoding="utf-8"))))
    )
    assert (folder / "view").is_dir() and "view/" in summary


def test_an_operator_kit_says_who_runs_the_table() -> None:
    """With every player virtual the words never say "0 people": the seating names the operator,
    the set-up says the operator runs the protocol, and the figures say the operator alone works."""
    from kitgen.booklet.book import Booklet
    from kitgen.booklet.frontchapters import setup_values
    from kitgen.core.words import seating

    assert seating(4, 4) == "4 virtual players and an operator"
    assert seating(4, 1) == "4 players, 1 of them virtual" and seating(3, 0) == "3 players"
    b = Booklet("k", "t", "s", "game", [], [], players=4, virtual=4)
    values = setup_values(b)
    assert "0 people" not in str(values["seating"]) and "an operator" in str(values["seating"])
    assert values["who"] == "the operator runs"
    three = setup_values(Booklet("k", "t", "s", "game", [], [], players=4, virtual=3))
    assert "1 person and 3 virtual" in str(three["seating"]) and three["who"] == "the people at the table run"
