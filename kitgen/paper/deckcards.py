"""The faces of a game's deck: colour cards (UNO's) and suit cards with pips and court
figures.
"""

from __future__ import annotations

from reportlab.lib.colors import white
from reportlab.pdfbase import pdfmetrics

from ..core.colour import DARK, contrast, ink_on, readable
from ..core.units import mm
from .faces import FONT, FONT_BOLD, Face, style
from .pen import (
    ASCENT,
    DESCENT,
    Card,
    colour_spec,
    draw_centred,
    draw_corners,
    draw_ends,
    draw_mark,
    fill_background,
    fitted_size,
    hex_colour,
    oval_radii,
)


def draw_deck_card(cd: Card, face: Face) -> None:
    colour_name, kind, value = face.extra[0], face.extra[1], face.extra[2]
    if colour_name == "black":
        _colour_card(cd, None, kind, value)
        return
    spec = colour_spec(face)
    if "symbol" in spec:
        rank = {"1": "A", "11": "J", "12": "Q", "13": "K", "14": "A"}.get(value, value)
        draw_suit_card(cd, rank, spec["symbol"], spec["fill"], spec["symbol"])
    else:
        _colour_card(cd, spec, kind, value)


def _colour_card(cd: Card, spec: dict[str, str] | None, kind: str, value: str) -> None:
    """A card of the colour-number deck (``spec`` None: a wild card): the colour to the edge (a
    border, for a home printer), a white tilted oval with the number, the index in two corners and
    the colour's name at both ends."""
    st = style()
    c, w, h = cd.c, cd.w, cd.h
    fill = spec["fill"] if spec is not None else st.wild["fill"]
    name = spec["name"] if spec is not None else st.wild["name"]
    text = value if kind == "number" else st.deck_faces.get(kind, value)
    if cd.saver:
        fill_background(c, w, h, cd.bleed, white)
        edge = cd.safe + mm(1.3)
        c.setStrokeColor(hex_colour(fill))
        c.setLineWidth(mm(1.8))
        c.roundRect(edge, edge, w - 2 * edge, h - 2 * edge, mm(2.2), stroke=1, fill=0)
        ink = readable(fill)
    else:
        fill_background(c, w, h, cd.bleed, hex_colour(fill))
        ink = ink_on(fill)
    rx, ry = oval_radii(cd)
    c.saveState()
    c.translate(w / 2, h / 2)
    c.rotate(28)
    c.setFillColor(white)
    if cd.saver:
        c.setStrokeColor(hex_colour(fill))
        c.setLineWidth(mm(0.9))
    c.ellipse(-rx, -ry, rx, ry, stroke=1 if cd.saver else 0, fill=1)
    c.restoreState()
    r = min(rx, ry)
    if spec is None:
        # Four quarters in the deck's colours around a dark disc: any colour may follow.
        for k, cname in enumerate(("red", "yellow", "green", "blue")):
            c.setFillColor(hex_colour(st.colours[cname]["fill"]))
            c.wedge(
                w / 2 - r * 0.95,
                h / 2 - r * 0.95,
                w / 2 + r * 0.95,
                h / 2 + r * 0.95,
                90 * k,
                90,
                stroke=0,
                fill=1,
            )
        c.setFillColor(hex_colour(DARK))
        c.circle(w / 2, h / 2, r * 0.52, stroke=0, fill=1)
        c.setFillColor(white)
        draw_centred(c, text, w / 2, h / 2, FONT_BOLD, r * 0.62, r * 0.9)
    else:
        number = readable(fill)
        c.setFillColor(hex_colour(number))
        big = r * 1.25 if len(text) < 2 else r * 0.95
        size = draw_centred(c, text, w / 2, h / 2 + r * 0.2, FONT_BOLD, big, r * 1.5)
        if kind == "number" and value in ("6", "9"):
            c.setLineWidth(max(1.0, size * 0.06))
            c.setStrokeColor(hex_colour(number))
            y = h / 2 + r * 0.2 - size * 0.5
            c.line(w / 2 - size * 0.25, y, w / 2 + size * 0.25, y)
        # The colour's shape under the number: the colour without seeing it.
        outline = hex_colour(DARK) if contrast(fill, "#FFFFFF") < 3 else None
        draw_mark(c, spec, w / 2, h / 2 - r * 0.8, r * 0.15, hex_colour(fill), outline)

    def index() -> None:
        size = fitted_size(text, FONT_BOLD, 15 * cd.k, mm(9) * cd.k)
        c.setFillColor(hex_colour(ink))
        c.setFont(FONT_BOLD, size)
        c.drawString(0, -ASCENT * size, text)  # from the inset: "+2" grows inwards, never outwards
        if kind == "number" and value in ("6", "9"):  # underlined as in the middle: a fanned hand
            c.setLineWidth(size * 0.07)  # read upside down showed a 6 and a 9 alike; clear of the
            c.setStrokeColor(hex_colour(ink))  # digit's foot at any scale (a booklet's small cards)
            width = pdfmetrics.stringWidth(text, FONT_BOLD, size)
            y = -ASCENT * size - size * 0.25
            c.line(width * 0.15, y, width * 0.85, y)
        if spec is not None:
            m = mm(1.9) * cd.k
            x = max(m, pdfmetrics.stringWidth(text, FONT_BOLD, size) / 2)
            y = -size * (ASCENT + DESCENT) - m - mm(0.4)
            outline = hex_colour(DARK) if cd.saver and contrast(fill, "#FFFFFF") < 3 else None
            draw_mark(c, spec, x, y, m, hex_colour(fill) if cd.saver else hex_colour(ink), outline)

    inset = cd.safe + (mm(3.4) if cd.saver else mm(0.6))
    draw_corners(cd, inset, index)
    draw_ends(cd, name, inset + mm(0.6), FONT, 7.5 * cd.k, w * 0.4, ink)


