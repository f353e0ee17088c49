"""Layout games (Sevens): the whole deck is dealt, and every suit is built up and down from a
centre rank in a layout on the table.

A rule set (``kind: layout``) names its deck (the standard 52 cards), the centre rank that
opens a suit (7), the card that starts the game (7♦), and whether aces are low (Sevens: a suit
runs A, 2, ..., K, so an ace ends it downwards). A card may be played when it is the centre
rank of a suit nobody has opened, or the card just below or just above a suit's run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ...cards import Symbol
from ...errors import SpecError
from ...schema import Checker
from ...source import load_file
from ..deck import CardType, Deck, booklet_texts, parse_deck
from ..deck import players as parse_players
from ..kind import GameRules
from ..virtual import one_card

KIND = "layout"
KEYS = (
    "game",
    "kind",
    "title",
    "summary",
    "source",
    "players",
    "virtual_protocol",
    "deck",
    "layout",
    "notes",
    "kit",
    "booklet",
)

Runs = dict[str, tuple[int, int]]  # suit -> (lowest, highest rank played)


@dataclass
class LayoutRules(GameRules):
    """A layout game: deal every card, build each suit from its centre rank outwards."""

    kind: ClassVar[str] = KIND
    name: str
    title: str
    summary: str
    source: dict[str, str]
    file: str
    players: tuple[int, int, int]
    virtual_protocol: str
    deck_def: Deck
    centre: int  # the rank that opens a suit (7)
    first: str  # the card that starts the game (diamonds7)
    ace_low: bool
    doc: str = ""
    notes: str = ""
    kit: dict[str, Any] = field(default_factory=dict)
    how_to_play: list[str] = field(default_factory=list)
    booklet_texts: dict[str, list[str]] = field(default_factory=dict)

    @property
    def protocol(self) -> str:
        return self.virtual_protocol

    @property
    def cards(self) -> dict[str, CardType]:
        return self.deck_def.cards

    @property
    def word(self) -> str:
        return self.deck_def.word

    @property
    def colors(self) -> dict[str, dict[str, Any]]:
        return self.deck_def.colors

    def symbol(self, name: str) -> Symbol:
        return self.deck_def.symbol(name)

    def cards_by_name(self) -> dict[str, Symbol]:
        return {n: self.symbol(n) for n in self.cards}

    def deck(self) -> list[Symbol]:
        return self.deck_def.full()

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
    src = load_file(path)
    ck = Checker(src)
    doc = ck.mapping(
        src.data,
        (),
        required=("game", "kind", "title", "deck", "layout"),
        optional=KEYS,
        what="a layout game",
    )
    if doc is None or any(k not in doc for k in ("game", "title", "deck", "layout")):
        raise SpecError(ck.problems)
    name = ck.string(doc["game"], ("game",), "a rule set name") or "?"
    deck = parse_deck(ck, doc["deck"])
    lay = ck.mapping(doc["layout"], ("layout",), required=("centre", "first"), optional=("ace", "doc")) or {}
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
    texts = booklet_texts(ck, doc.get("booklet", {}))
    if expected_name is not None and name != expected_name:
        ck.error(("game",), f"the file declares game {name!r}; the name must match the file name")
    if ck.problems:
        raise SpecError(ck.problems)
    return LayoutRules(
        name=name,
        title=str(doc["title"]),
        summary=str(doc.get("summary", "")),
        source={str(k): str(v) for k, v in ck.table(doc.get("source", {}), ("source",)).items()},
        file=src.file,
        players=parse_players(ck, doc.get("players", {})),
        virtual_protocol=str(doc.get("virtual_protocol", "card-selection")),
        deck_def=deck,
        centre=centre,
        first=first,
        ace_low=ace == "low",
        doc=str(lay.get("doc", "")),
        notes=str(doc.get("notes", "")),
        kit=dict(ck.table(doc.get("kit", {}), ("kit",))),
        how_to_play=texts["how_to_play"],
        booklet_texts=texts,
    )
