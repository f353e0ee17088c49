"""Game kinds: each kind of game is a plug-in, found by name (as python-chess finds variants).

A rule set in ``rulesets/games/`` names its kind (``kind: sealed-bid``; without it,
``shedding``). A kind is one package here that registers a :class:`GameKind`: how its rule
sets load, how a whole game is played (at rule level and at card level, every virtual
decision running a protocol on the simulated table with checks), how a game protocol is set
up for exact verification in a scenario (a reduced deck) and statistically on the full deck,
and what a kit must hold (the largest tables a virtual decision sees in simulated games).
Nothing outside a kind's package tests a kind by name: callers ask :func:`find_kind` or
:func:`load_game`, and a new game of an existing kind is YAML only.
"""

from __future__ import annotations

from . import climbing, layout, sealed_bid, shedding, tiles, trick, uno_puzzles  # they register themselves
from .deals import Deal, FullDeal, ProblemAt, ScenarioSetting, Validity, owner_sizes
from .kind import (
    DEFAULT_KIND,
    GameKind,
    GameRules,
    PlayOption,
    PlaySettings,
    TableCounts,
    find_kind,
    kinds,
    register,
)
from .ruleset import (
    RULESET_TEXT_LIMITS,
    catalogue,
    games_dir,
    is_game,
    kind_name,
    kind_of,
    load_game,
    rules_path,
)

__all__ = [
    "DEFAULT_KIND",
    "RULESET_TEXT_LIMITS",
    "Deal",
    "FullDeal",
    "GameKind",
    "GameRules",
    "PlayOption",
    "PlaySettings",
    "ProblemAt",
    "ScenarioSetting",
    "TableCounts",
    "Validity",
    "catalogue",
    "climbing",
    "find_kind",
    "games_dir",
    "is_game",
    "kind_name",
    "kind_of",
    "kinds",
    "layout",
    "load_game",
    "owner_sizes",
    "register",
    "rules_path",
    "sealed_bid",
    "shedding",
    "tiles",
    "trick",
    "uno_puzzles",
]
