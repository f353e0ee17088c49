"""A check's figure in the validation appendix, in the active language.

The engine writes each check's figure as an English sentence into its report (``4 possible views,
each equally likely under every input``). English prints it as the engine wrote it; any other
language says the same figure again from the sentence's parts, for the shapes the exact engine
writes (correct, secure, tidy, a paper's count): the numbers in the active locale, the formulas,
output names and citations quoted as they are (:func:`kitgen.lang.catalogue.kept`). A figure of
any other shape is quoted whole, as the report's data.

:func:`said` gives a reader the figure in words: what the engine names by the spec's names
(``and = x and y``, ``given winner``) is said with the spec's own words for players (its
``booklet: names``: '"both" (first AND second)', "who wins the round"), and the engine's
expressions come apart, for a cryptographer to read in the spec's own notation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from ..core.words import listing
from ..lang.catalogue import N_, SOURCE, _, kept, language, ngettext, number
from .counts import by_title

CORRECT = re.compile(r"(?P<what>.+): exact, for all (?P<n>\d+) inputs and every shuffle outcome")
SECURE = re.compile(
    r"(?P<raw>\d+) possible views?"
    r"(?: \((?P<merged>\d+) after merging views that are alike up to a constant factor\))?"
    r", (?:each )?equally likely under every input"
    r"(?: given (?P<given>[^;]+?))?(?: and public inputs (?P<public>[^;]+))?"
)
TIDY = "every card ends in an output or back in the supply"
EXPECT = re.compile(r"measured (?P<m>.+?), paper (?P<p>.+?)(?: \((?P<f>.*?)\))?(?:  \[(?P<cite>.*)\])?")


def _correct(m: re.Match[str]) -> str:
    inputs = _("{n} inputs").format(n=number(int(m["n"])))  # "1 inputs", as the engine writes it
    said = _("{what}: exact, for all {inputs} and every shuffle outcome")
    return said.format(what=kept(m["what"]), inputs=inputs)


def _secure(m: re.Match[str], given: str | None = None, public: str | None = None) -> str:
    raw = int(m["raw"])
    said = ngettext("{n} possible view", "{n} possible views", raw).format(n=number(raw))
    if m["merged"] is not None:
        said = _("{views} ({merged} after merging views that are alike up to a constant factor)").format(
            views=said, merged=number(int(m["merged"]))
        )
    if raw != 1:
        said = _("{views}, each equally likely under every input").format(views=said)
    else:
        said = _("{views}, equally likely under every input").format(views=said)
    if m["given"] is not None:
        said = _("{figure} given {outputs}").format(figure=said, outputs=given or kept(m["given"]))
    if m["public"] is not None:
        inputs = public or kept(m["public"])
        said = _("{figure} and public inputs {inputs}").format(figure=said, inputs=inputs)
    return said


def _expect(m: re.Match[str]) -> str:
    said = _("measured {measured}, paper {paper}").format(measured=kept(m["m"]), paper=kept(m["p"]))
    if m["f"] is not None:
        said += " " + kept(f"({m['f']})")
    if m["cite"] is not None:
        said += "  " + kept(f"[{m['cite']}]")
    return said


SHAPES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (CORRECT, _correct),
    (SECURE, _secure),
    (EXPECT, _expect),
)


def resay(figure: str) -> str:
    """``figure`` said again from its parts in the active language (English gives the engine's
    sentence back exactly, which a test checks); a shape it does not know, quoted whole."""
    if figure == TIDY:
        return _("every card ends in an output or back in the supply")
    for shape, say in SHAPES:
        found = shape.fullmatch(figure)
        if found is not None:
            return say(found)
    return kept(figure)


def figure_text(figure: str) -> str:
    """A check's figure as the booklet prints it: the engine's own sentence in English."""
    return figure if language() == SOURCE else resay(figure)


# --------------------------------------------------------------------------- in a reader's words


class Names(Protocol):
    """A protocol's words for its names (kitgen.booklet.glossary.Glossary)."""

    def output_name(self, key: str) -> str: ...
    def input_name(self, key: str) -> str: ...


@dataclass(frozen=True)
class Said:
    """A check's figure for the validation table: ``words`` for a reader, in the active language;
    ``spec``, the engine's expressions and names they stand for, as written ("" when none)."""

    words: str
    spec: str = ""


# One output's specification in a correct check's figure (reference_engine/verify/checks.py).
PART = re.compile(
    r"(?P<name>[A-Za-z_]\w*) (?:= (?P<equals>.+)|uniform over (?P<uniform>.+)|weighted by (?P<weighted>.+))"
)
CLAIMS = {
    "equals": N_("always right: {outputs}"),
    "uniform": N_("exactly uniform: {outputs}"),
    "weighted": N_("exactly as weighted: {outputs}"),
}


def said(figure: str, names: Names, titles: Mapping[str, str]) -> Said:
    """``figure`` in a reader's words (see the module docs); ``titles`` names the called
    protocols of a paper's count by their titles. A figure whose parts do not read as the engine
    writes them is said as :func:`figure_text` says it, whole."""
    found = CORRECT.fullmatch(figure)
    if found is not None:
        parts = [PART.fullmatch(p) for p in found["what"].split("; ")]
        groups: dict[str, list[str]] = {}
        for p in parts:
            if p is None:
                return Said(figure_text(figure))
            kind = next(k for k in CLAIMS if p[k] is not None)
            groups.setdefault(kind, []).append(names.output_name(p["name"]))
        claims = "; ".join(_(CLAIMS[k]).format(outputs=listing(v)) for k, v in groups.items())
        inputs = _("{n} inputs").format(n=number(int(found["n"])))
        words = _("{claims}; for all {inputs} and every shuffle outcome").format(
            claims=claims[:1].upper() + claims[1:], inputs=inputs
        )
        return Said(words, found["what"])
    found = SECURE.fullmatch(figure)
    if found is not None:
        given = found["given"] and listing([names.output_name(n) for n in found["given"].split(", ")])
        public = found["public"] and listing([names.input_name(n) for n in found["public"].split(", ")])
        spec = [f"given {found['given']}"] if found["given"] else []
        spec += [f"public inputs {found['public']}"] if found["public"] else []
        return Said(_secure(found, given, public), "; ".join(spec))
    found = EXPECT.fullmatch(figure)
    if found is not None:  # its citation is the paper's count table's, next to it
        words = _("measured {measured}, paper {paper}").format(
            measured=kept(by_title(found["m"], dict(titles))), paper=kept(by_title(found["p"], dict(titles)))
        )
        return Said(words, found["f"] or "")
    return Said(figure_text(figure))
