"""Referees for the "UNO is hard" solvers: brute-force searches sharing no code with them.

Cards are plain (colour, number) tuples here; every function tries everything, with no
memoisation and no pruning, so it is obviously right and only fit for small instances.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise

Plain = tuple[int, int]


def match(a: Plain, b: Plain) -> bool:
    return a[0] == b[0] or a[1] == b[1]


def is_chain_of(sequence: Sequence[Plain], cards: Sequence[Plain]) -> bool:
    """Whether ``sequence`` plays exactly ``cards``, each card matching the one before."""
    return sorted(sequence) == sorted(cards) and all(match(a, b) for a, b in pairwise(sequence))


def solitaire(cards: Sequence[Plain]) -> bool:
    """Whether some order of all the cards is a chain (every order tried)."""
    n = len(cards)
    used = [False] * n

    def extend(last: Plain | None, placed: int) -> bool:
        if placed == n:
            return True
        for i in range(n):
            if not used[i] and (last is None or match(last, cards[i])):
                used[i] = True
                if extend(cards[i], placed + 1):
                    return True
                used[i] = False
        return False

    return extend(None, 0)


def cooperative(hand1: Sequence[Plain], hand2: Sequence[Plain]) -> bool:
    """Whether the players can together make player 1 empty their hand first (every game tried)."""

    def go(hands: list[list[Plain]], player: int, top: Plain | None, skipped: bool) -> bool:
        options = [i for i, c in enumerate(hands[player]) if top is None or match(c, top)]
        if not options:
            return not skipped and go(hands, 1 - player, top, True)
        for i in options:
            rest = hands[player][:i] + hands[player][i + 1 :]
            if not rest:
                if player == 0:
                    return True
                continue
            new = [rest, hands[1]] if player == 0 else [hands[0], rest]
            if go(new, 1 - player, hands[player][i], False):
                return True
        return False

    return go([list(hand1), list(hand2)], 0, None, False)


def cooperative_game_ok(
    hand1: Sequence[Plain], hand2: Sequence[Plain], moves: Sequence[tuple[int, Plain | None]]
) -> bool:
    """Whether ``moves`` (player, card or None for a skip) is a legal game player 1 wins."""
    hands = [list(hand1), list(hand2)]
    top: Plain | None = None
    for turn, (player, card) in enumerate(moves):
        if player != turn % 2 + 1:
            return False
        hand = hands[player - 1]
        can = [c for c in hand if top is None or match(c, top)]
        if card is None:
            if can:
                return False
            continue
        if card not in can:
            return False
        hand.remove(card)
        top = card
        if not hand:
            return player == 1 and turn == len(moves) - 1
    return False


def uncooperative_winning_starts(hand1: Sequence[Plain], hand2: Sequence[Plain]) -> set[Plain]:
    """Player 1's first cards that win with best play after them (the whole game tree)."""

    def mover_wins(hands: list[list[Plain]], player: int, top: Plain) -> bool:
        for i, c in enumerate(hands[player]):
            if match(c, top):
                rest = hands[player][:i] + hands[player][i + 1 :]
                new = [rest, hands[1]] if player == 0 else [hands[0], rest]
                if not mover_wins(new, 1 - player, c):
                    return True
        return False

    wins = set()
    for i, c in enumerate(hand1):
        if not mover_wins([list(hand1[:i]) + list(hand1[i + 1 :]), list(hand2)], 1, c):
            wins.add(c)
    return wins


def strategy_wins(
    hand1: Sequence[Plain],
    hand2: Sequence[Plain],
    first: Plain | None,
    pairs: Sequence[tuple[Plain, Plain]],
    winner: int,
) -> bool:
    """Whether the winner, answering every card of the other player with its partner in
    ``pairs`` (each pair used once), wins against every way the other player can play."""
    partner_of = list(pairs)

    def answer(
        card: Plain, side: int, left: list[tuple[Plain, Plain]]
    ) -> tuple[Plain, list[tuple[Plain, Plain]]] | None:
        for k, (a, b) in enumerate(left):
            if (a, b)[1 - side] == card:
                return (a, b)[side], left[:k] + left[k + 1 :]
        return None

    def other_moves(
        hands: list[list[Plain]], player: int, top: Plain, left: list[tuple[Plain, Plain]]
    ) -> bool:
        # The loser-to-be moves; every choice must leave the winner an answer from the pairs.
        for i, c in enumerate(hands[player]):
            if match(c, top):
                rest = hands[player][:i] + hands[player][i + 1 :]
                new = [rest, hands[1]] if player == 0 else [hands[0], rest]
                got = answer(c, winner - 1, left)
                if got is None:
                    return False
                reply, remaining = got
                mine = new[winner - 1]
                if reply not in mine or not match(reply, c):
                    return False
                after = list(new)
                after[winner - 1] = [x for j, x in enumerate(mine) if j != mine.index(reply)]
                if not other_moves(after, player, reply, remaining):
                    return False
        return True

    hands = [list(hand1), list(hand2)]
    if winner == 1:
        assert first is not None
        hands[0].remove(first)
        return other_moves(hands, 1, first, partner_of)
    # Player 2 wins: every first card of player 1 gets an answer.
    for i, c in enumerate(hand1):
        start = [list(hand1[:i]) + list(hand1[i + 1 :]), list(hand2)]
        got = answer(c, 1, partner_of)
        if got is None:
            return False
        reply, remaining = got
        if reply not in start[1] or not match(reply, c):
            return False
        start[1].remove(reply)
        if not other_moves(start, 0, reply, remaining):
            return False
    return True


def hamiltonian_path(vertices: Sequence[int], edges: Sequence[tuple[int, int]]) -> bool:
    """Whether the graph has a path through every vertex once (every order tried)."""
    adjacent = {(a, b) for a, b in edges} | {(b, a) for a, b in edges}
    order = list(vertices)

    def extend(path: list[int]) -> bool:
        if len(path) == len(order):
            return True
        return any(
            extend([*path, v]) for v in order if v not in path and (not path or (path[-1], v) in adjacent)
        )

    return extend([])


def random_cards(rng: random.Random, n: int, colours: int, numbers: int) -> list[Plain]:
    return [(rng.randint(1, colours), rng.randint(1, numbers)) for _ in range(n)]
