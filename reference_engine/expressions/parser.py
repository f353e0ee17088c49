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
from .tokens import Token, tokenize
from .values import MAX_NUMBER, too_large

MAX_NESTING = 50  # brackets, parentheses, calls, not, unary -, if/else inside each other
MAX_DEPTH = 100  # levels of the syntax tree (a.b[1].c is three; a chain of one operator is one)


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
            if len(tok.text) > 16 or int(tok.text) > MAX_NUMBER:
                raise self.error(too_large(int(tok.text)) if len(tok.text) < 4000 else too_large(10**4000))
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
    """
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExprSyntaxError(f"expression nested more than {MAX_DEPTH} levels deep", text, node.col)
        below = depth + 1 + (len(node.clauses) if isinstance(node, Comprehension) else 0)
        stack.extend((child, below) for child in _children(node))
