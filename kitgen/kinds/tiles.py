"""The kit of a tile game (Dominoes, Muggins): the tiles printed as cards of a tile's
proportions, the card selection table, a booklet."""

from __future__ import annotations

from reference_engine.api import GameRules, Moment, Symbol

from ..lang.catalogue import N_, _
from ..lang.seats import seat_name
from ..paper.faces import Face
from .kind import register
from .table import TableKit, moment_words


def tile_face(tile: Symbol) -> Face:
    return Face("tile", tile.name, tile.glyph, (str(tile.attrs["low"]), str(tile.attrs["high"])))


@register
class TilesKit(TableKit):
    kind = "tiles"
    default_card_size = "domino"
    piles = ("Boneyard",)
    table_middle = ("Line of tiles",)
    turn_words = N_(
        "the card selection protocol for it, which plays one of its tiles that fit an open end, "
        "chosen uniformly at random"
    )

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
        situation = _("It is {owner}'s turn; the open ends of the line show {first} and {second}").format(
            owner=seat_name(owners[0]), first=ends[0][0], second=ends[1][0]
        )
        return moment_words(
            moment, owners + list(self.piles), situation, _("Tiles in play"), _("match an open end")
        )
