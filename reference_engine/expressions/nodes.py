"""The syntax tree: one node class per construct, each compiling itself once into a closure
of a :class:`~reference_engine.expressions.values.Scope`.

Compiling is done once per expression; evaluating calls the closures only (no lookups of
nodes, no dispatch on node types). A chain of one operator is one flat :class:`Chain`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import EvalError
from .values import (
    MAX_NUMBER,
    WILDCARD,
    Scope,
    Value,
    _kind,
    as_int,
    contains,
    equal,
    index_list,
    plain,
    too_large,
    truthy,
)

MAX_RANGE = 1_000_000  # numbers in a range a..b
MAX_ITERATIONS = MAX_RANGE  # items a comprehension goes through in one evaluation, all clauses together


class _Out(list[Any]):
    """A comprehension's result while it is built, counting the items its loops went through."""

    steps = 0


Fn = Callable[[Scope], Any]


@dataclass
class Node:
    col: int

    def compile(self) -> Fn:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def names(self) -> set[str]:
        """Free names used by this expression (for static checks)."""
        return set()

    def calls(self) -> set[str]:
        """Names of functions this expression calls."""
        return set()


def _union(parts: Iterable[Node], attr: str) -> set[str]:
    out: set[str] = set()
    for p in parts:
        out |= getattr(p, attr)()
    return out


@dataclass
class Const(Node):
    value: Any

    def compile(self) -> Fn:
        v = self.value
        return lambda scope: v


@dataclass
class Name(Node):
    name: str

    def compile(self) -> Fn:
        n = self.name
        return lambda scope: scope.lookup(n)

    def names(self) -> set[str]:
        return {self.name}


@dataclass
class Star(Node):
    def compile(self) -> Fn:
        return lambda scope: WILDCARD


@dataclass
class ListLit(Node):
    items: list[Node]

    def compile(self) -> Fn:
        fns = [i.compile() for i in self.items]
        return lambda scope: [f(scope) for f in fns]

    def names(self) -> set[str]:
        return _union(self.items, "names")

    def calls(self) -> set[str]:
        return _union(self.items, "calls")


@dataclass
class Comprehension(Node):
    """``[element for v in iterable if condition for w in ...]`` (clauses nest left to right)."""

    element: Node
    clauses: list[tuple[str, Node]]  # ("for", var as Name-less marker via name) / ("if", cond)
    variables: list[str]

    def compile(self) -> Fn:
        elem = self.element.compile()
        clauses: list[tuple[str, str, Fn]] = []
        vi = 0
        for kind, node in self.clauses:
            if kind == "for":
                clauses.append(("for", self.variables[vi], node.compile()))
                vi += 1
            else:
                clauses.append(("if", "", node.compile()))

        # Each clause becomes a function of (scope, out) calling the next one; a loop binds its
        # variable in one child scope it reuses for every item (nothing keeps a scope).
        Emit = Callable[[Scope, list[Any]], None]

        def emit_element(inner: Scope, out: list[Any]) -> None:
            out.append(elem(inner))

        def chain(i: int) -> Emit:
            if i == len(clauses):
                return emit_element
            kind, var, fn = clauses[i]
            nxt = chain(i + 1)
            if kind == "if":

                def when(inner: Scope, out: list[Any]) -> None:
                    if truthy(fn(inner)):
                        nxt(inner, out)

                return when

            def loop(inner: Scope, out: list[Any]) -> None:
                seq = plain(fn(inner))
                if not isinstance(seq, (list, tuple, range)):
                    raise EvalError(f"cannot iterate over {type(seq).__name__}")
                names: dict[str, Any] = {}
                child = Scope(names, inner, inner.functions)
                assert isinstance(out, _Out)
                out.steps += len(seq)
                if out.steps > MAX_ITERATIONS:
                    raise EvalError(
                        f"the comprehension goes through more than {MAX_ITERATIONS:,} items (the limit)"
                    )
                for item in seq:
                    names[var] = item
                    nxt(child, out)

            return loop

        first = chain(0)

        def run(scope: Scope) -> list[Any]:
            out = _Out()
            first(scope, out)
            return list(out)

        return run

    def names(self) -> set[str]:
        bound: set[str] = set()
        free: set[str] = set()
        vi = 0
        for kind, node in self.clauses:
            free |= node.names() - bound
            if kind == "for":
                bound.add(self.variables[vi])
                vi += 1
        return free | (self.element.names() - bound)

    def calls(self) -> set[str]:
        return _union([self.element] + [n for _, n in self.clauses], "calls")


