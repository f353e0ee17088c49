"""What the virtual players of a game cost at the table: minutes per virtual turn and per game,
under every profile of the table-time model at once (optimistic and cautious).

Rule-level games (seeded, fast) say at every virtual decision how large the table was. A
decision's protocol run is then costed in one of two ways:

- **By its table's size** (the card selection protocols; the kind's results record each
  decision's ``virtual_tables``: the cards of each owner and whether the virtual player had a
  valid card). A run's steps at the top of the protocol grow linearly with the cards in play,
  and the steps of what it calls (the lottery) depend only on the virtual player's hand; so two
  traced runs per hand size give every table size exactly, and a table smaller than those two
  is traced directly (:class:`RunTimer`).
- **By tracing it** (any other protocol, Daifugō's play selection: what a run does depends on
  the whole table and the last play). The kind hands over every decision's moment
  (``GameKind.decisions``), the kit kind says the protocol's arguments at that moment, and each
  run is traced and scheduled (:func:`cost_moments`).

Either way one trace is scheduled under every profile (:mod:`kitgen.cost.tabletime`), so the
cautious figure is the same games and the same runs as the optimistic one, slower.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from reference_engine.api import (
    Event,
    Library,
    PlaySettings,
    Protocol,
    Symbol,
    TableResult,
    UsageError,
    play,
    simulate,
)

from .tabletime import StepTime, absorb, schedule
from .tablework import action_counts, no_hints, run_work, spec_hints
from .timemodel import TimeModel, time_models

Validity = Callable[[Symbol], bool]  # whether a card may be played (the game function ``valid``)
# What a protocol run is given: its parameters, its inputs and the game's functions.
RunArguments = tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Callable[..., object]]]

# Traced table sizes per hand size: k = m + NEAR and m + FAR cards in play.
NEAR, FAR = 12, 40


@dataclass
class RunTimer:
    """Seconds of one run of ``protocol`` at a table of ``k`` cards, P_1 holding ``m``, under each
    of ``models`` (one trace, scheduled once per model)."""

    library: Library
    protocol: Protocol
    deck: list[Symbol]
    valid: Validity
    people: int
    models: tuple[TimeModel, ...] = field(default_factory=time_models)
    use_hints: bool = True  # False: the spec's table hints ignored (envelopes, every card laid out)
    context: dict[str, Callable[..., object]] = field(default_factory=dict)  # ``weight``, ...
    params: dict[str, int] = field(default_factory=dict)
    _lines: dict[tuple[int, bool], list[tuple[list[StepTime], list[StepTime], list[StepTime]]]] = field(
        default_factory=dict, repr=False
    )
    _direct: dict[tuple[int, int, bool], tuple[float, ...]] = field(default_factory=dict, repr=False)
    _shuffles: dict[tuple[int, int | None, bool], int] = field(default_factory=dict, repr=False)

    @property
    def model(self) -> TimeModel:
        """The first model (the one in force)."""
        return self.models[0]

    def seconds(self, m: int, k: int, found: bool) -> tuple[float, ...]:
        """The run's wall-clock seconds under each model."""
        if k < m + NEAR or k > len(self.deck) + FAR:
            key = (m, k, found)
            if key not in self._direct:
                raw, self._shuffles[key] = self._steps(m, k, found)
                self._direct[key] = tuple(
                    sum(s.seconds for s in absorb(steps, self.people, model))
                    for steps, model in zip(raw, self.models)
                )
            return self._direct[key]
        t = (k - (m + NEAR)) / (FAR - NEAR)
        out = []
        for (near, far, called), model in zip(self._line(m, found), self.models):
            top = [_between(a, b, t) for a, b in zip(near, far)]
            out.append(sum(s.seconds for s in absorb(top + called, self.people, model)))
        return tuple(out)

    def shuffles(self, m: int, k: int, found: bool) -> int:
        """The shuffles of the run (counted from its trace; they do not grow with the table)."""
        if (m, k, found) in self._shuffles:
            return self._shuffles[(m, k, found)]
        self.seconds(m, k, found)
        return self._shuffles.get((m, k, found), self._shuffles.get((m, None, found), 0))

    def _line(self, m: int, found: bool) -> list[tuple[list[StepTime], list[StepTime], list[StepTime]]]:
        if (m, found) not in self._lines:
            a, shuffles = self._steps(m, m + NEAR, found)
            b, _ = self._steps(m, m + FAR, found)
            self._shuffles[(m, None, found)] = shuffles
            lines = []
            for one, two in zip(a, b):
                near, far = [s for s in one if s.depth == 0], [s for s in two if s.depth == 0]
                if [s.label for s in near] != [s.label for s in far]:
                    raise UsageError(f"{self.protocol.name}: its steps differ with the table's size")
                lines.append((near, far, [s for s in one if s.depth > 0]))
            self._lines[(m, found)] = lines
        return self._lines[(m, found)]

    def _steps(self, m: int, k: int, found: bool) -> tuple[list[list[StepTime]], int]:
        """The raw schedule of one traced run under each model, and its shuffles."""
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
        work = run_work(sim.trace.events, hints)  # counted once for every model
        raw = [schedule(work, self.people, model, raw=True) for model in self.models]
        return raw, action_counts(work)["shuffle"]

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
class Run:
    """One costed protocol run: the cards in play, its shuffles, its seconds under each model."""

    cards: int
    shuffles: int
    seconds: tuple[float, ...]


