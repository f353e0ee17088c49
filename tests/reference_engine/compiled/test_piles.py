"""What a compiled shuffle makes of its piles (:func:`reference_engine.compiled.piles.shuffle_of`):
the interpreter's reading of the slots, its shuffle and its checks, each refusal with the
interpreter's message."""

from __future__ import annotations

import pytest

from reference_engine import steps as st
from reference_engine.compiled.piles import shuffle_of
from reference_engine.expressions import EvalError
from reference_engine.table import Layout

LAYOUT = Layout.make([("A", 2, 3, 1, None, None)])


def _step(how: str, perms: list[tuple[int, ...]] | None = None) -> st.Shuffle:
    return st.Shuffle((), None, None, None, how=how, perms=perms or [])


def test_each_kind_of_shuffle_reads_its_piles_as_the_interpreter() -> None:
    cols = [(0, 3), (1, 4), (2, 5)]
    shuffle, piles, how = shuffle_of(_step("scramble"), True, cols, LAYOUT)
    assert (shuffle.kind, shuffle.k, piles, how) == ("scramble", 3, tuple(cols), "scramble")
    shuffle, piles, _ = shuffle_of(_step("cut"), True, cols, LAYOUT)
    assert (shuffle.kind, shuffle.k, piles) == ("shift", 6, ((0,), (3,), (1,), (4,), (2,), (5,)))
    shuffle, piles, _ = shuffle_of(_step("bisect"), True, cols[:2], LAYOUT)
    assert (shuffle.kind, shuffle.k, piles) == ("scramble", 2, ((0, 3), (1, 4)))
    shuffle, piles, _ = shuffle_of(_step("set", [(1, 2, 0), (2, 0, 1)]), True, cols, LAYOUT)
    assert (shuffle.kind, shuffle.k, piles) == ("set", 3, tuple(cols))


@pytest.mark.parametrize(
    ("how", "items", "perms", "message"),
    [
        ("bisect", [(0,), (1,), (2,)], None, "a bisection cut needs an even number of cards, got 3"),
        ("set", [(0,), (1,)], [(1, 2, 0)], "the permutations act on 3 piles, but there are 2"),
        ("scramble", [], None, "nothing to shuffle"),
        ("scramble", [(0, 1), (2,)], None, "piles must have the same number of cards, got sizes [1, 2]"),
        ("scramble", [(0, 1), (1, 2)], None, "the piles overlap"),
    ],
)
def test_each_bad_set_of_piles_is_refused_with_the_interpreter_s_message(
    how: str, items: list[tuple[int, ...]], perms: list[tuple[int, ...]] | None, message: str
) -> None:
    """Attack: an odd bisection, permutations of another size, no piles, piles of two sizes,
    overlapping piles: each refused, in that order of checks, with its message."""
    with pytest.raises(EvalError) as exc:
        shuffle_of(_step(how, perms), True, items, LAYOUT)
    assert str(exc.value) == message


def test_an_empty_place_among_the_piles_is_refused() -> None:
    """Attack: a pile over an empty place of the layout: refused, the place named."""
    holed = Layout.make([("A", 2, 3, 1, None, None)], frozenset({4}))
    with pytest.raises(EvalError) as exc:
        shuffle_of(_step("scramble"), True, [(0, 3), (1, 4), (2, 5)], holed)
    assert str(exc.value) == f"{holed.describe(4)} is empty"
