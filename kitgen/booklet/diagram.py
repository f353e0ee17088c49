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
from typing import TypedDict

from reportlab.lib.colors import HexColor, black
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from reference_engine.api import CardJSON, Event, RegionJSON, Snapshot, glyph, shown_cells

from ..core.units import mm
from ..lang.catalogue import _, ngettext
from ..lang.wrap import breaks_between_characters, fitted_lines
from ..paper.drawing import draw_back, draw_face
from ..paper.faces import FONT, FONT_BOLD, Face

SLOT = re.compile(r"^(\w+)\[(\d+)(?:,\s*(\d+))?\]$")
HIGHLIGHT = HexColor("#E69F00")
PILE = HexColor("#56B4E9")
SLEEVE = HexColor("#009E73")  # a sleeve lying front up
SLEEVE_BACK = HexColor("#1F2A44")  # a sleeve lying back up (its solid back)
MUTED = HexColor("#4D4D4D")
HINT = mm(4.4)  # room under each card row for the hidden face, clear of a changed place's frame


@dataclass
class Cell:
    symbol: str | None  # None: an empty place
    up: bool = False
    changed: bool = False

    def to_json(self) -> dict[str, object]:
        return {"symbol": self.symbol, "up": self.up, "changed": self.changed}


class RegionLabel(TypedDict):
    """A label drawn under a region's bottom row: its text, its row and first and last column."""

    text: str
    row: int
    first: int
    last: int


@dataclass
class Region:
    name: str
    title: str
    rows: int
    cols: int
    shown: list[int | None]  # the columns drawn, in order; None marks an elided run
    cells: list[list[Cell | None]]  # rows x shown; None under a gap
    labels: list[RegionLabel] = field(default_factory=list)
    piles: list[list[tuple[int, int]]] = field(default_factory=list)  # (row, column) cells of each pile
    arrows: list[tuple[int, int]] = field(default_factory=list)  # column moved from, to
    # Sleeves: every column is one sleeve holding the top ``sleeve_rows`` rows drawn (the rows
    # inside come first, loose ones below), lying ``sleeve_side`` up; "" when not in sleeves.
    sleeve_side: str = ""
    sleeve_rows: int = 0
    sleeve_kind: str = "sleeve"

    @property
    def hidden(self) -> int:
        return self.cols - sum(1 for c in self.shown if c is not None)

    def to_json(self) -> dict[str, object]:
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
            **({"sleeves": {"side": self.sleeve_side, "rows": self.sleeve_rows}} if self.sleeve_side else {}),
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
    # Cards that live in their sleeve (an owner card) and went home with it, not to the spares.
    sleeved: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "protocol": self.protocol,
            "step": self.step,
            "caption": self.caption,
            "events": self.events,
            "action": self.action,
            "regions": [r.to_json() for r in self.regions],
            "taken": self.taken,
            "returned": self.returned,
            **({"sleeved": self.sleeved} if self.sleeved else {}),
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


