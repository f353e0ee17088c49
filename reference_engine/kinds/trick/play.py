"""Playing Hearts: rounds of 13 tricks until somebody's score reaches the target.

The player left of the dealer leads the first trick (the UNO paper: "the first player can play
any card"); the winner of a trick leads the next. At a virtual player's turn the table runs the
card selection protocol with the original covert lottery (Section 5.2): a card of the led suit
uniformly at random, or, when it has none, any card of its hand uniformly at random, so the
protocol never says "none" and nobody learns whether the virtual player could follow suit.
With the "pass three" option, a virtual player passes three uniformly random cards of its hand,
chosen by running the same protocol three times with every card valid (the chosen card goes
face down to the receiver).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...cards import Symbol
from ...errors import CheckFailure
from ...registry import Library
from ..game import TableGame
from ..result import Json, ScoredResult, VirtualWork
from .record import RoundResult, TrickRecord, Turn
from .rules import TrickRules

PASSES = (1, -1, 2, 0)  # left, right, across, no pass: by round


@dataclass
class TrickResult(ScoredResult):
    """A trick game: the scores, and each round's points and log."""

    json_keys = "scores rounds turns *work round_results log"

    round_results: list[Json]
    log: list[list[Json]]

    @property
    def rounds(self) -> int:
        return len(self.round_results)

    def rounds_log(self) -> list[list[Json]]:
        return self.log


