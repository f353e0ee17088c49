"""From a trail of the colour-number card graph to a chain of every card.

A trail visits colours and numbers v_0, v_1, ..., v_k using one card between each two (a
card joins its colour and its number). Every other card has a colour or a number the trail
visits; it is played at the first such visit, where it matches the card before it and the
one after it (see :mod:`.trails` for why this gives every chain there is).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from .cards import Card

Vertex = tuple[int, int]  # (0, colour) or (1, number)


def ends(card: Card) -> tuple[Vertex, Vertex]:
    return (0, card.colour), (1, card.number)


def chain_from_trail(vertices: Sequence[Vertex], steps: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """The chain of ``cards`` along the trail ``vertices`` (``steps[i]`` joins vertex i and i + 1)."""
    rest = Counter(cards)
    rest.subtract(steps)
    first: dict[Vertex, int] = {}
    for pos, v in enumerate(vertices):
        first.setdefault(v, pos)
    inserted: dict[int, list[Card]] = defaultdict(list)
    for card, m in sorted(rest.items()):
        colour, number = ends(card)
        at = first.get(colour, first.get(number))
        if m and at is None:
            raise AssertionError(f"the trail does not reach card {card}")
        if m:
            inserted[at if at is not None else 0].extend([card] * m)
    chain: list[Card] = []
    for pos in range(len(vertices)):
        chain.extend(inserted[pos])
        if pos < len(steps):
            chain.append(steps[pos])
    return chain


__all__ = ["Vertex", "chain_from_trail", "ends"]
