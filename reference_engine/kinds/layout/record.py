"""What a layout game (Sevens) tells its record (docs/records.md): the game loop calls these hooks.

Events: ``deal`` (the dealer, every hand hidden; a person sees their own), ``turn`` (open, play
or pass, with the card asked for while the first card is looked for), ``finished`` (a player
empties their hand and takes the next place), ``game-end`` (the ranking; the last player's
cards stay hidden).
"""

from __future__ import annotations

from typing import Any, Protocol

from ...cards import Symbol
from ...records.recorder import Recorder
from ..game import GameRecord, Played
from ..result import pick
from .rules import LayoutRules


class Sevens(Played, Protocol):
    """What the record reads of a game (:class:`~.play.SevensGame`)."""

    rules: LayoutRules


class LayoutRecord(GameRecord[Sevens]):
    def __init__(self, recorder: Recorder, game: Sevens):
        super().__init__(recorder, game, pick(game.rules, "first centre ace_low"), game.virtual)

    def deal(self, dealer: int) -> None:
        self.deal_event({"dealer": dealer + 1})

    def turn(
        self, index: int, seat: int, action: str, card: Symbol | None, asked: Symbol | None = None
    ) -> None:
        public: dict[str, Any] = {"action": action, "card": None if card is None else self.rec.name(card)}
        if asked is not None:
            public["asked"] = self.rec.name(asked)
        self.rec.event("turn", turn=index, seat=seat + 1, public=public)

    def finished(self, index: int, seat: int, place: int) -> None:
        self.rec.event("finished", turn=index, seat=seat + 1, public={"place": place})

    def game_end(self, ranking: list[int]) -> None:
        self.ranked_end(ranking)