@dataclass
class RangeNode(Node):
    lo: Node
    hi: Node

    def compile(self) -> Fn:
        lo, hi = self.lo.compile(), self.hi.compile()

        def run(scope: Scope) -> list[int]:
            a, b = as_int(lo(scope)), as_int(hi(scope))
            if b - a + 1 > MAX_RANGE:
                raise EvalError(f"the range {a}..{b} has {b - a + 1:,} numbers (the limit is {MAX_RANGE:,})")
            return list(range(a, b + 1))

        return run

    def names(self) -> set[str]:
        return self.lo.names() | self.hi.names()

    def calls(self) -> set[str]:
        return self.lo.calls() | self.hi.calls()


@dataclass
class Call(Node):
    func: str
    args: list[Node]

    def compile(self) -> Fn:
        fns = [a.compile() for a in self.args]
        name = self.func

        def run(scope: Scope) -> Any:
            fn = scope.functions.get(name)
            if fn is None:
                raise EvalError(f"unknown function {name!r}")
            return fn(scope, *[f(scope) for f in fns])

        return run

    def names(self) -> set[str]:
        return _union(self.args, "names")

    def calls(self) -> set[str]:
        return {self.func} | _union(self.args, "calls")


@dataclass
class Index(Node):
    obj: Node
    args: list[Node]

    def compile(self) -> Fn:
        obj = self.obj.compile()
        fns = [a.compile() for a in self.args]

        def run(scope: Scope) -> Any:
            target = obj(scope)
            args = [f(scope) for f in fns]
            if isinstance(target, Value):
                return target.kg_index(args)
            return index_list(target, args)

        return run

    def names(self) -> set[str]:
        return self.obj.names() | _union(self.args, "names")

    def calls(self) -> set[str]:
        return self.obj.calls() | _union(self.args, "calls")


@dataclass
class Attr(Node):
    obj: Node
    attr: str

    def compile(self) -> Fn:
        obj = self.obj.compile()
        attr = self.attr

        def run(scope: Scope) -> Any:
            target = obj(scope)
            if isinstance(target, Value):
                return target.kg_attr(attr)
            if isinstance(target, dict):
                if attr not in target:
                    raise EvalError(f"no field {attr!r} (fields: {', '.join(sorted(target))})")
                return target[attr]
            raise EvalError(f"{type(target).__name__} has no field {attr!r}")

        return run

    def names(self) -> set[str]:
        return self.obj.names()

    def calls(self) -> set[str]:
        return self.obj.calls()


@dataclass
class Unary(Node):
    op: str
    operand: Node

    def compile(self) -> Fn:
        f = self.operand.compile()
        if self.op == "not":
            return lambda scope: not truthy(f(scope))
        return lambda scope: _bounded(-as_int(f(scope)))

    def names(self) -> set[str]:
        return self.operand.names()

    def calls(self) -> set[str]:
        return self.operand.calls()


