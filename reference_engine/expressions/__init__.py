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
:data:`MAX_RANGE` numbers, a comprehension goes through at most :data:`MAX_ITERATIONS` items
in one evaluation, and every whole number, written or computed, is at most :data:`MAX_NUMBER`
(10^15) in size.

Modules, each named for what it holds: :mod:`.errors` (:class:`ExprSyntaxError`,
:class:`EvalError`), :mod:`.values` (:class:`Value`, :class:`Scope`, ``*`` and the value
helpers), :mod:`.tokens`, :mod:`.nodes` (the syntax tree, compiled to closures),
:mod:`.parser` and :mod:`.expression` (:class:`Expression`, :func:`parse`). Import from
this package: every public name is here.
"""

from __future__ import annotations

from .errors import EvalError, ExprSyntaxError
from .expression import Expression, parse
from .nodes import (
    MAX_ITERATIONS,
    MAX_RANGE,
    Attr,
    Call,
    Chain,
    Compare,
    Comprehension,
    Conditional,
    Const,
    Fn,
    Index,
    ListLit,
    Name,
    Node,
    RangeNode,
    Star,
    Unary,
)
from .parser import MAX_DEPTH, MAX_NESTING
from .tokens import KEYWORDS, Token, tokenize
from .values import (
    MAX_NUMBER,
    WILDCARD,
    Scope,
    Value,
    Wildcard,
    as_int,
    contains,
    equal,
    index_list,
    plain,
    too_large,
    truthy,
)

__all__ = [
    "KEYWORDS",
    "MAX_DEPTH",
    "MAX_ITERATIONS",
    "MAX_NESTING",
    "MAX_NUMBER",
    "MAX_RANGE",
    "WILDCARD",
    "Attr",
    "Call",
    "Chain",
    "Compare",
    "Comprehension",
    "Conditional",
    "Const",
    "EvalError",
    "ExprSyntaxError",
    "Expression",
    "Fn",
    "Index",
    "ListLit",
    "Name",
    "Node",
    "RangeNode",
    "Scope",
    "Star",
    "Token",
    "Unary",
    "Value",
    "Wildcard",
    "as_int",
    "contains",
    "equal",
    "index_list",
    "parse",
    "plain",
    "tokenize",
    "too_large",
    "truthy",
]
