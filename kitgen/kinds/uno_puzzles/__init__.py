"""The puzzle kit of "UNO is hard": puzzle sheets, solution sheets and a short booklet.

Not a kit of cards, labels and protocols: ``kitgen build uno-puzzles`` makes ``--count``
puzzles at ``--difficulty`` with ``--seed`` (every one checked by the engine's solvers) and
writes ``puzzles.pdf`` (two puzzles per page, each on a half page to cut out), ``solutions.pdf``
(the chain drawn as cards, or the reason there is none; the winner and the winning pairs),
``booklet.pdf`` (the ideas of the paper) and ``puzzles.json`` (the puzzles and answers as data).
Options that make no sense for puzzles are refused by the generic build (``build_options``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

from reference_engine.api import (
    GameRules,
    Library,
    PlayResult,
    PuzzleKind,
    PuzzleRules,
    Report,
    UsageError,
    find_kind,
)

from ...core.manifest import JsonObject, OwnKitManifest
from ...core.optionspec import COUNT, DIFFICULTY, SEED, KindValues
from ...core.output import inside, safe_name
from ...core.templates import Paper, Templates
from ...cost.bom import Bom
from ...lang.catalogue import SOURCE, language
from ...paper.labels import Label
from ...paper.pen import known_colours
from ..kind import COMMON_OPTIONS, BookletInput, BookletPlan, KitKind, KitPlan, Progress, register
from .booklet import render_booklet
from .sheets import Deck, render_puzzles, render_solutions

# What the kit's booklet.pdf is (the index and `kitgen build` say so): not a step-by-step booklet.
BOOKLET_WHAT = "the ideas of the paper behind the puzzles: the model, how hard each kind is, and why"

if TYPE_CHECKING:
    from ...booklet.book import Booklet
    from ...booklet.frontmatter import FrontSection
    from ...core.kitoptions import BookletOptions, KitOptions


class PuzzleCounts(TypedDict):
    """The manifest's ``puzzles``: how many of each kind and level."""

    count: int
    chain: int
    who_wins: int
    levels: dict[str, int]


def _rules(rules: GameRules) -> PuzzleRules:
    if not isinstance(rules, PuzzleRules):
        raise UsageError(f"{rules.name} is not a puzzle kit")
    return rules


