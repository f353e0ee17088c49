"""`kitgen build --ink-saver --export cards-png` on every game kit: the pictures for print-on-demand
services and Tabletop Simulator, and the home printer's light backs (issue 26)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image

from kitgen.cli.main import main
from kitgen.core.manifest import KitManifest
from kitgen.kit.build import KitOptions, build
from kitgen.paper.pagecheck import card_cuts, check_pdf
from tests.kitgen.pdfgeometry import geometry

GAME_KITS = ["uno", "uno-small", "crazy-eights", "sevens", "hearts", "dominoes", "gakmoro", "daifugo"]
# Game rule sets not built here: the same cards as a kit above (not built twice), or no cards.
SAME_CARDS = {"uno-official": "uno"}  # the 108-card deck, drawn by the same designs
NOT_A_CARD_KIT = {"uno-puzzles"}  # puzzle sheets; refuses both options (tested below)
MM_PER_INCH = 25.4


# The fast tier exports the 108-card UNO kit and Gakmoro's; every other game kit is the slow tier.
FAST_KITS = {"uno", "gakmoro"}
# The card size each kit is built with here (None: the kit's own). The UNO kit's cards are the
# print-on-demand services' size, so its export writes one folder of pictures, not two (its own
# 56x87 mm pictures would be the same designs again: about 2 s of CPU, mostly PNG compression);
# Gakmoro's 41 mm wide cards show the kit size and the services' size side by side.
CARD_SIZE = {"uno": "63x88mm"}


@pytest.fixture(
    scope="module",
    params=[k if k in FAST_KITS else pytest.param(k, marks=pytest.mark.slow) for k in GAME_KITS],
)
def kit(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("export") / str(request.param)
    opts = KitOptions(
        ruleset=str(request.param),
        output=str(folder),
        previews=False,
        runs=0,
        ink_saver=True,
        export=("cards-png",),
        card_size=CARD_SIZE.get(str(request.param)),
    )
    return folder, build(opts).to_json()


def test_every_game_kit_is_covered() -> None:
    """A new game rule set gets its export and ink-saver build checked here, or says why not."""
    from reference_engine.api import games_dir

    games = {p.stem for p in games_dir().glob("*.yaml")}
    assert games == set(GAME_KITS) | set(SAME_CARDS) | NOT_A_CARD_KIT


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def pixels(width_mm: float, height_mm: float, bleed_mm: float = 3.0) -> tuple[int, int]:
    return (
        round((width_mm + 2 * bleed_mm) / MM_PER_INCH * 300),
        round((height_mm + 2 * bleed_mm) / MM_PER_INCH * 300),
    )


def test_the_typed_manifest_keeps_the_export(
    kit: tuple[Path, dict[str, Any]], manifest_round_trips: Any
) -> None:
    assert manifest_round_trips(kit[0]) is KitManifest


def test_one_png_per_card_face_and_the_back_at_300_dpi_with_bleed(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = kit
    items = {i["key"]: i for i in manifest["bom"]["items"] if i["kind"] == "card"}
    card = (manifest["card"]["width_mm"], manifest["card"]["height_mm"])
    sizes = {f"{card[0]:g}x{card[1]:g}mm": card, "63x88mm": (63.0, 88.0)}
    assert sorted(manifest["export"]["cards_png"]["folders"]) == sorted(
        f"export/cards-png/{k}" for k in sizes
    )
    for name, (w, h) in sizes.items():
        where = folder / "export" / "cards-png" / name
        table = rows(where / "cards.csv")
        pngs = sorted(p.name for p in where.glob("*.png"))
        # One PNG per card face of the kit and the back: as many as the rows of cards.csv, plus one.
        assert len(pngs) == len(table) + 1 and "back.png" in pngs
        assert {r["front"] for r in table} | {"back.png"} == set(pngs)
        assert all(r["back"] == "back.png" for r in table)
        # The copies add up to every card the kit prints, card type by card type (the deck: all its cards).
        for key, item in items.items():
            assert sum(int(r["copies"]) for r in table if r["card type"] == key) == item["count"], key
        assert sum(int(r["copies"]) for r in table) == manifest["bom"]["printed_cards"]
        # Fronts are named in the order of the sheets, so an uploader pairs them in order.
        assert [r["front"] for r in table] == sorted(r["front"] for r in table)
        for png in (where / "back.png", where / table[0]["front"], where / table[-1]["front"]):
            with Image.open(png) as im:
                assert im.size == pixels(w, h), png
                assert tuple(round(v) for v in im.info["dpi"]) == (300, 300)


def test_tabletop_simulator_sheets(kit: tuple[Path, dict[str, Any]]) -> None:
    folder, manifest = kit
    items = {i["key"]: i for i in manifest["bom"]["items"] if i["kind"] == "card"}
    tts = folder / "export" / "tts"
    decks = rows(tts / "decks.csv")
    assert {d["card type"] for d in decks} == set(items)
    for key, item in items.items():
        assert sum(int(d["number"]) for d in decks if d["card type"] == key) == item["count"], key
    with Image.open(tts / "back.png") as back:
        cell = back.size
    for d in decks:
        cols, grid_rows, number = int(d["width"]), int(d["height"]), int(d["number"])
        assert cols == 10 and 2 <= grid_rows <= 7 and 1 <= number <= 69
        assert number < cols * grid_rows  # the last place is left for the hidden-card picture
        with Image.open(tts / d["sheet"]) as sheet:
            assert sheet.size == (cols * cell[0], grid_rows * cell[1])
            assert max(sheet.size) <= 4096
            # The last place of the grid shows the back.
            corner = sheet.crop((sheet.width - cell[0], sheet.height - cell[1], sheet.width, sheet.height))
            with Image.open(tts / "back.png") as back:
                assert corner.convert("RGB").tobytes() == back.convert("RGB").tobytes()
    assert {p.name for p in tts.glob("*.png")} == {d["sheet"] for d in decks} | {"back.png"}


def _faces_are_light(folder: Path, manifest: dict[str, Any], fronts: list[int]) -> None:
    """No full-bleed fill but white on the faces of these front pages of the kit's cards.pdf (read
    by PDFium: tests/kitgen/pdfgeometry.py, a tenth of pdfplumber's CPU)."""
    card = sorted((manifest["card"]["width_mm"], manifest["card"]["height_mm"]))
    bleed = manifest["profile"]["bleed_mm"]
    mm = 72 / 25.4
    for n, page in geometry(folder / "cards.pdf", fronts).items():
        for r in page.rects:
            size = sorted((r["width"] / mm, r["height"] / mm))
            if abs(size[0] - card[0] - 2 * bleed) < 0.1 and abs(size[1] - card[1] - 2 * bleed) < 0.1:
                colour = r["fill"]
                assert colour == (1, 1, 1) or sum(colour) > 2.9, (n, colour)


