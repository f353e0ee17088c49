"""The game base every table kind plays on: seats, virtual players, one seeded RNG, one result.

A kind's game (Sevens, Hearts, Muggins, Daifugō, UNO) derives from :class:`TableGame`: the base
checks the seats once (:meth:`~.table.TableRules.seat_count`) and the level, seats the virtual
players first (:func:`~.virtual.seating`), owns the game's one ``random.Random(seed)`` and the
protocol its virtual players run, deals a whole deck round the table, and writes the first keys
of every game's result. The kind writes its turns. :class:`TableKind` is the matching half of
a :class:`~.kind.GameKind`: its rules type, and a game made from :class:`~.kind.PlaySettings`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

from ..cards import Symbol
from ..errors import UsageError
from ..records.recorder import Recorder
from ..registry import Library
from .kind import GameKind, GameRules, PlaySettings
from .table import TableRules
from .virtual import Seat, VirtualPlayers, seating

R = TypeVar("R", bound=TableRules)
G = TypeVar("G", bound="TableGame[Any]")
LEVELS = ("card", "rule")
MOMENT_SEEDS = 500  # seeded games searched for a booklet's worked example


class TableGame(ABC, Generic[R]):
    """One game of a table kind: ``rules``, ``seats`` (virtual players first), ``rng``, ``level``,
    ``protocol_name`` (what virtual decisions run at card level) and ``recorder``."""

    def __init__(
        self,
        rules: R,
        library: Library,
        *,
        players: int | None = None,
        virtual: int = 1,
        level: str = "card",
        seed: int = 0,
        protocol: str | None = None,
        recorder: Recorder | None = None,
    ):
        n = rules.seat_count(players, virtual)
        if level not in LEVELS:
            raise UsageError(f"--level is card or rule, not {level!r}")
        self.rules = rules
        self.library = library
        self.seed = seed
        self.rng = random.Random(seed)
        self.level = level
        self.seats: list[Seat] = seating(n, virtual)
        self.protocol_name = protocol or rules.virtual_protocol
        self.recorder = recorder
        self.setup()

    def setup(self) -> None:
        """The kind's own state of a new game (hands, piles, scores, a record), after the base's."""

    def selection_players(self, fallback: bool = False) -> VirtualPlayers:
        """The virtual players of this game, choosing with the card selection protocol
        (``fallback``: the original covert lottery's any card when none is valid)."""
        virtual = sum(s.virtual for s in self.seats)
        return VirtualPlayers(self.library, self.level, self.rng, self.protocol_name, virtual, fallback)

    def deal_round(self, deck: list[Symbol]) -> tuple[int, list[list[Symbol]]]:
        """The whole ``deck``, shuffled and dealt one card at a time from the left of a dealer
        drawn at random: (the dealer's seat, every seat's hand)."""
        n = len(self.seats)
        self.rng.shuffle(deck)
        dealer = self.rng.randrange(n)
        hands: list[list[Symbol]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):
            hands[(dealer + 1 + i) % n].append(card)
        return dealer, hands

    @abstractmethod
    def play(self) -> dict[str, Any]:
        """Play the whole game; its result (:meth:`result_head` first)."""

    def result_head(self) -> dict[str, Any]:
        """The first keys of every game's result: the game, seed, seats, level and protocol."""
        return {
            "game": self.rules.name,
            "seed": self.seed,
            "players": len(self.seats),
            "virtual": sum(s.virtual for s in self.seats),
            "level": self.level,
            "protocol": self.protocol_name
            if self.level == "card" and any(s.virtual for s in self.seats)
            else None,
        }


class TableKind(GameKind, Generic[R, G]):
    """A kind of table game: ``rules_type`` (its rules) and :meth:`game` (a game of them, a ``G``)."""

    rules_type: type[R]

    def rules_of(self, rules: GameRules) -> R:
        """``rules`` as this kind's rules (a clear error for another kind's)."""
        if not isinstance(rules, self.rules_type):
            raise UsageError(f"{rules.name} is not a {self.name} game")
        return rules

    @staticmethod
    def table(settings: PlaySettings, default_level: str) -> dict[str, Any]:
        """The keywords of a :class:`TableGame` from the settings of ``kitgen play``."""
        return {
            "players": settings.players,
            "virtual": settings.virtual,
            "level": settings.level or default_level,
            "seed": settings.seed,
            "protocol": settings.protocol,
            "recorder": settings.recorder,
        }

    @abstractmethod
    def game(self, rules: GameRules, library: Library, settings: PlaySettings) -> G:
        """A game of ``rules`` with the settings."""

    def seats(self, rules: GameRules, seating: PlaySettings) -> tuple[int, int]:
        """The players and the virtual players of ``seating``, checked."""
        return self.rules_of(rules).seat_count(seating.players, seating.virtual), seating.virtual

    def rule_game(self, rules: GameRules, library: Library, seating: PlaySettings, seed: int) -> G:
        """A rule-level game with ``seating``'s seats and ``seed``: the games simulated for a kit's
        materials and for a booklet's worked example."""
        return self.game(rules, library, PlaySettings(seating.players, seating.virtual, "rule", seed))

    @staticmethod
    def no_moment(rules: GameRules, seeds: int = MOMENT_SEEDS) -> UsageError:
        return UsageError(f"no suitable moment for a worked example in {seeds} seeded games of {rules.name}")

    def play(self, rules: GameRules, library: Library, settings: PlaySettings) -> dict[str, Any]:
        return self.game(rules, library, settings).play()
