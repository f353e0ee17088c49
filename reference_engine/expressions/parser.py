"""The parser: tokens to a syntax tree, within the nesting and depth limits."""

from __future__ import annotations

from dataclasses import fields

from .errors import ExprSyntaxError
from .nodes import (
    Attr,
    Call,
    Chain,
    Compare,
    Comprehension,
    Conditional,
    Const,
    Index,
    ListLit,
    Name,
    Node,
    RangeNode,
    Star,
    Unary,
)
from .tokens import Token, scan
from .values import MAX_NUMBER, too_large

MAX_NESTING = 50  # brackets, parentheses, calls, not, unary -, if/else inside each other
MAX_DEPTH = 100  # levels of the syntax tree (a.b[1].c is three; a chain of one operator is one)


class _Parser:
    """Recursive descent, one method per level of the grammar. Each token is read through three
    lists (its kind, text and column: :func:`.tokens.scan`) and ``ops``, the text of an operator
    or keyword (None for any other token), so that asking whether the next token is one of some
    operators (a dozen times per operand, one per level) is one look-up and one ``in``: a spec's
    load parses about a hundred expressions, a thousand tokens."""

    def __init__(self, text: str):
        self.text = text
        self.kinds, self.texts, self.cols = scan(text)
        self.ops: list[str | None] = [
            t if k == "op" or k == "kw" else None for k, t in zip(self.kinds, self.texts)
        ]
        self.pos = 0
        self.nesting = -1  # the whole expression is level 0

    def nest(self) -> None:
        """Enter one more level (the parser recurses): refuse past :data:`MAX_NESTING`, pointing
        at the token that opened the level (``(``, ``[``, ``not``, ``-``, ``else``...)."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            opener = self.cols[self.pos - 1] if self.pos else self.cols[self.pos]
            raise ExprSyntaxError(f"expression nested more than {MAX_NESTING} levels deep", self.text, opener)

    @property
    def tok(self) -> Token:
        pos = self.pos
        return Token(self.kinds[pos], self.texts[pos], self.cols[pos])

    def error(self, message: str, tok: Token | None = None) -> ExprSyntaxError:
        t = tok or self.tok
        return ExprSyntaxError(message, self.text, t.col)

    def expect(self, text: str) -> None:
        if self.ops[self.pos] != text:
            found = self.texts[self.pos] or "end of expression"
            raise self.error(f"expected {text!r}, found {found!r}")
        self.pos += 1

    def parse(self) -> Node:
        if self.kinds[self.pos] == "end":
            raise self.error("empty expression")
        node = self.expr()
        if self.kinds[self.pos] != "end":
            raise self.error(f"unexpected {self.texts[self.pos]!r}")
        return node

    def expr(self) -> Node:
        self.nest()
        node = self.or_()
        if self.ops[self.pos] == "if":
            col = self.cols[self.pos]
            self.pos += 1
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
        ops = self.ops
        while ops[self.pos] == "or":
            self.pos += 1
            rest.append(("or", self.and_()))
        return Chain(node.col, node, rest) if rest else node

    def and_(self) -> Node:
        node = self.not_()
        rest: list[tuple[str, Node]] = []
        ops = self.ops
        while ops[self.pos] == "and":
            self.pos += 1
            rest.append(("and", self.not_()))
        return Chain(node.col, node, rest) if rest else node

    def not_(self) -> Node:
        if self.ops[self.pos] == "not":
            col = self.cols[self.pos]
            self.pos += 1
            self.nest()
            node = Unary(col, "not", self.not_())
            self.nesting -= 1
            return node
        return self.compare()

    def compare(self) -> Node:
        first = self.range_()
        rest: list[tuple[str, Node]] = []
        ops = self.ops
        while True:
            op = ops[self.pos]
            if op in _COMPARE:
                self.pos += 1
            elif op == "not" and self.texts[self.pos + 1] == "in":
                self.pos += 2
                op = "not in"
            else:
                break
            rest.append((op, self.range_()))
        return Compare(first.col, first, rest) if rest else first

    def range_(self) -> Node:
        node = self.sum_()
        if self.ops[self.pos] == "..":
            col = self.cols[self.pos]
            self.pos += 1
            return RangeNode(col, node, self.sum_())
        return node

    def sum_(self) -> Node:
        node = self.term()
        rest: list[tuple[str, Node]] = []
        ops = self.ops
        while (op := ops[self.pos]) == "+" or op == "-":
            self.pos += 1
            rest.append((op, self.term()))
        return Chain(node.col, node, rest) if rest else node

    def term(self) -> Node:
        node = self.unary()
        rest: list[tuple[str, Node]] = []
        ops = self.ops
        while (op := ops[self.pos]) in _TERM:
            self.pos += 1
            rest.append((op, self.unary()))
        return Chain(node.col, node, rest) if rest else node

    def unary(self) -> Node:
        if self.ops[self.pos] == "-":
            col = self.cols[self.pos]
            self.pos += 1
            self.nest()
            node = Unary(col, "-", self.unary())
            self.nesting -= 1
            return node
        return self.postfix()

    def postfix(self) -> Node:
        node = self.atom()
        ops = self.ops
        while True:
            op = ops[self.pos]
            if op == "(":
                if not isinstance(node, Name):
                    raise self.error("only named functions can be called")
                self.pos += 1
                node = Call(node.col, node.name, self.call_args())
            elif op == "[":
                col = self.cols[self.pos]
                self.pos += 1
                args = [self.index_arg()]
                while ops[self.pos] == ",":
                    self.pos += 1
                    args.append(self.index_arg())
                self.expect("]")
                node = Index(col, node, args)
            elif op == ".":
                self.pos += 1
                if self.kinds[self.pos] != "name":
                    raise self.error("expected a field name after '.'")
                node = Attr(self.cols[self.pos], node, self.texts[self.pos])
                self.pos += 1
            else:
                return node

    def index_arg(self) -> Node:
        if self.ops[self.pos] == "*":
            self.pos += 1
            return Star(self.cols[self.pos - 1])
        return self.expr()

    def call_args(self) -> list[Node]:
        args: list[Node] = []
        ops = self.ops
        if ops[self.pos] == ")":
            self.pos += 1
            return args
        first = self.expr()
        if ops[self.pos] == "for":
            args.append(self.comprehension(first))
            self.expect(")")
            return args
        args.append(first)
        while ops[self.pos] == ",":
            self.pos += 1
            args.append(self.expr())
        self.expect(")")
        return args

    def comprehension(self, element: Node) -> Node:
        col = self.cols[self.pos]
        clauses: list[tuple[str, Node]] = []
        variables: list[str] = []
        ops = self.ops
        while (op := ops[self.pos]) == "for" or op == "if":
            if op == "if":
                if not clauses:
                    raise self.error("a comprehension starts with 'for'")
                self.pos += 1
                clauses.append(("if", self.or_()))
                continue
            self.pos += 1
            if self.kinds[self.pos] != "name":
                raise self.error("expected a variable name after 'for'")
            variables.append(self.texts[self.pos])
            self.pos += 1
            self.expect("in")
            clauses.append(("for", self.or_()))
        return Comprehension(col, element, clauses, variables)

    def atom(self) -> Node:
        pos = self.pos
        kind, text, col = self.kinds[pos], self.texts[pos], self.cols[pos]
        if kind == "name":
            self.pos = pos + 1
            return Name(col, text)
        if kind == "num":
            if len(text) > 16 or int(text) > MAX_NUMBER:
                raise self.error(too_large(int(text)) if len(text) < 4000 else too_large(10**4000))
            self.pos = pos + 1
            return Const(col, int(text))
        if kind == "str":
            self.pos = pos + 1
            return Const(col, text[1:-1])
        if kind == "kw" and text in _CONSTANTS:
            self.pos = pos + 1
            return Const(col, _CONSTANTS[text])
        if text == "(" and kind == "op":
            self.pos = pos + 1
            node = self.expr()
            self.expect(")")
            return node
        if text == "[" and kind == "op":
            self.pos = pos + 1
            if self.ops[self.pos] == "]":
                self.pos += 1
                return ListLit(col, [])
            first = self.expr()
            if self.ops[self.pos] == "for":
                comp = self.comprehension(first)
                self.expect("]")
                return comp
            items = [first]
            while self.ops[self.pos] == ",":
                self.pos += 1
                if self.ops[self.pos] == "]":
                    break
                items.append(self.expr())
            self.expect("]")
            return ListLit(col, items)
        found = text or "end of expression"
        raise self.error(f"unexpected {found!r}")


_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">=", "in"})
_TERM = frozenset({"*", "/", "//", "%"})
_CONSTANTS: dict[str, bool | None] = {"true": True, "false": False, "none": None}


_FIELDS: dict[type, tuple[str, ...]] = {}  # a node class -> its fields' names (a dozen classes)


def _children(node: Node) -> list[Node]:
    """The nodes directly below ``node`` (in fields, lists and (op, node) pairs)."""
    out: list[Node] = []
    names = _FIELDS.get(type(node))
    if names is None:
        names = _FIELDS[type(node)] = tuple(f.name for f in fields(node))
    for name in names:
        value = getattr(node, name)
        items = value if isinstance(value, list) else [value]
        for item in items:
            parts = item if isinstance(item, tuple) else (item,)
            out.extend(x for x in parts if isinstance(x, Node))
    return out


def _check_depth(root: Node, text: str) -> None:
    """Refuse a syntax tree deeper than :data:`MAX_DEPTH` (without recursing: it may be deep).

    A comprehension counts one level per clause, as its compiled form nests one per clause.

    :func:`.expression.parse` calls this only for an expression of more than :data:`MAX_DEPTH`
    tokens: no shorter one can be too deep. Every node owns tokens of its own, as many as the
    levels it adds below it: a name, number or text its token, ``*`` its star, a list its
    ``[``, an index its ``[``, a field its ``.``, a call its function's name, a unary or range
    or ``if ... else`` its operator, a chain or comparison its operators, a comprehension its
    bracket (a call's ``(``) and one ``for`` or ``if`` per clause. So the levels from the root
    down to any node are at most the tokens those nodes own (the loads of ~80 expressions of a
    spec then skip this walk).
    """
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExprSyntaxError(f"expression nested more than {MAX_DEPTH} levels deep", text, node.col)
        below = depth + 1 + (len(node.clauses) if isinstance(node, Comprehension) else 0)
        stack.extend((child, below) for child in _children(node))