# Pip places of a standard card, as (column, row): columns 0 left, 1 middle, 2 right; rows from
# 0 (top) to 1 (bottom). Pips below the middle are drawn turned, as on a printed deck.
_PIP_PLACES: dict[int, list[tuple[int, float]]] = {
    2: [(1, 0), (1, 1)],
    3: [(1, 0), (1, 0.5), (1, 1)],
    4: [(0, 0), (2, 0), (0, 1), (2, 1)],
    5: [(0, 0), (2, 0), (1, 0.5), (0, 1), (2, 1)],
    6: [(0, 0), (2, 0), (0, 0.5), (2, 0.5), (0, 1), (2, 1)],
    7: [(0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (0, 1), (2, 1)],
    8: [(0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (1, 0.75), (0, 1), (2, 1)],
    9: [(0, 0), (2, 0), (0, 1 / 3), (2, 1 / 3), (1, 0.5), (0, 2 / 3), (2, 2 / 3), (0, 1), (2, 1)],
    10: [
        (0, 0),
        (2, 0),
        (1, 1 / 6),
        (0, 1 / 3),
        (2, 1 / 3),
        (0, 2 / 3),
        (2, 2 / 3),
        (1, 5 / 6),
        (0, 1),
        (2, 1),
    ],
}


def draw_suit_card(cd: Card, rank: str, symbol: str, colour: str, index_symbol: str, name: str = "") -> None:
    """A card of a standard deck (and the ♣ and ♥ cards of the two-colour protocols): white, the
    rank and suit in two corners, and pips (2 to 10), one big pip (an ace) or a court panel."""
    c, w, h = cd.c, cd.w, cd.h
    ink = readable(colour)
    fill_background(c, w, h, cd.bleed, white)
    column = mm(7.5) * cd.k  # the index column at each side
    x0, x1 = cd.safe + column, w - cd.safe - column
    y0, y1 = cd.safe + mm(3.5), h - cd.safe - mm(3.5)
    if rank.isdigit() and int(rank) in _PIP_PLACES:
        places = _PIP_PLACES[int(rank)]
        size = min((x1 - x0) * 0.36, (y1 - y0) * 0.17)
        top, bottom = y1 - size * 0.45, y0 + size * 0.45
        xs = (x0 + size * 0.42, w / 2, x1 - size * 0.42)
        c.setFillColor(hex_colour(ink))
        c.setFont(FONT, size)
        for col, row in places:
            x, y = xs[col], top - row * (top - bottom)
            c.saveState()
            c.translate(x, y)
            if row > 0.5:
                c.rotate(180)
            c.drawCentredString(0, -size * 0.35, symbol)
            c.restoreState()
    elif rank in ("J", "Q", "K"):
        # A little more room beside the indexes: drawn small, the panel's frame would touch them.
        gap = mm(1.2) * cd.k
        _court(cd, rank, symbol, colour, (x0 + gap, y0, x1 - gap, y1))
    else:
        c.setFillColor(hex_colour(ink))
        size = min(x1 - x0, (y1 - y0) * 0.6) * 0.95
        c.setFont(FONT, size)
        c.drawCentredString(w / 2, h / 2 - size * 0.35, symbol)

    def index() -> None:
        size = 14 * cd.k
        c.setFillColor(hex_colour(ink))
        c.setFont(FONT_BOLD, fitted_size(rank, FONT_BOLD, size, column - mm(0.5)))
        c.drawCentredString(column / 2 - mm(0.4), -ASCENT * size, rank)
        c.setFont(FONT, size * 0.95)
        c.drawCentredString(column / 2 - mm(0.4), -size * (ASCENT + DESCENT) - size * 0.85, index_symbol)

    draw_corners(cd, cd.safe + mm(0.4), index)
    if name:  # the two-colour protocols' cards name their suit at both ends
        draw_ends(cd, name, cd.safe + mm(1.2), FONT, 8 * cd.k, w * 0.4, ink)


def _court(cd: Card, rank: str, symbol: str, colour: str, area: tuple[float, float, float, float]) -> None:
    """A court card's panel: a framed, lightly tinted panel with a crown, the rank and the suit at
    each end (the lower half turned half a turn, as on a printed deck)."""
    c, w, h = cd.c, cd.w, cd.h
    x0, y0, x1, y1 = area
    ink = readable(colour)
    tint = "#FBEBEE" if colour != DARK and contrast(colour, DARK) > 2 else "#E6E6E6"
    c.setFillColor(hex_colour("#FFFFFF" if cd.saver else tint))
    c.setStrokeColor(hex_colour(ink))
    c.setLineWidth(mm(0.5))
    c.roundRect(x0, y0, x1 - x0, y1 - y0, mm(1.5), stroke=1, fill=1)
    c.setLineWidth(mm(0.25))
    c.line(x0 + mm(2), h / 2, x1 - mm(2), h / 2)
    pw = x1 - x0
    for turn in (0, 180):
        c.saveState()
        c.translate(w / 2, h / 2)
        c.rotate(turn)
        half = (y1 - y0) / 2
        # The crown (king: five points, queen: three with pearls, jack: a cap with a feather).
        cw, ch = pw * 0.5, half * 0.22
        base = half * 0.62
        c.setFillColor(hex_colour(ink))
        p = c.beginPath()
        p.moveTo(-cw / 2, base)
        points = {"K": 5, "Q": 3, "J": 0}[rank]
        if points:
            for k in range(2 * points - 1):
                x = -cw / 2 + cw * (k + 1) / (2 * points)
                p.lineTo(x, base + (ch if k % 2 == 0 else ch * 0.45))
            p.lineTo(cw / 2, base)
        else:
            p.lineTo(-cw * 0.3, base + ch * 0.9)
            p.lineTo(cw * 0.3, base + ch * 0.9)
            p.lineTo(cw / 2, base)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        if rank == "Q":
            for k in range(3):
                c.circle(-cw / 2 + cw * (2 * k + 1) / 6, base + ch + mm(0.7), mm(0.7), stroke=0, fill=1)
        elif rank == "J":
            c.setStrokeColor(hex_colour(ink))
            c.setLineWidth(mm(0.6))
            q = c.beginPath()
            q.moveTo(cw * 0.2, base + ch * 0.9)
            q.curveTo(cw * 0.35, base + ch * 1.8, cw * 0.6, base + ch * 1.6, cw * 0.55, base + ch * 1.1)
            c.drawPath(q, stroke=1, fill=0)
        size = half * 0.5
        c.setFont(FONT_BOLD, size)
        # Clear of the middle line: drawn small (a card in a booklet's picture), text touching
        # the line would sit on a blend of the line and the panel.
        c.drawCentredString(-pw * 0.12, half * 0.2, rank)
        c.setFont(FONT, size * 0.8)
        c.drawCentredString(pw * 0.2, half * 0.22, symbol)
        c.restoreState()
