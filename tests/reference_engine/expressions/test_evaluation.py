"""Evaluating expressions: 1-based indexing, inclusive ranges, fields, chains, no eval."""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine.expressions import MAX_RANGE, EvalError, ExprSyntaxError, Scope, parse
from reference_engine.functions import BUILTINS


def ev(text: str, **names: Any) -> Any:
    return parse(text)(Scope(dict(names), functions=BUILTINS))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("7 // 2", 3),
        ("7 % 3", 1),
        ("-3 + 5", 2),
        ("1..4", [1, 2, 3, 4]),
        ("3..2", []),
        ("[i * i for i in 1..4 if i != 2]", [1, 9, 16]),
        ("any(i > 3 for i in 1..4)", True),
        ("all(i > 3 for i in 1..4)", False),
        ("1 < 2 < 3", True),
        ("3 > 2 > 2", False),
        ("2 in [1, 2]", True),
        ("2 not in [1, 2]", False),
        ("'a' if 1 == 1 else 'b'", "a"),
        ("not 0 and 1", 1),
        ("[] or [5]", [5]),
        ("reversed(1..3)", [3, 2, 1]),
        ("sum([1, 2, 3]) + len([4])", 7),
    ],
)
def test_values(text: str, value: Any) -> None:
    assert ev(text) == value


def test_indexing_is_one_based_like_the_papers() -> None:
    assert ev("x[1]", x=[10, 20, 30]) == 10
    assert ev("x[2..3]", x=[10, 20, 30]) == [20, 30]
    with pytest.raises(EvalError, match=r"outside 1\.\.3"):
        ev("x[0]", x=[10, 20, 30])


def test_fields_of_records() -> None:
    card = {"color": "red", "number": 7}
    assert ev("card.color == 'red' and card.number > 5", card=card) is True
    with pytest.raises(EvalError, match="no field 'colour'"):
        ev("card.colour", card=card)


def test_unknown_names_and_functions_are_errors() -> None:
    with pytest.raises(EvalError, match="unknown name 'nope'"):
        ev("nope + 1")
    with pytest.raises(EvalError, match="unknown function 'open'"):
        ev("open('x')")


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os')",
        "().__class__",
        "x.__class__",
        "lambda: 1",
        "exec('1')",
    ],
)
def test_no_python_escapes(text: str) -> None:
    """Nothing reaches Python's own evaluation: dunder access, lambdas and builtins all fail."""
    with pytest.raises((EvalError, ExprSyntaxError)):
        ev(text, x={"a": 1})


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("10 - 3 - 2", 5),
        ("2 * 3 + 4 * 5 - 6 // 2 % 4", 23),
        ("1 and 0 or 5", 5),
        ("0 or 0 and 3", 0),
        ("[] or 0 or [1]", [1]),
        ("1 and 2 and 3", 3),
        ("1 and [] and 3", []),
        ("100 // 7 // 2", 7),
    ],
)
def test_chains_keep_left_to_right_semantics(text: str, value: Any) -> None:
    assert ev(text) == value


def test_short_circuit_still_skips_the_rest() -> None:
    assert ev("0 and nope") == 0
    assert ev("1 or nope") == 1


def test_ranges_are_bounded() -> None:
    assert len(ev("1..m", m=MAX_RANGE)) == MAX_RANGE
    with pytest.raises(EvalError, match=f"the limit is {MAX_RANGE:,}"):
        ev("1..m", m=10**12)


def test_a_list_read_at_a_whole_number_reads_as_the_general_path() -> None:
    """``index_list``'s shortcut for ``xs[i]`` gives what its general path gives, and leaves
    every other index (a bool, out of range, a list of positions) to it."""
    from reference_engine.expressions.values import index_list

    xs = [10, 20, 30]
    assert index_list(xs, [1]) == 10 and index_list(tuple(xs), [3]) == 30
    assert index_list(xs, [[1, 3]]) == [10, 30]
    assert index_list(xs, [True]) == 10  # a bool is read as the number it is, by the general path
    for bad in (0, 4, -1):
        with pytest.raises(EvalError, match=r"outside 1\.\.3"):
            index_list(xs, [bad])
    with pytest.raises(EvalError, match="one index"):
        index_list(xs, [1, 2])


def test_index_lists_fast_path_gives_the_general_paths_values_and_messages() -> None:
    """Attack (round 3): index_list's fast path (a list or tuple, a whole number in range)
    against its general path on bools, 0, negatives, past the end, tuples, strings, lists of
    indexes, a list subclass: the same values, the same errors."""
    from reference_engine.expressions.values import as_int, index_list, plain

    def general(target: Any, args: list[Any]) -> Any:
        target = plain(target)
        if len(args) != 1:
            raise EvalError("a list takes one index")
        if not isinstance(target, (list, tuple, str)):
            raise EvalError("cannot be indexed")
        idx = plain(args[0])
        if isinstance(idx, list):
            return [general(target, [i]) for i in idx]
        i = as_int(idx)
        if not 1 <= i <= len(target):
            raise EvalError(f"index {i} is outside 1..{len(target)}")
        return target[i - 1]

    class Mine(list[int]):
        pass

    def outcome(f: Any, *a: Any) -> Any:
        try:
            return ("ok", f(*a))
        except EvalError as exc:
            return ("error", str(exc))

    targets: list[Any] = [[10, 20, 30], (10, 20), "abc", Mine([7, 8]), [], ()]
    indexes: list[Any] = [0, 1, 2, 3, 4, -1, -3, True, False, [1, 2], [True], 2**70, "a", 1.0]
    for t in targets:
        for i in indexes:
            got, want = outcome(index_list, t, [i]), outcome(general, t, [i])
            assert got[0] == want[0], (t, i)
            if got[0] == "ok":
                assert got == want and type(got[1]) is type(want[1]), (t, i)
            elif "index" in want[1]:
                assert got == want, (t, i)
        assert outcome(index_list, t, [1, 2]) == ("error", "a list takes one index")
