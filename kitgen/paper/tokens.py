"""The faces of a protocol's own cards and tiles: markers, theta cards, seat and choice
cards, plain cards and tiles.
"""

from __future__ import annotations

from reportlab.lib.colors import white

from ..core.colour import DARK, contrast
from ..core.units import mm
from ..lang.catalogue import N_, _
from ..lang.seats import seat_name
from .faces import FONT, FONT_BOLD, Face, style
from .pen import (
    ASCENT,
    DESCENT,
    Card,
    draw_centred,
    draw_corners,
    draw_ends,
    draw_helper_border,
    draw_mark,
    draw_panel,
    draw_shape,
    fill_background,
    fitted_size,
    hex_colour,
    theta_colour,
)


def draw_marker(cd: Card, spec: dict[str, str]) -> None:
    c, w, h = cd.c, cd.w, cd.h
    colour = hex_colour(spec["colour"])
    solid = spec.get("fill", "solid") == "solid"
    fill_background(c, w, h, cd.bleed, white)
    inner = draw_helper_border(cd)
    r = min(w - 2 * inner, h * 0.55) * 0.36
    dy = r * 0.1 if spec["shape"] == "triangle" else 0.0
    if solid:
        draw_shape(c, spec["shape"], w / 2, h / 2, r, colour)
        c.setFillColor(white)
    else:
        draw_shape(c, spec["shape"], w / 2, h / 2, r, None, colour, r * 0.13)
        c.setFillColor(colour)
    draw_centred(c, spec["glyph"], w / 2, h / 2 - dy, FONT_BOLD, r * (1.1 if solid else 0.8), r * 1.2)

    def index() -> None:
        size = 15 * cd.k
        c.setFillColor(colour)
        c.setFont(FONT_BOLD, size)
        c.drawCentredString(mm(2.6), -ASCENT * size, spec["glyph"])
        m = mm(2.0) * cd.k
        y = -size * (ASCENT + DESCENT) - m - mm(0.6)
        if solid:
            draw_shape(c, spec["shape"], mm(2.6), y, m, colour)
        else:
            draw_shape(c, spec["shape"], mm(2.6), y, m, None, colour, m * 0.22)

    draw_corners(cd, inner + mm(1.0), index)
    draw_ends(cd, spec["name"], inner + mm(1.2), FONT, 8 * cd.k, w * 0.42, spec["colour"])


def draw_theta(cd: Card, i: int, owner: str) -> None:
    c, w, h = cd.c, cd.w, cd.h
    colour = theta_colour(i)
    fill_background(c, w, h, cd.bleed, white)
    inner = draw_helper_border(cd)
    pad = inner + mm(1.5)
    top, bottom = h * 0.7, h * 0.3
    ink = draw_panel(cd, pad, bottom, w - 2 * pad, top - bottom, colour)
    c.setFillColor(hex_colour(ink))
    draw_centred(c, f"θ{i}", w / 2, h / 2, FONT_BOLD, min(w, h) * 0.34, w - 2 * pad - mm(4))
    # A row of i dots above and below the number: the owner without reading, from either side.
    step = min(mm(4.0), (w - 2 * pad - mm(4)) / max(i, 1))
    for dy in (-1, 1):
        for k in range(i):
            x = w / 2 + (k - (i - 1) / 2) * step
            y = h / 2 + dy * (top - bottom) * 0.36
            draw_shape(c, "circle", x, y, min(mm(1.3), step * 0.35), hex_colour(ink))
    label = f"θ{i} · {seat_name(owner)}" if owner else f"θ{i}"
    draw_ends(cd, label, inner + mm(1.5), FONT_BOLD, 9 * cd.k, w - 2 * pad, DARK)


# A seat card's role line (kitgen.kinds.virtual.owner_cards), in the active language.
ROLES = {
    "virtual player": N_("virtual player"),
    "human player": N_("human player"),
    "not a player": N_("not a player"),
}


def _role(role: str) -> str:
    return _(ROLES[role]) if role in ROLES else role


# A choice card's purpose line (kitgen.kinds.shedding.materials.choice_cards), in the active language.
PURPOSES = {"colour for a wild": N_("colour for a wild"), "suit for an eight": N_("suit for an eight")}


def _purpose(purpose: str) -> str:
    return _(PURPOSES[purpose]) if purpose in PURPOSES else purpose