@register
class PuzzleKit(KitKind):
    kind = "uno-puzzles"
    default_card_size = "uno"
    build_options = (*COMMON_OPTIONS, COUNT, DIFFICULTY, SEED)
    own_kit = True
    about = "a kit of printed puzzles, with no cards, labels or players to print for"

    def plan(self, opts: KitOptions, rules: GameRules, templates: Templates) -> KitPlan:
        pz = _rules(rules)
        if language() != SOURCE:  # its words are not in the catalogue yet: refuse, never mix
            raise UsageError(
                f"{pz.name}: the puzzle kit is printed in English only for now "
                f"(docs/languages.md); build it without --lang {language()}"
            )
        unknown = [c for c in pz.colour_names if c not in known_colours()]
        if unknown:
            raise UsageError(
                f"{pz.name}: no card design for the colour {unknown[0]!r} (templates/cards.yaml)"
            )
        count = opts.own.optional_whole("count")
        count = pz.count if count is None else count
        difficulty = opts.own.optional_text("difficulty") or pz.difficulty
        seed = opts.own.optional_whole("seed")
        seed = pz.seed if seed is None else seed
        return KitPlan(
            game=pz.name,
            name=safe_name(f"{pz.name}-{difficulty}-{count}-seed{seed}-{opts.paper}"),
            players=0,
            virtual=0,
            protocol="",
            card=templates.card_size(self.default_card_size),
            label_sheet="",
            teaches=False,
            own=KindValues.of(count=count, difficulty=difficulty, seed=seed),
        )

    def write_own(
        self, work: Path, opts: KitOptions, rules: GameRules, plan: KitPlan, paper: Paper, step: Progress
    ) -> tuple[list[str], list[str], JsonObject]:
        pz = _rules(rules)
        kind = find_kind(pz.kind)
        assert isinstance(kind, PuzzleKind)
        count, seed = plan.own.optional_whole("count"), plan.own.optional_whole("seed")
        assert count is not None and seed is not None
        step("making and checking the puzzles", 0)
        puzzles = kind.puzzles(pz, count, plan.own.text("difficulty"), seed)
        deck = Deck(pz.colour_names)
        size = (paper.size.w, paper.size.h)
        step("drawing the puzzle sheets", 0)
        sheets = render_puzzles(inside(work, "puzzles.pdf"), puzzles, deck, size, pz.title)
        answers = render_solutions(inside(work, "solutions.pdf"), puzzles, deck, size, pz.title)
        step("typesetting the booklet", 0)
        booklet = render_booklet(inside(work, "booklet.pdf"), pz, puzzles, deck, size)
        data = [p.to_json() for p in puzzles]
        inside(work, "puzzles.json").write_text(
            json.dumps({"colours": pz.colour_names, "puzzles": data}, indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
        counts: PuzzleCounts = {
            "count": len(puzzles),
            "chain": sum(p.kind == "chain" for p in puzzles),
            "who_wins": sum(p.kind == "who-wins" for p in puzzles),
            "levels": {lv: sum(p.level == lv for p in puzzles) for lv in ("easy", "medium", "hard")},
        }
        pages = {"puzzles": {"pages": sheets}, "solutions": {"pages": answers}}
        entries: JsonObject = {
            "options": {
                "ruleset": opts.ruleset,
                "paper": opts.paper,
                **plan.own.record(),
                "previews": opts.previews,
            },
            "puzzles": counts,
            "sheets": {**pages, "booklet": {"pages": booklet, "what": BOOKLET_WHAT}},
        }
        return ["puzzles", "solutions", "booklet"], ["puzzles.json"], entries

    def kit_lines(self, manifest: OwnKitManifest) -> list[str]:
        pz = cast(PuzzleCounts, manifest.entries["puzzles"])
        sheets = cast(dict[str, dict[str, int]], manifest.entries["sheets"])
        levels = ", ".join(f"{n} {lv}" for lv, n in pz["levels"].items() if n)
        return [
            f"Puzzle kit {manifest.kit} written to {manifest.folder}/",
            f"  puzzles.pdf   {sheets['puzzles']['pages']} pages: {pz['count']} puzzles ({pz['chain']} "
            f"chain, {pz['who_wins']} who-wins; {levels}), two per page: cut along the dashed line",
            f"  solutions.pdf {sheets['solutions']['pages']} pages: every answer, drawn as cards",
            f"  booklet.pdf   {sheets['booklet']['pages']} pages: {BOOKLET_WHAT}",
            "  puzzles.json  the puzzles and answers as data;  previews/  a PNG of every page;  "
            "manifest.json",
            "",
            "Every puzzle was checked by two solvers (kitgen solve) before printing.",
        ]

    # A puzzle kit has no cards to count, labels, protocol booklet or games to report.

    def booklet_plan(self, opts: BookletOptions, rules: GameRules) -> BookletPlan:
        raise UsageError(f"the booklet of {rules.name} comes with its kit: kitgen build {rules.name}")

    def materials(self, library: Library, rules: GameRules, plan: KitPlan, reports: list[Report]) -> Bom:
        raise UsageError(f"{rules.name} has no bill of materials")

    def labels(self, rules: GameRules, bom: Bom) -> list[Label]:
        return []

    def booklet(self, given: BookletInput) -> Booklet:
        raise UsageError(f"the booklet of {given.rules.name} comes with its kit")

    def front_sections(self, booklet: Booklet) -> list[FrontSection]:
        return []

    def play_lines(self, result: PlayResult, rules: GameRules) -> list[str]:
        return []


__all__ = ["PuzzleKit"]
