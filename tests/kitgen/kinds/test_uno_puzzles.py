"""The puzzle kit of "UNO is hard", read back: puzzle pages, solutions, booklet, options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from kitgen.cli.main import main
from kitgen.core.manifest import OwnKitManifest
from tests.kitgen.pdftext import page_text


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("kits") / "puzzles"
    code, out = run("build", "uno-puzzles", "--count", "6", "--seed", "3", "-o", str(folder), "--json")
    assert code == 0, out
    return folder, json.loads(out)


def _text(pdf: Path) -> list[str]:
    return [page_text(page) for page in PdfReader(pdf).pages]


def test_the_kit_has_its_files_and_previews(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = kit
    listed = {f["path"] for f in manifest["files"]}
    assert {"puzzles.pdf", "solutions.pdf", "booklet.pdf", "puzzles.json"} <= listed
    for name in ("puzzles", "solutions", "booklet"):
        pages = manifest["sheets"][name]["pages"]
        assert len(PdfReader(folder / f"{name}.pdf").pages) == pages
        assert {f"previews/{name}-p{i:03d}.png" for i in range(1, pages + 1)} <= listed
    assert manifest["options"] == {
        "ruleset": "uno-puzzles",
        "paper": "a4",
        "count": 6,
        "difficulty": "mixed",
        "seed": 3,
        "previews": True,
    }


def test_the_typed_puzzle_kit_manifest_writes_the_same_bytes(
    kit: tuple[Path, dict[str, Any]], manifest_round_trips: Any
) -> None:
    assert manifest_round_trips(kit[0]) is OwnKitManifest


def test_two_puzzles_a_page_and_every_solution(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = kit
    data = json.loads((folder / "puzzles.json").read_text(encoding="utf-8"))
    puzzles = data["puzzles"]
    assert len(puzzles) == 6 and data["colours"] == ["red", "yellow", "green", "blue"]
    pages = _text(folder / "puzzles.pdf")
    assert len(pages) == 3
    for page, pair in zip(pages, [puzzles[0:2], puzzles[2:4], puzzles[4:6]]):
        for p in pair:
            assert f"Puzzle {p['number']}" in page
            assert ("One chain" if p["kind"] == "chain" else "Who wins?") in page
    solutions = "\n".join(_text(folder / "solutions.pdf"))
    for p in puzzles:
        assert f"Puzzle {p['number']}" in solutions
        if p["kind"] == "who-wins":
            assert ("Player 1 wins" if p["loser"] == 2 else "Player 2 wins") in solutions
    assert solutions.count("Yes. One chain") == sum(p["kind"] == "chain" and p["playable"] for p in puzzles)
    assert solutions.count("No chain.") == sum(p["kind"] == "chain" and not p["playable"] for p in puzzles)


def test_the_booklet_explains_the_paper(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = kit
    text = " ".join(" ".join(_text(folder / "booklet.pdf")).split())
    for phrase in (
        "The graph view",
        "NP-complete",
        "Theorem 5",
        "Theorem 7",
        "matching",
        "How the puzzles were made",
    ):
        assert phrase in text


def test_the_same_options_give_the_same_bytes(tmp_path: Path) -> None:
    digests = []
    for k in range(2):
        folder = tmp_path / f"k{k}"
        code, out = run("build", "uno-puzzles", "--count", "3", "--no-previews", "-o", str(folder), "--json")
        assert code == 0, out
        digests.append({f["path"]: f["sha256"] for f in json.loads(out)["files"]})
    assert digests[0] == digests[1]


@pytest.mark.parametrize(
    "option",
    [["--players", "3"], ["--virtual", "1"], ["--duplex", "long"], ["--labels", "L7160"], ["--runs", "0"]],
)
def test_card_kit_options_make_no_sense_for_puzzles(option: list[str], tmp_path: Path) -> None:
    code, out = run("build", "uno-puzzles", *option, "-o", str(tmp_path / "k"))
    assert code == 2
    assert f"{option[0]} does not apply to uno-puzzles: it is a kit of printed puzzles" in out
    assert "--count" in out
    assert not (tmp_path / "k").exists()


@pytest.mark.parametrize("option", [["--count", "3"], ["--difficulty", "hard"], ["--seed", "2"]])
def test_puzzle_options_make_no_sense_for_card_kits(option: list[str], tmp_path: Path) -> None:
    code, out = run("build", "uno", *option, "-o", str(tmp_path / "k"))
    assert code == 2 and f"{option[0]} does not apply to uno: it is a card game with virtual players" in out
    assert "shedding" not in out


def test_the_puzzle_kit_refuses_a_language_it_cannot_print(tmp_path: Path) -> None:
    """Its words are not in the catalogue yet (issue 41): a Japanese puzzle kit would be English
    pages under a Japanese name, so it is refused with the reason, and nothing is written."""
    code, out = run("build", "uno-puzzles", "--lang", "ja", "-o", str(tmp_path / "k"))
    assert code == 2 and "printed in English only" in out and "without --lang ja" in out
    assert "Traceback" not in out and not (tmp_path / "k").exists()


def test_the_puzzle_booklet_comes_with_the_kit() -> None:
    code, out = run("booklet", "uno-puzzles")
    assert code == 2 and "kitgen build uno-puzzles" in out


def test_the_index_describes_the_booklet_the_kit_has(kit: tuple[Path, dict[str, Any]]) -> None:
    """The index said "the step-by-step booklet: cover, contents, set-up and rules, every protocol
    step by step, validation" of a 2-page booklet on the paper's ideas (issue 23)."""
    folder, _ = kit
    index = (folder / "index.html").read_text(encoding="utf-8")
    row = index[index.index("booklet.pdf") :].split("</tr>")[0]
    assert "step by step" not in row and "protocol" not in row and "validation" not in row
    assert "the ideas of the paper behind the puzzles" in row
    booklet = " ".join(_text(folder / "booklet.pdf"))
    for heading in ("The model", "Complexity"):  # what the index promises is in the booklet
        assert heading in booklet


def test_a_kit_of_one_kind_of_puzzle_does_not_count_the_other(tmp_path: Path) -> None:
    code, out = run("build", "uno-puzzles", "--count", "2", "--no-previews", "-o", str(tmp_path / "k"))
    assert code == 0, out
    first = _text(tmp_path / "k" / "booklet.pdf")[0]
    assert " 0 " not in " ".join(first.split())
