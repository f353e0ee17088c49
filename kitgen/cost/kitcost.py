"""What a kit's virtual players cost at the table: minutes per turn and per game, table space.

Every figure comes from simulated games of the kit's own seating and the table-time model
(:mod:`kitgen.cost.gametime`, :mod:`kitgen.cost.tabletime`), under each of its profiles: the kit states
the optimistic and the cautious figure as one range ("about 8-11 minutes"), on its first pages,
in its index and manifest, next to the same figures for the paper's own protocol when the kit
teaches a quicker variant of it (``source: variant_of:`` in the variant's spec). The costed games
are kept with the verification cache (:mod:`kitgen.core.figurecache`).
"""

from __future__ import annotations

import math
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference_engine.api import (
    GameRules,
    Library,
    Moment,
    PlaySettings,
    Protocol,
    Symbol,
    UsageError,
    Weights,
    draw_pile,
    find_kind,
    load_game,
    walk_steps,
)

from ..core.durations import about_range, span
from ..core.figurecache import FigureCache
from ..core.words import seating as seating_words
from ..lang.catalogue import _, number
from ..lang.overlay import spec_text
from .gametime import (
    CostedGame,
    GameTime,
    PlayedGame,
    Run,
    RunArguments,
    RunTimer,
    cost_run,
    cost_tables,
    game_times,
    simulate_games,
)
from .tabletime import people_text
from .timemodel import TimeModel, model_json, time_models
from .timewords import ESTIMATE, SPACE, estimate, shuffles_compared, turn_words

# A kitchen table: columns are laid in rows no wider than this.
ROW_CM = 120.0
GAP_CM = 0.8
GAMES = 30
# Above these a kit warns at build time: nobody plays a virtual turn this long, or prints this much.
TURN_WARNING_MINUTES = 30.0  # cautious, per turn (a virtual turn; a round of a game without one)
SHEETS_WARNING = 150  # sheets of card stock

# A moment of a game, as the arguments of one run of the kit's protocol (a kit kind's).
Arguments = Callable[[Moment], RunArguments]


def sleeved(protocol: Protocol) -> bool:
    """Whether the protocol keeps each column in one sleeve (it declares ``sleeves:``; or, in a
    spec written before sleeves were known, its shuffles mix sleeves)."""
    if protocol.sleeves:
        return True
    return any(s.table.get("shuffle", s.table.get("all")) == "sleeves" for s in walk_steps(protocol.steps))


def bit_cards(protocol: Protocol) -> str:
    """How the protocol holds a card's bit: "arrow" (one up-down card: it declares a face that a
    half turn changes) or "pair" (an α/β pair)."""
    return "arrow" if any(s.rotated for s in protocol.symbols.values()) else "pair"


