"""A small expression language, parsed and evaluated by our own code (never ``eval``).

Used by protocol specs (positions, conditions on revealed faces, expected outputs) and by
game rule sets (card validity). The syntax is a subset of Python with two additions that
mirror how papers write things:

* indices start at 1 and ranges are inclusive: ``x[1]`` is the first item, ``1..m`` is
  ``1, 2, ..., m``;
* ``*`` selects a whole row or column: ``M[2, *]`` is row 2, ``M[*, j]`` is column j.

Grammar, lowest precedence first::

    expr     := or ("if" or "else" expr)?
    or       := and ("or" and)*
    and      := not ("and" not)*
    not      := "not" not | compare
    compare  := range (("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in") range)*
    range    := sum (".." sum)?
    sum      := term (("+" | "-") term)*
    term     := unary (("*" | "/" | "//" | "%") unary)*
    unary    := "-" unary | postfix
    postfix  := atom ("(" args ")" | "[" index "]" | "." NAME)*
    atom     := NUMBER | STRING | NAME | "true" | "false" | "none" | "(" expr ")"
              | "[" (expr ("," expr)* | expr "for" NAME "in" or ("if" or)?) "]"

An expression compiles once into a tree of closures; evaluating it needs a
:class:`Scope` that resolves names. Values with table semantics (cards on the table,
symbols) implement the small hooks of :class:`Value`.

Size is bounded (README, "Expressions"): brackets, parentheses, calls, ``not``, unary ``-``
and ``if ... else`` nest at most :data:`MAX_NESTING` levels, the syntax tree is at most
:data:`MAX_DEPTH` levels deep, and a chain of one operator (``1 + 1 + ... + 1``,
``a and b and c``) is one flat node whatever its length, so parsing, compiling and
evaluating never recurse deeper than these limits. A range ``a..b`` holds at most
:data:`MAX_RANGE` numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import Any

KEYWORDS = {"and", "or", "not", "if", "else", "for", "in", "true", "false", "none"}

MAX_NESTING = 50  # brackets, parentheses, calls, not, unary -, if/else inside each other
MAX_DEPTH = 100  # levels of the syntax tree (a.b[1].c is three; a chain of one operator is one)
MAX_RANGE = 1_000_000  # numbers in a range a..b


class ExprSyntaxError(Exception):
    """The text is not a valid expression. ``col`` is the 0-based column of the problem."""

    def __init__(self, message: str, text: str, col: int):
        self.message = message
        self.text = text
        self.col = col
        shown, _ = _window(text, col)
        super().__init__(f"{message} in {shown!r} at column {col + 1}")

    def pointer(self) -> str:
        """The expression with a caret under the problem (lark-style); a long one is cut
        to the part around the problem."""
        shown, at = _window(self.text, self.col)
        return f"{shown}\n{' ' * at}^"


def _window(text: str, col: int, width: int = 72) -> tuple[str, int]:
    """``text`` cut to about ``width`` characters around ``col``, and ``col`` within the cut."""
    if len(text) <= width:
        return text, col
    start = max(0, min(col - width // 2, len(text) - width))
    end = start + width
    head = "..." if start > 0 else ""
    tail = "..." if end < len(text) else ""
    return head + text[start:end] + tail, col - start + len(head)


class EvalError(Exception):
    """An expression could not be evaluated (unknown name, wrong type, ...)."""


class Wildcard:
    """The ``*`` of ``M[2, *]``: every row or every column."""

    _instance: Wildcard | None = None

    def __new__(cls) -> Wildcard:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "*"


WILDCARD = Wildcard()


class Value:
    """Hooks for values with their own semantics (table slots, symbols, records)."""

    def kg_index(self, args: list[Any]) -> Any:
        raise EvalError(f"{self!r} cannot be indexed")

    def kg_attr(self, name: str) -> Any:
        raise EvalError(f"{self!r} has no attribute {name!r}")

    def kg_value(self) -> Any:
        """The plain value used by comparisons and arithmetic (e.g. the faces of cards)."""
        return self


def plain(value: Any) -> Any:
    """Reduce a :class:`Value` to what comparisons see."""
    while isinstance(value, Value):
        nxt = value.kg_value()
        if nxt is value:
            return value
        value = nxt
    return value


class Scope:
    """Name resolution: a dict of names with an optional parent scope."""

    __slots__ = ("functions", "names", "parent")

    def __init__(
        self,
        names: dict[str, Any] | None = None,
        parent: Scope | None = None,
        functions: dict[str, Callable[..., Any]] | None = None,
    ):
        self.names: dict[str, Any] = names if names is not None else {}
        self.parent: Scope | None = parent
        inherited: dict[str, Callable[..., Any]] = parent.functions if parent is not None else {}
        self.functions: dict[str, Callable[..., Any]] = functions if functions is not None else inherited

    def lookup(self, name: str) -> Any:
        if name in self.names:
            return self.names[name]
        if self.parent is not None:
            return self.parent.lookup(name)
        raise EvalError(f"unknown name {name!r}")

    def child(self, names: dict[str, Any]) -> Scope:
        return Scope(names, self, self.functions)


# --------------------------------------------------------------------------- tokens

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<num>\d+)
  | (?P<str>'[^']*'|"[^"]*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\.\.|==|!=|<=|>=|//|[-+*/%<>()\[\],.])
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class Token:
    kind: str  # num, str, name, op, kw, end
    text: str
    col: int


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ExprSyntaxError(f"unexpected character {text[pos]!r}", text, pos)
        kind = m.lastgroup or ""
        if kind != "ws":
            word = m.group()
            if kind == "name" and word in KEYWORDS:
                kind = "kw"
            tokens.append(Token(kind, word, pos))
        pos = m.end()
    tokens.append(Token("end", "", len(text)))
    return tokens


# --------------------------------------------------------------------------- AST


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
                for item in seq:
                    names[var] = item
                    nxt(child, out)

            return loop

        first = chain(0)

        def run(scope: Scope) -> list[Any]:
            out: list[Any] = []
            first(scope, out)
            return out

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
        return lambda scope: -as_int(f(scope))

    def names(self) -> set[str]:
        return self.operand.names()

    def calls(self) -> set[str]:
        return self.operand.calls()


def _arith(op: str) -> Callable[[Any, Any], Any]:
    def run(a: Any, b: Any) -> Any:
        a, b = plain(a), plain(b)
        if op == "+":
            if isinstance(a, list) and isinstance(b, list):
                return a + b
            if isinstance(a, str) and isinstance(b, str):
                return a + b
            return as_int(a) + as_int(b)
        x, y = as_int(a), as_int(b)
        if op == "-":
            return x - y
        if op == "*":
            return x * y
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
    def run(a: Any, b: Any) -> bool:
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


# --------------------------------------------------------------------------- values


def _kind(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "number"
    if isinstance(v, list):
        return "list"
    return type(v).__name__


def truthy(v: Any) -> bool:
    v = plain(v)
    if isinstance(v, (list, tuple, str)):
        return len(v) > 0
    return bool(v)


def as_int(v: Any) -> int:
    v = plain(v)
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    raise EvalError(f"expected a number, got {_kind(v)} {v!r}")


def equal(a: Any, b: Any) -> bool:
    a, b = plain(a), plain(b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (list, tuple)) and len(a) == 1:
        return equal(a[0], b)
    if isinstance(b, (list, tuple)) and len(b) == 1:
        return equal(a, b[0])
    if (isinstance(a, bool) or isinstance(b, bool)) and isinstance(a, int) and isinstance(b, int):
        return int(a) == int(b)
    return bool(a == b)


def contains(container: Any, item: Any) -> bool:
    container = plain(container)
    if isinstance(container, (list, tuple)):
        return any(equal(item, c) for c in container)
    if isinstance(container, str):
        return isinstance(plain(item), str) and plain(item) in container
    if isinstance(container, dict):
        return plain(item) in container
    raise EvalError(f"'in' needs a list, got {_kind(container)}")


def index_list(target: Any, args: list[Any]) -> Any:
    """1-based indexing of plain lists: ``xs[1]``, ``xs[2..3]`` (a list of positions)."""
    target = plain(target)
    if len(args) != 1:
        raise EvalError("a list takes one index")
    if not isinstance(target, (list, tuple, str)):
        raise EvalError(f"{_kind(target)} cannot be indexed")
    idx = plain(args[0])
    if isinstance(idx, list):
        return [index_list(target, [i]) for i in idx]
    i = as_int(idx)
    if not 1 <= i <= len(target):
        raise EvalError(f"index {i} is outside 1..{len(target)}")
    return target[i - 1]


# --------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = tokenize(text)
        self.pos = 0
        self.nesting = -1  # the whole expression is level 0

    def nest(self) -> None:
        """Enter one more level (the parser recurses): refuse past :data:`MAX_NESTING`, pointing
        at the token that opened the level (``(``, ``[``, ``not``, ``-``, ``else``...)."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            opener = self.tokens[self.pos - 1] if self.pos else self.tok
            raise self.error(f"expression nested more than {MAX_NESTING} levels deep", opener)

    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def error(self, message: str, tok: Token | None = None) -> ExprSyntaxError:
        t = tok or self.tok
        return ExprSyntaxError(message, self.text, t.col)

    def at(self, *texts: str) -> bool:
        return self.tok.kind in ("op", "kw") and self.tok.text in texts

    def advance(self) -> Token:
        t = self.tok
        self.pos += 1
        return t

    def expect(self, text: str) -> Token:
        if not self.at(text):
            found = self.tok.text or "end of expression"
            raise self.error(f"expected {text!r}, found {found!r}")
        return self.advance()

    def parse(self) -> Node:
        if self.tok.kind == "end":
            raise self.error("empty expression")
        node = self.expr()
        if self.tok.kind != "end":
            raise self.error(f"unexpected {self.tok.text!r}")
        return node

    def expr(self) -> Node:
        self.nest()
        node = self.or_()
        if self.at("if"):
            col = self.advance().col
            cond = self.or_()
            self.expect("else")
            other = self.expr()
            node = Conditional(col, node, cond, other)
        self.nesting -= 1
        return node

    # Each operator level is a loop making one flat Chain (not a helper taking the operand
    # function: that would add frames to every level of nesting).
    def or_(self) -> Node:
        node = self.and_()
        rest: list[tuple[str, Node]] = []
        while self.at("or"):
            rest.append((self.advance().text, self.and_()))
        return Chain(node.col, node, rest) if rest else node

    def and_(self) -> Node:
        node = self.not_()
        rest: list[tuple[str, Node]] = []
        while self.at("and"):
            rest.append((self.advance().text, self.not_()))
        return Chain(node.col, node, rest) if rest else node

    def not_(self) -> Node:
        if self.at("not"):
            col = self.advance().col
            self.nest()
            node = Unary(col, "not", self.not_())
            self.nesting -= 1
            return node
        return self.compare()

    def compare(self) -> Node:
        first = self.range_()
        rest: list[tuple[str, Node]] = []
        while True:
            if self.at("==", "!=", "<", "<=", ">", ">=", "in"):
                op = self.advance().text
            elif self.at("not") and self.tokens[self.pos + 1].text == "in":
                self.advance()
                self.advance()
                op = "not in"
            else:
                break
            rest.append((op, self.range_()))
        return Compare(first.col, first, rest) if rest else first

    def range_(self) -> Node:
        node = self.sum_()
        if self.at(".."):
            col = self.advance().col
            return RangeNode(col, node, self.sum_())
        return node

    def sum_(self) -> Node:
        node = self.term()
        rest: list[tuple[str, Node]] = []
        while self.at("+", "-"):
            rest.append((self.advance().text, self.term()))
        return Chain(node.col, node, rest) if rest else node

    def term(self) -> Node:
        node = self.unary()
        rest: list[tuple[str, Node]] = []
        while self.at("*", "/", "//", "%"):
            rest.append((self.advance().text, self.unary()))
        return Chain(node.col, node, rest) if rest else node

    def unary(self) -> Node:
        if self.at("-"):
            col = self.advance().col
            self.nest()
            node = Unary(col, "-", self.unary())
            self.nesting -= 1
            return node
        return self.postfix()

    def postfix(self) -> Node:
        node = self.atom()
        while True:
            if self.at("("):
                if not isinstance(node, Name):
                    raise self.error("only named functions can be called")
                self.advance()
                node = Call(node.col, node.name, self.call_args())
            elif self.at("["):
                col = self.advance().col
                args = [self.index_arg()]
                while self.at(","):
                    self.advance()
                    args.append(self.index_arg())
                self.expect("]")
                node = Index(col, node, args)
            elif self.at("."):
                self.advance()
                if self.tok.kind != "name":
                    raise self.error("expected a field name after '.'")
                name = self.advance()
                node = Attr(name.col, node, name.text)
            else:
                return node

    def index_arg(self) -> Node:
        if self.at("*"):
            return Star(self.advance().col)
        return self.expr()

    def call_args(self) -> list[Node]:
        args: list[Node] = []
        if self.at(")"):
            self.advance()
            return args
        first = self.expr()
        if self.at("for"):
            args.append(self.comprehension(first))
            self.expect(")")
            return args
        args.append(first)
        while self.at(","):
            self.advance()
            args.append(self.expr())
        self.expect(")")
        return args

    def comprehension(self, element: Node) -> Node:
        col = self.tok.col
        clauses: list[tuple[str, Node]] = []
        variables: list[str] = []
        while self.at("for", "if"):
            if self.at("if"):
                if not clauses:
                    raise self.error("a comprehension starts with 'for'")
                self.advance()
                clauses.append(("if", self.or_()))
                continue
            self.advance()
            if self.tok.kind != "name":
                raise self.error("expected a variable name after 'for'")
            variables.append(self.advance().text)
            self.expect("in")
            clauses.append(("for", self.or_()))
        return Comprehension(col, element, clauses, variables)

    def atom(self) -> Node:
        tok = self.tok
        if tok.kind == "num":
            self.advance()
            return Const(tok.col, int(tok.text))
        if tok.kind == "str":
            self.advance()
            return Const(tok.col, tok.text[1:-1])
        if tok.kind == "name":
            self.advance()
            return Name(tok.col, tok.text)
        if tok.kind == "kw" and tok.text in ("true", "false", "none"):
            self.advance()
            return Const(tok.col, {"true": True, "false": False, "none": None}[tok.text])
        if self.at("("):
            self.advance()
            node = self.expr()
            self.expect(")")
            return node
        if self.at("["):
            col = self.advance().col
            if self.at("]"):
                self.advance()
                return ListLit(col, [])
            first = self.expr()
            if self.at("for"):
                comp = self.comprehension(first)
                self.expect("]")
                return comp
            items = [first]
            while self.at(","):
                self.advance()
                if self.at("]"):
                    break
                items.append(self.expr())
            self.expect("]")
            return ListLit(col, items)
        found = tok.text or "end of expression"
        raise self.error(f"unexpected {found!r}")


@dataclass
class Expression:
    """A parsed, compiled expression with its source text."""

    text: str
    node: Node
    fn: Fn

    def __call__(self, scope: Scope) -> Any:
        try:
            return self.fn(scope)
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
        value = text
        return Expression(str(text), Const(0, value), lambda scope: value)
    if not isinstance(text, str):
        raise ExprSyntaxError(f"expected an expression, got {type(text).__name__}", str(text), 0)
    parser = _Parser(text)
    try:
        node = parser.parse()
        _check_depth(node, text)
        return Expression(text, node, node.compile())
    except RecursionError:  # not reached within the limits; a last resort for a deep caller
        raise ExprSyntaxError("expression nested too deeply", text, parser.tok.col) from None


def _children(node: Node) -> list[Node]:
    """The nodes directly below ``node`` (in fields, lists and (op, node) pairs)."""
    out: list[Node] = []
    for f in fields(node):
        value = getattr(node, f.name)
        items = value if isinstance(value, list) else [value]
        for item in items:
            parts = item if isinstance(item, tuple) else (item,)
            out.extend(x for x in parts if isinstance(x, Node))
    return out


def _check_depth(root: Node, text: str) -> None:
    """Refuse a syntax tree deeper than :data:`MAX_DEPTH` (without recursing: it may be deep).

    A comprehension counts one level per clause, as its compiled form nests one per clause.
    """
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExprSyntaxError(f"expression nested more than {MAX_DEPTH} levels deep", text, node.col)
        below = depth + 1 + (len(node.clauses) if isinstance(node, Comprehension) else 0)
        stack.extend((child, below) for child in _children(node))
