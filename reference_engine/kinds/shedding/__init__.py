"""Shedding games (UNO and its relatives): a deck, a validity rule, card effects, virtual players.

A virtual player's turn runs the card selection protocol on the simulated table; a new
game of this kind (another deck, another validity rule, other effects) is a rule set in
YAML only (README, "Writing a rule set").
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...errors import SpecError, UsageError
from ...registry import Library
from ..deals import Deal, FullDeal, ProblemAt, Validity, owner_sizes
from ..game import MOMENT_SEEDS, Attempt, Bound, TableKind
from ..kind import GameRules, PlayOption, PlaySettings, TableCounts, register
from ..strategy import Weights, strategy_from_options
from ..virtual import Moment
from .play import Game, draws_in_run
from .rules import KIND, RuleSet, hand_dependence_message, load_path, load_rules


@register
class Shedding(TableKind[RuleSet, Game]):
    summary = "shed your hand by matching the card on the discard pile (UNO and its relatives)"
    loader = load_path
    records = True
    simulated_games = 1000
    play_options = (
        PlayOption(
            "wild4",
            "uno-official only: 'bluff' lets virtual players play wild draw four as a bluff under the "
            "challenge rule.",
            "strict",
            ("strict", "bluff"),
        ),
        PlayOption(
            "hands",
            "With scoring (uno-official): stop after this many hands even if nobody reached the target.",
            None,
            kind=int,
        ),
        PlayOption(
            "virtual_draw",
            "What a virtual player does with a card it drew: play it if it can (a second run of the "
            "protocol) or keep it (one run per turn); the default is the rule set's.",
            None,
            ("play", "keep"),
        ),
        PlayOption(
            "strategy",
            "Shedding games such as UNO: how a virtual player chooses among its valid cards: "
            "uniform (the paper, the default) or weighted (by «weights», with the weighted selection "
            "protocol at card level).",
            "uniform",
        ),
        PlayOption(
            "weights",
            "With «strategy» weighted: public weights by class (action, number, wild) or card kind, "
            "whole numbers 1-9, e.g. action=3,number=1,wild=1; a class not named weighs 1.",
            None,
        ),
        PlayOption.switch(
            "discard_owner",
            "Treat the discard pile (without its top card) as an extra owner, so the remaining cards "
            "stay hidden.",
        ),
    )

    def game(self, rules: GameRules, library: Library, settings: PlaySettings) -> Game:
        opts = settings.options
        return Game(
            self.rules_of(rules),
            library,
            wild4=str(opts.get("wild4") or "strict"),
            discard_owner=bool(opts.get("discard_owner", False)),
            hands=opts.get("hands"),
            virtual_draw=opts.get("virtual_draw"),
            strategy=strategy_from_options(opts),
            **self.table(settings, self.default_level),
        )

    # -- verification -----------------------------------------------------------------
    def bind(self, shed: RuleSet, state: Mapping[str, Any], problem: ProblemAt) -> Bound:
        top_name = str(state.get("top", ""))
        if top_name not in shed.cards:
            raise problem(("state",), "the state needs a 'top' card of the game")
        top = shed.symbol(top_name)
        color = str(state.get("color", top.attrs.get("color", "")))
        context: dict[str, Any] = {"valid": shed.validity(top, color)}
        text = f"top card {top.glyph}, {shed.word} {color}"
        if "weights" in state:
            weights = _scenario_weights(shed, state["weights"], problem)
            context["weight"] = weights.function(shed.classify)
            text += f", weights {weights.text()}"
        return context, text

    def two_deals(self, rules: GameRules, players: int, rng: random.Random) -> tuple[Deal, Deal, Validity]:
        """Two deals with the same public information; P_1 has at least 3 valid cards in deal A."""
        shed = self.rules_of(rules)
        hand_size = shed.hand_size_for(players)

        def attempt() -> Attempt:
            deck = shed.deck()
            rng.shuffle(deck)
            top = next(c for c in deck if c.attrs["color"] != "black")
            deck.remove(top)
            sizes = [hand_size] * players + [len(deck) - hand_size * players]
            return deck, sizes, shed.validity(top, str(top.attrs["color"])), f"top card {top.glyph}"

        return self.deal_twice(rng, attempt)

    def full_deal(self, rules: GameRules, players: int, hand: int, state: Mapping[str, Any]) -> FullDeal:
        """Every card but the top of the discard pile: P_1's hand, the other hands as dealt,
        the draw pile last."""
        shed = self.rules_of(rules)
        top = str(state.get("top", ""))
        if top not in shed.cards:
            raise UsageError(f"{shed.name}: the state needs a 'top' card of the game (e.g. top: red5)")
        deck = [c.name for c in shed.deck()]
        deck.remove(top)
        sizes = owner_sizes(len(deck), players, hand, shed.hand_size_for(players))
        text = f"{shed.title}, {players} players, the full deck but the top card {shed.symbol(top).glyph}:"
        return FullDeal(deck, sizes, dict(state), text)

    def draws_in_run(self, rules: GameRules, options: Mapping[str, object]) -> bool:
        shed = self.rules_of(rules)
        return draws_in_run(shed, str(options.get("virtual_draw") or shed.virtual_draw))

    def weight_function(self, rules: GameRules, weights: Any) -> Any:
        shed = self.rules_of(rules)
        assert isinstance(weights, Weights)
        weights.check_names(shed.weight_names(), shed.name)
        return weights.function(shed.classify)

    # -- what a kit needs -------------------------------------------------------------
    def check_seating(self, rules: GameRules, players: int | None, virtual: int, wild4: str) -> int:
        """The number of players, after checking the seating a kit or booklet asks for."""
        shed = self.rules_of(rules)
        n = shed.seat_count(players, virtual)
        if virtual and shed.hand_dependent and wild4 != "bluff":
            raise UsageError(hand_dependence_message(shed))
        return n

    def measure_tables(self, rules: GameRules, library: Library, seating: PlaySettings) -> TableCounts:
        """The largest card selection table in seeded rule-level games with ``seating`` (its seats; the
        option ``discard_owner``): cards per seat, in the draw pile, under the top card, in all."""
        shed = self.rules_of(rules)
        players, _ = self.seats(rules, seating)
        largest_hand: dict[int, int] = {}
        draw = discard = table = 0
        wild4 = "bluff" if shed.hand_dependent else "strict"
        for seed in range(self.simulated_games):
            game = self.one_hand(shed, library, seating, seed, wild4)
            game.observer = lambda g, seat, valid: g.note_table()
            game.play()
            st = game.stats
            self.largest(largest_hand, st.largest_hand)
            draw, discard, table = (
                max(draw, st.largest_draw),
                max(discard, st.largest_discard),
                max(table, st.largest_table),
            )
        bound = len(shed.deck()) - 1  # every card but the top of the discard pile
        return {
            "games": self.simulated_games,
            "hands": [largest_hand.get(s + 1, shed.hand_size_for(players)) for s in range(players)],
            "draw_pile": draw,
            "discard_pile": discard,
            "table_seen": table,
            "table": bound,
        }

    def example_moment(self, rules: GameRules, library: Library, seating: PlaySettings) -> Moment:
        """A real moment of a seeded game for a booklet's worked example: Virtual 1's first turn
        holding 4-6 cards, some valid and some not (``table``: the seats; ``discard_owner``, ``wild4``)."""
        shed = self.rules_of(rules)
        wild4 = str(seating.options.get("wild4") or "strict")

        def suitable(g: Game, seat: int, valid: Any) -> bool:
            hand = g.hands[seat]
            n = sum(1 for c in hand if valid(c))
            return seat == 0 and 4 <= len(hand) <= 6 and 2 <= n < len(hand)

        for seed in range(1, MOMENT_SEEDS):
            game = self.one_hand(shed, library, seating, seed, wild4)
            found = game.run_until(suitable)
            if found is not None:
                top, color = game.top, game.color
                public = {"top": top, "color": color}
                return Moment(seed, game.owners(found[0]), shed.validity(top, color), public)
        raise self.no_moment(shed)

    def one_hand(self, shed: RuleSet, library: Library, seating: PlaySettings, seed: int, wild4: str) -> Game:
        """A rule-level game of one hand with ``seating`` (its seats, the option ``discard_owner``)."""
        players, virtual = self.seats(shed, seating)
        return Game(
            shed,
            library,
            players=players,
            virtual=virtual,
            level="rule",
            seed=seed,
            discard_owner=bool(seating.options.get("discard_owner", False)),
            wild4=wild4,
            hands=1,
        )


def _scenario_weights(shed: RuleSet, raw: Any, problem: ProblemAt) -> Weights:
    """A scenario's ``weights`` (``{action: 3, number: 1, wild: 2}``) for a weighted protocol."""
    if not isinstance(raw, Mapping):
        raise problem(("state", "weights"), "weights are a mapping of class or card kind to a whole number")
    try:
        weights = Weights.of(raw, "weights")
        weights.check_names(shed.weight_names(), shed.name)
    except UsageError as exc:
        raise problem(("state", "weights"), exc.message) from None
    return weights


__all__ = ["KIND", "Game", "Moment", "RuleSet", "Shedding", "SpecError", "load_rules"]
