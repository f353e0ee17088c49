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
    kinds, texts, cols = scan(text)
    return [Token(k, t, c) for k, t, c in zip(kinds, texts, cols)]


def scan(text: str) -> tuple[list[str], list[str], list[int]]:
    """:func:`tokenize`'s tokens as three lists (kinds, texts, columns), the end token last: what
    the parser reads, without a :class:`Token` made per token (a spec's load parses a thousand)."""
    kinds: list[str] = []
    texts: list[str] = []
    cols: list[int] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() != pos:  # no token starts at pos: finditer skipped a character
            break
        kind = m.lastgroup or ""
        if kind != "ws":
            word = m.group()
            if kind == "name" and word in KEYWORDS:
                kind = "kw"
            kinds.append(kind)
            texts.append(word)
            cols.append(pos)
        pos = m.end()
    if pos < len(text):
        raise ExprSyntaxError(f"unexpected character {text[pos]!r}", text, pos)
    kinds.append("end")
    texts.append("")
    cols.append(len(text))
    return kinds, texts, cols
