"""Bill of materials: how many of each card, sleeve, envelope, label and sheet a kit needs.

Counts come from the reference engine; each kind of game says what its kit holds (see
``kitgen.kinds``). This module has the bill itself and what every kind shares: spares,
envelope sizes, seat names and the players' colours.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core.manifest import BomFacts, BomItem
from ..lang.catalogue import _
from ..paper.faces import Face

ENVELOPES = (("C7", 81, 114), ("C6", 114, 162), ("C5", 162, 229), ("C4", 229, 324))


@dataclass
class Item:
    key: str
    name: str
    kind: str  # card | sleeve | envelope | label | paper
    needed: int
    spares: int
    why: str
    faces: list[Face] = field(default_factory=list)
    short: str = ""  # what a storage label says
    # The shuffles use these very sleeves as their piles' holders (a sleeved virtual table's
    # sleeves are shuffled like a deck): kitgen.cost.consumables counts its sleeve needs against them.
    holds_piles: bool = False

    @property
    def label(self) -> str:
        return self.short or self.name

    @property
    def count(self) -> int:
        return self.needed + self.spares

    def to_json(self) -> BomItem:
        return {
            "key": self.key,
            "name": self.name,
            "kind": self.kind,
            "count": self.count,
            "needed": self.needed,
            "spares": self.spares,
            "why": self.why,
        }


@dataclass
class Bom:
    items: list[Item]
    notes: list[str]
    seats: list[str]  # owner names: seat 1..n, then the draw pile (and the discard pile)
    worst_case: dict[str, object]  # what the engine measured of the largest tables (counts)
    # What the worked example's shuffles hold their piles in, most at once (kitgen.cost.consumables).
    holders: list[dict[str, object]] = field(default_factory=list)
    labels_cutout: bool = False  # the labels are cut from plain paper (not peeled off a sheet)

    def item(self, key: str) -> Item:
        return next(i for i in self.items if i.key == key)

    def faces(self) -> list[Face]:
        """Every card face to print, in the order the sheets show them."""
        out: list[Face] = []
        for item in self.items:
            if item.kind == "card":
                out.extend(item.faces)
        return out

    def printed_cards(self) -> int:
        return sum(i.count for i in self.items if i.kind == "card")

    def to_json(self) -> BomFacts:
        return {
            "items": [i.to_json() for i in self.items],
            "notes": self.notes,
            "owners": self.seats,
            "worst_case": self.worst_case,
            "shuffle_holders": self.holders,
            "printed_cards": self.printed_cards(),
        }


def spares(n: int) -> int:
    """10 % more, at least 2 (cards get lost, bent or marked)."""
    return 0 if n == 0 else max(2, math.ceil(n * 0.1))


def seat_names(players: int, virtual: int) -> list[str]:
    """Seat names in seat order, as :class:`reference_engine.game.Game` seats them (virtual first)."""
    return [f"Virtual {i + 1}" for i in range(virtual)] + [f"Human {i + 1}" for i in range(players - virtual)]


def envelope_for(card_w_mm: float, card_h_mm: float) -> str:
    w, h = sorted((card_w_mm + 10, card_h_mm + 10))
    for name, ew, eh in ENVELOPES:
        if w <= ew and h <= eh:
            return f"{name} ({ew} × {eh} mm)"
    return _("at least {w} × {h} mm").format(w=f"{w:.0f}", h=f"{h:.0f}")


PAPER_SIZES = (("A6", 148, 105), ("A5", 210, 148), ("A4", 297, 210), ("A3", 420, 297))
"""ISO paper sizes, landscape (width, height in mm), smallest first: what a mat is cut from."""


def mat_for(sleeve_w_mm: float, sleeve_h_mm: float) -> str:
    """The smallest ISO sheet, landscape, that holds a knockout match: two sleeves side by side
    with a card between them (three sleeve widths), 10 mm clear round them so hands can grip the
    mat to turn it round without touching a sleeve."""
    w, h = 3 * sleeve_w_mm + 20, sleeve_h_mm + 20
    for name, pw, ph in PAPER_SIZES:
        if w <= pw and h <= ph:
            return name
    return _("at least {w} × {h} mm").format(w=f"{w:.0f}", h=f"{h:.0f}")


# Alice and Bob in the Gakmoro kit: both read at 4.5:1 or more as text on white (WCAG AA).
PLAYER_COLOURS = ("#0072B2", "#B34700")