@dataclass(frozen=True)
class CostedGame:
    """A simulated game with every virtual decision's run costed."""

    turns: int
    virtual_turns: int
    runs: tuple[Run, ...]


def cost_tables(played: list[PlayedGame], timer: RunTimer) -> list[CostedGame]:
    """Every virtual decision of ``played`` costed by its table's size (see the module docs)."""
    return [
        CostedGame(
            g.turns,
            g.virtual_turns,
            tuple(
                Run(k, timer.shuffles(m, k, found), timer.seconds(m, k, found)) for m, k, found in g.tables
            ),
        )
        for g in played
    ]


@dataclass(frozen=True)
class TracedRun:
    """A traced run's cost, and the most cards in one column of its largest matrix."""

    run: Run
    column_cards: int


def cost_run(
    library: Library,
    protocol: Protocol,
    arguments: RunArguments,
    people: int,
    models: Sequence[TimeModel],
    seed: int,
) -> TracedRun:
    """One run of ``protocol`` traced with ``arguments`` and scheduled under each model."""
    params, inputs, context = arguments
    sim = simulate(library, protocol, dict(params), dict(inputs), seed=seed, context=dict(context))
    events = sim.trace.events
    work = run_work(events, spec_hints(library.protocol))  # counted once for every model
    seconds = tuple(sum(s.seconds for s in schedule(work, people, model)) for model in models)
    cards = sum(len(v) for v in inputs.values() if isinstance(v, list | tuple))
    run = Run(cards, action_counts(work)["shuffle"], seconds)
    return TracedRun(run, column_cards(events))


def column_cards(events: Sequence[Event]) -> int:
    """The cards in one column of the widest region a run lays out (a matrix's rows)."""
    widest = max(((r["cols"], r["rows"]) for e in events for r in e.after.regions), default=(0, 1))
    return max(1, widest[1])


@dataclass(frozen=True)
class GameTime:
    """Minutes of table work in simulated games with this seating, under one profile."""

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
    shuffles_per_run: float = 0.0  # mean, counted from the traces
    column_cards: int = 0  # cards in one column of the largest matrix (0: not traced)
    profile: str = "optimistic"

    def to_json(self) -> dict[str, object]:
        return {k: round(v, 1) if isinstance(v, float) else v for k, v in self.__dict__.items()}

    def data(self) -> dict[str, Any]:
        """Every field unrounded (what the figure cache keeps)."""
        return asdict(self)

    @classmethod
    def of_data(cls, data: Mapping[str, Any]) -> GameTime:
        """A :meth:`data` read back; a ValueError for anything else."""
        names = {f.name: f for f in fields(cls)}
        if set(data) != set(names):
            raise ValueError("not the fields of a game time")
        for name, value in data.items():
            kind = names[name].type
            ok = isinstance(value, str) if kind == "str" else isinstance(value, int | float)
            if not ok or isinstance(value, bool):
                raise ValueError(f"{name} is not a {kind}")
        return cls(**data)


def game_times(
    costed: list[CostedGame], protocol: str, people: int, models: Sequence[TimeModel], column: int = 0
) -> dict[str, GameTime]:
    """Every profile's figures of the same costed games; a person's own turn costs the model's
    ``ordinary_turn``."""
    return {
        model.profile: _game_time(costed, protocol, people, model, i, column)
        for i, model in enumerate(models)
    }


def _game_time(
    costed: list[CostedGame], protocol: str, people: int, model: TimeModel, i: int, column: int
) -> GameTime:
    per_game: list[float] = []
    spent: list[float] = []
    run_secs: list[float] = []
    first: list[float] = []
    turns = 0
    for g in costed:
        secs = [r.seconds[i] for r in g.runs]
        run_secs += secs
        first += secs[:1]
        turns += g.virtual_turns
        spent.append(sum(secs) / 60)
        per_game.append((sum(secs) + (g.turns - g.virtual_turns) * model.ordinary_turn) / 60)
    n = max(1, len(costed))
    runs = [r for g in costed for r in g.runs]
    return GameTime(
        protocol=protocol,
        games=len(costed),
        people=people,
        virtual_turns=turns / n,
        runs=len(runs) / n,
        turn_minutes=sum(run_secs) / 60 / max(1, turns),
        run_minutes=statistics.fmean(run_secs) / 60 if run_secs else 0.0,
        first_turn_minutes=statistics.fmean(first) / 60 if first else 0.0,
        largest_table=max((r.cards for r in runs), default=0),
        game_minutes_mean=statistics.fmean(per_game) if per_game else 0.0,
        game_minutes_p90=_quantile(per_game, 0.9) if per_game else 0.0,
        protocol_minutes_mean=statistics.fmean(spent) if spent else 0.0,
        shuffles_per_run=statistics.fmean(r.shuffles for r in runs) if runs else 0.0,
        column_cards=column,
        profile=model.profile,
    )


def _quantile(values: list[float], q: float) -> float:
    """The q-quantile, nearest rank (a value some game really took)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


__all__ = [
    "FAR",
    "NEAR",
    "CostedGame",
    "GameTime",
    "PlayedGame",
    "Run",
    "RunArguments",
    "RunTimer",
    "TracedRun",
    "column_cards",
    "cost_run",
    "cost_tables",
    "game_times",
    "simulate_games",
]
