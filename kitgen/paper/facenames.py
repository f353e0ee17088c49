"""What a face is called in a player's words, and the face of a symbol."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import arrowface
from .faces import Face, style
from .labelfaces import is_numbered, label_face, label_parts
from .pen import colour_spec

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
        spec, number = label_parts(face)
        return f"{face.title} {spec['name']} card" if number else f"{spec['name']} card ({face.title})"
    if face.kind == "deck" and len(face.extra) >= 3:
        colour, kind, value = face.extra[:3]
        if colour == "black":
            return KIND_WORDS.get(kind, kind).capitalize()
        spec = colour_spec(face)
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
        if number and is_numbered(st.labels[family]):  # ticket3, label3
            return label_face(family, int(number))
        if not number and not is_numbered(st.labels[family]):  # stop
            return label_face(family)
    if deck is not None:
        face = deck(name)
        if face is not None:
            assert isinstance(face, Face)
            return face
    return Face("plain", name, glyph)
