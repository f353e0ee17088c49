"""The kit of a layout game (Sevens): the standard deck, the card selection table, a booklet."""

from __future__ import annotations

from reference_engine.api import GameRules, Moment

from .kind import register
from .table import TableKit, moment_words


@register
class LayoutKit(TableKit):
    kind = "layout"
    table_middle = ("Layout",)

    def moment_record(self, moment: Moment) -> dict[str, object]:
        return {"runs": {suit: list(span) for suit, span in sorted(moment.public["runs"].items())}}

    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        runs = moment.public["runs"]
        layout = "; ".join(f"{suit} {lo} to {hi}" for suit, (lo, hi) in sorted(runs.items()))
        situation = f"It is {owners[0]}'s turn; on the table: {layout}"
        return moment_words(moment, owners, situation, "Cards in the hands", "may be played")
