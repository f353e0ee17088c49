"""Preflight of a built kit's PDFs: what a print shop's check (and a careful player) would reject.

For every page checked it reports:

* ``font``: a font that is not embedded (a print shop's preflight rejects the file, even when the
  font is never used);
* ``overlap``: text drawn over other text (two glyphs whose boxes cover each other by more than a
  third, which is not one glyph drawn twice on the same spot);
* ``outside``: text that runs off the page;
* ``cut``: text closer than the safe margin to a cut line (the edge of a card or a label);
* ``crossing``: a crop mark or a cut line running through text (a sheet id under a crop mark,
  instructions laid across the line between two cards);
* ``frame``: a stroked line (a frame, a border, a rule) inside a card closer than the safe margin
  to its cut line, or across it: a cut a millimetre off makes such a frame visibly lopsided;
* ``contrast``: text whose contrast with what lies under it is below 4.5:1 (WCAG AA), measured on
  the rendered page (see :mod:`kitgen.paper.pagepixels`);
* ``covered``: text partly hidden by a shape drawn after it (a label under a card);
* ``unchecked``: a page the pixel checks could not be run on (PDFium prints it elsewhere than
  pdfplumber's coordinates say: see :class:`kitgen.paper.pagepixels.Frame`), said, not passed.

Cut lines come from what the page shows: a card is a rectangle of the card's size plus its
bleed (the background every card is drawn on), its cut line that rectangle less the bleed, or a
stroked outline of the card's own size (the calibration pages); crop marks are the lines in
line with a cut line outside every card; labels come from the label sheet's own geometry. The
check reads PDFs with pdfplumber (glyph and path boxes), pypdf (font resources) and PDFium (the
rendered page); ``python -m kitgen.paper.pagecheck KIT_FOLDER`` prints what it finds and exits 1 if
anything.
"""

from __future__ import annotations

import json
import logging
import sys
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pypdf import PdfReader

from ..core.colour import hex_of
from ..core.manifest import CardPages, KitManifest, from_json
from .pagepixels import Frame, PdfChar, page_chars, page_frame

if TYPE_CHECKING:
    from pdfplumber.page import Page

MM = 72 / 25.4
Rect = tuple[float, float, float, float]  # x0, top, x1, bottom (pdfplumber's coordinates)


@dataclass(frozen=True)
class Finding:
    file: str
    page: int
    kind: str  # font | overlap | outside | cut | crossing | frame | contrast | covered | unchecked
    detail: str

    def __str__(self) -> str:
        return f"{self.file} p. {self.page}: {self.kind}: {self.detail}"


def unembedded_fonts(path: Path, pages: Iterable[int] | None = None) -> list[Finding]:
    """Fonts in the page resources without an embedded font file."""
    reader = PdfReader(str(path))
    out = []
    numbers = range(1, len(reader.pages) + 1) if pages is None else pages
    for n in numbers:
        resources = reader.pages[n - 1].get("/Resources")
        fonts = resources.get_object().get("/Font") if resources is not None else None
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


def _box(ch: PdfChar) -> Rect:
    return (float(ch["x0"]), float(ch["top"]), float(ch["x1"]), float(ch["bottom"]))


