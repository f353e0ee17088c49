"""The kit of a shedding game with virtual players (UNO and its relatives).

What it prints: the game's deck (or sleeves for a store deck), θ owner markers per seat,
α/β bit markers, colour choice cards, owner cards, envelopes; seat and storage labels; a
booklet with the set-up, the rules, a virtual player's turn and the card selection protocol
step by step (a real moment of a seeded game as the worked example).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.api import (
    WEIGHTED_PROTOCOL,
    GameRules,
    Library,
    Moment,
    PlayResult,
    PlaySettings,
    Report,
    ReportSummary,
    RuleSet,
    Shedding,
    SheddingResult,
    Strategy,
    UsageError,
    find_kind,
    strategy_from_options,
)

from ...booklet.book import Booklet
from ...booklet.examples import Example
from ...booklet.frontmatter import FrontSection
from ...core.optionspec import STRATEGY, WEIGHTS, KindValues
from ...core.output import safe_name
from ...core.templates import Templates
from ...core.verification import summary, verify_statistically
from ...cost.bom import Bom, seat_names
from ...cost.kitcost import bit_cards, sleeved
from ...lang.catalogue import _
from ...lang.seats import seat_name
from ..kind import CARD_KIT_OPTIONS, BookletPlan, KitKind, KitPlan, check_people, register
from ..table import TableKit, colour_word, moment_words, seats
from . import front
from .booklet import discard_owner, weighted, wild4
from .materials import game_bom
from .play import game_lines

if TYPE_CHECKING:
    from ...core.cache import VerificationCache
    from ...core.kitoptions import BookletOptions, KitOptions


def _rules(rules: GameRules) -> RuleSet:
    if not isinstance(rules, RuleSet):
        raise UsageError(f"{rules.name} is not a shedding game")
    return rules


def _kind(rules: RuleSet) -> Shedding:
    kind = find_kind(rules.kind)
    assert isinstance(kind, Shedding)
    return kind


@register
class SheddingKit(TableKit):
    kind = "shedding"
    default_card_size = "uno"
    statistical_check = True
    build_options = (*CARD_KIT_OPTIONS, STRATEGY, WEIGHTS)
    table_middle = ("Discard pile",)
    refusal = KitKind.refusal

    def plan(self, opts: KitOptions, rules: GameRules, templates: Templates) -> KitPlan:
        shed = _rules(rules)
        deck, discard_owner = opts.own.text("deck"), opts.own.switch("discard_owner")
        players = _kind(shed).check_seating(shed, opts.players, opts.virtual, opts.own.text("wild4"))
        check_people(players, opts.virtual, opts.own.switch("operator"))
        card, printing = self.printing(opts, shed, templates)
        parts = [shed.name, f"{players}p{opts.virtual}v", opts.paper, *printing]
        if deck != "print":
            parts.append("store-deck")
        if discard_owner:
            parts.append("discard-owner")
        strategy = _strategy(shed, opts.own, opts.virtual)
        if strategy.weighted:
            parts.append("weighted")
        return self.table_plan(
            opts,
            shed,
            parts,
            players,
            card,
            protocol=opts.protocol or (WEIGHTED_PROTOCOL if strategy.weighted else shed.virtual_protocol),
            own=KindValues.of(deck=deck, discard_owner=discard_owner),
            strategy=strategy if strategy.weighted else None,
        )

    def needed_options(self, rules: GameRules) -> dict[str, str | int | bool]:
        return {"wild4": "bluff"} if _rules(rules).hand_dependent else {}

    def booklet_plan(self, opts: BookletOptions, rules: GameRules) -> BookletPlan:
        shed = _rules(rules)
        players = seats(shed, opts.players)
        if not 1 <= opts.virtual <= players:
            raise UsageError(f"a booklet teaches virtual players: --virtual must be 1 to {players}")
        _kind(shed).check_seating(shed, players, opts.virtual, opts.own.text("wild4"))
        check_people(players, opts.virtual, opts.own.switch("operator"))
        name = safe_name(f"{shed.name}-{players}p{opts.virtual}v-booklet-{opts.paper}")
        return BookletPlan(name, opts.protocol or shed.virtual_protocol, players, opts.virtual)

    def materials(self, library: Library, rules: GameRules, plan: KitPlan, reports: list[Report]) -> Bom:
        return game_bom(
            _rules(rules),
            library,
            plan.players,
            plan.virtual,
            plan.own.text("deck"),
            plan.own.switch("discard_owner"),
            plan.card_mm,
            sleeved=sleeved(library.protocol(plan.protocol)),
            strategy=plan.strategy,
            bits=bit_cards(library.protocol(plan.protocol)),
        )

    def statistical(
        self, library: Library, plan: KitPlan, runs: int, what: str, cache: VerificationCache | None
    ) -> ReportSummary | None:
        weights = plan.strategy.weights if plan.strategy is not None else None
        return summary(verify_statistically(library, plan.protocol, runs, 1, what, cache, plan.game, weights))

    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        situation = _(
            "It is {owner}'s turn; the top card of the discard pile is {top} and the colour in force is "
            "{colour}"
        ).format(
            owner=seat_name(owners[0]),
            top=moment.public["top"].glyph,
            colour=colour_word(moment.public["color"]),
        )
        return moment_words(moment, owners, situation, _("Cards in play"), _("may be played"))

    def play_settings(self, rules: GameRules, plan: KitPlan) -> PlaySettings:
        options = {"discard_owner": discard_owner(plan), "wild4": wild4(_rules(rules))}
        return PlaySettings(plan.players, plan.virtual, options=options)

    def example_record(self, moment: Moment, plan: KitPlan) -> dict[str, object]:
        top, color = moment.public["top"], moment.public["color"]
        return {"discard_owner": discard_owner(plan), "top": top.name, "color": color}

    def example(self, rules: GameRules, library: Library, plan: KitPlan, owners: list[str]) -> Example:
        """A real moment of a seeded game: Virtual 1's first turn holding 4-6 cards, some valid,
        some not (with a weighted strategy, the weighted selection protocol's weights and w)."""
        return weighted(super().example(rules, library, plan, owners), _rules(rules), plan.strategy)

    def cost_options(self, rules: GameRules, plan: KitPlan) -> dict[str, object] | None:
        options: dict[str, object] = {"wild4": wild4(_rules(rules)), "discard_owner": discard_owner(plan)}
        strategy = plan.strategy
        if strategy is not None and strategy.weights is not None:  # games and runs with the weights
            options.update(strategy="weighted", weights=strategy.weights.text())
        return options

    def setup_page(self, b: Booklet) -> FrontSection:
        return front.setup_page(b)

    def rules_page(self, b: Booklet) -> FrontSection:
        return front.rules_page(b)

    def turn_page(self, b: Booklet) -> FrontSection:
        return front.virtual_turn(b)

    def play_lines(self, result: PlayResult, rules: GameRules) -> list[str]:
        assert isinstance(result, SheddingResult), "a shedding game's result"
        return game_lines(result, seat_names(result.players, result.virtual), rules.title)


def _strategy(rules: RuleSet, own: KindValues, virtual: int) -> Strategy:
    """The virtual players' strategy a kit is built for (``--strategy``, ``--weights``)."""
    strategy = strategy_from_options(
        {"strategy": own.optional_text("strategy"), "weights": own.optional_text("weights")}
    )
    if strategy.weighted:
        if not virtual:
            raise UsageError("--strategy weighted is for virtual players: give --virtual 1 or more")
        assert strategy.weights is not None
        strategy.weights.check_names(rules.weight_names(), rules.name)
    return strategy


__all__ = ["SheddingKit"]
