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
