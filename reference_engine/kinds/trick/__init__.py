"""Trick-taking games (Hearts): follow suit if you can; the highest card of the led suit wins.

A virtual player's turn runs the card selection protocol with the ORIGINAL covert lottery (UNO
paper, Section 5.2): a valid card uniformly at random, or any card of the hand when none is
valid, which is exactly the rule for a player who cannot follow suit.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from ...errors import UsageError
from ...registry import Library
from ..deals import Deal, FullDeal, ProblemAt, Validity
from ..game import Attempt, Bound, TableKind
from ..kind import GameRules, PlayOption, PlaySettings, TableCounts, register
from ..virtual import Moment
from .play import HeartsGame
from .rules import KIND, OPTIONS, TrickRules, load_trick


@register
class Trick(TableKind[TrickRules, HeartsGame]):
    summary = "follow suit if you can; the highest card of the led suit takes the trick (Hearts)"
    loader = load_trick
    records = True
    plays_any_card = True  # play.py: selection_players(fallback=True)
    play_options = (
        PlayOption(
            "rounds",
            "Hearts only: stop after this many rounds even if nobody reached the target score.",
            None,
            kind=int,
        ),
        PlayOption.switch(
            "pass_three",
            "Hearts only: before each round every player passes three cards face down (left, right, "
            "across, then none); off in the paper.",
        ),
        PlayOption.switch(
            "hearts_broken",
            "Hearts only: no heart may be led until a heart has been played; off in the paper.",
        ),
        PlayOption.switch(
            "shoot_the_moon",
            "Hearts only: a player who takes every point scores 0 and every other player all of them; "
            "off in the paper.",
        ),
    )

    def game(self, rules: GameRules, library: Library, settings: PlaySettings) -> HeartsGame:
        trick = self.rules_of(rules)
        switched = {k: True for k in OPTIONS if settings.options.get(k)}  # a flag turns a switch on
        if switched:
            trick = dataclasses.replace(trick, options={**trick.options, **switched})
        rounds = settings.options.get("rounds")
        return HeartsGame(trick, library, max_rounds=rounds, **self.table(settings, self.default_level))

    def bind(self, tr: TrickRules, state: Mapping[str, Any], problem: ProblemAt) -> Bound:
        led = state.get("led")
        if led is not None and str(led) not in tr.deck_def.colors:
            raise problem(("state", "led"), f"the led suit is one of {', '.join(tr.deck_def.colors)}")
        text = f"{led} led" if led else "P_1 leads"
        return {"valid": tr.validity(str(led) if led else None)}, text

    def two_deals(self, rules: GameRules, players: int, rng: random.Random) -> tuple[Deal, Deal, Validity]:
        """A trick under way (the same led suit, the same cards played, the same hand sizes) and
        two different deals of the rest; P_1 can follow suit with at least three cards in deal A."""
        tr = self.rules_of(rules)
        suits = list(tr.deck_def.colors)

        def attempt() -> Attempt:
            deck = tr.deck()
            rng.shuffle(deck)
            led = suits[rng.randrange(len(suits))]
            played = [c for c in deck if tr.suit(c) == led][:1]
            rest = [c for c in deck if c not in played]
            sizes = [tr.hand_size] + [
                tr.hand_size - (1 if i == players - 1 else 0) for i in range(1, players)
            ]
            return rest[: sum(sizes)], sizes, tr.validity(led), f"{played[0].glyph} led"

        return self.deal_twice(rng, attempt)

    def full_deal(self, rules: GameRules, players: int, hand: int, state: Mapping[str, Any]) -> FullDeal:
        """A trick under way: one card of the led suit (its lowest) is on the table, P_1 and the
        players after it hold ``hand`` cards, the leader one fewer; earlier tricks took the
        cards last in the deck's order (none when ``hand`` is the full hand)."""
        tr = self.rules_of(rules)
        deck = tr.deck()
        led = state.get("led")
        if led is not None and str(led) not in tr.deck_def.colors:
            raise UsageError(f"{tr.name}: the led suit is one of {', '.join(tr.deck_def.colors)}")
        table = [min((c for c in deck if tr.suit(c) == led), key=tr.rank)] if led else []
        rest = [c.name for c in deck if c not in table]
        sizes = [hand] * (players - 1) + [hand - (1 if table else 0)]
        if hand < 1 or sizes[-1] < 0 or sum(sizes) > len(rest):
            raise UsageError(f"{players} hands of {hand} do not fit the {len(rest)} cards in play")
        played = (", " + table[0].glyph + " led") if table else ", P_1 leads"
        text = f"{tr.title}, {players} players{played}:"
        return FullDeal(rest[: sum(sizes)], sizes, dict(state), text)

    def measure_tables(self, rules: GameRules, library: Library, seating: PlaySettings) -> TableCounts:
        """Hearts deals every card: the table of a virtual decision holds at most the 52 cards."""
        players, _ = self.seats(rules, seating)
        tr = self.rules_of(rules)
        return {
            "games": 0,
            "hands": [tr.hand_size] * players,
            "table_seen": tr.hand_size * players,
            "table": tr.hand_size * players,
        }

    def example_moment(self, rules: GameRules, library: Library, seating: PlaySettings) -> Moment:
        """Virtual 1 following suit in an early trick with two to four cards of the led suit."""
        tr = self.rules_of(rules)
        for seed, game in self.moments(rules, library, seating):
            game.deal(1)
            n = len(game.seats)
            for leader in range(1, n):
                lead_card = min(game.hands[leader], key=lambda c: (tr.rank(c), tr.suit(c)))
                led = tr.suit(lead_card)
                valid = tr.validity(led)
                hand = game.hands[0]
                ok = sum(1 for c in hand if valid(c))
                if 2 <= ok <= 4:
                    game.hands[leader].remove(lead_card)
                    owners = [list(game.hands[(0 + j) % n]) for j in range(n)]
                    return Moment(seed, owners, valid, {"led": led, "lead": lead_card, "leader": leader})
        raise self.no_moment(tr)


__all__ = ["KIND", "HeartsGame", "Trick", "TrickRules", "load_trick"]
