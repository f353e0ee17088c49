"""The kit of a layout game (Sevens): the standard deck, the card selection table, a booklet."""

from __future__ import annotations

from reference_engine.api import GameRules, Moment

from ..lang.catalogue import _
from ..lang.seats import seat_name
from .kind import register
from .table import TableKit, colour_word, moment_words


@register
class LayoutKit(TableKit):
    kind = "layout"
    table_middle = ("Layout",)

    def moment_record(self, moment: Moment) -> dict[str, object]:
        return {"runs": {suit: list(span) for suit, span in sorted(moment.public["runs"].items())}}

    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        runs = moment.public["runs"]
        layout = _("; ").join(
            _("{suit} {low} to {high}").format(suit=colour_word(suit), low=lo, high=hi)
            for suit, (lo, hi) in sorted(runs.items())
        )
        situation = _("It is {owner}'s turn; on the table: {layout}").format(
            owner=seat_name(owners[0]), layout=layout
        )
        return moment_words(moment, owners, situation, _("Cards in the hands"), _("may be played"))
