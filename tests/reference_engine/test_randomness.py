"""The game loop's quick draws are exactly the generator's own (same numbers, same state after)."""

from __future__ import annotations

import random

from reference_engine.randomness import below, drawer, shuffle


def test_the_same_permutations_and_numbers_as_random() -> None:
    for seed in range(200):
        theirs, mine = random.Random(seed), random.Random(seed)
        draw = drawer(mine)
        for n in (1, 2, 3, 7, 8, 9, 54, 108, 1000):
            a, b = list(range(n)), list(range(n))
            theirs.shuffle(a)
            shuffle(mine, b)
            assert a == b
            assert theirs.randrange(n) == below(mine, n)
            assert theirs.randrange(n) == draw(n)
        assert theirs.getstate() == mine.getstate()


class Loaded(random.Random):
    """A generator with its own ``random``: its methods are used as they are."""

    def random(self) -> float:
        return 0.0


def test_another_generator_draws_its_own_way() -> None:
    a, b = Loaded(1), Loaded(1)
    x, y = list(range(20)), list(range(20))
    a.shuffle(x)
    shuffle(b, y)
    assert x == y and a.randrange(9) == below(b, 9) == drawer(b)(9)


class OwnShuffle(random.Random):
    """A generator with its own ``shuffle`` and ``randrange`` (``_randbelow`` the plain one)."""

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        x.reverse()

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        return 0


class OwnBits(random.Random):
    """A generator with its own ``getrandbits``: the plain ``_randbelow`` draws from it."""

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k) ^ ((1 << k) - 1)


def test_a_generator_with_its_own_shuffle_or_randrange_is_not_bypassed() -> None:
    """Attack (round 3): such a subclass kept the plain ``_randbelow`` and was shuffled past its
    own ``shuffle`` (and drawn past its ``randrange``)."""
    for cls in (OwnShuffle, OwnBits):
        for seed in range(20):
            a, b = cls(seed), cls(seed)
            for n in (0, 1, 2, 3, 4, 8, 9, 16, 17, 64, 65, 108):
                x, y = list(range(n)), list(range(n))
                a.shuffle(x)
                shuffle(b, y)
                assert x == y
                if n:
                    assert a.randrange(n) == below(b, n)
                    assert a.randrange(n) == drawer(b)(n)
            assert a.getstate() == b.getstate()
