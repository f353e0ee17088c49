"""What a played game returns: :class:`PlayResult`, one base for every kind, a subclass per kind.

A result is typed data for whoever reads it (``kitgen play``'s summary, the time a game takes at
the table); :meth:`PlayResult.to_json` is the ``kitgen play --json`` object, each kind's keys in
their order. The entries of a game's log stay JSON objects (each kind's log entry writes its own,
:class:`~reference_engine.kinds.game.LogEntry`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from .virtual import VirtualStats

# A log entry, a virtual table or a round as JSON: kind-specific keys.
Json = dict[str, Any]


def pick(source: object, keys: str) -> Json:
    """``source``'s attributes named in ``keys`` (separated by spaces) as a JSON object, in that
    order: the one place a result's keys are listed. ``*name`` puts the attribute's own
    ``to_json()`` keys there; ``name?`` leaves the key out while the attribute is None."""
    out: Json = {}
    for key in keys.split():
        if key.startswith("*"):
            out.update(getattr(source, key[1:]).to_json())
        elif key.endswith("?"):
            value = getattr(source, key[:-1])
            if value is not None:
                out[key[:-1]] = value
        else:
            out[key] = getattr(source, key)
    return out


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

    @property
    def all_checks_passed(self) -> bool:
        """Always: a check that fails stops the game (CheckFailure) before there is a result."""
        return True

    def to_json(self) -> Json:
        return pick(
            self,
            "virtual_turns protocol_runs engine_used fallback_reason checks_passed all_checks_passed "
            "shuffles max_helper_cards virtual_tables",
        )


@dataclass
class TableResult(PlayResult):
    """A game at a table of seats, some of them virtual: who won, in how many turns, and what the
    virtual players did."""

    # The keys of ``to_json`` after the head's (see :func:`pick`; ``*work``: the virtual players').
    json_keys: ClassVar[str] = "turns *work log"

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
        return pick(self, "game seed players virtual level protocol winner winner_name")

    def to_json(self) -> Json:
        return {**self.head(), **pick(self, self.json_keys)}


@dataclass
class ScoredResult(TableResult):
    """A game that scores: each seat's points (None: a game of one hand that does not score)."""

    points: list[int] | None

    @property
    def scores(self) -> list[int] | None:
        return self.points


@dataclass
class RankedResult(TableResult):
    """A game that ends with every seat ranked (climbing, layout)."""

    json_keys = "ranking turns *work log"

    ranking: list[int]  # seats from 1, first out first
    log: list[Json]

    def rounds_log(self) -> list[list[Json]]:
        return [self.log]


@dataclass
class LogResult(TableResult):
    """A game with one log and nothing else to say: who won, in how many turns (a new kind's
    first result, until it has more to report)."""

    log: list[Json]

    def rounds_log(self) -> list[list[Json]]:
        return [self.log]
