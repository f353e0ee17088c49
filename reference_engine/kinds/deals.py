"""What verification asks of a game kind: a game protocol's scenario bound to the game
(:class:`ScenarioSetting`), two deals with the same public information for the statistical check
(:class:`Deal`), a whole table for exact verification by classes (:class:`FullDeal`,
:func:`owner_sizes`), and the validity rule they hand out (:data:`Validity`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cards import Symbol
from ..errors import UsageError

Validity = Callable[[Any], bool]
ProblemAt = Callable[[tuple[str | int, ...], str], Exception]


@dataclass
class ScenarioSetting:
    """A game protocol bound to a scenario: the cards dealt in every way, the game's functions."""

    deal: list[Symbol]
    context: dict[str, Any]
    state_text: str


@dataclass
class FullDeal:
    """A whole table for exact verification by classes: the cards in play by name (P_1's
    hand, the other hands, the draw pile; repeats for copies), the owners' sizes and the
    public state that decides which cards may be played."""

    deck: list[str]
    sizes: list[int]
    state: dict[str, Any]
    text: str


def owner_sizes(in_play: int, players: int, hand: int, others: int | None) -> list[int]:
    """P_1 holds ``hand``; with ``others`` every other player holds that many and a last owner
    (the draw pile) the rest; without, the other players share the rest as evenly as they can."""
    if players < 2:
        raise UsageError("a table needs at least 2 players")
    if hand < 1:
        raise UsageError("P_1's hand needs at least one card")
    if others is not None:
        sizes = [hand] + [others] * (players - 1)
        rest = in_play - sum(sizes)
        if rest < 0:
            raise UsageError(
                f"{players} hands ({hand} for P_1, {others} each for the others) need "
                f"more than the {in_play} cards in play"
            )
        return sizes + [rest]
    rest = in_play - hand
    n = players - 1
    sizes = [hand] + [rest // n + (1 if i < rest % n else 0) for i in range(n)]
    if rest < n or sizes[-1] < 1:
        raise UsageError(
            f"a hand of {hand} leaves too few of the {in_play} cards in play for {n} other players"
        )
    return sizes


@dataclass
class Deal:
    """A deal for the statistical check: owners (P_1 the virtual player first, the piles last)."""

    owners: list[list[Symbol]]
    public: str  # the public situation in words

    def describe(self) -> str:
        return "P_1 holds " + " ".join(c.glyph for c in self.owners[0])
