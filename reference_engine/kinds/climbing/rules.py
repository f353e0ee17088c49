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
from ..deck import parse_deck
from ..table import DeckRules, open_rule_set, table_fields, table_keys
from ..virtual import one_card

KIND = "climbing"
KEYS = table_keys("deck", "climbing")


@dataclass(frozen=True, order=True)
class Play:
    """A play as the rules see it: how many cards, of which strength (the rank's place)."""

    size: int
    strength: int

    def beats(self, last: Play | None) -> bool:
        """Whether this play may follow ``last`` (None: the player leads and may play anything)."""
        return last is None or (self.size == last.size and self.strength > last.strength)


@dataclass(kw_only=True)
class ClimbingRules(DeckRules):
    """A climbing game: deal every card; plays of one to four cards of a rank climb the order."""

    kind: ClassVar[str] = KIND
    order: list[int]  # the ranks (as the deck numbers them) from lowest to highest
    max_play: int
    differences: list[str] = field(default_factory=list)  # where these rules differ from house rules

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
    f = open_rule_set(path, ("game", "kind", "title", "deck", "climbing"), KEYS, "a climbing game")
    ck, doc = f.ck, f.doc
    deck = parse_deck(ck, doc["deck"])
    spec = f.section("climbing", ("order",), ("order", "max_play", "doc", "differences"))
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
    return ClimbingRules(
        deck_def=deck,
        order=order,
        max_play=max_play,
        differences=differences,
        **table_fields(f, expected_name, protocol="play-selection", doc=str(spec.get("doc", ""))),
    )
