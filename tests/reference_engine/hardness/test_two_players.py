"""Cooperative and uncooperative UNO-2 against brute-force game search."""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import networkx as nx
import pytest

from reference_engine.api import UsageError
from reference_engine.hardness import Card
from reference_engine.hardness.cooperative import solve_cooperative
from reference_engine.hardness.uncooperative import geography, solve_uncooperative

sys.path.insert(0, str(Path(__file__).resolve().parent))
import referee


def cards(plain: list[referee.Plain]) -> list[Card]:
    return [Card(*c) for c in plain]


def hands(rng: random.Random, most: int) -> tuple[list[referee.Plain], list[referee.Plain]]:
    colours, numbers = rng.randint(1, 4), rng.randint(1, 4)
    return (
        referee.random_cards(rng, rng.randint(1, most), colours, numbers),
        referee.random_cards(rng, rng.randint(1, most), colours, numbers),
    )


def test_cooperative_agrees_with_brute_force() -> None:
    rng = random.Random(1)
    seen = set()
    for _ in range(2000):
        h1, h2 = hands(rng, 4)
        truth = referee.cooperative(h1, h2)
        seen.add(truth)
        result = solve_cooperative(cards(h1), cards(h2))
        assert result.player1_can_win == truth, (h1, h2)
        if truth:
            assert result.sequence is not None
            moves = [(p, (c.colour, c.number) if c is not None else None) for p, c in result.sequence]
            assert referee.cooperative_game_ok(h1, h2, moves), (h1, h2, moves)
    assert seen == {True, False}


def test_theorem_1_reduction_hamiltonian_path_iff_player_1_wins() -> None:
    """Vertex cards (i, i) for player 1, edge cards (i, j) for player 2 (G connected, not a tree)."""
    rng = random.Random(2)
    seen = set()
    for _ in range(60):
        n = rng.randint(3, 5)
        g = nx.gnp_random_graph(n, 0.5, seed=rng.randint(0, 10**6))
        if not nx.is_connected(g) or g.number_of_edges() < n:
            continue
        truth = referee.hamiltonian_path(sorted(g.nodes()), sorted(g.edges()))
        seen.add(truth)
        h1 = [Card(i, i) for i in g.nodes()]
        h2 = [Card(i, j) for i, j in g.edges()]
        assert solve_cooperative(h1, h2).player1_can_win == truth
    assert seen == {True, False}


@pytest.mark.parametrize("method", ["matching", "search"])
def test_uncooperative_agrees_with_brute_force(method: str) -> None:
    rng = random.Random(3)
    losers = set()
    for _ in range(2000):
        h1, h2 = hands(rng, 4)
        starts = referee.uncooperative_winning_starts(h1, h2)
        result = solve_uncooperative(cards(h1), cards(h2), method)
        assert result.loser == (2 if starts else 1), (h1, h2)
        assert {(c.colour, c.number) for c in result.winning_first_cards} == starts
        if starts:
            assert (
                result.first_card is not None
                and (result.first_card.colour, result.first_card.number) in starts
            )
        else:
            assert result.first_card is None
        losers.add(result.loser)
    assert losers == {1, 2}


def test_the_matching_is_a_winning_strategy() -> None:
    """The winner answers each card with its partner in the matching, whatever the other does."""
    rng = random.Random(4)
    for _ in range(1500):
        h1, h2 = hands(rng, 5)
        result = solve_uncooperative(cards(h1), cards(h2))
        pairs = [((a.colour, a.number), (b.colour, b.number)) for a, b in result.strategy]
        first = (result.first_card.colour, result.first_card.number) if result.first_card else None
        winner = 3 - result.loser
        assert referee.strategy_wins(h1, h2, first, pairs, winner), (h1, h2, first, pairs)


def _geography_brute(graph: nx.Graph[int], start: int) -> bool:
    def mover_wins(at: int, seen: frozenset[int]) -> bool:
        return any(not mover_wins(w, seen | {w}) for w in graph[at] if w not in seen)

    return mover_wins(start, frozenset({start}))


def test_vertex_geography_by_matchings_on_random_bipartite_graphs() -> None:
    rng = random.Random(5)
    for _ in range(400):
        a, b = rng.randint(1, 4), rng.randint(1, 4)
        g: nx.Graph[int] = nx.Graph()
        g.add_nodes_from(range(a + b))
        g.add_edges_from((i, a + j) for i, j in itertools.product(range(a), range(b)) if rng.random() < 0.5)
        for start in g.nodes():
            side = range(a) if start < a else range(a, a + b)
            wins, matching = geography(g, side, start)
            assert wins == _geography_brute(g, start)
            assert (start in matching) == wins  # the mover's matching covers the start, the other's misses it


def test_empty_hands_are_refused() -> None:
    with pytest.raises(UsageError, match="hand2 is empty"):
        solve_uncooperative([Card(1, 1)], [])
    with pytest.raises(UsageError, match="hand1 is empty"):
        solve_cooperative([], [Card(1, 1)])
