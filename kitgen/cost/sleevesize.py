"""What sleeves to buy: their size in mm from the card size and the cards inside, and how thick a
stack of them is.

The figures come from real products (the shopping list says so):

* a printed card on 250-300 g/m² stock is about 0.3 mm thick, as a trading card is (63 × 88 mm
  trading cards measure about 0.305 mm);
* an opaque-backed sleeve (Dragon Shield Dual Matte: a clear front, a fully opaque back) is 0.12 mm
  of film on each side (Dragon Shield Matte: 0.13 mm);
* a "standard" sleeve for 63 × 88 mm cards is about 66 × 91 mm outside; an "inner" or "perfect
  fit" sleeve (64 × 89 mm) takes one card only.

A sleeve holding a stack of cards needs room for the stack's thickness on every side it wraps
round, and about a millimetre to slide cards in and out: inside at least (width + stack + 1) ×
(height + stack + 1) mm; its seams and film add about 1.5 mm outside.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SLEEVE_CARDS = 4  # the quick card selection's sleeve at its fullest: owner card, card, bit pair
CARD_MM = 0.3  # a printed card on 250-300 g/m² card stock
FILM_MM = 0.12  # an opaque-backed sleeve's film, each side (Dragon Shield Dual Matte)
ROOM_MM = 1.0  # to slide cards in and out
SEAMS_MM = 1.5  # inside to outside


@dataclass(frozen=True)
class SleeveSize:
    """A sleeve for ``cards`` cards of ``card_mm``, and how thick ``count`` of them stack."""

    card_mm: tuple[float, float]
    cards: int  # the most cards one sleeve holds at once
    resting: int  # the cards it holds between runs (a card and its owner card)

    @property
    def stack(self) -> float:
        """How thick the cards inside one sleeve are, at most."""
        return self.cards * CARD_MM

    @property
    def inner(self) -> tuple[int, int]:
        w, h = self.card_mm
        return math.ceil(w + self.stack + ROOM_MM), math.ceil(h + self.stack + ROOM_MM)

    @property
    def outer(self) -> tuple[int, int]:
        w, h = self.inner
        return math.ceil(w + SEAMS_MM), math.ceil(h + SEAMS_MM)

    def thickness(self, cards: int) -> float:
        """One sleeve holding ``cards`` cards, in mm."""
        return 2 * FILM_MM + cards * CARD_MM

    def name(self) -> str:
        (iw, ih), (ow, oh) = self.inner, self.outer
        w, h = self.card_mm
        return (
            f"opaque-backed card sleeves (clear front, solid back), all identical, about {ow} × {oh} mm "
            f"outside and at least {iw} × {ih} mm inside: room for {self.cards} cards of {w:g} × {h:g} mm"
            f" ({self.stack:.1f} mm)"
        )

    def stack_words(self, count: int) -> str:
        """How thick a sleeve and a stack of ``count`` are, for the shopping list."""
        full, rest = self.thickness(self.cards), self.thickness(self.resting)
        return (
            f"a sleeve is about {rest:.2f} mm thick with {self.resting} cards in it and {full:.2f} mm with "
            f"{self.cards}, so {count} stack {count * rest / 10:.0f} to {count * full / 10:.0f} cm high"
        )

    def note(self, count: int) -> str:
        """What to buy and how thick a stack is, with the figures used."""
        ow, oh = self.outer
        standard = ""
        if self.card_mm == (63, 88):
            standard = " (a standard sleeve, 66 × 91 mm, is snug for that many: try one first)"
        full, rest = self.thickness(self.cards), self.thickness(self.resting)
        low, high = count * rest / 10, count * full / 10
        return (
            f"Sleeves: buy opaque-backed ones about {ow} × {oh} mm{standard}, never inner or perfect-fit "
            f"sleeves, which hold one card. A sleeve holding {self.resting} cards is about {rest:.2f} mm "
            f"thick, holding {self.cards} about {full:.2f} mm, so {count} sleeves stack {low:.0f} to "
            f"{high:.0f} cm high: too tall to shuffle as a deck, which is why the booklet washes them "
            f"on the table. (Figures used: a printed card {CARD_MM} mm thick, sleeve film {FILM_MM} mm "
            "each side, as in Dragon Shield Dual Matte sleeves.)"
        )
