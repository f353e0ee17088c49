"""Parsing expressions: errors at a column, names and calls, and the bounds on size."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from reference_engine.errors import SpecError
from reference_engine.expressions import (
    MAX_DEPTH,
    MAX_NESTING,
    Comprehension,
    EvalError,
    ExprSyntaxError,
    Node,
    Scope,
    parse,
    tokenize,
)
from reference_engine.expressions.parser import _children, _Parser
from reference_engine.functions import BUILTINS
from reference_engine.registry import Library


def ev(text: str, **names: Any) -> Any:
    return parse(text)(Scope(dict(names), functions=BUILTINS))


def test_syntax_errors_point_at_the_column() -> None:
    with pytest.raises(ExprSyntaxError) as info:
        parse("s[1..2")
    assert info.value.col == 6
    assert info.value.pointer().splitlines()[1] == " " * 6 + "^"


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


def test_a_deep_expression_in_a_spec_names_file_line_and_key(variant: Callable[..., Library]) -> None:
    deep = "(" * 900 + "a and b" + ")" * 900  # within the 2,000 characters of an expression
    lib = variant("five-card-trick", ('equals: "a and b"', f'equals: "{deep}"'))
    with pytest.raises(SpecError) as info:
        lib.protocol("five-card-trick")
    (p,) = info.value.problems
    assert p.file.endswith("five-card-trick.yaml") and p.line is not None
    assert p.path == "outputs.and.equals"
    assert f"expression nested more than {MAX_NESTING} levels deep at column {MAX_NESTING + 1}" in p.message
    assert len(str(info.value)) < 600


def _depth(node: Node) -> int:
    """The deepest level ``_check_depth`` counts below and at ``node`` (root at 1)."""
    below = 1 + (len(node.clauses) if isinstance(node, Comprehension) else 0)
    return 1 + max((below - 1 + _depth(c) for c in _children(node)), default=0)


@pytest.mark.parametrize(
    "text",
    [
        "x" + "[1]" * 60,
        "x" + ".a" * 60,
        "f(" * 40 + "1" + ")" * 40,
        "[y for y in 1..2" + " for z in 1..2" * 40 + "]",
        "f(y for y in x" + " if y" * 40 + ")",
        "[" * 40 + "]" * 40,
        "not " * 40 + "x",
        "-" * 40 + "1",
        "1 if x else " * 30 + "2",
        "(1 if x else 2) if y else 3",
        "x[*, 1..2]" + ".a" * 10,
        "a == b < c in d not in e",
        "a..b",
        "[f(c[i]) for i in 1..m if x[i] == 1]",
    ],
)
def test_a_syntax_tree_has_no_more_levels_than_tokens(text: str) -> None:
    """``parse`` walks a tree for its depth only when it has more than MAX_DEPTH tokens: every
    node owns tokens of its own, as many as the levels it adds (parser._check_depth)."""
    node = _Parser(text).parse()
    assert _depth(node) <= len(tokenize(text)) - 1


def test_the_depth_limit_is_exact_where_it_is_walked() -> None:
    """A tree of MAX_DEPTH levels (a field per level: two tokens a level) parses; one more is
    refused."""
    assert parse("x" + ".a" * (MAX_DEPTH - 1)).text.count(".") == MAX_DEPTH - 1
    with pytest.raises(ExprSyntaxError, match=f"nested more than {MAX_DEPTH} levels deep"):
        parse("x" + ".a" * MAX_DEPTH)


def test_an_expression_is_compiled_at_its_first_evaluation() -> None:
    """parse leaves the closures unmade (a spec's load evaluates few of its expressions); the
    first evaluation makes them, once, and two parses of one text stay two unequal expressions
    (each has its own ``fn``) whether evaluated or not."""
    e, twin = parse("[c + 1 for c in x if c > 1]"), parse("[c + 1 for c in x if c > 1]")
    assert type(e.fn).__name__ == "_Unmade" and e != twin and e == e
    assert ev("[c + 1 for c in x if c > 1]", x=[1, 2, 3]) == [3, 4]
    assert e(Scope({"x": [1, 2, 3]}, functions=BUILTINS)) == [3, 4]
    made = e.fn
    assert type(made).__name__ != "_Unmade" and e != twin and e == e
    assert e(Scope({"x": [5]}, functions=BUILTINS)) == [6] and e.fn is made
    with pytest.raises(EvalError, match=r"cannot iterate over int \(in 'len\(\[c for c in 3\]\)'\)"):
        parse("len([c for c in 3])")(Scope(functions=BUILTINS))