def _cells(snapshot: Snapshot) -> dict[str, RegionJSON]:
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
        # A reveal the sleeves then show (or a card slid out shows) is one picture, not two.
        if any(e.before.regions != e.after.regions for e in rest) and any(e.action != "sleeve" for e in rest):
            first = step_diagram(events[: reveal + 1], capacity)
            second = step_diagram(rest, capacity)
            out = []
            if first is not None:
                first.caption = _("Just after the cards are turned over:")
                out.append(first)
            if second is not None:
                second.caption = _("At the end of the step:")
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
    moved: dict[str, set[tuple[int | None, int | None]]] = {}  # (row, column) given a card by a move
    for e in events:
        if e.action == "shuffle":
            for pile in e.detail.get("piles", []):
                cells = [p for p in (parse_slot(t) for t in pile) if p is not None]
                if cells:
                    piles.setdefault(cells[0][0], []).append([(r, c) for _, r, c in cells])
        elif e.action == "rearrange" and e.detail.get("axis") in ("cards", "columns"):
            region = str(e.detail.get("region"))
            arrows.setdefault(region, []).extend((int(a), int(b)) for a, b in e.detail.get("moves", []))
            moved.setdefault(region, set()).update((None, int(b)) for _, b in e.detail.get("moves", []))
        elif e.action == "rearrange" and e.detail.get("axis") == "rows":
            region = str(e.detail.get("region"))
            moved.setdefault(region, set()).update((int(b), None) for _, b in e.detail.get("moves", []))
    shuffled = action == "shuffle"
    for name, reg in after.items():
        if not any(c is not None for row in reg["cells"] for c in row):
            continue
        old = before.get(name)
        # Columns taken out shift the rest left: comparing places would mark them all.
        compare = not shuffled and (old is None or old["cols"] <= reg["cols"])
        shown = _choose_columns(reg["cols"], capacity)
        rows: list[list[Cell | None]] = []
        sleeve = reg.get("sleeve")
        seen = shown_cells(reg)  # a card a sleeve hides is drawn as the table sees it: a back
        seen_before = shown_cells(old) if old is not None else set()
        inside = [r - 1 for r in range(1, reg["rows"] + 1) if sleeve is not None and r in sleeve["rows"]]
        order = inside + [r for r in range(reg["rows"]) if r not in inside]  # loose rows below
        for r in order:
            row: list[Cell | None] = []
            for c in shown:
                if c is None:
                    row.append(None)
                    continue
                now = reg["cells"][r][c - 1]
                was = None
                if old is not None and r < old["rows"] and c <= old["cols"]:
                    was = old["cells"][r][c - 1]
                # A place changed when another card lies there: a different face, or a card that a
                # rearrangement moved in (it may show the same face, as two backs do).
                marks = moved.get(name, set())
                given = (None, c) in marks or (r + 1, None) in marks
                # What the table sees changed: a card a sleeve hides before and after has not.
                shows = _key(now, (r + 1, c) in seen) != _key(was, (r + 1, c) in seen_before)
                changed = (compare and shows) or (given and now is not None)
                if now is None:
                    row.append(Cell(None, False, changed))
                else:
                    row.append(Cell(now["symbol"], bool(now["up"]) and (r + 1, c) in seen, changed))
            rows.append(row)
        labels: list[RegionLabel] = []
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
                sleeve["side"] if sleeve is not None else "",
                len(inside),
                sleeve["kind"] if sleeve is not None else "sleeve",
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
    sleeved = kept_in_sleeves(events)
    for k, n in sleeved.items():  # they went home in their sleeves: not to the spares
        left = returned.get(k, 0) - n
        if left > 0:
            returned[k] = left
        else:
            returned.pop(k, None)
    return Diagram(
        last.protocol,
        str(last.step),
        [first.index, last.index],
        regions,
        action,
        taken,
        returned,
        "",
        sleeved,
    )


def kept_in_sleeves(events: Sequence[Event]) -> dict[str, int]:
    """Symbol -> how many cards the events put away from a sleeve that keeps them (an owner card
    that lives in its sleeve): they leave the table with their sleeve, not for the spares."""
    out: dict[str, int] = {}
    for e in events:
        if e.action != "discard":
            continue
        regions = _cells(e.before)
        for slot in e.detail.get("cards", []):
            where = parse_slot(str(slot))
            reg = regions.get(where[0]) if where else None
            sleeve = reg.get("sleeve") if reg is not None else None
            if where is None or reg is None or sleeve is None:
                continue
            _, r, c = where
            card = reg["cells"][r - 1][c - 1]
            if card is not None and r in sleeve["rows"] and r in sleeve["keeps"]:
                out[str(card["symbol"])] = out.get(str(card["symbol"]), 0) + 1
    return dict(sorted(out.items(), key=lambda kv: _natural(kv[0])))


