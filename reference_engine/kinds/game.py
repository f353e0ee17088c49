"""The game base every table kind plays on: seats, virtual players, one seeded RNG, one result.

A kind's game (Sevens, Hearts, Muggins, Daifugō, UNO) derives from :class:`TableGame`: the base
checks the seats once (:meth:`~.table.TableRules.seat_count`) and the level, seats the virtual
players first (:func:`~.virtual.seating`), owns the game's one ``random.Random(seed)`` and the
protocol its virtual players run, deals a whole deck round the table, and writes the first keys
of every game's result. The kind writes its turns. :class:`TableKind` is the matching half of
a :class:`~.kind.GameKind`: its rules type, and a game made from :class:`~.kind.PlaySettings`.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from ..cards import Symbol
from ..errors import UsageError
from ..records.recorder import Recorder
from ..records.referee import Verdict
from ..registry import Library
from .deals import Deal, ProblemAt, Validity
from .kind import GameKind, GameRules, PlaySettings
from .result import TableResult
from .table import TableRules
from .virtual import Seat, VirtualPlayers, seating, split

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
            raise UsageError(f"«level» is card or rule, not {level!r}")
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
    def play(self) -> TableResult | None:
        """Play the whole game; its result (None: an observer stopped it before the end)."""

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


class LogEntry:
    """An entry of a game's log (a dataclass deriving from this): as JSON, its index and seat and
    every other field that is set (not None, "" or 0)."""

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v not in (None, "", 0) or k in ("index", "seat")}


class GameRecord:
    """The hooks of one game into its :class:`Recorder` (a kind's ``record.py`` derives from this):
    the seats, the parameters of the rules in force and, with ``virtual``, every protocol run of
    the virtual players go into the record first."""

    def __init__(
        self,
        recorder: Recorder,
        seats: list[Seat],
        parameters: dict[str, Any],
        virtual: VirtualPlayers | None = None,
    ):
        self.rec = recorder
        recorder.set_seats(seats)
        recorder.parameters.update(parameters)
        if virtual is not None:
            virtual.recorder = recorder


class TableKind(GameKind, Generic[R, G]):
    """A kind of table game: ``rules_type`` (its rules), ``loader`` (reads a rule set file into
    them), ``game_type`` (a game of them); with ``records``, its package's ``referee.py`` checks
    a game's record (``check(record)``)."""

    rules_type: type[R]
    game_type: type[G]
    loader: ClassVar[Callable[[Path, str | None], GameRules]]

    def load(self, path: Path, expected_name: str | None) -> GameRules:
        return type(self).loader(path, expected_name)

    def referee(self, record: Mapping[str, Any]) -> Verdict:
        if not self.records:
            return super().referee(record)
        module = importlib.import_module(".referee", type(self).__module__)
        check: Callable[[Mapping[str, Any]], Verdict] = module.check
        return check(record)

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

    def game(self, rules: GameRules, library: Library, settings: PlaySettings) -> G:
        """A game of ``rules`` with the settings."""
        return self.game_type(self.rules_of(rules), library, **self.table(settings, self.default_level))

    def seats(self, rules: GameRules, seating: PlaySettings) -> tuple[int, int]:
        """The players and the virtual players of ``seating``, checked."""
        return self.rules_of(rules).seat_count(seating.players, seating.virtual), seating.virtual

    def rule_game(self, rules: GameRules, library: Library, seating: PlaySettings, seed: int) -> G:
        """A rule-level game with ``seating``'s seats and ``seed``: the games simulated for a kit's
        materials and for a booklet's worked example."""
        return self.game(rules, library, PlaySettings(seating.players, seating.virtual, "rule", seed))

    @staticmethod
    def dealt(rules: GameRules, deal: list[str], problem: ProblemAt, hint: str = "") -> list[Symbol]:
        """A scenario's ``deal``: the game's cards by name (a problem at ``deal`` for one it lacks)."""
        cards = rules.cards_by_name()
        unknown = [n for n in deal if n not in cards]
        if unknown:
            raise problem(("deal",), f"{rules.name} has no card {unknown[0]!r}{hint}")
        return [cards[n] for n in deal]

    @staticmethod
    def second_deal(
        rng: random.Random,
        cards: list[Symbol],
        deal_out: list[int] | Callable[[list[Symbol]], list[list[Symbol]]],
        first: list[list[Symbol]],
        valid: Validity,
        public: str,
    ) -> tuple[Deal, Deal, Validity] | None:
        """The statistical check's two deals: ``first``, and ``cards`` dealt again until P_1 holds
        a valid card and another hand than in ``first`` (1,000 tries; None: none). ``deal_out``:
        the sizes of the hands and piles in order, or a function that deals them."""
        hand = sorted(c.name for c in first[0])
        for _ in range(1000):
            other = list(cards)
            rng.shuffle(other)
            b = split(other, deal_out) if isinstance(deal_out, list) else deal_out(other)
            if any(valid(c) for c in b[0]) and sorted(c.name for c in b[0]) != hand:
                return Deal(first, public), Deal(b, public), valid
        return None

    @staticmethod
    def no_moment(rules: GameRules, seeds: int = MOMENT_SEEDS) -> UsageError:
        return UsageError(f"no suitable moment for a worked example in {seeds} seeded games of {rules.name}")

    def play(self, rules: GameRules, library: Library, settings: PlaySettings) -> TableResult:
        result = self.game(rules, library, settings).play()
        assert result is not None, "a game with no observer plays to its end"
        return result
