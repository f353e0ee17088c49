"""The kit of a layout game (Sevens): the standard deck, the card selection table, a booklet."""

from __future__ import annotations

from reference_engine.api import GameRules, Moment

from .kind import register
from .table import TableKit


@register
class LayoutKit(TableKit):
    kind = "layout"
    default_card_size = "poker"
    table_middle = ("Layout",)

    def moment_record(self, moment: Moment) -> dict[str, object]:
        return {"runs": {suit: list(span) for suit, span in sorted(moment.public["runs"].items())}}

    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        runs = moment.public["runs"]
        layout = "; ".join(f"{suit} {lo} to {hi}" for suit, (lo, hi) in sorted(runs.items()))
        hand = moment.owners[0]
        n_valid = sum(1 for c in hand if moment.valid(c))
        who = ", ".join(f"{o}: {len(t)}" for o, t in zip(owners, moment.owners))
        return (
            f"Worked example: a real moment of a seeded game (game seed {moment.seed}). It is "
            f"{owners[0]}'s turn; on the table: {layout}. Cards in the hands: "
            f"{sum(len(t) for t in moment.owners)} ({who}). {owners[0]} holds "
            f"{', '.join(c.glyph for c in hand)}: {n_valid} of them may be played. The pictures show "
            "the table as everyone sees it; the shuffles fall as a seeded random draw made them (seed 1)."
        )
