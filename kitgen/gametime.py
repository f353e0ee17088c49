"""What the virtual players of a game cost at the table: minutes per virtual turn and per game.

Rule-level games (seeded, fast) say at every virtual decision how large the table was: the
cards of each owner the card selection protocol lays out and whether the virtual player had
a valid card. One run of the protocol at such a table costs what the table-time model says of
its trace (:mod:`kitgen.tabletime`). A run's steps at the top of the protocol grow linearly with
the cards in play, and the steps of what it calls (the lottery) depend only on the virtual
player's hand; so two traced runs per hand size give every table size exactly, and a table
smaller than those two is traced directly.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from reference_engine.api import (
    Library,
    PlaySettings,
    Protocol,
    Symbol,
    TableResult,
    UsageError,
    play,
    simulate,
)

from .tabletime import StepTime, TimeModel, absorb, no_hints, schedule, spec_hints, time_model

Validity = Callable[[Symbol], bool]  # whether a card may be played (the game function ``valid``)

# Traced table sizes per hand size: k = m + NEAR and m + FAR cards in play.
NEAR, FAR = 12, 40


@dataclass
class RunTimer:
    """Seconds of one run of ``protocol`` at a table of ``k`` cards, P_1 holding ``m``."""

    library: Library
    protocol: Protocol
    deck: list[Symbol]
    valid: Validity
    people: int
    model: TimeModel = field(default_factory=time_model)
    use_hints: bool = True  # False: the spec's table hints ignored (envelopes, every card laid out)
    context: dict[str, Callable[..., object]] = field(
        default_factory=dict
    )  # more game functions (``weight``)
    params: dict[str, int] = field(default_factory=dict)
    _lines: dict[tuple[int, bool], tuple[list[StepTime], list[StepTime], list[StepTime]]] = field(
        default_factory=dict, repr=False
    )
    _direct: dict[tuple[int, int, bool], float] = field(default_factory=dict, repr=False)

    def seconds(self, m: int, k: int, found: bool) -> float:
        if k < m + NEAR or k > len(self.deck) + FAR:
            key = (m, k, found)
            if key not in self._direct:
                self._direct[key] = sum(s.seconds for s in absorb(self._steps(m, k, found), self.people))
            return self._direct[key]
        near, far, called = self._line(m, found)
        t = (k - (m + NEAR)) / (FAR - NEAR)
        top = [_between(a, b, t) for a, b in zip(near, far)]
        return sum(s.seconds for s in absorb(_merge(top, called), self.people))

    def _line(self, m: int, found: bool) -> tuple[list[StepTime], list[StepTime], list[StepTime]]:
        if (m, found) not in self._lines:
            a = self._steps(m, m + NEAR, found)
            b = self._steps(m, m + FAR, found)
            near, far = [s for s in a if s.depth == 0], [s for s in b if s.depth == 0]
            if [s.label for s in near] != [s.label for s in far]:
                raise UsageError(f"{self.protocol.name}: its steps differ with the table's size")
            self._lines[(m, found)] = (near, far, [s for s in a if s.depth > 0])
        return self._lines[(m, found)]

    def _steps(self, m: int, k: int, found: bool) -> list[StepTime]:
        cards = self._table(m, k, found)
        sim = simulate(
            self.library,
            self.protocol,
            {"sizes": (m, k - m), **self.params},
            {"cards": cards},
            seed=1,
            context={"valid": self.valid, **self.context},
        )
        hints = spec_hints(self.library.protocol) if self.use_hints else no_hints
        return schedule(sim.trace.events, self.people, self.model, hints, raw=True)

    def _table(self, m: int, k: int, found: bool) -> list[Symbol]:
        """A table of k cards of the deck (cycled if k is larger), P_1's m first: one valid
        card among them when ``found``, none otherwise."""
        valid = [c for c in self.deck if self.valid(c)]
        invalid = [c for c in self.deck if not self.valid(c)]
        if (found and not valid) or (not found and len(invalid) < m):
            raise UsageError(f"{self.protocol.name}: no table of {m} cards with found={found} in this deck")
        hand = ([valid[0]] if found else []) + invalid[: m - (1 if found else 0)]
        while len(hand) < m:
            hand.append(valid[len(hand) % len(valid)])
        rest = [c for c in self.deck if c not in hand] or self.deck
        others = [rest[i % len(rest)] for i in range(k - m)]
        return hand + others


def _between(a: StepTime, b: StepTime, t: float) -> StepTime:
    def lerp(x: float, y: float) -> float:
        return x + (y - x) * t

    return StepTime(
        a.label,
        lerp(a.work, b.work),
        a.lanes,
        lerp(a.mixing, b.mixing),
        lerp(a.seconds, b.seconds),
        a.during,
        a.depth,
        a.top,
    )


def _merge(top: list[StepTime], called: list[StepTime]) -> list[StepTime]:
    """Every step of the run (their order does not change a sum or what runs beside what)."""
    return top + called


@dataclass(frozen=True)
class PlayedGame:
    """What a simulated game says about its virtual players' tables."""

    turns: int
    virtual_turns: int
    tables: list[tuple[int, int, bool]]  # every virtual decision: (m, k, found)


