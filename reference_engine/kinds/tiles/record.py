"""What a tile game (Muggins) tells its record (docs/records.md): the game loop calls these hooks.

Events: ``deal`` (every hand and the boneyard, hidden; a person sees their own tiles),
``announce`` (each person's highest doublet, said aloud), ``turn`` (open, play, draw-play, draw
or pass: the tile, the end it went to, the points scored, the tiles drawn with their identities
hidden, the doublet asked for while the first player is looked for), ``redeal`` (nobody held a
doublet), ``game-end`` (why it ended, the scores; the tiles left stay hidden).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ...cards import Symbol
from ...records.recorder import Recorder
from ..game import GameRecord, LogEntry, Played
from ..result import pick
from .rules import TileRules


@dataclass
class Turn(LogEntry):
    index: int
    seat: int
    action: str  # open | play | draw-play | draw | pass
    tile: str | None = None
    end: str | None = None  # left | right
    scored: int = 0
    drew: int = 0
    runs: int = 0
    note: str = ""


class Muggins(Played, Protocol):
    """What the record reads of a game (:class:`~.play.MugginsGame`)."""

    rules: TileRules
    boneyard: list[Symbol]
    scores: list[int]
    deals: int


class TilesRecord(GameRecord[Muggins]):
    def __init__(self, recorder: Recorder, game: Muggins):
        super().__init__(recorder, game, pick(game.rules, "top hand_size multiple"), game.virtual)
        self.drawn: list[Symbol] = []

    def deal(self) -> None:
        self.deal_event({"deal": self.game.deals}, {"boneyard": self.game.boneyard})

    def announce(self, held: list[tuple[int, Symbol]]) -> None:
        """Each person says their highest doublet (None: none), from every doublet they hold."""
        g = self.game
        doublets: dict[str, str | None] = {}
        for s, seat in enumerate(g.seats):
            if not seat.virtual:
                theirs = [d for t, d in held if t == s]
                best = max(theirs, key=lambda d: int(d.attrs["low"]), default=None)
                doublets[str(s + 1)] = None if best is None else self.rec.name(best)
        self.rec.event("announce", public={"doublets": doublets})

    def redeal(self) -> None:
        self.rec.event("redeal", public={"reason": "nobody holds a doublet"})

    def drew(self, tile: Symbol) -> None:
        self.drawn.append(tile)

    def turn(self, turn: Turn, tile: Symbol | None, asked: Symbol | None = None) -> None:
        g, rec = self.game, self.rec
        public: dict[str, Any] = {
            "action": turn.action,
            "tile": None if tile is None else rec.name(tile),
            "end": turn.end,
            "scored": turn.scored,
            "drew": len(self.drawn),
        }
        if asked is not None:
            public["asked"] = rec.name(asked)
        seat = turn.seat - 1
        drawn = rec.names(self.drawn)
        seen = {} if g.seats[seat].virtual or not drawn else {seat + 1: {"drawn": drawn}}
        rec.event("turn", turn=turn.index, seat=turn.seat, public=public, hidden={"drawn": drawn}, seen=seen)
        self.drawn = []

    def game_end(self, ended: str) -> None:
        g, rec = self.game, self.rec
        rec.event(
            "game-end",
            public={"ended": ended, "scores": list(g.scores)},
            hidden={"hands": [rec.names(h) for h in g.hands], "boneyard": rec.names(g.boneyard)},
        )
