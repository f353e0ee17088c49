"""Playing Muggins (All Fives): the highest doublet opens; tiles are matched to the two open
ends of a line; open ends adding up to a multiple of five score their sum.

Finding the first player follows the UNO paper (Section 5.3): the people announce their highest
doublet; then, for each doublet above the best announced one, from the highest down, the table
runs the card selection protocol for each virtual player with "valid = that doublet" only, so a
run tells whether that virtual player holds it and nothing else. (When nobody holds a doublet
the tiles are shuffled and drawn again.) At a virtual player's turn the protocol selects a
uniformly random tile matching an open end; with none, the virtual player draws a tile unseen
and the protocol runs again, every time, until a tile is played or the boneyard is empty.

A tile that fits both ends goes where it scores; when both or neither score, a public coin
decides. Tiles, θ and α/β cards all have the same back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...cards import Symbol
from ...errors import CheckFailure
from ..game import TableGame
from ..result import Json, ScoredResult, VirtualWork
from .record import TilesRecord, Turn
from .rules import End, TileRules

MAX_TURNS = 1000
MAX_DEALS = 100


@dataclass
class TilesResult(ScoredResult):
    """A tile game: the scores, how it ended, the deals it took and the line of tiles left."""

    json_keys = "scores ended deals turns *work line log"

    ended: str
    deals: int
    line: list[str]
    log: list[Json]

    def rounds_log(self) -> list[list[Json]]:
        return [self.log]


class MugginsGame(TableGame[TileRules]):
    """One game of a tile rule set (Muggins)."""

    def setup(self) -> None:
        self.virtual = self.selection_players()
        self.scores = [0] * len(self.seats)
        self.hands: list[list[Symbol]] = []
        self.boneyard: list[Symbol] = []
        self.ends: tuple[End, End] | None = None
        self.line: list[Symbol] = []
        self.log: list[Turn] = []
        self.largest_hand: dict[int, int] = {}
        self.largest_boneyard = 0
        self.deals = 0
        self.rec = TilesRecord(self.recorder, self) if self.recorder is not None else None

    # -- the game -----------------------------------------------------------------------
    def deal(self) -> None:
        tiles = self.rules.tiles()
        self.rng.shuffle(tiles)
        size = self.rules.hand_size
        n = len(self.seats)
        self.hands = [tiles[i * size : (i + 1) * size] for i in range(n)]
        self.boneyard = tiles[n * size :]
        self.deals += 1
        if self.rec:
            self.rec.deal()

    def play(self) -> TilesResult:
        n = len(self.seats)
        current = None
        while current is None:
            if self.deals >= MAX_DEALS:
                raise CheckFailure(f"no doublet in {MAX_DEALS} deals")
            self.deal()
            current = self.open()
        passes, turn, ended = 0, 1, "nobody could move"
        while turn < MAX_TURNS:
            turn += 1
            current = (current + 1) % n
            moved = self.take_turn(turn, current)
            if not self.hands[current]:
                ended = f"{self.seats[current].name} played the last tile"
                break
            passes = 0 if moved else passes + 1
            if passes >= n:
                break
        if self.rec:
            self.rec.game_end(ended)
        return self.summary(turn, ended)

    def open(self) -> int | None:
        """The holder of the highest doublet plays it; None when nobody holds a doublet."""
        announced = [
            (s, d)
            for s in range(len(self.seats))
            if not self.seats[s].virtual
            for d in self.rules.doublets()
            if d in self.hands[s]
        ]
        best = max(announced, key=lambda sd: int(sd[1].attrs["low"]), default=None)
        if self.rec and any(not s.virtual for s in self.seats):
            self.rec.announce(announced)
        floor = int(best[1].attrs["low"]) if best is not None else -1
        for doublet in self.rules.doublets():
            if int(doublet.attrs["low"]) <= floor:
                break
            for seat, s in enumerate(self.seats):
                if not s.virtual:
                    continue
                tile, runs = self.decide(seat, self.rules.validity(None, doublet), 1)
                if tile is not None:
                    self.place(1, seat, tile, "open", runs, asked=doublet)
                    return seat
                self.log.append(Turn(1, seat + 1, "pass", runs=runs, note=f"does not hold {doublet.glyph}"))
                if self.rec:
                    self.rec.turn(self.log[-1], None, asked=doublet)
        if best is None:
            self.log.append(Turn(1, 0, "pass", note="nobody holds a doublet: shuffle and draw again"))
            if self.rec:
                self.rec.redeal()
            return None
        self.place(1, best[0], best[1], "open")
        return best[0]

    def take_turn(self, index: int, seat: int) -> bool:
        """One turn; whether a tile was played."""
        virtual = self.seats[seat].virtual
        if virtual:
            self.virtual.stats.virtual_turns += 1
        valid = self.rules.validity(self.ends)
        record = Turn(index, seat + 1, "play")
        while True:
            tile, runs = self.decide(seat, valid, index) if virtual else (self.human(seat, valid), 0)
            record.runs += runs
            if tile is not None:
                self.place(index, seat, tile, "draw-play" if record.drew else "play", record.runs, record)
                return True
            if not self.boneyard:
                record.action = "pass" if not record.drew else "draw"
                self.log.append(record)
                if self.rec:
                    self.rec.turn(record, None)
                return False
            # Draw one tile unseen; a person looks at it, the table runs the protocol again.
            self.hands[seat].append(self.boneyard.pop())
            record.drew += 1
            if self.rec:
                self.rec.drew(self.hands[seat][-1])

    def human(self, seat: int, valid: Any) -> Symbol | None:
        """A person's simple policy: the valid tile that scores most, then the most pips."""
        options = [t for t in self.hands[seat] if valid(t)]
        if not options:
            return None
        return max(options, key=lambda t: (self.best_end(t)[1], int(t.attrs["pips"]), t.name))

    def decide(self, seat: int, valid: Any, index: int) -> tuple[Symbol | None, int]:
        """A virtual decision on the whole table: every hand (P_1 first) and the boneyard."""
        n = len(self.seats)
        order = [(seat + k) % n for k in range(n)]
        owners = [list(self.hands[s]) for s in order] + [list(self.boneyard)]
        for s, hand in enumerate(self.hands):
            self.largest_hand[s + 1] = max(self.largest_hand.get(s + 1, 0), len(hand))
        self.largest_boneyard = max(self.largest_boneyard, len(self.boneyard))
        where = f"turn {index} ({self.seats[seat].name}, {self.protocol_name})"
        decision = self.virtual.decide(owners, valid, where)
        for s, tiles in zip(order, decision.owners):
            self.hands[s] = tiles
        self.boneyard = decision.owners[n]
        if decision.played is not None:
            self.hands[seat].append(decision.played)  # placed from the hand by place()
        return decision.played, decision.runs

    # -- the line -----------------------------------------------------------------------
    def options(self, tile: Symbol) -> list[int]:
        """The ends (0: left, 1: right) the tile fits."""
        if self.ends is None:
            return [0]
        return [i for i in (0, 1) if self.rules.fits(tile, self.ends[i][0])]

    def after(self, tile: Symbol, side: int) -> tuple[End, End]:
        low, high = int(tile.attrs["low"]), int(tile.attrs["high"])
        double = low == high
        if self.ends is None:
            return (low, double), (high, double)
        value = self.ends[side][0]
        outer = high if low == value else low
        ends = list(self.ends)
        ends[side] = (outer, double)
        return ends[0], ends[1]

    def best_end(self, tile: Symbol) -> tuple[int, int]:
        """Where the tile goes and what it scores: the end that scores; both or neither, a coin."""
        sides = self.options(tile)
        scores = [self._score(self.after(tile, s), tile) for s in sides]
        if len(sides) == 2 and (scores[0] > 0) != (scores[1] > 0):
            i = 0 if scores[0] > 0 else 1
            return sides[i], scores[i]
        return sides[0], scores[0]

    def _score(self, ends: tuple[End, End], tile: Symbol) -> int:
        total = self.rules.count(ends, tile if self.ends is None else None)
        return total if total and total % self.rules.multiple == 0 else 0

    def place(
        self,
        index: int,
        seat: int,
        tile: Symbol,
        action: str,
        runs: int = 0,
        record: Turn | None = None,
        asked: Symbol | None = None,
    ) -> None:
        if tile not in self.hands[seat]:
            raise CheckFailure(f"turn {index}: {tile.glyph} is not in {self.seats[seat].name}'s hand")
        sides = self.options(tile)
        if not sides:
            raise CheckFailure(f"turn {index}: {tile.glyph} fits no open end")
        side, _ = self.best_end(tile)
        if len(sides) == 2:
            scores = [self._score(self.after(tile, s), tile) for s in sides]
            if (scores[0] > 0) == (scores[1] > 0):
                side = self.rng.randrange(2)  # a public coin: both ends score, or neither
        self.hands[seat].remove(tile)
        self.ends = self.after(tile, side)
        self.line.append(tile)
        scored = self._score(self.ends, tile) if len(self.line) > 1 else self._score_first(tile)
        self.scores[seat] += scored
        turn = record or Turn(index, seat + 1, action)
        turn.action, turn.tile, turn.end, turn.scored, turn.runs = (
            action,
            tile.glyph,
            ("left", "right")[side],
            scored,
            runs,
        )
        self.log.append(turn)
        if self.rec:
            self.rec.turn(turn, tile, asked)

    def _score_first(self, tile: Symbol) -> int:
        total = int(tile.attrs["pips"])
        return total if total and total % self.rules.multiple == 0 else 0

    def summary(self, turns: int, ended: str) -> TilesResult:
        placed = len(self.line) + len(self.boneyard) + sum(len(h) for h in self.hands)
        if placed != len(self.rules.tiles()):
            raise CheckFailure("tiles were created or lost")
        winner = max(range(len(self.seats)), key=lambda s: (self.scores[s], -s))
        return TilesResult(
            **self.result_head(),
            winner=winner + 1,
            winner_name=self.seats[winner].name,
            turns=turns,
            work=VirtualWork.of(self.virtual.stats),
            points=self.scores,
            ended=ended,
            deals=self.deals,
            line=[t.glyph for t in self.line],
            log=[t.to_json() for t in self.log],
        )