_INT_OPS: dict[str, Callable[[int, int], Any]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_INT_ORDER: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _bounded(n: int) -> int:
    if -MAX_NUMBER <= n <= MAX_NUMBER:
        return n
    raise EvalError(too_large(n))


def _arith(op: str) -> Callable[[Any, Any], Any]:
    fast = _INT_OPS.get(op)

    def run(a: Any, b: Any) -> Any:
        if fast is not None and type(a) is int and type(b) is int:
            n = fast(a, b)  # the common case, without the checks below
            if -MAX_NUMBER <= n <= MAX_NUMBER:
                return n
            raise EvalError(too_large(n))
        a, b = plain(a), plain(b)
        if op == "+":
            if isinstance(a, list) and isinstance(b, list):
                return a + b
            if isinstance(a, str) and isinstance(b, str):
                return a + b
            return _bounded(as_int(a) + as_int(b))
        x, y = as_int(a), as_int(b)
        if op == "-":
            return _bounded(x - y)
        if op == "*":
            return _bounded(x * y)
        if y == 0 and op in ("/", "//", "%"):
            raise EvalError("division by zero")
        if op == "/":
            if x % y:
                raise EvalError(f"{x} / {y} is not a whole number; use // for integer division")
            return x // y
        if op == "//":
            return x // y
        return x % y

    return run


def _ordered(op: str) -> Callable[[Any, Any], bool]:
    fast = _INT_ORDER[op]

    def run(a: Any, b: Any) -> bool:
        if type(a) is int and type(b) is int:
            return fast(a, b)
        a, b = plain(a), plain(b)
        try:
            if op == "<":
                return bool(a < b)
            if op == "<=":
                return bool(a <= b)
            if op == ">":
                return bool(a > b)
            return bool(a >= b)
        except TypeError:
            raise EvalError(f"cannot compare {_kind(a)} and {_kind(b)} with {op}") from None

    return run


def _compare(op: str) -> Callable[[Any, Any], bool]:
    if op == "==":
        return lambda a, b: bool(equal(a, b))
    if op == "!=":
        return lambda a, b: not equal(a, b)
    if op == "in":
        return lambda a, b: contains(b, a)
    if op == "not in":
        return lambda a, b: not contains(b, a)
    return _ordered(op)


@dataclass
class Chain(Node):
    """Operators of one precedence level applied left to right: ``a + b - c``, ``a and b and c``.

    One flat node, so that a long chain neither nests the compiled closures nor the recursion
    of compiling and evaluating them. ``and``/``or`` chains hold only that operator.
    """

    first: Node
    rest: list[tuple[str, Node]]

    def compile(self) -> Fn:
        first = self.first.compile()
        ops = {op for op, _ in self.rest}
        if ops <= {"and"} or ops <= {"or"}:
            fns = [n.compile() for _, n in self.rest]
            if ops == {"and"}:

                def run_and(scope: Scope) -> Any:
                    a = first(scope)
                    for f in fns:
                        if not truthy(a):
                            return a
                        a = f(scope)
                    return a

                return run_and

            def run_or(scope: Scope) -> Any:
                a = first(scope)
                for f in fns:
                    if truthy(a):
                        return a
                    a = f(scope)
                return a

            return run_or
        rest = [(_arith(op), n.compile()) for op, n in self.rest]

        def run(scope: Scope) -> Any:
            acc = first(scope)
            for fn, f in rest:
                acc = fn(acc, f(scope))
            return acc

        return run

    def names(self) -> set[str]:
        return self.first.names() | _union((n for _, n in self.rest), "names")

    def calls(self) -> set[str]:
        return self.first.calls() | _union((n for _, n in self.rest), "calls")


@dataclass
class Compare(Node):
    first: Node
    rest: list[tuple[str, Node]]

    def compile(self) -> Fn:
        first = self.first.compile()
        rest = [(_compare(op), n.compile()) for op, n in self.rest]

        def run(scope: Scope) -> bool:
            left = first(scope)
            for fn, right_fn in rest:
                right = right_fn(scope)
                if not fn(left, right):
                    return False
                left = right
            return True

        return run

    def names(self) -> set[str]:
        return self.first.names() | _union((n for _, n in self.rest), "names")

    def calls(self) -> set[str]:
        return self.first.calls() | _union((n for _, n in self.rest), "calls")


@dataclass
class Conditional(Node):
    then: Node
    cond: Node
    other: Node

    def compile(self) -> Fn:
        t, c, o = self.then.compile(), self.cond.compile(), self.other.compile()
        return lambda scope: t(scope) if truthy(c(scope)) else o(scope)

    def names(self) -> set[str]:
        return self.then.names() | self.cond.names() | self.other.names()

    def calls(self) -> set[str]:
        return self.then.calls() | self.cond.calls() | self.other.calls()
