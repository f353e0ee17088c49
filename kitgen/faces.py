"""Card faces and the one card back, drawn with reportlab from ``templates/cards.yaml``.

A :class:`Face` names what is printed (``alpha``, ``theta3``, ``red7``, ``club``, a seat
card...). :func:`draw_face` draws it upright in a card of the given trim size whose
lower-left corner is at the origin; the background runs into the bleed. Every face has
its index in two opposite corners, the bottom one turned half a turn, and each end's words
read the same way as that end's index; every face tells itself apart by shape and text as
well as by colour.

Two families (see ``templates/cards.yaml``): game cards in the game's colours, and helper cards
(α, β, θ, owner cards, colour choice cards, plain protocol cards) with a striped border. Nothing
but the background comes closer to the cut line than the safe margin. ``ink_saver`` draws the
same designs for a home printer: no full-bleed fills (game colours as a border, an outline and
the ink of the numbers) and a light back.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO, Literal

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject
from reportlab.platypus import Flowable, SimpleDocTemplate, Table, TableStyle

from reference_engine.api import Checker, SpecError, UsageError, load_file

from . import arrowface
from .colour import DARK, contrast, ink_on, readable
from .lang.catalogue import named, per_language
from .replay import replayed
from .templates import templates_dir
from .units import Length, mm

FONT = "KitSans"
FONT_BOLD = "KitSans-Bold"
EVEN_ODD = 0  # reportlab.pdfgen.canvas.FILL_EVEN_ODD (not in its type stubs)


@dataclass(frozen=True)
class Face:
    """What one card shows: a kind, a key and (for some kinds) a few words."""

    kind: str  # marker | theta | deck | two_colour | seat | choice | label | plain | tile
    key: str
    title: str
    extra: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        return self.title


@dataclass(frozen=True)
class Style:
    back: dict[str, str]  # the back's colour, and its colour with --ink-saver
    markers: dict[str, dict[str, str]]
    theta_palette: tuple[str, ...]
    colours: dict[str, dict[str, str]]
    wild: dict[str, str]
    deck_faces: dict[str, str]
    two_colour: dict[str, dict[str, str]]
    helper: dict[str, str]
    labels: dict[str, dict[str, str]]


@per_language  # its card names in the active language (kitgen.lang)
def style() -> Style:
    src = load_file(templates_dir() / "cards.yaml")
    ck = Checker(src)
    doc = (
        ck.mapping(
            src.data,
            (),
            required=("back", "markers", "theta", "colour_deck", "two_colour", "helper", "labels"),
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
        back={str(k): str(v) for k, v in doc["back"].items()},
        markers={k: named(v) for k, v in doc["markers"].items()},
        theta_palette=tuple(theta["palette"]),
        colours={k: named(v) for k, v in deck["colours"].items()},
        wild=named(deck["wild"]),
        deck_faces=dict(deck["faces"]),
        two_colour={k: named(v) for k, v in doc["two_colour"].items()},
        helper={k: str(v) for k, v in doc["helper"].items()},
        labels={k: {a: str(b) for a, b in named(v).items()} for k, v in doc["labels"].items()},
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


def new_canvas(path: str | BinaryIO, size: tuple[float, float], title: str) -> Canvas:
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


def new_document(
    target: str | BinaryIO, paper: tuple[float, float], margin: float, title: str
) -> SimpleDocTemplate:
    """A reproducible one-column platypus document (``invariant``) whose initial font is ours (as
    :func:`new_canvas`), ``margin`` on every side; a sheet of paragraphs such as a class handout."""
    ensure_fonts()
    return SimpleDocTemplate(
        target,
        pagesize=paper,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title=title,
        author="kitgen",
        creator="kitgen",
        invariant=1,
        initialFontName=FONT,
    )


# What a cell of a platypus table holds: text, a flowable, or flowables stacked in it.
Cell = str | Flowable | list[Flowable]


def pdf_table(
    rows: Sequence[Sequence[Cell]],
    colWidths: Sequence[float],
    repeatRows: int = 0,
    hAlign: Literal["LEFT", "CENTER", "RIGHT"] | None = None,
) -> Table:
    """A platypus table whose cells start in our embedded font: reportlab's default cell font is
    Helvetica, which it never embeds, and a print shop's preflight rejects a PDF listing it."""
    t = Table([list(row) for row in rows], colWidths=colWidths, repeatRows=repeatRows, hAlign=hAlign)
    t.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 9)]))
    return t


