"""Climbing games (Daifugō, also called President): a turn plays several cards at once.

A rule set (``kind: climbing``) names its deck (the standard 52 cards) and, under
``climbing:``, the order of the ranks from lowest to highest (Daifugō: 3 lowest, 2 highest)
and the most cards one play may hold (4). A *play* is one to four cards of one rank; the
player who leads a trick plays any play, the others in turn either play as many cards of a
higher rank than the last play, or pass. When everyone else has passed since the last play,
the trick is over and its last player leads the next. Suits never matter, so a play is a
multiset of ranks ("two 5s"): :class:`Play` is its size and its strength (the rank's place in
the order, 0 for the lowest).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
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

KIND = "climbing"
KEYS = (
    "game",
    "kind",
    "title",
    "summary",
    "source",
    "players",
    "virtual_protocol",
    "deck",
    "climbing",
    "notes",
    "kit",
    "booklet",
)


@dataclass(frozen=True, order=True)
class Play:
    """A play as the rules see it: how many cards, of which strength (the rank's place)."""

    size: int
    strength: int

    def beats(self, last: Play | None) -> bool:
        """Whether this play may follow ``last`` (None: the player leads and may play anything)."""
        return last is None or (self.size == last.size and self.strength > last.strength)


@dataclass
class ClimbingRules(GameRules):
    """A climbing game: deal every card; plays of one to four cards of a rank climb the order."""

    kind: ClassVar[str] = KIND
    name: str
    title: str
    summary: str
    source: dict[str, str]
    file: str
    players: tuple[int, int, int]
    virtual_protocol: str
    deck_def: Deck
    order: list[int]  # the ranks (as the deck numbers them) from lowest to highest
    max_play: int
    doc: str = ""
    notes: str = ""
    differences: list[str] = field(default_factory=list)  # where these rules differ from house rules
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

    # -- plays -------------------------------------------------------------------------
    def strength(self, card: Any) -> int:
        """The card's place in the order: 0 for the lowest rank (Daifugō: 3), up to 12 (2)."""
        c = one_card(card)
        return self.order.index(int(c.attrs["rank"]))

    def play_of(self, cards: list[Symbol]) -> Play:
        """The play ``cards`` make (a ValueError when they are not one rank, or too many)."""
        strengths = {self.strength(c) for c in cards}
        if not cards or len(strengths) != 1 or len(cards) > self.max_play:
            raise ValueError(f"not a play: {' '.join(c.glyph for c in cards) or 'no cards'}")
        return Play(len(cards), strengths.pop())

    def plays(self, hand: Iterable[Symbol], last: Play | None) -> list[Play]:
        """Every distinct play the hand can make on ``last`` (None: leading), lowest first. A play
        is a size and a rank: holding three 5s gives one single 5, one pair and one triple."""
        counts = Counter(self.strength(c) for c in hand)
        out = []
        for strength in sorted(counts):
            for size in range(1, min(counts[strength], self.max_play) + 1):
                play = Play(size, strength)
                if play.beats(last):
                    out.append(play)
        return out

    def rank_name(self, strength: int) -> str:
        """How a rank is printed: 3, ..., 10, J, Q, K, A, 2."""
        rank = self.order[strength]
        return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))

    def describe(self, play: Play) -> str:
        words = {1: "a single", 2: "a pair of", 3: "three", 4: "four"}
        name = self.rank_name(play.strength)
        return f"{words.get(play.size, str(play.size))} {name}{'s' if play.size > 1 else ''}"


def load_climbing(path: Path, expected_name: str | None) -> ClimbingRules:
    src = load_file(path)
    ck = Checker(src)
    doc = ck.mapping(
        src.data,
        (),
        required=("game", "kind", "title", "deck", "climbing"),
        optional=KEYS,
        what="a climbing game",
    )
    if doc is None or any(k not in doc for k in ("game", "title", "deck", "climbing")):
        raise SpecError(ck.problems)
    name = ck.string(doc["game"], ("game",), "a rule set name") or "?"
    deck = parse_deck(ck, doc["deck"])
    spec = (
        ck.mapping(
            doc["climbing"],
            ("climbing",),
            required=("order",),
            optional=("order", "max_play", "doc", "differences"),
        )
        or {}
    )
    order_raw = (
        ck.listing(spec.get("order", []), ("climbing", "order"), "a list of ranks, lowest first") or []
    )
    order: list[int] = []
    for i, r in enumerate(order_raw):
        value = ck.integer(r, ("climbing", "order", i), minimum=1)
        if value is not None:
            order.append(value)
    if len(set(order)) != len(order):
        ck.error(("climbing", "order"), "a rank is listed twice")
    ranks = {ct.rank for ct in deck.cards.values()}
    if None in ranks:
        ck.error(("deck",), "a climbing game orders the ranks: give every card type a rank")
    elif deck.cards and set(order) != ranks:
        missing = sorted(r for r in ranks if r is not None and r not in order)
        extra = sorted(set(order) - {r for r in ranks if r is not None})
        ck.error(
            ("climbing", "order"),
            "the order must list every rank of the deck once"
            + (f"; missing {missing}" if missing else "")
            + (f"; not in the deck {extra}" if extra else ""),
        )
    max_play = ck.integer(spec.get("max_play", 4), ("climbing", "max_play"), minimum=1) or 4
    differences = [
        str(x)
        for x in ck.listing(spec.get("differences", []), ("climbing", "differences"), "a list of sentences")
        or []
    ]
    texts = booklet_texts(ck, doc.get("booklet", {}))
    if expected_name is not None and name != expected_name:
        ck.error(("game",), f"the file declares game {name!r}; the name must match the file name")
    if ck.problems:
        raise SpecError(ck.problems)
    return ClimbingRules(
        name=name,
        title=str(doc["title"]),
        summary=str(doc.get("summary", "")),
        source={str(k): str(v) for k, v in ck.table(doc.get("source", {}), ("source",)).items()},
        file=src.file,
        players=parse_players(ck, doc.get("players", {})),
        virtual_protocol=str(doc.get("virtual_protocol", "play-selection")),
        deck_def=deck,
        order=order,
        max_play=max_play,
        doc=str(spec.get("doc", "")),
        notes=str(doc.get("notes", "")),
        differences=differences,
        kit=dict(ck.table(doc.get("kit", {}), ("kit",))),
        how_to_play=texts["how_to_play"],
        booklet_texts=texts,
    )
