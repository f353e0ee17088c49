"""The faces of labels and numbered symbols: tickets, octagons and their text."""

from __future__ import annotations

import math

from reportlab.lib.colors import white
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from ..core.units import mm
from .faces import FONT, FONT_BOLD, Face, style
from .pen import (
    ASCENT,
    Card,
    draw_centred,
    draw_corners,
    draw_ends,
    draw_helper_border,
    fill_background,
    fitted_size,
    hex_colour,
)


def label_face(family: str, number: int | None = None) -> Face:
    """A lottery's name card: ``label_face("ticket", 3)`` is λ3 of the weighted selection,
    ``label_face("label", 3)`` λ3 of the play selection, ``label_face("stop")`` the stop card."""
    spec = style().labels[family]
    if number is None:
        return Face("label", family, spec["glyph"])
    return Face("label", f"{family}{number}", f"{spec['glyph']}{number}")


def is_numbered(spec: dict[str, str]) -> bool:
    """A family of numbered cards (λ1, λ2, ...) rather than a single card with a word (STOP)."""
    return "word" not in spec


def label_parts(face: Face) -> tuple[dict[str, str], str]:
    """The label family's design and the card's number ('' for the stop card)."""
    labels = style().labels
    family = face.key.rstrip("0123456789")
    return labels[family], face.key[len(family) :]


def _ticket_path(c: Canvas, x: float, y: float, w: float, h: float) -> PDFPathObject:
    """A raffle ticket: a rectangle with rounded corners and a half-round notch in each side."""
    r, n = mm(1.6), min(h * 0.16, mm(3.5))  # corner radius, notch radius
    p = c.beginPath()
    p.moveTo(x + r, y)
    p.lineTo(x + w - r, y)
    p.arcTo(x + w - 2 * r, y, x + w, y + 2 * r, -90, 90)
    p.lineTo(x + w, y + h / 2 - n)
    p.arcTo(x + w - n, y + h / 2 - n, x + w + n, y + h / 2 + n, -90, -180)
    p.lineTo(x + w, y + h - r)
    p.arcTo(x + w - 2 * r, y + h - 2 * r, x + w, y + h, 0, 90)
    p.lineTo(x + r, y + h)
    p.arcTo(x, y + h - 2 * r, x + 2 * r, y + h, 90, 90)
    p.lineTo(x, y + h / 2 + n)
    p.arcTo(x - n, y + h / 2 - n, x + n, y + h / 2 + n, 90, -180)
    p.lineTo(x, y + r)
    p.arcTo(x, y, x + 2 * r, y + 2 * r, 180, 90)
    p.close()
    return p


def _octagon_path(c: Canvas, x: float, y: float, r: float) -> PDFPathObject:
    p = c.beginPath()
    points = [
        (x + r * math.cos(math.radians(22.5 + 45 * k)), y + r * math.sin(math.radians(22.5 + 45 * k)))
        for k in range(8)
    ]
    p.moveTo(*points[0])
    for pt in points[1:]:
        p.lineTo(*pt)
    p.close()
    return p


def draw_label(cd: Card, face: Face) -> None:
    """λ_j (a ticket's or a label's name in a lottery) or the stop card: helper cards in dark ink,
    the number in a notched ticket or STOP in an octagon, the glyph in the corners and the
    card's name at each end."""
    c, w, h = cd.c, cd.w, cd.h
    spec, number = label_parts(face)
    ink = hex_colour(spec["colour"])
    fill_background(c, w, h, cd.bleed, white)
    inner = draw_helper_border(cd)
    pad = inner + mm(1.5)
    room = w - 2 * pad
    if number:
        tw, th = room - mm(2), min(h * 0.4, (room - mm(2)) * 0.75)
        c.setStrokeColor(ink)
        c.setLineWidth(mm(0.7))
        c.drawPath(_ticket_path(c, w / 2 - tw / 2, h / 2 - th / 2, tw, th), stroke=1, fill=0)
        c.setFillColor(ink)
        notch = min(th * 0.16, mm(3.5))  # as _ticket_path's
        draw_centred(c, face.title, w / 2, h / 2, FONT_BOLD, th * 0.55, tw - 2 * notch - mm(3))
    else:
        r = min(room, h * 0.5) * 0.42
        path = _octagon_path(c, w / 2, h / 2, r)
        if cd.saver:
            c.setStrokeColor(ink)
            c.setLineWidth(mm(0.8))
            c.drawPath(path, stroke=1, fill=0)
            c.setFillColor(ink)
        else:
            c.setFillColor(ink)
            c.drawPath(path, stroke=0, fill=1)
            c.setFillColor(white)
        draw_centred(c, spec.get("word", spec["name"].upper()), w / 2, h / 2, FONT_BOLD, r * 0.55, r * 1.5)
    glyph = face.title

    def index() -> None:
        size = 14 * cd.k
        c.setFillColor(ink)
        c.setFont(FONT_BOLD, fitted_size(glyph, FONT_BOLD, size, w * 0.22))
        c.drawString(0, -ASCENT * size, glyph)

    draw_corners(cd, inner + mm(1.0), index)
    words = f"{spec['name']} {number}" if number else spec["name"]
    draw_ends(cd, words, inner + mm(1.2), FONT, 8 * cd.k, w * 0.42, spec["colour"])