# --------------------------------------------------------------------------- helpers

ASCENT = 0.95  # DejaVu's glyph box above the baseline, as a share of the font size
DESCENT = 0.25


def _col(hex_: str) -> Color:
    return HexColor(hex_)


@dataclass(frozen=True)
class _Card:
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


def _text_fit(text: str, font: str, size: float, width: float) -> float:
    """The largest size <= ``size`` at which ``text`` fits in ``width``."""
    w = pdfmetrics.stringWidth(text, font, size)
    return size if w <= width else max(3.0, size * width / w)


def _centred(c: Canvas, text: str, x: float, y: float, font: str, size: float, width: float) -> float:
    """``text`` centred on (x, y) (the middle of its capitals); the size used."""
    s = _text_fit(text, font, size, width)
    c.setFont(font, s)
    c.drawCentredString(x, y - 0.36 * s, text)
    return s


def _below(c: Canvas, text: str, font: str, size: float, width: float, top: float = 0.0) -> float:
    """``text`` centred on x = 0 with its glyph box's top at ``top``; the size used."""
    s = _text_fit(text, font, size, width)
    c.setFont(font, s)
    c.drawCentredString(0, top - ASCENT * s, text)
    return s


def _shape(
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


def _mark(
    c: Canvas, spec: dict[str, str], x: float, y: float, r: float, colour: Color, outline: Color | None = None
) -> None:
    """A colour's mark: its shape (colour-number deck), or its symbol (a standard deck's suits)."""
    if "symbol" in spec:
        c.setFillColor(colour)
        size = r * 2.3
        c.setFont(FONT, size)
        c.drawCentredString(x, y - size * 0.33, spec["symbol"])
        return
    _shape(c, spec["shape"], x, y, r, colour, outline, max(0.5, r * 0.14) if outline is not None else 0.0)


def _corners(cd: _Card, inset: float, draw: Callable[[], None]) -> None:
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


def _ends(cd: _Card, text: str, inset: float, font: str, size: float, width: float, colour: str) -> None:
    """``text`` centred at the top, ``inset`` below the edge and upright, and at the bottom turned
    half a turn: each reads the same way as the corner index at its end of the card."""
    c = cd.c
    for x, y, turn in ((cd.w / 2, cd.h - inset, 0), (cd.w / 2, inset, 180)):
        c.saveState()
        c.translate(x, y)
        c.rotate(turn)
        c.setFillColor(_col(colour))
        _below(c, text, font, size, width)
        c.restoreState()


def _background(c: Canvas, w: float, h: float, bleed: float, colour: Color) -> None:
    c.setFillColor(colour)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)


def _helper_border(cd: _Card) -> float:
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
    c.setFillColor(_col(st.helper["stripe"]))
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


def _panel(cd: _Card, x: float, y: float, w: float, h: float, colour: str) -> str:
    """A rounded colour panel (an outline only, for a home printer); the ink for text on it."""
    c = cd.c
    if cd.saver:
        c.setStrokeColor(_col(colour))
        c.setLineWidth(mm(1.0))
        c.roundRect(x, y, w, h, mm(1.6), stroke=1, fill=0)
        return readable(colour)
    c.setFillColor(_col(colour))
    c.roundRect(x, y, w, h, mm(1.6), stroke=0, fill=1)
    return ink_on(colour)


