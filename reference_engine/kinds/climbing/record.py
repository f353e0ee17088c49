"""What a climbing game (Daifugō) tells its record (docs/records.md): the game loop calls these hooks.

Events: ``deal`` (the dealer, every hand hidden; a person sees their own), ``turn`` (a play of
one to four cards, face up, or a pass; a virtual turn at card level holds its run of the play
selection protocol), ``out`` (a player empties their hand and takes the next place), ``trick``
(everyone else passed: the seat that leads the next trick), ``game-end`` (the ranking; the last
player's cards stay hidden).
"""

from __future__ import annotations

from typing import Any, Protocol

from ...cards import Symbol
from ...records.recorder import Recorder
from ..game import Dealt, GameRecord
from .rules import ClimbingRules


class Daifugo(Dealt, Protocol):
    """What the record reads of a game (:class:`~.play.DaifugoGame`)."""

    rules: ClimbingRules
    protocol_name: str


class ClimbingRecord(GameRecord[Daifugo]):
    def __init__(self, recorder: Recorder, game: Daifugo):
        super().__init__(recorder, game, {})

    def deal(self, dealer: int) -> None:
        self.deal_event({"dealer": dealer + 1})

    def run(
        self,
        engine: str,
        table: list[int],
        counts: dict[str, Any],
        paper: dict[str, Any],
        observations: list[Any],
        played: list[Symbol] | None,
    ) -> None:
        """A card-level run of the play selection protocol: the cards per owner (the virtual
        player first), its counts, the shuffles its steps call for, its view and the cards it
        played (None: a pass). The turn event that follows takes it."""
        self.rec.protocol_run(
            self.game.protocol_name,
            engine,
            table,
            counts,
            paper,
            observations,
            played=None if played is None else self.rec.names(played),
        )

    def turn(self, index: int, seat: int, cards: list[Symbol] | None) -> None:
        public = {"action": "pass" if cards is None else "play", "cards": self.names(cards)}
        self.rec.event("turn", turn=index, seat=seat + 1, public=public)

    def names(self, cards: list[Symbol] | None) -> list[str] | None:
        return None if cards is None else self.rec.names(cards)

    def out(self, index: int, seat: int, place: int) -> None:
        self.rec.event("out", turn=index, seat=seat + 1, public={"place": place})

    def trick(self, index: int, leader: int) -> None:
        self.rec.event("trick", turn=index, seat=leader + 1)

    def game_end(self, ranking: list[int]) -> None:
        self.ranked_end(ranking)
