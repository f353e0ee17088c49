"""The referee of trick games (Hearts): a record checked against the rules as written.

It shares no code with how the engine plays (``play.py``, ``rules.py``, the deck loader): the
rule book ``rulesets/referee/<rule set>.yaml`` is written from the UNO paper's Section 5.2, the
game's switches (passing, hearts broken, shooting the moon) come from the record, and the
referee keeps its own account of every hand. It checks every deal (the whole deck, 13 each,
the dealer moving on), every card passed (three per player, from their hand, to the seat the
round passes to), every card played (from the hand; the led suit when the player holds it;
with "hearts broken", no heart led before one is played unless the hand holds nothing else),
who takes each trick and its points, shooting the moon, the scores, the end and the winner,
and every protocol run's table, selection, counts and view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...records.referee import (
    Book,
    Card,
    TableReferee,
    Verdict,
    Walk,
    book_check,
    check_hands_run,
    show,
)

KIND = "trick"
KEYS = ("players", "hand_size", "deck", "order", "points", "target", "winner", "passing")


def check(record: Mapping[str, Any]) -> Verdict:
    # Without a book the referee knows neither the deck nor the ranks: it cannot follow a trick.
    return book_check(record, KIND, KEYS, Referee)


class Referee(TableReferee):
    def __init__(self, walk: Walk, found: Book):
        super().__init__(walk)
        data = self.ranked_book(found)
        self.hand_size = int(data["hand_size"])
        self.suit_points = {str(k): int(v) for k, v in data["points"].get("suits", {}).items()}
        self.card_points = {str(k): int(v) for k, v in data["points"].get("cards", {}).items()}
        self.target = int(data["target"])
        self.lowest_wins = data["winner"] == "lowest"
        self.passing = [int(x) for x in data["passing"]]
        params = walk.record["game"]["parameters"]
        self.options = {k: bool(v) for k, v in params["options"].items()}
        self.max_rounds = params["max_rounds"]
        self.scores = [0] * self.n
        self.turn = 0
        self.actions = 0

    def card(self, name: str) -> Card:
        card = self.cards.get(name)
        self.walk.expect(card is not None, f"{name} is not a card of the game")
        assert card is not None
        return card

    def points(self, name: str) -> int:
        suit = self.card(name).colour
        return self.card_points.get(name, self.suit_points.get(str(suit), 0))

    # -- the game --------------------------------------------------------------------------
    def run(self) -> int:
        w = self.walk
        rounds, first_dealer = 0, None
        while max(self.scores) < self.target and (self.max_rounds is None or rounds < self.max_rounds):
            rounds += 1
            ev = w.expect_next("deal", f"round {rounds} must be dealt")
            dealer = ev["public"]["dealer"] - 1
            first_dealer = dealer if first_dealer is None else first_dealer
            w.expect(dealer == (first_dealer + rounds - 1) % self.n, "the deal does not move on by one seat")
            w.expect(
                ev["public"]["round"] == rounds, f"round {ev['public']['round']} where round {rounds} comes"
            )
            self.deal(ev)
            if self.options.get("pass_three") and self.passing[(rounds - 1) % len(self.passing)]:
                self.pass_cards(self.passing[(rounds - 1) % len(self.passing)])
            self.play_round(rounds, dealer)
        w.expect(w.next() is None, "events after the game ended")
        res = w.record["result"]
        key = (lambda s: (self.scores[s], s)) if self.lowest_wins else (lambda s: (-self.scores[s], s))
        winner = min(range(self.n), key=key)
        w.expect(res["scores"] == self.scores, f"the final scores are {self.scores}, not {res['scores']}")
        w.expect(res["winner"] == winner + 1, f"the winner is {w.name(winner + 1)}, not seat {res['winner']}")
        w.expect(
            res["rounds"] == rounds and res["turns"] == self.turn, "the result counts other rounds or turns"
        )
        return self.actions

    def deal(self, ev: Mapping[str, Any]) -> None:
        w = self.walk
        self.dealt(ev, self.deck, "the deck")
        sizes = [sum(h.values()) for h in self.hands]
        w.expect(
            sizes == [self.hand_size] * self.n, f"hands of {sizes} cards, the rules deal {self.hand_size}"
        )
        w.expect(ev["public"]["sizes"] == sizes, "the public counts of the deal differ from the cards dealt")
        w.check_seen(ev, {s + 1: {"hand": list(h.elements())} for s, h in enumerate(self.hands)})
        w.expect(not ev["runs"], "a protocol run at the deal")

    def pass_cards(self, shift: int) -> None:
        """Three cards from every player in seat order, each chosen from what is left of the hand;
        they reach their receivers when everyone has passed."""
        w = self.walk
        received: list[list[str]] = [[] for _ in range(self.n)]
        for seat in range(self.n):
            for _ in range(3):
                ev = w.expect_next("pass", f"{w.name(seat + 1)} passes three cards")
                self.turn += 1
                to = (seat + shift) % self.n
                w.expect(ev["seat"] == seat + 1 and ev["turn"] == self.turn, f"{w.name(seat + 1)} passes now")
                w.expect(ev["public"]["to"] == to + 1, f"this round passes to {w.name(to + 1)}")
                card = ev["hidden"]["card"]
                self.check_runs(ev, seat, card)
                w.take(self.hands[seat], [card], f"{w.name(seat + 1)}'s hand")
                received[to].append(card)
                seen: dict[int, dict[str, Any]] = {seat + 1: {"passed": [card]}}
                seen.setdefault(to + 1, {})["received"] = [card]
                w.check_seen(ev, seen)
        for seat, cards in enumerate(received):
            self.hands[seat].update(cards)

    def play_round(self, number: int, dealer: int) -> None:
        w = self.walk
        taken = [0] * self.n
        leader = (dealer + 1) % self.n
        broken = not self.options.get("hearts_broken")
        for _ in range(self.hand_size):
            led: str | None = None
            best: tuple[int, int] | None = None  # (rank, seat) of the highest card of the led suit
            points = 0
            for k in range(self.n):
                seat = (leader + k) % self.n
                ev = w.expect_next("turn", f"{w.name(seat + 1)} must play to the trick")
                self.turn += 1
                w.expect(
                    ev["seat"] == seat + 1, f"{w.name(ev['seat'])} plays, but it is {w.name(seat + 1)}'s turn"
                )
                w.expect(ev["turn"] == self.turn, f"turn {ev['turn']} where turn {self.turn} comes")
                card = ev["public"]["card"]
                hand = self.hands[seat]
                w.expect(hand[card] > 0, f"{card} is not in {w.name(seat + 1)}'s hand")
                valid = [c for c in hand if self.valid(c, led, broken)]
                w.expect(
                    not valid or card in valid,
                    f"{card} may not be played: "
                    f"{'the led suit is ' + led if led else 'no heart may be led yet'}, "
                    f"and the hand holds {show(valid)}",
                )
                self.check_runs(ev, seat, card)
                w.take(hand, [card], "the hand")
                c = self.card(card)
                if led is None:
                    led = c.colour
                if c.colour == led:
                    rank = self.order.index(c.face)
                    best = (rank, seat) if best is None or rank > best[0] else best
                points += self.points(card)
                if self.points(card) and self.suit_points.get(str(c.colour)):
                    broken = True
                self.actions += 1
            assert best is not None
            winner = best[1]
            ev = w.expect_next("trick", "the trick must be taken")
            w.expect(
                ev["seat"] == winner + 1, f"{w.name(winner + 1)} takes the trick, not {w.name(ev['seat'])}"
            )
            w.expect(
                ev["public"]["points"] == points,
                f"the trick holds {points} points, not {ev['public']['points']}",
            )
            taken[winner] += points
            leader = winner
        total = sum(self.points(c) * k for c, k in self.deck.items())
        moon = None
        if self.options.get("shoot_the_moon") and total in taken:
            moon = taken.index(total)
            taken = [0 if s == moon else total for s in range(self.n)]
        for s in range(self.n):
            self.scores[s] += taken[s]
        ev = w.expect_next("round-end", f"round {number} must end")
        pub = ev["public"]
        w.expect(pub["round"] == number and pub["points"] == taken, f"the round's points are {taken}")
        w.expect(pub["moon"] == (None if moon is None else moon + 1), "who shot the moon")
        w.expect(pub["scores"] == self.scores, f"the scores are {self.scores}, not {pub['scores']}")

    def valid(self, name: str, led: str | None, broken: bool) -> bool:
        """Following: a card of the led suit. Leading: any card (with "hearts broken", no heart
        until one has been played). With no such card in the hand, any card."""
        c = self.card(name)
        if led is not None:
            return c.colour == led
        return broken or not self.suit_points.get(str(c.colour))

    def check_runs(self, ev: Mapping[str, Any], seat: int, card: str) -> None:
        """A virtual decision at card level is one protocol run on every hand (P_1 first)."""
        check_hands_run(self.walk, ev, self.protocol if self.card_level else None, self.hands, seat, card)
