"""Virtual players who choose a card with the card selection protocol, for every kind of game.

The UNO paper's protocol is generic (Section 5): whatever the game, a virtual decision is a
uniform choice among the valid cards of the virtual player's hidden hand. At rule level the
engine draws that choice directly; at card level one checked run of the protocol spec on the
simulated table makes it (:func:`reference_engine.selection.run_selection`: the played card is
valid, every other card goes back to its owner, nothing is created or lost, helper cards go
back, the paper's counts hold). :class:`VirtualPlayers` keeps the seats, the statistics and the
caches of one game and makes one decision at a time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import progress
from ..cards import Symbol
from ..errors import UsageError
from ..records.recorder import Recorder
from ..registry import Library
from ..selection import (
    CallCache,
    SelectionRun,
    check_fallback,
    check_selection,
    draw_pile,
    run_selection,
)

Validity = Callable[[Any], bool]


@dataclass
class Seat:
    number: int
    name: str
    virtual: bool


def seating(players: int, virtual: int) -> list[Seat]:
    """Virtual players sit first: seat s owns θ_s, so at Virtual 1's turn the protocol's owners
    P_1, ..., P_n are seats 1, ..., n in order and its θ_i are the printed θ_i."""
    seats = [Seat(i + 1, f"Virtual {i + 1}", True) for i in range(virtual)]
    return seats + [Seat(virtual + i + 1, f"Human {i + 1}", False) for i in range(players - virtual)]


@dataclass
class VirtualStats:
    """What the virtual decisions of a game cost and checked."""

    protocol_runs: int = 0
    checks: int = 0
    shuffles: int = 0
    max_helper_cards: int = 0
    virtual_turns: int = 0
    # Every virtual choice: the valid cards it chose from and the card chosen (see ``choices``).
    raw_choices: list[tuple[list[Symbol], Symbol]] = field(default_factory=list)
    # Every virtual decision's table, at either level: the cards of each owner the card selection
    # protocol lays out (P_1 first) and whether P_1 had a valid card (what a run costs depends on
    # these alone; kitgen's table-time model turns them into minutes).
    tables: list[tuple[tuple[int, ...], bool]] = field(default_factory=list)
    # Which engine ran the protocol runs ("compiled", "interpreter"; "mixed" if both did), and why
    # the interpreter ran them though the compiled path was asked (None: it was not, or it ran).
    engine_used: str | None = None
    fallback_reason: str | None = None

    def note_table_use(self, owners: list[list[Symbol]], found: bool) -> None:
        self.tables.append((tuple(map(len, owners)), found))

    def note_table(self, sizes: tuple[int, ...], found: bool) -> None:
        """:meth:`note_table_use` given the owners' sizes (P_1 first)."""
        self.tables.append((sizes, found))

    def note_choice(self, candidates: list[Symbol], pick: Symbol) -> None:
        self.raw_choices.append((candidates, pick))

    @property
    def choices(self) -> list[tuple[tuple[str, ...], str]]:
        """Every virtual choice: the valid cards' names (sorted) and the chosen card's name."""
        return [(tuple(sorted(c.name for c in cands)), pick.name) for cands, pick in self.raw_choices]

    def note_engine(self, engine: str, reason: str | None) -> None:
        if self.engine_used is None:
            self.engine_used = engine
        elif self.engine_used != engine:
            self.engine_used = "mixed"
        if reason is not None and self.fallback_reason is None:
            self.fallback_reason = reason

    def note_run(self, run: SelectionRun) -> None:
        self.note_engine(run.engine, run.fallback_reason)
        self.protocol_runs += 1
        if progress.active():  # the detail made only for a listener
            progress.report(
                "playing", self.protocol_runs, None, f"{self.virtual_turns} virtual turns, protocol runs"
            )
        self.checks += run.checks
        self.shuffles += run.shuffles
        self.max_helper_cards = max(self.max_helper_cards, run.helper_cards)

    def summary(self) -> dict[str, Any]:
        return {
            "virtual_turns": self.virtual_turns,
            "protocol_runs": self.protocol_runs,
            "checks_passed": self.checks,
            "all_checks_passed": True,
            "shuffles": self.shuffles,
            "max_helper_cards": self.max_helper_cards,
            "virtual_tables": self.tables_json(),
        }

    def tables_json(self) -> list[dict[str, Any]]:
        return [{"sizes": list(sizes), "found": found} for sizes, found in self.tables]


