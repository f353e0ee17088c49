"""UNCOOPERATIVE UNO-2 (Theorem 7, polynomial): who loses when both play to win?

The game: player 1 plays any card; then the players alternate, each card matching the one
before it; the player to move who cannot play (an empty hand included) loses, so the last to
play a card wins.

The reduction (Section 4): in the UNO-2 graph each card is a vertex, a card of player 1 and a
card of player 2 are joined when they match (cards of one hand are not: nobody plays twice in
a row), so the graph is bipartite. Playing is moving a token along an edge to a vertex not
visited before: UNDIRECTED VERTEX GEOGRAPHY. Player 1's free first card is a move from a
start vertex joined to every card of player 1.

Undirected vertex geography is decided by maximum matchings (Fraenkel, Scheinerman and
Ullman 1993, Theorem 6): *the player to move from vertex v wins iff v is covered by every
maximum matching*. The winner's strategy is a maximum matching M: move to your partner of
the token's vertex in M. In a bipartite graph, v is missed by some maximum matching iff a
vertex on v's side that one maximum matching M leaves free reaches v by a path alternating
between edges outside and inside M (flip that path: M stays maximum and misses v).

So player 1 wins iff some card of player 1 is missed by a maximum matching of the UNO-2 graph
(equivalently: iff no matching pairs every card of player 1 with a card of player 2), and the
winning first cards are exactly those. The matching comes from networkx (Hopcroft-Karp).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from .cards import Budget, Card

if TYPE_CHECKING:
    import networkx as nx

    Graph = nx.Graph[tuple[int, int]]

METHODS = ("matching", "search")
Node = tuple[int, int]  # (player, index of the card in that player's hand)
START: Node = (0, 0)  # the start vertex of geography, joined to every card of player 1


@dataclass
class UncooperativeResult:
    hand1: list[Card]
    hand2: list[Card]
    loser: int
    first_card: Card | None  # a winning first card of player 1, when player 1 wins
    winning_first_cards: list[Card]
    method: str
    seconds: float
    effort: int  # search: positions; matching: the size of the maximum matching
    # The winner's strategy: pairs (card of player 1, card of player 2) of a maximum matching;
    # the winner answers every card of the other player with its partner.
    strategy: list[tuple[Card, Card]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "loser": self.loser,
            "first_card": str(self.first_card) if self.first_card is not None else None,
            "method": self.method,
            "winning_first_cards": [str(c) for c in self.winning_first_cards],
            "strategy": [[str(a), str(b)] for a, b in self.strategy],
            "seconds": round(self.seconds, 6),
        }


def uno2_graph(hand1: Sequence[Card], hand2: Sequence[Card]) -> Graph:
    """The UNO-2 graph: a vertex per card, player 1's cards joined to the matching cards of player 2."""
    import networkx as nx  # imported here: it takes a fifth of a second, for this solver only

    graph: Graph = nx.Graph()
    graph.add_nodes_from(((1, i) for i in range(len(hand1))), player=1)
    graph.add_nodes_from(((2, j) for j in range(len(hand2))), player=2)
    graph.add_edges_from(
        ((1, i), (2, j)) for i, a in enumerate(hand1) for j, b in enumerate(hand2) if a.matches(b)
    )
    return graph


def geography(graph: Graph, side: Iterable[Node], start: Node) -> tuple[bool, dict[Any, Any]]:
    """Undirected vertex geography on a bipartite ``graph`` (``side``: the part ``start`` is in):
    whether the player to move from ``start`` wins, and a maximum matching that is the winner's
    strategy (the mover's: one that covers ``start``; the other's: one that misses it)."""
    import networkx as nx

    part = set(side)
    matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=part)
    reached = _alternating_reach(graph, part, matching)
    if start not in reached:
        return True, matching
    return False, _flip(matching, reached, start)


def _alternating_reach(graph: Graph, part: set[Any], matching: dict[Any, Any]) -> dict[Any, Any]:
    """The vertices of ``part`` that some maximum matching misses, each with the vertex of
    ``part`` before it on an alternating path from a free vertex (None: free itself)."""
    reached: dict[Any, Any] = {v: None for v in sorted(part) if v not in matching}
    queue = list(reached)
    for v in queue:
        for w in sorted(graph[v]):
            u = matching.get(w)
            if u is not None and u not in reached:
                reached[u] = v
                queue.append(u)
    return reached