# --------------------------------------------------------------------------- faces


def draw_face(
    c: Canvas, face: Face, w: float, h: float, bleed: float, safe: float, ink_saver: bool = False
) -> None:
    """Draw ``face`` upright in a w x h card at the origin (background into the bleed); drawn
    once per PDF and state, then replayed (:mod:`kitgen.replay`: the same bytes)."""
    replayed(
        c, (face, w, h, bleed, safe, ink_saver), lambda: _draw_face(c, face, w, h, bleed, safe, ink_saver)
    )


def _draw_face(c: Canvas, face: Face, w: float, h: float, bleed: float, safe: float, ink_saver: bool) -> None:
    st = style()
    cd = _Card(c, w, h, bleed, safe, ink_saver)
    if face.kind == "marker":
        _marker(cd, st.markers[face.key])
    elif face.kind == "theta":
        _theta(cd, int(face.key[len("theta") :]), face.extra[0] if face.extra else "")
    elif face.kind == "deck":
        _deck_card(cd, face)
    elif face.kind == "two_colour":
        spec = st.two_colour[face.key]
        _suit_card(cd, "A", spec["glyph"], spec["colour"], spec["glyph"], spec["name"])
    elif face.kind == "seat":
        _seat(cd, face)
    elif face.kind == "choice":
        _choice(cd, face)
    elif face.kind == "label":
        _label(cd, face)
    elif face.kind == "plain":
        _plain(cd, face.title)
    elif face.kind == "tile":
        _tile(cd, face)
    elif face.kind == "arrow":
        arrowface.background(c, w, h, bleed)
        arrowface.draw_arrow(c, w, h, bleed, _helper_border(cd), FONT_BOLD, ink_saver)
    else:
        raise ValueError(f"unknown face kind {face.kind!r}")


def back_colour(ink_saver: bool = False) -> str:
    """The kit's back colour (the light one with ``ink_saver``)."""
    return str(style().back["ink_saver" if ink_saver else "colour"])


def draw_back(c: Canvas, w: float, h: float, bleed: float, ink_saver: bool = False) -> None:
    """The kit's only back: one flat colour to the edge of the bleed (see templates/cards.yaml)."""
    _background(c, w, h, bleed, _col(back_colour(ink_saver)))


def _marker(cd: _Card, spec: dict[str, str]) -> None:
    c, w, h = cd.c, cd.w, cd.h
    colour = _col(spec["colour"])
    solid = spec.get("fill", "solid") == "solid"
    _background(c, w, h, cd.bleed, white)
    inner = _helper_border(cd)
    r = min(w - 2 * inner, h * 0.55) * 0.36
    dy = r * 0.1 if spec["shape"] == "triangle" else 0.0
    if solid:
        _shape(c, spec["shape"], w / 2, h / 2, r, colour)
        c.setFillColor(white)
    else:
        _shape(c, spec["shape"], w / 2, h / 2, r, None, colour, r * 0.13)
        c.setFillColor(colour)
    _centred(c, spec["glyph"], w / 2, h / 2 - dy, FONT_BOLD, r * (1.1 if solid else 0.8), r * 1.2)

    def index() -> None:
        size = 15 * cd.k
        c.setFillColor(colour)
        c.setFont(FONT_BOLD, size)
        c.drawCentredString(mm(2.6), -ASCENT * size, spec["glyph"])
        m = mm(2.0) * cd.k
        y = -size * (ASCENT + DESCENT) - m - mm(0.6)
        if solid:
            _shape(c, spec["shape"], mm(2.6), y, m, colour)
        else:
            _shape(c, spec["shape"], mm(2.6), y, m, None, colour, m * 0.22)

    _corners(cd, inner + mm(1.0), index)
    _ends(cd, spec["name"], inner + mm(1.2), FONT, 8 * cd.k, w * 0.42, spec["colour"])


