"""What a kit's virtual players cost at the table: minutes per turn and per game, table space.

Every figure comes from simulated games of the kit's own seating and the table-time model
(:mod:`kitgen.gametime`, :mod:`kitgen.tabletime`); the kit states them on its first pages, in
its index and manifest, next to the same figures for the paper's own protocol when the kit
teaches a quicker variant of it (``source: variant_of:`` in the variant's spec).
"""

from __future__ import annotations

import math
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypedDict

from reference_engine.api import (
    GameRules,
    Library,
    PlayResult,
    PlaySettings,
    Protocol,
    Symbol,
    TableResult,
    UsageError,
    Weights,
    find_kind,
    load_game,
    walk_steps,
)

from .gametime import GameTime, PlayedGame, RunTimer, game_time, simulate_games
from .tabletime import TimeModel, people_text, time_model

# A kitchen table: columns are laid in rows no wider than this.
ROW_CM = 120.0
GAP_CM = 0.8
GAMES = 30


def sleeved(protocol: Protocol) -> bool:
    """Whether the protocol keeps each column in one sleeve (it declares ``sleeves:``; or, in a
    spec written before sleeves were known, its shuffles mix sleeves)."""
    if protocol.sleeves:
        return True
    return any(s.table.get("shuffle", s.table.get("all")) == "sleeves" for s in walk_steps(protocol.steps))


