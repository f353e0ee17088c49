"""A check's figure in the validation appendix, in the active language.

The engine writes each check's figure as an English sentence into its report (``4 possible views,
each equally likely under every input``). English prints it as the engine wrote it; any other
language says the same figure again from the sentence's parts, for the shapes the exact engine
writes (correct, secure, tidy, a paper's count): the numbers in the active locale, the formulas,
output names and citations quoted as they are (:func:`kitgen.lang.catalogue.kept`). A figure of
any other shape is quoted whole, as the report's data.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lang.catalogue import SOURCE, _, kept, language, ngettext, number

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


def _secure(m: re.Match[str]) -> str:
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
        said = _("{figure} given {outputs}").format(figure=said, outputs=kept(m["given"]))
    if m["public"] is not None:
        said = _("{figure} and public inputs {inputs}").format(figure=said, inputs=kept(m["public"]))
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