def theta_colour(i: int) -> str:
    palette = style().theta_palette
    return palette[(i - 1) % len(palette)]


def _theta(cd: _Card, i: int, owner: str) -> None:
    c, w, h = cd.c, cd.w, cd.h
    colour = theta_colour(i)
    _background(c, w, h, cd.bleed, white)
    inner = _helper_border(cd)
    pad = inner + mm(1.5)
    top, bottom = h * 0.7, h * 0.3
    ink = _panel(cd, pad, bottom, w - 2 * pad, top - bottom, colour)
    c.setFillColor(_col(ink))
    _centred(c, f"θ{i}", w / 2, h / 2, FONT_BOLD, min(w, h) * 0.34, w - 2 * pad - mm(4))
    # A row of i dots above and below the number: the owner without reading, from either side.
    step = min(mm(4.0), (w - 2 * pad - mm(4)) / max(i, 1))
    for dy in (-1, 1):
        for k in range(i):
            x = w / 2 + (k - (i - 1) / 2) * step
            y = h / 2 + dy * (top - bottom) * 0.36
            _shape(c, "circle", x, y, min(mm(1.3), step * 0.35), _col(ink))
    label = f"θ{i} · {owner}" if owner else f"θ{i}"
    _ends(cd, label, inner + mm(1.5), FONT_BOLD, 9 * cd.k, w - 2 * pad, DARK)


def known_colours() -> set[str]:
    """The deck colours the templates have a design for (templates/cards.yaml)."""
    return set(style().colours)


def _colour_spec(face: Face) -> dict[str, str]:
    """A deck colour's design: from the templates, or from the rule set (fill, symbol, name)."""
    if len(face.extra) >= 6:
        return {"fill": face.extra[3], "symbol": face.extra[4], "name": face.extra[5].capitalize()}
    return style().colours[face.extra[0]]


def _deck_card(cd: _Card, face: Face) -> None:
    colour_name, kind, value = face.extra[0], face.extra[1], face.extra[2]
    if colour_name == "black":
        _colour_card(cd, None, kind, value)
        return
    spec = _colour_spec(face)
    if "symbol" in spec:
        rank = {"1": "A", "11": "J", "12": "Q", "13": "K", "14": "A"}.get(value, value)
        _suit_card(cd, rank, spec["symbol"], spec["fill"], spec["symbol"])
    else:
        _colour_card(cd, spec, kind, value)


def _oval(cd: _Card) -> tuple[float, float]:
    """The tilted oval of a colour-number card: its radii."""
    inner = cd.safe + mm(2.5)
    return (cd.w - 2 * inner) * 0.44, (cd.h - 2 * inner) * 0.34


