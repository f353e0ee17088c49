"""The pseudo-locale's check (docs/languages.md): in a kit built with ``--lang qps`` every
player-facing string is wrapped in ``⟦ ⟧``; a word on a page outside every ``⟦ ⟧`` did not pass
through the catalogue.
"""

from __future__ import annotations

import re

from .catalogue import CLOSE, OPEN

WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")


def outside(text: str) -> str:
    """The text of ``text`` outside every ``⟦ ⟧`` (nested brackets count; a bracket a line break
    splits still counts, as pdftotext keeps the order)."""
    depth, out = 0, []
    for c in text:
        if c == OPEN:
            depth += 1
        elif c == CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def unwrapped_words(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The words (two letters or more) of ``text`` outside ``⟦ ⟧`` that are not ``allowed``
    (card codes, file names, kit names: what stays as it is in every language)."""
    return [w for w in WORD.findall(outside(text)) if len(w) > 1 and w not in allowed]
