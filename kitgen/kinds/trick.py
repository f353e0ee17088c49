"""The kit of a trick-taking game (Hearts): the standard deck, the card selection table with the
original covert lottery, a booklet."""

from __future__ import annotations

from reference_engine.api import GameRules, Moment

from .kind import register
from .table import TableKit


@register
class TrickKit(TableKit):
    kind = "trick"
    default_card_size = "poker"
    table_middle = ("Trick",)

    def moment_record(self, moment: Moment) -> dict[str, object]:
        return {"led": moment.public["led"], "lead": moment.public["lead"].name}

    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        lead = moment.public["lead"]
        leader = owners[moment.public["leader"]]
        hand = moment.owners[0]
        n_valid = sum(1 for c in hand if moment.valid(c))
        who = ", ".join(f"{o}: {len(t)}" for o, t in zip(owners, moment.owners))
        return (
            f"Worked example: a real moment of a seeded game (game seed {moment.seed}). {leader} led "
            f"{lead.glyph}; it is {owners[0]}'s turn to follow. Cards in the hands: "
            f"{sum(len(t) for t in moment.owners)} ({who}). {owners[0]} holds "
            f"{', '.join(c.glyph for c in hand)}: {n_valid} of them follow suit. The pictures show the "
            "table as everyone sees it; the shuffles fall as a seeded random draw made them (seed 1)."
        )
