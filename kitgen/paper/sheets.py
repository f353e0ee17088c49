"""Card sheets as PDF: fronts, the one back, crop marks, a scale bar and a sheet id.

Backs are placed for the chosen way of printing them:

* ``long`` / ``short``: duplex, turning the sheet over its long or short edge; each front
  page is followed by its back page with every back mirrored behind its front. Two
  calibration pages come first to measure the printer's front-to-back offset;
* ``none``: all front pages, then as many back pages (every back is the same, so any back
  page fits any front page; they are placed for long-edge turning by hand);
* ``fold``: fronts on one half of the page, backs mirrored on the other; fold, glue, cut.

Output is deterministic (reportlab's invariant mode): the same inputs give the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor, black
from reportlab.pdfgen.canvas import Canvas

from reference_engine.api import UsageError

from ..core.templates import CardSize, Paper, Profile
from ..core.units import mm
from ..lang.catalogue import _
from ..lang.wrap import breaks_between_characters
from .drawing import draw_back, draw_face
from .faces import FONT, FONT_BOLD, Face, new_canvas
from .layout import Box, Grid, Slot, fit

DUPLEX = ("long", "short", "none", "fold")
REGISTRATION = HexColor("#000000")


@dataclass(frozen=True)
class SheetOptions:
    kit: str
    paper: Paper
    card: CardSize
    profile: Profile
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)  # points
    ink_saver: bool = False  # light backs, no full-bleed fills (templates/cards.yaml)

    def __post_init__(self) -> None:
        if self.duplex not in DUPLEX:
            raise UsageError(f"--duplex is one of {', '.join(DUPLEX)}, not {self.duplex!r}")


@dataclass
class SheetsInfo:
    pages: int
    sheets: int  # sheets of paper
    per_sheet: int
    columns: int
    rows: int
    rotated: bool
    calibration_pages: int
    front_pages: list[int]  # 1-based page numbers
    back_pages: list[int]

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def grid_for(opts: SheetOptions) -> Grid:
    page = opts.paper.size
    if opts.duplex == "fold":
        # Fronts in the top half, backs in the bottom half, folded along the middle.
        return fit(page, opts.card.size, opts.profile, area=(0.0, page.h / 2, page.w, page.h / 2))
    return fit(page, opts.card.size, opts.profile)


def render_cards(
    path: Path, faces: Sequence[Face], opts: SheetOptions, progress: Callable[[int], None] | None = None
) -> SheetsInfo:
    """Write the card sheets PDF for ``faces`` (in order) and describe its pages."""
    grid = grid_for(opts)
    per = grid.per_sheet
    chunks = [list(faces[i : i + per]) for i in range(0, len(faces), per)] or [[]]
    page = opts.paper.size
    c = new_canvas(str(path), (page.w, page.h), f"{opts.kit}: card sheets")
    fronts: list[int] = []
    backs: list[int] = []
    calibration = 0
    n = 0
    total_pages = _page_count(len(chunks), opts.duplex)
    if opts.duplex in ("long", "short"):
        _calibration(c, grid, opts, front=True, page_no=1, total=total_pages)
        _calibration(c, grid, opts, front=False, page_no=2, total=total_pages)
        calibration = n = 2
    for chunk in chunks:
        slots = grid.slots()
        n += 1
        _page_start(c, grid)
        if opts.duplex == "fold":
            _fold_page(c, grid, opts, chunk, slots)
        else:
            for face, slot in zip(chunk, slots):
                _card(c, grid, slot.trim, slot.rotated, face, opts)
        _marks(c, grid, opts)
        _page_furniture(
            c, grid, opts, _("fronts and backs") if opts.duplex == "fold" else _("fronts"), n, total_pages
        )
        c.showPage()
        fronts.append(n)
        if opts.duplex in ("long", "short"):
            n += 1
            _page_start(c, grid, mirrored=opts.duplex)
            dx, dy = opts.back_offset
            block = grid.flipped(grid.trim_area(), opts.duplex, dx, dy)
            for _face, slot in zip(chunk, slots):
                _back(c, grid, grid.mirrored(slot, opts.duplex, dx, dy), slot.rotated, block, opts.ink_saver)
            _page_furniture(c, grid, opts, _backs(opts.duplex), n, total_pages, mirrored=opts.duplex)
            c.showPage()
            backs.append(n)
        if progress is not None:
            progress(1)
    if opts.duplex == "none":
        for chunk in chunks:
            n += 1
            _page_start(c, grid, mirrored="long")
            block = grid.flipped(grid.trim_area(), "long", *opts.back_offset)
            for _face, slot in zip(chunk, grid.slots()):
                _back(
                    c,
                    grid,
                    grid.mirrored(slot, "long", *opts.back_offset),
                    slot.rotated,
                    block,
                    opts.ink_saver,
                )
            _page_furniture(
                c, grid, opts, _("backs (print on the back of the fronts)"), n, total_pages, mirrored="long"
            )
            c.showPage()
            backs.append(n)
    c.save()
    sheets = len(chunks) + (1 if calibration else 0)
    if opts.duplex == "none":
        sheets = len(chunks)  # backs go on the same sheets, printed a second time
    return SheetsInfo(n, sheets, per, grid.columns, grid.rows, grid.rotated, calibration, fronts, backs)


def _page_count(chunks: int, duplex: str) -> int:
    if duplex in ("long", "short"):
        return 2 + 2 * chunks
    if duplex == "none":
        return 2 * chunks
    return chunks


def _page_start(c: Canvas, grid: Grid, mirrored: str | None = None) -> None:
    trim, bleed = grid.trim_area(), grid.bleed_area()
    if mirrored == "long":
        trim = Box(grid.page_w - trim.x1, trim.y, trim.w, trim.h)
        bleed = Box(grid.page_w - bleed.x1, bleed.y, bleed.w, bleed.h)
    elif mirrored == "short":
        trim = Box(trim.x, grid.page_h - trim.y1, trim.w, trim.h)
        bleed = Box(bleed.x, grid.page_h - bleed.y1, bleed.w, bleed.h)
    c.setTrimBox(trim.as_tuple())
    c.setBleedBox(bleed.as_tuple())


def _card(c: Canvas, grid: Grid, trim: Box, rotated: bool, face: Face | None, opts: SheetOptions) -> None:
    """Draw a face (or the back when ``face`` is None) into a trim box, clipped to its bleed."""
    bleed = grid.bleed
    safe = opts.profile.safe.points
    c.saveState()
    clip = c.beginPath()
    box = grid.paint_box(trim, grid.trim_area())
    clip.rect(box.x, box.y, box.w, box.h)
    c.clipPath(clip, stroke=0, fill=0)
    if rotated:
        c.translate(trim.x1, trim.y)
        c.rotate(90)
        w, h = trim.h, trim.w
    else:
        c.translate(trim.x, trim.y)
        w, h = trim.w, trim.h
    if face is None:
        draw_back(c, w, h, bleed, opts.ink_saver)
    else:
        draw_face(c, face, w, h, bleed, safe, opts.ink_saver)
    c.restoreState()


def _back(c: Canvas, grid: Grid, trim: Box, rotated: bool, block: Box, ink_saver: bool = False) -> None:
    """A card's back in ``trim``; ``block`` is the trim area of the backs on this page."""
    c.saveState()
    clip = c.beginPath()
    box = grid.paint_box(trim, block)
    clip.rect(box.x, box.y, box.w, box.h)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(trim.x, trim.y)
    w, h = (trim.h, trim.w) if rotated else (trim.w, trim.h)
    if rotated:
        c.translate(trim.w, 0)
        c.rotate(90)
    draw_back(c, w, h, grid.bleed, ink_saver)
    c.restoreState()