class HeartsGame(TableGame[TrickRules]):
    """One game of a trick rule set (Hearts); ``max_rounds`` stops it early."""

    def __init__(self, rules: TrickRules, library: Library, *, max_rounds: int | None = None, **table: Any):
        self.max_rounds = max_rounds
        super().__init__(rules, library, **table)

    def setup(self) -> None:
        self.virtual = self.selection_players(fallback=True)
        self.scores = [0] * len(self.seats)
        self.rounds: list[RoundResult] = []
        self.hands: list[list[Symbol]] = []
        self.largest_table = 0
        self.turn = 0
        self.rec = TrickRecord(self.recorder, self) if self.recorder is not None else None

    # -- the game -----------------------------------------------------------------------
    def play(self) -> TrickResult:
        number = 0
        while max(self.scores) < self.rules.target:
            number += 1
            result = self.play_round(number)
            self.rounds.append(result)
            for s, p in enumerate(result.points):
                self.scores[s] += p
            if self.rec:
                self.rec.round_end(result, self.moon)
            if self.max_rounds is not None and number >= self.max_rounds:
                break
        return self.summary()

    def deal(self, number: int) -> int:
        """Deal a round; returns the dealer."""
        n = len(self.seats)
        deck = self.rules.deck()
        self.rng.shuffle(deck)
        size = self.rules.hand_size
        self.hands = [deck[i * size : (i + 1) * size] for i in range(n)]
        return (number - 1) % n

    def play_round(self, number: int) -> RoundResult:
        n = len(self.seats)
        result = RoundResult(number, [0] * n)
        dealer = self.deal(number)
        if self.rec:
            self.rec.deal(number, dealer)
        if self.rules.options["pass_three"]:
            self.pass_cards(number, result)
        leader = (dealer + 1) % n
        broken = not self.rules.options["hearts_broken"]
        for _ in range(self.rules.hand_size):
            trick: list[tuple[int, Symbol]] = []
            for k in range(n):
                seat = (leader + k) % n
                led = self.rules.suit(trick[0][1]) if trick else None
                card, runs = self.choose(seat, self.rules.validity(led, broken))
                self.check_card(seat, card, led, broken)
                self.hands[seat].remove(card)
                trick.append((seat, card))
                result.log.append(Turn(self.turn, seat + 1, "play", card.glyph, runs))
                if self.rec:
                    self.rec.played(self.turn, seat, card)
                if self.rules.points(card) and self.rules.suit_points.get(self.rules.suit(card)):
                    broken = True
            led_suit = self.rules.suit(trick[0][1])
            winner = max(
                (sc for sc in trick if self.rules.suit(sc[1]) == led_suit),
                key=lambda sc: self.rules.rank(sc[1]),
            )[0]
            result.points[winner] += sum(self.rules.points(c) for _, c in trick)
            result.log[-1].note = f"{self.seats[winner].name} takes the trick"
            if self.rec:
                self.rec.trick(winner, sum(self.rules.points(c) for _, c in trick))
            leader = winner
        total = sum(self.rules.points(c) for c in self.rules.deck())
        self.moon: int | None = None
        if self.rules.options["shoot_the_moon"] and total in result.points:
            moon = self.moon = result.points.index(total)
            result.points = [0 if s == moon else total for s in range(n)]
            result.log[-1].note += f"; {self.seats[moon].name} shoots the moon"
        if any(self.hands):
            raise CheckFailure("cards were left in a hand after the last trick")
        return result

    def pass_cards(self, number: int, result: RoundResult) -> None:
        n = len(self.seats)
        shift = PASSES[(number - 1) % len(PASSES)]
        if shift == 0:
            return
        passed: list[list[Symbol]] = []
        for seat in range(n):
            cards: list[Symbol] = []
            for _ in range(3):
                card, runs = self.choose(seat, lambda c: True, passing=True)
                self.hands[seat].remove(card)
                cards.append(card)
                result.log.append(
                    Turn(self.turn, seat + 1, "pass", runs=runs, note="passes a card face down")
                )
                if self.rec:
                    self.rec.passed(self.turn, seat, card, (seat + shift) % n)
            passed.append(cards)
        for seat, cards in enumerate(passed):
            self.hands[(seat + shift) % n].extend(cards)

    def choose(self, seat: int, valid: Any, passing: bool = False) -> tuple[Symbol, int]:
        self.turn += 1
        if not self.seats[seat].virtual:
            return self.human(seat, valid, passing), 0
        if not passing:
            self.virtual.stats.virtual_turns += 1
        n = len(self.seats)
        order = [(seat + k) % n for k in range(n)]
        owners = [list(self.hands[s]) for s in order]
        self.largest_table = max(self.largest_table, sum(len(o) for o in owners))
        where = f"turn {self.turn} ({self.seats[seat].name}, {self.protocol_name})"
        decision = self.virtual.decide(owners, valid, where)
        if decision.played is None:
            raise CheckFailure(f"{where}: the protocol played no card")
        for s, cards in zip(order, decision.owners):
            self.hands[s] = cards
        self.hands[seat].append(decision.played)  # removed by the caller
        return decision.played, decision.runs

    def human(self, seat: int, valid: Any, passing: bool) -> Symbol:
        """A person's simple policy: pass and discard the cards worth most (Q♠, high hearts);
        follow suit with the lowest card; lead the lowest card allowed."""
        hand = self.hands[seat]
        rules = self.rules
        allowed = [c for c in hand if valid(c)] or list(hand)
        if passing or not any(valid(c) for c in hand):
            return max(allowed, key=lambda c: (rules.points(c), rules.rank(c)))
        return min(allowed, key=lambda c: (rules.rank(c), rules.suit(c)))

    def check_card(self, seat: int, card: Symbol, led: str | None, broken: bool) -> None:
        hand = self.hands[seat]
        if card not in hand:
            raise CheckFailure(f"turn {self.turn}: {card.glyph} is not in {self.seats[seat].name}'s hand")
        valid = self.rules.validity(led, broken)
        if not valid(card) and any(valid(c) for c in hand):
            raise CheckFailure(f"turn {self.turn}: {card.glyph} may not be played: a valid card was held")

    def summary(self) -> TrickResult:
        key = (lambda s: (self.scores[s], s)) if self.rules.lowest_wins else (lambda s: (-self.scores[s], s))
        winner = min(range(len(self.seats)), key=key)
        return TrickResult(
            **self.result_head(),
            winner=winner + 1,
            winner_name=self.seats[winner].name,
            turns=self.turn,
            work=VirtualWork.of(self.virtual.stats),
            points=self.scores,
            round_results=[{"round": r.number, "points": r.points} for r in self.rounds],
            log=[[t.to_json() for t in r.log] for r in self.rounds],
        )
