"""What a game played with ``kitgen play`` would have taken at a real table.

The same model as a kit's figures (:mod:`kitgen.cost.kitcost`): every virtual decision's table the
game recorded, costed under every profile, a person's ordinary turns added; each minute figure
with its cautious one beside it, and one sentence for the console.
"""

from __future__ import annotations

import typing
from typing import TypedDict

from reference_engine.api import GameRules, Library, PlayResult, TableResult

from ..core.durations import about_range
from .gametime import PlayedGame, cost_tables, game_times
from .kitcost import both, run_timer, with_cautious
from .tabletime import people_text
from .timemodel import time_models


class PlayedCost(TypedDict, total=False):
    """What a played game would cost at a real table (``kitgen play``): each minute figure with
    its cautious one beside it (``..._cautious``)."""

    protocol: str
    people: int
    protocol_runs: int
    protocol_minutes: float
    protocol_minutes_cautious: float
    virtual_turn_minutes: float
    virtual_turn_minutes_cautious: float
    game_minutes: float
    game_minutes_cautious: float
    ordinary_turn_seconds: float
    text: str


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
    models = time_models()
    timer = run_timer(
        library, rules, library.protocol(protocol), players, virtual, players - virtual, options, models
    )
    played = PlayedGame(
        result.turns,
        result.virtual_turns,
        [(int(t["sizes"][0]), int(sum(t["sizes"])), bool(t["found"])) for t in tables],
    )
    times = game_times(cost_tables([played], timer), protocol, timer.people, models)
    game = next(iter(times.values()))
    out: PlayedCost = {"protocol": protocol, "people": game.people, "protocol_runs": len(tables)}
    figures: dict[str, object] = {}
    with_cautious(figures, "protocol_minutes", *both(times, lambda t: t.protocol_minutes_mean))
    with_cautious(figures, "virtual_turn_minutes", *both(times, lambda t: t.turn_minutes))
    with_cautious(figures, "game_minutes", *both(times, lambda t: t.game_minutes_mean))
    out.update(typing.cast(PlayedCost, figures))
    out["ordinary_turn_seconds"] = timer.model.ordinary_turn
    game_words = about_range(*both(times, lambda t: t.game_minutes_mean))
    turn_words = about_range(*both(times, lambda t: t.turn_minutes))
    out["text"] = (
        f"At a real table, with {people_text(game.people)}: {game_words} ({len(tables)} runs of the "
        f"protocol, {turn_words} per virtual turn; kitgen's estimate, from quick shuffles and perfect "
        "teamwork to slower ones)."
    )
    return out


__all__ = ["PlayedCost", "played_cost"]
