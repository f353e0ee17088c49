"""The strokes every card family draws with: the card's box, fitted text, corners and
ends, shapes, backgrounds, helper borders and panels, and the colours of seats and
the card back.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from ..core.colour import ink_on, readable
from ..core.units import Length, mm
from .faces import FONT, Face, style

EVEN_ODD = 0  # reportlab.pdfgen.canvas.FILL_EVEN_ODD (not in its type stubs)


# --------------------------------------------------------------------------- helpers

ASCENT = 0.95  # DejaVu's glyph box above the baseline, as a share of the font size


DESCENT = 0.25


def hex_colour(hex_: str) -> Color:
    return HexColor(hex_)


@dataclass(frozen=True)
class Card:
    """One card being drawn: the canvas (origin at the card's lower-left corner), its trim size,
    bleed, safe margin and whether it is drawn for a home printer (``saver``)."""

    c: Canvas
    w: float
    h: float
    bleed: float
    safe: float
    saver: bool

    @property
    def k(self) -> float:
        """Type scale: 1 on a card 56 mm across."""
        return max(0.72, min(1.15, min(self.w, self.h) / mm(56)))


def fitted_size(text: str, font: str, size: float, width: float) -> float:
    """The largest size <= ``size`` at which ``text`` fits in ``width``."""
    w = pdfmetrics.stringWidth(text, font, size)
    return size if w <= width else max(3.0, size * width / w)


def draw_centred(c: Canvas, text: str, x: float, y: float, font: str, size: float, width: float) -> float:
    """``text`` centred on (x, y) (the middle of its capitals); the size used."""
    s = fitted_size(text, font, size, width)
    c.setFont(font, s)
    c.drawCentredString(x, y - 0.36 * s, text)
    return s


def _below(c: Canvas, text: str, font: str, size: float, width: float, top: float = 0.0) -> float:
    """``text`` centred on x = 0 with its glyph box's top at ``top``; the size used."""
    s = fitted_size(text, font, size, width)
    c.setFont(font, s)
    c.drawCentredString(0, top - ASCENT * s, text)
    return s


def draw_shape(
    c: Canvas,
    shape: str,
    x: float,
    y: float,
    r: float,
    fill: Color | None,
    stroke: Color | None = None,
    width: float = 0.0,
) -> None:
    """A colour's shape centred on (x, y): filled with ``fill`` and/or outlined with ``stroke``."""
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(width or max(0.5, r * 0.12))
    s, f = (1 if stroke is not None else 0), (1 if fill is not None else 0)
    if shape == "circle":
        c.circle(x, y, r, stroke=s, fill=f)
        return
    points: list[tuple[float, float]]
    if shape == "square":
        a = r * 0.82
        points = [(x - a, y - a), (x + a, y - a), (x + a, y + a), (x - a, y + a)]
    elif shape == "triangle":
        points = [
            (
                x + r * math.cos(math.radians(90 + 120 * i)),
                y - r * 0.12 + r * math.sin(math.radians(90 + 120 * i)),
            )
            for i in range(3)
        ]
    elif shape == "diamond":
        points = [(x, y + r), (x + r * 0.78, y), (x, y - r), (x - r * 0.78, y)]
    else:
        raise ValueError(shape)
    p = c.beginPath()
    p.moveTo(*points[0])
    for pt in points[1:]:
        p.lineTo(*pt)
    p.close()
    c.drawPath(p, stroke=s, fill=f)


def draw_mark(
    c: Canvas, spec: dict[str, str], x: float, y: float, r: float, colour: Color, outline: Color | None = None
) -> None:
    """A colour's mark: its shape (colour-number deck), or its symbol (a standard deck's suits)."""
    if "symbol" in spec:
        c.setFillColor(colour)
        size = r * 2.3
        c.setFont(FONT, size)
        c.drawCentredString(x, y - size * 0.33, spec["symbol"])
        return
    draw_shape(c, spec["shape"], x, y, r, colour, outline, max(0.5, r * 0.14) if outline is not None else 0.0)


def draw_corners(cd: Card, inset: float, draw: Callable[[], None]) -> None:
    """``draw`` (with the origin at the corner, inside the card below and right of it) in the
    top-left corner and, turned half a turn, in the bottom-right one."""
    c = cd.c
    c.saveState()
    c.translate(inset, cd.h - inset)
    draw()
    c.restoreState()
    c.saveState()
    c.translate(cd.w - inset, inset)
    c.rotate(180)
    draw()
    c.restoreState()


def draw_ends(cd: Card, text: str, inset: float, font: str, size: float, width: float, colour: str) -> None:
    """``text`` centred at the top, ``inset`` below the edge and upright, and at the bottom turned
    half a turn: each reads the same way as the corner index at its end of the card."""
    c = cd.c
    for x, y, turn in ((cd.w / 2, cd.h - inset, 0), (cd.w / 2, inset, 180)):
        c.saveState()
        c.translate(x, y)
        c.rotate(turn)
        c.setFillColor(hex_colour(colour))
        _below(c, text, font, size, width)
        c.restoreState()


def fill_background(c: Canvas, w: float, h: float, bleed: float, colour: Color) -> None:
    c.setFillColor(colour)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)