def overlaps(chars: Sequence[PdfChar], file: str, page: int) -> list[Finding]:
    """Glyphs drawn over other glyphs (one finding per pair of texts).

    Two glyphs are compared when they share a cell of a 20-point grid. The test is
    :func:`_inter` against a third of the smaller :func:`_area`, written out: boxes that do not
    meet (no width or no height in common) have an intersection of 0, below a third of any
    positive area, and for boxes that do, the product of the two positive sides is the one
    :func:`_area` takes (the same floating-point operations, so the same findings)."""
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    boxes = [_box(c) for c in chars]
    areas = [_area(b) for b in boxes]
    for i, b in enumerate(boxes):
        for gx in range(int(b[0] // 20), int(b[2] // 20) + 1):
            for gy in range(int(b[1] // 20), int(b[3] // 20) + 1):
                grid[(gx, gy)].append(i)
    seen: set[tuple[int, int]] = set()
    out = []
    for cell in grid.values():
        for a_i, i in enumerate(cell):
            a = boxes[i]
            ax0, ay0, ax1, ay1 = a
            area_a = areas[i]
            for j in cell[a_i + 1 :]:
                b = boxes[j]
                width = min(ax1, b[2]) - max(ax0, b[0])
                if width <= 0:
                    continue
                height = min(ay1, b[3]) - max(ay0, b[1])
                if height <= 0 or (i, j) in seen:
                    continue
                seen.add((i, j))
                small = min(area_a, areas[j])
                if small <= 0 or width * height < small / 3:
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


def outside(chars: Sequence[PdfChar], area: Rect, file: str, page: int) -> list[Finding]:
    """Glyphs that leave the page's printed ``area`` (its CropBox within its MediaBox, in
    pdfplumber's coordinates: :class:`kitgen.paper.pagepixels.Frame`) by more than half a point."""
    x0, top, x1, bottom = area[0] - 0.5, area[1] - 0.5, area[2] + 0.5, area[3] + 0.5
    out = []
    for c in chars:
        b = _box(c)
        if c["text"].strip() and (b[0] < x0 or b[1] < top or b[2] > x1 or b[3] > bottom):
            out.append(
                Finding(file, page, "outside", f"{c['text']!r} at ({b[0]:.0f}, {b[1]:.0f}) leaves the page")
            )
    return out


def _crosses(b: Rect, r: Rect) -> bool:
    """Whether box ``b`` lies partly inside and partly outside rectangle ``r``."""
    inside = _inter(b, r)
    return 0 < inside < _area(b) - 0.01


def near_cuts(
    chars: Sequence[PdfChar], cuts: Sequence[Rect], margin: float, file: str, page: int
) -> list[Finding]:
    """Glyphs inside a cut rectangle but closer than ``margin`` to its edge (a glyph across an
    edge is a ``crossing``)."""
    out = []
    for c in chars:
        if not c["text"].strip():
            continue
        b = _box(c)
        for r in cuts:
            if _inter(b, r) <= 0 or _crosses(b, r):
                continue
            inner = (r[0] + margin, r[1] + margin, r[2] - margin, r[3] - margin)
            if _inter(b, inner) < _area(b) - 0.01:
                gap = min(b[0] - r[0], b[1] - r[1], r[2] - b[2], r[3] - b[3])
                out.append(
                    Finding(file, page, "cut", f"{c['text']!r} is {max(gap, 0) / MM:.1f} mm from a cut line")
                )
                break
    return out


Segment = tuple[float, float, float, float]  # x0, top, x1, bottom of a thin line's box


def cut_lines(cuts: Sequence[Rect]) -> list[Segment]:
    """The four edges of every cut rectangle."""
    out: list[Segment] = []
    for x0, top, x1, bottom in cuts:
        out += [(x0, top, x1, top), (x0, bottom, x1, bottom), (x0, top, x0, bottom), (x1, top, x1, bottom)]
    return out


def crop_marks(page: Page, cuts: Sequence[Rect], tolerance: float = 0.5) -> list[Segment]:
    """Straight lines outside every card that continue one of its cut lines."""
    xs = {round(v, 1) for r in cuts for v in (r[0], r[2])}
    ys = {round(v, 1) for r in cuts for v in (r[1], r[3])}
    out: list[Segment] = []
    for ln in page.lines:
        seg = (float(ln["x0"]), float(ln["top"]), float(ln["x1"]), float(ln["bottom"]))
        vertical = seg[2] - seg[0] < tolerance
        horizontal = seg[3] - seg[1] < tolerance
        on_cut = (vertical and any(abs(seg[0] - x) < tolerance for x in xs)) or (
            horizontal and any(abs(seg[1] - y) < tolerance for y in ys)
        )
        if on_cut and not any(_inter(_thick(seg), r) > 0 for r in cuts):
            out.append(seg)
    return out


def _thick(seg: Segment, d: float = 0.1) -> Rect:
    return (seg[0] - d, seg[1] - d, seg[2] + d, seg[3] + d)


def crossings(
    chars: Sequence[PdfChar], lines: Sequence[tuple[str, Segment]], file: str, page: int
) -> list[Finding]:
    """Glyphs a crop mark or a cut line runs through (one finding per glyph); ``lines`` are
    (what it is, segment)."""
    out = []
    for c in chars:
        if not c["text"].strip():
            continue
        x0, top, x1, bottom = _box(c)
        # The glyph's box less a little all round: a line that only grazes its box does not count.
        dx, dy = (x1 - x0) * 0.1, (bottom - top) * 0.1
        core = (x0 + dx, top + dy, x1 - dx, bottom - dy)
        for what, seg in lines:
            if _inter(core, _thick(seg, 0.3)) > 0:
                out.append(
                    Finding(
                        file,
                        page,
                        "crossing",
                        f"a {what} runs through {c['text']!r} at ({x0:.0f}, {top:.0f})",
                    )
                )
                break
    return out


def frames(page: Page, cuts: Sequence[Rect], margin: float, file: str, number: int) -> list[Finding]:
    """Stroked lines inside a card closer than ``margin`` to its cut line, or across it (not the
    card's own outline, as the calibration pages draw it)."""
    out = []
    for obj in [*page.rects, *page.curves, *page.lines]:
        if not obj.get("stroke", True):
            continue
        half = float(obj.get("linewidth") or 0) / 2
        b = (
            float(obj["x0"]) - half,
            float(obj["top"]) - half,
            float(obj["x1"]) + half,
            float(obj["bottom"]) + half,
        )
        if any(_outline(b, r, half) for r in cuts):
            continue  # a card's own outline (the calibration pages draw them)
        for r in cuts:
            if _inter(b, r) <= 0:
                continue
            gap = min(b[0] - r[0], b[1] - r[1], r[2] - b[2], r[3] - b[3])
            if gap < margin:
                where = "across" if gap < 0 else f"{gap / MM:.1f} mm from"
                out.append(
                    Finding(
                        file,
                        number,
                        "frame",
                        f"a stroked line at ({b[0]:.0f}, {b[1]:.0f}) is {where} a cut line",
                    )
                )
                break
    return out


def _outline(b: Rect, r: Rect, half: float) -> bool:
    grown = (r[0] - half, r[1] - half, r[2] + half, r[3] + half)
    return all(abs(u - v) < 0.6 + half for u, v in zip(b, grown))


def card_cuts(page: Page, card_mm: tuple[float, float], bleed_mm: float) -> list[Rect]:
    """The cut rectangles of the cards on a card page: card-sized backgrounds less their bleed, and
    card-sized outlines (a calibration page's)."""
    w, h = sorted(card_mm)
    out: list[Rect] = []
    for r in page.rects:
        size = sorted((r["width"] / MM, r["height"] / MM))
        box = (float(r["x0"]), float(r["top"]), float(r["x1"]), float(r["bottom"]))
        if abs(size[0] - (w + 2 * bleed_mm)) < 0.1 and abs(size[1] - (h + 2 * bleed_mm)) < 0.1:
            b = bleed_mm * MM
            box = (box[0] + b, box[1] + b, box[2] - b, box[3] - b)
        elif not (r.get("stroke") and abs(size[0] - w) < 0.1 and abs(size[1] - h) < 0.1):
            continue
        if not any(all(abs(u - v) < 0.05 for u, v in zip(box, o)) for o in out):
            out.append(box)
    return out


def pixel_findings(
    path: Path, number: int, chars: Sequence[PdfChar], frame: Frame | None = None, annotated: bool = False
) -> list[Finding]:
    """``contrast`` and ``covered`` on one page, from its renders (see :mod:`kitgen.paper.pagepixels`)
    laid where ``frame`` says the page is printed; ``unchecked`` where PDFium prints it elsewhere,
    and for a page with annotations (``annotated``) that show text."""
    from . import pagepixels as px

    out = []
    if annotated and (n := px.annotation_text(path, number)):
        detail = f"the text in {n} annotation appearance(s) is not checked (pdfplumber does not report it)"
        out.append(Finding(path.name, number, "unchecked", detail))
    items = px.glyphs(chars)
    if not items:
        return out
    try:
        layers = px.render_layers(path, number, frame)
    except px.Unrendered as e:
        return [*out, Finding(path.name, number, "unchecked", f"contrast and hidden text not checked: {e}")]
    ink = px.ink_mask(layers)
    hidden = px.covered(layers, items, ink)
    for run in px.runs(hidden):
        g = run[0][0]
        text = px.run_text(run)
        worst = max(x[1] for x in run)
        out.append(
            Finding(
                path.name,
                number,
                "covered",
                f"{text!r} at ({g.box[0]:.0f}, {g.box[1]:.0f}) is partly hidden ({worst:.0%} of a glyph's "
                "ink) by something drawn over it",
            )
        )
    # A glyph under a shape is reported as covered, not for its contrast with the shape.
    seen = [g for g, _ in hidden]
    visible = [g for g in items if g not in seen]
    for faint in px.runs([(g, (ratio, bg)) for g, ratio, bg in px.contrasts(layers, visible, ink)]):
        g, (ratio, bg) = faint[0]
        text = px.run_text(faint)
        fg = hex_of(g.colour) if g.colour else "?"
        out.append(
            Finding(
                path.name,
                number,
                "contrast",
                f"{text!r} at ({g.box[0]:.0f}, {g.box[1]:.0f}): {fg} on {bg} is {ratio:.1f}:1, below 4.5:1",
            )
        )
    return out


def check_pdf(
    path: Path,
    pages: Iterable[int] | None = None,
    cuts: Callable[[int, Page], Sequence[Rect] | None] | None = None,
    margin_mm: float = 2.0,
    pixels: bool | Collection[int] = True,
) -> list[Finding]:
    """Every check on the given pages (1-based; all by default). ``cuts(n, page)`` gives a page's
    cut rectangles (None: the page has none); ``pixels`` renders each page (or the pages it lists)
    for the checks that need it (contrast, covered)."""
    import pdfplumber  # a test tool: only the checks need it

    found = unembedded_fonts(path, pages)
    with pdfplumber.open(str(path)) as pdf:
        numbers = range(1, len(pdf.pages) + 1) if pages is None else pages
        for n in numbers:
            page = pdf.pages[n - 1]
            # The cut lines first: a card page's shapes are read whole (pdfplumber's objects), and its
            # glyphs then come from the same reading; a page without them has only its glyphs read,
            # without its paths (pagepixels.page_chars).
            rects = cuts(n, page) if cuts is not None else None
            chars = [c for c in page_chars(page) if c["text"].strip()]
            frame = page_frame(page)
            found += overlaps(chars, path.name, n)
            found += outside(chars, frame.box, path.name, n)
            if rects:
                margin = margin_mm * MM
                found += near_cuts(chars, rects, margin, path.name, n)
                lines = [("cut line", seg) for seg in cut_lines(rects)]
                lines += [("crop mark", seg) for seg in crop_marks(page, rects)]
                found += crossings(chars, lines, path.name, n)
                found += frames(page, rects, margin, path.name, n)
            if pixels is True or (not isinstance(pixels, bool) and n in pixels):
                annotated = page.page_obj.attrs.get("Annots") is not None
                found += pixel_findings(path, n, chars, frame, annotated)
    return found


def _sample(pages: Sequence[int], card_pages: Sequence[CardPages]) -> list[int]:
    """Calibration pages and the first front and back page of each card type."""
    chosen = set(pages)
    for p in card_pages:
        chosen.update(p["fronts"][:1] + p["backs"][:1])
    return sorted(chosen)


def _after_first(boxes: list[Rect]) -> Callable[[int, Page], Sequence[Rect] | None]:
    """The label outlines as cut lines on every page but the first (the calibration page)."""
    return lambda n, page: boxes if n > 1 else None


def check_kit(folder: Path, every_card_page: bool = False, sample_pixels: bool = False) -> list[Finding]:
    """The preflight of a kit folder (see the module docs): every page, or of the card sheets the
    calibration pages and the first front and back page of each card type. ``sample_pixels``
    renders only those card pages for the pixel checks (the other checks still read every page
    asked for); every other PDF is checked whole."""
    from ..core.templates import load_templates
    from .labels import label_boxes

    data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError("its manifest.json is not a JSON object")
    manifest = from_json(data)
    kit = manifest if isinstance(manifest, KitManifest) else None
    found: list[Finding] = []
    pdfs = [f["path"] for f in manifest.files if f["path"].endswith(".pdf")]
    for name in pdfs:
        path = folder / name
        if name == "cards.pdf" and kit is not None:
            info = kit.sheets["cards"]
            card = (kit.card["width_mm"], kit.card["height_mm"])
            bleed, safe = kit.profile["bleed_mm"], kit.profile["safe_mm"]
            # Pages the manifest names past the PDF's last are none of its pages (a hostile
            # "calibration_pages": 1e9 made a set of a billion pages).
            last = len(PdfReader(path).pages)
            calibration = range(1, min(int(info["calibration_pages"]), last) + 1)
            sample = [n for n in _sample(calibration, kit.card_pages or []) if 1 <= n <= last]
            pages = None if every_card_page else sample
            cuts = lambda n, p, c=card, b=bleed: card_cuts(p, c, b)  # noqa: E731
            found += check_pdf(path, pages, cuts, safe, pixels=set(sample) if sample_pixels else True)
        elif name == "labels.pdf" and kit is not None:
            templates = load_templates()
            sheet = templates.label_sheet(kit.sheets["labels"]["sheet"])
            paper = templates.paper(sheet.paper)
            boxes = [(b.x, paper.size.h - b.y1, b.x1, paper.size.h - b.y) for b in label_boxes(sheet, paper)]
            # Page 1 is the calibration page: its outlines are the labels themselves. Text keeps
            # 2.5 mm from a label's edge (labels are drawn with 3 mm).
            found += check_pdf(path, None, _after_first(boxes), 2.5)
        else:
            found += check_pdf(path)
    return found


USAGE = """usage: python -m kitgen.paper.pagecheck [--quick] KIT_FOLDER | FILE.pdf

Checks every page of the kit's PDFs, or of one PDF (see kitgen/paper/pagecheck.py); --quick
renders only the calibration pages and the first front and back page of each card type of a kit's
card sheets for the pixel checks (contrast, covered). Exit code 1 if anything is found, 2 if the
folder or file cannot be read as a kit or a PDF."""


def _unreadable() -> tuple[type[BaseException], ...]:
    """What a folder that is no kit, or a file that is no PDF, raises while it is read: the
    manifest's JSON and fields (a field missing or of the wrong type: AttributeError, LookupError,
    TypeError), the three PDF readers' own errors (pdfplumber's wrap pdfminer's, and say a box is
    not numbers; its IndexError: a box of fewer than four), and a manifest or PDF nested too deep to
    read (RecursionError)."""
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfminer.psexceptions import PSException
    from pdfplumber.utils.exceptions import MalformedPDFException, PdfminerException
    from pypdf.errors import PyPdfError
    from pypdfium2 import PdfiumError

    return (
        OSError,
        ValueError,
        AttributeError,
        LookupError,  # KeyError, and IndexError: a MediaBox of fewer than four numbers (pdfplumber)
        TypeError,
        PyPdfError,
        PDFSyntaxError,
        PSException,
        PdfiumError,
        PdfminerException,
        MalformedPDFException,
        RecursionError,
    )


READERS = ("pypdf", "pdfminer", "pdfplumber", "pypdfium2")  # the PDF readers' loggers


@contextmanager
def quiet_readers() -> Iterator[None]:
    """The PDF readers' own loggers silenced while the check runs, and set back after: on a broken
    PDF pypdf and pdfminer log their own lines ("invalid pdf header", "EOF marker not found") to
    stderr beside the check's one line, which is the one a user should read."""
    loggers = [logging.getLogger(name) for name in READERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in args
    args = [a for a in args if a != "--quick"]
    if len(args) != 1 or args[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    target = Path(args[0])
    try:  # a path the system refuses to look up (a name too long, a folder not to be entered)
        there, folder = target.exists(), target.is_dir()
    except OSError as e:
        print(f"pagecheck: {target}: cannot be looked up: {type(e).__name__}: {e.strerror}", file=sys.stderr)
        return 2
    if not there:
        print(f"pagecheck: {target}: no such folder or file", file=sys.stderr)
        return 2
    try:
        with quiet_readers():
            found = (
                check_kit(target, every_card_page=True, sample_pixels=quick) if folder else check_pdf(target)
            )
    except _unreadable() as e:
        what = "a kit folder (manifest.json)" if folder else "a PDF"
        said = " ".join(str(e).split())  # one line, whatever the reader's message holds
        print(f"pagecheck: {target}: cannot be read as {what}: {type(e).__name__}: {said}", file=sys.stderr)
        return 2
    for f in found:
        print(f)
    print(f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
