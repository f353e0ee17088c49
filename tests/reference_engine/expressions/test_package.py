"""The expression package: its public names, where its errors live, and its small parts."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from reference_engine import expressions as ex
from reference_engine.expressions import errors, nodes, tokens, values

# What the engine, the kit generator and the tests import from the package today.
IMPORTED = [
    "EvalError",
    "ExprSyntaxError",
    "Expression",
    "Index",
    "Name",
    "Scope",
    "Value",
    "WILDCARD",
    "as_int",
    "equal",
    "parse",
    "plain",
    "truthy",
    "MAX_DEPTH",
    "MAX_NESTING",
    "MAX_RANGE",
]


def test_every_public_name_is_importable_from_the_package() -> None:
    assert set(IMPORTED) <= set(ex.__all__)
    for name in ex.__all__:
        assert hasattr(ex, name), name


def test_every_node_class_is_reachable_from_the_package() -> None:
    """The test enumerator walks syntax trees as ``ex.<NodeClass>``."""
    classes = nodes.Node.__subclasses__()
    assert len(classes) >= 13
    for cls in [nodes.Node, *classes]:
        assert getattr(ex, cls.__name__) is cls, cls.__name__


def test_the_errors_are_in_the_one_error_tree() -> None:
    from reference_engine.errors import KitgenError, LoadError, RunError

    assert issubclass(ex.ExprSyntaxError, LoadError) and issubclass(ex.EvalError, RunError)
    for cls in (ex.EvalError, ex.ExprSyntaxError):
        assert issubclass(cls, KitgenError)
        assert cls.__module__ == "reference_engine.errors"
        assert getattr(errors, cls.__name__) is cls
    for name in ("values", "tokens", "nodes", "parser", "expression"):
        module = importlib.import_module(f"reference_engine.expressions.{name}")
        for cls in vars(module).values():
            if isinstance(cls, type) and issubclass(cls, BaseException):
                assert cls.__module__ == "reference_engine.errors", (name, cls)


def test_tokens_mark_keywords_and_end() -> None:
    assert [(t.kind, t.text, t.col) for t in tokens.tokenize("x in 1..n")] == [
        ("name", "x", 0),
        ("kw", "in", 2),
        ("num", "1", 5),
        ("op", "..", 6),
        ("name", "n", 8),
        ("end", "", 9),
    ]
    with pytest.raises(ex.ExprSyntaxError) as info:
        tokens.tokenize("a ? b")
    assert info.value.col == 2


class _Faces(values.Value):
    def __init__(self, faces: Any):
        self.faces = faces

    def kg_value(self) -> Any:
        return self.faces


def test_values_reduce_to_plain_for_comparisons() -> None:
    assert values.Wildcard() is values.WILDCARD and repr(values.WILDCARD) == "*"
    assert values.plain(_Faces(_Faces([3]))) == [3]
    assert values.equal(_Faces([3]), 3) and values.contains([1, _Faces(2)], 2)
    assert values.index_list([10, 20, 30], [[3, 1]]) == [30, 10]
    with pytest.raises(ex.EvalError, match="expected a number"):
        values.as_int("three")
