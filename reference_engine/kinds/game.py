"""The game base every table kind plays on: seats, virtual players, one seeded RNG, one result.

A kind's game (Sevens, Hearts, Muggins, Daifugō, UNO) derives from :class:`TableGame`: the base
checks the seats once (:meth:`~.table.TableRules.seat_count`) and the level, seats the virtual
players first (:func:`~.virtual.seating`), owns the game's one ``random.Random(seed)`` and the
protocol its virtual players run, deals a whole deck round the table, and writes the first keys
of every game's result. The kind writes its turns. :class:`TableKind` is the matching half of
a :class:`~.kind.GameKind`: its rules type, and a game made from :class:`~.kind.PlaySettings`.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast, get_args, get_origin

from ..cards import Symbol
from ..errors import UsageError
from ..records.recorder import Recorder
from ..records.referee import Verdict
from ..registry import Library
from .deals import Deal, ProblemAt, ScenarioSetting, Validity
from .kind import GameKind, GameRules, PlaySettings
from .result import RankedResult, TableResult, VirtualWork
from .table import TableRules
from .virtual import Seat, VirtualPlayers, VirtualStats, seating, split

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
        return VirtualPlayers(
            self.library,
            self.level,
            self.rng,
            self.protocol_name,
            virtual,
            fallback,
            self.rules.name,
            self.rules.virtual_protocol,
        )

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

    def ranked_result(
        self, ranking: list[int], turns: int, stats: VirtualStats, log: Sequence[Logged]
    ) -> RankedResult:
        """The result of a game that ends in a ``ranking`` of the seats, the winner first (Sevens,
        Daifugō): the first keys, the winner, the ranking, the turns, the virtual decisions, the log."""
        return RankedResult(
            **self.result_head(),
            winner=ranking[0] + 1,
            winner_name=self.seats[ranking[0]].name,
            turns=turns,
            work=VirtualWork.of(stats),
            ranking=[s + 1 for s in ranking],
            log=[t.to_json() for t in log],
        )


class Logged(Protocol):
    """An entry of a game's log, as JSON."""

    def to_json(self) -> dict[str, Any]: ...


class LogEntry:
    """An entry of a game's log (a dataclass deriving from this, with slots or not): as JSON, its
    index and seat and every other field that is set (not None, "" or 0), in order, but those
    ``unlogged`` (kept for the game's record only)."""

    __slots__ = ()
    unlogged: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in _logged(type(self)):
            v = getattr(self, name)
            if name in ("index", "seat") or v not in (None, "", 0):
                out[name] = v
        return out


_LOGGED: dict[type, tuple[str, ...]] = {}


def _logged(entry: type[LogEntry]) -> tuple[str, ...]:
    """The fields of a kind of log entry that its JSON may show, in order."""
    names = _LOGGED.get(entry)
    if names is None:
        fields = dataclasses.fields(cast(Any, entry))
        names = _LOGGED[entry] = tuple(f.name for f in fields if f.name not in entry.unlogged)
    return names


class Dealt(Protocol):
    """What a game record reads of every table game (a kind's ``record.py`` says the rest)."""

    seats: list[Seat]
    hands: list[list[Symbol]]


class Played(Dealt, Protocol):
    """A table game whose virtual players' protocol runs go into its record."""

    virtual: VirtualPlayers


D = TypeVar("D", bound=Dealt)


class GameRecord(Generic[D]):
    """The hooks of one ``game`` into its :class:`Recorder` (a kind's ``record.py`` derives from
    this): the seats, the parameters of the rules in force and, with ``virtual``, every protocol
    run of the virtual players go into the record first."""

    def __init__(
        self,
        recorder: Recorder,
        game: D,
        parameters: dict[str, Any],
        virtual: VirtualPlayers | None = None,
    ):
        self.rec = recorder
        self.game = game
        recorder.set_seats(game.seats)
        recorder.parameters.update(parameters)
        if virtual is not None:
            virtual.recorder = recorder

    def ranked_end(self, ranking: list[int]) -> None:
        """The ``game-end`` event of a game that ranks every seat (seats from 0, first out
        first): the ranking public, the hands left hidden."""
        g, rec = self.game, self.rec
        rec.event(
            "game-end",
            public={"ranking": [s + 1 for s in ranking]},
            hidden={"hands": [rec.names(h) for h in g.hands]},
        )

    def deal_event(self, public: dict[str, Any], piles: Mapping[str, list[Symbol]] | None = None) -> None:
        """A ``deal`` event: ``public``, every hand's size and each pile's; every hand and pile
        hidden; a person sees their own hand."""
        g, rec, piles = self.game, self.rec, piles or {}
        seen = {s + 1: {"hand": rec.names(h)} for s, h in enumerate(g.hands) if not g.seats[s].virtual}
        rec.event(
            "deal",
            public={**public, "sizes": [len(h) for h in g.hands], **{k: len(p) for k, p in piles.items()}},
            hidden={"hands": [rec.names(h) for h in g.hands], **{k: rec.names(p) for k, p in piles.items()}},
            seen=seen,
        )