def _fold_page(c: Canvas, grid: Grid, opts: SheetOptions, chunk: list[Face], slots: list[Slot]) -> None:
    for face, slot in zip(chunk, slots):
        _card(c, grid, slot.trim, slot.rotated, face, opts)
        t = slot.trim
        mirror = Box(t.x, grid.page_h - t.y1, t.w, t.h)  # across the fold line at half height
        area = grid.trim_area()
        _back(
            c, grid, mirror, slot.rotated, Box(area.x, grid.page_h - area.y1, area.w, area.h), opts.ink_saver
        )
        # Marks for the mirrored half too.
    bottom = Grid(
        grid.page_w,
        grid.page_h,
        grid.card_w,
        grid.card_h,
        grid.rotated,
        grid.columns,
        grid.rows,
        grid.bleed,
        grid.gutter,
        grid.origin_x,
        grid.page_h - grid.origin_y - grid.height,
        grid.mark_length,
        grid.mark_offset,
    )
    _draw_marks(c, bottom, opts)
    # The fold line: dashed, in the margins only.
    c.setStrokeColor(REGISTRATION)
    c.setLineWidth(0.5)
    c.setDash(3, 3)
    area = grid.bleed_area()
    y = grid.page_h / 2
    c.line(mm(3), y, max(mm(3), area.x - mm(2)), y)
    c.line(min(grid.page_w - mm(3), area.x1 + mm(2)), y, grid.page_w - mm(3), y)
    c.setDash()
    c.setFont(FONT, 6)
    c.setFillColor(black)
    c.drawString(mm(3), y + mm(1), "fold")