@dataclass
class Moment:
    """A virtual player's decision in a seeded game, for a booklet's worked example: the table
    as the protocol sees it (P_1 first), the validity rule in force, and the public state of
    the game in its kind's terms (the top card and colour; a layout; the led suit; open ends)."""

    seed: int
    owners: list[list[Symbol]]
    valid: Validity
    public: dict[str, Any] = field(default_factory=dict)


def one_card(card: Any) -> Symbol:
    """The card a validity rule is asked about: its face (what both engines give a game's function,
    :func:`~reference_engine.machine.frame.game_argument`), or a selection or list of one card (a
    rule called directly); several cards are refused."""
    if type(card) is Symbol:  # a card itself (most calls: a game's rule per card); as plain() gives it
        return card
    from ..errors import EvalError
    from ..expressions import plain

    value = plain(card)
    if isinstance(value, list):
        if len(value) != 1:
            raise EvalError("valid() takes one card")
        value = value[0]
    if not isinstance(value, Symbol):
        raise EvalError(f"valid() takes a card, got {value!r}")
    return value


@dataclass
class Decision:
    """One virtual decision: the card played (None: none valid), and every owner's cards after
    it (the table gives every hand back in the order the protocol returned it)."""

    played: Symbol | None
    owners: list[list[Symbol]]
    runs: int


class VirtualPlayers:
    """The virtual players of one game: a uniform choice among valid cards per decision.

    ``fallback`` is the original covert lottery's rule (Hearts): when no card is valid, a
    uniformly random card of the whole hand is played instead of none.
    """

    def __init__(
        self,
        library: Library,
        level: str,
        rng: random.Random,
        protocol: str,
        virtual: int,
        fallback: bool = False,
        game: str = "this game",
        default: str = "the rule set's protocol",
    ):
        if level not in ("card", "rule"):
            raise UsageError(f"«level» is card or rule, not {level!r}")
        self.library = library
        self.level = level
        self.rng = rng
        self.fallback = fallback
        self.protocol_name = protocol
        self.stats = VirtualStats()
        self.cache = CallCache()  # outcomes of small sub-protocols (the six-card AND), kept for the game
        self.protocol = library.protocol(protocol) if virtual and level == "card" else None
        # A spec that can draw for P_1 in its own run (card-selection-draw, card-selection-arrow)
        # treats the last owner as the draw pile. These games never let a run draw: Sevens and
        # Hearts have no draw pile (their last owner is a player's hand, which the run would rob),
        # and Dominoes draws from the boneyard like a person, between runs. (Shedding games give
        # the parameter themselves: kinds/shedding/play.py.)
        self.params: dict[str, Any] | None = None
        if self.protocol is not None:
            check_selection(self.protocol)
            check_fallback(self.protocol, fallback, game, default)
            if draw_pile(self.protocol, 2, None) is not None:
                self.params = {"draw": 0}
        self.recorder: Recorder | None = None  # a game being recorded: every run goes to its record

    def decide(self, owners: list[list[Symbol]], valid: Validity, where: str) -> Decision:
        """Choose for P_1 (``owners[0]``): a uniformly random valid card, or none (with
        ``fallback``, a random card of the hand). ``owners`` lists every hand and pile the
        protocol lays out, P_1 first."""
        hand = owners[0]
        candidates = [c for c in hand if valid(c)]
        self.stats.note_table_use(owners, bool(candidates) or (self.fallback and bool(hand)))
        if self.level == "rule":
            pool = candidates if candidates or not self.fallback else list(hand)
            if not pool:
                return Decision(None, [list(o) for o in owners], 0)
            pick = pool[self.rng.randrange(len(pool))]
            self._note_choice(candidates, pick)
            rest = [list(o) for o in owners]
            rest[0].remove(pick)
            return Decision(pick, rest, 0)
        assert self.protocol is not None
        run = run_selection(
            self.library,
            self.protocol,
            owners,
            valid,
            self.rng,
            self.cache,
            where,
            fallback=self.fallback,
            params=self.params,
        )
        self.stats.note_run(run)
        if self.recorder is not None:
            self.recorder.selection_run(self.protocol_name, [len(o) for o in owners], run)
        if run.played is not None:
            self._note_choice(candidates, run.played)
        return Decision(run.played, run.returned, 1)

    def _note_choice(self, candidates: list[Symbol], pick: Symbol) -> None:
        if candidates:
            self.stats.note_choice(candidates, pick)


def split(cards: list[Symbol], sizes: list[int]) -> list[list[Symbol]]:
    """``cards`` cut into consecutive hands of the given sizes."""
    out, i = [], 0
    for n in sizes:
        out.append(cards[i : i + n])
        i += n
    return out
