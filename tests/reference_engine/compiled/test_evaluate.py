"""The compiled evaluator's values: a list of whole numbers is taken as it is, anything else
made plain all the way down, as the interpreter's ``deep_plain`` makes it."""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine.compiled.evaluate import _deep_plain
from reference_engine.machine import deep_plain


@pytest.mark.parametrize(
    "value",
    [[1, 2, 3], [], [True, 1], [1, [2, 3]], 5, [None], (1, 2), [1, "a"], [False]],
)
def test_a_value_is_the_interpreters(value: Any) -> None:
    got, want = _deep_plain(value), deep_plain(value)
    assert got == want and type(got) is type(want)
    if isinstance(want, list):
        assert [type(x) for x in got] == [type(x) for x in want]  # a bool stays a bool


def test_a_list_of_numbers_is_a_copy() -> None:
    value = [3, 1]
    got = _deep_plain(value)
    assert got == value and got is not value  # the caller may keep it: no list shared with a variable
