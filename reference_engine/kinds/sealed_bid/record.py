"""What a sealed-bid game (Gakmoro) tells its record (docs/records.md): the game calls these hooks.

Events: ``deal`` (the values each player holds, known to both), ``round`` (the submissions,
hidden, each seen by its player; the announcement; without a dealer, the order of the sleeves
and the round protocol's run), ``game-end`` (the round wins and the winner).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ...records.recorder import Recorder
from .rules import SealedBidRules


def announce(sign: int, names: list[str]) -> str:
    """What the table says of a round: who wins, or a tie (``sign``: 1, -1 or 0)."""
    return f"{names[0]} wins" if sign > 0 else f"{names[1]} wins" if sign < 0 else "a tie"


@dataclass
class RoundResult:
    number: int
    submitted: list[tuple[int, ...]]
    totals: list[int]
    announced: int  # 1: the first player wins, -1: the second, 0: a tie
    checks: int = 0
    shuffles: int = 0
    helper_cards: dict[str, int] = field(default_factory=dict)
    calls: dict[str, list[int]] = field(default_factory=dict)
    table: list[int] = field(default_factory=list)

    def to_json(self, names: list[str]) -> dict[str, Any]:
        return {
            "round": self.number,
            "submitted": {n: list(s) for n, s in zip(names, self.submitted)},
            "totals": {n: t for n, t in zip(names, self.totals)},
            "announced": announce(self.announced, names),
            "checks": self.checks,
            "shuffles": self.shuffles,
            "helper_cards": self.helper_cards,
            "calls": self.calls,
            "table": self.table,
        }


class Gakmoro(Protocol):
    """What the record reads of a game (:class:`~.play.SealedBidGame`)."""

    rules: SealedBidRules
    variant: str
    strategies: tuple[str, str]
    protocol_name: str
    engine_used: str | None  # which engine ran the rounds' protocol


class SealedBidRecord:
    def __init__(self, recorder: Recorder, game: Gakmoro):
        self.rec = recorder
        self.game = game
        recorder.seats = [
            {"seat": i + 1, "name": n, "virtual": False} for i, n in enumerate(game.rules.names)
        ]
        recorder.parameters.update({"variant": game.variant, "strategies": list(game.strategies)})
        self.order: list[list[int]] | None = None

    def deal(self, hands: list[list[int]]) -> None:
        self.rec.event("deal", public={"hands": [list(h) for h in hands]})

    def sleeves(self, order: list[list[int]]) -> None:
        """Without a dealer: the order in which each player put down their sleeves."""
        self.order = [list(o) for o in order]

    def run(
        self, extent: list[int], counts: dict[str, Any], paper: dict[str, Any], view: list[Any], sign: int
    ) -> None:
        """The round protocol's run: the table's extent, its counts (with the paper's), its view,
        and what it announced (1: the first player wins, -1: the second, 0: a tie)."""
        paper = {k: v for k, v in paper.items() if v is not None}
        self.rec.protocol_run(
            self.game.protocol_name,
            self.game.engine_used or "interpreter",
            extent,
            counts,
            paper,
            view,
            announced=sign,
        )

    def round(self, result: RoundResult) -> None:
        names = self.game.rules.names
        sign = result.announced
        announced = names[0] if sign > 0 else names[1] if sign < 0 else "tie"
        hidden: dict[str, Any] = {"submitted": [list(s) for s in result.submitted]}
        if self.order is not None:
            hidden["order"] = self.order
        self.rec.event(
            "round",
            turn=result.number,
            public={"round": result.number, "announced": announced},
            hidden=hidden,
            seen={i + 1: {"submitted": list(s)} for i, s in enumerate(result.submitted)},
        )
        self.order = None

    def game_end(self, winner: str, wins: list[int]) -> None:
        self.rec.event("game-end", public={"winner": winner, "round_wins": list(wins)})
