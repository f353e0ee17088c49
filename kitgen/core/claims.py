"""What a kit may say it checked: sentences made from the verification reports, never by hand.

A cover, a kit's web page and a viewer page say for every protocol exactly what was verified:
``exact on`` the deal or the sizes the exact verification enumerated, ``statistical on`` the
deck and the number of runs of the statistical check, as the reports record them. When the
engine verifies a larger instance exactly, the sentence follows by itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reference_engine.api import ReportParams, ReportSummary, UsageError

from ..lang.catalogue import N_, _, aside, number
from ..lang.overlay import spec_text
from .words import listing, plural

MEANING = N_(
    "Exact: every possible secret and every outcome of every shuffle was tried, with exact "
    "fractions; the result was always right, and what the table sees was the same whatever the "
    "secrets. Statistical: many random runs, every one checked, and tests that what the table sees "
    "does not depend on the secrets."
)
MEANING_EXACT = N_(
    "Exact: every possible secret and every outcome of every shuffle was tried, with exact "
    "fractions; the result was always right, and what the table sees was the same whatever the "
    "secrets."
)

# A protocol's parameters in words (``3 cards in the lottery``).
Quantities = Callable[[ReportParams], str]


def exact_part(report: ReportSummary, quantities: Quantities | None = None) -> str:
    """``exact on a 5-card deal (R1 G2 B7 Y5 W), dealt in every way (30 deals)``."""
    sc = report["scenario"]
    deal = list(sc["deal"]) if sc else []
    n = report["inputs"]
    if deal:
        cards = aside(" ".join(deal)) if len(deal) <= 12 else ""
        return _("exact on a deal of {n} cards{cards}, dealt in every possible way ({deals})").format(
            n=number(len(deal)), cards=cards, deals=plural(n, "deal")
        )
    params = report["params"]
    sizes = quantities(params) if params and quantities is not None else ""
    secrets = _("every possible secret ({n})").format(n=number(n))
    if sizes:
        return _("exact on {sizes}, {secrets}").format(sizes=sizes, secrets=secrets)
    return _("exact on {secrets}").format(secrets=secrets)


FULL = re.compile(r"full (?P<game>\S+) deck, (?P<n>\d+) players")  # the engine's statistical scenario


def scenario_words(doc: str) -> str:
    """A report's scenario in words, in the active language: the engine's ``full uno deck, 4
    players`` as ``game's full deck, 4 players``, or a spec's scenario ``doc`` (its overlay's
    words; English if it has none)."""
    full = FULL.fullmatch(doc)
    if full:
        # the rule set's id in that line is the engine's word for the game, not a player's
        return _("game's full deck, {n} players").format(n=number(int(full["n"])))
    if not doc:
        return _("full game")
    try:
        return spec_text(doc)
    except UsageError:  # a scenario without translation: its English words
        return doc


def statistical_part(report: ReportSummary) -> str:
    """``statistical on the game's full deck, 4 players (107 cards in play, 200 random runs)``."""
    sc = report["scenario"]
    res = report["resources"]
    what = scenario_words(sc["doc"] if sc else "")
    extra = []
    if res.get("cards"):
        extra.append(_("{n} cards in play").format(n=res["cards"]))
    if res.get("runs"):
        extra.append(_("{n} random runs").format(n=res["runs"]))
    if extra:
        return _("statistical on the {what} ({extra})").format(what=what, extra=listing(extra))
    return _("statistical on the {what}").format(what=what)


def report_title(title: str) -> str:
    """A report's protocol title in the active language (English if no overlay has it)."""
    try:
        return spec_text(title)
    except UsageError:
        return title


def claim(
    report: ReportSummary,
    statistical: ReportSummary | None = None,
    quantities: Quantities | None = None,
) -> str:
    """One protocol's sentence: ``Title: exact on …; statistical on ….``"""
    title = report_title(report["title"])
    if not report["verified"]:
        return _("{title}: NOT verified (see the Validation section).").format(title=title)
    parts = [exact_part(report, quantities) if report["method"] == "exact" else statistical_part(report)]
    if statistical is not None and statistical["protocol"] == report["protocol"]:
        parts.append(
            statistical_part(statistical) if statistical["verified"] else _("statistical check FAILED")
        )
    return _("{title}: {parts}.").format(title=title, parts=_("; ").join(parts))


def claims(
    validation: Sequence[ReportSummary],
    statistical: ReportSummary | None = None,
    quantities: Callable[[str], Quantities] | None = None,
) -> list[str]:
    """Every protocol's sentence, in the reports' order; ``quantities(protocol)`` words a
    protocol's parameters (``3 cards in the lottery``)."""
    return [
        claim(v, statistical, quantities(v["protocol"]) if quantities is not None else None)
        for v in validation
    ]


def meaning(statistical: ReportSummary | None) -> str:
    return _(MEANING) if statistical is not None else _(MEANING_EXACT)
