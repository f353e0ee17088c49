"""Permutation sets, their exact outcome distributions, and orbit representatives."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from reference_engine.shuffles import Shuffle, is_group, pile_gather


def brute(shuffle: Shuffle, contents: list[tuple[int, ...]]) -> dict[tuple[tuple[int, ...], ...], Fraction]:
    out: Counter[tuple[tuple[int, ...], ...]] = Counter()
    perms = list(shuffle.all_perms())
    for p in perms:
        out[tuple(contents[i] for i in p)] += 1
    return {k: Fraction(v, len(perms)) for k, v in out.items()}


@pytest.mark.parametrize(
    "shuffle",
    [
        Shuffle("scramble", 4),
        Shuffle("shift", 5),
        Shuffle("set", 3, ((0, 1, 2), (1, 2, 0))),
    ],
)
@pytest.mark.parametrize(
    "contents",
    [
        [(1,), (2,), (3,), (4,), (5,)],
        [(1,), (1,), (2,), (2,), (3,)],
        [(7, 7), (7, 7), (7, 7), (7, 7), (7, 7)],
    ],
)
def test_outcomes_match_brute_force(shuffle: Shuffle, contents: list[tuple[int, ...]]) -> None:
    contents = contents[: shuffle.k]
    got: dict[tuple[tuple[int, ...], ...], Fraction] = {}
    for perm, p in shuffle.outcomes(contents):
        key = tuple(contents[i] for i in perm)
        assert key not in got, "outcomes must be distinct arrangements"
        got[key] = p
    assert got == brute(shuffle, contents)
    assert sum(got.values()) == 1


def test_canonical_is_constant_on_orbits() -> None:
    for shuffle in (Shuffle("scramble", 4), Shuffle("shift", 4)):
        contents = [(3,), (1,), (2,), (1,)]
        rep = {tuple(contents[i] for i in shuffle.canonical(contents))}  # type: ignore[union-attr]
        for g in shuffle.all_perms():
            moved = [contents[i] for i in g]
            perm = shuffle.canonical(moved)
            assert perm is not None
            rep.add(tuple(moved[i] for i in perm))
        assert len(rep) == 1


def test_non_group_sets_have_no_representative() -> None:
    s = Shuffle("set", 3, ((0, 1, 2), (1, 0, 2), (1, 2, 0)))
    assert not s.is_uniform_group
    assert s.canonical([(1,), (2,), (3,)]) is None
    assert is_group([(0, 1, 2), (1, 2, 0), (2, 0, 1)])


def test_sampling_is_uniform_and_seeded() -> None:
    s = Shuffle("scramble", 3)
    rng = random.Random(1)
    counts = Counter(s.sample(rng) for _ in range(6000))
    assert set(counts) == set(itertools.permutations(range(3)))
    assert all(900 < n < 1100 for n in counts.values())
    a, b = random.Random(5), random.Random(5)
    assert [s.sample(a) for _ in range(5)] == [s.sample(b) for _ in range(5)]


def test_pile_gather_moves_whole_piles() -> None:
    # piles (0,1) and (2,3): swapping them maps cells [a b c d] to [c d a b]
    g = pile_gather(5, ((0, 1), (2, 3)), (1, 0))
    assert [("a", "b", "c", "d", "e")[i] for i in g] == ["c", "d", "a", "b", "e"]