def draw_seat(cd: Card, face: Face) -> None:
    c, w, h = cd.c, cd.w, cd.h
    i = int(face.key[len("seat") :])
    owner, role = (face.extra + ("", ""))[:2]
    owner, role = seat_name(owner), _role(role)
    colour = theta_colour(i)
    fill_background(c, w, h, cd.bleed, white)
    inner = draw_helper_border(cd)
    pad = inner + mm(1.5)
    room = w - 2 * pad
    ink = draw_panel(cd, pad, h * 0.5, room, h * 0.22, colour)
    c.setFillColor(hex_colour(ink))
    draw_centred(c, f"θ{i}", w / 2, h * 0.61, FONT_BOLD, min(w, h) * 0.24, room - mm(4))
    c.setFillColor(hex_colour(DARK))
    draw_centred(c, owner, w / 2, h * 0.42, FONT_BOLD, 11 * cd.k, room)
    draw_centred(c, role, w / 2, h * 0.36, FONT, 7 * cd.k, room)
    if "sleeved" in face.extra[2:]:  # the θ card lives in each card's sleeve, behind it, all game
        lines = [_("Each card of this owner has"), _("θ{i} behind it in its sleeve.").format(i=i)]
    else:
        lines = [_("At a virtual player's turn"), _("this owner's cards get θ{i} below them.").format(i=i)]
    for k, line in enumerate(lines):
        draw_centred(c, line, w / 2, h * 0.27 - k * 9 * cd.k, FONT, 6.5 * cd.k, room)
    # The owner for the people across the table: at the top, turned half a turn.
    c.saveState()
    c.translate(w / 2, (h * 0.72 + h - pad) / 2)
    c.rotate(180)
    c.setFillColor(hex_colour(DARK))
    draw_centred(c, f"θ{i} · {owner}", 0, 0, FONT_BOLD, 9 * cd.k, room)
    c.restoreState()


def draw_choice(cd: Card, face: Face) -> None:
    c, w, h = cd.c, cd.w, cd.h
    purpose = _purpose(face.extra[0] if face.extra else "colour for a wild")
    if len(face.extra) >= 4:
        spec = {"fill": face.extra[1], "symbol": face.extra[2], "name": face.extra[3].capitalize()}
    else:
        spec = style().colours[face.key]
    fill = spec["fill"]
    fill_background(c, w, h, cd.bleed, white)
    inner = draw_helper_border(cd)
    pad = inner + mm(1.5)
    ink = draw_panel(cd, pad, h * 0.34, w - 2 * pad, h * 0.36, fill)
    r = min(w - 2 * pad, h * 0.36) * 0.3
    if cd.saver:
        draw_mark(
            c,
            spec,
            w / 2,
            h * 0.52,
            r,
            hex_colour(fill),
            hex_colour(DARK) if contrast(fill, "#FFFFFF") < 3 else None,
        )
    else:
        draw_mark(c, spec, w / 2, h * 0.52, r, hex_colour(ink))
    draw_ends(cd, spec["name"], inner + mm(1.5), FONT_BOLD, 12 * cd.k, w - 2 * pad, DARK)
    c.setFillColor(hex_colour(DARK))
    draw_centred(c, purpose, w / 2, h * 0.27, FONT, 6.5 * cd.k, w - 2 * pad)


def draw_plain(cd: Card, text: str) -> None:
    """A card with no designed face (a protocol's labelled card such as c1): its name, large."""
    c, w, h = cd.c, cd.w, cd.h
    fill_background(c, w, h, cd.bleed, white)
    inner = draw_helper_border(cd)
    ink = hex_colour("#333333")
    c.setFillColor(ink)
    draw_centred(c, text, w / 2, h / 2, FONT_BOLD, min(w, h) * 0.4, w - 2 * inner - mm(4))

    def index() -> None:
        size = 14 * cd.k
        c.setFillColor(ink)
        c.setFont(FONT_BOLD, fitted_size(text, FONT_BOLD, size, w * 0.3))
        c.drawString(0, -ASCENT * size, text)

    draw_corners(cd, inner + mm(1.0), index)


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


def draw_tile(cd: Card, face: Face) -> None:
    """A domino tile on a card of a tile's proportions: ivory, two halves with pips, a line with a
    pin between them, and each half's numbers in a corner (turned at the other end)."""
    c, w, h = cd.c, cd.w, cd.h
    low, high = int(face.extra[0]), int(face.extra[1])
    ink = hex_colour(DARK)
    fill_background(c, w, h, cd.bleed, white if cd.saver else hex_colour(IVORY))
    edge = cd.safe + mm(0.6)
    c.setStrokeColor(ink)
    c.setLineWidth(0.9)
    c.roundRect(edge, edge, w - 2 * edge, h - 2 * edge, mm(2.5), stroke=1, fill=0)
    c.setLineWidth(1.4)
    c.line(edge + mm(3), h / 2, w - edge - mm(3), h / 2)
    c.setFillColor(hex_colour(PIN))
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

    draw_corners(cd, edge + mm(1.2), index)