# What a kind's :meth:`TableKind.bind` tells of a scenario: the game's functions, the state in words.
Bound = tuple[dict[str, Any], str]
# What a kind's attempt at the statistical check's first deal gives (:meth:`TableKind.deal_twice`):
# the cards to deal, the sizes of the owners (or a function that deals them), the validity rule
# and the public situation in words; None: try again.
Attempt = tuple[list[Symbol], list[int] | Callable[[list[Symbol]], list[list[Symbol]]], Validity, str]


class TableKind(GameKind, Generic[R, G]):
    """A kind of table game, declared by what differs: ``TableKind[ItsRules, ItsGame]`` gives
    ``rules_type``, ``game_type`` and the kind's ``name`` (``ItsRules.kind``); ``loader`` reads a
    rule set file into them; with ``records``, its package's ``referee.py`` checks a game's record
    (``check(record)``). A kind verified on a scenario writes :meth:`bind`."""

    rules_type: type[R]
    game_type: type[G]
    loader: ClassVar[Callable[[Path, str | None], GameRules]]
    # A hint after "has no card 'x'" when a scenario deals a card the game lacks.
    deal_hint: ClassVar[str] = ""
    # How many seeded games :meth:`simulated` plays for a kit's materials.
    simulated_games: ClassVar[int] = 300

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is TableKind:
                rules, game = get_args(base)
                if isinstance(rules, type) and "rules_type" not in cls.__dict__:
                    cls.rules_type = rules
                    if "name" not in cls.__dict__ and hasattr(rules, "kind"):
                        cls.name = rules.kind
                if isinstance(game, type) and "game_type" not in cls.__dict__:
                    cls.game_type = game

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

    def scenario(
        self, rules: GameRules, state: Mapping[str, Any], deal: list[str], problem: ProblemAt
    ) -> ScenarioSetting:
        """The ``deal``'s cards by name (a problem at ``deal`` for one the game lacks), then the
        kind's :meth:`bind` of the ``state``."""
        if type(self).bind is TableKind.bind:  # a kind with no game protocol to verify
            return super().scenario(rules, state, deal, problem)
        own = self.rules_of(rules)
        cards = own.cards_by_name()
        unknown = [n for n in deal if n not in cards]
        if unknown:
            raise problem(("deal",), f"{own.name} has no card {unknown[0]!r}{self.deal_hint}")
        copies = own.copies()
        for name, n in sorted(Counter(deal).items()):
            if copies and n > copies.get(name, 0):  # a deal no deck of the game makes
                held = copies.get(name, 0)
                raise problem(("deal",), f"{name} is dealt {n} times, but {own.name}'s deck holds {held}")
        context, text = self.bind(own, state, problem)
        return ScenarioSetting([cards[n] for n in deal], context, text)

    def bind(self, rules: R, state: Mapping[str, Any], problem: ProblemAt) -> Bound:
        """A game protocol's scenario ``state`` bound to the game: its functions (``valid``) and
        the state in words (``problem(key path, message)`` makes the error for a bad one)."""
        raise UsageError(f"{rules.name} ({self.name}) has no game protocol to verify in a scenario")

    def deal_twice(
        self, rng: random.Random, attempt: Callable[[], Attempt | None]
    ) -> tuple[Deal, Deal, Validity]:
        """The statistical check's two deals: ``attempt()`` until P_1 holds at least three valid
        cards in its first deal and :meth:`second_deal` finds another."""
        while True:
            tried = attempt()
            if tried is None:
                continue
            cards, deal_out, valid, public = tried
            first = split(cards, deal_out) if isinstance(deal_out, list) else deal_out(cards)
            if len({c.name for c in first[0] if valid(c)}) < 3:
                continue
            found = self.second_deal(rng, cards, deal_out, first, valid, public)
            if found is not None:
                return found

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

    def simulated(self, rules: GameRules, library: Library, seating: PlaySettings) -> Iterator[G]:
        """:attr:`simulated_games` rule-level games with ``seating``'s seats (seeds 0, 1, ...), each
        played: for a kit's materials."""
        for seed in range(self.simulated_games):
            game = self.rule_game(rules, library, seating, seed)
            game.play()
            yield game

    @staticmethod
    def largest(hands: dict[int, int], seen: Mapping[int, int]) -> None:
        """Keep in ``hands`` the most cards each seat held, with a game's ``seen``."""
        for s, n in seen.items():
            hands[s] = max(hands.get(s, 0), n)

    def moments(self, rules: GameRules, library: Library, seating: PlaySettings) -> Iterator[tuple[int, G]]:
        """Rule-level games with ``seating``'s seats (seeds 1, 2, ...), not yet played: the games
        searched for a booklet's worked example (:meth:`no_moment` when none serves)."""
        for seed in range(1, MOMENT_SEEDS):
            yield seed, self.rule_game(rules, library, seating, seed)

    @staticmethod
    def no_moment(rules: GameRules, seeds: int = MOMENT_SEEDS) -> UsageError:
        return UsageError(f"no suitable moment for a worked example in {seeds} seeded games of {rules.name}")

    def play(self, rules: GameRules, library: Library, settings: PlaySettings) -> TableResult:
        result = self.game(rules, library, settings).play()
        assert result is not None, "a game with no observer plays to its end"
        return result
