"""Layout games (Sevens): the whole deck is dealt, and every suit is built up and down from a
centre rank in a layout on the table.

A rule set (``kind: layout``) names its deck (the standard 52 cards), the centre rank that
opens a suit (7), the card that starts the game (7♦), and whether aces are low (Sevens: a suit
runs A, 2, ..., K, so an ace ends it downwards). A card may be played when it is the centre
rank of a suit nobody has opened, or the card just below or just above a suit's run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ...cards import Symbol
from ..deck import parse_deck
from ..table import DeckRules, open_rule_set, table_fields, table_keys
from ..virtual import one_card

KIND = "layout"
KEYS = table_keys("deck", "layout")

Runs = dict[str, tuple[int, int]]  # suit -> (lowest, highest rank played)


@dataclass(kw_only=True)
class LayoutRules(DeckRules):
    """A layout game: deal every card, build each suit from its centre rank outwards."""

    kind: ClassVar[str] = KIND
    centre: int  # the rank that opens a suit (7)
    first: str  # the card that starts the game (diamonds7)
    ace_low: bool

    def rank(self, card: Symbol) -> int:
        r = int(card.attrs["rank"])
        return 1 if self.ace_low and r == 14 else r

    def validity(self, runs: Runs) -> Callable[[Any], bool]:
        """``valid(card)`` with the layout ``runs``: an unopened suit's centre rank (the first card
        only until the game has started), or the rank just outside an opened suit's run."""
        first = self.symbol(self.first)

        def valid(card: Any) -> bool:
            card = one_card(card)
            if not runs:
                return bool(card == first)
            suit = str(card.attrs["color"])
            r = self.rank(card)
            if suit not in runs:
                return r == self.centre
            low, high = runs[suit]
            return r in (low - 1, high + 1)

        return valid


def load_layout(path: Path, expected_name: str | None) -> LayoutRules:
    f = open_rule_set(path, ("game", "kind", "title", "deck", "layout"), KEYS, "a layout game")
    ck, doc = f.ck, f.doc
    deck = parse_deck(ck, doc["deck"])
    lay = f.section("layout", ("centre", "first"), ("ace", "doc"))
    centre = ck.integer(lay.get("centre", 7), ("layout", "centre"), minimum=1) or 7
    first = str(lay.get("first", ""))
    if deck.cards and first not in deck.cards:
        ck.error(("layout", "first"), f"no card {first!r} in the deck")
    ace = str(lay.get("ace", "low"))
    if ace not in ("low", "high"):
        ck.error(("layout", "ace"), f"ace is low or high, not {ace!r}")
    missing = [n for n, ct in deck.cards.items() if ct.rank is None]
    if missing:
        ck.error(
            ("deck",), f"a layout game orders the cards of a suit: give every card type a rank ({missing[0]})"
        )
    return LayoutRules(
        deck_def=deck,
        centre=centre,
        first=first,
        ace_low=ace == "low",
        **table_fields(f, expected_name, protocol="card-selection", doc=str(lay.get("doc", ""))),
    )
