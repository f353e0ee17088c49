"""The compiled ``spin`` (:func:`reference_engine.compiled.ops._spun`) draws and turns exactly as
the interpreter's sample run of it (:func:`~reference_engine.machine.actions.shuffling._group_outcomes`,
one ``random()`` a group compared with the outcomes' fractions)."""

from __future__ import annotations

import random
from fractions import Fraction

from reference_engine.cards import ROTATIONS, SYMBOLS
from reference_engine.compiled.ops import _spun
from reference_engine.machine.actions.shuffling import _group_outcomes


def _reference(
    cells: list[int], groups: tuple[tuple[tuple[int, ...], ...], ...], rng: random.Random
) -> list[int]:
    now = tuple(cells)
    for g in groups:
        options = _group_outcomes("spin", g, now)
        pick = rng.random()
        acc = Fraction(0)
        chosen = options[-1][0]
        for new, prob in options:
            acc += prob
            if pick < acc:
                chosen = new
                break
        now = chosen
    return list(now)


def test_spins_draw_and_turn_as_the_interpreter() -> None:
    up, down = SYMBOLS.intern("up"), SYMBOLS.intern("down")
    ROTATIONS.pair(up, down)  # as the specs that declare them do (the same pair every time)
    faces = [up.id, down.id] + [SYMBOLS.intern(f"c{i}").id for i in range(1, 4)]
    gen = random.Random(7)
    turned = 0
    for seed in range(300):
        n = gen.randrange(2, 13)
        cells = [gen.choice(faces) << 1 | gen.randrange(2) for _ in range(n)]
        slots = list(range(n))
        gen.shuffle(slots)
        groups = []
        while len(slots) >= 2:  # rows of piles whose mirrored piles have the same sizes
            k = gen.randrange(1, 3)
            piles = gen.randrange(1, 4)
            need = k * piles
            if need > len(slots):
                break
            take, slots = slots[:need], slots[need:]
            groups.append(tuple(tuple(take[i * k : (i + 1) * k]) for i in range(piles)))
        groups_t = tuple(groups)
        mine = _spun(cells, groups_t, random.Random(seed).random)
        theirs = _reference(cells, groups_t, random.Random(seed))
        assert mine == theirs
        turned += mine != cells
    assert turned > 50  # the turned branch was taken, not only the one that keeps the cards


def test_a_draw_of_exactly_one_half_turns_the_row_as_the_interpreter() -> None:
    """Attack (round 3): ``random() < 0.5`` against the interpreter's ``pick < Fraction(1, 2)`` at
    the edge: 0.5 turns, the float just below it keeps; a row whose turn changes nothing (a
    merged outcome of probability 1) gives the same cards either way; one pile, one card."""
    import math

    up, down = SYMBOLS.intern("up"), SYMBOLS.intern("down")
    ROTATIONS.pair(up, down)
    c = SYMBOLS.intern("c1").id
    edges = [0.5, math.nextafter(0.5, 0.0), 0.0, math.nextafter(1.0, 0.0), 0.5, 0.25]
    rows = [
        ([c << 1, c << 1 | 1, up.id << 1], (((0,), (1,), (2,)),)),
        ([c << 1, up.id << 1, c << 1], (((0,), (1,), (2,)),)),  # its half turn is another table
        ([c << 1, c << 1], (((0, 1),),)),  # one pile of two cards
        ([up.id << 1 | 1], (((0,),),)),  # one card
    ]
    for cells, groups in rows:
        for i in range(len(edges)):
            draws = (edges[i:] + edges[:i]) * 3
            fixed = iter(draws).__next__

            class Fixed(random.Random):
                def random(self, seq: list[float] = list(draws)) -> float:  # noqa: B006 - one use
                    return seq.pop(0)

            assert _spun(cells, groups * 3, fixed) == _reference(cells, groups * 3, Fixed())
    assert _spun([c << 1, c << 1], (((0,), (1,)),), lambda: 0.5) == _reference(
        [c << 1, c << 1], (((0,), (1,)),), type("Half", (random.Random,), {"random": lambda self: 0.5})()
    )
