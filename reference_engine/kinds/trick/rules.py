"""Trick-taking games (Hearts): every player plays one card to a trick; the highest card of the
suit led wins it, with the points of its cards.

A rule set (``kind: trick``) names its deck (the standard 52 cards, ranked 2..A), the points
(every ♥ one point, the queen of spades 13), the score that ends the game and whether the
lowest or the highest score wins, and three common options, off by default as in the UNO
paper: passing three cards before a round, "hearts broken" (no ♥ may be led until one has
been played), shooting the moon.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ...cards import Symbol
from ..deck import hands_fit, parse_deck
from ..deck import players as parse_players
from ..table import DeckRules, open_rule_set, table_fields, table_keys
from ..virtual import one_card

KIND = "trick"
KEYS = table_keys("deck", "tricks", hand_size=True)
OPTIONS = ("pass_three", "hearts_broken", "shoot_the_moon")


@dataclass(kw_only=True)
class TrickRules(DeckRules):
    """A trick-taking game: follow suit if you can; the highest card of the led suit wins."""

    kind: ClassVar[str] = KIND
    hand_size: int
    suit_points: dict[str, int]  # points of every card of a suit (hearts: 1)
    card_points: dict[str, int]  # points of single cards (spades_queen: 13)
    target: int  # the game ends when somebody's score reaches this
    lowest_wins: bool
    options: dict[str, bool]

    @staticmethod
    def suit(card: Symbol) -> str:
        return str(card.attrs["color"])

    @staticmethod
    def rank(card: Symbol) -> int:
        return int(card.attrs["rank"])

    def points(self, card: Symbol) -> int:
        return self.card_points.get(card.name, self.suit_points.get(self.suit(card), 0))

    def validity(self, led: str | None, broken: bool = True) -> Callable[[Any], bool]:
        """``valid(card)``: following, a card of the led suit; leading, any card (with the
        "hearts broken" option, no ♥ until one has been played). When no card of a hand is
        valid, the original covert lottery plays any card of it, which is the rule."""

        def valid(card: Any) -> bool:
            card = one_card(card)
            if led is not None:
                return self.suit(card) == led
            return broken or self.suit_points.get(self.suit(card), 0) == 0

        return valid


def load_trick(path: Path, expected_name: str | None) -> TrickRules:
    f = open_rule_set(path, ("game", "kind", "title", "deck", "tricks"), KEYS, "a trick game")
    ck, doc = f.ck, f.doc
    deck = parse_deck(ck, doc["deck"])
    tr = f.section("tricks", ("points", "target"), ("winner", "options", "doc"))
    pts = ck.mapping(tr.get("points", {}), ("tricks", "points"), optional=("suits", "cards")) or {}
    suit_points = {
        str(k): ck.integer(v, ("tricks", "points", "suits", k)) or 0
        for k, v in ck.table(pts.get("suits", {}), ("tricks", "points", "suits")).items()
    }
    card_points = {
        str(k): ck.integer(v, ("tricks", "points", "cards", k)) or 0
        for k, v in ck.table(pts.get("cards", {}), ("tricks", "points", "cards")).items()
    }
    for suit in suit_points:
        if deck.colors and suit not in deck.colors:
            ck.error(("tricks", "points", "suits", suit), f"no suit {suit!r} in the deck")
    for card in card_points:
        if deck.cards and card not in deck.cards:
            ck.error(("tricks", "points", "cards", card), f"no card {card!r} in the deck")
    target = ck.integer(tr.get("target", 100), ("tricks", "target"), minimum=1) or 100
    winner = str(tr.get("winner", "lowest"))
    if winner not in ("lowest", "highest"):
        ck.error(("tricks", "winner"), f"the winner has the lowest or the highest score, not {winner!r}")
    options = {k: False for k in OPTIONS}
    for k, v in ck.table(tr.get("options", {}), ("tricks", "options")).items():
        if k not in OPTIONS:
            ck.error(("tricks", "options", str(k)), f"unknown option {k!r} (options: {', '.join(OPTIONS)})")
        elif not isinstance(v, bool):
            ck.error(("tricks", "options", str(k)), "an option is true or false")
        else:
            options[str(k)] = v
    missing = [n for n, ct in deck.cards.items() if ct.rank is None]
    if missing:
        ck.error(
            ("deck",), f"a trick game ranks the cards of a suit: give every card type a rank ({missing[0]})"
        )
    hand_size = ck.integer(doc.get("hand_size", 13), ("hand_size",), minimum=1) or 13
    players = parse_players(ck, doc.get("players", {}))
    if deck.cards:
        hands_fit(ck, hand_size, players[2], len(deck.full()), "the deck's cards")
    return TrickRules(
        hand_size=hand_size,
        deck_def=deck,
        suit_points=suit_points,
        card_points=card_points,
        target=target,
        lowest_wins=winner == "lowest",
        options=options,
        **table_fields(
            f, expected_name, protocol="card-selection-original", doc=str(tr.get("doc", "")), players=players
        ),
    )
