"""What a game without a dealer costs at the table: a round, and a whole game with its bundles.

Both players do the work together. A round is one traced run of the round protocol (its
actions do not depend on the bundles submitted: a test checks it), scheduled for the two of
them under every profile of the table-time model, plus the moment both choose their sleeves (a
person's ordinary turn, both at once). A whole game makes every bundle first (each: its cards
laid out face up, turned face down one by one into a stack, slid into a sleeve, a label put on;
the two players share the bundles), then plays the rounds simulated games needed (two or three).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reference_engine.api import (
    Event,
    Library,
    PlayResult,
    PlaySettings,
    SealedBidResult,
    SealedBidRules,
    play,
)

from ...booklet.examples import spec_example
from ...core.durations import about_range
from ...core.figurecache import FigureCache
from ...cost.kitcost import GAMES, Costs, Footprint, with_cautious
from ...cost.tabletime import people_text, schedule
from ...cost.tablework import action_counts, spec_hints
from ...cost.timemodel import TimeModel, model_json, time_models
from ...cost.timewords import RANGE_NOTE, ROUND_ESTIMATE
from ...lang.catalogue import _, number

Profiles = Mapping[str, float]  # seconds under each profile, optimistic first


@dataclass(frozen=True)
class RoundCost(Costs):
    game_title: str
    players: int
    protocol: str
    round: Profiles  # one round's protocol run
    choose: Profiles  # both players choose their sleeves
    bundle: Profiles  # making every bundle
    bundles: int
    rounds: tuple[int, ...]  # the rounds of each simulated game
    shuffles: int  # of one round
    footprint: Footprint | None
    unit: str = "cards in a row"

    def _pair(self, seconds: Mapping[str, float]) -> tuple[float, float | None]:
        first = next(iter(seconds.values()))
        cautious = seconds.get("cautious")
        return seconds.get("optimistic", first) / 60, None if cautious is None else cautious / 60

    def _games(self, profile: str) -> list[float]:
        one = self.round[profile] + self.choose[profile]
        return [(self.bundle[profile] + n * one) / 60 for n in self.rounds]

    def _game(self, q: float | None) -> Profiles:
        def figure(values: list[float]) -> float:
            if q is None:
                return statistics.fmean(values) * 60
            ordered = sorted(values)
            return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] * 60

        return {p: figure(self._games(p)) for p in self.round}

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        with_cautious(out, "round_minutes", *self._pair(self.round))
        with_cautious(out, "bundle_minutes", *self._pair(self.bundle))
        with_cautious(out, "game_minutes", *self._pair(self._game(None)))
        with_cautious(out, "game_minutes_p90", *self._pair(self._game(0.9)))
        out |= {
            "rounds_per_game": round(statistics.fmean(self.rounds), 1) if self.rounds else 0.0,
            "bundles": self.bundles,
            "shuffles_per_round": self.shuffles,
            "table_width_cm": self.footprint.width_cm if self.footprint else None,
            "table_depth_cm": self.footprint.depth_cm if self.footprint else None,
            "players": self.players,
            "people": self.players,
            "games": len(self.rounds),
            "protocol": self.protocol,
            "profiles": list(self.round),
            "text": self.sentences(),
        }
        return out

    def sentences(self) -> list[str]:
        mean = statistics.fmean(self.rounds) if self.rounds else 0.0
        out = [
            _(
                "A round takes {round} with {people}; a whole game, making the {bundles} bundles first, "
                "{game} on average ({rounds} rounds per game in {games} simulated games) and {p90} in "
                "nine games out of ten."
            ).format(
                round=about_range(*self._pair(self.round)),
                people=people_text(self.players),
                bundles=number(self.bundles),
                game=about_range(*self._pair(self._game(None))),
                rounds=f"{mean:.1f}",
                games=number(len(self.rounds)),
                p90=about_range(*self._pair(self._game(0.9))),
            ),
            _(
                "Making the {bundles} bundles together takes {time} (each: its cards laid out face up, "
                "turned face down into a stack, slid into a sleeve, a label on)."
            ).format(bundles=number(self.bundles), time=about_range(*self._pair(self.bundle))),
        ]
        if self.footprint is not None:
            out.append(self.footprint.sentence(self.unit))
        out.append(_(ROUND_ESTIMATE) + " " + _(RANGE_NOTE))
        return out

    def cover_sentence(self) -> str:
        return _("A round takes {round} for the two of you; a whole game, bundles made, {game}.").format(
            round=about_range(*self._pair(self.round)), game=about_range(*self._pair(self._game(None)))
        )

    def summary(self) -> dict[str, object]:
        out: dict[str, object] = {"turn": "round"}
        with_cautious(out, "turn_minutes", *self._pair(self.round))
        with_cautious(out, "first_turn_minutes", *self._pair(self.round))
        with_cautious(out, "game_minutes_mean", *self._pair(self._game(None)))
        with_cautious(out, "game_minutes_p90", *self._pair(self._game(0.9)))
        return out | {
            "table_width_cm": self.footprint.width_cm if self.footprint else None,
            "table_depth_cm": self.footprint.depth_cm if self.footprint else None,
            "players": self.players,
            "virtual": 0,
            "people": self.players,
            "games": len(self.rounds),
            "protocol": self.protocol,
            "virtual_draw": None,
            "paper_protocol": None,
            "paper_turn_minutes": None,
            "paper_turn_minutes_cautious": None,
        }

    def longest_turn(self) -> tuple[str, float]:
        low, high = self._pair(self.round)
        return "a round", high if high is not None else low


def _seconds(models: tuple[TimeModel, ...], each: dict[str, float]) -> Profiles:
    return {m.profile: each[m.profile] for m in models}


def round_cost(
    library: Library, rules: SealedBidRules, protocol: str, card_mm: tuple[float, float], games: int = GAMES
) -> RoundCost:
    """The figures of a game of ``rules`` without a dealer, its rounds run with ``protocol``."""
    models = time_models()
    request = {"what": "sealed-bid rounds", "ruleset": rules.name, "protocol": protocol, "games": games}

    def compute() -> dict[str, object]:
        proto = library.protocol(protocol)
        sim = spec_example(proto, library).run(library, proto)
        hints = spec_hints(library.protocol)
        events = sim.trace.events
        rounds = [
            _rounds(play(rules.name, library, PlaySettings(2, 0, "rule", seed))) for seed in range(games)
        ]
        return {
            "round": {m.profile: sum(s.seconds for s in schedule(events, 2, m, hints)) for m in models},
            "shuffles": action_counts(events, hints)["shuffle"],
            "widest": _widest(events),
            "rounds": rounds,
        }

    data = FigureCache().get(library, request, [model_json(m) for m in models], compute)
    bundles = 2 * len(rules.hand("dealerless"))
    per = {"place": rules.bundle + 1, "turn": rules.bundle, "move": 1}  # a bundle's actions
    bundle = {
        m.profile: bundles * sum(n * m.seconds[a] for a, n in per.items()) / m.speedup(2) for m in models
    }
    choose = {m.profile: m.ordinary_turn for m in models}
    columns, rows = data["widest"]
    return RoundCost(
        rules.title,
        2,
        protocol,
        _seconds(models, data["round"]),
        choose,
        bundle,
        bundles,
        tuple(int(n) for n in data["rounds"]),
        int(data["shuffles"]),
        Footprint.of(int(columns), card_mm, int(rows)) if columns else None,
    )


def _rounds(result: PlayResult) -> int:
    """The rounds a simulated game played."""
    if not isinstance(result, SealedBidResult):
        raise TypeError(f"{result.game}: not a sealed-bid game's result")
    return len(result.rounds)


def _widest(events: Sequence[Event]) -> list[int]:
    """The most columns of a region the round lays out, and that region's rows."""
    cols, rows = max(((r["cols"], r["rows"]) for e in events for r in e.after.regions), default=(0, 1))
    return [cols, rows]


__all__ = ["RoundCost", "round_cost"]
