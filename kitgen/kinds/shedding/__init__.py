"""The kit of a shedding game with virtual players (UNO and its relatives).

What it prints: the game's deck (or sleeves for a store deck), θ owner markers per seat,
α/β bit markers, colour choice cards, owner cards, envelopes; seat and storage labels; a
booklet with the set-up, the rules, a virtual player's turn and the card selection protocol
step by step (a real moment of a seeded game as the worked example).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine.api import (
    WEIGHTED_PROTOCOL,
    GameRules,
    Library,
    PlayResult,
    Report,
    RuleSet,
    Shedding,
    SheddingResult,
    Strategy,
    UsageError,
    find_kind,
    strategy_from_options,
)

from ...bom import Bom, seat_names
from ...faces import Face
from ...kitcost import sleeved
from ...labels import Label
from ...output import safe_name
from ...templates import Templates
from ...verification import summary, verify_statistically
from ..kind import CARD_KIT_OPTIONS, BookletInput, BookletPlan, KitKind, KitPlan, default_labels, register
from ..virtual import deck_face, kit_labels
from . import front
from .booklet import game_booklet
from .materials import game_bom
from .play import game_lines

if TYPE_CHECKING:
    from reportlab.platypus import Flowable

    from ...booklet import Booklet
    from ...cache import VerificationCache
    from ...kitoptions import BookletOptions, KitOptions
    from ...typesetting import Writer


def _rules(rules: GameRules) -> RuleSet:
    if not isinstance(rules, RuleSet):
        raise UsageError(f"{rules.name} is not a shedding game")
    return rules


def _kind(rules: RuleSet) -> Shedding:
    kind = find_kind(rules.kind)
    assert isinstance(kind, Shedding)
    return kind


@register
class SheddingKit(KitKind):
    kind = "shedding"
    default_card_size = "uno"
    statistical_check = True
    build_options = CARD_KIT_OPTIONS | {"--strategy", "--weights"}
    table_middle = ("Discard pile",)

    def plan(self, opts: KitOptions, rules: GameRules, templates: Templates) -> KitPlan:
        shed = _rules(rules)
        players = _kind(shed).check_seating(shed, opts.players, opts.virtual, opts.wild4)
        if opts.deck not in ("print", "store"):
            raise UsageError(f"--deck is print or store, not {opts.deck!r}")
        default_size = str(shed.kit.get("card_size", self.default_card_size))
        card = templates.card_size(opts.card_size or default_size)
        parts = [shed.name, f"{players}p{opts.virtual}v", opts.paper]
        if card.key != default_size:
            parts.append(card.key)
        if opts.duplex != "long":
            parts.append(opts.duplex)
        if opts.profile != "home":
            parts.append(opts.profile)
        if opts.deck != "print":
            parts.append("store-deck")
        if opts.discard_owner:
            parts.append("discard-owner")
        strategy = _strategy(shed, opts.extra, opts.virtual)
        extra: dict[str, Any] = {"discard_owner": opts.discard_owner, "deck": opts.deck}
        if strategy.weighted:
            parts.append("weighted")
            extra["strategy"] = strategy
        return KitPlan(
            game=rules.name,
            name=safe_name("-".join(parts)),
            players=players,
            virtual=opts.virtual,
            protocol=opts.protocol or (WEIGHTED_PROTOCOL if strategy.weighted else shed.virtual_protocol),
            card=card,
            label_sheet=opts.labels or default_labels(opts.paper),
            teaches=opts.virtual > 0,
            extra=extra,
        )

    def deck_face(self, rules: GameRules, name: str) -> Face | None:
        shed = _rules(rules)
        return deck_face(shed, name) if name in shed.cards else None

    def booklet_plan(self, opts: BookletOptions, rules: GameRules) -> BookletPlan:
        shed = _rules(rules)
        lo, hi, default = shed.players
        players = default if opts.players is None else opts.players
        if not lo <= players <= hi:
            raise UsageError(f"{shed.name} is played by {lo} to {hi} players, not {players}")
        if not 1 <= opts.virtual <= players:
            raise UsageError(f"a booklet teaches virtual players: --virtual must be 1 to {players}")
        _kind(shed).check_seating(shed, players, opts.virtual, opts.wild4)
        name = safe_name(f"{shed.name}-{players}p{opts.virtual}v-booklet-{opts.paper}")
        return BookletPlan(name, opts.protocol or shed.virtual_protocol, players, opts.virtual)

    def materials(self, library: Library, rules: GameRules, plan: KitPlan, reports: list[Report]) -> Bom:
        return game_bom(
            _rules(rules),
            library,
            plan.players,
            plan.virtual,
            str(plan.extra.get("deck", "print")),
            bool(plan.extra.get("discard_owner", False)),
            plan.card_mm,
            sleeved=sleeved(library.protocol(plan.protocol)),
            strategy=plan.extra.get("strategy"),
        )

    def labels(self, rules: GameRules, bom: Bom) -> list[Label]:
        return kit_labels(bom)

    def statistical(
        self, library: Library, plan: KitPlan, runs: int, what: str, cache: VerificationCache | None
    ) -> dict[str, Any] | None:
        strategy = plan.extra.get("strategy")
        weights = strategy.weights if isinstance(strategy, Strategy) else None
        return summary(verify_statistically(library, plan.protocol, runs, 1, what, cache, plan.game, weights))

    def booklet(self, given: BookletInput) -> Booklet:
        return game_booklet(given, self)

    def front_matter(self, w: Writer, booklet: Booklet) -> list[Flowable]:
        return front.front_matter(w, booklet)

    def play_lines(self, result: PlayResult, rules: GameRules) -> list[str]:
        assert isinstance(result, SheddingResult), "a shedding game's result"
        return game_lines(result, seat_names(result.players, result.virtual), rules.title)


def _strategy(rules: RuleSet, extra: dict[str, Any], virtual: int) -> Strategy:
    """The virtual players' strategy a kit is built for (``--strategy``, ``--weights``)."""
    strategy = strategy_from_options(extra)
    if strategy.weighted:
        if not virtual:
            raise UsageError("--strategy weighted is for virtual players: give --virtual 1 or more")
        assert strategy.weights is not None
        strategy.weights.check_names(rules.weight_names(), rules.name)
    return strategy


__all__ = ["SheddingKit"]
