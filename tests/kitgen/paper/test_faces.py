"""The card palette (templates/cards.yaml): helper cards never borrow a game card's colour."""

from __future__ import annotations

import itertools
from pathlib import Path

from kitgen.core.colour import AA, contrast, difference, ink_on
from kitgen.paper.faces import style

APART = 30.0  # CIE76 ΔE: beyond this two colours are different colours, not shades of one


def game_colours() -> dict[str, str]:
    s = style()
    out = {f"colour_deck {k}": v["fill"] for k, v in s.colours.items()}
    out["colour_deck wild"] = s.wild["fill"]
    out.update({f"two_colour {k}": v["colour"] for k, v in s.two_colour.items()})
    return out


def test_no_theta_colour_is_a_game_colour() -> None:
    """θ1 once shared UNO's blue and θ2 its red: a marker read as a game card at a glance."""
    near = [
        (i + 1, colour, name, round(difference(colour, game)))
        for i, colour in enumerate(style().theta_palette)
        for name, game in game_colours().items()
        if difference(colour, game) < APART
    ]
    assert near == []


def test_theta_colours_are_told_apart_from_each_other() -> None:
    palette = style().theta_palette
    assert len(set(palette)) == len(palette) >= 8
    # Owners are also told by their number of dots; the colours of the first six (a full UNO
    # table's seats and piles) are clearly different colours.
    close = [(a, b) for a, b in itertools.combinations(palette[:6], 2) if difference(a, b) < APART]
    assert close == []


def test_every_fill_carries_readable_ink() -> None:
    fills = list(style().theta_palette) + list(game_colours().values())
    assert [f for f in fills if contrast(ink_on(f), f) < AA] == []


def test_lambda_and_stop_cards_are_helper_cards() -> None:
    """λ tickets (weighted selection), λ labels and the stop card (Daifugō's play selection) are
    drawn like α and β: white, the striped border, dark ink and no colour of any game card."""
    from kitgen.paper.cardimages import PictureSize, render
    from kitgen.paper.facenames import symbol_face
    from kitgen.paper.labelfaces import label_face

    faces = [label_face("ticket", 3), label_face("label", 12), label_face("stop"), symbol_face("alpha", "α")]
    for saver in (False, True):
        pictures = render(faces, PictureSize(56.0, 87.0, 0.0, dpi=100), saver)
        w, h = pictures[0].size
        border = [(x, round(h * 0.3)) for x in range(w // 2)]  # across the left border band
        alpha = [pictures[3].getpixel(p) for p in border]
        for face, picture in zip(faces[:3], pictures[:3]):
            assert [picture.getpixel(p) for p in border] == alpha, face
            colours = picture.getcolors(w * h) or []
            coloured = [c for n, c in colours if max(c) - min(c) > 24]
            assert coloured == [], face
            dark = sum(n for n, c in colours if max(c) < 80)
            assert dark > w * h * 0.03, face  # the name is printed large, in dark ink
    assert [symbol_face(n, n) for n in ("ticket3", "label3", "stop")] == [
        label_face("ticket", 3),
        label_face("label", 3),
        label_face("stop"),
    ]
    # Not these families: a stray number on the stop card, a λ without one.
    assert [symbol_face(n, n).kind for n in ("stop2", "label", "ticketx")] == ["plain"] * 3


def test_lambda_and_stop_cards_have_names_in_words() -> None:
    from kitgen.paper.facenames import face_name
    from kitgen.paper.labelfaces import label_face

    assert face_name(label_face("ticket", 3)) == "λ3 ticket card"
    assert face_name(label_face("label", 12)) == "λ12 label card"
    assert face_name(label_face("stop")) == "stop card (■)"


def test_a_six_and_a_nine_are_underlined_in_the_corners_too(tmp_path: Path) -> None:
    """A 6 and a 9 of the colour-number deck are underlined in the middle and in both corner
    indices (a fanned hand shows the corners only, and one upside down read a 6 as a 9); no other
    number is."""
    import pdfplumber
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.core.units import mm
    from kitgen.paper.deckcards import draw_deck_card
    from kitgen.paper.faces import Face
    from kitgen.paper.pen import Card

    path = tmp_path / "cards.pdf"
    c = Canvas(str(path), pagesize=(mm(56), mm(87)))
    for value in ("5", "6", "9"):
        face = Face("deck", value, value, ("red", "number", value))
        draw_deck_card(Card(c, mm(56), mm(87), 0.0, mm(3), False), face)
        c.showPage()
    c.save()
    with pdfplumber.open(str(path)) as pdf:
        assert [len(page.lines) for page in pdf.pages] == [0, 3, 3]
