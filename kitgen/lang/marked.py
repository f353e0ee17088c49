"""Words marked in a template file for the catalogue: ``{{Next}}`` in templates/viewer/*.html and
*.js (docs/languages.md).

A marked text is an HTML fragment in an ``.html`` template (it may hold an entity such as
``&larr;``, and its translation is written as it is, like the template around it) and the inside
of a string literal in a ``.js`` one. Its msgid is the text with each run of white space made one
space, so a template may wrap a long sentence over lines. English writes the template's own text,
byte for byte; another language writes the translation, in a ``.js`` template escaped for a
string literal (no ``<``, ``>`` or ``&``, so no translation can close the page's script element).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from .catalogue import SOURCE, _, language

MARK = re.compile(r"\{\{(.+?)\}\}", re.S)


def msgid(raw: str) -> str:
    """The catalogue's msgid of a marked text: its runs of white space made one space."""
    return re.sub(r"\s+", " ", raw)


def marked_ids(text: str) -> Iterator[str]:
    """Every msgid marked in a template's text, in order (for :mod:`kitgen.lang.extract`)."""
    for m in MARK.finditer(text):
        yield msgid(m.group(1))


def _js(text: str) -> str:
    body = json.dumps(text, ensure_ascii=False)[1:-1]
    return body.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def fill_marked(text: str, js: bool = False) -> str:
    """A template's text with every ``{{...}}`` in the active language (``js``: inside a
    JavaScript string literal)."""
    english = language() == SOURCE

    def one(m: re.Match[str]) -> str:
        if english:
            return m.group(1)
        said = _(msgid(m.group(1)))
        # A translation file may come from anyone: in a page it is text, never markup (its
        # entities, as the English has them, stay: &larr;).
        return _js(said) if js else said.replace("<", "&lt;").replace(">", "&gt;")

    return MARK.sub(one, text)
