"""The expression language: our own parser, 1-based indexing, inclusive ranges, no eval."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from reference_engine.errors import SpecError
from reference_engine.expressions import (
    MAX_DEPTH,
    MAX_NESTING,
    MAX_RANGE,
    EvalError,
    ExprSyntaxError,
    Scope,
    parse,
)
from reference_engine.functions import BUILTINS
from reference_engine.registry import Library


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


def test_syntax_errors_point_at_the_column() -> None:
    with pytest.raises(ExprSyntaxError) as info:
        parse("s[1..2")
    assert info.value.col == 6
    assert info.value.pointer().splitlines()[1] == " " * 6 + "^"


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


def test_names_and_calls_are_reported_for_static_checks() -> None:
    e = parse("[f(c[i]) for i in 1..m if x[i] == 1]")
    assert e.names() == {"c", "m", "x"}
    assert e.calls() == {"f"}


# --------------------------------------------------------------------------- bounded size

NESTED = {
    "parentheses": ("(" * 5000 + "1" + ")" * 5000, MAX_NESTING),
    "not": ("not " * 5000 + "x", 4 * MAX_NESTING),
    "minus": ("-" * 5000 + "1", MAX_NESTING),
    "lists": ("[" * 5000 + "]" * 5000, MAX_NESTING),
    "calls": ("len(" * 5000 + "x" + ")" * 5000, 4 * MAX_NESTING + 3),
    "else": ("1 if x else " * 5000 + "2", 12 * MAX_NESTING + 7),
}


@pytest.mark.parametrize("name", sorted(NESTED))
def test_deep_nesting_is_a_syntax_error_at_a_column(name: str) -> None:
    text, col = NESTED[name]
    with pytest.raises(ExprSyntaxError) as info:
        parse(text)
    assert info.value.message == f"expression nested more than {MAX_NESTING} levels deep"
    assert info.value.col == col  # where the 51st level starts
    # The message and the pointer show the part around the column, not 10,000 characters.
    assert len(str(info.value)) < 200
    shown, caret = info.value.pointer().splitlines()
    assert len(shown) < 100 and caret.endswith("^")


def test_nesting_up_to_the_limit_is_fine() -> None:
    assert ev("(" * MAX_NESTING + "1" + ")" * MAX_NESTING) == 1
    assert ev("not " * MAX_NESTING + "0") is (MAX_NESTING % 2 == 1)
    assert ev("-" * MAX_NESTING + "1") == (-1) ** MAX_NESTING
    nested: list[Any] = []
    for _ in range(MAX_NESTING - 1):
        nested = [nested]
    assert ev("[" * MAX_NESTING + "]" * MAX_NESTING) == nested


@pytest.mark.parametrize(
    "text",
    ["x" + "[1]" * 5000, "x" + ".a" * 5000, "[y for y in 1..2" + " for z in 1..2" * 200 + "]"],
    ids=["indexing", "fields", "comprehension-clauses"],
)
def test_deep_syntax_trees_are_refused(text: str) -> None:
    with pytest.raises(ExprSyntaxError, match=f"nested more than {MAX_DEPTH} levels deep"):
        parse(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("+".join(["1"] * 10_000), 10_000),
        ("-".join(["1"] * 10_000), 1 - 9_999),
        ("*".join(["1"] * 10_000), 1),
        (" and ".join(["1"] * 10_000), 1),
        (" or ".join(["0"] * 10_000), 0),
        (" + ".join(f"({i} * 2 - {i})" for i in range(5_000)), sum(range(5_000))),
    ],
    ids=["plus", "minus", "times", "and", "or", "mixed"],
)
def test_long_flat_expressions_parse_compile_and_evaluate(text: str, value: int) -> None:
    """A chain of one operator is one flat node: nothing recurses once per term."""
    e = parse(text)
    assert e(Scope(functions=BUILTINS)) == value
    assert e.names() == set() and e.calls() == set()


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


def test_a_deep_expression_in_a_spec_names_file_line_and_key(variant: Callable[..., Library]) -> None:
    deep = "(" * 5000 + "a and b" + ")" * 5000
    lib = variant("five-card-trick", ('equals: "a and b"', f'equals: "{deep}"'))
    with pytest.raises(SpecError) as info:
        lib.protocol("five-card-trick")
    (p,) = info.value.problems
    assert p.file.endswith("five-card-trick.yaml") and p.line is not None
    assert p.path == "outputs.and.equals"
    assert f"expression nested more than {MAX_NESTING} levels deep at column {MAX_NESTING + 1}" in p.message
    assert len(str(info.value)) < 600