def _colour_card(cd: _Card, spec: dict[str, str] | None, kind: str, value: str) -> None:
    """A card of the colour-number deck (``spec`` None: a wild card): the colour to the edge (a
    border, for a home printer), a white tilted oval with the number, the index in two corners and
    the colour's name at both ends."""
    st = style()
    c, w, h = cd.c, cd.w, cd.h
    fill = spec["fill"] if spec is not None else st.wild["fill"]
    name = spec["name"] if spec is not None else st.wild["name"]
    text = value if kind == "number" else st.deck_faces.get(kind, value)
    if cd.saver:
        _background(c, w, h, cd.bleed, white)
        edge = cd.safe + mm(1.3)
        c.setStrokeColor(_col(fill))
        c.setLineWidth(mm(1.8))
        c.roundRect(edge, edge, w - 2 * edge, h - 2 * edge, mm(2.2), stroke=1, fill=0)
        ink = readable(fill)
    else:
        _background(c, w, h, cd.bleed, _col(fill))
        ink = ink_on(fill)
    rx, ry = _oval(cd)
    c.saveState()
    c.translate(w / 2, h / 2)
    c.rotate(28)
    c.setFillColor(white)
    if cd.saver:
        c.setStrokeColor(_col(fill))
        c.setLineWidth(mm(0.9))
    c.ellipse(-rx, -ry, rx, ry, stroke=1 if cd.saver else 0, fill=1)
    c.restoreState()
    r = min(rx, ry)
    if spec is None:
        # Four quarters in the deck's colours around a dark disc: any colour may follow.
        for k, cname in enumerate(("red", "yellow", "green", "blue")):
            c.setFillColor(_col(st.colours[cname]["fill"]))
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
        c.setFillColor(_col(DARK))
        c.circle(w / 2, h / 2, r * 0.52, stroke=0, fill=1)
        c.setFillColor(white)
        _centred(c, text, w / 2, h / 2, FONT_BOLD, r * 0.62, r * 0.9)
    else:
        number = readable(fill)
        c.setFillColor(_col(number))
        big = r * 1.25 if len(text) < 2 else r * 0.95
        size = _centred(c, text, w / 2, h / 2 + r * 0.2, FONT_BOLD, big, r * 1.5)
        if kind == "number" and value in ("6", "9"):
            c.setLineWidth(max(1.0, size * 0.06))
            c.setStrokeColor(_col(number))
            y = h / 2 + r * 0.2 - size * 0.5
            c.line(w / 2 - size * 0.25, y, w / 2 + size * 0.25, y)
        # The colour's shape under the number: the colour without seeing it.
        outline = _col(DARK) if contrast(fill, "#FFFFFF") < 3 else None
        _mark(c, spec, w / 2, h / 2 - r * 0.8, r * 0.15, _col(fill), outline)

    def index() -> None:
        size = _text_fit(text, FONT_BOLD, 15 * cd.k, mm(9) * cd.k)
        c.setFillColor(_col(ink))
        c.setFont(FONT_BOLD, size)
        c.drawString(0, -ASCENT * size, text)  # from the inset: "+2" grows inwards, never outwards
        if spec is not None:
            m = mm(1.9) * cd.k
            x = max(m, pdfmetrics.stringWidth(text, FONT_BOLD, size) / 2)
            y = -size * (ASCENT + DESCENT) - m - mm(0.4)
            outline = _col(DARK) if cd.saver and contrast(fill, "#FFFFFF") < 3 else None
            _mark(c, spec, x, y, m, _col(fill) if cd.saver else _col(ink), outline)

    inset = cd.safe + (mm(3.4) if cd.saver else mm(0.6))
    _corners(cd, inset, index)
    _ends(cd, name, inset + mm(0.6), FONT, 7.5 * cd.k, w * 0.4, ink)


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


def _suit_card(cd: _Card, rank: str, symbol: str, colour: str, index_symbol: str, name: str = "") -> None:
    """A card of a standard deck (and the ♣ and ♥ cards of the two-colour protocols): white, the
    rank and suit in two corners, and pips (2 to 10), one big pip (an ace) or a court panel."""
    c, w, h = cd.c, cd.w, cd.h
    ink = readable(colour)
    _background(c, w, h, cd.bleed, white)
    column = mm(7.5) * cd.k  # the index column at each side
    x0, x1 = cd.safe + column, w - cd.safe - column
    y0, y1 = cd.safe + mm(3.5), h - cd.safe - mm(3.5)
    if rank.isdigit() and int(rank) in _PIP_PLACES:
        places = _PIP_PLACES[int(rank)]
        size = min((x1 - x0) * 0.36, (y1 - y0) * 0.17)
        top, bottom = y1 - size * 0.45, y0 + size * 0.45
        xs = (x0 + size * 0.42, w / 2, x1 - size * 0.42)
        c.setFillColor(_col(ink))
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
        c.setFillColor(_col(ink))
        size = min(x1 - x0, (y1 - y0) * 0.6) * 0.95
        c.setFont(FONT, size)
        c.drawCentredString(w / 2, h / 2 - size * 0.35, symbol)

    def index() -> None:
        size = 14 * cd.k
        c.setFillColor(_col(ink))
        c.setFont(FONT_BOLD, _text_fit(rank, FONT_BOLD, size, column - mm(0.5)))
        c.drawCentredString(column / 2 - mm(0.4), -ASCENT * size, rank)
        c.setFont(FONT, size * 0.95)
        c.drawCentredString(column / 2 - mm(0.4), -size * (ASCENT + DESCENT) - size * 0.85, index_symbol)

    _corners(cd, cd.safe + mm(0.4), index)
    if name:  # the two-colour protocols' cards name their suit at both ends
        _ends(cd, name, cd.safe + mm(1.2), FONT, 8 * cd.k, w * 0.4, ink)