def _marks(c: Canvas, grid: Grid, opts: SheetOptions) -> None:
    _draw_marks(c, grid, opts)


def _draw_marks(c: Canvas, grid: Grid, opts: SheetOptions) -> None:
    c.setStrokeColor(REGISTRATION)
    c.setLineWidth(opts.profile.mark_width.points)
    for x0, y0, x1, y1 in grid.crop_marks():
        c.line(x0, y0, x1, y1)


BAR_H = mm(3.2)  # the scale bar: its ticks, its line and the words beside it
ID_H = mm(2.6)  # one line of the sheet id
GAP = mm(0.8)


def _page_furniture(
    c: Canvas,
    grid: Grid,
    opts: SheetOptions,
    what: str,
    page_no: int,
    total: int,
    mirrored: str | None = None,
) -> None:
    """The 100 mm scale bar and the sheet id, in the free margin bands around the block of
    cards: outside the crop marks (never touching one) and inside the printer's margin. Both go
    in the widest band when it has room for both, else the bar in the widest and the id in the
    next."""
    occupied = grid.bleed_area()
    if opts.duplex == "fold":
        # Fronts in the top half and their backs mirrored in the bottom half.
        occupied = Box(
            occupied.x, grid.page_h - occupied.y1, occupied.w, occupied.y1 - (grid.page_h - occupied.y1)
        )
    bands = _bands(grid, occupied, opts.profile.margin.points)
    if mirrored == "long":
        bands = {
            {"left": "right", "right": "left"}.get(k, k): Box(grid.page_w - b.x1, b.y, b.w, b.h)
            for k, b in bands.items()
        }
    elif mirrored == "short":
        bands = {
            {"top": "bottom", "bottom": "top"}.get(k, k): Box(b.x, grid.page_h - b.y1, b.w, b.h)
            for k, b in bands.items()
        }
    order = sorted(bands, key=lambda k: (-_thickness(k, bands[k]), k))
    ident = _("{kit} · page {page}/{total} · {what} · {paper} · {card} · print at 100% (actual size)").format(
        kit=opts.kit, page=page_no, total=total, what=what, paper=opts.paper.name, card=opts.card.name
    )[:150]
    first = order[0]
    c.saveState()
    c.setFillColor(black)
    c.setStrokeColor(black)
    if _thickness(first, bands[first]) >= BAR_H + GAP + ID_H or len(order) == 1:
        _in_band(c, first, bands[first], [("bar", ""), ("id", ident)], opts.profile.scale_bar.points)
    else:
        _in_band(c, first, bands[first], [("bar", "")], opts.profile.scale_bar.points)
        _in_band(c, order[1], bands[order[1]], [("id", ident)], opts.profile.scale_bar.points)
    c.restoreState()


