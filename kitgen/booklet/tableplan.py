"""The whole table at a virtual turn, seen from above: who sits where, what lies where.

A game booklet shows it once, before the virtual turn chapter: the places of the people and of
the virtual players (an empty place, its cards face down in a row), the owner card at each
place, the game's own piles in the middle, the rows of the protocol's sleeves or columns for
the largest turn, the spare helper cards and the envelopes. Every size is from the kit's own
figures: the rows of the protocol from the table-space model (:class:`kitgen.cost.kitcost.Footprint`,
the largest table the simulated games saw), the hands from the worked example, the spares and
envelopes from the bill of materials. :class:`TablePlan` is the drawing as data (in cm, for the
tests); :class:`TablePlanFlowable` draws it to scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from ..core.units import mm
from ..core.words import plural
from ..cost.kitcost import GAP_CM, Footprint
from ..lang.catalogue import SOURCE, _, language, ngettext
from ..lang.seats import seat_name
from ..paper.drawing import draw_back, draw_face
from ..paper.faces import FONT, FONT_BOLD, Face

PAD = 4.0  # cm between the table's edge and what lies on it
SPACE = 3.0  # cm between the groups on the table
SEAT = (34.0, 12.0)  # a place at the table, cm (drawn outside the table's edge)
WOOD = HexColor("#F3EBDD")
EDGE = HexColor("#8C7A5B")
INK = HexColor("#1A1A1A")
MUTED = HexColor("#4D4D4D")
ROWS = HexColor("#0072B2")
ROWS_INK = HexColor("#005080")  # the rows caption: 4.5:1 or better on the table's colour
# A card drawn narrower than this (points) is too small for its face's words or for a caption of
# its own: face-up cards are drawn blank, and the spare piles get a number each, named in a key
# under the picture (a tall table such as Daifugō's, scaled to fit the page).
SMALL_CARD_PT = 12.0
KEY_SIZE = 6.0  # the key's type, points
KEY_LEADING = 7.5


@dataclass(frozen=True)
class Box:
    """Something on the plan: a rectangle in cm from the table's bottom-left corner."""

    what: str  # seat | hand | owner | rows | column | pile | spare | envelopes
    x: float
    y: float
    w: float
    h: float
    text: str = ""
    face: Face | None = None
    up: bool = False  # a card lying face up
    virtual: bool = False  # a virtual player's place

    def to_json(self) -> dict[str, object]:
        return {
            "what": self.what,
            "x": round(self.x, 1),
            "y": round(self.y, 1),
            "w": round(self.w, 1),
            "h": round(self.h, 1),
            "text": self.text,
        }


@dataclass
class TablePlan:
    width: float  # the table, cm
    depth: float
    footprint: Footprint
    boxes: list[Box] = field(default_factory=list)
    card: tuple[float, float] = (6.3, 8.8)  # cm

    def to_json(self) -> dict[str, object]:
        return {
            "table_cm": [round(self.width), round(self.depth)],
            "rows_cm": [self.footprint.width_cm, self.footprint.depth_cm],
            "boxes": [b.to_json() for b in self.boxes],
        }

    def tall(self) -> bool:
        """Whether the plan with its places is deeper than it is wide (drawn to the page's height)."""
        x0, y0, x1, y1 = self.extent()
        return y1 - y0 > x1 - x0

    def extent(self) -> tuple[float, float, float, float]:
        """The plan's bounds with the places around the table: x0, y0, x1, y1 (cm)."""
        xs = [0.0, self.width] + [b.x for b in self.boxes] + [b.x + b.w for b in self.boxes]
        ys = [0.0, self.depth] + [b.y for b in self.boxes] + [b.y + b.h for b in self.boxes]
        return min(xs), min(ys), max(xs), max(ys)


def table_plan(
    footprint: Footprint,
    seats: Sequence[str],
    virtual: int,
    piles: Sequence[str],
    middle: Sequence[str],
    hands: Sequence[int],
    spares: Sequence[tuple[str, Face]],
    envelopes: int,
    owner_faces: Sequence[Face],
    unit: str,
) -> TablePlan:
    """Lay the table out. ``seats``: the places in seat order (virtual players first); ``piles``:
    the owners that are piles (the draw pile), ``middle``: the game's other places on the table
    (the discard pile, the layout); ``hands``: cards held at each virtual place in the worked
    example; ``spares``: (words, face) of each helper card's spare pile; ``owner_faces``: the
    owner card of each seat, then of each pile."""
    per_row, rows = footprint.per_row, footprint.rows
    cell_w = footprint.width_cm / per_row - GAP_CM
    cell_h = footprint.depth_cm / rows - GAP_CM
    cw = cell_w
    ch = min(cell_h, cw * 1.45)  # a card (a column of the paper's protocol is four cards tall)
    # Left: the spare piles, two across; right: the game's piles and the envelopes.
    spare_w = 2 * cw + 1.5
    spare_rows = (len(spares) + 1) // 2
    spare_h = spare_rows * (ch + 3.0)
    game = [*piles, *middle]
    pile_w = cw + 1.5
    pile_h = len(game) * (ch + 3.0) + (ch + 3.0 if envelopes else 0)
    rows_x = PAD + spare_w + SPACE
    body_h = max(footprint.depth_cm, spare_h, pile_h)
    hand_h = ch + 3.0 if virtual else 0.0
    # The near edge: the people's owner cards, and room for the rows' caption above them.
    near_h = 1.0 + ch * 0.7 + 9.0
    width = rows_x + footprint.width_cm + SPACE + pile_w + PAD
    depth = near_h + body_h + SPACE + hand_h + PAD
    plan = TablePlan(width, depth, footprint, card=(cw, ch))
    boxes = plan.boxes
    # The protocol's rows, centred in the body.
    y_top = near_h + body_h
    boxes.append(
        Box(
            "rows",
            rows_x,
            y_top - footprint.depth_cm,
            footprint.width_cm,
            footprint.depth_cm,
            rows_words(footprint.columns, unit, footprint.cards_per_column).format(
                n=footprint.columns,
                rows=footprint.rows,
                per_row=footprint.per_row,
                cards=footprint.columns * footprint.cards_per_column,
                height=footprint.cards_per_column,
            ),
        )
    )
    for i in range(footprint.columns):
        r, c = divmod(i, per_row)
        boxes.append(
            Box(
                "column",
                rows_x + c * (cell_w + GAP_CM) + GAP_CM / 2,
                y_top - (r + 1) * (cell_h + GAP_CM) + GAP_CM / 2,
                cell_w,
                cell_h,
            )
        )
    for i, (words, face) in enumerate(spares):
        r, c = divmod(i, 2)
        boxes.append(
            Box(
                "spare",
                PAD + c * (cw + 1.5),
                near_h + body_h - (r + 1) * (ch + 3.0) + 3.0,
                cw,
                ch,
                words,
                face,
                up=True,
            )
        )
    x = width - PAD - cw
    for i, name in enumerate(game):
        boxes.append(
            Box("pile", x, near_h + body_h - (i + 1) * (ch + 3.0) + 3.0, cw, ch, name, up=name not in piles)
        )
    if envelopes:
        ew, eh = cw * 1.15, ch * 0.9
        boxes.append(
            Box(
                "envelopes",
                x - (ew - cw),
                near_h + body_h - (len(game) + 1) * (ch + 3.0) + 3.0,
                ew,
                eh,
                plural(envelopes, "envelope"),
            )
        )
    # Places: virtual players along the far edge (their cards face down in a row in front of
    # them), the people along the near edge and the sides.
    sw, sh = SEAT
    far = [s for s in seats[:virtual]]
    near = list(seats[virtual:])
    for i, seat in enumerate(far):
        cx = width * (i + 1) / (len(far) + 1)
        room = width / (len(far) + 1) - 2.0  # between two places' centres
        fw = min(sw, room)
        boxes.append(Box("seat", cx - fw / 2, depth + 2.0, fw, sh, seat, virtual=True))
        n = hands[i] if i < len(hands) else 0
        row_w = min(n * (cw * 0.55) + cw * 0.45, max(room, cw))
        boxes.append(Box("hand", cx - row_w / 2, depth - PAD - ch, row_w, ch, f"{n} cards, face down"))
    sides = near[:2] if len(near) > 3 else []
    bottom = near[len(sides) // 2 : len(near) - (len(sides) + 1) // 2] if sides else near
    left = sides[:1]
    right = sides[1:]
    bw = min(sw, width / (len(bottom) + 1) - 2.0)
    for i, seat in enumerate(bottom):
        cx = width * (i + 1) / (len(bottom) + 1)
        boxes.append(Box("seat", cx - bw / 2, -2.0 - sh, bw, sh, seat))
    for seat in left:
        boxes.append(Box("seat", -2.0 - sh, depth / 2 - sw / 2, sh, sw, seat))
    for seat in right:
        boxes.append(Box("seat", width + 2.0, depth / 2 - sw / 2, sh, sw, seat))
    # Each place's owner card, face up at the table's edge in front of it.
    owner = dict(zip([*seats, *piles], owner_faces))
    ow, oh = cw * 0.7, ch * 0.7
    for b in list(boxes):
        if b.what != "seat" or b.text not in owner:
            continue
        if b.y > depth:  # far edge
            ox, oy = b.x + b.w + 1.0, depth - oh - 1.0
        elif b.y + b.h < 0:  # near edge
            ox, oy = b.x + b.w / 2 - ow / 2, 1.0
        elif b.x < 0:
            ox, oy = 1.0, b.y + b.h + 1.0
        else:
            ox, oy = width - ow - 1.0, b.y + b.h + 1.0
        boxes.append(Box("owner", ox, oy, ow, oh, b.text, owner[b.text], up=True))
    for b in list(boxes):  # a pile's owner card lies face up beside it
        if b.what == "pile" and b.text in piles and b.text in owner:
            boxes.append(
                Box("owner", b.x - ow - 1.0, b.y + (b.h - oh) / 2, ow, oh, b.text, owner[b.text], up=True)
            )
    return plan


class TablePlanFlowable(Flowable):
    """A :class:`TablePlan` drawn to scale, as wide as the page allows and at most ``max_h`` tall."""

    def __init__(self, plan: TablePlan, width: float, max_h: float, ink_saver: bool = False):
        super().__init__()
        self.plan = plan
        self.ink_saver = ink_saver
        x0, y0, x1, y1 = plan.extent()
        self.origin = (x0, y0)
        self.width = width
        # With a key under the picture, the picture shrinks to leave it room.
        self.key: list[list[tuple[str, str]]] = []
        key_h = 0.0
        for _round in range(2):
            self.scale = min(width / (x1 - x0), (max_h - key_h) / (y1 - y0))
            self.small = plan.card[0] * self.scale < SMALL_CARD_PT
            self.key = self._key_lines() if self.small else []
            key_h = len(self.key) * KEY_LEADING + 6 if self.key else 0.0
        self.key_h = key_h
        self.height = (y1 - y0) * self.scale + key_h

    def _key_lines(self) -> list[list[tuple[str, str]]]:
        """The key of the spare piles, (number, words) each, in lines as wide as the picture."""
        lines: list[list[tuple[str, str]]] = [[]]
        used = 0.0
        spares = [b for b in self.plan.boxes if b.what == "spare"]
        for i, b in enumerate(spares, 1):
            entry = (str(i), b.text)
            w = self._entry_width(entry)
            if lines[-1] and used + w > self.width:
                lines.append([])
                used = 0.0
            lines[-1].append(entry)
            used += w
        return [line for line in lines if line]

    @staticmethod
    def _entry_width(entry: tuple[str, str]) -> float:
        number, words = entry
        return stringWidth(number, FONT_BOLD, KEY_SIZE) + 3 + stringWidth(words, FONT, KEY_SIZE) + 10

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return self.width, self.height

    def _pt(self, x: float, y: float) -> tuple[float, float]:
        x0, y0 = self.origin
        left = (self.width - (self.plan.extent()[2] - x0) * self.scale) / 2
        return left + (x - x0) * self.scale, (y - y0) * self.scale + self.key_h

    def _text(
        self,
        c: Canvas,
        x: float,
        y: float,
        text: str,
        size: float = 6.0,
        bold: bool = False,
        ink: Color = INK,
    ) -> None:
        font = FONT_BOLD if bold else FONT
        c.setFont(font, size)
        c.setFillColor(ink)
        c.drawCentredString(x, y, text)

    def _card(self, c: Canvas, b: Box) -> None:
        x, y = self._pt(b.x, b.y)
        w, h = b.w * self.scale, b.h * self.scale
        c.saveState()
        c.translate(x, y)
        p = c.beginPath()
        p.roundRect(0, 0, w, h, min(w, h) * 0.08)
        c.clipPath(p, stroke=0, fill=0)
        # A place for face-up cards (the discard pile, a trick), or a face too small for its words.
        if b.up and (b.face is None or self.small):
            c.setFillColor(HexColor("#FFFFFF"))
            c.rect(0, 0, w, h, stroke=0, fill=1)
        elif b.up and b.face is not None:
            s = w / mm(56)
            c.scale(s, s)
            draw_face(c, b.face, mm(56), h / s, 0, mm(3), self.ink_saver)
        else:
            draw_back(c, w, h, 0, self.ink_saver)
        c.restoreState()
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.3)
        c.roundRect(x, y, w, h, min(w, h) * 0.08, stroke=1, fill=0)

    def draw(self) -> None:
        c: Canvas = self.canv
        plan = self.plan
        x, y = self._pt(0, 0)
        c.setFillColor(WOOD)
        c.setStrokeColor(EDGE)
        c.setLineWidth(1)
        c.roundRect(x, y, plan.width * self.scale, plan.depth * self.scale, mm(2), stroke=1, fill=1)
        self._later: list[tuple[float, float, str, float, bool, Color]] = []
        for b in plan.boxes:
            getattr(self, f"_draw_{b.what}")(c, b)
        # The captions last, so that no card covers them, and inside the table's edges.
        left, right = x + 3, x + plan.width * self.scale - 3
        for tx, ty, text, size, bold, ink in self._later:
            half = stringWidth(text, FONT_BOLD if bold else FONT, size) / 2
            tx = min(max(tx, left + half), right - half)
            c.setFillColor(HexColor("#FFFFFF"))  # a white tag: legible over cards and lines
            c.roundRect(tx - half - 1, ty - size * 0.3, 2 * half + 2, size * 1.25, 1, stroke=0, fill=1)
            self._text(c, tx, ty, text, size, bold, ink)
        self._draw_key(c)

    def _draw_key(self, c: Canvas) -> None:
        """The spare piles' key under the picture, a line of centred entries each."""
        for k, line in enumerate(self.key):
            y = self.key_h - 4 - (k + 1) * KEY_LEADING + 1.5
            x = (self.width - sum(self._entry_width(e) for e in line) + 10) / 2
            for number, words in line:
                c.setFont(FONT_BOLD, KEY_SIZE)
                c.setFillColor(INK)
                c.drawString(x, y, number)
                x += stringWidth(number, FONT_BOLD, KEY_SIZE) + 3
                c.setFont(FONT, KEY_SIZE)
                c.setFillColor(MUTED)
                c.drawString(x, y, words)
                x += stringWidth(words, FONT, KEY_SIZE) + 10

    def _label(
        self,
        c: Canvas,
        x: float,
        y: float,
        text: str,
        size: float = 6.0,
        bold: bool = False,
        ink: Color = INK,
    ) -> None:
        """A caption on the table, drawn after everything else (see :meth:`draw`)."""
        self._later.append((x, y, text, size, bold, ink))

    def _draw_rows(self, c: Canvas, b: Box) -> None:
        x, y = self._pt(b.x, b.y)
        w, h = b.w * self.scale, b.h * self.scale
        c.setStrokeColor(ROWS)
        c.setLineWidth(0.6)
        c.setDash(2, 2)
        c.rect(x - 2, y - 2, w + 4, h + 4, stroke=1, fill=0)
        c.setDash()
        fp = self.plan.footprint
        self._label(
            c,
            x + w / 2,
            y - 9,
            _("the protocol's rows: about {width} × {depth} cm").format(
                width=f"{fp.width_cm:.0f}", depth=f"{fp.depth_cm:.0f}"
            ),
            6.0,
            True,
            ROWS_INK,
        )
        self._label(c, x + w / 2, y - 16, b.text, 5.5, ink=ROWS_INK)

    def _draw_column(self, c: Canvas, b: Box) -> None:
        """A column of the protocol's rows as the cards it holds, stacked: the sealed-bid table's
        two rows, the paper's four-card columns (a card is about 1.45 times as tall as it is
        wide). It was one card drawn as tall as the column: the Gakmoro table showed 37 cards
        where the comparison lays out 74."""
        cards = max(1, round(b.h / (b.w * 1.45)))
        gap = GAP_CM / 2 if cards > 1 else 0.0
        h = (b.h - (cards - 1) * gap) / cards
        for k in range(cards):
            self._card(c, replace(b, y=b.y + k * (h + gap), h=h))

    def _draw_spare(self, c: Canvas, b: Box) -> None:
        self._card(c, b)
        if self.small:  # its number on the blank card; its words in the key
            x, y = self._pt(b.x + b.w / 2, b.y + b.h / 2)
            number = 1 + [s for s in self.plan.boxes if s.what == "spare"].index(b)
            self._later.append((x, y - 1.7, str(number), 5.0, True, INK))
            return
        x, y = self._pt(b.x + b.w / 2, b.y)
        self._label(c, x, y - 6, b.text, self._fitted(b, b.text, 5.0), ink=MUTED)

    def _fitted(self, b: Box, text: str, size: float) -> float:
        """The type size at which ``text``'s white tag fits between ``b`` and its nearest
        neighbour in the same row (a longer word, as a translation may have, gets smaller type,
        down to 3.5 points), so that no two captions overlap."""
        row = [o for o in self.plan.boxes if o is not b and o.what == b.what and abs(o.y - b.y) < 1e-6]
        if not row:
            return size
        pitch = min(abs((o.x + o.w / 2) - (b.x + b.w / 2)) for o in row) * self.scale
        while size > 3.5 and stringWidth(text, FONT, size) + 3 > pitch:
            size -= 0.25
        return size

    def _draw_pile(self, c: Canvas, b: Box) -> None:
        self._card(c, b)
        x, y = self._pt(b.x + b.w / 2, b.y)
        self._label(c, x, y - 6, seat_name(b.text), 5.5)

    def _draw_envelopes(self, c: Canvas, b: Box) -> None:
        x, y = self._pt(b.x, b.y)
        w, h = b.w * self.scale, b.h * self.scale
        c.setFillColor(HexColor("#FFFFFF"))
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.4)
        c.rect(x, y, w, h, stroke=1, fill=1)
        c.line(x, y + h, x + w / 2, y + h * 0.45)
        c.line(x + w / 2, y + h * 0.45, x + w, y + h)
        self._label(c, x + w / 2, y - 6, b.text, 5.5)

    def _draw_hand(self, c: Canvas, b: Box) -> None:
        cw, ch = self.plan.card
        n = int(b.text.split()[0])
        step = (b.w - cw) / max(n - 1, 1)  # the cards overlap as much as the row's room needs
        for i in range(n):
            self._card(c, Box("card", b.x + i * step, b.y, cw, ch))
        x, y = self._pt(b.x + b.w / 2, b.y)
        self._label(c, x, y - 6, ngettext("{n} card, face down", "{n} cards, face down", n).format(n=n), 5.5)

    def _draw_owner(self, c: Canvas, b: Box) -> None:
        self._card(c, b)

    def _draw_seat(self, c: Canvas, b: Box) -> None:
        x, y = self._pt(b.x, b.y)
        w, h = b.w * self.scale, b.h * self.scale
        c.setStrokeColor(INK if not b.virtual else MUTED)
        c.setFillColor(HexColor("#FFFFFF"))
        c.setLineWidth(0.6)
        if b.virtual:
            c.setDash(2, 1.5)
        c.roundRect(x, y, w, h, min(w, h) / 3, stroke=1, fill=1)
        c.setDash()
        lines = [seat_name(b.text)] + ([_("nobody sits here")] if b.virtual else [])
        size = 6.0
        while size > 4 and max(stringWidth(t, FONT_BOLD, size) for t in lines) > max(w, h) - 4:
            size -= 0.5
        c.saveState()
        c.translate(x + w / 2, y + h / 2)
        if h > w:
            c.rotate(90)
        top = (len(lines) - 1) * (size + 1) / 2 - size / 3
        for k, t in enumerate(lines):
            self._text(c, 0, top - k * (size + 1), t, size, k == 0, INK if k == 0 else MUTED)
        c.restoreState()


