"""Drawing a card face or the one card back: the dispatch to each card family."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from . import arrowface
from .deckcards import draw_deck_card, draw_suit_card
from .faces import FONT_BOLD, Face, style
from .labelfaces import draw_label
from .pen import Card, back_colour, draw_helper_border, fill_background, hex_colour
from .replay import replayed
from .tokens import draw_choice, draw_marker, draw_plain, draw_seat, draw_theta, draw_tile

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
    cd = Card(c, w, h, bleed, safe, ink_saver)
    if face.kind == "marker":
        draw_marker(cd, st.markers[face.key])
    elif face.kind == "theta":
        draw_theta(cd, int(face.key[len("theta") :]), face.extra[0] if face.extra else "")
    elif face.kind == "deck":
        draw_deck_card(cd, face)
    elif face.kind == "two_colour":
        spec = st.two_colour[face.key]
        draw_suit_card(cd, "A", spec["glyph"], spec["colour"], spec["glyph"], spec["name"])
    elif face.kind == "seat":
        draw_seat(cd, face)
    elif face.kind == "choice":
        draw_choice(cd, face)
    elif face.kind == "label":
        draw_label(cd, face)
    elif face.kind == "plain":
        draw_plain(cd, face.title)
    elif face.kind == "tile":
        draw_tile(cd, face)
    elif face.kind == "arrow":
        arrowface.background(c, w, h, bleed)
        arrowface.draw_arrow(c, w, h, bleed, draw_helper_border(cd), FONT_BOLD, ink_saver)
    else:
        raise ValueError(f"unknown face kind {face.kind!r}")


def draw_back(c: Canvas, w: float, h: float, bleed: float, ink_saver: bool = False) -> None:
    """The kit's only back: one flat colour to the edge of the bleed (see templates/cards.yaml)."""
    fill_background(c, w, h, bleed, hex_colour(back_colour(ink_saver)))
