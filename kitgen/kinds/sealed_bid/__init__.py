"""The kit of a dealerless sealed-bid game (Gakmoro).

What it prints: the ♣ and ♥ cards of every bundle plus the loose cards one round needs (as
the exact verification of the round protocol measured them), a value label for every sleeve,
the bundle preparation sheet (``bundles.pdf``: every bundle made together and in public, so
nobody can forge one) and a booklet: making the bundles, the rules with and without a dealer,
a round step by step, every sub-protocol, validation, quick reference.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reference_engine.api import (
    GameRules,
    Library,
    PlayResult,
    PlaySettings,
    Report,
    SealedBidResult,
    SealedBidRules,
    UsageError,
)

from ...booklet.book import Booklet
from ...booklet.examples import spec_example
from ...booklet.frontmatter import FrontSection
from ...booklet.parts import booklet_style
from ...booklet.steps import sections
from ...core.manifest import JsonObject, KitManifest
from ...core.optionspec import without
from ...core.output import inside, safe_name
from ...core.templates import Paper, Templates, load_templates
from ...cost.bom import PLAYER_COLOURS, Bom
from ...cost.kitcost import Footprint
from ...lang.catalogue import _
from ...lang.overlay import player_name, spec_text
from ...paper.labels import Label
from ..kind import CARD_KIT_OPTIONS, BookletInput, BookletPlan, KitKind, KitPlan, default_labels, register
from . import front
from .bundles import render_bundle_sheet
from .cost import RoundCost, round_cost
from .materials import sealed_bid_bom
from .play import sealed_bid_lines

if TYPE_CHECKING:
    from ...core.kitoptions import BookletOptions, KitOptions


def _rules(rules: GameRules) -> SealedBidRules:
    if not isinstance(rules, SealedBidRules):
        raise UsageError(f"{rules.name} is not a sealed-bid game")
    return rules


@register
class SealedBidKit(KitKind):
    kind = "sealed-bid"
    default_card_size = "mini-usa"
    about = "a game for two people without a dealer, with no virtual players"
    # Two players, no virtual seats, no deck to buy, no statistical check on a full deck.
    build_options = without(CARD_KIT_OPTIONS, "virtual", "operator", "discard_owner", "wild4", "runs")

    def refusal(self, option: str) -> str:
        if option == "virtual":
            return "it is a game for two people, and it has no virtual players"
        if option == "runs":
            return "it has no full deck to check statistically (every protocol of a round is checked exactly)"
        return super().refusal(option)

    def plan(self, opts: KitOptions, rules: GameRules, templates: Templates) -> KitPlan:
        bid = _rules(rules)
        if opts.players not in (None, 2):
            raise UsageError(f"{bid.name} is played by 2 players, not {opts.players}")
        if opts.own.text("deck") != "print":
            raise UsageError(
                f"{bid.name} uses a two-colour deck of ♣ and ♥ that the kit prints: --deck print"
            )
        card, printing = self.printing(opts, bid, templates)
        labels = bid.kit.get("labels")
        preset = labels.get(opts.paper) if isinstance(labels, dict) else None
        parts = [bid.name, opts.paper, *printing]
        return KitPlan(
            game=rules.name,
            name=safe_name("-".join(parts)),
            players=2,
            virtual=0,
            protocol=opts.protocol or bid.protocol,
            card=card,
            label_sheet=opts.labels or preset or default_labels(opts.paper),
        )

    def booklet_plan(self, opts: BookletOptions, rules: GameRules) -> BookletPlan:
        bid = _rules(rules)
        return BookletPlan(safe_name(f"{bid.name}-booklet-{opts.paper}"), opts.protocol or bid.protocol)

    def materials(self, library: Library, rules: GameRules, plan: KitPlan, reports: list[Report]) -> Bom:
        top = next(r for r in reports if r.protocol == library.protocol(plan.protocol).name)
        # A kit's own label sheet; a booklet alone speaks of the rule set's default (plain paper).
        cutout = load_templates().label_sheet(plan.label_sheet).cutout if plan.label_sheet else True
        return sealed_bid_bom(_rules(rules), dict(top.resources["helpers_by_symbol"]), plan.card_mm, cutout)

    def labels(self, rules: GameRules, bom: Bom) -> list[Label]:
        bid = _rules(rules)
        return [
            Label(
                str(v),
                _("{who} · ♥ at place {n}").format(who=player_name(who), n=v + 1),
                PLAYER_COLOURS[p],
                "value",
            )
            for p, who in enumerate(bid.names)
            for v in bid.hand("dealerless")
        ]

    def extra_sheets(
        self, work: Path, rules: GameRules, paper: Paper, name: str, bom: Bom
    ) -> tuple[list[str], JsonObject]:
        pages = render_bundle_sheet(
            inside(work, "bundles.pdf"), _rules(rules), paper, name, bom.labels_cutout
        )
        return ["bundles"], {"bundles": {"pages": pages}}

    def file_lines(self, manifest: KitManifest) -> list[str]:
        bundles = manifest.extra["bundles"]
        pages = bundles.get("pages") if isinstance(bundles, dict) else None
        return [
            _(
                "  bundles.pdf {pages} pages: the sheet for making every bundle together, in public, "
                "before the first game"
            ).format(pages=pages)
        ]

    def booklet(self, given: BookletInput) -> Booklet:
        """The booklet of a dealerless sealed-bid kit: bundles, rules, a round, every protocol."""
        bid = _rules(given.rules)
        library = given.library
        proto = library.protocol(bid.protocol)
        booklet = Booklet(
            given.name,
            spec_text(bid.title),
            _(
                "Two players, no dealer: everything to print and prepare, the rules, and every protocol of a "
                "round step by step."
            ),
            "sealed-bid",
            [],
            given.validation,
            None,
            bid,
            given.bom,
            list(bid.names),
            2,
            0,
        )
        booklet.sections = sections(
            library,
            proto,
            spec_example(proto, library),
            given.capacity,
            booklet_style(),
            given.reveals,
            people=len(bid.names),  # both players do every protocol of a round (a booklet too)
        )
        booklet.footprint = round_space(library, bid.name, given.plan.card_mm)
        booklet.cost = self.figures(library, bid, given.plan)
        return booklet

    def figures(self, library: Library, rules: GameRules, plan: KitPlan) -> RoundCost:
        """A round and a whole game (its bundles made first) for the two players."""
        return round_cost(library, _rules(rules), plan.protocol, plan.card_mm)

    def front_sections(self, booklet: Booklet) -> list[FrontSection]:
        return front.front_sections(booklet)

    def play_lines(self, result: PlayResult, rules: GameRules) -> list[str]:
        assert isinstance(result, SealedBidResult), "a sealed-bid game's result"
        return sealed_bid_lines(result, rules.title)


def round_space(library: Library, game: str, card_mm: tuple[float, float]) -> Footprint | None:
    """The table space of a round without a dealer: the round protocol's largest table (rows and
    columns of cards, as a card-level game lays it out), for the whole-table picture."""
    from reference_engine.api import play as play_game  # the package's .play module shadows it

    result = play_game(game, library, PlaySettings(virtual=0, level="card", seed=1))
    rounds = result.to_json().get("rounds", [])
    tables = [list(r["table"]) for r in rounds if isinstance(r, dict) and len(r.get("table", [])) == 2]
    if not tables:
        return None
    rows, columns = max(tables, key=lambda t: t[0] * t[1])
    return Footprint.of(columns, card_mm, rows)


__all__ = ["SealedBidKit"]