def _natural(name: str) -> tuple[int | str, ...]:
    """``theta2`` before ``theta10``: names with their numbers compared as numbers."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def _hand_number(name: str) -> int:
    return int(name[4:]) if name.startswith("hand") and name[4:].isdigit() else 0


def _key(cell: CardJSON | None, seen: bool = True) -> tuple[str, bool] | None:
    return None if cell is None else (str(cell["symbol"]), bool(cell["up"]) and seen)


# --------------------------------------------------------------------------- drawing

FaceOf = Callable[[str], Face]
ARROW = HexColor("#A35200")  # the arrows of a rearrangement: dark enough to read at print size
TITLE_SIZE = 7.5
ARROW_STEP = mm(2.8)  # height between two levels of arrows
MOVES_LEADING = mm(3.4)  # a line of the moves in words


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
    g = Geometry(card_w, card_w * card_ratio, mm(1.6), mm(15))
    return g, max(3, int((width - g.label_w + g.gap) // g.pitch))


def title_lines(title: str, width: float) -> tuple[list[str], float]:
    """A region's title broken into lines that fit ``width`` (at most three), and the type size:
    words wrap first, and only a word wider than the column makes the type smaller."""
    if breaks_between_characters():  # Japanese: no spaces to break at (kitgen.lang.wrap)
        return fitted_lines(title, width, FONT_BOLD, TITLE_SIZE, 4.5, 3)
    size = TITLE_SIZE
    while True:
        lines: list[str] = []
        for word in title.split():
            trial = f"{lines[-1]} {word}" if lines else word
            if lines and stringWidth(trial, FONT_BOLD, size) <= width:
                lines[-1] = trial
            else:
                lines.append(word)
        fits = all(stringWidth(line, FONT_BOLD, size) <= width for line in lines)
        if (fits and len(lines) <= 3) or size <= 4.5:
            return lines, size
        size -= 0.5


def extent_words(reg: Region) -> str:
    """How large an elided region is, under its name: "4 × 92" of loose cards, "92 sleeves"
    when every column is one sleeve (the table holds sleeves, not a grid of loose cards)."""
    if reg.sleeve_side and reg.sleeve_rows:
        if reg.sleeve_kind == "envelope":
            return ngettext("{n} envelope", "{n} envelopes", reg.cols).format(n=reg.cols)
        return ngettext("{n} sleeve", "{n} sleeves", reg.cols).format(n=reg.cols)
    return f"{reg.rows} × {reg.cols}"


def arrow_levels(arrows: Sequence[tuple[int, int]]) -> list[int]:
    """A level (0, 1, ...) for each move, so that moves over the same columns never share a
    level: the shortest moves lowest."""
    order = sorted(range(len(arrows)), key=lambda i: (abs(arrows[i][0] - arrows[i][1]), min(arrows[i])))
    taken: list[list[tuple[int, int]]] = []
    levels = [0] * len(arrows)
    for i in order:
        lo, hi = sorted(arrows[i])
        level = 0
        while level < len(taken) and any(not (hi < a or lo > b) for a, b in taken[level]):
            level += 1
        if level == len(taken):
            taken.append([])
        taken[level].append((lo, hi))
        levels[i] = level
    return levels


class DiagramFlowable(Flowable):
    """Draws a :class:`Diagram` (and nothing that is not in it)."""

    def __init__(
        self,
        diagram: Diagram,
        geo: Geometry,
        face_of: FaceOf,
        ink_saver: bool = False,
        max_height: float | None = None,
    ):
        super().__init__()
        self.diagram = diagram
        self.geo = geo
        self.face_of = face_of
        self.ink_saver = ink_saver
        # A table taller than this (a weighted selection's column of tickets) is drawn smaller.
        self.max_height = max_height
        self.scale = 1.0
        self.natural = 0.0

    def _moves(self, reg: Region) -> list[tuple[int, int]]:
        return [(a, b) for a, b in reg.arrows if a != b and a in reg.shown and b in reg.shown]

    def _arrows_height(self, reg: Region) -> float:
        moves = self._moves(reg)
        if not moves:
            return 0.0
        return mm(3.5) + ARROW_STEP * max(arrow_levels(moves)) + mm(1)

    def _region_height(self, reg: Region) -> float:
        g = self.geo
        h = reg.rows * g.card_h + (reg.rows - 1) * g.gap + reg.rows * HINT
        lines, size = title_lines(reg.title, g.label_w - mm(1.5))
        h = max(h, len(lines) * size * 1.2 + (mm(4) if reg.hidden else 0))
        if reg.labels:
            h += mm(4.5)
        h += self._arrows_height(reg)
        h += len(self._moves_lines(reg)) * MOVES_LEADING + (mm(1) if self._moves(reg) else 0)
        return h + mm(3)

    def _moves_lines(self, reg: Region) -> list[str]:
        """The moves in words, broken into lines as wide as the diagram."""
        moves = self._moves(reg)
        if not moves:
            return []
        text = _("Moves (places counted from the left): ") + _(", ").join(f"{a} → {b}" for a, b in moves)
        width = max(getattr(self, "width", 0.0), mm(100)) - self.geo.label_w
        lines: list[str] = []
        for word in text.split(" "):
            trial = f"{lines[-1]} {word}" if lines else word
            if lines and stringWidth(trial, FONT, 7) <= width:
                lines[-1] = trial
            else:
                lines.append(word)
        return lines

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
            h = self._region_height(reg)
            self._draw_region(c, reg, y - h, y)
            y -= h

    def _x(self, reg: Region, col: int) -> float | None:
        if col not in reg.shown:
            return None
        return self.geo.label_w + reg.shown.index(col) * self.geo.pitch

    def _draw_region(self, c: Canvas, reg: Region, y0: float, y_top: float) -> None:
        g = self.geo
        moves = self._moves(reg)
        top = y_top - self._arrows_height(reg)

        def row_y(r: int) -> float:  # bottom of row r (1 = top row)
            return top - r * g.card_h - (r - 1) * (g.gap + HINT)

        # The region's name: in the column left of the cards, broken into lines, never under a card.
        lines, size = title_lines(reg.title, g.label_w - mm(1.5))
        c.setFillColor(black)
        c.setFont(FONT_BOLD, size)
        for k, line in enumerate(lines):
            c.drawString(0, top - size * (1.0 + 1.2 * k), line)
        if reg.hidden:
            c.setFont(FONT, 6)
            c.setFillColor(MUTED)
            c.drawString(0, top - size * 1.2 * len(lines) - mm(2.5), extent_words(reg))
        for r, row in enumerate(reg.cells, 1):
            for i, cell in enumerate(row):
                x = g.label_w + i * g.pitch
                if cell is None:
                    if r == 1:
                        self._gap(c, x, row_y(reg.rows), top, reg.hidden)
                    continue
                self._card(c, cell, x, row_y(r))
        if reg.sleeve_side and reg.sleeve_rows:
            self._sleeves(c, reg, row_y)
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
        bottom = row_y(reg.rows) - HINT
        for lab in reg.labels:
            xa, xb = self._x(reg, lab["first"]), self._x(reg, lab["last"])
            if xa is None or xb is None:
                continue
            yb = row_y(lab["row"]) - HINT - mm(0.4)
            c.setStrokeColor(black)
            c.setLineWidth(0.5)
            c.line(xa + mm(0.5), yb, xb + g.card_w - mm(0.5), yb)
            c.line(xa + mm(0.5), yb, xa + mm(0.5), yb + mm(0.7))
            c.line(xb + g.card_w - mm(0.5), yb, xb + g.card_w - mm(0.5), yb + mm(0.7))
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
        if reg.labels:
            bottom -= mm(4.5)
        if moves:
            self._arrows(c, reg, moves, top)
            c.setFont(FONT, 7)
            c.setFillColor(black)
            for k, line in enumerate(self._moves_lines(reg)):
                c.drawString(g.label_w, bottom - mm(3.2) - k * MOVES_LEADING, line)

    def _sleeves(self, c: Canvas, reg: Region, row_y: Callable[[int], float]) -> None:
        """Each column's sleeve around the rows inside it: a solid frame lying front up (clear
        front), a thick dark one lying back up (the table sees only the solid back)."""
        g = self.geo
        y_lo = row_y(reg.sleeve_rows) - mm(0.9)
        y_hi = row_y(1) + g.card_h + mm(0.9)
        for i, col in enumerate(reg.shown):
            held = [row[i] for row in reg.cells[: reg.sleeve_rows]]
            if col is None or all(cell is None or cell.symbol is None for cell in held):
                continue
            x = g.label_w + i * g.pitch
            back = reg.sleeve_side == "back" or reg.sleeve_kind == "envelope"
            c.setStrokeColor(SLEEVE_BACK if back else SLEEVE)
            c.setLineWidth(1.4 if back else 0.8)
            c.roundRect(x - mm(0.9), y_lo, g.card_w + mm(1.8), y_hi - y_lo, mm(1.2), stroke=1, fill=0)

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
                draw_face(c, self.face_of(cell.symbol), w, h, 0, mm(3), self.ink_saver)
            else:
                draw_back(c, w, h, 0, self.ink_saver)
            c.restoreState()
            c.setStrokeColor(HexColor("#999999"))
            c.setLineWidth(0.3)
            c.roundRect(x, y, g.card_w, g.card_h, mm(0.8), stroke=1, fill=0)
        if cell.changed:
            c.setStrokeColor(HIGHLIGHT)
            c.setLineWidth(1.6)
            c.roundRect(
                x - mm(0.5), y - mm(0.5), g.card_w + mm(1), g.card_h + mm(1), mm(1.1), stroke=1, fill=0
            )
        if cell.symbol is not None and not cell.up:
            # What is underneath, for the reader of the worked example (nobody at the table sees
            # it): under the card and clear of its frame.
            c.setFont(FONT, 6)
            c.setFillColor(MUTED)
            c.drawCentredString(x + g.card_w / 2, y - mm(3.0), glyph(cell.symbol))

    def _gap(self, c: Canvas, x: float, y_lo: float, y_hi: float, hidden: int) -> None:
        g = self.geo
        c.setFillColor(MUTED)
        c.setFont(FONT_BOLD, 11)
        mid = (y_lo + y_hi) / 2
        c.drawCentredString(x + g.card_w / 2, mid + mm(1), "…")
        c.setFont(FONT, 5.5)
        more = ngettext("{n} more\ncolumn", "{n} more\ncolumns", hidden).format(n=hidden).split("\n")
        for k, line in enumerate(more[:2]):
            c.drawCentredString(x + g.card_w / 2, mid - mm(2.5 + 2.2 * k), line)

    def _arrows(self, c: Canvas, reg: Region, moves: Sequence[tuple[int, int]], top: float) -> None:
        """Each move as an arrow above the cards, from the place a card leaves (left of that
        place's middle) to the place it comes to (right of the middle), on its own level."""
        g = self.geo
        levels = arrow_levels(moves)
        base = top + mm(1.4)
        for (src, dst), level in zip(moves, levels):
            xa, xb = self._x(reg, src), self._x(reg, dst)
            assert xa is not None and xb is not None
            tail = xa + g.card_w / 2 - mm(1.4)
            head = xb + g.card_w / 2 + mm(1.4)
            y = base + mm(2) + level * ARROW_STEP
            c.setStrokeColor(ARROW)
            c.setFillColor(ARROW)
            c.setLineWidth(1.1)
            c.setLineJoin(1)
            p = c.beginPath()
            p.moveTo(tail, base)
            p.lineTo(tail, y)
            p.lineTo(head, y)
            p.lineTo(head, base + mm(1.6))
            c.drawPath(p, stroke=1, fill=0)
            p = c.beginPath()
            p.moveTo(head, base - mm(0.3))
            p.lineTo(head - mm(1.1), base + mm(1.7))
            p.lineTo(head + mm(1.1), base + mm(1.7))
            p.close()
            c.drawPath(p, stroke=0, fill=1)
