"""Small helpers for a booklet's prose: plain text, first sentences, handling sentences."""

from __future__ import annotations

import re
from collections import Counter

from reference_engine.api import (
    glyph,
)

from ..lang.catalogue import _, times
from .glossary import Glossary

# --------------------------------------------------------------------------- building

SUBSCRIPT = re.compile(r"_(\{[^}]*\}|\([^)]*\)|\[[^\]]*\]|[A-Za-z0-9]+)")


def plain_text(text: str) -> str:
    """The sentence as printed, without markup: ``P_1`` -> ``P1``, ``x_{i}`` -> ``xi``."""
    return " ".join(SUBSCRIPT.sub(lambda m: m.group(1).strip("{}"), text).split())


def first_sentence(text: str) -> str:
    m = re.match(r"(.+?[.!?])(\s|$)", " ".join(text.split()))
    return m.group(1) if m else text


def _glyphs(names: list[str]) -> str:
    return " ".join(glyph(n) for n in names)


def tally_text(names: list[str]) -> str:
    counts = Counter(names)
    return _(", ").join(times(n, _glyphs([k])) for k, n in sorted(counts.items(), key=lambda kv: kv[0]))


def handling_sentences(words: Glossary, handling: dict[str, str], called: bool) -> list[str]:
    """What the table does with the cards of an output at the end, where it matters: cards shown
    where they lie keep their order (everyone sees it); cards shown mixed are mixed face down
    first; a hand that a called protocol gives back is mixed by its holder before it is laid out
    (nobody knows the order of a hand). The verifier checks exactly these (see docs/verification.md)."""
    out = []
    for name, how in handling.items():
        what = words.output_name(name).rstrip(".")
        if how == "in-order":
            out.append(
                _(
                    "At the end, show {what}: turn these cards over where they lie, keeping their order."
                ).format(what=what)
            )
        elif how == "mixed":
            out.append(
                _("At the end, show {what}: mix these cards face down first, then turn them over.").format(
                    what=what
                )
            )
        elif called:
            out.append(
                _(
                    "Before these cards are laid out ({what}), their holder mixes them face down: "
                    "nobody knows the order of a hand."
                ).format(what=what)
            )
    return out
