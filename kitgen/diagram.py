"""Step diagrams: the table as the engine recorded it, as drawing data and as a drawing.

:func:`step_diagram` turns the trace events of one numbered step into a :class:`Diagram`:
the table after the step (regions as rows x columns, each cell a card face up or face
down, or empty), the cells whose card changed, the piles of a shuffle, the moves of a
rearrangement, the encoding labels and the cards taken from or returned to the spares.
Wide regions are elided: the first and last columns are kept and a gap mark says how many
are left out, so a 108-card matrix stays legible.

:class:`DiagramFlowable` draws a diagram from that data alone (face-down cards with the
kit's back, face-up cards with their faces), so what the booklet prints is exactly what
``booklet.json`` records and what the tests compare with the trace.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.colors import Color, HexColor, black
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from reference_engine.api import Event, Snapshot, glyph

from .faces import FONT, FONT_BOLD, Face, draw_back, draw_face
from .units import mm

SLOT = re.compile(r"^(\w+)\[(\d+)(?:,\s*(\d+))?\]$")
HIGHLIGHT = HexColor("#E69F00")
PILE = HexColor("#56B4E9")
MUTED = HexColor("#555555")
HINT = mm(3.4)  # room under each card row for the hidden face


@dataclass
class Cell:
    symbol: str | None  # None: an empty place
    up: bool = False
    changed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"symbol": self.symbol, "up": self.up, "changed": self.changed}


@dataclass
class Region:
    name: str
    title: str
    rows: int
    cols: int
    shown: list[int | None]  # the columns drawn, in order; None marks an elided run
    cells: list[list[Cell | None]]  # rows x shown; None under a gap
    labels: list[dict[str, Any]] = field(default_factory=list)  # text, row, first, last column
    piles: list[list[tuple[int, int]]] = field(default_factory=list)  # (row, column) cells of each pile
    arrows: list[tuple[int, int]] = field(default_factory=list)  # column moved from, to

    @property
    def hidden(self) -> int:
        return self.cols - sum(1 for c in self.shown if c is not None)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "rows": self.rows,
            "cols": self.cols,
            "shown": self.shown,
            "cells": [[None if c is None else c.to_json() for c in row] for row in self.cells],
            "labels": self.labels,
            "piles": [[list(rc) for rc in p] for p in self.piles],
            "arrows": [list(a) for a in self.arrows],
        }


@dataclass
class Diagram:
    protocol: str
    step: str
    events: list[int]  # trace indices the diagram covers (first and last)
    regions: list[Region]
    action: str  # the main action of the step: place, shuffle, turn, ...
    taken: dict[str, int] = field(default_factory=dict)  # from the spares during the step
    returned: dict[str, int] = field(default_factory=dict)  # back to the spares
    caption: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "step": self.step,
            "caption": self.caption,
            "events": self.events,
            "action": self.action,
            "regions": [r.to_json() for r in self.regions],
            "taken": self.taken,
            "returned": self.returned,
        }


MAIN_ACTIONS = ("shuffle", "rearrange", "swap", "turn", "place", "take", "move", "return", "discard", "call")


def parse_slot(text: str) -> tuple[str, int, int] | None:
    """``M[2, 5]`` -> (M, 2, 5); ``s[3]`` -> (s, 1, 3)."""
    m = SLOT.match(text.strip())
    if not m:
        return None
    if m.group(3) is None:
        return m.group(1), 1, int(m.group(2))
    return m.group(1), int(m.group(2)), int(m.group(3))


def region_title(name: str) -> str:
    if name.startswith("hand") and name[4:].isdigit():
        return f"P{name[4:]}'s hand"
    return name


def _cells(snapshot: Snapshot) -> dict[str, dict[str, Any]]:
    return {reg["name"]: reg for reg in snapshot.regions}


def _choose_columns(cols: int, capacity: int) -> list[int | None]:
    """Every column if they fit; else the first and last ones around one gap mark."""
    if cols <= capacity:
        return list(range(1, cols + 1))
    room = max(3, capacity) - 1  # one place for the gap mark
    head = (room + 1) // 2
    tail = room - head
    shown: list[int | None] = list(range(1, head + 1))
    shown.append(None)
    shown.extend(range(cols - tail + 1, cols + 1))
    return shown


def step_diagrams(events: Sequence[Event], capacity: int) -> list[Diagram]:
    """The pictures of one step: the table at its end and, when cards are turned face up and
    then put away within the step, the table just after they were turned as well."""
    if not events:
        return []
    reveal = next((i for i, e in enumerate(events) if e.action == "turn" and e.detail.get("revealed")), None)
    if reveal is not None and reveal < len(events) - 1:
        rest = events[reveal + 1 :]
        if any(e.before.regions != e.after.regions for e in rest):
            first = step_diagram(events[: reveal + 1], capacity)
            second = step_diagram(rest, capacity)
            out = []
            if first is not None:
                first.caption = "Just after the cards are turned over:"
                out.append(first)
            if second is not None:
                second.caption = "At the end of the step:"
                out.append(second)
            return out
    one = step_diagram(events, capacity)
    return [one] if one is not None else []


def step_diagram(events: Sequence[Event], capacity: int) -> Diagram | None:
    """The diagram of one step from its top-level events (``None`` if nothing is on the table)."""
    if not events:
        return None
    first, last = events[0], events[-1]
    before, after = _cells(first.before), _cells(last.after)
    actions = [e.action for e in events]
    action = next((a for a in MAIN_ACTIONS if a in actions), actions[0])
    regions: list[Region] = []
    piles: dict[str, list[list[tuple[int, int]]]] = {}
    arrows: dict[str, list[tuple[int, int]]] = {}
    for e in events:
        if e.action == "shuffle":
            for pile in e.detail.get("piles", []):
                cells = [p for p in (parse_slot(t) for t in pile) if p is not None]
                if cells:
                    piles.setdefault(cells[0][0], []).append([(r, c) for _, r, c in cells])
        elif e.action == "rearrange" and e.detail.get("axis") in ("cards", "columns"):
            arrows.setdefault(str(e.detail.get("region")), []).extend(
                (int(a), int(b)) for a, b in e.detail.get("moves", [])
            )
    shuffled = action == "shuffle"
    for name, reg in after.items():
        if not any(c is not None for row in reg["cells"] for c in row):
            continue
        old = before.get(name)
        # Columns taken out shift the rest left: comparing places would mark them all.
        compare = not shuffled and (old is None or old["cols"] <= reg["cols"])
        shown = _choose_columns(reg["cols"], capacity)
        rows: list[list[Cell | None]] = []
        for r in range(reg["rows"]):
            row: list[Cell | None] = []
            for c in shown:
                if c is None:
                    row.append(None)
                    continue
                now = reg["cells"][r][c - 1]
                was = None
                if old is not None and r < old["rows"] and c <= old["cols"]:
                    was = old["cells"][r][c - 1]
                changed = compare and _key(now) != _key(was)
                if now is None:
                    row.append(Cell(None, False, changed))
                else:
                    row.append(Cell(now["symbol"], bool(now["up"]), changed))
            rows.append(row)
        labels: list[dict[str, Any]] = []
        for lab in last.after.labels:
            where = [(r, c) for reg_name, r, c in lab["slots"] if reg_name == name]
            # Only labels under the bottom row are drawn: there is no room between rows.
            if where and max(r for r, _ in where) == reg["rows"]:
                lo, hi = min(c for _, c in where), max(c for _, c in where)
                # A later label over the same places (the step's own ``labels:``) replaces an
                # earlier one (a region's name that stuck to its cards): never two on one spot.
                labels = [x for x in labels if x["last"] < lo or x["first"] > hi]
                labels.append({"text": lab["text"], "row": max(r for r, _ in where), "first": lo, "last": hi})
        regions.append(
            Region(
                name,
                region_title(name),
                reg["rows"],
                reg["cols"],
                shown,
                rows,
                labels,
                piles.get(name, []),
                arrows.get(name, []),
            )
        )
    # The table's regions in the order the trace keeps them, owners' hands last, P1's first.
    regions.sort(key=lambda reg: _hand_number(reg.name))
    before_out, after_out = first.before.supply_out, last.after.supply_out
    # In a fixed order (α before β, θ1 before θ2), whatever order the cards were first named in.
    taken = {
        k: after_out[k] - before_out.get(k, 0)
        for k in sorted(after_out, key=_natural)
        if after_out[k] > before_out.get(k, 0)
    }
    returned = {
        k: before_out[k] - after_out.get(k, 0)
        for k in sorted(before_out, key=_natural)
        if before_out[k] > after_out.get(k, 0)
    }
    return Diagram(last.protocol, str(last.step), [first.index, last.index], regions, action, taken, returned)


def _natural(name: str) -> tuple[Any, ...]:
    """``theta2`` before ``theta10``: names with their numbers compared as numbers."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def _hand_number(name: str) -> int:
    return int(name[4:]) if name.startswith("hand") and name[4:].isdigit() else 0