def _calibration_text(duplex: str) -> list[str]:
    """The calibration page's heading and instructions."""
    turn = (
        _("Print pages 1 and 2 double-sided, turning over the short edge, at 100% (actual size).")
        if duplex == "short"
        else _("Print pages 1 and 2 double-sided, turning over the long edge, at 100% (actual size).")
        if duplex == "long"
        else f"Print pages 1 and 2 double-sided, turning over the {duplex} edge, at 100% (actual size)."
    )
    return [
        _("Duplex calibration (pages 1 and 2)"),
        turn
        + " "
        + _(
            "Hold the sheet against a window: each cross on the front shows through onto a ruler on "
            "the back. Read where the centre of the cross falls, in millimetres: how far to the right "
            "(the first number) and how far up (the second) as you look at the back."
        ),
        _(
            "Example: 1.5 mm to the right and 0.5 mm down: build the kit again with --back-offset "
            "1.5mm,-0.5mm. At 0 and 0 the printer is in register: nothing to do."
        ),
    ]


def _backs(duplex: str) -> str:
    """What a page of backs is, in the page's id line."""
    if duplex == "long":
        return _("backs (long-edge duplex)")
    if duplex == "short":
        return _("backs (short-edge duplex)")
    return f"backs ({duplex}-edge duplex)"


def _bands(grid: Grid, area: Box, margin: float) -> dict[str, Box]:
    """The free band on each side of the block of cards: beyond the crop marks, within the
    printer's margin."""
    reserve = grid.mark_offset + grid.mark_length + mm(0.5)
    return {
        "bottom": Box(area.x, margin, area.w, area.y - reserve - margin),
        "top": Box(area.x, area.y1 + reserve, area.w, grid.page_h - margin - area.y1 - reserve),
        "left": Box(margin, area.y, area.x - reserve - margin, area.h),
        "right": Box(area.x1 + reserve, area.y, grid.page_w - margin - area.x1 - reserve, area.h),
    }


def _thickness(side: str, band: Box) -> float:
    return band.h if side in ("top", "bottom") else band.w


def _in_band(c: Canvas, side: str, band: Box, items: list[tuple[str, str]], length: float) -> None:
    """Draw the items (the scale bar, a line of text) stacked across a band, centred in it; in a
    band at the left or right, turned to read from bottom to top."""
    c.saveState()
    if side in ("top", "bottom"):
        c.translate(band.x, band.y)
        run, thick = band.w, band.h
    else:
        c.translate(band.x1, band.y)
        c.rotate(90)
        run, thick = band.h, band.w
    height = sum(BAR_H if kind == "bar" else ID_H for kind, _ in items) + GAP * (len(items) - 1)
    y = (thick + height) / 2  # the top of the stack, across the band
    for kind, text in items:
        if kind == "bar":
            base = y - BAR_H + mm(0.7)
            label = _("100 mm: check this bar")
            c.setFont(FONT, 5.5)
            width = length + mm(1) + c.stringWidth(label, FONT, 5.5)
            x0 = max(0.0, (run - width) / 2)
            if run >= width:
                c.setLineWidth(0.5)
                c.line(x0, base, x0 + length, base)
                for k in range(11):
                    x = x0 + k * length / 10
                    c.line(x, base, x, base + (mm(1.5) if k % 5 else mm(2.5)))
                c.drawString(x0 + length + mm(1), base, label)
            y -= BAR_H + GAP
        else:
            size = 5.5
            while size > 4 and c.stringWidth(text, FONT, size) > run:
                size -= 0.25
            c.setFont(FONT, size)
            c.drawCentredString(run / 2, y - mm(1.9), text)
            y -= ID_H + GAP
    c.restoreState()


