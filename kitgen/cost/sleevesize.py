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

from ..lang.catalogue import _, number

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
        return _(
            "opaque-backed card sleeves (clear front, solid back), all identical, about {ow} × {oh} mm "
            "outside and at least {iw} × {ih} mm inside: room for {cards} cards of {w} × {h} mm ({stack} mm)"
        ).format(
            ow=ow, oh=oh, iw=iw, ih=ih, cards=self.cards, w=f"{w:g}", h=f"{h:g}", stack=f"{self.stack:.1f}"
        )

    def stack_words(self, count: int) -> str:
        """How thick a sleeve and a stack of ``count`` are, for the shopping list."""
        full, rest = self.thickness(self.cards), self.thickness(self.resting)
        return _(
            "a sleeve is about {rest} mm thick with {resting} cards in it and {full} mm with {cards}, "
            "so {count} stack {low} to {high} cm high"
        ).format(
            rest=f"{rest:.2f}",
            resting=self.resting,
            full=f"{full:.2f}",
            cards=self.cards,
            count=number(count),
            low=f"{count * rest / 10:.0f}",
            high=f"{count * full / 10:.0f}",
        )

    def note(self, count: int) -> str:
        """What to buy and how thick a stack is, with the figures used."""
        ow, oh = self.outer
        standard = ""
        if self.card_mm == (63, 88):
            standard = _(" (a standard sleeve, 66 × 91 mm, is snug for that many: try one first)")
        full, rest = self.thickness(self.cards), self.thickness(self.resting)
        low, high = count * rest / 10, count * full / 10
        return _(
            "Sleeves: buy opaque-backed ones about {ow} × {oh} mm{standard}, never inner or perfect-fit "
            "sleeves, which hold one card. A sleeve holding {resting} cards is about {rest} mm thick, "
            "holding {cards} about {full} mm, so {count} sleeves stack {low} to {high} cm high: too tall "
            "to shuffle as a deck, which is why the booklet washes them on the table. (Figures used: a "
            "printed card {card} mm thick, sleeve film {film} mm each side, as in Dragon Shield Dual "
            "Matte sleeves.)"
        ).format(
            ow=ow,
            oh=oh,
            standard=standard,
            resting=self.resting,
            rest=f"{rest:.2f}",
            cards=self.cards,
            full=f"{full:.2f}",
            count=number(count),
            low=f"{low:.0f}",
            high=f"{high:.0f}",
            card=CARD_MM,
            film=FILM_MM,
        )
