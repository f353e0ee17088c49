"""A parsed, compiled expression, and :func:`parse` that makes one from text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import EvalError, ExprSyntaxError
from .nodes import Const, Fn, Node
from .parser import MAX_DEPTH, _check_depth, _Parser
from .values import MAX_NUMBER, Scope, too_large


@dataclass
class Expression:
    """A parsed, compiled expression with its source text.

    :func:`parse` leaves ``fn`` unmade (:class:`_Unmade`): the tree is compiled into closures at
    the first evaluation. A spec's expressions are mostly read by the compiled path's own
    functions (:mod:`..compiled.codegen`): of the ~120 that UNO's card-level protocol and its
    callee parse, its first 1,000 turns evaluate 4 this way, and compiling them all was a
    fourteenth of loading the spec. Compiling raises nothing but a RecursionError, which an
    evaluation reports as it does one of its own."""

    text: str
    node: Node
    fn: Fn

    def __call__(self, scope: Scope) -> Any:
        try:
            fn = self.fn
            if type(fn) is _Unmade:
                fn = self.fn = self.node.compile()
            return fn(scope)
        except EvalError as exc:
            raise EvalError(f"{exc} (in {self.text!r})") from None
        except RecursionError:
            raise EvalError(f"expression too deeply nested: {self.text!r}") from None

    def names(self) -> set[str]:
        """Free names (computed once: the tree never changes)."""
        cached = self.__dict__.get("_names")
        if cached is None:
            cached = self.__dict__["_names"] = frozenset(self.node.names())
        return set(cached)

    def uses(self, name: str) -> bool:
        cached = self.__dict__.get("_names")
        if cached is None:
            self.names()
            cached = self.__dict__["_names"]
        return name in cached

    def calls(self) -> set[str]:
        return self.node.calls()

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"


def parse(text: str | int | bool) -> Expression:
    """Parse expression text (numbers and booleans from YAML are accepted as constants)."""
    if isinstance(text, bool):
        return Expression(str(text).lower(), Const(0, text), lambda scope: text)
    if isinstance(text, int):
        if abs(text) > MAX_NUMBER:
            raise ExprSyntaxError(too_large(text), str(text) if abs(text) < 10**30 else "...", 0)
        value = text
        return Expression(str(text), Const(0, value), lambda scope: value)
    if not isinstance(text, str):
        raise ExprSyntaxError(f"expected an expression, got {type(text).__name__}", str(text), 0)
    parser = _Parser(text)
    try:
        node = parser.parse()
        if len(parser.kinds) > MAX_DEPTH:  # a tree of fewer tokens is never too deep (_check_depth)
            _check_depth(node, text)
        return Expression(text, node, _Unmade())
    except RecursionError:  # not reached within the limits; a last resort for a deep caller
        raise ExprSyntaxError("expression nested too deeply", text, parser.tok.col) from None


class _Unmade:
    """An :class:`Expression`'s ``fn`` until its first evaluation compiles the tree. One per
    expression, as a compiled ``fn`` is: two expressions (dataclasses) compare equal only when
    they share their ``fn``, whether it is made yet or not."""

    __slots__ = ()

    def __call__(self, scope: Scope) -> Any:  # pragma: no cover - Expression.__call__ compiles first
        raise AssertionError("an expression is compiled at its first evaluation")
