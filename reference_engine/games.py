"""Playing a whole game of a rule set of any kind, and recording it (docs/records.md).

:func:`play` loads the rule set, checks the options against its kind and plays with the engine
the settings name; :func:`record_game` plays the same way with a recorder and builds the game's
record. The API (:mod:`reference_engine.api`) and the replay of a record
(:mod:`reference_engine.replay`) both use them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from .errors import UsageError
from .kinds import GameKind, PlaySettings, find_kind, is_game, kinds, load_game, rules_path
from .kinds.result import PlayResult
from .records import document
from .records.recorder import Recorder
from .registry import Library
from .selection import ENGINE, ENGINES


def play(
    name_or_path: str, library: Library | None = None, settings: PlaySettings | None = None
) -> PlayResult:
    """Play a whole game of a rule set of any kind; its result (``to_json()``: as data)."""

    rules = load_game(name_or_path)
    settings = settings or PlaySettings()
    if settings.engine not in (*ENGINES, "auto"):
        raise UsageError(f"«engine» is {' or '.join(ENGINES)}, not {settings.engine!r}")
    kind = find_kind(rules.kind)
    _check_options(rules.name, kind, settings.options)
    token = ENGINE.set(settings.engine)
    try:
        return kind.play(rules, library or Library(), settings)
    finally:
        ENGINE.reset(token)


def record_game(
    name_or_path: str, library: Library | None = None, settings: PlaySettings | None = None
) -> tuple[PlayResult, dict[str, Any]]:
    """Play a whole game as :func:`play` does and write its record (the referee's copy, see
    docs/records.md): the result, and the record as data."""

    rules = load_game(name_or_path)
    kind = find_kind(rules.kind)
    if not kind.records:
        raise UsageError(f"{rules.name}: games of the {kind.name} kind write no record")
    settings = settings or PlaySettings()
    recorder = Recorder()
    result = play(name_or_path, library, replace(settings, recorder=recorder))
    names = {o.name for o in kind.play_options}
    played_with = {
        "players": settings.players,
        "virtual": settings.virtual,
        "level": settings.level,
        "seed": settings.seed,
        "protocol": settings.protocol,
        "engine": _engine_of(settings.engine, result),
        "options": {k: v for k, v in sorted(settings.options.items()) if k in names},
    }
    source = rules.name if is_game(name_or_path) else str(Path(name_or_path).resolve())
    record = document.build(
        rules, kind.name, source, rules_path(name_or_path), played_with, result.to_json(), recorder
    )
    return result, record


def _check_options(game: str, kind: GameKind, options: dict[str, Any]) -> None:
    """An option of another kind's games, given with a value of its own, is refused (``--strategy
    weighted`` is for shedding games; Sevens would silently ignore it)."""
    mine = {o.name for o in kind.play_options}
    for name, value in options.items():
        if name in mine or value is None or value is False:
            continue
        defaults = {o.default for k in kinds().values() for o in k.play_options if o.name == name}
        if value in defaults:
            continue
        flag = "--" + name.replace("_", "-")
        raise UsageError(f"{flag} is not an option of {game} ({kind.name} games): {kind.summary}")


def _engine_of(asked: str, result: PlayResult) -> str:
    """The engine a record names: the one asked for, or for "auto" the one that ran the game's
    protocol (the compiled path where it compiles; compiled for a game without protocol runs)."""
    if asked != "auto":
        return asked
    used = result.to_json().get("engine_used")
    return used if used in ENGINES else "compiled"
