"""What each kind of game adds to a printed kit: the kit half of a game-kind plug-in.

The engine's kinds (``reference_engine.kinds``) say how a game loads and plays; a
:class:`KitKind` here says what its kit holds (the bill of materials, labels, extra sheets
such as Gakmoro's bundle sheet), the booklet's first chapters (setting up, the rules, a
virtual player's turn or a round), and how ``kitgen play`` reports a game. Kit kinds are
found by the engine kind's name (:func:`kit_kind`); nothing outside a kind's own module
tests a kind by name.
"""

from __future__ import annotations

from . import climbing, layout, sealed_bid, shedding, tiles, trick, uno_puzzles  # they register themselves
from .kind import (
    CARD_KIT_OPTIONS,
    COMMON_OPTIONS,
    BookletInput,
    BookletPlan,
    KitKind,
    KitPlan,
    default_labels,
    kit_kind,
    register,
)

__all__ = [
    "CARD_KIT_OPTIONS",
    "COMMON_OPTIONS",
    "BookletInput",
    "BookletPlan",
    "KitKind",
    "KitPlan",
    "climbing",
    "default_labels",
    "kit_kind",
    "layout",
    "register",
    "sealed_bid",
    "shedding",
    "tiles",
    "trick",
    "uno_puzzles",
]