@dataclass(frozen=True)
class Footprint:
    """The table space of the largest card selection matrix, laid out in rows."""

    columns: int
    per_row: int
    rows: int
    width_cm: float
    depth_cm: float
    # The cards one column holds, stacked (a sealed-bid table's: its region's two rows): what
    # its words count, as the whole-table picture draws them (kitgen.booklet.tableplan).
    cards_per_column: int = 1

    @classmethod
    def of(cls, columns: int, card_mm: tuple[float, float], cards_per_column: int) -> Footprint:
        w, h = card_mm[0] / 10 + GAP_CM, card_mm[1] / 10 * cards_per_column + GAP_CM
        per_row = max(1, min(columns, int(ROW_CM // w)))
        rows = max(1, math.ceil(columns / per_row))
        return cls(columns, per_row, rows, round(per_row * w), round(rows * h), cards_per_column)

    def sentence(self, unit: str) -> str:
        """The table's size in words; ``unit`` is a key of :data:`SPACE` (what a column is).
        Cards in a row stacked two or more to a column are counted all (the Gakmoro table said
        "37 cards in a row" where its comparison lays out 74, 37 columns of two)."""
        stacked = unit == "cards in a row" and self.cards_per_column > 1
        return _(SPACE["stacked cards" if stacked else unit]).format(
            width=f"{self.width_cm:.0f}",
            depth=f"{self.depth_cm:.0f}",
            n=number(self.columns),
            rows=number(self.rows),
            per_row=number(self.per_row),
            cards=number(self.columns * self.cards_per_column),
            height=number(self.cards_per_column),
        )


class Costs(ABC):
    """A kit's figures, whatever the game: what the manifest, index, console, booklet and
    ``kitgen list --times`` read (each from the same object)."""

    footprint: Footprint | None = None
    unit: str = ""

    @abstractmethod
    def to_json(self) -> dict[str, object]:
        """The manifest's ``table_time`` (with ``text``: :meth:`sentences`)."""

    @abstractmethod
    def sentences(self) -> list[str]:
        """The figures in words, the main one first."""

    @abstractmethod
    def cover_sentence(self) -> str:
        """One sentence for a booklet's cover."""

    @abstractmethod
    def longest_turn(self) -> tuple[str, float]:
        """What a turn is called here and its cautious minutes (a build warns above 30)."""

    @abstractmethod
    def summary(self) -> dict[str, object]:
        """The same figures for every game (``kitgen list --times --json``, the README's table):
        ``turn`` (what a turn is), ``turn_minutes``, ``first_turn_minutes``, ``game_minutes_mean``,
        ``game_minutes_p90`` (each with ``_cautious``), the table's size, the seating."""


def both(times: Mapping[str, GameTime], pick: Callable[[GameTime], float]) -> tuple[float, float | None]:
    """A figure under the optimistic profile and under the cautious one (None: no such profile)."""
    first = next(iter(times.values()))
    cautious = times.get("cautious")
    return pick(times.get("optimistic", first)), (pick(cautious) if cautious is not None else None)


def with_cautious(out: dict[str, object], key: str, low: float, high: float | None) -> None:
    out[key] = round(low, 1)
    if high is not None:
        out[f"{key}_cautious"] = round(high, 1)


@dataclass(frozen=True)
class KitCost(Costs):
    game_title: str
    players: int
    virtual: int
    times: Mapping[str, GameTime]  # by profile: optimistic first
    footprint: Footprint
    unit: str  # "sleeves" | "columns"
    paper: Mapping[str, GameTime] | None = None  # the paper's protocol at the same games
    paper_footprint: Footprint | None = None
    compared: tuple[tuple[str, int, int, Mapping[str, GameTime]], ...] = ()  # title, players, virtual
    virtual_draw: str | None = None  # a virtual player's drawn card: "play" (the paper's) or "keep"

    @property
    def own(self) -> GameTime:
        """The figures of the profile in force (the first)."""
        return next(iter(self.times.values()))

    def range(self, pick: Callable[[GameTime], float]) -> str:
        return about_range(*both(self.times, pick))

    def to_json(self) -> dict[str, object]:
        own = self.own
        out: dict[str, object] = {}
        for key, pick in FIGURES:
            with_cautious(out, key, *both(self.times, pick))
        out |= {
            "shuffles_per_run": round(own.shuffles_per_run, 1),
            "protocol_runs_per_game": round(own.runs, 1),
            "virtual_turns_per_game": round(own.virtual_turns, 1),
            "table_width_cm": self.footprint.width_cm,
            "table_depth_cm": self.footprint.depth_cm,
            "players": self.players,
            "virtual": self.virtual,
            "people": own.people,
            "games": own.games,
            "protocol": own.protocol,
            "virtual_draw": self.virtual_draw,
            "profiles": list(self.times),
            "paper": None if self.paper is None else self._paper_json(self.paper),
            "compared": [
                {"game": title, "players": n, "virtual": v, **_compared_json(t)}
                for title, n, v, t in self.compared
            ],
            "text": self.sentences(),
        }
        return out

    def who(self, people: int) -> str:
        """Who does the work: the people sharing it, or the operator alone (every player virtual)."""
        if self.virtual == self.players:
            return _("the operator alone, who runs the table and does not play")
        return people_text(people)

    def _paper_json(self, paper: Mapping[str, GameTime]) -> dict[str, object]:
        first = next(iter(paper.values()))
        out: dict[str, object] = {"protocol": first.protocol}
        for key, pick in FIGURES[:1] + FIGURES[3:5]:
            with_cautious(out, key, *both(paper, pick))
        out["shuffles_per_run"] = round(first.shuffles_per_run, 1)
        out["table_width_cm"] = self.paper_footprint.width_cm if self.paper_footprint else None
        out["table_depth_cm"] = self.paper_footprint.depth_cm if self.paper_footprint else None
        return out

    def seating(self) -> str:
        return seating_words(self.players, self.virtual)

    def sentences(self) -> list[str]:
        own = self.own
        values = {
            "turn": self.range(_turn),
            "who": self.who(own.people),
            "first": self.range(_first),
            "seating": self.seating(),
            "game": self.range(_game),
            "p90": self.range(_p90),
            "runs": f"{own.runs:.0f}",
            "games": number(own.games),
        }
        game = (
            _(
                "A whole game of {seating}, takes {game} on average and {p90} in nine games out of "
                "ten ({runs} runs of the protocol per game, {games} simulated games)."
            )
            if 0 < self.virtual < self.players
            else _(
                "A whole game of {seating} takes {game} on average and {p90} in nine games out of "
                "ten ({runs} runs of the protocol per game, {games} simulated games)."
            )
        )
        turn = _(
            "A virtual turn takes {turn} at this table, with {who} (a virtual player does "
            "nothing); the first one of a game, with the most cards in play, {first}."
        )
        out = [
            _("{sentence} {next}").format(sentence=turn.format(**values), next=game.format(**values)),
            self.footprint.sentence(self.unit),
            _(
                "Everyone works at once: each of you handles the sleeves in front of you when cards "
                "are laid out, turned, marked or given back, and everyone stops to watch, or to help "
                "mix, whenever the table shuffles."
            )
            if self.unit == "sleeves"
            else _(
                "Everyone works at once: each of you handles the columns in front of you when cards "
                "are laid out, turned, marked or given back, and everyone stops to watch, or to help "
                "mix, whenever the table shuffles."
            ),
        ]
        if self.paper is not None:
            paper = next(iter(self.paper.values()))
            out.append(
                _(
                    "The paper's own protocol takes {turn} per virtual turn and {game} per game at "
                    "the same table; this kit's quicker way {compared} (both are verified)."
                ).format(
                    turn=about_range(*both(self.paper, _turn)),
                    game=about_range(*both(self.paper, _game)),
                    compared=shuffles_compared(own.shuffles_per_run, paper.shuffles_per_run),
                )
            )
        for title, n, v, t in self.compared:
            out.append(
                _(
                    "For comparison, {title} with {n} players, {v} of them virtual: {turn} per virtual turn."
                ).format(title=spec_text(title), n=number(n), v=number(v), turn=about_range(*both(t, _turn)))
            )
        out.append(estimate())
        return out

    def cover_sentence(self) -> str:
        return _("A virtual turn takes {turn} ({people}); a whole game {game}.").format(
            turn=self.range(_turn), people=people_text(self.own.people), game=self.range(_game)
        )

    def longest_turn(self) -> tuple[str, float]:
        low, high = both(self.times, _turn)
        return "a virtual turn", high if high is not None else low

    def summary(self) -> dict[str, object]:
        own = self.own
        out: dict[str, object] = {"turn": "virtual turn"}
        for key, pick in (("turn_minutes", _turn), *FIGURES[1:2], *FIGURES[3:]):
            with_cautious(out, key, *both(self.times, pick))
        return out | {
            "table_width_cm": self.footprint.width_cm,
            "table_depth_cm": self.footprint.depth_cm,
            "players": self.players,
            "virtual": self.virtual,
            "people": own.people,
            "games": own.games,
            "protocol": own.protocol,
            "virtual_draw": self.virtual_draw,
            "paper_protocol": None if self.paper is None else next(iter(self.paper.values())).protocol,
            "paper_turn_minutes": None if self.paper is None else round(both(self.paper, _turn)[0], 1),
            "paper_turn_minutes_cautious": None if self.paper is None else _round(both(self.paper, _turn)[1]),
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def _turn(t: GameTime) -> float:
    return t.turn_minutes


def _first(t: GameTime) -> float:
    return t.first_turn_minutes


def _game(t: GameTime) -> float:
    return t.game_minutes_mean


def _p90(t: GameTime) -> float:
    return t.game_minutes_p90


def _run(t: GameTime) -> float:
    return t.run_minutes


# The manifest's figures: key and where it comes from; each with ``_cautious`` beside it.
FIGURES: tuple[tuple[str, Callable[[GameTime], float]], ...] = (
    ("virtual_turn_minutes", _turn),
    ("first_turn_minutes", _first),
    ("run_minutes", _run),
    ("game_minutes_mean", _game),
    ("game_minutes_p90", _p90),
)


def _compared_json(times: Mapping[str, GameTime]) -> dict[str, object]:
    out = next(iter(times.values())).to_json()
    out.pop("profile", None)
    high = both(times, _turn)[1]
    if high is not None:
        out["turn_minutes_cautious"] = round(high, 1)
    return out


# --------------------------------------------------------------------------- the games, costed


def costed_times(
    library: Library,
    ruleset: str,
    protocols: Sequence[str],
    players: int,
    virtual: int,
    options: Mapping[str, object] | None = None,
    games: int = GAMES,
    arguments: Arguments | None = None,
    use_hints: bool = True,
) -> dict[str, dict[str, GameTime]] | None:
    """Every protocol's figures on the same ``games`` simulated games with this seating, under
    every profile (``{protocol: {profile: GameTime}}``), from the figure cache when it holds
    them; None when the kind records no virtual decision's table and ``arguments`` is None."""
    models = time_models()
    request = {
        "what": "game times",
        "ruleset": ruleset,
        "protocols": list(protocols),
        "players": players,
        "virtual": virtual,
        "options": _plain(options or {}),
        "games": games,
        "traced": arguments is not None,
        "hints": use_hints,
    }

    def compute() -> dict[str, object]:
        found = _compute(
            library, ruleset, protocols, players, virtual, options, games, arguments, models, use_hints
        )
        return {
            "times": None
            if found is None
            else {p: {t.profile: t.data() for t in ts} for p, ts in found.items()}
        }

    def read(data: Any) -> dict[str, dict[str, GameTime]] | None:
        times = data["times"]
        if times is None:
            return None
        return {p: {profile: GameTime.of_data(t) for profile, t in ts.items()} for p, ts in times.items()}

    try:
        return read(FigureCache().get(library, request, [model_json(m) for m in models], compute))
    except (AttributeError, KeyError, TypeError, ValueError):  # checked, yet not figures: cost again
        return read(compute())


def _plain(value: object) -> object:
    """Game options as JSON (a weights mapping as its text)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


def _compute(
    library: Library,
    ruleset: str,
    protocols: Sequence[str],
    players: int,
    virtual: int,
    options: Mapping[str, object] | None,
    games: int,
    arguments: Arguments | None,
    models: tuple[TimeModel, ...],
    use_hints: bool,
) -> dict[str, list[GameTime]] | None:
    rules = load_game(ruleset)
    people = max(1, players - virtual)
    opts = dict(options or {})
    out: dict[str, list[GameTime]] = {}
    kind = find_kind(rules.kind)
    seating = PlaySettings(players, virtual, options=opts)
    first = kind.decisions(rules, library, seating, 0) if arguments is not None and games else None
    if first is not None and arguments is not None:
        decided = [first] + [kind.decisions(rules, library, seating, seed) for seed in range(1, games)]
        for name in protocols:
            proto = library.protocol(name)
            costed, column = [], 0
            for result, moments in decided:
                runs: list[Run] = []
                for i, moment in enumerate(moments):
                    one = cost_run(library, proto, arguments(moment), people, models, seed=i + 1)
                    runs.append(one.run)
                    column = max(column, one.column_cards)
                costed.append(CostedGame(result.turns, result.virtual_turns, tuple(runs)))
            out[name] = list(game_times(costed, name, people, models, column).values())
        return out
    played = simulate_games(ruleset, library, players, virtual, games, options)
    if not any(g.tables for g in played):
        return None  # the kind does not say how large its virtual decisions' tables are
    for name in protocols:
        timer = run_timer(library, rules, library.protocol(name), players, virtual, people, opts, models)
        timer.use_hints = use_hints
        out[name] = list(game_times(cost_tables(played, timer), name, people, models).values())
    return out


def kit_cost(
    library: Library,
    ruleset: str | GameRules,
    protocol: str,
    players: int,
    virtual: int,
    card_mm: tuple[float, float],
    options: Mapping[str, object] | None = None,
    compare_with: tuple[str, ...] = (),
    games: int = GAMES,
    arguments: Arguments | None = None,
) -> KitCost | None:
    """The figures of a kit with this seating (see the module docs); None when the game's kind
    does not say what its virtual decisions' tables are (then a kit states no figures it cannot
    back)."""
    rules = load_game(ruleset) if isinstance(ruleset, str) else ruleset
    proto = library.protocol(protocol)
    base = proto.source.get("variant_of")
    names = [protocol, *([str(base)] if base else [])]
    found = costed_times(library, rules.name, names, players, virtual, options, games, arguments)
    if found is None:
        return None
    own = found[protocol]
    first = next(iter(own.values()))
    largest = max(first.largest_table, 1)
    unit = "sleeves" if sleeved(proto) else "columns"
    rows = 1 if sleeved(proto) else first.column_cards or cards_per_column(proto)
    footprint = Footprint.of(largest, card_mm, rows)
    paper = paper_fp = None
    if base:
        paper_proto = library.protocol(str(base))
        paper = found[str(base)]
        paper_first = next(iter(paper.values()))
        paper_fp = Footprint.of(largest, card_mm, paper_first.column_cards or cards_per_column(paper_proto))
    compared = []
    for other in compare_with:
        orules = load_game(other)
        lo, hi, _ = getattr(orules, "players", (players, players, players))
        n = min(max(players, lo), hi)
        v = min(virtual, n)
        oproto = str(getattr(orules, "virtual_protocol", protocol))
        theirs = costed_times(library, other, [oproto], n, v, options, games)
        if theirs is not None:
            compared.append((orules.title, n, v, theirs[oproto]))
    draw = (options or {}).get("virtual_draw") or getattr(rules, "virtual_draw", None)
    return KitCost(
        rules.title,
        players,
        virtual,
        own,
        footprint,
        unit,
        paper,
        paper_fp,
        tuple(compared),
        None if draw is None else str(draw),
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
    library: Library,
    rules: GameRules,
    plan: Seating,
    options: Mapping[str, object] | None = None,
    games: int = GAMES,
    arguments: Arguments | None = None,
) -> KitCost | None:
    """The figures of a game kit's plan (``KitPlan``), or None without virtual players."""
    if not plan.virtual:
        return None
    names = rules.kit.get("compare_with", [])
    compare = (names,) if isinstance(names, str) else tuple(str(n) for n in names)
    size = plan.card_mm
    return kit_cost(
        library,
        rules,
        plan.protocol,
        plan.players,
        plan.virtual,
        size,
        options,
        compare,
        games,
        arguments,
    )


def run_timer(
    library: Library,
    rules: GameRules,
    proto: Protocol,
    players: int,
    virtual: int,
    people: int,
    options: Mapping[str, object],
    models: tuple[TimeModel, ...],
) -> RunTimer:
    wild4 = str(options.get("wild4") or "strict")
    discard = bool(options.get("discard_owner", False))
    seating = PlaySettings(players, max(1, virtual), options={"discard_owner": discard, "wild4": wild4})
    kind = find_kind(rules.kind)
    moment = kind.example_moment(rules, library, seating)
    deck: list[Symbol] = [c for owner in moment.owners for c in owner]
    context: dict[str, Callable[..., object]] = {}
    params: dict[str, int] = {}
    # As the game runs it (kinds/virtual.py, kinds/shedding/play.py): a spec that can draw for
    # P_1 in its own run does so only where the rules let the game draw that way (one card, played
    # at once if valid); a game that draws otherwise is timed without the in-run draw.
    if draw_pile(proto, 2, {"draw": 1}) is not None:
        params["draw"] = int(kind.draws_in_run(rules, options))
    if "weight" in proto.context:  # a weighted virtual player: the weights it follows
        given = options.get("weights")  # play's option: text, or a record's mapping
        weights = (
            Weights.of(given) if isinstance(given, Mapping) else Weights.parse(str(given)) if given else None
        )
        if weights is None:
            raise UsageError(f"{proto.name} takes a virtual player's weights; none were given")
        context["weight"] = find_kind(rules.kind).weight_function(rules, weights)
        params["w"] = weights.largest
    return RunTimer(
        library, proto, deck, moment.valid, max(1, people), models, context=context, params=params
    )


def cards_per_column(proto: Protocol) -> int:
    """Cards per column of the protocol's matrix as the table lays it out: one sleeve; the card,
    its owner card and the bit pair (the paper's card selection); the card, its owner card and
    its ownership pairs (Daifugō's play selection, ``copies`` pairs)."""
    if sleeved(proto):
        return 1
    if "strength" in proto.context:
        copies = proto.params.get("copies")
        default = copies.default if copies is not None else None
        return 2 + 2 * (default if isinstance(default, int) else 3)
    return 4 if "valid" in proto.context else 1


def build_warnings(costs: Costs | None, sheets: int) -> list[str]:
    """What a kit asks that nobody should print without being told: a turn over
    :data:`TURN_WARNING_MINUTES` minutes (cautious), more than :data:`SHEETS_WARNING` sheets of
    card stock. One sentence each."""
    out = []
    if costs is not None:
        what, minutes = costs.longest_turn()
        if minutes > TURN_WARNING_MINUTES:
            out.append(
                _(
                    "{what} takes up to {span} at the table (cautious estimate), more than {limit} "
                    "minutes: think twice before printing, or choose a smaller deck, more people or "
                    "fewer virtual players"
                ).format(what=turn_words(what), span=span(minutes, None), limit=f"{TURN_WARNING_MINUTES:.0f}")
            )
    if sheets > SHEETS_WARNING:
        out.append(
            _(
                "the kit prints {sheets} sheets of card stock, more than {limit}: check the shopping "
                "list before printing"
            ).format(sheets=sheets, limit=SHEETS_WARNING)
        )
    return out


__all__ = [
    "ESTIMATE",
    "FIGURES",
    "GAMES",
    "SHEETS_WARNING",
    "TURN_WARNING_MINUTES",
    "Arguments",
    "Costs",
    "Footprint",
    "KitCost",
    "PlayedGame",
    "build_warnings",
    "cards_per_column",
    "costed_times",
    "kit_cost",
    "plan_cost",
    "run_timer",
    "sleeved",
]
