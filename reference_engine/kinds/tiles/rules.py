"""Tile games (Dominoes, Muggins / All Fives): rectangular tiles with two numbers, played on the
two open ends of a line.

A rule set (``kind: tiles``) says which set (double-six: every pair of 0..6, 28 tiles), how many
tiles each player draws, the multiple that scores (5: when the open ends add up to a multiple of
five, the player scores the sum), and the public rule for a tile that fits both ends. Tiles are
cards for the protocol: ``t56`` is the tile 5|6, with identical backs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ...cards import SYMBOLS, Symbol
from ..deck import hands_fit
from ..deck import players as parse_players
from ..table import TableRules, open_rule_set, table_fields, table_keys
from ..virtual import one_card

KIND = "tiles"
KEYS = table_keys("tiles", "scoring", hand_size=True)
BOTH_ENDS = ("scoring_end_else_coin",)

# An open end of the line: its number, and whether the tile there is a doublet (it counts twice).
End = tuple[int, bool]


def tile_name(a: int, b: int) -> str:
    low, high = sorted((a, b))
    return f"t{low}{high}"


@dataclass(kw_only=True)
class TileRules(TableRules):
    kind: ClassVar[str] = KIND
    hand_size: int
    top: int  # the highest number (6 for a double-six set)
    multiple: int  # open ends adding up to a multiple of this score (5)
    both_ends: str
    word: str = "number"

    def symbol(self, name: str) -> Symbol:
        low, high = int(name[1]), int(name[2])
        return SYMBOLS.intern(
            name,
            f"{low}|{high}",
            {
                "low": low,
                "high": high,
                "pips": low + high,
                "double": low == high,
                "kind": "tile",
                "color": "tile",
            },
        )

    def tiles(self) -> list[Symbol]:
        return [self.symbol(tile_name(a, b)) for a in range(self.top + 1) for b in range(a, self.top + 1)]

    def deck(self) -> list[Symbol]:
        return self.tiles()

    def cards_by_name(self) -> dict[str, Symbol]:
        return {t.name: t for t in self.tiles()}

    def doublets(self) -> list[Symbol]:
        """From the highest down."""
        return [self.symbol(tile_name(v, v)) for v in range(self.top, -1, -1)]

    @staticmethod
    def fits(tile: Symbol, value: int) -> bool:
        return value in (tile.attrs["low"], tile.attrs["high"])

    def validity(self, ends: tuple[End, End] | None, only: Symbol | None = None) -> Callable[[Any], bool]:
        """``valid(tile)``: a half matches an open end (``ends`` None: the first tile, ``only``)."""

        def valid(card: Any) -> bool:
            tile = one_card(card)
            if ends is None:
                return tile == only
            return self.fits(tile, ends[0][0]) or self.fits(tile, ends[1][0])

        return valid

    @staticmethod
    def count(ends: tuple[End, End], single: Symbol | None) -> int:
        """What the open ends add up to (a doublet at an end counts both halves; a line of one
        tile counts its pips)."""
        if single is not None:
            return int(single.attrs["pips"])
        return sum(v * 2 if double else v for v, double in ends)


def load_tiles(path: Path, expected_name: str | None) -> TileRules:
    f = open_rule_set(path, ("game", "kind", "title", "tiles"), KEYS, "a tile game")
    ck, doc = f.ck, f.doc
    ts = f.section("tiles", ("top",), ("doc",))
    top = ck.integer(ts.get("top", 6), ("tiles", "top"), minimum=1) or 6
    if top > 9:
        ck.error(("tiles", "top"), "tiles go up to 9 at most (a tile is named by two digits)")
    sc = f.section("scoring", optional=("multiple", "both_ends", "doc"))
    multiple = ck.integer(sc.get("multiple", 5), ("scoring", "multiple"), minimum=1) or 5
    both = str(sc.get("both_ends", BOTH_ENDS[0]))
    if both not in BOTH_ENDS:
        ck.error(("scoring", "both_ends"), f"one of {', '.join(BOTH_ENDS)}")
    players = parse_players(ck, doc.get("players", {}))
    hand = ck.integer(doc.get("hand_size", 5), ("hand_size",), minimum=1) or 5
    n_tiles = (top + 1) * (top + 2) // 2
    hands_fit(ck, hand, players[1], n_tiles, f"the {n_tiles} tiles")
    return TileRules(
        hand_size=hand,
        top=top,
        multiple=multiple,
        both_ends=both,
        **table_fields(
            f, expected_name, protocol="card-selection", doc=str(sc.get("doc", "")), players=players
        ),
    )
