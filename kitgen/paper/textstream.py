"""A page's content stream without its paths: what the checks read a page's glyphs from.

The page check and the identifier check read a page's glyphs through pdfminer (pdfplumber's
parser), which parses every operation of the content stream in pure Python; most of a kit page's
operations draw paths (a card face, a booklet's diagrams and table picture). A glyph's text, box,
size, matrix and fill colour come from the text operators and the graphics state's matrix and
colours only: a path's construction (``m l c v y re h``), its painting and clipping (``S s f F f*
B B* b b* n W W*``) and the line style (``w J j M i``) make shapes, never a glyph, and each takes
numbers only. :func:`without_paths` takes those operations out, each with exactly the numbers
before it, so every other operator keeps its operands (an operator pops its own operands off the
end of the stack: numbers left before a path operator change nothing). Strings, hex strings,
dictionaries' opening brackets and comments are matched whole first, so nothing inside them is
taken out, and an operator is taken out only where it starts a token. A stream that holds a
string with an unescaped parenthesis (a nested string the pattern cannot match whole) or an inline
image (binary data) is left as it is. tests/kitgen/paper/test_pagepixels.py compares the glyphs
read this way with pdfplumber's own on the kits' reference pages, tests/kitgen/paper/test_textstream.py
on a page whose strings look like paths (and 968 pages of 149 kit PDFs agreed at stop 57).
"""

from __future__ import annotations

import re

_WHITE = rb"\x00\t\n\x0c\r "
_NUMBER = rb"[+-]?(?:\d+\.?\d*|\.\d+)"
# Path construction, painting and clipping, line width, cap, join, miter limit and flatness
# (PDF 1.7, tables 57, 59, 60 and 61): every operand a number.
PATH_OPERATORS = rb"re|f\*|B\*|b\*|W\*|[mlcvyhSsfFBbnWwJjMi]"
# Grey, RGB and CMYK colours (table 74): numbers too. Text extraction (pypdf's) needs no colour;
# the page check's glyphs do (their fill colour), so only tests/kitgen/pdftext.py leaves them out.
COLOUR_OPERATORS = rb"rg|RG|[gGkK]"
_NESTED_STRING = re.compile(rb"\((?:\\.|[^\\()])*\(", re.S)
_INLINE_IMAGE = re.compile(rb"(?<![^" + _WHITE + rb"])(?:BI|ID|EI)(?![^" + _WHITE + rb"])")


def _pattern(operators: bytes) -> re.Pattern[bytes]:
    """Strings, dictionaries' brackets and comments (kept whole), or one of ``operators`` with
    exactly the numbers before it, starting a token."""
    return re.compile(
        rb"(\((?:\\.|[^\\()])*\)|<<|<[0-9A-Fa-f" + _WHITE + rb"]*>|%[^\r\n]*)"  # kept whole
        rb"|(?<![^" + _WHITE + rb"\[\]()<>{}])(?:" + _NUMBER + rb"[" + _WHITE + rb"]+)*"
        rb"(?:" + operators + rb")(?![^" + _WHITE + rb"()<>\[\]{}/%])",
        re.S,
    )


_PATHS = _pattern(PATH_OPERATORS)
_PATHS_AND_COLOURS = _pattern(COLOUR_OPERATORS + rb"|" + PATH_OPERATORS)


def without_paths(content: bytes, colours: bool = True) -> bytes | None:
    """The content stream without its path and line style operations (and, with ``colours``
    False, its colours); None for a stream left as it is (a nested string or an inline image)."""
    if _NESTED_STRING.search(content) or _INLINE_IMAGE.search(content):
        return None
    return (_PATHS if colours else _PATHS_AND_COLOURS).sub(_kept, content)


def _kept(m: re.Match[bytes]) -> bytes:
    return m.group(1) or b""


__all__ = ["COLOUR_OPERATORS", "PATH_OPERATORS", "without_paths"]
