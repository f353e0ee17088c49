"""Seat and pile names at kitgen's display boundary (docs/languages.md).

The engine names the owners of a card selection table in English, and keeps those names as data
(records, manifests, ``owner.startswith("Human")``): ``Virtual 1``, ``Human 2``, ``Draw pile``,
``Discard pile``, ``Boneyard``. Wherever kitgen shows such a name to a player (pictures, the
legend, the set-up chapter, the θ cards and seat cards), :func:`seat_name` says it in the active
language; a rule set's player (Alice) as its overlay says it (kitgen.lang.overlay.player_name);
any other name (a spec's own owner) comes back as it is.
"""

from __future__ import annotations

import re

from .catalogue import N_, _
from .overlay import player_name

SEAT = re.compile(r"(Virtual|Human) ([0-9]+)")
PLACES = {"Trick": N_("Trick"), "Layout": N_("Layout"), "Line of tiles": N_("Line of tiles")}


def seat_name(name: str) -> str:
    """``name`` (an engine's seat or pile name) in the active language."""
    m = SEAT.fullmatch(name)
    if m is not None:
        n = m.group(2)
        return _("Virtual {n}").format(n=n) if m.group(1) == "Virtual" else _("Human {n}").format(n=n)
    if name == "Draw pile":
        return _("Draw pile")
    if name == "Discard pile":
        return _("Discard pile")
    if name == "Boneyard":
        return _("Boneyard")
    if name in PLACES:  # a kind's own place in the middle of the table (its `table_middle`)
        return _(PLACES[name])
    return player_name(name)  # a rule set's player (Alice), as its overlay says it
