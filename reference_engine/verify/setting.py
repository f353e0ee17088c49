"""What a verification runs with: parameters, and for a game protocol a scenario of its game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Symbol
from ..errors import SimulationError, UsageError
from ..report import Scenario
from ..spec import Params, Protocol
from .classes import ClassDeck, Table


@dataclass
class Setting:
    """What a verification runs with: parameters, game functions and a deck to deal."""

    params: Params
    context: dict[str, Any] = field(default_factory=dict)
    deal: list[Symbol] | None = None
    scenario: Scenario | None = None
    classes: ClassDeck | None = None  # a verification by validity classes (see .classes)


def table_setting(proto: Protocol, table: Table, params: Params | None = None) -> Setting:
    """Bind a game protocol to a table verified by classes: the game's functions for its public
    state, the dealt cards by class (see :mod:`.classes`), ``sizes`` from the table."""
    from ..kinds import find_kind, kind_name, load_game

    if not proto.context:
        raise UsageError(f"{proto.name} is not a game protocol: it takes no function from a game")
    if "sizes" not in proto.params:
        raise UsageError(f"{proto.name} has no parameter 'sizes' for the hands of a table")
    rules = load_game(table.game)

    def problem(path: tuple[str | int, ...], message: str) -> Exception:
        return UsageError(f"{table.game}: {message}")

    bound = find_kind(kind_name(table.game)).scenario(rules, table.state_dict(), list(table.deck), problem)
    missing = [k for k in proto.context if k not in bound.context]
    if missing:
        raise UsageError(f"{table.game} does not supply {', '.join(missing)} for {proto.name}")
    context = {k: v for k, v in bound.context.items() if k in proto.context}
    classes = ClassDeck(bound.deal, list(table.sizes), context)
    merged = {**(params or {}), "sizes": tuple(table.sizes)}
    info: Scenario = {
        "name": "table",
        "doc": table.text,
        "game": table.game,
        "deal": [],
        "state": bound.state_text,
    }
    return Setting(proto.resolve_params(merged), classes.context(), None, info, classes)


def setting(proto: Protocol, params: Params | None = None, scenario: str | None = None) -> Setting:
    """Bind a protocol to its parameters and, for game protocols, to a scenario (a reduced deck)."""
    if scenario is None and proto.context:
        if not proto.scenarios:
            raise UsageError(
                f"{proto.name} needs a game (functions {', '.join(proto.context)}) "
                "but declares no scenario to verify it in"
            )
        scenario = next(iter(proto.scenarios))
    if scenario is None:
        return Setting(proto.resolve_params(params))
    if scenario not in proto.scenarios:
        known = ", ".join(proto.scenarios) or "none"
        raise UsageError(f"{proto.name} has no scenario {scenario!r} (scenarios: {known})")
    from ..kinds import find_kind, kind_name, load_game

    sc = proto.scenarios[scenario]
    rules = load_game(sc.game)

    def problem(path: tuple[str | int, ...], message: str) -> Exception:
        return SimulationError("", proto.src.problem(sc.path + path, message))

    bound = find_kind(kind_name(sc.game)).scenario(rules, sc.state, sc.deal, problem)
    # Only the functions the protocol takes from its game (its 'context') are bound.
    context = {k: v for k, v in bound.context.items() if k in proto.context}
    merged = {**sc.params, **(params or {})}
    info: Scenario = {
        "name": sc.name,
        "doc": sc.doc,
        "game": sc.game,
        "deal": [d.glyph for d in bound.deal],
        "state": bound.state_text if context else "",
    }
    return Setting(proto.resolve_params(merged), context, bound.deal, info)
