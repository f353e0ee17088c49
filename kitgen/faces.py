"""Card faces and the one card back, drawn with reportlab from ``templates/cards.yaml``.

A :class:`Face` names what is printed (``alpha``, ``theta3``, ``red7``, ``club``, a seat
card...). :func:`draw_face` draws it upright in a card of the given trim size whose
lower-left corner is at the origin; the background runs into the bleed. Every face has
its index in two opposite corners, one upside down, and tells itself apart by shape and
text as well as by colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Table, TableStyle

from reference_engine.api import Checker, SpecError, UsageError, load_file

from .templates import templates_dir
from .units import mm

FONT = "KitSans"
FONT_BOLD = "KitSans-Bold"


@dataclass(frozen=True)
class Face:
    """What one card shows: a kind, a key and (for some kinds) a few words."""

    kind: str  # marker | theta | deck | two_colour | seat | choice
    key: str
    title: str
    extra: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        return self.title


@dataclass(frozen=True)
class Style:
    back: dict[str, Any]
    markers: dict[str, dict[str, str]]
    theta_palette: tuple[str, ...]
    colours: dict[str, dict[str, str]]
    wild: dict[str, str]
    deck_faces: dict[str, str]
    two_colour: dict[str, dict[str, str]]


@lru_cache(maxsize=1)
def style() -> Style:
    src = load_file(templates_dir() / "cards.yaml")
    ck = Checker(src)
    doc = (
        ck.mapping(
            src.data,
            (),
            required=("back", "markers", "theta", "colour_deck", "two_colour"),
            optional=("font", "font_bold"),
        )
        or {}
    )
    deck = (
        ck.mapping(doc.get("colour_deck", {}), ("colour_deck",), required=("colours", "wild", "faces")) or {}
    )
    theta = ck.mapping(doc.get("theta", {}), ("theta",), required=("palette",)) or {}
    if ck.problems:
        raise SpecError(ck.problems)
    _register_fonts(str(doc.get("font", "DejaVuSans.ttf")), str(doc.get("font_bold", "DejaVuSans-Bold.ttf")))
    return Style(
        back=dict(doc["back"]),
        markers={k: dict(v) for k, v in doc["markers"].items()},
        theta_palette=tuple(theta["palette"]),
        colours={k: dict(v) for k, v in deck["colours"].items()},
        wild=dict(deck["wild"]),
        deck_faces=dict(deck["faces"]),
        two_colour={k: dict(v) for k, v in doc["two_colour"].items()},
    )


def _register_fonts(regular: str, bold: str) -> None:
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    fonts = templates_dir() / "fonts"
    for name, file in ((FONT, regular), (FONT_BOLD, bold)):
        path = fonts / file
        if not path.is_file():
            raise UsageError(f"font file missing: {path}")
        pdfmetrics.registerFont(TTFont(name, str(path)))


def ensure_fonts() -> None:
    style()


def new_canvas(path: str, size: tuple[float, float], title: str) -> Canvas:
    """A reproducible PDF canvas (``invariant``: no dates or random IDs) whose every font is embedded.

    The initial font is ours, so reportlab never writes a reference to unembedded Helvetica, which
    print shops reject.
    """
    ensure_fonts()
    # The reportlab stub types initialFontName as a float; reportlab takes a registered font name.
    c = Canvas(path, pagesize=size, invariant=1, initialFontName=FONT, initialFontSize=8)  # type: ignore[arg-type]
    c.setTitle(title)
    c.setAuthor("kitgen")
    c.setCreator("kitgen")
    return c


def pdf_table(rows: Any, **kwargs: Any) -> Table:
    """A platypus table whose cells start in our embedded font: reportlab's default cell font is
    Helvetica, which it never embeds, and a print shop's preflight rejects a PDF listing it."""
    t = Table(rows, **kwargs)
    t.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 9)]))
    return t


# --------------------------------------------------------------------------- helpers


def _col(hex_: str) -> Color:
    return HexColor(hex_)


def _text_fit(c: Canvas, text: str, font: str, size: float, width: float) -> float:
    """The largest size <= ``size`` at which ``text`` fits in ``width``."""
    w = pdfmetrics.stringWidth(text, font, size)
    return size if w <= width else max(3.0, size * width / w)