def _flip(matching: dict[Any, Any], reached: dict[Any, Any], v: Any) -> dict[Any, Any]:
    """A maximum matching that misses ``v``: ``matching`` with the alternating path to v flipped."""
    path = [v]
    while reached[path[-1]] is not None:
        path.append(reached[path[-1]])
    flipped = dict(matching)
    partners = [matching[p] for p in path[:-1]]  # p_i's partner w_i, which p_(i+1) is joined to
    for p, w in zip(path, partners):
        del flipped[p]
        del flipped[w]
    for p, w in zip(path[1:], partners):
        flipped[p] = w
        flipped[w] = p
    return flipped


def solve_uncooperative(
    hand1: Sequence[Card], hand2: Sequence[Card], method: str = "matching", time_limit: float | None = None
) -> UncooperativeResult:
    """Who loses UNCOOPERATIVE UNO-2, and player 1's winning first cards."""
    if method not in METHODS:
        raise UsageError(f"«method» is one of {', '.join(METHODS)}, not {method!r}")
    if not hand1:
        raise UsageError("«hand1» is empty: player 1 needs at least one card")
    if not hand2:
        raise UsageError("«hand2» is empty: player 2 needs at least one card")
    if method == "search":
        return _search(hand1, hand2, time_limit)
    begin = time.perf_counter()
    graph = uno2_graph(hand1, hand2)
    # Geography from a start vertex joined to every card of player 1: player 1 moves first.
    graph.add_edges_from((START, (1, i)) for i in range(len(hand1)))
    side2 = [START, *((2, j) for j in range(len(hand2)))]
    player1_wins, matching = geography(graph, side2, START)
    graph.remove_node(START)
    ones = [(1, i) for i in range(len(hand1))]
    first = matching.get(START) if player1_wins else None
    # The winner's matching in the UNO-2 graph: without the start vertex's edge, it is maximum
    # there and misses the first card (player 1 wins) or pairs every card of player 1 (player 2).
    strategy = {a: b for a, b in matching.items() if START not in (a, b)}
    winners: list[Node] = []
    if player1_wins:
        # Every first card that wins: those some maximum matching of the UNO-2 graph misses.
        reached = _alternating_reach(graph, set(ones), strategy)
        winners = sorted(reached)
    pairs = sorted((hand1[a[1]], hand2[b[1]]) for a, b in strategy.items() if a[0] == 1)
    size = sum(1 for a in strategy if a[0] == 1)
    return UncooperativeResult(
        list(hand1),
        list(hand2),
        2 if player1_wins else 1,
        hand1[first[1]] if first is not None else None,
        sorted({hand1[i] for _, i in winners}),
        "matching",
        time.perf_counter() - begin,
        size,
        pairs,
    )


def _search(hand1: Sequence[Card], hand2: Sequence[Card], time_limit: float | None) -> UncooperativeResult:
    """The same answer by searching the game tree (memoised), for checking and for puzzles."""
    budget = Budget(time_limit)
    kinds = sorted(set(hand1) | set(hand2))
    near = [[j for j, b in enumerate(kinds) if a.matches(b)] for a in kinds]
    c1, c2 = Counter(hand1), Counter(hand2)
    hands = [[c1[k] for k in kinds], [c2[k] for k in kinds]]
    memo: dict[tuple[tuple[int, ...], tuple[int, ...], int], bool] = {}

    def mover_wins(player: int, top: int) -> bool:
        key = (tuple(hands[0]), tuple(hands[1]), top)
        if key in memo:
            return memo[key]
        budget.tick("uncooperative search")
        hand = hands[player]
        win = False
        for j in near[top]:
            if hand[j]:
                hand[j] -= 1
                win = not mover_wins(1 - player, j)
                hand[j] += 1
                if win:
                    break
        memo[key] = win
        return win

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * (len(hand1) + len(hand2)) + 1000))
    try:
        winners = []
        for j, k in enumerate(kinds):
            if hands[0][j]:
                hands[0][j] -= 1
                if not mover_wins(1, j):
                    winners.append(k)
                hands[0][j] += 1
    finally:
        sys.setrecursionlimit(limit)
    return UncooperativeResult(
        list(hand1),
        list(hand2),
        2 if winners else 1,
        winners[0] if winners else None,
        winners,
        "search",
        budget.elapsed(),
        budget.effort,
    )


__all__ = ["METHODS", "UncooperativeResult", "geography", "solve_uncooperative", "uno2_graph"]
