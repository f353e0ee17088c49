"""A game kind's plug-in interface: the rules every kind reads, how its games are played and
verified, the settings of a game, and the registry that finds a kind by name."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NotRequired, TypedDict

from ..cards import Symbol
from ..errors import SpecError, UsageError
from ..registry import Library
from .deals import Deal, FullDeal, ProblemAt, ScenarioSetting, Validity
from .result import PlayResult

if TYPE_CHECKING:
    from ..records.recorder import Recorder
    from ..records.referee import Verdict
    from ..schema import Checker


@dataclass(frozen=True)
class PlayOption:
    """A kind's own option of ``kitgen play`` (e.g. Gakmoro's ``--strategy``)."""

    name: str  # the keyword, e.g. "strategy"
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    kind: type = str  # str | int
    flag: bool = False

    @classmethod
    def switch(cls, name: str, help: str) -> PlayOption:
        """An option that is off unless given (``--pass-three``)."""
        return cls(name, help, False, flag=True)


@dataclass
class PlaySettings:
    """What every kind's game takes: seats, level, seed, protocol, and the kind's own options."""

    players: int | None = None
    virtual: int = 1
    level: str | None = None  # card | rule; None: the kind's default
    seed: int = 0
    protocol: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    # Card level: "auto" (the default: the spec compiled for single runs where it compiles, see
    # reference_engine/compiled/, else the interpreter), "compiled" (that, or a UsageError naming
    # why it does not compile) or "interpreter" (the spec read step by step).
    engine: str = "auto"
    # A game being recorded: its events go here (reference_engine/records, docs/records.md).
    recorder: Recorder | None = None
    # The settings the user gave (players, virtual...), so a kind can refuse those it has no use for.
    given: frozenset[str] = frozenset()


@dataclass(kw_only=True)
class GameRules(ABC):
    """What every kind's rule set tells: its name, texts, its file, its kit's settings, and the
    protocol its kit teaches. A kind's rules are a dataclass deriving from this one (its own
    fields first; these are keyword-only), most of them from :class:`~.table.TableRules`."""

    kind: ClassVar[str]
    name: str
    title: str
    summary: str
    source: dict[str, str]
    file: str
    kit: dict[str, Any] = field(default_factory=dict)

    @property
    @abstractmethod
    def protocol(self) -> str:
        """The protocol a kit of this game teaches (the virtual decision, or the dealer's job)."""

    def cards_by_name(self) -> dict[str, Symbol]:
        """The game's cards by name (``red7``), for giving a deal on the command line."""
        return {}

    def deck(self) -> list[Symbol]:
        """Every card of the game's deck, with its copies (empty: the kind has no deck)."""
        return []

    def copies(self) -> dict[str, int]:
        """How many of each card (by name) the deck holds: a deal given on the command line may
        not hold more (``--input cards=red9,red9,red9`` with two R9 in the deck)."""
        out: dict[str, int] = {}
        for card in self.deck():
            out[card.name] = out.get(card.name, 0) + 1
        return out


# The keys every rule set may hold first, whatever its kind.
GAME_KEYS = ("game", "kind", "title", "summary", "source")


def game_fields(ck: Checker, doc: Mapping[str, Any], name: str, file: str) -> dict[str, Any]:
    """The fields of :class:`GameRules` a rule set's top mapping ``doc`` gives: its game's
    ``name``, texts and ``kit``, and its ``file``."""
    return {
        "name": name,
        "title": str(doc["title"]),
        "summary": str(doc.get("summary", "")),
        "source": {str(k): str(v) for k, v in ck.table(doc.get("source", {}), ("source",)).items()},
        "file": file,
        "kit": dict(ck.table(doc.get("kit", {}), ("kit",))),
    }


def check_name(ck: Checker, name: str, expected_name: str | None) -> None:
    """A rule set's last check: its game's ``name`` is the file's (``expected_name``; None: any);
    then SpecError lists every problem found."""
    if expected_name is not None and name != expected_name:
        ck.error(("game",), f"the file declares game {name!r}; the name must match the file name")
    if ck.problems:
        raise SpecError(ck.problems)


class TableCounts(TypedDict):
    """The largest card selection table a virtual decision saw in simulated games
    (:meth:`GameKind.measure_tables`), for a kit's bill of materials."""

    games: int  # how many games were simulated (0: the counts are exact, not measured)
    hands: list[int]  # per seat: the most cards it held at a virtual turn
    draw_pile: NotRequired[int]  # the most cards in the draw pile (the boneyard)
    discard_pile: NotRequired[int]
    table_seen: int  # the most cards on the table at a virtual turn
    table: int  # the most cards a table can hold
    tickets: NotRequired[int]  # the play selection's most lottery tickets
    copies: NotRequired[int]  # the play selection's copies of a card


class GameKind(ABC):
    """A kind of game. Subclasses set ``name`` and register themselves with :func:`register`."""

    name: ClassVar[str]
    summary: ClassVar[str]
    # The kind's own options of `kitgen play`, and the default level.
    play_options: ClassVar[tuple[PlayOption, ...]] = ()
    default_level: ClassVar[str] = "card"
    # Whether games of this kind write a game record (``settings.recorder``) and have a referee.
    records: ClassVar[bool] = False
    # Whether a player with no valid card plays any card of the hand (Hearts: the original covert
    # lottery's rule), so a virtual player's protocol must always play one (no output ``found``):
    # the ``fallback`` its games give :class:`~reference_engine.kinds.virtual.VirtualPlayers`, and
    # what a kit checks before it builds (selection.check_fallback).
    plays_any_card: ClassVar[bool] = False

    @abstractmethod
    def load(self, path: Path, expected_name: str | None) -> GameRules:
        """Load and check a rule set of this kind (SpecError lists every problem)."""

    @abstractmethod
    def play(self, rules: GameRules, library: Library, settings: PlaySettings) -> PlayResult:
        """Play a whole game; its result (the winner, the protocol's runs and checks, a log)."""

    def referee(self, record: Mapping[str, Any]) -> Verdict:
        """Check a game record of this kind with the kind's independent referee (its ``referee.py``,
        which shares no code with how the kind plays): every action legal, every card accounted for."""
        raise UsageError(f"games of the {self.name} kind write no record")

    def scenario(
        self, rules: GameRules, state: Mapping[str, Any], deal: list[str], problem: ProblemAt
    ) -> ScenarioSetting:
        """Bind a game protocol's scenario: the cards to deal and the game's functions (``valid``).
        ``problem(key path under the scenario, message)`` makes the error to raise for a bad one."""
        raise UsageError(f"{rules.name} ({self.name}) has no game protocol to verify in a scenario")

    def two_deals(self, rules: GameRules, players: int, rng: random.Random) -> tuple[Deal, Deal, Validity]:
        """Two deals with the same public information, for the statistical check on the full deck."""
        raise UsageError(f"{rules.name} ({self.name}) has no card selection to check statistically")

    def full_deal(self, rules: GameRules, players: int, hand: int, state: Mapping[str, Any]) -> FullDeal:
        """The whole deck in play at a table with a public ``state``: for exact verification by
        validity classes (``kitgen verify PROTOCOL --hand N``)."""
        raise UsageError(f"{rules.name} ({self.name}) has no card selection to verify on a whole table")

    def verify_runs(
        self, library: Library, proto: Any, rules: GameRules, runs: int, seed: int, players: int
    ) -> Any:
        """A kind's own statistical verification of its game protocol on the full deck (a
        ``Report``), or None: the card selection's (one played card, ``two_deals``)."""
        return None

    def draws_in_run(self, rules: GameRules, options: Mapping[str, object]) -> bool:
        """Whether these rules let a virtual player's protocol run draw a card for it itself (a
        spec with the draw rule in its run, whose last owner is the draw pile), with the kind's
        ``options`` of `kitgen play`. False for every kind but shedding: Sevens and Hearts have no
        draw pile (their last owner is a player's hand), and Dominoes draws between runs. The
        game and the table-time tracer (kitgen/cost/kitcost.py) give a run ``draw`` from this."""
        return False

    def weight_function(self, rules: GameRules, weights: Any) -> Callable[[Any], int]:
        """``weight(card)`` for a virtual player's public weights (``kinds.strategy.Weights``),
        after checking the names they use; kinds whose virtual players have no strategy refuse."""
        raise UsageError(f"{rules.name} ({self.name}): its virtual players take no «weights»")

    def measure_tables(self, rules: GameRules, library: Library, seating: PlaySettings) -> TableCounts:
        """The largest card selection table a virtual decision sees in simulated games with
        ``seating`` (its seats, and the kind's options such as ``discard_owner``), for a kit's bill of
        materials: ``games``, ``hands`` (per seat), ``draw_pile`` (a pile's most cards),
        ``table_seen`` and ``table`` (the most cards a table can hold)."""
        raise UsageError(f"{rules.name} ({self.name}) has no virtual players to count materials for")

    def decisions(self, rules: GameRules, library: Library, seating: PlaySettings, seed: int) -> Any:
        """A seeded rule-level game with ``seating`` and the moment of every virtual decision in it
        (a ``(PlayResult, [Moment, ...])``), for a kit that costs each decision's protocol run by
        tracing it; None: the kind's results record each decision's table (``virtual_tables``)."""
        return None

    def example_moment(self, rules: GameRules, library: Library, seating: PlaySettings) -> Any:
        """A virtual decision in a seeded game with ``seating`` (its seats, and the kind's options
        such as ``wild4``) for a booklet's worked example (a ``Moment``)."""
        raise UsageError(f"{rules.name} ({self.name}) has no virtual players to show")


_KINDS: dict[str, GameKind] = {}
DEFAULT_KIND = "shedding"


def register(kind: type[GameKind]) -> type[GameKind]:
    """Class decorator: make a kind known by its name."""
    _KINDS[kind.name] = kind()
    return kind


def kinds() -> dict[str, GameKind]:
    return dict(_KINDS)


def find_kind(name: str) -> GameKind:
    try:
        return _KINDS[name]
    except KeyError:
        known = ", ".join(sorted(_KINDS)) or "none"
        raise UsageError(f"unknown kind of game {name!r} (kinds: {known})") from None
