"""The kit of a tile game (Dominoes, Muggins): the tiles printed as cards of a tile's
proportions, the card selection table, a booklet."""

from __future__ import annotations

from reference_engine.api import GameRules, Moment, Symbol

from ..faces import Face
from .kind import register
from .table import TableKit


def tile_face(tile: Symbol) -> Face:
    return Face("tile", tile.name, tile.glyph, (str(tile.attrs["low"]), str(tile.attrs["high"])))


@register
class TilesKit(TableKit):
    kind = "tiles"
    default_card_size = "domino"
    piles = ("Boneyard",)
    table_middle = ("Line of tiles",)

    def deck_faces(self, rules: GameRules) -> list[Face]:
        return [tile_face(t) for t in rules.cards_by_name().values()]

    def deck_face(self, rules: GameRules, name: str) -> Face | None:
        tiles = rules.cards_by_name()
        return tile_face(tiles[name]) if name in tiles else None

    def moment_record(self, moment: Moment) -> dict[str, object]:
        ends = moment.public["ends"]
        return {"ends": [ends[0][0], ends[1][0]], "line": [t.name for t in moment.public["line"]]}

    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        ends = moment.public["ends"]
        hand = moment.owners[0]
        n_valid = sum(1 for t in hand if moment.valid(t))
        names = owners + list(self.piles)
        who = ", ".join(f"{o}: {len(t)}" for o, t in zip(names, moment.owners))
        return (
            f"Worked example: a real moment of a seeded game (game seed {moment.seed}). It is "
            f"{owners[0]}'s turn; the open ends of the line show {ends[0][0]} and {ends[1][0]}. Tiles in "
            f"play: {sum(len(t) for t in moment.owners)} ({who}). {owners[0]} holds "
            f"{', '.join(t.glyph for t in hand)}: {n_valid} of them match an open end. The pictures show "
            "the table as everyone sees it; the shuffles fall as a seeded random draw made them (seed 1)."
        )