def _centred(c: Canvas, text: str, x: float, y: float, font: str, size: float, width: float) -> None:
    s = _text_fit(c, text, font, size, width)
    c.setFont(font, s)
    c.drawCentredString(x, y - 0.35 * s, text)


def _shape(
    c: Canvas, shape: str, x: float, y: float, r: float, fill: Color, stroke: Color | None = None
) -> None:
    c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(max(0.6, r * 0.08))
    do_stroke = 1 if stroke is not None else 0
    if shape == "circle":
        c.circle(x, y, r, stroke=do_stroke, fill=1)
        return
    if shape == "square":
        c.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7, stroke=do_stroke, fill=1)
        return
    points: list[tuple[float, float]]
    if shape == "triangle":
        points = [
            (
                x + r * math.cos(math.radians(90 + 120 * i)),
                y - r * 0.15 + r * math.sin(math.radians(90 + 120 * i)),
            )
            for i in range(3)
        ]
    elif shape == "diamond":
        points = [(x, y + r), (x + r * 0.8, y), (x, y - r), (x - r * 0.8, y)]
    else:
        raise ValueError(shape)
    p = c.beginPath()
    p.moveTo(*points[0])
    for pt in points[1:]:
        p.lineTo(*pt)
    p.close()
    c.drawPath(p, stroke=do_stroke, fill=1)


def _mark(c: Canvas, spec: dict[str, str], x: float, y: float, r: float, colour: Color) -> None:
    """A colour's mark: its shape (UNO colours), or its symbol (the suits of a standard deck)."""
    if "symbol" in spec:
        c.setFillColor(colour)
        size = r * 2.2
        c.setFont(FONT, size)
        c.drawCentredString(x, y - size * 0.35, spec["symbol"])
        return
    _shape(c, spec["shape"], x, y, r, colour)


def _corners(c: Canvas, w: float, h: float, safe: float, draw: Any) -> None:
    """Draw the same index in the top-left corner and, upside down, in the bottom-right."""
    c.saveState()
    c.translate(safe, h - safe)
    draw()
    c.restoreState()
    c.saveState()
    c.translate(w - safe, safe)
    c.rotate(180)
    draw()
    c.restoreState()


def _both_ends(
    c: Canvas, text: str, w: float, h: float, inset: float, font: str, size: float, width: float
) -> None:
    """``text`` centred ``inset`` above the bottom edge and, upside down, below the top edge."""
    # The whole glyph box (not only the baseline) stays ``inset`` inside the edge.
    lift = 0.6 * size
    for y, rot in ((inset + lift, 0), (h - inset - lift, 180)):
        c.saveState()
        c.translate(w / 2, y)
        c.rotate(rot)
        _centred(c, text, 0, 0, font, size, width)
        c.restoreState()


def _background(c: Canvas, w: float, h: float, bleed: float, colour: Color) -> None:
    c.setFillColor(colour)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)


# --------------------------------------------------------------------------- faces


def draw_face(c: Canvas, face: Face, w: float, h: float, bleed: float, safe: float) -> None:
    """Draw ``face`` upright in a w x h card at the origin (background into the bleed)."""
    st = style()
    if face.kind == "marker":
        _marker(c, st.markers[face.key], w, h, bleed, safe)
    elif face.kind == "theta":
        _theta(c, int(face.key[len("theta") :]), face.extra[0] if face.extra else "", w, h, bleed, safe)
    elif face.kind == "deck":
        _deck_card(c, face, w, h, bleed, safe)
    elif face.kind == "two_colour":
        _two_colour(c, st.two_colour[face.key], w, h, bleed, safe)
    elif face.kind == "seat":
        _seat(c, face, w, h, bleed, safe)
    elif face.kind == "choice":
        _choice(c, face, w, h, bleed, safe)
    elif face.kind == "plain":
        _plain(c, face.title, w, h, bleed, safe)
    elif face.kind == "tile":
        _tile(c, face, w, h, bleed, safe)
    else:
        raise ValueError(f"unknown face kind {face.kind!r}")


def draw_back(c: Canvas, w: float, h: float, bleed: float) -> None:
    """The kit's only back: one flat colour to the edge of the bleed (see templates/cards.yaml)."""
    _background(c, w, h, bleed, _col(style().back["colour"]))


def _frame(c: Canvas, w: float, h: float, inset: float, colour: Color, width: float) -> None:
    c.setStrokeColor(colour)
    c.setLineWidth(width)
    c.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, mm(2), stroke=1, fill=0)


def _marker(c: Canvas, spec: dict[str, str], w: float, h: float, bleed: float, safe: float) -> None:
    colour = _col(spec["colour"])
    _background(c, w, h, bleed, white)
    _frame(c, w, h, safe * 0.6, colour, 1.2)
    r = min(w, h) * 0.3
    _shape(c, spec["shape"], w / 2, h / 2, r, colour)
    c.setFillColor(white)
    _centred(
        c,
        spec["glyph"],
        w / 2,
        h / 2 - (r * 0.1 if spec["shape"] == "triangle" else 0),
        FONT_BOLD,
        r * 1.1,
        r * 1.4,
    )

    def index() -> None:
        c.setFillColor(colour)
        c.setFont(FONT_BOLD, 16)
        c.drawString(mm(1), -mm(6), spec["glyph"])
        _shape(c, spec["shape"], mm(3.2), -mm(10.5), mm(2.2), colour)

    _corners(c, w, h, safe, index)
    c.setFillColor(colour)
    _both_ends(c, spec["name"], w, h, safe + mm(1.5), FONT, 7, w * 0.5)


def theta_colour(i: int) -> str:
    palette = style().theta_palette
    return palette[(i - 1) % len(palette)]


def _theta(c: Canvas, i: int, owner: str, w: float, h: float, bleed: float, safe: float) -> None:
    colour = _col(theta_colour(i))
    _background(c, w, h, bleed, white)
    band = h * 0.13
    c.setFillColor(colour)
    c.rect(-bleed, h - band, w + 2 * bleed, band + bleed, stroke=0, fill=1)
    c.rect(-bleed, -bleed, w + 2 * bleed, band + bleed, stroke=0, fill=1)
    # Index and owner in both bands, each upright for one side of the table.
    ink = white if theta_colour(i) not in ("#F0E442", "#E69F00", "#56B4E9") else HexColor("#000000")
    c.setFillColor(ink)
    _both_ends(c, f"θ{i} · {owner}" if owner else f"θ{i}", w, h, band / 2, FONT_BOLD, 8, w - 2 * safe)
    c.setFillColor(colour)
    _centred(c, f"θ{i}", w / 2, h / 2, FONT_BOLD, min(w, h) * 0.36, w - 2 * safe)
    # A row of i dots above and below the number: the owner without reading, from either side.
    step = min(mm(4.0), (w - 2 * safe) / max(i, 1))
    for dy in (-1, 1):
        for k in range(i):
            x = w / 2 + (k - (i - 1) / 2) * step
            _shape(c, "circle", x, h / 2 + dy * min(w, h) * 0.3, min(mm(1.3), step * 0.35), colour)


def known_colours() -> set[str]:
    """The deck colours the templates have a design for (templates/cards.yaml)."""
    return set(style().colours)


def _colour_spec(face: Face) -> dict[str, str]:
    """A deck colour's design: from the templates, or from the rule set (fill, symbol, name)."""
    if len(face.extra) >= 6:
        return {"fill": face.extra[3], "symbol": face.extra[4], "name": face.extra[5].capitalize()}
    return style().colours[face.extra[0]]