def _calibration(c: Canvas, grid: Grid, opts: SheetOptions, front: bool, page_no: int, total: int) -> None:
    """Two pages to measure how far the printer's back side is off its front side."""
    slots = grid.slots()
    _page_start(c, grid, None if front else opts.duplex)
    text = _calibration_text(opts.duplex)
    # The instructions sit inside the first card's place, the profile's safe margin inside its
    # outline: no cut line runs under them, and that card's cross is left out.
    box = slots[0].trim.grow(-opts.profile.safe.points) if front else None
    c.setStrokeColor(black)
    c.setFillColor(black)
    for slot in slots:
        b = slot.trim if front else grid.mirrored(slot, opts.duplex)
        cx, cy = b.x + b.w / 2, b.y + b.h / 2
        c.setLineWidth(0.4)
        if front:
            c.rect(b.x, b.y, b.w, b.h, stroke=1, fill=0)
            if box is not None and box.x <= cx <= box.x1 and box.y <= cy <= box.y1:
                continue  # the instructions sit here
            c.setLineWidth(0.8)
            c.line(cx - mm(8), cy, cx + mm(8), cy)
            c.line(cx, cy - mm(8), cx, cy + mm(8))
        else:
            # Rulers in half millimetres, +x to the right and +y up as seen on this side.
            c.line(cx - mm(6), cy, cx + mm(6), cy)
            c.line(cx, cy - mm(6), cx, cy + mm(6))
            for k in range(-12, 13):
                t = mm(0.5 * k)
                tick = mm(1.5) if k % 2 == 0 else mm(0.8)
                c.line(cx + t, cy - tick / 2, cx + t, cy + tick / 2)
                c.line(cx - tick / 2, cy + t, cx + tick / 2, cy + t)
            c.setFont(FONT, 4.5)
            # Each axis's numbers in their own quadrant, so no number lands on another: +x below
            # the axis, -x above it, +y right of its axis, -y left of it.
            for k in (-6, -3, 3, 6):
                c.drawCentredString(cx + mm(k), cy - mm(2.6) if k > 0 else cy + mm(1.2), f"{k:+d}")
                if k > 0:
                    c.drawString(cx + mm(1.2), cy + mm(k) - mm(0.5), f"{k:+d}")
                else:
                    c.drawRightString(cx - mm(1.2), cy + mm(k) - mm(0.5), f"{k:+d}")
    if box is not None:
        _instructions(c, box, text)
    _page_furniture(
        c,
        grid,
        opts,
        _("duplex calibration front") if front else _("duplex calibration back"),
        page_no,
        total,
        mirrored=None if front else opts.duplex,
    )
    c.showPage()


def _instructions(c: Canvas, box: Box, text: list[str]) -> None:
    """The calibration instructions in ``box``: the largest type (7 pt at most) at which they fit."""
    pad = mm(1.5)
    size = 7.0
    while True:
        lines = [
            (k, line)
            for k, para in enumerate(text)
            for line in wrap(
                para, FONT_BOLD if k == 0 else FONT, size * (1.2 if k == 0 else 1.0), box.w - 2 * pad
            )
        ]
        height = sum(size * (1.2 if k == 0 else 1.0) * 1.3 for k, _ in lines) + mm(1) * (len(text) - 1)
        if height <= box.h - 2 * pad or size <= 4.0:
            break
        size -= 0.25
    c.setFillColor(black)
    y = box.y1 - pad
    last = 0
    for k, line in lines:
        if k != last:
            y -= mm(1)
            last = k
        s = size * (1.2 if k == 0 else 1.0)
        y -= s * 1.3
        c.setFont(FONT_BOLD if k == 0 else FONT, s)
        c.drawString(box.x + pad, y + s * 0.3, line)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Break text into lines no wider than ``width`` (on spaces; between characters by the CJK
    rules for a language written without spaces, kitgen.lang.wrap)."""
    from reportlab.lib.textsplit import wordSplit
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if breaks_between_characters():
        return [line for _w, line in wordSplit(text, width, font, size)]

    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and stringWidth(trial, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines
