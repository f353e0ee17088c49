"""The set-up chapter's picture of one sleeve being filled (issue 36, part 2).

A kit whose cards live in opaque-backed sleeves (clear front, solid back) teaches how to fill
one: the owner card goes in first, its face toward the solid back; then the game card, its face
toward the clear front. The picture shows the three moments side by side, drawn from above the
sleeve's clear front: the owner card, then the same card turned over and sliding in (its back
shows, since its face looks at the solid back); the game card sliding in in front of it; the
filled sleeve lying front up (only the game card shows) beside one lying back up (only the solid
back shows). The faces are the kit's own printed ones (:func:`kitgen.paper.drawing.draw_face`), so the
picture matches cards.pdf.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from ..core.units import mm
from ..lang.catalogue import N_, _
from ..lang.wrap import breaks_between_characters, fitted_lines
from ..paper.drawing import draw_back, draw_face
from ..paper.faces import FONT, Face

CARD_RATIO = 87 / 56  # a card's height over its width, as the booklet's other card pictures
SLEEVE = HexColor("#5B8DB8")  # the clear front's edge
SOLID = HexColor("#2F3A45")  # the solid back
INK = HexColor("#333333")

# What each panel says, under it (in the active language when drawn).
CAPTIONS = (
    N_("1. The owner card turned over and slid in first, its face toward the solid back"),
    N_("2. The game card in front of it, its face toward the clear front"),
    N_("3. Front up: only the game card shows. Back up: nothing shows"),
)


class SleeveFilling(Flowable):
    """Three panels: the owner card sliding into an empty sleeve, the game card sliding in
    in front of it, the filled sleeve front up beside one back up. ``faces``: the owner card's,
    then the game card's; ``scale``: the cards' size, of the largest the width allows (at most 1)."""

    def __init__(self, faces: Sequence[Face], width: float, ink_saver: bool = False, scale: float = 1.0):
        super().__init__()
        if len(faces) != 2:
            raise ValueError("a sleeve picture shows an owner card and a game card")
        self.owner, self.card = faces
        self.width = width
        self.card_w = min(mm(14), width / 9) * scale
        self.card_h = self.card_w * CARD_RATIO
        self.height = self.card_h * 1.55 + mm(9)
        self.ink_saver = ink_saver

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        w, h = self.card_w, self.card_h
        panel = self.width / 3
        base = mm(9)  # room for the captions
        for i, text in enumerate(CAPTIONS):
            x = i * panel + (panel - 2.2 * w) / 2
            if i == 0:  # the owner card face up, then turned over and sliding in: its back shows
                self._card(c, self.owner, x, base)
                self._sleeve(c, x + 1.2 * w, base, front=True)
                self._card(c, None, x + 1.2 * w, base + h * 0.45)
            elif i == 1:
                self._sleeve(c, x, base, front=True)
                self._card(c, None, x, base)  # the owner card, in, behind
                self._card(c, self.card, x + mm(1.2), base + h * 0.45)
            else:
                self._sleeve(c, x, base, front=True)
                self._card(c, self.card, x, base)
                self._sleeve(c, x + 1.2 * w, base, front=False)
            self._caption(c, i * panel, panel, _(text))

    def _sleeve(self, c: Canvas, x: float, y: float, front: bool) -> None:
        """A sleeve's outline (front up: its clear front's edge; back up: the solid back, filled)."""
        pad = mm(0.9)
        c.saveState()
        if front:
            c.setStrokeColor(SLEEVE)
            c.setLineWidth(0.9)
            c.roundRect(x - pad, y - pad, self.card_w + 2 * pad, self.card_h + 2 * pad, mm(1.2), 1, 0)
        else:
            c.setFillColor(SOLID)
            c.setStrokeColor(SOLID)
            c.roundRect(x - pad, y - pad, self.card_w + 2 * pad, self.card_h + 2 * pad, mm(1.2), 1, 1)
        c.restoreState()

    def _card(self, c: Canvas, face: Face | None, x: float, y: float) -> None:
        """A card at (x, y): ``face`` drawn, or its back (None)."""
        scale = self.card_w / mm(56)
        c.saveState()
        path = c.beginPath()
        path.roundRect(x, y, self.card_w, self.card_h, mm(0.8))
        c.clipPath(path, stroke=0, fill=0)
        c.translate(x, y)
        c.scale(scale, scale)
        if face is None:
            draw_back(c, mm(56), mm(56) * CARD_RATIO, 0, self.ink_saver)
        else:
            draw_face(c, face, mm(56), mm(56) * CARD_RATIO, 0, mm(3), self.ink_saver)
        c.restoreState()
        c.saveState()
        c.setStrokeColor(HexColor("#999999"))
        c.setLineWidth(0.3)
        c.roundRect(x, y, self.card_w, self.card_h, mm(0.8), 1, 0)
        c.restoreState()

    def _caption(self, c: Canvas, x: float, width: float, text: str) -> None:
        """The panel's words in two lines at most, under it."""
        c.saveState()
        c.setFillColor(INK)
        size = 6.0
        c.setFont(FONT, size)
        if breaks_between_characters():  # Japanese: no spaces to break at (kitgen.lang.wrap)
            lines, size = fitted_lines(text, width - mm(2), FONT, size, 4.5, 3)
            c.setFont(FONT, size)
            for k, part in enumerate(lines):
                c.drawCentredString(x + width / 2, mm(6) - k * size * 1.15, part)
            c.restoreState()
            return
        words, lines, line = text.split(), [], ""
        for word in words:
            trial = f"{line} {word}".strip()
            if c.stringWidth(trial, FONT, size) > width - mm(2) and line:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
        for k, part in enumerate(lines[:3]):
            c.drawCentredString(x + width / 2, mm(6) - k * size * 1.15, part)
        c.restoreState()