def _court(cd: _Card, rank: str, symbol: str, colour: str, area: tuple[float, float, float, float]) -> None:
    """A court card's panel: a framed, lightly tinted panel with a crown, the rank and the suit at
    each end (the lower half turned half a turn, as on a printed deck)."""
    c, w, h = cd.c, cd.w, cd.h
    x0, y0, x1, y1 = area
    ink = readable(colour)
    tint = "#FBEBEE" if colour != DARK and contrast(colour, DARK) > 2 else "#E6E6E6"
    c.setFillColor(_col("#FFFFFF" if cd.saver else tint))
    c.setStrokeColor(_col(ink))
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
        c.setFillColor(_col(ink))
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
            c.setStrokeColor(_col(ink))
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


def _seat(cd: _Card, face: Face) -> None:
    c, w, h = cd.c, cd.w, cd.h
    i = int(face.key[len("seat") :])
    owner, role = (face.extra + ("", ""))[:2]
    colour = theta_colour(i)
    _background(c, w, h, cd.bleed, white)
    inner = _helper_border(cd)
    pad = inner + mm(1.5)
    room = w - 2 * pad
    ink = _panel(cd, pad, h * 0.5, room, h * 0.22, colour)
    c.setFillColor(_col(ink))
    _centred(c, f"θ{i}", w / 2, h * 0.61, FONT_BOLD, min(w, h) * 0.24, room - mm(4))
    c.setFillColor(_col(DARK))
    _centred(c, owner, w / 2, h * 0.42, FONT_BOLD, 11 * cd.k, room)
    _centred(c, role, w / 2, h * 0.36, FONT, 7 * cd.k, room)
    lines = ["At a virtual player's turn", "this owner's cards get θ" + str(i) + " below them."]
    for k, line in enumerate(lines):
        _centred(c, line, w / 2, h * 0.27 - k * 9 * cd.k, FONT, 6.5 * cd.k, room)
    # The owner for the people across the table: at the top, turned half a turn.
    c.saveState()
    c.translate(w / 2, (h * 0.72 + h - pad) / 2)
    c.rotate(180)
    c.setFillColor(_col(DARK))
    _centred(c, f"θ{i} · {owner}", 0, 0, FONT_BOLD, 9 * cd.k, room)
    c.restoreState()


def _choice(cd: _Card, face: Face) -> None:
    c, w, h = cd.c, cd.w, cd.h
    purpose = face.extra[0] if face.extra else "colour for a wild"
    if len(face.extra) >= 4:
        spec = {"fill": face.extra[1], "symbol": face.extra[2], "name": face.extra[3].capitalize()}
    else:
        spec = style().colours[face.key]
    fill = spec["fill"]
    _background(c, w, h, cd.bleed, white)
    inner = _helper_border(cd)
    pad = inner + mm(1.5)
    ink = _panel(cd, pad, h * 0.34, w - 2 * pad, h * 0.36, fill)
    r = min(w - 2 * pad, h * 0.36) * 0.3
    if cd.saver:
        _mark(c, spec, w / 2, h * 0.52, r, _col(fill), _col(DARK) if contrast(fill, "#FFFFFF") < 3 else None)
    else:
        _mark(c, spec, w / 2, h * 0.52, r, _col(ink))
    _ends(cd, spec["name"], inner + mm(1.5), FONT_BOLD, 12 * cd.k, w - 2 * pad, DARK)
    c.setFillColor(_col(DARK))
    _centred(c, purpose, w / 2, h * 0.27, FONT, 6.5 * cd.k, w - 2 * pad)


