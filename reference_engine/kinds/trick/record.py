"""What a trick game (Hearts) tells its record (docs/records.md): the game loop calls these hooks.

Events: ``deal`` (a round's dealer, every hand hidden; a person sees their own), ``pass`` (one
card passed face down before the round, hidden; its passer and receiver see it when they are
people), ``turn`` (a card played to the trick), ``trick`` (who takes it, with how many points),
``round-end`` (the points taken, shooting the moon, the scores).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ...cards import Symbol
from ...records.recorder import Recorder
from ..game import GameRecord, LogEntry, Played
from .rules import TrickRules


@dataclass
class Turn(LogEntry):
    index: int
    seat: int
    action: str  # play | pass
    card: str | None = None
    runs: int = 0
    note: str = ""


@dataclass
class RoundResult:
    number: int
    points: list[int]  # taken this round, by seat
    log: list[Turn] = field(default_factory=list)


class Hearts(Played, Protocol):
    """What the record reads of a game (:class:`~.play.HeartsGame`)."""

    rules: TrickRules
    scores: list[int]
    max_rounds: int | None


class TrickRecord(GameRecord[Hearts]):
    def __init__(self, recorder: Recorder, game: Hearts):
        rules = game.rules
        parameters = {"options": dict(rules.options), "target": rules.target, "max_rounds": game.max_rounds}
        super().__init__(recorder, game, parameters, game.virtual)

    def deal(self, number: int, dealer: int) -> None:
        self.deal_event({"round": number, "dealer": dealer + 1})

    def passed(self, index: int, seat: int, card: Symbol, to: int) -> None:
        g, name = self.game, self.rec.name(card)
        seen: dict[int, dict[str, Any]] = {}
        if not g.seats[seat].virtual:
            seen[seat + 1] = {"passed": [name]}
        if not g.seats[to].virtual:
            seen.setdefault(to + 1, {})["received"] = [name]
        self.rec.event(
            "pass", turn=index, seat=seat + 1, public={"to": to + 1}, hidden={"card": name}, seen=seen
        )

    def played(self, index: int, seat: int, card: Symbol) -> None:
        self.rec.event("turn", turn=index, seat=seat + 1, public={"card": self.rec.name(card)})

    def trick(self, winner: int, points: int) -> None:
        self.rec.event("trick", seat=winner + 1, public={"points": points})

    def round_end(self, result: RoundResult, moon: int | None) -> None:
        self.rec.event(
            "round-end",
            public={
                "round": result.number,
                "points": list(result.points),
                "moon": None if moon is None else moon + 1,
                "scores": list(self.game.scores),
            },
        )
