"""Counts and parameters as the validation pages print them, and protocol names by title."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reference_engine.api import Count, glyph

from ..lang.catalogue import _


def by_title(text: str, titles: dict[str, str]) -> str:
    """Protocol names in ``text`` replaced by their titles (which have spaces to break lines at)."""
    for name in sorted(titles, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", titles[name], text)
    return text


def count_text(v: Count | int | list[int]) -> str:
    """A measured or expected count as the validation table prints it."""
    if isinstance(v, dict):
        # Protocol names may break only after their hyphens, never inside a word.
        return "; ".join(f"{k}: {count_text(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return ", ".join(count_text(x) for x in v)
    return str(v)


def exact(count: int | list[int]) -> int:
    """A count of an exact verification (a statistical one lists every count its runs saw)."""
    return count if isinstance(count, int) else max(count)


def counts_line(d: dict[str, int]) -> str:
    return _(", ").join(f"{n} {glyph(k)}" for k, n in d.items())


def param_text(value: int | Sequence[int]) -> str:
    """A parameter as the validation page prints it: lists as ``(2, 1, 2)``."""
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(str(v) for v in value) + ")"
    return str(value)
