"""What a played game returns: :class:`PlayResult`, one base for every kind, a subclass per kind.

A result is typed data for whoever reads it (``kitgen play``'s summary, the time a game takes at
the table); :meth:`PlayResult.to_json` is the ``kitgen play --json`` object, each kind's keys in
their order. The entries of a game's log stay JSON objects (each kind's log entry writes its own,
:class:`~reference_engine.kinds.game.LogEntry`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .virtual import VirtualStats

# A log entry, a virtual table or a round as JSON: kind-specific keys.
Json = dict[str, Any]


@dataclass
class PlayResult(ABC):
    """What every kind's game says: the rule set, the seed, the level it was played at and the
    protocol its virtual turns ran (None at rule level, or with no virtual player)."""

    game: str
    seed: int
    level: str
    protocol: str | None

    @abstractmethod
    def to_json(self) -> Json:
        """The result as ``kitgen play --json`` prints it."""


@dataclass
class VirtualWork:
    """What the virtual players did: turns, protocol runs and checks, the largest selection tables."""

    virtual_turns: int
    protocol_runs: int
    checks_passed: int
    shuffles: int
    max_helper_cards: int
    # Every virtual decision's table: the owners' sizes (P_1 first) and whether P_1 had a valid
    # card (as JSON: virtual_tables, made when asked).
    tables: list[tuple[tuple[int, ...], bool]]
    # Which engine ran the protocol runs (None: there were none) and why the interpreter did
    # though the compiled path was asked (see reference_engine/compiled/).
    engine_used: str | None = None
    fallback_reason: str | None = None

    @classmethod
    def of(cls, stats: VirtualStats) -> VirtualWork:
        return cls(
            stats.virtual_turns,
            stats.protocol_runs,
            stats.checks,
            stats.shuffles,
            stats.max_helper_cards,
            stats.tables,
            stats.engine_used,
            stats.fallback_reason,
        )

    @property
    def virtual_tables(self) -> list[Json]:
        return [{"sizes": list(sizes), "found": found} for sizes, found in self.tables]

    def to_json(self) -> Json:
        return {
            "virtual_turns": self.virtual_turns,
            "protocol_runs": self.protocol_runs,
            "engine_used": self.engine_used,
            "fallback_reason": self.fallback_reason,
            "checks_passed": self.checks_passed,
            "all_checks_passed": True,
            "shuffles": self.shuffles,
            "max_helper_cards": self.max_helper_cards,
            "virtual_tables": self.virtual_tables,
        }


@dataclass
class TableResult(PlayResult):
    """A game at a table of seats, some of them virtual: who won, in how many turns, and what the
    virtual players did."""

    players: int
    virtual: int
    winner: int  # the winner's seat, from 1
    winner_name: str
    turns: int
    work: VirtualWork

    @property
    def virtual_turns(self) -> int:
        return self.work.virtual_turns

    @property
    def scores(self) -> list[int] | None:
        """Each seat's score, for a game that scores (None: one that does not)."""
        return None

    @property
    def weights(self) -> Json | None:
        """The weights of the virtual players' strategy, when it is not the uniform one."""
        return None

    @abstractmethod
    def rounds_log(self) -> list[list[Json]]:
        """The log, round by round (one round for a game of one)."""

    def head(self) -> Json:
        """The first keys of every table game's result, then the winner."""
        return {
            "game": self.game,
            "seed": self.seed,
            "players": self.players,
            "virtual": self.virtual,
            "level": self.level,
            "protocol": self.protocol,
            "winner": self.winner,
            "winner_name": self.winner_name,
        }


@dataclass
class RankedResult(TableResult):
    """A game that ends with every seat ranked (climbing, layout)."""

    ranking: list[int]  # seats from 1, first out first
    log: list[Json]

    def rounds_log(self) -> list[list[Json]]:
        return [self.log]

    def to_json(self) -> Json:
        return {
            **self.head(),
            "ranking": self.ranking,
            "turns": self.turns,
            **self.work.to_json(),
            "log": self.log,
        }


@dataclass
class LogResult(TableResult):
    """A game with one log and nothing else to say: who won, in how many turns (a new kind's
    first result, until it has more to report)."""

    log: list[Json]

    def rounds_log(self) -> list[list[Json]]:
        return [self.log]

    def to_json(self) -> Json:
        return {**self.head(), "turns": self.turns, **self.work.to_json(), "log": self.log}