def draw_helper_border(cd: Card) -> float:
    """The helper family's mark: a striped band just inside the safe margin. Returns the inset of
    its inner edge (what the card draws inside)."""
    st = style()
    c, w, h = cd.c, cd.w, cd.h
    band = Length.parse(st.helper["band"]).points * cd.k
    outer = cd.safe + mm(0.3)
    inner = outer + band
    c.saveState()
    p = c.beginPath()
    p.roundRect(outer, outer, w - 2 * outer, h - 2 * outer, mm(2.2))
    p.roundRect(inner, inner, w - 2 * inner, h - 2 * inner, mm(1.4))
    c.clipPath(p, stroke=0, fill=0, fillMode=EVEN_ODD)  # the ring between the two
    c.setFillColor(hex_colour(st.helper["stripe"]))
    pitch = mm(2.4)
    k = -int(h / pitch) - 2
    while k * pitch < w + h:
        x0 = k * pitch
        s = c.beginPath()
        s.moveTo(x0, 0)
        s.lineTo(x0 + pitch / 2, 0)
        s.lineTo(x0 + pitch / 2 + h, h)
        s.lineTo(x0 + h, h)
        s.close()
        c.drawPath(s, stroke=0, fill=1)
        k += 1
    c.restoreState()
    return inner


def draw_panel(cd: Card, x: float, y: float, w: float, h: float, colour: str) -> str:
    """A rounded colour panel (an outline only, for a home printer); the ink for text on it."""
    c = cd.c
    if cd.saver:
        c.setStrokeColor(hex_colour(colour))
        c.setLineWidth(mm(1.0))
        c.roundRect(x, y, w, h, mm(1.6), stroke=1, fill=0)
        return readable(colour)
    c.setFillColor(hex_colour(colour))
    c.roundRect(x, y, w, h, mm(1.6), stroke=0, fill=1)
    return ink_on(colour)


def back_colour(ink_saver: bool = False) -> str:
    """The kit's back colour (the light one with ``ink_saver``)."""
    return str(style().back["ink_saver" if ink_saver else "colour"])


def theta_colour(i: int) -> str:
    palette = style().theta_palette
    return palette[(i - 1) % len(palette)]


def known_colours() -> set[str]:
    """The deck colours the templates have a design for (templates/cards.yaml)."""
    return set(style().colours)


def colour_spec(face: Face) -> dict[str, str]:
    """A deck colour's design: from the templates, or from the rule set (fill, symbol, name)."""
    if len(face.extra) >= 6:
        return {"fill": face.extra[3], "symbol": face.extra[4], "name": face.extra[5].capitalize()}
    return style().colours[face.extra[0]]


def oval_radii(cd: Card) -> tuple[float, float]:
    """The tilted oval of a colour-number card: its radii."""
    inner = cd.safe + mm(2.5)
    return (cd.w - 2 * inner) * 0.44, (cd.h - 2 * inner) * 0.34