def label_face(family: str, number: int | None = None) -> Face:
    """A lottery's name card: ``label_face("ticket", 3)`` is λ3 of the weighted selection,
    ``label_face("label", 3)`` λ3 of the play selection, ``label_face("stop")`` the stop card."""
    spec = style().labels[family]
    if number is None:
        return Face("label", family, spec["glyph"])
    return Face("label", f"{family}{number}", f"{spec['glyph']}{number}")


def _numbered(spec: dict[str, str]) -> bool:
    """A family of numbered cards (λ1, λ2, ...) rather than a single card with a word (STOP)."""
    return "word" not in spec


def _label_parts(face: Face) -> tuple[dict[str, str], str]:
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


def _label(cd: _Card, face: Face) -> None:
    """λ_j (a ticket's or a label's name in a lottery) or the stop card: helper cards in dark ink,
    the number in a notched ticket or STOP in an octagon, the glyph in the corners and the
    card's name at each end."""
    c, w, h = cd.c, cd.w, cd.h
    spec, number = _label_parts(face)
    ink = _col(spec["colour"])
    _background(c, w, h, cd.bleed, white)
    inner = _helper_border(cd)
    pad = inner + mm(1.5)
    room = w - 2 * pad
    if number:
        tw, th = room - mm(2), min(h * 0.4, (room - mm(2)) * 0.75)
        c.setStrokeColor(ink)
        c.setLineWidth(mm(0.7))
        c.drawPath(_ticket_path(c, w / 2 - tw / 2, h / 2 - th / 2, tw, th), stroke=1, fill=0)
        c.setFillColor(ink)
        notch = min(th * 0.16, mm(3.5))  # as _ticket_path's
        _centred(c, face.title, w / 2, h / 2, FONT_BOLD, th * 0.55, tw - 2 * notch - mm(3))
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
        _centred(c, spec.get("word", spec["name"].upper()), w / 2, h / 2, FONT_BOLD, r * 0.55, r * 1.5)
    glyph = face.title

    def index() -> None:
        size = 14 * cd.k
        c.setFillColor(ink)
        c.setFont(FONT_BOLD, _text_fit(glyph, FONT_BOLD, size, w * 0.22))
        c.drawString(0, -ASCENT * size, glyph)

    _corners(cd, inner + mm(1.0), index)
    words = f"{spec['name']} {number}" if number else spec["name"]
    _ends(cd, words, inner + mm(1.2), FONT, 8 * cd.k, w * 0.42, spec["colour"])


def _plain(cd: _Card, text: str) -> None:
    """A card with no designed face (a protocol's labelled card such as c1): its name, large."""
    c, w, h = cd.c, cd.w, cd.h
    _background(c, w, h, cd.bleed, white)
    inner = _helper_border(cd)
    ink = _col("#333333")
    c.setFillColor(ink)
    _centred(c, text, w / 2, h / 2, FONT_BOLD, min(w, h) * 0.4, w - 2 * inner - mm(4))

    def index() -> None:
        size = 14 * cd.k
        c.setFillColor(ink)
        c.setFont(FONT_BOLD, _text_fit(text, FONT_BOLD, size, w * 0.3))
        c.drawString(0, -ASCENT * size, text)

    _corners(cd, inner + mm(1.0), index)


RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
KIND_WORDS = {
    "skip": "skip",
    "reverse": "reverse",
    "draw2": "draw two",
    "wild": "wild",
    "wild4": "wild draw four",
}


