"""The card palette (templates/cards.yaml): helper cards never borrow a game card's colour."""

from __future__ import annotations

import itertools

from kitgen.colour import AA, contrast, difference, ink_on
from kitgen.faces import style

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
