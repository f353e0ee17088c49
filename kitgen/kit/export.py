"""``kitgen build ... --export cards-png``: the kit's cards as pictures for print-on-demand services
and for trying the kit online in Tabletop Simulator.

Written into the kit's ``export/`` folder:

* ``export/cards-png/<W>x<H>mm/``, once in the kit's own card size and once in 63 x 88 mm (the
  size print-on-demand services call poker or standard): one PNG per different card face
  (``front-001-<name>.png``, in the order of the card sheets) and ``back.png``, at 300 dpi with 3 mm
  of bleed on every side (the picture is the cut card plus 3 mm all round; text and symbols stay
  inside the safe margin). Every card of a protocol kit has the same back, so one back serves every
  front (the services' "same back for all cards"); ``cards.csv`` pairs each front with its back and
  says how many copies to order.
* ``export/tts/``: Tabletop Simulator deck sheets. Each card type of the bill of materials (the game's
  deck, each θ, α, β, ...) is one deck: a sheet of up to 10 x 7 card faces, every copy of every card
  in the order of the card sheets, at most 69 cards a sheet (the last place of the grid is left for
  the picture TTS shows for a hidden card: the back), and ``back.png``. ``decks.csv`` gives what the
  import dialog asks: the sheet, its width and height in cards, and the number of cards.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from reference_engine.api import UsageError

from ..core.manifest import ExportFacts
from ..core.output import inside
from ..cost.bom import Bom
from ..paper.cardimages import PictureSize, png_bytes, render
from ..paper.facenames import face_name
from ..paper.faces import Face

EXPORTS = ("cards-png",)
DPI = 300
BLEED_MM = 3.0
POD_SIZE = (63.0, 88.0)  # what print-on-demand services call poker (or standard) size
TTS_COLUMNS, TTS_ROWS = 10, 7
TTS_CELL = (400, 560)  # the largest card picture on a sheet, in pixels (a sheet stays under 4096 px)


@dataclass(frozen=True)
class Deck:
    """One card type of the kit: its key, its name and every card, copies included."""

    key: str
    name: str
    cards: list[Face]


def decks(bom: Bom) -> list[Deck]:
    return [Deck(i.key, i.name, list(i.faces)) for i in bom.items if i.kind == "card" and i.faces]


def check(exports: Sequence[str]) -> None:
    unknown = [e for e in exports if e not in EXPORTS]
    if unknown:
        raise UsageError(f"--export is one of {', '.join(EXPORTS)}, not {unknown[0]!r}")


def slug(text: str) -> str:
    """A file name's part for a card: letters, digits and dashes (θ, α, β and the suits spelled out)."""
    words = {
        "θ": "theta",
        "α": "alpha",
        "β": "beta",
        "♣": "clubs",
        "♦": "diamonds",
        "♥": "hearts",
        "♠": "spades",
    }
    for k, v in words.items():
        text = text.replace(k, f" {v} ")
    text = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return text[:60] or "card"


def export_cards(
    work: Path, bom: Bom, card_mm: tuple[float, float], ink_saver: bool, step: Callable[[int], None]
) -> tuple[list[str], ExportFacts]:
    """Write ``export/`` into the kit folder ``work``; the files written (relative to ``work``) and
    what the manifest records."""
    files: list[str] = []
    kinds = decks(bom)
    distinct: list[tuple[Face, str, int]] = []  # face, card type, copies (in the order of the sheets)
    index: dict[Face, int] = {}
    for d in kinds:
        for f in d.cards:
            if f in index:
                face, key, n = distinct[index[f]]
                distinct[index[f]] = (face, key, n + 1)
            else:
                index[f] = len(distinct)
                distinct.append((f, d.key, 1))
    sizes = [card_mm] + ([POD_SIZE] if tuple(round(v, 2) for v in card_mm) != POD_SIZE else [])
    folders = []
    for w, h in sizes:
        folder = f"export/cards-png/{w:g}x{h:g}mm"
        files += _pod_folder(work, folder, distinct, PictureSize(w, h, BLEED_MM, DPI), ink_saver)
        folders.append(folder)
        step(1)
    tts = _tts(work, kinds, card_mm, ink_saver)
    files += tts
    step(1)
    pictures = PictureSize(card_mm[0], card_mm[1], BLEED_MM, DPI).pixels
    record: ExportFacts = {
        "cards_png": {
            "folders": folders,
            "dpi": DPI,
            "bleed_mm": BLEED_MM,
            "fronts": len(distinct),
            "backs": 1,
            "cards": sum(n for _, _, n in distinct),
            "pixels": {"kit_size": list(pictures)},
        },
        "tts": {"folder": "export/tts", "sheets": sum(1 for f in tts if f.endswith(".png")) - 1},
    }
    return files, record


