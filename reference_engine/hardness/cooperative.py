"""COOPERATIVE UNO-2 (Theorem 1, NP-complete): can both players together make player 1 win?

The model of Section 2: both hands are open; player 1 plays any card first; then the players
alternate, and each card must match the card played just before it. A player who has a
matching card must play one (assumption d: nobody skips on purpose); a player who has none
skips and stays in the game (f1). Player 1 wins by emptying their hand before player 2 does.
When neither can play, the game is stuck and player 1 has not won.

The search tries every move of both players (they cooperate), remembering positions that
failed: a position is both hands (as counts of each kind of card), the card on top and whose
turn it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from .cards import Budget, Card

MAX_HANDS = 1_000  # cards in both hands together (the search recurses once per move)
Move = tuple[int, Card | None]  # (player, card played; None: the player cannot play and skips)


@dataclass
class CooperativeResult:
    hand1: list[Card]
    hand2: list[Card]
    player1_can_win: bool
    sequence: list[Move] | None
    seconds: float
    effort: int

    def to_json(self) -> dict[str, Any]:
        return {
            "player1_can_win": self.player1_can_win,
            "sequence": [{"player": p, "card": str(c) if c is not None else None} for p, c in self.sequence]
            if self.sequence is not None
            else None,
            "method": "search",
            "seconds": round(self.seconds, 6),
            "effort": self.effort,
        }


class _Game:
    def __init__(self, hand1: Sequence[Card], hand2: Sequence[Card], budget: Budget):
        self.kinds = sorted(set(hand1) | set(hand2))
        self.budget = budget
        c1, c2 = Counter(hand1), Counter(hand2)
        self.hands = [[c1[k] for k in self.kinds], [c2[k] for k in self.kinds]]
        self.left = [len(hand1), len(hand2)]
        self.near = [[j for j, b in enumerate(self.kinds) if a.matches(b)] for a in self.kinds]
        self.failed: set[tuple[tuple[int, ...], tuple[int, ...], int, int]] = set()
        self.moves: list[Move] = []

    def playable(self, player: int, top: int) -> list[int]:
        hand = self.hands[player]
        options = range(len(self.kinds)) if top < 0 else self.near[top]
        return [j for j in options if hand[j]]

    def wins(self, player: int, top: int, skipped: bool) -> bool:
        """Whether player 1 can still win, ``player`` (0 or 1) to move on ``top`` (-1: none)."""
        key = (tuple(self.hands[0]), tuple(self.hands[1]), top, player * 2 + skipped)
        if key in self.failed:
            return False
        self.budget.tick("cooperative search")
        options = self.playable(player, top)
        if not options:
            if skipped:  # neither can play: stuck
                self.failed.add(key)
                return False
            self.moves.append((player + 1, None))
            if self.wins(1 - player, top, True):
                return True
            self.moves.pop()
            self.failed.add(key)
            return False
        for j in options:
            self.hands[player][j] -= 1
            self.left[player] -= 1
            self.moves.append((player + 1, self.kinds[j]))
            done = self.left[player] == 0
            if (done and player == 0) or (not done and self.wins(1 - player, j, False)):
                return True
            self.moves.pop()
            self.hands[player][j] += 1
            self.left[player] += 1
        self.failed.add(key)
        return False


def solve_cooperative(
    hand1: Sequence[Card], hand2: Sequence[Card], time_limit: float | None = None
) -> CooperativeResult:
    """Can the players together make player 1 empty their hand first? With a way if so."""
    if not hand1:
        raise UsageError("«hand1» is empty: player 1 needs at least one card")
    if not hand2:
        raise UsageError("«hand2» is empty: player 2 needs at least one card")
    if len(hand1) + len(hand2) > MAX_HANDS:
        raise UsageError(f"the cooperative search takes at most {MAX_HANDS:,} cards in both hands together")
    budget = Budget(time_limit)
    game = _Game(hand1, hand2, budget)
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * (len(hand1) + len(hand2)) + 1000))
    try:
        ok = game.wins(0, -1, False)
    finally:
        sys.setrecursionlimit(limit)
    return CooperativeResult(
        list(hand1), list(hand2), ok, list(game.moves) if ok else None, budget.elapsed(), budget.effort
    )


def replay(hand1: Sequence[Card], hand2: Sequence[Card], moves: Sequence[Move]) -> bool:
    """Whether ``moves`` is a legal game in which player 1 empties their hand first."""
    hands = [Counter(hand1), Counter(hand2)]
    top: Card | None = None
    for turn, (player, card) in enumerate(moves):
        if player != turn % 2 + 1:
            return False
        hand = hands[player - 1]
        can = [c for c in hand if hand[c] and (top is None or c.matches(top))]
        if card is None:
            if can or top is None:
                return False
            continue
        if card not in can:
            return False
        hand[card] -= 1
        top = card
        if sum(hand.values()) == 0:
            return player == 1 and turn == len(moves) - 1
    return False


__all__ = ["MAX_HANDS", "CooperativeResult", "Move", "replay", "solve_cooperative"]
