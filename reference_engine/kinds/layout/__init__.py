"""Layout games (Sevens): every card is dealt, suits are built up and down on the table.

A virtual player's turn runs the card selection protocol with the layout's validity rule on
the whole table (every hand, no unplayed deck); with no valid card it passes, as the
modified covert lottery reports "none" publicly (UNO paper, Section 5.1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...errors import UsageError
from ...registry import Library
from ..deals import Deal, FullDeal, ProblemAt, Validity, owner_sizes
from ..game import Attempt, Bound, TableKind
from ..kind import GameRules, PlaySettings, TableCounts, register
from ..virtual import Moment
from .play import SevensGame
from .rules import KIND, LayoutRules, Runs, load_layout


@register
class Layout(TableKind[LayoutRules, SevensGame]):
    summary = "every card is dealt; suits are built up and down from a centre rank (Sevens)"
    loader = load_layout
    records = True

    def bind(self, lay: LayoutRules, state: Mapping[str, Any], problem: ProblemAt) -> Bound:
        runs = _runs(state.get("runs", {}), problem)
        text = "layout " + (", ".join(f"{s} {lo}..{hi}" for s, (lo, hi) in runs.items()) or "empty")
        return {"valid": lay.validity(runs)}, text

    def two_deals(self, rules: GameRules, players: int, rng: random.Random) -> tuple[Deal, Deal, Validity]:
        """A layout in mid-game (the same for both deals) and two different deals of the rest;
        P_1 has at least three valid cards in deal A."""
        lay = self.rules_of(rules)

        def attempt() -> Attempt | None:
            runs: Runs = {}
            for suit in lay.deck_def.colors:
                if rng.random() < 0.75:
                    low = rng.randint(max(1, lay.centre - 4), lay.centre)
                    runs[suit] = (low, rng.randint(lay.centre, min(13, lay.centre + 4)))
            if not runs:
                return None
            left = [c for c in lay.deck() if not _played(lay, runs, c)]
            sizes = [len(left) // players + (1 if i < len(left) % players else 0) for i in range(players)]
            rng.shuffle(left)
            public = "layout " + ", ".join(f"{s} {lo}..{hi}" for s, (lo, hi) in sorted(runs.items()))
            return left, sizes, lay.validity(runs), public

        return self.deal_twice(rng, attempt)

    def full_deal(self, rules: GameRules, players: int, hand: int, state: Mapping[str, Any]) -> FullDeal:
        """Every card not yet in the layout, dealt: P_1's hand, the others share the rest."""
        lay = self.rules_of(rules)

        def problem(path: tuple[str | int, ...], message: str) -> Exception:
            return UsageError(f"{lay.name}: {message}")

        runs = _runs(state.get("runs", {}), problem)
        deck = [c.name for c in lay.deck() if not _played(lay, runs, c)]
        sizes = owner_sizes(len(deck), players, hand, None)
        laid = ", ".join(f"{s} {lo}..{hi}" for s, (lo, hi) in runs.items()) or "nothing"
        text = f"{lay.title}, {players} players, every card but the layout ({laid}):"
        return FullDeal(deck, sizes, dict(state), text)

    def measure_tables(self, rules: GameRules, library: Library, seating: PlaySettings) -> TableCounts:
        """The largest card selection table a virtual decision saw in seeded rule-level games."""
        players, _ = self.seats(rules, seating)
        hands: dict[int, int] = {}
        table = 0
        for game in self.simulated(rules, library, seating):
            self.largest(hands, game.largest.hands)
            table = max(table, game.largest.table)
        deck = len(self.rules_of(rules).deck())
        return {
            "games": self.simulated_games,
            "hands": [hands.get(s + 1, deck // players + 1) for s in range(players)],
            "table_seen": table,
            "table": deck,
        }

    def example_moment(self, rules: GameRules, library: Library, seating: PlaySettings) -> Moment:
        """Virtual 1's first turn after the opening with 4 to 8 valid cards of 13 or fewer."""
        lay = self.rules_of(rules)
        for seed, game in self.moments(rules, library, seating):
            n = len(game.seats)
            game.deal()
            current = game.open()
            for k in range(1, 2 * n):
                seat = (current + k) % n
                valid = lay.validity(game.runs)
                hand = game.hands[seat]
                ok = sum(1 for c in hand if valid(c))
                if seat == 0 and 2 <= ok < len(hand):
                    owners = [list(game.hands[(seat + j) % n]) for j in range(n)]
                    return Moment(seed, owners, valid, {"runs": dict(game.runs)})
                game.take_turn(k + 1, seat)
        raise self.no_moment(lay)


def _runs(raw: Any, problem: ProblemAt) -> Runs:
    if not isinstance(raw, dict):
        raise problem(("state", "runs"), "runs is a mapping suit: [lowest, highest]")
    out: Runs = {}
    for suit, span in raw.items():
        if not (isinstance(span, list) and len(span) == 2 and all(isinstance(x, int) for x in span)):
            raise problem(("state", "runs", str(suit)), "a run is [lowest, highest], e.g. [6, 8]")
        out[str(suit)] = (span[0], span[1])
    return out


def _played(lay: LayoutRules, runs: Runs, card: Any) -> bool:
    span = runs.get(str(card.attrs["color"]))
    return span is not None and span[0] <= lay.rank(card) <= span[1]


__all__ = ["KIND", "Layout", "LayoutRules", "SevensGame", "load_layout"]
