"""Preflight of a built kit's PDFs: what a print shop's check (and a careful player) would reject.

For every page checked it reports:

* ``font``: a font that is not embedded (a print shop's preflight rejects the file, even when the
  font is never used);
* ``overlap``: text drawn over other text (two glyphs whose boxes cover each other by more than a
  third, which is not one glyph drawn twice on the same spot);
* ``outside``: text that runs off the page;
* ``cut``: text closer than the safe margin to a cut line (the edge of a card or a label), or
  across it.

Cut lines come from what the page shows: a card is a rectangle of the card's size plus its
bleed (the background every card is drawn on), its cut line that rectangle less the bleed;
labels come from the label sheet's own geometry. The check reads PDFs with pdfplumber (glyph
boxes) and pypdf (font resources), both of the kit's test tools; ``python -m kitgen.pagecheck
KIT_FOLDER`` prints what it finds and exits 1 if anything.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pypdf import PdfReader

MM = 72 / 25.4
Rect = tuple[float, float, float, float]  # x0, top, x1, bottom (pdfplumber's coordinates)


@dataclass(frozen=True)
class Finding:
    file: str
    page: int
    kind: str  # font | overlap | outside | cut
    detail: str

    def __str__(self) -> str:
        return f"{self.file} p. {self.page}: {self.kind}: {self.detail}"


def unembedded_fonts(path: Path, pages: Iterable[int] | None = None) -> list[Finding]:
    """Fonts in the page resources without an embedded font file."""
    reader = PdfReader(str(path))
    out = []
    numbers = range(1, len(reader.pages) + 1) if pages is None else pages
    for n in numbers:
        resources: Any = reader.pages[n - 1].get("/Resources")
        fonts: Any = resources.get_object().get("/Font") if resources is not None else None
        for ref in fonts.get_object().values() if fonts is not None else []:
            font = ref.get_object()
            desc = font.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in font:
                desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            embedded = desc is not None and any(
                k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")
            )
            if not embedded and font.get("/Subtype") != "/Type3":
                out.append(Finding(path.name, n, "font", f"{font.get('/BaseFont')} is not embedded"))
    return out


def _area(a: Rect) -> float:
    return max(0.0, a[2] - a[0]) * max(0.0, a[3] - a[1])


def _inter(a: Rect, b: Rect) -> float:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _box(ch: dict[str, Any]) -> Rect:
    return (float(ch["x0"]), float(ch["top"]), float(ch["x1"]), float(ch["bottom"]))


def overlaps(chars: Sequence[dict[str, Any]], file: str, page: int) -> list[Finding]:
    """Glyphs drawn over other glyphs (one finding per pair of texts)."""
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    boxes = [_box(c) for c in chars]
    for i, b in enumerate(boxes):
        for gx in range(int(b[0] // 20), int(b[2] // 20) + 1):
            for gy in range(int(b[1] // 20), int(b[3] // 20) + 1):
                grid[(gx, gy)].append(i)
    seen: set[tuple[int, int]] = set()
    out = []
    for cell in grid.values():
        for a_i, i in enumerate(cell):
            for j in cell[a_i + 1 :]:
                if (i, j) in seen:
                    continue
                seen.add((i, j))
                a, b = boxes[i], boxes[j]
                small = min(_area(a), _area(b))
                if small <= 0 or _inter(a, b) < small / 3:
                    continue
                ca, cb = chars[i], chars[j]
                same_spot = abs(a[0] - b[0]) < 0.6 and abs(a[1] - b[1]) < 0.6
                if same_spot and ca["text"] == cb["text"]:
                    continue  # one glyph drawn twice (an outline, a shadow)
                out.append(
                    Finding(
                        file,
                        page,
                        "overlap",
                        f"{ca['text']!r} at ({a[0]:.0f}, {a[1]:.0f}) over "
                        f"{cb['text']!r} at ({b[0]:.0f}, {b[1]:.0f})",
                    )
                )
    return out


def outside(
    chars: Sequence[dict[str, Any]], width: float, height: float, file: str, page: int
) -> list[Finding]:
    out = []
    for c in chars:
        b = _box(c)
        if c["text"].strip() and (b[0] < -0.5 or b[1] < -0.5 or b[2] > width + 0.5 or b[3] > height + 0.5):
            out.append(
                Finding(file, page, "outside", f"{c['text']!r} at ({b[0]:.0f}, {b[1]:.0f}) leaves the page")
            )
    return out


def near_cuts(
    chars: Sequence[dict[str, Any]], cuts: Sequence[Rect], margin: float, file: str, page: int
) -> list[Finding]:
    """Glyphs inside a cut rectangle but closer than ``margin`` to its edge, or across an edge."""
    out = []
    for c in chars:
        if not c["text"].strip():
            continue
        b = _box(c)
        for r in cuts:
            if _inter(b, r) <= 0:
                continue
            inner = (r[0] + margin, r[1] + margin, r[2] - margin, r[3] - margin)
            if _inter(b, inner) < _area(b) - 0.01:
                gap = min(b[0] - r[0], b[1] - r[1], r[2] - b[2], r[3] - b[3])
                out.append(
                    Finding(file, page, "cut", f"{c['text']!r} is {max(gap, 0) / MM:.1f} mm from a cut line")
                )
                break
    return out


def card_cuts(page: Any, card_mm: tuple[float, float], bleed_mm: float) -> list[Rect]:
    """The cut rectangles of the cards on a card page: card-sized backgrounds less their bleed."""
    w, h = sorted(card_mm)
    out = []
    for r in page.rects:
        size = sorted((r["width"] / MM, r["height"] / MM))
        if abs(size[0] - (w + 2 * bleed_mm)) < 0.1 and abs(size[1] - (h + 2 * bleed_mm)) < 0.1:
            b = bleed_mm * MM
            out.append((r["x0"] + b, r["top"] + b, r["x1"] - b, r["bottom"] - b))
    return out


def check_pdf(
    path: Path,
    pages: Iterable[int] | None = None,
    cuts: Any = None,
    margin_mm: float = 2.0,
) -> list[Finding]:
    """Every check on the given pages (1-based; all by default). ``cuts(n, page)`` gives a page's
    cut rectangles (None: the page has none)."""
    import pdfplumber  # a test tool: only the checks need it

    found = unembedded_fonts(path, pages)
    with pdfplumber.open(str(path)) as pdf:
        numbers = range(1, len(pdf.pages) + 1) if pages is None else pages
        for n in numbers:
            page = pdf.pages[n - 1]
            chars = [c for c in page.chars if c["text"].strip()]
            found += overlaps(chars, path.name, n)
            found += outside(chars, float(page.width), float(page.height), path.name, n)
            rects = cuts(n, page) if cuts is not None else None
            if rects:
                found += near_cuts(chars, rects, margin_mm * MM, path.name, n)
    return found


def _sample(pages: Sequence[int], card_pages: Sequence[dict[str, Any]]) -> list[int]:
    """Calibration pages and the first front and back page of each card type."""
    chosen = set(pages)
    for p in card_pages:
        chosen.update(p["fronts"][:1] + p["backs"][:1])
    return sorted(chosen)


def check_kit(folder: Path, every_card_page: bool = False) -> list[Finding]:
    """The preflight of a kit folder (see the module docs)."""
    from .labels import label_boxes
    from .templates import load_templates

    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    found: list[Finding] = []
    pdfs = [f["path"] for f in manifest["files"] if f["path"].endswith(".pdf")]
    for name in pdfs:
        path = folder / name
        if name == "cards.pdf" and "sheets" in manifest:
            info = manifest["sheets"]["cards"]
            card = (manifest["card"]["width_mm"], manifest["card"]["height_mm"])
            bleed, safe = manifest["profile"]["bleed_mm"], manifest["profile"]["safe_mm"]
            pages = None
            if not every_card_page:
                pages = _sample(range(1, info["calibration_pages"] + 1), manifest.get("card_pages", []))
            found += check_pdf(path, pages, lambda n, p, c=card, b=bleed: card_cuts(p, c, b), safe)
        elif name == "labels.pdf" and "sheets" in manifest:
            templates = load_templates()
            sheet = templates.label_sheet(manifest["sheets"]["labels"]["sheet"])
            paper = templates.paper(sheet.paper)
            boxes = [(b.x, paper.size.h - b.y1, b.x1, paper.size.h - b.y) for b in label_boxes(sheet, paper)]
            # Page 1 is the calibration page: its outlines are the labels themselves. Text keeps
            # 2.5 mm from a label's edge (labels are drawn with 3 mm).
            found += check_pdf(path, None, lambda n, p, bx=boxes: bx if n > 1 else None, 2.5)
        else:
            found += check_pdf(path)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m kitgen.pagecheck KIT_FOLDER", file=sys.stderr)
        return 2
    found = check_kit(Path(args[0]), every_card_page=True)
    for f in found:
        print(f)
    print(f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
