"""Short reasons why no chain uses every card (certificates a person can check by hand).

* ``split``: the cards fall into groups that share no colour and no number; no card of one
  group can follow a card of another.
* ``ends``: three or more cards each match only one other card; each must be at an end of the
  chain, and a chain has two ends.

(A third kind one might try, "taking away k cards leaves more than k + 1 groups", never
applies: the cards are the edges of the colour-number graph, and taking away k edges of a
connected graph leaves at most k + 1 pieces.) The exhaustive solvers decide; these only
explain. None means no short reason was found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True)
class Reason:
    kind: str  # split | ends
    cards: tuple[Card, ...]  # the cards the reason is about (ends)
    groups: tuple[tuple[Card, ...], ...]  # the groups (split)

    def text(self) -> str:
        """The reason in words, cards written colour/number."""

        def show(cards: Sequence[Card]) -> str:
            return " ".join(str(c) for c in cards)

        if self.kind == "split":
            parts = "; ".join(show(g) for g in self.groups)
            return f"the cards fall into {len(self.groups)} groups that share no colour or number: {parts}"
        return (
            f"{len(self.cards)} cards ({show(self.cards)}) each match only one other card, so each must "
            "be at an end of the chain, and a chain has two ends"
        )


def groups(cards: Sequence[Card]) -> list[list[Card]]:
    """The cards in groups that share no colour or number (connected components), in order."""
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def find(x: tuple[int, int]) -> tuple[int, int]:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for c in cards:
        a, b = find((0, c.colour)), find((1, c.number))
        if a != b:
            parent[a] = b
    by_root: dict[tuple[int, int], list[Card]] = {}
    for c in sorted(cards):
        by_root.setdefault(find((0, c.colour)), []).append(c)
    return sorted(by_root.values())


def _degree(cards: Sequence[Card], i: int) -> int:
    return sum(1 for j, c in enumerate(cards) if j != i and c.matches(cards[i]))


def why_no_chain(cards: Sequence[Card]) -> Reason | None:
    """A short reason why the cards cannot form one chain, or None when there is none to tell."""
    cards = sorted(cards)
    parts = groups(cards)
    if len(parts) > 1:
        return Reason("split", (), tuple(tuple(g) for g in parts))
    ends = [c for i, c in enumerate(cards) if _degree(cards, i) <= 1]
    if len(ends) > 2:
        return Reason("ends", tuple(ends), ())
    return None


__all__ = ["Reason", "groups", "why_no_chain"]