def _key(cell: dict[str, Any] | None) -> tuple[str, bool] | None:
    return None if cell is None else (str(cell["symbol"]), bool(cell["up"]))


# --------------------------------------------------------------------------- drawing

FaceOf = Callable[[str], Face]


@dataclass(frozen=True)
class Geometry:
    card_w: float
    card_h: float
    gap: float
    label_w: float

    @property
    def pitch(self) -> float:
        return self.card_w + self.gap


def geometry(card_ratio: float, width: float, card_w: float = mm(9.5)) -> tuple[Geometry, int]:
    """Card pictures of ``card_w`` and how many columns fit in ``width``."""
    g = Geometry(card_w, card_w * card_ratio, mm(1.6), mm(14))
    return g, max(3, int((width - g.label_w + g.gap) // g.pitch))


class DiagramFlowable(Flowable):
    """Draws a :class:`Diagram` (and nothing that is not in it)."""

    def __init__(self, diagram: Diagram, geo: Geometry, face_of: FaceOf, max_height: float | None = None):
        super().__init__()
        self.diagram = diagram
        self.geo = geo
        self.face_of = face_of
        # A table taller than this (a weighted selection's column of tickets) is drawn smaller.
        self.max_height = max_height
        self.scale = 1.0
        self.natural = 0.0

    def _region_height(self, reg: Region) -> float:
        g = self.geo
        h = reg.rows * g.card_h + (reg.rows - 1) * g.gap + reg.rows * HINT
        if reg.labels:
            h += mm(4.5)
        if reg.arrows:
            h += mm(4) + mm(1.2) * max(abs(a - b) for a, b in reg.arrows)
        return h + mm(3)

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        self.width = avail_w
        caption = mm(5) if self.diagram.caption else 0
        self.natural = sum(self._region_height(r) for r in self.diagram.regions) + mm(1) + caption
        self.scale = 1.0
        if self.max_height is not None and self.natural > self.max_height:
            self.scale = self.max_height / self.natural
        self.height = self.natural * self.scale
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        if self.scale != 1.0:
            c.scale(self.scale, self.scale)
        y = self.natural
        if self.diagram.caption:
            c.setFont(FONT, 7.5)
            c.setFillColor(MUTED)
            c.drawString(self.geo.label_w, y - mm(3.5), self.diagram.caption)
            y -= mm(5)
        for reg in self.diagram.regions:
            y -= self._region_height(reg)
            self._draw_region(c, reg, y)

    def _x(self, reg: Region, col: int) -> float | None:
        if col not in reg.shown:
            return None
        return self.geo.label_w + reg.shown.index(col) * self.geo.pitch

    def _draw_region(self, c: Canvas, reg: Region, y0: float) -> None:
        g = self.geo
        base = y0 + mm(3) + (mm(4.5) if reg.labels else 0)
        top = base + reg.rows * (g.card_h + HINT) + (reg.rows - 1) * g.gap

        def row_y(r: int) -> float:  # bottom of row r (1 = top row)
            return top - r * g.card_h - (r - 1) * (g.gap + HINT)

        c.setFillColor(black)
        lines, size = title_lines(reg.title, g.label_w - mm(1.5))
        c.setFont(FONT_BOLD, size)
        for n, line in enumerate(lines):
            c.drawString(0, top - mm(3.5) - n * size * 1.15, line)
        if reg.hidden:
            c.setFont(FONT, 6)
            c.setFillColor(MUTED)
            below = mm(7) if len(lines) == 1 else mm(4.5) + len(lines) * size * 1.15
            c.drawString(0, top - below, f"{reg.rows} × {reg.cols}")
        for r, row in enumerate(reg.cells, 1):
            for i, cell in enumerate(row):
                x = g.label_w + i * g.pitch
                if cell is None:
                    if r == 1:
                        self._gap(c, x, row_y(reg.rows), top, reg.hidden)
                    continue
                self._card(c, cell, x, row_y(r))
        for pile in reg.piles:
            xs = [self._x(reg, col) for _, col in pile]
            if any(x is None for x in xs):
                continue
            rows = [r for r, _ in pile]
            x0 = min(x for x in xs if x is not None) - mm(0.6)
            x1 = max(x for x in xs if x is not None) + g.card_w + mm(0.6)
            y_lo = row_y(max(rows)) - mm(0.6)
            y_hi = row_y(min(rows)) + g.card_h + mm(0.6)
            c.setStrokeColor(PILE)
            c.setLineWidth(0.9)
            c.setDash(2, 1.5)
            c.roundRect(x0, y_lo, x1 - x0, y_hi - y_lo, mm(1), stroke=1, fill=0)
            c.setDash()
        for lab in reg.labels:
            xa, xb = self._x(reg, lab["first"]), self._x(reg, lab["last"])
            if xa is None or xb is None:
                continue
            yb = row_y(lab["row"]) - HINT - mm(0.6)
            c.setStrokeColor(black)
            c.setLineWidth(0.5)
            c.line(xa + mm(0.5), yb, xb + g.card_w - mm(0.5), yb)
            c.line(xa + mm(0.5), yb, xa + mm(0.5), yb + mm(0.8))
            c.line(xb + g.card_w - mm(0.5), yb, xb + g.card_w - mm(0.5), yb + mm(0.8))
            c.setFillColor(black)
            c.setFont(FONT, 7)
            gap = (
                reg.shown.index(lab["first"]) < reg.shown.index(None) < reg.shown.index(lab["last"])
                if None in reg.shown
                else False
            )
            if gap:  # the middle is the gap mark: write the label under the first card
                c.drawString(xa + mm(0.5), yb - mm(3), lab["text"])
            else:
                c.drawCentredString((xa + xb + g.card_w) / 2, yb - mm(3), lab["text"])
        for src, dst in reg.arrows:
            xa, xb = self._x(reg, src), self._x(reg, dst)
            if xa is None or xb is None or src == dst:
                continue
            self._arrow(
                c, xa + g.card_w / 2, xb + g.card_w / 2, top + mm(1), mm(2.5) + mm(1.2) * abs(src - dst)
            )

    def _card(self, c: Canvas, cell: Cell, x: float, y: float) -> None:
        g = self.geo
        if cell.symbol is None:
            c.setStrokeColor(MUTED)
            c.setLineWidth(0.4)
            c.setDash(1, 1.5)
            c.roundRect(x, y, g.card_w, g.card_h, mm(0.8), stroke=1, fill=0)
            c.setDash()
        else:
            c.saveState()
            p = c.beginPath()
            p.roundRect(x, y, g.card_w, g.card_h, mm(0.8))
            c.clipPath(p, stroke=0, fill=0)
            c.translate(x, y)
            scale = g.card_w / mm(56)
            c.scale(scale, scale)
            w, h = mm(56), g.card_h / scale
            if cell.up:
                draw_face(c, self.face_of(cell.symbol), w, h, 0, mm(3))
            else:
                draw_back(c, w, h, 0)
            c.restoreState()
            if not cell.up:
                # What is underneath, for the reader of the worked example (nobody at the table sees it).
                c.setFont(FONT, 6)
                c.setFillColor(MUTED)
                c.drawCentredString(x + g.card_w / 2, y - HINT + mm(1.2), glyph(cell.symbol))
            c.setStrokeColor(HexColor("#999999"))
            c.setLineWidth(0.3)
            c.roundRect(x, y, g.card_w, g.card_h, mm(0.8), stroke=1, fill=0)
        if cell.changed:
            c.setStrokeColor(HIGHLIGHT)
            c.setLineWidth(1.6)
            c.roundRect(
                x - mm(0.5), y - mm(0.5), g.card_w + mm(1), g.card_h + mm(1), mm(1.1), stroke=1, fill=0
            )

    def _gap(self, c: Canvas, x: float, y_lo: float, y_hi: float, hidden: int) -> None:
        g = self.geo
        c.setFillColor(MUTED)
        c.setFont(FONT_BOLD, 11)
        mid = (y_lo + y_hi) / 2
        c.drawCentredString(x + g.card_w / 2, mid + mm(1), "…")
        c.setFont(FONT, 5.5)
        c.drawCentredString(x + g.card_w / 2, mid - mm(2.5), f"{hidden} more")
        c.drawCentredString(x + g.card_w / 2, mid - mm(4.7), "columns" if hidden != 1 else "column")

    def _arrow(self, c: Canvas, xa: float, xb: float, y: float, lift: float) -> None:
        colour: Color = HIGHLIGHT
        c.setStrokeColor(colour)
        c.setFillColor(colour)
        c.setLineWidth(1)
        p = c.beginPath()
        p.moveTo(xa, y)
        p.curveTo(xa, y + lift, xb, y + lift, xb, y + mm(0.6))
        c.drawPath(p, stroke=1, fill=0)
        p = c.beginPath()
        p.moveTo(xb, y)
        p.lineTo(xb - mm(1), y + mm(1.8))
        p.lineTo(xb + mm(1), y + mm(1.8))
        p.close()
        c.drawPath(p, stroke=0, fill=1)


def title_lines(title: str, width: float) -> tuple[list[str], float]:
    """A region's title in the label column ``width`` wide: on one line, shrunk from 8 pt down to
    5 pt to fit; a title too long even at 5 pt (a player's long name, "back to the virtual
    player") wraps at 6.5 pt instead of running under the cards."""
    size = 8.0
    while size > 5 and stringWidth(title, FONT_BOLD, size) > width:
        size -= 0.5
    if stringWidth(title, FONT_BOLD, size) <= width:
        return [title], size
    return simpleSplit(title, FONT_BOLD, 6.5, width), 6.5