def _deck_card(c: Canvas, face: Face, w: float, h: float, bleed: float, safe: float) -> None:
    st = style()
    colour_name, kind, value = face.extra[0], face.extra[1], face.extra[2]
    text = value if kind == "number" else st.deck_faces.get(kind, value)
    if colour_name == "black":
        fill = _col(st.wild["fill"])
        ink = white
    else:
        spec = _colour_spec(face)
        fill = _col(spec["fill"])
        ink = _col(spec.get("ink", "#FFFFFF"))
    _background(c, w, h, bleed, fill)
    c.setFillColor(white)
    r = min(w, h) * 0.34
    c.circle(w / 2, h / 2, r, stroke=0, fill=1)
    if colour_name == "black":
        # Four quarter discs: any colour may follow.
        for k, cname in enumerate(("red", "yellow", "green", "blue")):
            c.setFillColor(_col(st.colours[cname]["fill"]))
            c.wedge(
                w / 2 - r * 0.92,
                h / 2 - r * 0.92,
                w / 2 + r * 0.92,
                h / 2 + r * 0.92,
                90 * k,
                90,
                stroke=0,
                fill=1,
            )
        c.setFillColor(HexColor("#1A1A1A"))
        c.circle(w / 2, h / 2, r * 0.5, stroke=0, fill=1)
        c.setFillColor(white)
        _centred(c, text, w / 2, h / 2, FONT_BOLD, r * 0.6, r * 0.9)
    else:
        c.setFillColor(fill if colour_name != "yellow" else HexColor("#8A7E00"))
        _centred(c, text, w / 2, h / 2, FONT_BOLD, r * 1.05 if len(text) < 2 else r * 0.8, r * 1.6)
        if kind == "number" and value in ("6", "9"):
            c.setLineWidth(1.5)
            c.setStrokeColor(fill if colour_name != "yellow" else HexColor("#8A7E00"))
            c.line(w / 2 - r * 0.3, h / 2 - r * 0.62, w / 2 + r * 0.3, h / 2 - r * 0.62)
    mark = _colour_spec(face) if colour_name != "black" else None
    name = mark["name"] if mark is not None else st.wild["name"]

    def index() -> None:
        c.setFillColor(ink)
        c.setFont(FONT_BOLD, 15)
        c.drawString(mm(0.5), -mm(5.5), text)
        if mark is not None:
            _mark(c, mark, mm(2.6), -mm(9.5), mm(1.9), ink)

    _corners(c, w, h, safe, index)
    c.setFillColor(ink)
    _both_ends(c, name, w, h, safe + mm(1), FONT, 6.5, w * 0.45)


def _two_colour(c: Canvas, spec: dict[str, str], w: float, h: float, bleed: float, safe: float) -> None:
    colour = _col(spec["colour"])
    _background(c, w, h, bleed, white)
    _frame(c, w, h, safe * 0.6, colour, 1.0)
    c.setFillColor(colour)
    _centred(c, spec["glyph"], w / 2, h / 2, FONT, min(w, h) * 0.62, w - 2 * safe)

    def index() -> None:
        c.setFillColor(colour)
        c.setFont(FONT, 16)
        c.drawString(mm(0.5), -mm(6), spec["glyph"])

    _corners(c, w, h, safe, index)
    _both_ends(c, spec["name"], w, h, safe + mm(1.5), FONT, 7, w * 0.5)


def _seat(c: Canvas, face: Face, w: float, h: float, bleed: float, safe: float) -> None:
    i = int(face.key[len("seat") :])
    owner, role = (face.extra + ("", ""))[:2]
    colour = _col(theta_colour(i))
    _background(c, w, h, bleed, white)
    _frame(c, w, h, safe * 0.6, colour, 2.0)
    c.setFillColor(colour)
    _centred(c, f"θ{i}", w / 2, h * 0.62, FONT_BOLD, min(w, h) * 0.3, w - 2 * safe)
    c.setFillColor(HexColor("#000000"))
    _centred(c, owner, w / 2, h * 0.42, FONT_BOLD, 11, w - 2 * safe)
    _centred(c, role, w / 2, h * 0.34, FONT, 7, w - 2 * safe)
    lines = ["In the card selection protocol", "this owner's cards get θ" + str(i) + " below them."]
    for k, line in enumerate(lines):
        _centred(c, line, w / 2, h * 0.22 - k * 9, FONT, 6.5, w - 2 * safe)
    c.saveState()
    c.translate(w / 2, h - safe - mm(3))
    c.rotate(180)
    c.setFillColor(colour)
    _centred(c, f"θ{i} · {owner}", 0, 0, FONT_BOLD, 9, w - 2 * safe)
    c.restoreState()


def _choice(c: Canvas, face: Face, w: float, h: float, bleed: float, safe: float) -> None:
    purpose = face.extra[0] if face.extra else "colour for a wild"
    if len(face.extra) >= 4:
        spec = {"fill": face.extra[1], "symbol": face.extra[2], "name": face.extra[3].capitalize()}
    else:
        spec = style().colours[face.key]
    fill = _col(spec["fill"])
    ink = _col(spec.get("ink", "#FFFFFF"))
    _background(c, w, h, bleed, fill)
    _mark(c, spec, w / 2, h * 0.55, min(w, h) * 0.25, ink)
    c.setFillColor(ink)
    _both_ends(c, spec["name"], w, h, h * 0.2, FONT_BOLD, 12, w - 2 * safe)
    _centred(c, purpose, w / 2, h * 0.28, FONT, 6.5, w - 2 * safe)


def _plain(c: Canvas, text: str, w: float, h: float, bleed: float, safe: float) -> None:
    """A card with no designed face (a protocol's labelled card such as c1): its name, large."""
    _background(c, w, h, bleed, white)
    ink = HexColor("#333333")
    _frame(c, w, h, safe * 0.6, ink, 1.0)
    c.setFillColor(ink)
    _centred(c, text, w / 2, h / 2, FONT_BOLD, min(w, h) * 0.4, w - 2 * safe)

    def index() -> None:
        c.setFillColor(ink)
        c.setFont(FONT_BOLD, 14)
        c.drawString(mm(0.5), -mm(5.5), text)

    _corners(c, w, h, safe, index)


def symbol_face(name: str, glyph: str, owners: Sequence[str] = (), deck: Any = None) -> Face:
    """The printed face of a card a protocol names: a marker, a θ card, a game card or a plain one.

    ``owners`` names θ_1, θ_2, ... (seats, then the piles); ``deck`` maps a game card's name
    to its face (None outside a game).
    """
    st = style()
    if name in st.markers:
        return Face("marker", name, glyph)
    if name.startswith("theta") and name[5:].isdigit():
        i = int(name[5:])
        return Face("theta", name, f"θ{i}", (owners[i - 1],) if i <= len(owners) else ())
    if name in st.two_colour:
        return Face("two_colour", name, glyph)
    if deck is not None:
        face = deck(name)
        if face is not None:
            assert isinstance(face, Face)
            return face
    return Face("plain", name, glyph)


# Pip positions of a die face on a unit square (0..1), for the numbers 0..9 of a tile's half.
_PIPS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.25, 0.75), (0.75, 0.25)],
    3: [(0.25, 0.75), (0.5, 0.5), (0.75, 0.25)],
    4: [(0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)],
    6: [(0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)],
    7: [(0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.5, 0.5), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)],
    8: [(0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.5, 0.2), (0.5, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)],
    9: [(x, y) for x in (0.25, 0.5, 0.75) for y in (0.2, 0.5, 0.8)],
}


def _tile(c: Canvas, face: Face, w: float, h: float, bleed: float, safe: float) -> None:
    """A domino tile on a card of a tile's proportions: two halves with pips, a line between,
    and each half's number in a corner (upside down at the other end)."""
    low, high = int(face.extra[0]), int(face.extra[1])
    ink = HexColor("#1A1A1A")
    _background(c, w, h, bleed, white)
    _frame(c, w, h, safe * 0.6, ink, 1.0)
    c.setStrokeColor(ink)
    c.setLineWidth(1.2)
    c.line(safe, h / 2, w - safe, h / 2)
    side = min(w - 2 * safe, h / 2 - 2 * safe)
    r = side * 0.08
    for value, y0 in ((high, h / 2 + (h / 2 - side) / 2), (low, (h / 2 - side) / 2)):
        x0 = (w - side) / 2
        for px, py in _PIPS[value]:
            c.setFillColor(ink)
            c.circle(x0 + px * side, y0 + py * side, r, stroke=0, fill=1)

    def index() -> None:
        c.setFillColor(ink)
        c.setFont(FONT_BOLD, 10)
        c.drawString(mm(0.3), -mm(4), f"{high}|{low}")

    _corners(c, w, h, safe, index)
