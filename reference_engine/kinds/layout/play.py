"""Playing Sevens: the holder of the first card (7♦) opens, then every player in turn plays a
valid card on the layout or passes; the order in which the players empty their hands is the
ranking.

A virtual player holding the first card is found by the card selection protocol with "valid =
7♦" only (UNO paper, Section 5.1): the people announce whether they hold it, and then the
table runs the protocol for each virtual player in turn until it selects the card, so nothing
else about a virtual hand leaks. At every later virtual turn the protocol selects a uniformly
random valid card, or reports that there is none (the modified covert lottery), and the
virtual player passes, as a person would. There is no unplayed deck.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...cards import Symbol
from ...errors import CheckFailure
from ..game import LogEntry, TableGame
from ..result import RankedResult
from .record import LayoutRecord
from .rules import LayoutRules, Runs

MAX_TURNS = 2000


@dataclass
class Turn(LogEntry):
    index: int
    seat: int
    action: str  # open | play | pass | finished
    card: str | None = None
    runs: int = 0
    note: str = ""


@dataclass
class Largest:
    """The largest card selection table a virtual decision saw: cards per seat, in all."""

    hands: dict[int, int] = field(default_factory=dict)
    table: int = 0


class SevensGame(TableGame[LayoutRules]):
    """One game of a layout rule set (Sevens)."""

    def setup(self) -> None:
        self.virtual = self.selection_players()
        self.largest = Largest()
        self.runs: Runs = {}
        self.log: list[Turn] = []
        self.hands: list[list[Symbol]] = []
        self.rec = LayoutRecord(self.recorder, self) if self.recorder is not None else None

    # -- the game -----------------------------------------------------------------------
    def deal(self) -> None:
        """The whole deck, one card at a time from the dealer's left."""
        dealer, self.hands = self.deal_round(self.rules.deck())
        if self.rec:
            self.rec.deal(dealer)

    def play(self) -> RankedResult:
        n = len(self.seats)
        self.deal()
        ranking: list[int] = []
        current = self.open()
        turn = 1
        while len(ranking) < n - 1 and turn <= MAX_TURNS:
            turn += 1
            current = (current + 1) % n
            if not self.hands[current]:
                continue
            self.take_turn(turn, current)
            if not self.hands[current]:
                ranking.append(current)
                self.log.append(Turn(turn, current + 1, "finished", note=f"place {len(ranking)}"))
                if self.rec:
                    self.rec.finished(turn, current, len(ranking))
        ranking += [s for s in range(n) if s not in ranking]  # the last one holds cards still
        if self.rec:
            self.rec.game_end(ranking)
        return self.summary(ranking, turn)

    def open(self) -> int:
        """The holder of the first card plays it; returns that seat."""
        first = self.rules.symbol(self.rules.first)
        valid = self.rules.validity({})
        holder = next(s for s, hand in enumerate(self.hands) if first in hand)
        if not self.seats[holder].virtual:
            self.play_card(1, holder, first, "open")
            return holder
        # No person announces the card: ask the virtual players one after another.
        for seat, s in enumerate(self.seats):
            if not s.virtual:
                continue
            card, runs = self.decide(seat, valid, 1)
            if card is not None:
                self.play_card(1, seat, card, "open", runs, asked=first)
                return seat
            self.log.append(Turn(1, seat + 1, "pass", runs=runs, note=f"does not hold {first.glyph}"))
            if self.rec:
                self.rec.turn(1, seat, "pass", None, asked=first)
        raise CheckFailure(f"nobody played {first.glyph}, although a virtual player holds it")

    def take_turn(self, index: int, seat: int) -> None:
        valid = self.rules.validity(self.runs)
        if self.seats[seat].virtual:
            self.virtual.stats.virtual_turns += 1
            card, runs = self.decide(seat, valid, index)
        else:
            card, runs = self.human(seat, valid), 0
        if card is None:
            self.log.append(Turn(index, seat + 1, "pass", runs=runs))
            if self.rec:
                self.rec.turn(index, seat, "pass", None)
            return
        self.play_card(index, seat, card, "play", runs)

    def human(self, seat: int, valid: Any) -> Symbol | None:
        """A person's simple policy: play the valid card that opens the most of their own hand
        (a centre card first), else the first valid card in hand order."""
        options = [c for c in self.hands[seat] if valid(c)]
        if not options:
            return None
        return max(
            options, key=lambda c: (self.rules.rank(c) == self.rules.centre, -self.hands[seat].index(c))
        )

    def decide(self, seat: int, valid: Any, index: int) -> tuple[Symbol | None, int]:
        """A virtual decision on the whole table (every hand, P_1 first); checks the result."""
        n = len(self.seats)
        order = [(seat + k) % n for k in range(n)]
        owners = [list(self.hands[s]) for s in order]
        self.note_table()
        where = f"turn {index} ({self.seats[seat].name}, {self.protocol_name})"
        decision = self.virtual.decide(owners, valid, where)
        for s, cards in zip(order, decision.owners):
            self.hands[s] = cards
        if decision.played is not None:
            self.hands[seat].append(decision.played)  # played from the hand by play_card
        return decision.played, decision.runs

    def play_card(
        self, index: int, seat: int, card: Symbol, action: str, runs: int = 0, asked: Symbol | None = None
    ) -> None:
        valid = self.rules.validity(self.runs)
        if not valid(card):
            raise CheckFailure(f"turn {index}: {card.glyph} may not be played now")
        self.hands[seat].remove(card)
        suit, r = str(card.attrs["color"]), self.rules.rank(card)
        low, high = self.runs.get(suit, (r, r))
        self.runs[suit] = (min(low, r), max(high, r))
        self.log.append(Turn(index, seat + 1, action, card.glyph, runs))
        if self.rec:
            self.rec.turn(index, seat, action, card, asked)

    def note_table(self) -> None:
        """Remember how large the card selection table is now (for the bill of materials)."""
        for s, hand in enumerate(self.hands):
            self.largest.hands[s + 1] = max(self.largest.hands.get(s + 1, 0), len(hand))
        self.largest.table = max(self.largest.table, sum(len(h) for h in self.hands))

    def summary(self, ranking: list[int], turns: int) -> RankedResult:
        played = sum(1 for t in self.log if t.card)
        if played + sum(len(h) for h in self.hands) != len(self.rules.deck()):
            raise CheckFailure("cards were created or lost")
        return self.ranked_result(ranking, turns, self.virtual.stats, self.log)