def simulate_games(
    ruleset: str,
    library: Library,
    players: int,
    virtual: int,
    games: int,
    options: Mapping[str, object] | None = None,
    protocol: str | None = None,
) -> list[PlayedGame]:
    """``games`` seeded rule-level games (seeds 0, 1, ...) with this seating."""
    out = []
    for seed in range(games):
        settings = PlaySettings(players, virtual, "rule", seed, protocol, options=dict(options or {}))
        result = play(ruleset, library, settings)
        if not isinstance(result, TableResult):
            out.append(PlayedGame(0, 0, []))
            continue
        tables = [
            (int(t["sizes"][0]), int(sum(t["sizes"])), bool(t["found"])) for t in result.work.virtual_tables
        ]
        out.append(PlayedGame(result.turns, result.virtual_turns, tables))
    return out


@dataclass(frozen=True)
class GameTime:
    """Minutes of table work in simulated games with this seating (see the module docs)."""

    protocol: str
    games: int
    people: int
    virtual_turns: float  # per game, mean
    runs: float  # protocol runs per game, mean
    turn_minutes: float  # a virtual turn, mean over every virtual turn played (a draw's second run too)
    run_minutes: float  # one run of the protocol, mean
    first_turn_minutes: float  # the first virtual decision of a game (the largest table), mean
    largest_table: int  # the most cards in play at a virtual decision
    game_minutes_mean: float
    game_minutes_p90: float
    protocol_minutes_mean: float  # the virtual players' share of a game

    def to_json(self) -> dict[str, object]:
        return {k: round(v, 1) if isinstance(v, float) else v for k, v in self.__dict__.items()}


def game_time(played: list[PlayedGame], timer: RunTimer) -> GameTime:
    """Cost every virtual decision of ``played`` with ``timer``; a person's own turn costs the
    model's ``ordinary_turn``."""
    per_game: list[float] = []
    protocol: list[float] = []
    run_secs: list[float] = []
    first: list[float] = []
    turns = 0
    for g in played:
        secs = [timer.seconds(m, k, found) for m, k, found in g.tables]
        run_secs += secs
        first += secs[:1]
        turns += g.virtual_turns
        protocol.append(sum(secs) / 60)
        per_game.append((sum(secs) + (g.turns - g.virtual_turns) * timer.model.ordinary_turn) / 60)
    n = max(1, len(played))
    return GameTime(
        protocol=timer.protocol.name,
        games=len(played),
        people=timer.people,
        virtual_turns=turns / n,
        runs=sum(len(g.tables) for g in played) / n,
        turn_minutes=sum(run_secs) / 60 / max(1, turns),
        run_minutes=statistics.fmean(run_secs) / 60 if run_secs else 0.0,
        first_turn_minutes=statistics.fmean(first) / 60 if first else 0.0,
        largest_table=max((k for g in played for _, k, _ in g.tables), default=0),
        game_minutes_mean=statistics.fmean(per_game) if per_game else 0.0,
        game_minutes_p90=_quantile(per_game, 0.9) if per_game else 0.0,
        protocol_minutes_mean=statistics.fmean(protocol) if protocol else 0.0,
    )


def _quantile(values: list[float], q: float) -> float:
    """The q-quantile, nearest rank (a value some game really took)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]
