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
