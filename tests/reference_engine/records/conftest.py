"""Records of every rule set at both levels, played once per session and checked against the
record schema with the ``jsonschema`` library (the schema validates every record the tests write)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from reference_engine.api import RECORD_SCHEMA, Library, PlaySettings, record_game, record_text

SCHEMA = json.loads(RECORD_SCHEMA.read_text(encoding="utf-8"))

# Every rule set, with options that keep a game short and reach what the record must show:
# uno-official's challenge and scoring (bluffing virtual players; all people for the strict rule),
# Hearts with passing, Gakmoro with and without a dealer.
GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("uno", {}, 2),
    ("uno-official", {"wild4": "bluff", "hands": 2}, 2),
    ("uno-official", {"hands": 2}, 0),
    ("uno-small", {}, 2),
    ("crazy-eights", {}, 2),
    ("sevens", {}, 2),
    ("hearts", {"pass_three": True, "rounds": 2}, 2),
    ("dominoes", {}, 2),
    ("daifugo", {}, 2),
    ("gakmoro", {}, 0),
]
LEVELS = ("rule", "card")
CASES = [
    (g, o, v, lv)
    for g, o, v in GAMES
    for lv in LEVELS
    if not (g == "uno-official" and v == 0 and lv == "card")
]
CASES.append(("gakmoro", {"variant": "dealer"}, 0, "rule"))


def case_id(case: tuple[str, dict[str, Any], int, str]) -> str:
    name, opts, virtual, level = case
    extra = ",".join(f"{k}={v}" for k, v in sorted(opts.items()))
    return f"{name}-{level}-v{virtual}" + (f"-{extra}" if extra else "")


def schema_valid(record: dict[str, Any]) -> dict[str, Any]:
    """The record as its file holds it, after the jsonschema library has validated it."""
    data: dict[str, Any] = json.loads(record_text(record))
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    return data


_PLAYED: dict[str, dict[str, Any]] = {}


@pytest.fixture(scope="session")
def recorded() -> Callable[..., dict[str, Any]]:
    """``recorded(name, level, virtual=2, seed=1, **options)``: a fresh copy of that game's
    record (played once per session), validated against the schema."""

    def get(name: str, level: str, virtual: int = 2, seed: int = 1, **options: Any) -> dict[str, Any]:
        key = json.dumps([name, level, virtual, seed, options], sort_keys=True)
        if key not in _PLAYED:
            settings = PlaySettings(virtual=virtual, level=level, seed=seed, options=options)
            _, record = record_game(name, Library(), settings)
            _PLAYED[key] = schema_valid(record)
        return copy.deepcopy(_PLAYED[key])

    return get
