"""The kit of a trick-taking game (Hearts): the standard deck, the card selection table with the
original covert lottery, a booklet."""

from __future__ import annotations

from reference_engine.api import GameRules, Moment

from ..lang.catalogue import N_, _
from ..lang.seats import seat_name
from .kind import register
from .table import TableKit, moment_words


@register
class TrickKit(TableKit):
    kind = "trick"
    table_middle = ("Trick",)
    turn_words = N_(
        "the card selection protocol for it, which plays a card chosen uniformly at random among "
        "those it may play (of the led suit if it holds any; leading, or holding none, any card)"
    )

    def moment_record(self, moment: Moment) -> dict[str, object]:
        return {"led": moment.public["led"], "lead": moment.public["lead"].name}

    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        leader = owners[moment.public["leader"]]
        situation = _("{leader} led {card}; it is {owner}'s turn to follow").format(
            leader=seat_name(leader), card=moment.public["lead"].glyph, owner=seat_name(owners[0])
        )
        return moment_words(moment, owners, situation, _("Cards in the hands"), _("follow suit"))