def face_name(face: Face) -> str:
    """What a player calls the card: "Red 7", "queen of hearts", "α marker", "θ2 · Human 1"."""
    if face.kind == "marker":
        spec = style().markers[face.key]
        return f"{spec['glyph']} marker ({spec['name']})"
    if face.kind == "theta":
        i = face.key[len("theta") :]
        return f"θ{i} · {face.extra[0]}" if face.extra else f"θ{i} owner marker"
    if face.kind == "two_colour":
        return f"{style().two_colour[face.key]['glyph']} card"
    if face.kind == "arrow":
        return arrowface.NAME
    if face.kind == "tile":
        return f"domino {face.extra[1]}|{face.extra[0]}"
    if face.kind == "label":
        spec, number = _label_parts(face)
        return f"{face.title} {spec['name']} card" if number else f"{spec['name']} card ({face.title})"
    if face.kind == "deck" and len(face.extra) >= 3:
        colour, kind, value = face.extra[:3]
        if colour == "black":
            return KIND_WORDS.get(kind, kind).capitalize()
        spec = _colour_spec(face)
        if "symbol" in spec:
            rank = {"1": "A", "11": "J", "12": "Q", "13": "K", "14": "A"}.get(value, value)
            return f"{RANK_WORDS.get(rank, rank)} of {spec['name'].lower()}"
        return f"{spec['name']} {value if kind == 'number' else KIND_WORDS.get(kind, kind)}"
    return face.title


def symbol_face(
    name: str, glyph: str, owners: Sequence[str] = (), deck: Callable[[str], Face | None] | None = None
) -> Face:
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
    if name in arrowface.SYMBOLS:
        return Face("arrow", arrowface.KEY, arrowface.TITLE)
    family = name.rstrip("0123456789")
    if family in st.labels:
        number = name[len(family) :]
        if number and _numbered(st.labels[family]):  # ticket3, label3
            return label_face(family, int(number))
        if not number and not _numbered(st.labels[family]):  # stop
            return label_face(family)
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
IVORY = "#FBF7EA"
PIN = "#A07C3C"


def _tile(cd: _Card, face: Face) -> None:
    """A domino tile on a card of a tile's proportions: ivory, two halves with pips, a line with a
    pin between them, and each half's numbers in a corner (turned at the other end)."""
    c, w, h = cd.c, cd.w, cd.h
    low, high = int(face.extra[0]), int(face.extra[1])
    ink = _col(DARK)
    _background(c, w, h, cd.bleed, white if cd.saver else _col(IVORY))
    edge = cd.safe + mm(0.6)
    c.setStrokeColor(ink)
    c.setLineWidth(0.9)
    c.roundRect(edge, edge, w - 2 * edge, h - 2 * edge, mm(2.5), stroke=1, fill=0)
    c.setLineWidth(1.4)
    c.line(edge + mm(3), h / 2, w - edge - mm(3), h / 2)
    c.setFillColor(_col(PIN))
    c.setLineWidth(0.5)
    c.circle(w / 2, h / 2, mm(1.1), stroke=1, fill=1)
    room = mm(7) * cd.k  # the corner index above and below each half
    side = min(w - 2 * edge - mm(4), h / 2 - edge - room - mm(2))
    r = side * 0.085
    for value, y0 in (
        (high, h / 2 + (h / 2 - edge - side) / 2 + mm(0.5)),
        (low, edge + (h / 2 - edge - side) / 2 - mm(0.5)),
    ):
        x0 = (w - side) / 2
        c.setFillColor(ink)
        for px, py in _PIPS[value]:
            c.circle(x0 + px * side, y0 + py * side, r, stroke=0, fill=1)

    def index() -> None:
        size = 9 * cd.k
        c.setFillColor(ink)
        c.setFont(FONT_BOLD, size)
        c.drawString(0, -ASCENT * size, f"{high}|{low}")

    _corners(cd, edge + mm(1.2), index)