def rows_words(columns: int, unit: str, height: int = 1) -> str:
    """``{n} sleeves in {rows} rows of up to {per_row}`` (or columns), to format; cards in a row
    stacked ``height`` to a column count every card, ``{cards}`` (the picture draws them all)."""
    if unit == "sleeves":
        return ngettext(
            "{n} sleeve in {rows} rows of up to {per_row}",
            "{n} sleeves in {rows} rows of up to {per_row}",
            columns,
        )
    if unit == "columns":
        return ngettext(
            "{n} column in {rows} rows of up to {per_row}",
            "{n} columns in {rows} rows of up to {per_row}",
            columns,
        )
    if unit == "cards in a row" and height > 1:  # the sealed-bid kind's table: a column of two
        return ngettext(
            "{cards} cards, {n} column of {height}, in {rows} rows of up to {per_row} columns",
            "{cards} cards, {n} columns of {height}, in {rows} rows of up to {per_row} columns",
            columns,
        )
    if unit == "cards in a row":  # the sealed-bid kind's table (kitgen.kinds.sealed_bid.cost)
        return ngettext(
            "{n} card in a row in {rows} rows of up to {per_row}",
            "{n} cards in a row in {rows} rows of up to {per_row}",
            columns,
        )
    return f"{{n}} {unit} in {{rows}} rows of up to {{per_row}}"


def spare_words(face: Face, label: str) -> str:
    """What a spare pile is called under its picture: its code (θ1, α, λ1), else the first word
    of its label."""
    if face.kind in ("theta", "marker", "label") and len(face.title) <= 4:
        return face.title
    if not label:
        return face.title
    return label.split()[0] if language() == SOURCE else label  # a word of a translation may not stand alone
