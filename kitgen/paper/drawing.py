"""Drawing a card face or the one card back: the dispatch to each card family."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from . import arrowface
from .deckcards import _deck_card, _suit_card
from .faces import FONT_BOLD, Face, style
from .labelfaces import _label
from .pen import _background, _Card, _col, _helper_border, back_colour
from .replay import replayed
from .tokens import _choice, _marker, _plain, _seat, _theta, _tile

# --------------------------------------------------------------------------- faces


def draw_face(
    c: Canvas, face: Face, w: float, h: float, bleed: float, safe: float, ink_saver: bool = False
) -> None:
    """Draw ``face`` upright in a w x h card at the origin (background into the bleed); drawn
    once per PDF and state, then replayed (:mod:`kitgen.paper.replay`: the same bytes)."""
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


def draw_back(c: Canvas, w: float, h: float, bleed: float, ink_saver: bool = False) -> None:
    """The kit's only back: one flat colour to the edge of the bleed (see templates/cards.yaml)."""
    _background(c, w, h, bleed, _col(back_colour(ink_saver)))
