"""Where cards go on a sheet: the grid, crop marks, duplex and fold-over backs.

All coordinates are PDF points with the origin at the bottom-left of the page. A *cell*
is a card's trim plus its bleed on every side; cells are separated by the gutter and the
grid is centred on the page. Crop marks extend every cut line into the margin around
the grid, so they never touch a card. The fit tries cards upright and turned a quarter
turn and keeps whichever puts more cards on a sheet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reference_engine.api import UsageError

from ..core.templates import Profile
from ..core.units import Size, mm

MIN_MARK = mm(2.0)  # shortest crop mark worth printing


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    def grow(self, d: float) -> Box:
        return Box(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def as_tuple(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.x1, self.y1)


@dataclass(frozen=True)
class Slot:
    """One card position: its trim box, reading-order index, and grid cell."""

    index: int
    col: int
    row: int  # 0 is the top row
    trim: Box
    rotated: bool


@dataclass(frozen=True)
class Grid:
    page_w: float
    page_h: float
    card_w: float  # as placed (swapped when rotated)
    card_h: float
    rotated: bool
    columns: int
    rows: int
    bleed: float
    gutter: float
    origin_x: float  # lower-left corner of the grid of cells
    origin_y: float
    mark_length: float
    mark_offset: float
    shared: bool = False  # neighbours share cut lines: no bleed between cards, only around the block

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    @property
    def cell_w(self) -> float:
        """The pitch of the columns, less the gutter."""
        return self.card_w if self.shared else self.card_w + 2 * self.bleed

    @property
    def cell_h(self) -> float:
        return self.card_h if self.shared else self.card_h + 2 * self.bleed

    @property
    def width(self) -> float:
        edge = 2 * self.bleed if self.shared else 0.0
        return self.columns * self.cell_w + (self.columns - 1) * self.gutter + edge

    @property
    def height(self) -> float:
        edge = 2 * self.bleed if self.shared else 0.0
        return self.rows * self.cell_h + (self.rows - 1) * self.gutter + edge

    def slots(self) -> list[Slot]:
        out: list[Slot] = []
        for row in range(self.rows):
            for col in range(self.columns):
                x = self.origin_x + col * (self.cell_w + self.gutter) + self.bleed
                y = self.origin_y + (self.rows - 1 - row) * (self.cell_h + self.gutter) + self.bleed
                out.append(Slot(len(out), col, row, Box(x, y, self.card_w, self.card_h), self.rotated))
        return out

    def paint_box(self, trim: Box, block: Box) -> Box:
        """Where a card's design may be painted: its trim box and its bleed, except, when cards
        share cut lines, on the sides where a neighbour lies (``block``: the trim area of the
        block of cards as placed on this page, mirrored or shifted for backs)."""
        if not self.shared:
            return trim.grow(self.bleed)
        b, eps = self.bleed, 0.01
        x0 = trim.x - (b if abs(trim.x - block.x) < eps else 0.0)
        y0 = trim.y - (b if abs(trim.y - block.y) < eps else 0.0)
        x1 = trim.x1 + (b if abs(trim.x1 - block.x1) < eps else 0.0)
        y1 = trim.y1 + (b if abs(trim.y1 - block.y1) < eps else 0.0)
        return Box(x0, y0, x1 - x0, y1 - y0)

    def trim_area(self) -> Box:
        return Box(self.origin_x, self.origin_y, self.width, self.height).grow(-self.bleed)

    def bleed_area(self) -> Box:
        return Box(self.origin_x, self.origin_y, self.width, self.height)

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x positions of vertical cut lines and y positions of horizontal ones."""
        xs: set[float] = set()
        ys: set[float] = set()
        for s in self.slots():
            xs.update((round(s.trim.x, 4), round(s.trim.x1, 4)))
            ys.update((round(s.trim.y, 4), round(s.trim.y1, 4)))
        return sorted(xs), sorted(ys)

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Line segments in the margin, continuing every cut line away from the grid."""
        if self.mark_length <= 0:
            return []
        area = self.bleed_area()
        xs, ys = self.cut_lines()
        off, length = self.mark_offset, self.mark_length
        marks = []
        for x in xs:
            marks.append((x, area.y1 + off, x, area.y1 + off + length))
            marks.append((x, area.y - off, x, area.y - off - length))
        for y in ys:
            marks.append((area.x - off, y, area.x - off - length, y))
            marks.append((area.x1 + off, y, area.x1 + off + length, y))
        return marks

    def mirrored(self, slot: Slot, flip: str, dx: float = 0.0, dy: float = 0.0) -> Box:
        """Where the back of ``slot`` goes on the next page so it lands behind the front.

        ``long``: the sheet turns over its long (vertical) edge, so x is mirrored;
        ``short``: it turns over its short (horizontal) edge, so y is mirrored. The back
        offset (dx, dy) corrects a printer that does not print both sides in register.
        """
        return self.flipped(slot.trim, flip, dx, dy)

    def flipped(self, t: Box, flip: str, dx: float = 0.0, dy: float = 0.0) -> Box:
        """The box ``t`` (a slot's or another) as :meth:`mirrored` places a card's back."""
        if flip == "long":
            return Box(self.page_w - t.x1 + dx, t.y + dy, t.w, t.h)
        if flip == "short":
            return Box(t.x + dx, self.page_h - t.y1 + dy, t.w, t.h)
        raise ValueError(flip)


def fit(
    page: Size, card: Size, profile: Profile, area: tuple[float, float, float, float] | None = None
) -> Grid:
    """The grid that puts the most cards on a page, or in a region ``area`` = (x, y, w, h) of it."""
    page_w, page_h = page.w, page.h
    ax, ay, avail_w, avail_h = area if area is not None else (0.0, 0.0, page_w, page_h)
    best: Grid | None = None
    for rotated in (False, True):
        cw, ch = (card.h, card.w) if rotated else (card.w, card.h)
        grid = _fit_one(avail_w, avail_h, cw, ch, rotated, profile)
        if grid is not None and (best is None or grid.per_sheet > best.per_sheet):
            best = grid
    if best is None:
        raise UsageError(
            f"a {card} card does not fit on a {page} page with a {profile.margin} margin "
            f"and {profile.bleed} bleed; choose a larger paper or a smaller card"
        )
    # Centre the grid on the page (or the area).
    ox = ax + (avail_w - best.width) / 2
    oy = ay + (avail_h - best.height) / 2
    return Grid(
        page_w,
        page_h,
        best.card_w,
        best.card_h,
        best.rotated,
        best.columns,
        best.rows,
        best.bleed,
        best.gutter,
        ox,
        oy,
        best.mark_length,
        best.mark_offset,
        best.shared,
    )


def _fit_one(
    avail_w: float, avail_h: float, cw: float, ch: float, rotated: bool, profile: Profile
) -> Grid | None:
    bleed, gutter = profile.bleed.points, profile.gutter.points
    margin, offset = profile.margin.points, profile.mark_offset.points
    room = 2 * (margin + offset + MIN_MARK)
    shared = profile.shared_cuts
    if shared:  # cards abut; the bleed goes only around the block
        cell_w, cell_h, edge = cw, ch, 2 * bleed
    else:
        cell_w, cell_h, edge = cw + 2 * bleed, ch + 2 * bleed, 0.0
    cols = math.floor((avail_w - room - edge + gutter) / (cell_w + gutter) + 1e-9)
    rows = math.floor((avail_h - room - edge + gutter) / (cell_h + gutter) + 1e-9)
    if cols < 1 or rows < 1:
        return None
    width = cols * cell_w + (cols - 1) * gutter + edge
    height = rows * cell_h + (rows - 1) * gutter + edge
    space = min(avail_w - width, avail_h - height) / 2 - margin - offset
    length = max(0.0, min(profile.mark_length.points, space))
    return Grid(
        avail_w, avail_h, cw, ch, rotated, cols, rows, bleed, gutter, 0.0, 0.0, length, offset, shared
    )
