"""Solitaire UNO: every method against the brute-force referee, on thousands of small sets."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import networkx as nx
import pytest

from reference_engine.api import KitgenError, UsageError
from reference_engine.hardness import (
    MAX_SIDE,
    METHODS,
    Card,
    OutOfTime,
    parse_cards,
    solve_solitaire,
    why_no_chain,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import referee

EXAMPLE_1 = "1/3,2/2,2/3,2/3,2/4,3/2,3/4,4/1,4/3"  # the paper's Example 1: a yes instance


def plain(cards: list[Card]) -> list[referee.Plain]:
    return [(c.colour, c.number) for c in cards]


@pytest.mark.parametrize("method", METHODS)
def test_example_1_has_a_chain(method: str) -> None:
    cards = parse_cards(EXAMPLE_1)
    result = solve_solitaire(cards, method)
    assert result.playable and result.sequence is not None
    assert referee.is_chain_of(plain(result.sequence), plain(cards))
    # The paper's own sequence is a chain too (the referee agrees with the paper).
    paper = [(1, 3), (2, 3), (2, 4), (3, 4), (3, 2), (2, 2), (2, 3), (4, 3), (4, 1)]
    assert referee.is_chain_of(paper, plain(cards))


def test_every_method_agrees_with_brute_force_on_random_sets() -> None:
    rng = random.Random(20140101)
    answers = {True: 0, False: 0}
    for _ in range(2500):
        cards = referee.random_cards(rng, rng.randint(1, 8), rng.randint(1, 5), rng.randint(1, 6))
        truth = referee.solitaire(cards)
        answers[truth] += 1
        given = [Card(*c) for c in cards]
        for method in METHODS:
            result = solve_solitaire(given, method)
            assert result.playable == truth, (method, cards)
            if truth:
                assert result.sequence is not None and referee.is_chain_of(plain(result.sequence), cards)
    assert min(answers.values()) > 300  # both answers are well represented


def test_larger_sets_against_brute_force_on_sparse_graphs() -> None:
    """Many colours and numbers (the search's bridge pruning at work), up to 10 cards."""
    rng = random.Random(7)
    for _ in range(150):
        k = rng.randint(4, 8)
        cards = referee.random_cards(rng, rng.randint(6, 10), k, k)
        truth = referee.solitaire(cards)
        for method in ("search", "cards", "auto"):
            assert solve_solitaire([Card(*c) for c in cards], method).playable == truth, (method, cards)


def test_methods_agree_on_bigger_random_sets() -> None:
    """Past brute force: the three exact methods must still agree, and chains must check."""
    rng = random.Random(11)
    for _ in range(40):
        cards = [Card(*c) for c in referee.random_cards(rng, rng.randint(12, 30), rng.randint(2, 4), 10)]
        answers = {m: solve_solitaire(cards, m) for m in ("search", "dp", "cards")}
        assert len({r.playable for r in answers.values()}) == 1, cards
        for r in answers.values():
            if r.sequence is not None:
                assert referee.is_chain_of(plain(r.sequence), plain(cards))


def _cubic_instance(graph: nx.Graph[int]) -> list[Card]:
    """Theorem 4's reduction: a card (x, e) for every vertex x and edge e at x."""
    cards = []
    for e, (x, y) in enumerate(sorted(graph.edges())):
        cards += [Card(x + 1, e + 1), Card(y + 1, e + 1)]
    return cards


def test_theorem_4_reduction_hamiltonian_path_iff_chain() -> None:
    graphs = [nx.random_regular_graph(3, n, seed=s) for n in (4, 6, 8) for s in range(6)]
    # Two triangles joined by one edge after splitting: a cubic graph with a bridge.
    bridged = nx.Graph([(0, 1), (0, 2), (1, 2), (0, 3), (1, 4), (2, 5), (3, 4), (3, 5), (4, 5)])
    graphs.append(bridged)
    disconnected = nx.disjoint_union(nx.complete_graph(4), nx.complete_graph(4))
    graphs.append(disconnected)
    seen = set()
    for g in graphs:
        truth = referee.hamiltonian_path(sorted(g.nodes()), sorted(g.edges()))
        seen.add(truth)
        assert solve_solitaire(_cubic_instance(g), "search").playable == truth
    assert seen == {True, False}


def test_reasons_are_true_certificates() -> None:
    """Every short reason is checked from scratch, and only ever given for a no instance."""
    rng = random.Random(5)
    kinds = set()
    for _ in range(1500):
        cards = referee.random_cards(rng, rng.randint(2, 8), rng.randint(1, 5), rng.randint(1, 5))
        reason = why_no_chain([Card(*c) for c in cards])
        if reason is None:
            continue
        kinds.add(reason.kind)
        assert not referee.solitaire(cards), cards
        if reason.kind == "ends":
            assert len(reason.cards) > 2
            for c in reason.cards:
                others = list(cards)
                others.remove((c.colour, c.number))
                assert sum(referee.match((c.colour, c.number), o) for o in others) <= 1
        else:
            groups = [[(c.colour, c.number) for c in g] for g in reason.groups]
            assert len(groups) > 1 and sorted(x for g in groups for x in g) == sorted(cards)
            for i, g in enumerate(groups):
                for h in groups[i + 1 :]:
                    assert not any(referee.match(a, b) for a in g for b in h)
    assert kinds == {"split", "ends"}


def test_the_programme_refuses_many_colours_and_numbers() -> None:
    cards = [Card(i, i) for i in range(MAX_SIDE + 1)] + [Card(i, i + 1) for i in range(MAX_SIDE)]
    with pytest.raises(UsageError, match="at most 8 colours or at most 8 numbers"):
        solve_solitaire(cards, "dp")


def test_a_time_limit_ends_a_long_search_with_a_clear_error() -> None:
    # A hard no instance for the card-by-card search: many cards, each colour and number few.
    rng = random.Random(2)
    cards = [Card(rng.randint(1, 25), rng.randint(1, 25)) for _ in range(60)]
    with pytest.raises(OutOfTime, match="time limit") as info:
        solve_solitaire(cards, "cards", time_limit=0.01)
    assert isinstance(info.value, KitgenError) and info.value.exit_code == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty"),
        ("1/x", "'1/x' is not a card"),
        ("1/2,,3/4", "card 2 is empty"),
        ("1/2/3", "is not a card"),
        ("-1/2", "is not a card"),
        ("1/99999999", "go up to"),
    ],
)
def test_bad_card_text_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message) as info:
        parse_cards(text)
    assert "\n" not in str(info.value.message)


def test_cards_print_and_parse_round_trip() -> None:
    card = Card.parse(" 12/0 ")
    assert (card.colour, card.number) == (12, 0)
    assert Card.parse(str(card)) == card and repr(card) == "Card.parse('12/0')"
