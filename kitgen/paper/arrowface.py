"""The up-down arrow card: one bit card whose value is which way it points.

A protocol with arrow cards (``card-selection-arrow``, ``knockout-lottery``) names the card by
its two faces, ``up`` and ``down`` (a half turn swaps them); the kit prints one card for both.
Its face, in the style of the α/β markers (the helper family's striped border, dark ink on
white): a large arrow pointing to one end, the word YES upright at the arrow's head and NO
turned half a turn at its tail, so the word that reads upright at the far end of the card is
what it says: YES when it points away from you, NO when it points at you. A half turn never
changes what a face-down card shows: the kit's backs are one flat colour.

:mod:`kitgen.paper.faces` registers it (``Face("arrow", ...)``); this module draws it.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor, white
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from ..core.units import mm
from ..lang.catalogue import N_, _

SYMBOLS = ("up", "down")  # the two faces of the one printed card, as the specs name them
KEY = "arrow"
TITLE = "▲▼"
NAME = "arrow card (up: yes, down: no)"
INK = "#1A1A1A"  # as the α/β markers
WORDS = (N_("YES"), N_("NO"))  # at the arrow's head, at its tail (turned half a turn)


def draw_arrow(c: Canvas, w: float, h: float, bleed: float, inner: float, font: str, saver: bool) -> None:
    """The arrow card's face in a w x h card at the origin; ``inner`` is where the helper
    border (drawn by the caller, over the white background drawn here first) ends."""
    ink = HexColor(INK)
    room = w - 2 * inner
    word = max(7.0, min(room * 0.22, mm(9)))
    shaft = room * 0.22
    head_w = room * 0.7
    top = h - inner - word * 2.3
    bottom = inner + word * 2.3
    head_h = min((top - bottom) * 0.42, head_w * 0.9)
    x = w / 2
    path = c.beginPath()
    path.moveTo(x, top)
    path.lineTo(x + head_w / 2, top - head_h)
    path.lineTo(x + shaft / 2, top - head_h)
    path.lineTo(x + shaft / 2, bottom)
    path.lineTo(x - shaft / 2, bottom)
    path.lineTo(x - shaft / 2, top - head_h)
    path.lineTo(x - head_w / 2, top - head_h)
    path.close()
    if saver:
        c.setStrokeColor(ink)
        c.setLineWidth(mm(0.9))
        c.drawPath(path, stroke=1, fill=0)
    else:
        c.setFillColor(ink)
        c.drawPath(path, stroke=0, fill=1)
    c.setFillColor(ink)
    for text, turn, y in ((_(WORDS[0]), 0, h - inner - word * 1.1), (_(WORDS[1]), 180, inner + word * 1.1)):
        c.saveState()
        c.translate(x, y)
        c.rotate(turn)
        size = word
        while size > 4 and pdfmetrics.stringWidth(text, font, size) > room * 0.8:
            size *= 0.9
        c.setFont(font, size)
        c.drawCentredString(0, -0.36 * size, text)
        c.restoreState()


def background(c: Canvas, w: float, h: float, bleed: float) -> None:
    """White to the edge of the bleed, as every helper card."""
    c.setFillColor(white)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
