"""The pseudo-locale's check (docs/languages.md): in a kit built with ``--lang qps`` every
player-facing string is wrapped in ``⟦ ⟧``; a word on a page outside every ``⟦ ⟧`` did not pass
through the catalogue. ``⟪ ⟫`` marks data kept as it is on purpose (:func:`kitgen.lang.catalogue.kept`).
"""

from __future__ import annotations

import re

from .catalogue import CLOSE, KEPT_CLOSE, KEPT_OPEN, OPEN

WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")


def outside(text: str) -> str:
    """The text of ``text`` outside every ``⟦ ⟧`` and ``⟪ ⟫`` (nested brackets count; a bracket a
    line break splits still counts, as pdftotext keeps the order)."""
    depth, out = 0, []
    for c in text:
        if c in (OPEN, KEPT_OPEN):
            depth += 1
        elif c in (CLOSE, KEPT_CLOSE):
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def unwrapped_words(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The words (two letters or more) of ``text`` outside ``⟦ ⟧`` that are not ``allowed``
    (card codes, file names, kit names: what stays as it is in every language). An allowed name
    is taken out whole first (``uno-4p1v-a4``, ``G+2``), where no letter or digit touches it."""
    rest = outside(text)
    if allowed:
        names = "|".join(re.escape(a) for a in sorted(allowed, key=len, reverse=True))
        rest = re.sub(rf"(?<![A-Za-z0-9])(?:{names})(?![A-Za-z0-9])", " ", rest)
    return [w for w in WORD.findall(rest) if len(w) > 1 and w not in allowed]