def test_the_ink_saver_kit(kit: tuple[Path, dict[str, Any]]) -> None:
    """Light backs and no full-bleed fill but white on any face (every front page: 1 s of CPU for
    the UNO kit's, read by PDFium; pdfplumber took 2.2 s for the first and last front page of each
    card type); the guide says so; the page check (pixels on the first front and back page of each
    card type) finds nothing."""
    folder, manifest = kit
    assert manifest["kit"].endswith("-ink-saver") and manifest["options"]["ink_saver"] is True
    assert "Ink saver (built with --ink-saver)" in (folder / "printing-guide.txt").read_text(encoding="utf-8")
    info = manifest["sheets"]["cards"]
    card = sorted((manifest["card"]["width_mm"], manifest["card"]["height_mm"]))
    bleed = manifest["profile"]["bleed_mm"]
    mm = 72 / 25.4
    assert info["front_pages"]
    _faces_are_light(folder, manifest, info["front_pages"])
    first_back = info["back_pages"][0]
    backs = [
        r["fill"]
        for r in geometry(folder / "cards.pdf", [first_back])[first_back].rects
        if r["width"] / mm > card[0]
    ]
    assert backs and all(tuple(round(v * 255) for v in c) == (0xDC, 0xE3, 0xEE) for c in backs)
    # The first front and back page of each card type (the full check of every kit: bench/pagecheck_all.py).
    pages = sorted({n for p in manifest["card_pages"] for n in p["fronts"][:1] + p["backs"][:1]})
    cuts = lambda n, p: card_cuts(p, card, bleed)  # noqa: E731
    found = check_pdf(folder / "cards.pdf", pages, cuts, manifest["profile"]["safe_mm"])
    assert [str(f) for f in found] == []


def test_export_and_ink_saver_are_refused_by_the_puzzle_kit(tmp_path: Path) -> None:
    for option in (["--ink-saver"], ["--export", "cards-png"]):
        r = CliRunner().invoke(main, ["build", "uno-puzzles", *option, "-o", str(tmp_path / "p")])
        assert r.exit_code == 2 and "does not apply to uno-puzzles" in r.output, r.output
    r = CliRunner().invoke(
        main, ["build", "uno", "--export", "cards-png", "--only", "arrow", "-o", str(tmp_path)]
    )
    assert r.exit_code == 2 and "--export" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["build", "uno", "--export", "svg", "-o", str(tmp_path / "x")])
    assert r.exit_code == 2 and "cards-png" in r.output


@pytest.mark.slow  # a second whole build of a kit
def test_same_options_same_bytes(kit: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """The pictures (and every PDF) come out byte for byte the same from the same options."""
    _, manifest = kit
    if manifest["game"]["name"] != "sevens":
        pytest.skip("one kit is enough to show it")
    opts = KitOptions(
        ruleset="sevens",
        output=str(tmp_path / "again"),
        previews=False,
        runs=0,
        ink_saver=True,
        export=("cards-png",),
    )
    again = build(opts).to_json()
    assert again["files"] == manifest["files"]