def _pod_folder(
    work: Path,
    folder: str,
    distinct: Sequence[tuple[Face, str, int]],
    size: PictureSize,
    ink_saver: bool,
) -> list[str]:
    target = inside(work, folder)
    target.mkdir(parents=True, exist_ok=True)
    images = render([f for f, _, _ in distinct] + [None], size, ink_saver)
    files = []
    rows = [["front", "back", "copies", "card type", "card"]]
    width = max(3, len(str(len(distinct))))
    for k, ((face, key, copies), image) in enumerate(zip(distinct, images), 1):
        name = f"front-{k:0{width}d}-{slug(face_name(face))}.png"
        inside(work, f"{folder}/{name}").write_bytes(png_bytes(image, DPI))
        files.append(f"{folder}/{name}")
        rows.append([name, "back.png", str(copies), key, face_name(face)])
    inside(work, f"{folder}/back.png").write_bytes(png_bytes(images[-1], DPI))
    files.append(f"{folder}/back.png")
    inside(work, f"{folder}/cards.csv").write_text(_csv(rows), encoding="utf-8")
    files.append(f"{folder}/cards.csv")
    return files


def _csv(rows: Sequence[Sequence[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def tts_cell(card_mm: tuple[float, float]) -> tuple[int, int]:
    """A card's size in pixels on a deck sheet: as large as fits :data:`TTS_CELL`, in proportion."""
    w, h = card_mm
    scale = min(TTS_CELL[0] / w, TTS_CELL[1] / h)
    return math.floor(w * scale), math.floor(h * scale)


def _tts(work: Path, kinds: Sequence[Deck], card_mm: tuple[float, float], ink_saver: bool) -> list[str]:
    folder = "export/tts"
    inside(work, folder).mkdir(parents=True, exist_ok=True)
    cw, ch = tts_cell(card_mm)
    dpi = cw / (card_mm[0] / 25.4)
    size = PictureSize(card_mm[0], card_mm[1], 0.0, dpi)
    faces = sorted({f for d in kinds for f in d.cards}, key=lambda f: (f.kind, f.key, f.title, f.extra))
    images = render([*faces, None], size, ink_saver)
    picture = {f: im.resize((cw, ch)) if im.size != (cw, ch) else im for f, im in zip(faces, images)}
    back = images[-1].resize((cw, ch)) if images[-1].size != (cw, ch) else images[-1]
    per_sheet = TTS_COLUMNS * TTS_ROWS - 1
    files = []
    rows = [["sheet", "width", "height", "number", "card type", "cards"]]
    for d in kinds:
        chunks = [d.cards[i : i + per_sheet] for i in range(0, len(d.cards), per_sheet)]
        for k, chunk in enumerate(chunks, 1):
            grid_rows = max(2, math.ceil((len(chunk) + 1) / TTS_COLUMNS))
            sheet = Image.new("RGB", (TTS_COLUMNS * cw, grid_rows * ch), "white")
            for i, face in enumerate(chunk):
                sheet.paste(picture[face], ((i % TTS_COLUMNS) * cw, (i // TTS_COLUMNS) * ch))
            # The grid's last place: the picture TTS shows for a card hidden in a hand.
            sheet.paste(back, ((TTS_COLUMNS - 1) * cw, (grid_rows - 1) * ch))
            name = f"{slug(d.key)}-{k}.png" if len(chunks) > 1 else f"{slug(d.key)}.png"
            buffer = io.BytesIO()
            sheet.save(buffer, format="PNG", compress_level=6)
            inside(work, f"{folder}/{name}").write_bytes(buffer.getvalue())
            files.append(f"{folder}/{name}")
            rows.append([name, str(TTS_COLUMNS), str(grid_rows), str(len(chunk)), d.key, d.name])
    inside(work, f"{folder}/back.png").write_bytes(png_bytes(back))
    files.append(f"{folder}/back.png")
    inside(work, f"{folder}/decks.csv").write_text(_csv(rows), encoding="utf-8")
    files.append(f"{folder}/decks.csv")
    return files
