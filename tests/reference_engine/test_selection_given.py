"""The key of a game's given parameters (``selection._given_key``): the exact key of them sorted,
the last one kept for the same names holding equal values of the same types, whole numbers or
texts only; a value of another type (1 == True, a tuple of other items' types) never takes it."""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine import selection
from reference_engine.kept import exact


def _want(given: dict[str, Any]) -> Any:
    return exact(tuple(sorted(given.items())))


@pytest.mark.parametrize(
    "seq",
    [
        [{"draw": 1, "discard": 0}, {"draw": 1, "discard": 0}, {"draw": True, "discard": 0}],
        [{"draw": 1}, {"draw": True}, {"draw": 1}, {"draw": 1.0}],
        [{"w": (1, 2)}, {"w": (True, 2)}, {"w": (1, 2)}],
        [{"w": 3, "draw": 0}, {"draw": 0, "w": 3}, {"draw": 0, "w": "3"}, {"draw": 0, "w": 3}],
        [{"x": "a"}, {"x": "a", "y": 1}, {"x": "a"}],
    ],
)
def test_the_key_is_the_exact_key_of_the_sorted_parameters(seq: list[dict[str, Any]]) -> None:
    selection._GIVEN[0] = ((), (), None)
    for given in seq:
        got = selection._given_key(given)
        assert got == _want(given) and type(got) is type(_want(given)), given


def test_true_is_not_one() -> None:
    selection._GIVEN[0] = ((), (), None)
    one = selection._given_key({"draw": 1})
    assert selection._GIVEN[0][2] is one  # kept: whole numbers only
    true = selection._given_key({"draw": True})
    assert true != one and selection._GIVEN[0][2] is one  # a truth value: worked out, not kept
    assert selection._given_key({"draw": 1}) is one
