"""The tokens of expression text: numbers, strings, names, keywords and operators."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ExprSyntaxError

KEYWORDS = {"and", "or", "not", "if", "else", "for", "in", "true", "false", "none"}

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
