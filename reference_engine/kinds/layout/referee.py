"""The referee of layout games (Sevens): a record checked against the rules as written.

It shares no code with how the engine plays (``play.py``, ``rules.py``, the deck loader): the
rule book ``rulesets/referee/<rule set>.yaml`` is written from the UNO paper's Section 5.1, and
the referee keeps its own account of every hand and of the layout. It checks the deal (the
whole deck, one card at a time from the dealer's left), the opening (the holder of the first
card opens: a person at once; otherwise the virtual players are asked in seat order with only
that card valid, and each run says whether that one holds it), every play (the centre rank of
an unopened suit, or the card next to its suit's run), every pass (only without a valid card),
the places, the ranking, and every protocol run's table, selection, counts and view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...records.referee import (
    TableReferee,
    Verdict,
    Walk,
    cards_only,
    check_hands_run,
    checked,
    load_book,
    show,
)

KIND = "layout"
MAX_TURNS = 2000


def check(record: Mapping[str, Any]) -> Verdict:
    found = load_book(str(record["game"]["rule_set"]), KIND, ("players", "deck", "first", "centre", "order"))
    verdict = checked(record, lambda walk: Referee(walk, found).run())
    return verdict if found is not None else cards_only(verdict, record["game"]["rule_set"])


class Referee(TableReferee):
    def __init__(self, walk: Walk, found: Any):
        super().__init__(walk)
        self.book = found is not None
        params = walk.record["game"]["parameters"]
        if found is not None:
            data = self.ranked_book(found)
            self.first = str(data["first"])
            self.centre = str(data["centre"])
        else:  # no book: the record's own parameters, and no judgement of which card may be played
            self.first, self.cards, self.deck = str(params["first"]), {}, Counter()
        self.runs: dict[str, tuple[int, int]] = {}  # suit -> lowest and highest place in the order
        self.turns = 0

    # -- the rules -----------------------------------------------------------------------
    def place(self, name: str) -> tuple[str, int]:
        card = self.cards.get(name)
        self.walk.expect(card is not None, f"{name} is not a card of the game")
        assert card is not None and card.colour is not None
        return card.colour, self.order.index(card.face)

    def valid(self, name: str) -> bool:
        if not self.book:
            return True
        if not self.runs:
            return name == self.first
        suit, at = self.place(name)
        if suit not in self.runs:
            return self.order[at] == self.centre
        low, high = self.runs[suit]
        return at in (low - 1, high + 1)

    def valid_cards(self, seat: int) -> list[str]:
        return sorted(c for c in self.hands[seat] if self.valid(c))

    # -- the game --------------------------------------------------------------------------
    def run(self) -> int:
        w = self.walk
        self.deal()
        current = self.opening()
        ranking: list[int] = []
        index = 1
        while len(ranking) < self.n - 1 and index <= MAX_TURNS:
            index += 1
            current = (current + 1) % self.n
            if not self.hands[current]:
                continue
            ev = w.expect_next("turn", f"it is {w.name(current + 1)}'s turn")
            w.expect(ev["turn"] == index, f"turn {ev['turn']} where turn {index} comes")
            w.expect(
                ev["seat"] == current + 1,
                f"{w.name(ev['seat'])} plays, but it is {w.name(current + 1)}'s turn",
            )
            self.turn(ev, current)
            if not self.hands[current]:
                ranking.append(current)
                done = w.expect_next("finished", f"{w.name(current + 1)} has no cards left")
                w.expect(
                    done["seat"] == current + 1
                    and done["public"]["place"] == len(ranking)
                    and done["turn"] == index,
                    f"{w.name(current + 1)} finishes in place {len(ranking)}",
                )
        ranking += [s for s in range(self.n) if s not in ranking]
        end = w.expect_next("game-end", "the game must end here")
        w.expect(
            end["public"]["ranking"] == [s + 1 for s in ranking], f"the ranking is {[s + 1 for s in ranking]}"
        )
        w.expect(
            [Counter(h) for h in end["hidden"]["hands"]] == self.hands, "the cards left are not the hands"
        )
        w.expect(w.next() is None, "events after the game ended")
        res = w.record["result"]
        w.expect(
            res["ranking"] == [s + 1 for s in ranking] and res["winner"] == ranking[0] + 1,
            "the result's ranking",
        )
        w.expect(res["turns"] == index, f"{index} turns, not {res['turns']}")
        return self.turns

    def deal(self) -> None:
        w = self.walk
        ev = w.expect_next("deal", "the cards must be dealt first")
        self.dealt_around(ev, self.deck if self.book else None)

    def opening(self) -> int:
        """The holder of the first card opens: a person says so; otherwise the virtual players are
        asked in seat order, with only that card valid."""
        w = self.walk
        holder = next((s for s in range(self.n) if self.hands[s][self.first]), None)
        w.expect(holder is not None, f"nobody holds {self.first}")
        assert holder is not None
        asking = [] if not w.virtual(holder + 1) else [s for s in range(self.n) if w.virtual(s + 1)]
        for seat in asking[: asking.index(holder)] if asking else []:
            ev = w.expect_next("turn", f"{w.name(seat + 1)} is asked next", seat + 1)
            pub = ev["public"]
            w.expect(
                pub["action"] == "pass" and pub["card"] is None,
                f"{w.name(seat + 1)} does not hold {self.first}",
            )
            w.expect(
                pub.get("asked") == self.first and ev["turn"] == 1,
                f"the table asks for {self.first} at turn 1",
            )
            self.check_runs(ev, seat, None, asked=True)
        ev = w.expect_next("turn", f"{w.name(holder + 1)} must open with {self.first}")
        w.expect(
            ev["seat"] == holder + 1 and ev["turn"] == 1, f"{w.name(holder + 1)} holds {self.first} and opens"
        )
        pub = ev["public"]
        w.expect(pub["action"] == "open" and pub["card"] == self.first, f"the game opens with {self.first}")
        w.expect(pub.get("asked") == (self.first if asking else None), "the opening asks whom it should ask")
        self.check_runs(ev, holder, self.first, asked=bool(asking))
        self.play(holder, self.first)
        self.turns += 1
        return holder

    def turn(self, ev: Mapping[str, Any], seat: int) -> None:
        w = self.walk
        pub = ev["public"]
        valid = self.valid_cards(seat)
        w.expect("asked" not in pub, "a card asked for after the opening")
        if pub["action"] == "pass":
            w.expect(pub["card"] is None, "a pass with a card")
            w.expect(not valid, f"{w.name(seat + 1)} passes holding valid cards ({show(valid)})")
            self.check_runs(ev, seat, None)
        else:
            w.expect(pub["action"] == "play", f"unknown action {pub['action']!r}")
            card = pub["card"]
            w.expect(self.hands[seat][card] > 0, f"{card} is not in {w.name(seat + 1)}'s hand")
            w.expect(card in valid, f"{card} may not be played on the layout {self.runs}")
            self.check_runs(ev, seat, card)
            self.play(seat, card)
        self.turns += 1

    def play(self, seat: int, card: str) -> None:
        self.walk.take(self.hands[seat], [card], "the hand")
        if not self.book:
            self.runs.setdefault("any", (0, 0))
            return
        suit, at = self.place(card)
        low, high = self.runs.get(suit, (at, at))
        self.runs[suit] = (min(low, at), max(high, at))

    def check_runs(self, ev: Mapping[str, Any], seat: int, card: str | None, asked: bool = False) -> None:
        """A virtual decision at card level is one protocol run on every hand (P_1 first)."""
        check_hands_run(self.walk, ev, self.protocol if self.card_level else None, self.hands, seat, card)