@dataclass(frozen=True)
class Footprint:
    """The table space of the largest card selection matrix, laid out in rows."""

    columns: int
    per_row: int
    rows: int
    width_cm: float
    depth_cm: float

    @classmethod
    def of(cls, columns: int, card_mm: tuple[float, float], cards_per_column: int) -> Footprint:
        w, h = card_mm[0] / 10 + GAP_CM, card_mm[1] / 10 * cards_per_column + GAP_CM
        per_row = max(1, min(columns, int(ROW_CM // w)))
        rows = max(1, math.ceil(columns / per_row))
        return cls(columns, per_row, rows, round(per_row * w), round(rows * h))

    def sentence(self, unit: str) -> str:
        return (
            f"The table needs about {self.width_cm:.0f} × {self.depth_cm:.0f} cm for the largest turn: "
            f"{self.columns} {unit} in {self.rows} rows of up to {self.per_row}."
        )


@dataclass(frozen=True)
class KitCost:
    game_title: str
    players: int
    virtual: int
    own: GameTime
    footprint: Footprint
    unit: str  # "sleeves" | "columns"
    paper: GameTime | None = None  # the paper's protocol at the same games, for comparison
    paper_footprint: Footprint | None = None
    compared: tuple[tuple[str, GameTime], ...] = ()  # other rule sets (a reduced deck, ...)
    model: TimeModel | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "virtual_turn_minutes": round(self.own.turn_minutes, 1),
            "first_turn_minutes": round(self.own.first_turn_minutes, 1),
            "run_minutes": round(self.own.run_minutes, 1),
            "game_minutes_mean": round(self.own.game_minutes_mean, 1),
            "game_minutes_p90": round(self.own.game_minutes_p90, 1),
            "protocol_runs_per_game": round(self.own.runs, 1),
            "virtual_turns_per_game": round(self.own.virtual_turns, 1),
            "table_width_cm": self.footprint.width_cm,
            "table_depth_cm": self.footprint.depth_cm,
            "people": self.own.people,
            "games": self.own.games,
            "protocol": self.own.protocol,
            "paper": None
            if self.paper is None
            else {
                "protocol": self.paper.protocol,
                "virtual_turn_minutes": round(self.paper.turn_minutes, 1),
                "game_minutes_mean": round(self.paper.game_minutes_mean, 1),
                "game_minutes_p90": round(self.paper.game_minutes_p90, 1),
                "table_width_cm": self.paper_footprint.width_cm if self.paper_footprint else None,
                "table_depth_cm": self.paper_footprint.depth_cm if self.paper_footprint else None,
            },
            "compared": [{"game": title, **t.to_json()} for title, t in self.compared],
            "text": self.sentences(),
        }
        return out

    def sentences(self) -> list[str]:
        own = self.own
        out = [
            f"A virtual turn takes {_minutes(own.turn_minutes)} at this table, with "
            f"{people_text(own.people)} (a virtual player does nothing); the first one of a game, with "
            f"the most cards in play, {_minutes(own.first_turn_minutes)}. A whole game of "
            f"{self.players} players, {self.virtual} of them virtual, takes "
            f"{_minutes(own.game_minutes_mean)} "
            f"on average and {_minutes(own.game_minutes_p90)} in nine games out of ten "
            f"({own.runs:.0f} runs of the protocol per game).",
            self.footprint.sentence(self.unit),
            "Everyone works at once: each of you handles the "
            + ("sleeves" if self.unit == "sleeves" else "columns")
            + " in front of you when cards are laid out, turned, marked or given back, and everyone "
            "stops to watch, or to help mix, whenever the table shuffles.",
        ]
        if self.paper is not None:
            out.append(
                f"The paper's own protocol, with envelopes, takes {_minutes(self.paper.turn_minutes)} per "
                f"virtual turn and {_minutes(self.paper.game_minutes_mean)} per game at the same table; "
                "this kit's quicker way does the same shuffles and reveals (both are verified)."
            )
        for title, t in self.compared:
            out.append(f"For comparison, {title}: {_minutes(t.turn_minutes)} per virtual turn.")
        out.append(
            "These minutes are kitgen's estimate from simulated games: the actions are counted from "
            "the engine's runs of the protocol; the seconds each action takes are our own round "
            "figures, not measured at a table (the printing guide lists them)."
        )
        return out


def _minutes(m: float) -> str:
    if m >= 90:
        return f"about {m / 60:.1f} hours".replace(".0 hours", " hours")
    n = max(1, round(m))
    return "about 1 minute" if n == 1 else f"about {n} minutes"


def kit_cost(
    library: Library,
    ruleset: str,
    protocol: str,
    players: int,
    virtual: int,
    card_mm: tuple[float, float],
    options: Mapping[str, object] | None = None,
    compare_with: tuple[str, ...] = (),
    games: int = GAMES,
) -> KitCost | None:
    """The figures of a kit with this seating (see the module docs); None when the game's kind
    does not record its virtual decisions' tables (then a kit states no figures it cannot back)."""
    rules = load_game(ruleset)
    people = max(1, players - virtual)
    played = simulate_games(ruleset, library, players, virtual, games, options)
    proto = library.protocol(protocol)
    opts = dict(options or {})
    if not any(g.tables for g in played):
        return None  # the kind does not say how large its virtual decisions' tables are
    own = game_time(played, _timer(library, rules, proto, players, virtual, people, opts))
    largest = max(own.largest_table, 1)
    unit = "sleeves" if sleeved(proto) else "columns"
    footprint = Footprint.of(largest, card_mm, 1 if sleeved(proto) else _rows(proto))
    paper = paper_fp = None
    base = proto.source.get("variant_of")
    if base:
        paper_proto = library.protocol(base)
        paper = game_time(played, _timer(library, rules, paper_proto, players, virtual, people, opts))
        paper_fp = Footprint.of(largest, card_mm, _rows(paper_proto))
    compared = []
    for other in compare_with:
        orules = load_game(other)
        lo, hi, _ = getattr(orules, "players", (players, players, players))
        n = min(max(players, lo), hi)
        oplayed = simulate_games(other, library, n, min(virtual, n), games, options)
        oproto = library.protocol(getattr(orules, "virtual_protocol", protocol))
        timer = _timer(library, orules, oproto, n, virtual, n - virtual, opts)
        if any(g.tables for g in oplayed):
            compared.append((orules.title, game_time(oplayed, timer)))
    return KitCost(
        rules.title, players, virtual, own, footprint, unit, paper, paper_fp, tuple(compared), time_model()
    )


class Seating(typing.Protocol):
    """What the figures need of a game kit's plan (``kitgen.kinds.kind.KitPlan``)."""

    @property
    def players(self) -> int: ...
    @property
    def virtual(self) -> int: ...
    @property
    def protocol(self) -> str: ...
    @property
    def card_mm(self) -> tuple[float, float]: ...


def plan_cost(
    library: Library, rules: GameRules, plan: Seating, options: Mapping[str, object] | None = None
) -> KitCost | None:
    """The figures of a game kit's plan (``KitPlan``), or None without virtual players."""
    if not plan.virtual:
        return None
    names = rules.kit.get("compare_with", [])
    compare = (names,) if isinstance(names, str) else tuple(str(n) for n in names)
    size = plan.card_mm
    return kit_cost(library, rules.name, plan.protocol, plan.players, plan.virtual, size, options, compare)


class PlayedCost(TypedDict):
    """What a played game would cost at a real table (``kitgen play``)."""

    protocol: str
    people: int
    protocol_runs: int
    protocol_minutes: float
    virtual_turn_minutes: float
    game_minutes: float
    ordinary_turn_seconds: float


def played_cost(library: Library, rules: GameRules, result: PlayResult) -> PlayedCost | None:
    """What the game ``result`` of ``kitgen play`` would cost at a real table (None without
    virtual decisions): its protocol runs and a person's ordinary turns, in minutes."""
    if not isinstance(result, TableResult):
        return None
    tables = result.work.virtual_tables
    protocol = result.protocol or getattr(rules, "virtual_protocol", None)
    if not tables or not protocol:
        return None
    players, virtual = result.players, result.virtual
    options: dict[str, object] = {"wild4": "bluff"} if getattr(rules, "hand_dependent", False) else {}
    if result.weights:
        options["weights"] = result.weights
    timer = _timer(library, rules, library.protocol(protocol), players, virtual, players - virtual, options)
    game = game_time(
        [
            PlayedGame(
                result.turns,
                result.virtual_turns,
                [(int(t["sizes"][0]), int(sum(t["sizes"])), bool(t["found"])) for t in tables],
            )
        ],
        timer,
    )
    return {
        "protocol": protocol,
        "people": game.people,
        "protocol_runs": len(tables),
        "protocol_minutes": round(game.protocol_minutes_mean, 1),
        "virtual_turn_minutes": round(game.turn_minutes, 1),
        "game_minutes": round(game.game_minutes_mean, 1),
        "ordinary_turn_seconds": timer.model.ordinary_turn,
    }


def _timer(
    library: Library,
    rules: GameRules,
    proto: Protocol,
    players: int,
    virtual: int,
    people: int,
    options: Mapping[str, object],
) -> RunTimer:
    wild4 = str(options.get("wild4") or "strict")
    discard = bool(options.get("discard_owner", False))
    seating = PlaySettings(players, max(1, virtual), options={"discard_owner": discard, "wild4": wild4})
    moment = find_kind(rules.kind).example_moment(rules, library, seating)
    deck: list[Symbol] = [c for owner in moment.owners for c in owner]
    context: dict[str, Callable[..., object]] = {}
    params: dict[str, int] = {}
    if "weight" in proto.context:  # a weighted virtual player: the weights it follows
        given = options.get("weights")  # play's option: text, or a record's mapping
        weights = (
            Weights.of(given) if isinstance(given, Mapping) else Weights.parse(str(given)) if given else None
        )
        if weights is None:
            raise UsageError(f"{proto.name} takes a virtual player's weights; none were given")
        context["weight"] = find_kind(rules.kind).weight_function(rules, weights)
        params["w"] = weights.largest
    return RunTimer(library, proto, deck, moment.valid, people, context=context, params=params)


def _rows(proto: Protocol) -> int:
    """Cards per column of the paper's matrix: the card, its owner card and the bit pair."""
    return 4 if "valid" in proto.context else 1


__all__ = ["Footprint", "KitCost", "PlayedGame", "kit_cost", "plan_cost", "played_cost", "sleeved"]
