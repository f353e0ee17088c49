"""What a kit may say it checked: sentences made from the verification reports, never by hand.

A cover, a kit's web page and a viewer page say for every protocol exactly what was verified:
``exact on`` the deal or the sizes the exact verification enumerated, ``statistical on`` the
deck and the number of runs of the statistical check, as the reports record them. When the
engine verifies a larger instance exactly, the sentence follows by itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reference_engine.api import ReportParams, ReportSummary

from .words import listing, plural

MEANING = (
    "Exact: every possible secret and every outcome of every shuffle was tried, with exact "
    "fractions; the result was always right, and what the table sees was the same whatever the "
    "secrets. Statistical: many random runs, every one checked, and tests that what the table sees "
    "does not depend on the secrets."
)
MEANING_EXACT = (
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
        cards = f" ({' '.join(deal)})" if len(deal) <= 12 else ""
        return (
            f"exact on a deal of {len(deal)} cards{cards}, dealt in every possible way ({plural(n, 'deal')})"
        )
    params = report["params"]
    sizes = quantities(params) if params and quantities is not None else ""
    secrets = f"every possible secret ({n})"
    return f"exact on {sizes}, {secrets}" if sizes else f"exact on {secrets}"


def statistical_part(report: ReportSummary) -> str:
    """``statistical on the full uno deck, 4 players (107 cards in play, 200 random runs)``."""
    sc = report["scenario"]
    res = report["resources"]
    what = (sc["doc"] if sc else "") or "the full game"
    extra = []
    if res.get("cards"):
        extra.append(f"{res['cards']} cards in play")
    if res.get("runs"):
        extra.append(f"{res['runs']} random runs")
    return f"statistical on the {what}" + (f" ({listing(extra)})" if extra else "")


def claim(
    report: ReportSummary,
    statistical: ReportSummary | None = None,
    quantities: Quantities | None = None,
) -> str:
    """One protocol's sentence: ``Title: exact on …; statistical on ….``"""
    if not report["verified"]:
        return f"{report['title']}: NOT verified (see the Validation section)."
    parts = [exact_part(report, quantities) if report["method"] == "exact" else statistical_part(report)]
    if statistical is not None and statistical["protocol"] == report["protocol"]:
        parts.append(statistical_part(statistical) if statistical["verified"] else "statistical check FAILED")
    return f"{report['title']}: {'; '.join(parts)}."


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
    return MEANING if statistical is not None else MEANING_EXACT
