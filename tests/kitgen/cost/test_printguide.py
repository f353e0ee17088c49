"""Printing guide, shopping list and --only: page ranges checked against the PDF's own text."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from kitgen.cli.main import main
from kitgen.cost.printguide import page_ranges
from tests.kitgen.pdftext import page_text


@pytest.fixture(scope="module")
def kit(built_kit: Any) -> tuple[Path, dict[str, Any]]:
    """The default kit, built once per test session (tests/conftest.py), and its manifest.json."""
    folder, _ = built_kit()
    return folder, json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def test_page_ranges() -> None:
    assert page_ranges([3, 5, 7, 9, 12, 13]) == "3-9 (odd pages), 12-13"
    assert page_ranges([4, 6, 8]) == "4-8 (even pages)"
    assert page_ranges([125, 127]) == "125, 127"
    assert page_ranges([]) == "none"


def test_guide_and_list_are_in_the_kit(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = kit
    assert (
        manifest["printing_guide"] == "printing-guide.txt"
        and manifest["shopping_list"] == "shopping-list.txt"
    )
    listed = {f["path"] for f in manifest["files"]}
    assert {"printing-guide.txt", "shopping-list.txt"} <= listed
    guide = (folder / "printing-guide.txt").read_text(encoding="utf-8")
    shopping = (folder / "shopping-list.txt").read_text(encoding="utf-8")
    cards = manifest["sheets"]["cards"]
    assert f"cards.pdf pages {cards['calibration_pages'] + 1}-{cards['pages']}" in guide
    assert "flipping on the long edge" in guide
    assert f"{cards['sheets'] - 1} sheets of A4 card stock" in shopping
    # The label sheet by its product name, counted as the product's own unit.
    assert re.search(
        r"^- 1 × A4 self-adhesive label sheet, 3 × 7 labels .*\(Avery L7160 or equivalent\) for \d+ labels",
        shopping,
        re.M,
    )
    assert "sheet of A4 self-adhesive" not in shopping
    sleeves = next(i for i in manifest["bom"]["items"] if i["kind"] == "sleeve")
    assert (
        f"- {sleeves['count']} ({sleeves['needed']} + {sleeves['spares']} spare) {sleeves['name']}"
        in shopping
    )
    for p in manifest["card_pages"]:
        assert re.search(rf"^\s+{re.escape(p['key'])}\s+{p['count']} x ", guide, re.M)


def test_the_list_says_what_the_spares_add(kit: tuple[Path, dict[str, Any]]) -> None:
    """A bought holder's count is the table's need plus spares, and the list says so: the booklet and
    handout name only what the table uses (108 sleeves), so "119" alone read as a contradiction."""
    folder, manifest = kit
    shopping = (folder / "shopping-list.txt").read_text(encoding="utf-8")
    bought = [i for i in manifest["bom"]["items"] if i["kind"] in ("envelope", "sleeve", "clip")]
    assert bought
    for item in bought:
        assert item["count"] == item["needed"] + item["spares"]
        if item["spares"]:
            line = f"- {item['count']} ({item['needed']} + {item['spares']} spare) {item['name']}: "
        else:
            line = f"- {item['count']} {item['name']}: "
        assert line in shopping


def test_card_pages_match_what_is_printed(kit: tuple[Path, dict[str, Any]]) -> None:
    """The BOM counts per type add up over the pages the guide names, read back from the PDF:
    every front page of a type carries its kit id, and the types' pages cover every front page."""
    folder, manifest = kit
    reader = PdfReader(str(folder / "cards.pdf"))
    fronts = set(manifest["sheets"]["cards"]["front_pages"])
    named: set[int] = set()
    per = manifest["sheets"]["cards"]["per_sheet"]
    for p in manifest["card_pages"]:
        assert set(p["fronts"]) <= fronts
        assert len(p["fronts"]) >= -(-p["count"] // per)  # enough sheets for the count
        named.update(p["fronts"])
        for page in p["fronts"][:1]:
            assert f"page {page}/" in reader.pages[page - 1].extract_text()
    assert named == fronts


def test_only_reprints_the_same_pages(
    kit: tuple[Path, dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reprint's pages are the full kit's; the booklet it would remove is not typeset."""
    import kitgen.kit.artifacts as artifacts

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("--only typeset the booklet")

    monkeypatch.setattr(artifacts, "render_booklet", never)
    folder, manifest = kit
    out = tmp_path / "reprint"
    r = CliRunner().invoke(
        main, ["build", "uno", "--runs", "0", "--no-previews", "--only", "arrow", "-o", str(out)]
    )
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    arrow = next(p for p in manifest["card_pages"] if p["key"] == "arrow")
    assert m["only"]["pages"] == sorted(arrow["fronts"] + arrow["backs"])
    full = PdfReader(str(folder / "cards.pdf"))
    sub = PdfReader(str(out / "cards.pdf"))
    assert len(sub.pages) == len(m["only"]["pages"])
    for i, page in enumerate(m["only"]["pages"]):
        assert page_text(sub.pages[i]) == page_text(full.pages[page - 1])
    assert sorted(p.name for p in out.iterdir()) == [
        ".kitgen-kit",
        "cards.pdf",
        "index.html",
        "manifest.json",
    ]


def test_only_refuses_unknown_types(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        main, ["build", "uno", "--runs", "0", "--only", "arrow,gamma", "-o", str(tmp_path / "x")]
    )
    assert r.exit_code == 2 and "gamma" in r.output and "arrow" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "x").exists()
    r = CliRunner().invoke(main, ["build", "uno-puzzles", "--only", "arrow", "-o", str(tmp_path / "y")])
    assert r.exit_code == 2 and "--only" in r.output
